"""GPU profile of training throughput (issue 11, "GPU-ready"): runs per minute on one CUDA GPU,
one run at a time (``train``) vs batched (``models.batched.train_many``), width 32, T = 16, the
S3 word problem, fp32 and bf16 autocast. Measured in one process, same machine, same run.

    python benchmarks/gpu_profile.py OUT.json [--steps 200] [--runs 32]

Writes a JSON record (device name, torch version, per-setting wall seconds and runs/minute, the
ratio batched / one at a time). Not part of any test run.
"""
from __future__ import annotations

import argparse
import json
import time

import torch

from seqtheory.models.batched import train_many
from seqtheory.models.training import TrainConfig, train


def _cfg(model: str, seed: int, steps: int, precision: str) -> TrainConfig:
    return TrainConfig(task="S3", model=model, depth=2, width=32, train_length=16, n_train=2048,
                       n_test=256, steps=steps, batch_size=64, warmup=10, log_every=50,
                       checkpoint_every=10 ** 6, seed=seed, precision=precision)


def _timed(fn) -> float:
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    fn()
    torch.cuda.synchronize()
    return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--steps", type=int, default=200)
    ap.add_argument("--runs", type=int, default=32)
    ap.add_argument("--single", type=int, default=4, help="runs timed one at a time")
    a = ap.parse_args()
    rec = {"device": torch.cuda.get_device_name(0), "torch": torch.__version__,
           "steps": a.steps, "width": 32, "train_length": 16, "batch_size": 64, "rows": []}
    train(_cfg("mamba", 999, 5, "fp32"), device="cuda")               # warm-up (kernels, caches)
    for model in ("mamba", "gla", "deltaproduct"):
        for precision in ("fp32", "bf16"):
            singles = [_cfg(model, s, a.steps, precision) for s in range(a.single)]
            t1 = _timed(lambda: [train(c, device="cuda") for c in singles]) / a.single
            row = {"model": model, "precision": precision, "single_s_per_run": t1,
                   "single_runs_per_min": 60.0 / t1}
            if precision == "fp32":                                    # batched engine: fp32/fp64
                group = [_cfg(model, 100 + s, a.steps, precision) for s in range(a.runs)]
                tb = _timed(lambda: train_many(group, device="cuda"))
                row.update(batched_runs=a.runs, batched_s=tb, batched_runs_per_min=60.0 * a.runs / tb,
                           ratio=(60.0 * a.runs / tb) / (60.0 / t1))
            rec["rows"].append(row)
            print(json.dumps(row), flush=True)
    with open(a.out, "w") as f:
        json.dump(rec, f, indent=1)


if __name__ == "__main__":
    main()

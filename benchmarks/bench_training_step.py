"""The training step of the batched engine against the engine of main at 760aeba, in one run.

    python benchmarks/bench_training_step.py [--device cpu|cuda] [--models mamba aussm ...]
        [--depths 1 2] [--lengths 16 128] [--runs 4] [--reps 3] [--quick-job] [--compile BACKEND]
    python -m pytest benchmarks/bench_training_step.py -m benchmark -s     (CPU, a small table)

Per model, depth and training length ``T``: milliseconds per step of a group of ``--runs`` runs
(S3 word problem, width 64, 4 heads, state 16, minibatch 32, float32, one torch thread on a CPU),
tokens per second (``runs × 32 × T`` per step), and on CUDA the share of the step's wall time
that the GPU spends in kernels (``torch.profiler``), for the current engine (``new``; with
``--compile BACKEND`` also ``compiled``, ``train_batched(compile=BACKEND)``) and the
engine of :data:`frozen_engine.BASELINE_COMMIT` (``old``, imported from the git history by
:mod:`frozen_engine`; the package keeps one engine). A step's cost is the median of the
intervals between the training's logs (every ``--every`` steps; setup and evaluation excluded),
the least over ``--reps`` trainings, the engines alternating (CPU time on a CPU, so other
processes on a shared machine distort it less; synchronised wall time on CUDA).

``--quick-job``: the CPU seconds of one quick training job of ``seqtheory verify`` (the AUSSM
depth-2 D8 group of the word-problem claims, 3 runs of 600 steps, evaluation included) with
each engine, beside a fixed loop of 10^7 Python additions.
"""
from __future__ import annotations

import argparse
import dataclasses
import sys
import time
from pathlib import Path

import pytest
import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))
from frozen_engine import BASELINE_COMMIT, load_engine  # noqa: E402

from seqtheory.models.batched import train_batched  # noqa: E402
from seqtheory.models.train import TrainConfig  # noqa: E402

MODELS = ("mamba", "signed_mamba", "aussm", "gla")


def _configs(model: str, depth: int, T: int, runs: int, steps: int,
             log_every: int | None = None) -> list[TrainConfig]:
    base = TrainConfig(task="S3", model=model, depth=depth, width=64, n_heads=4, d_state=16,
                       train_length=T, n_train=512, n_test=32, steps=steps, batch_size=32,
                       warmup=2, log_every=log_every or max(1, steps),
                       checkpoint_every=10 ** 6, precision="fp32")
    return [dataclasses.replace(base, seed=s) for s in range(runs)]


def _engines(compile: str | None = None):
    old = load_engine()

    def old_run(cfgs, device, on_progress=None):
        old_cfgs = [old.models.train.TrainConfig(**{k: v for k, v in dataclasses.asdict(c).items()
                                                    if k != "code_revision"}) for c in cfgs]
        return old.models.batched.train_batched(old_cfgs, device=device, on_progress=on_progress)

    engines = {"old": old_run,
               "new": lambda cfgs, device, on_progress=None: train_batched(
                   cfgs, device=device, on_progress=on_progress)}
    if compile:
        engines["compiled"] = lambda cfgs, device, on_progress=None: train_batched(
            cfgs, device=device, on_progress=on_progress, compile=compile)
    return engines


def _clock(device: str):
    if device == "cuda":
        def now():
            torch.cuda.synchronize()
            return time.perf_counter()
        return now
    return time.process_time


def _kernel_seconds(fn) -> tuple[float, float]:
    """``(kernel seconds, wall seconds)`` of ``fn()`` on CUDA, from ``torch.profiler``."""
    from torch.profiler import ProfilerActivity, profile

    torch.cuda.synchronize()
    t0 = time.perf_counter()
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
        fn()
        torch.cuda.synchronize()
    wall = time.perf_counter() - t0
    kernels = sum(getattr(e, "self_device_time_total", 0.0) for e in prof.key_averages()
                  if getattr(e, "device_type", None) == torch.autograd.DeviceType.CUDA)
    return kernels / 1e6, wall


def step_costs(model: str, depth: int, T: int, runs: int, device: str, reps: int,
               intervals: int, every: int, compile: str | None = None) -> dict[str, dict]:
    """Per engine (``old``, ``new``, and ``compiled`` with a ``compile`` backend): ``ms_step``,
    ``tokens_s`` and (CUDA) ``kernel_share`` of one step of a group. A training of
    ``(intervals + 1) · every`` steps logs every ``every`` steps; the clock is read at each log
    (``on_progress``; on CUDA after the log's read-back, i.e. with the queued work done), and a
    step costs the median interval over ``every``, the least over ``reps`` trainings (the
    engines alternate). The compiled engine's first (warm-up) training compiles."""
    engines, clock = _engines(compile), _clock(device)
    cfgs = _configs(model, depth, T, runs, (intervals + 1) * every, every)
    for run in engines.values():                                # warm-up: imports, kernels
        run(_configs(model, depth, T, runs, 2), device)
    best = {name: float("inf") for name in engines}
    for _ in range(reps):
        for name, run in engines.items():
            stamps: list[float] = []
            run(cfgs, device, lambda info: stamps.append(clock()))
            gaps = sorted(b - a for a, b in zip(stamps, stamps[1:]))
            best[name] = min(best[name], gaps[len(gaps) // 2] / every)
    out = {}
    for name, run in engines.items():
        sec = max(best[name], 1e-9)
        row = {"ms_step": 1e3 * sec, "tokens_s": runs * 32 * T / sec}
        if device == "cuda":
            short, long_ = (_configs(model, depth, T, runs, n * every, every) for n in (1, 4))
            k1, w1 = _kernel_seconds(lambda: run(short, device))
            k2, w2 = _kernel_seconds(lambda: run(long_, device))
            row["kernel_share"] = (k2 - k1) / max(1e-9, w2 - w1)
        out[name] = row
    return out


def quick_job_cpu(reps: int = 2) -> dict:
    """CPU seconds of the quick AUSSM depth-2 D8 job (3 runs) with each engine, and the loop."""
    from seqtheory.proofs_checks import training_runs as tr
    from seqtheory.proofs_checks.registry import Context, get_claim

    ctx = Context()
    jobs = tr.plan_jobs([get_claim("depth.exp.word_problems")], ctx)
    group = [c for c in jobs if not isinstance(c, tr.StoreJob) and c.model == "aussm"
             and c.depth == 2 and c.task == "D8"]
    seen: set = set()
    group = [c for c in group if not (c.key in seen or seen.add(c.key))]
    engines = _engines()
    best = {name: float("inf") for name in engines}
    threads = torch.get_num_threads()
    torch.set_num_threads(1)               # as verify's training workers (one thread each)
    try:
        for _ in range(reps):
            for name, run in engines.items():
                t0 = time.process_time()
                run(group, "cpu")
                best[name] = min(best[name], time.process_time() - t0)
    finally:
        torch.set_num_threads(threads)
    t0 = time.perf_counter()
    s = 0
    for i in range(10 ** 7):
        s += i
    return dict(best, runs=len(group), steps=group[0].steps, loop_s=time.perf_counter() - t0)


def _table(rows: list[tuple], device: str) -> str:
    names = list(rows[0][3])                                   # old, new[, compiled]
    head = f"{'model':13s} {'depth':>5s} {'T':>4s} | " + " ".join(f"{n + ' ms/step':>16s}" for n in names) \
        + " | " + " ".join(f"{n + ' x':>10s}" for n in names[1:]) + " | " \
        + " ".join(f"{n + ' tok/s':>14s}" for n in names)
    if device == "cuda":
        head += " | " + " ".join(f"{n + ' kernels':>16s}" for n in names)
    lines = [head, "-" * len(head)]
    for model, depth, T, r in rows:
        o = r["old"]["ms_step"]
        line = (f"{model:13s} {depth:5d} {T:4d} | " + " ".join(f"{r[n]['ms_step']:16.2f}" for n in names)
                + " | " + " ".join(f"{o / r[n]['ms_step']:9.2f}x" for n in names[1:]) + " | "
                + " ".join(f"{r[n]['tokens_s']:14.0f}" for n in names))
        if device == "cuda":
            line += " | " + " ".join(f"{100 * r[n]['kernel_share']:15.0f}%" for n in names)
        lines.append(line)
    return "\n".join(lines)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    ap.add_argument("--models", nargs="+", default=list(MODELS))
    ap.add_argument("--depths", nargs="+", type=int, default=[1, 2])
    ap.add_argument("--lengths", nargs="+", type=int, default=[16, 128])
    ap.add_argument("--runs", type=int, default=4)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--intervals", type=int, default=None,
                    help="timed intervals per training (their median counts)")
    ap.add_argument("--every", type=int, default=2, help="steps per timed interval")
    ap.add_argument("--quick-job", action="store_true")
    ap.add_argument("--compile", default=None, metavar="BACKEND",
                    help="also time train_batched(compile=BACKEND), e.g. inductor on CUDA")
    a = ap.parse_args(argv)
    if a.device == "cpu":
        torch.set_num_threads(1)
    intervals = a.intervals or (20 if a.device == "cuda" else 7)
    print(f"baseline: main at {BASELINE_COMMIT}; device {a.device}"
          + (f" ({torch.cuda.get_device_name(0)})" if a.device == "cuda" else "")
          + f"; torch {torch.__version__}; group of {a.runs} runs, minibatch 32, width 64; "
          f"step = median of {intervals} intervals of {a.every} steps, least of {a.reps} "
          f"trainings", flush=True)
    rows = []
    for model in a.models:
        for depth in a.depths:
            for T in a.lengths:
                rows.append((model, depth, T, step_costs(model, depth, T, a.runs, a.device,
                                                         a.reps, intervals, a.every, a.compile)))
                print(_table(rows[-1:], a.device).splitlines()[-1], flush=True)
    print(_table(rows, a.device))
    if a.quick_job:
        q = quick_job_cpu()
        print(f"quick job (AUSSM depth 2, D8, {q['runs']} runs x {q['steps']} steps): old "
              f"{q['old']:.2f} CPU-s, new {q['new']:.2f} CPU-s, {q['old'] / q['new']:.2f}x less; "
              f"loop {q['loop_s']:.2f} s")


@pytest.mark.benchmark
def test_training_step_table():
    main(["--device", "cpu", "--models", "mamba", "aussm", "--depths", "1", "2",
          "--lengths", "16", "128", "--runs", "2", "--reps", "2", "--quick-job"])


if __name__ == "__main__":
    main()

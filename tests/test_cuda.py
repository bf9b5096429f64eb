"""The same code on a CUDA GPU (SPEC §5 "Scale": ``--device cuda``). Skipped where torch sees no
GPU (CI has none); run on a GPU machine with ``python -m pytest tests/test_cuda.py``.

* every layer family gives the same outputs on CUDA as on the CPU (float64), in both the
  parallel (chunked / attention) and the recurrent form;
* a short training run finishes on CUDA in fp32 and with bf16 autocast, with finite metrics;
* batched training (:mod:`seqtheory.models.batched`) on CUDA gives each run the same losses as
  training it alone on CUDA.
"""
from __future__ import annotations

import math

import pytest
import torch

from seqtheory.models.train import TrainConfig, build_model, build_task, train

pytestmark = pytest.mark.skipif(not torch.cuda.is_available(), reason="torch sees no CUDA GPU")

MODELS = ("mamba", "signed_mamba", "aussm", "gla", "deltanet", "deltaproduct", "transformer")


def _small(model: str, **kw) -> TrainConfig:
    base = dict(task="S3", model=model, depth=2, width=32, train_length=12, n_train=256,
                n_test=64, steps=20, batch_size=16, warmup=2, log_every=5, checkpoint_every=10)
    base.update(kw)
    return TrainConfig(**base)


@pytest.mark.parametrize("model", MODELS)
def test_layers_agree_with_the_cpu_in_float64(model):
    cfg = _small(model)
    data = build_task(cfg)
    torch.manual_seed(0)
    net = build_model(cfg, data).double()
    tokens = torch.as_tensor(data.test_tokens[:8]).long()
    with torch.no_grad():
        cpu = net(tokens, mode="parallel")
        gpu_net = net.to("cuda")
        par = gpu_net(tokens.cuda(), mode="parallel").cpu()
        rec = gpu_net(tokens.cuda(), mode="recurrent").cpu()
    scale = max(1.0, float(cpu.abs().max()))
    assert float((par - cpu).abs().max()) <= 1e-9 * scale
    assert float((rec - cpu).abs().max()) <= 1e-9 * scale


@pytest.mark.parametrize("precision", ["fp32", "bf16"])
@pytest.mark.parametrize("model", ["gla", "deltaproduct"])
def test_training_runs_on_cuda(model, precision):
    res = train(_small(model, precision=precision), device="cuda")
    losses = [p["loss"] for p in res["curve"]]
    assert losses and all(math.isfinite(x) for x in losses)
    assert 0.0 <= res["test"]["seq_acc"] <= 1.0


def test_batched_training_equals_one_at_a_time_on_cuda():
    from seqtheory.models.batched import train_many

    cfgs = [_small("mamba", precision="fp64", seed=s, lr=lr) for s in (0, 1) for lr in (1e-3, 3e-3)]
    together = train_many(cfgs, device="cuda")
    for cfg, res in zip(cfgs, together):
        alone = train(cfg, device="cuda")
        a = [p["loss"] for p in alone["curve"]]
        b = [p["loss"] for p in res["curve"]]
        assert len(a) == len(b) and max(abs(x - y) for x, y in zip(a, b)) <= 1e-8


def test_compiled_step_on_cuda_equals_the_eager_step():
    # inductor with CUDA graphs (models/compiled_step.py): the same runs up to float32 rounding
    from seqtheory.models.batched import train_batched

    cfgs = [_small("aussm", seed=s, steps=10, curriculum_steps=0) for s in (0, 1)]
    eager = train_batched(cfgs, device="cuda")
    compiled = train_batched(cfgs, device="cuda", compile="inductor")
    for a, b in zip(eager, compiled):
        la, lb = ([p["loss"] for p in r["curve"]] for r in (a, b))
        assert len(la) == len(lb) and max(abs(x - y) for x, y in zip(la, lb)) <= 1e-3

"""The compiled step of the batched engine (models/compiled_step.py), on CPU: every layer family's
stacked forward traces without graph breaks (``fullgraph=True``: no value read back inside the
step), a compiled run equals the eager run, and a compiler failure falls back to eager with a
warning. (Code generation and CUDA graphs, the ``"inductor"`` backend on a GPU, are measured by
benchmarks/bench_training_step.py where a GPU is lent.)"""
from __future__ import annotations

import dataclasses

import numpy as np
import pytest
import torch

from seqtheory.models import compiled_step
from seqtheory.models.batched import train_batched
from seqtheory.models.compiled_step import check_compile, step_forward
from seqtheory.models.model import MODEL_NAMES, ModelConfig, SequenceModel
from seqtheory.models.nonfinite import unchecked
from seqtheory.models.stacking import stack_models
from seqtheory.models.train import TrainConfig


@pytest.fixture(autouse=True)
def _fresh_dynamo():
    torch._dynamo.reset()
    yield
    torch._dynamo.reset()


@pytest.mark.parametrize("name", MODEL_NAMES)
def test_every_family_traces_without_graph_breaks(name):
    models = [SequenceModel(ModelConfig(name, vocab_size=5, n_out=5, depth=1, width=8, n_heads=2,
                                        d_state=4)) for _ in range(2)]
    stacked = stack_models(models)
    x = torch.randint(0, 5, (2, 3, 7), generator=torch.Generator().manual_seed(0))
    y = torch.randint(0, 5, (2, 3, 7), generator=torch.Generator().manual_seed(1))
    eager = step_forward(stacked, False, None, torch.device("cpu"))
    traced = torch.compile(eager, backend="eager", fullgraph=True, dynamic=False)
    with unchecked():
        (o1, l1), (o2, l2) = eager(x, y), traced(x, y)
    assert torch.equal(o1, o2) and torch.equal(l1, l2)


CFGS = [TrainConfig(task="C3", model="mamba", depth=1, width=8, n_heads=2, d_state=4,
                    train_length=5, n_train=64, n_test=16, steps=4, batch_size=4, log_every=2,
                    warmup=1, precision="fp64", seed=s) for s in (0, 1)]


def test_a_compiled_run_equals_the_eager_run():
    eager = train_batched(CFGS, device="cpu")
    compiled = train_batched(CFGS, device="cpu", compile="aot_eager")
    for a, b in zip(eager, compiled):
        assert np.allclose([p["loss"] for p in a["curve"]], [p["loss"] for p in b["curve"]],
                           rtol=0, atol=1e-10)
        assert a["test"]["per_position_accuracy"] == b["test"]["per_position_accuracy"]


def test_a_compiler_failure_falls_back_to_eager(monkeypatch):
    def broken(fn, **kw):
        def call(*a):
            raise RuntimeError("no compiler here")
        return call

    monkeypatch.setattr(compiled_step.torch, "compile", broken)
    eager = train_batched(CFGS[:1], device="cpu")
    with pytest.warns(RuntimeWarning, match="no compiler here.*runs eagerly"):
        fallback = train_batched(CFGS[:1], device="cpu", compile="inductor")
    assert eager[0]["curve"] == fallback[0]["curve"]


def test_check_compile():
    cpu, cuda = torch.device("cpu"), torch.device("cuda")
    assert check_compile(None, cpu) is None and check_compile("auto", cpu) is None
    assert check_compile("auto", cuda) == "inductor" and check_compile("aot_eager", cpu) == "aot_eager"
    with pytest.raises(ValueError, match="compile must be"):
        check_compile("fast", cpu)
    with pytest.raises(ValueError, match="compile must be"):
        train_batched([dataclasses.replace(CFGS[0], steps=1)], device="cpu", compile=True)

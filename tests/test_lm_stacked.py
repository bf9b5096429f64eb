"""Stacked LM training (models/lm_stacked.py) gives each run exactly ``train_run``'s result."""
from __future__ import annotations

import math

import pytest
import torch
from hypothesis import example, given, settings
from hypothesis import strategies as st
from torch.optim._muon import _zeropower_via_newtonschulz

from seqtheory.models.lm import quick_config, train_run
from seqtheory.models.lm_experiment import head_comparison
from seqtheory.models.lm_stacked import StackedMuon, newton_schulz_stacked, train_stacked
from seqtheory.models.text import TextData, load_corpus

NS = ((3.4445, -4.7750, 2.0315), 5, 1e-7)     # torch.optim.Muon's defaults


def _cfg(**kw):
    # d_model 32: the smallest width of the quick configurations (see the module's docstring)
    base = dict(d_model=32, n_heads=4, seq_len=16, batch_size=4, n_layers=2, steps=8,
                eval_windows=4, max_bytes=30_000, warmup=2, tune_steps=4,
                adamw_grid=(1e-3, 3e-3), rownorm_grid=(1e-2, 3e-2))
    return quick_config(**dict(base, **kw))


@pytest.fixture(scope="module")
def data():
    return TextData.from_corpus(load_corpus(None, 30_000))


def _same(a: dict, b: dict) -> bool:
    """Equal results (all but the wall time ``seconds``); NaN equals NaN."""
    def key(v):
        if isinstance(v, float) and math.isnan(v):
            return "nan"
        return [key(x) for x in v] if isinstance(v, list) else v
    return {k: key(v) for k, v in a.items() if k != "seconds"} == \
        {k: key(v) for k, v in b.items() if k != "seconds"}


@pytest.mark.parametrize("kw", [{}, {"record_points": 3, "head_width": 48, "n_layers": 1}])
def test_each_run_is_train_runs_run(data, kw):
    cfg = _cfg(**kw)
    runs = [("adamw", 3e-3, 0), ("rownorm", 2e-2, 0), ("rownorm", 5e-2, 4), ("adamw", 1e-2, 9)]
    stacked = train_stacked(data, cfg, runs)
    for (head, lr, seed), got in zip(runs, stacked):
        ref = train_run(data, cfg, head, lr, seed)
        assert _same(got, ref), (head, lr, seed)
    assert len(stacked[0]["diameter"]) == (cfg.steps if not kw else 3)
    # the runs differ from each other: the comparison above can fail
    assert stacked[0]["val_loss"] != stacked[1]["val_loss"] != stacked[2]["val_loss"]


def test_a_diverging_run_stops_alone_as_in_train_run(data):
    cfg = _cfg(steps=6)
    runs = [("rownorm", 1e38, 1), ("adamw", 3e-3, 1)]
    stacked = train_stacked(data, cfg, runs, diagnostics=False)
    for (head, lr, seed), got in zip(runs, stacked):
        assert _same(got, train_run(data, cfg, head, lr, seed, diagnostics=False))
    assert not math.isfinite(stacked[0]["train_loss"]) and math.isfinite(stacked[1]["val_loss"])
    assert not _same(stacked[0], stacked[1])


def test_head_comparison_is_the_one_at_a_time_experiment(data):
    cfg = _cfg()
    res = head_comparison(cfg, seeds=(0, 1), data=data, tune_seed=7)
    for head, grid in (("adamw", cfg.adamw_grid), ("rownorm", cfg.rownorm_grid)):
        vals = [train_run(data, cfg, head, lr, 7, steps=cfg.tune_steps, diagnostics=False)["val_loss"]
                for lr in grid]
        assert res["tuning"][head]["val_losses"] == vals
        lr = res["lr_" + head]
        for seed, got in zip((0, 1), res["runs"][head]):
            assert _same(got, train_run(data, cfg, head, lr, seed))


@settings(max_examples=15, deadline=None)
@given(st.sampled_from([(32, 32), (96, 32), (32, 128), (128, 32), (48, 32)]), st.integers(1, 4),
       st.integers(0, 2 ** 31 - 1), st.floats(1e-6, 1e3))
@example((128, 32), 3, 0, 1e-6)
def test_batched_newton_schulz_is_torchs(shape, runs, seed, scale):
    g = torch.randn(runs, *shape, generator=torch.Generator().manual_seed(seed)) * scale
    ref = torch.stack([_zeropower_via_newtonschulz(m, *NS) for m in g])
    assert torch.equal(newton_schulz_stacked(g, *NS), ref)


def test_stacked_muon_is_torchs_muon_per_run():
    gen = torch.Generator().manual_seed(3)
    p0 = torch.randn(3, 32, 96, generator=gen)
    grads = [torch.randn(3, 32, 96, generator=gen) for _ in range(3)]
    stacked = p0.clone().requires_grad_()
    opt = StackedMuon([stacked], weight_decay=0.1)
    per_run = [p0[r].clone().requires_grad_() for r in range(3)]
    ref = [torch.optim.Muon([p], lr=0.02, weight_decay=0.1, adjust_lr_fn="match_rms_adamw")
           for p in per_run]
    for g in grads:
        stacked.grad = g.clone()
        opt.step(0.02)
        for r in range(3):
            per_run[r].grad = g[r].clone()
            ref[r].step()
    assert torch.equal(stacked.detach(), torch.stack([p.detach() for p in per_run]))
    assert not torch.equal(stacked.detach(), p0)


def test_bad_input(data):
    cfg = _cfg()
    with pytest.raises(ValueError, match="non-empty"):
        train_stacked(data, cfg, [])
    with pytest.raises(ValueError, match="head must be"):
        train_stacked(data, cfg, [("sgd", 0.1, 0)])
    with pytest.raises(TypeError, match="triple"):
        train_stacked(data, cfg, [("adamw", 0.1)])
    with pytest.raises(ValueError, match="head_lr"):
        train_stacked(data, cfg, [("adamw", -1.0, 0)])
    with pytest.raises(ValueError, match="head_lr"):
        train_stacked(data, cfg, [("rownorm", float("nan"), 0)])
    with pytest.raises(TypeError, match="seed"):
        train_stacked(data, cfg, [("rownorm", 0.1, 1.5)])
    with pytest.raises(ValueError, match="stack of matrices"):
        newton_schulz_stacked(torch.ones(3, 3), *NS)
    with pytest.raises(ValueError, match="stacked matrices"):
        StackedMuon([torch.ones(3, 3)], weight_decay=0.0)


@pytest.mark.parametrize("steps, exc", [(0, ValueError), (-1, ValueError), (1.5, TypeError),
                                        (True, TypeError)])
def test_bad_steps_are_refused_by_name(data, steps, exc):
    # was a numpy "zero-size array" error (0, -1) deep in the diagnostics, or True ran one step
    for train in (lambda: train_stacked(data, _cfg(), [("adamw", 3e-3, 0)], steps=steps),
                  lambda: train_run(data, _cfg(), "adamw", 3e-3, 0, steps=steps)):
        with pytest.raises(exc, match="steps"):
            train()


def test_a_diverging_run_with_diagnostics_stops_alone(data):
    # an AdamW head at lr 1e30: its head update turns non-finite (weight decay of a 1e30 head)
    # while the loss is still finite; the diagnostics had raised on it (train_run, and the stack:
    # the other runs were lost with it). Now that step is skipped
    cfg = _cfg(steps=4)
    runs = [("adamw", 3e-3, 2), ("adamw", 1e30, 1), ("rownorm", 2e-2, 2)]
    stacked = train_stacked(data, cfg, runs)
    for (head, lr, seed), got in zip(runs, stacked):
        assert _same(got, train_run(data, cfg, head, lr, seed)), (head, lr)
    diverged = stacked[1]
    assert not math.isfinite(diverged["train_loss"])
    assert 0 < len(diverged["recorded_steps"]) < cfg.steps
    assert len(diverged["diameter"]) == len(diverged["recorded_steps"])
    assert len(stacked[0]["diameter"]) == cfg.steps

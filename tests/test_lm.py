"""Tiny decoder LM, text loading and the head-comparison machinery (smoke tests)."""
from __future__ import annotations

import math

import numpy as np
import pytest
import torch

from seqtheory.models.lm import DecoderLM, quick_config, train_run
from seqtheory.models.lm_experiment import head_comparison, summarise
from seqtheory.models.text import TextData, load_corpus, stdlib_source_files


def test_stdlib_corpus_and_user_corpus(tmp_path):
    assert stdlib_source_files()
    data = load_corpus(None, max_bytes=5000)
    assert len(data) == 5000
    (tmp_path / "b.txt").write_text("world " * 50)
    (tmp_path / "a.txt").write_text("hello " * 50)
    folder = load_corpus(tmp_path, max_bytes=10 ** 6)
    assert folder.startswith(b"hello") and folder.endswith(b"world ")
    assert load_corpus(tmp_path / "a.txt") == b"hello " * 50
    with pytest.raises(ValueError, match="neither"):
        load_corpus(tmp_path / "missing")
    with pytest.raises(ValueError):
        load_corpus(None, max_bytes=0)


def test_textdata_split_and_batches_deterministic():
    td = TextData.from_corpus(b"abcdefghij" * 100, level="char", val_fraction=0.2)
    assert td.vocab_size == 10 and len(td.val) == 200
    g1, g2 = torch.Generator().manual_seed(3), torch.Generator().manual_seed(3)
    x1, y1 = td.batch("train", 4, 8, g1)
    x2, _ = td.batch("train", 4, 8, g2)
    assert torch.equal(x1, x2) and torch.equal(x1[:, 1:], y1[:, :-1])
    with pytest.raises(ValueError):
        td.batch("test", 1, 4, g1)
    with pytest.raises(ValueError, match="level"):
        TextData.from_corpus(b"abc", level="words")
    with pytest.raises(ValueError, match="too small"):
        TextData.from_corpus(b"abc", level="word")


def test_model_shapes_and_causality():
    cfg = quick_config(d_model=16, n_heads=2, seq_len=8, n_layers=1)
    torch.manual_seed(0)
    m = DecoderLM(11, cfg)
    x = torch.randint(0, 11, (2, 8))
    out = m(x)
    assert out.shape == (2, 8, 11) and m.head.bias is None
    x2 = x.clone()
    x2[:, -1] = (x2[:, -1] + 1) % 11
    assert torch.allclose(m(x2)[:, :-1], out[:, :-1], atol=1e-6)   # causal


def test_head_width_model_and_recorded_steps():
    from seqtheory.models.lm import record_steps
    from seqtheory.models.optim import split_parameters

    cfg = quick_config(d_model=16, n_heads=2, seq_len=8, n_layers=1, head_width=40)
    m = DecoderLM(11, cfg)
    assert cfg.width == 40 and m.head.weight.shape == (11, 40)
    assert m.hidden(torch.randint(0, 11, (2, 8))).shape == (2, 8, 40)
    hidden, _, _ = split_parameters(m, m.head.weight, [m.tok.weight, m.pos.weight])
    assert any(p is m.up.weight for p in hidden)                   # Muon trains the projection
    assert quick_config().width == 32 and DecoderLM(11, quick_config()).up is None
    assert record_steps(0, 5) == {0, 1, 2, 3, 4} and record_steps(9, 5) == {0, 1, 2, 3, 4}
    assert record_steps(3, 101) == {0, 50, 100}
    for bad in (dict(head_width=0), dict(record_points=-1)):
        with pytest.raises(ValueError, match=next(iter(bad))):
            quick_config(**bad)


def test_tiny_training_smoke_and_diagnostics():
    cfg = quick_config(d_model=16, n_heads=2, seq_len=16, batch_size=4, n_layers=1,
                       eval_windows=4, max_bytes=50_000, warmup=2)
    data = TextData.from_corpus(load_corpus(None, cfg.max_bytes))
    r = train_run(data, cfg, "rownorm", 0.02, seed=0, steps=25)
    assert r["val_loss"] < r["val_loss_init"]
    assert len(r["diameter"]) == 25 and r["bound_ok"] and r["identity_err_max"] < 1e-10
    # RowNorm's diameter bound D(S) ≤ 2·lr (the lr is scheduled, so ≤ 2·0.02)
    assert max(r["diameter"]) <= 2 * 0.02 * (1 + 1e-5)
    a = train_run(data, cfg, "adamw", 0.003, seed=0, steps=25)
    s = summarise([a], [r])
    # the paper's statistic: ratio of the (mean over seeds of the) final-step values
    assert s["ratio_diameter"] == pytest.approx(a["diameter"][-1] / r["diameter"][-1])
    assert s["ratio_hilbert_rms"] == pytest.approx(a["hilbert_rms"][-1] / r["hilbert_rms"][-1])
    assert 0.0 <= s["frac_steps_b_smaller"] <= 1.0
    assert math.isnan(s["val_loss_diff_se"])
    with pytest.raises(ValueError):
        train_run(data, cfg, "sgd", 0.1, seed=0)


def test_same_seed_same_numbers():
    cfg = quick_config(d_model=16, n_heads=2, seq_len=16, batch_size=4, n_layers=1,
                       eval_windows=4, max_bytes=30_000, warmup=2)
    data = TextData.from_corpus(load_corpus(None, cfg.max_bytes))
    r1 = train_run(data, cfg, "adamw", 0.003, seed=5, steps=5)
    r2 = train_run(data, cfg, "adamw", 0.003, seed=5, steps=5)
    assert r1["diameter"] == r2["diameter"] and r1["val_loss"] == r2["val_loss"]


def test_head_comparison_with_tuning_micro():
    cfg = quick_config(d_model=16, n_heads=2, seq_len=16, batch_size=4, n_layers=1, steps=8,
                       tune_steps=4, eval_windows=4, max_bytes=30_000, warmup=2,
                       adamw_grid=(1e-3, 3e-3), rownorm_grid=(1e-2,))
    res = head_comparison(cfg, seeds=(0, 1))
    assert res["tuning"]["adamw"]["lr"] in (1e-3, 3e-3)
    assert res["lr_rownorm"] == 1e-2 and not res["tuning"]["rownorm"]["at_edge"]
    assert len(res["summary"]["ratio_diameter_per_seed"]) == 2

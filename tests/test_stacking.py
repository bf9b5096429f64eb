"""Stacked runs (models/stacking.py): a stacked model is its runs' models side by side, outputs and
gradients included, for every layer family; the run-aware Linear/Embedding are nn.Linear /
nn.Embedding when unstacked."""
from __future__ import annotations

import pytest
import torch
from torch import nn

from seqtheory.models.model import MODEL_NAMES, ModelConfig, SequenceModel
from seqtheory.models.nonfinite import unchecked
from seqtheory.models.stacking import Embedding, Linear, fold, run_view, stack_models, unfold

R = 3


def _models(name, positions="rotary", dtype=torch.float64):
    cfg = ModelConfig(name, vocab_size=6, n_out=4, depth=2, width=16, n_heads=2, d_state=4,
                      positions=positions)
    out = []
    for s in range(R):
        torch.manual_seed(s)
        out.append(SequenceModel(cfg).to(dtype))
    return out


@pytest.mark.parametrize("name,positions", [(n, "rotary") for n in MODEL_NAMES]
                         + [("transformer", "learned")])
@pytest.mark.parametrize("mode", ["parallel", "recurrent"])
def test_stacked_model_is_its_runs_side_by_side(name, positions, mode):
    models = _models(name, positions)
    stacked = stack_models(models)
    tokens = torch.randint(0, 6, (R, 4, 19), generator=torch.Generator().manual_seed(1))
    out = stacked(tokens, mode=mode)
    assert out.shape == (R, 4, 19, 4)
    w = torch.randn(out.shape, generator=torch.Generator().manual_seed(2), dtype=out.dtype)
    (out * w).sum().backward()
    for r, m in enumerate(models):
        o = m(tokens[r], mode=mode)
        assert (o - out[r]).abs().max().item() < 1e-12
        (o * w[r]).sum().backward()
        for (n, p), (n2, ps) in zip(m.named_parameters(), stacked.named_parameters()):
            assert n == n2 and (p.grad - ps.grad[r]).abs().max().item() < 1e-12, n


def test_stacked_model_unchecked_and_checked_agree():
    stacked = stack_models(_models("aussm", dtype=torch.float32))
    tokens = torch.randint(0, 6, (R, 5, 9), generator=torch.Generator().manual_seed(3))
    with unchecked():
        a = stacked(tokens)
    assert torch.equal(a, stacked(tokens))


def test_the_originals_are_not_changed():
    models = _models("mamba")
    before = [{n: p.clone() for n, p in m.named_parameters()} for m in models]
    stacked = stack_models(models)
    with torch.no_grad():
        for p in stacked.parameters():
            p.add_(1.0)
    for m, b in zip(models, before):
        assert all(torch.equal(p, b[n]) for n, p in m.named_parameters())
        assert m.runs == 0 and m.blocks[0].mixer.runs == 0


def test_unstacked_layers_are_torch_layers():
    torch.manual_seed(0)
    lin, ref = Linear(5, 7), nn.Linear(5, 7)
    ref.load_state_dict(lin.state_dict())
    x = torch.randn(3, 4, 5)
    assert torch.equal(lin(x), ref(x))
    emb, eref = Embedding(9, 4), nn.Embedding(9, 4)
    eref.load_state_dict(emb.state_dict())
    idx = torch.randint(0, 9, (2, 6))
    assert torch.equal(emb(idx), eref(idx))


def test_helpers():
    p = torch.arange(6.0).reshape(2, 3)
    assert run_view(p, 4, 0) is p and run_view(p, 4, 2).shape == (2, 1, 1, 3)
    t = torch.randn(2, 5, 7)
    assert fold(t, 0) is t and fold(t, 2).shape == (10, 7) and torch.equal(unfold(fold(t, 2), 2), t)
    assert fold(None, 2) is None


def test_stack_models_refuses_other_architectures():
    with pytest.raises(ValueError, match="empty"):
        stack_models([])
    a = _models("mamba")[0]
    b = SequenceModel(ModelConfig("mamba", vocab_size=6, n_out=4, depth=1, width=16, n_heads=2,
                                  d_state=4)).double()
    with pytest.raises(ValueError, match=r"models\[1\] differs"):
        stack_models([a, b])


def test_stacked_tokens_are_checked():
    stacked = stack_models(_models("gla"))
    with pytest.raises(ValueError, match=r"\(runs, batch, time\)"):
        stacked(torch.zeros(4, 5, dtype=torch.long))
    with pytest.raises(ValueError, match="tokens must lie"):
        stacked(torch.full((R, 2, 3), 6))

"""RowNorm / AdamWHead / Muon wiring and the head diagnostics ([HEAD] arXiv:2608.22253v2)."""
from __future__ import annotations

import inspect

import numpy as np
import pytest
import torch
from hypothesis import given, settings, strategies as st

from seqtheory.models.optim import AdamWHead, HeadDiagnostics, RowNorm, muon_for_hidden
from seqtheory.numerics.head_oracles import rownorm_update
from seqtheory.theory.hilbert import row_diameter

SET = settings(max_examples=15, deadline=None)


def _param(V, d, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.nn.Parameter(torch.randn(V, d, generator=g, dtype=torch.float64))


@SET
@given(st.integers(2, 9), st.integers(1, 6), st.integers(0, 10 ** 6), st.floats(1e-3, 1.0))
def test_first_step_is_projected_rownorm(V, d, seed, lr):
    p = _param(V, d, seed)
    p.grad = torch.randn(V, d, generator=torch.Generator().manual_seed(seed + 1),
                         dtype=torch.float64) + 1.0
    opt = RowNorm([p], lr=lr, eps=1e-30)
    S = opt.step()[0].numpy()
    # bias-corrected EMA after one step is the gradient itself: S = −(η/2) P RN(P G), η = 2 lr
    assert np.allclose(S, rownorm_update(p.grad.numpy(), 2 * lr), atol=1e-12)
    assert np.abs(S.sum(axis=0)).max() < 1e-12
    assert row_diameter(S)[0] <= 2 * lr * (1 + 1e-12)


def test_ema_bias_correction_and_weight_decay():
    p = _param(3, 2, 0)
    opt = RowNorm([p], lr=0.1, beta=0.5, centre=False, weight_decay=0.5)
    g1 = torch.tensor([[1.0, 0.0], [0.0, 2.0], [3.0, 4.0]], dtype=torch.float64)
    g2 = -g1
    for g in (g1, g2):
        p.grad = g.clone()
        before = p.detach().clone()
        S = opt.step()[0]
    m = (0.5 * 0.5 * g1 + 0.5 * g2) / (1 - 0.25)            # = −g1/3: direction of −g1
    R = m / (m.norm(dim=1, keepdim=True) + 1e-8)
    # the step excludes the weight decay (as [HEAD]'s diagnostics do); the parameter gets both
    assert torch.allclose(S, -0.1 * R, atol=1e-12)
    assert torch.allclose(p.detach() - before, -0.1 * 0.5 * before - 0.1 * R, atol=1e-12)


def test_zero_gradient_gives_zero_update_and_bad_args():
    p = _param(4, 3, 0)
    p.grad = torch.zeros_like(p)
    assert torch.count_nonzero(RowNorm([p], lr=0.1).step()[0]) == 0
    with pytest.raises(ValueError, match="2-D"):
        RowNorm([torch.nn.Parameter(torch.zeros(3))])
    with pytest.raises(ValueError, match="beta"):
        RowNorm([p], beta=1.0)
    with pytest.raises(ValueError, match="lr"):
        RowNorm([p], lr=-1)
    with pytest.raises(ValueError, match="eps"):
        RowNorm([p], eps=0)


def test_adamw_head_returns_its_step_without_weight_decay():
    p = _param(5, 3, 1)
    # a seeded draw (the global RNG made it flaky: an entry of |g| ~ 1e-4 moves the first Adam
    # step lr·g/(|g| + eps) off lr·sign(g) by ~lr·eps/|g| > 1e-9); smallest |g| here 0.18
    p.grad = torch.randn(5, 3, dtype=torch.float64, generator=torch.Generator().manual_seed(0))
    before = p.detach().clone()
    opt = AdamWHead([p], lr=0.01, weight_decay=0.1)
    S = opt.step()[0]
    # the parameter moves by the step and the decay −lr·wd·θ; the step excludes the decay
    assert torch.allclose(p.detach() - before, S - 0.001 * before, atol=1e-15)
    # first AdamW step: −lr·sign(g) (up to eps)
    assert torch.allclose(S, -0.01 * torch.sign(p.grad), atol=1e-9)


def test_adamw_head_step_is_the_adam_step_in_float32():
    # float32 head (as trained): the step is exactly what AdamW adds to the decayed parameter
    torch.manual_seed(3)
    p = torch.nn.Parameter(torch.randn(7, 4))
    opt = AdamWHead([p], lr=3e-3, weight_decay=0.1)
    ref = torch.optim.AdamW([q := torch.nn.Parameter(p.detach().clone())], lr=3e-3,
                            weight_decay=0.0)
    for _ in range(3):
        g = torch.randn(7, 4)
        p.grad, q.grad = g.clone(), g.clone()
        before_q = q.detach().clone()
        S = opt.step()[0]
        ref.step()
        # Adam's moments do not see the decay, so the step equals the no-decay AdamW step
        assert torch.allclose(S, q.detach() - before_q, rtol=0, atol=2e-7)


def test_muon_signature_and_backbone():
    sig = inspect.signature(torch.optim.Muon.__init__)
    assert {"lr", "weight_decay", "momentum", "nesterov", "ns_steps", "adjust_lr_fn"} <= set(
        sig.parameters)
    W = torch.nn.Parameter(torch.randn(4, 3))
    b = torch.nn.Parameter(torch.randn(3))
    opts = muon_for_hidden([W], [b], lr=0.01)
    assert isinstance(opts[0], torch.optim.Muon) and isinstance(opts[1], torch.optim.AdamW)
    W.grad, b.grad = torch.randn(4, 3), torch.randn(3)
    W0 = W.detach().clone()
    for o in opts:
        o.step()
    assert not torch.equal(W0, W.detach())


def test_head_diagnostics_identity_and_bound():
    torch.manual_seed(0)
    U = torch.randn(7, 4) * 3
    S = torch.randn(7, 4) * 0.1
    H = torch.randn(10, 4)
    diag = HeadDiagnostics()
    rec = diag.record(S, U, H)
    S64, H64 = S.double().numpy(), H.double().numpy()
    assert rec["diameter"] == pytest.approx(row_diameter(S64)[0])
    var = np.ptp(H64 @ S64.T, axis=1)
    assert rec["hilbert_max"] == pytest.approx(var.max())
    assert rec["hilbert_rms"] == pytest.approx(np.sqrt(np.mean(var ** 2)))
    assert rec["identity_err"] < 1e-12 and rec["bound_ok"]
    assert diag.series("diameter").shape == (1,)

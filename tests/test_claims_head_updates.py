"""The [HEAD] update-geometry claims added by issue 10 part 5: ``head.spectral_norm_mismatch``,
``head.ema_rownorm_bound``, ``head.backward_bound_u_dependence``. Verdicts on the quick profile,
controls through the claims' own decision rules, the rules on synthetic evidence, and property
tests of the quantities behind them."""
from __future__ import annotations

import math

import numpy as np
import pytest
from controls import control_through_rule
from hypothesis import example, given, settings
from hypothesis import strategies as st

from seqtheory.numerics.head_backward import (
    backward_change, backward_signal, u_dependent_backward_bound,
)
from seqtheory.proofs_checks.claims import head_backward_u as bu
from seqtheory.models import rownorm_streams as rs
from seqtheory.proofs_checks.claims import head_ema_rownorm as er
from seqtheory.proofs_checks.claims import head_spectral as sp_
from seqtheory.proofs_checks.registry import Context, Verdict, get_claim
from seqtheory.theory.hilbert import hilbert_change, row_diameter

EXPECTED = {
    # exact instances of a statement for every V and a: supported, the instances counted
    "head.spectral_norm_mismatch": Verdict.SUPPORTED,
    "head.ema_rownorm_bound": Verdict.SUPPORTED,
    # the statement (a valid bound must involve U) is certified by an exact family; the
    # U-dependent bound itself is head.backward_change_bound (supported)
    "head.backward_bound_u_dependence": Verdict.CONFIRMED,
}
REJECTED_FOR = {
    "head.spectral_norm_mismatch": "output changes",
    "head.ema_rownorm_bound": "D(S_t)/γ_t reaches",
    "head.backward_bound_u_dependence": "a bound independent of U holds",
}
RULES = {
    "head.spectral_norm_mismatch": sp_.spectral_mismatch_decide,
    "head.ema_rownorm_bound": er.ema_rownorm_decide,
    "head.backward_bound_u_dependence": bu.backward_u_decide,
}


@pytest.mark.parametrize("cid", sorted(EXPECTED))
def test_claim_verdict_and_control(cid):
    c = get_claim(cid)
    assert c.decision is RULES[cid]
    assert c.source.arxiv == "2608.22253" and c.source.version == "v2"
    ctx = Context(seed=0)
    out = c.check(ctx)
    assert out.verdict is EXPECTED[cid], out.key_figure
    ctl = control_through_rule(c, ctx)
    assert ctl.rejected, ctl.reason
    assert REJECTED_FOR[cid] in ctl.reason, ctl.reason          # rejected for the right reason


# ---------------------------------------------------------------------------------------------
# head.spectral_norm_mismatch
# ---------------------------------------------------------------------------------------------
def _inst(**kw):
    r = {"V": 3, "a": [1, 2], "output_change_zero": True, "rows_equal": True, "gram_rank": 1,
         "op_norm_sq": 15, "stated_op_norm_sq": 15}
    r.update(kw)
    return r


def test_spectral_rule():
    v, why = sp_.spectral_mismatch_decide([_inst(), _inst(V=5)])
    assert v is Verdict.SUPPORTED and "2 instances (V=3, a=[1, 2], V=5, a=[1, 2])" in why
    for bad in ({"output_change_zero": False}, {"rows_equal": False}, {"gram_rank": 2},
                {"op_norm_sq": 14}, {"op_norm_sq": 0, "stated_op_norm_sq": 0}):
        v, why = sp_.spectral_mismatch_decide([_inst(), _inst(**bad)])
        assert v is Verdict.REFUTED, bad
    assert sp_.spectral_mismatch_decide([])[0] is Verdict.INCONCLUSIVE


def test_spectral_exact_instance_oracle():
    r = sp_._exact_instance(4, [1, -2, 2], sp_._softmax_output_change)
    assert r["output_change_zero"] and r["rows_equal"]
    assert r["gram_rank"] == 1 and r["op_norm_sq"] == r["stated_op_norm_sq"] == 4 * 9
    assert not sp_._exact_instance(4, [1, -2, 2], sp_._logit_output_change)["output_change_zero"]


@settings(max_examples=40, deadline=None)
@example(V=2, a=[5.738627219253637e-200], seed=0)
@given(V=st.integers(2, 40),
       a=st.lists(st.floats(-1e3, 1e3, allow_subnormal=False), min_size=1, max_size=6),
       seed=st.integers(0, 2**32 - 1))
def test_constant_row_update_changes_no_output(V, a, seed):
    a = np.array(a)
    S = np.outer(np.ones(V), a)
    hs = np.random.default_rng(seed).normal(size=(50, a.size)) * 10
    assert np.all(hilbert_change(S, hs) == 0.0)
    assert row_diameter(S)[0] == 0.0
    # math.hypot does not underflow for tiny entries (np.linalg.norm of a vector squares them)
    assert np.linalg.norm(S, 2) == pytest.approx(math.sqrt(V) * math.hypot(*a), rel=1e-12)


# ---------------------------------------------------------------------------------------------
# head.ema_rownorm_bound
# ---------------------------------------------------------------------------------------------
def test_ema_rule():
    assert er.ema_rownorm_decide(1.9999999, 2.0)[0] is Verdict.SUPPORTED
    assert er.ema_rownorm_decide(2.0 + 1e-6, 2.0)[0] is Verdict.REFUTED
    assert er.ema_rownorm_decide(float("nan"), 2.0)[0] is Verdict.REFUTED
    assert er.ema_rownorm_decide(1.5, 1.0)[0] is Verdict.REFUTED        # bound γ_t
    assert er.ema_rownorm_decide(1.9, 2.0, rounding=1e-6)[0] is Verdict.INCONCLUSIVE


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), kind=st.sampled_from(rs.STREAM_KINDS),
       sched=st.sampled_from(rs.LR_SCHEDULES), beta=st.floats(0.0, 0.999),
       log_eps=st.floats(-12, -2), V=st.integers(2, 9), d=st.integers(1, 5))
def test_rownorm_steps_keep_diameter_below_twice_lr(seed, kind, sched, beta, log_eps, V, d):
    rng = np.random.default_rng(seed)
    r = rs.run_stream(rs.rownorm_factory(beta, 10.0 ** log_eps),
                      rs.gradient_stream(rng, kind, V, d, 6), rs.lr_schedule(rng, sched, 6),
                      rng.normal(size=(V, d)) * 0.1)
    assert max(r["ratios"]) <= 2.0 * (1 + 1e-9)


def test_constant_two_is_approached_and_one_is_refuted():
    ev = rs.stream_evidence(Context(seed=3).numpy_seed("head.ema_rownorm_bound"), rs.rownorm_factory,
                            4, 5)   # includes antipodal
    assert ev["max_ratio"] > 2.0 - 1e-6
    assert er.ema_rownorm_decide(ev["max_ratio"], 1.0)[0] is Verdict.REFUTED


def test_centring_does_not_enter_the_diameter_bound():
    """Without P, RowNorm also keeps D(S_t) ≤ 2γ_t: the bound rests on the normalisation, not on
    the centring (P gives 1ᵀS = 0), so dropping P is no negative control for this claim."""
    from seqtheory.models.optim import RowNorm

    rng = np.random.default_rng(0)
    grads = rs.gradient_stream(rng, "gaussian", 5, 3, 5)
    lrs, U0 = rs.lr_schedule(rng, "random", 5), rng.normal(size=(5, 3))
    with_p = rs.run_stream(rs.rownorm_factory(0.9, 1e-8), grads, lrs, U0)["ratios"]
    without = rs.run_stream(lambda ps: RowNorm(ps, lr=1.0, beta=0.9, eps=1e-8, centre=False),
                            grads, lrs, U0)["ratios"]
    assert max(with_p) <= 2 and max(without) <= 2


def test_gradient_stream_bad_input():
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match="kind"):
        rs.gradient_stream(rng, "nope", 3, 2, 2)
    with pytest.raises(ValueError, match="V ≥ 2"):
        rs.gradient_stream(rng, "gaussian", 1, 2, 2)
    with pytest.raises(ValueError, match="schedule"):
        rs.lr_schedule(rng, "nope", 3)


# ---------------------------------------------------------------------------------------------
# head.backward_bound_u_dependence
# ---------------------------------------------------------------------------------------------
_C = [{"candidate": "D(S)", "bound": 1.0, "change": 2.0}]


def test_backward_u_rule():
    assert bu.backward_u_decide(True, _C, 0.94, [])[0] is Verdict.CONFIRMED
    assert bu.backward_u_decide(False, _C, 0.94, [])[0] is Verdict.INCONCLUSIVE
    # a proven U-free bound refutes "must depend on U" (the frozen reading has one) ...
    assert bu.backward_u_decide(False, _C, 0.94, ["D(S)"])[0] is Verdict.REFUTED
    # ... unless the family grows without bound anyway: the evidence contradicts itself
    assert bu.backward_u_decide(True, _C, 0.94, ["D(S)"])[0] is Verdict.INCONCLUSIVE
    assert bu.backward_u_decide(True, [{**_C[0], "change": 0.5}], 0.94, [])[0] \
        is Verdict.INCONCLUSIVE
    assert bu.backward_u_decide(True, [], 0.94, [])[0] is Verdict.INCONCLUSIVE
    assert bu.backward_u_decide(True, _C, 1.2, [])[0] is Verdict.INCONCLUSIVE


def test_family_closed_form_is_exact():
    fam = bu.family_evidence(frozen=False)
    assert fam["closed_form_ok"] and fam["growth_positive"] and fam["growth_exact"] == "tanh(1/2)"
    frozen = bu.family_evidence(frozen=True)
    assert frozen["closed_form_ok"] and not frozen["growth_positive"]


def test_family_matches_the_float_backward_change():
    s, lam = 1.0, 37.0
    U = lam * np.array([[0.0, 1.0], [0.0, -1.0]])
    S = (s / 2) * np.array([[1.0, 0.0], [-1.0, 0.0]])
    got = backward_change(U, S, np.array([1.0, 0.0]), 0)
    sig = 1 / (1 + np.exp(s))
    np.testing.assert_allclose(got, [-s * sig, lam * np.tanh(s / 2)], rtol=1e-13)


_arrays = st.tuples(st.integers(2, 8), st.integers(1, 5), st.integers(0, 2**32 - 1),
                    st.floats(-3, 1.5), st.floats(-3, 1))


@settings(max_examples=60, deadline=None)
@given(_arrays)
def test_backward_change_split_and_u_dependent_bound(args):
    V, d, seed, lu, ls = args
    rng = np.random.default_rng(seed)
    U, S = rng.normal(size=(V, d)) * 10 ** lu, rng.normal(size=(V, d)) * 10 ** ls
    h, y = rng.normal(size=d), int(rng.integers(V))
    dg = backward_change(U, S, h, y)
    direct = backward_signal(U + S, h, y) - backward_signal(U, h, y)
    np.testing.assert_allclose(dg, direct, atol=1e-12 * (1 + np.abs(U).max() + np.abs(S).max()))
    assert np.linalg.norm(dg) <= u_dependent_backward_bound(U, S, h, y) * (1 + 1e-12) + 1e-15
    frozen = backward_change(U, S, h, y, frozen_probabilities=True)
    p = np.exp(U @ h - (U @ h).max())
    p /= p.sum()
    p[y] -= 1
    np.testing.assert_allclose(frozen, S.T @ p, atol=1e-12 * (1 + np.abs(S).max()))


def test_backward_change_bad_input():
    U, S, h = np.zeros((3, 2)), np.zeros((3, 2)), np.zeros(2)
    with pytest.raises(ValueError, match="S must have the shape"):
        backward_change(U, np.zeros((2, 2)), h, 0)
    with pytest.raises(ValueError, match="h must have shape"):
        backward_change(U, S, np.zeros(3), 0)
    with pytest.raises(ValueError, match="y must be in"):
        backward_change(U, S, h, 3)
    with pytest.raises(TypeError, match="y must be an int"):
        backward_change(U, S, h, 1.0)
    with pytest.raises(ValueError, match="NaN"):
        backward_change(U, S, np.array([np.nan, 0.0]), 0)
    with pytest.raises(ValueError, match="at least 2 rows"):
        backward_signal(np.zeros((1, 2)), h, 0)
    with pytest.raises(TypeError, match="S must be"):
        u_dependent_backward_bound(U, None, h, 0)


def test_rownorm_normalises_rows_whose_squares_overflow_float32():
    """A float32 gradient row of size 1e20 (its square overflows) is normalised like any other:
    the step moves each row by lr in Euclidean norm, with no inf/nan."""
    import torch

    from seqtheory.models.optim import RowNorm

    p = torch.nn.Parameter(torch.zeros(3, 2, dtype=torch.float32))
    opt = RowNorm([p], lr=0.5, beta=0.0, eps=1e-8, centre=False)
    p.grad = torch.tensor([[1e20, 1e20], [3e-3, 4e-3], [0.0, 0.0]], dtype=torch.float32)
    opt.step()
    assert torch.isfinite(p).all()
    assert p.norm(dim=1).tolist() == pytest.approx([0.5, 0.5 * 5e-3 / (5e-3 + 1e-8), 0.0], rel=1e-6)

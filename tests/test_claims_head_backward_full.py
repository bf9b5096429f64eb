"""``head.backward_change_bound``: the backward-change bound in the form of [HEAD] App. C (the
branch minimum with tanh(δ/4), D(S) + D_min·tanh(D(S)‖h‖/4), η(1 + H·D_min/4)), the package's
TV form beside it, their tightness and a smaller constant as the control."""
from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from controls import control_through_rule

from seqtheory.numerics.head_backward import (backward_change, backward_change_bounds,
                                              backward_change_ratios_exact, eta_form_backward_bound,
                                              u_dependent_backward_bound)
from seqtheory.proofs_checks.claims import head_backward_full as hb
from seqtheory.proofs_checks.registry import Context, Verdict, get_claim


def test_claim_supported_and_control_refuted():
    c = get_claim("head.backward_change_bound")
    ctx = Context(seed=0)
    out = c.check(ctx)
    assert out.verdict is Verdict.SUPPORTED, out.key_figure
    assert "tanh(δ/4)" in c.statement and "Appendix C" in c.source.location
    assert set(out.evidence["max_ratio"]) == set(hb.FORMS)     # decided on the paper's forms
    assert out.evidence["tv_form"]["max_ratio"] <= 1 + 1e-9
    assert out.evidence["second_branch_smaller"] > 0          # the minimum matters
    ctl = control_through_rule(c, ctx)
    assert ctl.rejected and ctl.reason.startswith("refuted"), ctl.reason


def test_rule_branches():
    d = hb.backward_change_decide
    ok = {f: 0.99 for f in hb.FORMS}
    tight = {hb.FORMS[0]: 1.0, hb.FORMS[1]: 0.9998, hb.FORMS[2]: 0.9999}
    assert d(ok, tight)[0] is Verdict.SUPPORTED
    assert d({**ok, hb.FORMS[2]: 1.01}, tight)[0] is Verdict.REFUTED
    assert d(ok, {**tight, hb.FORMS[2]: 0.9})[0] is Verdict.REFINED
    assert d({}, tight)[0] is Verdict.INCONCLUSIVE


_F = st.floats(-3, 3, allow_nan=False, allow_infinity=False)


@settings(max_examples=80, deadline=None)
@given(arrays(np.float64, (4, 3), elements=_F), arrays(np.float64, (4, 3), elements=_F),
       arrays(np.float64, 3, elements=_F), st.integers(0, 3), st.floats(1.0, 2.0))
@example(np.zeros((4, 3)), np.eye(4, 3), np.array([1.0, 0.0, 0.0]), 1, 1.0)   # U = 0
def test_chain_of_bounds(U, S, h, y, slack):
    """‖Δg‖ ≤ min of branches (TV) ≤ min of branches (tanh δ/4: App. C) ≤ min of branches
    (tanh ‖h‖D(S)/4) ≤ D(S) + D_min tanh(D(S)‖h‖/4) (App. C) ≤ η(1 + H·D_min/4) (App. C)."""
    g = float(np.linalg.norm(backward_change(U, S, h, y)))
    b = backward_change_bounds(U, S, h, y)
    tol = 1e-12 * (1 + b["paper_middle"])
    assert g <= b["min"] * (1 + 1e-9) + tol
    assert b["min"] <= min(b["branch_U"], b["branch_U_plus_S"]) + tol
    assert b["delta"] <= float(np.linalg.norm(h)) * b["D_S"] * (1 + 1e-12) + tol
    assert b["min"] <= b["paper_min"] + tol <= b["tanh_min"] + 2 * tol
    assert b["tanh_min"] <= b["paper_middle"] + tol
    if b["D_S"] > 0:
        eta, H = b["D_S"] * slack, float(np.linalg.norm(h)) * slack + 1e-300
        assert b["paper_middle"] <= eta_form_backward_bound(U, S, eta, H) * (1 + 1e-12) + tol


def test_equality_at_u_zero_two_classes():
    S, h = np.array([[0.3, -1.0], [-0.2, 0.5]]), np.array([0.7, 0.4])
    g = float(np.linalg.norm(backward_change(np.zeros((2, 2)), S, h, 0)))
    assert math.isclose(g, backward_change_bounds(np.zeros((2, 2)), S, h, 0)["min"], rel_tol=1e-13)


def test_eta_form_closed_form_on_many_classes():
    rows = [r for r in hb.tight_families() if "closed_form" in r]
    for form in hb.FORMS[1:]:
        assert all(abs(r[form] - r["closed_form"]) < 1e-12 for r in rows)
        assert rows[-1][form] > 0.9996
    # every form of App. C comes within 1e-3 of equality on some family (tight)
    assert all(max(r[f] for r in hb.tight_families()) > 1 - 1e-3 for f in hb.FORMS)


def test_smaller_constant_is_violated():
    worst = max(r[hb.FORMS[2]] for r in hb.tight_families(constant=8.0))
    assert worst > 1.9


def test_eta_form_bad_input():
    U, S = np.zeros((2, 2)), np.array([[1.0, 0.0], [0.0, 0.0]])
    with pytest.raises(ValueError, match="exceeds eta"):
        eta_form_backward_bound(U, S, 0.5, 1.0)
    for kw in ({"eta": 0.0}, {"eta": float("nan")}, {"H": -1.0}, {"constant": 0}):
        args = {"eta": 2.0, "H": 1.0, "constant": 4.0, **kw}
        with pytest.raises(ValueError, match="positive finite"):
            eta_form_backward_bound(U, S, args["eta"], args["H"], args["constant"])
    with pytest.raises(ValueError, match="shape"):
        eta_form_backward_bound(U, np.zeros((3, 2)), 1.0, 1.0)
    with pytest.raises(ValueError, match="y must be"):
        backward_change_bounds(U, S, np.ones(2), 5)


def _hex(rows):
    return np.array([[float.fromhex(x) for x in r] for r in rows])


# instance 2301 of the seed-1 full profile: 1 − p_y = 1.8e-11, 1 − p′_y = 1.0e-21; the float ratio
# to the branch minimum read 1.0000005 (> 1 + 1e-9: the claim was refuted on rounding)
_SATURATED = (
    _hex([["0x1.a9fa6b5bed5fbp+0", "-0x1.cb9d9a9366e25p-2", "-0x1.7b6e5a4344e41p+0", "-0x1.30446770d26cep+1"],
          ["-0x1.88be87305d603p-3", "0x1.b4f23f28ec4f7p-5", "0x1.1c36afa26eb69p+0", "0x1.dabad0dee4619p+0"]]),
    _hex([["-0x1.6b0f24b020e92p+1", "-0x1.cb0322c01b736p-1", "0x1.6e9b0361c013dp+1", "-0x1.2e51951d8f89ap+1"],
          ["0x1.bbc0089dc1406p-2", "0x1.c02bc2856424cp-5", "-0x1.0657ca037b67ap+0", "-0x1.90ad4c73c8954p-1"]]),
    np.array([float.fromhex(x) for x in ("0x1.9dec7393e0eb0p+1", "0x1.c468c0a650820p-1",
                                         "0x1.6eba72bd885e8p+2", "-0x1.0164b338eb4b0p+3")]),
    0)


def test_near_saturation_is_decided_in_exact_arithmetic():
    U, S, h, y = _SATURATED
    b = backward_change_bounds(U, S, h, y)
    float_ratio = float(np.linalg.norm(backward_change(U, S, h, y))) / b["min"]
    ex = backward_change_ratios_exact(U, S, h, y, eta=b["D_S"], H=float(np.linalg.norm(h)))
    assert ex["min"] < 1 and ex["min"] > 1 - 1e-9        # tight, and below the bound
    # the float64 forms sum relative to reference rows: they agree (they read 1.0000005 before)
    assert float_ratio == pytest.approx(ex["min"], rel=1e-13, abs=0)
    assert 1e-11 < ex["one_minus_p_y"] < 2e-11 and ex["one_minus_p_prime_y"] < 1e-20
    assert hb._near_saturation(b)
    # the claim at that scale: every random instance near saturation or near 1 is re-evaluated
    rnd = hb.random_ratios(Context(seed=1, profile="full"), 2400)
    assert rnd["max_ratio"][hb.TV_FORM] <= 1 + 1e-12 and rnd["exact_rechecked"] > 0
    assert max(rnd["max_ratio"][f] for f in hb.FORMS) <= 1 + 1e-12


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_exact_ratios_agree_with_float_away_from_saturation(seed):
    rng = np.random.default_rng(seed)
    U, S, h, y = hb._instance(rng)
    b = backward_change_bounds(U, S, h, y)
    if hb._near_saturation(b):
        return
    g = float(np.linalg.norm(backward_change(U, S, h, y)))
    eta, H = b["D_S"] * 1.25, float(np.linalg.norm(h)) * 1.25
    ex = backward_change_ratios_exact(U, S, h, y, eta, H)
    assert ex["min"] == pytest.approx(g / b["min"], rel=1e-9)
    assert ex["tanh_min"] == pytest.approx(g / b["tanh_min"], rel=1e-9)
    assert ex["paper_min"] == pytest.approx(g / b["paper_min"], rel=1e-9)
    assert ex["paper_middle"] == pytest.approx(g / b["paper_middle"], rel=1e-9)
    assert ex["eta"] == pytest.approx(g / eta_form_backward_bound(U, S, eta, H), rel=1e-9)


def test_exact_ratios_refuse_bad_arguments():
    U, S, h, y = _SATURATED
    for kw, err in (({"eta": 0.0}, ValueError), ({"H": float("nan")}, ValueError),
                    ({"constant": True}, ValueError), ({"dps": 10}, ValueError),
                    ({"dps": 50.0}, TypeError)):
        args = {"eta": 1.0, "H": 1.0, **kw}
        with pytest.raises(err, match=next(iter(kw))):
            backward_change_ratios_exact(U, S, h, y, **args)
    with pytest.raises(ValueError):
        backward_change_ratios_exact(U, S[:1], h, y, eta=1.0, H=1.0)


@settings(max_examples=15, deadline=None)
@given(st.floats(30.0, 400.0), st.floats(-1e3, 1e3), st.integers(0, 2**32 - 1))
@example(200.0, 1000.0, 0)     # 1 − p_y ≈ 1e-87: the 50-digit q_y − 1 was 0, ratio 5.8 (true 0.994)
def test_exact_ratios_hold_far_beyond_the_working_precision(gap, shift, seed):
    # U h = (gap, 0, ...): 1 − p_y ≈ e^-gap, below 10^-50 for gap > 115; S rows share a large
    # shift, so Sᵀ(q − e_y) is all cancellation. 50 digits must agree with 400 digits.
    rng = np.random.default_rng(seed)
    V, d = int(rng.integers(2, 6)), int(rng.integers(1, 4))
    U = rng.normal(size=(V, d)) * 0.1
    U[:, 0], U[0, 0] = 0.0, gap
    S = rng.normal(size=(V, d)) + shift
    h = np.zeros(d)
    h[0] = 1.0
    lo = backward_change_ratios_exact(U, S, h, 0, 1.0, 1.0)
    hi = backward_change_ratios_exact(U, S, h, 0, 1.0, 1.0, dps=400)
    for k in ("min", "paper_min", "tanh_min", "paper_middle", "eta"):
        assert lo[k] == pytest.approx(hi[k], rel=1e-12, abs=0), k
    assert lo["min"] <= 1 + 1e-12


@pytest.mark.parametrize("c", [1e2, 1e3, 1e4])
@pytest.mark.parametrize("gap", [14.0, 20.0, 30.0])
def test_float_forms_keep_accuracy_near_saturation_with_a_common_row(c, gap):
    # U = c·11ᵀ (D(U) = 0), V = 2, p′ saturated at y: ‖Δg‖₂ = D(S)(1 − p′_y) exactly, so every
    # ratio is 1; the float forms read up to 1 + 8e-9 (c = 100), 1 + 4e-4 and 8.7 (c = 1e4) before
    U, S, h = np.full((2, 1), c), np.array([[0.5], [-0.5]]), np.array([gap])
    g = float(np.linalg.norm(backward_change(U, S, h, 0)))
    b = backward_change_bounds(U, S, h, 0)
    for bound in (u_dependent_backward_bound(U, S, h, 0), b["min"], b["paper_min"], b["tanh_min"]):
        assert g / bound == pytest.approx(1.0, rel=1e-13, abs=0)

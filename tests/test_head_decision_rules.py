"""The decision rules of the [HEAD] claims, on synthetic evidence: evidence that must pass and
evidence that must fail (SPEC §3 fidelity rules; STYLE "a claim reads like its statement")."""
from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from seqtheory.proofs_checks.claims import head_backward_bound as bb
from seqtheory.proofs_checks.claims import head_ce_control as ce
from seqtheory.proofs_checks.claims import head_diameter_identity as di
from seqtheory.proofs_checks.claims import head_equidistance as eq
from seqtheory.proofs_checks.claims import head_hilbert_softmax as hs
from seqtheory.proofs_checks.claims import head_min_tension as mt
from seqtheory.proofs_checks.claims import head_rownorm_oracle as ro
from seqtheory.proofs_checks.claims import head_rownorm_ratio as rr
from seqtheory.proofs_checks.claims import head_tv_bound as tv
from seqtheory.proofs_checks.registry import Verdict, get_claim

HEAD_RULES = {
    "head.hilbert_softmax": hs.hilbert_softmax_decide,
    "head.diameter_identity": di.diameter_identity_decide,
    "head.ce_control": ce.ce_control_decide,
    "head.backward_bound": bb.backward_bound_decide,
    "head.tv_bound": tv.tv_bound_decide,
    "head.min_tension_duality": mt.min_tension_decide,
    "head.rownorm_oracle": ro.rownorm_oracle_decide,
    "head.rownorm_ratio": rr.rownorm_ratio_decide,
    "head.equidistance_limit": eq.equidistance_decide,
}


@pytest.mark.parametrize("cid", sorted(HEAD_RULES))
def test_rule_is_registered(cid):
    assert get_claim(cid).decision is HEAD_RULES[cid]


def test_hilbert_softmax_rule():
    assert hs.hilbert_softmax_decide(True, 3e-16)[0] is Verdict.CONFIRMED
    assert hs.hilbert_softmax_decide(True, 2e-12)[0] is Verdict.REFUTED
    assert hs.hilbert_softmax_decide(False, 0.0)[0] is Verdict.REFUTED


def _di_errors(**kw):
    e = dict.fromkeys(di._DI_KEYS, 1e-13)
    e.update(kw)
    return e


def test_diameter_identity_rule():
    good_trained = {"adamw": {"identity_err_max": 1e-14, "bound_ok": True}}
    assert di.diameter_identity_decide(_di_errors(), good_trained)[0] is Verdict.SUPPORTED
    assert di.diameter_identity_decide(_di_errors(), {})[0] is Verdict.SUPPORTED
    for k in di._DI_KEYS:
        v, why = di.diameter_identity_decide(_di_errors(**{k: 0.3}), good_trained)
        assert v is Verdict.REFUTED and k in why
    assert di.diameter_identity_decide(_di_errors(sup_rel_err=math.nan), {})[0] \
        is Verdict.REFUTED                          # NaN never passes
    bad = {"rownorm": {"identity_err_max": 1e-14, "bound_ok": False}}
    assert di.diameter_identity_decide(_di_errors(), bad)[0] is Verdict.REFUTED


def test_ce_control_rule():
    assert ce.ce_control_decide(0.99, [0.999999, 1.0])[0] is Verdict.SUPPORTED
    assert ce.ce_control_decide(1.0 + 1e-9, [0.5])[0] is Verdict.REFUTED
    assert ce.ce_control_decide(0.5, [1.0 + 1e-6])[0] is Verdict.REFUTED


def test_backward_bound_rule():
    assert bb.backward_bound_decide(0.97, 1.0)[0] is Verdict.SUPPORTED
    assert bb.backward_bound_decide(1.01, 1.0)[0] is Verdict.REFUTED
    assert bb.backward_bound_decide(0.97, 0.9)[0] is Verdict.REFINED


def test_tv_bound_rule():
    assert tv.tv_bound_decide(0.999999, [1.0, 1.0])[0] is Verdict.SUPPORTED
    assert tv.tv_bound_decide(1.2, [1.0])[0] is Verdict.REFUTED
    assert tv.tv_bound_decide(0.9, [0.9])[0] is Verdict.REFINED


def _row(primal, claimed):
    return {"primal": primal, "claimed_dual": claimed}


def test_min_tension_rule():
    assert mt.min_tension_decide([_row(-2.0, -2.0 + 1e-8), _row(-0.3, -0.3)])[0] \
        is Verdict.SUPPORTED
    assert mt.min_tension_decide([_row(-2.0, -1.0)])[0] is Verdict.REFUTED
    # an unsolved (infeasible) program is not a refutation: the evidence cannot decide
    assert mt.min_tension_decide([_row(-2.0, -math.inf)])[0] is Verdict.INCONCLUSIVE


def test_rownorm_oracle_rule():
    good = {k: 0.0 for k in ro._RN_KEYS}
    assert ro.rownorm_oracle_decide(good)[0] is Verdict.SUPPORTED
    for k in ro._RN_KEYS:
        v, why = ro.rownorm_oracle_decide({**good, k: 1e-3})
        assert v is Verdict.REFUTED and k in why


def _stats(below=0.0, above=0.0, tight=1e-9):
    return {"max_violation_below": below, "max_violation_above": above,
            "simplex_tightness_err": tight}


def test_rownorm_ratio_rule():
    assert rr.rownorm_ratio_decide(_stats())[0] is Verdict.SUPPORTED
    assert rr.rownorm_ratio_decide(_stats(below=0.01))[0] is Verdict.REFUTED
    assert rr.rownorm_ratio_decide(_stats(above=0.01))[0] is Verdict.REFUTED
    assert rr.rownorm_ratio_decide(_stats(tight=0.2))[0] is Verdict.REFINED


def test_equidistance_rule():
    exact = [{"d": 2, "max_equidistant_points": 3, "claimed": 3, "simplex_exact": True}]
    opt = [{"V": 4, "d": 2, "best_ratio": 0.7071, "bound": 0.7071, "equidistant": False,
            "claimed_equidistant": False}]
    v, parts, why = eq.equidistance_decide(exact, opt, True)
    # the exact part decides (its certificate covers every d); the optimisation is reported
    assert v is Verdict.CONFIRMED and "decided by the exact part" in why
    assert [p[0] for p in parts.values()] == [Verdict.CONFIRMED, Verdict.SUPPORTED]
    # without the symbolic certificate the exact part covers the d computed only
    assert eq.equidistance_decide(exact, opt, False)[0] is Verdict.SUPPORTED
    assert eq.equidistance_decide(exact, [], True)[0] is Verdict.CONFIRMED
    assert eq.equidistance_decide([], [], False)[0] is Verdict.INCONCLUSIVE
    assert eq.equidistance_decide([{**exact[0], "claimed": 2}], opt, True)[0] is Verdict.REFUTED
    # an optimum above its proven bound: the evidence contradicts a theorem, decides nothing
    assert eq.equidistance_decide(exact, [{**opt[0], "best_ratio": 0.8}], True)[0] \
        is Verdict.INCONCLUSIVE
    # an equidistant optimum with V > d+1 within its bound (a bound of 1): a counterexample
    counter = {**opt[0], "best_ratio": 1.0, "bound": 1.0, "equidistant": True}
    assert eq.equidistance_decide(exact, [counter], True)[0] is Verdict.REFUTED
    # a search that misses the simplex where V ≤ d+1 is no evidence against the statement
    v, parts, _ = eq.equidistance_decide(exact, [{**opt[0], "claimed_equidistant": True}], True)
    assert v is Verdict.CONFIRMED and "missed the simplex" in list(parts.values())[1][1]


def test_gram_certificate_is_the_gram_matrix_at_every_size_computed():
    # the symbolic factor L of the certificate, instantiated: L Lᵀ = (I + J)/2 exactly
    import sympy as sp

    assert eq.gram_cholesky_certificate()["holds"]
    for m in range(1, 7):
        L = sp.zeros(m, m)
        for i in range(1, m + 1):
            L[i - 1, i - 1] = sp.sqrt(sp.Rational(i + 1, 2 * i))
            for j in range(1, i):
                L[i - 1, j - 1] = 1 / sp.sqrt(2 * j * (j + 1))
        assert sp.simplify(L * L.T - (sp.eye(m) + sp.ones(m, m)) / 2) == sp.zeros(m, m)


def test_symbolic_softmax_identity_holds_for_every_size():
    assert hs._symbolic_softmax_identity()


_TV_RIDGE = (np.array([float.fromhex(x) for x in ("0x1.27b9b73f3b9cdp+3", "0x1.27b9b62ffafb7p+3")]),
             np.array([float.fromhex(x) for x in ("-0x1.aa70155ad6f6fp+2", "-0x1.aa70133c55b45p+2")]))


@settings(max_examples=50, deadline=None)
@given(st.floats(1.0, 1.05), st.floats(-10, 10), st.floats(-10, 10))
@example(1.0104941630117992, 0.0, 0.0)
def test_tv_ratio_keeps_the_bound_on_the_equality_ridge(scale, o1, o2):
    # symmetric two-point pairs at 𝓗 ≈ 1e-6 have ratio exactly 1; the difference of the two float
    # probability vectors read 1 + 1.9e-9 at the pinned pair (claim tolerance 1e-9)
    z, w = _TV_RIDGE
    assert tv.tv_ratio(z, w) <= 1 + 1e-12
    H = 1e-6 * scale
    z, w = np.array([H / 4 + o1, -H / 4 + o1]), np.array([-H / 4 + o2, H / 4 + o2])
    r = tv.tv_ratio(z, w)
    assert r == 0.0 or r == pytest.approx(1.0, rel=1e-12, abs=0)
    assert tv.tv_ratio(z, w, 8.0) == 0.0 or tv.tv_ratio(z, w, 8.0) > 1.9   # the wrong constant

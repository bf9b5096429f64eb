"""depth.thm3.2 (restricted models) and depth.thm3.2.abelian (abelian models), both decided under
the paper's reading of simulation (linear readout, every initial state), with the fixed-initial-
state reading reported beside them: verdicts, rules on synthetic evidence, controls through the
rules."""
from __future__ import annotations

from fractions import Fraction

import pytest
from controls import control_through_rule

from seqtheory.numerics.restricted import (affine_target_state, order_free_best_errors,
                                           restricted_layer_state, restricted_vs_target_table)
from seqtheory.proofs_checks.claims.depth_thm32 import ALPHA, BETA, H0, thm32_decide
from seqtheory.proofs_checks.claims.depth_thm32_abelian import (_abelian_evidence, _families,
                                                                _growth, _models_above,
                                                                _reversal_asymptotics,
                                                                abelian_decide)
from seqtheory.proofs_checks.registry import Context, Verdict, get_claim


def test_counterexample_is_exact_and_has_mass():
    rows = restricted_vs_target_table(ALPHA, BETA, H0, 6)
    assert len(rows) == sum(2 ** T for T in range(1, 7))
    assert all(r["error"] == 0.0 for r in rows)
    ab = next(r for r in rows if r["word"] == "ab")
    assert ab["norm_Omega2"] > 0.1 and ab["target"] == ["5/2"]      # b(a(0)) = ½·1 + 2
    assert next(r for r in rows if r["word"] == "ba")["target"] == ["14/5"]     # a(b(0)) = 0.9·2 + 1


def test_target_and_layer_are_computed_independently():
    w = [0, 1, 1, 0]
    assert list(affine_target_state(ALPHA, BETA, w, H0)) == list(
        restricted_layer_state(ALPHA, BETA, w, H0))
    with pytest.raises(TypeError, match="decay"):
        restricted_layer_state([[0.9], [0.5]], BETA, w, H0)
    with pytest.raises(ValueError, match="positive"):
        affine_target_state([[Fraction(-1)], [Fraction(1)]], BETA, w, H0)
    with pytest.raises(ValueError, match="h0"):
        affine_target_state(ALPHA, BETA, w, [0, 0])


def test_order_free_model_is_bounded_below_where_the_mass_is_nonzero():
    rows = restricted_vs_target_table(ALPHA, BETA, H0, 4)
    best = order_free_best_errors(ALPHA, BETA, H0, 4)
    assert all(e > 0 for r, e in zip(rows, best) if r["norm_Omega2"] > 1e-6)


def _scan(slope, C=1.0, target="T"):
    """A synthetic ε-scan: error = C·ε^slope·(mass/ε²), mass = ε²."""
    eps = [1e-4, 1e-3, 1e-2]
    return {"target": target, "points": [{"eps": e, "error": C * e ** slope, "mass": e ** 2}
                                         for e in eps],
            "error_slope": float(slope), "error_ci": [slope - 0.01, slope + 0.01],
            "mass_slope": 2.0}


_GROWTH = {"slope": 1.0, "ci": [0.99, 1.01]}


def test_thm32_rule_on_synthetic_evidence():
    assert thm32_decide([_scan(2)], _GROWTH)[0] is Verdict.SUPPORTED
    assert thm32_decide([_scan(2, C=0.1)])[0] is Verdict.SUPPORTED        # any C > 0
    assert thm32_decide([_scan(3)], _GROWTH)[0] is Verdict.REFUTED       # vanishes faster
    exact = dict(_scan(2), points=[{"eps": 0.1, "error": 0.0, "mass": 1e-2}])
    assert thm32_decide([exact], _GROWTH)[0] is Verdict.REFUTED
    assert thm32_decide([dict(_scan(2), points=[{"eps": 0.1, "error": 0.0, "mass": 0.0}])]
                        )[0] is Verdict.INCONCLUSIVE                         # no mass
    assert thm32_decide([dict(_scan(2), error_slope=None)])[0] is Verdict.INCONCLUSIVE
    assert thm32_decide([dict(_scan(2), error_ci=[1.5, 2.5])])[0] is Verdict.INCONCLUSIVE
    assert thm32_decide([_scan(2)], {"slope": 0.0, "ci": [-0.01, 0.01]})[0] \
        is Verdict.INCONCLUSIVE                                              # no accumulation
    with pytest.raises(ValueError, match="finite"):
        thm32_decide([dict(_scan(2), points=[{"eps": 0.1, "error": float("nan"), "mass": 1.0}])])


def _depth2(slope, restricted=True):
    return {"restricted": restricted, "rows": [_scan(slope, target="stack")]}


def test_thm32_rule_with_a_depth2_stack():
    v, why, _ = thm32_decide([_scan(2)], _GROWTH, None, _depth2(3))
    assert v is Verdict.REFINED
    assert "one restricted layer (depth 1)" in why and "any fixed depth" in why
    assert thm32_decide([_scan(2)], _GROWTH, None, _depth2(2))[0] is Verdict.SUPPORTED
    # a failure at depth 1 stays a failure whatever depth 2 shows
    assert thm32_decide([_scan(3)], _GROWTH, None, _depth2(2))[0] is Verdict.REFUTED
    # a stack whose linear parts do not commute is not the named class: depth 2 untested
    v, why, _ = thm32_decide([_scan(2)], _GROWTH, None, _depth2(3, restricted=False))
    assert v is Verdict.INCONCLUSIVE and "not a restricted model" in why
    assert thm32_decide([_scan(2)], _GROWTH, None, dict(_depth2(3), rows=[dict(
        _scan(3), error_ci=[2.0, 4.0])]))[0] is Verdict.INCONCLUSIVE
    with pytest.raises(TypeError, match="restricted"):
        thm32_decide([_scan(2)], _GROWTH, None, _depth2(3, restricted="yes"))


def test_thm32_fixed_state_reading_never_enters_the_verdict():
    fixed = {"target": "slice", "points": [{"word": "ab", "error": 0.0, "mass": 1.0}]}
    v, _, readings = thm32_decide([_scan(2)], _GROWTH, fixed)
    assert v is Verdict.SUPPORTED
    assert readings[0].outcome is Verdict.REFUTED and "every initial state" in readings[0].why


def _abelian_ev(**kw):
    return {"exponent": 2.0, "bound_slope": 2.001, "bound_ci": [1.99, 2.01],
            "residual_slope": 3.0, "ratio_at_min_eps": 1.0001, "growth_slope": 1.0,
            "growth_ci": [0.99, 1.01], "abelian_models_above_bound": True,
            "unobserved_gap": True, **kw}


def test_abelian_rule_on_synthetic_evidence():
    ev = _abelian_ev()
    # the paper's reading ignores the fixed-h0 gap; the fixed-h0 reading is refined by it
    v, _, readings = abelian_decide(ev, ev)
    assert v is Verdict.SUPPORTED and readings[0].outcome is Verdict.REFINED
    assert abelian_decide(ev, dict(ev, unobserved_gap=False))[2][0].outcome is Verdict.SUPPORTED
    for bad in ({"exponent": 3.0}, {"residual_slope": 2.0}, {"ratio_at_min_eps": 0.5},
                {"growth_slope": 0.0, "growth_ci": [-0.01, 0.01]},
                {"abelian_models_above_bound": False}):
        assert abelian_decide(dict(ev, **bad))[0] is Verdict.REFUTED, bad
    assert abelian_decide(dict(ev, bound_ci=[1.0, 3.0]))[0] is Verdict.INCONCLUSIVE


def test_abelian_rule_rejects_wrong_exponent_and_unobserved_mass():
    ctx = Context(seed=0)
    res = _reversal_asymptotics(ctx)
    _, g_fit = _growth(ctx)
    fam, above = _families(ctx), _models_above(ctx)
    assert abelian_decide(_abelian_evidence(res, g_fit, fam, above))[0] is Verdict.SUPPORTED
    for kw in ({"exponent": 3.0}, {"exponent": 1.0}):
        assert abelian_decide(_abelian_evidence(res, g_fit, fam, above, **kw))[0] is Verdict.REFUTED
    fixed = _reversal_asymptotics(ctx, h0=[1, 2, 2])
    _, f_fit = _growth(ctx, [1, 2, 2])
    wrong = _abelian_evidence(fixed, f_fit, fam, above, mass="unobserved")
    assert abelian_decide(_abelian_evidence(res, g_fit, fam, above), wrong)[2][0].outcome \
        is Verdict.REFUTED


@pytest.mark.parametrize("cid,expected", [("depth.thm3.2", Verdict.REFINED),
                                          ("depth.thm3.2.abelian", Verdict.SUPPORTED)])
def test_claim_quick_and_control(cid, expected, tmp_path):
    c = get_claim(cid)
    assert c.source.arxiv == "2603.05573"
    ctx = Context(seed=0, out_dir=tmp_path)
    out = c.check(ctx)
    assert out.verdict is expected, out.evidence
    for f in out.figures:
        assert (tmp_path / f).exists()
    assert c.premise is not None and [r.outcome for r in out.readings] == [
        Verdict.REFUTED if cid == "depth.thm3.2" else Verdict.REFINED]
    ctl = control_through_rule(c, ctx)
    assert ctl.rejected, ctl.reason


def test_thm32_paper_reading_and_the_fixed_state_search():
    out = get_claim("depth.thm3.2").check(Context(seed=0))
    for r in out.evidence["paper reading"]:
        assert abs(r["error_slope"] - 2) < 0.01 and abs(r["ratio_at_min_eps"] - 1) < 1e-3, r
    for r in out.evidence["depth 2"]["rows"]:      # the two-layer witness: O(ε³), ratio → 0
        assert abs(r["error_slope"] - 3) < 0.01 and \
            r["ratio_at_min_eps"] < 0.02 * r["ratio_at_max_eps"], r
    assert out.key_figure.startswith("holds for one restricted layer (depth 1) under the paper's simulation; two")
    fixed = out.evidence["fixed initial state"]
    s = fixed["search"]
    assert s["n_bound_fails"] == s["n_targets"] and fixed["max_error"] == 0.0
    assert all(r["error"] < 1e-30 and r["eps2_norm_Omega2"] > 0
               for r in out.tables["fixed initial state: ε-scaled"])

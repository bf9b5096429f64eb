"""depth.thm3.2 (restricted, as stated: refuted by an exact counterexample) and
depth.thm3.2.abelian (the corrected statement): verdicts, rules on synthetic evidence, controls
through the rules."""
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


def test_thm32_rule_on_synthetic_evidence():
    assert thm32_decide([{"error": 0.0, "norm_Omega2": 1.0}])[0] is Verdict.REFUTED
    assert thm32_decide([{"error": 1e-13, "norm_Omega2": 1e-3}])[0] is Verdict.REFUTED
    assert thm32_decide([{"error": 0.5, "norm_Omega2": 1.0},
                         {"error": 0.0, "norm_Omega2": 0.0}])[0] is Verdict.SUPPORTED
    assert thm32_decide([{"error": 0.0, "norm_Omega2": 1e-9}])[0] is Verdict.INCONCLUSIVE


def test_abelian_rule_on_synthetic_evidence():
    ev = {"exponent": 2.0, "bound_slope": 2.001, "bound_ci": [1.99, 2.01], "residual_slope": 3.0,
          "ratio_at_min_eps": 1.0001, "growth_slope": 1.0, "growth_ci": [0.99, 1.01],
          "abelian_models_above_bound": True, "unobserved_gap": True}
    assert abelian_decide(ev)[0] is Verdict.REFINED
    assert abelian_decide(dict(ev, unobserved_gap=False))[0] is Verdict.SUPPORTED
    for bad in ({"exponent": 3.0}, {"residual_slope": 2.0}, {"ratio_at_min_eps": 0.5},
                {"growth_slope": 0.0, "growth_ci": [-0.01, 0.01]},
                {"abelian_models_above_bound": False}):
        assert abelian_decide(dict(ev, **bad))[0] is Verdict.REFUTED, bad


def test_abelian_rule_rejects_wrong_exponent_and_unobserved_mass():
    ctx = Context(seed=0)
    res = _reversal_asymptotics(ctx)
    _, g_fit = _growth(ctx)
    fam, above = _families(ctx), _models_above(ctx)
    assert abelian_decide(_abelian_evidence(res, g_fit, fam, above))[0] is Verdict.REFINED
    for kw in ({"exponent": 3.0}, {"exponent": 1.0}, {"mass": "unobserved"}):
        assert abelian_decide(_abelian_evidence(res, g_fit, fam, above, **kw))[0] is Verdict.REFUTED


@pytest.mark.parametrize("cid,expected", [("depth.thm3.2", Verdict.REFUTED),
                                          ("depth.thm3.2.abelian", Verdict.REFINED)])
def test_claim_quick_and_control(cid, expected, tmp_path):
    c = get_claim(cid)
    assert c.source.arxiv == "2603.05573"
    ctx = Context(seed=0, out_dir=tmp_path)
    out = c.check(ctx)
    assert out.verdict is expected, out.evidence
    for f in out.figures:
        assert (tmp_path / f).exists()
    ctl = control_through_rule(c, ctx)
    assert ctl.rejected, ctl.reason


def test_restricted_search_finds_the_bound_failing():
    out = get_claim("depth.thm3.2").check(Context(seed=0))
    s = out.evidence["search"]
    assert s["n_bound_fails"] == s["n_targets"] and out.evidence["max_error"] == 0.0
    assert all(r["error"] < 1e-30 and r["eps2_norm_Omega2"] > 0 for r in out.tables["eps_scaled"])

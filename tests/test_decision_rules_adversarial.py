"""Decision rules and inputs that a review tried to break (hand-made evidence that a rule must
not accept, inputs that must be refused). Each case is one finding, pinned."""
from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from seqtheory.numerics.nilpotent_cascade import nilpotent_cascade
from seqtheory.proofs_checks.registry import Verdict, get_claim

ABELIAN = dict(exponent=2.0, bound_ci=(1.98, 2.02), bound_slope=2.0, residual_slope=3.0,
               ratio_at_min_eps=1.0, growth_ci=(0.99, 1.01), growth_slope=1.0,
               abelian_models_above_bound=True, unobserved_gap=True)


def test_abelian_rule_wide_interval_is_not_agreement():
    decide = get_claim("depth.thm3.2.abelian").decision
    assert decide(ABELIAN)[0] is Verdict.SUPPORTED         # the paper's reading ignores the gap
    assert decide(ABELIAN, ABELIAN)[2][0].outcome is Verdict.REFINED   # the fixed-h0 reading
    wide = dict(ABELIAN, bound_ci=(-100.0, 100.0), bound_slope=5.0)
    assert decide(wide)[0] is Verdict.INCONCLUSIVE
    assert decide(dict(ABELIAN, bound_ci=(4.98, 5.02), bound_slope=5.0))[0] is Verdict.REFUTED
    with pytest.raises(TypeError, match="abelian_models_above_bound"):
        decide(dict(ABELIAN, abelian_models_above_bound="False"))


@pytest.mark.parametrize("point", [{"error": float("nan"), "mass": 1.0},
                                   {"error": 1.0, "mass": float("inf")},
                                   {"error": -5.0, "mass": 1.0}])
def test_thm32_rule_refuses_non_finite_or_negative_rows(point):
    with pytest.raises(ValueError, match="finite"):
        get_claim("depth.thm3.2").decision([{"target": "T", "points": [point]}])


def test_thm32_rule_tolerance_is_relative_to_the_mass():
    decide = get_claim("depth.thm3.2").decision
    fit = {"error_slope": 2.0, "error_ci": [1.99, 2.01], "mass_slope": 2.0}
    assert decide([{"target": "T", "points": [{"error": 1e-9, "mass": 1e7}], **fit}])[0] \
        is Verdict.REFUTED
    # a tiny error at a tiny mass is not exact: the tolerance scales with the mass
    assert decide([{"target": "T", "points": [{"error": 1e-13, "mass": 1e-8}], **fit}])[0] \
        is Verdict.SUPPORTED
    assert decide([{"target": "T", "points": [{"error": 0.5, "mass": 1.0}], **fit}])[0] \
        is Verdict.SUPPORTED


def _k(undecided=0, attained=True, bound=1):
    return {1: {"bound": bound, "max": bound, "attained": attained, "exceeding": False,
                "decided": 5, "undecided": undecided, "instances": 5 + undecided}}


def test_prop33_rule_needs_evidence_for_both_layer_classes_and_no_undecided_instance():
    decide = get_claim("depth.prop3.3").decision
    assert decide([])[0] is Verdict.INCONCLUSIVE
    empty = [{"class": "a", "layer": "abelian", "per_k": {}},
             {"class": "r", "layer": "restricted", "per_k": {}}]
    assert decide(empty)[0] is Verdict.INCONCLUSIVE
    assert decide([{"class": "a", "layer": "abelian", "per_k": _k()}])[0] is Verdict.INCONCLUSIVE
    both = [{"class": "a", "layer": "abelian", "per_k": _k()},
            {"class": "r", "layer": "restricted", "per_k": _k(bound=2)}]
    assert decide(both)[0] is Verdict.SUPPORTED      # five instances per class: not a certificate
    both[0]["per_k"] = _k(undecided=50)
    assert decide(both)[0] is Verdict.INCONCLUSIVE


def _rot(name, hom, distinct):
    return {"map": name, "is_homomorphism": hom, "n_distinct": distinct, "order": 60,
            "n_respected": 3600 if hom else 769, "n_pairs": 3600}


def test_paper_rotation_rule_needs_a_faithful_map_and_an_audited_reading():
    decide = get_claim("audit.paper_rotation_task").decision
    ref = _rot("reference", True, 60)
    assert decide([ref, _rot("released", True, 1)], ["released"], "reference")[0] is Verdict.REFUTED
    assert decide([ref, _rot("released", True, 60)], ["released"], "reference")[0] is Verdict.CONFIRMED
    assert decide([ref], [], "reference")[0] is Verdict.INCONCLUSIVE


def test_s3_rule_needs_checked_prefixes_and_counts():
    decide = get_claim("finding.s3_one_restricted_layer").decision
    ev = dict(linear_parts_commute=True, exhaustive_prefixes=10, random_prefixes=10,
              exhaustive_mismatches=0, random_mismatches=0, step_transitions=36,
              step_failures=0, initial_ok=True)
    assert decide(ev)[0] is Verdict.CONFIRMED
    assert decide(dict(ev, exhaustive_prefixes=0, random_prefixes=0))[0] is Verdict.INCONCLUSIVE
    with pytest.raises(ValueError, match="mismatches"):
        decide(dict(ev, exhaustive_mismatches=3, random_mismatches=-3))


def _fig2_row(stat_m, stat_t):
    return {"T": 4, "stat_memoriser": stat_m, "stat_true": stat_t, "heldout_memoriser": 0.0,
            "heldout_true": 1.0, "expected_heldout_memoriser": 0.0}


def test_fig2_rule_checks_the_premise_and_refuses_nan():
    decide = get_claim("audit.fig2_training_accuracy").decision
    assert decide([_fig2_row(0.0, 0.0)])[0] is Verdict.INCONCLUSIVE
    with pytest.raises(ValueError, match="accuracy"):
        decide([_fig2_row(float("nan"), 1.0)])


@pytest.mark.parametrize("dps, err", [(0, ValueError), (-5, ValueError), (True, TypeError),
                                      (2.5, TypeError)])
def test_cascade_refuses_a_meaningless_precision(dps, err):
    rng = np.random.default_rng(1)
    C = nilpotent_cascade([rng.standard_normal((3, 3)) for _ in range(2)], 1, "linear")
    with pytest.raises(err, match="dps"):
        C.error([0, 1, 0, 1], Fraction(1, 2), dps=dps)
    with pytest.raises(err, match="dps"):
        C.simulate([0, 1], Fraction(1, 2), dps=dps)
    assert 0 < float(C.error([0, 1, 0, 1], Fraction(1, 2), dps=50)) < float("inf")
    with pytest.raises(TypeError, match="eps"):              # a string is no number (issue 33)
        C.error([0, 1, 0, 1], "0.5", dps=50)

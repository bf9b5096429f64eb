"""Decision rules on absent and invalid evidence (SPEC §3, "absence of evidence never refutes";
proofs_checks/evidence_checks.py): empty evidence is inconclusive with a plain reason, values a
real measurement cannot produce are a ValueError (TypeError for a non-number) naming the field.
Each case is a reproducer of the break-it pass, pinned."""
from __future__ import annotations

import pytest

from rule_power_depth_trained import _pair_row, _s3, both
from seqtheory.proofs_checks import evidence_checks as ec
from seqtheory.proofs_checks.claims import depth_cor36_trained as cor36t
from seqtheory.proofs_checks.claims import depth_prop37_trained as p37
from seqtheory.proofs_checks.claims import depth_rotation as rot
from seqtheory.proofs_checks.claims import depth_s3_trained as s3
from seqtheory.proofs_checks.claims import depth_thm32_abelian_trained as thm32
from seqtheory.proofs_checks.claims import depth_word_problems as wp
from seqtheory.proofs_checks.claims.depth_prop37 import prop37_decision
from seqtheory.proofs_checks.claims.head_hilbert_softmax import hilbert_softmax_decide
from seqtheory.proofs_checks.registry import Verdict
from seqtheory.proofs_checks.seed_blocks import decide_blocks

NAN = float("nan")
_I = Verdict.INCONCLUSIVE


def _inconclusive(result, reason):
    assert result[0] is _I and reason in result[1], result[:2]


# shared checks ------------------------------------------------------------------------------------
def test_checks_name_the_row_and_field():
    with pytest.raises(ValueError, match=r"rows\[2\]: acc must be a finite"):
        ec.fraction("rows[2]", "acc", NAN)
    with pytest.raises(ValueError, match="successes must be <= seeds"):
        ec.rate_counts("rows[0]", 5, 2)
    with pytest.raises(ValueError, match="successes must be >= 0"):
        ec.rate_counts("rows[0]", -1, 2)
    with pytest.raises(TypeError, match="successes must be an int"):
        ec.rate_counts("rows[0]", NAN, 2)
    assert ec.rate_counts("rows[0]", 0, 0) == (0, 0)
    with pytest.raises(ValueError, match="holds 3 values but the block declares 1 seed "):
        ec.per_seed("block A", "acc", [0.1, 0.2, 0.3], [0])
    rows = [{"g": "S3", "k": 1}, {"g": "S3", "k": 1}, {"g": "D8", "k": 2}]
    assert ec.unique_rows(rows, ("g",)) == [rows[0], rows[2]]
    with pytest.raises(ValueError, match=r"rows\[0\] and rows\[1\] are the same cell"):
        ec.unique_rows([{"g": "S3", "k": 1}, {"g": "S3", "k": 2}], ("g",))
    assert ec.absent_keys({}) == "no depths" and ec.absent_keys({1: [0.1], 2: []}) == "no seeds at depth [2]"
    assert ec.absent_keys({1: [0.1]}) is None


def test_blocks_without_seeds_are_inconclusive_and_labels_must_share_a_type():
    rule = lambda ev: (Verdict.SUPPORTED, "ok")
    _inconclusive(decide_blocks({"A": ([0], 1), "B": ([], 1)}, rule), "no seeds in block B")
    with pytest.raises(ValueError, match="one type across the blocks"):
        decide_blocks({"A": ([0, 1], 1), "B": (["0", "1"], 1)}, rule)


# 1. depth.cor3.6.trained ---------------------------------------------------------------------------
def test_cor36_trained_without_depths_is_inconclusive():
    _inconclusive(cor36t.cor36_decide({"A": ([0], {}), "B": ([1], {})}), "no depths")
    fit = {"points": [], "fit": {"slope": 2.0, "ci_low": NAN, "ci_high": 2.1, "n": 3}}
    with pytest.raises(ValueError, match="ci_low"):
        cor36t.cor36_decide(both({1: fit}))
    with pytest.raises(ValueError, match="ci_low must be <= ci_high"):
        cor36t.cor36_decide(both({1: dict(fit, fit={"ci_low": 3.0, "ci_high": 2.0})}))


# 2. depth.prop3.7 -------------------------------------------------------------------------------------
def test_prop37_without_lengths_is_inconclusive():
    v, why, readings = prop37_decision([], "bound")
    assert v is _I and "no lengths" in why and readings[0].outcome is _I
    with pytest.raises(TypeError, match=r"rows\[0\]: least_depth"):
        prop37_decision([{"T": 2, "lower_depth": 2, "least_depth": NAN, "bound": 2}], "bound")


# 3. depth.thm3.2.abelian.trained -----------------------------------------------------------------------
def test_thm32_trained_refuses_nan_and_decides_no_pairs_inconclusive():
    with pytest.raises(ValueError, match="frac_pairs_above"):
        thm32.thm32_decide(both([_pair_row(frac_pairs_above=NAN, worst_ratio=NAN)]))
    with pytest.raises(ValueError, match="class_gap"):
        thm32.thm32_decide(both([_pair_row(class_gap=NAN, frac_pairs_above=0.5)]))
    _inconclusive(thm32.thm32_decide(both([_pair_row(n_pairs=0, frac_pairs_above=0.0)])), "no pairs")
    _inconclusive(thm32.thm32_decide(both([])), "no pairs")
    # a NaN worst ratio is defined (no pair with a bound above 1e-12), not refused
    assert thm32.thm32_decide(both([_pair_row(worst_ratio=NAN)]))[0] is Verdict.CONFIRMED


# 4. depth.exp.s3_depth ---------------------------------------------------------------------------------
@pytest.mark.parametrize("one", [(NAN, NAN), (5, 0.1), (-1, 0.1)])
def test_s3_refuses_impossible_accuracies(one):
    with pytest.raises(ValueError, match=r"aussm L=1: 2T\[0\]"):
        s3.s3_decide(both(_s3(one, (0.99, 0.98)), n=2))


def test_s3_declared_seeds_and_absent_arms():
    with pytest.raises(ValueError, match="declares 1 seed "):
        s3.s3_decide({"A": ([0], _s3((0, 0, 0), (1, 1, 1))), "B": ([1], _s3((0,), (1,)))})
    with pytest.raises(ValueError, match="one type"):
        s3.s3_decide({"A": ([0, 1], _s3((0, 0), (1, 1))), "B": (["0", "1"], _s3((0, 0), (1, 1)))})
    _inconclusive(s3.s3_decide(both(_s3((), ()), n=2)), "no runs of aussm L=1 at 2T")
    _inconclusive(s3.s3_decide(both({"aussm L=1": {"2T": [0.0, 0.0]}}, n=2)), "no runs of aussm L=2")


# 5. depth.exp.word_problems -------------------------------------------------------------------------------
def _wp(g, L, k, n=2, m="aussm"):
    return {"group": g, "model": m, "depth": L, "train_length": 4, "successes": k, "seeds": n}


def test_word_problems_part_b_needs_both_groups():
    v, parts = wp.wp_pattern([_wp("D8", 1, 0), _wp("D8", 2, 2)])
    assert v is _I and "not run on S3" in parts["B"]
    v, parts = wp.wp_pattern([_wp(g, L, 2 * (L == 2)) for g in ("D8", "S3") for L in (1, 2)])
    assert v is Verdict.SUPPORTED


@pytest.mark.parametrize("row,match", [(_wp("D8", 1, 5), "successes must be <= seeds"),
                                       (_wp("D8", 1, -1), "successes must be >= 0"),
                                       (dict(_wp("D8", 1, 0), seq_acc=[0.1, NAN]), r"seq_acc\[1\]")])
def test_word_problems_refuse_impossible_counts(row, match):
    with pytest.raises(ValueError, match=match):
        wp.wp_pattern([row, _wp("D8", 2, 2), _wp("S3", 1, 0), _wp("S3", 2, 2)])


def test_word_problems_conflicting_rows_and_empty_cells():
    with pytest.raises(ValueError, match="same cell"):
        wp.wp_pattern([_wp("D8", 1, 0), _wp("D8", 1, 2), _wp("D8", 2, 2)])
    with pytest.raises(TypeError, match="successes must be an int"):
        wp.wp_pattern([_wp("D8", 1, NAN)])
    v, parts = wp.wp_pattern([_wp("D8", 1, 0, n=0), _wp("D8", 2, 0, n=0)])
    assert v is _I and parts["A"] == "not run"


# 6. depth.exp.rotation ---------------------------------------------------------------------------------------
def test_rotation_refuses_negative_mse_and_decides_absent_depths_inconclusive():
    with pytest.raises(ValueError, match=r"mse at 2\[0\]"):
        rot.mse_decreasing(both({1: [0.2, 0.2, 0.2], 2: [-0.5, 0.4, 0.6]}, n=3), 1.0)
    with pytest.raises(ValueError, match="declares 3 seeds"):
        rot.mse_decreasing(both({1: [0.2, 0.2, 0.2], 2: [0.5, 0.4]}, n=3), 1.0)
    with pytest.raises(ValueError, match="baseline"):
        rot.mse_decreasing(both({1: [0.2], 2: [0.1]}), NAN)
    _inconclusive(rot.mse_decreasing(both({}, n=3), 1.0), "no depths")
    _inconclusive(rot.mse_decreasing(both({1: [0.2], 2: []}), 1.0), "no seeds at depth [2]")
    # a diverged run (NaN MSE) is an outcome, not invalid evidence: inconclusive, never a crash
    _inconclusive(rot.mse_decreasing(both({1: [0.2, 0.2, 0.2], 2: [NAN, 0.1, 0.1]}, n=3), 1.0),
                  "diverged")


# 7. head.hilbert_softmax -------------------------------------------------------------------------------------
@pytest.mark.parametrize("err", [NAN, -1e-3, float("inf")])
def test_hilbert_softmax_refuses_impossible_errors(err):
    with pytest.raises(ValueError, match="max_rel_err"):
        hilbert_softmax_decide(True, err)
    with pytest.raises(TypeError, match="symbolic_identity"):
        hilbert_softmax_decide("True", 0.0)


# 8. depth.prop3.7.trained ------------------------------------------------------------------------------------
def test_prop37_trained_absent_and_invalid_lengths():
    _inconclusive(p37.prop37_decide(both({}, n=3), 3), "no depths")
    _inconclusive(p37.prop37_decide(both({1: [], 2: []}, n=3), 3), "no seeds at depth [1, 2]")
    with pytest.raises(ValueError, match=r"lengths at 1\[2\]"):
        p37.prop37_decide(both({1: [1, 2, NAN], 2: [3, 4, 5]}, n=3), 3)

"""Rule-power cases (tests/test_rule_power.py) for depth.cor3.6, depth.cor3.6.trained,
depth.thm3.2.abelian.trained, depth.exp.word_problems, depth.exp.s3_depth, depth.prop3.7.trained
and depth.exp.rotation: synthetic evidence each registered rule must refute, and evidence it must
support or confirm. The trained rules decide on two disjoint seed blocks (SPEC §3), so each case
feeds both blocks."""
from __future__ import annotations

from seqtheory.proofs_checks.claims import depth_cor36 as cor36
from seqtheory.proofs_checks.claims import depth_cor36_trained as cor36t
from seqtheory.proofs_checks.claims import depth_prop37_trained as p37
from seqtheory.proofs_checks.claims import depth_rotation as rot
from seqtheory.proofs_checks.claims import depth_s3_trained as s3
from seqtheory.proofs_checks.claims import depth_thm32_abelian_trained as thm32
from seqtheory.proofs_checks.claims import depth_word_problems as wp
from seqtheory.proofs_checks.precision_sweeps import LOCAL_EPS


def both(ev_a, ev_b=None, n=1):
    """The evidence of blocks A and B (seed indices 0..n−1 and n..2n−1)."""
    return {"A": (list(range(n)), ev_a), "B": (list(range(n, 2 * n)), ev_a if ev_b is None else ev_b)}


# depth.cor3.6 (built cascades) ------------------------------------------------------------------
def _built(k, coupling, c, ck, slope):
    return {"target": "t", "k": k, "coupling": coupling, "class_c": c, "c_k(n)": ck,
            "slope": slope, "ci": [slope - 0.02, slope + 0.02]}


def cor36_refute():
    # a class-maximal depth-3 cascade whose ceiling c_k(n)+1 = 3 is attained and lies below 5
    return cor36.cor36_decide([_built(3, "polynomial", 2, 2, 3.0), _built(3, "linear", 2, 2, 3.0)])


def cor36_support():
    # k = 2: the best built slope equals 2^(k−1)+1 = 3 and every slope equals its class + 1
    return cor36.cor36_decide([_built(2, "polynomial", 2, 2, 3.0), _built(2, "linear", 2, 2, 3.0)])


# depth.cor3.6.trained -----------------------------------------------------------------------------
def _depth_ev(slope, lo, hi, ratio_abelian=1.05, ratio_magnus2=1.1):
    pts = [{"eps": e, "certified": True, "failed": [], "ratio_abelian": ratio_abelian,
            "ratio_magnus2": ratio_magnus2} for e in LOCAL_EPS]
    return {"points": pts, "fit": {"slope": slope, "ci_low": lo, "ci_high": hi, "n": len(pts)}}


def cor36t_refute():
    # depth 1 at the exact best abelian floor (1.05×) falling like ε, not ε²
    return cor36t.cor36_decide(both({1: _depth_ev(1.0, 0.9, 1.1), 2: _depth_ev(3.0, 2.9, 3.1)}))


def cor36t_support():
    return cor36t.cor36_decide(both({1: _depth_ev(2.0, 1.95, 2.05), 2: _depth_ev(3.0, 2.9, 3.1)}))


# depth.thm3.2.abelian.trained ---------------------------------------------------------------------
def _pair_row(**kw):
    r = {"eps": 0.1, "seed": 1, "n_pairs": 10, "frac_pairs_above": 1.0, "worst_ratio": 1.01,
         "class_gap": 0.0}
    return dict(r, **kw)


def thm32_refute():
    # order-free models (class gap 0) with pairs below the bound: the argument's conclusion fails
    return thm32.thm32_decide(both([_pair_row(), _pair_row(frac_pairs_above=0.9, worst_ratio=0.4)]))


def thm32_confirm():
    return thm32.thm32_decide(both([_pair_row(), _pair_row(eps=0.05)]))


# depth.exp.s3_depth -------------------------------------------------------------------------------
def _s3(one, two, abelian=(0.0, 0.0)):
    return {"abelian L=1": {"2T": list(abelian)}, "aussm L=1": {"2T": list(one)},
            "aussm L=2": {"2T": list(two)}}


def s3_refute():
    # one restricted layer solves S3 at 2T in every seed of both blocks
    return s3.s3_decide(both(_s3((0.95, 0.97), (0.99, 0.98)), n=2))


def s3_support():
    return s3.s3_decide(both(_s3((0.1, 0.2), (0.99, 0.98)), n=2))


# depth.exp.word_problems --------------------------------------------------------------------------
def _wp_rows(depth1_solves: bool):
    return [{"group": g, "model": m, "depth": L, "train_length": 4, "seeds": 2,
             "successes": 2 if (L == 2 or depth1_solves) else 0}
            for m in wp.VERDICT_FAMILIES for g in ("D8", "S3") for L in (1, 2)]


def wp_refute():
    # depth 1 solves D8 and S3 in every seed of every family: positive evidence against "depth 1 fails"
    return wp.wp_decide(both(_wp_rows(True), n=2))


def wp_support():
    return wp.wp_decide(both(_wp_rows(False), n=2))


# depth.prop3.7.trained ----------------------------------------------------------------------------
def p37_refute():
    # the deeper models fit their training length 4 and still generalise shorter
    return p37.prop37_decide(both({1: [12, 11, 12], 2: [8, 7, 8], 3: [4, 5, 4]}, n=3), 4)


def p37_support():
    return p37.prop37_decide(both({1: [3, 3, 4], 2: [6, 7, 6], 3: [10, 9, 12]}, n=3), 3)


# depth.exp.rotation -------------------------------------------------------------------------------
def rot_refute():
    # depth 2 learned (mean MSE well below the constant predictor's 1.0) but is worse than depth 1
    return rot.mse_decreasing(both({1: [0.2, 0.2, 0.2], 2: [0.5, 0.4, 0.6]}, n=3), 1.0)


def rot_support():
    return rot.mse_decreasing(both({1: [0.8, 0.85, 0.9], 2: [0.4, 0.5, 0.45]}, n=3), 1.0)


CASES = {
    "depth.cor3.6": {"refute": cor36_refute, "support": cor36_support},
    "depth.cor3.6.trained": {"refute": cor36t_refute, "support": cor36t_support},
    "depth.thm3.2.abelian.trained": {"refute": thm32_refute, "support": thm32_confirm},
    "depth.exp.s3_depth": {"refute": s3_refute, "support": s3_support},
    "depth.exp.word_problems": {"refute": wp_refute, "support": wp_support},
    "depth.prop3.7.trained": {"refute": p37_refute, "support": p37_support},
    "depth.exp.rotation": {"refute": rot_refute, "support": rot_support},
}

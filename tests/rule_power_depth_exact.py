"""Rule-power cases (tests/test_rule_power.py) for the exact and numerical [DEPTH] claims and the
finding on S3: for each claim, synthetic evidence its registered decision rule must refute and
evidence it must support or confirm. Each case calls the rule through the registry
(``get_claim(id).decision``), so the call is recorded as the claim's own."""
from __future__ import annotations

from seqtheory.proofs_checks.registry import get_claim


def _rule(cid: str):
    return get_claim(cid).decision


# ------------------------------------------------------------------ depth.lemma3.1
_TARGET = {"target": "sl2 flows", "flow": True, "determinants": "1", "witness": "a·b / b·a",
           "difference": "[-1, 0; 0, 1]", "lower_bound": 0.5}
_PAPER = {"identity_holds": True, "order_blind": True, "targets": [_TARGET],
          "linear_readout_constructions": []}
_LINEAR_S3 = {"name": "S3 permutation action", "restricted": True, "linear_readout": True,
              "every_initial_state": True, "exact": True, "target_nonabelian": True}


def lemma31_refute():
    """A restricted layer with a linear readout that tracks a non-abelian system from every
    initial state, and no certificate of order-blindness."""
    return _rule("depth.lemma3.1")({**_PAPER, "order_blind": False,
                                     "linear_readout_constructions": [_LINEAR_S3]})


def lemma31_support():
    return _rule("depth.lemma3.1")(_PAPER)


# ------------------------------------------------------------------ depth.thm3.2
def _scan(slope: float, C: float = 1.0) -> dict:
    eps = [1e-4, 1e-3, 1e-2]
    return {"target": "T", "points": [{"eps": e, "error": C * e ** slope, "mass": e ** 2}
                                      for e in eps],
            "error_slope": slope, "error_ci": [slope - 0.01, slope + 0.01], "mass_slope": 2.0}


_GROWTH = {"slope": 1.0, "ci": [0.98, 1.02]}


def _depth2(slope: float) -> dict:
    """A two-layer restricted stack's ε-scan whose error falls like ε^slope."""
    return {"restricted": True, "rows": [_scan(slope)]}


def thm32_refute():
    """One restricted layer exact on a word whose commutator mass is 1 (the depth-2 witness
    beside it does not soften a failure at depth 1)."""
    exact = {"target": "T", "points": [{"eps": 1.0, "error": 0.0, "mass": 1.0}],
             "error_slope": 2.0, "error_ci": [1.99, 2.01], "mass_slope": 2.0}
    return _rule("depth.thm3.2")([exact], _GROWTH, None, _depth2(3.0))


def thm32_support():
    """One layer and a two-layer restricted stack both above C·ε²‖Ω2‖."""
    return _rule("depth.thm3.2")([_scan(2.0)], _GROWTH, None, _depth2(2.0))


def thm32_refine():
    """One layer above the bound, a two-layer restricted stack with error O(ε³) below it."""
    return _rule("depth.thm3.2")([_scan(2.0)], _GROWTH, None, _depth2(3.0))


# ------------------------------------------------------------------ depth.thm3.2.abelian
_ABELIAN = {"exponent": 2.0, "bound_slope": 2.0, "bound_ci": [1.99, 2.01], "residual_slope": 3.0,
            "ratio_at_min_eps": 1.0, "growth_slope": 1.0, "growth_ci": [0.99, 1.01],
            "abelian_models_above_bound": True, "unobserved_gap": False}


def thm32_abelian_refute():
    """An abelian model below the bound."""
    return _rule("depth.thm3.2.abelian")(dict(_ABELIAN, abelian_models_above_bound=False))


def thm32_abelian_support():
    return _rule("depth.thm3.2.abelian")(_ABELIAN)


# ------------------------------------------------------------------ finding.s3_one_restricted_layer
_S3 = {"exhaustive_prefixes": 100, "random_prefixes": 50, "exhaustive_mismatches": 0,
       "random_mismatches": 0, "step_failures": 0, "step_transitions": 36, "initial_ok": True,
       "linear_parts_commute": True}


def s3_refute():
    return _rule("finding.s3_one_restricted_layer")(dict(_S3, random_mismatches=3))


def s3_support():
    return _rule("finding.s3_one_restricted_layer")(_S3)


# ------------------------------------------------------------------ depth.prop3.3
def _summary(cls: str, layer: str, exceeding: int = 0) -> dict:
    bound = 2 if layer == "abelian" else 4
    return {"class": cls, "layer": layer, "per_k": {2: {
        "bound": bound, "instances": 3, "max": bound, "max_lower": None, "attained": True,
        "exceeding": exceeding, "decided": 3, "undecided": 0}}}


def prop33_refute():
    """A two-layer abelian cascade whose derived length exceeds 2."""
    return _rule("depth.prop3.3")([_summary("abelian x linear", "abelian", exceeding=1),
                                   _summary("restricted x linear", "restricted")])


def prop33_support():
    return _rule("depth.prop3.3")([_summary("abelian x linear", "abelian"),
                                   _summary("restricted x linear", "restricted")])


# ------------------------------------------------------------------ depth.prop3.7
def prop37_refute():
    """The bound claims one layer at T = 2, below the proven lower bound 2."""
    return _rule("depth.prop3.7")([{"T": 2, "lower_depth": 2, "least_depth": 2, "bound": 1}],
                                  "bound")


def prop37_support():
    return _rule("depth.prop3.7")([{"T": 2, "lower_depth": 2, "least_depth": 2, "bound": 2},
                                   {"T": 3, "lower_depth": 2, "least_depth": 2, "bound": 2}],
                                  "bound")


# ------------------------------------------------------------------ depth.cor3.8
def _cor38_ev(size, certificate: bool) -> dict:
    T = list(range(2, 21))
    return {"witt_equals_lyndon": True, "cumulative_to_20_n2": 111013,
            "lie_coordinates_realised": True, "reading_source": "a source for the reading",
            "certificate": ({"steps": {"ratio_step": True, "geometric_sum": True},
                             "witt_rows": [{"holds": True, "counts_primitive_words": True}],
                             "bound_rows": [{"holds": True}]} if certificate else None),
            "constructions": [{"construction": "lie", "role": "paper",
                               "reading": "Lie-algebra coordinates", "n": 2, "T": T,
                               "size": [size(t) for t in T]}]}


def cor38_refute():
    """A construction whose state grows like n^T, uncertified."""
    return _rule("depth.cor3.8")(_cor38_ev(lambda t: 2 ** t, certificate=False))


def cor38_support():
    """Certified, with the Lie-coordinate reading sourced (unsourced, as today, the rule refines)."""
    return _rule("depth.cor3.8")(_cor38_ev(lambda t: 3 * 2 ** t // t + 1, certificate=True))


# ------------------------------------------------------------------ depth.thm3.4
_THM34_ROW = {"group": "S3", "all_words_ok": True, "random_ok": True, "right_convention_ok": True,
              "all_lengths_by_induction": True, "layers": 2, "derived_length": 2,
              "certified_min_layers": 2}


_THM34_LIE = [{"algebra": "N(6,14)", "solvable": True, "derived_length": 3, "layers": 3,
               "exact": True, "tracked": True},
              {"algebra": "gl(2)", "solvable": False, "levi_dim": 3, "levi_semisimple": True,
               "reached": False}]


def thm34_refute():
    """A proven lower bound of 3 layers for a group of derived length 2 (the Lie part valid)."""
    return _rule("depth.thm3.4")([dict(_THM34_ROW, certified_min_layers=3)], True, _THM34_LIE)


def thm34_support():
    return _rule("depth.thm3.4")([_THM34_ROW], True, _THM34_LIE)


# ------------------------------------------------------------------ depth.error_falls_with_depth
def _depth_rows(errors) -> list[dict]:
    return [{"target": "T", "coupling": "linear", "depth": k, "error": e,
             "exact_group_element": True, "translations": True}
            for k, e in enumerate(errors, start=1)]


def error_depth_refute():
    """A built depth-2 cascade no better than depth 1."""
    return _rule("depth.error_falls_with_depth")(_depth_rows([1e-3, 1e-3]))


def error_depth_support():
    return _rule("depth.error_falls_with_depth")(_depth_rows([1e-3, 1e-5, 1e-7]))


CASES = {
    "depth.lemma3.1": {"refute": lemma31_refute, "support": lemma31_support},
    "depth.thm3.2": {"refute": thm32_refute, "support": thm32_support, "refine": thm32_refine},
    "depth.thm3.2.abelian": {"refute": thm32_abelian_refute, "support": thm32_abelian_support},
    "finding.s3_one_restricted_layer": {"refute": s3_refute, "support": s3_support},
    "depth.prop3.3": {"refute": prop33_refute, "support": prop33_support},
    "depth.prop3.7": {"refute": prop37_refute, "support": prop37_support},
    "depth.cor3.8": {"refute": cor38_refute, "support": cor38_support},
    "depth.thm3.4": {"refute": thm34_refute, "support": thm34_support},
    "depth.error_falls_with_depth": {"refute": error_depth_refute, "support": error_depth_support},
}

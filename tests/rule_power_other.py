"""Rule-power cases (tests/test_rule_power.py) of the dataset audits (``audit.*``) and the
background claims (``bch.*``, ``magnus.*``, ``free_lie.*``): for each, synthetic evidence its
registered decision rule must refute and evidence it must support or confirm. Each case calls
``get_claim(id).decision`` with the thresholds the check itself passes."""
from __future__ import annotations

from seqtheory.proofs_checks.claims import audit_task_groups as atg
from seqtheory.proofs_checks.claims import background_witt as witt
from seqtheory.proofs_checks.registry import get_claim


def _rule(cid: str):
    return get_claim(cid).decision


# ---------------------------------------------------------------- audits
def _fig2_row(T, stat_m, held_m=0.3):
    return {"T": T, "stat_memoriser": stat_m, "stat_true": 1.0, "heldout_memoriser": held_m,
            "heldout_true": 1.0, "n_test": 1000, "expected_heldout_memoriser": held_m}


def _rotation_rows(released_hom: bool, released_distinct: int = 60):
    ref = {"map": "package", "order": 60, "n_distinct": 60, "is_homomorphism": True,
           "n_respected": 3600, "n_pairs": 3600}
    rel = {"map": "released", "order": 60, "n_distinct": released_distinct,
           "is_homomorphism": released_hom, "n_respected": 3600 if released_hom else 1200,
           "n_pairs": 3600}
    return [ref, rel], ["released"], "package"


def _rep_summary(**kw):
    s = {"order": 60, "n_distinct": 60, "n_respected": 3600, "n_pairs": 3600,
         "identity_maps_to_identity": True, "all_rotations": True, "group_perfect": True}
    s.update(kw)
    return s


def _bos_cases(offset: int):
    return [{"k": k, "tokens_right": j, "reported": j + offset} for k in (1, 2, 3)
            for j in range(k + 1)]


def _identity_rows(ok: bool):
    return [{"task": "S3", "isomorphic_to_claimed": True},
            {"task": "H3", "isomorphic_to_claimed": ok}]


CASES = {
    "audit.fig2_training_accuracy": {
        # the training-word statistic separates the memoriser from the group model
        "refute": lambda: _rule("audit.fig2_training_accuracy")([_fig2_row(2, 0.4)]),
        # identical on the training words, separated on held-out words, as expected
        "support": lambda: _rule("audit.fig2_training_accuracy")([_fig2_row(2, 1.0),
                                                                   _fig2_row(8, 1.0, 0.0)]),
    },
    "audit.max_seq_len_counts_bos": {
        "refute": lambda: _rule("audit.max_seq_len_counts_bos")(_bos_cases(0)),
        "support": lambda: _rule("audit.max_seq_len_counts_bos")(_bos_cases(1)),
    },
    "audit.max_seq_len_mixed_lengths": {
        "refute": lambda: _rule("audit.max_seq_len_mixed_lengths")(
            [{"L": L, "true_length": L, "reported_tokens": L} for L in (3, 10, 40)]),
        "support": lambda: _rule("audit.max_seq_len_mixed_lengths")(
            [{"L": 3, "true_length": 3, "reported_tokens": 3},
             {"L": 10, "true_length": 10, "reported_tokens": 17}]),
    },
    "audit.paper_rotation_task": {
        # the released map respects 1200 of 3600 products: not a homomorphism
        "refute": lambda: _rule("audit.paper_rotation_task")(*_rotation_rows(False)),
        "support": lambda: _rule("audit.paper_rotation_task")(*_rotation_rows(True)),
    },
    "audit.representation": {
        "refute": lambda: _rule("audit.representation")(_rep_summary(n_respected=3599), True),
        "support": lambda: _rule("audit.representation")(_rep_summary(), True),
    },
    "audit.rotation_start_orbit": {
        "refute": lambda: _rule("audit.rotation_start_orbit")(
            [{"reading": "x∘g", "orbit_points": 60, "closed": True}], 20),
        "support": lambda: _rule("audit.rotation_start_orbit")(
            [{"reading": "x∘g", "orbit_points": 20, "closed": True},
             {"reading": "g∘x", "orbit_points": 20, "closed": True}], 20),
    },
    "audit.task_groups": {
        "refute": lambda: _rule("audit.task_groups")(["D8: derived_length = 3, oracle 2"],
                                                     list(atg.TASK_GROUPS)),
        "support": lambda: _rule("audit.task_groups")([], list(atg.TASK_GROUPS)),
    },
    "audit.task_identity": {
        "refute": lambda: _rule("audit.task_identity")(_identity_rows(False), ["S3", "H3"]),
        "support": lambda: _rule("audit.task_identity")(_identity_rows(True), ["S3", "H3"]),
    },
}


# ---------------------------------------------------------------- background
def _slopes(slope: float, convention: str | None = None):
    rows = [{"c": c, "expected": c + 1, "slope": slope + c - 1, "ci_low": slope + c - 1.02,
             "ci_high": slope + c - 0.98} for c in (1, 2, 3)]
    return [dict(r, convention=convention) for r in rows] if convention else rows


_MAGNUS_NUM = {"AY": 5e-26, "AY_next": 6e-29, "AY_tail": 5e-26, "YA": 5e-26, "YA_next": 6e-29,
               "YA_tail": 5e-26, "discrete": 1e-36, "quadrature_vs_exact": 1e-15}
_MAGNUS_KERNELS = {f"{c}: Ω{m}": {"equal": True, "words": 1} for c in ("AY", "YA")
                   for m in range(1, 5)}
_NILPOTENT_ROW = {"n": 2, "c": 3, "dim": 5, "witt_sum": 5, "derived_series": [5, 1, 0],
                  "graded": [5, 1, 0], "nilpotency_class": 3}
_WITT_ROWS = [{"n": 2, "m": 1, "lyndon_words": 2, "witt": 2},
              {"n": 2, "m": 2, "lyndon_words": 1, "witt": 1}]

CASES.update({
    "bch.lyndon_coefficients": {
        "refute": lambda: _rule("bch.lyndon_coefficients")(
            {"degree4_ok": False, "denominators_ok": True}, [1e-40]),
        "support": lambda: _rule("bch.lyndon_coefficients")(
            {"degree4_ok": True, "denominators_ok": True}, [1e-40, 3e-30]),
    },
    "bch.truncation_order": {
        # slopes c, not c + 1: the truncation error would be one order larger than stated
        "refute": lambda: _rule("bch.truncation_order")(_slopes(1.0)),
        "support": lambda: _rule("bch.truncation_order")(_slopes(2.01)),
    },
    "magnus.terms": {
        "refute": lambda: _rule("magnus.terms")(
            {"AY": True, "YA": True}, {**_MAGNUS_KERNELS, "YA: Ω2": {"equal": False, "words": 2}},
            _MAGNUS_NUM),
        "support": lambda: _rule("magnus.terms")({"AY": True, "YA": True}, _MAGNUS_KERNELS,
                                                 _MAGNUS_NUM),
    },
    "magnus.truncation_order": {
        "refute": lambda: _rule("magnus.truncation_order")(_slopes(2.5, "AY")),
        "support": lambda: _rule("magnus.truncation_order")(_slopes(1.99, "YA")),
    },
    "free_lie.free_nilpotent_series": {
        "refute": lambda: _rule("free_lie.free_nilpotent_series")(
            [{**_NILPOTENT_ROW, "derived_series": [5, 2, 0]}]),
        "support": lambda: _rule("free_lie.free_nilpotent_series")([_NILPOTENT_ROW]),
    },
    "free_lie.witt_dimensions": {
        "refute": lambda: _rule("free_lie.witt_dimensions")(
            [{**_WITT_ROWS[0], "witt": 3}], witt.SPEC_WITT2, 111013, True),
        "support": lambda: _rule("free_lie.witt_dimensions")(_WITT_ROWS, witt.SPEC_WITT2, 111013,
                                                             True),
    },
})

"""Facts about the released code of [DEPTH]: the rotation task's start orbit, the BOS position
in max_seq_len_at_90, and padded words in mixed-length batches (exact re-implementations:
numerics/released_metric.py, theory/q_sqrt5.py; claims/audit_max_seq_len_bos.py,
audit_max_seq_len_mixed.py, audit_rotation_start_orbit.py)."""
from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from controls import control_through_rule

from seqtheory.numerics import released_metric
from seqtheory.proofs_checks.claims import audit_max_seq_len_bos as bos
from seqtheory.proofs_checks.claims import audit_max_seq_len_mixed as mixed
from seqtheory.proofs_checks.claims import audit_rotation_start_orbit as orb
from seqtheory.proofs_checks.registry import Context, Verdict, get_claim
from seqtheory.theory import q_sqrt5

EXPECTED = {
    "audit.rotation_start_orbit": Verdict.CONFIRMED,
    "audit.max_seq_len_counts_bos": Verdict.CONFIRMED,
    "audit.max_seq_len_mixed_lengths": Verdict.CONFIRMED,
}


@pytest.mark.parametrize("cid", sorted(EXPECTED))
def test_claim_verdict_and_control(cid):
    c = get_claim(cid)
    ctx = Context(seed=0)
    out = c.check(ctx)
    assert out.verdict is EXPECTED[cid], out.key_figure
    assert "released code" in c.statement and "lie-algebra-state-tracking" in c.source.location
    ctl = control_through_rule(c, ctx)
    assert ctl.rejected, ctl.reason


def test_orbit_figures():
    rows = orb.orbit_evidence(orb.START)
    assert [r["orbit_points"] for r in rows] == [20, 20]
    assert all(r["closed"] and r["distinct_matrices"] == 30 for r in rows)


def test_orbit_of_a_fixed_vector_and_bad_input():
    import sympy

    pts, closed = q_sqrt5.orbit([sympy.eye(3)], (1, 2, 3))
    assert closed and len(pts) == 1
    with pytest.raises(ValueError, match="Q\\(√5\\)"):
        q_sqrt5.q5(sympy.sqrt(2))
    assert q_sqrt5.q5((1 + sympy.sqrt(5)) / 4) == (Fraction(1, 4), Fraction(1, 4))


def test_rules_on_synthetic_evidence():
    assert orb.orbit_decide([{"reading": "r", "orbit_points": 20, "closed": True}], 20)[0] \
        is Verdict.CONFIRMED
    assert orb.orbit_decide([{"reading": "r", "orbit_points": 60, "closed": True}], 20)[0] \
        is Verdict.REFUTED
    assert orb.orbit_decide([{"reading": "r", "orbit_points": 20, "closed": False}], 20)[0] \
        is Verdict.INCONCLUSIVE
    assert bos.bos_decide([{"k": 2, "tokens_right": 2, "reported": 3}])[0] is Verdict.CONFIRMED
    assert bos.bos_decide([{"k": 2, "tokens_right": 2, "reported": 2}])[0] is Verdict.REFUTED
    assert bos.bos_decide([])[0] is Verdict.INCONCLUSIVE
    assert mixed.mixed_lengths_decide([{"L": 3, "true_length": 3, "reported_tokens": 9}])[0] \
        is Verdict.CONFIRMED
    assert mixed.mixed_lengths_decide([{"L": 3, "true_length": 3, "reported_tokens": 3}])[0] \
        is Verdict.REFUTED
    assert mixed.mixed_lengths_decide([])[0] is Verdict.INCONCLUSIVE


def test_mixed_lengths_threshold_is_exact():
    """Past position L + 1 the accuracy is (L − 1)/127: ≥ 9/10 first at L = 116."""
    rows = {r["L"]: r for r in mixed.mixed_length_rows(128)}
    assert rows[115]["reported_tokens"] == 115 and rows[116]["reported_tokens"] == 128


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(st.booleans(), min_size=1, max_size=12), min_size=1, max_size=6))
@example([[True, False], [True]])
def test_released_metric_on_equal_lengths_is_the_package_metric_plus_one(rows):
    """Without padding (equal lengths) the released metric is the package's one plus the BOS
    position; with BOS removed and words of one length, the two agree on every input."""
    n = max(len(r) for r in rows)
    rows = [r + [False] * (n - len(r)) for r in rows]
    released = released_metric.released_max_len(released_metric.released_prefix_accuracies(rows))
    assert released == bos.package_max_len(rows) + 1
    assert released_metric.released_max_len(released_metric.released_prefix_accuracies(rows, bos=False)) \
        == bos.package_max_len(rows)


def test_released_metric_bad_input():
    with pytest.raises(ValueError, match="rows"):
        released_metric.released_prefix_accuracies([])
    with pytest.raises(ValueError, match="rows"):
        released_metric.released_prefix_accuracies([[]], bos=False)


@pytest.mark.parametrize("cid", ["audit.max_seq_len_counts_bos", "audit.max_seq_len_mixed_lengths",
                                 "audit.rotation_start_orbit", "audit.paper_rotation_task"])
def test_audits_of_reimplemented_released_code_state_that_premise(cid):
    p = get_claim(cid).premise
    assert p is not None and "does not run the released code" in p.text
    assert "62e3b48" in p.source and "sourced, not checked" in str(p)

"""Claim audit.fig2_training_accuracy: verdict, control through the rule, the rule on synthetic
evidence, and the exact pieces (prefix labels, expected seen fraction)."""
from fractions import Fraction

import mpmath
import pytest

from seqtheory.proofs_checks.claims import audit_evaluation as ae
from seqtheory.proofs_checks import report
from seqtheory.proofs_checks.registry import Context, Premise, Verdict, get_claim
from seqtheory.proofs_checks.runner import ClaimResult
from seqtheory.theory.groups import FiniteGroup

from controls import control_through_rule


def test_fig2_audit_confirmed_and_control(tmp_path):
    c = get_claim("audit.fig2_training_accuracy")
    ctx = Context(seed=0, out_dir=tmp_path)
    out = c.check(ctx)
    assert out.verdict is Verdict.CONFIRMED, out.notes
    for r in out.evidence["rows"]:
        assert r["train_memoriser"] == r["train_true"] == 1.0
        assert r["heldout_true"] == 1.0 and r["heldout_memoriser"] < 1.0
    # the premise about Figure 2 is sourced, kept apart from what the check establishes
    assert c.premise is not None and "train/max_seq_len_at_90" in c.premise.text
    assert "released code" in c.premise.source
    assert "Figure 2" not in c.statement
    assert "not checked" in out.evidence["premise (sourced, not checked)"]
    co = control_through_rule(c, ctx)
    assert co.rejected, co.reason
    rec = report.claim_record(ClaimResult(c, out, None, 0.1, co), 0, "quick")
    assert rec["premise"] == {"text": c.premise.text, "source": c.premise.source}
    doc = report.build_report([ClaimResult(c, out, None, 0.1, co)], seed=0, profile="quick",
                              device="cpu", controls=True)
    report.validate_report(doc)
    md = report.render_markdown(doc)
    assert "Premise (sourced, not checked; the verdict does not cover it)" in md


def test_premise_is_a_non_empty_sourced_fact():
    with pytest.raises(ValueError, match="source"):
        Premise("a fact", " ")
    assert "sourced, not checked" in str(Premise("a fact", "a paper"))


def _row(T, stat_m, stat_t, held_m, held_t=1.0, expected=None, n_test=1000):
    return {"T": T, "stat_memoriser": stat_m, "stat_true": stat_t, "heldout_memoriser": held_m,
            "heldout_true": held_t, "n_test": n_test,
            "expected_heldout_memoriser": held_m if expected is None else expected}


def test_fig2_rule_on_synthetic_evidence():
    decide = ae.fig2_decide
    assert decide([_row(2, 1.0, 1.0, 0.34), _row(8, 1.0, 1.0, 0.0)])[0] is Verdict.CONFIRMED
    assert decide([_row(2, 1.0, 1.0, 0.34), _row(8, 0.0, 1.0, 0.0)])[0] is Verdict.REFUTED
    # held-out words do not separate the models (e.g. every word memorised)
    assert decide([_row(2, 1.0, 1.0, 1.0)])[0] is Verdict.INCONCLUSIVE
    # memoriser far from its expected held-out accuracy
    assert decide([_row(2, 1.0, 1.0, 0.9, expected=0.3)])[0] is Verdict.INCONCLUSIVE
    assert decide([])[0] is Verdict.INCONCLUSIVE


def test_expected_seen_fraction_is_exact_formula():
    for T, n in [(1, 10), (2, 100), (3, 7)]:
        exact = 1 - (1 - Fraction(1, 60 ** T)) ** n
        got = ae.expected_seen_fraction(60, T, n)
        with mpmath.workdps(60):
            want = mpmath.mpf(exact.numerator) / exact.denominator
            assert abs(got - want) < mpmath.mpf(10) ** -40


def test_prefix_labels_left_convention():
    G = FiniteGroup.named("A5")
    w = (3, 17, 42)
    (labels,) = ae.prefix_labels(G, [w])
    g = G.identity
    for i, lab in zip(w, labels):
        g = G.multiply(G.elements[i], g)
        assert G.index(g) == lab
    assert len(labels) == 3


@pytest.mark.parametrize("seed", [0, 5])
def test_fig2_reproducible(seed):
    a = ae.evaluation_rows(Context(seed=seed), [2, 3], 200, 100)
    b = ae.evaluation_rows(Context(seed=seed), [2, 3], 200, 100)
    assert a == b


def test_cite_names_the_premise_apart_from_the_verdict(tmp_path, capsys, monkeypatch):
    from seqtheory.proofs_checks.cli import main

    monkeypatch.chdir(tmp_path)                      # no report here: the check runs now
    assert main(["cite", "audit.fig2_training_accuracy"]) == 0
    out = capsys.readouterr().out
    assert "verdict: confirmed" in out
    assert "premise, sourced and not covered by the verdict: [DEPTH] Figure 2 plots" in out

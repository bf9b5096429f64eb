"""A negative control's rule verdicts are recorded, and a rejected control that the claim's rule
gave the claim's own verdict (typically ``inconclusive`` on both) is reported as "rejected but
not separated": it shows that the rule does not accept the wrong variant, not the check's power."""
from __future__ import annotations

import json

import pytest

from seqtheory.proofs_checks import registry as reg
from seqtheory.proofs_checks.registry import (Claim, Context, ControlOutcome, Outcome, Verdict,
                                              TEXTBOOK, verdict_of)
from seqtheory.proofs_checks.report import (build_report, control_unseparated, render_markdown,
                                            tally, tally_line, validate_report, write_report)
from seqtheory.proofs_checks.runner import run_claim


def _claim(claim_verdict: Verdict, control_verdicts: list, id: str = "test.sep") -> Claim:
    """A claim whose check and control both go through its rule; the rule returns
    ``claim_verdict`` on the claim's evidence and ``control_verdicts`` (in turn) on the control's."""
    c = Claim(id=id, title="t", source=TEXTBOOK("none"), statement="s", check=lambda ctx: None)
    rule = c.decision_rule(lambda ev: ev)

    def check(ctx):
        v = verdict_of(rule((claim_verdict, "claim evidence")))
        return Outcome(v, "k")

    def control(ctx):
        got = [rule(v) for v in control_verdicts]
        return ControlOutcome(rejected=all(verdict_of(g) is not Verdict.CONFIRMED for g in got),
                              variant="wrong", reason="r")

    c.check = check
    c.control(control)
    return c


def _record(claim_verdict, control_verdicts, tmp_path):
    res = run_claim(_claim(claim_verdict, control_verdicts), Context(out_dir=tmp_path),
                    controls=True)
    rep = build_report([res], seed=0, profile="quick", device="cpu", controls=True)
    return res, rep


def test_rule_verdicts_are_recorded_in_call_order_for_every_return_shape():
    c = Claim(id="test.shapes", title="t", source=TEXTBOOK("none"), statement="s",
              check=lambda ctx: None)
    rule = c.decision_rule(lambda ev: ev)
    with reg.recording_decisions() as log:
        rule((Verdict.REFUTED, "why"))
        rule(Verdict.INCONCLUSIVE)
        rule({"verdict": Verdict.SUPPORTED})
        rule("confirmed")            # a string is not a Verdict: unknown
        rule(None)
    assert list(log) == ["test.shapes"] * 5
    assert log.verdicts_of("test.shapes") == (Verdict.REFUTED, Verdict.INCONCLUSIVE,
                                              Verdict.SUPPORTED, None, None)
    assert log.verdicts_of("other") == ()


def test_a_raising_rule_leaves_no_verdict_and_nested_rules_keep_their_places():
    outer = Claim(id="test.outer", title="t", source=TEXTBOOK("none"), statement="s",
                  check=lambda ctx: None)
    inner = Claim(id="test.inner", title="t", source=TEXTBOOK("none"), statement="s",
                  check=lambda ctx: None)
    inner_rule = inner.decision_rule(lambda ev: (Verdict.REFUTED, "inner"))
    outer_rule = outer.decision_rule(lambda ev: (inner_rule(ev), Verdict.SUPPORTED)[1])
    bad = Claim(id="test.bad", title="t", source=TEXTBOOK("none"), statement="s",
                check=lambda ctx: None).decision_rule(lambda ev: 1 / 0)
    with reg.recording_decisions() as log:
        outer_rule({})
        with pytest.raises(ZeroDivisionError):
            bad({})
    assert list(log) == ["test.outer", "test.inner", "test.bad"]
    assert log.verdicts == [Verdict.SUPPORTED, Verdict.REFUTED, None]


def test_control_with_the_claims_own_verdict_is_not_separated(tmp_path):
    res, rep = _record(Verdict.INCONCLUSIVE, [Verdict.INCONCLUSIVE], tmp_path)
    assert res.control.rejected and res.control.rule_verdicts == (Verdict.INCONCLUSIVE,)
    (rec,) = rep["claims"]
    assert rec["control"]["rule_verdicts"] == ["inconclusive"]
    assert tally(rep["claims"]) == {"inconclusive": 1, "control rejected but not separated": 1}
    assert tally_line(rep["claims"]).endswith("controls: 1 rejected but not separated")
    assert "rejected, not separated (the claim's rule returned inconclusive" in \
        render_markdown(rep)


@pytest.mark.parametrize("claim_verdict, control_verdicts", [
    (Verdict.CONFIRMED, [Verdict.INCONCLUSIVE]),          # the rule separates them
    (Verdict.INCONCLUSIVE, [Verdict.REFUTED]),
    (Verdict.INCONCLUSIVE, [Verdict.INCONCLUSIVE, Verdict.REFUTED]),   # one variant separated
    (Verdict.SUPPORTED, [Verdict.REFUTED, Verdict.REFUTED]),
])
def test_a_control_the_rule_tells_apart_is_plainly_rejected(claim_verdict, control_verdicts,
                                                            tmp_path):
    _, rep = _record(claim_verdict, control_verdicts, tmp_path)
    assert tally(rep["claims"])["control rejected"] == 1
    assert "not separated" not in render_markdown(rep)


def test_control_unseparated_needs_a_rejection_and_recorded_verdicts():
    assert control_unseparated(True, "inconclusive", ["inconclusive", "inconclusive"])
    assert not control_unseparated(False, "inconclusive", ["inconclusive"])  # broken, not this
    assert not control_unseparated(True, "inconclusive", [])     # an older report: unknown
    assert not control_unseparated(True, None, [None])           # crashed claim, unknown verdicts
    assert not control_unseparated(True, "inconclusive", ["inconclusive", None])


def test_reports_without_rule_verdicts_still_validate_and_bad_ones_do_not(tmp_path):
    _, rep = _record(Verdict.INCONCLUSIVE, [Verdict.INCONCLUSIVE], tmp_path)
    jpath, _ = write_report(rep, tmp_path)
    doc = json.loads(jpath.read_text())
    del doc["claims"][0]["control"]["rule_verdicts"]       # written before they were recorded
    validate_report(doc)
    assert tally(doc["claims"]) == {"inconclusive": 1, "control rejected": 1}
    doc["claims"][0]["control"]["rule_verdicts"] = ["maybe"]
    with pytest.raises(ValueError, match=r"claims\[0\]\.control\.rule_verdicts"):
        validate_report(doc)

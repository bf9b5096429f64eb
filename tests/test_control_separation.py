"""A negative control's rule verdicts are recorded, and a rejected control that the claim's rule
gave the claim's own verdict (typically ``inconclusive`` on both) is reported as "rejected but
not separated": it shows that the rule does not accept the wrong variant, not the check's power."""
from __future__ import annotations

import json
import re

import pytest

from seqtheory.proofs_checks import registry as reg
from seqtheory.proofs_checks.registry import (Claim, Context, ControlOutcome, Outcome, Verdict,
                                              TEXTBOOK, verdict_of)
from seqtheory.proofs_checks.cli import main
from seqtheory.proofs_checks.report import (build_report, control_separation, render_markdown,
                                            tally, tally_line, validate_report, write_report)
from seqtheory.proofs_checks.runner import run_claim


def _claim(claim_verdict: Verdict, control_verdicts: list, id: str = "test.sep") -> Claim:
    """A claim whose check and control both go through its rule; the rule returns
    ``claim_verdict`` on the claim's evidence and ``control_verdicts`` (in turn) on the
    control's."""
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
        rule("confirmed")            # a verdict's value names it
        rule("confirmed-ish")        # another string does not
        rule(None)
    assert list(log) == ["test.shapes"] * 6
    assert log.verdicts_of("test.shapes") == (Verdict.REFUTED, Verdict.INCONCLUSIVE,
                                              Verdict.SUPPORTED, Verdict.CONFIRMED, None, None)
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
    assert tally(rep["claims"]) == {"inconclusive": 1, "control unseparated": 1}  # not "rejected"
    assert tally_line(rep["claims"]).endswith("controls: 1 unseparated")
    assert "unseparated (the claim's rule returned inconclusive" in render_markdown(rep)


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


def test_control_separation_is_unknown_without_the_claims_or_the_rules_verdicts():
    assert control_separation("inconclusive", ["inconclusive"] * 2)[0] == "not separated"
    assert control_separation("confirmed", ["inconclusive", "refuted"]) == ("separated", "")
    state, why = control_separation("inconclusive", None)
    assert state == "unknown" and "made before" in why              # an older report
    assert control_separation(None, ["inconclusive"]) == ("unknown", "the check crashed")
    state, why = control_separation("inconclusive", ["inconclusive", None])
    assert state == "unknown" and "call 2" in why
    assert control_separation("inconclusive", [])[0] == "unknown"


def test_rule_return_shapes_that_name_a_verdict():
    from collections import namedtuple

    import numpy as np

    named = namedtuple("named", "why verdict")
    for result, verdict in [((Verdict.REFUTED, "w"), Verdict.REFUTED),
                            ("inconclusive", Verdict.INCONCLUSIVE),
                            (np.str_("refuted"), Verdict.REFUTED),
                            (Outcome(Verdict.SUPPORTED, "k"), Verdict.SUPPORTED),
                            (named("w", Verdict.REFINED), Verdict.REFINED),
                            (((Verdict.REFUTED, "w"), 1), Verdict.REFUTED),
                            ({"verdict": "refuted"}, Verdict.REFUTED),
                            ("maybe", None), (None, None), (3, None), ((), None)]:
        assert verdict_of(result) is verdict, result


def test_an_older_report_merged_with_a_new_run_says_separation_unknown(tmp_path):
    _, rep = _record(Verdict.INCONCLUSIVE, [Verdict.INCONCLUSIVE], tmp_path)
    jpath, _ = write_report(rep, tmp_path)
    doc = json.loads(jpath.read_text())
    del doc["claims"][0]["control"]["rule_verdicts"]       # written before they were recorded
    validate_report(doc)
    assert tally(doc["claims"]) == {"inconclusive": 1, "control separation unknown": 1}
    assert "rejected, separation unknown (this record comes from a run made before" in \
        render_markdown(doc)
    doc["claims"][0]["control"]["rule_verdicts"] = ["maybe"]
    with pytest.raises(ValueError, match=r"claims\[0\]\.control\.rule_verdicts"):
        validate_report(doc)


def test_a_crashed_check_leaves_its_controls_separation_unknown(tmp_path):
    c = _claim(Verdict.INCONCLUSIVE, [Verdict.INCONCLUSIVE], id="test.sep_crash")
    c.check = lambda ctx: 1 / 0
    res = run_claim(c, Context(out_dir=tmp_path), controls=True)
    rep = build_report([res], seed=0, profile="quick", device="cpu", controls=True)
    assert tally(rep["claims"]) == {"crashed": 1, "control separation unknown": 1}


@pytest.fixture
def registered():
    made = []

    def make(*args, **kw):
        c = _claim(*args, **kw)
        reg.REGISTRY[c.id] = c
        made.append(c.id)
        return c

    yield make
    for cid in made:
        reg.REGISTRY.pop(cid, None)


def test_verify_and_cite_name_a_control_not_separated(tmp_path, capsys, registered):
    registered(Verdict.INCONCLUSIVE, [Verdict.INCONCLUSIVE], id="test.sep_same")
    registered(Verdict.CONFIRMED, [Verdict.INCONCLUSIVE], id="test.sep_apart")
    assert main(["verify", "--only", "test.sep_*", "--controls", "--out", str(tmp_path),
                 "--no-progress"]) == 0                    # not separated is not a failure
    out = capsys.readouterr().out
    lines = [ln.rstrip() for ln in out.splitlines()]
    assert any("test.sep_same" in ln and ln.endswith(
        "control unseparated (rule: inconclusive on both)") for ln in lines), out
    assert any("test.sep_apart" in ln and ln.endswith("control rejected") for ln in lines), out
    assert "controls: 1 rejected, 1 unseparated" in out
    # the closing table: the id, then the marked verdict, on one line
    assert any(re.fullmatch(r"  test\.sep_same +inconclusive\*", ln) for ln in lines), out
    assert any(re.fullmatch(r"  test\.sep_apart +confirmed", ln) for ln in lines), out
    assert "* control unseparated: the rule gave the wrong variant the claim's own verdict" in out
    assert main(["cite", "test.sep_same", "--report", str(tmp_path)]) == 0
    assert "its negative control was unseparated" in capsys.readouterr().out
    assert main(["cite", "test.sep_apart", "--report", str(tmp_path)]) == 0
    assert "negative control" not in capsys.readouterr().out


def test_a_crashed_control_is_named_in_every_outlet(tmp_path, capsys, registered):
    from seqtheory.proofs_checks.notebook import claim_markdown

    c = registered(Verdict.CONFIRMED, [Verdict.INCONCLUSIVE], id="test.sep_ctlcrash")
    c.negative_control = lambda ctx: 1 / 0
    assert main(["verify", "--only", c.id, "--controls", "--out", str(tmp_path),
                 "--no-progress"]) == 1                   # a crashed control fails the run
    out = capsys.readouterr().out
    assert "control CRASHED" in out and "controls: 1 crashed" in out
    assert "Negative control crashed: `ZeroDivisionError: division by zero`" in \
        (tmp_path / "report.md").read_text()
    assert main(["cite", c.id, "--report", str(tmp_path)]) == 0
    assert "its negative control crashed (ZeroDivisionError" in capsys.readouterr().out
    md = claim_markdown(run_claim(c, Context(out_dir=tmp_path), controls=True))
    assert "Negative control **crashed (ZeroDivisionError: division by zero)**" in md

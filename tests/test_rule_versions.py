"""Rule versions and the rule ledger (SPEC §3, "every rule can fail, and is fixed before the
evidence"), seed-block replication ("trained verdicts replicate"), readings apart from the verdict
("the paper's reading decides") and findings apart from the papers."""
import importlib.util
import json
import sys
import textwrap
from types import SimpleNamespace

import pytest

from seqtheory.proofs_checks import rule_versions as rv
from seqtheory.proofs_checks.registry import (FINDING, DEPTH, Outcome, Reading, Verdict,
                                              all_claims, claim, replicate, REGISTRY)


def test_every_rule_version_is_recorded_in_the_ledger():
    """A rule whose source or thresholds changed without `rule_versions record` fails here."""
    stale = rv.stale_rules(all_claims())
    assert stale == {}, (
        "decision rules changed without a recorded change; run `python -m "
        "seqtheory.proofs_checks.rule_versions record ID --change WHY [--seen full:0,1]` for: "
        + "; ".join(f"{k}: {v}" for k, v in stale.items()))


def test_ledger_entries_are_complete():
    ledger = rv.load_ledger()
    ids = {c.id for c in all_claims()}
    assert set(ledger) == ids, f"ledger entries without a claim: {set(ledger) - ids}"
    for cid, e in ledger.items():
        assert e["change"].strip() and e["recorded"], cid
        assert all(isinstance(s, int) for seeds in e["seen"].values() for s in seeds), cid


def _module(tmp_path, name, body):
    """A throwaway module inside the rule package's namespace, so the fingerprint follows it."""
    path = tmp_path / f"{name}.py"
    path.write_text(textwrap.dedent(body))
    full = f"seqtheory.proofs_checks._{name}"
    spec = importlib.util.spec_from_file_location(full, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[full] = mod
    spec.loader.exec_module(mod)
    return mod


RULE = """
    THRESHOLD = {t}

    def _helper(x):
        return x {op} THRESHOLD

    def decide(x):
        return "refuted" if _helper(x) else "supported"
"""


def test_fingerprint_follows_thresholds_and_helpers(tmp_path):
    base = _module(tmp_path, "r0", RULE.format(t=0.5, op=">"))
    same = _module(tmp_path, "r0b", RULE.format(t=0.5, op=">"))
    threshold = _module(tmp_path, "r1", RULE.format(t=0.6, op=">"))
    helper = _module(tmp_path, "r2", RULE.format(t=0.5, op=">="))
    fp = rv.rule_fingerprint
    sources, consts = rv.rule_parts(base.decide)
    assert any(k.endswith("._helper") for k in sources) and list(consts.values()) == [0.5]
    assert fp(threshold.decide) != fp(base.decide)       # a threshold changed
    assert fp(helper.decide) != fp(base.decide)          # a helper the rule calls changed
    # the same rule in another module (a renamed claim module) keeps its version
    assert fp(same.decide) == fp(base.decide)
    assert fp(base.decide) == fp(base.decide) and len(fp(base.decide)) == 12
    with pytest.raises(TypeError, match="function"):
        rv.rule_fingerprint(len)


def test_rule_status_marks_seen_and_out_of_sample_seeds():
    c = next(c for c in all_claims() if c.uses_training)
    v = rv.rule_fingerprint(c.decision)
    ledger = {c.id: {"version": v, "recorded": "2026-12-04", "change": "x",
                     "seen": {"full": [0, 1]}, "history": []}}
    assert rv.rule_status(c, 1, "full", ledger)["seed_status"] == "seen"
    assert rv.rule_status(c, 2, "full", ledger)["seed_status"] == "out-of-sample"
    assert rv.rule_status(c, 0, "quick", ledger)["seed_status"] == "out-of-sample"
    ledger[c.id]["version"] = "0" * 12
    assert rv.rule_status(c, 1, "full", ledger)["seed_status"] == "unrecorded"
    exact = next(c for c in all_claims() if not c.uses_training)
    ve = rv.rule_fingerprint(exact.decision)
    entry = {"version": ve, "recorded": "d", "change": "x", "seen": {}, "history": []}
    assert rv.rule_status(exact, 0, "quick", {exact.id: entry})["seed_status"] == "not applicable"


def test_record_change_keeps_history_and_seen_seeds(tmp_path):
    c = next(c for c in all_claims() if c.uses_training)
    path = tmp_path / "ledger.json"
    path.write_text(json.dumps({c.id: {"version": "0" * 12, "recorded": "2026-01-01",
                                       "change": "old", "seen": {"full": [0]}, "history": []}}))
    e = rv.record_change(c.id, "a new threshold", {"full": [1, 5], "quick": [0]}, path=path,
                         today="2026-12-04")
    assert e["version"] == rv.rule_fingerprint(c.decision) and e["recorded"] == "2026-12-04"
    assert e["seen"] == {"full": [0, 1, 5], "quick": [0]}
    assert e["history"] == [{"version": "0" * 12, "recorded": "2026-01-01", "change": "old"}]
    assert json.loads(path.read_text())[c.id] == e
    with pytest.raises(ValueError, match="already recorded"):
        rv.record_change(c.id, "again", path=path)
    with pytest.raises(ValueError, match="change"):
        rv.record_change(c.id, " ", path=path)


def test_replicate_agrees_or_is_inconclusive():
    S, R = Verdict.SUPPORTED, Verdict.REFUTED
    v, why = replicate({"A": ((0, 1, 2), S, "3/3"), "B": ((3, 4, 5), S, "3/3")})
    assert v is S and "block A (seeds 0–2)" in why and "block B (seeds 3–5)" in why
    v, why = replicate({"A": ((0, 1, 2), S, "3/3"), "B": ((3, 4, 5), R, "0/3")})
    assert v is Verdict.INCONCLUSIVE and "disagree" in why and "refuted (0/3)" in why
    with pytest.raises(ValueError, match="disjoint"):
        replicate({"A": ((0, 1), S, ""), "B": ((1, 2), S, "")})
    with pytest.raises(ValueError, match="two blocks"):
        replicate({"A": ((0, 1), S, "")})
    with pytest.raises(ValueError, match="no seed"):
        replicate({"A": ((0, 1), S, ""), "B": ((), S, "")})
    with pytest.raises(TypeError, match="Verdict"):
        replicate({"A": ((0,), "supported", ""), "B": ((1,), S, "")})


def test_readings_are_typed_and_never_a_verdict():
    r = Reading("fixed h0 = e1", Verdict.REFUTED, "tracked exactly", "finding.x")
    assert r.record() == {"reading": "fixed h0 = e1", "outcome": "refuted",
                          "why": "tracked exactly", "finding": "finding.x"}
    with pytest.raises(TypeError, match="Verdict"):
        Reading("r", "refuted", "w")
    with pytest.raises(ValueError, match="name"):
        Reading(" ", Verdict.REFUTED, "w")
    with pytest.raises(ValueError, match="finding"):
        Reading("r", Verdict.REFUTED, "w", "depth.thm3.2")
    with pytest.raises(TypeError, match="Reading"):
        Outcome(Verdict.SUPPORTED, "k", readings=[("r", "refuted")])


def test_finding_ids_and_finding_sources_go_together():
    with pytest.raises(ValueError, match="finding"):
        claim("finding.test_only", title="t", source=DEPTH("x"), statement="s")(lambda ctx: None)
    with pytest.raises(ValueError, match="finding"):
        claim("depth.test_only", title="t", source=FINDING("seqtheory"), statement="s")(
            lambda ctx: None)
    assert "finding.test_only" not in REGISTRY and "depth.test_only" not in REGISTRY

"""The claim registry, the runner and the report writer (no real claims needed)."""
from __future__ import annotations

import json
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from seqtheory.proofs_checks import registry as reg
from seqtheory.proofs_checks.registry import (Claim, Context, ControlOutcome, Outcome, Verdict,
                                              TEXTBOOK)
from seqtheory.proofs_checks.report import build_report, render_markdown, to_jsonable, write_report
from seqtheory.proofs_checks.runner import resolve_device, run_claim


def _claim(check, control=None, id="test.dummy", through_rule=True):
    """A throw-away claim whose control (when given) first calls the claim's decision rule,
    unless ``through_rule`` is False (a control that bypasses the rule)."""
    c = Claim(id=id, title="dummy", source=TEXTBOOK("none"), statement="1 + 1 = 2", check=check)
    rule = c.decision_rule(lambda evidence: (Verdict.CONFIRMED, "synthetic"))
    if control is not None:
        c.control(lambda ctx: (rule({}) if through_rule else None, control(ctx))[1])
    return c


def test_context_validates_arguments():
    with pytest.raises(ValueError, match="profile"):
        Context(profile="fast")
    with pytest.raises(ValueError, match="seed"):
        Context(seed=-1)


def test_context_rng_is_seeded_and_salted():
    a, b = Context(seed=3).rng("x").random(), Context(seed=3).rng("x").random()
    assert a == b
    assert Context(seed=3).rng("y").random() != a
    assert Context(seed=4).rng("x").random() != a


def test_verdict_accepts_strings_and_rejects_unknown():
    assert Outcome("refined", "k").verdict is Verdict.REFINED
    with pytest.raises(ValueError):
        Outcome("proven", "k")


def test_duplicate_registration_is_refused():
    deco = reg.claim("test.unique_once", title="t", source=TEXTBOOK("x"), statement="s")
    c = deco(lambda ctx: Outcome(Verdict.CONFIRMED, "ok"))
    try:
        with pytest.raises(ValueError, match="already registered"):
            reg.claim("test.unique_once", title="t", source=TEXTBOOK("x"), statement="s")(
                lambda ctx: None)
    finally:
        reg.REGISTRY.pop(c.id)


def test_runner_catches_crashes_and_bad_return_types():
    r = run_claim(_claim(lambda ctx: 1 / 0), Context())
    assert r.crashed and "ZeroDivisionError" in r.error and r.outcome is None
    r = run_claim(_claim(lambda ctx: "confirmed"), Context())
    assert r.crashed and "not Outcome" in r.error


def test_runner_reports_unrejected_controls():
    ok = lambda ctx: Outcome(Verdict.CONFIRMED, "fine")
    r = run_claim(_claim(ok, lambda ctx: ControlOutcome(False, "wrong sign", "accepted it")),
                  Context(), controls=True)
    assert r.control_failed and not r.crashed
    r = run_claim(_claim(ok), Context(), controls=True)
    assert r.crashed and "no negative control" in r.control_error


def test_a_control_must_go_through_its_claims_decision_rule():
    ok = lambda ctx: Outcome(Verdict.CONFIRMED, "fine")  # noqa: E731
    rejecting = lambda ctx: ControlOutcome(True, "wrong sign", "rejected")  # noqa: E731
    r = run_claim(_claim(ok, rejecting), Context(), controls=True)
    assert not r.crashed and r.control.rejected
    r = run_claim(_claim(ok, rejecting, through_rule=False), Context(), controls=True)
    assert r.crashed and r.control is None and "decision rule" in r.control_error
    bare = Claim(id="test.norule", title="t", source=TEXTBOOK("none"), statement="s", check=ok,
                 negative_control=rejecting)
    r = run_claim(bare, Context(), controls=True)
    assert r.crashed and "no registered decision rule" in r.control_error


def test_recording_decisions_sees_only_calls_inside_the_block():
    c = _claim(lambda ctx: Outcome(Verdict.CONFIRMED, "fine"), id="test.rec")
    c.decision({})
    with reg.recording_decisions() as log:
        assert c.decision({}) == (Verdict.CONFIRMED, "synthetic")
        c.decision({})
    c.decision({})
    assert log == ["test.rec", "test.rec"]


def test_to_jsonable_handles_exact_and_numpy_values():
    doc = to_jsonable({"q": Fraction(1, 12), "a": np.arange(3), "x": np.float64("nan"),
                       "t": (1, 2), 3: Verdict.REFUTED})
    assert doc == {"q": "1/12", "a": [0, 1, 2], "x": "nan", "t": [1, 2], "3": "refuted"}
    json.dumps(doc)


def test_report_roundtrip_and_markdown(tmp_path):
    ctx = Context(seed=7, out_dir=tmp_path)
    out = Outcome(Verdict.SUPPORTED, "slope 3.00 ± 0.01", evidence={"slope": 3.0},
                  tables={"fit": [{"eps": 0.1, "err": Fraction(1, 1000)}]})
    results = [run_claim(_claim(lambda c: out, lambda c: ControlOutcome(True, "v", "r")), ctx,
                         controls=True),
               run_claim(_claim(lambda c: 1 / 0, id="test.crash"), ctx)]
    rep = build_report(results, seed=7, profile="quick", device="cpu", controls=True)
    jpath, mpath = write_report(rep, tmp_path)
    back = json.loads(jpath.read_text())
    assert back["schema_version"] == 3 and back["seed"] == 7 and back["interrupted"] is False
    ids = {c["id"]: c for c in back["claims"]}
    assert ids["test.dummy"]["verdict"] == "supported"
    assert ids["test.dummy"]["control"]["rejected"] is True
    assert ids["test.dummy"]["tables"]["fit"][0]["err"] == "1/1000"
    assert ids["test.crash"]["status"] == "crashed" and ids["test.crash"]["verdict"] is None
    assert ids["test.dummy"]["reproduce"] == "seqtheory verify --only test.dummy --seed 7"
    md = mpath.read_text()
    assert "**Verdict: supported**" in md and "CRASHED" in md and "| 0.1 | 1/1000 |" in md
    assert render_markdown(back) == md


def test_resolve_device():
    assert resolve_device("cpu") == "cpu"
    assert resolve_device("auto") in ("cpu", "cuda")
    with pytest.raises(ValueError, match="device"):
        resolve_device("tpu")


# --------------------------------------------------------------------------- report schema
def _real_report(tmp_path):
    """A report of a real claim (with its control), an odd-evidence claim and a crashed one."""
    import flint
    import sympy
    import torch

    from seqtheory.proofs_checks.registry import get_claim

    ctx = Context(seed=1, out_dir=tmp_path)
    odd = Outcome(Verdict.REFINED, "k", evidence={
        "nested": {"a": [np.float32(2.5), (np.int64(3), Fraction(1, 3))], 7: np.array([[np.nan]])},
        "sympy": [sympy.Rational(2, 6), sympy.Integer(5), sympy.sqrt(2), sympy.oo, sympy.nan],
        "flint": [flint.fmpq(1, 3), flint.fmpz(7), flint.fmpq_mat(1, 2, [1, flint.fmpq(1, 2)])],
        "torch": torch.tensor([1.0, float("inf")]), "set": {3, 1}, "complex": 1 + 2j})
    results = [run_claim(get_claim("audit.task_groups"), ctx, controls=True),
               run_claim(_claim(lambda c: odd, id="test.odd"), ctx),
               run_claim(_claim(lambda c: 1 / 0, id="test.crash"), ctx, controls=True)]
    return build_report(results, seed=1, profile="quick", device="cpu", controls=True)


@pytest.fixture(scope="module")
def real_report(tmp_path_factory):
    return _real_report(tmp_path_factory.mktemp("rep"))


def test_written_report_follows_the_documented_schema(tmp_path, real_report):
    import re

    from seqtheory.proofs_checks import report as rp

    jpath, _ = write_report(real_report, tmp_path)
    doc = json.loads(jpath.read_text(), parse_constant=lambda c: pytest.fail(f"{c} in JSON"))
    rp.validate_report(doc)
    # the documented keys are exactly those the validator checks (and the writer writes)
    documented = set(re.findall(r'"(\w+)":', rp.__doc__))
    checked = (set(rp._TOP) | set(rp._CLAIM) | set(rp._CLAIM_OPTIONAL) | set(rp._PREMISE)
               | set(rp._SOURCE) | set(rp._ENV) | set(rp._RULE) | set(rp._READING))
    assert documented == checked
    assert set(doc) == set(rp._TOP) and all(set(c) - set(rp._CLAIM_OPTIONAL) == set(rp._CLAIM)
                                            for c in doc["claims"])
    by_id = {c["id"]: c for c in doc["claims"]}
    assert by_id["audit.task_groups"]["control"]["rejected"] is True
    assert by_id["test.crash"]["control_error"] and by_id["test.crash"]["verdict"] is None
    ev = by_id["test.odd"]["evidence"]
    assert ev["nested"] == {"a": [2.5, [3, "1/3"]], "7": [["nan"]]}
    assert ev["sympy"] == ["1/3", 5, "sqrt(2)", "inf", "nan"]
    assert ev["flint"] == ["1/3", 7, [[1, "1/2"]]]  # exact: no float conversion
    assert ev["torch"] == [1.0, "inf"] and ev["set"] == [1, 3] and ev["complex"] == "(1+2j)"


@pytest.mark.parametrize("mutate, where", [
    (lambda d: d.pop("seed"), "missing key ['seed']"),
    (lambda d: d.update(extra=1), "unexpected key ['extra']"),
    (lambda d: d.update(seed="0"), "report.seed"),
    (lambda d: d.update(profile="fast"), "report.profile"),
    (lambda d: d.update(created_utc="yesterday"), "created_utc"),
    (lambda d: d["claims"][0].update(verdict="proven"), "claims[0].verdict"),
    (lambda d: d["claims"][0].update(verdict=None), "disagree"),
    (lambda d: d["claims"][0]["source"].pop("arxiv"), "claims[0].source"),
    (lambda d: d["claims"][0]["control"].update(rejected="yes"), "claims[0].control.rejected"),
    (lambda d: d["claims"][0]["evidence"].update(x=float("nan")), "non-finite"),
    (lambda d: d["claims"][1]["tables"].update(t=[1]), "claims[1].tables"),
])
def test_validate_report_names_the_offending_key(real_report, mutate, where):
    from seqtheory.proofs_checks.report import validate_report

    doc = json.loads(json.dumps(real_report))
    validate_report(doc)
    mutate(doc)
    with pytest.raises(ValueError) as ei:
        validate_report(doc)
    assert where in str(ei.value)


def test_interrupted_report_write_keeps_the_previous_report(tmp_path, monkeypatch, real_report):
    import os

    rep = real_report
    jpath, mpath = write_report(rep, tmp_path)
    before = jpath.read_bytes(), mpath.read_bytes()
    rep2 = dict(rep, seed=2)

    def boom(*a, **k):
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(KeyboardInterrupt):
        write_report(rep2, tmp_path)
    assert (jpath.read_bytes(), mpath.read_bytes()) == before
    assert not [p for p in os.listdir(tmp_path) if p.endswith(".tmp")]


def test_malformed_outcomes_are_crashes_not_a_lost_report(tmp_path):
    ok = lambda ctx: Outcome(Verdict.CONFIRMED, "fine")  # noqa: E731
    cases = [(lambda ctx: Outcome(Verdict.CONFIRMED, 3.0), None, "key_figure is float"),
             (lambda ctx: Outcome(Verdict.CONFIRMED, "k", evidence=[1]), None, "evidence is list"),
             (lambda ctx: Outcome(Verdict.CONFIRMED, "k", tables={"t": [1]}), None, "tables"),
             (lambda ctx: Outcome(Verdict.CONFIRMED, "k", figures="a.png"), None, "figures"),
             (ok, lambda ctx: ControlOutcome(None, "v", "r"), "rejected is NoneType"),
             (ok, lambda ctx: ControlOutcome(True, None, "r"), "variant is NoneType")]
    results = []
    for i, (check, control, word) in enumerate(cases):
        r = run_claim(_claim(check, control, id=f"test.bad{i}"), Context(), controls=True)
        assert r.crashed and word in (r.error or r.control_error), (i, r.error, r.control_error)
        results.append(r)
    r = run_claim(_claim(ok, lambda ctx: ControlOutcome(np.bool_(True), "v", "r")), Context(),
                  controls=True)
    assert not r.crashed and r.control.rejected is True
    rep = build_report(results + [r], seed=0, profile="quick", device="cpu", controls=True)
    write_report(rep, tmp_path)  # every result is recorded
    assert len(json.loads((tmp_path / "report.json").read_text())["claims"]) == len(cases) + 1


# --------------------------------------------------------------------------- report.md display
def test_markdown_numbers_nan_and_missing_packages(tmp_path):
    from seqtheory.proofs_checks.report import format_number

    assert format_number(0.1 + 0.2) == "0.3" and format_number(1 / 3) == "0.3333"
    assert format_number(1.23456789e-13) == "1.235e-13" and format_number(float("nan")) == "n/a"
    assert format_number("nan") == "n/a" and format_number(7) == "7"
    out = Outcome(Verdict.SUPPORTED, "k", evidence={"slope": 2.0003456789, "se": float("nan"),
                                                     "xs": [1 / 3, 2 / 3]},
                  tables={"fit": [{"mean": 1 / 7, "se": float("nan")}]})
    r = run_claim(_claim(lambda c: out), Context(seed=0))
    rep = build_report([r], seed=0, profile="quick", device="cpu", controls=False)
    rep["environment"]["versions"]["hypothesis"] = None
    md = render_markdown(json.loads(json.dumps(rep)))
    assert "`slope`: 2" in md and "`se`: n/a" in md and "`xs`: 0.3333, 0.6667" in md
    assert "| 0.1429 | n/a |" in md and "0.14285714" not in md and "nan" not in md
    assert "| hypothesis | not installed |" in md and "None" not in md.split("## Environment")[1]
    assert json.loads(write_report(rep, tmp_path)[0].read_text())["claims"][0]["evidence"][
        "slope"] == 2.0003456789  # report.json keeps full precision


def test_markdown_gives_each_paper_reference_once():
    from seqtheory.proofs_checks.registry import DEPTH, HEAD

    def made(cid, source):
        c = Claim(id=cid, title=cid, source=source, statement="s",
                  check=lambda ctx: Outcome(Verdict.CONFIRMED, "k"))
        return run_claim(c, Context())

    results = [made("d.a", DEPTH("Theorem 3.2")), made("d.b", DEPTH("Corollary 3.6", "v2")),
               made("h.a", HEAD("Lemma 1"))]
    md = render_markdown(build_report(results, seed=0, profile="quick", device="cpu",
                                      controls=False))
    for src in (DEPTH("x"), HEAD("x")):
        assert md.count(src.reference) == 1, src.reference
    assert "statement from arXiv:2603.05573v2 (paper version v2), Corollary 3.6;" in md
    assert "statement from arXiv:2603.05573v1 (paper version v1), Theorem 3.2;" in md


def test_combine_verdicts_weakest_part_decides():
    from seqtheory.proofs_checks.registry import COMBINATION_ORDER, combine_verdicts, parts_table

    V = Verdict
    assert combine_verdicts({"a": V.CONFIRMED})[0] is V.CONFIRMED
    assert combine_verdicts({"exact": V.CONFIRMED, "numerical": V.SUPPORTED})[0] is V.SUPPORTED
    assert combine_verdicts({"a": V.REFINED, "b": V.SUPPORTED})[0] is V.REFINED
    assert combine_verdicts({"a": V.REFINED, "b": V.INCONCLUSIVE})[0] is V.INCONCLUSIVE
    v, why = combine_verdicts({"abelian": (V.REFINED, "gap"), "restricted": (V.REFUTED, "layer")})
    assert v is V.REFUTED and "refuted from restricted" in why and "abelian: refined (gap)" in why
    # every order of the five verdicts: the first of COMBINATION_ORDER present decides
    for i, weakest in enumerate(COMBINATION_ORDER):
        parts = {str(j): x for j, x in enumerate(COMBINATION_ORDER[i:])}
        assert combine_verdicts(parts)[0] is weakest
    with pytest.raises(ValueError, match="at least one"):
        combine_verdicts({})
    with pytest.raises(TypeError, match="parts\\['a'\\]"):
        combine_verdicts({"a": "confirmed"})
    assert parts_table({"a": (V.SUPPORTED, "3 instances")}) == [
        {"part": "a", "verdict": "supported", "why": "3 instances"}]


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.text(min_size=1, max_size=5), st.sampled_from(list(Verdict)),
                       min_size=1, max_size=6),
       st.sampled_from(list(Verdict)))
@example({"exact": Verdict.CONFIRMED, "numerical": Verdict.SUPPORTED}, Verdict.CONFIRMED)
def test_combine_verdicts_is_the_weakest_part_and_monotone(parts, extra):
    from seqtheory.proofs_checks.registry import COMBINATION_ORDER, combine_verdicts

    rank = COMBINATION_ORDER.index
    whole = combine_verdicts(parts)[0]
    assert whole in parts.values()
    assert rank(whole) == min(rank(v) for v in parts.values())
    # adding a part never makes the whole stronger
    assert rank(combine_verdicts({**parts, "\x00extra": extra})[0]) <= rank(whole)

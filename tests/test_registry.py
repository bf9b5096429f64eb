"""The claim registry, the runner and the report writer (no real claims needed)."""
from __future__ import annotations

import json
from fractions import Fraction

import numpy as np
import pytest

from seqtheory.proofs_checks import registry as reg
from seqtheory.proofs_checks.registry import (Claim, Context, ControlOutcome, Outcome, Verdict,
                                              TEXTBOOK)
from seqtheory.proofs_checks.report import build_report, render_markdown, to_jsonable, write_report
from seqtheory.proofs_checks.runner import resolve_device, run_claim


def _claim(check, control=None, id="test.dummy"):
    return Claim(id=id, title="dummy", source=TEXTBOOK("none"), statement="1 + 1 = 2",
                 check=check, negative_control=control)


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
    assert back["schema_version"] == 1 and back["seed"] == 7
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

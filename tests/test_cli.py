"""The command line: claims, verify (report files, exit codes, determinism), cite."""
from __future__ import annotations

import json

import pytest

from seqtheory.proofs_checks import registry as reg
from seqtheory.proofs_checks.cli import main, select_claims
from seqtheory.proofs_checks.registry import TEXTBOOK, ControlOutcome, Outcome, Verdict

FAST = "audit.task_groups"


def _strip_times(report: dict) -> dict:
    report = dict(report)
    report.pop("created_utc")
    for c in report["claims"]:
        c.pop("seconds")
        c.pop("control_seconds")
    return report


def test_claims_lists_registered_claims(capsys):
    assert main(["claims"]) == 0
    assert FAST in capsys.readouterr().out


def test_select_claims_patterns_and_unknown_ids():
    ids = [c.id for c in select_claims(["audit.*"])]
    assert FAST in ids and all(i.startswith("audit.") for i in ids)
    with pytest.raises(ValueError, match="matches no claim"):
        select_claims(["no.such.claim"])


def test_verify_writes_reports_and_is_deterministic(tmp_path):
    runs = []
    for name in ("a", "b"):
        out = tmp_path / name
        assert main(["verify", "--only", FAST, "--out", str(out), "--seed", "3",
                     "--no-progress", "--controls"]) == 0
        assert (out / "report.md").is_file()
        runs.append(json.loads((out / "report.json").read_text()))
    assert _strip_times(runs[0]) == _strip_times(runs[1])
    rec = runs[0]["claims"][0]
    assert rec["id"] == FAST and rec["verdict"] == "confirmed" and rec["control"]["rejected"]
    assert rec["reproduce"] == f"seqtheory verify --only {FAST} --seed 3"


def test_verify_bad_arguments_exit_2(tmp_path, capsys):
    assert main(["verify", "--only", "nope", "--out", str(tmp_path), "--no-progress"]) == 2
    assert "matches no claim" in capsys.readouterr().err


def test_verify_exit_status_is_nonzero_when_a_check_crashes(tmp_path):
    c = reg.claim("test.cli_crash", title="t", source=TEXTBOOK("x"), statement="s")(
        lambda ctx: 1 / 0)
    c.control(lambda ctx: ControlOutcome(True, "v", "r"))
    try:
        assert main(["verify", "--only", "test.cli_crash", "--out", str(tmp_path),
                     "--no-progress"]) == 1
        rep = json.loads((tmp_path / "report.json").read_text())
        assert rep["claims"][0]["status"] == "crashed"
    finally:
        reg.REGISTRY.pop("test.cli_crash")


def test_verify_exit_zero_for_a_refuted_verdict(tmp_path):
    c = reg.claim("test.cli_refuted", title="t", source=TEXTBOOK("x"), statement="s")(
        lambda ctx: Outcome(Verdict.REFUTED, "counterexample"))
    try:
        assert main(["verify", "--only", "test.cli_refuted", "--out", str(tmp_path),
                     "--no-progress"]) == 0
    finally:
        reg.REGISTRY.pop("test.cli_refuted")


def test_cite_prints_version_commit_and_verdict(tmp_path, capsys):
    assert main(["verify", "--only", FAST, "--out", str(tmp_path), "--no-progress"]) == 0
    capsys.readouterr()
    assert main(["cite", FAST, "--report", str(tmp_path / "report.json")]) == 0
    line = capsys.readouterr().out
    assert f"claim `{FAST}`" in line and "verdict: confirmed" in line and "commit" in line
    assert main(["cite", "no.such"]) == 2

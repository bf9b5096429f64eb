"""``seqtheory sweep-report``: a summary of what it found, and nothing created before it fails."""
from __future__ import annotations

from seqtheory.models.store import ResultsStore
from seqtheory.models.sweep_report import summary_lines
from seqtheory.proofs_checks.cli import main


def test_failing_sweep_report_creates_no_folder(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "results.sqlite").write_bytes(b"\x00" * 4096)
    before = sorted(p.name for p in tmp_path.iterdir())
    assert main(["sweep-report", "--results", str(bad)]) == 2  # default --out in the cwd
    assert main(["sweep-report", "--results", str(tmp_path / "missing")]) == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == before
    assert "Traceback" not in capsys.readouterr().err


def test_sweep_report_prints_what_it_found(tmp_path, capsys):
    store = tmp_path / "store"
    ResultsStore(store)
    out = tmp_path / "out"
    assert main(["sweep-report", "--results", str(store), "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "0 word-problem runs" in text and "run `seqtheory sweep` first" in text
    assert f"into {out}: " in text and "word_problems.md" in text


def test_summary_lines_count_runs_and_name_the_best_cell():
    cell = {"task": "S3", "model": "gla", "depth": 2, "best_mean": 0.875}
    doc = {"runs": [{"status": "finished"}] * 3 + [{"status": "failed"}],
           "skipped": {"rotation": 2, "shuffled_labels": 0, "not_in_config": 0},
           "experiments": [{"train_length": 4, "test_length": 8,
                            "cells": [cell, dict(cell, task="A5", best_mean=None)]}]}
    lines = summary_lines(doc)
    assert lines[0] == "4 word-problem runs (1 failed, 3 finished)"
    assert lines[1] == "left out: 2 rotation"
    assert lines[2] == ("train length 4, test length 8: 1/2 task x model x depth cells with a "
                        "finished run; best S3 gla depth 2: sequence accuracy 0.875")

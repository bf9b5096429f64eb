"""Paths are data: folder names holding ``#``, ``?``, ``%41``, spaces and non-ASCII letters work
for the results store, evidence bundles (``evidence pack``, ``verify --evidence``), reports and
sweeps; nothing is written outside the folders named."""
from __future__ import annotations

import json
import shlex
import sqlite3
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from seqtheory.models.store import ResultsStore, holds_store, sqlite_uri
from seqtheory.models.train import TrainConfig
from seqtheory.proofs_checks.cli import main

from test_cli import temp_claims  # noqa: F401  (fixture)

#: names a URI or a shell would misread if a path were pasted into it unquoted
WEIRD = ["r #1?x=%41 é", "a%20b", "file:x", "q?mode=ro", "ü ß 中文", "it's \"quoted\" $HOME"]
CFG = TrainConfig(task="C2", model="gla", steps=2, train_length=4, n_train=8, n_test=8)
FAST = "free_lie.witt_dimensions"


def _finished_store(root: Path) -> ResultsStore:
    store = ResultsStore(root)
    assert store.claim(CFG, "me")
    store.log_metrics(CFG, 1, {"loss": 0.5})
    store.save_checkpoint(CFG, {"model": {}, "step": 2})
    store.finish(CFG, "me", {"device": "cpu", "test": {"seq_acc": 1.0}})
    return store


@pytest.mark.parametrize("name", WEIRD)
def test_store_under_any_folder_name(tmp_path, name):
    root = tmp_path / name
    _finished_store(root)
    again = ResultsStore(root)                     # reopened: the same database, not a new one
    assert again.result(CFG) == {"device": "cpu", "test": {"seq_acc": 1.0}}
    assert again.metrics(CFG) == [{"loss": 0.5, "step": 1}]
    assert holds_store(root) and sorted(p.name for p in tmp_path.iterdir()) == [name]


@settings(max_examples=40, deadline=None)
@given(st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="/\x00"),
               min_size=1, max_size=12).filter(lambda s: s not in (".", "..")))
@example("#")
@example("?")
@example("%41")
@example("a b")
@example("é")
def test_sqlite_uri_names_exactly_the_file(tmp_path_factory, name):
    folder = tmp_path_factory.mktemp("u") / name
    folder.mkdir()
    db = folder / "x.sqlite"
    sqlite3.connect(db).close()
    con = sqlite3.connect(sqlite_uri(db, mode="ro"), uri=True)
    try:
        (_, _, file), = con.execute("PRAGMA database_list").fetchall()
    finally:
        con.close()
    assert Path(file) == db.absolute()
    assert sorted(p.name for p in folder.parent.iterdir()) == [name]


@pytest.mark.parametrize("name", WEIRD[:3])
def test_evidence_pack_and_verify_evidence_under_any_folder_name(tmp_path, capsys, name):
    res, bundle, out = tmp_path / f"res {name}", tmp_path / f"bundle {name}", tmp_path / name
    _finished_store(res)
    assert main(["evidence", "pack", "--results", str(res), "--out", str(bundle),
                 "--profile", "quick"]) == 0, capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([res.name, bundle.name])
    from seqtheory.proofs_checks.evidence import bundle_store

    assert bundle_store(bundle).result(CFG)["test"] == {"seq_acc": 1.0}
    assert main(["verify", "--only", FAST, "--evidence", str(bundle), "--out", str(out),
                 "--no-progress"]) == 0, capsys.readouterr().err
    doc = json.loads((out / "report.json").read_text())
    assert doc["environment"]["evidence"]["path"] == str(bundle.resolve())
    (rec,) = doc["claims"]
    argv = shlex.split(rec["reproduce"])              # the command re-runs with this bundle
    assert argv[argv.index("--evidence") + 1] == str(bundle.resolve())
    assert (out / "report.md").is_file()
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([res.name, bundle.name, name])


def test_sweep_and_its_report_under_any_folder_name(tmp_path):
    from seqtheory.models.sweep import parse_sweep, run_sweep
    from seqtheory.models.sweep_report import write_word_problem_report

    spec = parse_sweep({"grid": {"task": ["C2"], "model": ["gla"]},
                        "fixed": {"train_length": 4, "steps": 2, "n_train": 8, "n_test": 8,
                                  "width": 8, "n_heads": 1}})
    res, out = tmp_path / WEIRD[0], tmp_path / WEIRD[4]
    final, errors = run_sweep(spec, res, workers=1, poll_s=0.1, say=lambda s: None)
    assert errors == [] and final.complete
    paths = write_word_problem_report(res, out)
    assert all(out in p.parents for p in paths)
    doc = json.loads((out / "word_problems.json").read_text())
    assert len(doc["runs"]) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([res.name, out.name])


def test_evidence_pack_on_a_full_disk_is_one_line_and_leaves_no_bundle(tmp_path, capsys,
                                                                        monkeypatch):
    import errno
    import os

    res = tmp_path / WEIRD[0]
    _finished_store(res)

    def full(fd):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    assert main(["evidence", "pack", "--results", str(res), "--out", str(tmp_path / "b"),
                 "--profile", "quick"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert "No space left on device (errno ENOSPC)" in err and str(tmp_path / "b") in err
    assert sorted(p.name for p in tmp_path.iterdir()) == [res.name]   # no half bundle


def test_the_terminal_prints_paths_and_key_figures_as_text_not_markup(tmp_path, capsys,
                                                                      temp_claims):
    from seqtheory.proofs_checks.registry import Outcome, Verdict

    res = tmp_path / "res [bold]x[/] [task]"
    assert main(["train", "--task", "C2", "--model", "gla", "--steps", "2", "--train-length",
                 "4", "--n-train", "8", "--n-test", "8", "--width", "8", "--heads", "1",
                 "--device", "cpu", "--no-progress", "--results", str(res)]) == 0
    assert f"store {res / 'results.sqlite'}" in capsys.readouterr().out.replace("\n", "")
    temp_claims("test.markup", lambda ctx: Outcome(Verdict.CONFIRMED, "rank [bold] 3 [task]"))
    assert main(["verify", "--only", "test.markup", "--out", str(tmp_path / "rep"),
                 "--no-progress"]) == 0
    assert "rank [bold] 3 [task]" in capsys.readouterr().out

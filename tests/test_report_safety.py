"""The report is never lost: concurrent ``verify --only`` runs in one folder, Ctrl-C during
``verify --replace``, the tally and re-run marks of successive runs, refused runs that leave no
trace, and write errors reported in one line. The concurrent and interrupted cases run real
``seqtheory verify`` processes (a real lock, a real SIGINT)."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from seqtheory.proofs_checks.cli import REPORT_LOCK, main
from seqtheory.theory._io import folder_lock

from test_cli import temp_claims  # noqa: F401  (fixture)

#: exact claims that run in well under a second (seqtheory claims; free Lie algebra dimensions)
FAST_A, FAST_B = "free_lie.witt_dimensions", "free_lie.free_nilpotent_series"

#: a process running ``seqtheory verify`` with one more claim, ``test.gate``: it writes the file
#: ``started`` then waits (at most 60 s) for the file ``go`` in the folder given as argv[1]
_GATED_CLI = textwrap.dedent('''
    import sys, time
    from pathlib import Path
    from seqtheory.proofs_checks import registry as reg
    from seqtheory.proofs_checks.cli import main
    from seqtheory.proofs_checks.registry import TEXTBOOK, Outcome, Verdict

    gate = Path(sys.argv[1])
    reg.load_all()

    def check(ctx):
        (gate / "started").write_text("1")
        t0 = time.monotonic()
        while not (gate / "go").exists() and time.monotonic() - t0 < 60:
            time.sleep(0.02)
        return Outcome(Verdict.CONFIRMED, "gate passed")

    reg.claim("test.gate", title="t", source=TEXTBOOK("x"), statement="s")(check)
    sys.exit(main(sys.argv[2:]))
''')


class _Run:
    """A ``seqtheory verify`` process (with the gate claim registered); its stdout and stderr
    go to files, readable while it runs."""

    def __init__(self, tmp_path: Path, *argv: str):
        script = tmp_path / "gated_cli.py"
        script.write_text(_GATED_CLI)
        self.gate = tmp_path / "gate"
        self.gate.mkdir(exist_ok=True)
        n = len(list(tmp_path.glob("*.stdout")))
        self.out_path, self.err_path = tmp_path / f"{n}.stdout", tmp_path / f"{n}.stderr"
        with open(self.out_path, "w") as fo, open(self.err_path, "w") as fe:
            self.proc = subprocess.Popen(
                [sys.executable, str(script), str(self.gate), "verify", "--no-progress", *argv],
                stdout=fo, stderr=fe, env=dict(os.environ, OMP_NUM_THREADS="1"))

    @property
    def err(self) -> str:
        return self.err_path.read_text()

    @property
    def out(self) -> str:
        return self.out_path.read_text()

    def wait(self, timeout: float = 60.0) -> int:
        return self.proc.wait(timeout=timeout)

    def wait_until(self, done, what: str, timeout: float = 60.0) -> None:
        t0 = time.monotonic()
        while not done():
            if self.proc.poll() is not None:
                raise AssertionError(f"process ended before {what}: {self.err}")
            assert time.monotonic() - t0 < timeout, f"no {what} after {timeout} s: {self.err}"
            time.sleep(0.02)

    def wait_for_gate(self) -> None:
        self.wait_until((self.gate / "started").exists, "the gate claim started")


def _doc(out: Path, name: str = "report.json") -> dict:
    return json.loads((out / name).read_text())


# --------------------------------------------------------------------------- concurrency
def test_concurrent_only_runs_in_one_folder_keep_every_finished_claim(tmp_path):
    """A (the gate claim) starts first and finishes last; B (a real claim) starts while A runs,
    finds the folder's lock held (here, as by a writer), says it waits, then writes. A's write
    must merge into the report B wrote (before the lock, A replaced it: B's claim was lost)."""
    out = tmp_path / "rep"
    a = _Run(tmp_path, "--only", "test.gate", "--out", str(out))
    a.wait_for_gate()                                  # A has read the (empty) folder and runs
    with folder_lock(out, REPORT_LOCK):                # a writer in the folder right now
        b = _Run(tmp_path, "--only", FAST_A, "--out", str(out))
        b.wait_until(lambda: "waiting for" in b.err, "the waiting message")
        time.sleep(0.3)
        assert b.proc.poll() is None and not (out / "report.json").exists()
    assert b.wait() == 0, b.err
    assert f"waiting for another process (pid {os.getpid()}), which is writing the report " \
           f"in {out}" in b.err
    assert "this run: 1 claim: 1 supported" in b.out
    (a.gate / "go").write_text("1")
    assert a.wait() == 0, a.err
    assert "another run wrote the report" in a.err
    assert "this run: 1 claim: 1 confirmed" in a.out
    assert "merged with 1 earlier run): 2 claims: 1 confirmed, 1 supported" in a.out
    doc = _doc(out)
    assert sorted((c["id"], c["rerun"]) for c in doc["claims"]) == \
        [(FAST_A, False), ("test.gate", True)]
    assert [r["claims"] for r in doc["runs"]] == [[FAST_A], ["test.gate"]]


# --------------------------------------------------------------------------- Ctrl-C
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_interrupt_during_replace_keeps_the_complete_report(tmp_path, sig):
    """Ctrl-C, and SIGTERM (``kill``) alike, keep the complete report."""
    out = tmp_path / "rep"
    assert main(["verify", "--only", FAST_A, FAST_B, "--out", str(out), "--no-progress"]) == 0
    before_json = (out / "report.json").read_bytes()
    before_md = (out / "report.md").read_bytes()
    p = _Run(tmp_path, "--replace", "--only", FAST_A, "test.gate", "--out", str(out))
    p.wait_for_gate()                                       # FAST_A finished, the gate runs
    p.proc.send_signal(sig)
    assert p.wait() == 130, p.err
    err = p.err
    assert "Traceback" not in err
    assert (out / "report.json").read_bytes() == before_json    # the complete report is kept
    assert (out / "report.md").read_bytes() == before_md
    part = _doc(out, "report.interrupted.json")
    assert part["interrupted"] is True and [c["id"] for c in part["claims"]] == [FAST_A]
    assert "**Interrupted**" in (out / "report.interrupted.md").read_text()
    assert f"partial report (marked interrupted): {out / 'report.interrupted.json'}" in err
    assert f"the last complete report is unchanged: {out / 'report.json'}" in err


def test_sigint_without_replace_merges_and_loses_nothing(tmp_path):
    out = tmp_path / "rep"
    assert main(["verify", "--only", FAST_A, FAST_B, "--out", str(out), "--no-progress"]) == 0
    p = _Run(tmp_path, "--only", FAST_B, "test.gate", "--out", str(out))
    p.wait_for_gate()
    p.proc.send_signal(signal.SIGINT)
    assert p.wait() == 130, p.err
    doc = _doc(out)
    assert doc["interrupted"] is True and not (out / "report.interrupted.json").exists()
    assert sorted((c["id"], c["rerun"]) for c in doc["claims"]) == [(FAST_B, True), (FAST_A, False)]


# --------------------------------------------------------------------------- tally and marks
def test_successive_only_runs_count_and_mark_only_their_own_claim(tmp_path, capsys):
    out = tmp_path / "rep"
    for i, cid in enumerate([FAST_A, FAST_B, FAST_A]):
        assert main(["verify", "--only", cid, "--out", str(out), "--no-progress"]) == 0
        text = capsys.readouterr().out
        assert "this run: 1 claim: 1 supported" in text, text
        doc = _doc(out)
        assert [c["id"] for c in doc["claims"] if c["rerun"]] == ([] if i == 0 else [cid])
        assert len(doc["runs"]) == i + 1
        md = (out / "report.md").read_text()
        assert md.count("*Re-run:") == (0 if i == 0 else 1)
        assert i == 0 or f"### {cid}\n\n*Re-run:" in md
    # the terminal lists this run's claim, not the whole merged report
    assert FAST_A in text and FAST_B not in text.split("this run:")[0]


def test_controls_field_is_true_once_every_record_has_its_control(tmp_path):
    out = tmp_path / "rep"
    run = ["verify", "--out", str(out), "--no-progress", "--only"]
    assert main([*run, FAST_A, FAST_B, "--controls"]) == 0
    assert _doc(out)["controls"] is True
    assert main([*run, FAST_A]) == 0
    assert _doc(out)["controls"] is False       # FAST_A's record now has no control
    assert main([*run, FAST_A, "--controls"]) == 0
    assert _doc(out)["controls"] is True        # every record has its control again


# --------------------------------------------------------------------------- refused runs
@pytest.mark.parametrize("extra", [["--seed", "-1"], ["--results", "/dev/null"],
                                   ["--evidence", "/nonexistent/bundle"],
                                   ["--device", "cuda", "--profile", "paper"]])
def test_a_refused_run_creates_nothing(tmp_path, capsys, extra):
    out = tmp_path / "new" / "rep"
    only = "depth.cor3.8" if "--results" in extra else FAST_A   # a trained claim needs --results
    code = main(["verify", "--only", only, "--out", str(out), "--no-progress", *extra])
    err = capsys.readouterr().err
    if "--device" in extra and code == 0:   # pragma: no cover - a machine with a GPU
        pytest.skip("this machine has a CUDA GPU")
    assert code == 2, err
    assert err.startswith("seqtheory verify: error: ") and "Traceback" not in err
    assert not (tmp_path / "new").exists()


def test_results_dev_null_is_refused_even_for_untrained_claims(tmp_path, capsys):
    out = tmp_path / "rep"
    assert main(["verify", "--only", FAST_A, "--out", str(out), "--no-progress",
                 "--results", "/dev/null"]) == 2
    assert "--results '/dev/null' exists and is not a folder" in capsys.readouterr().err
    assert not out.exists()


# --------------------------------------------------------------------------- write errors
def test_a_full_disk_while_writing_the_report_is_one_line(tmp_path, capsys, monkeypatch):
    import errno

    out = tmp_path / "rep"
    assert main(["verify", "--only", FAST_A, "--out", str(out), "--no-progress"]) == 0
    before = (out / "report.json").read_bytes()
    capsys.readouterr()

    def full(fd):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    assert main(["verify", "--only", FAST_B, "--out", str(out), "--no-progress"]) == 1
    err = capsys.readouterr().err
    errors = [ln for ln in err.splitlines() if "error" in ln]
    assert len(errors) == 1 and "Traceback" not in err, err
    assert f"'{out / 'report.json'}': No space left on device (errno ENOSPC)" in err
    assert (out / "report.json").read_bytes() == before
    assert sorted(p.name for p in out.iterdir()) == ["report.json", "report.md"]   # no lock left


_TRAIN = ["train", "--task", "C2", "--model", "gla", "--steps", "2", "--n-train", "8",
          "--n-test", "8", "--train-length", "4", "--width", "8", "--heads", "1",
          "--device", "cpu", "--no-progress"]


def test_a_full_disk_while_training_is_one_line_and_the_store_stays_consistent(
        tmp_path, capsys, monkeypatch):
    import errno

    from seqtheory.models.store import ResultsStore

    res = tmp_path / "res"

    def full(fd):
        raise OSError(errno.ENOSPC, "No space left on device")

    with monkeypatch.context() as m:
        m.setattr(os, "fsync", full)
        assert main([*_TRAIN, "--results", str(res)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert err.startswith("seqtheory train: error: run ") and "stopped: cannot write '" in err
    assert f"{res / 'checkpoints'}" in err and "No space left on device (errno ENOSPC)" in err
    (run,) = ResultsStore(res).runs()
    assert run.status == "failed" and list((res / "checkpoints").iterdir()) == []
    assert main([*_TRAIN, "--results", str(res)]) == 0          # space again: the run finishes
    (run,) = ResultsStore(res).runs()
    assert run.status == "finished"


def test_a_full_database_while_training_names_the_store(tmp_path, capsys, monkeypatch):
    import sqlite3

    from seqtheory.models.store import ResultsStore

    def full(*a, **k):
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(ResultsStore, "log_metrics", full)
    res = tmp_path / "res"
    assert main([*_TRAIN, "--results", str(res)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert f"results store '{res / 'results.sqlite'}': database or disk is full" in err


# --------------------------------------------------------------------------- marks in report.md
def test_report_md_summary_marks_an_unseparated_control(tmp_path, capsys, temp_claims):
    from seqtheory.proofs_checks.registry import ControlOutcome, Outcome, Verdict

    # the synthetic rule returns inconclusive on the control, as the check on the claim
    temp_claims("test.ns_a", lambda ctx: Outcome(Verdict.INCONCLUSIVE, "a"),
                lambda ctx: ControlOutcome(True, "wrong", "rejected"))
    temp_claims("test.ns_b", lambda ctx: Outcome(Verdict.CONFIRMED, "b"),
                lambda ctx: ControlOutcome(True, "wrong", "rejected"))
    out = tmp_path / "rep"
    assert main(["verify", "--only", "test.ns_*", "--controls", "--out", str(out),
                 "--no-progress"]) == 0
    md = (out / "report.md").read_text()
    summary = md.split("## Summary")[1].split("\n## ")[0]
    rows = {ln.split("|")[1].strip(): ln.split("|")[2].strip() for ln in summary.splitlines()
            if ln.startswith("| [`test.ns_")}
    assert rows == {"[`test.ns_a`](#testns_a)": "inconclusive*",
                    "[`test.ns_b`](#testns_b)": "confirmed"}
    assert "* control unseparated" in summary
    assert "inconclusive*" in capsys.readouterr().out        # the terminal's table agrees


def test_ctrl_c_before_a_claim_finished_leaves_no_folder(tmp_path, capsys, temp_claims):
    def stop(ctx):
        raise KeyboardInterrupt

    temp_claims("test.k_a", stop)
    out = tmp_path / "new"
    assert main(["verify", "--only", "test.k_a", "--out", str(out), "--no-progress"]) == 130
    assert "no report written" in capsys.readouterr().err
    assert not out.exists()


def test_a_report_changed_meanwhile_into_one_it_cannot_merge_into_is_kept(tmp_path, capsys,
                                                                           temp_claims):
    from seqtheory.proofs_checks.registry import Outcome, Verdict

    out = tmp_path / "rep"
    assert main(["verify", "--only", FAST_A, "--out", str(out), "--no-progress"]) == 0

    def meanwhile(ctx):  # another run replaces the report with one of seed 1 while this one runs
        doc = _doc(out)
        (out / "report.json").write_text(json.dumps(dict(doc, seed=1)))
        return Outcome(Verdict.CONFIRMED, "m")

    temp_claims("test.meanwhile", meanwhile)
    capsys.readouterr()
    assert main(["verify", "--only", "test.meanwhile", "--out", str(out), "--no-progress"]) == 1
    err = capsys.readouterr().err
    assert f"it is unchanged, this run's report is {out / 'report.unmerged.json'}" in err
    assert _doc(out)["seed"] == 1 and [c["id"] for c in _doc(out)["claims"]] == [FAST_A]
    assert [c["id"] for c in _doc(out, "report.unmerged.json")["claims"]] == ["test.meanwhile"]


# --------------------------------------------------------------------------- a refused run (2)
def _tree(folder: Path) -> dict[str, bytes | None]:
    """Every entry under ``folder`` (files with their bytes, folders as None)."""
    return {str(p.relative_to(folder)): (p.read_bytes() if p.is_file() else None)
            for p in sorted(folder.rglob("*"))} if folder.exists() else {}


def _figure_claim(temp_claims, cid: str, then=None):
    """A claim that writes the figure ``<cid>.png/.svg`` (as real claims do), then calls
    ``then`` (e.g. raises)."""
    from seqtheory.proofs_checks.figures import new_figure, save_figure
    from seqtheory.proofs_checks.registry import Outcome, Verdict

    ran = []

    def check(ctx):
        fig, ax = new_figure()
        ax.plot([0, 1], [0, 1])
        paths = save_figure(fig, ctx, cid.replace(".", "_"))
        ran.append(paths)
        if then is not None:
            then()
        return Outcome(Verdict.CONFIRMED, "f", figures=paths)

    temp_claims(cid, check)
    return ran


def _unusable(kind: str, out: Path) -> None:
    for name in (REPORT_LOCK, "report.json", "report.md"):
        (out / name).unlink(missing_ok=True)
    if kind == "lock is a folder":
        (out / REPORT_LOCK).mkdir()
    elif kind == "report.json is a folder":
        (out / "report.json").mkdir()
    elif kind == "report.md is a folder":
        (out / "report.md").mkdir()
    elif kind == "report.interrupted.json is a folder":
        (out / "report.interrupted.json").mkdir()
    elif kind == "figures is a file":
        (out / "figures").write_text("not a folder")


@pytest.mark.parametrize("kind", ["lock is a folder", "report.json is a folder",
                                  "report.md is a folder", "report.interrupted.json is a folder",
                                  "figures is a file"])
def test_an_unusable_entry_in_out_is_refused_before_anything_is_written(tmp_path, capsys,
                                                                        temp_claims, kind):
    """Found by review: a report lock that is a folder (EISDIR) let the run write its figures,
    then fail: a refused run must leave --out as it was."""
    out = tmp_path / "rep"
    assert main(["verify", "--only", FAST_A, "--out", str(out), "--no-progress"]) == 0
    _unusable(kind, out)
    before = _tree(out)
    ran = _figure_claim(temp_claims, "test.fig_refused")
    capsys.readouterr()
    code = main(["verify", "--only", "test.fig_refused", "--out", str(out), "--no-progress"])
    err = capsys.readouterr().err
    assert code == 2 and err.startswith("seqtheory verify: error: --out: "), err
    assert "Traceback" not in err and ran == []              # refused before the claim ran
    assert _tree(out) == before


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write any file")
def test_a_read_only_lock_is_refused_before_anything_is_written(tmp_path, capsys, temp_claims):
    out = tmp_path / "rep"
    out.mkdir()
    (out / REPORT_LOCK).write_text("")
    (out / REPORT_LOCK).chmod(0o400)
    ran = _figure_claim(temp_claims, "test.fig_ro")
    assert main(["verify", "--only", "test.fig_ro", "--out", str(out), "--no-progress"]) == 2
    assert "is not readable and writable" in capsys.readouterr().err and ran == []
    assert sorted(p.name for p in out.iterdir()) == [REPORT_LOCK]


def test_a_failed_report_write_takes_back_the_figures_it_added(tmp_path, capsys, temp_claims,
                                                               monkeypatch):
    import errno

    from seqtheory.proofs_checks import report as report_mod

    out = tmp_path / "rep"
    assert main(["verify", "--only", FAST_A, "--out", str(out), "--no-progress"]) == 0
    before = _tree(out)
    ran = _figure_claim(temp_claims, "test.fig_fail")

    def full(*a, **k):
        raise OSError(errno.ENOSPC, "No space left on device", str(out / "report.json"))

    monkeypatch.setattr(report_mod, "write_report", full)
    capsys.readouterr()
    assert main(["verify", "--only", "test.fig_fail", "--out", str(out), "--no-progress"]) == 1
    assert ran and ran[0]                                    # the claim wrote its figures
    assert "No space left on device" in capsys.readouterr().err
    assert _tree(out) == before                              # and they were taken back
    new = tmp_path / "new"                                   # a folder the run created goes too
    assert main(["verify", "--only", "test.fig_fail", "--out", str(new), "--no-progress"]) == 1
    assert not new.exists()


def test_ctrl_c_after_a_figure_before_a_claim_finished_leaves_no_folder(tmp_path, capsys,
                                                                        temp_claims):
    def stop():
        raise KeyboardInterrupt

    ran = _figure_claim(temp_claims, "test.fig_stop", then=stop)
    out = tmp_path / "new"
    assert main(["verify", "--only", "test.fig_stop", "--out", str(out), "--no-progress"]) == 130
    assert ran and ran[0] and "no report written" in capsys.readouterr().err
    assert not out.exists()


# --------------------------------------------------------------------------- the other commands
def test_a_refused_train_leaves_the_results_folder_as_it_was(tmp_path, capsys):
    """A corrupt results.sqlite (or one that is a folder) is refused; the store made its
    checkpoints folder first."""
    for name, make in (("corrupt", lambda p: p.write_bytes(b"garbage" * 200)),
                       ("folder", lambda p: p.mkdir())):
        res = tmp_path / name
        res.mkdir()
        make(res / "results.sqlite")
        before = _tree(res)
        assert main([*_TRAIN, "--results", str(res)]) == 2
        err = capsys.readouterr().err
        assert err.startswith("seqtheory train: error: results store") and "Traceback" not in err
        assert _tree(res) == before


def test_a_refused_evidence_pack_creates_no_folder(tmp_path, capsys):
    from seqtheory.models.store import ResultsStore

    ResultsStore(tmp_path / "res")                          # a store with no finished run
    out = tmp_path / "a" / "b" / "bundle"
    assert main(["evidence", "pack", "--results", str(tmp_path / "res"), "--out", str(out),
                 "--profile", "quick"]) == 2
    assert "holds no finished run" in capsys.readouterr().err
    assert not (tmp_path / "a").exists()


def test_a_refused_sweep_report_writes_no_figure(tmp_path, capsys):
    from seqtheory.models.store import ResultsStore

    ResultsStore(tmp_path / "res")
    out = tmp_path / "rep"
    out.mkdir()
    (out / "word_problems.json").mkdir()
    before = _tree(out)
    assert main(["sweep-report", "--results", str(tmp_path / "res"), "--out", str(out)]) == 2
    assert "exists and is not a file" in capsys.readouterr().err
    assert _tree(out) == before

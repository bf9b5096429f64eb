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
    report["runs"] = [{k: v for k, v in r.items() if k != "created_utc"} for r in report["runs"]]
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


# --------------------------------------------------------------------------- bad input, exit codes
def _register(cid, check, control=None, **kw):
    """Register a throw-away claim; its control (when given) goes through the claim's rule, a
    synthetic one that returns ``inconclusive`` on it (none of these claims is inconclusive, so
    the rule separates each control from its claim; tests/test_control_separation.py covers the
    other cases)."""
    c = reg.claim(cid, title="t", source=TEXTBOOK("x"), statement="s", **kw)(check)
    rule = c.decision_rule(lambda evidence: (Verdict.INCONCLUSIVE, "synthetic"))
    if control is not None:
        c.control(lambda ctx: (rule({}), control(ctx))[1])
    return c


@pytest.fixture
def temp_claims():
    """Register throw-away claims; they are removed afterwards."""
    made = []

    def make(cid, check, control=None, **kw):
        made.append(cid)
        return _register(cid, check, control, **kw)

    yield make
    for cid in made:
        reg.REGISTRY.pop(cid, None)


def _one_line_error(capsys, cmd):
    err = capsys.readouterr().err
    assert err.startswith(f"seqtheory {cmd}: error: ") and "Traceback" not in err, err
    return err


def test_no_command_and_bad_argument_types_exit_2(capsys):
    for argv in ([], ["verify", "--seed", "abc"], ["verify", "--profile", "fast"],
                 ["verify", "--only"], ["verify", "--device", "tpu"]):
        with pytest.raises(SystemExit) as ei:
            main(argv)
        assert ei.value.code == 2
    assert "Traceback" not in capsys.readouterr().err


def test_verify_refuses_bad_out_and_results_before_running(tmp_path, capsys, temp_claims):
    ran = []
    temp_claims("test.cli_train", lambda ctx: ran.append(1) or Outcome(Verdict.CONFIRMED, "k"),
                uses_training=True)
    afile = tmp_path / "afile"
    afile.write_text("not a folder")
    for extra, word in ((["--out", str(afile)], "--out"),
                        (["--out", str(afile / "sub")], "cannot be created"),
                        (["--seed", "-1"], "seed"),
                        (["--results", str(afile)], "--results")):
        argv = ["verify", "--only", "test.cli_train", "--no-progress", "--out",
                str(tmp_path / "rep")] + extra
        assert main(argv) == 2, extra
        assert word in _one_line_error(capsys, "verify")
    bad = tmp_path / "corrupt"
    bad.mkdir()
    (bad / "results.sqlite").write_bytes(b"\x00garbage" * 200)
    assert main(["verify", "--only", "test.cli_train", "--no-progress", "--out",
                 str(tmp_path / "rep"), "--results", str(bad)]) == 2
    assert "cannot be opened as an SQLite database" in _one_line_error(capsys, "verify")
    assert ran == [] and afile.read_text() == "not a folder"


@pytest.mark.parametrize("rejected, control_crashes, code", [
    (True, False, 0), (False, False, 1), (True, True, 1)])
def test_verify_exit_status_follows_the_controls(tmp_path, capsys, temp_claims, rejected,
                                                 control_crashes, code):
    def control(ctx):
        if control_crashes:
            raise RuntimeError("control blew up")
        return ControlOutcome(rejected, "wrong sign", "saw it")

    temp_claims("test.cli_ctl", lambda ctx: Outcome(Verdict.REFUTED, "k"), control)
    assert main(["verify", "--only", "test.cli_ctl", "--out", str(tmp_path), "--no-progress",
                 "--controls"]) == code
    rec = json.loads((tmp_path / "report.json").read_text())["claims"][0]
    assert rec["verdict"] == "refuted"
    if control_crashes:
        assert "control blew up" in rec["control_error"]
    else:
        assert rec["control"]["rejected"] is rejected


# --------------------------------------------------------------------------- determinism
def test_same_command_twice_gives_identical_files_but_times(tmp_path, temp_claims):
    from seqtheory.proofs_checks.figures import new_figure, save_figure

    def check(ctx):
        r = ctx.rng("x")
        xs = [r.random() for _ in range(5)]
        fig, ax = new_figure()
        ax.semilogy(range(5), [1 + x for x in xs])
        return Outcome(Verdict.SUPPORTED, f"max {max(xs):.4f}", evidence={"xs": xs},
                       figures=save_figure(fig, ctx, "det"))

    temp_claims("test.cli_det", check)
    outs = []
    for name in ("a", "b"):
        out = tmp_path / name
        assert main(["verify", "--only", "test.cli_det", "--out", str(out), "--seed", "4",
                     "--no-progress"]) == 0
        outs.append(out)
    a, b = (json.loads((o / "report.json").read_text()) for o in outs)
    assert _strip_times(a) == _strip_times(b)
    strip = lambda md: [ln for ln in md.splitlines()  # noqa: E731  (created / seconds lines)
                        if not ln.startswith(("seqtheory ", "Reproduce: "))]
    ma, mb = ((o / "report.md").read_text() for o in outs)
    assert strip(ma) == strip(mb) and ma.count("\n") == mb.count("\n")
    for ext in ("png", "svg"):  # figures are byte-identical (SVG ids are salted, not random)
        assert (outs[0] / "figures" / f"det.{ext}").read_bytes() == \
            (outs[1] / "figures" / f"det.{ext}").read_bytes()


# --------------------------------------------------------------------------- cite
def _report_file(tmp_path, name, seed, cid):
    out = tmp_path / name
    assert main(["verify", "--only", cid, "--out", str(out), "--seed", str(seed),
                 "--no-progress"]) == 0
    return out / "report.json"


def test_cite_refuses_unreadable_or_foreign_reports(tmp_path, capsys):
    good = json.loads(_report_file(tmp_path, "good", 0, FAST).read_text())
    capsys.readouterr()
    bad = {"truncated.json": "{\"claims\": [", "list.json": "[1, 2]",
           "no_ids.json": json.dumps({"claims": [{"verdict": "confirmed"}]}),
           "claims_str.json": json.dumps(dict(good, claims="x")),
           "no_seed.json": json.dumps({k: v for k, v in good.items() if k != "seed"}),
           "bad_verdict.json": json.dumps(dict(good, claims=[dict(good["claims"][0],
                                                                   verdict="proven")]))}
    for name, text in bad.items():
        (tmp_path / name).write_text(text)
    (tmp_path / "binary.json").write_bytes(b"\xff\xfe\x00")
    for name, word in (("truncated.json", "not valid JSON"), ("list.json", "not a seqtheory"),
                       ("no_ids.json", "not a seqtheory"), ("claims_str.json", "claims"),
                       ("no_seed.json", "seed"), ("bad_verdict.json", "claims[0].verdict"),
                       ("binary.json", "cannot be read"), ("missing.json", "does not exist")):
        assert main(["cite", FAST, "--report", str(tmp_path / name)]) == 2, name
        assert word in _one_line_error(capsys, "cite"), name
    assert main(["cite", FAST, "--seed", "-3", "--report", str(tmp_path / "good")]) == 2
    assert "--seed" in _one_line_error(capsys, "cite")


def test_cite_uses_the_report_only_for_the_same_seed_and_claim_version(tmp_path, capsys,
                                                                      temp_claims):
    # verdict depends on the seed, so the origin of the cited verdict is visible
    c = temp_claims("test.cli_cite", lambda ctx: Outcome(
        Verdict.REFUTED if ctx.seed % 2 else Verdict.CONFIRMED, "k"))
    path = _report_file(tmp_path, "r5", 5, "test.cli_cite")
    doc = json.loads(path.read_text())
    doc["seqtheory_version"], doc["git_commit"] = "9.9.9", "abcdef0123456789abcd-dirty"
    path.write_text(json.dumps(doc))
    capsys.readouterr()
    # no --seed: the report's verdict, version and commit (the tree that computed it)
    assert main(["cite", "test.cli_cite", "--report", str(path.parent)]) == 0
    out = capsys.readouterr().out
    assert "verdict: refuted" in out and "seed 5" in out
    assert "seqtheory 9.9.9 (commit abcdef012345-dirty)" in out
    # another seed: the report is not used; the check runs now with that seed
    assert main(["cite", "test.cli_cite", "--report", str(path), "--seed", "0"]) == 0
    cap = capsys.readouterr()
    assert "verdict: confirmed" in cap.out and "run now, seed 0" in cap.out
    assert "seed 5, not 0" in cap.err and "9.9.9" not in cap.out
    # a report of an older version of the claim is stale
    c.claim_version = 2
    assert main(["cite", "test.cli_cite", "--report", str(path)]) == 0
    cap = capsys.readouterr()
    assert "run now" in cap.out and "holds version 1 of this claim, not the current 2" in cap.err


def test_cite_flags_a_report_whose_control_was_not_rejected(tmp_path, capsys, temp_claims):
    temp_claims("test.cli_broken", lambda ctx: Outcome(Verdict.CONFIRMED, "k"),
                lambda ctx: ControlOutcome(False, "v", "accepted the wrong variant"))
    out = tmp_path / "r"
    assert main(["verify", "--only", "test.cli_broken", "--out", str(out), "--no-progress",
                 "--controls"]) == 1
    capsys.readouterr()
    assert main(["cite", "test.cli_broken", "--report", str(out / "report.json")]) == 0
    assert "negative control was NOT rejected" in capsys.readouterr().out


def test_ctrl_c_is_a_one_line_message_and_status_130(tmp_path, capsys, temp_claims):
    def check(ctx):
        raise KeyboardInterrupt

    temp_claims("test.cli_int", check)
    assert main(["verify", "--only", "test.cli_int", "--out", str(tmp_path), "--no-progress"]) \
        == 130
    err = capsys.readouterr().err.strip()
    assert err.startswith("seqtheory verify: interrupted") and "no report written" in err
    assert not (tmp_path / "report.json").exists()


@pytest.mark.parametrize("preset", [None, "2"])
def test_verify_runs_its_checks_on_one_thread_beside_the_training_workers(tmp_path, preset):
    """On a CPU, ``verify``'s own process runs BLAS and OpenMP on one thread (its workers train
    one per core): set before numpy loads, unless the user set the variables."""
    import os
    import subprocess
    import sys as _sys

    code = ("import os, sys\n"
            "from seqtheory.proofs_checks import cli\n"
            "assert 'numpy' not in sys.modules\n"
            "cli.main(['verify', '--only', 'free_lie.witt_dimensions', '--out', sys.argv[1], "
            "'--no-progress'])\n"
            "print([os.environ.get(v) for v in cli._THREAD_VARS])\n")
    env = {k: v for k, v in os.environ.items() if k not in
           ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")}
    if preset:
        env["OPENBLAS_NUM_THREADS"] = preset
    out = subprocess.run([_sys.executable, "-c", code, str(tmp_path / "rep")], env=env,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    want = ["1", preset or "1", "1"]
    assert out.stdout.strip().splitlines()[-1] == repr(want)

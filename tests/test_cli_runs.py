"""``seqtheory verify`` as a user meets it: the tally, the control outcomes, the progress
estimate, partial runs merged into the report, Ctrl-C, nearest-id suggestions, --help, --version."""
from __future__ import annotations

import json

import pytest

from seqtheory.proofs_checks.cli import main
from seqtheory.proofs_checks.progress import estimate_remaining, format_duration
from seqtheory.proofs_checks.registry import ControlOutcome, Outcome, Verdict

from test_cli import temp_claims  # noqa: F401  (fixture)


def _verify(out, *ids, extra=()):
    return main(["verify", "--only", *ids, "--out", str(out), "--no-progress", *extra])


def _doc(out):
    return json.loads((out / "report.json").read_text())


# --------------------------------------------------------------------------- terminal
def test_verify_prints_a_tally_and_each_control_outcome(tmp_path, capsys, temp_claims):
    temp_claims("test.run_a", lambda ctx: Outcome(Verdict.CONFIRMED, "a"),
                lambda ctx: ControlOutcome(True, "wrong", "rejected for a reason"))
    temp_claims("test.run_b", lambda ctx: Outcome(Verdict.REFUTED, "b"),
                lambda ctx: ControlOutcome(True, "wrong", "rejected"))
    assert _verify(tmp_path, "test.run_*", extra=["--controls"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert any("1/2 test.run_a" in ln and "confirmed" in ln and ln.rstrip().endswith("control rejected")
               for ln in lines), out
    assert any("2/2 test.run_b" in ln and "refuted" in ln for ln in lines), out
    assert "this run: 2 claims: 1 confirmed, 1 refuted; controls: 2 rejected" in out


def test_estimate_of_the_time_left():
    # recorded times win; unknown claims take the mean of the finished ones
    assert estimate_remaining(["a", "b"], {"a": 10.0}, [2.0, 4.0]) == 13.0
    assert estimate_remaining(["a", "b"], {"a": 10.0, "c": 6.0}, []) == 18.0
    assert estimate_remaining(["x"], {}, []) is None
    assert estimate_remaining([], {}, []) == 0.0
    assert format_duration(None) == "?" and format_duration(7) == "0:07"
    assert format_duration(250) == "4:10" and format_duration(3909) == "1:05:09"


# --------------------------------------------------------------------------- partial runs
def test_only_merges_into_the_existing_report(tmp_path, capsys, temp_claims):
    temp_claims("test.m_a", lambda ctx: Outcome(Verdict.CONFIRMED, "a"))
    temp_claims("test.m_b", lambda ctx: Outcome(Verdict.SUPPORTED, "b"))
    assert _verify(tmp_path, "test.m_a", "test.m_b") == 0
    full = _doc(tmp_path)
    assert [c["rerun"] for c in full["claims"]] == [False, False]
    assert _verify(tmp_path, "test.m_b") == 0
    cap = capsys.readouterr()
    assert "merged with 1 earlier run" in cap.out
    assert "merging into the report" in cap.err and "kept from it: 1 other claim;" in cap.err
    doc = _doc(tmp_path)
    assert [c["id"] for c in doc["claims"]] == ["test.m_a", "test.m_b"]  # nothing lost
    assert [c["rerun"] for c in doc["claims"]] == [False, True]
    assert [r["claims"] for r in doc["runs"]] == [["test.m_a", "test.m_b"], ["test.m_b"]]
    assert doc["claims"][0] == full["claims"][0]
    md = (tmp_path / "report.md").read_text()
    assert "### test.m_b\n\n*Re-run:" in md and "(re-run)" not in md   # the heading stays the id
    assert "[`test.m_b`](#testm_b)" in md                              # so its link still works


@pytest.mark.parametrize("flag, word", [(["--seed", "1"], "seed 0, this run uses 1"),
                                        (["--profile", "full"], "profile 'quick'")])
def test_only_refuses_to_merge_across_seeds_and_profiles(tmp_path, capsys, temp_claims, flag,
                                                         word):
    temp_claims("test.r_a", lambda ctx: Outcome(Verdict.CONFIRMED, "a"))
    temp_claims("test.r_b", lambda ctx: Outcome(Verdict.CONFIRMED, "b"))
    assert _verify(tmp_path, "test.r_a", "test.r_b") == 0
    before = (tmp_path / "report.json").read_bytes()
    capsys.readouterr()
    assert _verify(tmp_path, "test.r_b", extra=flag) == 2
    err = capsys.readouterr().err
    assert word in err and "--replace" in err
    assert (tmp_path / "report.json").read_bytes() == before  # untouched
    assert _verify(tmp_path, "test.r_b", extra=[*flag, "--replace"]) == 0
    assert [c["id"] for c in _doc(tmp_path)["claims"]] == ["test.r_b"]


def test_only_refuses_a_stale_claim_version_or_another_package_version(tmp_path, capsys,
                                                                       temp_claims):
    a = temp_claims("test.v_a", lambda ctx: Outcome(Verdict.CONFIRMED, "a"))
    temp_claims("test.v_b", lambda ctx: Outcome(Verdict.CONFIRMED, "b"))
    assert _verify(tmp_path, "test.v_a", "test.v_b") == 0
    a.claim_version = 2
    assert _verify(tmp_path, "test.v_b") == 2
    assert "version 1 of claim 'test.v_a', not the current 2" in capsys.readouterr().err
    a.claim_version = 1
    doc = _doc(tmp_path)
    doc["seqtheory_version"] = "0.0.1"
    (tmp_path / "report.json").write_text(json.dumps(doc))
    assert _verify(tmp_path, "test.v_b") == 2
    assert "seqtheory_version '0.0.1'" in capsys.readouterr().err


def test_rerun_removes_its_stale_figures_only(tmp_path, temp_claims):
    from seqtheory.proofs_checks.figures import new_figure, save_figure

    names = {"test.f_a": "fa_old", "test.f_b": "fb"}

    def check_for(cid):
        def check(ctx):
            fig, ax = new_figure()
            ax.plot([0, 1])
            return Outcome(Verdict.CONFIRMED, "k", figures=save_figure(fig, ctx, names[cid]))
        return check

    for cid in names:
        temp_claims(cid, check_for(cid))
    (tmp_path / "figures").mkdir()
    (tmp_path / "figures" / "mine.png").write_bytes(b"a user's file")
    assert _verify(tmp_path, "test.f_a", "test.f_b") == 0
    names["test.f_a"] = "fa_new"
    assert _verify(tmp_path, "test.f_a") == 0
    left = sorted(p.name for p in (tmp_path / "figures").iterdir())
    assert left == ["fa_new.png", "fa_new.svg", "fb.png", "fb.svg", "mine.png"]


def test_ctrl_c_writes_the_finished_claims_as_an_interrupted_report(tmp_path, capsys,
                                                                     temp_claims):
    ctrl_c = []

    def b(ctx):
        if ctrl_c:
            raise KeyboardInterrupt
        return Outcome(Verdict.CONFIRMED, "b")

    temp_claims("test.i_a", lambda ctx: Outcome(Verdict.CONFIRMED, "a"))
    temp_claims("test.i_b", b)
    temp_claims("test.i_c", lambda ctx: Outcome(Verdict.REFUTED, "c"))
    assert _verify(tmp_path, "test.i_*") == 0
    ctrl_c.append(True)  # the second run is stopped in its second claim
    assert _verify(tmp_path, "test.i_*") == 130
    err = capsys.readouterr().err
    assert "interrupted after 1/3 claims" in err and "report.json" in err
    doc = _doc(tmp_path)
    assert doc["interrupted"] is True
    # the finished claim replaced its record; the others keep the earlier run's records
    assert [(c["id"], c["rerun"]) for c in doc["claims"]] == \
        [("test.i_a", True), ("test.i_b", False), ("test.i_c", False)]
    assert "**Interrupted**" in (tmp_path / "report.md").read_text()


def test_ctrl_c_into_an_empty_folder_writes_the_finished_claims(tmp_path, temp_claims):
    temp_claims("test.j_a", lambda ctx: Outcome(Verdict.CONFIRMED, "a"))

    def stop(ctx):
        raise KeyboardInterrupt

    temp_claims("test.j_b", stop)
    assert _verify(tmp_path, "test.j_*") == 130
    doc = _doc(tmp_path)
    assert doc["interrupted"] is True and [c["id"] for c in doc["claims"]] == ["test.j_a"]


# --------------------------------------------------------------------------- ids, help, version
def test_a_misspelled_id_suggests_the_nearest_ids(tmp_path, capsys):
    assert _verify(tmp_path, "depth.cor36") == 2
    err = capsys.readouterr().err
    assert "did you mean depth.cor3.6" in err and "head.tv_bound" not in err
    assert main(["cite", "depth.prop37"]) == 2
    err = capsys.readouterr().err
    assert "did you mean depth.prop3.7" in err and "head.tv_bound" not in err
    assert main(["cite", "zzzz"]) == 2
    assert "seqtheory claims" in capsys.readouterr().err


def test_version_flag_and_package_attribute(capsys):
    import seqtheory

    from seqtheory.proofs_checks.environment import package_version

    with pytest.raises(SystemExit) as ei:
        main(["--version"])
    assert ei.value.code == 0
    assert capsys.readouterr().out.strip() == f"seqtheory {seqtheory.__version__}"
    assert seqtheory.__version__ == package_version()


def test_help_is_complete_plain_text(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    assert "`" not in out and "``" not in out
    assert "arXiv:2603.05573" in out and "arXiv:2608.22253" in out
    for cmd in ("claims", "verify", "cite", "train", "sweep", "sweep-report"):
        assert f"    {cmd}" in out
    with pytest.raises(SystemExit):
        main(["verify", "--help"])
    out = " ".join(capsys.readouterr().out.split())      # argparse wraps the help text
    assert "merges" in out and "--replace" in out and "(default quick)" in out


def test_train_help_documents_every_option_and_default(capsys):
    import re

    from seqtheory.proofs_checks.cli import build_parser

    parser = build_parser()
    train = next(a for a in parser._subparsers._group_actions[0].choices.items()
                 if a[0] == "train")[1]
    for act in train._actions:
        if act.dest == "help":
            continue
        assert act.help, act.dest
        if not act.required and act.nargs != 0:
            shown = "none" if act.default is None else str(act.default)
            assert act.help.endswith(f"(default {shown})"), act.dest
    with pytest.raises(SystemExit):
        main(["train", "--help"])
    out = capsys.readouterr().out
    assert "S5" in out and "`" not in out
    # the example of the help runs as written, and differs from the defaults only where it says
    example = re.search(r"Example: (seqtheory train [^\n]+)", out).group(1).split()[2:]
    args = parser.parse_args(["train", *example])
    defaults = parser.parse_args(["train", "--task", "S3", "--model", "deltaproduct"])
    changed = {k for k, v in vars(args).items() if vars(defaults)[k] != v}
    assert changed == {"depth", "steps"}


def test_train_accepts_every_task_its_help_names():
    from seqtheory.models.train import TrainConfig

    for task in ("C2", "C3", "D8", "H3", "H3(2)", "S3", "S4", "A5", "S5", "Q8", "F21", "V4",
                 "rotation_a5"):
        TrainConfig(task=task, model="gla")
    TrainConfig(task="rotation_eps", model="gla", eps=0.2)
    with pytest.raises(ValueError, match="task"):
        TrainConfig(task="S 5x", model="gla")


def test_only_never_overwrites_an_unreadable_or_older_report(tmp_path, capsys, temp_claims):
    temp_claims("test.u_a", lambda ctx: Outcome(Verdict.CONFIRMED, "a"))
    (tmp_path / "report.json").write_text("{\"claims\": [")
    assert _verify(tmp_path, "test.u_a") == 2
    err = capsys.readouterr().err
    assert "report" in err and "not valid JSON" in err and "--replace" in err
    assert (tmp_path / "report.json").read_text() == "{\"claims\": ["
    (tmp_path / "report.json").write_text(json.dumps({"schema_version": 1, "claims": []}))
    assert _verify(tmp_path, "test.u_a") == 2
    assert "written by another version" in capsys.readouterr().err
    assert _verify(tmp_path, "test.u_a", extra=["--replace"]) == 0
    assert [c["id"] for c in _doc(tmp_path)["claims"]] == ["test.u_a"]


def test_every_option_of_every_command_has_help_text():
    from seqtheory.proofs_checks.cli import build_parser

    parser = build_parser()
    missing = [(name, a.dest) for name, sub in parser._subparsers._group_actions[0].choices.items()
               for a in sub._actions if a.dest != "help" and not a.help]
    assert missing == []

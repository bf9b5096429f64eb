"""Evidence bundles: runs trained elsewhere, read back with their provenance, never mixed with
runs trained here (proofs_checks/evidence.py, `seqtheory evidence pack`, `verify --evidence`)."""
from __future__ import annotations

import json

import pytest
import torch

from seqtheory.models.store import ResultsStore, canonical_json, config_key, key_class
from seqtheory.models.train import TrainConfig, train
from seqtheory.proofs_checks import evidence as ev
from seqtheory.proofs_checks import training_runs as tr
from seqtheory.proofs_checks.cli import main
from seqtheory.proofs_checks.registry import Context, get_claim, load_all
from seqtheory.proofs_checks.report import build_report, merge_problem
from seqtheory.proofs_checks.runner import run_claim


def _cfg(**kw):
    base = dict(task="S3", model="signed_mamba", train_length=4, steps=6, width=8, n_heads=2,
                d_state=4, batch_size=4, n_train=16, n_test=8, fresh_words=True)
    base.update(kw)
    return TrainConfig(**base)


@pytest.fixture(scope="module")
def store_dir(tmp_path_factory):
    """A store with two finished runs, one run left unfinished and one failed."""
    root = tmp_path_factory.mktemp("store")
    st = ResultsStore(root)
    for s in (1, 2):
        train(_cfg(seed=s), store=st, device="cpu", threads=1)
    assert st.claim(_cfg(seed=3), "someone")                  # running, never finished
    assert st.claim(_cfg(seed=4), "someone")
    st.fail(_cfg(seed=4), "someone", "boom")
    return root


@pytest.fixture()
def bundle(store_dir, tmp_path):
    ev.pack(store_dir, tmp_path / "bundle", profile="quick", seed=0)
    return tmp_path / "bundle"


def test_pack_copies_finished_runs_with_model_weights_only(store_dir, bundle):
    prov = ev.load_provenance(bundle)
    assert prov["runs"] == 2 and prov["device"] == "cpu" and prov["profile"] == "quick"
    assert prov["format"] == ev.BUNDLE_FORMAT and prov["versions"]["torch"] == torch.__version__
    st = ResultsStore(ev.bundle_store_dir(bundle))
    assert {r.status for r in st.runs()} == {"finished"} and len(st.runs()) == 2
    assert st.result(_cfg(seed=1)) == ResultsStore(store_dir).result(_cfg(seed=1))
    assert st.metrics(_cfg(seed=1)) == ResultsStore(store_dir).metrics(_cfg(seed=1))
    ck = st.load_checkpoint(_cfg(seed=1))
    assert set(ck) <= {"model", "step", "curve"} and "opt" not in ck
    full = ResultsStore(store_dir).load_checkpoint(_cfg(seed=1))
    assert all(torch.equal(ck["model"][k], full["model"][k]) for k in full["model"])


def test_runs_are_read_from_the_bundle_and_never_trained(bundle, monkeypatch):
    ctx = Context(seed=0, evidence=bundle)
    assert tr.store(ctx).root == ev.bundle_store_dir(bundle)

    def no_training(*a, **k):
        raise AssertionError("nothing may be trained with an evidence bundle")

    monkeypatch.setattr("seqtheory.models.training.train", no_training)
    monkeypatch.setattr(tr, "train_all", no_training)
    got = tr.run_many(ctx, [_cfg(seed=1), _cfg(seed=2)])
    assert [r["config"]["seed"] for r in got] == [1, 2]
    assert tr.TrainingPool(ctx, [_cfg(seed=9)]).summary["runs"] == 0


def test_a_run_missing_from_the_bundle_is_reported_not_trained(bundle, monkeypatch):
    monkeypatch.setattr(tr, "train_all", lambda *a, **k: pytest.fail("trained"))
    ctx = Context(seed=0, evidence=bundle)
    with pytest.raises(ev.MissingEvidence, match=r"2 of 3 runs are not in the evidence bundle"):
        tr.run_many(ctx, [_cfg(seed=1), _cfg(seed=3), _cfg(seed=7)])     # 3 unfinished there


def test_a_trained_claim_with_a_bundle_lacking_its_runs_is_inconclusive_naming_the_bundle(bundle):
    load_all()
    r = run_claim(get_claim("finding.parity_negative_eigenvalues"), Context(seed=0, evidence=bundle))
    assert r.error is None and r.outcome.verdict.value == "inconclusive"      # never refuted
    n = r.outcome.evidence["missing_runs"]
    assert r.outcome.key_figure == f"missing {n} runs" and n == r.outcome.evidence["planned_runs"]
    assert "not trained here" in r.outcome.notes and "never refutes" in r.outcome.notes


@pytest.mark.parametrize("damage, match", [
    (lambda b: (b / "provenance.json").unlink(), "has no provenance.json"),
    (lambda b: (b / "provenance.json").write_text("{"), "unreadable provenance.json"),
    (lambda b: (b / "provenance.json").write_text("[]"), "is not an object"),
    (lambda b: _edit(b, format=2), "format 2 is not 1"),
    (lambda b: _edit(b, seed="0"), "needs 'seed'"),
    (lambda b: _edit(b, runs=True), "needs 'runs'"),
    (lambda b: (ev.bundle_store_dir(b) / "results.sqlite").unlink(), "has no results store"),
])
def test_a_damaged_bundle_is_refused_naming_it(bundle, damage, match):
    damage(bundle)
    with pytest.raises(ValueError, match=match):
        ev.load_provenance(bundle)


def _edit(bundle, **kw):
    p = bundle / "provenance.json"
    p.write_text(json.dumps(dict(json.loads(p.read_text()), **kw)))


def test_pack_refuses_bad_arguments_and_leaves_nothing_when_interrupted(store_dir, tmp_path,
                                                                        monkeypatch):
    with pytest.raises(ValueError, match="profile must be one of"):
        ev.pack(store_dir, tmp_path / "b", profile="huge", seed=0)
    with pytest.raises(ValueError, match="seed must be"):
        ev.pack(store_dir, tmp_path / "b", profile="quick", seed=-1)
    with pytest.raises(ValueError, match="holds no results store"):
        ev.pack(tmp_path / "nothing", tmp_path / "b", profile="quick", seed=0)
    (tmp_path / "taken").mkdir()
    with pytest.raises(ValueError, match="exists"):
        ev.pack(store_dir, tmp_path / "taken", profile="quick", seed=0)
    empty = tmp_path / "empty"
    ResultsStore(empty)
    with pytest.raises(ValueError, match="no finished run"):
        ev.pack(empty, tmp_path / "b", profile="quick", seed=0)

    def killed(*a, **k):
        raise KeyboardInterrupt

    monkeypatch.setattr(ev, "environment_info", killed)
    with pytest.raises(KeyboardInterrupt):
        ev.pack(store_dir, tmp_path / "b", profile="quick", seed=0)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["empty", "taken"]   # no half bundle


def test_verify_checks_the_bundle_against_its_profile_and_seed(bundle, tmp_path, capsys):
    out = str(tmp_path / "rep")
    assert main(["verify", "--only", "finding.parity_negative_eigenvalues", "--evidence", str(bundle), "--seed", "1",
                 "--out", out, "--no-progress"]) == 2
    assert "was made with seed 0; this run uses 1 (give --seed 0)" in capsys.readouterr().err
    assert main(["verify", "--only", "finding.parity_negative_eigenvalues", "--evidence", str(bundle), "--profile",
                 "full", "--out", out, "--no-progress"]) == 2
    assert "was made with profile 'quick'" in capsys.readouterr().err
    assert main(["verify", "--only", "finding.parity_negative_eigenvalues", "--evidence", str(tmp_path / "none"),
                 "--out", out, "--no-progress"]) == 2
    assert "is not a folder" in capsys.readouterr().err


def test_the_paper_profile_trains_only_on_a_gpu(tmp_path, capsys):
    assert main(["verify", "--only", "finding.parity_negative_eigenvalues", "--profile", "paper", "--out",
                 str(tmp_path / "rep"), "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert "profile 'paper' trains on a CUDA GPU" in err and "--evidence" in err
    assert not (tmp_path / "rep" / "report.json").exists()


def test_pack_command_line(store_dir, tmp_path, capsys):
    assert main(["evidence", "pack", "--results", str(store_dir), "--out", str(tmp_path / "b"),
                 "--profile", "quick"]) == 0
    assert "2 runs" in capsys.readouterr().out
    assert main(["evidence", "pack", "--results", str(store_dir), "--out", str(tmp_path / "b"),
                 "--profile", "quick"]) == 2
    assert "exists" in capsys.readouterr().err


def test_the_report_names_the_bundle_and_refuses_to_merge_with_local_runs(bundle):
    load_all()
    prov = dict(ev.load_provenance(bundle), path=str(bundle))
    r = run_claim(get_claim("depth.prop3.3"), Context(seed=0))       # any claim: the header
    with_ev = build_report([r], seed=0, profile="quick", device="cpu", controls=False, evidence=prov)
    local = build_report([r], seed=0, profile="quick", device="cpu", controls=False)
    assert with_ev["environment"]["evidence"]["path"] == str(bundle)
    versions = {"depth.prop3.3": get_claim("depth.prop3.3").claim_version}
    assert "evidence is never mixed" in merge_problem(local, with_ev, versions)
    assert "evidence is never mixed" in merge_problem(with_ev, local, versions)
    assert merge_problem(with_ev, with_ev, versions) is None
    rec = with_ev["claims"][0]
    assert "--evidence" in rec["reproduce"]
    assert not rec["notes"].startswith("Runs read from")             # not a trained claim


def test_partial_runs_merge_only_with_a_report_that_read_the_same_evidence(bundle, tmp_path, capsys):
    out = str(tmp_path / "rep")
    base = ["verify", "--out", out, "--no-progress", "--only"]
    assert main(base + ["audit.task_identity", "--evidence", str(bundle)]) == 0
    assert main(base + ["depth.lemma3.1", "--evidence", str(bundle)]) == 0
    report = json.loads((tmp_path / "rep" / "report.json").read_text())
    assert {c["id"] for c in report["claims"]} == {"audit.task_identity", "depth.lemma3.1"}
    capsys.readouterr()
    assert main(base + ["depth.lemma3.1"]) == 2
    assert "evidence is never mixed" in capsys.readouterr().err


# --------------------------------------------------------------------------- provenance of runs
def _tamper(db, key: str, *, config: dict | None = None, result_key: str | None = None) -> None:
    """Change what a stored run records, as a damaged or hand-edited store would."""
    import sqlite3

    con = sqlite3.connect(db)
    with con:
        if config is not None:
            con.execute("UPDATE runs SET config=? WHERE key=?", (json.dumps(config), key))
        if result_key is not None:
            res = json.loads(con.execute("SELECT result FROM runs WHERE key=?",
                                         (key,)).fetchone()[0])
            con.execute("UPDATE runs SET result=? WHERE key=?",
                        (json.dumps(dict(res, key=result_key)), key))
    con.close()


def test_a_bundle_whose_runs_check_records_so(bundle):
    prov = ev.load_provenance(bundle)
    assert prov["unverified_runs"] == {} and prov["run_torch_versions"] == [torch.__version__]
    assert ev.provenance_problems(ev.bundle_store(bundle)) == {}


def test_pack_marks_the_runs_whose_provenance_does_not_check(store_dir, tmp_path, capsys):
    import shutil

    src = tmp_path / "store"
    shutil.copytree(store_dir, src)
    k1, k2 = (ResultsStore(src).key_of(_cfg(seed=s)) for s in (1, 2))
    _tamper(src / "results.sqlite", k1, config=dict(_cfg(seed=7).__dict__, start=[0, 0, 1]))
    _tamper(src / "results.sqlite", k2, result_key="f" * 64)
    assert main(["evidence", "pack", "--results", str(src), "--out", str(tmp_path / "b"),
                 "--profile", "quick"]) == 0
    err = capsys.readouterr().err
    assert "note: 2 runs of the bundle whose provenance does not check:" in err
    bad = ev.load_provenance(tmp_path / "b")["unverified_runs"]
    assert set(bad) == {k1, k2}
    assert "does not follow from the configuration recorded with it" in bad[k1]
    assert bad[k2] == "its result records another key (ffffffffffff)"


def test_verify_reports_a_bundle_run_whose_provenance_does_not_check(bundle, tmp_path, capsys):
    """Checked again when verify opens the bundle (a bundle changed after packing), reported in
    the terminal and recorded in the report."""
    key = ev.bundle_store(bundle).key_of(_cfg(seed=2))
    _tamper(ev.bundle_store_dir(bundle) / "results.sqlite", key,
            config=dict(_cfg(seed=5).__dict__, start=[0, 0, 1]))
    out = tmp_path / "rep"
    assert main(["verify", "--only", "free_lie.witt_dimensions", "--evidence", str(bundle),
                 "--out", str(out), "--no-progress"]) == 0
    err = capsys.readouterr().err
    assert "seqtheory verify: note: 1 run of the bundle whose provenance does not check:" in err
    assert f"  {key[:12]}: its key does not follow" in err
    doc = json.loads((out / "report.json").read_text())
    assert list(doc["environment"]["evidence"]["unverified_runs"]) == [key]
    assert "1 run of the bundle whose provenance does not check" in (out / "report.md").read_text()


def test_the_keyed_classes_cover_every_training_plan():
    """Every configuration a claim's training plan stores (any profile) is of a class the
    provenance check knows, so a good run is never reported as unverified."""
    from seqtheory.proofs_checks.registry import all_claims

    load_all()
    known = set(ev.keyed_classes())
    for profile in ("quick", "full", "paper"):
        jobs = tr.plan_jobs(all_claims(), Context(seed=0, profile=profile), controls=True)
        configs = [j.config if isinstance(j, tr.StoreJob) else j for j in jobs]
        assert configs and {type(c) for c in configs} <= known, profile
        for c in configs:                    # the nested precision sweeps are stored too
            for sub in (c, *getattr(c, "sweeps", ())):
                assert type(sub) in known
                # a good run checks: its key follows from the configuration as stored
                stored = json.loads(canonical_json(sub))
                assert key_class(config_key(sub), stored, known) is type(sub)


def test_verify_refuses_a_bundle_whose_runs_cannot_be_read(bundle, tmp_path, capsys):
    import sqlite3

    con = sqlite3.connect(ev.bundle_store_dir(bundle) / "results.sqlite")
    with con:
        con.execute("UPDATE runs SET config='{not json'")
    con.close()
    out = tmp_path / "rep"
    assert main(["verify", "--only", "free_lie.witt_dimensions", "--evidence", str(bundle),
                 "--out", str(out), "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert "the runs of its results store cannot be read" in err and "Traceback" not in err
    assert not out.exists()

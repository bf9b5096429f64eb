"""Shards and evidence folders: the profile's runs cut into lease-sized shards, decisive cells
first (proofs_checks/shards.py), shard bundles read back as one union (evidence.EvidenceFolder,
`verify --evidence FOLDER`), `seqtheory evidence shards/train/pack`, sweeps/paper_profile.sh."""
from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
from pathlib import Path

import pytest

from seqtheory.models.store import ResultsStore
from seqtheory.models.train import train
from seqtheory.proofs_checks import evidence as ev
from seqtheory.proofs_checks import shards as sh
from seqtheory.proofs_checks import training_runs as tr
from seqtheory.proofs_checks.cli import main
from seqtheory.proofs_checks.registry import Context
from test_evidence import _cfg                        # the tiny run of the bundle tests

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def store_dir(tmp_path_factory):
    """A store with three finished runs (seeds 1-3)."""
    root = tmp_path_factory.mktemp("store")
    st = ResultsStore(root)
    for s in (1, 2, 3):
        train(_cfg(seed=s), store=st, device="cpu", threads=1)
    return root


def _subset(src: Path, dst: Path, seeds: set[int]) -> Path:
    """A copy of the store ``src`` holding only the runs of ``seeds``."""
    shutil.copytree(src, dst)
    con = sqlite3.connect(dst / "results.sqlite")
    with con:
        for s in {1, 2, 3} - seeds:
            con.execute("DELETE FROM runs WHERE key=?", (_cfg(seed=s).key,))
    con.close()
    return dst


@pytest.fixture()
def folder(store_dir, tmp_path):
    """An evidence folder of two shard bundles: seeds {1, 2} and {2, 3} (seed 2 in both)."""
    for name, seeds in (("quick-shard-01", {1, 2}), ("quick-shard-02", {2, 3})):
        ev.pack(_subset(store_dir, tmp_path / f"s-{name}", seeds), tmp_path / "ev" / name,
                profile="quick", seed=0)
    return tmp_path / "ev"


def test_a_folder_of_bundles_reads_as_their_union(folder, monkeypatch):
    st = ev.evidence_store(folder)
    assert isinstance(st, ev.EvidenceFolder) and st.keys() == {_cfg(seed=s).key for s in (1, 2, 3)}
    monkeypatch.setattr(tr, "train_all", lambda *a, **k: pytest.fail("trained"))
    got = tr.run_many(Context(seed=0, evidence=folder), [_cfg(seed=3), _cfg(seed=1)])
    assert [r["config"]["seed"] for r in got] == [3, 1]
    assert st.load_checkpoint(_cfg(seed=3))["model"]
    prov = ev.evidence_provenance(folder)
    assert prov["runs"] == 3 and [Path(b["path"]).name for b in prov["bundles"]] == \
        ["quick-shard-01", "quick-shard-02"]
    assert "evidence folder of 2 bundles" in ev.describe(prov)
    one = folder / "quick-shard-01"                                 # one bundle keeps working
    assert ev.bundles_in(one) == [one] and not isinstance(ev.evidence_store(one), ev.EvidenceFolder)


def test_a_conflicting_duplicate_is_refused_naming_both_bundles_and_the_key(folder):
    db = ev.bundle_store_dir(folder / "quick-shard-02") / "results.sqlite"
    key = _cfg(seed=2).key
    con = sqlite3.connect(db)
    with con:
        res = json.loads(con.execute("SELECT result FROM runs WHERE key=?", (key,)).fetchone()[0])
        res["final_loss"] = 123.0
        con.execute("UPDATE runs SET result=? WHERE key=?", (json.dumps(res), key))
    con.close()
    with pytest.raises(ValueError, match=f"'quick-shard-01' and 'quick-shard-02' hold different "
                                         f"results for the run {key}"):
        ev.EvidenceFolder(folder)


def test_an_identical_duplicate_is_accepted_also_when_it_ran_elsewhere(folder):
    db = ev.bundle_store_dir(folder / "quick-shard-02") / "results.sqlite"
    key = _cfg(seed=2).key
    con = sqlite3.connect(db)
    with con:                               # same findings, another machine's speed and device
        res = json.loads(con.execute("SELECT result FROM runs WHERE key=?", (key,)).fetchone()[0])
        res.update(train_time_s=1e6, tokens_per_s=1.0, device="cuda")
        con.execute("UPDATE runs SET result=? WHERE key=?", (json.dumps(res), key))
    con.close()
    assert len(ev.EvidenceFolder(folder).keys()) == 3


def test_pack_leaves_out_the_runs_the_evidence_holds_and_records_the_shard(store_dir, folder, tmp_path):
    one = tmp_path / "ev1"
    one.mkdir()
    shutil.copytree(folder / "quick-shard-01", one / "quick-shard-01")
    prov = ev.pack(store_dir, tmp_path / "new", profile="quick", seed=0, exclude=one, shard=2)
    assert prov["runs"] == 1 and prov["shard"] == 2
    assert {r.key for r in ev.bundle_store(tmp_path / "new").runs()} == {_cfg(seed=3).key}
    with pytest.raises(ValueError, match="holds no finished run that"):
        ev.pack(store_dir, tmp_path / "none", profile="quick", seed=0, exclude=folder)
    with pytest.raises(ValueError, match="shard must be a positive int"):
        ev.pack(store_dir, tmp_path / "bad", profile="quick", seed=0, shard=0)
    assert not (tmp_path / "none").exists() and not (tmp_path / "bad").exists()


def test_verify_refuses_a_folder_with_conflicting_bundles_or_another_seed(folder, tmp_path, capsys):
    (folder / "quick-shard-02" / "provenance.json").write_text(json.dumps(
        dict(ev.load_provenance(folder / "quick-shard-02"), seed=1)))
    assert main(["verify", "--evidence", str(folder), "--out", str(tmp_path / "r"),
                 "--no-progress", "--only", "depth.exp.s3_depth"]) == 2
    assert "different seeds [0, 1]" in capsys.readouterr().err


# ------------------------------------------------------------------------------ shards (paper)
@pytest.fixture(scope="module")
def paper_shards():
    return sh.plan_shards("paper")


def test_shards_come_decisive_cells_first_and_never_mix_tiers(paper_shards):
    tiers = [t for t, _ in sh.TIERS]
    order = [tiers.index(s.tiers[0]) for s in paper_shards]
    assert all(len(s.tiers) == 1 for s in paper_shards)
    assert order == sorted(order) and order[0] == 0
    assert set(order) == set(range(len(tiers)))             # every tier has runs in paper
    first = paper_shards[0].jobs[0]
    assert first[0].task in ("S3", "D8") and first[0].depth in (1, 2) and first[0].train_length in (64, 128)
    s4 = [s for s in paper_shards if s.tiers == ("S4 depths 2-3",)]
    assert {j[0].depth for s in s4 for j in s.jobs} == {2, 3}


def test_every_shard_fits_the_limit_and_the_shards_partition_the_plan(paper_shards):
    for s in paper_shards:
        assert s.seconds <= sh.SHARD_LIMIT_S or (s.over_limit and len(s.jobs) == 1)
        assert s.seconds == pytest.approx(sum(sh.job_seconds(j) for j in s.jobs), abs=0.1)
    over = [s for s in paper_shards if s.over_limit]
    assert all(isinstance(s.jobs[0], tr.StoreJob) for s in over)   # only stored experiments
    keys = [k for s in paper_shards for k in s.keys]
    assert len(keys) == len(set(keys))                              # no run in two shards
    assert set(keys) == set(sh.planned_runs("paper"))               # the union is the plan
    assert [s.number for s in paper_shards] == list(range(1, len(paper_shards) + 1))


def test_the_paper_plan_uses_the_grid_batch_and_stacks_each_shape(paper_shards):
    groups = [j for s in paper_shards for j in s.jobs if isinstance(j, list)]
    batches = {c.batch_size for g in groups for c in g if c.train_length >= 32}
    assert batches == {256, 32}
    assert {(c.task, c.depth, c.train_length) for g in groups for c in g if c.batch_size == 32
            and c.train_length >= 32} == {("A5", 8, 128)}
    assert max(len(g) for g in groups) == 20                        # the plan has <= 20 per shape
    assert tr.max_group_for("cuda") >= 32 and tr.max_group_for("cpu") == tr.MAX_GROUP


def test_done_runs_are_left_out_and_the_numbers_follow_the_evidence(paper_shards):
    done = set(paper_shards[0].keys) | set(paper_shards[1].keys)
    rest = sh.plan_shards("paper", done=done, first=3)
    assert rest[0].number == 3 and not done & {k for s in rest for k in s.keys}
    assert {k for s in rest for k in s.keys} | done == set(sh.planned_runs("paper"))
    with pytest.raises(ValueError, match="limit_s must be positive"):
        sh.plan_shards("paper", limit_s=0)
    with pytest.raises(ValueError, match="first must be a positive int"):
        sh.plan_shards("paper", first=0)


def test_a_group_is_split_until_a_part_fits_and_a_run_never_is():
    group = [_cfg(seed=s, steps=2000, train_length=128, width=64, batch_size=256) for s in range(6)]
    one = sh.job_seconds(group[:1])
    assert sh.job_seconds(group) > sh.job_seconds(group[:3]) > one > 0
    limit = sh.job_seconds(group[:3]) + 0.01
    runs = [sh._Run(c.key, c, frozenset({"x"}), 0) for c in group]
    parts = sh._groups(runs, limit, sh.H200_ESTIMATE)
    assert [len(j) for j, _ in parts] == [3, 3]
    alone = sh._groups(runs, one / 2, sh.H200_ESTIMATE)
    assert [len(j) for j, _ in alone] == [1] * 6


def test_the_shards_command_lists_number_claims_runs_and_estimate(capsys):
    assert main(["evidence", "shards", "--profile", "paper", "--json"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert rows[0]["shard"] == 1 and rows[0]["runs"] >= 1 and rows[0]["estimated_s"] <= 360
    assert "depth.exp.s3_depth" in rows[0]["claims"] and rows[0]["cells"]
    assert main(["evidence", "shards", "--profile", "quick", "--shard-budget-s", "30"]) == 0
    out = capsys.readouterr().out
    assert "shard   1" in out and "H200 estimate, not measured" in out


# -------------------------------------------------------------------- end to end, two shards
def _union_checks(ev_dir: Path, tmp_path: Path, capsys) -> None:
    """verify --evidence on the folder reads the union: the runs of both shards are found, the
    claims whose runs are missing are inconclusive 'missing N runs', never refuted."""
    bundles = ev.bundles_in(ev_dir)
    assert [b.name.split("-")[2] for b in bundles] == ["01", "02"]
    provs = [ev.load_provenance(b) for b in bundles]
    assert [p["shard"] for p in provs] == [1, 2] and all(p["device"] == "cpu" for p in provs)
    union = ev.EvidenceFolder(ev_dir).keys()
    each = [{r.key for r in ev.bundle_store(b).runs()} for b in bundles]
    assert union == each[0] | each[1] and not each[0] & each[1]
    shards = sh.plan_shards("quick", limit_s=30, device="cpu")
    assert each == [set(shards[0].keys), set(shards[1].keys)]
    out = tmp_path / "rep"
    assert main(["verify", "--evidence", str(ev_dir), "--out", str(out), "--no-progress",
                 "--only", "depth.exp.s3_depth", "finding.parity_negative_eigenvalues"]) == 0
    rep = json.loads((out / "report.json").read_text())
    assert len(rep["environment"]["evidence"]["bundles"]) == 2
    for c in rep["claims"]:
        assert c["status"] == "ok" and c["verdict"] == "inconclusive", c
        assert c["key_figure"].startswith("missing ") and c["key_figure"].endswith(" runs")
    s3 = next(c for c in rep["claims"] if c["id"] == "depth.exp.s3_depth")
    assert s3["evidence"]["missing_runs"] < s3["evidence"]["planned_runs"]   # shards' runs found


def test_two_shards_through_the_library_then_verify_reads_the_union(tmp_path, capsys):
    ev_dir = tmp_path / "evidence"
    for n in (1, 2):
        res, info = tmp_path / f"results{n}", tmp_path / f"shard{n}.json"
        extra = ["--evidence", str(ev_dir)] if n == 2 else []
        assert main(["evidence", "train", "--profile", "quick", "--device", "cpu", "--results",
                     str(res), "--shard-budget-s", "30", "--info", str(info)] + extra) == 0
        assert json.loads(info.read_text())["shard"] == n
        assert main(["evidence", "pack", "--results", str(res), "--profile", "quick", "--shard",
                     str(n), "--out", str(ev_dir / f"quick-shard-{n:02d}-x")]
                    + (["--exclude-evidence", str(ev_dir)] if n == 2 else [])) == 0
    _union_checks(ev_dir, tmp_path, capsys)


@pytest.mark.slow
def test_two_shards_through_the_script_then_verify_reads_the_union(tmp_path, capsys):
    ev_dir = tmp_path / "evidence"
    ev_dir.mkdir()
    for n in (1, 2):
        out = tmp_path / f"out{n}"
        env = dict(os.environ, OUT=str(out), PROFILE="quick", DEVICE="cpu", SHARD_BUDGET_S="30",
                   EVIDENCE=str(ev_dir))
        subprocess.run(["bash", str(ROOT / "sweeps" / "paper_profile.sh")], cwd=ROOT, env=env,
                       check=True, timeout=300)
        (made,) = (out / "evidence").iterdir()
        assert made.name.startswith(f"quick-shard-{n:02d}-")
        shutil.copytree(made, ev_dir / made.name)
    _union_checks(ev_dir, tmp_path, capsys)

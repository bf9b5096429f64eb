"""Sweeps: grid files (expansion, validation), the local backend, resume after SIGKILL, and the
word-problem report (seqtheory.models.sweep, seqtheory.models.sweep_report, `seqtheory sweep`)."""
from __future__ import annotations

import json
import math
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from seqtheory.models.store import ResultsStore, config_key
from seqtheory.models.sweep import (SweepStatus, load_sweep, parse_sweep, read_events,
                                    run_sweep, sweep_status)
from seqtheory.models.train import TrainConfig

ROOT = Path(__file__).resolve().parents[1]
SWEEPS = ROOT / "sweeps"
TINY = SWEEPS / "tiny.toml"


def _base(**grid):
    return {"grid": {"task": ["C3", "S3"], "model": ["gla"], **grid},
            "fixed": {"train_length": 4, "steps": 3}}


# --------------------------------------------------------------------------- expansion
def test_grid_expansion_order_types_and_fixed_fields():
    spec = parse_sweep({"sweep": {"name": "g", "lease_s": 7},
                        "grid": {"seed": [0, 1], "task": ["C3", "S3"], "depth": [1, 2, 3],
                                 "lr": [1, 1e-3]},
                        "fixed": {"model": "mamba", "steps": 5, "start": [0, 1, 0]}})
    cfgs = spec.configs()
    assert spec.size == len(cfgs) == 2 * 2 * 3 * 2
    assert spec.name == "g" and spec.lease_s == 7.0
    assert len({config_key(c) for c in cfgs}) == len(cfgs)
    # first grid key outermost, last innermost
    assert [(c.seed, c.task, c.depth, c.lr) for c in cfgs[:3]] == [
        (0, "C3", 1, 1.0), (0, "C3", 1, 1e-3), (0, "C3", 2, 1.0)]
    assert cfgs[-1].seed == 1 and cfgs[-1].task == "S3"
    # ints in float fields become floats (so lr = 1 and lr = 1.0 are the same run), lists → tuples
    assert all(isinstance(c.lr, float) for c in cfgs)
    assert all(c.model == "mamba" and c.steps == 5 and c.start == (0.0, 1.0, 0.0) for c in cfgs)
    assert config_key(cfgs[0]) == config_key(TrainConfig(task="C3", model="mamba", depth=1, lr=1.0,
                                                         steps=5, seed=0, start=(0.0, 1.0, 0.0)))


def test_shipped_sweep_files():
    full = load_sweep(SWEEPS / "paper_full.toml")
    assert full.grid["task"] == ("C2", "C3", "D8", "H3", "S3", "S4", "A5")
    assert set(full.grid["model"]) == {"transformer", "gla", "mamba", "signed_mamba", "aussm",
                                       "deltaproduct"}
    assert full.grid["depth"] == tuple(range(1, 9))
    assert full.grid["width"] == (64, 128, 256)
    assert full.grid["lr"] == (1e-2, 1e-3, 3e-4, 1e-4)
    assert full.grid["batch_size"] == (256, 2048)
    assert len(full.grid["seed"]) == 3
    assert full.fixed["train_length"] == 128 and full.fixed["test_length"] == 256
    assert full.size == 7 * 6 * 8 * 3 * 4 * 2 * 3
    small = load_sweep(SWEEPS / "cpu_small.toml")
    assert set(small.grid["task"]) == set(full.grid["task"])
    assert set(small.grid["model"]) == set(full.grid["model"])
    assert all(c.test_length == 2 * c.train_length for c in small.configs())
    tiny = load_sweep(TINY)
    assert tiny.size == 4


@pytest.mark.parametrize("data, key", [
    ({"grid": {"task": ["C3"], "model": ["gla"]}, "extra": {}}, "'extra'"),
    ({"grid": {"task": ["C3"], "model": ["gla"], "detph": [1]}}, "grid: unknown key 'detph' (did you mean 'depth'"),
    ({"grid": {"task": ["C3"], "model": ["gla"]}, "fixed": {"stepz": 3}}, "fixed: unknown key 'stepz'"),
    ({"grid": {"task": ["C3"], "model": ["gla"]}, "sweep": {"lease": 3}}, "sweep: unknown key 'lease'"),
    ({"grid": {"task": ["C3"], "model": ["gla"], "depth": ["2"]}}, "grid.depth[0]: expected int"),
    ({"grid": {"task": ["C3"], "model": ["gla"], "depth": [True]}}, "grid.depth[0]: expected int"),
    ({"grid": {"task": ["C3"], "model": ["gla"], "lr": ["fast"]}}, "grid.lr[0]: expected float"),
    ({"grid": {"task": ["C3"], "model": ["gla"], "lr": [float("nan")]}}, "grid.lr[0]: must be finite"),
    ({"grid": {"task": ["C3"], "model": ["gla"], "depth": []}}, "grid.depth: empty list"),
    ({"grid": {"task": ["C3"], "model": ["gla"], "depth": 3}}, "grid.depth: expected a list"),
    ({"grid": {"task": ["C3"], "model": ["gla"], "seed": [0, 0]}}, "grid.seed: repeated values"),
    ({"grid": {"task": ["C3"], "model": ["gla"]}, "fixed": {"model": "gla"}}, "'model' is both"),
    ({"grid": {"task": ["C3"]}}, "'model' must be given"),
    ({"grid": {"task": ["C3", "Z9"], "model": ["gla"]}}, "grid.task: unknown task 'Z9'"),
    ({"grid": {"task": ["C3"], "model": ["gla", "lstm"]}}, "grid point (task='C3', model='lstm')"),
    ({"grid": {"task": ["C3"], "model": ["gla"]}, "fixed": {"steps": 0}}, "steps must be >= 1"),
    ({"grid": {"task": ["C3"], "model": ["gla"]}, "fixed": {"start": [0, 1]}}, "fixed.start: expected a list of 3"),
    ({"grid": {"task": ["C3"], "model": ["gla"]}, "sweep": {"lease_s": -1}}, "sweep.lease_s"),
    ({"grid": {"task": ["C3"], "model": ["gla"]}, "fixed": {"shuffle_labels": 1}}, "fixed.shuffle_labels: expected bool"),
    ({"grid": []}, "[grid] must be a table"),
])
def test_validation_errors_name_the_key(data, key):
    with pytest.raises(ValueError) as ei:
        parse_sweep(data, source="x.toml")
    assert key in str(ei.value), str(ei.value)


def test_invalid_toml_file(tmp_path):
    p = tmp_path / "bad.toml"
    p.write_text("[grid\ntask = ['C3']\n")
    with pytest.raises(ValueError, match="not valid TOML"):
        load_sweep(p)
    with pytest.raises(FileNotFoundError, match="does not exist"):
        load_sweep(tmp_path / "missing.toml")
    with pytest.raises(ValueError, match="is a folder, not a sweep file"):
        load_sweep(tmp_path)
    (tmp_path / "bin.toml").write_bytes(b"\xff\xfe[grid]")
    with pytest.raises(ValueError, match="bin.toml: not valid TOML: not UTF-8"):
        load_sweep(tmp_path / "bin.toml")


def test_cli_sweep_bad_files_and_stores_are_one_line_errors(tmp_path, capsys):
    from seqtheory.proofs_checks.cli import main

    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "results.sqlite").write_bytes(b"\x00" * 4096)
    afile = tmp_path / "afile"
    afile.write_text("x")
    good = tmp_path / "good"
    ResultsStore(good)
    for argv, word in (
            (["sweep", str(tmp_path)], "is a folder"),
            (["sweep", str(tmp_path / "missing.toml")], "does not exist"),
            (["sweep", str(TINY), "--results", str(bad), "--dry-run"], "cannot be opened"),
            (["sweep", str(TINY), "--results", str(bad)], "cannot be opened"),
            (["sweep", str(TINY), "--results", str(afile)], "is not a folder"),
            (["sweep-report", "--results", str(bad)], "cannot be opened"),
            (["sweep-report", "--results", str(good), "--out", str(afile)], "is not a folder")):
        assert main(argv) == 2, argv
        err = capsys.readouterr().err
        assert err.startswith(f"seqtheory {argv[0]}: error:") and word in err, (argv, err)
        assert "Traceback" not in err
    assert afile.read_text() == "x"


def test_run_sweep_argument_errors(tmp_path):
    spec = load_sweep(TINY)
    for kw, word in (({"backend": "dask"}, "backend"), ({"workers": 0}, "workers"),
                     ({"device": "tpu"}, "device"), ({"lease_s": -1.0}, "lease_s"),
                     ({"threads": 0}, "threads"), ({"address": "x:1"}, "address"),
                     ({"stream_every_s": -1.0}, "stream_every_s"),
                     ({"stream_every_s": float("inf")}, "stream_every_s"),
                     ({"ray_retries": -1}, "ray_retries"), ({"ray_retries": 1.0}, "ray_retries")):
        with pytest.raises(ValueError, match=word):
            run_sweep(spec, tmp_path / "r", **kw)


# --------------------------------------------------------------------------- status
def test_status_counts_each_state(tmp_path):
    store = ResultsStore(tmp_path)
    cfgs = parse_sweep({"grid": {"task": ["C3"], "model": ["gla"], "depth": [1, 2, 3, 4, 5]},
                        "fixed": {"steps": 2}}).configs()
    store.claim(cfgs[0], "a", lease_s=100)
    store.finish(cfgs[0], "a", {"test": {"seq_acc": 1.0}})
    store.claim(cfgs[1], "b", lease_s=100)            # running
    store.claim(cfgs[2], "c", lease_s=0.01)           # worker died: lease expires
    store.claim(cfgs[3], "d", lease_s=100)
    store.fail(cfgs[3], "d", "boom")
    time.sleep(0.05)
    st = sweep_status(store, cfgs)
    assert st == SweepStatus(total=5, finished=1, running=1, interrupted=1, failed=1, new=1)
    assert st.todo == 3 and not st.complete
    assert st.line() == "1/5 done, 1 running, 3 todo (1 new, 1 interrupted, 1 failed)"


# --------------------------------------------------------------------------- local backend + report
def test_local_backend_trains_each_run_once_and_reports(tmp_path):
    spec = load_sweep(TINY)
    res = tmp_path / "results"
    lines: list[str] = []
    final, errors = run_sweep(spec, res, workers=1, poll_s=0.2, say=lines.append)
    assert errors == [] and final.complete and final.finished == 4
    store = ResultsStore(res)
    keys = {config_key(c) for c in spec.configs()}
    assert {r.key for r in store.runs("finished")} == keys
    ev = read_events(res)
    assert sorted(e["key"] for e in ev if e["event"] == "start") == sorted(keys)
    stamps = {r.key: r.updated for r in store.runs()}
    # a second invocation finds everything finished and trains nothing
    final2, _ = run_sweep(spec, res, workers=1, poll_s=0.2, say=lines.append)
    assert final2.complete and len(read_events(res)) == len(ev)
    assert {r.key: r.updated for r in store.runs()} == stamps
    assert any(line.startswith("final: 4/4 done") for line in lines)

    from seqtheory.models.sweep_report import write_word_problem_report

    out = tmp_path / "report"
    paths = write_word_problem_report(res, out)
    names = {p.name for p in paths}
    assert {"word_problems.md", "word_problems.json", "word_problems_acc_vs_depth_T4_8.png",
            "word_problems_acc_vs_depth_T4_8.svg"} <= names
    doc = json.loads((out / "word_problems.json").read_text())
    assert sorted(r["key"] for r in doc["runs"]) == sorted(keys)  # every run listed
    (exp,) = doc["experiments"]
    assert (exp["train_length"], exp["test_length"]) == (4, 8)
    accs = {(r["task"], r["depth"]): r["seq_acc"] for r in doc["runs"]}
    for cell in exp["cells"]:  # one seed per cell: best mean = that run's accuracy, SE undefined
        assert cell["best_mean"] == accs[(cell["task"], cell["depth"])] and cell["best_se"] is None
    md = (out / "word_problems.md").read_text()
    assert "| gla | 1 |" in md and md.count("| finished |") == 4
    assert (out / "figures" / "word_problems_acc_vs_depth_T4_8.png").read_bytes()[:4] == b"\x89PNG"
    before = (out / "word_problems.md").read_bytes(), (out / "word_problems.json").read_bytes()
    write_word_problem_report(res, out)
    assert ((out / "word_problems.md").read_bytes(), (out / "word_problems.json").read_bytes()) \
        == before


def test_mean_and_standard_error_over_seeds():
    from seqtheory.models.sweep_report import mean_se, summarize

    def row(seed, acc, lr=1e-3, status="finished"):
        return {"key": f"k{seed}{lr}", "status": status, "task": "S3", "model": "gla", "depth": 2,
                "width": 16, "lr": lr, "batch_size": 8, "steps": 5, "seed": seed,
                "train_length": 4, "test_length": 8, "seq_acc": acc,
                "setting": json.dumps({"lr": lr})}

    rows = [row(0, 0.2), row(1, 0.4), row(2, 0.9), row(0, 0.45, lr=1e-2), row(1, None, 1e-2, "failed")]
    (exp,) = summarize(rows)
    m, se = mean_se([0.2, 0.4, 0.9])
    assert math.isclose(m, 0.5) and math.isclose(se, math.sqrt(0.13 / 3))
    (cell,) = exp["cells"]
    assert math.isclose(cell["best_mean"], 0.5) and cell["best_n"] == 3  # 0.5 (3 seeds) > 0.45
    assert cell["best_setting"]["lr"] == 1e-3 and cell["not_finished"] == 1
    assert cell["all_n"] == 4 and math.isclose(cell["all_mean"], 1.95 / 4)
    # a tie in the mean goes to the setting with more seeds
    (exp2,) = summarize(rows[:3] + [row(0, sum([0.2, 0.4, 0.9]) / 3, lr=1e-2)])
    assert exp2["cells"][0]["best_n"] == 3
    assert mean_se([]) == (None, None) and mean_se([0.3]) == (0.3, None)


# --------------------------------------------------------------------------- kill and resume
KILL_TOML = """
[sweep]
name = "kill"
lease_s = 3.0
[grid]
seed = [0, 1]
task = ["C3", "S3"]
[fixed]
depth = 1
model = "gla"
width = 16
n_heads = 2
d_state = 4
train_length = 4
test_length = 8
n_train = 32
n_test = 32
steps = 40
batch_size = 8
warmup = 1
checkpoint_every = 5
log_every = 5
"""


def _sweep_cmd(cfg: Path, res: Path) -> list[str]:
    return [sys.executable, "-m", "seqtheory.proofs_checks.cli", "sweep", str(cfg), "--results",
            str(res), "--workers", "2", "--poll-s", "0.3", "--progress-s", "2"]


def test_sigkill_mid_sweep_then_resume_loses_and_repeats_nothing(tmp_path):
    cfg = tmp_path / "kill.toml"
    cfg.write_text(KILL_TOML)
    spec = load_sweep(cfg)
    keys = {config_key(c) for c in spec.configs()}
    res = tmp_path / "results"
    log = open(tmp_path / "run1.log", "w")
    proc = subprocess.Popen(_sweep_cmd(cfg, res), stdout=log, stderr=subprocess.STDOUT,
                            start_new_session=True)
    store = None
    try:
        deadline = time.time() + 120
        while time.time() < deadline:
            assert proc.poll() is None, (tmp_path / "run1.log").read_text()
            if (res / "results.sqlite").is_file():
                store = store or ResultsStore(res)
                recs = store.runs()
                fin = [r for r in recs if r.status == "finished"]
                mid = [r for r in recs if r.status == "claimed" and 10 <= r.step < 40]
                if fin and mid:
                    break
            time.sleep(0.05)
        else:
            pytest.fail("the sweep did not reach a finished + a checkpointed run in 120 s")
    finally:
        os.killpg(proc.pid, signal.SIGKILL)  # the parent and both workers, no clean-up
        proc.wait()
        log.close()
    killed_at = time.time()
    recs = {r.key: r for r in store.runs()}
    finished_before = {k: (r.updated, r.result["train_time_s"]) for k, r in recs.items()
                       if r.status == "finished"}
    interrupted = {k for k, r in recs.items() if r.status == "claimed"}
    assert finished_before and interrupted and len(finished_before) < len(keys)
    # progress is recorded at logged steps (every 5), checkpoints every 5: progress ≥ 10 implies
    # a checkpoint at step ≥ 5
    ck_runs = {k for k in interrupted if recs[k].step >= 10}
    assert ck_runs and all(store.checkpoint_path(k).is_file() for k in ck_runs)
    # the metric rows up to each checkpoint (they hold a wall-clock throughput): a resumed run
    # never rewrites them, a run retrained from step 0 would (identical losses, new timings)
    ck_step = {k: store.load_checkpoint(k)["step"] for k in ck_runs}
    rows_before = {k: [m for m in store.metrics(k) if m["step"] <= ck_step[k]] for k in ck_runs}
    assert all(len(rows_before[k]) == ck_step[k] // 5 for k in ck_runs)

    out = subprocess.run(_sweep_cmd(cfg, res), capture_output=True, text=True, timeout=240)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "final: 4/4 done" in out.stdout

    recs2 = {r.key: r for r in store.runs()}
    assert set(recs2) == keys and all(r.status == "finished" for r in recs2.values())  # none lost
    for k, (updated, t) in finished_before.items():  # finished runs untouched, not retrained
        assert recs2[k].updated == updated and recs2[k].result["train_time_s"] == t
    ev = read_events(res)
    restarted = [e for e in ev if e["event"] == "start" and e["time"] > killed_at]
    assert not {e["key"] for e in restarted} & set(finished_before)
    assert {e["key"] for e in restarted} == keys - set(finished_before)
    # every run trained to completion exactly once: at most one finish event per key
    fin_keys = [e["key"] for e in ev if e["event"] == "finish"]
    assert len(fin_keys) == len(set(fin_keys))
    # runs cut short resumed from their checkpoint, not from step 0
    resumed = {e["key"]: e["resume_step"] for e in restarted if e["key"] in interrupted}
    assert all(resumed[k] >= ck_step[k] for k in ck_runs)
    for k in ck_runs:  # training restarted after the checkpoint: earlier rows untouched
        assert [m for m in store.metrics(k) if m["step"] <= ck_step[k]] == rows_before[k], k
    for k in keys:  # the stored curve has one point per logged step: no step trained twice
        steps = [p["step"] for p in recs2[k].result["curve"]]
        assert steps == list(range(5, 41, 5)), (k, steps)

"""How trained claims get their runs: jobs (batched groups), the worker schedule, the training
plans of the claims (the prefetch trains what the checks will ask for) and the runner's handling
of a failed prefetch."""
from __future__ import annotations

import dataclasses
import json
import threading
import time
from pathlib import Path

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from seqtheory.models.train import TrainConfig, train
from seqtheory.proofs_checks import training_runs as tr
from seqtheory.proofs_checks.registry import Context, all_claims


def _cfg(**kw):
    base = dict(task="S3", model="signed_mamba", train_length=8, steps=12, width=8, n_heads=2,
                d_state=4, batch_size=4, n_train=32, n_test=16, fresh_words=True,
                curriculum_steps=4, curriculum_start=2)
    base.update(kw)
    return TrainConfig(**base)


# ------------------------------------------------------------------------------------------------
# jobs and schedule
# ------------------------------------------------------------------------------------------------
def test_runs_of_one_shape_form_one_job_and_the_rest_run_alone():
    a = [_cfg(seed=s) for s in range(3)]                    # one shape, batchable
    b = [_cfg(seed=s, depth=2) for s in range(2)]           # another shape
    c = [_cfg(seed=0, model="abelian", task="rotation_eps", eps=0.1)]  # not batchable
    d = [_cfg(seed=0, precision="bf16")]                    # bf16: not batchable
    jobs = tr._jobs(a + b + c + d, workers=2, batched=True, max_group=8)
    assert sorted(len(j) for j in jobs) == [1, 1, 2, 3]
    assert {tuple(x.key for x in j) for j in jobs} >= {tuple(x.key for x in a), tuple(x.key for x in b)}
    alone = tr._jobs(a + b, workers=2, batched=False, max_group=8)
    assert sorted(len(j) for j in alone) == [1] * 5


def test_groups_respect_max_group_and_split_to_feed_every_worker():
    a = [_cfg(seed=s) for s in range(5)]
    assert sorted(len(j) for j in tr._jobs(a, workers=1, batched=True, max_group=2)) == [1, 2, 2]
    assert sorted(len(j) for j in tr._jobs(a, workers=2, batched=True, max_group=8)) == [2, 3]
    assert sorted(len(j) for j in tr._jobs(a[:1], workers=2, batched=True, max_group=8)) == [1]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(1, 50), min_size=1, max_size=30), st.integers(1, 6))
def test_schedule_assigns_every_job_once_and_balances_like_lpt(costs, workers):
    jobs = [tr.StoreJob(f"m:f{i}", None, float(c)) for i, c in enumerate(costs)]
    shards = tr.schedule(jobs, workers)
    flat = [j for s in shards for j in s]
    assert sorted(j.function for j in flat) == sorted(j.function for j in jobs)
    loads = [sum(j.cpu_seconds for j in s) for s in shards]
    # LPT guarantee: the largest load is at most 4/3 of the optimum; the optimum is at least the
    # mean load, the largest job, and (more jobs than workers) the sum of the m-th and (m+1)-th largest
    p = sorted(costs, reverse=True)
    lower = max(sum(costs) / workers, p[0], p[workers - 1] + p[workers] if len(p) > workers else 0)
    assert max(loads) <= 4 / 3 * lower + 1e-9


def _take_all(folder: str, n: int, out: str) -> None:
    Path(out).write_text(json.dumps([i for i in range(n) if tr._take(Path(folder), i)]))


def test_the_shared_queue_gives_each_job_to_exactly_one_worker(tmp_path):
    """Worker processes that race over one queue (:func:`_take`) take every job exactly once."""
    import multiprocessing as mp

    (tmp_path / "taken").mkdir()
    outs = [tmp_path / f"w{w}.json" for w in range(4)]
    procs = [mp.get_context("fork").Process(target=_take_all, args=(str(tmp_path / "taken"), 200, str(o)))
             for o in outs]
    for p in procs:
        p.start()
    for p in procs:
        p.join(60)
        assert p.exitcode == 0
    taken = [i for o in outs for i in json.loads(o.read_text())]
    assert sorted(taken) == list(range(200))


def test_queue_order_is_the_costliest_first_and_schedule_follows_it():
    jobs = [tr.StoreJob(f"m:f{i}", None, float(c)) for i, c in enumerate([3, 9, 1, 9, 5])]
    assert [j.cpu_seconds for j in tr.queue_order(jobs)] == [9, 9, 5, 3, 1]
    assert [j.function for j in tr.queue_order(jobs)][:2] == ["m:f1", "m:f3"]      # ties: stable
    assert [[j.cpu_seconds for j in s] for s in tr.schedule(jobs, 2)] == [[9, 5], [9, 3, 1]]


def test_schedule_refuses_bad_worker_counts():
    with pytest.raises(ValueError, match="workers"):
        tr.schedule([], 0)


def test_train_all_trains_each_unfinished_run_once(tmp_path, monkeypatch):
    monkeypatch.setattr(tr, "cpu_workers", lambda: 1)       # in this process
    ctx = Context(seed=1, results_dir=tmp_path / "res")
    cfgs = [_cfg(seed=s) for s in tr.seeds(ctx, "t", 2)] + [_cfg(seed=5, depth=2)]
    first = tr.train_all(ctx, cfgs + cfgs[:1])               # a repeated run is trained once
    assert (first["runs"], first["jobs"]) == (3, 2)
    assert all(tr.store(ctx).result(c) is not None for c in cfgs)
    again = tr.train_all(ctx, cfgs)
    assert (again["runs"], again["jobs"]) == (0, 0)
    res = tr.run_many(ctx, cfgs)
    assert [r["key"] for r in res] == [c.key for c in cfgs] and all(r["from_store"] for r in res)


def test_batched_and_one_at_a_time_jobs_give_the_same_runs(tmp_path, monkeypatch):
    monkeypatch.setattr(tr, "cpu_workers", lambda: 1)
    cfgs = [_cfg(seed=s, precision="fp64") for s in (3, 4)]
    a = Context(seed=0, results_dir=tmp_path / "a")
    b = Context(seed=0, results_dir=tmp_path / "b")
    tr.train_all(a, cfgs, batched=True)
    tr.train_all(b, cfgs, batched=False)
    for c in cfgs:
        ra, rb = tr.store(a).result(c), tr.store(b).result(c)
        assert ra["engine"]["name"] == "batched"
        assert rb.get("engine", {}).get("name") != "batched"
        assert ra["final_loss"] == pytest.approx(rb["final_loss"], rel=1e-10, abs=1e-12)


# ------------------------------------------------------------------------------------------------
# the training plans of the claims
# ------------------------------------------------------------------------------------------------
class _Asked(Exception):
    pass


TRAINED = [c for c in all_claims() if c.uses_training]


def test_every_trained_claim_has_a_training_plan():
    assert TRAINED and [c.id for c in TRAINED if c.plan is None] == []


@pytest.mark.parametrize("profile", ["quick", "full", "paper"])
@pytest.mark.parametrize("claim", TRAINED, ids=[c.id for c in TRAINED])
def test_the_plan_holds_the_runs_the_check_and_control_ask_for_first(claim, profile, monkeypatch,
                                                                       tmp_path):
    """The check's (and the control's) first request to the results store is part of the plan,
    so the prefetch trains what the claim needs (a miss would only cost time: the check would
    train it, one claim at a time)."""
    import seqtheory.proofs_checks.precision_sweeps as dta
    import seqtheory.proofs_checks.claims.head_training as head
    import seqtheory.proofs_checks.head_width_sweep as hw

    ctx = Context(seed=0, profile=profile, results_dir=tmp_path)
    asked: list = []

    def fake_run_many(ctx, configs):
        asked.append([c.key for c in configs])
        raise _Asked

    def fake_stored(ctx, block="A"):
        asked.append([tr.store(ctx).key(head._experiment_config(ctx, block))])
        raise _Asked

    monkeypatch.setattr(tr, "run_many", fake_run_many)
    monkeypatch.setattr("seqtheory.proofs_checks.run_inspection.run_many", fake_run_many)
    def fake_sweeps(ctx, depth, coupling=True):
        asked.append([tr.store(ctx).key(c) for c in dta.sweep_configs(ctx, depth, coupling)])
        raise _Asked

    def fake_sweep(ctx, sweep=None):
        asked.append([tr.store(ctx).key(sweep or hw.sweep_config(ctx))])
        raise _Asked

    monkeypatch.setattr(head, "stored_experiment", fake_stored)
    monkeypatch.setattr(hw, "stored_sweep", fake_sweep)
    monkeypatch.setattr(dta, "sweeps", fake_sweeps)
    planned = set()
    for j in claim.plan(ctx, True):
        cfg = j.config if isinstance(j, tr.StoreJob) else j
        planned.add(tr.store(ctx).key(cfg))
        planned |= {tr.store(ctx).key(c) for c in getattr(cfg, "sweeps", ())}   # a SweepSet's sweeps
    for fn in (claim.check, claim.negative_control):
        asked.clear()
        try:
            fn(ctx)
        except _Asked:
            pass
        assert asked or fn is claim.negative_control, f"{claim.id}: the check asked for no run"
        if asked:
            assert set(asked[0]) <= planned, f"{claim.id}: asks for runs outside its plan"


def test_a_failed_start_or_worker_is_reported_not_raised(monkeypatch):
    from seqtheory.proofs_checks import runner

    def boom(*a, **k):
        raise RuntimeError("cannot plan")

    monkeypatch.setattr(tr, "plan_jobs", boom)
    info = runner.finish_training(*runner.start_training(TRAINED, Context()))
    assert info["runs"] == 0 and "cannot plan" in info["error"]

    class FailingPool:
        summary = {"runs": 2, "jobs": 1, "workers": 2}

        def wait(self):
            raise RuntimeError("a training worker failed (exit 1)")

    info = runner.finish_training(FailingPool())
    assert info["runs"] == 2 and "a training worker failed" in info["error"]


def test_run_claims_runs_untrained_claims_while_training_and_keeps_the_order(monkeypatch):
    """The claims without training run while the pool trains; the trained ones after it
    finishes; results come back in the order asked."""
    from seqtheory.proofs_checks import runner
    from seqtheory.proofs_checks.registry import get_claim

    events = []

    class Pool:
        summary = {"runs": 1, "jobs": 1, "workers": 2}

        def running(self):
            return False

        def wait(self):
            events.append("wait")
            return dict(self.summary, seconds=0.0)

        def stop(self):
            events.append("stop")

    monkeypatch.setattr(runner, "start_training", lambda *a, **k: (Pool(), None))
    monkeypatch.setattr(runner, "run_claim", lambda c, ctx, controls=False: events.append(c.id) or c.id)
    ids = ["finding.parity_negative_eigenvalues", "free_lie.witt_dimensions", "head.exp.rownorm_vs_adamw", "depth.lemma3.1"]
    phases = []
    out = runner.run_claims([get_claim(i) for i in ids], Context(),
                            on_training=lambda info: phases.append(info["phase"]))
    assert out == ids and phases == ["started", "finished"]
    assert events == ["free_lie.witt_dimensions", "depth.lemma3.1", "wait", "finding.parity_negative_eigenvalues",
                      "head.exp.rownorm_vs_adamw"]


def test_a_trained_claim_whose_runs_are_finished_runs_while_the_workers_train(monkeypatch):
    """While the workers train, a trained claim whose plan the store holds finished runs at
    once (the others wait for the end of training), with one torch thread here; results still
    come back in the order asked."""
    import torch

    from seqtheory.proofs_checks import runner
    from seqtheory.proofs_checks.registry import get_claim

    events, threads = [], []
    ready_plan = get_claim("head.exp.rownorm_vs_adamw").plan(Context(), False)

    class Pool:
        summary = {"runs": 3, "jobs": 2, "workers": 2}
        looks = 0

        def running(self):
            self.looks += 1
            return self.looks < 4                      # the workers finish after a few looks

        def keys(self, jobs):
            return frozenset(tr.store(Context()).key(j.config if isinstance(j, tr.StoreJob) else j)
                             for j in jobs)

        def finished(self, keys):
            return keys == self.keys(ready_plan)

        def notes(self):                               # the workers' wait notes: none here
            return []

        def wait(self):
            events.append("wait")
            return dict(self.summary, seconds=0.0)

        def stop(self):
            pass

    def run_claim(c, ctx, controls=False):
        events.append(c.id)
        threads.append(torch.get_num_threads())
        return c.id

    monkeypatch.setattr(runner, "start_training", lambda *a, **k: (Pool(), None))
    monkeypatch.setattr(runner, "run_claim", run_claim)
    monkeypatch.setattr(runner, "POLL_S", 0.01)
    before = torch.get_num_threads()
    torch.set_num_threads(2)                           # the default of a 2-CPU machine
    ids = ["finding.parity_negative_eigenvalues", "free_lie.witt_dimensions", "head.exp.rownorm_vs_adamw"]
    phases = []
    try:
        out = runner.run_claims([get_claim(i) for i in ids], Context(),
                                on_training=lambda info: phases.append(info["phase"]))
    finally:
        after = torch.get_num_threads()
        torch.set_num_threads(before)
    assert out == ids and phases == ["started", "finished"]
    assert events == ["free_lie.witt_dimensions", "head.exp.rownorm_vs_adamw", "wait",
                      "finding.parity_negative_eigenvalues"]
    assert threads == [1, 1, 2] and after == 2


def test_an_interrupted_run_stops_the_workers(monkeypatch):
    from seqtheory.proofs_checks import runner
    from seqtheory.proofs_checks.registry import get_claim

    stopped = []

    class Pool:
        summary = {"runs": 1, "jobs": 1, "workers": 2}

        def stop(self):
            stopped.append(True)

    def interrupt(*a, **k):
        raise KeyboardInterrupt

    monkeypatch.setattr(runner, "start_training", lambda *a, **k: (Pool(), None))
    monkeypatch.setattr(runner, "run_claim", interrupt)
    with pytest.raises(KeyboardInterrupt):
        runner.run_claims([get_claim("depth.lemma3.1"), get_claim("finding.parity_negative_eigenvalues")], Context())
    assert stopped == [True]


def test_training_pool_runs_workers_in_the_background(tmp_path, monkeypatch):
    """Two worker processes train two jobs; ``finished`` tells each run done as its worker
    marks it (a run the store held before counts as finished); wait() returns once both
    stored their runs."""
    monkeypatch.setattr(tr, "cpu_workers", lambda: 2)
    ctx = Context(seed=2, results_dir=tmp_path / "res")
    old = _cfg(seed=3, steps=2)
    train(old, store=tr.store(ctx), device="cpu", threads=1)
    cfgs = [_cfg(seed=1, steps=4), _cfg(seed=2, steps=4, depth=2)]
    pool = tr.TrainingPool(ctx, cfgs + [old])
    assert pool.summary == {"runs": 2, "jobs": 2, "workers": 2}
    assert pool.finished(pool.keys([old])) and not pool.finished(pool.keys(cfgs))
    deadline = time.time() + 120
    while not pool.finished(pool.keys(cfgs[:1])) and time.time() < deadline:
        time.sleep(0.05)
    assert tr.store(ctx).result(cfgs[0]) is not None          # marked done only once stored
    info = pool.wait()
    assert info["runs"] == 2 and all(tr.store(ctx).result(c) is not None for c in cfgs)
    assert pool.finished(pool.keys(cfgs))


# every request (not only the first; models loaded back included) of the depth claims
#: TrainConfig-based depth claims (the precision-mode claims of precision_sweeps.py ask for
#: precision sweeps: tests/test_claims_depth_trained_abelian.py)
DEPTH_TRAINED = [c for c in all_claims() if c.uses_training and c.id.startswith(("depth.", "finding."))
                 and c.id not in ("depth.cor3.6.trained", "depth.thm3.2.abelian.trained",
                                  "finding.head_width_law")]   # the head width sweep: StoreJobs


def _fake_result(cfg) -> dict:
    rng = np.random.default_rng(cfg.seed % 2**31)
    T2 = cfg.test_length or 2 * cfg.train_length
    return {"config": dataclasses.asdict(cfg), "key": cfg.key, "final_loss": 1.0,
            "curve": [{"step": 0, "loss": 1.0}, {"step": 1, "loss": 0.5}],
            "data": {"train_length": cfg.train_length, "test_length": T2, "held_out": True,
                     "audit": {}},
            "test": {"test_length": T2, "seq_acc": float(rng.random()),
                     "prefix_seq_acc": sorted(rng.random(T2).tolist(), reverse=True),
                     "per_position_accuracy": rng.random(T2).tolist(),
                     "max_len_90": int(rng.integers(1, T2 + 1)), "mse": float(rng.random()) + 0.01,
                     "mse_train_length": float(rng.random()) + 0.01,
                     "per_position_mse": (rng.random(T2) + 0.01).tolist()}}


#: claims whose check inspects the models it loads (run_inspection; the source claims' evidence)
INSPECTED = ("finding.phase_horizon", "finding.abelian_tower", "finding.parity_negative_eigenvalues",
             "depth.exp.s3_depth", "depth.exp.word_problems")


@pytest.mark.parametrize("profile", ["quick", "full", "paper"])
@pytest.mark.parametrize("claim", DEPTH_TRAINED, ids=[c.id for c in DEPTH_TRAINED])
def test_every_request_of_check_and_control_lies_in_the_plan(claim, profile, monkeypatch, tmp_path):
    import seqtheory.models.training as mt

    ctx = Context(seed=0, profile=profile, results_dir=tmp_path)
    asked: set = set()

    def fake_train(cfg, **kw):
        asked.add(cfg.key)
        return _fake_result(cfg)

    def fake_load_model(cfg, store, device="cpu"):
        asked.add(cfg.key)
        if claim.id in INSPECTED:                                                # inspected: a model
            torch.manual_seed(0)
            return mt.build_model(cfg, mt.task_shape(cfg))
        return lambda words: torch.zeros(words.shape[0], words.shape[1], 3, dtype=torch.float64)

    monkeypatch.setattr(tr, "train_all", lambda ctx, configs, **kw: {})
    monkeypatch.setattr(mt, "train", fake_train)
    monkeypatch.setattr(mt, "load_model", fake_load_model)
    planned = {c.key for c in claim.plan(ctx, True)}
    for fn in (claim.check, claim.negative_control):
        fn(ctx)
    assert asked, claim.id
    missing = asked - planned
    assert not missing, f"{claim.id} ({profile}): {len(missing)} requested runs outside the plan"


def test_a_batched_job_waits_for_a_run_another_live_worker_holds(tmp_path, monkeypatch):
    """Two processes may share a results store (the notebooks share one): a stacked job whose
    run another live worker holds waits for it and reads it, as one-at-a-time training does."""
    monkeypatch.setattr(tr, "cpu_workers", lambda: 1)
    ctx = Context(seed=0, results_dir=tmp_path / "res")
    st_ = tr.store(ctx)
    a, b = _cfg(seed=1, steps=8, precision="fp64"), _cfg(seed=2, steps=8, precision="fp64")
    assert st_.claim(a, "other-worker", lease_s=60.0)

    def other_finishes():
        time.sleep(2.0)
        train(a, store=tr.store(ctx), device="cpu", owner="other-worker", threads=1)

    t = threading.Thread(target=other_finishes)
    t.start()
    try:
        res = tr.run_many(ctx, [a, b])
    finally:
        t.join()
    assert [r["key"] for r in res] == [a.key, b.key]


def test_store_jobs_are_checked():
    with pytest.raises(ValueError, match="package.module:name"):
        tr.StoreJob("no_colon", None, 1.0)
    with pytest.raises(ValueError, match="cpu_seconds"):
        tr.StoreJob("m:f", None, -1.0)
    with pytest.raises(ValueError, match="no config"):
        tr._unfinished(tr.store(Context()), [tr.StoreJob("m:f", None, 1.0)])


def test_the_pool_passes_on_its_workers_wait_notes_complete_lines_only(tmp_path):
    """A worker that waits for a run another process holds writes the store's wait note (whose
    lease, how long) on its stderr; the pool hands each complete such line on once, for the
    terminal, and nothing else of the worker's output."""
    import tempfile

    pool = tr.TrainingPool(Context(seed=0, results_dir=tmp_path / "results"), [])
    pool._tmp, pool._procs = tempfile.TemporaryDirectory(), [None]   # one worker's stderr file
    err = Path(pool._tmp.name) / "stderr0.txt"
    err.write_text("some warning\nseqtheory: waiting for run 0123456789ab is held by h:1:x "
                   "(lease renewed 2 s ago, ends in 118 s unless renewed); waiting at mo")
    assert pool.notes() == []                                 # the line is not complete yet
    with open(err, "a") as f:
        f.write("st 3598 s more\n")
    assert pool.notes() == ["waiting for run 0123456789ab is held by h:1:x (lease renewed 2 s "
                            "ago, ends in 118 s unless renewed); waiting at most 3598 s more"]
    assert pool.notes() == []
    pool._tmp.cleanup()

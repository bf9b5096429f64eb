"""The Ray backend of `seqtheory sweep` on a simulated multi-node cluster
(``ray.cluster_utils.Cluster``): a head node without CPUs (the driver's machine) and two worker
nodes with one CPU and their own temporary folder each. No worker process may touch the driver's
folder (a Python audit hook installed in every Ray worker refuses it), so the runs can only reach
the results store through the driver. One test kills a worker process mid-run."""
from __future__ import annotations

import dataclasses
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

ray = pytest.importorskip("ray", reason="ray is not installed (pip install 'seqtheory[sweeps]')")
cluster_utils = pytest.importorskip("ray.cluster_utils", reason="ray.cluster_utils is missing")

from seqtheory.models.store import ResultsStore, config_key  # noqa: E402
from seqtheory.models.sweep import load_sweep, read_events, run_sweep  # noqa: E402
from seqtheory.models.train import load_model, train  # noqa: E402

TINY = Path(__file__).resolve().parents[1] / "sweeps" / "tiny.toml"


def _forbid(root: str):
    """A Ray ``worker_process_setup_hook`` that makes every file or SQLite access below ``root``
    raise ``PermissionError`` in the worker process (a closure: Ray ships it by value)."""
    def setup() -> None:
        import os as _os
        import sys as _sys

        def audit(event, args):
            if not (event == "open" or event.startswith(("os.", "shutil.", "sqlite3.connect"))):
                return
            if not args or not isinstance(args[0], (str, bytes, _os.PathLike)):
                return
            p = _os.path.abspath(_os.fsdecode(args[0]))
            if p == root or p.startswith(root + _os.sep):
                raise PermissionError(f"Ray worker touched the driver's folder: {p} ({event})")

        _sys.addaudithook(audit)

    return setup


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    assert not ray.is_initialized()
    base = tmp_path_factory.mktemp("cluster")
    driver = base / "driver"
    folders = {n: base / n for n in ("head", "node1", "node2")}
    for d in (driver, *folders.values()):
        d.mkdir()
    # no GPU on any node, whatever this machine has
    c = cluster_utils.Cluster(initialize_head=True, head_node_args={
        "num_cpus": 0, "num_gpus": 0, "include_dashboard": False,
        "env_vars": {"TMPDIR": str(folders["head"])}})
    nodes = {}
    for n in ("node1", "node2"):
        node = c.add_node(num_cpus=1, num_gpus=0, env_vars={"TMPDIR": str(folders[n])})
        nodes[node.node_id] = folders[n]
    c.wait_for_nodes()
    ray.init(address=c.address, runtime_env={"worker_process_setup_hook": _forbid(str(driver))})
    try:
        yield SimpleNamespace(driver=driver, nodes=nodes, address=c.address)
    finally:
        ray.shutdown()
        c.shutdown()


def _by_key(events, key, kind):
    return [e for e in events if e["key"] == key and e["event"] == kind]


#: the runs killed mid-run: 200 steps, a checkpoint every 20; killed once the driver holds the
#: checkpoint of step KILL_AT, the task stopped (:func:`_stop_mid_run`)
LONG_RUN = {"steps": 200, "checkpoint_every": 20, "log_every": 20}
KILL_AT = 20


def _long_run():
    """One run to be killed mid-run (``LONG_RUN``)."""
    base = next(c for c in load_sweep(TINY).configs() if c.task == "S3" and c.depth == 1)
    return dataclasses.replace(base, **LONG_RUN)


@pytest.fixture(scope="module")
def uninterrupted():
    """The result of ``_long_run()`` trained in one go, in this process."""
    return train(_long_run(), device="cpu", threads=1)


class _CheckpointStep:
    """``step()``: the step of the checkpoint file ``path`` (replaced atomically: a new inode
    each time), -1 while there is none; the file is read again only when it was replaced."""

    def __init__(self, path: Path):
        self.path, self.seen, self.value = path, None, -1

    def step(self) -> int:
        import torch

        try:
            st = self.path.stat()
        except FileNotFoundError:
            return -1
        if (st.st_ino, st.st_mtime_ns) != self.seen:
            self.seen = st.st_ino, st.st_mtime_ns
            self.value = int(torch.load(self.path, map_location="cpu", weights_only=False)["step"])
        return self.value


def _stop_mid_run(res, key, step, alive, timeout=120.0) -> tuple[list[dict], dict | None]:
    """Stop (SIGSTOP) the Ray task training ``key`` once the driver has stored its checkpoint of a
    step >= ``step``; returns the events then and the task's start event, the task stopped for
    the caller to kill it (or its driver), or ``([], None)`` when ``alive()`` turned false or on
    timeout (the task let go).

    From its start event on, the task trains in slices of 20 ms (SIGCONT, sleep, SIGSTOP), and
    between two slices the checkpoint in its scratch store is read: once it has written the
    checkpoint of ``step``, it gets a slice only every 0.3 s until the driver holds that
    checkpoint. So it cannot run to its end (many slices of training) before the kill, however
    loaded the machine (a slice trains a few steps at most), and a run several times longer than
    ``step`` is killed mid-run."""
    deadline, start, stopped = time.time() + timeout, None, False
    try:
        while time.time() < deadline and alive():
            ev = read_events(res)
            if start is None:
                started = _by_key(ev, key, "start")
                if not started:
                    time.sleep(0.01)
                    continue
                start = started[-1]
                pid = start["pid"]
                scratch = _CheckpointStep(Path(start["scratch"]) / "checkpoints" / f"{key}.pt")
                os.kill(pid, signal.SIGSTOP)
                stopped = True
            if any(e["step"] >= step for e in _by_key(ev, key, "checkpoint")):
                stopped = False  # handed over, stopped
                return ev, start
            os.kill(pid, signal.SIGCONT)
            time.sleep(0.02)
            os.kill(pid, signal.SIGSTOP)
            if scratch.step() >= step:  # written: wait for the driver to store it
                time.sleep(0.3)
        return [], None
    finally:
        if stopped:
            os.kill(pid, signal.SIGCONT)


def _assert_complete_run(store, cfg, uninterrupted):
    rec = store.get(cfg)
    assert rec.status == "finished" and store.load_checkpoint(cfg)["step"] == cfg.steps
    every = list(range(cfg.log_every, cfg.steps + 1, cfg.log_every))
    assert [pt["step"] for pt in store.metrics(cfg)] == every  # the curve has no hole
    # on CPU a resumed run is bit-identical to an uninterrupted one
    assert rec.result["curve"] == uninterrupted["curve"]
    assert rec.result["test"] == uninterrupted["test"]


def test_driver_owns_the_store_on_a_two_node_cluster(cluster):
    # the guard is live on the worker nodes: a task cannot even open a file in the driver's folder
    @ray.remote(num_cpus=1)
    def probe(path):
        open(path, "w").close()

    with pytest.raises(PermissionError, match="driver's folder"):
        ray.get(probe.remote(str(cluster.driver / "probe")))
    assert not (cluster.driver / "probe").exists()

    spec = load_sweep(TINY)  # 4 runs of 6 steps, checkpoint every 2 steps
    res = cluster.driver / "results"
    lines: list[str] = []
    final, errors = run_sweep(spec, res, backend="ray", workers=2, poll_s=0.2,
                              progress_every_s=2.0, stream_every_s=0.0, say=lines.append)
    assert errors == [] and final.complete and final.finished == 4, lines
    assert ray.is_initialized()  # connected by the caller: left connected

    store, ev = ResultsStore(res), read_events(res)
    starts = [e for e in ev if e["event"] == "start"]
    assert {e["node"] for e in starts} == set(cluster.nodes)  # 2 in flight, 1 CPU per node
    for cfg in spec.configs():
        key = config_key(cfg)
        (start,), (finish,) = _by_key(ev, key, "start"), _by_key(ev, key, "finish")
        assert start["attempt"] == finish["attempt"] == 1 and start["resume_step"] == 0
        assert start["pid"] != os.getpid() and start["node"] in cluster.nodes
        # the task trained in a scratch store in its own node's temporary folder, removed after
        scratch = Path(start["scratch"])
        assert scratch.is_relative_to(cluster.nodes[start["node"]]) and not scratch.exists()
        # mid-run checkpoints reached the driver before the end of the run
        streamed = [e["step"] for e in _by_key(ev, key, "checkpoint")]
        assert streamed and streamed == sorted(streamed) and streamed[-1] < cfg.steps
        assert all(s % cfg.checkpoint_every == 0 for s in streamed)
        # the driver's store holds result, full curve and final checkpoint
        rec = store.get(cfg)
        assert rec.status == "finished" and rec.result["test"]["test_length"] == 8
        assert [pt["step"] for pt in store.metrics(cfg)] == [2, 4, 6]
        assert [pt["step"] for pt in rec.result["curve"]] == [2, 4, 6]
        assert store.load_checkpoint(cfg)["step"] == cfg.steps
    load_model(spec.configs()[0], store)  # the final checkpoint is a usable model

    # a second invocation finds everything finished in the driver's store and dispatches nothing
    stamps = {r.key: r.updated for r in store.runs()}
    final2, errors2 = run_sweep(spec, res, backend="ray", workers=2, poll_s=0.2, say=lines.append)
    assert final2.complete and errors2 == [] and len(read_events(res)) == len(ev)
    assert {r.key: r.updated for r in store.runs()} == stamps


def test_cuda_on_a_cluster_without_a_gpu_is_refused_not_left_waiting(cluster):
    """A task asking for a GPU that no node of the cluster has would wait forever: refused up
    front, from the cluster's resources (not this machine's), before any run is claimed."""
    res = cluster.driver / "results_cuda"
    with pytest.raises(ValueError, match="Ray cluster has no GPU"):
        run_sweep(load_sweep(TINY).configs()[:1], res, backend="ray", workers=1, device="cuda",
                  address=cluster.address, progress_every_s=1.0)
    assert ray.is_initialized()  # connected by the caller: left connected
    assert not ResultsStore(res).runs()  # nothing claimed


def test_killed_worker_resumes_from_the_driver_checkpoint(cluster, uninterrupted):
    cfg = _long_run()
    key = config_key(cfg)
    res = cluster.driver / "results_kill"
    out: dict = {}

    def sweep():
        try:
            out["final"], out["errors"] = run_sweep([cfg], res, backend="ray", workers=1,
                                                    lease_s=5.0, poll_s=0.1, stream_every_s=0.0,
                                                    say=lambda s: None)
        except BaseException as exc:  # reported by the assertion below
            out["exc"] = exc

    t = threading.Thread(target=sweep, daemon=True)
    t.start()
    ev, killed = _stop_mid_run(res, key, KILL_AT, t.is_alive)
    assert ev, f"no mid-run checkpoint reached the driver: {out}"
    assert _by_key(ev, key, "start") == [killed]
    os.kill(killed["pid"], signal.SIGKILL)
    t.join(180)
    assert not t.is_alive() and "exc" not in out, out
    assert out["errors"] == [] and out["final"].complete

    ev = read_events(res)
    starts, (lost,) = _by_key(ev, key, "start"), _by_key(ev, key, "lost")
    (finish,) = _by_key(ev, key, "finish")  # finished once
    assert [s["attempt"] for s in starts] == [1, 2] and lost["attempt"] == 1
    assert finish["attempt"] == 2 and starts[1]["pid"] != killed["pid"]
    held = max(e["step"] for e in _by_key(ev, key, "checkpoint") if e["attempt"] == 1)
    # the second task resumed from the newest checkpoint the driver held, not from scratch
    assert KILL_AT <= held < cfg.steps and starts[1]["resume_step"] == held
    # SIGKILL left the killed task's scratch store in its node's temporary folder
    scratch = Path(killed["scratch"])
    assert scratch.is_relative_to(cluster.nodes[killed["node"]]) and scratch.is_dir()
    _assert_complete_run(ResultsStore(res), cfg, uninterrupted)


_DRIVER = """
import dataclasses, json, sys
from seqtheory.models.sweep import load_sweep, run_sweep
base = next(c for c in load_sweep(sys.argv[1]).configs() if c.task == "S3" and c.depth == 1)
cfg = dataclasses.replace(base, **json.loads(sys.argv[4]))
run_sweep([cfg], sys.argv[2], backend="ray", address=sys.argv[3], lease_s=3.0, poll_s=0.1,
          stream_every_s=0.0)
"""


def test_killed_driver_resumes_from_its_store_alone(cluster, uninterrupted, tmp_path):
    """SIGKILL of the driver process (its Ray job and tasks die with it); a new driver resumes
    the run from the checkpoint in the results store once the dead driver's lease expires."""
    cfg = _long_run()
    key = config_key(cfg)
    res = cluster.driver / "results_driver_kill"
    log = (tmp_path / "driver.log").open("w")
    proc = subprocess.Popen([sys.executable, "-c", _DRIVER, str(TINY), str(res), cluster.address,
                             json.dumps(LONG_RUN)],
                            stdout=log, stderr=subprocess.STDOUT)
    task = None
    try:
        ev, task = _stop_mid_run(res, key, KILL_AT, lambda: proc.poll() is None)
        assert ev, (tmp_path / "driver.log").read_text()[-3000:]
    finally:
        proc.kill()  # the task is stopped: the driver dies with the run unfinished
        proc.wait(30)
        log.close()
        if task is not None:  # let it go: it dies with its driver's job
            os.kill(task["pid"], signal.SIGCONT)
    held = max(e["step"] for e in _by_key(read_events(res), key, "checkpoint"))
    assert ResultsStore(res).load_checkpoint(cfg)["step"] == held < cfg.steps

    final, errors = run_sweep([cfg], res, backend="ray", workers=1, lease_s=3.0, poll_s=0.2,
                              stream_every_s=0.0, say=lambda s: None)
    assert errors == [] and final.complete
    ev = read_events(res)
    starts, (finish,) = _by_key(ev, key, "start"), _by_key(ev, key, "finish")
    assert len(starts) == 2 and starts[1]["resume_step"] == held and not _by_key(ev, key, "lost")
    assert finish["owner"] == starts[1]["owner"] != starts[0]["owner"]
    _assert_complete_run(ResultsStore(res), cfg, uninterrupted)


def test_run_lost_beyond_ray_retries_fails_then_resumes_next_invocation(cluster, uninterrupted):
    """With ``ray_retries=0`` a killed task marks its run failed (no endless re-dispatch); the
    next invocation takes the failed run up again from the driver's checkpoint."""
    cfg = _long_run()
    key = config_key(cfg)
    res = cluster.driver / "results_retries"
    out: dict = {}

    def sweep():
        out["final"], out["errors"] = run_sweep([cfg], res, backend="ray", lease_s=5.0,
                                                poll_s=0.1, stream_every_s=0.0, ray_retries=0,
                                                say=lambda s: None)

    t = threading.Thread(target=sweep, daemon=True)
    t.start()
    ev, killed = _stop_mid_run(res, key, KILL_AT, t.is_alive)
    assert ev, "no mid-run checkpoint reached the driver"
    assert _by_key(ev, key, "start") == [killed]
    os.kill(killed["pid"], signal.SIGKILL)
    t.join(120)
    assert not t.is_alive() and out["errors"] == []
    assert out["final"].failed == 1 and not out["final"].complete
    store = ResultsStore(res)
    rec = store.get(cfg)
    assert rec.status == "failed" and rec.error.startswith("Ray task lost on 1 attempt (ray_retries=0)")
    held = store.load_checkpoint(cfg)["step"]
    assert KILL_AT <= held < cfg.steps and len(_by_key(read_events(res), key, "start")) == 1

    final, errors = run_sweep([cfg], res, backend="ray", poll_s=0.1, stream_every_s=0.0,
                              say=lambda s: None)
    assert errors == [] and final.complete
    starts = _by_key(read_events(res), key, "start")
    assert len(starts) == 2 and starts[1]["resume_step"] == held
    _assert_complete_run(store, cfg, uninterrupted)

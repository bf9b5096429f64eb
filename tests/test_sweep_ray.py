"""The Ray backend of `seqtheory sweep` on a local Ray instance (one CPU): runs are trained by
Ray worker processes and stored by the driver exactly once; failures in a task and in the driver
are recorded. The multi-node case is in tests/test_sweep_ray_cluster.py."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

ray = pytest.importorskip("ray", reason="ray is not installed (pip install 'seqtheory[sweeps]')")

from seqtheory.models.store import ResultsStore, config_key  # noqa: E402
from seqtheory.models.sweep import load_sweep, read_events, run_sweep  # noqa: E402

TINY = Path(__file__).resolve().parents[1] / "sweeps" / "tiny.toml"


def test_ray_backend_local_instance(tmp_path):
    """Two runs train in Ray worker processes; a run whose checkpoint in the driver's store does
    not fit its model fails in its task (not retried: an exception of ``train``), and a run whose
    checkpoint is damaged fails in the driver, with the driver's file named."""
    assert not ray.is_initialized()
    spec = load_sweep(TINY)
    configs = spec.configs()
    good = [c for c in configs if c.task == "S3"]
    misfit, damaged = [c for c in configs if c.task == "C3"]
    res = tmp_path / "results"
    store = ResultsStore(res)
    store.save_checkpoint(misfit, {"model": {}, "step": 2})
    store.checkpoint_path(damaged).write_bytes(b"not a checkpoint")
    lines: list[str] = []
    try:
        final, errors = run_sweep(configs, res, backend="ray", workers=1, lease_s=spec.lease_s,
                                  poll_s=0.2, progress_every_s=2.0, stream_every_s=3600.0,
                                  say=lines.append)
    finally:
        if ray.is_initialized():  # run_sweep shuts down the instance it started; be sure
            ray.shutdown()
    assert errors == [] and final.finished == 2 and final.failed == 2, lines
    assert not ray.is_initialized()
    assert {r.key for r in store.runs("finished")} == {config_key(c) for c in good}
    ev = read_events(res)
    starts = [e for e in ev if e["event"] == "start"]
    assert sorted(e["key"] for e in starts) == sorted(config_key(c) for c in (*good, misfit))
    # trained in a Ray worker process, not in this one (owner = host:pid:random)
    assert all(e["pid"] != os.getpid() and int(e["owner"].split(":")[1]) == e["pid"]
               for e in starts)
    assert all(r.result["test"]["test_length"] == 8 for r in store.runs("finished"))
    # no mid-run checkpoint within stream_every_s: the end of the run brings the final
    # checkpoint and the whole curve
    assert not [e for e in ev if e["event"] == "checkpoint"]
    for cfg in good:
        assert store.load_checkpoint(cfg)["step"] == cfg.steps
        assert [pt["step"] for pt in store.metrics(cfg)] == [2, 4, 6]
    fails = {e["key"]: e for e in ev if e["event"] == "fail"}
    assert set(fails) == {config_key(misfit), config_key(damaged)}
    assert [e["resume_step"] for e in starts if e["key"] == config_key(misfit)] == [2]
    assert "state_dict" in fails[config_key(misfit)]["error"]
    assert str(store.checkpoint_path(damaged)) in store.get(damaged).error
    assert not [e for e in ev if e["event"] == "lost"]


def test_ray_cuda_without_a_gpu_is_refused_not_left_waiting(tmp_path):
    """A task asking for a GPU that no Ray node has would wait forever: refused up front for a
    local instance (this machine), before Ray is started. (A cluster without GPUs, refused by
    its resources: tests/test_sweep_ray_cluster.py.)"""
    import torch

    if torch.cuda.is_available():
        pytest.skip("this machine has a GPU")
    configs = load_sweep(TINY).configs()[:1]
    with pytest.raises(ValueError, match="no CUDA GPU"):
        run_sweep(configs, tmp_path / "a", backend="ray", workers=1, device="cuda")
    assert not ray.is_initialized()
    assert not ResultsStore(tmp_path / "a").runs()  # nothing claimed

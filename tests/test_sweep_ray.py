"""The Ray backend of `seqtheory sweep` on a local Ray instance (one CPU): every run of a tiny
grid is trained by a Ray worker process and stored exactly once."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

ray = pytest.importorskip("ray", reason="ray is not installed (pip install 'seqtheory[sweeps]')")

from seqtheory.models.store import ResultsStore, config_key  # noqa: E402
from seqtheory.models.sweep import load_sweep, read_events, run_sweep  # noqa: E402

TINY = Path(__file__).resolve().parents[1] / "sweeps" / "tiny.toml"


def test_ray_backend_local_instance(tmp_path):
    assert not ray.is_initialized()
    spec = load_sweep(TINY)
    configs = [c for c in spec.configs() if c.task == "S3"]  # 2 runs: Ray start-up dominates
    res = tmp_path / "results"
    lines: list[str] = []
    try:
        final, errors = run_sweep(configs, res, backend="ray", workers=1, lease_s=spec.lease_s,
                                  poll_s=0.2, progress_every_s=2.0, say=lines.append)
    finally:
        if ray.is_initialized():  # run_sweep shuts down the instance it started; be sure
            ray.shutdown()
    assert errors == [] and final.complete and final.finished == 2, lines
    assert not ray.is_initialized()
    store = ResultsStore(res)
    assert {r.key for r in store.runs("finished")} == {config_key(c) for c in configs}
    ev = read_events(res)
    starts = [e for e in ev if e["event"] == "start"]
    assert sorted(e["key"] for e in starts) == sorted(config_key(c) for c in configs)
    # trained in a Ray worker process, not in this one (owner = host:pid:random)
    assert all(int(e["owner"].split(":")[1]) != os.getpid() for e in starts)
    assert all(r.result["test"]["test_length"] == 8 for r in store.runs("finished"))

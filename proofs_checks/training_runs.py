"""How trained claims obtain their runs: the results store, the seeds, and one entry point for a
set of runs (:func:`run_many`).

Every training run of a claim goes through the results store (``ctx.results_dir``, else
``<out_dir>/results``, else the seqtheory cache folder): a run already finished there is read,
never retrained. Seeds come from the run seed by fixed salts (:func:`seeds`), never chosen after
the fact. ``quick`` runs :data:`QUICK_SEEDS` seeds per cell, ``full`` :data:`FULL_SEEDS`.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Sequence

from seqtheory.proofs_checks.registry import Context

__all__ = ["QUICK_SEEDS", "FULL_SEEDS", "n_seeds", "seeds", "store", "run_many", "cpu_workers"]

QUICK_SEEDS = 3
FULL_SEEDS = 5


def n_seeds(ctx: Context) -> int:
    """Seeds per cell in the profile of ``ctx``."""
    return QUICK_SEEDS if ctx.quick else FULL_SEEDS


def seeds(ctx: Context, salt: str, n: int) -> list[int]:
    """``n`` training seeds (31-bit ints) derived from the run seed and the fixed ``salt``;
    seed ``i`` does not depend on ``n`` (so ``full`` extends ``quick``'s seeds)."""
    if not isinstance(n, int) or n < 1:
        raise ValueError(f"n must be a positive int, got {n!r}")
    return [ctx.numpy_seed(f"{salt}:seed{i}") % 2**31 for i in range(n)]


def store(ctx: Context):
    """The results store of ``ctx`` (see the module docstring)."""
    from seqtheory.models.store import ResultsStore
    from seqtheory.theory._io import cache_dir

    if ctx.results_dir is not None:
        root = Path(ctx.results_dir)
    elif ctx.out_dir is not None:
        root = Path(ctx.out_dir) / "results"
    else:
        root = cache_dir("results")
    return ResultsStore(root)


def cpu_workers() -> int:
    """Processes for CPU training: the CPUs this process may use (one torch thread each)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - platforms without sched_getaffinity
        return max(1, os.cpu_count() or 1)


def _config_from_dict(d: dict):
    from seqtheory.models.train import TrainConfig

    return TrainConfig(**{k: tuple(v) if isinstance(v, list) else v for k, v in d.items()})


def _worker_main(argv: list[str]) -> None:
    """``python -m seqtheory.proofs_checks.training_runs STORE DEVICE CONFIGS.json``: train the
    configurations listed in the JSON file, one after the other, into the store."""
    import json

    from seqtheory.models.store import ResultsStore
    from seqtheory.models.train import train

    root, device, path = argv
    st = ResultsStore(root)
    for d in json.loads(Path(path).read_text()):
        train(_config_from_dict(d), store=st, device=device, threads=1, wait_s=3600.0)


def _train_in_processes(root: str, device: str, configs: Sequence[Any], workers: int) -> None:
    """Train ``configs`` in ``workers`` subprocesses (round-robin shards); RuntimeError naming
    the failure when a worker exits non-zero."""
    import dataclasses
    import json
    import subprocess
    import sys
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        procs = []
        for w in range(workers):
            path = Path(tmp) / f"shard{w}.json"
            path.write_text(json.dumps([dataclasses.asdict(c) for c in configs[w::workers]]))
            procs.append(subprocess.Popen(
                [sys.executable, "-m", "seqtheory.proofs_checks.training_runs", root, device, str(path)],
                stderr=subprocess.PIPE, env=dict(os.environ, OMP_NUM_THREADS="1")))
        errors = [p.communicate()[1] for p in procs]
        for p, err in zip(procs, errors):
            if p.returncode:
                raise RuntimeError(f"a training worker failed (exit {p.returncode}):\n"
                                   f"{err.decode(errors='replace')[-2000:]}")


def run_many(ctx: Context, configs: Sequence[Any]) -> list[dict]:
    """Results of the training runs ``configs`` (:class:`~seqtheory.models.train.TrainConfig`),
    in order: read from the store when finished there, else trained and stored. On CPU the runs
    not yet in the store are spread over :func:`cpu_workers` subprocesses (one torch thread each;
    every run is seeded, so the results do not depend on the number of processes); on CUDA they
    run in turn. Every set of runs of a trained claim goes through this one function, so a
    batched engine can replace it without touching the claims."""
    from seqtheory.models.train import train

    st = store(ctx)
    todo = [c for c in configs if st.result(c) is None]
    workers = min(cpu_workers(), len(todo)) if ctx.device == "cpu" else 1
    if workers > 1:
        _train_in_processes(str(st.root), ctx.device, todo, workers)
    return [train(cfg, store=st, device=ctx.device, threads=1 if ctx.device == "cpu" else None,
                  wait_s=3600.0) for cfg in configs]


if __name__ == "__main__":
    import sys

    _worker_main(sys.argv[1:])

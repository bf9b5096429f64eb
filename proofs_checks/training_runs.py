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


def _train_one(root: str, cfg, device: str) -> None:
    from seqtheory.models.store import ResultsStore
    from seqtheory.models.train import train

    train(cfg, store=ResultsStore(root), device=device, threads=1, wait_s=3600.0)


def run_many(ctx: Context, configs: Sequence[Any]) -> list[dict]:
    """Results of the training runs ``configs`` (:class:`~seqtheory.models.train.TrainConfig`),
    in order: read from the store when finished there, else trained and stored. On CPU the runs
    not yet in the store are spread over :func:`cpu_workers` processes (one torch thread each;
    every run is seeded, so the results do not depend on the number of processes); on CUDA they
    run in turn. Every set of runs of a trained claim goes through this one function, so a
    batched engine can replace it without touching the claims."""
    from seqtheory.models.train import train

    st = store(ctx)
    todo = [c for c in configs if st.result(c) is None]
    workers = min(cpu_workers(), len(todo)) if ctx.device == "cpu" else 1
    if workers > 1:
        import multiprocessing as mp
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(workers, mp_context=mp.get_context("spawn")) as pool:
            for f in [pool.submit(_train_one, str(st.root), c, ctx.device) for c in todo]:
                f.result()
    return [train(cfg, store=st, device=ctx.device, threads=1 if ctx.device == "cpu" else None,
                  wait_s=3600.0) for cfg in configs]

"""Pieces the claim checks of [HEAD] (A. Somasundaram et al., arXiv:2608.22253) share: the
log-softmax, the random logit pairs the Hilbert-metric checks run on, two tolerances, and for the
trained head experiments (``head.exp.rownorm_vs_adamw`` and its width sweep) the stored result of
a configuration and the negative control's AdamW-in-both-arms comparison.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from .registry import Context
from .training_runs import from_bundle, store

__all__ = ["TOL_BOUND", "SOLVER_TOL", "log_softmax", "logit_pairs", "stored_result",
           "adamw_in_both_arms"]

#: slack of an inequality checked in float64 (``ratio ≤ 1 + TOL_BOUND``)
TOL_BOUND = 1e-12
#: tolerance of a value from a conic solver (Clarabel, :mod:`seqtheory.numerics.head_oracles`)
SOLVER_TOL = 1e-6


def log_softmax(z: np.ndarray) -> np.ndarray:
    """``log softmax`` along the last axis of the float array ``z`` (max subtracted first)."""
    m = z.max(axis=-1, keepdims=True)
    return z - m - np.log(np.exp(z - m).sum(axis=-1, keepdims=True))


def logit_pairs(rng: np.random.Generator, n: int):
    """``n`` pairs of logit vectors drawn from ``rng``: V from 2 to 12, scales 1e-3 … 1e3 (incl.
    probabilities < 1e-300)."""
    for k in range(n):
        V = 2 + k % 11
        scale = [1e-3, 1.0, 30.0, 1e3][k % 4]
        yield rng.normal(size=V) * scale, rng.normal(size=V) * scale


def stored_result(ctx: Context, cfg: Any, compute) -> dict:
    """The result stored under ``cfg`` in the store of ``ctx``: read when finished there (or from
    the evidence bundle of ``ctx``, never computed then), else ``compute()`` (a dict) is run
    and stored (:meth:`~seqtheory.models.store.ResultsStore.compute_once`: when another live
    worker is computing it, this waits for that worker's result)."""
    if ctx.evidence is not None:                 # read from the bundle, never run here
        return from_bundle(ctx, [cfg])[0]
    return store(ctx).compute_once(cfg, compute)


def adamw_in_both_arms(res: dict) -> dict:
    """A stored comparison ``res`` with its RowNorm arm replaced by the AdamW runs paired seed
    s ↔ s+1, and the summary recomputed: the negative control of the head experiments."""
    from seqtheory.models.lm_experiment import summarise

    a = res["runs"]["adamw"]
    shifted = a[1:] + a[:1]
    return dict(res, runs={"adamw": a, "rownorm": shifted}, summary=summarise(a, shifted))

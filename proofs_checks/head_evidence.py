"""Pieces the claim checks of [HEAD] (A. Somasundaram et al., arXiv:2608.22253) share: the
log-softmax, the random logit pairs the Hilbert-metric checks run on, and two tolerances.
"""
from __future__ import annotations

import numpy as np

__all__ = ["TOL_BOUND", "SOLVER_TOL", "log_softmax", "logit_pairs"]

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

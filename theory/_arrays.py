"""Input checking and exact power-of-two scaling for real arrays (shared by
:mod:`seqtheory.theory.hilbert` and :mod:`seqtheory.numerics.head_oracles`).

numpy only. ``as_array`` / ``as_rows`` turn user input into finite float64 arrays and raise
``TypeError`` (non-numeric, complex) or ``ValueError`` (NaN/inf, shape) naming the caller's
argument; ``pow2_exponent`` gives the exponent ``e`` of a power of two ``2^e`` within a factor two
of ``max|a|``, so that dividing by it (``np.ldexp(a, -e)``) is exact for normal numbers and brings
the entries into ``[-1, 1]``: products, squares and sums of the scaled entries neither overflow
nor underflow.
"""
from __future__ import annotations

import math

import numpy as np

from ._messages import counted
from .contract import real_array

__all__ = ["UNIT_ROUNDOFF", "as_array", "as_rows", "pow2_exponent", "pow2_scale"]

UNIT_ROUNDOFF = np.finfo(np.float64).eps / 2


def as_array(x, name: str, ndim: int | None = None, min_ndim: int = 0) -> np.ndarray:
    """``x`` as a finite float64 array: :func:`seqtheory.theory.contract.real_array` (TypeError for
    non-numeric, boolean or complex input, ValueError for NaN/inf or the number of dimensions)."""
    return real_array(x, name, ndim, min_ndim)


def as_rows(S, name: str = "S", min_rows: int = 1) -> np.ndarray:
    """``S`` as a finite float64 ``(V, d)`` array with ``V ≥ min_rows`` and ``d ≥ 1``."""
    a = as_array(S, name, ndim=2)
    if a.shape[0] < min_rows or a.shape[1] < 1:
        raise ValueError(f"{name} must have at least {counted(min_rows, 'row')} and one column, "
                         f"got shape {a.shape}")
    return a


def pow2_exponent(a: np.ndarray) -> int | None:
    """``e`` with ``max|a| < 2^e ≤ 2·max|a|`` (``None`` for an all-zero or empty array)."""
    m = float(np.abs(a).max()) if a.size else 0.0
    return None if m == 0.0 else math.frexp(m)[1]


def pow2_scale(a: np.ndarray) -> float:
    """``2^e`` of :func:`pow2_exponent` (0.0 for an all-zero array; it may overflow to ``inf`` only
    when ``max|a|`` is within a factor two of the float64 maximum — use the exponent then)."""
    e = pow2_exponent(a)
    return 0.0 if e is None else math.ldexp(1.0, e) if e < 1024 else math.inf

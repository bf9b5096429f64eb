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
import numbers

import numpy as np

from ._messages import counted, shown

__all__ = ["UNIT_ROUNDOFF", "as_array", "as_rows", "pow2_exponent", "pow2_scale"]

UNIT_ROUNDOFF = np.finfo(np.float64).eps / 2


def as_array(x, name: str, ndim: int | None = None, min_ndim: int = 0) -> np.ndarray:
    """``x`` as a finite float64 array; TypeError for non-numeric, ValueError for NaN/inf/shape.

    ``x``: a numpy array of any real dtype, or nested lists / tuples / a sympy matrix of real
    numbers: ints, Fractions, sympy and python-flint rationals (rounded to the nearest float64,
    as LieAlgebra reads them before a float computation), floats, mpmath ``mpf``, sympy real
    constants (``sqrt(2)``). Booleans, strings, complex numbers and symbols are refused."""
    try:
        a = np.asarray(x)
    except Exception as exc:  # pragma: no cover - exotic objects
        raise TypeError(f"{name} must be array-like of real numbers: {exc}") from None
    if a.dtype == object:
        a = np.vectorize(lambda v: _real_to_float(v, name), otypes=[np.float64])(a) \
            if a.size else a.astype(np.float64)
    if not np.issubdtype(a.dtype, np.number) or a.dtype == np.bool_:
        raise TypeError(f"{name} must hold real numbers, got dtype {a.dtype}")
    if np.iscomplexobj(a):
        raise TypeError(f"{name} must be real, got a complex array")
    a = a.astype(np.float64, copy=False)
    if ndim is not None and a.ndim != ndim:
        raise ValueError(f"{name} must be {ndim}-D, got shape {a.shape}")
    if a.ndim < min_ndim:
        raise ValueError(f"{name} must have at least {counted(min_ndim, 'dimension')}, got shape {a.shape}")
    if not np.all(np.isfinite(a)):
        raise ValueError(f"{name} contains NaN or inf")
    return a


def _real_to_float(v, name: str) -> float:
    """One entry of an object array as the nearest float64 (an exact rational is rounded once,
    correctly: ``int / int`` true division); ``TypeError`` naming ``name`` for a non-real,
    ``ValueError`` for a number beyond the float64 range."""
    if isinstance(v, (bool, np.bool_, str, bytes)):
        raise TypeError(f"{name}: entry {shown(v)} is not a real number")
    try:
        if isinstance(v, numbers.Rational):
            return int(v.numerator) / int(v.denominator)
        if isinstance(v, numbers.Real):
            return float(v)
        if type(v).__module__.startswith("flint") and type(v).__name__ in ("fmpz", "fmpq"):
            return int(v.p) / int(v.q) if hasattr(v, "q") else float(int(v))
        if type(v).__module__.startswith("sympy") and getattr(v, "is_real", False) \
                and not getattr(v, "free_symbols", True):
            return float(v)
    except OverflowError:
        raise ValueError(f"{name}: entry {type(v).__name__} beyond the float64 range "
                         "(≈ 1.8e308); rescale it") from None
    raise TypeError(f"{name}: entry {shown(v)} ({type(v).__name__}) is not a real number")


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

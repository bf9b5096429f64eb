"""Matrices given by a user, as rows of a field: the input layer of
:meth:`~seqtheory.theory.lie.LieAlgebra.spanned_by` / :meth:`~seqtheory.theory.lie.LieAlgebra.generated_by`.

:func:`matrix_rows` reads a non-empty sequence of ``n x n`` matrices -- nested lists or tuples,
numpy arrays of any integer, float or ``object`` dtype (or one 3-D array), sympy Matrices --
whose entries are ints / numpy integers, ``fractions.Fraction`` / sympy Rationals (exact over Q),
floats (the float path, field ``"RR"``), or other sympy numbers (the number field they generate,
see :func:`~seqtheory.theory.linalg.detect_field`), and returns the matrices flattened row-major
as rows in the field's representation:

* ``"QQ"``: a ``(T, n*n)`` integer array (``int64`` when every entry is below 2**62 in absolute
  value, else ``object`` of Python ints), each row the matrix times the least common multiple of
  its denominators (a positive scale, so the span is unchanged; exact);
* ``"RR"``: a ``(T, n*n)`` ``float64`` array (also for exact entries when ``tol`` is given);
* a sympy domain: lists of the entries (converted by the caller).

Speed: the entries are checked per *type*, not per entry -- one pass collects the set of entry
types; when every type is a known number type, the conversion is a few vectorised passes
(numerators and denominators read once, ``numpy`` for the integer and float arrays). Any other
type (booleans, strings, complex numbers, sympy irrationals or Floats, ...) or any irregular
shape goes to the checked path, which inspects every entry and raises the errors below.

Errors: ``ValueError`` for one 2-D array (a single matrix, not a sequence), an empty sequence, a
non-square, 0x0 or mismatched matrix, NaN/inf, an integer too large for ``float64`` on the float
path; ``TypeError`` for a non-sequence, booleans, strings, complex numbers. Messages name the
argument and the matrix (``mats[t]``).
"""
from __future__ import annotations

import math
import operator
import sys
from fractions import Fraction
from typing import Any

import numpy as np

from .contract import check_float64
from .linalg import check_number, as_int_rows, detect_field

__all__ = ["matrix_rows"]

_INT64_SAFE = 2 ** 62
_FLOAT = "float"
_INT = "int"
_RATIONAL = "rational"
_NUMERATOR = operator.attrgetter("numerator")
_DENOMINATOR = operator.attrgetter("denominator")
_SYMPY_P, _SYMPY_Q = operator.attrgetter("p"), operator.attrgetter("q")   # sympy Rational


def matrix_rows(mats: Any, name: str = "mats", tol: float | None = None) -> tuple[Any, int, Any]:
    """``(rows, n, field)`` for the sequence of square matrices ``mats`` (see the module doc).

    ``tol`` not ``None`` requests the float path (field ``"RR"``) whatever the entries."""
    if isinstance(mats, np.ndarray) and mats.ndim == 2:
        raise ValueError(f"{name} must be a sequence of square matrices, got one 2-D array")
    check_float64(name, mats)
    try:
        ms = list(mats)
    except TypeError as exc:
        raise TypeError(f"{name} must be a sequence of square matrices") from exc
    for t, m in enumerate(ms):
        check_float64(f"{name}[{t}]", m)
    if not ms:
        raise ValueError(f"{name} is empty: give at least one matrix")
    if tol is None:
        fast = _integer_arrays(ms)
        if fast is not None:
            return fast[0], fast[1], "QQ"
    flat = _flat_entries(ms)
    if flat is not None:
        out = _typed_rows(flat[0], len(ms), flat[1], name, tol)
        if out is not None:
            return out
    return _checked_rows(ms, name, tol)


# ----------------------------------------------------------------------------- fast paths
def _integer_arrays(ms: list) -> tuple[np.ndarray, int] | None:
    """When every entry of ``ms`` is a square numpy integer array (not bool) of one common size
    ``n >= 1``: ``(rows, n)``, the rows ``(len(ms), n*n)`` as ``int64`` (``object`` beyond
    2**62); else ``None``."""
    n = None
    for m in ms:
        if not isinstance(m, np.ndarray) or m.dtype.kind not in "iu" or m.ndim != 2 \
                or m.shape[0] != m.shape[1] or m.shape[0] == 0 \
                or (n is not None and m.shape[0] != n):
            return None
        n = m.shape[0]
    if np.result_type(*ms).kind not in "iu":   # e.g. int64 with uint64: numpy would give float64
        return as_int_rows(np.stack([m.astype(object) for m in ms]).reshape(len(ms), n * n)), n
    stack = np.stack(ms).reshape(len(ms), n * n)
    if max(int(stack.max()), -int(stack.min())) >= _INT64_SAFE:   # beyond the int64 fast range
        return as_int_rows(stack.astype(object)), n
    return stack.astype(np.int64), n


def _flat_entries(ms: list) -> tuple[list, int] | None:
    """All entries of ``ms``, row-major, matrix after matrix, and the common size ``n``; ``None``
    when a matrix is not a regular square ``n x n`` nesting (the checked path then explains)."""
    flat: list = []
    n = None
    for m in ms:
        if isinstance(m, np.ndarray):
            if m.ndim != 2 or m.shape[0] != m.shape[1]:
                return None
            k = m.shape[0]
            flat.extend(m.ravel().tolist())
        else:
            if hasattr(m, "tolist") and hasattr(m, "shape"):   # sympy Matrix
                m = m.tolist()
            if not isinstance(m, (list, tuple)):
                return None
            k = len(m)
            for r in m:
                if not isinstance(r, (list, tuple)) or len(r) != k:
                    return None
                flat.extend(r)
        if k == 0 or (n is not None and k != n):
            return None
        n = k
    return flat, n


def _kind(tp: type) -> str | None:
    """The number kind of an entry type (``None``: not a type the fast path knows)."""
    if tp is int or (issubclass(tp, np.integer)):
        return _INT
    if tp is float or issubclass(tp, np.floating):
        return _FLOAT
    if issubclass(tp, Fraction):
        return _RATIONAL
    sympy = sys.modules.get("sympy")   # an entry of a sympy type means sympy is imported
    if sympy is not None and issubclass(tp, sympy.Rational):
        return _INT if issubclass(tp, sympy.Integer) else _RATIONAL
    return None


def _typed_rows(flat: list, T: int, n: int, name: str, tol: float | None):
    """The fast conversion of :func:`matrix_rows` when every entry type is known, else ``None``."""
    kinds = {tp: _kind(tp) for tp in set(map(type, flat))}
    if None in kinds.values():
        return None
    for tp in kinds:                     # np.float32 / np.float16 entries: refused, named
        if issubclass(tp, np.generic):
            check_float64(name, next(x for x in flat if type(x) is tp))
    N = n * n
    if tol is not None or _FLOAT in kinds.values():
        return _float_rows(flat, kinds, T, N, name), n, "RR"
    if all(tp is int or issubclass(tp, np.integer) for tp in kinds):
        return _int_rows(flat, T, N), n, "QQ"
    sympy = sys.modules.get("sympy")
    if sympy is not None and all(issubclass(tp, sympy.Rational) for tp in kinds):
        nums, dens = list(map(_SYMPY_P, flat)), list(map(_SYMPY_Q, flat))   # Python ints
    elif set(kinds) == {Fraction}:   # the properties' getters, called directly (no lookup)
        nums, dens = list(map(Fraction.numerator.fget, flat)), list(map(Fraction.denominator.fget, flat))
    else:
        nums, dens = list(map(_NUMERATOR, flat)), list(map(_DENOMINATOR, flat))
        if any(tp is not int and tp is not Fraction for tp in kinds):   # numpy / sympy numbers
            nums, dens = list(map(int, nums)), list(map(int, dens))
    if set(dens) != {1}:
        nums = _clear_denominators(nums, dens, N)
    return _int_rows(nums, T, N), n, "QQ"


def _clear_denominators(nums: list, dens: list, N: int) -> list:
    """``nums`` (consecutive rows of length ``N``) with each row multiplied by the least common
    multiple of its denominators ``dens`` (exact integers)."""
    out = []
    for s in range(0, len(nums), N):
        drow = dens[s:s + N]
        L = math.lcm(*set(drow))
        out.extend(a * (L // d) for a, d in zip(nums[s:s + N], drow))
    return out


def _int_rows(ints: list, T: int, N: int) -> np.ndarray:
    """Python / numpy integers as ``(T, N)`` rows: ``int64`` below 2**62, else ``object``."""
    try:
        arr = np.array(ints, dtype=np.int64).reshape(T, N)
    except OverflowError:
        return as_int_rows(np.array([int(x) for x in ints], dtype=object).reshape(T, N))
    if arr.size and max(int(arr.max()), -int(arr.min())) >= _INT64_SAFE:
        return as_int_rows(arr.astype(object))
    return arr


def _float_rows(flat: list, kinds: dict, T: int, N: int, name: str) -> np.ndarray:
    """The entries as ``(T, N)`` ``float64`` rows (each rational correctly rounded)."""
    try:
        if all(tp is int or tp is float or issubclass(tp, (np.integer, np.floating)) for tp in kinds):
            arr = np.array(flat, dtype=np.float64)
        else:
            arr = np.array([float(x) for x in flat], dtype=np.float64)
    except OverflowError:
        raise ValueError(f"{name}: an entry is too large for the float path (float64); "
                         f"use exact entries only (ints / Fractions) for the exact path") from None
    arr = arr.reshape(T, N)
    bad = ~np.isfinite(arr)
    if bad.any():
        t, j = np.argwhere(bad)[0]
        raise ValueError(f"{name}[{t}]: entry {flat[t * N + j]!r} is NaN or infinite")
    return arr


# ----------------------------------------------------------------------------- checked path
def _checked_rows(ms: list, name: str, tol: float | None):
    """Every entry inspected: shapes, types, NaN/inf; the field detected from all entries."""
    rows, n = [], None
    for t, m in enumerate(ms):
        if hasattr(m, "tolist") and not isinstance(m, np.ndarray):
            m = m.tolist()  # sympy Matrix
        a = np.asarray(m, dtype=object)
        if a.ndim != 2 or a.shape[0] != a.shape[1]:
            raise ValueError(f"{name}[{t}] must be a square matrix, got shape {a.shape}")
        if n is None:
            n = a.shape[0]
        elif a.shape[0] != n:
            raise ValueError(f"{name}[{t}] is {a.shape[0]}x{a.shape[0]}, expected {n}x{n} like {name}[0]")
        if n == 0:
            raise ValueError(f"{name}[{t}] is a 0x0 matrix")
        for x in a.flat:
            check_number(x, f"{name}[{t}]")
        rows.append(list(a.ravel()))
    field = detect_field(x for r in rows for x in r)
    if tol is not None and field != "RR":
        field = "RR"  # explicit tolerance requests the float path
    return rows, n, field

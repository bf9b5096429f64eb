"""Integer row arithmetic for exact linear algebra over Q: rows as ``int64`` when a bound proves
every entry (and every partial sum) fits, else as Python integers (``object`` arrays); exact
products (float64 BLAS below 2**53, numpy ``int64``, FLINT ``fmpz_mat`` beyond), primitive rows,
distinct rows, greedy independent rows and RREF helpers (FLINT).

Errors: ``TypeError`` from :func:`as_int_rows` for non-integer entries. Source: fraction-free
elimination as implemented in FLINT; Golub & Van Loan, *Matrix Computations*, §3.2.
"""
from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["as_int_rows", "is_int64", "maxabs", "int64_matmul", "exact_matmul", "primitive_rows",
           "unique_rows", "independent_rows", "reduced_echelon", "fmpz_rows", "rref_pivots",
           "stack_int", "INT64_SAFE"]

INT64_SAFE = 2 ** 62


def is_int64(a: np.ndarray) -> bool:
    return a.dtype == np.int64


def as_int_rows(a: Any) -> np.ndarray:
    """An integer 2-D array as ``int64`` when every entry fits below 2**62, else ``object``
    (Python ints). Input: array-like of Python / numpy integers."""
    arr = np.asarray(a, dtype=object) if not isinstance(a, np.ndarray) else a
    if arr.dtype == np.int64:
        return arr
    if arr.dtype.kind not in "iuO":
        raise TypeError(f"as_int_rows needs integer entries, got dtype {arr.dtype}")
    if arr.dtype.kind in "iu":
        arr = arr.astype(object)
    if arr.size == 0:
        return np.zeros(arr.shape, dtype=np.int64)
    flat = [int(x) for x in arr.flat]
    m = max(max(flat), -min(flat))
    if m < INT64_SAFE:
        return arr.astype(np.int64)
    return np.vectorize(int, otypes=[object])(arr) if arr.dtype != object else arr


_FLOAT_EXACT = 2 ** 53  # integers of absolute value <= 2**53 are exact in float64


def maxabs(a: np.ndarray) -> int:
    if a.size == 0:
        return 0
    if a.dtype == np.int64:
        return max(int(a.max()), -int(a.min()))
    return max(abs(int(x)) for x in a.flat)


def int64_matmul(a: np.ndarray, b: np.ndarray, bound: int) -> np.ndarray:
    """``a @ b`` for ``int64`` arrays (any shapes ``np.matmul`` accepts) whose every partial sum
    is known to be at most ``bound`` in absolute value (e.g. ``max|a| max|b| inner``), with
    ``bound < 2**62``. Below ``2**53`` the product is formed in ``float64`` by BLAS -- every
    partial sum is then an integer exactly representable in ``float64``, so the result is exact
    whatever the summation order -- and converted back; otherwise by numpy's integer matmul."""
    if bound < _FLOAT_EXACT:
        return np.matmul(a.astype(np.float64), b.astype(np.float64)).astype(np.int64)
    return np.matmul(a, b)


def exact_matmul(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Exact integer matrix product of 2-D arrays: ``int64`` when
    ``max|a| * max|b| * inner < 2**62`` (so no partial sum can overflow; formed by float64 BLAS
    when the bound is below 2**53, see :func:`int64_matmul`), otherwise FLINT ``fmpz_mat``
    multiplication (result as an ``object`` array of Python ints)."""
    inner = a.shape[-1]
    if is_int64(a) and is_int64(b):
        bound = maxabs(a) * maxabs(b) * max(inner, 1)
        if bound < INT64_SAFE:
            return int64_matmul(a, b, bound)
    import flint

    m, n = a.shape[0], b.shape[1]
    if m == 0 or n == 0 or inner == 0:
        return np.zeros((m, n), dtype=object)
    A = flint.fmpz_mat(m, inner, [int(x) for x in a.ravel().tolist()])
    B = flint.fmpz_mat(inner, n, [int(x) for x in b.ravel().tolist()])
    out = np.array([int(x) for x in (A * B).entries()], dtype=object).reshape(m, n)
    return as_int_rows(out)


def primitive_rows(a: np.ndarray) -> np.ndarray:
    """Divide each integer row by the gcd of its entries and make its first non-zero entry
    positive; zero rows are dropped. Returns ``int64`` or ``object`` (see :func:`as_int_rows`)."""
    if a.shape[0] == 0:
        return a
    if is_int64(a):
        g = np.gcd.reduce(a, axis=1)
        keep = g != 0
        a, g = a[keep], g[keep]
        a = a // g[:, None]
        first = np.argmax(a != 0, axis=1)
        sign = np.sign(a[np.arange(a.shape[0]), first])
        return a * sign[:, None]
    g = np.gcd.reduce(a, axis=1)
    keep = g != 0
    a, g = a[keep], g[keep]
    if a.shape[0] == 0:
        return np.zeros((0, a.shape[1]), dtype=np.int64)
    a = a // g[:, None]
    first = np.argmax(a != 0, axis=1)
    lead = a[np.arange(a.shape[0]), first]
    sign = np.array([1 if x > 0 else -1 for x in lead], dtype=object)
    return as_int_rows(a * sign[:, None])


_HASH_WEIGHTS: dict[int, np.ndarray] = {}


def unique_rows(a: np.ndarray) -> np.ndarray:
    """The distinct rows of an integer array, in order of first occurrence (sorted instead after
    a hash collision). ``int64``: rows are grouped by a hash (a fixed pseudo-random linear form,
    wrapping modulo 2**64) and every row is then compared with its group's representative, so a
    hash collision is detected (and the exact ``np.unique`` used) -- never a dropped row."""
    if a.shape[0] <= 1:
        return a
    if is_int64(a):
        N = a.shape[1]
        w = _HASH_WEIGHTS.get(N)
        if w is None:
            w = np.random.default_rng(N).integers(1, 2 ** 62, N, dtype=np.int64)
            _HASH_WEIGHTS[N] = w
        with np.errstate(over="ignore"):
            h = (a * w).sum(axis=1)
        _, first, inv = np.unique(h, return_index=True, return_inverse=True)
        if np.array_equal(a[first[inv.ravel()]], a):
            return a[np.sort(first)]
        return np.unique(a, axis=0)
    seen: dict[tuple, None] = {}
    for r in a:
        seen.setdefault(tuple(int(x) for x in r), None)
    return as_int_rows(np.array(list(seen), dtype=object))


def independent_rows(basis: np.ndarray, cand: np.ndarray) -> list[int]:
    """Indices of the rows of the integer array ``cand`` that are linearly independent modulo
    the (independent) rows of ``basis``, chosen greedily in order (exact: the pivot columns of
    the RREF of ``[basis; cand]^T``, computed by FLINT)."""
    import flint

    k = cand.shape[0]
    if k == 0:
        return []
    b = basis.shape[0]
    stack = np.concatenate([np.asarray(basis, dtype=object), np.asarray(cand, dtype=object)])
    N, m = stack.shape[1], stack.shape[0]
    M = flint.fmpz_mat(N, m, [int(x) for x in stack.T.ravel().tolist()])
    R, _den, r = M.rref()
    return [p - b for p in rref_pivots(R, r) if p >= b]


def reduced_echelon(a: np.ndarray) -> tuple[np.ndarray, tuple[int, ...]] | None:
    """When the non-zero integer rows ``a`` are, up to their order and row scaling, a reduced
    row echelon form -- distinct leading columns, and every row 0 at the other rows' leading
    columns -- ``(rows sorted by leading column, leading columns)``; else ``None``. Such rows
    are independent and are their own RREF, so no elimination is needed (a common case for the
    sparse bases of matrix Lie algebras)."""
    r = a.shape[0]
    if r == 0:
        return None
    nz = a != 0
    lead = np.argmax(nz, axis=1)
    if not nz[np.arange(r), lead].all() or len(np.unique(lead)) != r:
        return None
    order = np.argsort(lead, kind="stable")
    a, lead = a[order], lead[order]
    if np.count_nonzero(nz[order][:, lead]) != r:   # only the diagonal is non-zero
        return None
    return a, tuple(int(p) for p in lead)


def fmpz_rows(R: Any, r: int, N: int) -> np.ndarray:
    """The first ``r`` rows of a FLINT ``fmpz_mat`` with ``N`` columns as an integer array
    (``int64`` when every entry is below 2**62 in absolute value, else ``object``)."""
    vals = list(map(int, R.entries()[:r * N]))
    if not vals:
        return np.zeros((r, N), np.int64)
    if max(vals) < INT64_SAFE and -min(vals) < INT64_SAFE:
        return np.array(vals, dtype=np.int64).reshape(r, N)
    return np.array(vals, dtype=object).reshape(r, N)


def rref_pivots(R: Any, rank: int) -> list[int]:
    """Pivot columns of a matrix ``R`` in reduced row echelon form with ``rank`` non-zero rows
    (python-flint ``fmpz_mat``/``fmpq_mat`` or anything indexable as ``R[i, j]``), in order."""
    piv, j = [], 0
    for i in range(rank):
        while R[i, j] == 0:
            j += 1
        piv.append(j)
        j += 1
    return piv


def stack_int(parts: list[np.ndarray]) -> np.ndarray:
    """The integer arrays ``parts`` stacked by rows: ``int64`` when all are, else as
    :func:`as_int_rows` of the ``object`` stack."""
    if all(p.dtype == np.int64 for p in parts):
        return np.concatenate(parts)
    return as_int_rows(np.concatenate([p.astype(object) for p in parts]))

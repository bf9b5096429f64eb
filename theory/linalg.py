"""Exact and floating-point span / rank machinery: subspaces of ``F^N``.

Three kinds of field are supported, each by its own :class:`Subspace` subclass with one API
(``dim``, ``basis``, ``contains``, ``coordinates``, ``extend``, ``sum``, ``intersection``):

* ``"QQ"`` -- the rationals. :class:`RationalSubspace` keeps the reduced row echelon form (RREF)
  with every row scaled to a *primitive integer* vector (gcd 1, positive pivot). Rank decisions
  use python-flint's ``fmpz_mat.rref`` (fraction-free, exact); bulk arithmetic uses numpy
  ``int64`` when a bound proves it cannot overflow and Python integers (``object`` arrays)
  otherwise. The basis vectors are these primitive integer rows.
* an algebraic number field ``K`` (e.g. ``QQ<sqrt(5)>``), given as a sympy domain (from
  ``sympy.construct_domain(..., extension=True)``): :class:`FieldSubspace`, RREF through sympy's
  ``DomainMatrix`` (exact, slower). The basis vectors are the RREF rows (pivot entry 1).
* ``"RR"`` -- floating point: :class:`FloatSubspace` keeps an orthonormal basis. Every candidate
  vector is normalised to unit Euclidean norm before a rank decision (see "Float rank decisions"
  below). The smallest kept and largest dropped relative singular values are recorded
  (``min_kept``, ``max_dropped``), and so is the smallest gap (``smallest_gap``), so a report can
  show the margin of every decision.

Float rank decisions (:func:`rank_decision`, used by every float rank in the package): the
singular values ``s`` of the stacked unit rows are compared with ``level = tol * s_max``; the
rank is the number above. ``noise`` is a first-order bound (Weyl's inequality) on how far
rounding can move a singular value, propagated from the rounding of the input (``EPS``-level
per row) through every bracket and every new basis vector (Wedin's sin-theta bound: a direction
found with singular value ``sigma`` is known to ``noise / sigma``). The decision is accepted only
when (1) the *gap* ``s_kept_min / max(s_dropped_max, noise)`` is at least :data:`MIN_GAP` -- every
kept value is far above rounding and above the dropped ones -- and (2) every dropped value is
both within ``noise`` and ``MIN_GAP`` times below ``level`` -- a value below the tolerance but
above rounding is a genuine value that the tolerance would cut. Otherwise the input does not
determine the rank at working precision and :class:`NumericalRankError` (a ``ValueError``) is
raised with the gap, the tolerance and the noise level -- never a guessed rank. The remedy it
names: exact input (ints, Fractions, sympy numbers) for the exact path, or a ``tol`` placed
inside a wide gap. Known limit: ``noise`` is a worst-case bound, so where it is large a genuine
value far below the tolerance can pass as rounding (the property tests against the exact path
found no such case over integer algebras conjugated by matrices of condition number up to 1e12).

A-posteriori rule (the float Lie path, :mod:`seqtheory.theory.lie`): the propagated bound above
is a worst case that compounds through a Lie closure (n(5) conjugated by a matrix of condition
number 100 got a bound of 0.0044 where the actual noise is 1e-14) and, where it is large, lets a
genuine small value pass as rounding. The Lie path therefore decides differently: inside
:func:`recording_decisions` every decision is recorded (values, which were kept, level) instead
of certified, the arithmetic is ``numpy.longdouble`` (:func:`working_dtype`), subspaces are
built by in-order Gram-Schmidt and :func:`complement_rows` (bases continuous in the input), and
the same computation is repeated on twins of the input (every entry multiplied by
``1 + TWIN_PERTURBATION r``, ``|r| <= 1``). Each recorded value then has a measured
*resolution* (:func:`resolutions`): the relative input error that, to first order, moves it by
its own size. :func:`compare_decision_logs` accepts the answer only when every twin made the
same decisions, every dropped value is re-drawn by the perturbation (rounding noise) or far
below the level and explained by an input rounding of relative size :data:`INPUT_ROUNDING`,
every kept value's resolution is :data:`RESOLUTION_GAP` times above that of the dropped noise
(a direction created by the input's rounding has the resolution of the noise the same rounding
creates), every dropped value is ``MIN_GAP`` (re-drawn) or :data:`WEAK_DROP_MARGIN` (not
re-drawn) times below the square of the smallest kept value (a bracket of two directions
separated by ``sigma`` can have a genuine component of a small multiple of ``sigma**2``), and
the gaps are wide. Levels follow the measured noise: where the twins measure noise among the
kept values of a decision (input rounding amplified above ``tol``, e.g. 5e-9 in the lower
central series of n(5) conjugated at condition number 1e3), :func:`raised_levels` sets that
decision's level between the noise and the signal (``MIN_GAP`` above each) and the runs are
repeated (:func:`decision_level`). Its answer is the one for exact matrices that the float input
approximates to a relative accuracy far below ``tol``: rounding of the input (e.g. of a
conjugation ``P A P^-1``) is recognised as noise, not as the exact algebra of the binary
fractions given. Measured (tests/test_float_lie_stress.py): all 80 named family cases at
condition number 1e3 exact; no wrong answer over 10 000 random conjugated integer algebras,
condition numbers up to 1e8. Known limit: the square margins are measured, not proven (sl(2)
conjugated above condition number 1e6 once had its dimension answered wrongly by a genuine
component 1/10 600 of that square, dropped as not re-drawn; such values are now refused); a
genuine value further below the square, hidden in re-drawn noise, would not be told from
rounding; none is known.

Conventions: vectors are rows; ``coordinates`` are with respect to ``basis`` (in that order).
Source: standard Gaussian elimination (e.g. Golub & Van Loan, *Matrix Computations*, §3.2, §5.4
for the SVD rank), fraction-free elimination as implemented in FLINT.

Errors: ``ValueError`` for ragged / wrongly shaped input, NaN or infinity, an unknown field,
mismatched ambient dimensions or fields, an int too large for float64 on the float path;
``TypeError`` for entries that are not numbers (booleans, strings, complex floats) and for floats
or irrational numbers handed to an exact computation over ``"QQ"`` (a float such as 0.1 is never
silently read as the binary fraction 3602879701896397/2^55).

Float path scaling: rows are divided by their largest absolute entry before any norm is taken,
so entries anywhere in the float64 range (1e-300 .. 1e300) give the same decisions; membership
(``contains``), coordinates and intersections use the same singular-value rule as ``extend``.
"""
from __future__ import annotations

import contextlib
import contextvars
import math
from fractions import Fraction
from numbers import Integral, Rational
from typing import Any, Iterable, Sequence

import numpy as np

__all__ = [
    "Subspace", "RationalSubspace", "FieldSubspace", "FloatSubspace",
    "detect_field", "to_field_rows", "span", "zero_subspace", "rank", "solve", "nullspace",
    "float_rank", "FloatRank", "exact_matmul", "int64_matmul", "as_int_rows", "primitive_rows",
    "independent_rows",
    "NumericalRankError", "RankDecision", "rank_decision", "MIN_GAP", "EPS",
    "recording_decisions", "record_decision", "is_recording", "compare_decision_logs",
    "TWIN_PERTURBATION", "INPUT_ROUNDING", "complement_rows", "resolutions",
    "working_dtype", "decision_level", "raised_levels", "WEAK_DROP_MARGIN", "RESOLUTION_GAP",
]

_INT64_SAFE = 2 ** 62


# ----------------------------------------------------------------------------- integer helpers
def _is_int64(a: np.ndarray) -> bool:
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
    if m < _INT64_SAFE:
        return arr.astype(np.int64)
    return np.vectorize(int, otypes=[object])(arr) if arr.dtype != object else arr


_FLOAT_EXACT = 2 ** 53  # integers of absolute value <= 2**53 are exact in float64


def _maxabs(a: np.ndarray) -> int:
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
    if _is_int64(a) and _is_int64(b):
        bound = _maxabs(a) * _maxabs(b) * max(inner, 1)
        if bound < _INT64_SAFE:
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
    if _is_int64(a):
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


def _unique_rows(a: np.ndarray) -> np.ndarray:
    """The distinct rows of an integer array, in order of first occurrence (sorted instead after
    a hash collision). ``int64``: rows are grouped by a hash (a fixed pseudo-random linear form,
    wrapping modulo 2**64) and every row is then compared with its group's representative, so a
    hash collision is detected (and the exact ``np.unique`` used) -- never a dropped row."""
    if a.shape[0] <= 1:
        return a
    if _is_int64(a):
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


def _reduced_echelon(a: np.ndarray) -> tuple[np.ndarray, tuple[int, ...]] | None:
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


def _fmpz_rows(R: Any, r: int, N: int) -> np.ndarray:
    """The first ``r`` rows of a FLINT ``fmpz_mat`` with ``N`` columns as an integer array
    (``int64`` when every entry is below 2**62 in absolute value, else ``object``)."""
    vals = list(map(int, R.entries()[:r * N]))
    if not vals:
        return np.zeros((r, N), np.int64)
    if max(vals) < _INT64_SAFE and -min(vals) < _INT64_SAFE:
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


# ----------------------------------------------------------------------------- input handling
def check_number(x: Any, where: str) -> None:
    if isinstance(x, (bool, np.bool_)):
        raise TypeError(f"{where}: booleans are not numbers here")
    if isinstance(x, (complex, np.complexfloating)):
        raise TypeError(f"{where}: entry {x!r} is a complex float; the fields here are Q, real "
                        f"number fields (exact, e.g. sympy.I for Q(i)) and RR (float64)")
    if isinstance(x, (float, np.floating)) and not math.isfinite(float(x)):
        raise ValueError(f"{where}: entry {x!r} is NaN or infinite")
    if isinstance(x, (str, bytes)):
        raise TypeError(f"{where}: entry {x!r} is a string, not a number")


def _is_float(x: Any) -> bool:
    if isinstance(x, (float, np.floating)):
        return True
    import sympy

    return isinstance(x, sympy.Float)


def _as_2d(vectors: Any, name: str) -> list[list[Any]]:
    if isinstance(vectors, np.ndarray):
        if vectors.ndim != 2:
            raise ValueError(f"{name} must be 2-D (rows = vectors), got shape {vectors.shape}")
        return [list(r) for r in vectors]
    if hasattr(vectors, "tolist") and hasattr(vectors, "shape"):  # sympy Matrix
        vectors = vectors.tolist()
    if isinstance(vectors, (str, bytes)) or not hasattr(vectors, "__iter__"):
        raise TypeError(f"{name} must be a 2-D array-like (a sequence of rows), "
                        f"got {type(vectors).__name__}")
    rows = []
    for r in vectors:
        if isinstance(r, (str, bytes)) or not hasattr(r, "__iter__"):
            raise TypeError(f"{name} must be a 2-D array-like: each row must be a sequence of "
                            f"numbers, got {r!r}")
        rows.append(list(r))
    if rows and len({len(r) for r in rows}) != 1:
        raise ValueError(f"{name}: ragged rows (lengths {sorted({len(r) for r in rows})})")
    return rows


def detect_field(entries: Iterable[Any]):
    """The field an exact computation over ``entries`` needs: ``"RR"`` if any entry is a float
    (Python/numpy float or a sympy Float), ``"QQ"`` if all are rational (int, Fraction, numpy
    int, sympy Rational), else the sympy algebraic number field generated by them
    (``construct_domain(..., extension=True)``). Raises ``ValueError`` for NaN/inf and
    ``TypeError`` for non-numbers."""
    import sympy

    ents = list(entries)
    others = []
    for x in ents:
        check_number(x, "entries")
        if isinstance(x, (float, np.floating, complex, np.complexfloating)):
            return "RR"
        if isinstance(x, (Integral, Rational, np.integer)):
            continue
        others.append(x)
    if not others:
        return "QQ"
    syms = []
    for x in others:
        try:
            s = sympy.sympify(x)
        except (sympy.SympifyError, TypeError) as exc:
            raise TypeError(f"entries: {x!r} is not a number") from exc
        if s.free_symbols:
            raise TypeError(f"entries: {x!r} has free symbols; numbers only")
        if isinstance(s, sympy.Float):
            return "RR"
        if s.has(sympy.nan, sympy.zoo, sympy.oo, -sympy.oo):
            raise ValueError(f"entries: {x!r} is NaN or infinite")
        syms.append(s)
    if all(s.is_Rational for s in syms):
        return "QQ"
    K, _ = sympy.construct_domain(syms, extension=True)
    if not K.is_Field:
        K = K.get_field()
    return K


def to_field_rows(rows: list[list[Any]], field, name: str = "entries") -> Any:
    """Convert rows of numbers to the internal representation of ``field``:
    ``"QQ"`` -> ``(int_rows, row_scales)`` with ``int_rows[i] = row_scales[i] * rows[i]``
    (positive integer scale clearing denominators); ``"RR"`` -> float64 array; a sympy domain ->
    list of lists of domain elements. Raises ``TypeError`` (naming ``name``) for booleans,
    strings, complex floats, floats in an exact field, irrational entries over ``"QQ"`` or
    entries outside the number field, ``ValueError`` for NaN/inf."""
    import sympy

    for r in rows:
        for x in r:
            check_number(x, name)
            if field != "RR" and _is_float(x):
                raise TypeError(f"{name}: entry {x!r} is a float, but the computation is exact "
                                f"over {field}; pass ints / Fractions / sympy numbers, or use the "
                                f"float path (field='RR')")
    if field == "RR":
        try:
            arr = np.array([[float(x) for x in r] for r in rows], dtype=float) if rows \
                else np.zeros((0, 0))
        except OverflowError:
            raise ValueError(f"{name}: an entry is too large for the float path (float64); "
                             f"use exact entries only (ints / Fractions) for the exact path") from None
        except (TypeError, ValueError) as exc:
            raise TypeError(f"{name}: entries must be real numbers ({exc})") from None
        if not np.all(np.isfinite(arr)):
            raise ValueError(f"{name}: NaN or infinite value")
        return arr
    if field == "QQ":
        out, scales = [], []
        for r in rows:
            fr = []
            for x in r:
                if isinstance(x, (Integral, np.integer)):
                    fr.append(Fraction(int(x)))
                elif isinstance(x, Rational):
                    fr.append(Fraction(x.numerator, x.denominator))
                else:
                    try:
                        s = sympy.sympify(x)
                    except (sympy.SympifyError, TypeError):
                        raise TypeError(f"{name}: {x!r} is not a number") from None
                    if not getattr(s, "is_Rational", False):
                        raise TypeError(f"{name}: entry {x!r} is not rational; the computation "
                                        f"is over QQ (use span/rank without field=, which "
                                        f"detects the number field)")
                    fr.append(Fraction(int(s.p), int(s.q)))
            d = 1
            for f in fr:
                d = d * f.denominator // math.gcd(d, f.denominator)
            out.append([int(f * d) for f in fr])
            scales.append(d)
        arr = as_int_rows(np.array(out, dtype=object)) if out else np.zeros((0, 0), dtype=np.int64)
        return arr, scales
    try:
        return [[field.from_sympy(sympy.sympify(x)) for x in r] for r in rows]
    except (sympy.CoercionFailed, sympy.SympifyError, TypeError, ValueError) as exc:
        raise TypeError(f"{name}: an entry does not lie in the field {field} ({exc})") from None


# ----------------------------------------------------------------------------- float rank
EPS = float(np.finfo(float).eps)
MIN_GAP = 100.0  # a float rank decision needs s_kept_min >= MIN_GAP * max(s_dropped_max, noise)


class NumericalRankError(ValueError):
    """A floating-point rank decision that the input does not determine: no wide gap separates
    the singular values kept as signal from those at the rounding / tolerance level.

    Attributes: ``argument`` (what was being ranked, named as the caller knows it), ``gap`` (the
    measured ratio ``s_kept_min / max(s_dropped_max, noise)``), ``tol`` (the relative
    tolerance), ``noise`` (the propagated rounding bound on the singular values), ``s`` (the
    singular values, descending)."""

    def __init__(self, argument: str, gap: float, tol: float, noise: float, s: np.ndarray,
                 message: str | None = None):
        self.argument, self.gap, self.tol, self.noise = argument, gap, tol, noise
        self.s = np.asarray(s)
        if message is not None:
            super().__init__(f"{argument}: {message}")
            return
        shown = ", ".join(f"{x:.3g}" for x in self.s[:8]) + (", ..." if self.s.size > 8 else "")
        super().__init__(
            f"{argument}: the numerical rank is not determined at working precision: the "
            f"gap s_kept_min / max(s_dropped_max, noise) is {gap:.3g} < {MIN_GAP:g} (singular "
            f"values {shown}; relative tol {tol:g}; propagated rounding bound {noise:.3g}). Pass "
            f"exact entries (ints, Fractions, sympy numbers) to use the exact path, or a tol "
            f"inside a wide gap of the singular values if the input is known only to that "
            f"accuracy")


class RankDecision:
    """One float rank decision (:func:`rank_decision`): ``rank``; ``s`` (singular values,
    descending); ``level`` (values ``<= level`` are zero); ``gap`` (``s_kept_min /
    max(s_dropped_max, noise)``, ``inf`` when nothing is kept or nothing is dropped above
    ``noise``); ``min_kept`` / ``max_dropped`` (relative to ``s[0]``)."""

    def __init__(self, rank: int, s: np.ndarray, level: float, gap: float):
        self.rank, self.s, self.level, self.gap = rank, s, level, gap
        s0 = float(s[0]) if s.size and s[0] > 0 else 1.0
        self.min_kept = float(s[rank - 1]) / s0 if rank else math.inf
        self.max_dropped = float(s[rank]) / s0 if rank < s.size else 0.0


def rank_decision(s: np.ndarray, tol: float, noise: float, argument: str,
                  scale: float | None = None) -> RankDecision:
    """The rank from singular values ``s`` (descending, of a matrix with unit-norm rows, or of a
    matrix in orthonormal bases whose size is bounded by ``scale``) with relative tolerance
    ``tol`` and absolute rounding bound ``noise`` (by Weyl's inequality no singular value moves
    by more than the spectral norm of the rounding error). ``level = tol * scale`` (``scale``
    defaults to ``s[0]``; ``scale = 0`` means the matrix is exactly 0: rank 0). The rank is the
    number of values ``> level``, accepted only when

    * the gap ``s_kept_min / max(s_dropped_max, noise)`` is at least :data:`MIN_GAP` (every
      kept value is far above both the dropped ones and anything rounding can produce), and
    * every dropped value is explained by rounding (``<= noise``) and at least
      :data:`MIN_GAP` times below ``level`` (so neither a genuine small value nor a pessimistic
      rounding bound is ever dropped as zero);

    otherwise :class:`NumericalRankError` (naming ``argument``). A noise bound above the tolerance therefore never hides a value: values
    between ``level`` and ``MIN_GAP * noise`` raise. Pure function of its arguments."""
    s = np.asarray(s, dtype=float)
    if s.size == 0:
        return RankDecision(0, s, 0.0, math.inf)
    scale = float(s[0]) if scale is None else float(scale)
    if scale == 0.0:
        return RankDecision(0, s, 0.0, math.inf)
    return _decide(s, tol * scale, noise, tol, argument)


def _decide(s: np.ndarray, level: float, noise: float, tol: float, argument: str) -> RankDecision:
    """Count ``s > level`` and apply the certification rules of :func:`rank_decision` (while
    :func:`recording_decisions` is active: record the decision instead, see there)."""
    if is_recording():
        level = decision_level(level)
    r = int(np.sum(s > level))
    if is_recording():
        # the SVD behind s is float64: values within its backward error are its rounding
        record_decision(argument, s, s > level, level,
                        _svd_noise(s.size, s.size) * max(float(s[0]), level / tol))
        below = float(s[r]) if r < s.size else 0.0
        gap = float(s[r - 1]) / below if r and below > 0 else math.inf
        return RankDecision(r, s, level, gap)
    dropped = float(s[r]) if r < s.size else None
    if dropped is not None and dropped > min(float(noise), level / MIN_GAP):
        raise NumericalRankError(argument, (float(s[r - 1]) / dropped) if r else 0.0, tol,
                                 float(noise), s, message=(
                                     f"a singular value {dropped:.3g} lies below the tolerance "
                                     f"level {level:.3g} (relative tol {tol:g}) but is not "
                                     f"both {MIN_GAP:g} times below it and within the propagated "
                                     f"rounding bound {noise:.3g}: it may be a genuine value, so "
                                     f"the rank is not determined. Pass exact entries (ints, "
                                     f"Fractions, sympy numbers) for the exact path, or a tol "
                                     f"inside a wide gap of the singular values"))
    if r == 0:
        return RankDecision(0, s, level, math.inf)
    below = max(dropped or 0.0, float(noise))
    gap = float(s[r - 1]) / below if below > 0 else math.inf
    if gap < MIN_GAP:
        raise NumericalRankError(argument, gap, tol, float(noise), s)
    return RankDecision(r, s, level, gap)


# ----------------------------------------------------------------------------- a-posteriori
# The a-posteriori rule for float rank decisions: the same computation is run on the input as
# given and on "twins" -- the input with every entry multiplied by (1 + TWIN_PERTURBATION * r),
# r uniform in [-1, 1] (seeded) -- with every decision recorded instead of certified; the runs
# are then compared decision by decision (:func:`compare_decision_logs`).
TWIN_PERTURBATION = 1e-15
# the largest relative input error a dropped value may need to be explained as rounding
INPUT_ROUNDING = 1e-12
# values below this are rounding of the recorded runs' arithmetic (longdouble), whatever they do
_ARITHMETIC_FLOOR = MIN_GAP * float(np.finfo(np.longdouble).eps)
_NOISE_CHANGE = 0.1
# a dropped value that the twins move by less than itself (not re-drawn: possibly a genuine
# value of high sensitivity) must be this many times below the square of the smallest kept
# value (re-drawn ones: MIN_GAP times); sl(2) conjugated at condition number 1e6..1e8 dropped
# genuine components of [e, f] 1/125, 1/520 and 1/10 600 of that square under a margin of
# MIN_GAP (the last 1.4e-14, moved by 4%, beside a float64 floor of 2.2e-14)
WEAK_DROP_MARGIN = 1e5
_REDRAWN = 1.0
# kept values must have a resolution this many times that of the dropped noise (measured at
# condition number 1e3: noise resolution at most 4e-14, kept resolutions at least 3e-9)
RESOLUTION_GAP = 1e5
_RAISE_CHANGE = 1.0

_LOG: contextvars.ContextVar[list | None] = contextvars.ContextVar("float_decision_log", default=None)
_LEVELS: contextvars.ContextVar[dict | None] = contextvars.ContextVar("float_decision_levels",
                                                                     default=None)


@contextlib.contextmanager
def recording_decisions(levels: dict[int, float] | None = None):
    """Context in which every float decision (:func:`rank_decision`, membership, intersection,
    and whatever calls :func:`record_decision`) is recorded, not certified: the rank is the
    number of values above the level and no :class:`NumericalRankError` is raised for a narrow
    gap. Yields the log: a list of ``(argument, values, kept_mask, level, floor)``
    (:func:`record_decision`). ``levels``: raised levels by place in the log (decision ``i``
    decides at ``max(its level, levels[i])``, see :func:`decision_level` and
    :func:`raised_levels`). Used by the a-posteriori rule (compare the logs of twin runs with
    :func:`compare_decision_logs`)."""
    log: list = []
    token = _LOG.set(log)
    ltoken = _LEVELS.set(dict(levels or {}))
    try:
        yield log
    finally:
        _LEVELS.reset(ltoken)
        _LOG.reset(token)


def is_recording() -> bool:
    """Whether :func:`recording_decisions` is active."""
    return _LOG.get() is not None


def decision_level(level: float) -> float:
    """The level of the next recorded decision: ``level``, raised to the level that
    :func:`raised_levels` set for its place in the log of the active
    :func:`recording_decisions` (unchanged when not recording)."""
    log, levels = _LOG.get(), _LEVELS.get()
    if log is None or not levels:
        return level
    return max(float(level), levels.get(len(log), level))


def working_dtype() -> type:
    """The float type of the float path's arithmetic: ``numpy.longdouble`` while
    :func:`recording_decisions` is active (80-bit extended precision on x86-64 Linux, unit
    roundoff 5.4e-20: rounding noise 2048 times below float64's, so the twin runs measure the
    input's noise rather than the arithmetic's; on platforms where ``longdouble`` is float64 the
    rule still holds, it only refuses more), else ``float`` (float64)."""
    return np.longdouble if is_recording() else float


def record_decision(argument: str, values: np.ndarray, kept: np.ndarray, level: float,
                    floor: float | None = None) -> None:
    """Append one decision to the active log: the measured ``values`` (float array), which of
    them were kept as non-zero (``kept``, bool array of the same shape), the ``level`` and the
    ``floor`` (values at or below it are rounding of the arithmetic that measured them;
    default: that of ``numpy.longdouble``, ``MIN_GAP`` units of its roundoff)."""
    log = _LOG.get()
    if log is not None:
        log.append((argument, np.array(values, dtype=float), np.array(kept, dtype=bool),
                    float(level), _ARITHMETIC_FLOOR if floor is None else float(floor)))


def resolutions(values: np.ndarray, change: np.ndarray, perturbation: float) -> np.ndarray:
    """The *resolution* of each measured value: the relative input error that, to first order,
    moves it by its own size -- ``perturbation * value / change`` (``change``: its largest change
    over the twin runs, whose entries were perturbed by ``perturbation`` relative). ``inf`` for a
    value the twins do not move, ``0`` for a zero value. A value created by an input rounding of
    relative size ``rho`` has resolution about ``rho``; a genuine value has a resolution far
    above the input's rounding. Pure function of its arguments."""
    v = np.asarray(values, dtype=float)
    c = np.asarray(change, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(c > 0, perturbation * v / np.where(c > 0, c, 1.0),
                        np.where(v > 0, math.inf, 0.0))


def compare_decision_logs(base: list, twins: list[list], tol: float,
                          perturbation: float = TWIN_PERTURBATION) -> tuple[float, str | None]:
    """The a-posteriori certificate of a float computation recorded by
    :func:`recording_decisions`: ``base`` is the log of the input as given, ``twins`` the logs
    of the same computation on copies whose entries were multiplied by ``1 + perturbation * r``
    (``|r| <= 1``). Returns ``(smallest_gap, None)`` when every decision is certified, else
    ``(gap, reason)``. Each value ``v`` of a decision has a measured *resolution*
    ``rho(v) = perturbation * v / change`` (:func:`resolutions`: the relative input error that
    moves it by its own size, to first order). The log is certified when

    * every twin made the same decisions (same argument, same values kept, same count);
    * every dropped value ``d`` is *noise*: it changed by at least ``10%`` of itself in some
      twin (rounding of the arithmetic, re-drawn by the perturbation), or it is at most its
      decision's arithmetic floor, or it is at least :data:`MIN_GAP` times below the level and
      an input rounding of relative size :data:`INPUT_ROUNDING` explains it
      (``rho(d) <= INPUT_ROUNDING``; a genuine value moves far less: two generators 2.8e-12
      apart after a conjugation of condition number 1e12 moved by 2e-4 of that, and were
      refused);
    * ``MIN_GAP * max(dropped values, measured change of the kept values) <= smallest kept
      value`` in every run (the recorded gap is the smallest such ratio);
    * the *resolution gap*: every kept value has resolution at least :data:`RESOLUTION_GAP`
      times the input error that explains the noise -- the largest resolution of a dropped
      value above its decision's arithmetic floor, over the whole log (at least ``EPS``;
      :data:`INPUT_ROUNDING` when the log has no such value). A direction created by the
      input's rounding has about the resolution of the dropped noise that the same rounding
      creates (the rounding of a conjugation by a matrix of condition number 1e8 is about
      2e-8), so it is refused, while a genuine value is resolved far better than the input's
      rounding. Measured at condition number 1e3 (80 family cases): noise resolution at most
      4e-14, kept resolutions at least 3e-9;
    * the *square rule*: every dropped value above the floor of extended-precision arithmetic,
      in every run, is :data:`MIN_GAP` times below ``sigma**2`` (``sigma``: the smallest kept
      value of the log), and :data:`WEAK_DROP_MARGIN` (1e5) times below it when the twins move
      it by less than itself (not re-drawn: possibly a genuine value of high sensitivity): a
      bracket of two directions that are separated only by a small value ``sigma`` can have a
      genuine component of a small multiple of ``sigma**2`` (conjugated sl(2): about a
      quarter at condition number 7e5, the component of ``[e, f]`` outside ``span{e, f}`` is
      4e-12 with ``sigma = 2.7e-6``; genuine values down to 1/10 600 of it above 1e6), which
      must not sink into the dropped values.

    Pure function of its arguments. ``tol`` is the relative tolerance (for the messages)."""
    smallest, least_kept, least_drawn, most_noise = math.inf, math.inf, 0.0, 0.0
    noise_res, least = 0.0, (math.inf, 0.0, "")
    for t in twins:
        if len(t) != len(base):
            return 0.0, (f"the twin runs made {len(t)} and {len(base)} decisions: the decisions "
                         f"change under a relative perturbation {perturbation:g} of the input")
    for i, (arg, v0, k0, level, floor) in enumerate(base):
        drop0 = v0[~k0]
        change = np.zeros_like(v0)
        for t in twins:
            arg_t, vt, kt = t[i][:3]
            if arg_t != arg or vt.shape != v0.shape or not np.array_equal(kt, k0):
                return 0.0, (f"{arg}: a relative perturbation {perturbation:g} of the input "
                             f"changes the decision (rank {int(k0.sum())} -> {int(kt.sum())} of "
                             f"{v0.size} values at relative tol {tol:g})")
            change = np.maximum(change, np.abs(vt - v0))
        res = resolutions(v0, change, perturbation)
        kept = v0[k0]
        if kept.size:
            j = int(np.argmin(res[k0]))
            if res[k0][j] < least[0]:
                least = (float(res[k0][j]), float(kept[j]), arg)
        if drop0.size:
            dchange, dres = change[~k0], res[~k0]
            moved = dchange >= _NOISE_CHANGE * drop0                  # re-drawn: rounding
            explained = (drop0 <= floor) | ((drop0 <= level / MIN_GAP) & (dres <= INPUT_ROUNDING))
            bad = ~moved & ~explained
            if np.any(bad):
                d = float(drop0[bad].max())
                return 0.0, (f"{arg}: a value {d:.3g} below the tolerance level {level:.3g} "
                             f"(relative tol {tol:g}) is neither re-drawn by a perturbation of "
                             f"the input nor {MIN_GAP:g} times below the level and explained by "
                             f"an input rounding of relative size {INPUT_ROUNDING:g}: it may be a "
                             f"genuine value, so the rank is not determined")
            # the resolution of the noise: of the values above the arithmetic's floor
            noise_res = max(noise_res, float(dres[drop0 > floor].max(initial=0.0)))
            # not re-drawn (moved by less than itself): possibly a genuine value of high
            # sensitivity, held to the wider square margin
            weak = (drop0 > _ARITHMETIC_FLOOR) & (dchange < _REDRAWN * drop0)
            least_drawn = max(least_drawn, float(drop0[weak].max(initial=0.0)))
            for run in [v0] + [t[i][1] for t in twins]:
                dr = run[~k0]
                most_noise = max(most_noise, float(dr[dr > _ARITHMETIC_FLOOR].max(initial=0.0)))
        if kept.size:
            below = max(float(drop0.max(initial=0.0)), float(change[k0].max(initial=0.0)))
            for t in twins:
                below = max(below, float(t[i][1][~k0].max(initial=0.0)))
            gap = float(kept.min()) / below if below > 0 else math.inf
            if gap < MIN_GAP:
                return gap, (f"{arg}: the gap between the smallest kept value {kept.min():.3g} "
                             f"and the largest dropped value or measured noise {below:.3g} is "
                             f"{gap:.3g} < {MIN_GAP:g}")
            smallest = min(smallest, gap)
            least_kept = min(least_kept, float(kept.min()))
    if least_drawn * WEAK_DROP_MARGIN > least_kept ** 2:
        return 0.0, (f"a dropped value {least_drawn:.3g} that the perturbation does not re-draw "
                     f"is not {WEAK_DROP_MARGIN:g} times below the square of the smallest kept "
                     f"value {least_kept:.3g}: a bracket of two directions separated by that value "
                     f"can have a genuine component that small (about a quarter of the square "
                     f"for sl(2)), so it is not told from rounding")
    if most_noise * MIN_GAP > least_kept ** 2:
        return 0.0, (f"the largest dropped value {most_noise:.3g} is not {MIN_GAP:g} times "
                     f"below the square of the smallest kept value {least_kept:.3g}: a bracket "
                     f"of two directions separated by that value can have a genuine component "
                     f"that small, so it is not told from rounding")
    ref = max(noise_res, EPS) if noise_res > 0 else INPUT_ROUNDING
    if least[0] < RESOLUTION_GAP * ref:
        return 0.0, (f"{least[2]}: a kept value {least[1]:.3g} has resolution {least[0]:.3g} (the "
                     f"relative input error that would move it by its own size), not "
                     f"{RESOLUTION_GAP:g} times above the input error {ref:.3g} that explains the "
                     f"dropped values: an input rounding could have created it")
    return smallest, None


def raised_levels(base: list, twins: list[list], levels: dict[int, float],
                  perturbation: float = TWIN_PERTURBATION) -> dict[int, float] | None:
    """The next levels for a repeated set of twin runs (:func:`recording_decisions` with
    ``levels``), or ``None`` when no level needs raising. The first decision of ``base`` (all
    earlier ones made alike by every twin) whose kept values include *measured noise* -- a
    value at or below its floor, or one that the twins' perturbation moves by at least its own
    size -- gets the level ``sqrt(noise * signal)``: ``noise`` the largest such value in any
    run, ``signal`` the smallest value that every run kept and whose resolution
    (:func:`resolutions`) is at least :data:`RESOLUTION_GAP` times that of the noise (at least
    ``EPS``). Raised only when every value is one or the other and ``signal >= MIN_GAP**2 *
    noise`` (so the raised level is ``MIN_GAP`` times above the noise and below the signal);
    else ``None`` and the runs are judged as they are (refused by :func:`compare_decision_logs`
    where a decision is not certified). Levels only rise, so repeating terminates. Pure
    function of its arguments."""
    for i, (arg, v0, k0, level, floor) in enumerate(base):
        if any(len(t) <= i or t[i][0] != arg or t[i][1].shape != v0.shape for t in twins):
            return None
        runs = [v0] + [t[i][1] for t in twins]
        kept_any = np.logical_or.reduce([k0] + [t[i][2] for t in twins])
        kept_all = np.logical_and.reduce([k0] + [t[i][2] for t in twins])
        change = np.max([np.abs(v - v0) for v in runs], axis=0)
        res = resolutions(v0, change, perturbation)
        noise = (v0 <= floor) | (change >= _RAISE_CHANGE * v0) | (res <= INPUT_ROUNDING)
        if not np.any(kept_any & noise):
            if not np.array_equal(kept_any, kept_all):
                return None
            continue
        ref = max(EPS, float(res[noise & (v0 > _ARITHMETIC_FLOOR)].max(initial=0.0)))
        signal = kept_all & ~noise & (res >= RESOLUTION_GAP * ref)
        if np.any(~noise & ~signal):
            return None
        top = float(np.max([v[noise].max() for v in runs]))
        low = float(np.min([v[signal].min() for v in runs])) if np.any(signal) else 1.0
        if low < MIN_GAP ** 2 * top:
            return None
        new = math.sqrt(top * low)
        if new <= level:
            return None
        out = {j: lv for j, lv in levels.items() if j < i}
        out[i] = new
        return out
    return None


class FloatRank:
    """Result of :func:`float_rank`: ``rank``, the singular values of the row-normalised matrix
    ``s``, the threshold ``tol * s[0]``, ``tol`` itself and the ``gap`` of the decision (see
    :func:`rank_decision`)."""

    def __init__(self, rank: int, s: np.ndarray, tol: float, gap: float = math.inf):
        self.rank, self.s, self.tol, self.gap = rank, s, tol, gap
        self.threshold = tol * (s[0] if s.size else 0.0)

    def __repr__(self) -> str:
        return f"FloatRank(rank={self.rank}, tol={self.tol:g}, gap={self.gap:.3g})"


def _row_norms(a: np.ndarray) -> np.ndarray:
    """Euclidean norms of the rows of a finite float array without overflow or underflow:
    each row is first divided by its largest absolute entry (so entries of size 1e-300 or
    1e300 give their true norms, not 0 or inf)."""
    if a.shape[0] == 0:
        return np.zeros(0)
    m = np.abs(a).max(axis=1) if a.shape[1] else np.zeros(a.shape[0])
    safe = np.where(m > 0, m, 1.0)
    return m * np.linalg.norm(a / safe[:, None], axis=1)


def _normalise_rows(a: np.ndarray) -> np.ndarray:
    """The non-zero rows of ``a`` scaled to unit Euclidean norm (overflow/underflow-free: every
    row is divided by its largest absolute entry first)."""
    if a.shape[0] == 0:
        return a
    m = np.abs(a).max(axis=1) if a.shape[1] else np.zeros(a.shape[0])
    keep = m > 0
    b = a[keep] / m[keep, None]
    return b / np.linalg.norm(b, axis=1)[:, None]


def _input_noise(ncols: int) -> float:
    """Relative rounding of one float input row after normalisation (the entries are taken as
    correct to ``EPS`` relative; normalising adds ``O(sqrt(N) EPS)``)."""
    return EPS * (2.0 + math.sqrt(ncols))


def _svd_noise(m: int, n: int) -> float:
    """Backward error of a float SVD of an ``m x n`` matrix of unit rows (relative to
    ``s_max``)."""
    return 4.0 * EPS * max(m, n)


def float_rank(m: Any, tol: float = 1e-9) -> FloatRank:
    """Numerical rank of the rows of ``m`` (2-D float array-like): every non-zero row is scaled
    to unit norm, then the rank is decided by :func:`rank_decision` with relative tolerance
    ``tol`` (the number of singular values ``> tol * s_max``, provided a gap of at least
    :data:`MIN_GAP` separates them from the rest and from the rounding level).
    ``tol`` must be in (0, 1). Raises ``ValueError`` for NaN/inf or a bad ``tol``, and
    :class:`NumericalRankError` when the rank is not determined at working precision."""
    _check_tol(tol)
    a = np.asarray(m, dtype=float)
    if a.ndim != 2:
        raise ValueError(f"m must be 2-D, got shape {a.shape}")
    if not np.all(np.isfinite(a)):
        raise ValueError("m contains NaN or infinite entries")
    a = _normalise_rows(a)
    if a.size == 0:
        return FloatRank(0, np.zeros(0), tol)
    s = np.linalg.svd(a, compute_uv=False)
    noise = math.sqrt(a.shape[0]) * _input_noise(a.shape[1]) + _svd_noise(*a.shape) * s[0]
    d = rank_decision(s, tol, noise, "m")
    return FloatRank(d.rank, s, tol, d.gap)


def complement_rows(V: np.ndarray, d: int) -> np.ndarray:
    """An orthonormal basis (rows, float64 ``(d - k, d)``) of the orthogonal complement of the
    row space of the orthonormal rows ``V`` (``(k, d)``), continuous in that space: the unit
    vectors ``e_1, ..., e_d`` are projected onto the complement and orthonormalised in order
    (modified Gram-Schmidt, twice), each kept when its residual exceeds ``1 / (2 sqrt(d))``.
    That always yields ``d - k`` vectors: the part of the complement left uncovered would have
    trace ``<= d / (4 d) < 1`` (the residuals of all unit vectors bound it). Unlike an SVD
    basis it does not turn freely inside clusters of equal singular values, so the float
    path's twin runs stay comparable."""
    V = np.asarray(V)
    V = V.astype(np.result_type(V.dtype, float)).reshape(-1, d)
    need = d - V.shape[0]
    basis = list(V)
    out = []
    for i in range(d):
        if len(out) == need:
            break
        x = np.zeros(d, dtype=V.dtype)
        x[i] = 1.0
        for _ in range(2):
            for b in basis:
                x = x - (b @ x) * b
        r = float(np.linalg.norm(x))
        if r > 0.5 / math.sqrt(d):
            x = x / r
            basis.append(x)
            out.append(x)
    if len(out) != need:
        raise RuntimeError(f"complement_rows: found {len(out)} of {need} vectors (V is not "
                           f"orthonormal)")
    return np.array(out) if out else np.zeros((0, d), dtype=V.dtype)


def _check_tol(tol: float) -> None:
    if not isinstance(tol, (int, float)) or not (0 < float(tol) < 1):
        raise ValueError(f"tol must be a float in (0, 1), got {tol!r}")


# ----------------------------------------------------------------------------- subspaces
class Subspace:
    """A subspace of ``F^N`` (abstract). See the module docstring for the three fields."""

    field: Any
    ambient_dim: int

    @property
    def dim(self) -> int:
        raise NotImplementedError

    # -- API shared by all fields
    def __len__(self) -> int:
        return self.dim

    def __repr__(self) -> str:
        return f"{type(self).__name__}(dim={self.dim}, ambient_dim={self.ambient_dim}, field={self.field})"

    def _check_compatible(self, other: "Subspace") -> None:
        if type(other) is not type(self) or other.ambient_dim != self.ambient_dim \
                or other.field != self.field:
            raise ValueError(f"incompatible subspaces: {self!r} and {other!r}")

    def contains(self, v: Sequence[Any]) -> bool:
        """Whether the vector ``v`` (length ``ambient_dim``) lies in the subspace."""
        return self.contains_rows(self._convert([v]))

    def contains_all(self, vectors: Any) -> bool:
        """Whether every row of ``vectors`` lies in the subspace."""
        return self.contains_rows(self._convert(vectors))

    def is_subspace_of(self, other: "Subspace") -> bool:
        self._check_compatible(other)
        return other.contains_rows(self.rows)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Subspace):
            return NotImplemented
        self._check_compatible(other)
        return self.dim == other.dim and self.is_subspace_of(other)

    __hash__ = None  # type: ignore[assignment]

    def sum(self, other: "Subspace") -> "Subspace":
        """The sum ``self + other``."""
        self._check_compatible(other)
        return self.extend_rows(other.rows)[0]

    def extend(self, vectors: Any) -> "Subspace":
        """The span of ``self`` and the rows of ``vectors``."""
        return self.extend_rows(self._convert(vectors))[0]

    def _convert(self, vectors: Any):
        rows = _as_2d(vectors, "vectors")
        if rows and len(rows[0]) != self.ambient_dim:
            raise ValueError(f"vectors have length {len(rows[0])}, ambient dimension is {self.ambient_dim}")
        if self.field == "QQ":
            return to_field_rows(rows, "QQ", "vectors")[0] if rows \
                else np.zeros((0, self.ambient_dim), np.int64)
        if self.field == "RR":
            return to_field_rows(rows, "RR", "vectors") if rows else np.zeros((0, self.ambient_dim))
        return to_field_rows(rows, self.field, "vectors")


class RationalSubspace(Subspace):
    """A subspace of ``Q^N`` in RREF, rows scaled to primitive integer vectors (see module doc).

    ``rows``: ``(dim, N)`` integer array (``int64`` or ``object``), the basis; ``pivots``: the
    pivot column of each row (increasing). ``basis``: the rows as tuples of Python ints.
    """

    field = "QQ"

    def __init__(self, ambient_dim: int, rows: np.ndarray | None = None,
                 pivots: Sequence[int] = ()):
        self.ambient_dim = int(ambient_dim)
        self.rows = rows if rows is not None else np.zeros((0, self.ambient_dim), np.int64)
        self.pivots = tuple(int(p) for p in pivots)

    @property
    def dim(self) -> int:
        return len(self.pivots)

    @property
    def basis(self) -> list[tuple[int, ...]]:
        return [tuple(int(x) for x in r) for r in self.rows]

    def rref(self) -> list[list[Fraction]]:
        """The reduced row echelon basis (pivot entries 1) as Fractions."""
        return [[Fraction(int(x), int(r[p])) for x in r] for r, p in zip(self.rows, self.pivots)]

    # -- core: insertion
    def extend_rows(self, cand: np.ndarray, chunk: int | None = None) -> tuple["RationalSubspace", np.ndarray]:
        """Insert the integer rows ``cand``. Returns ``(new_subspace, new_rows)`` where
        ``new_rows`` are rows of the new basis whose pivots are new (so ``self`` + ``new_rows``
        spans the result and ``len(new_rows) = new.dim - self.dim``). Exact (FLINT rref)."""
        import flint

        N = self.ambient_dim
        cand = as_int_rows(cand) if cand.dtype != np.int64 else cand
        if cand.shape[0] == 0 or self.dim == N:
            return self, np.zeros((0, N), np.int64)
        cand = _unique_rows(primitive_rows(cand))
        if cand.shape[0] == 0:
            return self, np.zeros((0, N), np.int64)
        chunk = chunk or max(2 * N, 256)
        cur = self
        for start in range(0, cand.shape[0], chunk):
            if cur.dim == N:
                break
            block = cand[start:start + chunk]
            stack = np.concatenate([cur.rows.astype(object), block.astype(object)]) \
                if (cur.rows.dtype != block.dtype or cur.rows.dtype == object) else \
                np.concatenate([cur.rows, block])
            if cur.dim:
                stack = _unique_rows(stack)   # a candidate equal to a basis row adds nothing
            ech = _reduced_echelon(stack)
            if ech is not None:               # already an RREF up to row order: no elimination
                if len(ech[1]) > cur.dim:
                    cur = RationalSubspace(N, ech[0], ech[1])
                continue
            ents = stack.ravel().tolist()   # Python ints from int64; object arrays: coerce
            M = flint.fmpz_mat(stack.shape[0], N,
                               ents if stack.dtype == np.int64 else [int(x) for x in ents])
            R, _den, r = M.rref()
            if r == cur.dim:
                continue
            new = _fmpz_rows(R, r, N)
            new = primitive_rows(new)
            piv = tuple(int(np.argmax(row != 0)) for row in new)
            cur = RationalSubspace(N, new, piv)
        old = set(self.pivots)
        idx = [i for i, p in enumerate(cur.pivots) if p not in old]
        return cur, cur.rows[idx]

    def contains_rows(self, cand: np.ndarray) -> bool:
        if cand.shape[0] == 0:
            return True
        return self.extend_rows(cand)[0].dim == self.dim

    def coordinates_rows(self, cand: np.ndarray, check: bool = True) -> np.ndarray:
        """Coordinates (``object`` array of Fractions, shape ``(k, dim)``) of the integer rows
        ``cand`` with respect to ``rows``. With ``check`` (default) a ``ValueError`` is raised
        when a row is not in the subspace; without it, membership must be known."""
        k = cand.shape[0]
        if self.dim == 0:
            if check and k and np.any(cand != 0):
                raise ValueError("vector is not in the (zero) subspace")
            return np.zeros((k, 0), dtype=object)
        piv = list(self.pivots)
        d = [int(self.rows[i, p]) for i, p in enumerate(piv)]
        num = cand[:, piv]
        if check:
            D = 1
            for x in d:
                D = D * x // math.gcd(D, x)
            mult = np.array([[D // x for x in d]], dtype=object)
            lhs = exact_matmul(as_int_rows(num.astype(object) * mult), self.rows)
            diff = np.asarray(lhs, dtype=object) - np.asarray(cand, dtype=object) * D
            if np.any(diff != 0):
                raise ValueError("vector is not in the subspace")
        out = np.empty((k, self.dim), dtype=object)
        for j, dj in enumerate(d):
            col = num[:, j]
            for i in range(k):
                out[i, j] = Fraction(int(col[i]), dj)
        return out

    def coordinates(self, v: Sequence[Any]) -> list[Fraction]:
        """Coordinates of ``v`` in ``basis``; ``ValueError`` if ``v`` is not in the subspace."""
        rows, scales = to_field_rows(self._check_vec(v), "QQ", "v")
        c = self.coordinates_rows(rows)[0]
        return [x / scales[0] for x in c]

    def _check_vec(self, v):
        rows = _as_2d([v], "v")
        if len(rows[0]) != self.ambient_dim:
            raise ValueError(f"v has length {len(rows[0])}, ambient dimension is {self.ambient_dim}")
        return rows

    def intersection(self, other: "RationalSubspace") -> "RationalSubspace":
        """``self ∩ other`` (Zassenhaus: kernel of [A; -B] gives the common vectors)."""
        self._check_compatible(other)
        if self.dim == 0 or other.dim == 0:
            return RationalSubspace(self.ambient_dim)
        A = np.concatenate([self.rows.astype(object), -other.rows.astype(object)])
        ker = nullspace(A.T)  # c with A^T c = 0 -> sum c_i a_i = sum c'_j b_j
        if not ker:
            return RationalSubspace(self.ambient_dim)
        coef = np.array([[c for c in v[:self.dim]] for v in ker], dtype=object)
        vecs = coef @ self.rows.astype(object)
        rows, _ = to_field_rows([list(r) for r in vecs], "QQ")
        return RationalSubspace(self.ambient_dim).extend_rows(rows)[0]


class FieldSubspace(Subspace):
    """A subspace of ``K^N`` for a sympy field domain ``K`` (e.g. ``QQ<sqrt(5)>``), in RREF via
    ``DomainMatrix``. ``rows``: list of lists of domain elements (the RREF, pivot entries 1)."""

    def __init__(self, field, ambient_dim: int, rows: list | None = None, pivots: Sequence[int] = ()):
        self.field = field
        self.ambient_dim = int(ambient_dim)
        self.rows = rows or []
        self.pivots = tuple(pivots)

    @property
    def dim(self) -> int:
        return len(self.pivots)

    @property
    def basis(self) -> list[list[Any]]:
        """The RREF rows as sympy numbers."""
        return [[self.field.to_sympy(x) for x in r] for r in self.rows]

    def extend_rows(self, cand: list) -> tuple["FieldSubspace", list]:
        from sympy.polys.matrices import DomainMatrix

        cand = [list(r) for r in cand]
        cand = [r for r in cand if any(x != self.field.zero for x in r)]
        if not cand or self.dim == self.ambient_dim:
            return self, []
        stack = [list(r) for r in self.rows] + cand
        R, piv = DomainMatrix(stack, (len(stack), self.ambient_dim), self.field).rref()
        rl = R.to_list()[:len(piv)]
        new = FieldSubspace(self.field, self.ambient_dim, rl, piv)
        old = set(self.pivots)
        return new, [r for r, p in zip(rl, piv) if p not in old]

    def contains_rows(self, cand: list) -> bool:
        return self.extend_rows(cand)[0].dim == self.dim

    def coordinates_rows(self, cand: list, check: bool = True) -> list[list[Any]]:
        K = self.field
        out = []
        for v in cand:
            v = list(v)
            c = [v[p] for p in self.pivots]
            if check:
                for j in range(self.ambient_dim):
                    s = K.zero
                    for ci, r in zip(c, self.rows):
                        s += ci * r[j]
                    if s != v[j]:
                        raise ValueError("vector is not in the subspace")
            out.append(c)
        return out

    def coordinates(self, v: Sequence[Any]) -> list[Any]:
        return [self.field.to_sympy(x) for x in self.coordinates_rows(self._convert([v]))[0]]

    def intersection(self, other: "FieldSubspace") -> "FieldSubspace":
        from sympy.polys.matrices import DomainMatrix

        self._check_compatible(other)
        if self.dim == 0 or other.dim == 0:
            return FieldSubspace(self.field, self.ambient_dim)
        K = self.field
        A = self.rows + [[-x for x in r] for r in other.rows]
        AT = DomainMatrix(A, (len(A), self.ambient_dim), K).transpose()
        ker = AT.nullspace().to_list()
        vecs = []
        for c in ker:
            v = [K.zero] * self.ambient_dim
            for ci, r in zip(c[:self.dim], self.rows):
                v = [a + ci * b for a, b in zip(v, r)]
            vecs.append(v)
        return FieldSubspace(K, self.ambient_dim).extend_rows(vecs)[0]


def _float_rows(cand: Any, N: int) -> np.ndarray:
    """``cand`` as a float ``(k, N)`` array (also for ``N = 0``, where ``reshape(-1, 0)`` is
    ambiguous)."""
    a = np.asarray(cand, dtype=working_dtype())
    if N == 0:
        return np.zeros((a.shape[0] if a.ndim == 2 else 0, 0))
    return a.reshape(-1, N)


class FloatSubspace(Subspace):
    """A subspace of ``R^N`` with an orthonormal basis ``rows`` (float64, ``(dim, N)``).

    Rank decisions: candidates are normalised to unit norm, stacked with ``rows``, and decided by
    :func:`rank_decision` (relative tolerance ``tol``; a gap of at least :data:`MIN_GAP` between
    kept singular values and both the dropped ones and the rounding bound, else
    :class:`NumericalRankError`). Candidates may carry a rounding bound per row (``noise``,
    relative to the row's norm; default: the rounding of float input); candidates are inserted in
    order of increasing noise, so one noisy row does not blur the decisions on clean ones.

    Recorded: ``noise`` -- a first-order bound on the sine of the angle between the computed
    subspace and the one an exact computation on the same input would give (Wedin's sin-theta
    bound over all insertions); ``smallest_gap`` -- the smallest gap of every decision so far;
    ``min_kept`` / ``max_dropped`` -- the smallest kept and largest dropped relative singular
    values over all decisions so far.
    """

    field = "RR"

    def __init__(self, ambient_dim: int, tol: float = 1e-9, rows: np.ndarray | None = None,
                 min_kept: float = math.inf, max_dropped: float = 0.0, noise: float = 0.0,
                 smallest_gap: float = math.inf):
        _check_tol(tol)
        self.ambient_dim = int(ambient_dim)
        self.tol = float(tol)
        self.rows = rows if rows is not None else np.zeros((0, self.ambient_dim))
        self.min_kept, self.max_dropped = min_kept, max_dropped
        self.noise, self.smallest_gap = float(noise), float(smallest_gap)

    @property
    def dim(self) -> int:
        return self.rows.shape[0]

    @property
    def basis(self) -> list[np.ndarray]:
        return list(self.rows)

    def _check_compatible(self, other):
        super()._check_compatible(other)
        if other.tol != self.tol:
            raise ValueError(f"subspaces have different tolerances ({self.tol}, {other.tol})")

    def _with(self, rows=None, decision: RankDecision | None = None, noise: float | None = None):
        mk, md, gap = self.min_kept, self.max_dropped, self.smallest_gap
        if decision is not None:
            if decision.rank:
                mk = min(mk, decision.min_kept)
            md = max(md, decision.max_dropped)
            gap = min(gap, decision.gap)
        return FloatSubspace(self.ambient_dim, self.tol, self.rows if rows is None else rows,
                             mk, md, self.noise if noise is None else noise, gap)

    def _candidates(self, cand, noise):
        cand = _float_rows(cand, self.ambient_dim)
        nu = np.broadcast_to(np.asarray(_input_noise(self.ambient_dim) if noise is None else noise,
                                        dtype=float), (cand.shape[0],))
        if cand.shape[0] == 0:
            return cand, nu
        keep = _row_norms(cand) > 0
        return _normalise_rows(cand[keep]), np.asarray(nu[keep], dtype=float)

    def extend_rows(self, cand: np.ndarray, noise: Any = None,
                    argument: str = "vectors") -> tuple["FloatSubspace", np.ndarray]:
        """Insert the rows ``cand`` (any scale; zero rows are ignored). ``noise``: rounding bound
        per row relative to its norm (scalar or one per row; default: float input rounding).
        Returns ``(new_subspace, new_rows)``: the orthonormal rows added, or, while
        :func:`recording_decisions` is active, the kept rows of ``cand`` scaled to unit norm
        (they span the same directions modulo ``self``, and their brackets do not carry the
        rounding that orthogonalisation amplifies in a direction with a small residual). Raises
        :class:`NumericalRankError` naming ``argument`` when a decision has no wide gap."""
        cand, nu = self._candidates(cand, noise)
        if cand.shape[0] == 0 or self.dim == self.ambient_dim:
            return self, np.zeros((0, self.ambient_dim))
        if is_recording():   # one recorded decision, continuous in the input (twin runs)
            return self._insert_in_order(cand, nu, argument)
        blurred = nu > 1.0 / MIN_GAP
        order = np.argsort(nu, kind="stable")
        order = order[~blurred[order]]
        band = np.floor(np.log10(np.maximum(nu[order], 1e-300)))
        cur, added = self, []
        for b in np.unique(band):
            idx = order[band == b]
            cur, new = cur._insert(cand[idx], nu[idx], argument)
            if new.shape[0]:
                added.append(new)
            if cur.dim == self.ambient_dim:
                break
        if np.any(blurred) and cur.dim < self.ambient_dim:
            cur = cur._absorb(cand[blurred], nu[blurred], argument)
        return cur, (np.concatenate(added) if added else np.zeros((0, self.ambient_dim)))

    def _absorb(self, cand: np.ndarray, nu: np.ndarray, argument: str) -> "FloatSubspace":
        """Rows whose own rounding bound exceeds ``1 / MIN_GAP`` can never open a new direction
        with a wide gap; each must lie in the subspace (relative residual within its rounding
        bound and ``<= tol / MIN_GAP``, the rule for dropped values in :func:`rank_decision`),
        else :class:`NumericalRankError`."""
        resid = cand - (cand @ self.rows.T) @ self.rows if self.dim else cand
        r = _row_norms(resid)
        slack = nu + math.sqrt(2.0) * self.noise + _svd_noise(*cand.shape)
        bad = r > np.minimum(self.tol / MIN_GAP, slack)
        if np.any(bad):
            i = int(np.argmax(np.where(bad, r + slack, -1.0)))
            raise NumericalRankError(argument, 0.0, self.tol, float(slack[i]),
                                     np.array([r[i]]), message=(
                                         f"a vector known only to relative accuracy {nu[i]:.3g} "
                                         f"(its norm is within {MIN_GAP:g} times its rounding "
                                         f"bound) has a component {r[i]:.3g} outside the span; "
                                         f"whether it lies in the span is not determined at "
                                         f"working precision (relative tol {self.tol:g}). Pass "
                                         f"exact entries (ints, Fractions, sympy numbers) for the "
                                         f"exact path"))
        md = max(self.max_dropped, float(r.max(initial=0.0)))
        return FloatSubspace(self.ambient_dim, self.tol, self.rows, self.min_kept, md, self.noise,
                             self.smallest_gap)

    def _insert_in_order(self, cand: np.ndarray, nu: np.ndarray, argument: str):
        """Recorded insertion (:func:`recording_decisions`) of the unit rows ``cand``, in order:
        each row's residual after projection onto the span so far (modified Gram-Schmidt, twice)
        is its recorded value, kept as a new direction when it exceeds ``tol``. The basis is a
        continuous function of the input while the decisions stay the same (an SVD basis is
        not: it turns freely inside a cluster of equal singular values), so twin runs on a
        perturbed input can be compared value by value. The ``noise`` attribute is propagated
        as by :meth:`_insert` (``nu``: the rows' rounding bounds), for the operations that
        still decide by the propagated bound."""
        R = cand - (cand @ self.rows.T) @ self.rows if self.dim else cand.copy()
        R = R - (R @ self.rows.T) @ self.rows if self.dim else R
        vals = np.linalg.norm(R, axis=1).astype(float)
        level = decision_level(self.tol)
        kept = np.zeros(R.shape[0], dtype=bool)
        # a row at or below the level now stays there (projection only shrinks it): its value is this
        # residual (an upper bound of its residual at its turn); only the others are processed
        act = np.flatnonzero(vals > level)
        room = self.ambient_dim - self.dim
        Q = np.zeros((0, self.ambient_dim), dtype=R.dtype)     # the new directions
        full_at = None
        for b0 in range(0, act.size, 64):   # blocks: project on the new directions at once
            if Q.shape[0] == room:
                full_at = int(act[b0])
                break
            blk = R[act[b0:b0 + 64]]
            for _ in range(2):
                blk = blk - (blk @ Q.T) @ Q if Q.shape[0] else blk
            for t in range(blk.shape[0]):
                if Q.shape[0] == room:
                    full_at = int(act[b0 + t])
                    break
                nrm = np.linalg.norm(blk[t])
                vals[act[b0 + t]] = nrm
                if nrm <= level:
                    continue
                q = blk[t] / nrm
                for _ in range(2):
                    q = q - (self.rows @ q) @ self.rows if self.dim else q
                    q = q - (Q @ q) @ Q if Q.shape[0] else q
                q = q / np.linalg.norm(q)
                kept[act[b0 + t]] = True
                Q = np.concatenate([Q, q[None, :]])
                blk[t + 1:] -= np.outer(blk[t + 1:] @ q, q)
            if full_at is not None:
                break
        if Q.shape[0] == room and room:
            # rows after the span became the whole ambient lie in it by dimension: value 0
            # (their residuals are rounding only and cannot hide a genuine value)
            last = int(np.flatnonzero(kept)[-1]) + 1
            vals[last:] = 0.0
        new = list(Q)
        # rows computed in float64 (e.g. from a float64 SVD) carry its rounding: up to MIN_GAP
        # units of float64 roundoff, as their own bound ``nu`` says, is rounding
        floor = max(_ARITHMETIC_FLOOR, min(float(nu.max(initial=0.0)), MIN_GAP * EPS))
        record_decision(argument, vals, kept, level, floor)
        newr = np.array(new) if new else np.zeros((0, self.ambient_dim))
        mk = float(vals[kept].min()) if new else math.inf
        md = float(vals[~kept].max(initial=0.0))
        gap = mk / md if new and md > 0 else math.inf
        noise = self.noise
        if new:
            eta = math.sqrt(self.noise ** 2 + float(np.sum(nu ** 2))) \
                + _svd_noise(self.dim + cand.shape[0], self.ambient_dim)
            noise = max(noise, eta / mk if mk > 2 * eta else 1.0, _input_noise(self.ambient_dim))
        out = FloatSubspace(self.ambient_dim, self.tol, np.concatenate([self.rows, newr]),
                            min(self.min_kept, mk), max(self.max_dropped, md), noise,
                            min(self.smallest_gap, gap))
        return out, cand[kept]

    def _insert(self, cand: np.ndarray, nu: np.ndarray, argument: str):
        """One rank decision on ``[rows; cand]`` (unit rows with noise ``nu``)."""
        stack = np.concatenate([self.rows, cand])
        s = np.linalg.svd(stack, compute_uv=False)
        eta = math.sqrt(self.noise ** 2 + float(np.sum(nu ** 2))) \
            + _svd_noise(*stack.shape) * float(s[0])
        d = rank_decision(s, self.tol, eta, argument)
        k = d.rank - self.dim
        if k <= 0:
            return self._with(decision=d), np.zeros((0, self.ambient_dim))
        resid = cand - (cand @ self.rows.T) @ self.rows if self.dim else cand
        _, _, vt = np.linalg.svd(resid, full_matrices=False)
        newr = vt[:k]
        newr = newr - (newr @ self.rows.T) @ self.rows if self.dim else newr
        q, _ = np.linalg.qr(newr.T)
        newr = q.T[:k]
        sigma = float(s[d.rank - 1])
        theta = eta / sigma if sigma > 2 * eta else 1.0          # Wedin: sin(angle) <= ||E|| / gap
        noise = max(self.noise, theta, _input_noise(self.ambient_dim))
        return self._with(np.concatenate([self.rows, newr]), d, noise), newr

    def contains_rows(self, cand: np.ndarray, noise: Any = None) -> bool:
        """Whether every row of ``cand`` lies in the subspace: by the same rank decision as
        :meth:`extend_rows` (so ``contains(v)`` is True exactly when ``extend([v])`` keeps the
        dimension; :class:`NumericalRankError` when that decision has no wide gap)."""
        cand = _float_rows(cand, self.ambient_dim)
        if cand.shape[0] == 0:
            return True
        return self.extend_rows(cand, noise)[0].dim == self.dim

    def is_subspace_of(self, other: "Subspace") -> bool:
        self._check_compatible(other)
        return other.contains_rows(self.rows, noise=self.noise)

    def sum(self, other: "Subspace") -> "FloatSubspace":
        """The sum ``self + other`` (``other``'s rows carry its ``noise``)."""
        self._check_compatible(other)
        out = self.extend_rows(other.rows, noise=other.noise)[0]
        return FloatSubspace(out.ambient_dim, out.tol, out.rows, out.min_kept, out.max_dropped,
                             out.noise, min(out.smallest_gap, other.smallest_gap))

    def coordinates_rows(self, cand: np.ndarray, check: bool = True) -> np.ndarray:
        """Coordinates (float64, ``(k, dim)``) of the rows ``cand`` in the orthonormal basis.
        With ``check`` a ``ValueError`` is raised unless :meth:`contains_rows` accepts them."""
        cand = _float_rows(cand, self.ambient_dim)
        if check and not self.contains_rows(cand):
            raise ValueError(f"vector is not in the subspace (relative tol {self.tol})")
        return cand @ self.rows.T

    def coordinates(self, v: Sequence[Any]) -> np.ndarray:
        """Coordinates of ``v`` in ``basis`` (float64); ``ValueError`` if ``v`` is not in it."""
        return self.coordinates_rows(self._convert([v]))[0]

    def intersection(self, other: "FloatSubspace") -> "FloatSubspace":
        """``self ∩ other``: the directions of ``other`` whose principal angle with ``self`` has
        sine ``<= max(tol, noise)`` (the sines are the singular values of the component of
        ``other``'s orthonormal basis orthogonal to ``self``; computed directly, not as
        ``1 - cos``, so the decision matches the rank decisions of :meth:`sum`), with the same
        gap rule (:class:`NumericalRankError` when no wide gap separates the common directions
        from the others)."""
        self._check_compatible(other)
        if self.dim == 0 or other.dim == 0:
            return FloatSubspace(self.ambient_dim, self.tol)
        B = other.rows
        R = B - (B @ self.rows.T) @ self.rows        # (k, N), k <= N
        u, sines, _ = np.linalg.svd(R, full_matrices=True)
        sines = np.concatenate([sines, np.zeros(B.shape[0] - sines.size)])
        eta = math.sqrt(2.0) * (self.noise + other.noise) + _svd_noise(*B.shape)
        d = _decide(sines, self.tol, eta, self.tol, "intersection")
        common = u[:, sines <= d.level].T @ B
        sep = float(sines[d.rank - 1]) if d.rank else 1.0
        theta = eta / sep if sep > 2 * eta else 1.0
        out = FloatSubspace(self.ambient_dim, self.tol)
        return out.extend_rows(common, noise=max(self.noise, other.noise, theta),
                               argument="intersection")[0]


# ----------------------------------------------------------------------------- functional API
def zero_subspace(ambient_dim: int, field="QQ", tol: float = 1e-9) -> Subspace:
    """The zero subspace of ``field^ambient_dim`` (``"QQ"``, ``"RR"`` or a sympy field)."""
    if isinstance(ambient_dim, bool) or not isinstance(ambient_dim, (int, np.integer)) \
            or ambient_dim < 0:
        raise ValueError(f"ambient_dim must be a non-negative int, got {ambient_dim!r}")
    _check_field(field)
    if field == "QQ":
        return RationalSubspace(ambient_dim)
    if field == "RR":
        return FloatSubspace(ambient_dim, tol)
    return FieldSubspace(field, ambient_dim)


def _check_field(field) -> None:
    """``field`` must be ``"QQ"``, ``"RR"`` or a sympy field domain (``ValueError`` otherwise)."""
    if isinstance(field, str):
        if field not in ("QQ", "RR"):
            raise ValueError(f"field must be 'QQ', 'RR' or a sympy field domain, got {field!r}")
        return
    from sympy.polys.domains.domain import Domain

    if not (isinstance(field, Domain) and field.is_Field):
        raise ValueError(f"field must be 'QQ', 'RR' or a sympy field domain, got {field!r}")


def span(vectors: Any, *, field=None, tol: float = 1e-9, ambient_dim: int | None = None) -> Subspace:
    """The span of the rows of ``vectors`` (2-D array-like of numbers).

    ``field`` defaults to :func:`detect_field` of the entries (floats -> ``"RR"`` with relative
    tolerance ``tol``). ``ambient_dim`` is needed only for an empty list. Raises ``ValueError``
    for ragged rows, NaN/inf or an empty input without ``ambient_dim``."""
    rows = _as_2d(vectors, "vectors")
    if not rows:
        if ambient_dim is None:
            raise ValueError("vectors is empty; pass ambient_dim")
        return zero_subspace(ambient_dim, field or "QQ", tol)
    N = len(rows[0])
    if ambient_dim is not None and ambient_dim != N:
        raise ValueError(f"vectors have length {N}, ambient_dim is {ambient_dim}")
    if field is None:
        field = detect_field(x for r in rows for x in r)
    else:
        _check_field(field)
    S = zero_subspace(N, field, tol)
    return S.extend(rows)


def rank(vectors: Any, *, field=None, tol: float = 1e-9) -> int:
    """Rank of the rows of ``vectors`` (exact over Q / number fields, see :func:`span`)."""
    return span(vectors, field=field, tol=tol).dim


def _rational_matrix(A: Any, name: str) -> tuple[list[list[Any]], np.ndarray]:
    """Validated rows of a non-empty rational matrix and their integer form (rows scaled by
    positive integers, which changes neither kernels nor row spaces)."""
    rows = _as_2d(A, name)
    if not rows:
        raise ValueError(f"{name} is empty (it has no rows)")
    ints, _scales = to_field_rows(rows, "QQ", name)
    return rows, np.asarray(ints, dtype=object).reshape(len(rows), len(rows[0]))


def nullspace(A: Any) -> list[list[Fraction]]:
    """Exact basis of the right kernel ``{x : A x = 0}`` of a rational matrix ``A``.

    ``A``: non-empty 2-D array-like (``m x n``) of ints / Fractions / sympy Rationals. Returns
    ``n - rank A`` vectors (lists of ``n`` Fractions), each a primitive integer vector (FLINT's
    kernel basis scaled by the gcd of its entries). Raises ``ValueError`` for an empty or ragged
    ``A``, NaN/inf; ``TypeError`` for floats, booleans, strings or irrational entries (use
    :func:`span` on a number field instead). Source: FLINT ``fmpz_mat_nullspace``."""
    import flint

    rows, ints = _rational_matrix(A, "A")
    m, n = ints.shape
    if n == 0:
        return []
    M = flint.fmpz_mat(m, n, [int(x) for x in ints.ravel().tolist()])
    X, nul = M.nullspace()
    out = []
    for j in range(nul):
        col = [int(X[i, j]) for i in range(n)]
        g = 0
        for x in col:
            g = math.gcd(g, x)
        out.append([Fraction(x, g) for x in col])
    return out


def solve(A: Any, b: Any) -> list[Fraction]:
    """Exact solution ``x`` of ``A x = b`` for a rational matrix ``A`` (``m x n``) and vector
    ``b`` (length ``m``); when the solution is not unique, the one with free variables 0.
    Returns a list of ``n`` Fractions. Raises ``ValueError`` when the system is inconsistent,
    ``A`` is empty or ragged, or the shapes disagree; ``TypeError`` for non-rational entries
    (floats, booleans, strings, irrationals) or a ``b`` that is not a flat sequence."""
    rows = _as_2d(A, "A")
    if not rows:
        raise ValueError("A is empty (it has no rows)")
    if isinstance(b, (str, bytes)) or not hasattr(b, "__iter__"):
        raise TypeError(f"b must be a sequence of numbers, got {type(b).__name__}")
    bl = list(np.asarray(b, dtype=object).ravel()) if isinstance(b, np.ndarray) else list(b)
    if any(hasattr(y, "__iter__") and not isinstance(y, (str, bytes)) for y in bl):
        raise TypeError("b must be a flat sequence of numbers (a vector), not a matrix")
    if len(bl) != len(rows):
        raise ValueError(f"A has {len(rows)} rows but b has length {len(bl)}")
    n = len(rows[0])
    aug = [list(r) + [y] for r, y in zip(rows, bl)]
    ints, _ = to_field_rows(aug, "QQ", "[A | b]")
    S = RationalSubspace(n + 1).extend_rows(ints)[0]
    if n in S.pivots:
        raise ValueError("the system A x = b is inconsistent")
    x = [Fraction(0)] * n
    for r, p in zip(S.rows, S.pivots):
        x[p] = Fraction(int(r[n]), int(r[p]))
    return x

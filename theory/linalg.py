"""Span / rank machinery: subspaces of ``F^N``, exact subspaces and the functional API.

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
* ``"RR"`` -- floating point: :class:`~seqtheory.theory.float_subspace.FloatSubspace` keeps an
  orthonormal basis; its rank decisions are those of :mod:`seqtheory.theory.float_rank`.

Modules: integer row arithmetic :mod:`~seqtheory.theory.int_rows`, input handling
:mod:`~seqtheory.theory.field_input`, the abstract :class:`Subspace`
(:mod:`~seqtheory.theory.subspace`), float rank decisions :mod:`~seqtheory.theory.float_rank`,
float subspaces :mod:`~seqtheory.theory.float_subspace`; this module keeps the exact subspaces
and the functional API, and re-exports the names other code imports from it.

Conventions: vectors are rows; ``coordinates`` are with respect to ``basis`` (in that order).
Source: standard Gaussian elimination (e.g. Golub & Van Loan, *Matrix Computations*, §3.2, §5.4
for the SVD rank), fraction-free elimination as implemented in FLINT.

Errors: ``ValueError`` for ragged / wrongly shaped input, NaN or infinity, an unknown field,
mismatched ambient dimensions or fields, an int too large for float64 on the float path;
``TypeError`` for entries that are not numbers (booleans, strings, complex floats) and for floats
or irrational numbers handed to an exact computation over ``"QQ"`` (a float such as 0.1 is never
silently read as the binary fraction 3602879701896397/2^55).
"""
from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, Sequence

import numpy as np

from ._messages import counted
from .contract import check_optional_int
from .field_input import as_2d, check_number, detect_field, to_field_rows
from .float_rank import (EPS, INPUT_ROUNDING, MIN_GAP, RESOLUTION_GAP, TWIN_PERTURBATION,
                         WEAK_DROP_MARGIN, FloatRank, NumericalRankError, RankDecision,
                         check_tol, compare_decision_logs, complement_rows, decision_level, float_rank,
                         is_recording, raised_levels, rank_decision, record_decision,
                         recording_decisions, resolutions, working_dtype)
from .float_subspace import FloatSubspace
from .int_rows import (as_int_rows, exact_matmul, fmpz_rows, independent_rows, int64_matmul,
                       primitive_rows, reduced_echelon, rref_pivots, unique_rows)
from .subspace import Subspace

__all__ = [
    "Subspace", "RationalSubspace", "FieldSubspace", "FloatSubspace",
    "detect_field", "to_field_rows", "check_number", "span", "zero_subspace", "rank", "solve",
    "nullspace", "float_rank", "FloatRank", "exact_matmul", "int64_matmul", "as_int_rows",
    "primitive_rows", "independent_rows", "rref_pivots", "subspace_rows", "full_subspace",
    "NumericalRankError", "RankDecision", "rank_decision", "MIN_GAP", "EPS",
    "recording_decisions", "record_decision", "is_recording", "compare_decision_logs",
    "TWIN_PERTURBATION", "INPUT_ROUNDING", "complement_rows", "resolutions",
    "working_dtype", "decision_level", "raised_levels", "WEAK_DROP_MARGIN", "RESOLUTION_GAP",
]


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
        cand = unique_rows(primitive_rows(cand))
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
                stack = unique_rows(stack)   # a candidate equal to a basis row adds nothing
            ech = reduced_echelon(stack)
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
            new = fmpz_rows(R, r, N)
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
        rows = as_2d([v], "v")
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
    tol = check_tol(tol)
    ambient_dim = check_optional_int("ambient_dim", ambient_dim, 0)
    rows = as_2d(vectors, "vectors")
    if not rows:
        if ambient_dim is None:
            raise ValueError("vectors is empty; pass ambient_dim")
        return zero_subspace(ambient_dim, field or "QQ", tol)
    N = len(rows[0])
    if ambient_dim is not None and ambient_dim != N:
        raise ValueError(f"vectors have length {N}, ambient_dim is {ambient_dim}")
    if field is None:
        field = detect_field((x for r in rows for x in r), "vectors")
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
    rows = as_2d(A, name)
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
    rows = as_2d(A, "A")
    if not rows:
        raise ValueError("A is empty (it has no rows)")
    if isinstance(b, (str, bytes)) or not hasattr(b, "__iter__"):
        raise TypeError(f"b must be a sequence of numbers, got {type(b).__name__}")
    bl = list(np.asarray(b, dtype=object).ravel()) if isinstance(b, np.ndarray) else list(b)
    if any(hasattr(y, "__iter__") and not isinstance(y, (str, bytes)) for y in bl):
        raise TypeError("b must be a flat sequence of numbers (a vector), not a matrix")
    if len(bl) != len(rows):
        raise ValueError(f"A has {counted(len(rows), 'row')} but b has length {len(bl)}")
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


def subspace_rows(S: Subspace):
    """The basis rows of ``S`` as a 2-D array (``object`` array of domain elements for a
    :class:`FieldSubspace`, the ``rows`` array otherwise)."""
    if isinstance(S, FieldSubspace):
        return np.array(S.rows, dtype=object).reshape(S.dim, S.ambient_dim)
    return S.rows


def full_subspace(field, d: int, tol: float | None = None) -> Subspace:
    """The whole of ``field^d`` (``"QQ"``, ``"RR"`` with tolerance ``tol`` or a sympy field)."""
    if field == "QQ":
        return RationalSubspace(d, np.eye(d, dtype=np.int64), range(d))
    if field == "RR":
        return FloatSubspace(d, tol, np.eye(d))
    return zero_subspace(d, field, tol or 1e-9).extend_rows([[field.one if i == j else field.zero for j in range(d)] for i in range(d)])[0]

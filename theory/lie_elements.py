"""Elements of an exact Lie algebra in coordinates, and the adjoint representation as the bridge
between the two ways a :class:`~seqtheory.theory.lie.LieAlgebra` is given (matrices, or
structure constants).

:class:`LieTable` holds the structure constants of an exact algebra ``L`` (over Q or a real
number field) with respect to ``L.basis`` as elements of the sympy field domain, and answers in
coordinates: brackets, adjoint matrices, the Killing form; it turns a subalgebra into
coordinate rows and coordinate rows back into a subalgebra. The public functions take elements
as the algebra gives them (``n x n`` matrices for a matrix algebra, coordinate vectors of the
ambient ``F^N`` for a structure-constant algebra), as :meth:`LieAlgebra.bracket` does.

Conventions (those of GAP): ``adjoint_matrix(L, x)[k, i]`` is the coefficient of ``basis[k]`` in
``[x, basis[i]]`` (column ``i`` is the image of ``basis[i]``: GAP ``AdjointMatrix(B, x)``);
``killing(L, x, y) = tr(ad x ad y)`` (Humphreys §5.1; GAP ``KillingMatrix`` on a basis);
``x`` is ad-nilpotent when ``(ad x)^dim = 0`` (GAP ``IsNilpotentElement(L, x)``, Humphreys
§3.2). :func:`adjoint_representation` is ``ad(L) ⊆ gl(dim L)`` as a matrix Lie algebra
(isomorphic to ``L`` exactly when the centre is 0; GAP ``AdjointModule``/``AdjointMatrix``);
:func:`structure_constant_algebra` is the abstract algebra on ``K^dim`` with ``L``'s structure
constants (GAP ``LieAlgebraByStructureConstants(F, StructureConstantsTable(Basis(L)))``).

Errors: ``TypeError`` for an ``L`` that is not a :class:`~seqtheory.theory.lie.LieAlgebra` and
for entries the algebra's field does not take (bools, strings, floats, complex numbers:
:func:`~seqtheory.theory.field_input.to_field_rows`), each naming the argument; ``ValueError``
for a float-path algebra (these are exact), an element outside the algebra or of the wrong size.
"""
from __future__ import annotations

from ._messages import counted

from typing import Any, Sequence

import numpy as np

from .contract import as_list, check_instance
from .field_input import to_field_rows
from .field_linalg import domain, is_zero_matrix, matmul, to_domain, to_number, trace

__all__ = ["LieTable", "adjoint_matrix", "killing", "is_ad_nilpotent", "coordinates",
           "adjoint_representation", "structure_constant_algebra"]


class LieTable:
    """The structure constants of the exact :class:`~seqtheory.theory.lie.LieAlgebra` ``algebra``
    in the sympy field domain ``K``: ``c[i][j]`` is the coordinate list of
    ``[basis[i], basis[j]]``; ``ad[i]`` the adjoint matrix of ``basis[i]`` (rows of ``K``
    elements, column convention). ``TypeError`` naming ``name`` for a non-algebra,
    ``ValueError`` for a float-path algebra."""

    def __init__(self, algebra, name: str = "L"):
        from .lie import LieAlgebra

        self.algebra = check_instance(name, algebra, LieAlgebra, "a LieAlgebra")
        self.K = domain(algebra.field)
        self.d = d = algebra.dim
        sc = algebra.structure_constants()
        K = self.K
        self.c = [[[to_domain(sc[i, j, k], K) for k in range(d)] for j in range(d)]
                  for i in range(d)]
        self.ad = [[[self.c[i][j][k] for j in range(d)] for k in range(d)] for i in range(d)]

    # ---------------------------------------------------------------- coordinates
    def entries(self, x: Any, name: str) -> list:
        """The entries of ``x`` (a matrix, a vector, nested sequences; flattened) as elements of
        the algebra's field, read by :func:`~seqtheory.theory.field_input.to_field_rows`:
        ``TypeError`` naming ``name`` for a non-sequence and for entries the field does not
        take (bools, strings, floats, complex numbers), ``ValueError`` for NaN."""
        rows = as_list(name, x.tolist() if hasattr(x, "tolist") else x,
                       "an element of the Lie algebra (a matrix or a vector of exact numbers)")
        v = list(np.asarray(rows, dtype=object).ravel())
        field = self.algebra.field
        if field != "QQ":
            return to_field_rows([v], field, name)[0]
        ints, scales = to_field_rows([v], field, name)
        return [self.K.convert(int(a)) / scales[0] for a in (ints[0] if v else [])]

    def coords(self, x: Any, name: str = "x") -> list:
        """The coordinates of the element ``x`` of the algebra w.r.t. its basis (entries read
        by :meth:`entries`; ``ValueError`` when ``x`` has the wrong size or lies outside the
        algebra)."""
        v = [to_number(a, self.K) for a in self.entries(x, name)]
        N = self.algebra.space.ambient_dim
        if len(v) != N:
            raise ValueError(f"{name} has {counted(len(v), 'entry', 'entries')}; the algebra's elements have {N}")
        try:
            c = self.algebra.space.coordinates(v)
        except ValueError:
            raise ValueError(f"{name} is not an element of the Lie algebra") from None
        return [to_domain(a, self.K) for a in c]

    def element(self, coords: Sequence[Any]):
        """The element ``sum_i coords[i] basis[i]`` as the algebra gives elements."""
        out = None
        for a, b in zip(coords, self.algebra.basis):
            if a:
                term = np.asarray(b, dtype=object) * to_number(a, self.K)
                out = term if out is None else out + term
        if out is None:
            out = np.zeros_like(np.asarray(self.algebra.basis[0], dtype=object)) \
                if self.d else np.zeros(self.algebra.space.ambient_dim, dtype=object)
        return out

    def rows_of(self, sub) -> list[list]:
        """The coordinate rows of the basis of the subalgebra ``sub`` of the algebra."""
        return [self.coords(b, "a basis element of the subalgebra") for b in sub.basis]

    def checked_rows(self, sub, name: str) -> list[list]:
        """:meth:`rows_of` for an argument ``name`` that must be a subalgebra of the algebra
        (``TypeError`` for a non-algebra, ``ValueError`` for one that is not a subalgebra)."""
        from .lie import LieAlgebra

        if not isinstance(sub, LieAlgebra):
            raise TypeError(f"{name} must be a LieAlgebra, got {type(sub).__name__}")
        if not sub.is_subalgebra_of(self.algebra):
            raise ValueError(f"{name} is not a subalgebra of L")
        return self.rows_of(sub)

    def subalgebra(self, rows: Sequence[Sequence[Any]]):
        """The subalgebra spanned by the coordinate rows (``ValueError`` if not closed)."""
        return self.algebra.from_coordinates([[to_number(x, self.K) for x in r] for r in rows])

    # ---------------------------------------------------------------- products
    def bracket(self, u: Sequence[Any], v: Sequence[Any]) -> list:
        K, d = self.K, self.d
        out = [K.zero] * d
        for i, a in enumerate(u):
            if not a:
                continue
            ci = self.c[i]
            for j, b in enumerate(v):
                if b:
                    ab = a * b
                    out = [o + ab * x for o, x in zip(out, ci[j])]
        return out

    def ad_of(self, u: Sequence[Any]) -> list[list]:
        """The adjoint matrix of the element with coordinates ``u``."""
        K, d = self.K, self.d
        M = [[K.zero] * d for _ in range(d)]
        for i, a in enumerate(u):
            if a:
                A = self.ad[i]
                M = [[m + a * x for m, x in zip(mr, ar)] for mr, ar in zip(M, A)]
        return M

    def killing(self, u: Sequence[Any], v: Sequence[Any]):
        return trace(matmul(self.ad_of(u), self.ad_of(v), self.K), self.K)

    def killing_matrix(self) -> list[list]:
        """``[[tr(ad e_a ad e_b)]]`` in the field domain (from ``algebra.killing_form()``)."""
        Km = self.algebra.killing_form()
        return [[to_domain(x, self.K) for x in r] for r in Km]


def _export_matrix(M, K) -> np.ndarray:
    n = len(M)
    out = np.empty((n, len(M[0]) if n else 0), dtype=object)
    for i, r in enumerate(M):
        for j, x in enumerate(r):
            out[i, j] = to_number(x, K)
    return out


def coordinates(L, x: Any) -> list:
    """The coordinates of the element ``x`` of ``L`` w.r.t. ``L.basis`` (Fractions over Q,
    sympy numbers over a number field). ``ValueError`` when ``x`` is not in ``L``. Source: GAP
    ``Coefficients(Basis(L), x)``."""
    T = LieTable(L)
    return [to_number(a, T.K) for a in T.coords(x)]


def adjoint_matrix(L, x: Any) -> np.ndarray:
    """The matrix of ``ad x`` on ``L`` w.r.t. ``L.basis`` (``dim x dim`` object array; column
    ``i`` holds the coordinates of ``[x, basis[i]]``). Source: GAP ``AdjointMatrix(B, x)``;
    Humphreys §1.3."""
    T = LieTable(L)
    return _export_matrix(T.ad_of(T.coords(x)), T.K)


def killing(L, x: Any, y: Any):
    """The Killing form ``κ(x, y) = tr(ad x ad y)`` of two elements of ``L`` (a Fraction over Q,
    a sympy number over a number field). Source: Humphreys §5.1; GAP ``KillingMatrix``."""
    T = LieTable(L)
    return to_number(T.killing(T.coords(x, "x"), T.coords(y, "y")), T.K)


def is_ad_nilpotent(L, x: Any) -> bool:
    """Whether ``ad x`` is nilpotent on ``L`` (``(ad x)^dim = 0``). Source: GAP
    ``IsNilpotentElement(L, x)``; Humphreys §3.2 (Engel)."""
    T = LieTable(L)
    A = T.ad_of(T.coords(x))
    P = A
    for _ in range(max(T.d - 1, 0)):
        if is_zero_matrix(P):
            return True
        P = matmul(P, A, T.K)
    return is_zero_matrix(P)


def adjoint_representation(L):
    """``ad(L)``: the matrix Lie algebra spanned by the adjoint matrices of ``L.basis``
    (:func:`adjoint_matrix`), a homomorphic image of ``L`` (``[ad x, ad y] = ad [x, y]``) whose
    kernel is the centre; isomorphic to ``L`` when the centre is 0. The zero algebra of
    ``gl(1)`` for ``dim L = 0``. Source: Humphreys §1.3; GAP ``AdjointMatrix``."""
    from .lie import LieAlgebra

    T = LieTable(L)
    if T.d == 0:
        return LieAlgebra.spanned_by([np.zeros((1, 1), dtype=np.int64)])
    return LieAlgebra.spanned_by([_export_matrix(A, T.K) for A in T.ad])


def structure_constant_algebra(L):
    """The abstract Lie algebra on ``K^dim`` with ``L``'s structure constants in ``L.basis``
    (``[e_i, e_j] = sum_k c_ijk e_k``), isomorphic to ``L`` by ``basis[i] -> e_i``; the same
    series, invariants and Killing form in that basis. Source: GAP
    ``LieAlgebraByStructureConstants(F, StructureConstantsTable(Basis(L)))``."""
    from .lie import LieAlgebra

    T = LieTable(L)
    sparse = {}
    for i in range(T.d):
        for j in range(i + 1, T.d):
            row = {k: to_number(x, T.K) for k, x in enumerate(T.c[i][j]) if x}
            if row:
                sparse[(i, j)] = row
    return LieAlgebra.from_structure_constants(sparse, dim=T.d, field=L.field)

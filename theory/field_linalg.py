"""Exact linear algebra over Q and real number fields on plain rows, for the structure-constant
machinery (:mod:`.lie_elements`, :mod:`.lie_radical`, :mod:`.lie_ideals`,
:mod:`.lie_chevalley`).

A matrix is a list of rows (lists) of elements of a sympy field domain ``K``: ``QQ`` (elements
``K(p, q)``) or a real number field (e.g. ``QQ<sqrt(2)>``). Kernels and row reduction over Q
run fraction-free in python-flint (``fmpz_mat``: rows are scaled to integers first, which
changes neither kernels nor row spaces; rational RREF in ``fmpq_mat`` or sympy's ``DomainMatrix``
is about 25 times slower on a 4410 x 441 kernel, the size of a derivation system); over a
number field through sympy's ``DomainMatrix``. Source: fraction-free Gaussian elimination as
implemented in FLINT; sympy ``DomainMatrix``.
"""
from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, Sequence

__all__ = ["domain", "to_domain", "to_number", "kernel", "row_reduce", "solve_particular",
           "reduce_modulo", "matmul", "identity", "trace", "is_zero_matrix", "matrix_rank"]


def domain(field):
    """The sympy domain of a :class:`~seqtheory.theory.lie.LieAlgebra` field (``"QQ"`` -> sympy's
    ``QQ``; a number field domain is returned as it is). ``ValueError`` for ``"RR"``: these
    computations are exact only."""
    from sympy.polys.domains import QQ

    if field == "QQ":
        return QQ
    if field == "RR" or isinstance(field, str):
        raise ValueError("this computation is exact: it needs an algebra over Q or a number "
                         "field (exact entries), not the float path (field 'RR')")
    return field


def to_domain(x: Any, K):
    """A number (int, Fraction, sympy number, or already an element of ``K``) as an element of
    ``K``."""
    import sympy

    if isinstance(x, Fraction):
        return K.convert(sympy.Rational(x.numerator, x.denominator))
    if isinstance(x, int):
        return K.convert(x)
    try:
        return K.convert(x)
    except (sympy.CoercionFailed, TypeError, ValueError):
        return K.from_sympy(sympy.sympify(x))


def to_number(x: Any, K):
    """An element of ``K`` exported: a ``Fraction`` over Q, a sympy number otherwise."""
    from sympy.polys.domains import QQ

    if K == QQ:
        return Fraction(int(x.numerator), int(x.denominator))
    return K.to_sympy(x)


def _is_qq(K) -> bool:
    from sympy.polys.domains import QQ

    return K == QQ


def _integer_rows(rows: Sequence[Sequence[Any]]) -> list[list[int]]:
    """Rows over Q scaled (each by the lcm of its denominators) to integer rows."""
    out = []
    for r in rows:
        den = 1
        for x in r:
            den = den * int(x.denominator) // math.gcd(den, int(x.denominator))
        out.append([int(x.numerator) * (den // int(x.denominator)) for x in r])
    return out


def kernel(rows: Sequence[Sequence[Any]], ncols: int, K) -> list[list[Any]]:
    """A basis of the right kernel ``{x : A x = 0}`` of the matrix with these ``rows`` (each of
    length ``ncols``; no rows: the whole space), as lists of ``K`` elements."""
    rows = [list(r) for r in rows if any(x for x in r)]
    if ncols == 0:
        return []
    if not rows:
        return [[K.one if i == j else K.zero for j in range(ncols)] for i in range(ncols)]
    if _is_qq(K):
        from .linalg import nullspace

        return [[K(x.numerator, x.denominator) for x in v] for v in nullspace(_integer_rows(rows))]
    from sympy.polys.matrices import DomainMatrix

    N = DomainMatrix(rows, (len(rows), ncols), K).nullspace()
    return [list(r) for r in N.to_list()]


def row_reduce(rows: Sequence[Sequence[Any]], ncols: int, K) -> tuple[list[list[Any]], list[int]]:
    """The reduced row echelon form of ``rows`` without its zero rows (pivot entries 1) and the
    pivot columns."""
    rows = [list(r) for r in rows if any(x for x in r)]
    if not rows or ncols == 0:
        return [], []
    if _is_qq(K):
        import flint

        R, den, rank = flint.fmpz_mat(_integer_rows(rows)).rref()
        out, piv = [], []
        for i in range(rank):
            r = [int(R[i, j]) for j in range(ncols)]
            p = next(j for j, x in enumerate(r) if x)
            out.append([K(x, r[p]) for x in r])
            piv.append(p)
        return out, piv
    from sympy.polys.matrices import DomainMatrix

    R, piv = DomainMatrix(rows, (len(rows), ncols), K).rref()
    return [list(r) for r in R.to_list()[:len(piv)]], list(piv)


def reduce_modulo(v: Sequence[Any], rows: Sequence[Sequence[Any]], pivots: Sequence[int]) -> list:
    """``v`` minus its component in the span of the RREF ``rows`` (pivot entries 1 at
    ``pivots``): what is left is 0 on the pivots, and it is 0 exactly when ``v`` lies in the
    span. Works on any exact or mpmath numbers."""
    out = list(v)
    for r, p in zip(rows, pivots):
        a = out[p]
        if a:
            out = [x - a * y for x, y in zip(out, r)]
    return out


def solve_particular(rows: Sequence[Sequence[Any]], rhs: Sequence[Any], ncols: int, K
                     ) -> list[Any] | None:
    """One solution ``x`` of ``A x = rhs`` (free variables 0), or ``None`` when there is none."""
    aug = [list(r) + [b] for r, b in zip(rows, rhs)]
    R, piv = row_reduce(aug, ncols + 1, K)
    if ncols in piv:
        return None
    x = [K.zero] * ncols
    for r, p in zip(R, piv):
        x[p] = r[ncols]
    return x


def matrix_rank(rows: Sequence[Sequence[Any]], ncols: int, K) -> int:
    return len(row_reduce(rows, ncols, K)[1])


def matmul(A: Sequence[Sequence[Any]], B: Sequence[Sequence[Any]], K) -> list[list[Any]]:
    """The product of two matrices given as lists of rows."""
    n = len(B[0]) if B else 0
    out = []
    for r in A:
        row = [K.zero] * n
        for a, b in zip(r, B):
            if a:
                row = [x + a * y for x, y in zip(row, b)]
        out.append(row)
    return out


def identity(n: int, K) -> list[list[Any]]:
    return [[K.one if i == j else K.zero for j in range(n)] for i in range(n)]


def trace(A: Sequence[Sequence[Any]], K):
    t = K.zero
    for i, r in enumerate(A):
        t += r[i]
    return t


def is_zero_matrix(A: Sequence[Sequence[Any]]) -> bool:
    return not any(x for r in A for x in r)

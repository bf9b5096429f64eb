"""The simple Lie algebras of types A-D over Q in a Chevalley basis, with their root systems.

``simple_lie_algebra(kind, rank)`` (``kind`` in ``"ABCD"``) builds the algebra as structure
constants in a Chevalley basis ``x_α`` (positive roots, by height), ``y_α = x_{-α}`` (the same
order), ``h_1, ..., h_n`` -- the order of GAP's ``SimpleLieAlgebra(kind, rank, Rationals)``.

Construction (Humphreys §25; Carter, *Simple Groups of Lie Type*, §4.2). Chevalley generators
``e_i, f_i`` of the classical matrix algebras (Humphreys §1.2): ``sl(n+1)`` (A_n),
``so(2n+1)`` for the form ``[[1,0,0],[0,0,I],[0,I,0]]`` (B_n), ``sp(2n)`` for
``[[0,I],[-I,0]]`` (C_n), ``so(2n)`` for ``[[0,I],[I,0]]`` (D_n), scaled so that
``h_i = [e_i, f_i]`` acts on ``e_i`` by 2. The Cartan matrix is read off the matrices
(``A[i][j] = α_j(h_i)``, Bourbaki numbering: the last simple root is the short one in B_n,
the long one in C_n, the fork in D_n); the positive roots follow by root strings
(``β + α_i`` is a root iff ``p - <β, α_i^∨> > 0``, ``p`` the length of the ``α_i``-string
below ``β``). For a non-simple positive root ``α = α_i + β`` (``i`` the least index with
``α - α_i`` a root) ``x_α = [e_i, x_β] / (p + 1)`` and ``y_α = [y_β, f_i] / (p + 1)``
(``y_α = -ω(x_α)`` for the Chevalley involution ``ω``). The construction is checked, not
assumed: every structure constant is an integer, ``[x_α, y_α] = h_α`` with ``α(h_α) = 2``,
``[x_α, x_β] = ±(p+1) x_{α+β}``, and the algebra has dimension ``rank + 2 |Φ+|``
(``RuntimeError`` otherwise, a defect).

Oracles (Humphreys §12.1, Table): ``|Φ|`` is ``n(n+1)`` (A_n), ``2n²`` (B_n, C_n),
``2n(n-1)`` (D_n); the rank is ``n``. Ranks: A_n for n >= 1, B_n for n >= 2, C_n for n >= 2
(``C_2 ≅ B_2``), D_n for n >= 4 (``D_3 ≅ A_3``); other ranks raise ``ValueError``, as do ranks
above :data:`MAX_RANK` for the constructions (``simple_lie_algebra``, ``cartan_matrix``), refused
before any matrix is built.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from fractions import Fraction
from typing import Any

import numpy as np

from ._checks import check_int
from .field_linalg import row_reduce

__all__ = ["ChevalleyAlgebra", "simple_lie_algebra", "cartan_matrix", "root_system_size",
           "MAX_RANK"]

_MIN_RANK = {"A": 1, "B": 2, "C": 2, "D": 4}
#: the largest rank built (the construction grows about like rank^5: A_12, of dimension 168,
#: takes about 9 s; ``cartan_matrix`` reads the Cartan matrix off the same generators)
MAX_RANK = 16


def root_system_size(kind: str, rank: int) -> int:
    """``|Φ|``, the number of roots of the root system of type ``kind`` and rank ``rank``
    (Humphreys §12.1): ``n(n+1)``, ``2n²``, ``2n²``, ``2n(n-1)`` for A, B, C, D (any rank:
    nothing is built)."""
    kind, n = _check_type(kind, rank, None)
    return {"A": n * (n + 1), "B": 2 * n * n, "C": 2 * n * n, "D": 2 * n * (n - 1)}[kind]


def _check_type(kind: Any, rank: Any, maximum: int | None = MAX_RANK) -> tuple[str, int]:
    if not isinstance(kind, str):
        raise TypeError(f"kind must be one of 'A', 'B', 'C', 'D', got {type(kind).__name__} "
                        f"{kind!r}")
    if kind.upper() not in _MIN_RANK:
        raise ValueError(f"kind must be one of 'A', 'B', 'C', 'D', got {kind!r}")
    kind = kind.upper()
    n = check_int("rank", rank, _MIN_RANK[kind], maximum)
    return kind, n


def _unit(N: int, i: int, j: int):
    """The matrix unit ``E_ij`` (``N x N``) as a python-flint ``fmpq_mat``."""
    import flint

    m = flint.fmpq_mat(N, N)
    m[i, j] = 1
    return m


def _generators(kind: str, n: int) -> tuple[list, list]:
    """Chevalley generators ``e_i, f_i`` (``i = 1..n``) as exact ``fmpq_mat`` matrices (module
    docstring)."""
    if kind == "A":
        N = n + 1
        return ([_unit(N, i, i + 1) for i in range(n)], [_unit(N, i + 1, i) for i in range(n)])
    if kind == "B":                    # indices: 0 (middle), 1..n, n+1..2n
        N = 2 * n + 1
        E, F = [], []
        for i in range(1, n):
            E.append(_unit(N, i, i + 1) - _unit(N, n + i + 1, n + i))
            F.append(_unit(N, i + 1, i) - _unit(N, n + i, n + i + 1))
        E.append(_unit(N, n, 0) - _unit(N, 0, 2 * n))
        F.append(2 * (_unit(N, 0, n) - _unit(N, 2 * n, 0)))
        return E, F
    if kind == "C":                    # indices 0..n-1, n..2n-1
        N = 2 * n
        E, F = [], []
        for i in range(n - 1):
            E.append(_unit(N, i, i + 1) - _unit(N, n + i + 1, n + i))
            F.append(_unit(N, i + 1, i) - _unit(N, n + i, n + i + 1))
        E.append(_unit(N, n - 1, 2 * n - 1))
        F.append(_unit(N, 2 * n - 1, n - 1))
        return E, F
    N = 2 * n                          # D: indices 0..n-1, n..2n-1
    E, F = [], []
    for i in range(n - 1):
        E.append(_unit(N, i, i + 1) - _unit(N, n + i + 1, n + i))
        F.append(_unit(N, i + 1, i) - _unit(N, n + i, n + i + 1))
    E.append(_unit(N, n - 2, 2 * n - 1) - _unit(N, n - 1, 2 * n - 2))
    F.append(_unit(N, 2 * n - 1, n - 2) - _unit(N, 2 * n - 2, n - 1))
    return E, F


def _br(a, b):
    """``ab - ba`` (exact, ``fmpq_mat``)."""
    return a * b - b * a


def _nonzero(M) -> list[tuple[int, int]]:
    return [(i, j) for i in range(M.nrows()) for j in range(M.ncols()) if M[i, j] != 0]


def _eigen(h, x) -> Fraction:
    """``λ`` with ``[h, x] = λ x`` (``RuntimeError`` when ``x`` is not an eigenvector)."""
    y = _br(h, x)
    i, j = _nonzero(x)[0]
    q = y[i, j] / x[i, j]
    if y != x * q:
        raise RuntimeError("Chevalley construction: a root vector is not an eigenvector of h")
    return Fraction(int(q.p), int(q.q))


def cartan_matrix(kind: str, rank: int) -> list[list[int]]:
    """The Cartan matrix ``A[i][j] = <α_j, α_i^∨> = α_j(h_i)`` (Bourbaki numbering), read off
    the Chevalley generators. Source: Humphreys §11.1 (where the transpose convention
    ``<α_i, α_j>`` is used), Bourbaki, *Lie*, Ch. VI Plates."""
    kind, n = _check_type(kind, rank)
    E, F = _generators(kind, n)
    H = [_br(e, f) for e, f in zip(E, F)]
    return [[int(_eigen(H[i], E[j])) for j in range(n)] for i in range(n)]


def _positive_roots(A: list[list[int]]) -> list[tuple[int, ...]]:
    """Positive roots in simple-root coordinates, by height (then in order of discovery)."""
    n = len(A)
    simple = [tuple(int(i == j) for j in range(n)) for i in range(n)]
    roots, level = list(simple), list(simple)
    known = set(roots)
    while level:
        nxt = []
        for beta in level:
            for i in range(n):
                p, down = 0, list(beta)
                while True:
                    down[i] -= 1
                    if tuple(down) in known:
                        p += 1
                    else:
                        break
                pairing = sum(beta[j] * A[i][j] for j in range(n))    # <β, α_i^∨>
                if p - pairing > 0:
                    up = tuple(beta[j] + (j == i) for j in range(n))
                    if up not in known:
                        known.add(up)
                        nxt.append(up)
        roots += nxt
        level = nxt
    return roots


@dataclass(frozen=True)
class ChevalleyAlgebra:
    """A simple Lie algebra in a Chevalley basis. ``algebra``: the structure-constant
    :class:`~seqtheory.theory.lie.LieAlgebra` over Q on the basis ``x_α`` (positive roots),
    ``y_α``, ``h_i``; ``matrices``: the same basis in the natural matrix representation
    (exact integer/Fraction object arrays); ``positive_roots``: simple-root coordinates of
    ``α`` for ``x_α``, in basis order; ``cartan``: the Cartan matrix; ``kind``, ``rank``."""

    kind: str
    rank: int
    algebra: Any
    matrices: tuple
    positive_roots: tuple
    cartan: tuple

    @property
    def n_roots(self) -> int:
        """``|Φ|`` = twice the number of positive roots."""
        return 2 * len(self.positive_roots)

    @property
    def labels(self) -> list[str]:
        """``x1..xN, y1..yN, h1..hn`` as GAP prints the basis of ``SimpleLieAlgebra``."""
        N = len(self.positive_roots)
        return ([f"x{i + 1}" for i in range(N)] + [f"y{i + 1}" for i in range(N)]
                + [f"h{i + 1}" for i in range(self.rank)])


def _coordinates_solver(B: list):
    """A function giving the exact coordinates of a matrix in the independent basis ``B``
    (``fmpq_mat`` matrices; solved on ``dim`` pivot columns, then checked on every entry;
    ``RuntimeError`` for a matrix outside the span or with non-integer coordinates -- the
    structure constants of a Chevalley basis are integers)."""
    import flint
    from sympy.polys.domains import QQ

    flat = [[x for x in b.entries()] for b in B]
    _, piv = row_reduce([[QQ(int(x.p), int(x.q)) for x in r] for r in flat], len(flat[0]), QQ)
    if len(piv) != len(B):
        raise RuntimeError("Chevalley construction: the basis matrices are dependent")
    rows = flint.fmpq_mat(flat)
    inv = flint.fmpq_mat([[r[c] for c in piv] for r in flat]).inv()

    def coords(X) -> list[int]:
        v = X.entries()
        x = flint.fmpq_mat([[v[c] for c in piv]]) * inv
        if any(x[0, k].q != 1 for k in range(len(piv))):
            raise RuntimeError("Chevalley construction: a structure constant is not an integer")
        if (x * rows).entries() != v:
            raise RuntimeError("Chevalley construction: a bracket left the span of the basis")
        return [int(x[0, k].p) for k in range(len(piv))]

    return coords


def _exported(M) -> np.ndarray:
    """An ``fmpq_mat`` as an object array of ints / Fractions."""
    out = np.empty((M.nrows(), M.ncols()), dtype=object)
    for i in range(M.nrows()):
        for j in range(M.ncols()):
            q = M[i, j]
            out[i, j] = int(q.p) if q.q == 1 else Fraction(int(q.p), int(q.q))
    return out


def _string_below(beta: tuple, i: int, known: set) -> int:
    """``p``: the largest ``p`` with ``β - p α_i`` a root."""
    p, down = 0, list(beta)
    while True:
        down[i] -= 1
        if tuple(down) not in known:
            return p
        p += 1


def simple_lie_algebra(kind: str, rank: int) -> ChevalleyAlgebra:
    """The simple Lie algebra of type ``kind`` (``"A"``, ``"B"``, ``"C"``, ``"D"``) and rank
    ``rank`` over Q in a Chevalley basis (module docstring). ``ValueError`` for another type
    or a rank below the type's minimum (A1, B2, C2, D4). Source: GAP
    ``SimpleLieAlgebra(kind, rank, Rationals)`` (same basis order); Humphreys §25.2
    (Chevalley basis), §1.2 (the classical algebras)."""
    from .lie import LieAlgebra

    kind, n = _check_type(kind, rank)
    basis, roots, A, sparse = _chevalley_table(kind, n)
    L = LieAlgebra.from_structure_constants({k: dict(v) for k, v in sparse.items()},
                                            dim=len(basis))
    return ChevalleyAlgebra(kind, n, L, tuple(_exported(b) for b in basis), tuple(roots),
                            tuple(tuple(r) for r in A))


@lru_cache(maxsize=16)
def _chevalley_table(kind: str, n: int):
    """``(basis matrices, positive roots, Cartan matrix, sparse structure constants)``."""
    E, F = _generators(kind, n)
    H = [_br(e, f) for e, f in zip(E, F)]
    A = [[int(_eigen(H[i], E[j])) for j in range(n)] for i in range(n)]
    for i in range(n):
        if A[i][i] != 2 or _eigen(H[i], F[i]) != -2:
            raise RuntimeError("Chevalley construction: h_i does not act by ±2 on e_i, f_i")
    roots = _positive_roots(A)
    known = set(roots)
    X = {r: e for r, e in zip(roots[:n], E)}
    Y = {r: f for r, f in zip(roots[:n], F)}
    for alpha in roots[n:]:
        i = next(i for i in range(n) if alpha[i] > 0
                 and tuple(alpha[j] - (j == i) for j in range(n)) in known)
        beta = tuple(alpha[j] - (j == i) for j in range(n))
        p = _string_below(beta, i, known)
        X[alpha] = _br(E[i], X[beta]) / (p + 1)
        Y[alpha] = _br(Y[beta], F[i]) / (p + 1)
    basis = [X[r] for r in roots] + [Y[r] for r in roots] + H
    coords = _coordinates_solver(basis)
    d = len(basis)
    sparse = {}
    for a in range(d):
        for b_ in range(a + 1, d):
            c = coords(_br(basis[a], basis[b_]))
            row = {k: x for k, x in enumerate(c) if x}
            if row:
                sparse[(a, b_)] = row
    _check_chevalley(roots, sparse, A, known)
    return basis, roots, A, sparse


def _check_chevalley(roots: list, sparse: dict, A: list, known: set) -> None:
    """``[x_α, y_α] = h_α`` with ``α(h_α) = 2``; ``[x_α, x_β] = ±(p+1) x_{α+β}`` (``p`` the
    ``α``-string below ``β``, read on the roots' coordinates); ``RuntimeError`` otherwise."""
    N = len(roots)
    index = {r: k for k, r in enumerate(roots)}
    for k, alpha in enumerate(roots):
        h = sparse.get((k, N + k), {})
        if any(j < 2 * N for j in h):
            raise RuntimeError("Chevalley construction: [x_α, y_α] is not in the Cartan part")
        # α(h_α) = sum_i c_i α(h_i) = sum_i c_i sum_j α_j A[i][j] must be 2
        if sum(c * sum(a * A[j - 2 * N][m] for m, a in enumerate(alpha))
               for j, c in h.items()) != 2:
            raise RuntimeError(f"Chevalley construction: α(h_α) != 2 for α = {alpha}")
    for a, alpha in enumerate(roots):
        for b_, beta in enumerate(roots):
            if a >= b_:
                continue
            s = tuple(x + y for x, y in zip(alpha, beta))
            row = sparse.get((a, b_), {})
            if s not in known:
                if row:
                    raise RuntimeError("Chevalley construction: [x_α, x_β] != 0 for a non-root")
                continue
            p, down = 0, list(beta)
            while True:
                down = [x - y for x, y in zip(down, alpha)]
                if tuple(down) in known:
                    p += 1
                else:
                    break
            if set(row) != {index[s]} or abs(row[index[s]]) != p + 1:
                raise RuntimeError(f"Chevalley construction: N_(α,β) is not ±(p+1) for "
                                   f"α = {alpha}, β = {beta}")

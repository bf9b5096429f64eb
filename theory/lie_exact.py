"""Exact Lie computations over Q on integer rows: the Lie closure by frontier insertion
(:func:`close_qq`: brackets of the inserted vectors, an exact residual test before any
elimination, independence read modulo a prime), and the next term of the upper central series
in coordinates (:func:`centraliser_qq`: one exact RREF, the kernel read off it).

Source: the definitions of the generated subalgebra and of the upper central series (Humphreys,
§1, §3); fraction-free elimination as implemented in FLINT.
"""
from __future__ import annotations

import math

import numpy as np

from .int_rows import (as_int_rows, exact_matmul, independent_rows, maxabs, primitive_rows,
                       rref_pivots, stack_int, unique_rows)
from .field_input import concat_rows
from .lie_ambient import bracket_chunks, sparse_brackets
from .linalg import RationalSubspace, full_subspace

__all__ = ["close_qq", "centraliser_qq"]


def close_qq(amb, gens: np.ndarray) -> RationalSubspace:
    """Lie closure over Q of the integer rows ``gens`` by frontier insertion.

    ``W`` holds the inserted vectors (generators, then brackets -- small integers, not the RREF
    rows, whose entries can be large), ``S`` their span in RREF. Each round brackets ``W`` with
    the vectors inserted in the previous round (sparse products when the ambient offers them),
    inserts those outside ``S`` (:func:`_insert_outside`: an exact residual test, no
    elimination for the brackets already in the span). Every pair of inserted vectors is
    bracketed once, so ``S`` is closed when a round inserts nothing. Source: the definition of the generated subalgebra (Humphreys §1)."""
    N = amb.N
    W = unique_rows(primitive_rows(gens))
    S = RationalSubspace(N).extend_rows(W)[0]
    if S.dim < W.shape[0]:
        W = W[independent_rows(np.zeros((0, N), np.int64), W)]
    frontier, first = W, True
    while frontier.shape[0] and S.dim < N:
        sb = sparse_brackets(amb, frontier if first else W, frontier, first)
        new = []
        for chunk in bracket_chunks(amb, sb, frontier if first else W, frontier, first):
            for c0 in range(0, chunk.shape[0], 2 * N):
                S, added = _insert_outside(S, chunk[c0:c0 + 2 * N])
                new += added
                if S.dim == N:
                    break
            if S.dim == N:
                break
        frontier, first = concat_rows(new, "QQ", N), False
        W = stack_int([W, frontier])
    return S


def _insert_outside(S: RationalSubspace, cand: np.ndarray) -> tuple[RationalSubspace, list]:
    """Insert into ``S`` the rows of the integer array ``cand`` that lie outside it; returns the
    new subspace and the inserted rows (a list of arrays, independent modulo ``S``).

    Exact: a row ``c`` lies in ``S`` iff its residual (:func:`_residuals`) vanishes, so the
    brackets already in the span cost one matrix product and no elimination. Among the others,
    rows whose residuals are independent modulo the prime ``2**61 - 1`` are independent over Q
    (an integer dependency with coprime coefficients would survive the reduction); they are
    inserted, and the remaining rows are tested again against the grown subspace (exact
    elimination by FLINT when no residual survives the reduction)."""
    inserted = []
    while cand.shape[0]:
        res = _residuals(S, cand)
        out = np.flatnonzero(np.any(res != 0, axis=1))
        if out.size == 0:
            break
        sel = out[_independent_mod_p(res[out])] if out.size > 1 else out
        if sel.size == 0:
            sel = out[independent_rows(np.zeros((0, S.ambient_dim), np.int64), as_int_rows(res[out]))]
        S, _ = S.extend_rows(cand[sel])
        inserted.append(cand[sel])
        rest = np.zeros(cand.shape[0], dtype=bool)
        rest[out] = True      # the rows with a zero residual are in S already
        rest[sel] = False
        cand = cand[rest]
    return S, inserted


_SELECT_PRIME = 2 ** 61 - 1


def _independent_mod_p(rows: np.ndarray) -> np.ndarray:
    """Indices of a greedy (in order) maximal subset of the integer rows that is independent
    modulo :data:`_SELECT_PRIME` (FLINT ``nmod_mat.rref`` of the transpose)."""
    import flint

    k, N = rows.shape
    red = np.mod(rows, _SELECT_PRIME) if rows.dtype == np.int64 else \
        np.array([int(x) % _SELECT_PRIME for x in rows.ravel()], dtype=np.int64).reshape(k, N)
    M = flint.nmod_mat(N, k, red.T.ravel().tolist(), _SELECT_PRIME)
    R, r = M.rref()
    return np.array(rref_pivots(R, r), dtype=np.int64)


def _residuals(S: RationalSubspace, cand: np.ndarray) -> np.ndarray:
    """``D c - sum_i c[p_i] (D / d_i) R_i`` for each row ``c`` of ``cand``, with ``R_i`` the
    RREF rows of ``S``, ``d_i`` their pivot entries at the pivot columns ``p_i`` and ``D`` the
    lcm of the ``d_i``: zero exactly for the rows in ``S`` (exact integer arithmetic)."""
    if S.dim == 0:
        return cand
    piv = list(S.pivots)
    d = [int(S.rows[i, p]) for i, p in enumerate(piv)]
    D = math.lcm(*d)
    if D == 1:
        lhs = exact_matmul(as_int_rows(cand[:, piv]), S.rows)
        return as_int_rows(np.asarray(cand, dtype=object) - lhs) if lhs.dtype == object \
            or cand.dtype == object else cand - lhs
    mult = np.array([D // x for x in d], dtype=object)
    lhs = exact_matmul(as_int_rows(cand[:, piv].astype(object) * mult), S.rows)
    return np.asarray(cand, dtype=object) * D - np.asarray(lhs, dtype=object)


def centraliser_qq(Ck, Z: RationalSubspace, d: int) -> RationalSubspace | None:
    """``{x : [e_b, x] ∈ Z for all b}`` in coordinates over Q (the next term of the upper
    central series after ``Z``). ``Ck``: the sparse ad matrix of ``LieAlgebra._ad_matrix_qq``.

    The functionals annihilating ``Z`` are the non-pivot coordinates of the reduction modulo
    the RREF of ``Z`` (scaled to integers by the lcm ``D`` of its pivot entries):
    ``f_j = D e_j - sum_i (D / z_i[p_i]) z_i[j] e_{p_i}`` for every non-pivot ``j``. The
    constraint rows ``x -> f_j([e_b, x])`` are the rows of ``F @ Ck`` regrouped by ``(b, j)``;
    the answer is their kernel, read off their exact RREF. ``None`` when an entry bound
    (``max|F| max|c| d < 2**62``) fails; the caller then takes the dense exact path."""
    import scipy.sparse as sp

    piv = list(Z.pivots)
    pset = set(piv)
    free = [j for j in range(d) if j not in pset]
    if not free:
        return full_subspace("QQ", d, None)
    if piv:
        Zr = as_int_rows(Z.rows)
        zp = [int(Zr[i, p]) for i, p in enumerate(piv)]
        D = 1
        for x in zp:
            D = D * x // math.gcd(D, x)
        F = _reduction_rows(Zr, piv, free, zp, D)
    else:
        F = np.eye(d, dtype=np.int64)
    cmax = maxabs(Ck.data) if Ck.nnz else 0
    if F.dtype != np.int64 or maxabs(F) * cmax * d >= 2 ** 62:
        return None   # entries too large for int64 sparse products: the caller's dense path
    T = (sp.csr_matrix(F) @ Ck).tocoo()                   # [j, b*d + a]
    r = (T.col // d) * len(free) + T.row                  # constraint (b, j)
    M = sp.csr_matrix((T.data.astype(np.int64), (r, T.col % d)),
                      shape=(d * len(free), d), dtype=np.int64)
    M.sum_duplicates()
    M.eliminate_zeros()
    nz = np.flatnonzero(np.diff(M.indptr))
    rows = M[nz].toarray() if len(nz) else np.zeros((0, d), np.int64)
    if rows.shape[0]:
        rows = unique_rows(primitive_rows(rows))
    R = RationalSubspace(d).extend_rows(rows)[0]
    return RationalSubspace(d).extend_rows(_kernel_from_rref(R))[0]


def _kernel_from_rref(R: RationalSubspace) -> np.ndarray:
    """Integer rows spanning the right kernel of the RREF rows of ``R``: for every non-pivot
    column ``j``, ``x = L e_j - sum_i (L / r_i[p_i]) r_i[j] e_{p_i}`` (``L``: the lcm of the
    pivot entries), which every RREF row annihilates (its other pivot columns are 0)."""
    d = R.ambient_dim
    piv = list(R.pivots)
    pset = set(piv)
    free = [j for j in range(d) if j not in pset]
    if not free:
        return np.zeros((0, d), np.int64)
    if not piv:
        return np.eye(d, dtype=np.int64)
    Rr = as_int_rows(R.rows)
    rp = [int(Rr[i, p]) for i, p in enumerate(piv)]
    L = 1
    for x in rp:
        L = L * x // math.gcd(L, x)
    return _reduction_rows(Rr, piv, free, rp, L)


def _reduction_rows(Rr: np.ndarray, piv: list, free: list, rp: list, L: int) -> np.ndarray:
    """Rows ``L e_j - sum_i (L / rp_i) Rr[i, j] e_{piv_i}`` for ``j`` in ``free`` (``Rr``: RREF
    rows with pivot columns ``piv`` and pivot entries ``rp``; ``L``: a common multiple of the
    ``rp``): the kernel of ``Rr`` and, read as functionals, the annihilator of its row space.
    ``int64`` when the entries provably fit, else ``object``."""
    d = Rr.shape[1]
    mult = [L // x for x in rp]
    if Rr.dtype == np.int64 and L < 2 ** 62 and maxabs(Rr) * max(mult) < 2 ** 62:
        K = np.zeros((len(free), d), dtype=np.int64)
        K[np.arange(len(free)), free] = L
        K[:, piv] = -(Rr[:, free] * np.array(mult, dtype=np.int64)[:, None]).T
        return K
    K = np.zeros((len(free), d), dtype=object)
    K[np.arange(len(free)), free] = L
    K[:, piv] = -(Rr[:, free].astype(object) * np.array(mult, dtype=object)[:, None]).T
    return as_int_rows(K)

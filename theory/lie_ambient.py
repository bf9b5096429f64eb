"""Ambient bracket spaces of :class:`~seqtheory.theory.lie.LieAlgebra` and batched brackets.

* :class:`MatrixAmbient` -- ``gl(n)`` flattened row-major to ``F^(n*n)``, ``[A, B] = AB - BA``
  (SPEC §2); brackets of two sets of rows are formed as matrix products in chunks (exact over Q:
  BLAS in float64 while every partial sum stays below 2**53, numpy ``int64`` under a proven
  bound, FLINT beyond; ``scipy.sparse`` integer products for sparse bases).
* :class:`StructureAmbient` -- ``F^N`` with ``[e_i, e_j] = sum_k c_ijk e_k`` (sparse integer
  structure constants scaled by a common denominator; Q only).

Over Q, :func:`span_rows_qq` gives integer rows spanning the brackets (primitive, zero and
duplicate rows dropped). Errors: ``ValueError`` for a structure-constant ambient over a field
other than Q. Source: Humphreys, *Introduction to Lie Algebras and Representation Theory*, §1.
"""
from __future__ import annotations

from typing import Any, Iterator

import numpy as np

from .int_rows import as_int_rows, exact_matmul, int64_matmul, maxabs, primitive_rows, \
    stack_int, unique_rows

__all__ = ["MatrixAmbient", "StructureAmbient", "span_rows_qq", "sparse_brackets",
           "span_rows_from", "bracket_chunks"]

_CHUNK_ENTRIES = 4_000_000  # bracket batches are produced in chunks of about this many entries
_SPARSE_WORK_CAP = 20_000_000  # sparse bracket products only below this many scalar products


# ============================================================================ ambient spaces
class MatrixAmbient:
    """gl(n) flattened row-major; bracket AB - BA."""

    kind = "matrix"

    def __init__(self, n: int):
        self.n = n
        self.N = n * n
        self.scale = 1  # brackets are returned exactly

    def __eq__(self, other):
        return isinstance(other, MatrixAmbient) and other.n == self.n

    def batches(self, field, U, V, triu: bool) -> Iterator[Any]:
        """Yield the brackets ``[U_a, V_b]`` (all pairs, or ``a < b`` when ``triu`` and U is V)
        in row chunks, in the field's row representation."""
        n = self.n
        p, q = U.shape[0], V.shape[0]
        if p == 0 or q == 0:
            return
        bound = None
        if field == "QQ":
            U, V = as_int_rows(U), as_int_rows(V)
            m = U.dtype == np.int64 and V.dtype == np.int64
            bound = maxabs(U) * maxabs(V) * n if m else None
            if bound is None or 2 * bound >= 2 ** 62:
                U, V = U.astype(object), V.astype(object)
                bound = None
        big = field == "QQ" and U.dtype == object
        if big:
            mul = exact_matmul
        elif bound is not None:
            # each product entry is a sum of n terms of size <= max|U| max|V|
            def mul(x, y, _b=bound):
                return int64_matmul(x, y, _b)
        else:
            mul = np.matmul
        Vm = V.reshape(q, n, n)
        Vcols = Vm.transpose(1, 0, 2).reshape(n, q * n)      # [b, (j, c)]
        Vrows = Vm.reshape(q * n, n)                          # [(j, a), b]
        step = max(1, _CHUNK_ENTRIES // max(1, q * self.N))
        for a0 in range(0, p, step):
            Ua = U[a0:a0 + step].reshape(-1, n, n)
            pa = Ua.shape[0]
            uv = mul(Ua.reshape(pa * n, n), Vcols).reshape(pa, n, q, n).transpose(0, 2, 1, 3)
            vu = mul(Vrows, Ua.transpose(1, 0, 2).reshape(n, pa * n)).reshape(q, n, pa, n)
            vu = vu.transpose(2, 0, 1, 3)
            if big:
                uv, vu = uv.astype(object), vu.astype(object)
            yield _pair_rows((uv - vu).reshape(pa, q, self.N), p, a0, triu)

    def to_matrix(self, v) -> np.ndarray:
        return np.asarray(v).reshape(self.n, self.n)

    def sparse_brackets(self, U: np.ndarray, V: np.ndarray, triu: bool):
        """Over Q, for sparse bases: the non-zero brackets ``[U_a, V_b]`` as
        ``(pairs, rows)`` -- ``pairs`` the flat indices ``a * len(V) + b`` (increasing; only
        ``a < b`` when ``triu``), ``rows`` a ``scipy.sparse`` CSR ``int64`` matrix of the
        brackets -- formed by sparse matrix products (exact: every partial sum is bounded by
        ``max|U| max|V| n < 2**61``). ``None`` when that bound fails, the rows are not
        ``int64``, or the bases are too dense for sparse products to pay off (the caller then
        uses :meth:`batches`)."""
        import scipy.sparse as sp

        n, N = self.n, self.N
        p, q = U.shape[0], V.shape[0]
        if U.dtype != np.int64 or V.dtype != np.int64 or p == 0 or q == 0:
            return None
        if maxabs(U) * maxabs(V) * n >= 2 ** 61:
            return None
        if np.count_nonzero(U) > 0.2 * U.size or np.count_nonzero(V) > 0.2 * V.size:
            return None
        Um, Vm = U.reshape(p, n, n) != 0, V.reshape(q, n, n) != 0
        # scalar products formed by the two sparse products: sum_k (#U_a[:, k] != 0) (#V_b[k, :] != 0)
        # and the same with U, V swapped; beyond the cap the chunked dense batches are used
        work = int(Um.sum(axis=(0, 1)) @ Vm.sum(axis=(0, 2))) \
            + int(Vm.sum(axis=(0, 1)) @ Um.sum(axis=(0, 2)))
        if work > _SPARSE_WORK_CAP:
            return None
        Us = sp.csr_matrix(U.reshape(p * n, n))                                   # [(a,i), k]
        Vc = sp.csr_matrix(V.reshape(q, n, n).transpose(1, 0, 2).reshape(n, q * n))  # [k, (b,j)]
        Vs = sp.csr_matrix(V.reshape(q * n, n))                                   # [(b,i), k]
        Uc = sp.csr_matrix(U.reshape(p, n, n).transpose(1, 0, 2).reshape(n, p * n))  # [k, (a,j)]
        P1 = (Us @ Vc).tocoo()      # (U_a V_b)[i, j] at [(a,i), (b,j)]
        P2 = (Vs @ Uc).tocoo()      # (V_b U_a)[i, j] at [(b,i), (a,j)]
        a = np.concatenate([P1.row // n, P2.col // n]).astype(np.int64)
        b = np.concatenate([P1.col // n, P2.row // n]).astype(np.int64)
        col = np.concatenate([(P1.row % n) * n + P1.col % n, (P2.row % n) * n + P2.col % n])
        val = np.concatenate([P1.data.astype(np.int64), -P2.data.astype(np.int64)])
        if triu:
            keep = a < b
            a, b, col, val = a[keep], b[keep], col[keep], val[keep]
        flat = a * q + b
        pairs, inv = np.unique(flat, return_inverse=True)
        M = sp.csr_matrix((val, (inv.ravel(), col)), shape=(len(pairs), N), dtype=np.int64)
        M.sum_duplicates()
        M.eliminate_zeros()
        nz = np.flatnonzero(np.diff(M.indptr))
        return pairs[nz], M[nz]


class StructureAmbient:
    """F^N with [e_i, e_j] = sum_k c_ijk e_k, stored sparsely: over Q (``field == "QQ"``) as
    integers scaled by ``scale``; over a number field (a sympy domain) as its elements
    (``scale == 1``)."""

    kind = "structure"

    def __init__(self, N: int, I, J, K, C, scale: int, field="QQ"):
        self.N = N
        self.I, self.J, self.K, self.C = I, J, K, C   # index arrays; C int64/object (Q) or domain elements
        self.scale = scale                              # true c = C / scale
        self.field = field
        order = np.argsort(K, kind="stable")
        self._groups = []
        ks, starts = np.unique(K[order], return_index=True)
        bounds = list(starts) + [len(order)]
        for t, k in enumerate(ks):
            idx = order[bounds[t]:bounds[t + 1]]
            self._groups.append((int(k), I[idx], J[idx], C[idx]))

    def __eq__(self, other):
        return other is self

    def batches(self, field, U, V, triu: bool) -> Iterator[Any]:
        if field != self.field:
            raise ValueError(f"this structure-constant algebra is over {self.field}, not {field}")
        if field != "QQ":
            yield from self._field_batches(np.asarray(U, dtype=object),
                                           np.asarray(V, dtype=object), triu)
            return
        p, q = U.shape[0], V.shape[0]
        if p == 0 or q == 0 or len(self.C) == 0:
            if p and q:
                rows = (p * (p - 1) // 2) if triu else p * q
                yield np.zeros((rows, self.N), np.int64)
            return
        U, V = as_int_rows(U), as_int_rows(V)
        cm = maxabs(self.C) if self.C.dtype == np.int64 else max(abs(int(x)) for x in self.C)
        safe = (U.dtype == np.int64 and V.dtype == np.int64 and self.C.dtype == np.int64
                and maxabs(U) * maxabs(V) * cm * max(1, len(self.C)) < 2 ** 62)
        dt = np.int64 if safe else object
        step = max(1, _CHUNK_ENTRIES // max(1, q * self.N))
        for a0 in range(0, p, step):
            Ua = U[a0:a0 + step].astype(dt)
            pa = Ua.shape[0]
            out = np.zeros((pa, q, self.N), dtype=dt)
            for k, I, J, C in self._groups:
                # out[a, b, k] = sum_t C_t U[a, I_t] V[b, J_t]
                left = Ua[:, I] * C.astype(dt)[None, :]
                out[:, :, k] = left @ V[:, J].astype(dt).T
            yield _pair_rows(out, p, a0, triu)

    def _field_batches(self, U, V, triu: bool) -> Iterator[Any]:
        """:meth:`batches` over a number field: object arrays of domain elements, one chunk."""
        p, q = U.shape[0], V.shape[0]
        if p == 0 or q == 0:
            return
        zero = self.field.zero
        out = np.full((p, q, self.N), zero, dtype=object)
        for k, I, J, C in self._groups:
            left = U[:, I] * C[None, :]
            out[:, :, k] = left @ V[:, J].T if len(I) else zero
        yield _pair_rows(out, p, 0, triu)


def _pair_rows(br: np.ndarray, p: int, a0: int, triu: bool) -> np.ndarray:
    """The bracket rows of a chunk ``br`` (``(pa, q, N)``: rows ``a0 .. a0 + pa - 1`` of ``U``
    against all of ``V``, ``p`` rows of ``U`` in all): every pair, or only ``a < b`` when
    ``triu`` (``U`` is ``V``)."""
    pa, q, N = br.shape
    if not triu:
        return br.reshape(pa * q, N)
    ia, ib = np.triu_indices(p, k=1)
    sel = (ia >= a0) & (ia < a0 + pa)
    return br[ia[sel] - a0, ib[sel]]


def span_rows_qq(amb, U: np.ndarray, V: np.ndarray, triu: bool) -> np.ndarray:
    """Over Q: integer rows spanning ``span{[U_a, V_b]}`` (all pairs, or ``a < b`` when
    ``triu``): the non-zero brackets made primitive, duplicates removed. Sparse products when
    the ambient offers them and the bases are sparse, else the dense :meth:`batches`."""
    sb = sparse_brackets(amb, U, V, triu)
    return span_rows_from(amb, sb, U, V, triu)


def sparse_brackets(amb, U, V, triu: bool):
    """``amb.sparse_brackets`` on integer rows when the ambient has it, else ``None``."""
    if not hasattr(amb, "sparse_brackets"):
        return None
    return amb.sparse_brackets(as_int_rows(U), as_int_rows(V), triu)


def span_rows_from(amb, sb, U: np.ndarray, V: np.ndarray, triu: bool) -> np.ndarray:
    """:func:`span_rows_qq` given the result ``sb`` of :func:`sparse_brackets` (``None``:
    the dense batches)."""
    parts = list(bracket_chunks(amb, sb, U, V, triu))
    if not parts:
        return np.zeros((0, amb.N), np.int64)
    return parts[0] if len(parts) == 1 else unique_rows(stack_int(parts))


def bracket_chunks(amb, sb, U: np.ndarray, V: np.ndarray, triu: bool) -> Iterator[np.ndarray]:
    """Over Q: the non-zero brackets ``[U_a, V_b]`` (pairs as for :func:`span_rows_qq`) made
    primitive, duplicates removed within each chunk: one chunk from the sparse result ``sb``
    of :func:`sparse_brackets`, or (``sb`` is ``None``) the chunks of the dense batches."""
    if sb is not None:
        rows = sb[1]
        if rows.shape[0]:
            yield unique_rows(primitive_rows(rows.toarray()))
        return
    U, V = as_int_rows(U), as_int_rows(V)
    for chunk in amb.batches("QQ", U, V, triu):
        chunk = as_int_rows(chunk)
        chunk = chunk[np.any(chunk != 0, axis=1)]
        if chunk.shape[0]:
            yield unique_rows(primitive_rows(chunk))

"""Finite-dimensional Lie algebras: closure, series, centre, Killing form -- exact by default.

A :class:`LieAlgebra` is a subspace of an *ambient bracket space*:

* matrices ``gl(n)`` flattened row-major to ``F^(n*n)``, with ``[A, B] = AB - BA`` (SPEC §2), or
* ``F^N`` with a bracket given by structure constants ``[e_i, e_j] = sum_k c[i][j][k] e_k``.

Subalgebras and ideals (terms of the derived, lower and upper central series, the centre) share
the ambient, so every series term is again a :class:`LieAlgebra` with ``.dim`` and ``.basis``.

Fields (see :mod:`seqtheory.theory.linalg`): rational input (ints, Fractions, sympy Rationals)
is computed exactly over Q (python-flint ``fmpz_mat.rref``, numpy ``int64`` with overflow guards,
Python integers beyond); algebraic input (e.g. ``sympy.sqrt(5)``) exactly over the number field it
generates (sympy ``DomainMatrix``); float input numerically with an explicit relative tolerance
``tol`` -- every candidate vector is normalised before a rank decision, so an ill-scaled basis
does not change the answer. Brackets are batched as matrix products (no per-entry Python loops on
the rational fast path).

Exact path over Q, in detail: brackets of sparse bases (e.g. matrix units) are formed by
``scipy.sparse`` integer products under a proven no-overflow bound, dense ones by BLAS in
``float64`` while every partial sum stays below 2**53 (exact), numpy ``int64`` or FLINT beyond;
zero and duplicate brackets are dropped before elimination, and rows that are already a reduced
echelon form are accepted without one. The brackets of the basis found by the closure check of
:meth:`LieAlgebra.spanned_by` are kept for ``[g, g]``. The upper central series is computed in
coordinates with sparse structure constants, one exact RREF (FLINT ``fmpz_mat.rref``) per term
(``Z_{i+1}`` is the kernel of ``x -> [e_b, x] mod Z_i``, the quotient read off the RREF of
``Z_i``), and :meth:`LieAlgebra.center` is its term ``Z_1``.

Float path, never a wrong answer: float input is read as an approximation, to a relative
accuracy far below ``tol``, of exact matrices, and the answers are those of the exact matrices --
rounding of the input (e.g. of a conjugation ``P A P^-1``) is recognised as noise, not taken as the
exact algebra of the binary fractions given (pass Fractions for that). For algebras from
:meth:`LieAlgebra.generated_by` / :meth:`LieAlgebra.spanned_by` and the algebras derived from
them, the dimension, the derived, lower and upper central series, the centre, semisimplicity,
membership, ``ideal_generated_by``, ``subalgebra_generated_by``, ``bracket_space`` of two
algebras and ``is_subalgebra_of`` are decided by the a-posteriori rule (see
:mod:`seqtheory.theory.linalg`): the computation runs in extended precision on the input and on
:data:`TWINS` twins perturbed by :data:`~seqtheory.theory.linalg.TWIN_PERTURBATION` relative
(arguments too: an algebra by its own twin, float data by its perturbed copy), every decision is
recorded, and the answer is returned only when
:func:`~seqtheory.theory.linalg.compare_decision_logs` certifies every decision (same decisions
in every twin, dropped values far below the level or re-drawn by the perturbation, kept values
resolved :data:`~seqtheory.theory.linalg.RESOLUTION_GAP` times better than the dropped noise,
dropped values far below the square of the smallest kept value, wide gaps); else
:class:`~seqtheory.theory.linalg.NumericalRankError` (a ``ValueError``) naming the step and the
reason. While recording, brackets are formed from the vectors inserted to build an algebra
(unit generators and brackets, kept as ``inserted``), not from its orthonormal basis, whose
directions found with a small residual carry the input's rounding amplified (:func:`_close`).
Where the twins measure noise among the kept values of a decision (input rounding amplified
above ``tol``), the runs are repeated with that decision's level raised between the measured
noise and the signal (:func:`~seqtheory.theory.linalg.raised_levels`). Float algebras without
twins (e.g. from float structure constants) decide by
:func:`~seqtheory.theory.linalg.rank_decision` with a rounding bound propagated from the input
(``EPS`` per generator, ``||[du, v] + [u, dv]|| <= 2 (|du| + |dv|)`` per bracket, Wedin's bound
per new basis vector); :attr:`LieAlgebra.certificate` says which. Before a series is returned
its invariants are checked (each term inside the previous one;
``g^(i) ⊆ γ_{i+1}``; the upper central series reaches ``g`` exactly when the lower one reaches 0,
in as many steps, with ``γ_{c+1-i} ⊆ Z_i``). Each series records ``tol`` and ``smallest_gap``; the
algebra records ``tol``, ``smallest_gap``, ``noise`` (the propagated bound on its basis) and
``certificate``. Measured (tests/test_float_lie_stress.py): conjugated nilpotent, solvable and
simple algebras get the exact answer up to condition number 1e3 (all 80 family cases at 1e3;
73 before the resolution gap and the brackets of inserted vectors); no wrong answer over 10 000
random conjugated integer algebras up to 1e8, every invariant scored on its own (the dimension
alone of sl(2) conjugated above 1e6, once wrong, now refuses or is right). Exact input (ints,
Fractions, sympy numbers) always gets the exact path, the reference beside this one.

Series conventions (SPEC §2): derived series ``g^(0) = g``, ``g^(i+1) = [g^(i), g^(i)]``; derived
length = least ``k`` with ``g^(k) = 0`` (zero algebra -> 0, non-zero abelian -> 1, not solvable ->
``None``). Lower central series ``γ_1 = g``, ``γ_{i+1} = [g, γ_i]``; nilpotency class = least
``c`` with ``γ_{c+1} = 0`` (zero -> 0, non-zero abelian -> 1, not nilpotent -> ``None``). Upper
central series ``Z_0 = 0``, ``Z_{i+1} = {x : [x, g] ⊆ Z_i}``. A series that stabilises at a
non-zero term ends there; the returned :class:`LieSeries` says so (``stabilised``).
Killing form ``K(x, y) = tr(ad x ad y)``; semisimple iff ``K`` is non-degenerate (Cartan's
criterion, characteristic 0). Source: J. E. Humphreys, *Introduction to Lie Algebras and
Representation Theory*, §3-§5; used for [DEPTH] (Heo et al., arXiv:2603.05573), §3.
"""
from __future__ import annotations

import math
from fractions import Fraction
from numbers import Integral, Rational
from typing import Any, Iterator, Sequence

import numpy as np

from .field_input import check_number, to_field_rows
from .float_rank import (EPS, MIN_GAP, TWIN_PERTURBATION, NumericalRankError,
                         compare_decision_logs, complement_rows, decision_level, is_recording,
                         raised_levels, rank_decision, record_decision, recording_decisions,
                         row_norms, svd_noise, working_dtype)
from .float_subspace import FloatSubspace
from .int_rows import (as_int_rows, exact_matmul, independent_rows, int64_matmul, maxabs,
                       primitive_rows, rref_pivots, stack_int, unique_rows)
from .linalg import RationalSubspace, subspace_rows, zero_subspace
from .subspace import Subspace
from .matrix_input import matrix_rows

__all__ = ["LieAlgebra", "LieSeries"]

_CHUNK_ENTRIES = 4_000_000  # bracket batches are produced in chunks of about this many entries
_SPARSE_WORK_CAP = 20_000_000  # sparse bracket products only below this many scalar products


# ============================================================================ ambient spaces
class _MatrixAmbient:
    """gl(n) flattened row-major; bracket AB - BA."""

    kind = "matrix"

    def __init__(self, n: int):
        self.n = n
        self.N = n * n
        self.scale = 1  # brackets are returned exactly

    def __eq__(self, other):
        return isinstance(other, _MatrixAmbient) and other.n == self.n

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
            br = (uv - vu).reshape(pa, q, self.N)
            if triu:
                ia, ib = np.triu_indices(p, k=1)
                sel = (ia >= a0) & (ia < a0 + pa)
                yield br[ia[sel] - a0, ib[sel]]
            else:
                yield br.reshape(pa * q, self.N)

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


class _StructureAmbient:
    """F^N with [e_i, e_j] = sum_k c_ijk e_k, stored sparsely as integers scaled by ``scale``."""

    kind = "structure"

    def __init__(self, N: int, I, J, K, C, scale: int):
        self.N = N
        self.I, self.J, self.K, self.C = I, J, K, C   # int arrays (C int64 or object)
        self.scale = scale                              # true c = C / scale
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
        if field != "QQ":
            raise ValueError("structure-constant algebras are rational (field QQ) only")
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
            if triu:
                ia, ib = np.triu_indices(p, k=1)
                sel = (ia >= a0) & (ia < a0 + pa)
                yield out[ia[sel] - a0, ib[sel]]
            else:
                yield out.reshape(pa * q, self.N)


def _span_rows_qq(amb, U: np.ndarray, V: np.ndarray, triu: bool) -> np.ndarray:
    """Over Q: integer rows spanning ``span{[U_a, V_b]}`` (all pairs, or ``a < b`` when
    ``triu``): the non-zero brackets made primitive, duplicates removed. Sparse products when
    the ambient offers them and the bases are sparse, else the dense :meth:`batches`."""
    sb = _sparse_brackets(amb, U, V, triu)
    return _span_rows_from(amb, sb, U, V, triu)


def _sparse_brackets(amb, U, V, triu: bool):
    """``amb.sparse_brackets`` on integer rows when the ambient has it, else ``None``."""
    if not hasattr(amb, "sparse_brackets"):
        return None
    return amb.sparse_brackets(as_int_rows(U), as_int_rows(V), triu)


def _span_rows_from(amb, sb, U: np.ndarray, V: np.ndarray, triu: bool) -> np.ndarray:
    """:func:`_span_rows_qq` given the result ``sb`` of :func:`_sparse_brackets` (``None``:
    the dense batches)."""
    parts = list(_bracket_chunks(amb, sb, U, V, triu))
    if not parts:
        return np.zeros((0, amb.N), np.int64)
    return parts[0] if len(parts) == 1 else unique_rows(stack_int(parts))


def _bracket_chunks(amb, sb, U: np.ndarray, V: np.ndarray, triu: bool) -> Iterator[np.ndarray]:
    """Over Q: the non-zero brackets ``[U_a, V_b]`` (pairs as for :func:`_span_rows_qq`) made
    primitive, duplicates removed within each chunk: one chunk from the sparse result ``sb``
    of :func:`_sparse_brackets`, or (``sb`` is ``None``) the chunks of the dense batches."""
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


# ============================================================================ series container
class LieSeries(list):
    """A list of :class:`LieAlgebra` terms. ``dims``: their dimensions. ``stabilised``: True when
    the series ended because a non-zero term repeated (it then ends at that term, listed once);
    False when it reached 0. ``name``: which series. Float path: ``tol`` (the relative
    tolerance) and ``smallest_gap`` (the smallest ratio of kept to dropped value of any rank
    decision behind the terms, at least :data:`~seqtheory.theory.linalg.MIN_GAP`; see
    :func:`~seqtheory.theory.linalg.compare_decision_logs` and
    :func:`~seqtheory.theory.linalg.rank_decision`); both ``None`` on exact paths."""

    def __init__(self, terms, stabilised: bool, name: str):
        super().__init__(terms)
        self.stabilised = stabilised
        self.name = name
        self.tol = terms[0].tol if terms else None
        gaps = [t.smallest_gap for t in terms if t.smallest_gap is not None]
        self.smallest_gap = min(gaps) if gaps else None

    @property
    def dims(self) -> list[int]:
        return [t.dim for t in self]

    def __repr__(self) -> str:
        end = "stabilises" if self.stabilised else "reaches 0"
        return f"LieSeries({self.name}: dims {self.dims}, {end})"


def _twin_checked(method):
    """Float path: run ``method`` on the algebra and on its perturbed twins (see
    :func:`_float_entry`) with every decision recorded, and return its result only when
    :func:`~seqtheory.theory.linalg.compare_decision_logs` certifies the decisions (else
    :class:`~seqtheory.theory.linalg.NumericalRankError`). The twins' results are attached to
    the result's algebras (series terms, centre), so their own series are twin-checked too.
    Arguments are twinned too (:func:`_twin_args`: an algebra by its own twin, float data by
    its perturbed twin). Exact paths, nested calls and algebras (or algebra arguments) without
    twins run ``method`` unchanged."""
    import functools

    @functools.wraps(method)
    def wrapper(self, *args, **kwargs):
        twins = self._cache.get("twins")
        if self.field != "RR" or not twins or is_recording() \
                or not all(_has_twins(a) for a in (*args, *kwargs.values())):
            return method(self, *args, **kwargs)
        algs = [self] + list(twins)
        touched = _algebras_touched(algs, (*args, *kwargs.values()))
        saved = [dict(a._cache) for a in touched]
        try:
            outs, logs = _twin_runs(lambda k: method(algs[k], *_twin_args(args, k),
                                                     **dict(zip(kwargs, _twin_args(
                                                         list(kwargs.values()), k)))), algs)
            (out, exc), rest = outs[0], outs[1:]
            if exc is not None:
                raise exc
            _twin_refusals(self.tol, rest)
            _certify(self.tol, logs[0], logs[1:])
        except BaseException:
            # a refused (or interrupted) answer leaves nothing behind: what the runs cached is
            # uncertified, and a second call would read it without any decision to compare
            for a, c in zip(touched, saved):
                a._cache.clear()
                a._cache.update(c)
            raise
        _attach_twins(out, [r for r, _ in rest])
        return out
    return wrapper


def _algebras_touched(algs: Sequence["LieAlgebra"], args: Sequence[Any]) -> list["LieAlgebra"]:
    """The algebras whose caches a twin-checked call may fill: the algebra and its twins, and
    every algebra argument with its twins (each once)."""
    out: list[LieAlgebra] = []
    for a in (*algs, *(x for x in args if isinstance(x, LieAlgebra))):
        for b in (a, *a._cache.get("twins", ())):
            if not any(b is c for c in out):
                out.append(b)
    return out


def _has_twins(a: Any) -> bool:
    """Whether an argument can be twinned: anything but a float algebra without twins."""
    return not isinstance(a, LieAlgebra) or a.field != "RR" or bool(a._cache.get("twins"))


def _twin_args(args: Sequence[Any], k: int) -> list:
    """The arguments of twin run ``k`` (``0``: the input's own): a float algebra is replaced by
    its twin ``k``, numeric data (a matrix, a list of matrices) by its perturbed twin
    (:func:`_twin`, all of one argument's entries perturbed together); anything else is kept."""
    if k == 0:
        return list(args)
    out = []
    for a in args:
        if isinstance(a, LieAlgebra):
            out.append(a._cache["twins"][k - 1] if a.field == "RR" else a)
            continue
        try:
            arr = np.asarray(a, dtype=float)
        except (TypeError, ValueError):
            out.append(a)
            continue
        if arr.ndim == 0 or not np.all(np.isfinite(arr)):
            out.append(a)
        else:
            tw = _twin(arr, k)
            out.append(list(tw) if isinstance(a, (list, tuple)) else tw)
    return out


# ============================================================================ the Lie algebra
class LieAlgebra:
    """A finite-dimensional Lie algebra inside an ambient bracket space (see module doc).

    Construct with :meth:`generated_by`, :meth:`spanned_by` or :meth:`from_structure_constants`.
    ``dim``; ``basis`` (matrices as ``n x n`` numpy arrays -- Python ints / Fractions over Q, sympy
    numbers over a number field, floats on the float path -- or coordinate vectors for a
    structure-constant algebra); ``field`` (``"QQ"``, a sympy domain, or ``"RR"``); ``tol`` (float
    path only, else ``None``).
    """

    def __init__(self, ambient, space: Subspace):
        self._ambient = ambient
        self._space = space
        self._cache: dict[str, Any] = {}

    # ------------------------------------------------------------------ construction
    @staticmethod
    def _matrices(mats: Any, name: str, tol: float | None):
        return matrix_rows(mats, name, tol)

    @classmethod
    def _from_rows(cls, rows, n: int, field, tol: float | None):
        amb = _MatrixAmbient(n)
        S = zero_subspace(n * n, field, tol if tol is not None else 1e-9)
        data = _convert(rows, field)
        return amb, S, data

    @classmethod
    def generated_by(cls, mats: Any, *, tol: float | None = None) -> "LieAlgebra":
        """The Lie closure (smallest Lie subalgebra of gl(n) containing ``mats``).

        ``mats``: non-empty sequence of ``n x n`` matrices (nested lists, numpy arrays, sympy
        Matrices) with entries int / Fraction / sympy numbers (exact), or floats (float path with
        relative tolerance ``tol``, default 1e-9; passing ``tol`` forces the float path). Float
        input is read as approximating exact matrices to a relative accuracy far below ``tol``;
        the answer is theirs, certified by the a-posteriori rule (module docstring): rounding
        of the input is noise, not structure.
        Algorithm: insert generators, then repeatedly insert the brackets of all current basis
        vectors with the newly added ones (the frontier) until nothing new appears.
        Raises ``ValueError`` for an empty set, non-square or mismatched matrices, NaN/inf;
        on the float path :class:`~seqtheory.theory.linalg.NumericalRankError` (a
        ``ValueError``) when a rank decision is not certified (see the module docstring).
        Source: Humphreys §1-§3 (closure); the float rule: :mod:`seqtheory.theory.linalg`.
        """
        rows, n, field = cls._matrices(mats, "mats", tol)
        amb, S, data = cls._from_rows(rows, n, field, tol)
        if field == "RR":
            return _float_entry(data, n, S.tol, "generated")
        S, frontier = S.extend_rows(data)
        return cls(amb, _close(amb, S, frontier, "mats"))

    @classmethod
    def spanned_by(cls, mats: Any, *, tol: float | None = None) -> "LieAlgebra":
        """The span of ``mats`` (as for :meth:`generated_by`), which must be closed under the
        bracket; ``ValueError`` ("not closed under the bracket") otherwise."""
        rows, n, field = cls._matrices(mats, "mats", tol)
        amb, S, data = cls._from_rows(rows, n, field, tol)
        if field == "RR":
            return _float_entry(data, n, S.tol, "spanned")
        S = S.extend_rows(data)[0]
        B = subspace_rows(S)
        if field == "QQ":
            # the brackets of the basis span [g, g] (kept for derived_algebra); their sparse
            # form gives the structure constants (kept for the upper central series)
            sb = _sparse_brackets(amb, B, B, True)
            W = _span_rows_from(amb, sb, B, B, True)
            if not S.contains_rows(W):
                raise ValueError("mats: the span is not closed under the bracket [A,B] = AB - BA")
            L = cls(amb, S)
            L._cache["bracket_rows"] = W
            if sb is not None:
                L._cache["basis_brackets"] = sb
            return L
        return cls(amb, _check_closed(amb, S))

    @classmethod
    def from_structure_constants(cls, c: Any, *, dim: int | None = None,
                                 check: bool = True) -> "LieAlgebra":
        """The Lie algebra on ``Q^N`` with ``[e_i, e_j] = sum_k c[i][j][k] e_k``.

        ``c``: dense nested ``N x N x N`` sequence (or numpy array) of rationals, or sparse dict
        ``{(i, j): {k: coeff}}`` (then ``dim`` = N is required; only non-zero brackets need be
        given, and giving only ``i < j`` is allowed -- the ``(j, i)`` entries are filled in by
        antisymmetry; if both are given they must be opposite). With ``check`` (default) the
        constants are validated exactly: ``c[i][i] = 0``, antisymmetry, and the Jacobi identity
        ``[[e_i,e_j],e_k] + [[e_j,e_k],e_i] + [[e_k,e_i],e_j] = 0``; a violation raises
        ``ValueError`` naming the offending pair / triple. Entries must be rational (ints,
        Fractions, sympy Rationals); floats raise ``TypeError``.
        """
        N, entries = _parse_structure(c, dim)
        I, J, K, C, scale = _integer_table(entries)
        if check:
            _check_antisymmetry(N, I, J, K, C)
            _check_jacobi(N, I, J, K, C)
        amb = _StructureAmbient(N, I, J, K, C, scale)
        S = RationalSubspace(N, np.eye(N, dtype=np.int64), range(N))
        return cls(amb, S)

    # ------------------------------------------------------------------ basic data
    @property
    def dim(self) -> int:
        return self._space.dim

    @property
    def field(self):
        return self._space.field

    @property
    def tol(self) -> float | None:
        return getattr(self._space, "tol", None)

    @property
    def smallest_gap(self) -> float | None:
        """Float path: the smallest gap of the rank decisions that built this algebra's basis
        (each is at least :data:`~seqtheory.theory.linalg.MIN_GAP`; ``inf`` when no decision
        had a dropped side); ``None`` on exact paths."""
        return getattr(self._space, "smallest_gap", None)

    @property
    def noise(self) -> float | None:
        """Float path: first-order bound on the sine of the angle between the computed algebra
        and the one exact arithmetic on the same input gives; ``None`` on exact paths."""
        return getattr(self._space, "noise", None)

    @property
    def certificate(self) -> str | None:
        """Float path: how the rank decisions behind the answers are certified --
        ``"a-posteriori (twin runs)"`` for algebras from :meth:`generated_by` /
        :meth:`spanned_by` and the algebras derived from them (series terms, centres, ideals,
        subalgebras, bracket spaces: their answers are computed on the input and on perturbed
        twins and compared decision by decision,
        :func:`~seqtheory.theory.linalg.compare_decision_logs`), else ``"propagated rounding
        bound"`` (:func:`~seqtheory.theory.linalg.rank_decision` with a bound propagated from
        the input; float algebras without twins). ``None`` on exact paths."""
        if self.field != "RR":
            return None
        return "a-posteriori (twin runs)" if self._cache.get("twins") else \
            "propagated rounding bound"

    @property
    def space(self) -> Subspace:
        """The underlying :class:`~seqtheory.theory.linalg.Subspace` of the ambient."""
        return self._space

    @property
    def ambient_kind(self) -> str:
        return self._ambient.kind

    @property
    def matrix_size(self) -> int | None:
        return getattr(self._ambient, "n", None)

    @property
    def basis(self) -> list[Any]:
        out = []
        for r in subspace_rows(self._space):
            v = _export(r, self.field)
            out.append(v.reshape(self._ambient.n, self._ambient.n)
                       if self._ambient.kind == "matrix" else v)
        return out

    def __repr__(self) -> str:
        amb = f"gl({self._ambient.n})" if self._ambient.kind == "matrix" else f"structure constants on F^{self._ambient.N}"
        return f"LieAlgebra(dim={self.dim}, field={self.field}, ambient={amb})"

    def _sub(self, space: Subspace, inserted: list | None = None) -> "LieAlgebra":
        """The algebra of ``space`` in the same ambient; ``inserted``: the rows inserted to
        build it (float path, recorded decisions: bracketed in place of the basis rows)."""
        L = LieAlgebra(self._ambient, space)
        L._keep_inserted(inserted)
        return L

    def _keep_inserted(self, inserted: list | None) -> None:
        if inserted is not None and self.field == "RR" and is_recording():
            self._cache["inserted"] = _concat(list(inserted), "RR", self._ambient.N)

    def _same_ambient(self, other: "LieAlgebra") -> None:
        if not isinstance(other, LieAlgebra) or not (other._ambient == self._ambient) \
                or other.field != self.field:
            raise ValueError("the two Lie algebras do not share an ambient space and field")

    def _vec(self, u: Any, name: str):
        a = np.asarray(u.tolist() if hasattr(u, "tolist") and not isinstance(u, np.ndarray) else u,
                       dtype=object).ravel()
        if a.size != self._ambient.N:
            raise ValueError(f"{name} has {a.size} entries, the ambient has dimension {self._ambient.N}")
        for x in a:
            check_number(x, name)
        if self.field == "QQ":
            ints, sc = to_field_rows([list(a)], "QQ", name)
            return ints, sc[0]
        return _convert([list(a)], self.field, name), 1

    def bracket(self, u: Any, v: Any) -> Any:
        """``[u, v]`` in the ambient (matrices: ``uv - vu`` as an ``n x n`` array; structure
        constants: the coordinate vector). Exact over Q / number fields."""
        a, sa = self._vec(u, "u")
        b, sb = self._vec(v, "v")
        chunk = next(self._ambient.batches(self.field, a, b, False))
        r = chunk[0]
        if self.field == "QQ":
            den = sa * sb * self._ambient.scale
            out = np.array([Fraction(int(x), den) for x in r], dtype=object)
            out = np.array([int(x) if x.denominator == 1 else x for x in out], dtype=object)
        else:
            out = _export(r, self.field)
        return out.reshape(self._ambient.n, self._ambient.n) if self._ambient.kind == "matrix" else out

    @_twin_checked
    def contains(self, u: Any) -> bool:
        """Whether ``u`` (a matrix / coordinate vector) lies in the algebra."""
        a, _ = self._vec(u, "u")
        return self._space.contains_rows(a)

    @_twin_checked
    def is_subalgebra_of(self, other: "LieAlgebra") -> bool:
        """Whether ``self ⊆ other`` (same ambient and field, else ``ValueError``)."""
        self._same_ambient(other)
        if self.field == "RR":
            return self.dim <= other.dim and \
                other._space.contains_rows(self._inserted(), noise=self.noise)
        return self._space.is_subspace_of(other._space)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, LieAlgebra):
            return NotImplemented
        if not (other._ambient == self._ambient) or other.field != self.field:
            return False
        return self._space == other._space

    __hash__ = None  # type: ignore[assignment]

    # ------------------------------------------------------------------ bracket spaces / ideals
    @_twin_checked
    def bracket_space(self, other: "LieAlgebra") -> "LieAlgebra":
        """``[self, other]`` = span of all brackets (a subspace of the common ambient; it is a
        subalgebra / ideal in the usual situations, e.g. both ideals of a common algebra)."""
        self._same_ambient(other)
        A, B = self._inserted(), other._inserted()
        sym = other is self or self._space == other._space
        if self.field == "QQ":
            if sym and "bracket_rows" in self._cache:   # kept from the closure check
                W = self._cache["bracket_rows"]
            else:
                W = _span_rows_qq(self._ambient, A, A if sym else B, sym)
            return self._sub(RationalSubspace(self._ambient.N).extend_rows(W)[0])
        S = zero_subspace(self._ambient.N, self.field, self.tol or 1e-9)
        e = _bracket_noise(self._ambient, self._space, other._space)
        inserted = []
        for chunk in self._ambient.batches(self.field, A, A if sym else B, sym):
            S, add = _extend(S, chunk, e, "a bracket space [a, b]")
            inserted.append(add)
            if S.dim == self._ambient.N:
                break
        return self._sub(S, inserted)

    def _inserted(self):
        """The rows that span the algebra: on the float path while its decisions are recorded,
        the vectors inserted when it was built (unit generators and brackets, see
        :func:`_close`), when known; else the basis rows of its subspace."""
        W = self._cache.get("inserted")
        return W if W is not None and is_recording() else subspace_rows(self._space)

    @_twin_checked
    def derived_algebra(self) -> "LieAlgebra":
        """``[g, g]``."""
        if "derived" not in self._cache:
            self._cache["derived"] = self.bracket_space(self)
        return self._cache["derived"]

    @_twin_checked
    def subalgebra_generated_by(self, elements: Sequence[Any]) -> "LieAlgebra":
        """The Lie subalgebra generated by ``elements`` (which must lie in ``self``)."""
        rows = self._elements(elements)
        S, fr = _extend(zero_subspace(self._ambient.N, self.field, self.tol or 1e-9), rows, None,
                        "elements")
        inserted = [fr]
        return self._sub(_close(self._ambient, S, fr, "elements", inserted), inserted)

    @_twin_checked
    def ideal_generated_by(self, elements: Sequence[Any]) -> "LieAlgebra":
        """The ideal of ``self`` generated by ``elements``: the smallest subspace containing them
        and closed under ``[g, .]``."""
        rows = self._elements(elements)
        S, fr = _extend(zero_subspace(self._ambient.N, self.field, self.tol or 1e-9), rows, None,
                        "elements")
        G, inserted = subspace_rows(self._space), [fr]
        while _nrows(fr):
            new = []
            e = _bracket_noise(self._ambient, self._space, S)
            for chunk in self._ambient.batches(self.field, G, fr, False):
                S, add = _extend(S, chunk, e, "the ideal generated by elements")
                if _nrows(add):
                    new.append(add)
            fr = _concat(new, self.field, self._ambient.N)
            inserted.append(fr)
        return self._sub(S, inserted)

    def _elements(self, elements):
        if not elements:
            raise ValueError("elements is empty")
        rows = []
        for t, e in enumerate(elements):
            a, _ = self._vec(e, f"elements[{t}]")
            if not self._space.contains_rows(a):
                raise ValueError(f"elements[{t}] is not in the Lie algebra")
            rows.append(a)
        return _concat(rows, self.field, self._ambient.N)

    # ------------------------------------------------------------------ series
    @_twin_checked
    def derived_series(self) -> LieSeries:
        """``g^(0) = g, g^(1) = [g, g], ...`` until 0 or until a term repeats (``stabilised``).

        Every term is checked to lie in the previous one before it is accepted (so the series is
        nested and ends); on the float path also ``g^(i) ⊆ γ_{i+1}`` against the lower central
        series. A float computation that breaks an invariant raises
        :class:`~seqtheory.theory.linalg.NumericalRankError` instead of returning."""
        if "ds" not in self._cache:
            terms, cur = [self], self
            while cur.dim > 0:
                nxt = cur.derived_algebra()
                _check_term(nxt, cur, "derived series", len(terms))
                if nxt.dim == cur.dim:
                    break
                terms.append(nxt)
                cur = nxt
            ds = LieSeries(terms, cur.dim > 0, "derived series")
            if self.field == "RR":
                lcs = self.lower_central_series()
                for i, t in enumerate(ds):
                    _check_contained(t, lcs[min(i, len(lcs) - 1)],
                                     f"derived series term g^({i}) inside γ_{i + 1}")
            self._cache["ds"] = ds
        return self._cache["ds"]

    @_twin_checked
    def lower_central_series(self) -> LieSeries:
        """``γ_1 = g, γ_{i+1} = [g, γ_i]`` until 0 or until a term repeats (``stabilised``).
        Every term is checked to lie in the previous one (float path: else
        :class:`~seqtheory.theory.linalg.NumericalRankError`)."""
        if "lcs" not in self._cache:
            terms, cur = [self], self
            while cur.dim > 0:
                nxt = self.derived_algebra() if cur is self else self.bracket_space(cur)
                _check_term(nxt, cur, "lower central series", len(terms) + 1)
                if nxt.dim == cur.dim:
                    break
                terms.append(nxt)
                cur = nxt
            self._cache["lcs"] = LieSeries(terms, cur.dim > 0, "lower central series")
        return self._cache["lcs"]

    @_twin_checked
    def upper_central_series(self) -> LieSeries:
        """``Z_0 = 0, Z_1 = Z(g), Z_{i+1} = {x : [x, g] ⊆ Z_i}`` until it stops growing
        (``stabilised`` is True when it stops below ``g``; it reaches ``g`` iff g is nilpotent)."""
        if "ucs" not in self._cache and self.field == "QQ":
            self._cache["ucs"] = self._upper_central_series_qq()
            ucs = self._cache["ucs"]
            self._cache.setdefault("center", ucs[1] if len(ucs) > 1 else ucs[0])
        if "ucs" not in self._cache:
            d = self.dim
            C = self._structure_coords()
            Z = _coord_zero(self.field, d, self.tol)
            terms = [self._sub(zero_subspace(self._ambient.N, self.field, self.tol or 1e-9))]
            while True:
                # Z_i ⊆ Z_{i+1} holds exactly; the sum enforces it on the float path too, so
                # the dimension strictly grows until the series stops (termination)
                nz = _centraliser_mod(C, Z, self.field, self.tol, self.noise).sum(Z)
                if nz.dim == Z.dim:
                    break
                Z = nz
                terms.append(self._from_coords(Z))
                if Z.dim == d:
                    break
            ucs = LieSeries(terms, Z.dim < d, "upper central series")
            if self.field == "RR":
                self._check_central_series(ucs)
            self._cache["ucs"] = ucs
        return self._cache["ucs"]

    def _upper_central_series_qq(self) -> LieSeries:
        """Exact path of :meth:`upper_central_series`, in coordinates with sparse structure
        constants: ``Z_{i+1}`` is the kernel of the stacked maps ``x -> pi_i([e_b, x])``
        (``pi_i``: the quotient by ``Z_i``, as the non-pivot coordinates of the reduction modulo
        the RREF of ``Z_i``), one exact RREF per step (FLINT), its kernel read off the RREF."""
        d = self.dim
        zero = self._sub(zero_subspace(self._ambient.N, "QQ"))
        terms = [zero]
        Ck = self._ad_matrix_qq()
        Z = RationalSubspace(d)
        while Z.dim < d:
            nz = _centraliser_qq(Ck, Z, d) if Ck is not None else None
            if nz is None:   # large entries: dense exact path
                nz = _centraliser_mod(self._structure_coords(), Z, "QQ", None).sum(Z)
            if nz.dim == Z.dim:
                break
            if nz.dim < Z.dim:
                raise RuntimeError(f"upper central series: Z_{len(terms)} has dimension "
                                   f"{nz.dim} < {Z.dim}")
            Z = nz
            terms.append(self._from_coords(Z))
        return LieSeries(terms, Z.dim < d, "upper central series")

    def _ad_matrix_qq(self):
        """Sparse ``(d, d*d)`` integer matrix ``A[k, b*d + a] = den * c[a, b, k]`` (scipy CSR,
        ``int64``), with ``[e_a, e_b] = sum_k c[a,b,k] e_k``; ``den`` cancels in every kernel,
        so it is dropped. ``None`` when a numerator exceeds the ``int64`` range."""
        import scipy.sparse as sp

        if "ad_qq" not in self._cache:
            d = self.dim
            a, b, k, v, _den = self._structure_sparse_qq()
            self._cache["ad_qq"] = None if v.dtype != np.int64 else \
                sp.csr_matrix((v, (k, b * d + a)), shape=(d, d * d), dtype=np.int64)
        return self._cache["ad_qq"]

    def _structure_sparse_qq(self):
        """Non-zero structure constants over Q as arrays ``(a, b, k, num, den)`` with
        ``[e_a, e_b] = sum num / den e_k`` (both orders ``(a, b)`` and ``(b, a)`` listed;
        ``num`` is ``int64`` or ``object``). From sparse brackets when the ambient offers them,
        else from the dense structure constants."""
        if "sc_sparse" in self._cache:
            return self._cache["sc_sparse"]
        d = self.dim
        B = subspace_rows(self._space)
        sb = self._cache.get("basis_brackets")   # from the closure check of spanned_by
        if sb is None and d and "sc" not in self._cache:
            sb = _sparse_brackets(self._ambient, B, B, True)
        if sb is not None:
            pairs, rows = sb
            piv = list(self._space.pivots)
            dv = [int(B[i, p]) for i, p in enumerate(piv)]
            D = 1
            for x in dv:
                D = D * x // math.gcd(D, x)
            mult = [D // x for x in dv]
            coo = rows[:, piv].tocoo()
            num = coo.data.astype(np.int64)
            m = np.array(mult, dtype=object)[coo.col]
            if maxabs(num) * max(mult) < 2 ** 62:
                num = num * m.astype(np.int64)
            else:
                num = as_int_rows((num.astype(object) * m)[None, :])[0]
            a, b = pairs[coo.row] // d, pairs[coo.row] % d
            k = coo.col.astype(np.int64)
            res = (np.concatenate([a, b]), np.concatenate([b, a]), np.concatenate([k, k]),
                   stack_int([num[None, :], -num[None, :]]).reshape(-1)
                   if num.dtype == np.int64 else np.concatenate([num, -num]),
                   D * self._ambient.scale)
        else:
            Ci, den = self._structure_coords()
            a, b, k = (x.astype(np.int64) for x in np.nonzero(Ci))
            num = as_int_rows(Ci[a, b, k][None, :])[0] if len(a) else np.zeros(0, np.int64)
            res = (a, b, k, num, den)
        self._cache["sc_sparse"] = res
        return res

    def _check_central_series(self, ucs: LieSeries) -> None:
        """Float path: the upper central series lies in g, reaches g exactly when the lower
        central series reaches 0, then in as many steps, with ``γ_{c+1-i} ⊆ Z_i``."""
        lcs = self.lower_central_series()
        for i, t in enumerate(ucs):
            _check_contained(t, self, f"upper central series term Z_{i} inside g")
        if lcs.stabilised != ucs.stabilised or (not lcs.stabilised and len(lcs) != len(ucs)):
            raise _invariant_error(self, f"the lower central series (dims {lcs.dims}) and the "
                                         f"upper central series (dims {ucs.dims}) disagree on "
                                         f"nilpotency or class")
        if not lcs.stabilised:
            c = len(lcs) - 1
            for i in range(c + 1):
                _check_contained(lcs[c - i], ucs[i], f"γ_{c + 1 - i} inside Z_{i}")

    @_twin_checked
    def center(self) -> "LieAlgebra":
        """The centre ``{x in g : [x, g] = 0}``. Exact path: the term ``Z_1`` of the cached upper
        central series (``Z_0 = 0`` when the series stops there), not a recomputation. Float
        path: one centraliser computation (the whole series, with its consistency checks,
        refuses more often than the centre alone needs)."""
        if "center" not in self._cache:
            if self.field == "QQ":
                self.upper_central_series()          # caches its Z_1 as the centre
            else:
                C = self._structure_coords()
                Z = _centraliser_mod(C, _coord_zero(self.field, self.dim, self.tol), self.field,
                                     self.tol, self.noise)
                self._cache["center"] = self._from_coords(Z)
        return self._cache["center"]

    centre = center

    def _from_coords(self, Zc: Subspace) -> "LieAlgebra":
        """Subalgebra from a subspace of coordinates (w.r.t. ``basis``)."""
        B = subspace_rows(self._space)
        if Zc.dim == 0:
            return self._sub(zero_subspace(self._ambient.N, self.field, self.tol or 1e-9))
        R = subspace_rows(Zc)
        if self.field == "QQ":
            R, B = as_int_rows(R), as_int_rows(B)
            if R.dtype == np.int64 and B.dtype == np.int64 \
                    and maxabs(R) * maxabs(B) * R.shape[1] < 2 ** 62:
                import scipy.sparse as sp   # sparse product, exact under the int64 bound

                vecs = (sp.csr_matrix(R) @ sp.csr_matrix(B)).toarray()
            else:
                vecs = exact_matmul(R, B)
            vecs = primitive_rows(vecs)
            # RREF coordinates times an RREF basis are in RREF: row i has its pivot at the
            # basis pivot of the coordinate pivot, and 0 at the other rows' pivots
            piv = [self._space.pivots[p] for p in Zc.pivots]
            if vecs.shape[0] == len(piv):
                return self._sub(RationalSubspace(self._ambient.N, vecs, piv))
        else:
            vecs = np.asarray(R) @ np.asarray(B)
        S = zero_subspace(self._ambient.N, self.field, self.tol or 1e-9)
        if self.field == "RR":
            # orthonormal coordinates times an orthonormal basis: both errors add
            S = S.extend_rows(vecs, noise=Zc.noise + self.noise + svd_noise(*vecs.shape),
                              argument="a subspace given by coordinates")[0]
            S = FloatSubspace(S.ambient_dim, S.tol, S.rows, S.min_kept, S.max_dropped, S.noise,
                              min(S.smallest_gap, Zc.smallest_gap))
        else:
            S = S.extend_rows(vecs)[0]
        return self._sub(S)

    # ------------------------------------------------------------------ invariants
    @property
    def derived_length(self) -> int | None:
        """Least ``k`` with ``g^(k) = 0`` (SPEC §2): zero algebra -> 0, non-zero abelian -> 1,
        not solvable -> ``None`` (never 0)."""
        ds = self.derived_series()
        return None if ds.stabilised else len(ds) - 1

    @property
    def nilpotency_class(self) -> int | None:
        """Least ``c`` with ``γ_{c+1} = 0`` (SPEC §2): zero algebra -> 0, non-zero abelian -> 1,
        not nilpotent -> ``None``."""
        lcs = self.lower_central_series()
        return None if lcs.stabilised else len(lcs) - 1

    @property
    def is_abelian(self) -> bool:
        """``[g, g] = 0`` (the zero algebra is abelian)."""
        return self.derived_algebra().dim == 0

    @property
    def is_nilpotent(self) -> bool:
        return self.nilpotency_class is not None

    @property
    def is_solvable(self) -> bool:
        return self.derived_length is not None

    @property
    def is_perfect(self) -> bool:
        """``[g, g] = g`` (the zero algebra counts as perfect)."""
        return self.derived_algebra().dim == self.dim

    @_twin_checked
    def structure_constants(self) -> np.ndarray:
        """``c[a, b, k]`` with ``[e_a, e_b] = sum_k c[a,b,k] e_k`` for ``e = basis``; ``object``
        array of Fractions (Q), sympy numbers (number field) or a float array."""
        C = self._structure_coords()
        if self.field == "QQ":
            Ci, den = C
            return _fractions(Ci, den)
        if self.field == "RR":
            return np.asarray(C, dtype=float)
        return np.vectorize(self.field.to_sympy, otypes=[object])(C) if C.size else C

    def structure_constants_sparse(self) -> dict[tuple[int, int], dict[int, Fraction]]:
        """The non-zero structure constants as ``{(a, b): {k: c}}`` for ``a < b`` -- the sparse
        format accepted by :meth:`from_structure_constants` (with ``dim=self.dim``). Q only."""
        if self.field != "QQ":
            raise ValueError("structure_constants_sparse is available over Q only")
        Ci, den = self._structure_coords()
        out: dict[tuple[int, int], dict[int, Fraction]] = {}
        for a, b_, k in np.argwhere(Ci != 0):
            if a < b_:
                out.setdefault((int(a), int(b_)), {})[int(k)] = Fraction(int(Ci[a, b_, k]), den)
        return out

    def _structure_coords(self):
        """Structure constants in the field's internal form: Q -> (int array, common denominator);
        number field -> object array of domain elements; RR -> float array."""
        if "sc" in self._cache:
            return self._cache["sc"]
        d = self.dim
        B = subspace_rows(self._space)
        if d == 0:
            res = (np.zeros((0, 0, 0), np.int64), 1) if self.field == "QQ" else np.zeros((0, 0, 0))
            self._cache["sc"] = res
            return res
        chunks = list(self._ambient.batches(self.field, B, B, False))
        allb = np.concatenate(chunks) if self.field != "QQ" else stack_int(chunks)
        if self.field == "QQ":
            piv = list(self._space.pivots)
            dv = [int(B[i, p]) for i, p in enumerate(piv)]
            D = 1
            for x in dv:
                D = D * x // math.gcd(D, x)
            mult = np.array([D // x for x in dv], dtype=object)
            num = allb[:, piv]
            # both factors must fit int64 (an all-zero num once let a huge mult overflow)
            if num.dtype == np.int64 and max(mult) < 2 ** 62 \
                    and maxabs(num) * max(mult) < 2 ** 62:
                Ci = num * mult.astype(np.int64)
            else:
                Ci = as_int_rows(num.astype(object) * mult)
            res = (Ci.reshape(d, d, d), D * self._ambient.scale)
        elif self.field == "RR":
            # brackets of orthonormal basis vectors below their rounding bound are zero (as in
            # the closure, see _extend), so an abelian algebra gets exact zeros
            e = _bracket_noise(self._ambient, self._space, self._space)
            keep = _nonzero_brackets(row_norms(allb), e, self.tol, "structure constants")
            allb = np.where(keep[:, None], allb, 0.0)
            res = self._space.coordinates_rows(allb, check=False).reshape(d, d, d)
        else:
            res = np.array(self._space.coordinates_rows(allb, check=False), dtype=object).reshape(d, d, d)
        self._cache["sc"] = res
        return res

    @_twin_checked
    def killing_form(self) -> np.ndarray:
        """Gram matrix ``K[a, b] = tr(ad e_a ad e_b)`` in ``basis`` (Fractions over Q)."""
        C = self._structure_coords()
        d = self.dim
        if self.field == "QQ":
            Ci, den = C
            A1 = Ci.reshape(d, d * d)
            A2 = Ci.transpose(0, 2, 1).reshape(d, d * d)
            K = exact_matmul(as_int_rows(A1), as_int_rows(A2).T.copy()) if d else np.zeros((0, 0), np.int64)
            return _fractions(np.asarray(K), den * den)
        A1 = np.asarray(C).reshape(d, d * d)
        A2 = np.asarray(C).transpose(0, 2, 1).reshape(d, d * d)
        K = A1 @ A2.T
        if self.field == "RR":
            return K if is_recording() else np.asarray(K, dtype=float)
        return np.vectorize(self.field.to_sympy, otypes=[object])(K) if K.size else K

    @property
    @_twin_checked
    def is_semisimple(self) -> bool:
        """Cartan's criterion: the Killing form is non-degenerate (zero algebra: True).
        Float path: numerical rank of the row-normalised Killing matrix with ``tol``."""
        d = self.dim
        if d == 0:
            return True
        if self.field == "QQ":
            import flint

            Ci, den = self._structure_coords()
            A1 = as_int_rows(Ci.reshape(d, d * d))
            A2 = as_int_rows(Ci.transpose(0, 2, 1).reshape(d, d * d))
            K = exact_matmul(A1, A2.T.copy())
            M = flint.fmpz_mat(d, d, [int(x) for x in np.asarray(K).ravel().tolist()])
            return M.rank() == d
        if self.field == "RR" and "semisimple" in self._cache:
            return self._cache["semisimple"]
        K = self.killing_form()
        if self.field == "RR":
            # K is the Gram matrix in an orthonormal basis (its scale is the structure
            # constants'); decided unnormalised with its propagated rounding bound:
            # ||dK|| <= 2 ||C||_F ||dC||_F, ||dC||_F <= d dC (row normalisation would turn
            # rounding noise into full rank)
            cn = float(np.linalg.norm(np.asarray(self._structure_coords())))
            eta = 2.0 * cn * d * _coordinate_noise(self.noise, d) + svd_noise(d, d) * max(cn, 1.0) ** 2
            s = np.linalg.svd(np.asarray(K, dtype=float), compute_uv=False)
            res = rank_decision(s, self.tol, eta, "the Killing form", scale=cn ** 2).rank == d
            self._cache["semisimple"] = res
            return res
        from sympy.polys.matrices import DomainMatrix

        Kd = [[self.field.from_sympy(x) for x in r] for r in K]
        return DomainMatrix(Kd, (d, d), self.field).rank() == d


# ============================================================================ helpers
def _fractions(Ci: np.ndarray, den: int) -> np.ndarray:
    """Integer array / den as an object array of Fractions (only non-zeros are converted)."""
    out = np.full(Ci.shape, Fraction(0), dtype=object)
    for idx in np.argwhere(Ci != 0):
        idx = tuple(idx)
        out[idx] = Fraction(int(Ci[idx]), den)
    return out


def _nrows(x) -> int:
    return len(x) if isinstance(x, list) else x.shape[0]


def _concat(parts, field, N):
    parts = [np.asarray(p, dtype=object) if isinstance(p, list) else p for p in parts]
    parts = [p for p in parts if _nrows(p)]
    if not parts:
        return np.zeros((0, N), dtype=float if field == "RR" else (np.int64 if field == "QQ" else object))
    if field == "QQ":
        return stack_int(parts)
    return np.concatenate(parts)


def _convert(rows, field, name: str = "mats"):
    if field == "QQ" and isinstance(rows, np.ndarray):
        return as_int_rows(rows)
    if field == "RR" and isinstance(rows, np.ndarray) and rows.dtype == np.float64:
        return rows   # converted and checked by matrix_rows
    if field == "QQ":
        return to_field_rows(rows, "QQ", name)[0]
    if field == "RR":
        return to_field_rows(rows, "RR", name)
    return np.array(to_field_rows(rows, field, name), dtype=object)


def _export(r, field):
    if field == "QQ":
        return np.array([int(x) for x in r], dtype=object)
    if field == "RR":
        return np.asarray(r, dtype=float)
    return np.array([field.to_sympy(x) for x in r], dtype=object)


def _bracket_noise(amb, U: Subspace, V: Subspace) -> float:
    """Float path: absolute rounding bound of ``[u, v]`` for unit rows ``u`` of ``U`` and ``v``
    of ``V`` (first order): ``||[du, v] + [u, dv]|| <= 2 (noise_U + noise_V)`` for the error in
    the rows, plus ``(2n + 2) EPS`` for forming ``uv - vu`` (|fl(uv) - uv| <= n EPS |u||v|).
    Exact fields: 0."""
    if U.field != "RR":
        return 0.0
    return math.hypot(U.noise, V.noise) * 2.0 + (2 * getattr(amb, "n", 1) + 2) * EPS


def _extend(S: Subspace, chunk, e: float | None, argument: str):
    """Insert the rows ``chunk`` into ``S``; returns ``(new_subspace, added_rows)``.

    Float path: ``e`` is the absolute rounding bound of every row (brackets of unit rows); a row
    of norm ``<= e`` cannot be told from 0 and is dropped, the others carry the relative noise
    ``e / norm`` into the rank decision (``e = None``: rows are float input, with input
    rounding). Exact fields insert everything (zero rows are dropped exactly)."""
    field = S.field
    if field == "RR":
        chunk = np.asarray(chunk, dtype=working_dtype()).reshape(-1, S.ambient_dim)
        if e is None:
            return S.extend_rows(chunk, argument=argument)
        norms = row_norms(chunk)
        keep = _nonzero_brackets(norms, e, S.tol, argument)
        return S.extend_rows(chunk[keep], noise=e / norms[keep], argument=argument)
    if field == "QQ":
        return S.extend_rows(chunk)
    return S.extend_rows([list(r) for r in chunk if any(x != field.zero for x in r)])


def _nonzero_brackets(norms: np.ndarray, e: float, tol: float, argument: str) -> np.ndarray:
    """Float path: which brackets of unit vectors are non-zero (norm ``> tol``; while recording,
    above the level of :func:`~seqtheory.theory.linalg.decision_level`). A bracket is
    zero only when its norm is explained by rounding (``<= e``) and :data:`MIN_GAP` times below
    ``tol`` -- the rule for dropped values of :func:`rank_decision`; a norm in between is a
    genuine value that the tolerance would cut: :class:`NumericalRankError`. (A non-zero
    bracket within ``MIN_GAP`` times ``e`` is accepted only if it already lies in the subspace,
    see ``FloatSubspace.extend_rows``.)"""
    if is_recording():
        level = decision_level(tol)
        nonzero = norms > level
        record_decision(argument, norms, nonzero, level)
        return nonzero
    nonzero = norms > tol
    unsure = ~nonzero & (norms > min(e, tol / MIN_GAP))
    if np.any(unsure):
        i = int(np.argmax(unsure))
        raise NumericalRankError(argument, 0.0, tol, e, np.array([norms[i]]), message=(
            f"a bracket of unit basis vectors has norm {norms[i]:.3g}: not above the tolerance "
            f"{tol:g}, but not certified zero either (it must lie within the propagated rounding "
            f"bound {e:.3g} and {MIN_GAP:g} times below the tolerance); it may be a genuine "
            f"value, so whether it vanishes is not determined at working precision. Pass exact "
            f"entries (ints, Fractions, sympy numbers) for the exact path"))
    return nonzero


def _check_closed(amb, S: FloatSubspace) -> FloatSubspace:
    """Float path of :meth:`LieAlgebra.spanned_by`: ``S`` unchanged when every bracket of its
    basis lies in it, else ``ValueError``."""
    B = subspace_rows(S)
    e = _bracket_noise(amb, S, S)
    for chunk in amb.batches("RR", B, B, True):
        if _extend(S, chunk, e, "mats (closure check)")[0].dim != S.dim:
            raise ValueError("mats: the span is not closed under the bracket [A,B] = AB - BA")
    return S


def _float_algebra(data: np.ndarray, n: int, tol: float, kind: str) -> "LieAlgebra":
    """The float algebra of the flattened matrices ``data`` (``(k, n*n)`` float64): their Lie
    closure (``kind = "generated"``) or their span, checked closed (``"spanned"``)."""
    amb = _MatrixAmbient(n)
    data = np.asarray(data).astype(working_dtype())
    S, frontier = FloatSubspace(n * n, tol).extend_rows(data, argument="mats")
    inserted = [frontier]
    S = _close(amb, S, frontier, "mats", inserted) if kind == "generated" \
        else _check_closed(amb, S)
    L = LieAlgebra(amb, S)
    L._keep_inserted(inserted)
    return L


TWINS = 2   # perturbed twin runs of the float path's a-posteriori rule


def _twin(data: np.ndarray, k: int) -> np.ndarray:
    """Twin ``k`` of the float input: every entry multiplied by ``1 + TWIN_PERTURBATION r``,
    ``r`` uniform in [-1, 1] from a generator seeded by ``k`` (zeros stay zero)."""
    r = np.random.default_rng(1000 + k).uniform(-1.0, 1.0, data.shape)
    return data * (1.0 + TWIN_PERTURBATION * r)


def _float_entry(data: np.ndarray, n: int, tol: float, kind: str) -> "LieAlgebra":
    """Float path of :meth:`LieAlgebra.generated_by` / :meth:`LieAlgebra.spanned_by`: the
    algebra of ``data`` and of :data:`TWINS` perturbed twins (:func:`_twin`), every decision
    recorded (:func:`_twin_runs`); returned, with the twins attached, only when the decisions
    are certified. "Not closed under the bracket" (``spanned_by``) is an answer certified like
    the others."""
    outs, logs = _twin_runs(lambda k: _float_algebra(data if k == 0 else _twin(data, k), n, tol,
                                                     kind))
    (L, not_closed), twins = outs[0], outs[1:]
    if isinstance(not_closed, NumericalRankError):
        raise not_closed
    _twin_refusals(tol, twins)
    _certify(tol, logs[0], logs[1:])
    if not_closed is not None:
        raise not_closed
    L._cache["twins"] = [t[0] for t in twins]
    return L


_MAX_PASSES = 6   # repetitions of the twin runs with raised levels (raised_levels)


def _twin_runs(run, algebras: Sequence["LieAlgebra"] = ()) -> tuple[list, list]:
    """Run ``run(k)`` for the input (``k = 0``) and its :data:`TWINS` twins, each with its
    decisions recorded; returns ``([(result or None, ValueError or None), ...], logs)``. When
    the twins measure noise among the kept values of a decision
    (:func:`~seqtheory.theory.linalg.raised_levels`), the runs are repeated with that
    decision's level raised between the measured noise and the signal (at most
    :data:`_MAX_PASSES` times; the caches of ``algebras`` are restored before a repetition, so
    cached terms are recomputed). Certification is the caller's (:func:`_certify`)."""
    levels: dict[int, float] = {}
    saved = [dict(a._cache) for a in algebras]
    for rep in range(_MAX_PASSES):
        outs, logs = [], []
        for k in range(TWINS + 1):
            with recording_decisions(levels) as log:
                try:
                    outs.append((run(k), None))
                except ValueError as exc:
                    outs.append((None, exc))
            logs.append(log)
        nxt = raised_levels(logs[0], logs[1:], levels)
        if nxt is None or rep == _MAX_PASSES - 1:
            break
        levels = nxt
        for a, c in zip(algebras, saved):
            a._cache.clear()
            a._cache.update(c)
    return outs, logs


def _twin_refusals(tol: float, rest: list) -> None:
    """Raise the a-posteriori rule's error when a twin run refused (``rest``: the twins'
    ``(result, error)`` pairs of :func:`_twin_runs`)."""
    for _, exc in rest:
        if isinstance(exc, NumericalRankError):
            raise _twin_error(tol, f"a twin run refused: {exc}") from exc


def _twin_error(tol: float, why: str) -> NumericalRankError:
    """The a-posteriori rule's refusal, with the reason ``why``."""
    why = why.split(". Pass exact entries")[0]
    return NumericalRankError("mats", 0.0, tol, 0.0, np.zeros(0), message=(
        f"the a-posteriori rule (the computation repeated on the input with every entry "
        f"perturbed by up to {TWIN_PERTURBATION:g} relative) does not certify the answer: {why}. "
        f"Pass exact entries (ints, Fractions, sympy numbers) for the exact path"))


def _certify(tol: float, log: list, logs: list) -> None:
    """Raise the a-posteriori rule's error unless the twin logs certify ``log``."""
    _gap, why = compare_decision_logs(log, logs, tol)
    if why is not None:
        raise _twin_error(tol, why)


def _attach_twins(out: Any, results: list) -> None:
    """Give the algebras of a certified result (a series' terms, an algebra) the matching
    algebras of the twins' results, so that their own answers are twin-checked too."""
    if isinstance(out, LieSeries):
        for i, term in enumerate(out):
            if all(isinstance(r, LieSeries) and len(r) == len(out) for r in results):
                term._cache.setdefault("twins", [r[i] for r in results])
    elif isinstance(out, LieAlgebra):
        out._cache.setdefault("twins", list(results))


def _close(amb, S: Subspace, frontier, argument: str, inserted: list | None = None) -> Subspace:
    """Lie closure by frontier insertion: every pair of inserted vectors is bracketed once.

    Over Q the bracketed vectors are the inserted vectors themselves (brackets of generators,
    small integers), not the RREF rows (whose entries can be large); the RREF is formed once at
    the end. While the float path records its decisions (twin runs) the same holds: the
    inserted vectors are the kept candidates (unit generators and brackets,
    ``FloatSubspace.extend_rows``), not the orthonormal basis, whose direction found with a
    small residual ``sigma`` carries the input's rounding amplified by ``1 / sigma`` into
    every bracket with it (conjugated sl(2) at condition number 1e3: dropped rounding 1.5e-11
    from the orthonormal basis, about 1e-16 from the inserted vectors)."""
    field = S.field
    if field == "QQ":
        return _close_qq(amb, as_int_rows(frontier))
    frontier = np.asarray(frontier) if not isinstance(frontier, np.ndarray) else frontier
    W = frontier if field == "RR" and is_recording() else None
    while _nrows(frontier):
        allb = subspace_rows(S) if W is None else W
        e = _bracket_noise(amb, S, S)
        new = []
        for chunk in amb.batches(field, allb, frontier, False):
            S, add = _extend(S, chunk, e, f"{argument} (Lie closure)")
            if _nrows(add):
                new.append(add)
            if S.dim == amb.N:
                break
        frontier = _concat(new, field, amb.N)
        if W is not None:
            W = np.concatenate([W, frontier])
            if inserted is not None:
                inserted.append(frontier)
    return S


def _close_qq(amb, gens: np.ndarray) -> RationalSubspace:
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
        sb = _sparse_brackets(amb, frontier if first else W, frontier, first)
        new = []
        for chunk in _bracket_chunks(amb, sb, frontier if first else W, frontier, first):
            for c0 in range(0, chunk.shape[0], 2 * N):
                S, added = _insert_outside(S, chunk[c0:c0 + 2 * N])
                new += added
                if S.dim == N:
                    break
            if S.dim == N:
                break
        frontier, first = _concat(new, "QQ", N), False
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


def _centraliser_qq(Ck, Z: RationalSubspace, d: int) -> RationalSubspace | None:
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
        return _full("QQ", d, None)
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


def _coord_zero(field, d, tol):
    return zero_subspace(d, field, tol or 1e-9)


def _centraliser_mod(C, Z: Subspace, field, tol, theta: float | None = None) -> Subspace:
    """``{x : [x, e_b] ∈ Z for all b}`` in coordinates, for structure constants ``C``.

    Rows of the constraint matrix: for each basis element b and each functional f annihilating Z,
    ``x -> f([x, e_b]) = sum_{a,k} x_a C[a,b,k] f_k``; the answer is its kernel. Float path:
    ``theta`` is the noise of the algebra's basis (see :func:`_coordinate_noise`)."""
    if field == "QQ":
        Ci, _den = C
        d = Ci.shape[0]
    else:
        Ci = np.asarray(C)
        d = Ci.shape[0]
    if d == 0:
        return _coord_zero(field, 0, tol)
    if field == "RR":
        return _centraliser_mod_float(Ci, Z, tol, _coordinate_noise(theta, d))
    F = _annihilator(Z, field, tol)  # (f, d)
    if _nrows(F) == 0:
        return _full(field, d, tol)
    # M[(b, f), a] = sum_k C[a, b, k] F[f, k]
    if field == "QQ":
        T = exact_matmul(as_int_rows(Ci.reshape(d * d, d)), as_int_rows(F).T.copy())  # [(a,b), f]
        M = np.asarray(T).reshape(d, d, -1).transpose(1, 2, 0).reshape(-1, d)
    else:
        T = Ci.reshape(d * d, d) @ np.asarray(F).T
        M = T.reshape(d, d, -1).transpose(1, 2, 0).reshape(-1, d)
    K = _kernel(M, field)
    return _coord_zero(field, d, tol).extend_rows(K)[0] if _nrows(K) else _coord_zero(field, d, tol)


def _coordinate_noise(theta: float, d: int) -> float:
    """Float path: bound on the error of each structure-constant vector ``C[a, b, :]`` of an
    orthonormal basis known to ``theta``: the bracket error (``4 theta + O(n EPS)``) plus the
    error of projecting onto the basis (``2 theta``)."""
    return 6.0 * theta + (2 * d + 8) * EPS


def _centraliser_mod_float(Ci: np.ndarray, Z: FloatSubspace, tol: float, dC: float) -> FloatSubspace:
    """Float path of :func:`_centraliser_mod`. The constraint matrix is formed in orthonormal
    bases (its scale is the structure constants'), so it is decided unnormalised by
    :func:`rank_decision` with its propagated rounding bound: ``d sqrt(f) dC`` from the
    structure constants, ``sqrt(2) ||C||_F noise_Z`` from the annihilator of ``Z``."""
    d = Ci.shape[0]
    if Z.dim == d:
        return _full("RR", d, tol)
    if Z.dim == 0:
        F = np.eye(d)
    elif is_recording():
        F = complement_rows(Z.rows, d)          # continuous in Z (twin runs compare values)
    else:
        F = np.linalg.svd(Z.rows, full_matrices=True)[2][Z.dim:]      # complement of Z
    T = Ci.reshape(d * d, d) @ F.T
    M = T.reshape(d, d, -1).transpose(1, 2, 0).reshape(-1, d)
    cn = float(np.linalg.norm(Ci))
    eta = d * math.sqrt(F.shape[0]) * dC + math.sqrt(2.0) * cn * Z.noise \
        + svd_noise(*M.shape) * max(cn, 1.0)
    # only V is needed: the full U of a tall M (d^2 x d) would cost O((d^2)^2) memory and time
    _, s, vt = np.linalg.svd(M.astype(float), full_matrices=M.shape[0] < d)
    # rows of M are functionals of norm <= ||C||_F: that is the scale of the tolerance
    dec = rank_decision(s, tol, eta, "the centraliser constraints (centre / upper central series)",
                        scale=cn)
    K = complement_rows(vt[:dec.rank], d) if is_recording() else vt[dec.rank:]
    out = FloatSubspace(d, tol, smallest_gap=dec.gap)
    if K.shape[0] == 0:
        return out
    theta = eta / float(s[dec.rank - 1]) if dec.rank and s[dec.rank - 1] > 2 * eta else \
        (0.0 if not dec.rank else 1.0)
    return out.extend_rows(K, noise=theta + svd_noise(*M.shape), argument="a centraliser")[0]


def _full(field, d, tol):
    if field == "QQ":
        return RationalSubspace(d, np.eye(d, dtype=np.int64), range(d))
    if field == "RR":
        return FloatSubspace(d, tol, np.eye(d))
    return _coord_zero(field, d, tol).extend_rows([[field.one if i == j else field.zero for j in range(d)] for i in range(d)])[0]


def _annihilator(Z: Subspace, field, tol):
    """Rows f spanning ``{f : f . z = 0 for z in Z}`` (exact fields)."""
    d = Z.ambient_dim
    if Z.dim == 0:
        return subspace_rows(_full(field, d, tol))
    return _kernel(subspace_rows(Z), field)


def _kernel(M, field):
    """Rows spanning the right kernel of ``M`` (rows x d), exact fields."""
    d = M.shape[1]
    if field == "QQ":
        import flint

        M = as_int_rows(M)
        if M.shape[0] == 0:
            return np.eye(d, dtype=np.int64)
        # reduce first: kernel of M = kernel of its row space basis
        S = RationalSubspace(d).extend_rows(M)[0]
        if S.dim == 0:
            return np.eye(d, dtype=np.int64)
        A = flint.fmpz_mat(S.dim, d, [int(x) for x in np.asarray(S.rows).ravel().tolist()])
        X, nul = A.nullspace()
        out = np.array([[int(X[i, j]) for i in range(d)] for j in range(nul)], dtype=object)
        return as_int_rows(out) if nul else np.zeros((0, d), np.int64)
    from sympy.polys.matrices import DomainMatrix

    if M.shape[0] == 0:
        return np.array([[field.one if i == j else field.zero for j in range(d)] for i in range(d)], dtype=object)
    ker = DomainMatrix([list(r) for r in M], M.shape, field).nullspace().to_list()
    return np.array(ker, dtype=object).reshape(len(ker), d)


def _invariant_error(L: "LieAlgebra", what: str) -> NumericalRankError:
    """The error for a float computation that broke a structural invariant."""
    return NumericalRankError("mats", L.smallest_gap or math.inf, L.tol or 0.0, L.noise or 0.0,
                              np.zeros(0), message=(
                                  f"the float computation broke an invariant that holds in every "
                                  f"Lie algebra: {what}; the rank decisions are not reliable at "
                                  f"relative tol {L.tol:g}. Pass exact entries (ints, Fractions, "
                                  f"sympy numbers) for the exact path"))


def _check_contained(A: "LieAlgebra", B: "LieAlgebra", what: str) -> None:
    """Float path: ``A ⊆ B`` by the gap-checked rank decision, else an invariant error."""
    if A.dim > B.dim or not B._space.contains_rows(A._inserted(), noise=A.noise):
        raise _invariant_error(A, f"{what} fails (dims {A.dim} and {B.dim})")


def _check_term(nxt: "LieAlgebra", cur: "LieAlgebra", name: str, index: int) -> None:
    """The next term of a descending series lies in the current one: dimensions on every path
    (an exact path that broke it would be a defect), containment too on the float path."""
    if nxt.dim > cur.dim:
        if nxt.field != "RR":
            raise RuntimeError(f"{name}: term {index} has dimension {nxt.dim} > {cur.dim}")
        raise _invariant_error(nxt, f"{name} term {index} (dim {nxt.dim}) is larger than the "
                                    f"previous term (dim {cur.dim})")
    if nxt.field == "RR":
        _check_contained(nxt, cur, f"{name} term {index} inside the previous term")


# ============================================================================ structure constants
def _to_fraction(x, where: str) -> Fraction:
    if isinstance(x, (bool, np.bool_)):
        raise TypeError(f"{where}: booleans are not numbers")
    if isinstance(x, (Integral, np.integer)):
        return Fraction(int(x))
    if isinstance(x, Rational):
        return Fraction(x.numerator, x.denominator)
    if isinstance(x, (float, np.floating, complex)):
        raise TypeError(f"{where}: {x!r} is a float; structure constants must be exact rationals")
    import sympy

    try:
        s = sympy.sympify(x)
    except (sympy.SympifyError, TypeError) as exc:
        raise TypeError(f"{where}: {x!r} is not a number") from exc
    if not s.is_Rational:
        raise TypeError(f"{where}: {x!r} is not rational")
    return Fraction(int(s.p), int(s.q))


def _parse_structure(c, dim):
    """-> (N, dict {(i,j,k): Fraction}) of non-zero entries."""
    entries: dict[tuple[int, int, int], Fraction] = {}
    if isinstance(c, dict):
        if dim is None or isinstance(dim, bool) or not isinstance(dim, (int, np.integer)) \
                or dim < 0:
            raise ValueError("c is sparse (dict); pass dim = N (a non-negative int)")
        N = int(dim)
        given = {}
        for key, row in c.items():
            if not (isinstance(key, tuple) and len(key) == 2):
                raise ValueError(f"c: key {key!r} must be a pair (i, j)")
            i, j = key
            for t in (i, j):
                if isinstance(t, bool) or not isinstance(t, (int, np.integer)) or not 0 <= t < N:
                    raise ValueError(f"c: index {t!r} in key {key!r} out of range 0..{N - 1}")
            if not isinstance(row, dict):
                raise ValueError(f"c[{key!r}] must be a dict {{k: coeff}}")
            vec = {}
            for k, x in row.items():
                if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or not 0 <= k < N:
                    raise ValueError(f"c[{key!r}]: index {k!r} out of range 0..{N - 1}")
                f = _to_fraction(x, f"c[{key!r}][{k}]")
                if f:
                    vec[int(k)] = f
            given[(int(i), int(j))] = vec
        for (i, j), vec in given.items():
            if i == j and vec:
                raise ValueError(f"c: [e_{i}, e_{i}] must be 0, got {vec}")
            for k, f in vec.items():
                entries[(i, j, k)] = f
            if (j, i) not in given:
                for k, f in vec.items():
                    entries[(j, i, k)] = -f
        return N, entries
    if dim is not None:
        raise ValueError("dim is only used with sparse (dict) structure constants")
    arr = np.asarray(c, dtype=object) if not isinstance(c, np.ndarray) else c
    if arr.ndim != 3 or not (arr.shape[0] == arr.shape[1] == arr.shape[2]):
        raise ValueError(f"c must be an N x N x N nested sequence, got shape {arr.shape}")
    N = arr.shape[0]
    if arr.dtype.kind in "fc":
        raise TypeError("c: float array; structure constants must be exact rationals")
    if arr.dtype.kind in "bUS":
        raise TypeError(f"c: {arr.dtype} array; structure constants must be exact rationals")
    for i, j, k in np.argwhere(arr != 0):
        f = _to_fraction(arr[i, j, k], f"c[{i}][{j}][{k}]")
        if f:
            entries[(int(i), int(j), int(k))] = f
    return N, entries


def _integer_table(entries):
    if not entries:
        z = np.zeros(0, np.int64)
        return z, z, z, z, 1
    D = 1
    for f in entries.values():
        D = D * f.denominator // math.gcd(D, f.denominator)
    keys = sorted(entries)
    I = np.array([k[0] for k in keys], np.int64)
    J = np.array([k[1] for k in keys], np.int64)
    K = np.array([k[2] for k in keys], np.int64)
    C = as_int_rows(np.array([[int(entries[k] * D) for k in keys]], dtype=object))[0]
    return I, J, K, C, D


def _check_antisymmetry(N, I, J, K, C):
    d = {(int(i), int(j), int(k)): int(c) for i, j, k, c in zip(I, J, K, C)}
    for (i, j, k), v in d.items():
        if i == j:
            raise ValueError(f"c violates antisymmetry: [e_{i}, e_{i}] has coefficient {v} on e_{k}")
        if d.get((j, i, k), 0) != -v:
            raise ValueError(f"c violates antisymmetry: c[{i}][{j}][{k}] != -c[{j}][{i}][{k}]")


def _check_jacobi(N, I, J, K, C):
    """Exact Jacobi check: sum over cyclic rotations of (i,j,k) of c_ijl c_lkm must vanish."""
    if len(C) == 0:
        return
    # T[(i,j),(k,m)] = sum_l c_ijl c_lkm: join entries (i,j,l) with (l,k,m)
    by_first: dict[int, list[tuple[int, int, int]]] = {}
    for l, k, m, c in zip(I.tolist(), J.tolist(), K.tolist(), [int(x) for x in C]):
        by_first.setdefault(l, []).append((k, m, c))
    acc: dict[tuple[int, int, int, int], int] = {}
    for i, j, l, c in zip(I.tolist(), J.tolist(), K.tolist(), [int(x) for x in C]):
        for k, m, c2 in by_first.get(l, ()):
            a, b, e = i, j, k
            rot = min((a, b, e), (b, e, a), (e, a, b))
            key = rot + (m,)
            acc[key] = acc.get(key, 0) + c * c2
    for (i, j, k, m), v in sorted(acc.items()):
        if v != 0:
            raise ValueError(f"c violates the Jacobi identity for the triple (e_{i}, e_{j}, e_{k}): "
                             f"the coefficient of e_{m} in the cyclic sum is non-zero")

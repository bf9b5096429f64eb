"""Centralisers in coordinates for every field: ``{x : [x, e_b] in Z for all b}`` from the
structure constants ``C`` of a basis (:func:`centraliser_mod`; the upper central series and the
centre of :class:`~seqtheory.theory.lie.LieAlgebra`). Exact fields: the kernel of the constraint
matrix (FLINT over Q, sympy ``DomainMatrix`` over a number field). Float path: the constraint
matrix in orthonormal bases decided by :func:`~seqtheory.theory.float_rank.rank_decision` with
its propagated rounding bound (recorded for the twin rule while recording).

Source: Humphreys, §3 (upper central series).
"""
from __future__ import annotations

import math

import numpy as np

from .field_input import row_count
from .float_rank import EPS, complement_rows, is_recording, rank_decision, svd_noise
from .float_subspace import FloatSubspace
from .int_rows import as_int_rows, exact_matmul
from .linalg import RationalSubspace, full_subspace, subspace_rows, zero_subspace
from .subspace import Subspace

__all__ = ["centraliser_mod", "coordinate_noise", "kernel_rows", "annihilator_rows"]


def centraliser_mod(C, Z: Subspace, field, tol, theta: float | None = None) -> Subspace:
    """``{x : [x, e_b] ∈ Z for all b}`` in coordinates, for structure constants ``C``.

    Rows of the constraint matrix: for each basis element b and each functional f annihilating Z,
    ``x -> f([x, e_b]) = sum_{a,k} x_a C[a,b,k] f_k``; the answer is its kernel. Float path:
    ``theta`` is the noise of the algebra's basis (see :func:`coordinate_noise`)."""
    if field == "QQ":
        Ci, _den = C
        d = Ci.shape[0]
    else:
        Ci = np.asarray(C)
        d = Ci.shape[0]
    if d == 0:
        return zero_subspace(0, field, tol or 1e-9)
    if field == "RR":
        return _centraliser_mod_float(Ci, Z, tol, coordinate_noise(theta, d))
    F = annihilator_rows(Z, field, tol)  # (f, d)
    if row_count(F) == 0:
        return full_subspace(field, d, tol)
    # M[(b, f), a] = sum_k C[a, b, k] F[f, k]
    if field == "QQ":
        T = exact_matmul(as_int_rows(Ci.reshape(d * d, d)), as_int_rows(F).T.copy())  # [(a,b), f]
        M = np.asarray(T).reshape(d, d, -1).transpose(1, 2, 0).reshape(-1, d)
    else:
        T = Ci.reshape(d * d, d) @ np.asarray(F).T
        M = T.reshape(d, d, -1).transpose(1, 2, 0).reshape(-1, d)
    K = kernel_rows(M, field)
    return zero_subspace(d, field, tol or 1e-9).extend_rows(K)[0] if row_count(K) else zero_subspace(d, field, tol or 1e-9)


def coordinate_noise(theta: float, d: int) -> float:
    """Float path: bound on the error of each structure-constant vector ``C[a, b, :]`` of an
    orthonormal basis known to ``theta``: the bracket error (``4 theta + O(n EPS)``) plus the
    error of projecting onto the basis (``2 theta``)."""
    return 6.0 * theta + (2 * d + 8) * EPS


def _centraliser_mod_float(Ci: np.ndarray, Z: FloatSubspace, tol: float, dC: float) -> FloatSubspace:
    """Float path of :func:`centraliser_mod`. The constraint matrix is formed in orthonormal
    bases (its scale is the structure constants'), so it is decided unnormalised by
    :func:`~seqtheory.theory.float_rank.rank_decision` with its propagated rounding bound: ``d sqrt(f) dC`` from the
    structure constants, ``sqrt(2) ||C||_F noise_Z`` from the annihilator of ``Z``."""
    d = Ci.shape[0]
    if Z.dim == d:
        return full_subspace("RR", d, tol)
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


def annihilator_rows(Z: Subspace, field, tol):
    """Rows f spanning ``{f : f . z = 0 for z in Z}`` (exact fields)."""
    d = Z.ambient_dim
    if Z.dim == 0:
        return subspace_rows(full_subspace(field, d, tol))
    return kernel_rows(subspace_rows(Z), field)


def kernel_rows(M, field):
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

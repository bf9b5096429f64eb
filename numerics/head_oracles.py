"""Convex-programming oracles for the steepest-descent geometry of the language-model head.

Source: A. Somasundaram et al., *Toward a First-Principles Update Geometry for the Language-Model
Head*, arXiv:2608.22253v2 ([HEAD]), SPEC §3.2 (claims ``head.min_tension_duality``,
``head.rownorm_oracle``, ``head.rownorm_ratio``).

For a head gradient ``G ∈ R^{V×d}`` (rows ``g_i``) and a step budget ``η``:

* **diameter-constrained steepest descent** (the exact problem):
  ``min ⟨G, S⟩ s.t. ‖s_i − s_j‖₂ ≤ η (all i < j), 1ᵀS = 0`` — a second-order cone program (SOCP);
* its **minimum-tension dual** ``𝒯(G) = min Σ_{i<j} ‖y_ij‖₂`` over antisymmetric flows
  (``y_ji = −y_ij``) with ``Σ_j y_ij = g_i``; [HEAD] states primal = ``−η 𝒯(G)``. The flow
  constraint forces ``1ᵀG = 0`` (a softmax cross-entropy gradient is centred); for an uncentred
  ``G`` the flow problem is infeasible while the primal only sees ``PG``;
* the **projected RowNorm oracle** ``S_RN = −(η/2) P·RN(PG)`` with ``P = I − 11ᵀ/V`` and
  ``RN`` the row normalisation, its decrease ``Δ_RN = −⟨G, S_RN⟩ = (η/2) Σ_i ‖(PG)_i‖₂``, and the
  covering-radius program ``min ⟨G, S⟩ s.t. ‖s_i − c‖₂ ≤ η/2, 1ᵀS = 0`` it should solve;
* the ratio ``Δ_RN / Δ*`` (``Δ* = η 𝒯(G)``), stated to lie in ``[√((k+1)/(2k)), 1]`` with
  ``k = rank G`` (the lower end is Jung's theorem; tight for a regular-simplex gradient).

Solver: cvxpy with Clarabel (interior point; default tolerances ≈ 1e-8). Intended sizes: V ≤ 12,
d ≤ 6 (``V(V−1)/2`` cone constraints). numpy + cvxpy only; never imports torch.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from seqtheory.theory.hilbert import _as_rows, row_diameter

__all__ = [
    "SocpResult", "pair_difference_matrix", "centre_rows", "row_normalise",
    "steepest_descent_diameter", "min_tension", "rownorm_update", "rownorm_value",
    "covering_radius_descent", "numerical_rank", "rownorm_ratio", "rownorm_ratio_bound",
    "regular_simplex_gradient", "diameter_of",
]


@dataclass
class SocpResult:
    """Solution of one conic program: optimal ``value`` (``inf`` when infeasible), the primal
    ``solution`` array (``None`` when infeasible) and the solver ``status`` string."""

    value: float
    solution: np.ndarray | None
    status: str


def _eta(eta) -> float:
    e = float(eta)
    if not math.isfinite(e) or e <= 0:
        raise ValueError(f"eta must be finite and > 0, got {eta!r}")
    return e


def pair_difference_matrix(V: int) -> np.ndarray:
    """``(V(V−1)/2, V)`` matrix whose row for the pair ``i < j`` (lexicographic) is ``e_i − e_j``."""
    if not isinstance(V, (int, np.integer)) or V < 2:
        raise ValueError(f"V must be an int ≥ 2, got {V!r}")
    I, J = np.triu_indices(V, 1)
    M = np.zeros((I.size, V))
    M[np.arange(I.size), I] = 1.0
    M[np.arange(I.size), J] = -1.0
    return M


def centre_rows(G) -> np.ndarray:
    """``P G = G − 1 (1ᵀG)/V`` (subtract the mean row)."""
    A = _as_rows(G, "G")
    return A - A.mean(axis=0, keepdims=True)


def row_normalise(G, eps: float = 0.0) -> np.ndarray:
    """``RN(G)_i = g_i / (‖g_i‖₂ + eps)``; zero rows stay zero (also with ``eps = 0``)."""
    A = _as_rows(G, "G")
    if not (eps >= 0 and math.isfinite(eps)):
        raise ValueError(f"eps must be finite and ≥ 0, got {eps!r}")
    nrm = np.linalg.norm(A, axis=1, keepdims=True) + eps
    return np.divide(A, nrm, out=np.zeros_like(A), where=nrm > 0)


def _solve(problem) -> str:
    import cvxpy as cp

    problem.solve(solver=cp.CLARABEL)
    return str(problem.status)


def steepest_descent_diameter(G, eta: float = 1.0) -> SocpResult:
    """Solve ``min ⟨G, S⟩ s.t. D(S) ≤ η, 1ᵀS = 0`` (SOCP, all ``V(V−1)/2`` pair constraints).

    ``G``: ``(V, d)`` float array, ``V ≥ 2``. Returns the optimal value (≤ 0) and ``S``.
    Raises ``ValueError`` for bad ``G`` or ``eta ≤ 0``.
    """
    import cvxpy as cp

    A = _as_rows(G, "G", min_rows=2)
    e = _eta(eta)
    V, d = A.shape
    S = cp.Variable((V, d))
    M = pair_difference_matrix(V)
    prob = cp.Problem(cp.Minimize(cp.sum(cp.multiply(A, S))),
                      [cp.norm(M @ S, 2, axis=1) <= e, cp.sum(S, axis=0) == 0])
    status = _solve(prob)
    if S.value is None:
        return SocpResult(math.inf, None, status)
    return SocpResult(float(prob.value), np.asarray(S.value), status)


def min_tension(G) -> SocpResult:
    """Minimum tension ``𝒯(G) = min Σ_{i<j} ‖y_ij‖₂`` s.t. ``Σ_j y_ij = g_i`` with ``y_ji = −y_ij``.

    The flows are parameterised by the pairs ``i < j`` (``Mᵀ Y = G`` with
    :func:`pair_difference_matrix`). Returns ``value = inf`` and ``status`` 'infeasible' when
    ``1ᵀG ≠ 0`` (the flows cannot create net mass). ``solution`` is ``Y``, ``(V(V−1)/2, d)``.
    """
    import cvxpy as cp

    A = _as_rows(G, "G", min_rows=2)
    V, d = A.shape
    M = pair_difference_matrix(V)
    Y = cp.Variable((M.shape[0], d))
    prob = cp.Problem(cp.Minimize(cp.sum(cp.norm(Y, 2, axis=1))), [M.T @ Y == A])
    status = _solve(prob)
    if Y.value is None or not np.isfinite(prob.value):
        return SocpResult(math.inf, None, status)
    return SocpResult(float(prob.value), np.asarray(Y.value), status)


def rownorm_update(G, eta: float = 1.0, *, eps: float = 0.0, centre: bool = True) -> np.ndarray:
    """Projected RowNorm step ``S_RN = −(η/2) P·RN(P G)`` (``centre=False``: ``−(η/2) RN(G)``,
    the uncentred variant used as a negative control)."""
    e = _eta(eta)
    A = _as_rows(G, "G")
    if centre:
        return -(e / 2.0) * centre_rows(row_normalise(centre_rows(A), eps))
    return -(e / 2.0) * row_normalise(A, eps)


def rownorm_value(G, eta: float = 1.0) -> float:
    """Stated RowNorm decrease ``Δ_RN = (η/2) Σ_i ‖(PG)_i‖₂``."""
    return _eta(eta) / 2.0 * float(np.linalg.norm(centre_rows(G), axis=1).sum())


def covering_radius_descent(G, eta: float = 1.0) -> SocpResult:
    """Solve ``min ⟨G, S⟩ s.t. ∃c: ‖s_i − c‖₂ ≤ η/2 ∀i, 1ᵀS = 0`` (SOCP); ``solution`` is ``S``."""
    import cvxpy as cp

    A = _as_rows(G, "G", min_rows=2)
    e = _eta(eta)
    V, d = A.shape
    S, c = cp.Variable((V, d)), cp.Variable(d)
    prob = cp.Problem(cp.Minimize(cp.sum(cp.multiply(A, S))),
                      [cp.norm(S - np.ones((V, 1)) @ cp.reshape(c, (1, d), order="C"), 2, axis=1)
                       <= e / 2.0, cp.sum(S, axis=0) == 0])
    status = _solve(prob)
    if S.value is None:
        return SocpResult(math.inf, None, status)
    return SocpResult(float(prob.value), np.asarray(S.value), status)


def numerical_rank(G, rtol: float = 1e-9) -> int:
    """Rank of ``G`` after normalising by its largest singular value: the number of singular values
    ``> rtol · σ_max`` (0 for the zero matrix). The tolerance is explicit (SPEC §5)."""
    A = _as_rows(G, "G")
    s = np.linalg.svd(A, compute_uv=False)
    return 0 if s.size == 0 or s[0] == 0 else int((s > rtol * s[0]).sum())


def rownorm_ratio_bound(k: int) -> float:
    """Stated lower bound ``√((k+1)/(2k))`` of ``Δ_RN/Δ*`` for ``k = rank G ≥ 1``."""
    if not isinstance(k, (int, np.integer)) or k < 1:
        raise ValueError(f"k must be an int ≥ 1, got {k!r}")
    return math.sqrt((k + 1) / (2.0 * k))


def rownorm_ratio(G, eta: float = 1.0, rtol: float = 1e-9) -> dict:
    """``Δ_RN/Δ*`` for a gradient ``G`` with ``Δ* = −min_{D(S)≤η,1ᵀS=0} ⟨G,S⟩`` from the SOCP.

    Returns ``{"ratio", "delta_rn", "delta_star", "k" (rank of PG), "bound", "status"}``.
    Raises ``ValueError`` when ``PG = 0`` (no descent possible; the ratio is undefined).
    """
    e = _eta(eta)
    PG = centre_rows(G)
    k = numerical_rank(PG, rtol)
    if k == 0:
        raise ValueError("G has PG = 0 (all rows equal): Δ* = 0 and the ratio is undefined")
    star = steepest_descent_diameter(PG, e)
    d_rn = rownorm_value(PG, e)
    return {"ratio": d_rn / -star.value, "delta_rn": d_rn, "delta_star": -star.value, "k": k,
            "bound": rownorm_ratio_bound(k), "status": star.status}


def regular_simplex_gradient(k: int, scale: float = 1.0) -> np.ndarray:
    """``(k+1, k)`` centred rows on a regular simplex of circumradius ``scale`` (rank ``k``): the
    tight case of the RowNorm ratio."""
    if not isinstance(k, (int, np.integer)) or k < 1:
        raise ValueError(f"k must be an int ≥ 1, got {k!r}")
    E = np.eye(k + 1) - 1.0 / (k + 1)                # centred standard simplex in R^{k+1}
    U, s, _ = np.linalg.svd(E)
    X = E @ U[:, :k]                                   # coordinates in its k-dim span
    return scale * X / np.linalg.norm(X[0])


def diameter_of(S) -> float:
    """Convenience: ``D(S)`` (see :func:`seqtheory.theory.hilbert.row_diameter`)."""
    return row_diameter(S)[0]

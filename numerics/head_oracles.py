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

Scaling: all three programs are positively homogeneous — for ``c > 0`` the optimal ``S`` of
``(cG, η)`` is that of ``(G, η)``, the value is ``c`` times, ``𝒯(cG) = c𝒯(G)`` with ``Y`` scaled by
``c``, and ``η`` scales ``S`` and the value linearly. Every oracle therefore solves the program for
``G/2^e`` (``2^e`` within a factor two of ``max|G|``: an exact division) and ``η = 1``, and rescales
value and solution afterwards, so the solver always sees data of order one: the results are
scale invariant (to the solver tolerance) for gradients from 1e-300 to 1e300.

Solver: cvxpy with Clarabel (interior point; default tolerances ≈ 1e-8). Only the status
``optimal`` is accepted: any other status (``optimal_inaccurate``, ``infeasible``,
``unbounded``, … — none can be right for these feasible, bounded normalised programs) makes the
oracle retry with SCS at tolerance 1e-9, and raise ``RuntimeError`` naming the statuses if that
fails too. The one legitimately infeasible case — the flow problem of an uncentred ``G`` — is
decided exactly from ``1ᵀG`` before any solver runs. Intended sizes: V ≤ 12, d ≤ 6
(``V(V−1)/2`` cone constraints). numpy + cvxpy only; never imports torch.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from seqtheory.theory._arrays import UNIT_ROUNDOFF, as_rows as _as_rows, pow2_exponent
from seqtheory.theory._checks import check_int, check_real
from seqtheory.theory.contract import check_bool
from seqtheory.theory._messages import shown
from seqtheory.theory.hilbert import row_diameter

__all__ = [
    "SocpResult", "pair_difference_matrix", "centre_rows", "row_normalise",
    "steepest_descent_diameter", "min_tension", "rownorm_update", "rownorm_value",
    "covering_radius_descent", "numerical_rank", "rownorm_ratio", "rownorm_ratio_bound",
    "regular_simplex_gradient", "diameter_of",
]


@dataclass
class SocpResult:
    """Solution of one conic program: optimal ``value`` (``inf`` when infeasible), the primal
    ``solution`` array (``None`` when infeasible), the ``status`` string (``"optimal"``, or
    ``"infeasible"`` for the flow problem of an uncentred gradient) and the ``solver`` that
    reached it (``"none"`` when no solver was needed: zero gradient, decided infeasibility)."""

    value: float
    solution: np.ndarray | None
    status: str
    solver: str = "CLARABEL"


# solvers tried in order; only status "optimal" is accepted
_SOLVERS = (("CLARABEL", {}), ("SCS", {"eps_abs": 1e-9, "eps_rel": 1e-9, "max_iters": 200_000}))


def _eta(eta) -> float:
    return check_real("eta", eta, 0, above=True)


def pair_difference_matrix(V: int) -> np.ndarray:
    """``(V(V−1)/2, V)`` matrix whose row for the pair ``i < j`` (lexicographic) is ``e_i − e_j``."""
    V = check_int("V", V, 2)
    I, J = np.triu_indices(V, 1)
    M = np.zeros((I.size, V))
    M[np.arange(I.size), I] = 1.0
    M[np.arange(I.size), J] = -1.0
    return M


def centre_rows(G) -> np.ndarray:
    """``P G = G − 1 (1ᵀG)/V`` (subtract the mean row), computed on ``G/2^e`` (no overflow in the
    sum). Raises ``ValueError`` naming ``G`` when an entry of ``PG`` exceeds the float64 range."""
    A = _as_rows(G, "G")
    An, ex = _normalised(A)
    if ex is None:
        return A.copy()
    C = An - An.mean(axis=0, keepdims=True)
    with np.errstate(over="ignore"):
        out = np.ldexp(C, ex)
    if not np.isfinite(out).all():
        raise ValueError("G: an entry of PG = G − mean row exceeds the float64 range; rescale G")
    return out


def row_normalise(G, eps: float = 0.0) -> np.ndarray:
    """``RN(G)_i = g_i / (‖g_i‖₂ + eps)``; zero rows stay zero (also with ``eps = 0``).

    Each row is scaled by its own power of two before its norm is taken, so rows of any size
    (1e-300 … 1e300) give unit rows for ``eps = 0`` (no overflow or underflow in ``‖g_i‖₂``)."""
    A = _as_rows(G, "G")
    eps = check_real("eps", eps, 0)
    m = np.abs(A).max(axis=1, keepdims=True)
    ex = np.frexp(np.where(m > 0, m, 1.0))[1]
    An = np.ldexp(A, -ex)                                 # rows scaled into [-1, 1]
    with np.errstate(over="ignore"):
        nrm = np.linalg.norm(An, axis=1, keepdims=True) + np.ldexp(float(eps), -ex)
    return np.divide(An, nrm, out=np.zeros_like(A), where=(m > 0) & (nrm > 0))


def _solve(problem, what: str) -> str:
    """Solve ``problem`` with the first solver of ``_SOLVERS`` that reports ``optimal``; returns its
    name. ``RuntimeError`` (naming ``what`` and every status seen) when none does."""
    import cvxpy as cp

    seen = []
    for name, opts in _SOLVERS:
        if name not in cp.installed_solvers():
            continue
        try:
            problem.solve(solver=name, **opts)
        except cp.error.SolverError as exc:
            seen.append(f"{name}: error ({exc})")
            continue
        if problem.status == cp.OPTIMAL:
            return name
        seen.append(f"{name}: {problem.status}")
    raise RuntimeError(f"{what}: no conic solver reached status 'optimal' on the normalised "
                       f"program ({'; '.join(seen) or 'no solver installed'})")


def _normalised(A: np.ndarray) -> tuple[np.ndarray, int | None]:
    """``(A / 2^e, e)`` with ``max|A/2^e| ∈ [1/2, 1)`` (exact); ``(A, None)`` for ``A = 0``."""
    e = pow2_exponent(A)
    return (A, None) if e is None else (np.ldexp(A, -e), e)


def _rescaled(x: float, e: int, eta: float, name: str) -> float:
    """``x · 2^e · η`` without intermediate overflow or underflow; ``ValueError`` naming ``name``
    when the result itself exceeds the float64 range."""
    fx, ex = math.frexp(x)
    fe, ee = math.frexp(eta)
    try:
        return math.ldexp(fx * fe, ex + ee + e)
    except OverflowError:
        raise ValueError(f"{name}: the result {shown(x)}·2^{e}·{shown(eta)} exceeds the float64 range "
                         f"(about 1.8e308); rescale {' or '.join(name.split(', '))}") from None


def steepest_descent_diameter(G, eta: float = 1.0) -> SocpResult:
    """Solve ``min ⟨G, S⟩ s.t. D(S) ≤ η, 1ᵀS = 0`` (SOCP, all ``V(V−1)/2`` pair constraints).

    ``G``: ``(V, d)`` float array, ``V ≥ 2``. Returns the optimal value (≤ 0) and ``S``
    (``(V, d)``; ``S = 0`` for ``G = 0``). The program is solved for ``G/2^e`` and ``η = 1`` and
    rescaled (module docstring). Raises ``ValueError`` for bad ``G``, ``eta ≤ 0`` or a value
    beyond the float64 range, ``RuntimeError`` when no solver reaches ``optimal``.
    """
    import cvxpy as cp

    A = _as_rows(G, "G", min_rows=2)
    e = _eta(eta)
    V, d = A.shape
    An, ex = _normalised(A)
    if ex is None:
        return SocpResult(0.0, np.zeros((V, d)), "optimal", "none")
    S = cp.Variable((V, d))
    M = pair_difference_matrix(V)
    prob = cp.Problem(cp.Minimize(cp.sum(cp.multiply(An, S))),
                      [cp.norm(M @ S, 2, axis=1) <= 1.0, cp.sum(S, axis=0) == 0])
    solver = _solve(prob, "steepest_descent_diameter(G, eta)")
    return SocpResult(_rescaled(float(prob.value), ex, e, "G, eta"), e * np.asarray(S.value),
                      "optimal", solver)


def min_tension(G, *, rtol: float = 1e-9) -> SocpResult:
    """Minimum tension ``𝒯(G) = min Σ_{i<j} ‖y_ij‖₂`` s.t. ``Σ_j y_ij = g_i`` with ``y_ji = −y_ij``.

    The flows are parameterised by the pairs ``i < j`` (``Mᵀ Y = G`` with
    :func:`pair_difference_matrix`); ``solution`` is ``Y``, ``(V(V−1)/2, d)``. The flows carry no
    net mass, so the program is feasible iff ``1ᵀG = 0``; this is decided before solving: when
    ``|1ᵀG| > rtol · Σ_i |g_i|`` (per column) the result is ``value = inf``, ``status``
    ``'infeasible'``; otherwise ``G`` is centred (a change at the rounding level of the sum) and the
    normalised program is solved and rescaled (module docstring). Raises ``ValueError`` for bad
    ``G`` or ``rtol``, ``RuntimeError`` when no solver reaches ``optimal``.
    """
    import cvxpy as cp

    A = _as_rows(G, "G", min_rows=2)
    rtol = check_real("rtol", rtol, 0)
    V, d = A.shape
    M = pair_difference_matrix(V)
    An, ex = _normalised(A)
    if ex is None:
        return SocpResult(0.0, np.zeros((M.shape[0], d)), "optimal", "none")
    net = np.abs(An.sum(axis=0))
    if np.any(net > max(rtol, 4 * V * UNIT_ROUNDOFF) * np.abs(An).sum(axis=0)):
        return SocpResult(math.inf, None, "infeasible", "none")
    An = An - An.mean(axis=0)
    Y = cp.Variable((M.shape[0], d))
    prob = cp.Problem(cp.Minimize(cp.sum(cp.norm(Y, 2, axis=1))), [M.T @ Y == An])
    solver = _solve(prob, "min_tension(G)")
    return SocpResult(_rescaled(float(prob.value), ex, 1.0, "G"),
                      np.ldexp(np.asarray(Y.value), ex), "optimal", solver)


def rownorm_update(G, eta: float = 1.0, *, eps: float = 0.0, centre: bool = True) -> np.ndarray:
    """Projected RowNorm step ``S_RN = −(η/2) P·RN(P G)`` (``centre=False``: ``−(η/2) RN(G)``,
    the uncentred variant used as a negative control). ``RN`` is scale invariant, so
    ``P G`` is formed on ``G/2^e`` (exact). Raises ``ValueError`` for bad ``G``, ``eps``, ``eta``."""
    e = _eta(eta)
    eps = check_real("eps", eps, 0)
    centre = check_bool("centre", centre)
    A = _as_rows(G, "G")
    if centre:
        An, ex = _normalised(A)
        if ex is not None:                              # RN(X/c, eps/c) = RN(X, eps)
            with np.errstate(over="ignore"):
                eps = min(float(np.ldexp(float(eps), -ex)), np.finfo(float).max)
        step = centre_rows(row_normalise(An - An.mean(axis=0), eps))
    else:
        step = row_normalise(A, eps)
    with np.errstate(over="ignore"):
        out = -(e / 2.0) * step
    if not np.isfinite(out).all():
        raise ValueError(f"eta: (η/2)·P·RN(PG) exceeds the float64 range for eta={shown(eta)}")
    return out


def rownorm_value(G, eta: float = 1.0) -> float:
    """Stated RowNorm decrease ``Δ_RN = (η/2) Σ_i ‖(PG)_i‖₂`` (computed on ``G/2^e``; ValueError
    naming ``G`` when it exceeds the float64 range)."""
    e = _eta(eta)
    An, ex = _normalised(_as_rows(G, "G"))
    if ex is None:
        return 0.0
    v = float(np.linalg.norm(An - An.mean(axis=0), axis=1).sum())
    return _rescaled(v, ex - 1, e, "G, eta")


def covering_radius_descent(G, eta: float = 1.0) -> SocpResult:
    """Solve ``min ⟨G, S⟩ s.t. ∃c: ‖s_i − c‖₂ ≤ η/2 ∀i, 1ᵀS = 0`` (SOCP); ``solution`` is ``S``.
    Normalised, solved and rescaled as :func:`steepest_descent_diameter` (same errors)."""
    import cvxpy as cp

    A = _as_rows(G, "G", min_rows=2)
    e = _eta(eta)
    V, d = A.shape
    An, ex = _normalised(A)
    if ex is None:
        return SocpResult(0.0, np.zeros((V, d)), "optimal", "none")
    S, c = cp.Variable((V, d)), cp.Variable(d)
    prob = cp.Problem(cp.Minimize(cp.sum(cp.multiply(An, S))),
                      [cp.norm(S - np.ones((V, 1)) @ cp.reshape(c, (1, d), order="C"), 2, axis=1)
                       <= 0.5, cp.sum(S, axis=0) == 0])
    solver = _solve(prob, "covering_radius_descent(G, eta)")
    return SocpResult(_rescaled(float(prob.value), ex, e, "G, eta"), e * np.asarray(S.value),
                      "optimal", solver)


def numerical_rank(G, rtol: float = 1e-9, data_scale: float = 0.0) -> int:
    """Rank of ``G`` after normalising by its largest singular value: the number of singular values
    ``> rtol · σ_max`` (0 for the zero matrix), decided by
    :func:`seqtheory.theory.linalg.rank_decision` with the rounding bound
    ``4 u · max(m, n) · (σ_max + data_scale)`` (``u`` the unit roundoff; ``data_scale``, in the
    units of ``G``, the size of the data ``G`` was computed from when that computation cancelled,
    e.g. ``max|A|`` for ``G = A − mean(A)``). The tolerance is explicit (SPEC §5). Raises
    :class:`~seqtheory.theory.linalg.NumericalRankError` (a ``ValueError``) when a singular value
    lies below the tolerance but above the rounding bound, or when the kept and the dropped
    values are not separated by a wide gap: the rank is then not determined."""
    from seqtheory.theory.linalg import rank_decision

    A = _as_rows(G, "G")
    rtol = check_real("rtol", rtol, 0)
    data_scale = check_real("data_scale", data_scale, 0)
    peak = float(np.abs(A).max()) if A.size else 0.0
    if peak == 0:
        return 0
    s = np.linalg.svd(A / peak, compute_uv=False)   # rank is scale invariant; SVD of O(1) data
    noise = 4 * UNIT_ROUNDOFF * max(A.shape) * (float(s[0]) + data_scale / peak)
    return rank_decision(s, rtol, noise, "G").rank


def rownorm_ratio_bound(k: int) -> float:
    """Stated lower bound ``√((k+1)/(2k))`` of ``Δ_RN/Δ*`` for ``k = rank G ≥ 1``."""
    k = check_int("k", k)
    return math.sqrt((k + 1) / (2 * k))          # int / int: no float overflow for a huge k


def rownorm_ratio(G, eta: float = 1.0, rtol: float = 1e-9) -> dict:
    """``Δ_RN/Δ*`` for a gradient ``G`` with ``Δ* = −min_{D(S)≤η,1ᵀS=0} ⟨G,S⟩`` from the SOCP.

    Returns ``{"ratio", "delta_rn", "delta_star", "k" (rank of PG), "bound", "status"}``.
    Raises ``ValueError`` when ``PG = 0`` (no descent possible; the ratio is undefined).
    """
    e = _eta(eta)
    An, ex = _normalised(_as_rows(G, "G", min_rows=2))       # the ratio is scale invariant
    PG = An - An.mean(axis=0)
    k = numerical_rank(PG, rtol, data_scale=float(np.abs(An).max()))   # centring cancels
    if k == 0:
        raise ValueError("G has PG = 0 (all rows equal): Δ* = 0 and the ratio is undefined")
    star = steepest_descent_diameter(PG, 1.0)
    d_rn = rownorm_value(PG, 1.0)
    return {"ratio": d_rn / -star.value, "delta_rn": _rescaled(d_rn, ex, e, "G, eta"),
            "delta_star": _rescaled(-star.value, ex, e, "G, eta"), "k": k,
            "bound": rownorm_ratio_bound(k), "status": star.status, "solver": star.solver}


def regular_simplex_gradient(k: int, scale: float = 1.0) -> np.ndarray:
    """``(k+1, k)`` centred rows on a regular simplex of circumradius ``scale`` (rank ``k``): the
    tight case of the RowNorm ratio."""
    k = check_int("k", k)
    E = np.eye(k + 1) - 1.0 / (k + 1)                # centred standard simplex in R^{k+1}
    U, s, _ = np.linalg.svd(E)
    X = E @ U[:, :k]                                   # coordinates in its k-dim span
    return scale * X / np.linalg.norm(X[0])


def diameter_of(S) -> float:
    """Convenience: ``D(S)`` (see :func:`seqtheory.theory.hilbert.row_diameter`)."""
    return row_diameter(S)[0]

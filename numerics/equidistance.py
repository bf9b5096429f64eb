"""Max–min row separation under a diameter bound ([HEAD] v1): how equidistant can V points be?

Source: A. Somasundaram et al., *Toward a First-Principles Update Geometry for the Language-Model
Head*, arXiv:2608.22253v1 (the v1 update: maximise the smallest row separation
``min_{i<j} ‖s_i − s_j‖`` subject to the diameter bound ``D(S) ≤ η``), SPEC §3.2
(``head.equidistance_limit``).

By scale invariance the problem is: maximise ``ρ(X) = min_{i<j}‖x_i − x_j‖ / max_{i<j}‖x_i − x_j‖``
over ``V`` points of ``R^d``. ``ρ = 1`` (equidistance) is possible iff ``V ≤ d + 1``
(:func:`seqtheory.theory.hilbert.max_equidistant_points`); for ``V > d + 1``,
``ρ ≤ √(d/(d+1))`` (Rankin + Jung, :func:`seqtheory.theory.hilbert.separation_ratio_bound`).

The v1 update itself (:func:`max_min_update`): the ``V × d`` matrix ``S`` whose rows maximise the
smallest separation under ``D(S) ≤ η`` -- the best configuration scaled to diameter ``η`` and
centred (``1ᵀS = 0``; a common row shift changes no output of the head). For ``V ≤ d + 1`` it is
the regular simplex, built exactly; for ``V > d + 1`` the best configuration found.

Method (documented, deterministic given the seed): multi-start SLSQP (scipy) on the epigraph form
``max t  s.t.  ‖x_i − x_j‖² ≥ t,  ‖x_i − x_j‖² ≤ 1  (i < j)`` with analytic Jacobians, from
Gaussian starting points rescaled to diameter 1; the best feasible (constraint violation
≤ 1e-9) local optimum over the starts is returned, its ratio recomputed from the points. A
lower bound on the true optimum (it is a non-convex problem); known planar optima (Bateman–Erdős:
V = 4: 1/√2, V = 5: 1/φ, V = 6: 1/(2 sin 72°), V = 7: 1/2) serve as test oracles.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from seqtheory.theory._checks import check_int
from seqtheory.theory.hilbert import min_max_distance_ratio, row_diameter, separation_ratio_bound

__all__ = ["SeparationResult", "max_min_separation", "MaxMinUpdate", "max_min_update"]


@dataclass
class SeparationResult:
    """Best configuration found: ``points`` ``(V, d)`` scaled to diameter 1, its ``ratio``
    (min/max pairwise distance), the Rankin/simplex ``bound``, the number of ``starts`` and how
    many converged (``converged``)."""

    V: int
    d: int
    points: np.ndarray
    ratio: float
    bound: float
    starts: int
    converged: int


def _pairs(V: int):
    return np.triu_indices(V, 1)


#: the largest instance (points V, dimension d), restarts and SLSQP iterations
#: :func:`max_min_separation` takes: each start optimises V*d variables under V(V-1)/2
#: constraints (SLSQP is dense and cubic in them)
MAX_V, MAX_STARTS, MAX_ITER = 64, 1000, 10 ** 6


def max_min_separation(V: int, d: int, *, starts: int = 20, seed: int = 0,
                       maxiter: int = 500) -> SeparationResult:
    """Maximise the min/max pairwise-distance ratio of ``V`` points in ``R^d`` (see module doc).

    ``V ≥ 2``, ``d ≥ 1`` ints, ``starts ≥ 1``. Raises ``ValueError``/``TypeError`` otherwise.
    Intended for small instances (``V ≤ 12``, ``d ≤ 4``: seconds).
    """
    from scipy.optimize import minimize

    V, d, starts, maxiter, seed = (
        check_int(name, val, lo, hi) for name, val, lo, hi in (
            ("V", V, 2, MAX_V), ("d", d, 1, MAX_V), ("starts", starts, 1, MAX_STARTS),
            ("maxiter", maxiter, 1, MAX_ITER), ("seed", seed, 0, None)))
    I, J = _pairs(V)
    npair = I.size
    nx = V * d

    def sqdist(z):
        X = z[:nx].reshape(V, d)
        diff = X[I] - X[J]
        return diff, np.einsum("pk,pk->p", diff, diff)

    def jac_sq(diff):
        # d/dX of ‖x_i − x_j‖² for each pair: +2 diff on row i, −2 diff on row j
        Jm = np.zeros((npair, V, d))
        Jm[np.arange(npair), I] = 2 * diff
        Jm[np.arange(npair), J] = -2 * diff
        return Jm.reshape(npair, nx)

    def c_min(z):       # ‖·‖² − t ≥ 0
        return sqdist(z)[1] - z[nx]

    def c_min_jac(z):
        diff, _ = sqdist(z)
        return np.hstack([jac_sq(diff), -np.ones((npair, 1))])

    def c_max(z):       # 1 − ‖·‖² ≥ 0
        return 1.0 - sqdist(z)[1]

    def c_max_jac(z):
        diff, _ = sqdist(z)
        return np.hstack([-jac_sq(diff), np.zeros((npair, 1))])

    rng = np.random.default_rng(seed)
    best_X, best_r, ok = None, -1.0, 0
    for _ in range(starts):
        X0 = rng.normal(size=(V, d))
        diam = math.sqrt(max(sqdist(np.append(X0.ravel(), 0.0))[1].max(), 1e-300))
        X0 /= diam
        z0 = np.append(X0.ravel(), sqdist(np.append(X0.ravel(), 0.0))[1].min())
        res = minimize(lambda z: -z[nx], z0, jac=lambda z: np.append(np.zeros(nx), -1.0),
                       method="SLSQP", options={"maxiter": maxiter, "ftol": 1e-12},
                       constraints=[{"type": "ineq", "fun": c_min, "jac": c_min_jac},
                                    {"type": "ineq", "fun": c_max, "jac": c_max_jac}])
        X = res.x[:nx].reshape(V, d)
        viol = max(0.0, float(-c_max(res.x).min()))
        if viol > 1e-9:
            continue
        ok += 1
        r = min_max_distance_ratio(X)
        if r > best_r:
            best_r, best_X = r, X
    if best_X is None:
        raise RuntimeError(f"no SLSQP start converged to a feasible point for V={V}, d={d}")
    diam = math.sqrt(sqdist(np.append(best_X.ravel(), 0.0))[1].max())
    return SeparationResult(V, d, best_X / diam, best_r, separation_ratio_bound(V, d), starts, ok)


@dataclass
class MaxMinUpdate:
    """The v1 update of [HEAD] for ``V`` rows in ``R^d`` under ``D(S) ≤ eta``: ``S`` ``(V, d)``,
    float64, centred (``1ᵀS = 0``) with ``D(S) = eta``; ``min_separation`` =
    ``min_{i<j}‖s_i − s_j‖``, ``ratio`` = min_separation / eta, ``bound`` = the Rankin/simplex
    bound on the ratio (1 for ``V ≤ d + 1``), ``method``: how ``S`` was found."""

    V: int
    d: int
    eta: float
    S: np.ndarray
    diameter: float
    min_separation: float
    ratio: float
    bound: float
    method: str


def _regular_simplex(V: int, d: int) -> np.ndarray:
    """``V ≤ d + 1`` points of ``R^d`` at mutual distance 1, centred: the standard basis of ``R^V``
    centred, written in an orthonormal basis of its ``V − 1``-dimensional span, scaled by 1/√2."""
    X = np.eye(V) - 1.0 / V
    _, _, vt = np.linalg.svd(X)
    coords = X @ vt[:V - 1].T / math.sqrt(2.0)
    out = np.zeros((V, d))
    out[:, :V - 1] = coords
    return out


def max_min_update(V: int, d: int, eta: float, *, starts: int = 20, seed: int = 0) -> MaxMinUpdate:
    """[HEAD] v1's update as an object: the rows of ``S`` maximise ``min_{i<j}‖s_i − s_j‖`` subject
    to ``D(S) ≤ eta`` (module docstring). ``V ≤ d + 1``: the regular simplex (exact up to float
    rounding: ratio 1); ``V > d + 1``: the best configuration of :func:`max_min_separation`
    (``starts``, ``seed``; a lower bound on the optimum, not a certificate). Rotations,
    reflections and the order of the rows are left as found (the update's geometry does not
    fix them). ``2 ≤ V ≤ MAX_V``, ``1 ≤ d ≤ MAX_V`` ints and ``eta`` a positive finite real:
    ``TypeError`` / ``ValueError`` otherwise."""
    from seqtheory.theory._checks import check_real

    V = check_int("V", V, 2, MAX_V)
    d = check_int("d", d, 1, MAX_V)
    eta = check_real("eta", eta, 0, above=True)
    if V <= d + 1:
        X, method = _regular_simplex(V, d), "regular simplex (exact construction)"
    else:
        r = max_min_separation(V, d, starts=starts, seed=seed)
        X = r.points - r.points.mean(axis=0)
        method = f"best of {r.starts} SLSQP starts ({r.converged} feasible)"
    D = row_diameter(X)[0]
    S = X * (eta / D)
    D = row_diameter(S)[0]
    ratio = min_max_distance_ratio(S)
    return MaxMinUpdate(V, d, eta, S, D, ratio * D, ratio, separation_ratio_bound(V, d), method)

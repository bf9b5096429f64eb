"""Numerical experiments on the BCH and Magnus series (50-digit mpmath): residuals against
``logm`` / a high-precision ODE solution, and the order of the truncation error.

Sources: the BCH series in the Lyndon basis (C. Reutenauer, *Free Lie Algebras*, Oxford 1993;
F. Casas, A. Murua, J. Math. Phys. 50, 033513 (2009), arXiv:0810.2656) and the Magnus expansion
(S. Blanes, F. Casas, J. A. Oteo, J. Ros, Phys. Rep. 470 (2009), arXiv:0810.5488), as computed
exactly by :mod:`seqtheory.theory.bch_series` and :mod:`seqtheory.theory.magnus_series`; the
experiments evaluate those exact terms on random real matrices in mpmath.

Conventions: random matrices are 3x3 with standard-normal entries drawn from
``numpy.random.default_rng(seed)``, rescaled to a given Frobenius norm; errors are Frobenius norms
(mpf, or floats where stated); ``Y' = AY`` is convention ``"AY"``, ``Y' = YA`` is ``"YA"``. The
``flip``/``swap``/``shift`` arguments build the wrong variants the claims' negative controls
judge (a sign flipped, the other convention's formula, a wrong exponent); the defaults are the
correct experiment.
"""
from __future__ import annotations

from typing import Callable, Sequence

import mpmath
import numpy as np

from seqtheory.theory.bch_series import bch
from seqtheory.theory.contract import check_bool
from seqtheory.theory.lie_poly import LiePolynomial
from seqtheory.theory.magnus_series import magnus, magnus_discrete, taylor_ode_solution

from .fits import choose_eps_grid, fit_loglog_slope
from seqtheory.theory.mp_precision import working_dps

__all__ = ["random_mp_matrix", "frobenius_norm", "negate_degree", "truncation_slopes",
           "bch_residuals", "bch_truncation_slopes", "magnus_residuals", "odefun_check",
           "magnus_truncation_slopes", "DISCRETE_SCALE", "DISCRETE_DEGREE", "TRUNCATION_ORDERS"]

#: Scale and degree of the discrete-Magnus check: 3 factors, tail ~ (9e-4)^9 < 1e-25.
DISCRETE_SCALE, DISCRETE_DEGREE = 3e-4, 8
#: The truncation degrees c of the truncation-order experiments.
TRUNCATION_ORDERS = (1, 2, 3, 4, 5, 6)


def random_mp_matrix(rng: np.random.Generator, n: int, scale) -> mpmath.matrix:
    """``n x n`` mpmath matrix with standard-normal entries from ``rng``, rescaled to Frobenius
    norm ``scale`` (at the working precision)."""
    M = mpmath.matrix(rng.standard_normal((n, n)).tolist())
    return M * (mpmath.mpf(scale) / mpmath.mnorm(M, "f"))


def frobenius_norm(M) -> mpmath.mpf:
    """Frobenius norm of an mpmath matrix (mpf)."""
    return mpmath.mnorm(M, "f")


def negate_degree(Z: LiePolynomial, m: int) -> LiePolynomial:
    """``Z`` with its degree-``m`` component negated (a wrong variant, e.g. ½[Y, X] for ½[X, Y])."""
    return LiePolynomial({w: (-v if len(w) == m else v) for w, v in Z.lyndon_coefficients().items()},
                         Z.alphabet)


def _components(Z: LiePolynomial, mats: dict, cmax: int) -> list:
    """The homogeneous components of degree 1..cmax of ``Z`` evaluated at ``mats`` (zero matrices
    for empty components)."""
    return [Z.homogeneous_component(m).evaluate(mats) if Z.homogeneous_component(m).lyndon_coefficients()
            else mats[Z.alphabet[0]] * 0 for m in range(1, cmax + 1)]


def truncation_slopes(terms: Callable[[], list], reference: Callable, orders: Sequence[int],
                      expected: Callable[[int], float], eps_max: float, n_points: int,
                      dps: int = 50) -> tuple[list[dict], dict]:
    """The order of the truncation error of a series ``Σ_m ε^m T_m`` (``terms()`` returns
    ``[T_1, T_2, …]``, mpmath matrices) against ``reference(ε)``: for each ``c`` of ``orders`` the
    errors ``‖Σ_{m≤c} ε^m T_m − reference(ε)‖_F`` on an ε-grid (:func:`choose_eps_grid`: ``n_points``
    from ``eps_max`` down, every error ≥ 1e8 × 10^-dps), the log-log slope with its 95% CI, and
    whether the CI (widened to ±0.05) contains ``expected(c)``. Run under
    ``mpmath.workdps(dps)``. Returns ``(rows, curves)``: rows ``{"c", "expected", "slope",
    "ci_low", "ci_high", "eps_min", "eps_max", "err_min", "pass"}``, curves
    ``{c: (eps list, error list)}`` (floats)."""
    rows, curves = [], {}
    refs: dict = {}

    def ref(e):
        key = float(e)
        if key not in refs:
            refs[key] = reference(mpmath.mpf(e))
        return refs[key]

    comps = terms()
    for c in orders:
        def err(e, c=c):
            e = mpmath.mpf(e)
            tot = comps[0] * e
            for m in range(2, c + 1):
                tot = tot + comps[m - 1] * e ** m
            return frobenius_norm(tot - ref(e))

        grid = choose_eps_grid(err, expected(c), eps_max=eps_max, n=n_points,
                               floor=mpmath.mpf(10) ** -dps, margin=1e8, span=30.0)
        errs = [err(e) for e in grid]
        fit = fit_loglog_slope(grid, errs)
        ok = fit.contains(expected(c), min_halfwidth=0.05)
        rows.append({"c": c, "expected": expected(c), "slope": round(fit.slope, 4),
                     "ci_low": round(fit.ci_low, 4), "ci_high": round(fit.ci_high, 4),
                     "eps_min": float(grid[-1]), "eps_max": float(grid[0]),
                     "err_min": float(min(errs)), "pass": bool(ok)})
        curves[c] = ([float(e) for e in grid], [float(x) for x in errs])
    return rows, curves


def bch_residuals(Z: LiePolynomial, seed: int, n_pairs: int, scale: float, dps: int = 50
                  ) -> list[float]:
    """``‖Z(X, Y) − logm(expm X expm Y)‖_F`` at ``dps`` digits on ``n_pairs`` random pairs of
    3x3 matrices of Frobenius norm ``scale`` (``Z``: a BCH series in letters x, y)."""
    rng = np.random.default_rng(seed)
    resid = []
    with working_dps(dps) as dps:
        for _ in range(n_pairs):
            X, Y = random_mp_matrix(rng, 3, scale), random_mp_matrix(rng, 3, scale)
            ref = mpmath.logm(mpmath.expm(X) * mpmath.expm(Y))
            resid.append(frobenius_norm(Z.evaluate({"x": X, "y": Y}) - ref))
    return [float(r) for r in resid]


def bch_truncation_slopes(seed: int, n_points: int, flip_degree2: bool = False,
                          exponent_shift: int = 0, dps: int = 50) -> tuple[list[dict], dict]:
    """:func:`truncation_slopes` of the BCH series of ``log(e^{εX} e^{εY})`` (random X, Y of unit
    Frobenius norm) truncated after degree c = 1..6, against ``logm(expm(εX) expm(εY))``, expected
    order ``c + 1 + exponent_shift``; ``flip_degree2`` negates the degree-2 term."""
    flip_degree2 = check_bool("flip_degree2", flip_degree2)
    cs = list(TRUNCATION_ORDERS)
    Z = bch(max(cs))
    if flip_degree2:
        Z = negate_degree(Z, 2)
    rng = np.random.default_rng(seed)
    with working_dps(dps) as dps:
        X, Y = random_mp_matrix(rng, 3, 1), random_mp_matrix(rng, 3, 1)
        return truncation_slopes(
            lambda: _components(Z, {"x": X, "y": Y}, max(cs)),
            lambda e: mpmath.logm(mpmath.expm(X * e) * mpmath.expm(Y * e)),
            cs, lambda c: c + 1 + exponent_shift, eps_max=0.02, n_points=n_points, dps=dps)


def magnus_truncation_slopes(seed: int, convention: str, n_points: int, flip2: bool = False,
                             swap: bool = False, shift: int = 0, dps: int = 50
                             ) -> tuple[list[dict], dict]:
    """:func:`truncation_slopes` of the Magnus series of ``Y' = εA(t)Y`` (``"AY"``) or
    ``Y' = Y εA(t)`` (``"YA"``), ``A(t) = P + tQ`` on [0, 1] (random P, Q of unit Frobenius norm),
    truncated after degree c = 1..6, against ``logm`` of the ``dps``-digit Taylor-series ODE
    solution; expected order ``c + 1 + shift``. ``flip2`` negates Ω2, ``swap`` uses the other
    convention's terms."""
    flip2 = check_bool("flip2", flip2)
    swap = check_bool("swap", swap)
    cs = list(TRUNCATION_ORDERS)
    rng = np.random.default_rng(seed)
    with working_dps(dps) as dps:
        P, Q = random_mp_matrix(rng, 3, 1), random_mp_matrix(rng, 3, 1)
        used = ("YA" if convention == "AY" else "AY") if swap else convention

        def comps():
            T = magnus([P, Q], max(cs), t=1, convention=used).terms
            if flip2:
                T = [T[0], T[1] * -1] + T[2:]
            return T

        return truncation_slopes(
            comps, lambda e: mpmath.logm(taylor_ode_solution([P * e, Q * e], 1, convention, dps=dps)),
            cs, lambda c: c + 1 + shift, eps_max=0.02, n_points=n_points, dps=dps)


def magnus_residuals(seed: int, order: int, scale: float, swap_convention: bool = False,
                     odefun: bool = False, dps: int = 50) -> dict:
    """The Magnus series of ``A(t) = P + tQ`` (random P, Q of Frobenius norm ``scale``) at t = 1
    against ``logm`` of the ``dps``-digit Taylor-series ODE solution, both conventions: the
    residual of the order-``order`` series (``"AY"``, ``"YA"``), with the next term added
    (``"AY_next"``, …) and the norm of that first omitted term (``"AY_tail"``, …); the discrete
    Magnus expansion of 3 factors (scale :data:`DISCRETE_SCALE`, degree :data:`DISCRETE_DEGREE`)
    against ``logm`` of their product (``"discrete"``); the float64 quadrature terms against the
    exact ones up to degree 4 at t = 0.5 (``"quadrature_vs_exact"``, max abs difference); with
    ``odefun``, the Taylor solution against :func:`mpmath.odefun` (``"odefun_vs_taylor"``).
    ``swap_convention`` uses the other convention's terms and reverses the product (a wrong
    variant). Floats."""
    swap_convention = check_bool("swap_convention", swap_convention)
    odefun = check_bool("odefun", odefun)
    rng = np.random.default_rng(seed)
    out = {}
    with working_dps(dps) as dps:
        P, Q = random_mp_matrix(rng, 3, scale), random_mp_matrix(rng, 3, scale)
        for conv in ("AY", "YA"):
            used = ("YA" if conv == "AY" else "AY") if swap_convention else conv
            Y = taylor_ode_solution([P, Q], 1, conv, dps=dps)
            L = mpmath.logm(Y)
            terms = magnus([P, Q], order + 1, t=1, convention=used).terms
            om = terms[0]
            for T in terms[1:order]:
                om = om + T
            out[conv] = float(frobenius_norm(om - L))                     # residual at order N
            out[f"{conv}_next"] = float(frobenius_norm(om + terms[order] - L))  # at order N+1
            out[f"{conv}_tail"] = float(frobenius_norm(terms[order]))      # ‖Ω_{N+1}‖
        # discrete Magnus = multi-factor BCH on a piecewise-constant input
        Xs = [random_mp_matrix(rng, 3, DISCRETE_SCALE) for _ in range(3)]
        prod = mpmath.expm(Xs[2]) * mpmath.expm(Xs[1]) * mpmath.expm(Xs[0])
        if swap_convention:
            prod = mpmath.expm(Xs[0]) * mpmath.expm(Xs[1]) * mpmath.expm(Xs[2])
        terms = magnus_discrete(Xs, DISCRETE_DEGREE)
        tot = terms[0]
        for T in terms[1:]:
            tot = tot + T
        out["discrete"] = float(frobenius_norm(tot - mpmath.logm(prod)))
    # quadrature (float64) vs exact symbolic terms
    Pn, Qn = np.array(P.tolist(), float) / scale, np.array(Q.tolist(), float) / scale
    ex = magnus([Pn, Qn], 4, t=0.5)
    qu = magnus(lambda s: Pn + s * Qn, 4, t=0.5)
    out["quadrature_vs_exact"] = max(float(np.abs(a - b).max()) for a, b in zip(ex.terms, qu.terms))
    if odefun:
        out["odefun_vs_taylor"] = odefun_check(P, Q, dps)
    return out


def odefun_check(P, Q, dps: int = 50) -> float:
    """``‖Y_odefun(1) − Y_taylor(1)‖_F`` for ``Y' = (P + sQ)Y``, ``Y(0) = I`` (mpmath matrices
    n x n): :func:`mpmath.odefun` against the Taylor-series solution, at ``dps`` digits."""
    n = P.rows

    def F(s, y):
        Ym = mpmath.matrix(n, n)
        for i in range(n):
            for j in range(n):
                Ym[i, j] = y[n * i + j]
        D = (P + Q * s) * Ym
        return [D[i, j] for i in range(n) for j in range(n)]

    with working_dps(dps) as dps:
        sol = mpmath.odefun(F, 0, [1 if i == j else 0 for i in range(n) for j in range(n)])
        yv = sol(1)
        Yo = mpmath.matrix(n, n)
        for i in range(n):
            for j in range(n):
                Yo[i, j] = yv[n * i + j]
        return float(frobenius_norm(Yo - taylor_ode_solution([P, Q], 1, "AY", dps=dps)))

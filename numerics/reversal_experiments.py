"""Experiments on the time-reversal bound for abelian models: its ε-asymptotics, its growth with
the word length, the word families where it does not grow, and abelian models measured against it.

Source: [DEPTH] G. Heo et al., arXiv:2603.05573, Theorem 3.2, in the corrected form for abelian
models (commuting transitions, no bias) of :mod:`seqtheory.numerics.reversal`: any abelian model
errs by at least ``B(ε) = ½‖(Φ_x − Φ_x̄)h0‖ = ε²‖Ω2 h0‖(1 + O(ε))`` on a word ``x`` or its
reversal ``x̄``. ``gens`` are the letters' generators (square matrices, exact or mpf), ``h0`` the
initial state, words lists of letter indices (SPEC §2: the later letter acts last). Numerical
(mpmath at the stated digits); the slope fits are :func:`seqtheory.numerics.fits.fit_loglog_slope`.
"""
from __future__ import annotations

import numpy as np

from seqtheory.theory._checks import check_int

from .fits import SlopeFit, fit_loglog_slope
from .reversal import (abelian_model_error, euclidean_norm, omega2, reversal_bound, reversal_scan,
                       spectral_norm, zero_area_words)

__all__ = ["reversal_asymptotics", "commutator_mass_growth", "non_growing_families",
           "abelian_models_vs_bound"]


def reversal_asymptotics(gens, word, h0, eps_grid, omega2_sign: int = 1, omega2_scale=1,
                         dps: int = 40) -> dict:
    """The bound against ``ε²‖Ω2 h0‖`` over ``eps_grid`` (increasing, > 0):
    :func:`~seqtheory.numerics.reversal.reversal_scan` and log-log fits of the bound and of the
    residual of the second-order prediction. ``omega2_sign``/``omega2_scale`` alter the predicted
    second-order difference (negative controls; correct: ``+1``, ``1``).

    Returns ``{"grid", "points"`` (:class:`~seqtheory.numerics.reversal.ReversalPoint` per ε),
    ``"bound_fit", "residual_fit"`` (:class:`~seqtheory.numerics.fits.SlopeFit`),
    ``"ratio_at_min_eps", "ratio_at_max_eps"`` (B/(ε²‖Ω2 h0‖)), ``"ratio_opnorm_at_min_eps"``
    (B/(ε²‖Ω2‖₂‖h0‖), the unobserved mass)``}``. ``h0=None``: every unit initial state
    (spectral norms; then the two ratios coincide)."""
    pts = reversal_scan(gens, word, h0, eps_grid, dps=dps, omega2_sign=omega2_sign,
                        omega2_scale=omega2_scale)
    b_fit = fit_loglog_slope(eps_grid, [p.bound for p in pts])
    r_fit = fit_loglog_slope(eps_grid, [p.residual for p in pts])
    o2 = spectral_norm(omega2(gens, word)) * (
        1.0 if h0 is None else float(np.linalg.norm(np.array(h0, dtype=float))))
    return {"grid": eps_grid, "points": pts, "bound_fit": b_fit, "residual_fit": r_fit,
            "ratio_at_min_eps": pts[0].ratio, "ratio_at_max_eps": pts[-1].ratio,
            "ratio_opnorm_at_min_eps": pts[0].bound / (pts[0].eps ** 2 * o2)}


def commutator_mass_growth(gens, h0, repeats: int, eps: float) -> tuple[list[dict], SlopeFit]:
    """``‖Ω2 h0‖`` and the bound at ``eps`` on the words ``(ab)^r``, ``r = 1..repeats``
    (letters 0, 1 of ``gens``), and the log-log fit of ``‖Ω2 h0‖`` against ``T = 2r`` (slope 1
    when the mass accumulates linearly). Rows ``{"r", "T", "norm_Omega2_h0",
    "bound_over_eps2", "ratio"}`` (ratio = B/(ε²‖Ω2 h0‖)). ``h0=None``: every unit initial state
    (``‖Ω2‖₂`` and ``½‖Φ_x − Φ_x̄‖₂`` in the same columns)."""
    repeats = check_int("repeats", repeats, 2)
    growth = []
    for r in range(1, repeats + 1):
        w = [0, 1] * r
        O2 = omega2(gens, w, dps=30)
        o2h = (spectral_norm(O2) if h0 is None
               else float(euclidean_norm(O2.dot(np.array(h0, dtype=object)))))
        B = float(reversal_bound(gens, w, h0, eps, dps=40))
        growth.append({"r": r, "T": 2 * r, "norm_Omega2_h0": o2h, "bound_over_eps2": B / eps ** 2,
                       "ratio": B / (eps ** 2 * o2h)})
    fit = fit_loglog_slope([g["T"] for g in growth], [g["norm_Omega2_h0"] for g in growth])
    return growth, fit


def non_growing_families(gens, h0, repeats: int) -> list[dict]:
    """Word families where the bound does not grow with ``‖Ω2‖``: the unobserved commutator
    direction (``A = diag(1, 0)``, ``B = E12`` from ``h0 = e1``, words ``(ab)^r`` for
    ``r = 1, 4, repeats``: ``‖Ω2‖ > 0`` yet ``B ≡ 0``), and the first zero-area non-palindromic
    block of length 8 (:func:`~seqtheory.numerics.reversal.zero_area_words`) repeated 1 and 4
    times over ``gens`` from ``h0`` (``Ω2 = 0``, B = O(ε⁴): its slope in ε is fitted on
    ε = 1e-3, 2e-3, 4e-3). Rows ``{"family", "T", "norm_Omega2", "bound_eps_0.01"}``, plus
    ``"bound_slope_in_eps"`` for the zero-area rows."""
    repeats = check_int("repeats", repeats)
    fam = []
    A, Bm, e1 = [[1, 0], [0, 0]], [[0, 1], [0, 0]], [1, 0]
    for r in (1, 4, repeats):
        w = [0, 1] * r
        fam.append({"family": "unobserved: A=diag(1,0), B=E12, h0=e1, (ab)^r", "T": 2 * r,
                    "norm_Omega2": float(spectral_norm(omega2([A, Bm], w))),
                    "bound_eps_0.01": float(reversal_bound([A, Bm], w, e1, 0.01, dps=50))})
    za = zero_area_words(8)[0]
    for r in (1, 4):
        w = list(za) * r
        pts = reversal_scan(gens, w, h0, [1e-3, 2e-3, 4e-3], dps=40)
        sl = fit_loglog_slope([p.eps for p in pts], [p.bound for p in pts])
        fam.append({"family": f"zero-area non-palindromic block {''.join('ab'[i] for i in za)}^r",
                    "T": len(w), "norm_Omega2": float(spectral_norm(omega2(gens, w))),
                    "bound_eps_0.01": float(reversal_bound(gens, w, h0, 0.01, dps=40)),
                    "bound_slope_in_eps": sl.slope})
    return fam


def abelian_models_vs_bound(gens, word, h0, eps_values, seed: int, n_random: int = 3
                            ) -> list[dict]:
    """Abelian models' worst error on ``{word, reversal}`` against the bound, per ε of
    ``eps_values``: the commuting model ``exp(εΩ1)`` and ``n_random`` one-layer diagonal models
    with complex standard-normal eigenvalues per letter (drawn per ε from
    ``numpy.random.default_rng(seed)``; :func:`~seqtheory.numerics.reversal.abelian_model_error`).
    Rows ``{"eps", "model", "max_error", "bound", "above"}`` (``above``: error ≥ bound up to a
    relative 1e-12)."""
    rng = np.random.default_rng(seed)
    d, n = len(h0), len(gens)
    above = []
    for e in eps_values:
        bnd = float(reversal_bound(gens, word, h0, e))
        models = {"exp(εΩ1)": None}
        for i in range(check_int("n_random", n_random, 0)):
            models[f"random diagonal #{i}"] = [rng.normal(size=d) + 1j * rng.normal(size=d)
                                               for _ in range(n)]
        for name, diag in models.items():
            ex, er = abelian_model_error(gens, word, h0, e, diag=diag)
            above.append({"eps": e, "model": name, "max_error": max(ex, er), "bound": bnd,
                          "above": max(ex, er) >= bnd * (1 - 1e-12)})
    return above

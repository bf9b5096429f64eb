"""Local error of built k-layer abelian cascades against the exact product of a target's
exponentials: the experiment of [DEPTH] Corollary 3.6.

Source: [DEPTH] G. Heo et al., arXiv:2603.05573, Corollary 3.6 (a k-layer abelian model has local
error ``O(ε^(2^(k−1)+1))`` on a non-solvable target; v1 as known). The cascades are those of
:mod:`seqtheory.numerics.nilpotent_cascades` (linear coupling: class k; polynomial coupling: class
``c_k(n)``); the target acts by ``exp(εA_{x_T}) ⋯ exp(εA_{x_1})`` (left action, SPEC §2,
:func:`~seqtheory.numerics.local_error.path_product`). Errors are Frobenius norms in mpmath; ε
is rational (1/N).
"""
from __future__ import annotations

from fractions import Fraction

import mpmath
import numpy as np

from .fits import fit_loglog_slope
from .local_error import default_eps_grid, frobenius_mp, log_series_coefficients, path_product
from .nilpotent_cascades import free_group_element, nilpotent_cascade
from seqtheory.theory.contract import check_bool, check_exact, check_int
from seqtheory.theory.mp_precision import resolving_dps, working_dps

__all__ = ["cascade_scan", "cascade_error_at"]


def _eps_grid(gens, word, c: int, n_points: int) -> list[Fraction]:
    """Rational ε grid (1/N) over one decade where the next-order correction is ~1 % (chosen from
    the series coefficients; the measurement itself runs the cascade)."""
    coeffs = log_series_coefficients(gens, list(word), c + 2, dps=30)
    grid = default_eps_grid(coeffs, c, n_points)
    return [Fraction(1, max(1, round(1 / e))) for e in grid]


def cascade_scan(gens, word, depth: int, coupling: str, n_points: int = 6,
                 reverse_input: bool = False, drop_top_layer: bool = False) -> dict:
    """Error of the built ``depth``-layer cascade of ``gens`` with ``coupling`` ``"linear"`` or
    ``"polynomial"`` (:func:`~seqtheory.numerics.nilpotent_cascades.nilpotent_cascade`), run token
    by token on ``word`` and read through its output map, against the exact product
    ``exp(εA_{x_T}) ⋯ exp(εA_{x_1})`` on ``n_points`` rational ε (:func:`_eps_grid`), and its
    log-log slope with a 95% CI (:func:`~seqtheory.numerics.fits.fit_loglog_slope`); mpmath at a
    precision that keeps the smallest error resolved (``dps`` in the result).

    ``reverse_input`` feeds the cascade the reversed word (the right-multiplication convention)
    while the target stays left: a wrong variant for the negative control. ``drop_top_layer``
    builds a ``depth − 1`` cascade but reports it as depth ``depth`` (another wrong variant).
    Also checks, exactly, that the cascade's group element equals the free-nilpotent element of
    the word and that each layer's update does not depend on its own state (translation).
    Returns ``{"depth", "coupling", "class_c", "layer_dims", "eps", "errors", "slope", "ci",
    "dps", "exact_group_element", "translations", "variant"}``."""
    reverse_input = check_bool("reverse_input", reverse_input)
    drop_top_layer = check_bool("drop_top_layer", drop_top_layer)
    built = depth - 1 if drop_top_layer else depth
    C = nilpotent_cascade(gens, built, coupling)
    c = C.nilpotency_class
    eps = _eps_grid(gens, word, c, n_points)
    dps = _working_dps(gens, word, c, min(eps))
    feed = list(word)[::-1] if reverse_input else list(word)
    errs = []
    for e in eps:
        out = C.output(C.run(feed, e), dps)
        errs.append(_error_vs_target(out, gens, word, e, dps))
    fit = fit_loglog_slope([float(e) for e in eps], errs)
    exact = _exact_element(C, feed, eps[0])
    transl = _translation_property(C, feed[:3], eps[0])
    return {"depth": depth, "coupling": coupling, "class_c": c, "layer_dims": [L.dim for L in C.layers],
            "eps": [float(e) for e in eps], "errors": [float(x) for x in errs],
            "slope": fit.slope, "ci": [fit.ci_low, fit.ci_high], "dps": dps,
            "exact_group_element": exact, "translations": transl,
            "variant": ("reversed input" if reverse_input else
                        "top layer dropped" if drop_top_layer else "")}


def cascade_error_at(gens, word, depth: int, coupling: str, eps,
                     reverse_input: bool = False, drop_top_layer: bool = False) -> dict:
    """The error of the built ``depth``-layer cascade of ``gens`` (as :func:`cascade_scan`) at
    one rational ``eps`` (a ``Fraction`` or int > 0): the Frobenius distance of its output from
    ``exp(εA_{x_T}) ⋯ exp(εA_{x_1})``, mpmath at a precision that resolves it. ``reverse_input``
    / ``drop_top_layer``: the wrong variants of :func:`cascade_scan`. Returns ``{"depth",
    "coupling", "class_c", "layer_dims", "eps", "error", "dps", "exact_group_element",
    "translations", "variant"}``. ``ValueError`` for ``eps`` not a positive rational,
    ``TypeError`` for a float or a string (:func:`~seqtheory.theory.contract.check_exact`: never
    read as a nearby rational); ``depth`` an int >= 1."""
    reverse_input = check_bool("reverse_input", reverse_input)
    drop_top_layer = check_bool("drop_top_layer", drop_top_layer)
    eps = check_exact("eps", eps, minimum=0, above=True)
    depth = check_int("depth", depth)
    built = depth - 1 if drop_top_layer else depth
    C = nilpotent_cascade(gens, built, coupling)
    c = C.nilpotency_class
    dps = _working_dps(gens, word, c, eps)
    feed = list(word)[::-1] if reverse_input else list(word)
    err = _error_vs_target(C.output(C.run(feed, eps), dps), gens, word, eps, dps)
    return {"depth": depth, "coupling": coupling, "class_c": c,
            "layer_dims": [L.dim for L in C.layers], "eps": float(eps), "error": float(err),
            "dps": dps, "exact_group_element": _exact_element(C, feed, eps),
            "translations": _translation_property(C, feed[:3], eps),
            "variant": ("reversed input" if reverse_input else
                        "top layer dropped" if drop_top_layer else "")}


def _working_dps(gens, word, c: int, eps_min) -> int:
    """Digits that resolve the smallest error ``≈ ε_min^(c+1) ‖Z_{c+1}‖`` with 25 to spare."""
    lead = max(1e-300, float(np.linalg.norm(np.array(
        log_series_coefficients(gens, list(word), c + 1, dps=30)[c], dtype=float))))
    return max(40, resolving_dps(lead, c + 1, eps_min, 25))


def _error_vs_target(out, gens, word, eps: Fraction, dps: int):
    """Frobenius distance of the cascade's output from ``exp(εA_{x_T}) ⋯ exp(εA_{x_1})`` (mpf)."""
    with working_dps(dps) as dps:
        e = mpmath.mpf(eps.numerator) / eps.denominator
        ref = path_product(gens, list(word), e, dps)
        return frobenius_mp([out[i, j] - ref[i, j] for i in range(ref.shape[0])
                             for j in range(ref.shape[1])])


def _exact_element(C, word, eps) -> bool:
    """The cascade's state encodes the free-nilpotent element of the word exactly."""
    g = C.group_element(C.run(word, eps))
    ref = free_group_element(word, C.n_letters, C.nilpotency_class, eps)
    return all(bool((a == b).all()) for a, b in zip(g, ref))


def _translation_property(C, word, eps) -> bool:
    """Every layer's translation is unchanged when that layer's own state (and the layers above)
    is shifted: the per-token maps of a layer are translations, so they commute."""
    from flint import fmpq

    z = C.initial_state()
    for x in word:
        d0, new = C.translations(z, x, eps)
        for j in range(len(z)):
            shifted = [s if i < j else s + np.array([fmpq(i + 2, 3)] * len(s), dtype=object)
                       for i, s in enumerate(z)]
            dj, _ = C.translations(shifted, x, eps)
            if not bool((dj[j] == d0[j]).all()):
                return False
        z = new
    return True

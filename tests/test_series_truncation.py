"""numerics/series_truncation.py: residuals and truncation-error orders of the BCH and Magnus
series at 50 digits (the experiments of the background claims bch.* and magnus.*)."""
from __future__ import annotations

import mpmath
import numpy as np
import pytest

from seqtheory.numerics.series_truncation import (bch_residuals, bch_truncation_slopes,
                                                  frobenius_norm, magnus_residuals,
                                                  negate_degree, random_mp_matrix,
                                                  truncation_slopes)
from seqtheory.theory.bch_series import bch


@pytest.fixture(autouse=True)
def _cache(tmp_path, monkeypatch):
    monkeypatch.setenv("SEQTHEORY_CACHE_DIR", str(tmp_path / "cache"))


def test_random_matrix_has_the_requested_norm():
    with mpmath.workdps(30):
        M = random_mp_matrix(np.random.default_rng(0), 3, "0.25")
        assert abs(frobenius_norm(M) - mpmath.mpf("0.25")) < mpmath.mpf(10) ** -28


def test_negate_degree_flips_one_degree_only():
    Z = bch(3)
    W = negate_degree(Z, 2)
    for w, v in Z.lyndon_coefficients().items():
        assert W.lyndon_coefficients()[w] == (-v if len(w) == 2 else v)


def test_truncation_slopes_of_the_exponential_series():
    # exp(εM) − Σ_{m≤c} (εM)^m/m! = Θ(ε^{c+1}): a reference where the orders are known
    with mpmath.workdps(50):
        M = random_mp_matrix(np.random.default_rng(1), 3, 1)
        I = mpmath.eye(3)
        terms = [M ** m / mpmath.factorial(m) for m in range(1, 5)]
        rows, curves = truncation_slopes(lambda: terms, lambda e: mpmath.expm(M * e) - I,
                                         [1, 2, 3], lambda c: c + 1, eps_max=0.02, n_points=5)
    assert [r["c"] for r in rows] == [1, 2, 3] and all(r["pass"] for r in rows)
    assert all(abs(r["slope"] - (r["c"] + 1)) < 0.05 for r in rows)
    assert set(curves) == {1, 2, 3} and all(len(e) == 5 for e, _ in curves.values())
    with mpmath.workdps(50):
        wrong, _ = truncation_slopes(lambda: terms, lambda e: mpmath.expm(M * e) - I,
                                     [2], lambda c: c, eps_max=0.02, n_points=5)
    assert not wrong[0]["pass"]


def test_bch_residuals_vanish_and_a_flipped_sign_does_not():
    Z = bch(8)
    good = bch_residuals(Z, seed=3, n_pairs=2, scale=0.001)
    bad = bch_residuals(negate_degree(Z, 2), seed=3, n_pairs=2, scale=0.001)
    assert len(good) == 2 and max(good) < 1e-20 and min(bad) > 1e-8
    assert good == bch_residuals(Z, seed=3, n_pairs=2, scale=0.001)               # seeded


def test_bch_truncation_orders():
    rows, _ = bch_truncation_slopes(seed=0, n_points=5)
    assert [r["expected"] for r in rows] == [2, 3, 4, 5, 6, 7] and all(r["pass"] for r in rows)
    flipped, _ = bch_truncation_slopes(seed=0, n_points=5, flip_degree2=True)
    assert not flipped[1]["pass"]                       # c = 2 keeps an ε² error


def test_magnus_residual_is_the_first_omitted_term():
    out = magnus_residuals(seed=0, order=6, scale=0.01)
    for conv in ("AY", "YA"):
        assert abs(out[conv] / out[f"{conv}_tail"] - 1) < 0.1
        assert out[f"{conv}_next"] < out[conv] / 10
    assert out["discrete"] < 1e-25 and out["quadrature_vs_exact"] < 1e-12
    swapped = magnus_residuals(seed=0, order=6, scale=0.01, swap_convention=True)
    assert swapped["AY"] > 10 * out["AY"] and swapped["discrete"] > 1e-10

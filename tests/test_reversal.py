"""Tests of numerics/reversal.py: the time-reversal lower bound for abelian models."""
from __future__ import annotations

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from seqtheory.numerics.fits import fit_loglog_slope
from seqtheory.numerics.local_error import log_series_coefficients
from seqtheory.numerics.reversal import (abelian_model_error, omega2, reversal_bound,
                                         reversal_scan, zero_area_words)


def rand_mats(seed, n=2, d=3):
    rng = np.random.default_rng(seed)
    return [rng.integers(-3, 4, size=(d, d)).astype(object) for _ in range(n)]


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 10 ** 6), st.lists(st.integers(0, 1), min_size=2, max_size=7))
def test_omega2_is_second_log_term(seed, word):
    A = rand_mats(seed)
    Z = log_series_coefficients(A, word, 2, dps=40)
    with mpmath.workdps(40):
        assert max(abs(x) for x in (omega2(A, word, dps=40) - Z[1]).flat) < 1e-30


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_ratio_to_one_and_slopes(seed):
    A = rand_mats(seed)
    word, h0 = [0, 1, 1, 0, 0, 1, 1], [1, -1, 2]
    grid = np.geomspace(1e-5, 1e-3, 5)
    pts = reversal_scan(A, word, h0, grid, dps=40)
    assert abs(pts[0].ratio - 1) < 1e-3
    assert abs(pts[0].ratio - 1) < abs(pts[-1].ratio - 1) or abs(pts[-1].ratio - 1) < 1e-6
    assert abs(fit_loglog_slope(grid, [p.bound for p in pts]).slope - 2) < 0.05
    assert fit_loglog_slope(grid, [p.residual for p in pts]).slope > 2.9
    flipped = reversal_scan(A, word, h0, grid, dps=40, omega2_sign=-1)
    assert fit_loglog_slope(grid, [p.residual for p in flipped]).slope < 2.1


def test_accumulates_for_repeated_pattern():
    A, h0 = rand_mats(7), [1, 0, 1]
    vals = [float(mpmath.norm(mpmath.matrix(omega2(A, [0, 1] * r).dot(
        np.array(h0, dtype=object)).tolist()))) for r in range(1, 6)]
    assert np.allclose(np.array(vals) / np.arange(1, 6), vals[0])


def test_palindrome_and_unobserved_direction_give_zero():
    A = rand_mats(4)
    assert reversal_bound(A, [0, 1, 1, 0], [1, 2, 3], 0.1) == 0
    Ad, B = [[1, 0], [0, 0]], [[0, 1], [0, 0]]
    for r in (1, 3, 6):
        w = [0, 1] * r
        assert np.abs(np.array(omega2([Ad, B], w), dtype=float)).max() == pytest.approx(r / 2)
        assert reversal_bound([Ad, B], w, [1, 0], 0.3, dps=50) < 1e-45


def test_zero_area_words():
    words = zero_area_words(8)
    assert words and all(w != w[::-1] for w in words)
    A = rand_mats(9)
    for w in words[:3]:
        assert max(abs(x) for x in omega2(A, w).flat) < 1e-30
    grid = [1e-3, 2e-3, 4e-3]
    pts = reversal_scan(A, list(words[0]), [1, 1, 1], grid, dps=40)
    assert fit_loglog_slope(grid, [p.bound for p in pts]).slope > 2.9


@settings(max_examples=8, deadline=None)
@given(st.integers(0, 10 ** 6), st.floats(1e-3, 0.3))
def test_abelian_models_lie_above_the_bound(seed, eps):
    A, w, h0 = rand_mats(seed), [0, 1, 1, 0, 1], [1, 2, -1]
    bound = float(reversal_bound(A, w, h0, eps))
    rng = np.random.default_rng(seed)
    for diag in (None, [rng.normal(size=3) + 1j * rng.normal(size=3) for _ in range(2)]):
        assert max(abelian_model_error(A, w, h0, eps, diag=diag)) >= bound * (1 - 1e-12)


def test_bad_input():
    A = rand_mats(0)
    with pytest.raises(ValueError):
        reversal_bound(A, [0, 1], [1, 2], 0.1)
    with pytest.raises(ValueError):
        reversal_bound(A, [], [1, 2, 3], 0.1)
    with pytest.raises(ValueError):
        reversal_scan(A, [0, 1], [1, 2, 3], [0.0])
    with pytest.raises(ValueError):
        reversal_scan(A, [0, 1], [1, 2, 3], [0.1], omega2_sign=2)
    with pytest.raises(ValueError):
        reversal_bound(A, [0, 1], [1, 2, 3], -0.1)


def test_affine_diagonal_layer_is_not_order_free():
    from seqtheory.numerics.reversal import affine_diagonal_final_state

    a, b = [[0.9], [0.5]], [[1.0], [2.0]]
    w = [0, 1, 1]
    # h(abb) = 0.5*(0.5*1 + 2) + 2 = 3.25 ; h(bba) = 0.9*(0.5*2 + 2) + 1 = 3.7
    assert affine_diagonal_final_state(a, b, w)[0] == pytest.approx(3.25)
    assert affine_diagonal_final_state(a, b, w[::-1])[0] == pytest.approx(3.7)
    with pytest.raises(ValueError):
        affine_diagonal_final_state(a, [[1.0]], w)


def test_every_initial_state_bound_is_the_spectral_norm():
    """h0=None: ½‖Φx − Φx̄‖₂, the largest per-h0 bound over unit h0 (the top right singular
    vector attains it; random unit vectors stay below), and its scan against ε²‖Ω2‖₂."""
    import mpmath

    from seqtheory.numerics.local_error import path_product

    A = [np.array([[0, 1, 0], [-1, 0, 2], [0, -2, 0]], dtype=object),
         np.array([[1, 0, 1], [0, 0, 0], [-1, 0, 1]], dtype=object)]
    w, eps = [0, 1, 1, 0, 1], 0.1
    top = float(reversal_bound(A, w, None, eps))
    D = np.array((path_product(A, w, eps) - path_product(A, w[::-1], eps)).tolist(), dtype=float)
    sv = np.linalg.svd(D, compute_uv=False)
    assert top == pytest.approx(sv[0] / 2, rel=1e-12)
    rng = np.random.default_rng(0)
    for _ in range(20):
        h = rng.normal(size=3)
        h /= np.linalg.norm(h)
        assert np.linalg.norm(D @ h) / 2 <= top * (1 + 1e-12)
    pts = reversal_scan(A, w, None, [1e-4, 1e-3], dps=40)
    assert all(abs(p.ratio - 1) < 1e-2 for p in pts)
    assert mpmath.mpf(pts[0].residual) < pts[0].bound * 1e-2

"""numerics.fits: log-log slope fits with t-based CIs and ε-grids above the working precision."""
from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from seqtheory.numerics.fits import choose_eps_grid, fit_loglog_slope


@settings(max_examples=50, deadline=None)
@given(st.floats(0.5, 8), st.floats(1e-3, 1e3))
def test_exact_power_law(p, C):
    eps = [10 ** (-k / 4) for k in range(1, 9)]
    fit = fit_loglog_slope(eps, [C * e ** p for e in eps])
    assert fit.slope == pytest.approx(p, abs=1e-9)
    assert fit.contains(p, min_halfwidth=1e-6)
    assert not fit.contains(p + 0.1, min_halfwidth=1e-6)


def test_noisy_fit_ci_covers_truth_and_rejects_wrong():
    rng = np.random.default_rng(0)
    eps = np.geomspace(1e-1, 1e-3, 12)
    err = 2.0 * eps ** 3 * np.exp(0.05 * rng.standard_normal(eps.size))
    fit = fit_loglog_slope(eps, err)
    assert fit.ci_low < 3 < fit.ci_high
    assert not fit.contains(2) and not fit.contains(4)
    slope, lo, hi, *_ = fit
    assert lo < slope < hi


def test_mpmath_values_below_float_range():
    with mpmath.workdps(60):
        eps = [mpmath.mpf(10) ** -k for k in range(20, 26)]
        err = [e ** 5 for e in eps]  # ~1e-100 .. 1e-125, below 1e-300? no; still far below 1e-16
        fit = fit_loglog_slope(eps, err)
    assert fit.slope == pytest.approx(5, abs=1e-9)


def test_choose_eps_grid_respects_floor():
    floor = 1e-30
    grid = choose_eps_grid(lambda e: e ** 7, 7, eps_max=0.1, n=8, floor=floor, margin=1e6, span=1e3)
    assert len(grid) >= 3 and grid[0] == pytest.approx(0.1)
    assert all(e ** 7 > 1e6 * floor for e in grid)
    assert all(a > b for a, b in zip(grid, grid[1:]))


def test_choose_eps_grid_too_low_precision():
    with pytest.raises(ValueError):
        choose_eps_grid(lambda e: e ** 20, 20, eps_max=1e-2, floor=2.0 ** -52)


def test_bad_input():
    with pytest.raises(ValueError):
        fit_loglog_slope([1, 2], [1, 2])
    with pytest.raises(ValueError):
        fit_loglog_slope([1, 2, 3], [1, 2])
    with pytest.raises(ValueError):
        fit_loglog_slope([1, 2, 3], [1, 0, 3])
    with pytest.raises(ValueError):
        fit_loglog_slope([1, 1, 1], [1, 2, 3])
    with pytest.raises(ValueError):
        fit_loglog_slope([1, 2, math.nan], [1, 2, 3])


# ============================================================================ adversarial review
# Regression tests for defects found by an adversarial review.

def test_fit_rejects_non_numbers():
    """Booleans and numeric strings were accepted as ε / error values."""
    with pytest.raises(ValueError, match="eps"):
        fit_loglog_slope([True, 0.5, 0.25], [1.0, 0.5, 0.25])
    with pytest.raises(ValueError, match="err"):
        fit_loglog_slope([1.0, 0.5, 0.25], ["1", 0.5, 0.25])
    with pytest.raises(ValueError, match="eps"):
        fit_loglog_slope([1j, 0.5, 0.25], [1.0, 0.5, 0.25])


def test_eps_grid_validates_parameters_and_errors():
    """A negative min_eps / margin raised 'math domain error'; an error function returning NaN
    at eps_max produced a grid anyway; one returning 0 crashed in log."""
    with pytest.raises(ValueError, match="min_eps"):
        choose_eps_grid(lambda e: e ** 2, 2, min_eps=-1.0)
    with pytest.raises(ValueError, match="margin"):
        choose_eps_grid(lambda e: e ** 2, 2, margin=0)
    with pytest.raises(TypeError, match="n must be an int"):
        choose_eps_grid(lambda e: e ** 2, 2, n=8.5)
    with pytest.raises(ValueError, match="err_fn"):
        choose_eps_grid(lambda e: float("nan") if e == 0.1 else e ** 2, 2)
    # an error that rounds to exactly 0 below some ε ends the grid there
    grid = choose_eps_grid(lambda e: e ** 2 if e > 0.02 else 0.0, 2)
    assert len(grid) >= 3 and min(grid) > 0.02

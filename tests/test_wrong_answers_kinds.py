"""Wrong answers and unclear errors, by kind (issue 19 §2): exact numbers through floats, big
integers in numpy, advice a user cannot follow, and statistics that cannot be computed.
(Cancellation in reference series, non-finite values in parallel scans and integer arguments
have files of their own.)"""
from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from hypothesis import example, given, settings, strategies as st

from seqtheory.numerics.fits import choose_eps_grid, fit_loglog_slope

SET = settings(max_examples=40, deadline=None)


# ------------------------------------------------------------------ exact numbers through floats
_MAKE = {"Fraction": lambda e: Fraction(10) ** e, "int": lambda e: 10 ** abs(e),
         "mpf": lambda e: mpmath.mpf(10) ** e, "Decimal": lambda e: Decimal(10) ** e}


@SET
@given(st.integers(-2000, 2000), st.integers(1, 4), st.sampled_from(sorted(_MAKE)))
@example(-400, 2, "Fraction")          # every value below 1e-308: once refused as "not positive"
@example(400, 2, "int")                # values above 1e308: once an OverflowError
def test_fit_loglog_slope_takes_any_positive_exact_number(k, p, kind):
    """err = 3 ε^p on ε = 10^k, 10^(k+1), 10^(k+3), 10^(k+4): the slope is p whatever the range."""
    sign = -1 if (kind != "int" and k < 0) else 1
    eps = [_MAKE[kind](k + sign * d) for d in (0, 1, 3, 4)]
    err = [3 * x ** p for x in eps]
    fit = fit_loglog_slope(eps, err)
    assert fit.slope == pytest.approx(p, abs=1e-9)
    assert fit.contains(p, min_halfwidth=1e-9)


@pytest.mark.parametrize("bad", [Fraction(0), Fraction(-1, 10**400), 0, -(10**400), Decimal("NaN"),
                                 Decimal("-Infinity"), mpmath.mpf(0), float("nan"), True])
def test_fit_loglog_slope_refuses_non_positive(bad):
    with pytest.raises(ValueError, match="positive and finite"):
        fit_loglog_slope([1, 2, 3], [1, 2, bad])


def test_choose_eps_grid_with_exact_arguments():
    grid = choose_eps_grid(lambda e: Fraction(e) ** 3, 3, eps_max=Fraction(1, 10), margin=Fraction(10**6),
                           floor=Fraction(1, 10**400))
    assert len(grid) == 8 and grid[0] == pytest.approx(0.1)


def test_taylor_t_checked_exactly():
    from seqtheory.theory.magnus_series import taylor_ode_solution
    with pytest.raises(ValueError, match="t must be"):
        taylor_ode_solution([[[1]]], t=Fraction(-1, 10**400))
    with pytest.raises(ArithmeticError, match="max_dps"):          # huge t: refused, no OverflowError
        taylor_ode_solution([[[1]]], t=10**400)

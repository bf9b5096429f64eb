"""Kind: cancellation in a reference series (issue 19 §2). ``taylor_ode_solution`` must be right
to ``10^-dps`` relative (Frobenius norm) or refuse, whatever the cancellation between its terms:
compared with ``mpmath.expm`` at far higher precision on stiff, oscillatory, mixed and random
inputs, and with a commuting time-dependent case whose solution is a single exponential."""
from __future__ import annotations

import mpmath
import numpy as np
import pytest
from hypothesis import example, given, settings, strategies as st

from seqtheory.theory.magnus_series import taylor_ode_solution

SET = settings(max_examples=25, deadline=None)


def _relerr(Y, ref) -> float:
    with mpmath.workdps(400):
        return float(mpmath.mnorm(Y - ref, "f") / mpmath.mnorm(ref, "f"))


def _expm_ref(M, t=1, extra=200):
    with mpmath.workdps(50 + extra):
        return mpmath.expm(mpmath.matrix(M) * mpmath.mpf(t))


@pytest.mark.parametrize("M", [
    [[-100]],                                   # stiff: exp(-100) = 3.72e-44 (was -1.17e-19)
    [[0, 150], [-150, 0]],                      # oscillatory: terms up to 1e64, sum of size 1
    [[-80, 30, 0], [-30, -80, 5], [0, 0, 20]],  # mixed: decaying rotation plus growth
    [[-50, 1000], [0, -50]],                    # non-normal: large transient
], ids=["stiff", "oscillatory", "mixed", "non-normal"])
@pytest.mark.parametrize("convention", ["AY", "YA"])
def test_constant_generator_matches_expm(M, convention):
    Y = taylor_ode_solution([M], 1, convention, dps=50)
    assert _relerr(Y, _expm_ref(M)) < 1e-50


def test_issue_example_exact_value():
    Y = taylor_ode_solution([[[-100]]], t=1, dps=50)
    with mpmath.workdps(60):
        assert abs(Y[0, 0] / mpmath.exp(-100) - 1) < mpmath.mpf(10) ** -50


@pytest.mark.parametrize("convention", ["AY", "YA"])
def test_time_dependent_commuting_case(convention):
    """A(t) = A_0 + t A_1 with A_1 = c A_0 commutes with itself: Y(t) = exp(t A_0 + t²/2 A_1)."""
    A0 = [[-40, 25], [-25, -40]]
    A1 = [[-40 * 3, 25 * 3], [-25 * 3, -40 * 3]]
    t = mpmath.mpf(3) / 4
    Y = taylor_ode_solution([A0, A1], t, convention, dps=40)
    with mpmath.workdps(300):
        ref = mpmath.expm(mpmath.matrix(A0) * t + mpmath.matrix(A1) * t ** 2 / 2)
    assert _relerr(Y, ref) < 1e-40


@SET
@given(st.lists(st.integers(-120, 120), min_size=4, max_size=4),
       st.sampled_from(["AY", "YA"]), st.integers(10, 60))
@example([-100, 0, 0, -100], "AY", 50)
@example([0, 150, -150, 0], "YA", 30)
def test_random_2x2_matches_expm(entries, convention, dps):
    M = [entries[:2], entries[2:]]
    Y = taylor_ode_solution([M], 1, convention, dps=dps)
    assert _relerr(Y, _expm_ref(M)) < 10.0 ** -dps


def test_refuses_when_accuracy_needs_more_digits_than_allowed():
    with pytest.raises(ArithmeticError, match="max_dps"):
        taylor_ode_solution([[[-100]]], t=1, dps=50, max_dps=100)


def test_max_dps_checked():
    with pytest.raises(ValueError, match="max_dps"):
        taylor_ode_solution([[[-1]]], dps=50, max_dps=10)


@pytest.mark.parametrize("A, err, match", [
    ([[[float("nan")]]], ValueError, "finite"),
    ([[[float("inf"), 0.0], [0.0, 1.0]]], ValueError, "finite"),
    ([[[1j]]], TypeError, "real numbers"),
    ([np.zeros((0, 0))], ValueError, "non-empty square"),
    ([[[1, 2]]], ValueError, "square"),
])
def test_bad_coefficients_are_refused_by_name(A, err, match):
    """Found by review: NaN gave mpmath's 'cannot convert inf or nan to int', a complex entry a
    TypeError about 'mpc', a 0x0 matrix an IndexError."""
    with pytest.raises(err, match=match):
        taylor_ode_solution(A)

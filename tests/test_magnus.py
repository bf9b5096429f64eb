"""Magnus expansion: SPEC oracle for A = P + tQ (both conventions), sign rule, quadrature,
discrete = multi-factor BCH, ODE reference, commutator mass, bad input."""
from __future__ import annotations

from fractions import Fraction

import mpmath
import numpy as np
import pytest
import sympy
from scipy.linalg import expm, logm

from seqtheory.theory.magnus_series import (commutator_mass, magnus, magnus_discrete, magnus_lie_terms,
                                     taylor_ode_solution)


def _rat_matrix(seed):
    rng = np.random.default_rng(seed)
    return sympy.Matrix(3, 3, lambda i, j: sympy.Rational(int(rng.integers(-5, 6)), int(rng.integers(1, 4))))


@pytest.mark.parametrize("convention", ["AY", "YA"])
def test_spec_oracle_P_plus_tQ(convention):
    P, Q = _rat_matrix(0), _rat_matrix(1)
    t = sympy.Rational(2, 3)
    T = magnus([P, Q], 3, t=t, convention=convention).terms
    s = 1 if convention == "AY" else -1
    QP = Q * P - P * Q
    assert T[0] == t * P + t ** 2 * Q / 2
    assert T[1] == s * (t ** 3 / 12) * QP
    assert T[2] == (t ** 5 / 240) * (Q * QP - QP * Q)


def test_even_terms_change_sign():
    for n_coeffs in (1, 2, 3):
        AY = magnus_lie_terms(n_coeffs, 5, "AY")
        YA = magnus_lie_terms(n_coeffs, 5, "YA")
        for m, (a, b) in enumerate(zip(AY, YA), start=1):
            assert b == (a if m % 2 else -a)


def test_constant_A_has_only_first_term():
    T = magnus_lie_terms(1, 5)
    assert T[0].lyndon_coefficients() == {"A": 1}
    assert all(not t.lyndon_coefficients() for t in T[1:])


@pytest.mark.parametrize("convention", ["AY", "YA"])
def test_exact_terms_match_ode_solution(convention):
    rng = np.random.default_rng(3)
    with mpmath.workdps(40):
        P = mpmath.matrix((0.01 * rng.standard_normal((3, 3))).tolist())
        Q = mpmath.matrix((0.01 * rng.standard_normal((3, 3))).tolist())
        R = mpmath.matrix((0.01 * rng.standard_normal((3, 3))).tolist())
        Y = taylor_ode_solution([P, Q, R], 1, convention, dps=40)
        om = magnus([P, Q, R], 7, t=1, convention=convention).omega
        assert mpmath.mnorm(om - mpmath.logm(Y), "f") < mpmath.mpf(10) ** -14
        # the other convention is wrong at second order
        bad = magnus([P, Q, R], 7, t=1, convention="YA" if convention == "AY" else "AY").omega
        assert mpmath.mnorm(bad - mpmath.logm(Y), "f") > mpmath.mpf(10) ** -8


def test_taylor_reference_against_scipy():
    rng = np.random.default_rng(4)
    A = rng.standard_normal((3, 3))
    Y = taylor_ode_solution([A], 0.7, "AY", dps=30)
    assert np.abs(np.array(Y.tolist(), float) - expm(0.7 * A)).max() < 1e-12


@pytest.mark.parametrize("convention", ["AY", "YA"])
def test_quadrature_matches_exact(convention):
    rng = np.random.default_rng(5)
    P, Q, R = (rng.standard_normal((3, 3)) for _ in range(3))
    ex = magnus([P, Q, R], 4, t=0.8, convention=convention)
    qu = magnus(lambda s: P + s * Q + s * s * R, 4, t=0.8, convention=convention)
    for a, b in zip(ex.terms, qu.terms):
        assert np.abs(a - b).max() < 1e-12
    assert ex.commutator_mass() == pytest.approx(np.linalg.norm(ex.terms[1]))
    assert commutator_mass(ex.terms[1], "2") == pytest.approx(np.linalg.norm(ex.terms[1], 2))


def test_quadrature_general_A_against_ode():
    from scipy.integrate import solve_ivp

    rng = np.random.default_rng(6)
    P, Q = 0.3 * rng.standard_normal((3, 3)), 0.3 * rng.standard_normal((3, 3))
    A = lambda s: P * np.cos(s) + Q * np.sin(2 * s)  # noqa: E731
    sol = solve_ivp(lambda s, y: (A(s) @ y.reshape(3, 3)).ravel(), (0, 1), np.eye(3).ravel(),
                    rtol=1e-12, atol=1e-13)
    Y = sol.y[:, -1].reshape(3, 3)
    om = magnus(A, 6, t=1, nodes=24).omega
    assert np.abs(om - logm(Y)).max() < 2e-5  # truncation after degree 6 at ‖A‖ ~ 0.5
    om8 = magnus(A, 8, t=1, nodes=24).omega
    assert np.abs(om8 - logm(Y)).max() < np.abs(om - logm(Y)).max()


def test_discrete_equals_multi_factor_bch():
    rng = np.random.default_rng(7)
    X = [0.02 * rng.standard_normal((3, 3)) for _ in range(3)]
    terms = magnus_discrete(X, 6)
    total = sum(terms)
    assert np.abs(total - logm(expm(X[2]) @ expm(X[1]) @ expm(X[0]))).max() < 1e-11
    # the same as the continuous Magnus expansion of the piecewise-constant A (term by term for m=1)
    assert np.allclose(terms[0], X[0] + X[1] + X[2])
    c = lambda A, B: A @ B - B @ A  # noqa: E731
    assert np.allclose(terms[1], 0.5 * (c(X[1], X[0]) + c(X[2], X[0]) + c(X[2], X[1])))


def test_exact_fraction_object_arrays():
    P = np.array([[Fraction(1), Fraction(2)], [Fraction(0), Fraction(-1)]], dtype=object)
    Q = np.array([[Fraction(0), Fraction(1)], [Fraction(1, 3), Fraction(0)]], dtype=object)
    T = magnus([P, Q], 2, t=Fraction(1, 2)).terms
    t = Fraction(1, 2)
    assert (T[1] == (t ** 3 / 12) * (Q @ P - P @ Q)).all()


def test_bad_input():
    with pytest.raises(ValueError):
        magnus([np.eye(2)], 0)
    with pytest.raises(ValueError):
        magnus([np.eye(2)], 2, convention="XY")
    with pytest.raises(ValueError):
        magnus([np.eye(2), np.eye(3)], 2)
    with pytest.raises(ValueError):
        magnus([np.ones((2, 3))], 2)
    with pytest.raises(ValueError):
        magnus([np.eye(2)], 2, t=-1)
    with pytest.raises(ValueError):
        magnus([], 2)
    with pytest.raises(ValueError):
        magnus(lambda s: np.ones((2, 3)), 2)
    with pytest.raises(ValueError):
        magnus_discrete([], 3)
    with pytest.raises(ValueError):
        magnus_discrete([np.eye(2), np.eye(3)], 3)


# ============================================================================ adversarial review
# Regression tests for defects found by an adversarial review.

def test_magnus_argument_types():
    """t = '1' and t = True were accepted; nodes = 10.5 raised a numpy error from inside;
    taylor_ode_solution ran with dps = 0."""
    with pytest.raises(TypeError, match="t must be a real number"):
        magnus([np.eye(2)], t="1")
    with pytest.raises(TypeError, match="t must be a real number"):
        magnus([np.eye(2)], t=True)
    with pytest.raises(TypeError, match="nodes"):
        magnus(lambda s: np.eye(2), nodes=10.5)
    with pytest.raises(ValueError, match="dps"):
        taylor_ode_solution([np.eye(2)], dps=0)


def test_complex_coefficients_are_kept():
    rng = np.random.default_rng(5)
    P = 0.1 * (rng.standard_normal((2, 2)) + 1j * rng.standard_normal((2, 2)))
    Q = 0.1 * (rng.standard_normal((2, 2)) + 1j * rng.standard_normal((2, 2)))
    res = magnus([P, Q], order=2)
    assert np.iscomplexobj(res.terms[1])
    assert np.allclose(res.terms[1], (Q @ P - P @ Q) / 12)  # Ω2 = (t³/12)[Q, P] at t = 1


def test_magnus_takes_nested_lists_as_generated_by_does():
    """Nested lists (as LieAlgebra.generated_by takes them): exact entries give the exact path,
    a float entry the float64 path; a bool or a string entry is refused by its position."""
    X, Y = [[0, 1], [0, 0]], [[0, 0], [1, 0]]
    exact = magnus([X, Y], order=2).terms[1]
    ref = magnus([np.array(X, dtype=object), np.array(Y, dtype=object)], order=2).terms[1]
    assert exact[0, 0] == Fraction(-1, 12) and (exact == ref).all()
    floats = magnus([[[0.0, 1], [0, 0]], Y], order=2).terms[1]
    assert floats.dtype == np.float64 and np.allclose(floats, np.array(ref, dtype=float))
    with pytest.raises(TypeError, match=r"A\[0\]\[0\]\[1\]"):
        magnus([[[0, True], [0, 0]]])
    with pytest.raises(ValueError, match="rows of different lengths"):
        magnus([[[0, 1], [0]]])

"""The two-layer restricted stack of numerics/restricted_stack.py (the depth-2 witness of
depth.thm3.2): its layer-1 linear parts commute, its output is the degree-≤2 part of the target's
expansion (checked against an independent formula and symbolically), and its error against the
target is O(ε³) while ε²‖Ω2‖₂ is of order ε²."""
from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
import sympy
from scipy.linalg import expm

from seqtheory.numerics.fits import fit_loglog_slope
from seqtheory.numerics.local_error import target_generators
from seqtheory.numerics.restricted_stack import (commutation_certificate, layer1_linear_part,
                                                 second_order_certificate, stack_error_scan,
                                                 stack_output_map)

_entries = st.integers(-4, 4).map(lambda n: Fraction(n, 3))


def _matrix(d):
    return st.lists(st.lists(_entries, min_size=d, max_size=d), min_size=d, max_size=d).map(
        lambda rows: np.array(rows, dtype=object))


@st.composite
def _tokens(draw):
    d = draw(st.integers(1, 3))
    letters = draw(st.lists(_matrix(d), min_size=2, max_size=3))
    word = draw(st.lists(st.integers(0, len(letters) - 1), min_size=1, max_size=6))
    return letters, word


def _second_order(Ys):
    """I + Σ_t Y_t + Σ_{t>s} Y_t Y_s + ½ Σ_t Y_t², computed directly (the oracle)."""
    d = Ys[0].shape[0]
    out = np.eye(d, dtype=int).astype(object)
    for t, Y in enumerate(Ys):
        out = out + Y + Y.dot(Y) / 2
        for s in range(t):
            out = out + Y.dot(Ys[s])
    return out


@settings(max_examples=40, deadline=None)
@given(_tokens())
@example(([np.array([[Fraction(0), Fraction(1)], [Fraction(0), Fraction(0)]], dtype=object),
           np.array([[Fraction(0), Fraction(0)], [Fraction(1), Fraction(0)]], dtype=object)],
          [0, 1, 0, 1, 1]))
def test_linear_parts_commute_and_output_is_the_second_order_part(tokens):
    letters, word = tokens
    La, Lb = layer1_linear_part(letters[0]), layer1_linear_part(letters[1])
    assert (La.dot(Lb) == Lb.dot(La)).all()                     # exact (Fractions)
    Ys = [letters[a] for a in word]
    assert (stack_output_map(Ys) == _second_order(Ys)).all()


def test_commutation_certificate_is_symbolic_and_not_vacuous():
    cert = commutation_certificate()
    assert cert["linear_parts_commute"] and not cert["tokens_commute"]
    assert cert["product"] == "[[1, 0, 0], [Y + Z, 1, 0], [Y**2 + Z**2, 0, 1]]"


def test_second_order_certificate():
    rows = second_order_certificate(4)
    assert [r["T"] for r in rows] == [1, 2, 3, 4]
    assert all(r["model_degree"] == 2 and r["agree_to_order"] == 2 for r in rows)
    assert rows[0]["first_difference"] == "X1**3/6"
    with pytest.raises(ValueError, match="max_len"):
        second_order_certificate(0)


def test_error_against_scipy_at_moderate_eps():
    """Float64 oracle (scipy.linalg.expm) where the error is far above rounding."""
    X = [np.array(g, dtype=float) for g in target_generators("gl_random", seed=3)]
    word = [0, 1, 0, 1, 1]
    eps = 0.1
    target = {tuple(w): np.linalg.multi_dot([expm(eps * X[a]) for a in w[::-1]])
              for w in (word, word[::-1])}
    want = max(np.linalg.norm(np.array(stack_output_map([eps * X[a] for a in w]), dtype=float)
                              - target[tuple(w)], 2) for w in (word, word[::-1]))
    got = stack_error_scan(target_generators("gl_random", seed=3), word, [eps])[0]
    assert got["error"] == pytest.approx(want, rel=1e-9)


def test_error_is_third_order_and_beats_the_mass():
    grid = np.geomspace(1e-5, 1e-3, 5)
    rows = stack_error_scan(target_generators("sl2"), [0, 1, 0, 1, 1], grid)
    fit = fit_loglog_slope(list(grid), [r["error"] for r in rows])
    assert fit.ci_low > 2.95 and fit.ci_high < 3.05
    ratios = [r["ratio"] for r in rows]
    assert ratios == sorted(ratios) and ratios[0] < 1e-4        # error / ε²‖Ω2‖₂ → 0


def test_bad_input():
    with pytest.raises(ValueError, match="Y"):
        layer1_linear_part([[1, 2]])
    with pytest.raises(ValueError, match="Ys"):
        stack_output_map([])
    with pytest.raises(ValueError, match="one size"):
        stack_output_map([np.eye(2), np.eye(3)])


# ------------------------------------------------------------------ inputs (break-it pass, round 2)
_ROT_DIAG = [np.array([[0, 1], [-1, 0.]]), np.array([[1, 0], [0, -1.]])]


def _exact_error(word, eps: Fraction):
    """Oracle: the stack's output in exact Fractions, the target in closed form
    (e^{εJ} a rotation, e^{εD} = diag(e^ε, e^-ε)) at 300 digits, the spectral norm there."""
    import mpmath

    Ys = [np.array([[0, eps], [-eps, 0]], dtype=object) if a == 0 else
          np.array([[eps, 0], [0, -eps]], dtype=object) for a in word]
    with mpmath.workdps(300):
        e = mpmath.mpf(eps.numerator) / eps.denominator
        c, s = mpmath.cos(e), mpmath.sin(e)
        factors = {0: mpmath.matrix([[c, s], [-s, c]]),
                   1: mpmath.matrix([[mpmath.exp(e), 0], [0, mpmath.exp(-e)]])}
        target = mpmath.eye(2)
        for a in word:
            target = factors[a] * target
        M = mpmath.matrix([[mpmath.mpf(v.numerator) / v.denominator for v in row]
                           for row in stack_output_map(Ys).tolist()])
        return float(max(mpmath.svd_r(M - target, compute_uv=False)))


@pytest.mark.parametrize("eps", [Fraction(1, 10 ** 30), Fraction(1, 10 ** 17), Fraction(1, 10)])
def test_error_keeps_its_digits_at_small_eps(eps):
    """Once 0.0 below ε ≈ 1e-17 (terms of size 1 cancelling to ε³ at 50 digits)."""
    row = stack_error_scan(_ROT_DIAG, [0, 1], [eps])[0]
    want = max(_exact_error(w, eps) for w in ([0, 1], [1, 0]))
    assert want > 0 and row["error"] == pytest.approx(want, rel=1e-13)
    assert row["ratio"] == pytest.approx(row["error"] / row["mass"], rel=1e-13)
    assert stack_error_scan(_ROT_DIAG, [0, 1], [1e-30])[0]["error"] > 0   # a float ε too


def test_eps_beyond_the_precision_bound_is_refused():
    with pytest.raises(ValueError, match=r"eps_grid\[1\].*MAX_DPS"):
        stack_error_scan(_ROT_DIAG, [0, 1], [0.1, Fraction(1, 10 ** 4000)])


def test_eps_message_names_floats():
    with pytest.raises(TypeError, match=r"eps_grid\[0\] must be a real number \(int, float"):
        stack_error_scan(_ROT_DIAG, [0, 1], [True])


def test_long_word_refused_before_starting():
    with pytest.raises(ValueError, match=r"len\(word\) = 2000000 .*MAX_SCAN_STEPS"):
        stack_error_scan(_ROT_DIAG, [0, 1] * 10 ** 6, [0.1])


def test_mixed_entry_kinds_are_converted_once():
    from decimal import Decimal

    import mpmath

    exact = [np.array([[Fraction(1, 10), Fraction(1, 3)], [0, 0]], dtype=object)]
    got = stack_output_map([[[Decimal("0.1"), Fraction(1, 3)], [0, 0]]])    # once SystemError
    assert all(isinstance(v, Fraction) for v in got.flat) and (got == _second_order(exact)).all()
    got = stack_output_map([[[Decimal("0.1"), 1.5], [0, 0]]])                # once TypeError
    assert all(type(v) is float for v in got.flat)
    np.testing.assert_allclose(np.array(got, dtype=float), np.array(_second_order(
        [np.array([[0.1, 1.5], [0, 0]], dtype=object)]), dtype=float), rtol=1e-15)
    got = stack_output_map([[[mpmath.mpf(1), Fraction(1, 3)], [0, 0]]])
    assert all(isinstance(v, mpmath.mpf) for v in got.flat)
    ints = stack_output_map([[[1, 2], [3, 4]]])
    assert ints[0, 0] == Fraction(11, 2) and isinstance(ints[0, 0], Fraction)


@pytest.mark.parametrize("Ys, match", [([[[1e200]]], "Ys: the result overflows"),
                                       ([[[sympy.oo * sympy.Symbol("x"), 0], [0, 0]]], r"Ys\[0\]\[0\]\[0\]"),
                                       ([[[sympy.zoo]]], r"Ys\[0\]\[0\]\[0\]"),
                                       ([[[sympy.nan]]], r"Ys\[0\]\[0\]\[0\]")])
def test_infinite_results_and_entries_refused(Ys, match):
    with pytest.raises(ValueError, match=match):
        stack_output_map(Ys)
    with pytest.raises(ValueError, match="Y"):
        layer1_linear_part(Ys[0])

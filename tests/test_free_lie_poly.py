"""Lie polynomials: expansion, Lyndon coordinates (triangular solve), bracket, evaluation."""
from __future__ import annotations

from fractions import Fraction

import mpmath
import numpy as np
import pytest
import sympy
from hypothesis import given, settings, strategies as st

from seqtheory.theory.free_lie import lyndon_words_upto
from seqtheory.theory.lie_poly import LiePolynomial, lyndon_bracket, lyndon_coordinates, pairing

LYN_XY = lyndon_words_upto("xy", 6)
LYN_XYZ = lyndon_words_upto("xyz", 4)

fractions = st.fractions(min_value=-5, max_value=5, max_denominator=7)


def lie_polys(alphabet, words, max_terms=5):
    return st.dictionaries(st.sampled_from(words), fractions, max_size=max_terms).map(
        lambda d: LiePolynomial(d, alphabet))


def test_pairing_triangularity():
    # P_l = l + (larger words): Reutenauer Thm 5.1
    for l in lyndon_words_upto("xy", 7):
        P = LiePolynomial({l: 1}, "xy").expand()
        assert P[l] == 1
        assert all(w >= l for w in P)
        assert all(pairing(l, w, "xy") == c for w, c in P.items())


@settings(max_examples=60, deadline=None)
@given(lie_polys("xyz", LYN_XYZ))
def test_coordinates_roundtrip(P):
    assert LiePolynomial.from_word_coefficients(P.expand(), "xyz", 4) == P


@settings(max_examples=40, deadline=None)
@given(lie_polys("xy", LYN_XY, 4), lie_polys("xy", LYN_XY, 4))
def test_bracket_matches_associative_commutator(P, Q):
    B = P.bracket(Q)
    ep, eq = P.expand(), Q.expand()
    comm: dict = {}
    for u, a in ep.items():
        for v, b in eq.items():
            comm[u + v] = comm.get(u + v, 0) + a * b
            comm[v + u] = comm.get(v + u, 0) - a * b
    assert B.expand() == {w: c for w, c in comm.items() if c}
    assert Q.bracket(P) == -B


@settings(max_examples=30, deadline=None)
@given(lie_polys("xyz", LYN_XYZ[:9], 3), lie_polys("xyz", LYN_XYZ[:9], 3), lie_polys("xyz", LYN_XYZ[:9], 3))
def test_bracket_jacobi(A, B, C):
    j = A.bracket(B).bracket(C) + B.bracket(C).bracket(A) + C.bracket(A).bracket(B)
    assert j == LiePolynomial({}, "xyz")


def test_lyndon_bracket_examples():
    assert lyndon_bracket("x", "y", "xy") == {"xy": 1}
    assert lyndon_bracket("y", "xy", "xy") == {"xyy": -1}
    assert lyndon_bracket("x", "x", "xy") == {}


def test_evaluate_exact_float_mpmath():
    P = LiePolynomial({"x": 1, "xy": Fraction(1, 2), "xxy": Fraction(-1, 3)}, "xy")
    X = sympy.Matrix([[1, 2], [0, -1]])
    Y = sympy.Matrix([[0, 1], [3, 1]])
    c = lambda A, B: A * B - B * A  # noqa: E731
    expect = X + c(X, Y) / 2 - c(X, c(X, Y)) / 3
    assert P.evaluate({"x": X, "y": Y}) == expect
    Xf, Yf = np.array(X.tolist(), float), np.array(Y.tolist(), float)
    assert np.allclose(P.evaluate({"x": Xf, "y": Yf}), np.array(expect.tolist(), float), atol=1e-13)
    Xo = np.array([[Fraction(v) for v in row] for row in X.tolist()], dtype=object)
    Yo = np.array([[Fraction(v) for v in row] for row in Y.tolist()], dtype=object)
    got = P.evaluate({"x": Xo, "y": Yo})
    assert [[Fraction(v) for v in row] for row in got.tolist()] == \
        [[Fraction(int(v.p), int(v.q)) for v in row] for row in expect.tolist()]
    with mpmath.workdps(40):
        Xm, Ym = mpmath.matrix(X.tolist()), mpmath.matrix(Y.tolist())
        got = P.evaluate({"x": Xm, "y": Ym})
        assert mpmath.mnorm(got - mpmath.matrix(expect.evalf(45).tolist()), "f") < mpmath.mpf(10) ** -35


def test_word_coefficient_and_stats():
    P = LiePolynomial({"xy": Fraction(1, 2), "xxy": Fraction(1, 12)}, "xy")
    assert P.word_coefficient("xy") == Fraction(1, 2) and P.word_coefficient("yx") == Fraction(-1, 2)
    assert P.word_coefficient("xyx") == Fraction(-2, 12)
    assert P.nonzero_per_degree() == {2: 1, 3: 1}
    assert P.common_denominators() == {2: 2, 3: 12}
    assert P.degree == 3 and P.truncate(2) == LiePolynomial({"xy": Fraction(1, 2)}, "xy")


def test_bad_input():
    with pytest.raises(ValueError):
        LiePolynomial({"yx": 1}, "xy")  # not a Lyndon word
    with pytest.raises(TypeError):
        LiePolynomial({"xy": 0.5}, "xy")  # floats are not exact
    P = LiePolynomial({"xy": 1}, "xy")
    with pytest.raises(ValueError):
        P.evaluate({"x": np.eye(2), "y": np.eye(3)})  # mismatched sizes
    with pytest.raises(ValueError):
        P.evaluate({"x": np.ones((2, 3)), "y": np.ones((2, 3))})  # non-square
    with pytest.raises(ValueError):
        P.evaluate({"x": np.eye(2)})  # missing letter
    with pytest.raises(ValueError):
        P.evaluate({"x": np.full((2, 2), np.nan), "y": np.eye(2)})
    with pytest.raises(ValueError):
        lyndon_coordinates({}, "xy", 0)
    with pytest.raises(ValueError):
        P + LiePolynomial({"xy": 1}, "xz")


# ============================================================================ adversarial review
# Regression tests for defects found by an adversarial review.

def test_word_coefficients_must_be_exact():
    """Float word coefficients were converted with Fraction(0.1) = 3602879701896397/2^55."""
    with pytest.raises(TypeError, match="word_coefficient\\('xy'\\)"):
        lyndon_coordinates({"xy": 0.1, "yx": -0.1}, "xy", 2)
    with pytest.raises(TypeError, match="float"):
        lyndon_coordinates(lambda w: 0.5, "xy", 1)
    with pytest.raises(ValueError, match="min_degree"):
        lyndon_coordinates({"x": 1}, "xy", 2, min_degree=0)
    exact = lyndon_coordinates({"x": 1, "xy": Fraction(1, 10), "yx": Fraction(-1, 10)}, "xy", 2)
    assert exact == {"x": 1, "xy": Fraction(1, 10)}


def test_evaluate_takes_matrices_in_alphabet_order_or_a_dict():
    from seqtheory.theory.bch_series import bch

    Z = bch(5)
    X = sympy.Matrix([[0, 1, 0], [0, 0, 2], [1, 0, 0]])
    Y = sympy.Matrix([[1, 0, 0], [3, 0, 0], [0, 1, 0]])
    assert Z.evaluate(X, Y) == Z.evaluate({"x": X, "y": Y})
    assert Z.evaluate(X, Y) != Z.evaluate(Y, X)                    # the order is the alphabet's
    P = LiePolynomial({"a": 1, "ab": 2, "abc": 1}, "abc")
    Xs = [np.array(m, float) for m in ([[0, 1], [0, 0]], [[0, 0], [1, 0]], [[1, 0], [0, -1]])]
    assert np.array_equal(P.evaluate(*Xs), P.evaluate(dict(zip("abc", Xs))))
    for wrong in ((X,), (X, Y, Y)):
        with pytest.raises(TypeError, match="one matrix per letter of the alphabet 'xy'"):
            Z.evaluate(*wrong)


def test_bch_keys_stand_for_the_standard_bracketing_the_docstring_names():
    """The BCHSeries docstring: P_xyy = [[x,y],y], P_xxyy = [x,[[x,y],y]] = -[y,[x,[x,y]]]."""
    from seqtheory.theory.bch_series import bch
    from seqtheory.theory.free_lie import bracket_string, standard_bracketing

    shown = {w: bracket_string(standard_bracketing(w, "xy")) for w in ("xxy", "xyy", "xxyy", "xxyxy")}
    assert shown == {"xxy": "[x,[x,y]]", "xyy": "[[x,y],y]", "xxyy": "[x,[[x,y],y]]",
                     "xxyxy": "[[x,[x,y]],[x,y]]"}
    X, Y = (sympy.Matrix(3, 3, lambda i, j: sympy.Rational(i + 2 * j + k, 7) if i != j else k)
            for k in (1, 2))
    br = lambda a, b: a * b - b * a                                          # noqa: E731
    Z4 = bch(4).homogeneous_component(4)
    assert Z4.evaluate(X, Y) == -sympy.Rational(1, 24) * br(Y, br(X, br(X, Y)))

"""Tests of numerics/local_error.py: series coefficients of log(e^{εX_T}⋯e^{εX_1}) and exponents."""
from __future__ import annotations

from fractions import Fraction

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from seqtheory.numerics.local_error import (as_mp_matrices, local_error_scan,
                                            log_series_coefficients, path_product,
                                            target_generators, truncation_error)

DPS = 50


def br(A, B):
    return A.dot(B) - B.dot(A)


def maxabs(M):
    return max(abs(x) for x in np.asarray(M).flat)


def rand_int_mats(seed, n=2, d=3):
    rng = np.random.default_rng(seed)
    return [rng.integers(-2, 3, size=(d, d)).astype(object) for _ in range(n)]


def test_bch_to_degree_four_spec_convention():
    """log(e^Y e^X) for the word (x_1, x_2) = (X, Y): Z(Y, X) of SPEC §2 to degree 4."""
    with mpmath.workdps(DPS):
        X, Y = as_mp_matrices(rand_int_mats(3))
        Z = log_series_coefficients([X, Y], [0, 1], 4, dps=DPS)
        h = mpmath.mpf(1) / 2
        assert maxabs(Z[0] - (X + Y)) < 1e-40
        assert maxabs(Z[1] - br(Y, X) * h) < 1e-40
        z3 = (br(Y, br(Y, X)) + br(X, br(X, Y))) * (mpmath.mpf(1) / 12)
        assert maxabs(Z[2] - z3) < 1e-40
        z4 = br(X, br(Y, br(Y, X))) * (mpmath.mpf(-1) / 24)
        assert maxabs(Z[3] - z4) < 1e-40


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10 ** 6), st.lists(st.integers(0, 2), min_size=1, max_size=6))
def test_first_two_terms(seed, word):
    with mpmath.workdps(DPS):
        A = as_mp_matrices(rand_int_mats(seed, n=3))
        Z = log_series_coefficients(A, word, 2, dps=DPS)
        assert maxabs(Z[0] - sum(A[a] for a in word)) < 1e-40
        o2 = sum((br(A[word[i]], A[word[j]]) for i in range(len(word)) for j in range(i)),
                 np.zeros((3, 3), dtype=object) * mpmath.mpf(0))
        assert maxabs(Z[1] - o2 * (mpmath.mpf(1) / 2)) < 1e-40


def test_heisenberg_series_terminates():
    """Strictly upper-triangular 3x3 generators: Z_m = 0 for m >= 3, truncation at 2 exact."""
    E12 = np.array([[0, 1, 0], [0, 0, 0], [0, 0, 0]], dtype=object)
    E23 = np.array([[0, 0, 0], [0, 0, 1], [0, 0, 0]], dtype=object)
    Z = log_series_coefficients([E12, E23], [0, 1, 1, 0, 1], 5, dps=DPS)
    assert all(maxabs(Zm) < 1e-45 for Zm in Z[2:])
    assert truncation_error([E12, E23], [0, 1, 1, 0, 1], 2, Fraction(1, 10), dps=DPS) < 1e-40


def test_truncation_error_matches_leading_term():
    G = target_generators("sl2")
    w = [0, 1, 1, 0, 1, 0, 0]  # (for the word 01101, Z_4 = 0 on sl2: a non-generic cancellation)
    Z = log_series_coefficients(G, w, 5, dps=DPS)
    eps = mpmath.mpf("1e-4")
    err = truncation_error(G, w, 3, eps, dps=DPS)
    lead = mpmath.sqrt(mpmath.fsum(x * x for x in Z[3].flat)) * eps ** 4
    assert abs(err / lead - 1) < 1e-2


@pytest.mark.parametrize("target", ["so3_a5", "sl2", "gl_random"])
@pytest.mark.parametrize("c", [1, 2, 4])
def test_exponent_is_c_plus_one(target, c):
    s = local_error_scan(target_generators(target), [0, 1, 1, 0, 1, 0, 0], c, n_points=5)
    assert abs(s.slope - (c + 1)) < 0.1
    assert s.leading_norm > 0


def test_path_product_is_ordered_product():
    A = rand_int_mats(5)
    with mpmath.workdps(DPS):
        P = path_product(A, [0, 1], mpmath.mpf("0.1"), dps=DPS)
        E = [np.array(mpmath.expm(mpmath.matrix((as_mp_matrices([M])[0] * mpmath.mpf("0.1")
                                                  ).tolist())).tolist(), dtype=object) for M in A]
        assert maxabs(P - E[1].dot(E[0])) < 1e-40


def test_bad_input():
    with pytest.raises(ValueError):
        as_mp_matrices([])
    with pytest.raises(ValueError):
        as_mp_matrices([np.zeros((2, 3))])
    with pytest.raises(ValueError):
        as_mp_matrices([np.zeros((2, 2)), np.zeros((3, 3))])
    with pytest.raises(ValueError):
        as_mp_matrices([np.array([[np.nan, 0], [0, 0]])])
    with pytest.raises(ValueError):
        path_product([np.eye(2)], [0], -0.1)
    with pytest.raises(ValueError):
        log_series_coefficients([np.eye(2)], [1], 2)
    with pytest.raises(ValueError):
        log_series_coefficients([np.eye(2)], [0], 0)
    with pytest.raises(ValueError):
        target_generators("su5")


def test_wrong_product_convention_drops_the_exponent_to_two():
    """Negative-control hook: subtracting the series of the reversed word (earlier factor first)
    flips every even term, so the error is 2ε²‖Z_2‖ and the slope is 2 whatever c is."""
    gens = target_generators("so3_a5")
    word = [0, 1, 1, 0, 1, 0, 0]
    right = local_error_scan(gens, word, 4, n_points=5)
    wrong = local_error_scan(gens, word, 4, n_points=5, series_word=word[::-1])
    assert abs(right.slope - 5) < 0.05
    assert abs(wrong.slope - 2) < 0.05


def test_check_word_refuses_non_integer_letters():
    from seqtheory.numerics.local_error import check_word
    with pytest.raises(TypeError, match="must be an int"):
        check_word([0, 1.5], 2)
    with pytest.raises(TypeError, match="must be an int"):
        check_word([True, 0], 2)
    with pytest.raises(ValueError, match="non-empty"):
        check_word([], 2)
    assert check_word((0, 1, 1), 2) == [0, 1, 1]

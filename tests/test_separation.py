"""Tests of numerics/separation.py: exact truncated signatures, least separating class, c_k(n)."""
from __future__ import annotations

import itertools
from fractions import Fraction
from math import factorial

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from seqtheory.numerics.separation import (all_word_signatures, colliding_pair,
                                           derived_ideal_lowest_degree_fast,
                                           least_depth_for_class, least_depth_for_length,
                                           least_separating_class, max_class_for_depth,
                                           word_signature_levels)


def _frac_levels(word, n, c):
    return [[Fraction(int(v), factorial(m)) for v in lv] for m, lv in
            enumerate(word_signature_levels(word, n, c))]


def _tensor_mul(A, B, n, c):
    """Product in the truncated tensor algebra; level-m flat index, leftmost letter first."""
    out = [[Fraction(0)] * n ** m for m in range(c + 1)]
    for m in range(c + 1):
        for i in range(m + 1):
            j = m - i
            for a, va in enumerate(A[i]):
                if va == 0:
                    continue
                for b, vb in enumerate(B[j]):
                    if vb:
                        out[m][a * n ** j + b] += va * vb
    return out


def thue_morse(k: int) -> tuple[int, ...]:
    return tuple(bin(i).count("1") % 2 for i in range(2 ** k))


def test_single_letter_levels():
    lv = word_signature_levels([1], 2, 4)
    for m in range(5):
        expect = np.zeros(2 ** m, dtype=np.int64)
        expect[(2 ** m - 1)] = 1  # index of X_1^m (all digits 1)
        assert np.array_equal(lv[m], expect)


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 3).flatmap(lambda n: st.tuples(
    st.just(n), st.lists(st.integers(0, n - 1), min_size=1, max_size=4),
    st.lists(st.integers(0, n - 1), min_size=1, max_size=4))), st.integers(1, 4))
def test_chen_identity(nuv, c):
    """S(u then v) = S(v) · S(u): the later factor multiplies on the left (SPEC §2)."""
    n, u, v = nuv
    lhs = _frac_levels(u + v, n, c)
    rhs = _tensor_mul(_frac_levels(v, n, c), _frac_levels(u, n, c), n, c)
    assert lhs == rhs


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 3), st.integers(0, 5), st.integers(0, 4))
def test_level_sums_are_T_power(n, T, c):
    """Setting every X_a = 1 gives e^T, so the scaled level-m sum is T^m."""
    levels = all_word_signatures(n, T, c)
    for m, lv in enumerate(levels):
        assert np.all(lv.sum(axis=1) == T ** m)


def test_known_collisions_and_values():
    assert colliding_pair(2, 2, 1) is not None          # ab ~ ba at class 1
    assert colliding_pair(2, 2, 2) is None
    a, b = (0, 1, 1, 0), (1, 0, 0, 1)                   # abba ~ baab at class 2, not 3
    la, lb = word_signature_levels(a, 2, 3), word_signature_levels(b, 2, 3)
    assert all(np.array_equal(x, y) for x, y in zip(la[:3], lb[:3]))
    assert not np.array_equal(la[3], lb[3])
    assert [least_separating_class(2, T) for T in range(1, 9)] == [1, 2, 2, 3, 3, 3, 4, 4]
    assert least_separating_class(1, 5) == 0 and least_separating_class(3, 0) == 0


@pytest.mark.parametrize("k", [1, 2, 3])
def test_prouhet_thue_morse(k):
    """Prouhet: the Thue–Morse word of length 2^k and its complement agree up to class k."""
    t = thue_morse(k)
    tbar = tuple(1 - x for x in t)
    lt, lb = word_signature_levels(t, 2, k + 1), word_signature_levels(tbar, 2, k + 1)
    assert all(np.array_equal(x, y) for x, y in zip(lt[:k + 1], lb[:k + 1]))
    assert least_separating_class(2, 2 ** k) >= k + 1


def test_witness_is_a_true_collision():
    for n, T in ((2, 7), (3, 5)):
        c = least_separating_class(n, T)
        u, v = colliding_pair(n, T, c - 1)
        assert u != v
        lu, lv = word_signature_levels(u, n, c), word_signature_levels(v, n, c)
        assert all(np.array_equal(x, y) for x, y in zip(lu[:c], lv[:c]))
        assert not np.array_equal(lu[c], lv[c])


def test_agrees_with_bch_lyndon_coordinates():
    """Equal truncated signatures <=> equal Lyndon coordinates of the multi-factor BCH log."""
    from seqtheory.theory.bch_series import log_product_word_coefficient
    from seqtheory.theory.lie_poly import lyndon_coordinates

    n, T = 2, 4
    for c in (1, 2, 3):
        by_sig, by_bch = {}, {}
        for w in itertools.product(range(n), repeat=T):
            sig = tuple(tuple(lv) for lv in word_signature_levels(w, n, c))
            factors = [("ab"[x], 1) for x in reversed(w)]  # listed left to right: x_T first
            coords = lyndon_coordinates(lambda u: log_product_word_coefficient(u, factors, "ab"),
                                        "ab", c)
            by_sig.setdefault(sig, set()).add(w)
            by_bch.setdefault(tuple(sorted(coords.items())), set()).add(w)
        assert sorted(map(sorted, by_sig.values())) == sorted(map(sorted, by_bch.values()))


def test_max_class_for_depth_values():
    assert [max_class_for_depth(2, k) for k in range(5)] == [0, 1, 4, 9, 20]
    assert [max_class_for_depth(3, k) for k in range(4)] == [0, 1, 3, 7]


@pytest.mark.parametrize("n,k,D", [(2, 1, 3), (2, 2, 6), (2, 3, 10), (3, 1, 3), (3, 2, 5),
                                   (4, 2, 5)])
def test_recurrence_matches_direct_computation(n, k, D):
    from seqtheory.theory.free_lie import derived_ideal_lowest_degree

    assert derived_ideal_lowest_degree_fast(n, k) == derived_ideal_lowest_degree(n, k, D)


def test_least_depth_matches_free_nilpotent_derived_length():
    from seqtheory.theory.free_lie import free_nilpotent

    for n, cmax in ((2, 6), (3, 4)):
        for c in range(1, cmax + 1):
            assert free_nilpotent(n, c).derived_length == least_depth_for_class(n, c)
    assert least_depth_for_length(2, 12) == (5, 3)


def test_bad_input():
    with pytest.raises(TypeError):
        least_separating_class(2.0, 3)
    with pytest.raises(ValueError):
        least_separating_class(0, 3)
    with pytest.raises(ValueError):
        least_separating_class(2, -1)
    with pytest.raises(ValueError):
        max_class_for_depth(1, 2)
    with pytest.raises(ValueError):
        max_class_for_depth(2, -1)
    with pytest.raises(ValueError):
        word_signature_levels([0, 2], 2, 2)
    with pytest.raises(ValueError):
        all_word_signatures(2, 40, 13)  # T**c beyond the exact int64 range


# ============================================================================ adversarial review
# Regression tests for defects found by an adversarial review.

def test_lowest_degree_fast_validates():
    """n = 1 once returned 3 (but L^(1) = 0 on one letter) and k = -1 recursed until
    RecursionError."""
    with pytest.raises(ValueError, match="n must be >= 2"):
        derived_ideal_lowest_degree_fast(1, 2)
    with pytest.raises(ValueError, match="k must be >= 0"):
        derived_ideal_lowest_degree_fast(2, -1)
    with pytest.raises(TypeError, match="n must be an int"):
        derived_ideal_lowest_degree_fast(2.0, 1)
    assert [derived_ideal_lowest_degree_fast(2, k) for k in range(4)] == [1, 2, 5, 10]


@pytest.mark.parametrize("word", [[1.5, 0], [True, 0], "01", 3])
def test_word_letters_must_be_ints(word):
    """int() coercion once read the letter 1.5 as 1."""
    with pytest.raises(TypeError, match="word"):
        word_signature_levels(word, 2, 2)

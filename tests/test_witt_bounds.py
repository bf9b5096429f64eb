"""theory/witt_bounds.py: the exact bounds dim L_m(n) ≤ n^m/m and dim N(n, T) ≤ (n/(n−1))² n^T/T,
against brute force (primitive words enumerated; GAP-free, exact integers)."""
from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from seqtheory.theory.free_lie import witt_dimension
from seqtheory.theory.witt_bounds import (dimension_bound_rows, nilpotent_dimension_bound,
                                          primitive_word_count, sum_bound_steps, witt_bound_rows)


def test_primitive_words_by_hand():
    # n = 2: length 2 -> ab, ba (aa, bb are powers); length 4 -> 16 - 4 (periods 1, 2) = 12
    assert primitive_word_count(2, 2) == 2 and primitive_word_count(2, 4) == 12
    assert primitive_word_count(3, 1) == 3
    with pytest.raises(ValueError):
        primitive_word_count(0, 2)


def test_witt_rows_count_primitive_words_and_hold():
    rows = witt_bound_rows((2, 3), 8)
    assert all(r["holds"] and r["counts_primitive_words"] for r in rows)
    assert rows[3] == {"n": 2, "m": 4, "m_dim_L_m": 12, "n^m": 16, "holds": True,
                       "primitive_words": 12, "counts_primitive_words": True}


def test_sum_bound_steps_verify():
    assert sum_bound_steps() == {"ratio_step": True, "geometric_sum": True}


@settings(max_examples=40, deadline=None)
@given(n=st.integers(2, 5), T=st.integers(1, 30))
@example(n=2, T=1)
@example(n=4, T=5)   # the largest ratio to the bound in the quick table
def test_bound_holds_and_the_intermediate_sum_sits_between(n, T):
    dim = sum(witt_dimension(n, m) for m in range(1, T + 1))
    partial = sum(Fraction(n ** m, m) for m in range(1, T + 1))
    assert dim <= partial <= nilpotent_dimension_bound(n, T)


def test_dimension_rows_and_bad_input():
    rows = dimension_bound_rows({2: 6})
    assert [r["dim_N"] for r in rows] == [2, 3, 5, 8, 14, 23]
    assert all(r["holds"] and 0 < r["ratio"] <= 1 for r in rows)
    with pytest.raises(ValueError):
        nilpotent_dimension_bound(1, 3)

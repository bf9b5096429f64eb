"""Tests of numerics/group_cascades.py: abelian cascades tracking group word problems."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from seqtheory.numerics.group_cascades import (all_words, build_cascade, cascade_for_group,
                                               cyclic_decomposition, prefix_products)
from seqtheory.theory.groups import FiniteGroup

GROUPS = ["C2", "C3", "D8", "H3", "S3", "A4", "S4", "Q8", "F21"]


@pytest.mark.parametrize("name", GROUPS)
def test_cascade_tracks_word_problem(name):
    G = FiniteGroup.named(name)
    T = G.cayley_table()
    for conv in ("left", "right"):
        C = cascade_for_group(G, conv)
        assert C.depth == G.derived_length
        W = all_words(G.order, 3 if G.order <= 8 else 2)
        truth = prefix_products(T, W, conv)
        assert np.array_equal(C.run(W, "exact"), truth)
        assert np.array_equal(C.run(W, "float"), truth)
    R = np.random.default_rng(0).integers(0, G.order, (50, 200))
    assert np.array_equal(C.run(R, "float"), prefix_products(T, R, "right"))


def test_oracle_layer_structure():
    # derived-series quotients (SPEC §4): S4 24,12,4,1 -> C2, C3, C2xC2
    C = cascade_for_group(FiniteGroup.named("S4"))
    assert C.series_orders == [24, 12, 4, 1]
    assert [sorted(L.orders) for L in C.layers] == [[2], [3], [2, 2]]
    assert C.state_dim == 4


@pytest.mark.parametrize("name", ["S3", "D8", "S4", "Q8"])
def test_one_layer_too_few_fails(name):
    G = FiniteGroup.named(name)
    C = cascade_for_group(G).truncated(G.derived_length - 1)
    W = all_words(G.order, 3)
    assert not np.array_equal(C.run(W), prefix_products(G.cayley_table(), W))


def test_right_is_left_on_reversed_word():
    G = FiniteGroup.named("S4")
    W = np.random.default_rng(1).integers(0, 24, (20, 9))
    r = prefix_products(G.cayley_table(), W, "right")[:, -1]
    l = prefix_products(G.cayley_table(), W[:, ::-1], "left")[:, -1]
    assert np.array_equal(r, l)


def test_a5_has_no_cascade():
    with pytest.raises(ValueError, match="not solvable"):
        cascade_for_group(FiniteGroup.named("A5"))


def test_bad_tables_and_series():
    S3 = FiniteGroup.named("S3")
    T = np.array(S3.cayley_table(), dtype=np.int64)
    e = S3.identity_index
    bad = T.copy()
    bad[1, [0, 1]] = bad[1, [1, 0]]
    with pytest.raises(ValueError, match="Latin|identity"):
        build_cascade(bad, [range(6), [e]])
    with pytest.raises(ValueError, match="not abelian"):
        build_cascade(T, [range(6), [e]])  # S3 / 1 is not abelian
    inv = [j for j in range(6) if j != e and T[j, j] == e][0]
    with pytest.raises(ValueError, match="normal"):
        build_cascade(T, [range(6), [e, inv], [e]])  # an order-2 subgroup is not normal
    with pytest.raises(ValueError):
        build_cascade(T[:5, :5], [range(5), [0]])
    with pytest.raises(TypeError):
        build_cascade(T.astype(float), [range(6), [e]])
    with pytest.raises(ValueError):
        cascade_for_group(S3).run(np.array([[0, 6]]))
    with pytest.raises(ValueError):
        build_cascade(T, [range(6), [e]], convention="middle")
    # a non-associative Latin square (loop of order 5)
    L = np.array([[0, 1, 2, 3, 4], [1, 0, 3, 4, 2], [2, 4, 0, 1, 3], [3, 2, 4, 0, 1],
                  [4, 3, 1, 2, 0]])
    with pytest.raises(ValueError, match="associativ"):
        build_cascade(L, [range(5), [0]])


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(2, 6), min_size=1, max_size=3))
def test_cyclic_decomposition_of_products(ms):
    """Z/m1 x ... x Z/mr: the decomposition is an isomorphism (checked inside build_cascade) and
    the orders multiply to the group order."""
    N = int(np.prod(ms))
    elems = list(np.ndindex(*ms))
    idx = {x: i for i, x in enumerate(elems)}
    table = np.array([[idx[tuple((a + b) % m for a, b, m in zip(x, y, ms))] for y in elems]
                      for x in elems])
    gens, orders = cyclic_decomposition(table, idx[tuple(0 for _ in ms)])
    assert int(np.prod(orders)) == N
    C = build_cascade(table, [range(N), [idx[tuple(0 for _ in ms)]]])
    W = np.random.default_rng(0).integers(0, N, (30, 12))
    assert np.array_equal(C.run(W), prefix_products(table, W))


# ============================================================================ adversarial review
# Regression tests for defects found by an adversarial review.

def test_prefix_products_validates_the_table():
    """prefix_products once cast any table to int64 unchecked (a float table of 0.9s became
    zeros, a non-group table gave 'prefix products')."""
    with pytest.raises(TypeError):
        prefix_products(np.full((2, 2), 0.9), [[0, 1]])
    with pytest.raises(ValueError):
        prefix_products(np.zeros((2, 2), dtype=np.int64), [[0, 1]])
    C3 = FiniteGroup.cyclic(3)
    assert prefix_products(C3.cayley_table(), [[1, 1, 1]]).tolist() == [[1, 2, 0]]


def test_series_indices_are_checked():
    """An index outside the group raised IndexError deep inside the layer construction."""
    T = np.array(FiniteGroup.cyclic(4).cayley_table(), dtype=np.int64)
    with pytest.raises(ValueError, match=r"series\[1\]"):
        build_cascade(T, [range(4), [0, 7], [0]])
    with pytest.raises(TypeError, match=r"series\[1\]"):
        build_cascade(T, [range(4), [0.0, 2.0], [0]])


def test_associativity_check_is_not_cubic_in_memory():
    """The associativity test once built an N^3 array (1 TB for N = 5040); the table validation
    is now slab-wise, so a group of order 720 validates quickly."""
    import tracemalloc

    T = FiniteGroup.symmetric(6).cayley_table()
    tracemalloc.start()
    try:
        assert prefix_products(T, [[1, 2, 3]]).shape == (1, 3)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 100 * 2**20  # the cubic array alone would be 720^3 * 8 B = 3 GB


def test_all_words_validates():
    with pytest.raises(ValueError, match="T must be >= 0"):
        all_words(2, -1)
    with pytest.raises(TypeError, match="N must be an int"):
        all_words(2.0, 2)
    assert all_words(2, 2).tolist() == [[0, 0], [0, 1], [1, 0], [1, 1]]

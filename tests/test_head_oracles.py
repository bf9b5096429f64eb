"""SOCP oracles of [HEAD] (arXiv:2608.22253v2): min-tension duality, projected RowNorm, ratio."""
from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from seqtheory.numerics.head_oracles import (
    centre_rows, covering_radius_descent, min_tension, numerical_rank, pair_difference_matrix,
    regular_simplex_gradient, row_normalise, rownorm_ratio, rownorm_ratio_bound, rownorm_update,
    rownorm_value, steepest_descent_diameter,
)
from seqtheory.theory.hilbert import row_diameter

SET = settings(max_examples=6, deadline=None)
shape = st.tuples(st.integers(2, 6), st.integers(1, 3))


def test_pair_difference_matrix():
    M = pair_difference_matrix(3)
    assert M.tolist() == [[1, -1, 0], [1, 0, -1], [0, 1, -1]]
    with pytest.raises(ValueError):
        pair_difference_matrix(1)


def test_two_rows_closed_form():
    g = np.array([3.0, 4.0])
    G = np.stack([g, -g])
    assert steepest_descent_diameter(G, 2.0).value == pytest.approx(-2.0 * 5.0, rel=1e-7)
    assert min_tension(G).value == pytest.approx(5.0, rel=1e-7)


@SET
@given(shape, st.integers(0, 10 ** 6), st.floats(0.3, 3))
def test_duality_on_centred_gradients(sh, seed, eta):
    G = centre_rows(np.random.default_rng(seed).normal(size=sh))
    p = steepest_descent_diameter(G, eta)
    t = min_tension(G)
    assert p.value == pytest.approx(-eta * t.value, rel=1e-6, abs=1e-7)
    assert row_diameter(p.solution)[0] <= eta * (1 + 1e-6)


def test_uncentred_gradient_flow_infeasible_primal_sees_PG():
    G = np.random.default_rng(0).normal(size=(4, 2)) + 3.0
    assert min_tension(G).value == math.inf
    assert steepest_descent_diameter(G).value == pytest.approx(
        -min_tension(centre_rows(G)).value, rel=1e-6)


@SET
@given(shape, st.integers(0, 10 ** 6), st.floats(0.3, 3))
def test_rownorm_oracle_properties(sh, seed, eta):
    G = np.random.default_rng(seed).normal(size=sh) + 1.0       # uncentred
    S = rownorm_update(G, eta)
    assert np.abs(S.sum(axis=0)).max() < 1e-12                  # 1ᵀS = 0
    assert row_diameter(S)[0] <= eta * (1 + 1e-12)
    assert np.sum(G * S) == pytest.approx(-rownorm_value(G, eta), rel=1e-12)
    assert covering_radius_descent(G, eta).value == pytest.approx(np.sum(G * S), rel=1e-6)


def test_uncentred_rownorm_is_not_optimal():
    G = np.random.default_rng(1).normal(size=(5, 3)) + 2.0
    S = rownorm_update(G, 1.0, centre=False)
    assert abs(np.sum(G * S) - covering_radius_descent(G, 1.0).value) > 1e-3


def test_row_normalise_zero_rows_and_eps():
    A = np.array([[0.0, 0.0], [3.0, 4.0]])
    assert row_normalise(A).tolist() == [[0.0, 0.0], [0.6, 0.8]]
    assert np.linalg.norm(row_normalise(A, 1.0)[1]) == pytest.approx(5 / 6)
    with pytest.raises(ValueError):
        row_normalise(A, -1.0)
    with pytest.raises(ValueError, match="eta"):
        rownorm_update(A, 0.0)


@pytest.mark.parametrize("k", [1, 2, 3, 4])
def test_ratio_tight_on_regular_simplex(k):
    G = regular_simplex_gradient(k)
    assert numerical_rank(G) == k
    r = rownorm_ratio(G)
    assert r["ratio"] == pytest.approx(rownorm_ratio_bound(k), abs=1e-6)


@SET
@given(st.integers(1, 3), st.integers(0, 10 ** 6))
def test_ratio_between_bound_and_one(k, seed):
    rng = np.random.default_rng(seed)
    G = rng.normal(size=(k + 2, k)) @ rng.normal(size=(k, k + 1))
    r = rownorm_ratio(G)
    assert r["bound"] - 1e-6 <= r["ratio"] <= 1 + 1e-6


def test_ratio_zero_gradient_and_rank_tolerance():
    with pytest.raises(ValueError, match="undefined"):
        rownorm_ratio(np.ones((3, 2)))
    assert numerical_rank(np.zeros((3, 2))) == 0
    A = np.diag([1.0, 1e-12])
    assert numerical_rank(A, rtol=1e-9) == 1 and numerical_rank(A, rtol=1e-15) == 2
    with pytest.raises(ValueError):
        rownorm_ratio_bound(0)

"""SOCP oracles of [HEAD] (arXiv:2608.22253v2): min-tension duality, projected RowNorm, ratio."""
from __future__ import annotations

import math

import numpy as np
from seqtheory.theory.linalg import NumericalRankError
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
    assert numerical_rank(A, rtol=1e-15) == 2
    with pytest.raises(NumericalRankError):      # 1e-12: below the tolerance, above rounding
        numerical_rank(A, rtol=1e-9)
    assert numerical_rank(np.diag([1.0, 1e-18]), rtol=1e-9) == 1     # within rounding: zero
    assert numerical_rank(np.array([[1.0, 1.0], [1.0, 1.0 + 2 ** -52]])) == 1
    with pytest.raises(ValueError):
        rownorm_ratio_bound(0)


# ---------------------------------------------------------------------------- scale invariance
# The programs are positively homogeneous (value(cG, η) = c·η·value(G, 1)); the solver must see
# the same normalised data at every scale, and any status but "optimal" is an error.
SCALES = [10.0 ** e for e in range(-12, 13, 2)] + [1e-300, 1e300]
V2 = np.array([[1.0, 0.0], [-1.0, 0.0]])


@pytest.mark.parametrize("c", SCALES)
def test_two_rows_exact_values_at_every_scale(c):
    # V = 2, G = c·[[1, 0], [−1, 0]]: steepest descent −c, minimum tension c, covering radius −c
    G = c * V2
    for res, want in ((steepest_descent_diameter(G), -c), (min_tension(G), c),
                      (covering_radius_descent(G), -c)):
        assert res.status == "optimal"
        assert res.value == pytest.approx(want, rel=1e-7)
    S = steepest_descent_diameter(G, 1.0).solution
    assert row_diameter(S)[0] <= 1 + 1e-7 and np.abs(S.sum(axis=0)).max() < 1e-9


@pytest.mark.parametrize("c", SCALES)
@pytest.mark.parametrize("k", [1, 2, 3, 4])
def test_regular_simplex_ratio_at_every_scale(k, c):
    r = rownorm_ratio(regular_simplex_gradient(k, scale=c))
    assert r["ratio"] == pytest.approx(rownorm_ratio_bound(k), abs=1e-6)   # k = 3: 0.8165
    assert r["ratio"] <= 1 + 1e-7 and r["status"] == "optimal"
    assert r["delta_star"] == pytest.approx(c * rownorm_ratio(regular_simplex_gradient(k))[
        "delta_star"], rel=1e-7)


@settings(max_examples=12, deadline=None)
@given(shape, st.integers(0, 10 ** 6), st.floats(-12, 12), st.floats(-6, 6))
def test_values_scale_with_gradient_and_eta(sh, seed, log_c, log_eta):
    G = centre_rows(np.random.default_rng(seed).normal(size=sh))
    c, eta = 10.0 ** log_c, 10.0 ** log_eta
    base_p, base_t = steepest_descent_diameter(G).value, min_tension(G).value
    p = steepest_descent_diameter(c * G, eta)
    assert p.value == pytest.approx(c * eta * base_p, rel=1e-6)
    assert row_diameter(p.solution)[0] <= eta * (1 + 1e-6)
    assert min_tension(c * G).value == pytest.approx(c * base_t, rel=1e-6)
    assert covering_radius_descent(c * G, eta).value == pytest.approx(
        -rownorm_value(c * G, eta), rel=1e-6)
    r = rownorm_ratio(c * G)
    assert r["bound"] - 1e-6 <= r["ratio"] <= 1 + 1e-6


def test_zero_gradient_needs_no_solver():
    for fn in (steepest_descent_diameter, covering_radius_descent, min_tension):
        res = fn(np.zeros((3, 2)))
        assert (res.value, res.status, res.solver) == (0.0, "optimal", "none")


def test_uncentred_flow_is_decided_exactly_and_rounding_is_centred():
    unc = min_tension(np.eye(3, 2))
    assert (unc.value, unc.status, unc.solver) == (math.inf, "infeasible", "none")
    G = np.array([[0.1, 0.2], [0.7, -0.3], [-0.8, 0.1]])       # 1ᵀG = 0 up to rounding
    assert min_tension(G).status == "optimal"


@pytest.mark.filterwarnings("ignore:Solution may be inaccurate")
def test_non_optimal_status_is_retried_then_refused(monkeypatch):
    import seqtheory.numerics.head_oracles as ho

    crippled = ("SCS", {"max_iters": 1})                        # stops before convergence
    monkeypatch.setattr(ho, "_SOLVERS", (crippled,))
    with pytest.raises(RuntimeError, match=r"steepest_descent_diameter.*SCS: (?!optimal\b)"):
        steepest_descent_diameter(V2)
    with pytest.raises(RuntimeError, match="min_tension"):
        min_tension(V2)
    monkeypatch.setattr(ho, "_SOLVERS", (crippled, ("CLARABEL", {})))
    res = steepest_descent_diameter(3.0 * V2)
    assert res.solver == "CLARABEL" and res.value == pytest.approx(-3.0, rel=1e-7)


def test_values_beyond_float64_range_name_G_and_eta():
    with pytest.raises(ValueError, match=r"^G, eta: .*float64 range"):
        steepest_descent_diameter(1.5e308 * np.array([[1.0, 1.0], [-1.0, -1.0]]), 2.0)
    with pytest.raises(ValueError, match=r"^G, eta: .*float64 range"):
        steepest_descent_diameter(10.0 * V2, 1e308)
    assert steepest_descent_diameter(1e-300 * V2, 1e300).value == pytest.approx(-1.0, rel=1e-7)
    assert np.allclose(np.linalg.norm(row_normalise(np.array([[1e-300, 0], [0, 1e300]])), axis=1), 1.0)
    assert numerical_rank(1e300 * np.diag([1.0, 1e-3])) == 2 == numerical_rank(1e-300 * np.eye(2))


def test_rank_of_nearly_equal_rows_counts_the_rounding_of_the_centring():
    """Rows 1e-4 apart: centring cancels (rounding of order u·max|A|), and the centred part has
    exact rank 2; the rank decision accounts for that rounding (data_scale)."""
    rng = np.random.default_rng(0)
    c = rng.normal(size=5)
    P = rng.normal(size=(6, 2)) @ rng.normal(size=(2, 5)) * 1e-4
    assert rownorm_ratio(c + P)["k"] == 2
    with pytest.raises(ValueError, match="data_scale"):
        numerical_rank(P, data_scale=-1.0)

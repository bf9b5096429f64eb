"""Tests for seqtheory.theory.linalg: exact (Q, Q(sqrt5)) and float subspaces."""
from fractions import Fraction

import numpy as np
import pytest
import sympy
from hypothesis import given, settings, strategies as st

from seqtheory.theory.linalg import (FieldSubspace, FloatSubspace, RationalSubspace, detect_field,
                                     exact_matmul, float_rank, independent_rows, nullspace, rank,
                                     solve, span)


def test_rank_and_rref_over_q():
    S = span([[1, 2, 3], [2, 4, 6], [1, 0, 1]])
    assert isinstance(S, RationalSubspace) and S.dim == 2
    assert S.rref() == [[1, 0, 1], [0, 1, 1]]
    assert S.contains([3, 2, 5]) and not S.contains([0, 0, 1])
    assert S.coordinates([Fraction(1, 2), 1, Fraction(3, 2)]) == [Fraction(1, 2), Fraction(1)]
    with pytest.raises(ValueError, match="not in the subspace"):
        S.coordinates([0, 0, 1])


def test_fractions_and_sympy_rationals():
    S = span([[Fraction(1, 3), sympy.Rational(2, 3)], [1, 2]])
    assert S.dim == 1 and S.basis == [(1, 2)]


def test_intersection_and_sum():
    A = span([[1, 0, 0], [0, 1, 0]])
    B = span([[0, 1, 0], [0, 0, 1]])
    assert A.intersection(B) == span([[0, 1, 0]])
    assert A.sum(B).dim == 3
    assert A.intersection(span([[0, 0, 1]])).dim == 0


def test_number_field_sqrt5():
    s5 = sympy.sqrt(5)
    S = span([[1, s5], [s5, 5]])  # second = sqrt5 * first
    assert isinstance(S, FieldSubspace) and S.dim == 1
    assert str(S.field) == "QQ<sqrt(5)>"
    assert S.contains([2, 2 * s5]) and not S.contains([1, 0])
    assert sympy.simplify(S.coordinates([s5, 5])[0] - s5) == 0
    T = span([[1, 0], [0, 1]], field=S.field)
    assert T.intersection(S) == S


def test_detect_field():
    assert detect_field([1, Fraction(1, 2), sympy.Rational(3)]) == "QQ"
    assert detect_field([1, 0.5]) == "RR"
    assert str(detect_field([sympy.sqrt(5)])) == "QQ<sqrt(5)>"
    with pytest.raises(ValueError, match="NaN"):
        detect_field([float("nan")])
    with pytest.raises(TypeError):
        detect_field(["abc"])


def test_bad_input():
    with pytest.raises(ValueError, match="ragged"):
        span([[1, 2], [1]])
    with pytest.raises(ValueError, match="NaN|infinite"):
        span([[1.0, float("inf")]])
    with pytest.raises(ValueError, match="ambient_dim"):
        span([])
    with pytest.raises(ValueError, match="length"):
        span([[1, 2]]).contains([1, 2, 3])
    with pytest.raises(ValueError, match="tol"):
        float_rank([[1.0]], tol=2.0)


def test_solve_and_nullspace():
    assert solve([[2, 1], [1, 3]], [3, 5]) == [Fraction(4, 5), Fraction(7, 5)]
    with pytest.raises(ValueError, match="inconsistent"):
        solve([[1, 1], [2, 2]], [1, 3])
    ker = nullspace([[1, 1, 1]])
    assert len(ker) == 2
    for v in ker:
        assert sum(v) == 0


def test_float_rank_normalises_rows():
    # rows of wildly different scale, rank 2; numpy's default tolerance would be dominated by 1e12
    M = np.array([[1e12, 0, 0], [0, 1e-8, 0], [2e12, 0, 0]])
    r = float_rank(M, tol=1e-9)
    assert r.rank == 2 and r.tol == 1e-9
    assert np.linalg.matrix_rank(M) == 1  # what the unnormalised default would say


def test_float_subspace_records_margin():
    S = span([[1.0, 0, 0], [0, 1e-7, 0], [1.0, 1e-7, 0]], tol=1e-9)
    assert isinstance(S, FloatSubspace) and S.dim == 2
    assert S.min_kept > 1e-3 and S.max_dropped < 1e-12


def test_exact_matmul_overflow_guard():
    a = np.array([[2 ** 40, 1]], dtype=np.int64)
    b = np.array([[2 ** 40], [1]], dtype=np.int64)
    out = exact_matmul(a, b)
    assert int(out[0, 0]) == 2 ** 80 + 1


def test_independent_rows_greedy():
    basis = np.array([[1, 0, 0]], dtype=np.int64)
    cand = np.array([[2, 0, 0], [0, 1, 0], [1, 1, 0], [0, 0, 5]], dtype=np.int64)
    assert independent_rows(basis, cand) == [1, 3]


@settings(max_examples=30, deadline=None)
@given(st.lists(st.lists(st.integers(-4, 4), min_size=5, max_size=5), min_size=1, max_size=7),
       st.integers(0, 2 ** 32 - 1))
def test_rank_matches_sympy_and_is_invariant(rows, seed):
    S = span(rows)
    assert S.dim == sympy.Matrix(rows).rank()
    # invertible change of coordinates preserves rank
    rng = np.random.default_rng(seed)
    while True:
        P = rng.integers(-2, 3, (5, 5))
        if round(np.linalg.det(P)) != 0:
            break
    assert rank((np.array(rows) @ P).tolist()) == S.dim
    # every input row is in the span; coordinates reproduce it
    for r in rows:
        c = S.coordinates(r)
        rec = [sum(ci * b[j] for ci, b in zip(c, S.basis)) for j in range(5)]
        assert rec == [Fraction(x) for x in r]


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2 ** 32 - 1))
def test_float_rank_agrees_with_exact_on_well_conditioned(seed):
    rng = np.random.default_rng(seed)
    A = rng.integers(-3, 4, (4, 6))
    B = rng.integers(-3, 4, (3, 4))
    M = np.concatenate([A, B @ A])  # rank <= 4
    scales = 10.0 ** rng.uniform(-6, 6, M.shape[0])
    assert float_rank(M * scales[:, None], tol=1e-9).rank == span(M.tolist()).dim

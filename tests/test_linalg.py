"""Tests for seqtheory.theory.linalg: exact (Q, Q(sqrt5)) and float subspaces."""
from fractions import Fraction

import numpy as np
import pytest
import sympy
from hypothesis import given, settings, strategies as st

from seqtheory.theory.linalg import (FieldSubspace, FloatSubspace, NumericalRankError,
                                     RationalSubspace, detect_field,
                                     exact_matmul, float_rank, independent_rows, nullspace, rank,
                                     solve, span, zero_subspace)


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


# ============================================================================ adversarial review
# Regression tests for defects found by an adversarial review (each input below once gave a wrong
# answer or an unhelpful internal error).

@pytest.mark.parametrize("s", [1e-300, 1e-200, 1e200, 1e300])
def test_float_rank_of_extreme_scales(s):
    """Row norms once under/overflowed (||(1e-300, 0)|| = 0, ||(1e300, 1e300)|| = inf), so
    these full-rank matrices had rank 0."""
    assert rank([[s, 0.0], [0.0, s]]) == 2
    assert rank([[s, s], [s, -s]]) == 2
    assert rank([[s, s], [2 * s, 2 * s]]) == 1
    assert float_rank([[s, s], [s, -s]]).rank == 2


def test_float_membership_at_huge_scale():
    """The residual test once compared inf with inf and accepted any vector."""
    S = span([[1e300, 0.0, 0.0]])
    assert not S.contains([0.0, 1e300, 0.0])
    with pytest.raises(ValueError, match="not in the subspace"):
        S.coordinates([1e300, 1e300, 0.0])
    assert S.contains([-1e300, 0.0, 0.0])


def test_exact_paths_reject_floats():
    """0.1 was silently read as 3602879701896397/36028797018963968, so (0.1, 0.3) was 'not in'
    span{(1, 3)} over Q; exact routines now refuse floats instead of giving that answer."""
    S = span([[1, 3]])
    for bad in ([0.1, 0.3], [Fraction(1, 10), np.float64(0.3)], [sympy.Float(0.1), 3]):
        with pytest.raises(TypeError, match="float"):
            S.contains(bad)
    with pytest.raises(TypeError, match="float"):
        span([[0.1, 2]], field="QQ")
    with pytest.raises(TypeError, match="A: .*float"):
        nullspace([[0.5, 1]])
    with pytest.raises(TypeError, match="float"):
        solve([[2]], [0.5])
    assert S.contains([Fraction(1, 10), Fraction(3, 10)])


@pytest.mark.parametrize("A, exc, msg", [
    ([[True, 1]], TypeError, "boolean"),
    ([[float("nan"), 1]], ValueError, "NaN"),
    ([[sympy.sqrt(5), 1]], TypeError, "not rational"),
    ([["1", 1]], TypeError, "string"),
    ([[1j, 1]], TypeError, "complex"),
    ([[1, 2], [3]], ValueError, "ragged"),
    ([], ValueError, "empty"),
    (5, TypeError, "2-D"),
    ([1, 2], TypeError, "2-D"),
])
def test_nullspace_bad_input_names_the_argument(A, exc, msg):
    with pytest.raises(exc, match=msg):
        nullspace(A)


def test_solve_bad_vector():
    with pytest.raises(TypeError, match="flat"):
        solve([[1]], [[1]])
    with pytest.raises(ValueError, match="NaN"):
        solve([[1]], [float("nan")])
    with pytest.raises(TypeError, match="b must be"):
        solve([[1]], 1)


@pytest.mark.parametrize("field", ["ZZ", "CC", 3, sympy.ZZ])
def test_unknown_field_is_rejected(field):
    with pytest.raises(ValueError, match="field"):
        span([[1, 2]], field=field)
    with pytest.raises(ValueError, match="field"):
        zero_subspace(2, field=field)


def test_complex_floats_and_bools_are_rejected_with_names():
    with pytest.raises(TypeError, match="complex"):
        span([[1j, 1.0]])
    with pytest.raises(ValueError, match="ambient_dim"):
        zero_subspace(True)
    with pytest.raises(TypeError, match="vectors must be a 2-D"):
        span(None)
    # exact Gaussian rationals stay supported
    assert rank([[sympy.I, 1], [-1, sympy.I]]) == 1


def test_float_decisions_are_consistent():
    """contains() used an absolute 10*tol residual test while extend() used the singular-value
    rule, so (1, 1, 5e-9) was 'in' span{e1, e2} although adding it raised the dimension; the
    intersection used cos > 1 - tol (angles up to ~sqrt(2 tol)), so two lines at angle 1e-6
    had a 1-dimensional intersection and a 2-dimensional sum."""
    S = span([[1.0, 0, 0], [0, 1.0, 0]])
    for w in ([1, 1, 5e-9], [1, 1, 1e-17], [3, -2, 1e-3]):
        assert S.contains(w) == (S.extend([w]).dim == S.dim)
    # a genuine component below the tolerance (1e-12 >> rounding) is no longer dropped silently:
    # both decisions refuse it the same way
    for call in (lambda: S.contains([1, 1, 1e-12]), lambda: S.extend([[1, 1, 1e-12]])):
        with pytest.raises(NumericalRankError, match="vectors: .*genuine"):
            call()
    A, B = span([[1.0, 0, 0]]), span([[1.0, 1e-6, 0]])
    assert A.sum(B).dim == 2 and A.intersection(B).dim == 0
    C, D = span([[1.0, 0, 0], [0, 1.0, 0]]), span([[0, 1.0, 0], [0, 0, 1.0]])
    assert C.intersection(D).dim == 1 and C.intersection(D).contains([0, 2.0, 0])
    assert C.dim + D.dim - C.intersection(D).dim == C.sum(D).dim


def test_float_path_overflowing_int_is_a_clear_error():
    """An int beyond float64 range mixed with floats raised OverflowError from float()."""
    with pytest.raises(ValueError, match="too large"):
        span([[10 ** 400, 1.0]])
    assert rank([[10 ** 400, 1]]) == 1  # all exact: the exact path handles it

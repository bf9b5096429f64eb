"""SPEC §4 oracles and API tests for seqtheory.theory.lie.LieAlgebra (exact and float paths)."""
import math
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest
import sympy

from seqtheory.theory.lie import LieAlgebra, LieSeries
from seqtheory.theory.lie_named import (b, diagonal, elementary as E, gl, heisenberg, n_upper, sl,
                                        so, strictly_upper)


# ---------------------------------------------------------------- SPEC §4 oracles (exact)
def test_bracket_convention():
    L = gl(2)
    A, B = E(2, 0, 1), E(2, 1, 0)
    assert (L.bracket(A, B) == A @ B - B @ A).all()  # [A,B] = AB - BA


def test_span_E11_E12_E22():
    L = LieAlgebra.spanned_by([E(2, 0, 0), E(2, 0, 1), E(2, 1, 1)])
    ds, lcs = L.derived_series(), L.lower_central_series()
    assert ds.dims == (3, 1, 0) and not ds.stabilised
    assert lcs.dims == (3, 1) and lcs.stabilised
    assert L.derived_length == 2 and L.nilpotency_class is None
    assert L.is_solvable and not L.is_nilpotent


def test_heisenberg():
    H = LieAlgebra.spanned_by([E(3, 0, 1), E(3, 1, 2), E(3, 0, 2)])
    assert H.derived_series().dims == (3, 1, 0)
    assert H.lower_central_series().dims == (3, 1, 0)
    assert H.nilpotency_class == 2 and H.derived_length == 2
    assert H.center().dim == 1 and H.upper_central_series().dims == (0, 1, 3)
    assert H == heisenberg(1)


@pytest.mark.parametrize("n", range(2, 9))
def test_strictly_upper_closed_forms(n):
    N = strictly_upper(n)
    assert N.dim == n * (n - 1) // 2
    assert N.derived_length == math.ceil(math.log2(n))
    assert N.nilpotency_class == n - 1
    assert N.upper_central_series().dims[-1] == N.dim  # nilpotent: reaches g


@pytest.mark.parametrize("n", range(1, 9))
def test_upper_triangular_closed_forms(n):
    B = b(n)
    assert B.derived_length == math.ceil(math.log2(n)) + 1
    assert B.nilpotency_class == (1 if n == 1 else None)


def test_sl2_so3_perfect_gl2():
    for L in (sl(2), so(3)):
        assert L.dim == 3 and L.is_perfect and L.derived_length is None
        assert L.derived_series().stabilised and L.derived_series().dims == (3,)
        assert L.is_semisimple and L.center().dim == 0
    g = gl(2)
    ds = g.derived_series()
    assert ds.dims == (4, 3) and ds.stabilised
    assert ds[-1] == sl(2)
    assert g.derived_length is None and not g.is_semisimple and g.center().dim == 1


def test_zero_and_abelian_conventions():
    Z = strictly_upper(1)
    assert Z.dim == 0 and Z.derived_length == 0 and Z.nilpotency_class == 0
    D = diagonal(4)
    assert D.derived_length == 1 and D.nilpotency_class == 1 and D.is_abelian
    assert not D.is_perfect and D.center() == D


def test_killing_form_sl2():
    L = LieAlgebra.spanned_by([E(2, 0, 1), E(2, 1, 0), E(2, 0, 0) - E(2, 1, 1)])
    K = L.killing_form()
    # known: K(x, y) = 4 tr(xy) on sl2
    for i, x in enumerate(L.basis):
        for j, y in enumerate(L.basis):
            xm = np.array(x, dtype=object)
            ym = np.array(y, dtype=object)
            assert K[i, j] == 4 * sum((xm @ ym)[t, t] for t in range(2))


def test_generated_by_closure_sl3_and_gl():
    L = LieAlgebra.generated_by([E(3, 0, 1), E(3, 1, 2), E(3, 1, 0), E(3, 2, 1)])
    assert L == sl(3) and L.dim == 8 and L.is_semisimple
    rng = np.random.default_rng(1)
    G = LieAlgebra.generated_by([rng.integers(-3, 4, (4, 4)) for _ in range(2)])
    assert G.dim in (15, 16)  # generic pairs generate sl4 or gl4
    assert G.derived_series().dims[-1] == 15


def test_ideal_and_subalgebra():
    g = gl(3)
    I = g.ideal_generated_by([E(3, 0, 1)])
    assert I == sl(3)
    S = g.subalgebra_generated_by([E(3, 0, 1), E(3, 1, 2)])
    assert S.dim == 3 and S.nilpotency_class == 2
    with pytest.raises(ValueError, match="not in the Lie algebra"):
        sl(3).subalgebra_generated_by([np.eye(3, dtype=int)])


def test_number_field_sqrt5():
    s5 = sympy.sqrt(5)
    L = LieAlgebra.generated_by([sympy.Matrix([[1, s5], [0, -1]]), sympy.Matrix([[0, 0], [s5, 0]])])
    assert str(L.field) == "QQ<sqrt(5)>" and L.dim == 3 and L.is_perfect and L.is_semisimple
    T = LieAlgebra.generated_by([sympy.Matrix([[1, s5], [0, 0]]), sympy.Matrix([[0, 1 + s5], [0, 0]])])
    assert T.derived_series().dims == (2, 1, 0)


# ---------------------------------------------------------------- structure constants
def _sl2_constants():
    # basis e, f, h: [e,f] = h, [h,e] = 2e, [h,f] = -2f
    c = [[[0] * 3 for _ in range(3)] for _ in range(3)]
    c[0][1][2], c[1][0][2] = 1, -1
    c[2][0][0], c[0][2][0] = 2, -2
    c[2][1][1], c[1][2][1] = -2, 2
    return c


def test_structure_constants_sl2_matches_matrix_version():
    L = LieAlgebra.from_structure_constants(_sl2_constants())
    M = sl(2)
    assert L.dim == M.dim == 3
    assert L.derived_series().dims == M.derived_series().dims
    assert L.is_perfect and L.is_semisimple and L.center().dim == 0
    assert list(L.bracket([1, 0, 0], [0, 1, 0])) == [0, 0, 1]
    # structure constants of the matrix version reproduce the bracket exactly
    C = M.structure_constants()
    B = [np.array(x, dtype=object) for x in M.basis]
    for i in range(3):
        for j in range(3):
            lhs = B[i] @ B[j] - B[j] @ B[i]
            rhs = sum(C[i, j, k] * B[k] for k in range(3))
            assert (lhs == rhs).all()


def test_structure_constants_sparse_dict_heisenberg():
    H = LieAlgebra.from_structure_constants({(0, 1): {2: 1}}, dim=3)
    assert H.derived_series().dims == (3, 1, 0) and H.nilpotency_class == 2
    assert H.killing_form().tolist() == [[0] * 3] * 3
    # rational constants
    Hq = LieAlgebra.from_structure_constants({(0, 1): {2: Fraction(1, 3)}}, dim=3)
    assert list(Hq.bracket([1, 0, 0], [0, 1, 0])) == [0, 0, Fraction(1, 3)]


def test_structure_constants_bad_input():
    c = _sl2_constants()
    c[0][1][2] = 2  # no longer antisymmetric
    with pytest.raises(ValueError, match="antisymmetry"):
        LieAlgebra.from_structure_constants(c)
    with pytest.raises(ValueError, match="Jacobi.*triple"):
        # [e0,e1]=e1, [e0,e2]=e1, [e1,e2]=e0 violates Jacobi
        LieAlgebra.from_structure_constants({(0, 1): {1: 1}, (0, 2): {1: 1}, (1, 2): {0: 1}}, dim=3)
    with pytest.raises(ValueError, match="N x N x N"):
        LieAlgebra.from_structure_constants([[[0, 0]], [[0, 0]]])
    with pytest.raises(ValueError, match="dim"):
        LieAlgebra.from_structure_constants({(0, 1): {2: 1}})
    with pytest.raises(ValueError, match="out of range"):
        LieAlgebra.from_structure_constants({(0, 5): {2: 1}}, dim=3)
    with pytest.raises(TypeError, match="float"):
        LieAlgebra.from_structure_constants({(0, 1): {2: 0.5}}, dim=3)
    for entry in ("1/2", sympy.Float(0.5), sympy.I, sympy.Symbol("x")):   # never parsed or guessed
        with pytest.raises(TypeError, match=r"c\[\(0, 1\)\]\[2\]"):
            LieAlgebra.from_structure_constants({(0, 1): {2: entry}}, dim=3)
    H = LieAlgebra.from_structure_constants({(0, 1): {2: Decimal("0.5")}}, dim=3)   # exactly 1/2
    assert list(H.bracket([1, 0, 0], [0, 1, 0])) == [0, 0, Fraction(1, 2)]
    with pytest.raises(ValueError, match=r"\[e_0, e_0\]"):
        LieAlgebra.from_structure_constants({(0, 0): {1: 1}}, dim=2)


# ---------------------------------------------------------------- bad matrix input
def test_bad_matrix_input():
    with pytest.raises(ValueError, match="empty"):
        LieAlgebra.generated_by([])
    with pytest.raises(ValueError, match="square"):
        LieAlgebra.generated_by([np.zeros((2, 3))])
    with pytest.raises(ValueError, match="expected 2x2"):
        LieAlgebra.generated_by([np.eye(2, dtype=int), np.eye(3, dtype=int)])
    with pytest.raises(ValueError, match="NaN|infinite"):
        LieAlgebra.generated_by([np.array([[np.nan, 0], [0, 1]])])
    with pytest.raises(ValueError, match="infinite|NaN"):
        LieAlgebra.generated_by([np.array([[np.inf, 0], [0, 1]])])
    with pytest.raises(ValueError, match="not closed"):
        LieAlgebra.spanned_by([E(2, 0, 1), E(2, 1, 0)])
    with pytest.raises(ValueError, match="one 2-D array"):
        LieAlgebra.generated_by(np.eye(2))
    with pytest.raises(ValueError, match="tol"):
        LieAlgebra.generated_by([np.eye(2)], tol=5.0)


# ---------------------------------------------------------------- float path
def test_float_ill_scaled_sl2_is_perfect():
    H = np.array([[1.0, 0], [0, -1]])
    L = LieAlgebra.generated_by([1e-6 * H, 1.0 * E(2, 0, 1), 1e6 * E(2, 1, 0)], tol=1e-9)
    assert L.field == "RR" and L.tol == 1e-9
    assert L.dim == 3 and L.is_perfect and L.is_semisimple
    assert L.space.min_kept > 1e-3  # clear margin in every rank decision


def test_float_spanned_ill_scaled_basis_perfect():
    H = np.array([[1.0, 0], [0, -1]])
    L = LieAlgebra.spanned_by([1e-6 * H, 1.0 * E(2, 0, 1), 1e6 * E(2, 1, 0)])
    assert L.dim == 3 and L.is_perfect and L.derived_length is None


def test_float_matches_exact_on_named():
    for L in (b(4), strictly_upper(5), heisenberg(2), gl(3)):
        F = LieAlgebra.spanned_by([np.array(x, dtype=float) for x in L.basis])
        assert F.derived_series().dims == L.derived_series().dims
        assert F.lower_central_series().dims == L.lower_central_series().dims
        assert F.upper_central_series().dims == L.upper_central_series().dims
        assert F.is_semisimple == L.is_semisimple


def test_series_type():
    s = b(3).derived_series()
    assert isinstance(s, LieSeries) and all(isinstance(t, LieAlgebra) for t in s)
    assert s[1].is_subalgebra_of(s[0]) and s[2].is_subalgebra_of(s[1])
    assert n_upper is strictly_upper


def test_float_spanned_by_rotated_abelian_has_rounding_noise_only():
    rng = np.random.default_rng(5)
    Q, _ = np.linalg.qr(rng.standard_normal((4, 4)))
    mats = [Q @ np.diag(rng.standard_normal(4)) @ Q.T for _ in range(3)]
    L = LieAlgebra.spanned_by(mats)  # brackets are ~1e-16, not new directions
    assert L.dim == 3 and L.is_abelian and L.derived_length == 1


def test_equality_across_ambients_is_false():
    assert gl(2) != gl(3)
    assert sl(2) != LieAlgebra.from_structure_constants(_sl2_constants())


# ============================================================================ adversarial review
# Regression tests for defects found by an adversarial review.

def _conj_float(A, scales, seed):
    """Float copies of the basis of the exact algebra ``A`` after a random integer change of
    basis P X P^-1, each generator multiplied by its own scale."""
    rng = np.random.default_rng(seed)
    B = [np.array(m, dtype=float) for m in A.basis]
    n = B[0].shape[0]
    P = rng.integers(-3, 4, (n, n)).astype(float) + 9 * np.eye(n)  # diagonally dominant
    Pi = np.linalg.inv(P)
    return [s * (P @ m @ Pi) for m, s in zip(B, scales)]


def _invariants(L):
    return (L.dim, L.derived_series().dims, L.lower_central_series().dims,
            L.upper_central_series().dims, L.is_semisimple, L.center().dim)


@pytest.mark.parametrize("make", [lambda: heisenberg(1), lambda: diagonal(3), lambda: b(3),
                                  lambda: sl(2), lambda: n_upper(4)])
@pytest.mark.parametrize("scale", [1e-150, 1.0, 1e150])
def test_float_path_agrees_with_exact_after_change_of_basis(make, scale):
    """Once: the float upper central series of the Heisenberg algebra in a non-standard basis
    looped forever (rounding-noise rows were normalised into constraints, Z oscillated 1,0,1,..),
    its float Killing form was declared non-degenerate (semisimple!), an abelian algebra had
    centre 0, and generators of size 1e-150 / 1e150 spanned a 0-dimensional algebra."""
    A = make()
    scales = [scale * 10.0 ** k for k in range(-3, 4)][:A.dim] * 3
    F = LieAlgebra.generated_by(_conj_float(A, scales[:A.dim], seed=A.dim))
    assert F.field == "RR"
    assert _invariants(F) == _invariants(A)


@pytest.mark.parametrize("s", [1e-300, 1e-200, 1e200, 1e300])
def test_float_generators_of_extreme_size(s):
    L = LieAlgebra.generated_by([np.array([[0, s], [0, 0]]), np.array([[0, 0], [s, 0]])])
    assert L.dim == 3 and L.is_perfect and L.is_semisimple


def test_exact_algebra_rejects_float_vectors():
    """bracket / contains on an exact algebra once read 0.1 as a binary fraction."""
    g = sl(2)
    with pytest.raises(TypeError, match="u: .*float"):
        g.contains([[0.1, 0], [0, -0.1]])
    with pytest.raises(TypeError, match="float"):
        g.bracket([[0.5, 0], [0, -0.5]], E(2, 0, 1))
    with pytest.raises(TypeError, match="complex"):
        LieAlgebra.generated_by([np.array([[1j, 0], [0, 0]])])
    assert g.contains([[Fraction(1, 10), 0], [0, Fraction(-1, 10)]])


def test_elementary_index_out_of_range():
    """E(2, 5, 0) raised IndexError from numpy and E(2, -1, 0) silently meant E(2, 1, 0)."""
    for i, j in [(5, 0), (-1, 0), (0, 2), (True, 0)]:
        with pytest.raises(ValueError, match=r"\b[ij] must be (an int|in 0\.\.1)"):
            E(2, i, j)


def test_structure_constants_reject_bools():
    with pytest.raises(TypeError, match="bool"):
        LieAlgebra.from_structure_constants(np.zeros((2, 2, 2), dtype=bool))
    with pytest.raises(ValueError, match="dim"):
        LieAlgebra.from_structure_constants({}, dim=True)
    with pytest.raises(ValueError, match="index True"):
        LieAlgebra.from_structure_constants({(True, 0): {0: 1}}, dim=2)


def test_structure_constants_with_huge_pivot_denominators():
    """An abelian algebra whose RREF rows have huge pivots (exact rationals of floats such as
    1.1) once overflowed int64 in the structure constants (all-zero brackets passed the
    overflow guard); found by the float-vs-exact property test."""
    from fractions import Fraction

    d = [np.diag([Fraction(4096.0), Fraction(1.1), Fraction(4096.0)]),
         np.diag([Fraction(1.1), Fraction(1.1), Fraction(4096.0)])]
    L = LieAlgebra.generated_by(d)
    assert L.dim == 2 and L.center().dim == 2 and L.is_abelian
    assert not np.asarray(L.killing_form(), dtype=float).any()

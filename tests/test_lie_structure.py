"""Structure-constant Lie algebras (over Q and Q(sqrt d)), element functions, the adjoint bridge,
radicals, the Levi decomposition, derivations, centralisers, normalisers, quotients and direct
sums (theory/lie_elements.py, lie_radical.py, lie_ideals.py). Expected values are textbook
facts (Humphreys, de Graaf) written out here; the live-GAP comparison is
tests/test_gap_structure.py."""
from fractions import Fraction

import numpy as np
import pytest
import sympy
from hypothesis import example, given, settings, strategies as st

from seqtheory.theory import (LieAlgebra, adjoint_matrix, adjoint_representation, b, centraliser,
                              coordinates, derivations, diagonal, direct_sum_decomposition, gl,
                              heisenberg, is_ad_nilpotent, is_ideal, kappa_perp, killing,
                              killing_radical, levi_decomposition, nilradical, normaliser,
                              quotient, sl, sl_affine, so, solvable_radical, strictly_upper,
                              structure_constant_algebra)
from seqtheory.theory.lie_classification import nilpotent_lie_algebra


def _E(n, i, j):
    m = np.zeros((n, n), dtype=np.int64)
    m[i, j] = 1
    return m


# ------------------------------------------------------------------ structure constants
def test_number_field_structure_constants():
    r = sympy.sqrt(2)
    # sl2 with [e, f] = sqrt2 h: over Q(sqrt 2), semisimple, perfect
    L = LieAlgebra.from_structure_constants({(2, 0): {0: 2}, (2, 1): {1: -2}, (0, 1): {2: r}},
                                            dim=3)
    assert str(L.field) == "QQ<sqrt(2)>"
    assert L.is_semisimple and L.is_perfect and L.center().dim == 0
    assert list(L.bracket([1, 0, 0], [0, 1, 0])) == [0, 0, r]
    B = LieAlgebra.from_structure_constants({(0, 1): {1: r}}, dim=2)
    assert B.derived_series().dims == (2, 1, 0) and B.is_solvable and not B.is_nilpotent
    with pytest.raises(ValueError, match=r"Jacobi identity for the triple \(e_0, e_1, e_2\)"):
        LieAlgebra.from_structure_constants({(0, 1): {1: r}, (0, 2): {1: 1}, (1, 2): {0: 1}},
                                            dim=3)
    with pytest.raises(ValueError, match="antisymmetry"):
        LieAlgebra.from_structure_constants({(0, 1): {1: r}, (1, 0): {1: r}}, dim=2)
    with pytest.raises(TypeError, match="neither rational nor a real algebraic"):
        LieAlgebra.from_structure_constants({(0, 1): {1: sympy.pi}}, dim=2)
    with pytest.raises(TypeError, match="irrational, but field is QQ"):
        LieAlgebra.from_structure_constants({(0, 1): {1: r}}, dim=2, field="QQ")


def test_field_argument_keeps_the_number_field():
    r = sympy.sqrt(3)
    L = LieAlgebra.generated_by([[[0, r], [0, 0]], [[0, 0], [r, 0]]])
    S = structure_constant_algebra(L)
    assert S.field == L.field and S.dim == 3 and S.is_semisimple
    with pytest.raises(TypeError, match="does not lie in the field"):
        LieAlgebra.from_structure_constants({(0, 1): {1: sympy.sqrt(5)}}, dim=2, field=L.field)


def _random_matrix_algebra(seed: int):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 4))
    kind = rng.integers(0, 3)
    gens = []
    for _ in range(2):
        M = rng.integers(-2, 3, (n, n))
        gens.append(np.triu(M, int(kind == 2)) if kind else M)
    gens[0][0, n - 1] = 1
    return LieAlgebra.generated_by(gens)


def _invariants(L):
    return (L.dim, L.derived_series().dims, L.lower_central_series().dims,
            L.upper_central_series().dims, L.center().dim, L.is_semisimple)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2 ** 32 - 1))
@example(7)
def test_structure_constant_copy_has_the_same_invariants(seed):
    """The abstract algebra of a matrix algebra's structure constants answers every series and
    invariant as the matrix algebra does, with the same Killing matrix in the same basis; when
    the centre is 0 the adjoint representation is a faithful matrix copy."""
    L = _random_matrix_algebra(seed)
    S = structure_constant_algebra(L)
    assert _invariants(S) == _invariants(L)
    assert (S.killing_form() == L.killing_form()).all()
    A = adjoint_representation(L)
    assert A.dim == L.dim - L.center().dim
    if L.center().dim == 0:
        assert _invariants(A) == _invariants(L)


# ------------------------------------------------------------------ elements
def test_adjoint_matrix_killing_and_ad_nilpotent_on_sl2():
    """Humphreys §1.3, §5: ad h = diag(0, 2, -2) on (h, x, y); κ(h, h) = 8, κ(x, y) = 4; x is
    ad-nilpotent, h is not. In sl(n): κ(a, b) = 2n tr(ab)."""
    L = sl(2)
    h, x, y = [[1, 0], [0, -1]], [[0, 1], [0, 0]], [[0, 0], [1, 0]]
    assert [list(B.ravel()) for B in L.basis] == [[1, 0, 0, -1], [0, 1, 0, 0], [0, 0, 1, 0]]
    assert adjoint_matrix(L, h).tolist() == [[0, 0, 0], [0, 2, 0], [0, 0, -2]]
    assert killing(L, h, h) == 8 and killing(L, x, y) == 4 and killing(L, x, x) == 0
    assert is_ad_nilpotent(L, x) and not is_ad_nilpotent(L, h)
    a, c = np.array([[1, 2, 0], [0, 0, 1], [3, 0, -1]]), np.array([[0, 1, 1], [1, 2, 0], [0, 5, -2]])
    assert killing(sl(3), a, c) == 6 * int(np.trace(a @ c))
    assert coordinates(b(2), [[1, 2], [0, 3]]) == [1, 2, 3]
    with pytest.raises(ValueError, match="not an element"):
        coordinates(strictly_upper(3), np.eye(3, dtype=int))
    with pytest.raises(ValueError, match="exact"):
        adjoint_matrix(LieAlgebra.generated_by([np.eye(2) * 0.5, [[0.0, 1.0], [0.0, 0.0]]]),
                       [[0.0, 1.0], [0.0, 0.0]])


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 2 ** 32 - 1))
def test_adjoint_is_a_homomorphism(seed):
    """ad [u, v] = [ad u, ad v] (Jacobi), on random elements of a random algebra."""
    L = _random_matrix_algebra(seed)
    rng = np.random.default_rng(seed + 1)
    B = L.basis
    u = sum(int(c) * m for c, m in zip(rng.integers(-2, 3, len(B)), B))
    v = sum(int(c) * m for c, m in zip(rng.integers(-2, 3, len(B)), B))
    Au, Av = adjoint_matrix(L, u), adjoint_matrix(L, v)
    assert (adjoint_matrix(L, L.bracket(u, v)) == Au.dot(Av) - Av.dot(Au)).all()


# ------------------------------------------------------------------ radicals, Levi, derivations
def test_radicals_of_textbook_algebras():
    """gl(n) = sl(n) ⊕ scalars: radical = nilradical = Killing radical = scalars; b(n): radical
    b(n), nilradical n(n) ⊕ scalars; semisimple algebras have zero radicals; nilpotent algebras
    are their own nilradical (de Graaf Ch. 2; Humphreys §3-§5)."""
    assert [solvable_radical(gl(3)).dim, nilradical(gl(3)).dim, killing_radical(gl(3)).dim] == \
        [1, 1, 1]
    assert solvable_radical(gl(3)) == gl(3).center()
    assert [solvable_radical(b(3)).dim, nilradical(b(3)).dim] == [6, 4]
    assert nilradical(b(3)).is_nilpotent and is_ideal(b(3), nilradical(b(3)))
    assert [solvable_radical(sl(3)).dim, nilradical(sl(3)).dim, killing_radical(sl(3)).dim] == \
        [0, 0, 0]
    H = heisenberg(2)
    assert solvable_radical(H) == H and nilradical(H) == H and killing_radical(H) == H
    A = sl_affine(2)
    assert [solvable_radical(A).dim, nilradical(A).dim, killing_radical(A).dim] == [2, 2, 2]
    with pytest.raises(ValueError, match="not a subalgebra"):
        kappa_perp(sl(2), b(2))


def test_levi_decomposition():
    for L, (s, r) in ((gl(3), (8, 1)), (b(3), (0, 6)), (sl(3), (8, 0)), (sl_affine(2), (3, 2))):
        D = levi_decomposition(L)
        levi, rad = D
        assert (levi.dim, rad.dim) == (s, r)
        assert levi.is_semisimple and rad.is_solvable
        assert levi.is_subalgebra_of(L) and is_ideal(L, rad)
        assert L.from_coordinates(  # levi + radical spans L
            [coordinates(L, x) for x in levi.basis + rad.basis]).dim == L.dim


def test_levi_subalgebra_found_in_a_twisted_basis():
    """sl(2) ⋉ Q^2 in a basis where the standard sl2 is not spanned by basis elements (each
    Levi basis element shifted into the radical): the lifts must be corrected."""
    A = sl_affine(2)
    S = structure_constant_algebra(A)
    Tw = LieAlgebra.spanned_by([_E(3, 0, 1) + _E(3, 0, 2), _E(3, 1, 0) + 2 * _E(3, 1, 2),
                                _E(3, 0, 0) - _E(3, 1, 1) - _E(3, 0, 2), _E(3, 0, 2),
                                _E(3, 1, 2)])
    for L in (S, structure_constant_algebra(Tw)):
        levi, rad = levi_decomposition(L)
        assert levi.dim == 3 and levi.is_semisimple and rad.dim == 2


def test_derivations_of_textbook_algebras():
    """Der(sl2) = ad(sl2) (dim 3: semisimple algebras have only inner derivations); Der of the
    3-dimensional Heisenberg algebra has dim 6; Der(gl2) = ad(gl2) + Hom(gl2/sl2, centre), dim 4;
    Der of the abelian Q^n is gl(n) (Humphreys §5.3 for the semisimple case)."""
    assert derivations(sl(2)).dim == 3
    assert derivations(heisenberg(1)).dim == 6
    assert derivations(gl(2)).dim == 4
    assert derivations(diagonal(3)).dim == 9
    D = derivations(heisenberg(1))
    assert D.ambient_kind == "matrix" and D.matrix_size == 3
    assert adjoint_representation(heisenberg(1)).is_subalgebra_of(D)


# ------------------------------------------------------------------ ideals
def test_centraliser_normaliser_quotient():
    L = sl(3)
    h = LieAlgebra.spanned_by([_E(3, 0, 0) - _E(3, 1, 1), _E(3, 1, 1) - _E(3, 2, 2)])
    assert centraliser(L, h) == h                 # a Cartan subalgebra is self-centralising
    assert normaliser(L, h) == h
    assert normaliser(gl(3), b(3)) == b(3) and centraliser(gl(3), gl(3)).dim == 1
    N = nilpotent_lie_algebra(4, 3)               # [x1,x2]=x3, [x1,x3]=x4
    x2 = N.from_coordinates([[0, 1, 0, 0]])
    assert normaliser(N, x2).dim == 3 and centraliser(N, x2).dim == 3
    Q = quotient(b(3), b(3).derived_algebra())
    assert Q.algebra.dim == 3 and Q.algebra.is_abelian
    assert list(Q.project([[1, 2, 3], [0, 4, 5], [0, 0, 6]])) == [1, 4, 6]
    assert list(Q.project(Q.lift([7, 8, 9]))) == [7, 8, 9]
    H = quotient(heisenberg(1), heisenberg(1).center())
    assert H.algebra.dim == 2 and H.algebra.is_abelian
    with pytest.raises(ValueError, match="not an ideal"):
        quotient(sl(3), h)


def test_quotient_projection_is_a_homomorphism():
    L = nilpotent_lie_algebra(5, 6)
    I = L.lower_central_series()[2]
    Q = quotient(L, I)
    rng = np.random.default_rng(3)
    for _ in range(5):
        u, v = rng.integers(-3, 4, 5), rng.integers(-3, 4, 5)
        assert list(Q.project(L.bracket(u, v))) == \
            list(Q.algebra.bracket(Q.project(u), Q.project(v)))


def test_direct_sum_decomposition():
    """Dimensions of the indecomposable summands (unique by Krull-Schmidt): gl(3) = sl3 ⊕ Q,
    so(4) = sl2 ⊕ sl2, an abelian Q^3 = Q ⊕ Q ⊕ Q, the indecomposable Heisenberg algebra and
    sl3, b(3) = Q·1 ⊕ (its 5-dimensional rest)."""
    dims = lambda L: sorted(I.dim for I in direct_sum_decomposition(L))   # noqa: E731
    assert dims(gl(3)) == [1, 8] and dims(so(4)) == [3, 3] and dims(diagonal(3)) == [1, 1, 1]
    assert dims(heisenberg(1)) == [3] and dims(sl(3)) == [8] and dims(b(3)) == [1, 5]
    parts = direct_sum_decomposition(so(4))
    assert all(p.is_semisimple and is_ideal(so(4), p) for p in parts)
    assert parts[0].bracket_space(parts[1]).dim == 0


@pytest.mark.parametrize("flag", ["", 0, None, "False", 1])
def test_structure_constant_check_flag_must_be_a_bool(flag):
    """'' / 0 / None once skipped validation silently: a bracket failing Jacobi got derived
    length 3."""
    bad = {(0, 1): {2: 1}, (1, 2): {0: 1}, (0, 2): {0: 1}}
    with pytest.raises(TypeError, match="check must be True or False"):
        LieAlgebra.from_structure_constants(bad, check=flag)
    with pytest.raises(ValueError):
        LieAlgebra.from_structure_constants(bad, check=True)

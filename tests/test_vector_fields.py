"""Polynomial vector fields: bracket convention, Lie identities (hypothesis), exact generated
algebras and derived series, bad input; polynomial cascades of [DEPTH] Prop. 3.3."""
from fractions import Fraction

import pytest
import sympy
from hypothesis import given, settings, strategies as st

from seqtheory.theory.polynomial_cascades import (affine_pair_fields, derived_length_k_cascade,
                                                  random_polynomial_cascade)
from seqtheory.theory.vector_fields import PolyVectorField, generated_algebra

h1, h2 = sympy.symbols("h1 h2")
V = [h1, h2]


def vf(*components):
    return PolyVectorField.from_sympy(list(components), V)


def test_bracket_convention_matches_derivations():
    """[X, Y] f = X(Y f) - Y(X f) on a test polynomial."""
    X, Y = vf(h2, h1 ** 2), vf(1 + h1 * h2, h1)
    f = h1 ** 3 * h2 + 2 * h2 ** 2

    def act(F, g):
        return sum(c * sympy.diff(g, v) for c, v in zip(F.to_sympy(V), V))

    lhs = act(X.bracket(Y), f)
    assert sympy.expand(lhs - (act(X, act(Y, f)) - act(Y, act(X, f)))) == 0


def test_linear_fields_bracket_is_minus_matrix_commutator():
    A, B = sympy.Matrix([[1, 2], [0, 3]]), sympy.Matrix([[0, 1], [1, 0]])
    hv = sympy.Matrix(V)
    X, Y = vf(*(A * hv)), vf(*(B * hv))
    want = -(A * B - B * A) * hv
    assert [sympy.expand(e) for e in X.bracket(Y).to_sympy(V)] == [sympy.expand(e) for e in want]


_coef = st.integers(-3, 3)
_mono = st.tuples(st.integers(0, 2), st.integers(0, 2))
_field = st.dictionaries(st.tuples(st.integers(0, 1), _mono), _coef, max_size=4).map(
    lambda d: PolyVectorField(2, d))


@settings(max_examples=40, deadline=None)
@given(_field, _field, _field)
def test_antisymmetry_and_jacobi(X, Y, Z):
    assert (X.bracket(Y) + Y.bracket(X)).is_zero()
    jac = X.bracket(Y.bracket(Z)) + Y.bracket(Z.bracket(X)) + Z.bracket(X.bracket(Y))
    assert jac.is_zero()


_qcoef = st.fractions(min_value=-3, max_value=3, max_denominator=5)
_qfield = st.dictionaries(st.tuples(st.integers(0, 1), _mono), _qcoef, max_size=4).map(
    lambda d: PolyVectorField(2, d))


def _sympy_bracket(X, Y):
    """``[X, Y]_i = sum_j (X_j dY_i/dh_j - Y_j dX_i/dh_j)`` computed by sympy (the oracle)."""
    x, y = X.to_sympy(V), Y.to_sympy(V)
    return [sympy.expand(sum(x[j] * sympy.diff(y[i], V[j]) - y[j] * sympy.diff(x[i], V[j])
                             for j in range(2))) for i in range(2)]


@settings(max_examples=40, deadline=None)
@given(_qfield, _qfield)
def test_bracket_and_apply_agree_with_sympy_over_q(X, Y):
    """The exact bracket (computed in python-flint) is sympy's, with ``Fraction`` coefficients,
    and ``apply`` is sympy's derivative along the field."""
    Z = X.bracket(Y)
    assert [sympy.expand(e) for e in Z.to_sympy(V)] == _sympy_bracket(X, Y)
    assert all(type(c) is Fraction and c for c in Z.terms.values())
    f = {(2, 1): Fraction(1, 3), (0, 3): Fraction(-2, 7), (1, 0): Fraction(5)}
    g = sum(c * h1 ** a * h2 ** b for (a, b), c in f.items())
    got = sum(c * h1 ** a * h2 ** b for (a, b), c in X.apply(f).items())
    want = sum(c * sympy.diff(g, v) for c, v in zip(X.to_sympy(V), V))
    assert sympy.expand(got - want) == 0


def test_generated_algebras_exact():
    d1, d2 = vf(1, 0), vf(0, 1)
    assert generated_algebra([d1, vf(0, h1)]).derived_series() == [3, 1, 0]   # Heisenberg
    sl2 = generated_algebra([vf(1, 0), vf(h1 ** 2, 0)])
    assert sl2.dim == 3 and sl2.derived_series() == [3] and sl2.derived_length is None
    ab = generated_algebra([d1, d2])
    assert ab.is_abelian() and ab.derived_length == 1
    big = generated_algebra([vf(h1, 0), vf(0, h1 * h2), vf(0, 1)], max_dim=10)
    assert not big.finite
    with pytest.raises(ValueError, match="max_dim"):
        big.derived_series()


def test_affine_pair_does_not_commute():
    X, Y = affine_pair_fields()
    assert X.bracket(Y) == PolyVectorField(1, {(0, (0,)): -1})
    assert generated_algebra([X, Y]).derived_series() == [2, 1, 0]


@pytest.mark.parametrize("k,dims", [(1, [1, 0]), (2, [4, 2, 0]), (3, [10, 8, 3, 0]),
                                    (4, [34, 32, 21, 5, 0])])
def test_explicit_cascade_has_derived_length_k(k, dims):
    A = derived_length_k_cascade(k).lie_algebra()
    assert A.derived_series() == dims and A.derived_length == k


def test_abelian_polynomial_layers_commute_within_a_layer():
    """Fields of one abelian layer (fixed lower state) commute: the layer-1 parts of any two
    token fields commute, and [g, g] has no layer-1 component."""
    pc = random_polynomial_cascade(2, 3, layer="abelian", seed=5)
    A = pc.lie_algebra()
    for a in range(len(pc.fields)):
        for b in range(a + 1, len(pc.fields)):
            Z = pc.fields[a].bracket(pc.fields[b])
            assert not Z.component(0) and not Z.component(1)
    assert A.finite and A.derived_length <= 2


@settings(max_examples=8, deadline=None)
@given(st.integers(0, 10 ** 6), st.integers(1, 2), st.sampled_from(["abelian", "restricted"]))
def test_random_polynomial_cascades_respect_bounds(seed, k, layer):
    A = random_polynomial_cascade(k, layer=layer, seed=seed).lie_algebra(max_dim=80)
    assert A.finite
    dl = A.derived_length
    assert dl is not None and dl <= (k if layer == "abelian" else k + 1)


def test_bad_input():
    with pytest.raises(ValueError, match="n must be"):
        PolyVectorField(0)
    with pytest.raises(ValueError, match="component"):
        PolyVectorField(1, {(1, (0,)): 1})
    with pytest.raises(ValueError, match="monomial"):
        PolyVectorField(1, {(0, (-1,)): 1})
    with pytest.raises(TypeError, match="exact"):
        PolyVectorField(1, {(0, (1,)): 0.5})
    with pytest.raises(ValueError, match="cannot be combined"):
        PolyVectorField(1) + PolyVectorField(2)
    with pytest.raises(ValueError, match="empty"):
        generated_algebra([])
    with pytest.raises(ValueError, match="k must be"):
        derived_length_k_cascade(0)
    with pytest.raises(ValueError, match="layer"):
        random_polynomial_cascade(2, layer="diagonal")
    with pytest.raises(ValueError, match="state_dependent_linear"):
        random_polynomial_cascade(2, layer="abelian", state_dependent_linear=True)
    assert PolyVectorField(1, {(0, (1,)): Fraction(1, 2)}).scale(2) == PolyVectorField(1, {(0, (1,)): 1})


@pytest.mark.parametrize("k", [1, 2, 3])
def test_restricted_ladder_reaches_2k(k):
    """Exact lower bound 2k by nested brackets, matched by the symbolic certificate."""
    from seqtheory.theory.polynomial_cascades import (restricted_ladder_cascade,
                                                      restricted_shape_certificate)
    from seqtheory.theory.vector_fields import derived_length_lower_bound

    lb, sizes = derived_length_lower_bound(restricted_ladder_cascade(k).fields, cap=4)
    assert lb == 2 * k and sizes[-1] == 0
    cert = restricted_shape_certificate(k)
    assert cert["holds"] and cert["bound"] == 2 * k


def test_lower_bound_matches_exact_series_on_finite_algebras():
    from seqtheory.theory.vector_fields import derived_length_lower_bound

    for k in (1, 2, 3, 4):
        gens = derived_length_k_cascade(k).fields
        assert derived_length_lower_bound(gens, cap=40)[0] == k
    assert derived_length_lower_bound([vf(1, 0), vf(0, h1)])[0] == 2   # Heisenberg
    assert derived_length_lower_bound([PolyVectorField(2)])[0] == 0


def test_shape_certificate_is_not_vacuous():
    """The shape test rejects what it must: skipping the translation step (S_0 -> S_2, i.e. a
    bound k for restricted layers) fails, and a non-affine layer field is not of shape S_0."""
    import sympy as sp

    from seqtheory.theory import polynomial_cascades as pc

    hs = sp.symbols("h1:3")
    Z = pc._symbolic_bracket(pc._generic_field(pc._shape(0, 2), hs, "a"),
                             pc._generic_field(pc._shape(0, 2), hs, "b"), hs)
    assert not all(pc._shape_ok(z, i, kind, hs) for i, (z, kind) in enumerate(zip(Z, pc._shape(2, 2))))
    assert all(pc._shape_ok(z, i, kind, hs) for i, (z, kind) in enumerate(zip(Z, pc._shape(1, 2))))
    assert not pc._shape_ok(hs[0] ** 2, 0, "affine", hs)
    assert not pc._shape_ok(hs[1], 0, "affine", hs)         # depends on a later layer

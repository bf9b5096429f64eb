"""Permutation groups beyond MAX_ORDER through sympy's Schreier-Sims (theory/perm_groups.py).
Expected values are textbook facts (S_n, A_n, abelian groups) written here; GAP's values for
A8, S8, AbelianGroup([2..10]) and the Rubik cube group are compared live in
tests/test_gap_structure.py. The Cayley-table FiniteGroup is the reference beside it on small
groups."""
import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from seqtheory.theory import FiniteGroup, PermGroup, permutation_group
from seqtheory.theory.groups import MAX_ORDER


def test_symmetric_and_alternating_8():
    S8, A8 = PermGroup.symmetric(8), PermGroup.alternating(8)
    assert S8.order == math.factorial(8) > MAX_ORDER and A8.order == math.factorial(8) // 2
    assert S8.derived_series().orders == (40320, 20160) and S8.derived_series().stabilised
    assert S8.lower_central_series().orders == (40320, 20160)
    assert S8.upper_central_series().orders == (1,) and S8.center().order == 1
    assert not S8.is_solvable and S8.derived_length is None and S8.nilpotency_class is None
    assert A8.is_perfect and A8.abelian_invariants == () and S8.abelian_invariants == (2,)
    assert [H.order for H in S8.composition_series()] == [40320, 20160, 1]
    assert [H.order for H in A8.composition_series()] == [20160, 1]
    assert S8.sylow_subgroup(2).order == 2 ** 7 and S8.sylow_subgroup(7).order == 7
    assert A8.commutator_subgroup().order == A8.order


def test_abelian_group_2_to_10():
    G = PermGroup.abelian(range(2, 11))
    assert G.order == math.factorial(10) and G.is_abelian and G.is_nilpotent
    assert G.derived_series().orders == (3628800, 1) and G.nilpotency_class == 1
    assert G.upper_central_series().orders == (1, 3628800)
    # primary decomposition of C2 x ... x C10
    assert G.abelian_invariants == (2, 2, 2, 3, 3, 4, 5, 5, 7, 8, 9)
    comp = [H.order for H in G.composition_series()]
    factors = sorted(a // b for a, b in zip(comp, comp[1:]))
    assert factors == sorted([2] * 8 + [3] * 4 + [5] * 2 + [7])


def test_rubik_order_and_centre():
    R = PermGroup.rubik()
    assert R.order == 43252003274489856000 and R.degree == 48
    assert R.center().order == 2 and R.abelian_invariants == (2,)


@pytest.mark.slow
def test_rubik_series_and_composition():
    R = PermGroup.rubik()
    assert R.derived_series().orders == (43252003274489856000, 21626001637244928000)
    assert R.upper_central_series().orders == (1, 2)
    comp = [H.order for H in R.composition_series()]
    factors = sorted(a // b for a, b in zip(comp, comp[1:]))
    assert factors == sorted([2] * 12 + [3] * 7 + [math.factorial(8) // 2,
                                                     math.factorial(12) // 2])


def test_commutator_of_subgroups_and_errors():
    S4 = PermGroup.symmetric(4)
    A4 = S4.commutator_subgroup()
    V4 = A4.commutator_subgroup()
    assert (A4.order, V4.order) == (12, 4)
    assert S4.commutator(S4, A4).order == 12 and S4.commutator(A4, V4).order == 4
    assert S4.commutator(V4, V4).order == 1
    with pytest.raises(ValueError, match="prime"):
        S4.sylow_subgroup(4)
    with pytest.raises(ValueError, match="subgroup"):
        S4.commutator(PermGroup.symmetric(5), A4)
    with pytest.raises(ValueError, match="unknown group name"):
        PermGroup.named("M24")


def test_permutation_group_picks_the_path_by_order():
    small = permutation_group(["(0 1)", "(0 1 2 3 4 5 6)"])
    big = permutation_group(["(0 1)", "(0 1 2 3 4 5 6 7)"])
    assert isinstance(small, FiniteGroup) and small.order == 5040
    assert isinstance(big, PermGroup) and big.order == 40320


def _invariants(G):
    return (G.order, tuple(G.derived_series().orders), tuple(G.lower_central_series().orders),
            tuple(G.upper_central_series().orders), G.center().order, G.derived_length,
            G.nilpotency_class)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2 ** 32 - 1))
def test_agrees_with_the_cayley_table_path(seed):
    """The Schreier-Sims path and the Cayley-table path (the reference) agree on random
    permutation groups of degree <= 6."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 7))
    gens = [tuple(int(x) for x in rng.permutation(n)) for _ in range(int(rng.integers(1, 3)))]
    assert _invariants(PermGroup.from_permutations(gens, n)) == \
        _invariants(FiniteGroup.from_permutations(gens, n))


@pytest.mark.parametrize("name", ["D8", "S4", "A5", "C6"])
def test_named_groups_agree_with_finite_group(name):
    assert _invariants(PermGroup.named(name)) == _invariants(FiniteGroup.named(name))


@pytest.mark.parametrize("group", [[[1, 0, 2], [1, 2, 0]], "(0 1)", None, 3])
def test_constructor_refuses_what_is_not_a_sympy_group(group):
    """Once accepted, then AttributeError on first use (``.order``)."""
    with pytest.raises(TypeError, match="group must be a sympy PermutationGroup.*from_permutations"):
        PermGroup(group)
    with pytest.raises(TypeError, match="name"):
        PermGroup(PermGroup.symmetric(3).sympy_group, name=3)

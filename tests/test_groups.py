"""FiniteGroup: SPEC §4 group oracles, naming and product conventions, validation of bad input."""
from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import example, given, settings, strategies as st
import sympy.combinatorics

from seqtheory.theory.groups import FiniteGroup, validate_table

F = FiniteGroup


# ------------------------------------------------------------------ SPEC §4 oracles
@pytest.mark.parametrize("name, derived, dl, nil_class", [
    ("C2", (2, 1), 1, 1),
    ("C3", (3, 1), 1, 1),
    ("D8", (8, 2, 1), 2, 2),
    ("H3", (27, 3, 1), 2, 2),
    ("S3", (6, 3, 1), 2, None),
    ("S4", (24, 12, 4, 1), 3, None),
    ("A5", (60,), None, None),
])
def test_spec_oracles(name, derived, dl, nil_class):
    G = F.named(name)
    s = G.derived_series()
    assert s.orders == derived
    assert G.derived_length == dl
    assert G.nilpotency_class == nil_class
    assert G.is_solvable == (dl is not None)
    assert G.is_nilpotent == (nil_class is not None)
    assert s.reaches_trivial == (dl is not None)


def test_a5_perfect_and_stabilised_series():
    A5 = F.named("A5")
    assert A5.order == 60 and A5.is_perfect
    assert A5.derived_series().stabilised and A5.derived_series().orders == (60,)
    assert A5.lower_central_series().orders == (60,)
    assert A5.commutator_subgroup().order == 60


def test_lower_central_series_stops_and_says_so():
    S3 = F.named("S3")
    lc = S3.lower_central_series()
    assert lc.orders == (6, 3) and lc.stabilised and not lc.reaches_trivial
    assert F.named("S4").lower_central_series().orders == (24, 12)
    assert F.named("D8").lower_central_series().orders == (8, 2, 1)
    assert F.named("H3").lower_central_series().orders == (27, 3, 1)


@pytest.mark.parametrize("name, derived", [
    ("A4", (12, 4, 1)), ("F21", (21, 7, 1)), ("C7:C3", (21, 7, 1)), ("Q8", (8, 2, 1)),
    ("S5", (120, 60)), ("D6", (6, 3, 1)), ("D10", (10, 5, 1)), ("V4", (4, 1)),
    ("H3(2)", (8, 2, 1)), ("H3(5)", (125, 5, 1)),
])
def test_more_derived_series(name, derived):
    assert F.named(name).derived_series().orders == derived


def test_trivial_group_conventions():
    for G in (F.trivial(), F.named("C1"), F.named("S1"), F.from_permutations([], degree=3)):
        assert G.order == 1
        assert G.derived_length == 0 and G.nilpotency_class == 0
        assert G.is_solvable and G.is_nilpotent and G.is_abelian and G.is_perfect
        assert G.derived_series().orders == (1,) and G.generators == ()


def test_orders_of_named_groups():
    expected = {"C5": 5, "D8": 8, "D12": 12, "S3": 6, "S4": 24, "A4": 12, "A5": 60, "S5": 120,
                "Q8": 8, "H3": 27, "H3(2)": 8, "F21": 21, "V4": 4, "D2": 2}
    for name, n in expected.items():
        assert F.named(name).order == n, name
    assert F.heisenberg(5).order == 125


def test_centers_and_abelian():
    assert F.named("D8").center().order == 2
    assert F.named("Q8").center().order == 2
    assert F.named("H3").center().order == 3
    assert F.named("S3").center().order == 1
    assert F.named("C6").is_abelian and not F.named("S3").is_abelian
    assert F.named("H3").exponent == 3 and F.named("H3(2)").exponent == 4


def test_unknown_name():
    with pytest.raises(ValueError, match="order m .* must be even.* D14 \\(or Dih7\\)"):
        F.named("D7")
    with pytest.raises(ValueError, match="unknown group name"):
        F.named("D_x")
    with pytest.raises(ValueError):
        F.named("X3")
    with pytest.raises(TypeError):
        F.named(3)


# ------------------------------------------------------------------ conventions
def test_permutation_product_convention_and_sympy():
    from sympy.combinatorics import Permutation

    S4 = F.named("S4")
    p, q = (1, 2, 0, 3), (0, 1, 3, 2)
    pq = S4.multiply(p, q)
    assert pq == tuple(p[q[i]] for i in range(4))  # p ∘ q: apply q first
    # sympy's p*q applies p first, so it equals our multiply(q, p)
    assert tuple((Permutation(list(p)) * Permutation(list(q))).array_form) == S4.multiply(q, p)
    assert S4.multiply(q, p) != pq


def test_dihedral_relations_and_naming():
    D8 = F.dihedral(8)
    r, s = (1, 0), (0, 1)
    assert D8.element_order(r) == 4 and D8.element_order(s) == 2
    assert D8.multiply(D8.multiply(s, r), s) == D8.inverse(r)  # s r s = r^-1
    with pytest.raises(ValueError, match="even"):
        F.dihedral(7)


def test_heisenberg_is_unipotent_matrices():
    H = F.heisenberg(3)
    for M in H.elements:
        assert M[0][0] == M[1][1] == M[2][2] == 1 and M[1][0] == M[2][0] == M[2][1] == 0
    assert H.subgroup_generated(H.generators).order == 27


def test_commutator_convention():
    S3 = F.named("S3")
    a, b = (1, 0, 2), (0, 2, 1)
    expected = S3.product([S3.inverse(a), S3.inverse(b), a, b])
    assert S3.commutator(a, b) == expected


# ------------------------------------------------------------------ sympy cross-checks
@pytest.mark.parametrize("ours, theirs", [
    ("D8", "DihedralGroup(4)"), ("S4", "SymmetricGroup(4)"), ("A5", "AlternatingGroup(5)"),
    ("S5", "SymmetricGroup(5)"), ("A4", "AlternatingGroup(4)"), ("D6", "DihedralGroup(3)"),
])
def test_orders_and_derived_series_agree_with_sympy(ours, theirs):
    from sympy.combinatorics import named_groups

    fn, arg = theirs[:-1].split("(")
    S = getattr(named_groups, fn)(int(arg))
    G = F.named(ours)
    assert G.order == S.order()
    theirs_orders = tuple(H.order() for H in S.derived_series())
    # sympy lists a stabilised term; ours ends at the first repeat
    dedup = tuple(o for i, o in enumerate(theirs_orders) if i == 0 or o != theirs_orders[i - 1])
    assert G.derived_series().orders == dedup
    assert G.center().order == S.center().order()


def test_from_permutations_matches_sympy_group():
    from sympy.combinatorics import Permutation, PermutationGroup

    gens = [(1, 2, 3, 4, 5, 0), (1, 0, 2, 3, 4, 5)]
    G = F.from_permutations(gens)
    S = PermutationGroup([Permutation(list(g)) for g in gens])
    assert G.order == S.order() == 720
    assert {tuple(p.array_form) for p in S.generate()} == set(G.elements)
    # sympy Permutations of different sizes are padded with fixed points
    H = F.from_permutations([Permutation(0, 1, 2), Permutation(3, 4)])
    assert H.order == 6 and len(H.identity) == 5 and H.is_abelian


# ------------------------------------------------------------------ subgroups, cosets, quotients
def test_subgroups_normality_quotient():
    S3 = F.named("S3")
    t = (1, 0, 2)
    H = S3.subgroup_generated([t])
    assert H.order == 2 and not S3.is_normal(H)
    A3 = S3.commutator_subgroup()
    assert A3.order == 3 and S3.is_normal(A3)
    assert len(S3.cosets(H)) == 3 and len(S3.cosets(H, side="right")) == 3
    assert S3.cosets(H) != S3.cosets(H, side="right")  # H is not normal
    assert S3.normal_closure([t]).order == 6
    D8 = F.named("D8")
    Q = D8.quotient(D8.center())
    assert Q.order == 4 and Q.is_isomorphic(F.named("V4"))
    with pytest.raises(ValueError, match="normal"):
        S3.quotient(H)
    S4 = F.named("S4")
    A4 = S4.derived_series()[1]
    assert A4.order == 12 and S4.is_normal(A4) and A4.is_isomorphic(F.named("A4"))
    assert A4.parent is S4 and len(A4.parent_indices) == 12


def test_generators_generate_and_are_small():
    for name in ("C6", "D8", "Q8", "H3", "S4", "A5", "S5", "F21", "V4"):
        G = F.named(name)
        assert G.subgroup_generated(G.generators).order == G.order
        assert len(G.generators) <= 2
        tree = G.bfs_tree()
        assert len(tree) == G.order and tree[0][1] == -1
        for idx, parent, k in tree[1:]:
            assert G.elements[idx] == G.multiply(G.elements[parent], G.generators[k])


def test_bfs_tree_rejects_non_generating_set():
    S4 = F.named("S4")
    with pytest.raises(ValueError, match="subgroup of order 2"):
        S4.bfs_tree([(1, 0, 2, 3)])


def test_direct_product():
    G = F.named("S3").direct_product(F.named("C2"))
    assert G.order == 12 and G.is_isomorphic(F.named("D12"))
    P = F.named("A5").direct_product(F.named("C2"))
    assert P.order == 120 and not P.is_isomorphic(F.named("S5"))
    assert P.derived_length is None
    assert F.named("C2").direct_product(F.named("C3")).is_isomorphic(F.named("C6"))
    assert not F.named("C2").direct_product(F.named("C2")).is_isomorphic(F.named("C4"))


# ------------------------------------------------------------------ isomorphism
def test_h3_mod_2_is_d8_with_explicit_isomorphism():
    H = F.named("H3(2)")
    D8 = F.named("D8")
    iso = H.isomorphism(D8)
    assert iso is not None and iso.verify()
    m = iso.as_dict()
    assert len(set(m.values())) == 8
    for a, b in itertools.product(H.elements, repeat=2):  # independent check on the full table
        assert m[H.multiply(a, b)] == D8.multiply(m[a], m[b])
    assert H.is_isomorphic(D8)
    assert not F.named("H3").is_isomorphic(F.named("D8"))


def test_q8_not_d8():
    Q8, D8 = F.named("Q8"), F.named("D8")
    assert Q8.order == D8.order and Q8.derived_series().orders == D8.derived_series().orders
    assert Q8.element_order_statistics() != D8.element_order_statistics()
    assert "element_orders" in Q8.isomorphism_obstruction(D8)
    assert Q8.isomorphism(D8) is None and not Q8.is_isomorphic(D8)


def test_backtracking_alone_refutes_non_isomorphic_pairs(monkeypatch):
    """Disable the invariant shortcut and the centraliser refinement: the generator search must
    still find no isomorphism between non-isomorphic groups (and still find one between
    isomorphic ones)."""
    from seqtheory.theory import group_iso

    monkeypatch.setattr(group_iso, "isomorphism_obstruction", lambda G, H: None)
    monkeypatch.setattr(group_iso, "_signatures",
                        lambda G: [(int(o), 0) for o in G.element_orders()])
    pairs = [("D8", "Q8"), ("Q8", "D8"), ("C4", "V4"), ("S4", "A4xC2"), ("D12", "A4"),
             ("C6", "S3")]
    for a, b in pairs:
        A = F.named(a)
        B = (F.named("A4").direct_product(F.named("C2")) if b == "A4xC2" else F.named(b))
        assert A.isomorphism(B) is None, (a, b)
    iso = F.named("H3(2)").isomorphism(F.named("D8"))
    assert iso is not None and iso.verify()


def _brute_force_isomorphic(G, H) -> bool:
    if G.order != H.order:
        return False
    TG, TH = G.cayley_table().astype(np.int64), H.cayley_table().astype(np.int64)
    perms = np.array(list(itertools.permutations(range(G.order))))
    ok = np.ones(len(perms), dtype=bool)
    for i in range(G.order):
        for j in range(G.order):
            ok &= perms[:, TG[i, j]] == TH[perms[:, i], perms[:, j]]
    return bool(ok.any())


def test_isomorphism_agrees_with_brute_force_on_order_8():
    c2 = F.named("C2")
    groups = {"C8": F.named("C8"), "C4xC2": F.named("C4").direct_product(c2),
              "C2^3": c2.direct_product(c2).direct_product(c2), "D8": F.named("D8"),
              "Q8": F.named("Q8"), "H3(2)": F.named("H3(2)")}
    for (a, G), (b, H) in itertools.product(groups.items(), repeat=2):
        assert G.is_isomorphic(H) == _brute_force_isomorphic(G, H), (a, b)


# ------------------------------------------------------------------ from_cayley_table validation
def _d8_table():
    return np.array(F.named("D8").cayley_table(), dtype=np.int64)


def test_cayley_table_round_trip_with_identity_not_first():
    G = F.named("S3")
    T = np.array(G.cayley_table(), dtype=np.int64)
    perm = np.array([3, 0, 5, 1, 4, 2])  # old index i -> new label perm[i]
    inv = np.argsort(perm)
    T2 = perm[T[np.ix_(inv, inv)]]
    H = F.from_cayley_table(T2.tolist())
    assert H.identity == 3 and H.order == 6
    assert H.is_isomorphic(G)


def test_swapped_entries_rejected():
    T = _d8_table()
    T[1, 2], T[1, 3] = T[1, 3], T[1, 2]
    with pytest.raises(ValueError, match="Latin"):
        F.from_cayley_table(T)


@pytest.mark.parametrize("table, exc, match", [
    ([[0, 1], [1, 0], [0, 1]], ValueError, "square"),
    ([0, 1], ValueError, "square"),
    (np.zeros((0, 0), dtype=int), ValueError, "square"),
    ([[0, 1], [1, 2]], ValueError, "closure"),
    ([[0, -1], [1, 0]], ValueError, "closure"),
    ([[1, 0], [1, 0]], ValueError, "identity"),  # [[1,0],[0,1]] is C2 with identity 1
    ([[0, 1], [1, 1]], ValueError, "Latin"),
    ([[0.0, 1.5], [1.0, 0.0]], TypeError, "integers"),
    ([[True, False], [False, True]], TypeError, "integers"),
    ([[0, 1], [1]], ValueError, "rectangular"),
])
def test_bad_tables(table, exc, match):
    with pytest.raises(exc, match=match):
        F.from_cayley_table(table)


# the smallest non-associative loop (order 5): Latin square with identity 0
_LOOP5 = np.array([[0, 1, 2, 3, 4],
                   [1, 0, 3, 4, 2],
                   [2, 4, 0, 1, 3],
                   [3, 2, 4, 0, 1],
                   [4, 3, 1, 2, 0]])


def test_non_associative_loop_rejected_with_triple():
    with pytest.raises(ValueError, match=r"associativity fails for the triple") as ei:
        F.from_cayley_table(_LOOP5)
    a, b, c = map(int, str(ei.value).split("= (")[1].split(")")[0].split(", "))
    assert _LOOP5[_LOOP5[a, b], c] != _LOOP5[a, _LOOP5[b, c]]


def test_large_non_associative_loop_rejected_by_light_test():
    """Order 300 > the full n^3 threshold: the loop L5 x C60 goes through Light's test."""
    C = np.array(F.cyclic(60).cayley_table(), dtype=np.int64)
    T = (_LOOP5[:, None, :, None] * 60 + C[None, :, None, :]).reshape(300, 300)
    with pytest.raises(ValueError, match="associativity"):
        F.from_cayley_table(T)
    G = F.named("C5").direct_product(F.cyclic(60))  # the associative counterpart is accepted
    H = F.from_cayley_table(np.array(G.cayley_table()))
    assert H.order == 300 and H.is_abelian


# ------------------------------------------------------------------ other bad input
def test_bad_permutations_and_matrices():
    with pytest.raises(ValueError, match="not a permutation"):
        F.from_permutations([(0, 0, 1)])
    with pytest.raises(ValueError, match="not a permutation"):
        F.from_permutations([(0, 1, 2), (1, 0)])
    with pytest.raises(ValueError, match="degree"):
        F.from_permutations([])
    with pytest.raises(TypeError, match="exact"):
        F.from_matrices([np.eye(2)])
    with pytest.raises(ValueError, match="singular"):
        F.from_matrices([[[1, 2], [2, 4]]])
    with pytest.raises(ValueError, match="singular modulo 4"):
        F.from_matrices([[[2, 0], [0, 1]]], modulus=4)
    with pytest.raises(ValueError, match="max_order"):
        F.from_matrices([[[1, 1], [0, 1]]], max_order=50)  # infinite order over Q
    with pytest.raises(ValueError, match="square"):
        F.from_matrices([[[1, 0, 0], [0, 1, 0]]])
    with pytest.raises(ValueError, match="empty"):
        F.from_matrices([])
    with pytest.raises(ValueError, match="size"):
        F.from_matrices([[[0, 1], [1, 0]], [[1]]])
    with pytest.raises(ValueError):
        F.index(F.named("S3"), (0, 1, 2, 3))
    with pytest.raises(TypeError):
        F.cyclic(2.0)
    with pytest.raises(ValueError):
        F.cyclic(0)


def test_from_matrices_rational_and_modular():
    from fractions import Fraction

    import sympy

    R = [[0, -1], [1, 0]]
    assert F.from_matrices([R]).order == 4
    half = [[Fraction(1, 2), Fraction(-3, 2)], [Fraction(1, 2), Fraction(1, 2)]]  # order 6, det 1
    assert F.from_matrices([half]).order == 6
    assert F.from_matrices([sympy.Matrix([[0, 1], [1, 0]])]).order == 2
    assert F.from_matrices([[[1, 1], [0, 1]]], modulus=7).order == 7
    SL23 = F.from_matrices([[[1, 1], [0, 1]], [[0, -1], [1, 0]]], modulus=3)
    assert SL23.order == 24 and SL23.derived_series().orders == (24, 8, 2, 1)
    assert not SL23.is_isomorphic(F.named("S4"))


# ============================================================================ adversarial review
# Regression tests for defects found by an adversarial review.

@pytest.mark.parametrize("gens", [[(1.5, 0.0)], [(1.0, 0.0)], [(True, False)], [(1, 0.7, 2)],
                                  [5], [[(0, 1.0)]], [[(True, 0)]]])
def test_permutations_must_be_ints(gens):
    """int() coercion once turned (1.5, 0.0) into the transposition (1, 0)."""
    with pytest.raises(TypeError, match="gens"):
        FiniteGroup.from_permutations(gens)


def test_sympy_integers_in_permutations_are_fine():
    import sympy

    g = FiniteGroup.from_permutations([(sympy.Integer(1), sympy.Integer(0))])
    assert g.order == 2


def test_element_index_is_checked():
    """element(100) raised IndexError; element(-1) silently returned the last element."""
    g = FiniteGroup.named("S3")
    with pytest.raises(ValueError, match="0..5"):
        g.element(6)
    with pytest.raises(ValueError, match="i must be >= 0"):
        g.element(-1)
    with pytest.raises(TypeError, match="i must be an int"):
        g.element(1.0)
    assert g.element(g.identity_index) == g.identity


def test_matrix_entries_must_not_be_strings():
    """'1/2' strings were parsed by sympy.nsimplify and accepted as matrix entries."""
    with pytest.raises(TypeError, match=r"mats\[0\] must be an exact number"):
        FiniteGroup.from_matrices([[["1", "0"], ["0", "1"]]])


# ------------------------------------------------------------------ naming of dihedral groups
def test_dihedral_names_are_by_order_and_aliases_are_unambiguous():
    assert F.named("D4").is_isomorphic(F.named("V4"))  # order 4: the Klein four-group
    square = F.named("D8")
    assert square.order == 8 and square.center().order == 2
    for alias in ("D_8", "D_{8}", "Dih4", "Dih_4", "Dih(4)"):
        G = F.named(alias)
        assert G.order == 8 and G.is_isomorphic(square), alias
    assert F.named("Dih3").is_isomorphic(F.named("S3")) and F.named("D6").order == 6
    with pytest.raises(ValueError, match="n >= 1"):
        F.named("Dih0")
    assert "Dih4" in F.named.__doc__ and "Klein four-group" in F.named.__doc__


# ------------------------------------------------------------------ upper central series, centre
@pytest.mark.parametrize("name, orders, stabilised", [
    ("trivial", (1,), False), ("C6", (1, 6), False), ("D8", (1, 2, 8), False),
    ("Q8", (1, 2, 8), False), ("H3", (1, 3, 27), False), ("D16", (1, 2, 4, 16), False),
    ("S3", (1,), True), ("A5", (1,), True), ("D12", (1, 2), True)])
def test_upper_central_series(name, orders, stabilised):
    G = F.named(name)
    ucs = G.upper_central_series()
    assert ucs.orders == orders and ucs.stabilised is stabilised and ucs.kind == "upper_central"
    Z = G.center()
    brute = {z for z in G.elements if all(G.multiply(z, g) == G.multiply(g, z)
                                          for g in G.elements)}
    assert set(Z.elements) == brute == set(ucs[min(1, len(ucs) - 1)].elements)
    assert set(G.centre().elements) == brute


def test_invariants_are_properties_and_series_are_methods():
    G = F.named("S4")
    for prop in ("order", "derived_length", "nilpotency_class", "exponent", "is_solvable",
                 "is_nilpotent", "is_abelian", "is_perfect"):
        assert isinstance(getattr(type(G), prop), property), prop
    for meth in ("derived_series", "lower_central_series", "upper_central_series", "center",
                 "commutator_subgroup"):
        assert callable(getattr(G, meth)) and not isinstance(getattr(type(G), meth), property)
    assert "invariants are properties" in F.__doc__


# ============================================================================ permutation notations

@pytest.mark.parametrize("gens", [["(0 1 2)", "(0 1)"], ["(0,1,2)", "(0,1)"],
                                  [[(0, 1, 2)], [(0, 1)]], [(1, 2, 0), "(0 1)"],
                                  [sympy.combinatorics.Permutation([1, 2, 0]), [(0, 1)]]])
def test_cycle_notation_gives_the_same_group_as_image_notation(gens):
    G = FiniteGroup.from_permutations(gens)
    assert G.order == 6 and set(G.elements) == set(FiniteGroup.symmetric(3).elements)
    assert (1, 2, 0) in G and (1, 0, 2) in G


def test_cycle_notation_pads_with_fixed_points_to_the_degree():
    G = FiniteGroup.from_permutations(["(0 1)(2 3)", "()"], degree=5)
    assert G.elements == ((0, 1, 2, 3, 4), (1, 0, 3, 2, 4))
    assert FiniteGroup.from_permutations([[(0, 1, 2, 3, 4)], [(0, 1)]]).order == 120


@pytest.mark.parametrize("gens, error, match", [
    ([(1, 2)], ValueError, "image notation.*cycle notation"),       # a cycle written as a tuple
    (["(0 1)(1 2)"], ValueError, "disjoint"),
    ([[(0, 1), (1, 2)]], ValueError, "disjoint"),
    (["0 1 2"], ValueError, "not in cycle notation"),
    (["ab"], ValueError, "not in cycle notation"),
    (["(0 a)"], ValueError, "not a non-negative integer"),
    ([[(0, -1)]], ValueError, "negative"),
    ([[(0, 1), 2]], TypeError, "must be a permutation.*cycle notation"),
])
def test_a_malformed_permutation_is_refused_naming_the_notations(gens, error, match):
    with pytest.raises(error, match=match):
        FiniteGroup.from_permutations(gens)


def _cycles_of(p):
    seen, cycles = set(), []
    for start in range(len(p)):
        if start not in seen and p[start] != start:
            c, i = [], start
            while i not in seen:
                seen.add(i)
                c.append(i)
                i = p[i]
            cycles.append(tuple(c))
    return cycles


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 9).flatmap(lambda n: st.permutations(range(n))))
@example([1, 2, 0, 4, 3])
def test_cycle_notation_round_trips_the_image_tuple(p):
    from seqtheory.theory.permutation_notation import cycles_to_images

    n, cycles = len(p), _cycles_of(p)
    text = "".join("(" + " ".join(map(str, c)) + ")" for c in cycles) or "()"
    for given_as in (cycles, text):
        images = cycles_to_images(given_as)
        assert images + tuple(range(len(images), n)) == tuple(p)
    assert FiniteGroup.from_permutations([text], degree=n).order == \
        FiniteGroup.from_permutations([tuple(p)]).order


@pytest.mark.parametrize("table, shown", [([[1e20]], "100000000000000000000"),
                                          (np.array([[2**64 - 1]], dtype=np.uint64),
                                           "18446744073709551615"),
                                          ([[0, 1], [1, -3]], "-3")])
def test_validate_table_names_the_out_of_range_entry_as_given(table, shown):
    # 1e20 and 2**64 - 1 were cast to int64 first and reported as -9223372036854775808 / -1
    with pytest.raises(ValueError, match=rf"closure fails, entry T\[\d, \d\] = {shown} is not"):
        validate_table(table)

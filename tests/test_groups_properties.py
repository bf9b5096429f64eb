"""Property tests for FiniteGroup: relabelling invariance, isomorphism maps, direct products,
group axioms of the computed tables."""
from __future__ import annotations

import functools

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from seqtheory.theory.groups import FiniteGroup

NAMES = ["C1", "C2", "C3", "C6", "V4", "D8", "Q8", "H3(2)", "H3", "S3", "A4", "S4", "F21",
         "D10", "A5"]


@functools.lru_cache(maxsize=None)
def group(name: str) -> FiniteGroup:
    return FiniteGroup.named(name)


def relabel(G: FiniteGroup, perm: np.ndarray) -> np.ndarray:
    """Cayley table of G with element i renamed perm[i]."""
    T = G.cayley_table().astype(np.int64)
    inv = np.argsort(perm)
    return perm[T[np.ix_(inv, inv)]]


SETTINGS = settings(max_examples=25, deadline=None)


@SETTINGS
@given(name=st.sampled_from(NAMES), seed=st.integers(0, 2**32 - 1))
def test_relabelled_table_is_isomorphic_with_verified_map(name, seed):
    G = group(name)
    perm = np.random.default_rng(seed).permutation(G.order)
    H = FiniteGroup.from_cayley_table(relabel(G, perm))
    iso = G.isomorphism(H)
    assert iso is not None and iso.verify()
    phi = iso.images
    assert sorted(phi.tolist()) == list(range(G.order))  # bijective
    TG, TH = G.cayley_table().astype(np.int64), H.cayley_table().astype(np.int64)
    assert np.array_equal(phi[TG], TH[phi[:, None], phi[None, :]])  # homomorphism, full table
    assert H.invariants() == G.invariants()
    assert H.derived_length == G.derived_length and H.nilpotency_class == G.nilpotency_class


@SETTINGS
@given(a=st.sampled_from(NAMES[:10]), b=st.sampled_from(NAMES[:10]))
def test_direct_product_orders_and_lengths(a, b):
    G, H = group(a), group(b)
    P = G.direct_product(H)
    assert P.order == G.order * H.order
    assert P.center().order == G.center().order * H.center().order
    dl = [G.derived_length, H.derived_length]
    assert P.derived_length == (None if None in dl else max(dl))
    nc = [G.nilpotency_class, H.nilpotency_class]
    assert P.nilpotency_class == (None if None in nc else max(nc))
    assert P.is_isomorphic(H.direct_product(G))
    # the computed table satisfies the group axioms (validated path)
    assert FiniteGroup.from_cayley_table(np.array(P.cayley_table())).order == P.order


@SETTINGS
@given(name=st.sampled_from(NAMES), data=st.data())
def test_element_level_axioms(name, data):
    G = group(name)
    a, b, c = (data.draw(st.sampled_from(G.elements)) for _ in range(3))
    m = G.multiply
    assert m(m(a, b), c) == m(a, m(b, c))
    assert m(a, G.identity) == a == m(G.identity, a)
    assert m(a, G.inverse(a)) == G.identity
    k = G.element_order(a)
    assert G.product([a] * k) == G.identity
    assert all(G.product([a] * j) != G.identity for j in range(1, k))


@SETTINGS
@given(name=st.sampled_from(NAMES), data=st.data())
def test_series_terms_are_normal_and_nested(name, data):
    G = group(name)
    for series in (G.derived_series(), G.lower_central_series()):
        for upper, lower in zip(series, series[1:]):
            assert set(lower.elements) < set(upper.elements)
            assert G.is_normal(lower)
    # quotients by the commutator subgroup are abelian
    Q = G.quotient(G.commutator_subgroup())
    assert Q.is_abelian


@SETTINGS
@given(name=st.sampled_from(NAMES))
def test_upper_central_series_follows_its_definition(name):
    G = group(name)
    ucs = G.upper_central_series()
    assert ucs[0].order == 1
    for lower, upper in zip(ucs, ucs[1:]):  # Z_{i+1} = {x : [x, g] in Z_i for all g}
        low = set(lower.elements)
        assert set(upper.elements) == {x for x in G.elements
                                       if all(G.commutator(x, g) in low for g in G.elements)}
    # it reaches G iff G is nilpotent, in nilpotency-class many steps (as the lower series)
    assert ucs.stabilised is (G.nilpotency_class is None)
    if G.nilpotency_class is not None:
        assert len(ucs) - 1 == G.nilpotency_class
    assert G.center().order == (ucs.orders[1] if len(ucs) > 1 else 1)

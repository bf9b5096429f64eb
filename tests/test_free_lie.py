"""Free Lie algebras: Lyndon words, factorisation, Witt's formula, Hall basis, free nilpotent
structure constants, derived ideals of the free Lie algebra."""
from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings, strategies as st

from seqtheory.theory.free_lie import (bracket_string, derived_ideal_dimensions,
                                       derived_ideal_lowest_degree, free_nilpotent,
                                       free_nilpotent_structure_constants, hall_basis, is_lyndon,
                                       lyndon_factorization, lyndon_words, lyndon_words_upto, mobius,
                                       standard_bracketing, standard_factorization, witt_dimension)

words_xy = st.text(alphabet="xy", min_size=0, max_size=14)
words_xyz = st.text(alphabet="xyz", min_size=1, max_size=10)


def _brute_lyndon(alphabet, m):
    order = {a: i for i, a in enumerate(alphabet)}
    key = lambda w: [order[c] for c in w]  # noqa: E731
    out = []
    for t in itertools.product(alphabet, repeat=m):
        w = "".join(t)
        if all(key(w) < key(w[i:] + w[:i]) for i in range(1, m)):
            out.append(w)
    return sorted(out, key=key)


def test_lyndon_small_cases_and_order():
    assert lyndon_words("xy", 1) == ["x", "y"]
    assert lyndon_words("xy", 3) == ["xxy", "xyy"]
    assert lyndon_words("xy", 4) == ["xxxy", "xxyy", "xyyy"]
    assert lyndon_words("yx", 3) == ["yyx", "yxx"]  # the alphabet order, not the character order
    for alphabet, M in (("xy", 9), ("xyz", 6), ("abcd", 4), ("yx", 7)):
        for m in range(1, M + 1):
            assert lyndon_words(alphabet, m) == _brute_lyndon(alphabet, m)


def test_witt_oracle_and_counts():
    assert [witt_dimension(2, m) for m in range(1, 11)] == [2, 1, 2, 3, 6, 9, 18, 30, 56, 99]
    assert sum(witt_dimension(2, m) for m in range(1, 21)) == 111013
    assert len(lyndon_words_upto("xy", 20)) == 111013
    for n, M in ((3, 8), (4, 6)):
        for m in range(1, M + 1):
            assert len(lyndon_words("xyzw"[:n], m)) == witt_dimension(n, m)
    assert [mobius(d) for d in range(1, 13)] == [1, -1, -1, 0, -1, 1, -1, 0, 0, 1, -1, 0]


def test_hall_basis_counts():
    hb = hall_basis("xy", 9)
    deg = lambda t: 1 if isinstance(t, str) else deg(t[0]) + deg(t[1])  # noqa: E731
    for m in range(1, 10):
        assert sum(1 for h in hb if deg(h) == m) == witt_dimension(2, m)
    assert sum(1 for h in hall_basis("xyz", 5) if deg(h) == 5) == witt_dimension(3, 5)


@settings(max_examples=150, deadline=None)
@given(words_xy)
def test_lyndon_factorization_unique_nonincreasing(w):
    f = lyndon_factorization(w, "xy")
    assert "".join(f) == w
    assert all(is_lyndon(u, "xy") for u in f)
    assert all(f[i] >= f[i + 1] for i in range(len(f) - 1))  # "x" < "y" as characters too


@settings(max_examples=100, deadline=None)
@given(words_xyz)
def test_lyndon_factorization_three_letters_reversed_order(w):
    # alphabet "zyx": z < y < x; check non-increasing w.r.t. that order
    order = {"z": 0, "y": 1, "x": 2}
    f = lyndon_factorization(w, "zyx")
    assert "".join(f) == w
    key = lambda u: [order[c] for c in u]  # noqa: E731
    assert all(key(f[i]) >= key(f[i + 1]) for i in range(len(f) - 1))
    assert all(is_lyndon(u, "zyx") for u in f)


def test_standard_factorization_and_bracketing():
    assert standard_factorization("xxy", "xy") == ("x", "xy")
    assert standard_factorization("xyy", "xy") == ("xy", "y")
    assert standard_factorization("xxyxy", "xy") == ("xxy", "xy")
    assert bracket_string(standard_bracketing("xxyy", "xy")) == "[x,[[x,y],y]]"
    for w in lyndon_words("xy", 8):
        u, v = standard_factorization(w, "xy")
        assert u + v == w and is_lyndon(u, "xy") and is_lyndon(v, "xy") and u < v
        # v is the longest proper Lyndon suffix
        assert all(not is_lyndon(w[i:], "xy") for i in range(1, len(u)))


def test_bad_input():
    with pytest.raises(ValueError):
        lyndon_words("xy", 0)
    with pytest.raises(ValueError):
        lyndon_words("", 3)
    with pytest.raises(ValueError):
        lyndon_words("xx", 3)
    with pytest.raises(TypeError):
        lyndon_words(5, 3)
    with pytest.raises(ValueError):
        witt_dimension(0, 3)
    with pytest.raises(ValueError):
        witt_dimension(2, 0)
    with pytest.raises(ValueError):
        standard_factorization("yx", "xy")
    with pytest.raises(ValueError):
        lyndon_factorization("xqy", "xy")
    with pytest.raises(ValueError):
        free_nilpotent(2, 0)


# ---- free nilpotent structure constants --------------------------------------------------------

_SC = {(n, c): free_nilpotent_structure_constants(n, c) for n, c in ((2, 6), (3, 4))}


def _bracket(sc, u, v):
    out = {}
    for i, a in u.items():
        for j, b in v.items():
            for k, x in sc.get((i, j), {}).items():
                out[k] = out.get(k, 0) + a * b * x
    return {k: x for k, x in out.items() if x}


def _add(*vs):
    out = {}
    for v in vs:
        for k, x in v.items():
            out[k] = out.get(k, 0) + x
    return {k: x for k, x in out.items() if x}


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(sorted(_SC)), st.data())
def test_structure_constants_antisymmetry_and_jacobi(key, data):
    basis, sc = _SC[key]
    N = len(basis)
    i, j, k = (data.draw(st.integers(0, N - 1)) for _ in range(3))
    ei, ej, ek = {i: 1}, {j: 1}, {k: 1}
    assert _bracket(sc, ei, ei) == {}
    assert _add(_bracket(sc, ei, ej), _bracket(sc, ej, ei)) == {}
    jac = _add(_bracket(sc, _bracket(sc, ei, ej), ek), _bracket(sc, _bracket(sc, ej, ek), ei),
               _bracket(sc, _bracket(sc, ek, ei), ej))
    assert jac == {}


def test_structure_constants_grading_and_examples():
    basis, sc = _SC[(2, 6)]
    idx = {w: i for i, w in enumerate(basis)}
    assert sc[(idx["x"], idx["y"])] == {idx["xy"]: 1}
    assert sc[(idx["x"], idx["xy"])] == {idx["xxy"]: 1}
    assert sc[(idx["xy"], idx["xxy"])] == {idx["xxyxy"]: -1}
    for (i, j), row in sc.items():
        assert len(basis[i]) + len(basis[j]) <= 6
        assert all(len(basis[k]) == len(basis[i]) + len(basis[j]) for k in row)


def test_free_nilpotent_series():
    g = free_nilpotent(2, 5)
    assert g.dim == 14
    assert [s.dim for s in g.derived_series()] == [14, 12, 2, 0]
    assert g.nilpotency_class == 5 and g.derived_length == 3
    assert [s.dim for s in g.lower_central_series()] == [14, 12, 11, 9, 6, 0]
    h = free_nilpotent(3, 2)
    assert h.dim == 6 and h.nilpotency_class == 2 and h.derived_length == 2
    assert free_nilpotent(2, 1).derived_length == 1


def test_derived_ideal_lowest_degree():
    # alphabet size matters: n = 2 -> L^(2) starts in degree 5, n = 3 -> degree 4
    assert derived_ideal_lowest_degree(2, 2, 8) == 5
    assert derived_ideal_lowest_degree(3, 2, 6) == 4
    assert derived_ideal_lowest_degree(2, 1, 4) == 2
    assert derived_ideal_lowest_degree(2, 0, 4) == 1
    assert derived_ideal_lowest_degree(2, 3, 9) is None  # not reached below degree 10
    dims = derived_ideal_dimensions(2, 1, 6)
    assert dims == {1: 0, 2: 1, 3: 2, 4: 3, 5: 6, 6: 9}  # L^(1) = L_{>=2}
    # consistency with the free nilpotent algebra: dim N^(2)(2, 6) = sum of graded dims
    g = free_nilpotent(2, 6)
    assert g.derived_series()[2].dim == sum(derived_ideal_dimensions(2, 2, 6).values())


def test_derived_ideal_lowest_degree_level3():
    # c_3(n) = lowest degree - 1: n = 2 -> 9, n = 3 -> 7 (computed, not assumed)
    assert derived_ideal_lowest_degree(2, 3, 10) == 10
    assert derived_ideal_lowest_degree(3, 3, 8) == 8


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet="xy", min_size=1, max_size=11))
def test_lyndon_factorization_is_unique(w):
    # enumerate every splitting of w; exactly one is a non-increasing product of Lyndon words
    n = len(w)
    found = []
    for mask in range(2 ** (n - 1)):
        cuts = [0] + [i + 1 for i in range(n - 1) if mask >> i & 1] + [n]
        parts = [w[cuts[i]:cuts[i + 1]] for i in range(len(cuts) - 1)]
        if all(is_lyndon(p, "xy") for p in parts) and all(parts[i] >= parts[i + 1] for i in range(len(parts) - 1)):
            found.append(parts)
    assert found == [lyndon_factorization(w, "xy")]

"""numerics/order_blind.py: the symbolic identity behind [DEPTH] Lemma 3.1 under the paper's
reading, checked against direct runs of random restricted layers (numpy, independent of sympy),
and the exact witnesses."""
from __future__ import annotations

from decimal import Decimal

import numpy as np
import pytest
import sympy
from hypothesis import example, given, settings
from hypothesis import strategies as st

from seqtheory.numerics.order_blind import (equal_count_witnesses, exact_matrices,
                                            restricted_pair_identity)


def test_identity_holds_and_commuting_layers_are_order_blind():
    ok = restricted_pair_identity()
    assert ok["identity_holds"] and ok["order_blind"] and ok["commuting"]
    bad = restricted_pair_identity(commuting=False)
    assert bad["identity_holds"] and not bad["order_blind"]
    with pytest.raises(TypeError, match="commuting"):
        restricted_pair_identity(1)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2 ** 32 - 1), d=st.integers(1, 4))
@example(seed=0, d=3)
def test_random_restricted_layers_give_xy_and_yx_the_same_h0_part(seed, d):
    """Commuting linear parts (diagonal, complex entries allowed), any biases, a nonlinear
    encoding of h0 and a random readout: y(xy, h) − y(xy, −h) = y(yx, h) − y(yx, −h)."""
    rng = np.random.default_rng(seed)
    A = {x: np.diag(rng.normal(size=d)) for x in "xy"}
    b = {x: rng.normal(size=d) for x in "xy"}
    P = rng.normal(size=(3, d))
    E = rng.normal(size=(d, 3))

    def encode(h):
        return np.tanh(E @ h) + (E @ h) ** 2

    def y(word, h):
        s = encode(h)
        for x in word:
            s = A[x] @ s + b[x]
        return P @ s

    h = rng.normal(size=3)
    lhs = y("xy", h) - y("xy", -h)
    rhs = y("yx", h) - y("yx", -h)
    assert np.allclose(lhs, rhs, rtol=1e-12, atol=1e-12)


def test_s3_witness_is_the_three_cycle_difference():
    import itertools

    perms = [tuple(p) for p in itertools.permutations(range(3))]
    mats = [[[int(p[j] == i) for j in range(3)] for i in range(3)] for p in perms]
    rows = equal_count_witnesses(mats, limit=20)
    assert rows and all(r["maps_differ"] for r in rows)
    top = rows[0]
    assert top["diff_spectral_norm"] == pytest.approx(3 ** 0.5, abs=1e-12)
    assert top["lower_bound"] == pytest.approx(3 ** 0.5 / 2, abs=1e-12)


def test_commuting_maps_have_no_witness_and_bad_input_is_refused():
    assert equal_count_witnesses([[[2, 0], [0, 3]], [[5, 0], [0, 7]]]) == []
    with pytest.raises(TypeError, match="float"):            # a float is not exact (the contract)
        exact_matrices([[[0.5]]])
    for entry in ("1/2", True, 1 + 2j):                          # never parsed nor read as a number
        with pytest.raises(TypeError, match=r"mats\[0\]"):
            exact_matrices([[[entry]]])
    assert exact_matrices([[[Decimal("0.5")]]]) == [sympy.Matrix([[sympy.Rational(1, 2)]])]
    with pytest.raises(ValueError, match="square"):
        exact_matrices([[[1, 2]]])
    with pytest.raises(ValueError, match="same size"):
        exact_matrices([[[1]], [[1, 0], [0, 1]]])
    with pytest.raises(ValueError, match="non-empty"):
        exact_matrices([])
    with pytest.raises(ValueError, match="names"):
        equal_count_witnesses([[[1]], [[2]]], names=["a"])
    with pytest.raises(ValueError, match="limit"):
        equal_count_witnesses([[[1]], [[2]]], limit=0)


def test_flow_witness_is_exact():
    """exp(E12), exp(E21) (sl2 flows): the difference of the two orders is diag(−1, 1)."""
    maps = [sympy.Matrix([[0, 1], [0, 0]]).exp(), sympy.Matrix([[0, 0], [1, 0]]).exp()]
    (row,) = equal_count_witnesses(maps)
    assert row["difference"] == "[-1, 0; 0, 1]" and row["lower_bound"] == pytest.approx(0.5)

"""numerics.restricted: a restricted layer reproduces every target of the affine class exactly,
while the target's commutator mass is non-zero unless the fixed points coincide."""
from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from seqtheory.numerics.restricted import (affine_generators, affine_target_matrices,
                                           affine_target_state, restricted_layer_state)
from seqtheory.numerics.reversal import omega2

pos = st.fractions(min_value=Fraction(1, 10), max_value=Fraction(3)).filter(lambda q: q != 1)
coef = st.fractions(min_value=-3, max_value=3, max_denominator=20)


@settings(max_examples=40, deadline=None)
@given(alpha=st.lists(pos, min_size=2, max_size=3), beta=st.lists(coef, min_size=3, max_size=3),
       word=st.lists(st.integers(0, 1), min_size=1, max_size=8), h0=coef)
def test_restricted_layer_equals_affine_target(alpha, beta, word, h0):
    a = [[alpha[0]], [alpha[1]]]
    b = [[beta[0]], [beta[1]]]
    assert list(restricted_layer_state(a, b, word, [h0])) == list(
        affine_target_state(a, b, word, [h0]))


@settings(max_examples=30, deadline=None)
@given(alpha=st.lists(pos, min_size=2, max_size=2), beta=st.lists(coef, min_size=2, max_size=2))
def test_commutator_mass_vanishes_iff_fixed_points_coincide(alpha, beta):
    a, b = [[alpha[0]], [alpha[1]]], [[beta[0]], [beta[1]]]
    G = affine_generators(a, b, dps=30)
    mass = float(np.abs(np.array(omega2(G, [0, 1], 30), dtype=float)).max())
    same = beta[0] / (1 - alpha[0]) == beta[1] / (1 - alpha[1])
    assert (mass < 1e-20) == same


def test_generators_exponentiate_to_the_affine_maps():
    import mpmath

    a, b = [[Fraction(9, 10)], [Fraction(1)]], [[Fraction(1)], [Fraction(2)]]
    for G, M in zip(affine_generators(a, b, dps=40), affine_target_matrices(a, b)):
        with mpmath.workdps(40):
            E = mpmath.expm(mpmath.matrix(G.tolist()))
            assert max(abs(E[i, j] - mpmath.mpf(M[i, j].numerator) / M[i, j].denominator)
                       for i in range(2) for j in range(2)) < mpmath.mpf(10) ** -35


def test_random_target_search_finds_exact_words_with_mass():
    import random

    from seqtheory.numerics.restricted import random_target_search

    out = random_target_search(random.Random(5), 4, 3, 1e-12, 1e-6)
    assert out == random_target_search(random.Random(5), 4, 3, 1e-12, 1e-6)      # seeded
    assert out["n_targets"] == 4 and len(out["targets"]) == 4 and out["max_len"] == 3
    for t in out["targets"]:
        assert t["words"] == sum(t["n"] ** T for T in range(1, (3 if t["n"] == 2 else 2) + 1))
        assert t["max_error"] == 0.0                    # one restricted layer tracks every target
        assert t["bound_fails"] == (t["words_exact_with_mass"] > 0)
    assert out["n_bound_fails"] == sum(t["bound_fails"] for t in out["targets"])
    with pytest.raises(ValueError, match="max_len"):
        random_target_search(random.Random(0), 1, 1, 1e-12, 1e-6)


def test_eps_scaled_rows_track_the_target_with_mass():
    from seqtheory.numerics.restricted import eps_scaled_rows

    alpha, beta = [[Fraction(9, 10)], [Fraction(1, 2)]], [[Fraction(1)], [Fraction(2)]]
    rows = eps_scaled_rows(alpha, beta, [0], (0, 1, 1, 0, 1), (Fraction(1, 100), 1))
    assert [r["eps"] for r in rows] == [0.01, 1.0] and rows[0]["word"] == "abbab"
    assert all(r["error"] < 1e-30 for r in rows)
    # ε²‖Ω2‖ scales as ε²
    assert rows[1]["eps2_norm_Omega2"] / rows[0]["eps2_norm_Omega2"] == pytest.approx(1e4)
    with pytest.raises(ValueError, match="one-coordinate"):
        eps_scaled_rows([[Fraction(1)], [Fraction(1, 2)]], beta, [0], (0, 1), (1,))

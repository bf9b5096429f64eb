"""numerics.restricted: a restricted layer reproduces every target of the affine class exactly,
while the target's commutator mass is non-zero unless the fixed points coincide."""
from __future__ import annotations

from fractions import Fraction

import numpy as np
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

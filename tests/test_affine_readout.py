"""numerics/affine_readout.py: the restricted AGL(1,3) layer with its smooth output map
reproduces the permutation action of S3 exactly (the restricted reading of [DEPTH] Lemma 3.1);
checked by hand, independent of the layer code."""
from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from seqtheory.numerics.affine_layer import agl13_coordinates
from seqtheory.numerics.affine_readout import (agl_output_matrix, agl_permutation_action,
                                               agl_readout_weight, permutation_matrix)
from seqtheory.theory.groups import FiniteGroup


@settings(max_examples=40, deadline=None)
@given(s=st.sampled_from([1, -1]), c=st.integers(0, 2), sigma=st.sampled_from([1, -1]),
       z=st.integers(-50, 50))
@example(s=1, c=0, sigma=1, z=0)
@example(s=-1, c=2, sigma=-1, z=-7)
def test_readout_weight_is_the_indicator_of_the_reduced_state(s, c, sigma, z):
    want = int(sigma == s and (z - c) % 3 == 0)
    assert agl_readout_weight((s, c), sigma, z) == Fraction(want)


def test_permutation_matrices_multiply_as_the_group_does():
    G = FiniteGroup.named("S3")
    P = {g: permutation_matrix(g) for g in G.elements}
    for g, h in itertools.product(G.elements, repeat=2):
        prod = [[sum(P[g][i][k] * P[h][k][j] for k in range(3)) for j in range(3)]
                for i in range(3)]
        assert tuple(map(tuple, prod)) == P[G.multiply(g, h)]
    # P e_i = e_{p(i)}: column i of P(p) is the unit vector at p(i)
    p = (1, 2, 0)
    assert [[permutation_matrix(p)[r][i] for r in range(3)].index(1) for i in range(3)] == list(p)


def test_output_matrix_at_each_reduced_state_is_that_elements_permutation():
    G = FiniteGroup.named("S3")
    coords = [tuple(int(v) for v in r) for r in agl13_coordinates(G)]
    perms = [permutation_matrix(p) for p in G.elements]
    for g, (s, c) in enumerate(coords):
        for shift in (0, 3, -6):                # z is read mod 3
            assert agl_output_matrix(coords, perms, s, c + shift) == perms[g]


def test_permutation_action_exact_with_bias_and_wrong_without():
    ev = agl_permutation_action(3)
    assert ev["prefixes"] == 6 + 36 + 216 and ev["mismatches"] == 0 and ev["first_wrong_word"] == ""
    assert ev["linear_parts_commute"] and not ev["system_commutes"]
    assert ev["step_transitions"] == 36 and ev["step_failures"] == 0 and ev["initial_ok"]
    assert ev["readout_pairs"] == 36 and ev["readout_failures"] == 0
    bad = agl_permutation_action(3, bias=False)
    assert bad["mismatches"] > 0 and bad["step_failures"] > 0 and bad["first_wrong_word"]


@pytest.mark.parametrize("max_len, err", [(0, ValueError), (2.0, TypeError), (True, TypeError)])
def test_bad_max_len_is_named(max_len, err):
    with pytest.raises(err, match="max_len"):
        agl_permutation_action(max_len)


def test_best_affine_readout_is_the_mean_permutation_and_matches_sampled_least_squares():
    """The exact optimum (normal equations, isotropic h0) against numpy least squares on sampled
    Gaussian h0 over the same words: the same weights and RMS error √(2/3) ≈ 0.816."""
    import numpy as np

    from seqtheory.numerics.affine_layer import agl_layer_states
    from seqtheory.numerics.affine_readout import agl_best_affine_readout
    from seqtheory.numerics.group_cascades import all_words, prefix_products

    ev = agl_best_affine_readout(3)
    assert ev["words"] == 6 + 36 + 216 and ev["mse_exact"] == "2/3"
    assert ev["weights"] == ["0; 0; 0; 1/3; 1/3; 1/3"] * 3
    G = FiniteGroup.named("S3")
    coords = agl13_coordinates(G)
    rng = np.random.default_rng(0)
    feats, ys = [], []
    for L in (1, 2, 3):
        W = all_words(6, L)
        sig, z = agl_layer_states(coords, W)
        g = prefix_products(G.cayley_table(), W)[:, -1]
        for _ in range(40):
            h0 = rng.normal(size=(W.shape[0], 3))
            P = np.array([np.array(permutation_matrix(G.elements[k]), dtype=float) for k in g])
            feats.append(np.column_stack([sig[:, -1], z[:, -1], np.ones(W.shape[0]), h0]))
            ys.append(np.einsum("nij,nj->ni", P, h0))
    F, Y = np.vstack(feats), np.vstack(ys)
    coef, *_ = np.linalg.lstsq(F, Y, rcond=None)
    rms = np.sqrt(np.mean((F @ coef - Y) ** 2))
    assert abs(rms - ev["rms_error"]) < 0.02 and abs(coef[3:] - 1 / 3).max() < 0.02
    with pytest.raises(ValueError):
        agl_best_affine_readout(0)

"""Tests for seqtheory.theory.hilbert: Hilbert distance, row diameter, dual norms, bounds ([HEAD])."""
from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

from seqtheory.theory.hilbert import (
    backward_bound, ce_control, hilbert_change, hilbert_distance, max_hilbert_change,
    max_l1_row_difference, row_diameter, tv_tanh_bound, variation_seminorm, worst_case_hidden,
)

SET = settings(max_examples=40, deadline=None)
finite = st.floats(-50, 50, allow_nan=False, allow_infinity=False)


def logits(n_min=2, n_max=8, scale=1.0):
    return st.integers(n_min, n_max).flatmap(
        lambda n: hnp.arrays(np.float64, n, elements=st.floats(-1, 1)).map(lambda a: a * scale))


def mats(v_min=2, v_max=7, d_min=1, d_max=5, el=finite):
    return st.tuples(st.integers(v_min, v_max), st.integers(d_min, d_max)).flatmap(
        lambda s: hnp.arrays(np.float64, s, elements=el))


def brute_diameter(S):
    diff = S[:, None, :] - S[None, :, :]
    return np.sqrt((diff ** 2).sum(-1)).max()


def log_softmax(z):
    m = z.max(-1, keepdims=True)
    return z - m - np.log(np.exp(z - m).sum(-1, keepdims=True))


# ---------------------------------------------------------------------------- Hilbert distance
@SET
@given(st.data(), st.sampled_from([1.0, 1e3]))
def test_hilbert_softmax_identity(data, scale):
    z = data.draw(logits(scale=scale))
    z2 = data.draw(hnp.arrays(np.float64, z.shape, elements=st.floats(-1, 1))) * scale
    lp, lq = log_softmax(z), log_softmax(z2)
    h = hilbert_distance(lp, lq, space="log")
    assert h == pytest.approx(np.ptp(z - z2), rel=1e-12, abs=1e-9 * scale)
    assert h == pytest.approx(hilbert_distance(z, z2, space="log"), abs=1e-9 * scale)
    if scale == 1.0:  # probability path agrees
        assert hilbert_distance(np.exp(lp), np.exp(lq)) == pytest.approx(h, abs=1e-9)


def test_hilbert_tiny_probabilities_and_projectivity():
    p = np.array([1e-310, 1e-305, 1.0])
    q = np.array([1e-300, 1e-300, 1.0])
    expected = 0.0 - math.log(1e-310 / 1e-300)   # ratios: 1e-10, 1e-5, 1
    assert hilbert_distance(p, q) == pytest.approx(expected, rel=1e-10)
    assert hilbert_distance(3 * p, q) == pytest.approx(expected, rel=1e-10)   # projective
    assert hilbert_distance(p, p) == 0.0


def test_hilbert_batched():
    z = np.random.default_rng(0).normal(size=(4, 3, 6))
    w = np.random.default_rng(1).normal(size=(4, 3, 6))
    out = hilbert_distance(z, w, space="log")
    assert out.shape == (4, 3)
    assert np.allclose(out, np.ptp(z - w, axis=-1))


@pytest.mark.parametrize("x,y,exc", [
    (np.array([0.5, 0.5]), np.array([0.2, 0.3, 0.5]), ValueError),
    (np.array([0.0, 1.0]), np.array([0.5, 0.5]), ValueError),
    (np.array([-0.1, 1.1]), np.array([0.5, 0.5]), ValueError),
    (np.array([np.nan, 1.0]), np.array([0.5, 0.5]), ValueError),
    (np.array(["a", "b"]), np.array([0.5, 0.5]), TypeError),
])
def test_hilbert_bad_input(x, y, exc):
    with pytest.raises(exc):
        hilbert_distance(x, y)


def test_bad_space_and_log_inf():
    with pytest.raises(ValueError, match="space"):
        hilbert_distance([0.5, 0.5], [0.5, 0.5], space="logits")
    with pytest.raises(ValueError, match="NaN or inf"):
        hilbert_distance([-np.inf, 0.0], [0.0, 0.0], space="log")
    with pytest.raises(ValueError):
        variation_seminorm(np.zeros(0))


# ---------------------------------------------------------------------------- row diameter
@SET
@given(mats(), st.integers(1, 4))
def test_row_diameter_matches_brute_force(S, block):
    D, (i, j) = row_diameter(S, block_rows=block)
    assert i < j
    assert D == pytest.approx(brute_diameter(S), rel=1e-12, abs=1e-12)
    assert np.linalg.norm(S[i] - S[j]) == pytest.approx(D, rel=1e-15)


def test_row_diameter_cancellation_guard():
    rng = np.random.default_rng(3)
    base = 1e8 * rng.normal(size=6)
    S = base + 1e-7 * rng.normal(size=(200, 6))     # huge common offset, tiny spread
    D, (i, j) = row_diameter(S, block_rows=17)
    assert D == pytest.approx(brute_diameter(S), rel=1e-6)
    S = np.ones((7, 3)) * 1e12                      # equal rows
    assert row_diameter(S)[0] == 0.0


def test_row_diameter_bad_input():
    with pytest.raises(ValueError, match="at least 2 row"):
        row_diameter(np.ones((1, 3)))
    with pytest.raises(ValueError, match="2-D"):
        row_diameter(np.ones(3))
    with pytest.raises(ValueError, match="NaN"):
        row_diameter(np.array([[0.0, np.nan], [1.0, 2.0]]))
    with pytest.raises(ValueError, match="block_rows"):
        row_diameter(np.ones((3, 3)), block_rows=0)


# ---------------------------------------------------------------------------- diameter identity
@SET
@given(mats(), st.integers(0, 10 ** 6), st.floats(0.1, 10))
def test_diameter_identity_independent_of_U_and_sup(S, seed, H):
    V, d = S.shape
    rng = np.random.default_rng(seed)
    U = rng.normal(size=(V, d)) * 5
    h = rng.normal(size=d)
    lhs = hilbert_distance(log_softmax((U + S) @ h), log_softmax(U @ h), space="log")
    pair_max = max(abs((S[i] - S[j]) @ h) for i in range(V) for j in range(i + 1, V))
    assert lhs == pytest.approx(pair_max, rel=1e-9, abs=1e-9)
    assert hilbert_change(S, h) == pytest.approx(pair_max, rel=1e-12, abs=1e-12)
    # sup over the ball: attained by the worst-case hidden state, never exceeded by random ones
    D = row_diameter(S)[0]
    hw = worst_case_hidden(S, H)
    assert np.linalg.norm(hw) == pytest.approx(H)
    assert hilbert_change(S, hw) == pytest.approx(H * D, rel=1e-9, abs=1e-12)
    hs = rng.normal(size=(50, d))
    hs *= H / np.linalg.norm(hs, axis=1, keepdims=True)
    assert np.all(hilbert_change(S, hs) <= H * D * (1 + 1e-12) + 1e-12)


def test_diameter_identity_wrong_norm_is_detected():
    """Using ‖·‖₁ in place of ‖·‖₂ in the identity overestimates the ℓ2-ball supremum."""
    S = np.array([[1.0, 1.0], [0.0, 0.0]])
    h = worst_case_hidden(S)
    assert hilbert_change(S, h) == pytest.approx(math.sqrt(2))
    assert max_l1_row_difference(S)[0] == pytest.approx(2.0)


@SET
@given(mats(d_max=4), st.integers(0, 10 ** 6))
def test_dual_norm_balls(S, seed):
    V, d = S.shape
    rng = np.random.default_rng(seed)
    # l_inf ball: vertices h ∈ {±1}^d attain the l1 row difference
    l1, (i, j) = max_l1_row_difference(S)
    assert hilbert_change(S, np.sign(S[i] - S[j]) + (S[i] == S[j])) == pytest.approx(l1, abs=1e-9)
    hs = rng.uniform(-1, 1, size=(200, d))
    assert np.all(hilbert_change(S, hs) <= l1 * (1 + 1e-12) + 1e-12)
    assert max_hilbert_change(S, "linf", 2.0) == pytest.approx(2 * l1)
    # rms ball of radius 1 = l2 ball of radius sqrt(d)
    assert max_hilbert_change(S, "rms") == pytest.approx(math.sqrt(d) * row_diameter(S)[0])
    # l1 ball: attained at ±e_k
    linf = max(np.abs(S[a] - S[b]).max() for a in range(V) for b in range(a + 1, V))
    assert max_hilbert_change(S, "l1") == pytest.approx(linf)


def test_zero_update_and_bad_ball():
    S = np.zeros((2, 3))
    assert max_hilbert_change(S) == 0.0
    assert np.linalg.norm(worst_case_hidden(S, 2.0)) == 2.0
    with pytest.raises(ValueError, match="ball"):
        max_hilbert_change(S, "l3")
    with pytest.raises(ValueError, match="radius"):
        max_hilbert_change(S, "l2", -1)
    with pytest.raises(ValueError, match="last dimension"):
        hilbert_change(S, np.ones(4))


# ---------------------------------------------------------------------------- bounds
@SET
@given(mats(), st.integers(0, 10 ** 6))
def test_backward_bound_and_tightness(S, seed):
    V = S.shape[0]
    r = np.random.default_rng(seed).normal(size=V)
    r -= r.mean()
    lhs, rhs = backward_bound(S, r, atol=1e-9)
    assert lhs <= rhs * (1 + 1e-12) + 1e-12
    D, (i, j) = row_diameter(S)
    e = np.zeros(V)
    e[i], e[j] = 1.0, -1.0
    lhs, rhs = backward_bound(S, e)
    assert lhs == pytest.approx(rhs, rel=1e-12, abs=1e-12)


def test_backward_bound_needs_zero_sum():
    with pytest.raises(ValueError, match="sum to zero"):
        backward_bound(np.eye(3), np.array([1.0, 0.0, 0.0]))
    with pytest.raises(ValueError, match="length"):
        backward_bound(np.eye(3), np.array([1.0, -1.0]))


@SET
@given(st.data(), st.sampled_from([1.0, 30.0, 1e3]))
def test_tv_tanh_and_ce_control(data, scale):
    z = data.draw(logits(scale=scale))
    z2 = data.draw(hnp.arrays(np.float64, z.shape, elements=st.floats(-1, 1))) * scale
    tv, bound = tv_tanh_bound(z, z2, space="log")
    assert tv <= bound + 1e-12
    dev, H = ce_control(z, z2, space="log")
    assert dev <= H * (1 + 1e-12) + 1e-9


@pytest.mark.parametrize("t", [0.0, 0.3, 2.0, 10.0])
def test_tv_tanh_two_point_equality(t):
    s = lambda x: 1 / (1 + math.exp(-x))  # noqa: E731
    p = np.array([s(t / 2), s(-t / 2)])
    q = p[::-1].copy()
    tv, bound = tv_tanh_bound(p, q)
    assert tv == pytest.approx(bound, abs=1e-12)


def test_tv_ce_tiny_probabilities():
    p = np.array([1e-320, 1.0])
    q = np.array([0.5, 0.5])
    tv, bound = tv_tanh_bound(p, q)
    assert tv <= bound and tv == pytest.approx(0.5)
    dev, H = ce_control(p, q)
    assert dev <= H and np.isfinite(H)


# ============================================================================ adversarial review
# Regression tests for defects found by an adversarial review.

@pytest.mark.parametrize("s", [1e-300, 1e-170, 1e200, 1e300])
def test_row_diameter_at_extreme_scales(s):
    """Squared norms under/overflowed: D = 0 for entries 1e-170 and inf for entries 1e200,
    although the true diameter 2s is representable."""
    S = np.array([[s, 0.0], [-s, 0.0], [0.0, 0.5 * s]])
    D, pair = row_diameter(S)
    assert D == pytest.approx(2 * s, rel=1e-15, abs=0.0) and pair == (0, 1)
    assert max_hilbert_change(S) == pytest.approx(2 * s, rel=1e-15, abs=0.0)


def test_min_max_ratio_is_scale_invariant():
    from seqtheory.theory.hilbert import min_max_distance_ratio

    X = np.array([[1.0, 0.0], [0.0, 1.0], [0.0, 0.0]])
    for s in (1e-300, 1.0, 1e300):
        assert min_max_distance_ratio(s * X) == pytest.approx(1 / math.sqrt(2), rel=1e-15)


def test_axis_and_bool_inputs_are_rejected():
    """axis=3 raised an IndexError from inside; boolean arrays were read as 0/1."""
    with pytest.raises(ValueError, match="axis"):
        hilbert_distance([1.0, 2.0], [1.0, 2.0], axis=3)
    with pytest.raises(ValueError, match="axis"):
        variation_seminorm([1.0, 2.0], axis=True)
    with pytest.raises(TypeError, match="bool"):
        hilbert_distance([True, True], [1.0, 1.0])
    with pytest.raises(ValueError, match="block_rows"):
        row_diameter([[0.0, 0.0], [3.0, 4.0]], block_rows=True)


@pytest.mark.parametrize("s", [1e-200, 1e200])
def test_worst_case_hidden_at_extreme_scales(s):
    """‖s_i − s_j‖ underflowed to 0 (h = inf) for rows of size 1e-200 (found by hypothesis once
    the row diameter stopped returning 0 there)."""
    S = np.array([[s, 0.0], [0.0, s]])
    h = worst_case_hidden(S, 2.0)
    assert np.all(np.isfinite(h)) and np.linalg.norm(h) == pytest.approx(2.0)
    assert np.allclose(h, [math.sqrt(2), -math.sqrt(2)])

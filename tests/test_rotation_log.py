"""``models.tasks.rotation_log`` against a 50-digit mpmath reference, for angles near 0 and near π.

The reference builds the rotation ``R = exp(θ [n]_×)`` by Rodrigues' formula at 50 digits from an
axis ``n`` and an angle ``θ``, rounds it to float64, and compares ``rotation_log`` of the rounded
matrix with the true logarithm ``θ [n]_×``. For ``θ < π`` the principal logarithm is unique, so a
flipped axis near π (the logarithm of the inverse rotation, an error of about 2π) is caught.
"""
from __future__ import annotations

import itertools

import mpmath
import numpy as np
import pytest
from hypothesis import example, given, settings, strategies as st

from seqtheory.models.tasks import rotation_exp, rotation_log, so3_basis

DPS = 50
TOL = 1e-14          # absolute, on the entries of the logarithm (a few ulps of π)


def _hat(v) -> np.ndarray:
    return np.tensordot(np.asarray(v, dtype=float), so3_basis(), axes=1)


def _mp_rotation(axis, theta) -> tuple[np.ndarray, np.ndarray]:
    """(float64 rounding of R = exp(θ[n]_×), float64 rounding of θ[n]_×), computed at 50 digits."""
    with mpmath.workdps(DPS):
        n = [mpmath.mpf(float(a)) for a in axis]
        nrm = mpmath.sqrt(sum(a * a for a in n))
        n = [a / nrm for a in n]
        K = mpmath.matrix([[0, -n[2], n[1]], [n[2], 0, -n[0]], [-n[1], n[0], 0]])
        R = mpmath.eye(3) + mpmath.sin(theta) * K + (1 - mpmath.cos(theta)) * (K * K)
        X = theta * K
        return (np.array([[float(R[i, j]) for j in range(3)] for i in range(3)]),
                np.array([[float(X[i, j]) for j in range(3)] for i in range(3)]))


def _check(axis, theta):
    R, X = _mp_rotation(axis, theta)
    L = rotation_log(R)
    assert np.abs(L - X).max() < TOL, (axis, theta, L, X)
    assert np.abs(L + L.T).max() == 0.0                      # exactly skew-symmetric


AXES = [np.array(s) * e for e in np.eye(3) for s in (1.0, -1.0)] + [
    np.array(p) for p in itertools.product((1.0, -1.0), (0.5, -0.5), (2.0, -2.0))]


@pytest.mark.parametrize("axis", AXES, ids=lambda a: str(a.tolist()))
@pytest.mark.parametrize("delta", [1e-12, 1e-9, 1e-6, 1e-3])
def test_every_axis_sign_pattern_near_pi_and_near_zero(axis, delta):
    with mpmath.workdps(DPS):
        _check(axis, mpmath.pi - mpmath.mpf(delta))       # near π
        _check(axis, mpmath.mpf(delta))                    # near 0


def test_issue_example_axis_minus_z():
    # rotation by π − 1e-9 about (0, 0, −1): the earlier eigenvector branch returned −log R
    with mpmath.workdps(DPS):
        _check([0.0, 0.0, -1.0], mpmath.pi - mpmath.mpf("1e-9"))


axis_st = st.tuples(*[st.floats(-1, 1, allow_nan=False)] * 3).filter(
    lambda a: np.linalg.norm(a) > 1e-3)


@settings(max_examples=60, deadline=None)
@given(axis_st, st.floats(-12, -3), st.booleans())
@example((0.0, 0.0, -1.0), -9.0, True)
@example((1e-3, 0.0, -1.0), -12.0, True)
def test_random_axes_near_pi_and_zero(axis, log10_delta, near_pi):
    with mpmath.workdps(DPS):
        delta = mpmath.mpf(10) ** log10_delta
        _check(axis, mpmath.pi - delta if near_pi else delta)


@settings(max_examples=60, deadline=None)
@given(axis_st, st.floats(0, np.pi - 1e-12))
def test_any_angle_matches_reference(axis, theta):
    with mpmath.workdps(DPS):
        _check(axis, mpmath.mpf(theta))


@settings(max_examples=30, deadline=None)
@given(axis_st, st.floats(0, 1e-15))
@example((0.0, 0.0, -1.0), 0.0)
@example((0.0, 0.0, -1.0), 1.2246467991473532e-16)
@example((0.0, 0.0, -1.0), 1e-15)
@example((0.0, 1e-9, -1.0), 0.0)          # an axis entry at the convention's 1e-9 threshold
def test_within_rounding_of_pi_either_logarithm_and_the_convention(axis, delta):
    # π − θ ≲ 1e-15: the skew part of the rounded R is at the rounding level of its entries, so R
    # does not determine the sign of the axis; the result must be one of the two logarithms
    # ±π[n]_× (to rounding), chosen by the documented convention
    with mpmath.workdps(DPS):
        R, X = _mp_rotation(axis, mpmath.pi - mpmath.mpf(delta))
    L = rotation_log(R)
    assert np.abs(rotation_exp(L) - R).max() < 1e-14
    skew = np.array([R[2, 1] - R[1, 2], R[0, 2] - R[2, 0], R[1, 0] - R[0, 1]]) / 2
    if np.abs(skew).max() > 4 * np.finfo(float).eps:         # R still fixes the sign
        assert np.abs(L - X).max() < TOL
    else:                                                   # it does not: the convention
        assert min(np.abs(L - X).max(), np.abs(L + X).max()) < TOL
        # the convention reads the axis n = v / π: its first entry of modulus > 1e-9 is positive
        # (an entry at the threshold itself, to rounding, may count either way)
        n = np.array([L[2, 1], L[0, 2], L[1, 0]]) / np.pi
        first = n[np.flatnonzero(np.abs(n) > 1e-9)[0]]
        assert first > 0 or abs(abs(first) - 1e-9) < 1e-20


def test_identity_and_exact_half_turns_follow_the_stated_convention():
    assert np.array_equal(rotation_log(np.eye(3)), np.zeros((3, 3)))
    # angle π exactly: ±π[n]_× are both logarithms; the axis has its first non-zero entry > 0
    for n in ([1, 0, 0], [0, 1, 0], [0, 0, 1], [1, -1, 0], [0, 1, -1], [1, 1, -1]):
        n = np.array(n, dtype=float) / np.linalg.norm(n)
        R = 2.0 * np.outer(n, n) - np.eye(3)
        L = rotation_log(R)
        assert np.abs(L - np.pi * _hat(n)).max() < 1e-15
        assert np.abs(rotation_exp(L) - R).max() < 1e-15
        # the same half-turn given with the opposite axis gives the same logarithm
        assert np.array_equal(rotation_log(2.0 * np.outer(-n, -n) - np.eye(3)), L)


def test_rejects_non_rotations_naming_R():
    for bad in (np.diag([1.0, 1.0, -1.0]), 2 * np.eye(3)):
        with pytest.raises(ValueError, match="R must be a rotation"):
            rotation_log(bad)
    with pytest.raises(ValueError, match="R must be a finite 3x3"):
        rotation_log(np.eye(2))
    with pytest.raises(ValueError, match="R must be a finite 3x3"):
        rotation_log(np.full((3, 3), np.nan))

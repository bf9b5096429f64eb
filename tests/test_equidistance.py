"""Equidistance limit ([HEAD] v1): exact Gram argument, bounds, and the max-min optimiser."""
from __future__ import annotations

import math

import numpy as np
import pytest

from seqtheory.numerics.equidistance import max_min_separation
from seqtheory.theory.hilbert import (
    equidistant_gram, jung_radius, max_equidistant_points, min_max_distance_ratio,
    rankin_ratio_bound, separation_ratio_bound, simplex_ratio_bound,
)


@pytest.mark.parametrize("d", [1, 2, 3, 5, 8])
def test_max_equidistant_points_exact(d):
    assert max_equidistant_points(d) == d + 1
    assert equidistant_gram(d + 2).rank() == d + 1


def test_gram_entries_exact():
    import flint

    G = equidistant_gram(3)
    assert G[0, 1] == flint.fmpq(1, 2) and G[0, 0] == 1
    with pytest.raises(ValueError):
        equidistant_gram(1)
    with pytest.raises(TypeError):
        max_equidistant_points(2.0)


def test_bounds():
    assert jung_radius(1) == pytest.approx(0.5)
    assert simplex_ratio_bound(4, 3) == pytest.approx(1.0)
    for d in range(1, 6):
        for V in range(2, d + 2):
            assert separation_ratio_bound(V, d) == 1.0
        assert rankin_ratio_bound(d + 2, d) == pytest.approx(math.sqrt(d / (d + 1)))
        assert separation_ratio_bound(d + 2, d) < 1.0


@pytest.mark.parametrize("V,expected", [(4, 1 / math.sqrt(2)), (5, 2 / (1 + math.sqrt(5))),
                                        (7, 0.5)])
def test_known_planar_optima(V, expected):
    """Bateman–Erdős optima of the min/max distance ratio in the plane."""
    r = max_min_separation(V, 2, starts=6, seed=0)
    assert r.ratio == pytest.approx(expected, abs=1e-4)
    assert r.ratio <= r.bound


@pytest.mark.parametrize("V,d", [(3, 2), (4, 3), (2, 1)])
def test_simplex_reached_iff_V_le_d_plus_1(V, d):
    assert max_min_separation(V, d, starts=4, seed=1).ratio == pytest.approx(1.0, abs=1e-6)


def test_line_case_and_input_errors():
    r = max_min_separation(4, 1, starts=4, seed=0)
    assert r.ratio == pytest.approx(1 / 3, abs=1e-5)
    assert min_max_distance_ratio(r.points) == pytest.approx(r.ratio)
    assert min_max_distance_ratio(np.zeros((3, 2))) == 0.0
    with pytest.raises(ValueError):
        max_min_separation(1, 2)
    with pytest.raises(TypeError):
        max_min_separation(3, 2.5)


@pytest.mark.parametrize("V,d", [(2, 1), (3, 2), (4, 3), (5, 4), (3, 5)])
def test_the_v1_update_is_the_regular_simplex_up_to_d_plus_1(V, d):
    from seqtheory.numerics.equidistance import max_min_update

    u = max_min_update(V, d, 0.3)
    assert u.S.shape == (V, d) and u.method.startswith("regular simplex")
    assert u.diameter == pytest.approx(0.3, rel=1e-14) and u.ratio == pytest.approx(1.0, rel=1e-14)
    assert np.abs(u.S.sum(axis=0)).max() < 1e-15


def test_the_v1_update_beyond_d_plus_1_and_bad_input():
    from seqtheory.numerics.equidistance import max_min_update

    u = max_min_update(7, 2, 2.0, starts=6, seed=0)
    assert u.diameter == pytest.approx(2.0, rel=1e-12) and u.ratio == pytest.approx(0.5, abs=1e-6)
    assert u.min_separation == pytest.approx(1.0, abs=2e-6) and u.ratio <= u.bound
    assert np.abs(u.S.sum(axis=0)).max() < 1e-12
    with pytest.raises(ValueError, match="eta"):
        max_min_update(4, 2, 0.0)
    with pytest.raises(TypeError, match="eta"):
        max_min_update(4, 2, "1")
    with pytest.raises(ValueError, match="V"):
        max_min_update(1, 2, 1.0)

"""Random k-layer cascades: construction and the derived-length bounds (Prop. 3.3 of [DEPTH])."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from seqtheory.theory.lie_cascades import (affine_counterexample, cascade_lie_algebra,
                                           random_cascade, structural_bound)


def test_construction_shape_and_structure():
    c = random_cascade([2, 3], 2, seed=1)
    assert c.k == 2 and c.state_dim == 5
    for M in c.generators:
        assert not M[:2, 2:].any()                      # block lower triangular
        assert (M[:2, :2] == np.diag(np.diag(M[:2, :2]))).all()  # diagonal layer blocks
        assert (M[2:, 2:] == np.diag(np.diag(M[2:, 2:]))).all()
    a = random_cascade([2, 3], 2, seed=1, affine=True)
    for M in a.generators:
        assert M.shape == (6, 6) and not M[5].any()     # homogeneous row [0 ... 0]


def test_seeded():
    x = random_cascade([1, 2, 1], 3, seed=7)
    y = random_cascade([1, 2, 1], 3, seed=7)
    assert all((p == q).all() for p, q in zip(x.generators, y.generators))


def test_affine_counterexample():
    gens, L = affine_counterexample()
    assert L.derived_series().dims == (2, 1, 0) and L.derived_length == 2
    assert L.bracket(gens[0], gens[1]).tolist() == [[0, 1], [0, 0]]


def test_structural_bound_values():
    assert [structural_bound(k) for k in range(1, 6)] == [1, 2, 3, 3, 4]
    assert [structural_bound(k, True) for k in range(1, 6)] == [2, 3, 3, 4, 4]


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2 ** 32 - 1), st.integers(1, 4), st.booleans())
def test_random_cascades_respect_bounds(seed, k, affine):
    rng = np.random.default_rng(seed)
    dims = [int(d) for d in rng.integers(1, 3, k)]
    c = random_cascade(dims, 2, affine=affine, seed=seed)
    dl = cascade_lie_algebra(c).derived_length
    assert dl is not None
    assert dl <= structural_bound(k, affine) <= (2 * k if affine else k)


def test_noncommuting_layers_break_solvability():
    c = random_cascade([2, 2], 2, seed=0, commuting_layers=False)
    assert cascade_lie_algebra(c).derived_length is None


def test_bad_input():
    with pytest.raises(ValueError):
        random_cascade([], 2)
    with pytest.raises(ValueError):
        random_cascade([1, 0], 2)
    with pytest.raises(ValueError):
        random_cascade([1], 0)
    with pytest.raises(ValueError):
        random_cascade([1], 1, coupling="diagonal")


# ============================================================================ adversarial review
# Regression tests for defects found by an adversarial review.

@pytest.mark.parametrize("kwargs", [dict(layer_dims=[1.5, 2]), dict(layer_dims=[True, 1]),
                                    dict(layer_dims=[2], n_inputs=True),
                                    dict(layer_dims=[2], entry_range=2.0), dict(layer_dims="12")])
def test_random_cascade_rejects_non_ints(kwargs):
    """int() coercion once built a cascade with layer sizes (1, 2) from [1.5, 2]."""
    with pytest.raises(ValueError):
        random_cascade(**kwargs)


def test_structural_bound_rejects_bool():
    with pytest.raises(ValueError, match="k must be"):
        structural_bound(True)

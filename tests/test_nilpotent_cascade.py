"""The explicit k-layer abelian cascades of numerics.nilpotent_cascade ([DEPTH] arXiv:2603.05573,
Corollary 3.6): exact group element, translation layers, realised class, error exponent."""
from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from seqtheory.numerics.fits import fit_loglog_slope
from seqtheory.numerics.local_error import target_generators
from seqtheory.numerics.nilpotent_cascade import (derived_series_tensor_bases,
                                                  free_group_element, nilpotent_cascade)
from seqtheory.numerics.separation import word_signature_levels
from seqtheory.theory.free_lie import derived_ideal_dimensions

SO3 = target_generators("so3_a5")
GL3 = target_generators("gl_random", seed=1, n_letters=3)


@pytest.mark.parametrize("n,c", [(2, 4), (2, 6), (3, 3)])
def test_derived_series_dimensions_match_free_lie(n, c):
    D = derived_series_tensor_bases(n, c)
    for j in range(1, len(D)):
        assert {m: len(D[j][m]) for m in D[j]} == derived_ideal_dimensions(n, j, c)
    assert all(len(v) == 0 for v in D[-1].values())


def test_free_group_element_matches_integer_signature():
    """Independent oracle: separation.word_signature_levels holds m!·(level m) at ε = 1."""
    import math

    w = [0, 1, 1, 0, 1]
    g = free_group_element(w, 2, 4, 1)
    ref = word_signature_levels(w, 2, 4)
    for m in range(1, 5):
        assert [int(x * math.factorial(m)) for x in g[m]] == [int(v) for v in ref[m]]


@pytest.mark.parametrize("coupling,k,c", [("linear", 1, 1), ("linear", 3, 3),
                                          ("polynomial", 1, 1), ("polynomial", 2, 4)])
def test_realised_class(coupling, k, c):
    C = nilpotent_cascade(SO3, k, coupling)
    assert (C.depth, C.nilpotency_class, len(C.layers)) == (k, c, k)
    assert nilpotent_cascade(GL3, 2, "polynomial").nilpotency_class == 3     # c_2(3) = 3


@settings(max_examples=15, deadline=None)
@given(word=st.lists(st.integers(0, 1), min_size=1, max_size=6),
       coupling=st.sampled_from(["linear", "polynomial"]), k=st.integers(1, 2),
       den=st.integers(1, 50))
def test_cascade_state_is_the_free_nilpotent_element(word, coupling, k, den):
    C = nilpotent_cascade(SO3, k, coupling)
    eps = Fraction(1, den)
    g = C.group_element(C.run(word, eps))
    ref = free_group_element(word, 2, C.nilpotency_class, eps)
    assert all(bool((a == b).all()) for a, b in zip(g, ref))


@pytest.mark.parametrize("coupling", ["linear", "polynomial"])
def test_layers_are_translations_driven_by_lower_layers(coupling):
    from flint import fmpq

    C = nilpotent_cascade(GL3, 2, coupling)
    z = C.run([0, 2, 1], Fraction(1, 7))
    rng = np.random.default_rng(0)
    for x in range(3):
        d0, new = C.translations(z, x, Fraction(1, 7))
        for j in range(len(z)):
            assert all(bool(a == b + d) for a, b, d in zip(new[j], z[j], d0[j]))
            shifted = [s if i < j else s + np.array([fmpq(int(v), 5) for v in
                                                     rng.integers(-9, 9, len(s))], dtype=object)
                       for i, s in enumerate(z)]
            dj, _ = C.translations(shifted, x, Fraction(1, 7))
            assert bool((dj[j] == d0[j]).all())
        # per-token maps of one layer commute: two tokens in either order, lower inputs frozen
    a, _ = C.translations(z, 0, Fraction(1, 7))
    b, _ = C.translations(z, 1, Fraction(1, 7))
    assert all(bool(((z[j] + a[j]) + b[j] == (z[j] + b[j]) + a[j]).all()) for j in range(len(z)))


@pytest.mark.parametrize("coupling,k,expected", [("linear", 2, 3), ("polynomial", 2, 5)])
def test_error_exponent_is_class_plus_one(coupling, k, expected):
    C = nilpotent_cascade(SO3, k, coupling)
    w = [0, 1, 1, 0, 1]
    eps = [Fraction(1, N) for N in (400, 600, 900, 1350, 2000)]
    errs = [C.error(w, e, dps=60) for e in eps]
    fit = fit_loglog_slope([float(e) for e in eps], errs)
    assert fit.contains(expected, 0.05) and not fit.contains(expected - 1, 0.05)


def test_simulate_returns_the_target_shape_and_reversal_breaks_it():
    C = nilpotent_cascade(SO3, 2, "polynomial")
    M = C.simulate([0, 1, 1], Fraction(1, 100))
    assert (M.rows, M.cols) == (3, 3)
    assert float(C.error([0, 1, 1], Fraction(1, 100))) < 1e-8          # O(ε^5)
    from seqtheory.numerics.local_error import path_product

    wrong = C.simulate([1, 1, 0], Fraction(1, 100))                    # reversed word: O(ε^2)
    ref = path_product(SO3, [0, 1, 1], Fraction(1, 100))
    assert max(abs(float(wrong[i, j] - ref[i, j])) for i in range(3) for j in range(3)) > 1e-6


def test_bad_input():
    with pytest.raises(ValueError, match="coupling"):
        nilpotent_cascade(SO3, 2, "cubic")
    with pytest.raises(ValueError, match="depth"):
        nilpotent_cascade(SO3, 0)
    with pytest.raises(TypeError, match="depth"):
        nilpotent_cascade(SO3, 2.0)
    with pytest.raises(ValueError, match="nilpotency_class"):
        nilpotent_cascade(SO3, 2, "linear", nilpotency_class=3)
    with pytest.raises(ValueError, match="at least 2"):
        nilpotent_cascade(SO3[:1], 2)
    C = nilpotent_cascade(SO3, 1)
    with pytest.raises(ValueError, match="eps"):
        C.run([0], -1)
    with pytest.raises(ValueError, match=r"word\[1\] must be in 0..1"):
        C.run([0, 2], Fraction(1, 10))


def test_output_precision_follows_dps_for_exact_generators():
    """so(3) generators are exact (sympy): the output map must read them at its own precision,
    not at the precision current when the cascade was built (an error floor ~1e-16·ε)."""
    C = nilpotent_cascade(SO3, 2, "polynomial")
    eps = [Fraction(1, N) for N in (40000, 80000)]
    errs = [C.error([0, 1, 1, 0, 1], e, dps=80) for e in eps]
    assert float(errs[1]) < 1e-21 and 30 < float(errs[0] / errs[1]) < 34     # ε^5 scaling


def test_simulate_reads_an_mpmath_eps_exactly():
    import mpmath

    C = nilpotent_cascade(SO3, 2, "polynomial")
    eps = mpmath.mpf("0.01")                         # the binary rational nearest 1/100
    exact = Fraction(*eps.as_integer_ratio()) if hasattr(eps, "as_integer_ratio") \
        else Fraction(float(eps))                    # 0.01 has 53 bits: a float holds it exactly
    assert exact != Fraction(1, 100)
    assert C.simulate([0, 1, 1], eps) == C.simulate([0, 1, 1], exact)
    assert C.error([0, 1, 1], mpmath.mpf(2) ** -7) == C.error([0, 1, 1], Fraction(1, 128))
    for bad, error in ((mpmath.mpf(-1) / 8, ValueError), (mpmath.inf, ValueError),
                       (mpmath.mpc(1, 1), TypeError)):
        with pytest.raises(error, match="eps"):
            C.simulate([0, 1], bad)


def test_a_cached_basis_does_not_answer_a_bool_or_a_float():
    """The cache of ``derived_series_tensor_bases`` is typed: ``c=True`` (or ``1.0``), equal and
    hashed equal to 1, is refused even after ``c=1`` was computed (it was answered from the cache,
    so ``tests/test_integer_arguments.py`` failed when a test before it had computed ``c=1``)."""
    derived_series_tensor_bases(2, 1)
    for bad in (True, 1.0):
        with pytest.raises(TypeError, match="c must be an int"):
            derived_series_tensor_bases(2, bad)

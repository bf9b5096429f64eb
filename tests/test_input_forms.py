"""Every input form of LieAlgebra.spanned_by / generated_by gives the algebra of the numpy-int path.

Forms: nested lists, tuples, numpy arrays of several integer dtypes and of dtype object, one 3-D
array, Fractions (with denominators, compared with the integer matrices they scale), sympy
Matrices; floats go to the float path. The closure is also compared with a naive reference
(bracket everything with everything, span, repeat) built on :func:`seqtheory.theory.linalg.span`.
"""
from fractions import Fraction

import numpy as np
import pytest
import sympy
from hypothesis import example, given, settings, strategies as st

from seqtheory.theory.lie import LieAlgebra
from seqtheory.theory.lie_named import b, so, strictly_upper
from seqtheory.theory.linalg import span

EXACT_FORMS = {
    "lists": lambda ms: [m.tolist() for m in ms],
    "tuples": lambda ms: tuple(tuple(map(tuple, m.tolist())) for m in ms),
    "int8": lambda ms: [m.astype(np.int8) for m in ms],
    "int16": lambda ms: [m.astype(np.int16) for m in ms],
    "object ndarray": lambda ms: [m.astype(object) for m in ms],
    "3-D array": lambda ms: np.stack(ms),
    "numpy scalars in lists": lambda ms: [[list(r) for r in m] for m in ms],
    "Fractions": lambda ms: [[[Fraction(int(x)) for x in r] for r in m] for m in ms],
    "sympy Matrix": lambda ms: [sympy.Matrix(m.tolist()) for m in ms],
    "sympy entries in lists": lambda ms: [[[sympy.Integer(int(x)) for x in r] for r in m] for m in ms],
}

small_mats = st.integers(2, 3).flatmap(lambda n: st.lists(
    st.lists(st.integers(-3, 3), min_size=n * n, max_size=n * n).map(
        lambda v, n=n: np.array(v, dtype=np.int64).reshape(n, n)),
    min_size=1, max_size=3))


def _naive_closure(ms) -> "object":
    """Reference: span, then add every bracket of every pair of basis vectors, until stable."""
    n = ms[0].shape[0]
    S = span([[int(x) for x in m.ravel()] for m in ms], field="QQ")
    while True:
        B = [np.array(r, dtype=object).reshape(n, n) for r in S.basis]
        br = [(x @ y - y @ x).ravel().tolist() for x in B for y in B]
        T = span([list(r) for r in S.basis] + br, field="QQ") if B else S
        if T.dim == S.dim:
            return S
        S = T


@settings(max_examples=25, deadline=None)
@given(small_mats)
@example([np.array([[0, 1], [0, 0]]), np.array([[0, 0], [1, 0]])])        # sl(2)
@example([np.array([[1, 2], [2, 4]]), np.array([[2, 4], [4, 8]])])        # dependent generators
@example([np.zeros((3, 3), dtype=np.int64)])                              # zero algebra
def test_generated_by_every_exact_form_equals_numpy_int(ms):
    ref = LieAlgebra.generated_by(ms)
    assert ref.space == _naive_closure(ms)
    for name, form in EXACT_FORMS.items():
        L = LieAlgebra.generated_by(form(ms))
        assert L.field == "QQ", name
        assert L == ref, name
        assert L.derived_series().dims == ref.derived_series().dims, name
        assert L.lower_central_series().dims == ref.lower_central_series().dims, name


@settings(max_examples=25, deadline=None)
@given(small_mats, st.lists(st.integers(1, 6), min_size=3, max_size=3))
def test_fractions_with_denominators_give_the_scaled_integer_algebra(ms, dens):
    """Each matrix divided by a positive integer generates the same algebra (exact scaling)."""
    fr = [[[Fraction(int(x), dens[t]) for x in r] for r in m] for t, m in enumerate(ms)]
    sy = [sympy.Matrix(m.tolist()) / dens[t] for t, m in enumerate(ms)]
    ref = LieAlgebra.generated_by(ms)
    assert LieAlgebra.generated_by(fr) == ref
    assert LieAlgebra.generated_by(sy) == ref
    mixed = [[[Fraction(int(x), dens[t]) if (i + j) % 2 else int(x) for j, x in enumerate(r)]
              for i, r in enumerate(m)] for t, m in enumerate(ms)]
    assert LieAlgebra.generated_by(mixed) == LieAlgebra.generated_by(
        [np.array([[Fraction(int(x), dens[t]) if (i + j) % 2 else int(x) for j, x in enumerate(r)]
                   for i, r in enumerate(m)], dtype=object) for t, m in enumerate(ms)])


@pytest.mark.parametrize("make", [lambda: b(5), lambda: strictly_upper(5), lambda: so(5)])
def test_spanned_by_every_form_of_a_named_basis(make):
    L = make()
    ms = [np.array(m, dtype=np.int64) for m in L.basis]
    for name, form in EXACT_FORMS.items():
        M = LieAlgebra.spanned_by(form(ms))
        assert M == L, name
        assert M.upper_central_series().dims == L.upper_central_series().dims, name
    with pytest.raises(TypeError, match=r"mats\[0\] holds float32 values"):   # issue 33 kind 4
        LieAlgebra.spanned_by([m.astype(np.float32) for m in ms])
    F = LieAlgebra.spanned_by([m.astype(np.float32).astype(np.float64) for m in ms])
    assert F.field == "RR" and F.dim == L.dim
    assert LieAlgebra.spanned_by([m.tolist() for m in ms], tol=1e-9).field == "RR"


def test_large_integers_stay_exact():
    big = 2 ** 70 + 1
    A = [[0, big], [0, 0]]
    B = [[0, 0], [1, 0]]
    L = LieAlgebra.generated_by([A, B])
    assert L.dim == 3 and L.field == "QQ"
    assert LieAlgebra.generated_by([np.array(A, dtype=object), np.array(B)]) == L
    # 2**63 fits uint64 but not int64: exact, not wrapped
    U = np.array([[0, 2 ** 63], [0, 0]], dtype=np.uint64)
    assert LieAlgebra.spanned_by([U]).contains(np.array([[0, 1], [0, 0]]))
    assert LieAlgebra.spanned_by([[[0, 2 ** 62 + 1], [0, 0]]]).basis[0][0, 1] == 1


@pytest.mark.parametrize("mats, err, words", [
    ([[[True, 0], [0, 1]]], TypeError, "boolean"),
    ([np.eye(2, dtype=bool)], TypeError, "boolean"),
    ([[[1, "2"], [0, 1]]], TypeError, "string"),
    ([[[1j, 0], [0, 1]]], TypeError, "complex"),
    ([[[0.0, 1.0], [0, 0]], [[float("nan"), 0], [0, 0]]], ValueError, "mats[1]: entry nan"),
    ([[[1, 2], [3]]], ValueError, "square"),
    ([[[1, 2], [3, 4]], [[1]]], ValueError, "expected 2x2"),
    ([[[1, 2, 3], [4, 5, 6]]], ValueError, "square"),
    ([np.zeros((0, 0))], ValueError, "0x0"),
    ([], ValueError, "empty"),
    (np.eye(3), ValueError, "one 2-D array"),
    ([[[10 ** 400, 0.5], [0, 0]]], ValueError, "too large"),
])
def test_bad_input_is_refused_with_a_named_reason(mats, err, words):
    with pytest.raises(err, match=None) as info:
        LieAlgebra.generated_by(mats)
    assert words in str(info.value)
    assert "mats" in str(info.value)


@settings(max_examples=15, deadline=None)
@given(small_mats, st.sampled_from([2, 3]))
@example([np.array([[0, 0, 2], [3, -3, -2], [2, 3, -2]]),                # gl(3); modulo 2 the
          np.array([[-1, 3, -1], [-2, 2, -2], [-1, 1, 0]])], 2)             # exact fallback runs
def test_closure_exact_when_the_selection_prime_misses_rows(ms, p):
    """The closure picks new vectors by independence modulo a prime and re-tests the rest
    exactly; with a tiny prime many independent rows look dependent (or zero) modulo it, so the
    exact re-test and the exact fallback decide -- the algebra must not change."""
    import seqtheory.theory.lie_exact as lie_module

    saved = lie_module._SELECT_PRIME
    lie_module._SELECT_PRIME = p
    try:
        L = LieAlgebra.generated_by(ms)
    finally:
        lie_module._SELECT_PRIME = saved
    assert L.space == _naive_closure(ms)

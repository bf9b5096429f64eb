"""theory/magnus_kernels.py: the Magnus terms of a general A(t) as exact kernels on the time
simplex (the certificate of ``magnus.terms`` for Ω1–Ω4)."""
from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from seqtheory.theory.magnus_kernels import (TEXTBOOK_TERMS, bracket_kernel, textbook_kernel,
                                             time_ordered_log_kernel)


def _left_normed(word: tuple[int, ...]) -> dict[tuple[int, ...], Fraction]:
    """The kernel of [[…[w1, w2], …], wm]."""
    b = word[0]
    for x in word[1:]:
        b = (b, x)
    return bracket_kernel([b])


def _is_lie(kernel: dict, m: int) -> bool:
    """Dynkin–Specht–Wever: a homogeneous element P of degree m is a Lie element iff
    Σ_w c_w [[w1, w2], …, wm] = m·P."""
    out: dict = {}
    for w, c in kernel.items():
        for u, x in _left_normed(w).items():
            out[u] = out.get(u, Fraction(0)) + c * x
    return {u: x for u, x in out.items() if x} == {w: m * c for w, c in kernel.items()}


@pytest.mark.parametrize("m", [1, 2, 3, 4])
@pytest.mark.parametrize("convention", ["AY", "YA"])
def test_textbook_terms_equal_the_logarithm_exactly(m, convention):
    assert textbook_kernel(m, convention) == time_ordered_log_kernel(m, convention)


def test_known_kernels():
    assert time_ordered_log_kernel(1) == {(1,): 1}
    assert time_ordered_log_kernel(2) == {(1, 2): Fraction(1, 2), (2, 1): Fraction(-1, 2)}
    assert time_ordered_log_kernel(2, "YA") == {(1, 2): Fraction(-1, 2), (2, 1): Fraction(1, 2)}
    assert len(time_ordered_log_kernel(4)) == 24 and sorted(TEXTBOOK_TERMS) == [1, 2, 3, 4]


@pytest.mark.parametrize("m", range(1, 7))
def test_the_logarithm_is_a_lie_element_and_even_terms_change_sign(m):
    """Magnus' theorem (each Ω_m is a Lie element), checked by Dynkin–Specht–Wever, and the
    Y' = YA kernel is (−1)^{m+1} times the Y' = AY one."""
    ay, ya = time_ordered_log_kernel(m, "AY"), time_ordered_log_kernel(m, "YA")
    assert _is_lie(ay, m)
    assert ya == {w: (-1) ** (m + 1) * c for w, c in ay.items()}


@st.composite
def _brackets(draw, letters):
    if len(letters) == 1:
        return letters[0]
    k = draw(st.integers(1, len(letters) - 1))
    return (draw(_brackets(letters[:k])), draw(_brackets(letters[k:])))


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 6).flatmap(lambda m: st.permutations(range(1, m + 1))).flatmap(
    lambda p: _brackets(list(p))))
def test_every_bracket_expands_to_a_lie_element(b):
    kernel = bracket_kernel([b])
    m = len(next(iter(kernel))) if kernel else 1
    assert kernel and _is_lie(kernel, m)
    assert sum(abs(c) for c in kernel.values()) <= 2 ** (m - 1)


def test_bad_input():
    with pytest.raises(ValueError, match="exactly once"):
        bracket_kernel([(1, 1)])
    with pytest.raises(ValueError, match="one degree"):
        bracket_kernel([(1, 2), 1])
    with pytest.raises(TypeError, match="pair"):
        bracket_kernel([(1, 2, 3)])
    with pytest.raises(TypeError, match="pair"):
        bracket_kernel([True])
    with pytest.raises(ValueError, match="convention"):
        time_ordered_log_kernel(2, "XY")
    with pytest.raises(ValueError, match="m must"):
        textbook_kernel(5)
    with pytest.raises(ValueError):
        time_ordered_log_kernel(0)
    with pytest.raises(TypeError):
        time_ordered_log_kernel(2.0)

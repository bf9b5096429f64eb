"""Kind: size and budget arguments (issue 19 §2). Every public integer argument (sizes, blocks,
budgets, counts, degrees, seeds) is checked by :func:`seqtheory.theory._checks.check_int`: a
``TypeError`` for a non-integer or a bool, a ``ValueError`` out of range, each naming the
argument; memory budgets hold whatever the input (ties included) or the function says it cannot."""
from __future__ import annotations

import tracemalloc

import numpy as np
import pytest
from hypothesis import example, given, settings, strategies as st

from seqtheory.theory._checks import IntArgumentTypeError, check_int
from seqtheory.theory.hilbert import max_l1_row_difference, row_diameter

SET = settings(max_examples=40, deadline=None)


# ------------------------------------------------------------------------------- the helper
@SET
@given(st.integers(-10**30, 10**30), st.integers(-5, 5), st.one_of(st.none(), st.integers(-5, 10)))
def test_check_int_accepts_exactly_the_range(v, lo, hi):
    inside = v >= lo and (hi is None or v <= hi)
    if inside:
        assert check_int("k", v, lo, hi) == v and type(check_int("k", np.int64(lo), lo, hi)) is int
    else:
        with pytest.raises(ValueError, match="^k must be"):
            check_int("k", v, lo, hi)


@pytest.mark.parametrize("bad", [1.0, 2.5, True, False, "3", None, np.float64(2.0), [1]])
def test_check_int_refuses_non_integers(bad):
    with pytest.raises(TypeError, match="^n must be an int") as ei:
        check_int("n", bad)
    assert isinstance(ei.value, IntArgumentTypeError) and isinstance(ei.value, ValueError)


# ------------------------------------------------------------------------------- block sizes
def _brute_l1(S):
    V = len(S)
    return max(np.abs(S[i] - S[j]).sum() for i in range(V) for j in range(i + 1, V))


@pytest.mark.parametrize("f", [row_diameter, max_l1_row_difference])
@pytest.mark.parametrize("bad,exc", [(-1, ValueError), (0, ValueError), (1.5, TypeError),
                                     (True, TypeError), ("4", TypeError)])
def test_block_rows_refused_naming_it(f, bad, exc):
    S = np.array([[0.0, 0.0], [3.0, 4.0], [1.0, -2.0]])
    with pytest.raises(exc, match="block_rows"):
        f(S, block_rows=bad)


@SET
@given(st.integers(2, 9), st.integers(1, 12), st.integers(0, 2**31))
@example(3, 1, 0)
def test_max_l1_row_difference_any_block(V, block, seed):
    S = np.random.default_rng(seed).integers(-4, 5, size=(V, 3)).astype(float)
    best, (i, j) = max_l1_row_difference(S, block_rows=block)
    assert i < j and best == _brute_l1(S) == np.abs(S[i] - S[j]).sum()


@pytest.mark.parametrize("f", [row_diameter, max_l1_row_difference])
@pytest.mark.parametrize("bad,exc", [(0, ValueError), (-5, ValueError), (1e9, TypeError)])
def test_memory_bytes_refused_naming_it(f, bad, exc):
    with pytest.raises(exc, match="memory_bytes"):
        f(np.eye(3), memory_bytes=bad)


@pytest.mark.parametrize("f", [row_diameter, max_l1_row_difference])
def test_too_small_budget_says_so(f):
    with pytest.raises(ValueError, match="memory_bytes = 10000 is too small.*needs at least"):
        f(np.zeros((500, 8)), memory_bytes=10_000)
    with pytest.raises(ValueError, match="with block_rows = 400"):
        f(np.zeros((500, 8)), block_rows=400, memory_bytes=2**20)


@pytest.mark.parametrize("f", [row_diameter, max_l1_row_difference])
def test_memory_budget_holds_with_many_tied_pairs(f):
    """Half the rows at one point, half at another: V²/4 pairs tie for the diameter (each is a
    candidate for the direct recomputation). Before the fix the candidates were collected over
    all blocks first (191 MiB here for a 4 MiB budget)."""
    V, budget = 3000, 4 * 2**20
    S = np.zeros((V, 2))
    S[V // 2:] = 1.0
    tracemalloc.start()
    try:
        best, (i, j) = f(S, memory_bytes=budget)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak <= budget, f"peak {peak / 2**20:.1f} MiB above the 4 MiB budget"
    assert best == pytest.approx(np.sqrt(2.0) if f is row_diameter else 2.0, rel=1e-15)
    assert i < V // 2 <= j

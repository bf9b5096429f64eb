"""numerics/two_layer_cascade.py: the two-layer abelian cascade of [DEPTH] Prop 3.7 separates
every word, a single diagonal layer only the letter counts; checked against a plain matrix
simulation of M(x) = [[2^(R^x), 0], [e_x, I_n]]."""
from __future__ import annotations

import itertools
from math import comb

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from seqtheory.numerics import two_layer_cascade_states as exported
from seqtheory.numerics.two_layer_cascade import two_layer_cascade_states


def _matrix_states(n: int, T: int) -> tuple[int, set]:
    """The cascade as block matrices acting on (h1, h2) column vectors, word by word (the slow,
    obviously-right reference)."""
    R = T + 1
    states = set()
    words = 0
    for t in range(1, T + 1):
        for w in itertools.product(range(n), repeat=t):
            h = [1] + [0] * n
            for x in w:
                M = [[0] * (n + 1) for _ in range(n + 1)]
                M[0][0] = 2 ** (R ** x)
                M[1 + x][0] = 1
                for i in range(1, n + 1):
                    M[i][i] = 1
                h = [sum(M[i][j] * h[j] for j in range(n + 1)) for i in range(n + 1)]
            states.add(tuple(h))
            words += 1
    return words, states


def test_two_layers_separate_every_word_and_one_layer_does_not():
    assert exported is two_layer_cascade_states
    for n, T in ((2, 8), (3, 5)):
        two = two_layer_cascade_states(n, T)
        assert two["separates_all"] and two["distinct_states"] == sum(n ** t for t in range(1, T + 1))
        assert two["ambient_derived_length"] == 2 and two["state_dim"] == n + 1
        one = two_layer_cascade_states(n, T, layers=1)
        assert not one["separates_all"]          # a single diagonal layer is order-free
        assert one["state_dim"] == 1


@settings(max_examples=15, deadline=None)
@given(n=st.integers(1, 3), T=st.integers(1, 4))
@example(n=1, T=1)
@example(n=3, T=4)
def test_agrees_with_the_matrix_simulation(n, T):
    words, states = _matrix_states(n, T)
    two = two_layer_cascade_states(n, T)
    assert two["words"] == words and two["distinct_states"] == len(states) == words
    # one diagonal layer sees the letter counts only: one state per count vector of length 1..T
    one = two_layer_cascade_states(n, T, layers=1)
    assert one["distinct_states"] == sum(comb(t + n - 1, n - 1) for t in range(1, T + 1))
    # the largest layer-1 state is the word of T copies of the last letter: 2^(T·R^(n-1))
    assert two["max_state_bits"] == T * (T + 1) ** (n - 1) + 1


@pytest.mark.parametrize("kwargs, err, msg", [
    (dict(n=0, T=3), ValueError, "n must be"),
    (dict(n=2, T=0), ValueError, "T must be"),
    (dict(n=2.0, T=3), TypeError, "n must be an int"),
    (dict(n=2, T=3, layers=3), ValueError, "layers"),
    (dict(n=2, T=3, layers=True), ValueError, "layers"),
])
def test_bad_arguments_are_named(kwargs, err, msg):
    with pytest.raises(err, match=msg):
        two_layer_cascade_states(**kwargs)


def test_float64_run_stops_separating_when_the_states_outgrow_the_mantissa():
    """Run in float64 (rounding, overflow to inf), the n = 2 cascade still gives every word of
    length ≤ 8 its own state and merges some from T = 9 (measured; exact states: 91 bits)."""
    assert two_layer_cascade_states(2, 8)["float64_separates_all"]
    nine = two_layer_cascade_states(2, 9)
    assert nine["separates_all"] and not nine["float64_separates_all"]
    assert nine["float64_distinct_states"] < nine["words"]

"""theory/orbit_module.py: the orbit module U(g) h0, the algebra restricted to it, and the words
a linear controlled system separates from h0 ([DEPTH] Lemma 3.1)."""
from __future__ import annotations

import sympy
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from seqtheory.theory.orbit_module import (diagonal_model_identifies_reorderings,
                                           generated_module, restricted_algebra,
                                           separating_words, separation_rows, word_state)

E12, E21, D10 = [[0, 1], [0, 0]], [[0, 0], [1, 0]], [[1, 0], [0, 0]]

small = st.integers(-2, 2)
mat2 = st.lists(st.lists(small, min_size=2, max_size=2), min_size=2, max_size=2)


def test_word_state_is_the_left_action_of_exact_exponentials():
    # e^{E12} = I + E12, e^{E21} = I + E21; the later letter acts last
    h = word_state({"x": E12, "y": E21}, "xy", [1, 0])
    assert h == (sympy.eye(2) + sympy.Matrix(E21)) * (sympy.eye(2) + sympy.Matrix(E12)) * sympy.Matrix([1, 0])
    assert word_state({"x": D10}, "x", [1, 1]) == sympy.Matrix([sympy.E, 1])


def test_the_gap_of_lemma31_is_invisible_at_all_orders():
    # diag(1,0), E12 do not commute, yet from e1 the module is span{e1}: abelian action
    assert generated_module([D10, E12], [1, 0]) == [[1, 0]]
    assert restricted_algebra([D10, E12], [1, 0]).is_abelian
    assert separating_words({"x": D10, "y": E12}, [1, 0], 3) == []
    # from e2 the module is everything and xy, yx separate
    assert len(generated_module([D10, E12], [0, 1])) == 2
    assert not restricted_algebra([D10, E12], [0, 1]).is_abelian
    assert ("xy", "yx") in separating_words({"x": D10, "y": E12}, [0, 1], 2)


@settings(max_examples=25, deadline=None)
@given(A=mat2, B=mat2, h0=st.lists(small, min_size=2, max_size=2))
@example(A=D10, B=E12, h0=[1, 0])
def test_generated_module_contains_h0_and_is_invariant(A, B, h0):
    basis = generated_module([A, B], h0)
    V = sympy.Matrix(basis).T if basis else sympy.zeros(2, 0)
    def inside(v):
        return sympy.Matrix.hstack(V, sympy.Matrix(v)).rank() == V.rank()
    assert inside(h0)
    for M in (A, B):
        for j in range(V.shape[1]):
            assert inside(sympy.Matrix(M) * V[:, j])


@settings(max_examples=10, deadline=None)
@given(a=st.lists(small, min_size=2, max_size=2), b=st.lists(small, min_size=2, max_size=2),
       h0=st.lists(small, min_size=2, max_size=2))
def test_commuting_generators_separate_no_reordering(a, b, h0):
    assert separating_words({"x": sympy.diag(*a), "y": sympy.diag(*b)}, h0, 3) == []


def test_separation_rows_and_the_criterion_agree():
    rows = separation_rows({"E12,E21": {"x": E12, "y": E21}, "diag(1,0),E12": {"x": D10, "y": E12}},
                           {"e1": [1, 0], "e2": [0, 1]}, 2)
    assert len(rows) == 4
    assert all((r["n_separating_pairs"] == 0) == r["restricted_algebra_abelian"] for r in rows)
    gap = next(r for r in rows if r["pair"] == "diag(1,0),E12" and r["h0"] == "e1")
    assert gap["commutator_on_h0_zero"] and gap["module_dim"] == 1 and gap["example"] == ""
    assert not gap["algebra_abelian"]
    with pytest.raises(ValueError, match="exactly two letters"):
        separation_rows({"bad": {"x": E12}}, {"e1": [1, 0]}, 2)


def test_diagonal_models_identify_reorderings():
    assert all(diagonal_model_identifies_reorderings(s) for s in range(3))

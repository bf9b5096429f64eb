"""numerics/cascade_derived_lengths.py: one exact instance row per cascade, the experiment of
[DEPTH] Proposition 3.3 (derived length ≤ k abelian, ≤ 2k restricted)."""
from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from seqtheory.numerics.cascade_derived_lengths import (LADDER_DESCRIPTION, affine_pair_evidence,
                                                        certified_upper_bounds,
                                                        explicit_abelian_row, instance_row,
                                                        ladder_row, linear_cascade_row,
                                                        polynomial_cascade_row, vector_field_row)
from seqtheory.theory.lie_cascades import structural_bound
from seqtheory.theory.vector_fields import PolyVectorField


def test_instance_row_reads_the_derived_series():
    solvable = instance_row("c", 2, "x", 7, 5, [5, 2, 0], True)
    assert solvable["lower"] == solvable["upper"] == solvable["derived_length"] == 2
    assert solvable["exact"] and not solvable["not_solvable"] and solvable["seed"] == 7
    perfect = instance_row("c", 1, "sl2", None, 3, [3, 3], True)
    assert perfect["not_solvable"] and perfect["derived_length"] is None and not perfect["exact"]
    bracketed = instance_row("c", 3, "inf", None, "> 40", [], False, 5, 6)
    assert not bracketed["exact"] and (bracketed["lower"], bracketed["upper"]) == (5, 6)
    assert instance_row("c", 3, "inf", None, "> 40", [], False, 6, 6)["derived_length"] == 6


@settings(max_examples=6, deadline=None)
@given(k=st.integers(1, 3), seed=st.integers(0, 2 ** 32 - 1), affine=st.booleans())
@example(k=3, seed=0, affine=True)
def test_random_linear_cascades_respect_the_structural_bound(k, seed, affine):
    row = linear_cascade_row("abelian x linear", k, seed, [1] * k, affine)
    assert row == linear_cascade_row("abelian x linear", k, seed, [1] * k, affine)  # seeded
    assert row["exact"] and row["derived_length"] <= structural_bound(k, affine)
    assert row["instance"] == f"random, layer dims {[1] * k}"


def test_non_commuting_blocks_can_break_solvability():
    rows = [linear_cascade_row("abelian x linear", 2, s, [2, 2], False, commuting=False)
            for s in range(2)]
    assert any(r["not_solvable"] or r["derived_length"] > 2 for r in rows)


def test_explicit_constructions_reach_their_bounds():
    assert [explicit_abelian_row(k)["derived_length"] for k in (1, 2, 3)] == [1, 2, 3]
    assert certified_upper_bounds([2]) == {2: 4}
    ladder = ladder_row(2, 40, 4, certified_upper_bounds([2]))
    assert ladder["instance"] == LADDER_DESCRIPTION and not ladder["finite"]
    assert (ladder["lower"], ladder["upper"], ladder["derived_length"]) == (4, 4, 4)
    assert ladder["witness_sizes"]
    aff = affine_pair_evidence()
    assert aff["bracket"] == "-1" and aff["bracket_nonzero"]
    assert aff["derived_series"] == [2, 1, 0] and aff["derived_length"] == 2


def test_vector_field_row_closes_or_brackets():
    d, hd, h2d = (PolyVectorField(1, {(0, (e,)): 1}) for e in (0, 1, 2))
    sl2 = vector_field_row("c", 1, "sl2", None, [d, h2d], 40, 4, {})
    assert sl2["finite"] and sl2["dim"] == 3 and sl2["not_solvable"]
    affine = vector_field_row("c", 1, "aff", None, [d, hd], 40, 4, {})
    assert affine["derived_length"] == 2
    row = polynomial_cascade_row("restricted x polynomial", 2, "restricted", 3, 40)
    assert row == polynomial_cascade_row("restricted x polynomial", 2, "restricted", 3, 40)
    assert row["lower"] is not None and row["lower"] <= 4


def test_bad_layer_class_is_refused():
    with pytest.raises(ValueError):
        polynomial_cascade_row("c", 2, "diagonal", 0, 40)

"""numerics/cascade_local_error.py: built k-layer abelian cascades against the exact product
([DEPTH] Corollary 3.6): slope = class + 1, exact group element, translation layers; the wrong
variants (reversed input, top layer dropped) lose the order."""
from __future__ import annotations

from fractions import Fraction

import pytest

from seqtheory.numerics.cascade_local_error import cascade_error_at, cascade_scan
from seqtheory.numerics.local_error import target_generators

GENS, WORD = target_generators("so3_a5"), (0, 1, 1, 0, 1, 0, 0)


def test_linear_depth_two_reaches_class_plus_one():
    r = cascade_scan(GENS, WORD, 2, "linear", n_points=4)
    assert r["class_c"] == 2 and abs(r["slope"] - 3) < 0.1
    assert r["exact_group_element"] and r["translations"] and r["variant"] == ""
    assert len(r["eps"]) == len(r["errors"]) == 4 and r["dps"] >= 40


def test_wrong_variants_lose_the_order():
    rev = cascade_scan(GENS, WORD, 2, "linear", n_points=4, reverse_input=True)
    assert rev["variant"] == "reversed input" and rev["slope"] < 2.5
    drop = cascade_scan(GENS, WORD, 2, "linear", n_points=4, drop_top_layer=True)
    assert drop["variant"] == "top layer dropped" and drop["class_c"] == 1
    assert abs(drop["slope"] - 2) < 0.1


def test_error_at_one_eps_matches_the_scan():
    r = cascade_scan(GENS, WORD, 2, "linear", n_points=4)
    e = Fraction(1, round(1 / r["eps"][0]))
    one = cascade_error_at(GENS, WORD, 2, "linear", e)
    assert one["error"] == pytest.approx(r["errors"][0], rel=1e-12)
    assert one["class_c"] == 2 and one["exact_group_element"] and one["translations"]
    assert cascade_error_at(GENS, WORD, 2, "linear", e, drop_top_layer=True)["class_c"] == 1
    with pytest.raises(ValueError, match="eps"):
        cascade_error_at(GENS, WORD, 2, "linear", 0)
    for bad in (0.125, "1/8"):                 # a float or a string is not read as a rational
        with pytest.raises(TypeError, match="eps"):
            cascade_error_at(GENS, WORD, 2, "linear", bad)

"""numerics/cascade_local_error.py: built k-layer abelian cascades against the exact product
([DEPTH] Corollary 3.6): slope = class + 1, exact group element, translation layers; the wrong
variants (reversed input, top layer dropped) lose the order."""
from __future__ import annotations

from seqtheory.numerics.cascade_local_error import cascade_scan
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

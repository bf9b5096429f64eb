"""theory/reference_groups.py and the exact matrix-group helpers of theory/representations.py:
independent copies of the task groups of [DEPTH] Table 1, H3(2) ≅ D8, matrix orders."""
from __future__ import annotations

import pytest
import sympy

from seqtheory.theory.groups import FiniteGroup
from seqtheory.theory.reference_groups import (REFERENCE_GROUPS, heisenberg_mod2_identification,
                                               reference_group)
from seqtheory.theory.representations import (matrix_group_order, matrix_order,
                                              paper_rotation_matrices)


def test_reference_groups_have_expected_orders_and_match_the_catalogue():
    orders = {n: reference_group(n).order for n in REFERENCE_GROUPS}
    assert orders == {"C2": 2, "C3": 3, "D8": 8, "H3": 27, "S3": 6, "S4": 24, "A5": 60}
    for n in REFERENCE_GROUPS:
        assert reference_group(n).is_isomorphic(FiniteGroup.named(n)), n
    assert not reference_group("H3").is_isomorphic(FiniteGroup.named("D8"))
    with pytest.raises(ValueError, match="name"):
        reference_group("Q8")


def test_heisenberg_over_z2_is_d8():
    h2 = heisenberg_mod2_identification()
    assert h2["isomorphic"] and h2["verified"] and h2["pairs_respected"] == 64
    assert len(h2["map"]) == 8 and not h2["H3(3) isomorphic to D8"]


def test_matrix_orders_over_q_sqrt5():
    A, B = paper_rotation_matrices()
    assert (matrix_order(A), matrix_order(B), matrix_order(A * B)) == (3, 5, 2)
    assert matrix_order(sympy.eye(3)) == 1
    assert matrix_order(sympy.Matrix([[1, 1], [0, 1]]), limit=10) is None      # infinite order
    assert matrix_group_order((A, B)) == 60
    assert matrix_group_order((A,)) == 3
    assert matrix_group_order((sympy.Matrix([[1, 1], [0, 1]]),), limit=20) is None

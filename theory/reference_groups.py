"""Independently built copies of the task groups of [DEPTH], to identify a task's Cayley table
against, and the Heisenberg group over Z/2 identified with D8.

Source: [DEPTH] G. Heo et al., arXiv:2603.05573, Table 1 (task groups C2, C3, D8, H3, S3, S4, A5)
and SPEC §4 (group oracles). The references do not go through :meth:`FiniteGroup.named`: they are
built from sympy's permutation generators (``sympy.combinatorics.named_groups``; the generated
*set* does not depend on the composition convention), and H3 = H3(3) from affine maps of
``(Z/3)^2``, so that an explicit isomorphism onto them identifies a table independently of the
package's own group catalogue.
"""
from __future__ import annotations

import itertools
from typing import Any

from .groups import FiniteGroup

__all__ = ["REFERENCE_GROUPS", "reference_group", "heisenberg_mod2_identification"]

#: the names :func:`reference_group` builds
REFERENCE_GROUPS = ("C2", "C3", "D8", "H3", "S3", "S4", "A5")


def reference_group(name: str) -> FiniteGroup:
    """An independently built copy of the task group ``name`` (one of :data:`REFERENCE_GROUPS`):
    sympy's permutation generators, and for H3 = H3(3) the affine maps ``(a, b) -> (a + b, b)``,
    ``(a, b) -> (a, b + 1)`` of ``(Z/3)^2`` (order 27, exponent 3, non-abelian). ``ValueError``
    for another name."""
    from sympy.combinatorics import named_groups as ng

    if name not in REFERENCE_GROUPS:
        raise ValueError(f"name must be one of {REFERENCE_GROUPS}, got {name!r}")
    if name == "H3":
        pts = [(a, b) for a in range(3) for b in range(3)]
        idx = {p: i for i, p in enumerate(pts)}
        shear = tuple(idx[((a + b) % 3, b)] for a, b in pts)
        shift = tuple(idx[(a, (b + 1) % 3)] for a, b in pts)
        return FiniteGroup.from_permutations([shear, shift], name="H3 (affine ref)")
    sym = {"C2": ng.CyclicGroup(2), "C3": ng.CyclicGroup(3), "D8": ng.DihedralGroup(4),
           "S3": ng.SymmetricGroup(3), "S4": ng.SymmetricGroup(4),
           "A5": ng.AlternatingGroup(5)}[name]
    return FiniteGroup.from_permutations([g.array_form for g in sym.generators],
                                         name=f"{name} (sympy ref)")


def heisenberg_mod2_identification() -> dict[str, Any]:
    """H3(2) (3x3 unipotent matrices over Z/2, :meth:`FiniteGroup.heisenberg`) against D8: the
    explicit isomorphism, verified on all 64 pairs (vectorised by
    :meth:`~seqtheory.theory.group_iso.GroupIsomorphism.verify`, and again element by element),
    and whether H3(3) is (wrongly) isomorphic to D8. Returns ``{"isomorphic", "verified",
    "pairs_respected", "map", "generators", "generator_images (r^k s^f as (k, f))",
    "H3(3) isomorphic to D8"}`` (elements as strings), or ``{"isomorphic": False,
    "verified": False}``."""
    H, D8 = FiniteGroup.heisenberg(2), FiniteGroup.named("D8")
    iso = H.isomorphism(D8)
    if iso is None:
        return {"isomorphic": False, "verified": False}
    m = iso.as_dict()
    pairs_ok = sum(m[H.multiply(a, b)] == D8.multiply(m[a], m[b])
                   for a, b in itertools.product(H.elements, repeat=2))
    return {
        "isomorphic": True,
        "verified": bool(iso.verify()) and pairs_ok == 64 and len(set(m.values())) == 8,
        "pairs_respected": pairs_ok,
        "map": {str(k): str(v) for k, v in m.items()},
        "generators": [str(g) for g in iso.generators],
        "generator_images (r^k s^f as (k, f))": [str(h) for h in iso.generator_images],
        "H3(3) isomorphic to D8": FiniteGroup.named("H3").is_isomorphic(D8),
    }

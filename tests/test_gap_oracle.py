"""GAP as a peer oracle: group and Lie-algebra invariants against GAP (Debian ``gap-core``,
``gap-libs`` and ``gap-smallgrp``, installed by ``.ci/run``; checked with GAP 4.12.1).

* Every SmallGroup of order <= 32 (144 groups): GAP gives a permutation representation
  (``Image(IsomorphismPermGroup(G))``) and the regular one (``RegularActionHomomorphism``); the
  package builds both with ``FiniteGroup.from_permutations`` and must agree with GAP on the orders
  of the derived and lower central series, derived length, nilpotency class, solvable, nilpotent,
  the order of the centre and (where the package has it) the upper central series. Isomorphism
  against ``IdGroup``: the two representations of one group are isomorphic, and consecutive
  SmallGroups of one order are not, for the package's ``FiniteGroup.isomorphism``.
* Three dozen random integer matrix Lie algebras: ``LieAlgebra(Rationals, mats)`` with
  ``LieDerivedSeries``, ``LieLowerCentralSeries``, ``LieUpperCentralSeries``, ``LieCentre``,
  ``IsLieSolvable``, ``IsLieNilpotent`` against the package's exact path.

GAP conventions that differ from the package (SPEC §2), and how the comparison maps them:

* Upper central series: GAP lists it from the top, ``[Z_c, ..., Z_1, Z_0]`` (groups:
  ``UpperCentralSeriesOfGroup``; Lie algebras: ``LieUpperCentralSeries``), ending with the trivial
  group / zero subalgebra; for a group or algebra that is not nilpotent it starts at the
  hypercentre (S3: ``[1]``). The package lists it from the bottom, ``Z_0, Z_1, ...``: the
  comparison reverses GAP's list.
* Nilpotency class of the trivial group: ``NilpotencyClassOfGroup`` gives 0 in GAP 4.12, as
  SPEC §2 does (texts that count the trivial group as class 1 differ); a non-nilpotent group
  has no class in GAP (an error) and ``None`` in the package, mapped here to -1.
* Derived and lower central series: both list the terms until the series stabilises, the last
  term once, as the package does (a solvable group ends with the trivial group).
* Permutations: GAP acts on the right (``i^(p*q) = (i^p)^q``, p first) on points 1..n; the
  package composes ``p ∘ q`` (q first) on 0..n-1. The group generated, as a set, is the same;
  the points are shifted by one.

Where GAP (or its SmallGroups library) is absent the module is skipped with that reason, except
under CI (the ``CI`` environment variable set), where its absence is a failure.
"""
import json

import numpy as np
import pytest
from gap_session import random_matrix, require_gap, run_gap

from seqtheory.theory.groups import FiniteGroup
from seqtheory.theory.lie import LieAlgebra

MAX_ORDER = 32
N_LIE = 36
GAP = require_gap()

_GROUP_SCRIPT = """
for n in [1..%(max_order)d] do
  for i in [1..NrSmallGroups(n)] do
    G := SmallGroup(n, i);;
    H := Image(IsomorphismPermGroup(G));;
    R := Image(RegularActionHomomorphism(G));;
    perm := function(K) local d; d := Maximum(1, LargestMovedPoint(K));
      return [d, List(GeneratorsOfGroup(K), g -> ListPerm(g, d))]; end;;
    cls := -1;; if IsNilpotentGroup(G) then cls := NilpotencyClassOfGroup(G); fi;
    dl := -1;; if IsSolvableGroup(G) then dl := DerivedLength(G); fi;
    PrintTo(out, "{\\"id\\": ", IdGroup(G), ", \\"perm\\": ", perm(H), ", \\"regular\\": ", perm(R),
      ", \\"derived\\": ", List(DerivedSeriesOfGroup(G), Size),
      ", \\"lower\\": ", List(LowerCentralSeriesOfGroup(G), Size),
      ", \\"upper\\": ", List(UpperCentralSeriesOfGroup(G), Size),
      ", \\"centre\\": ", Size(Centre(G)), ", \\"derived_length\\": ", dl,
      ", \\"class\\": ", cls, ", \\"solvable\\": ", IsSolvableGroup(G),
      ", \\"nilpotent\\": ", IsNilpotentGroup(G), "}\\n");
  od;
od;
"""

_LIE_SCRIPT = """
L := LieAlgebra(Rationals, %(mats)s);;
PrintTo(out, "{\\"dim\\": ", Dimension(L),
  ", \\"derived\\": ", List(LieDerivedSeries(L), Dimension),
  ", \\"lower\\": ", List(LieLowerCentralSeries(L), Dimension),
  ", \\"upper\\": ", List(LieUpperCentralSeries(L), Dimension),
  ", \\"centre\\": ", Dimension(LieCentre(L)),
  ", \\"solvable\\": ", IsLieSolvable(L), ", \\"nilpotent\\": ", IsLieNilpotent(L), "}\\n");
"""


def _random_lie_generators(rng, count):
    """``count`` generator sets: n x n integer matrices (n = 2..4) with entries in -2..2, full,
    upper triangular, strictly upper triangular or sparse, never all zero."""
    out = []
    for t in range(count):
        n, k = int(rng.integers(2, 5)), int(rng.integers(1, 4))
        kind = ("full", "upper", "strict", "sparse")[t % 4]
        gens = [random_matrix(rng, n, kind) for _ in range(k)]
        if not any(g.any() for g in gens):
            gens[0][0, n - 1] = 1
        out.append(gens)
    return out


@pytest.fixture(scope="module")
def gap_groups(tmp_path_factory):
    return run_gap(_GROUP_SCRIPT % {"max_order": MAX_ORDER}, tmp_path_factory.mktemp("gap_groups"))


@pytest.fixture(scope="module")
def lie_cases(tmp_path_factory):
    gens = _random_lie_generators(np.random.default_rng(20260601), N_LIE)
    body = "\n".join(_LIE_SCRIPT % {"mats": json.dumps([g.tolist() for g in gs])} for gs in gens)
    return list(zip(gens, run_gap(body, tmp_path_factory.mktemp("gap_lie"))))


def _group(rep) -> FiniteGroup:
    degree, gens = rep
    return FiniteGroup.from_permutations([[x - 1 for x in g] for g in gens], degree=degree)


def _as_package(G: FiniteGroup) -> dict:
    return {"derived": list(G.derived_series().orders),
            "lower": list(G.lower_central_series().orders),
            "centre": G.center().order,
            "derived_length": -1 if G.derived_length is None else G.derived_length,
            "class": -1 if G.nilpotency_class is None else G.nilpotency_class,
            "solvable": G.is_solvable, "nilpotent": G.is_nilpotent}


def test_every_small_group_is_covered(gap_groups):
    assert len(gap_groups) == 144          # sum of NrSmallGroups(n), n = 1..32
    assert sum(1 for g in gap_groups if g["id"][0] == 32) == 51
    assert not all(g["nilpotent"] for g in gap_groups)      # the sample is not one-sided
    assert max(g["derived_length"] for g in gap_groups) == 3  # SL(2,3), S4 and relatives


def test_group_invariants_agree_with_gap(gap_groups):
    keys = ("derived", "lower", "centre", "derived_length", "class", "solvable", "nilpotent")
    for rec in gap_groups:
        for rep in ("perm", "regular"):
            G = _group(rec[rep])
            assert G.order == rec["id"][0], (rec["id"], rep)
            assert _as_package(G) == {k: rec[k] for k in keys}, (rec["id"], rep)


def test_upper_central_series_agrees_with_gap(gap_groups):
    if not hasattr(FiniteGroup, "upper_central_series"):
        pytest.skip("FiniteGroup.upper_central_series is not in this version of theory/groups.py")
    for rec in gap_groups:
        G = _group(rec["perm"])
        assert list(G.upper_central_series().orders) == rec["upper"][::-1], rec["id"]


def test_isomorphism_agrees_with_idgroup(gap_groups):
    """Same IdGroup -> an explicit isomorphism (two different permutation representations of
    one group); different IdGroup, same order -> none (consecutive SmallGroups)."""
    by_order: dict[int, list] = {}
    for rec in gap_groups:
        by_order.setdefault(rec["id"][0], []).append(rec)
    for n, recs in by_order.items():
        groups = [_group(r["perm"]) for r in recs]
        for rec, G in zip(recs, groups):
            assert G.is_isomorphic(_group(rec["regular"])), rec["id"]
        for (a, G), (b, H) in zip(zip(recs, groups), zip(recs[1:], groups[1:])):
            assert a["id"] != b["id"] and G.isomorphism(H) is None, (a["id"], b["id"])


def test_lie_series_agree_with_gap(lie_cases):
    assert len(lie_cases) == N_LIE
    seen_nilpotent = seen_not_solvable = False
    for gens, rec in lie_cases:
        L = LieAlgebra.generated_by(gens)
        got = {"dim": L.dim, "derived": list(L.derived_series().dims),
               "lower": list(L.lower_central_series().dims),
               "upper": list(L.upper_central_series().dims[::-1]), "centre": L.center().dim,
               "solvable": L.is_solvable, "nilpotent": L.is_nilpotent}
        assert got == rec, [g.tolist() for g in gens]
        seen_nilpotent |= rec["nilpotent"] and rec["dim"] > 1
        seen_not_solvable |= not rec["solvable"]
    assert seen_nilpotent and seen_not_solvable    # the sample covers both kinds

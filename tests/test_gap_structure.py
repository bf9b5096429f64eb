"""GAP as a peer oracle for the structure machinery of Lie algebras and for permutation groups
beyond the Cayley-table cap (theory/lie_elements.py, lie_radical.py, lie_ideals.py,
lie_chevalley.py, lie_classification.py, perm_groups.py). Every expected value comes from live
GAP 4.12 (started without packages, ``-A``: the core library only) on the same input:

* random matrix Lie algebras over Q (full, upper triangular, block-triangular with a full 2x2
  block, strictly upper; seeded): ``LieSolvableRadical``, ``LieNilRadical``,
  ``LeviMalcevDecomposition``, ``KappaPerp(L, L)``, ``Derivations``, ``DirectSumDecomposition``,
  ``LieCentralizer``/``LieNormalizer`` of the subalgebra spanned by the first generator, the
  quotient by ``LieDerivedSubalgebra`` (dimensions; GAP's bases differ from the package's);
* the same algebras as structure constants in the package's basis
  (``LieAlgebraByStructureConstants``): ``AdjointMatrix``, ``KillingMatrix``,
  ``IsNilpotentElement`` of every basis element, entry for entry, and the derivation algebra as
  a span (GAP's matrices act on rows: the transposes of the package's);
* matrix Lie algebras over ``Q(sqrt 2)`` (``LieAlgebra(Field(Sqrt(2)), ...)``): series,
  radical, Levi decomposition;
* the nilpotent algebras N(5, k), N(6, k) of de Graaf's classification by their tables (the
  LieAlgDB package is not in the CI install): series, centre, derivations, nilradical;
* ``SimpleLieAlgebra(T, n, Rationals)``: dimension and ``KillingMatrix`` entry for entry;
* ``SymmetricGroup(8)``, ``AlternatingGroup(8)``, ``AbelianGroup([2..10])`` and random
  permutation groups of degree 8 preserving a block system or a split of the points: orders of
  the derived, lower and upper central series, centre, abelian invariants, Sylow 2- and
  3-subgroups, composition factors (Jordan-Hölder: compared as a multiset); the Rubik cube
  group (slow; without its Sylow subgroups, which sympy takes over 15 minutes to find).

GAP conventions mapped here: upper central series from the top (reversed), LeviMalcevDecomposition
as ``[Levi, radical]``, ``SetEntrySCTable(T, i, j, [c, k, ...])`` with 1-based indices,
permutations on 1..n.
"""
import json
from fractions import Fraction

import numpy as np
import pytest
import sympy
from gap_session import random_matrix, require_gap, run_gap

from seqtheory.theory import (LieAlgebra, PermGroup, adjoint_matrix, centraliser, derivations,
                              direct_sum_decomposition, is_ad_nilpotent, killing_radical,
                              levi_decomposition, nilradical, normaliser, quotient,
                              simple_lie_algebra, solvable_radical, structure_constant_algebra)
from seqtheory.theory.lie_classification import nilpotent_lie_algebra

require_gap()
N_RANDOM = 12


def _random_mats(seed: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    n = 3          # GAP's Derivations of gl(4) (dim 16) takes minutes
    kind = ("full", "upper", "block", "strict")[seed % 4]
    gens = [random_matrix(rng, n, kind) for _ in range(2)]
    gens[0][0, n - 1] = 1
    return gens


def _sc_table(S) -> str:
    """GAP statements building the structure-constant table of the package algebra ``S``."""
    lines = [f"T := EmptySCTable({S.dim}, 0, \"antisymmetric\");;"]
    for (i, j), row in S.structure_constants_sparse().items():
        entry = ", ".join(f"{c}, {k + 1}" for k, c in row.items())
        lines.append(f"SetEntrySCTable(T, {i + 1}, {j + 1}, [{entry}]);;")
    lines.append("S := LieAlgebraByStructureConstants(Rationals, T);;")
    return "\n".join(lines)


_MATRIX_CASE = """
L := LieAlgebra(Rationals, %(mats)s);;
G1 := Subalgebra(L, [LieObject(%(first)s)]);;
LM := LeviMalcevDecomposition(L);;
PrintTo(out, "{\\"dim\\": ", Dimension(L), ", \\"radical\\": ", Dimension(LieSolvableRadical(L)),
  ", \\"nilradical\\": ", Dimension(LieNilRadical(L)), ", \\"levi\\": ", List(LM, Dimension),
  ", \\"kappa_perp\\": ", Dimension(KappaPerp(L, L)),
  ", \\"derivations\\": ", Dimension(Derivations(Basis(L))),
  ", \\"direct_sum\\": ", SortedList(List(DirectSumDecomposition(L), Dimension)),
  ", \\"centraliser\\": ", Dimension(LieCentralizer(L, G1)),
  ", \\"normaliser\\": ", Dimension(LieNormalizer(L, G1)),
  ", \\"quotient\\": ", Dimension(Range(NaturalHomomorphismByIdeal(L, LieDerivedSubalgebra(L)))),
  "}\\n");
%(table)s
B := Basis(S);;
str := M -> List(M, r -> List(r, String));;
PrintTo(out, "{\\"adjoint\\": ", List(B, x -> str(AdjointMatrix(B, x))),
  ", \\"killing\\": ", str(KillingMatrix(B)), ", \\"nilpotent\\": ", List(B, x -> IsNilpotentElement(S, x)),
  ", \\"derivations\\": ", List(Basis(Derivations(B)), d -> str(d)), "}\\n");
"""


@pytest.fixture(scope="module")
def matrix_cases(tmp_path_factory):
    gens = [_random_mats(s) for s in range(N_RANDOM)]
    body = "\n".join(_MATRIX_CASE % {
        "mats": json.dumps([g.tolist() for g in gs]), "first": json.dumps(gs[0].tolist()),
        "table": _sc_table(structure_constant_algebra(LieAlgebra.generated_by(gs)))}
        for gs in gens)
    out = run_gap(body, tmp_path_factory.mktemp("gap_structure"), packages=False)
    return list(zip(gens, out[0::2], out[1::2]))


def test_radicals_levi_derivations_ideals_agree_with_gap(matrix_cases):
    assert len(matrix_cases) == N_RANDOM
    kinds = set()
    for gens, rec, _ in matrix_cases:
        L = LieAlgebra.generated_by(gens)
        D = levi_decomposition(L)
        G1 = L.subalgebra_generated_by([gens[0]])
        got = {"dim": L.dim, "radical": solvable_radical(L).dim, "nilradical": nilradical(L).dim,
               "levi": [D.levi.dim, D.radical.dim], "kappa_perp": killing_radical(L).dim,
               "derivations": derivations(L).dim,
               "direct_sum": sorted(I.dim for I in direct_sum_decomposition(L)),
               "centraliser": centraliser(L, G1).dim, "normaliser": normaliser(L, G1).dim,
               "quotient": quotient(L, L.derived_algebra()).algebra.dim}
        assert got == rec, [g.tolist() for g in gens]
        kinds.add((rec["levi"][0] > 0, rec["radical"] > 0, len(rec["direct_sum"]) > 1))
    # the sample has Levi factors with and without radicals, solvable ones, decomposable ones
    assert {(True, True), (False, True), (True, False)} <= {k[:2] for k in kinds}
    assert any(k[2] for k in kinds)


def _fractions(M) -> list:
    return [[Fraction(x) for x in r] for r in M]


def test_elements_and_derivation_spans_agree_with_gap(matrix_cases):
    for gens, _, rec in matrix_cases:
        S = structure_constant_algebra(LieAlgebra.generated_by(gens))
        basis = S.basis
        assert [_fractions(adjoint_matrix(S, x)) for x in basis] == \
            [_fractions(M) for M in rec["adjoint"]]
        assert _fractions(S.killing_form()) == _fractions(rec["killing"])
        assert [is_ad_nilpotent(S, x) for x in basis] == rec["nilpotent"]
        gap_der = LieAlgebra.spanned_by([np.array(_fractions(M), dtype=object).T
                                         for M in rec["derivations"]])
        assert gap_der == derivations(S)


_SQRT2_CASE = """
L := LieAlgebra(Field(Sqrt(2)), %(mats)s);;
LM := LeviMalcevDecomposition(L);;
PrintTo(out, "{\\"dim\\": ", Dimension(L), ", \\"derived\\": ", List(LieDerivedSeries(L), Dimension),
  ", \\"lower\\": ", List(LieLowerCentralSeries(L), Dimension),
  ", \\"radical\\": ", Dimension(LieSolvableRadical(L)), ", \\"levi\\": ", List(LM, Dimension),
  ", \\"kappa_perp\\": ", Dimension(KappaPerp(L, L)), "}\\n");
"""


def _sqrt2_mats(seed: int):
    rng = np.random.default_rng(100 + seed)
    r = sympy.sqrt(2)
    n = 3
    out = []
    for _ in range(2):
        A, B = rng.integers(-1, 2, (n, n)), rng.integers(-1, 2, (n, n))
        if seed % 2:
            A, B = np.triu(A), np.triu(B)
        out.append([[int(A[i, j]) + int(B[i, j]) * r for j in range(n)] for i in range(n)])
    out[0][0][n - 1] = r
    return out


def test_number_field_algebras_agree_with_gap(tmp_path):
    cases = [_sqrt2_mats(s) for s in range(4)]
    gap_mats = [str([[str(x).replace("sqrt(2)", "Sqrt(2)") for x in row] for row in M])
                .replace("'", "") for M in cases]
    body = "\n".join(_SQRT2_CASE % {"mats": "[" + ", ".join(m) + "]"} for m in gap_mats)
    for mats, rec in zip(cases, run_gap(body, tmp_path, packages=False)):
        L = LieAlgebra.generated_by(mats)
        assert str(L.field) == "QQ<sqrt(2)>"
        D = levi_decomposition(L)
        got = {"dim": L.dim, "derived": L.derived_series().dims,
               "lower": L.lower_central_series().dims, "radical": solvable_radical(L).dim,
               "levi": [D.levi.dim, D.radical.dim], "kappa_perp": killing_radical(L).dim}
        assert got == rec, mats


_NILPOTENT_CASE = """
%(table)s
PrintTo(out, "{\\"derived\\": ", List(LieDerivedSeries(S), Dimension),
  ", \\"lower\\": ", List(LieLowerCentralSeries(S), Dimension),
  ", \\"upper\\": ", List(LieUpperCentralSeries(S), Dimension),
  ", \\"centre\\": ", Dimension(LieCentre(S)), ", \\"nilradical\\": ", Dimension(LieNilRadical(S)),
  ", \\"derivations\\": ", Dimension(Derivations(Basis(S))), "}\\n");
"""

_CLASSES = [(5, k, None) for k in range(2, 10)] + \
    [(6, k, 2 if k in (19, 21, 22, 24) else None) for k in range(10, 27)]


def test_nilpotent_classification_agrees_with_gap(tmp_path):
    algebras = [nilpotent_lie_algebra(d, k, a) for d, k, a in _CLASSES]
    body = "\n".join(_NILPOTENT_CASE % {"table": _sc_table(S)} for S in algebras)
    for (d, k, a), S, rec in zip(_CLASSES, algebras, run_gap(body, tmp_path, packages=False)):
        got = {"derived": list(S.derived_series().dims),          # GAP's lists
               "lower": list(S.lower_central_series().dims),
               "upper": list(S.upper_central_series().dims[::-1]), "centre": S.center().dim,
               "nilradical": nilradical(S).dim, "derivations": derivations(S).dim}
        assert got == rec, (d, k, a)


def test_simple_lie_algebras_agree_with_gap(tmp_path):
    types = [("A", 2), ("A", 3), ("B", 2), ("B", 3), ("C", 3), ("D", 4)]
    body = "\n".join(f'L := SimpleLieAlgebra("{t}", {n}, Rationals);; PrintTo(out, "{{\\"dim\\": ", '
                     f'Dimension(L), ", \\"killing\\": ", List(KillingMatrix(Basis(L)), r -> '
                     f'List(r, String)), "}}\\n");' for t, n in types)
    for (t, n), rec in zip(types, run_gap(body, tmp_path, packages=False)):
        C = simple_lie_algebra(t, n)
        assert C.algebra.dim == rec["dim"]
        assert _fractions(C.algebra.killing_form()) == _fractions(rec["killing"]), (t, n)


# ---------------------------------------------------------------- permutation groups
_GROUP_CASE = """
G := %(group)s;;
PrintTo(out, "{\\"order\\": ", Size(G), ", \\"derived\\": ", List(DerivedSeriesOfGroup(G), Size),
  ", \\"lower\\": ", List(LowerCentralSeriesOfGroup(G), Size),
  ", \\"upper\\": ", List(UpperCentralSeriesOfGroup(G), Size), ", \\"centre\\": ", Size(Centre(G)),
  ", \\"abelian_invariants\\": ", AbelianInvariants(G),
  ", \\"sylow\\": ", [Size(SylowSubgroup(G, 2)), Size(SylowSubgroup(G, 3))],
  ", \\"composition\\": ", List(CompositionSeries(G), Size), "}\\n");
"""


def _random_group_gens(seed: int) -> list[tuple[int, ...]]:
    """Two or three permutations of 0..7 preserving the blocks {0,1},{2,3},{4,5},{6,7} (seed
    even) or the split {0..3} ∪ {4..7} (seed odd)."""
    rng = np.random.default_rng(500 + seed)
    gens = []
    for _ in range(int(rng.integers(2, 4))):
        if seed % 2 == 0:
            blocks = rng.permutation(4)
            flips = rng.integers(0, 2, 4)
            p = [0] * 8
            for b in range(4):
                for e in range(2):
                    p[2 * b + e] = 2 * int(blocks[b]) + (e ^ int(flips[b]))
        else:
            p = list(rng.permutation(4)) + list(4 + rng.permutation(4))
        gens.append(tuple(int(x) for x in p))
    return gens


def _gap_perm_group(gens) -> str:
    return "Group(" + ", ".join(f"PermList({json.dumps([x + 1 for x in g])})" for g in gens) + ")"


def _factors(series) -> list[int]:
    return sorted(a // b for a, b in zip(series, series[1:]))


def _group_record(G: PermGroup, sylow: bool = True) -> dict:
    rec = {"order": G.order, "derived": list(G.derived_series().orders),
           "lower": list(G.lower_central_series().orders),
           "upper": list(G.upper_central_series().orders)[::-1], "centre": G.center().order,
           "abelian_invariants": list(G.abelian_invariants),
           "composition": _factors([H.order for H in G.composition_series()])}
    if sylow:
        rec["sylow"] = [G.sylow_subgroup(2).order, G.sylow_subgroup(3).order]
    return rec


def test_large_and_random_permutation_groups_agree_with_gap(tmp_path):
    groups = [("SymmetricGroup(8)", PermGroup.symmetric(8)),
              ("AlternatingGroup(8)", PermGroup.alternating(8)),
              ("AbelianGroup([2..10])", PermGroup.abelian(range(2, 11)))]
    for s in range(6):
        gens = _random_group_gens(s)
        groups.append((_gap_perm_group(gens), PermGroup.from_permutations(gens, 8)))
    body = "\n".join(_GROUP_CASE % {"group": g} for g, _ in groups)
    seen_non_solvable = seen_nilpotent_nonabelian = False
    for (name, G), rec in zip(groups, run_gap(body, tmp_path, packages=False)):
        rec["composition"] = _factors(rec["composition"])
        assert _group_record(G) == rec, name
        seen_non_solvable |= not G.is_solvable
        seen_nilpotent_nonabelian |= G.is_nilpotent and not G.is_abelian
    assert seen_non_solvable


@pytest.mark.slow
def test_rubik_cube_group_agrees_with_gap(tmp_path):
    from seqtheory.theory.perm_groups import RUBIK_GENERATORS

    body = _GROUP_CASE % {"group": "Group(" + ", ".join(RUBIK_GENERATORS) + ")"}
    rec = run_gap(body, tmp_path, packages=False)[0]
    rec["composition"] = _factors(rec["composition"])
    del rec["sylow"]          # sympy's Sylow 2-subgroup of the cube group takes > 15 minutes
    assert _group_record(PermGroup.rubik(), sylow=False) == rec

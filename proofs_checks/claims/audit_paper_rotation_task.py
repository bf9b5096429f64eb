"""Dataset audit ``audit.paper_rotation_task``: the A5 rotation map of the released code of [DEPTH]
(Heo et al., arXiv:2603.05573) -- BFS over A5 from a = [1,2,0,3,4], b = [1,2,3,4,0] mapped to a
cyclic permutation matrix and a golden-ratio rotation
(:func:`seqtheory.theory.representations.paper_rotation_map`) -- audited exactly on the full table
beside the package's faithful map: it is not a homomorphism (distinct matrices and respected
products counted, for both readings of ``x·g``), and the relation orders show why. Decision:
:func:`paper_rotation_decide`. Control: the same BFS from the faithful images of a and b must not
be refuted.
"""
from __future__ import annotations

from typing import Any

from seqtheory.theory.groups import FiniteGroup
from seqtheory.theory.representations import (PAPER_ROTATION_GENERATORS, audit_representation,
                                              icosahedral_representation, matrix_group_order,
                                              matrix_order, paper_rotation_map,
                                              paper_rotation_matrices)
from seqtheory.theory._messages import counted

from ..registry import AUDIT, ControlOutcome, Outcome, Verdict, claim
from ..released_code import reimplemented


def paper_rotation_evidence(maps: dict[str, tuple[FiniteGroup, list]]) -> list[dict[str, Any]]:
    """One audit row per named map ``{name: (group, images in index order)}``: distinct
    matrices, products respected (exact, full table), kernel order, a failing product."""
    rows = []
    for name, (group, images) in maps.items():
        aud = audit_representation(group, images)
        rows.append({"map": name, "order": group.order, "n_distinct": aud.n_distinct,
                     "n_respected": aud.n_respected, "n_pairs": aud.n_pairs,
                     "fraction_respected": str(aud.fraction_respected),
                     "kernel_order": aud.kernel_order, "is_homomorphism": aud.is_homomorphism,
                     "domain": aud.domain, "failing_example": str(aud.failing_example)})
    return rows


def _relation_orders() -> dict[str, Any]:
    """Orders of a, b, ab in A5 (both readings of the product) against those of A, B, AB."""
    G = FiniteGroup.named("A5")
    a, b = PAPER_ROTATION_GENERATORS
    A, B = paper_rotation_matrices()
    return {"a": G.element_order(a), "b": G.element_order(b),
            "a∘b": G.element_order(G.multiply(a, b)), "b∘a": G.element_order(G.multiply(b, a)),
            "A": matrix_order(A), "B": matrix_order(B), "AB": matrix_order(A * B),
            "BA": matrix_order(B * A)}


_RELEASED = ("released, x·g = x∘g", "released, x·g = g∘x")


@claim(
    id="audit.paper_rotation_task",
    premise=reimplemented("the A5 rotation map (breadth-first search over A5 from a = [1,2,0,3,4] "
                          "-> A, b = [1,2,3,4,0] -> B, build_group_representation_from_table)",
                          "seqtheory.theory.representations (paper_rotation_map, "
                          "paper_rotation_matrices)"),
    title="The released A5 rotation map of [DEPTH] labels A5's elements by a representation",
    source=AUDIT("[DEPTH] (arXiv:2603.05573) released code, A5 rotation data; SPEC §3.1 "
                 "dataset audits"),
    statement=("The A5 rotation data of the released code of [DEPTH] labels each group element "
               "with a rotation built by breadth-first search from a = [1,2,0,3,4] -> A (cyclic "
               "permutation matrix), b = [1,2,3,4,0] -> B (golden-ratio rotation); the task "
               "treats this labelling as a representation of A5, which needs the map to be a "
               "homomorphism (the audit tests the labelling: A and B themselves generate a group "
               "of order 60, so the targets remain products of icosahedral rotations)."),
)
def paper_rotation_task(ctx) -> Outcome:
    rep = icosahedral_representation()
    maps = {name: (m.group, m.images) for name, m in
            zip(_RELEASED, (paper_rotation_map("x∘g"), paper_rotation_map("g∘x")))}
    maps["package (faithful icosahedral)"] = (rep.group, [rep.matrices[x] for x in rep.group.elements])
    rows = paper_rotation_evidence(maps)
    orders = _relation_orders()
    n_generated = matrix_group_order(paper_rotation_matrices())
    verdict, why = paper_rotation_decide(rows, list(_RELEASED), "package (faithful icosahedral)")
    rel = {r["map"]: r for r in rows}
    return Outcome(
        verdict=verdict,
        key_figure=("released map: " + "; ".join(
            f"{n.split(', ')[1]}: {counted(rel[n]['n_distinct'], 'distinct matrix', 'distinct matrices')}, "
            f"{rel[n]['n_respected']}/{rel[n]['n_pairs']} products respected" for n in _RELEASED)
            + f"; package map: {rel['package (faithful icosahedral)']['n_distinct']} distinct, "
              f"{rel['package (faithful icosahedral)']['n_respected']}/3600"),
        evidence={"rows": rows, "element_and_matrix_orders": orders,
                  "order_of_group_generated_by_A_B": n_generated,
                  "generators": [list(g) for g in PAPER_ROTATION_GENERATORS],
                  "matrices": [str(M.tolist()) for M in paper_rotation_matrices()]},
        tables={"audit": rows},
        notes=(why + f". Orders: a {orders['a']}, b {orders['b']}, ab {orders['a∘b']} (either "
               f"product) in A5, but A {orders['A']}, B {orders['B']}, AB {orders['AB']}: the "
               "relation (ab)^5 = 1 fails for the images, so no homomorphism sends a -> A, "
               f"b -> B, whatever the BFS order, although A and B generate a rotation group of "
               f"order {n_generated}. Exact over Q(√5); the BFS expands generators in "
               "the order (a, b) and sets M(x·g) = M(x) M(g); the audit tests M(x·y) = M(x) M(y) "
               "in the product the map was built with."),
    )


@paper_rotation_task.decision_rule
def paper_rotation_decide(rows: list[dict[str, Any]], audited: list[str], reference: str
                          ) -> tuple[Verdict, str]:
    """Decision rule of ``audit.paper_rotation_task`` (rows as from
    :func:`paper_rotation_evidence`): ``inconclusive`` unless the ``reference`` map (the
    package's faithful one) passes the same audit with |G| distinct images (the audit itself
    works); ``refuted`` if every ``audited`` reading of the released map fails to be a
    homomorphism, or if the homomorphisms among them are not faithful (|G| distinct images: A5
    is simple, so a non-faithful map collapses the task); ``confirmed`` if some reading is a
    faithful representation; ``inconclusive`` when no reading was audited."""
    by = {r["map"]: r for r in rows}
    ref = by[reference]
    if not (ref["is_homomorphism"] and ref["n_distinct"] == ref["order"]):
        return Verdict.INCONCLUSIVE, f"the reference map {reference!r} fails the same audit"
    if not audited:
        return Verdict.INCONCLUSIVE, "no reading of the released map was audited"
    homs = [n for n in audited if by[n]["is_homomorphism"]]
    good = [n for n in homs if by[n]["n_distinct"] == by[n]["order"]]
    if good:
        return Verdict.CONFIRMED, f"{good} respect every product: a faithful representation"
    if homs:
        return Verdict.REFUTED, (f"{homs} respect every product but are not faithful ("
                                 + ", ".join(f"{by[n]['n_distinct']} distinct images of "
                                             f"{by[n]['order']}" for n in homs) + ")")
    return (Verdict.REFUTED, "not a homomorphism under any reading: " + "; ".join(
        f"{n}: {by[n]['n_respected']}/{by[n]['n_pairs']} products, {by[n]['n_distinct']} distinct"
        for n in audited))


@paper_rotation_task.control
def _paper_rotation_control(ctx) -> ControlOutcome:
    """The same BFS and audit with the released matrices replaced by the faithful images of a and
    b (which satisfy A5's relations): the rule must *not* refute it, so the refutation comes from
    the released matrices, not from the BFS or the audit. Rejected iff the rule accepts it as a
    representation."""
    rep = icosahedral_representation()
    G = rep.group
    a, b = PAPER_ROTATION_GENERATORS
    bfs = paper_rotation_map("x∘g", matrices=(rep.matrices[a], rep.matrices[b]))
    name = "BFS from a, b with faithful images"
    rows = paper_rotation_evidence({name: (bfs.group, bfs.images),
                                    "package (faithful icosahedral)":
                                    (G, [rep.matrices[x] for x in G.elements])})
    verdict, why = paper_rotation_decide(rows, [name], "package (faithful icosahedral)")
    return ControlOutcome(
        rejected=verdict is Verdict.CONFIRMED,
        variant="refutation applied to the BFS map built from the faithful images of a and b",
        reason=f"{verdict.value}: {why}",
        evidence={"rows": rows},
    )

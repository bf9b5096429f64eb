"""Audit ``audit.rotation_start_orbit`` of the released code of [DEPTH] (Heo et al.,
arXiv:2603.05573; SPEC §3.1, dataset audits): the rotation task starts every sequence at
``v0 = (1,1,1)/(‖(1,1,1)‖ + 1e-8)`` (``GroupV0Dataset._sample_v0``; its ``sample_mode`` argument is
never read) and moves it by the released A5 matrices (``h_t = M(x_t) h_{t-1}``,
:func:`seqtheory.theory.representations.paper_rotation_map`). The states it can reach are the
orbit of ``(1,1,1)`` under the group the released matrices generate: computed exactly over Q(√5)
(:func:`seqtheory.theory.q_sqrt5.orbit`), 20 points, not the sphere. Decision:
:func:`orbit_decide`. Control: a start vector in general position.
"""
from __future__ import annotations

from typing import Any, Sequence

from seqtheory.theory.q_sqrt5 import orbit, q5
from seqtheory.theory._messages import counted

from ..registry import AUDIT, ControlOutcome, Outcome, Verdict, claim
from ..released_code import RELEASED_CODE, reimplemented


def orbit_evidence(start: Sequence[int]) -> list[dict[str, Any]]:
    """The orbit of ``start`` under the released map, for both readings of its product ``x·g``:
    number of points, closure certificate, number of distinct matrices."""
    from seqtheory.theory.representations import paper_rotation_map

    rows = []
    for composition in ("x∘g", "g∘x"):
        m = paper_rotation_map(composition)
        distinct = {tuple(tuple(q5(M[i, j]) for j in range(3)) for i in range(3))
                    for M in m.images}
        pts, closed = orbit(m.images, start)
        rows.append({"reading": f"x·g = {composition}", "start": list(start),
                     "distinct_matrices": len(distinct), "orbit_points": len(pts),
                     "closed": closed})
    return rows


START = (1, 1, 1)     # v0 ∝ (1, 1, 1); the orbit does not depend on the positive scale


@claim(
    id="audit.rotation_start_orbit",
    premise=reimplemented("the A5 rotation task (a5_generators, "
                          "build_group_representation_from_table, GroupV0Dataset._sample_v0, the "
                          "target loop vv = M_t vv)",
                          "seqtheory.theory.representations (paper_rotation_map) with the start "
                          "vector (1,1,1)"),
    title="The released rotation task visits 20 points, not the sphere",
    source=AUDIT("[DEPTH] (arXiv:2603.05573) A5 rotation task, released code " + RELEASED_CODE),
    statement=("The released [DEPTH] rotation task visits exactly 20 points: every sequence "
               "starts at v0 = (1,1,1)/√3 (up to the 1e-8 in its normalisation; the sample_mode "
               "argument is not used) and its targets h_t = M(x_t) h_{t-1} (released A5 "
               "matrices) lie in the orbit of v0 under the group those matrices generate, which "
               "has exactly 20 points under either reading of the released product x·g. A fact "
               "about the released code, its definitions re-implemented."),
)
def rotation_start_orbit(ctx) -> Outcome:
    rows = orbit_evidence(START)
    verdict, why = orbit_decide(rows, 20)
    return Outcome(
        verdict=verdict,
        key_figure="; ".join(f"{r['reading']}: {counted(r['orbit_points'], 'point')} "
                             f"({'closed' if r['closed'] else 'not closed'}), "
                             f"{counted(r['distinct_matrices'], 'distinct matrix', 'distinct matrices')}" for r in rows),
        evidence={"rows": rows, "source": RELEASED_CODE, "stated_orbit_size": 20},
        tables={"orbit": rows},
        notes=(why + ". Exact over Q(√5): the closure of (1,1,1) under every released matrix, "
               "with exact equality; a closed set containing v0 and mapped into itself by every "
               "generator is the orbit (certificate). The reachable targets are therefore 20 "
               "points (the vertices of a dodecahedron when the group is the icosahedral "
               "rotation group: (1,1,1) lies on a 3-fold axis, 60/3 = 20), so the task is a "
               "20-state tracking problem, not regression on the sphere."),
    )


@rotation_start_orbit.decision_rule
def orbit_decide(rows: list[dict[str, Any]], stated: int) -> tuple[Verdict, str]:
    """``rows``: per reading of the released map, the orbit size and whether the closure was
    reached. Inconclusive unless every closure was reached; confirmed iff every reading's orbit
    has exactly ``stated`` points; refuted otherwise, with the sizes."""
    if not rows or not all(r["closed"] for r in rows):
        return Verdict.INCONCLUSIVE, "the orbit closure was not reached"
    sizes = {r["reading"]: r["orbit_points"] for r in rows}
    if all(v == stated for v in sizes.values()):
        return Verdict.CONFIRMED, f"the orbit has exactly {counted(stated, 'point')} under every reading"
    return Verdict.REFUTED, f"orbit sizes {sizes}, not {stated}"


@rotation_start_orbit.control
def _orbit_control(ctx) -> ControlOutcome:
    """A start vector off every symmetry axis, (1, 2, 3): its orbit is a free orbit of the
    generated group, not 20 points, so the rule must refute the 20-point statement for it."""
    rows = orbit_evidence((1, 2, 3))
    verdict, why = orbit_decide(rows, 20)
    return ControlOutcome(verdict is Verdict.REFUTED, "start vector (1, 2, 3)/√14 (general position)",
                          f"{verdict.value}: {why}", {"rows": rows})

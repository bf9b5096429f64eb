"""Background (textbook) claim ``free_lie.free_nilpotent_series`` (SPEC §3.3): the derived
series of the free nilpotent Lie algebra ``N(n, c)`` from its structure constants
(:class:`~seqtheory.theory.lie.LieAlgebra`) equals the graded computation in the free Lie algebra
(:func:`seqtheory.theory.free_lie.derived_ideal_dimensions`). Decision:
:func:`free_nilpotent_decide`. Control: N(2,5) with the brackets into degree 5 dropped.
"""
from __future__ import annotations

from seqtheory.theory.free_lie import derived_ideal_dimensions, free_nilpotent, witt_dimension

from ..background_evidence import REF_FREE
from ..registry import ControlOutcome, Context, Outcome, TEXTBOOK, Verdict, claim


def _nilpotent_cases(ctx: Context):
    return [(2, c) for c in range(1, 7 if ctx.quick else 8)] + \
           [(3, c) for c in range(1, 5 if ctx.quick else 8)]


def _graded_derived_dims(n: int, c: int) -> list[int]:
    out, k = [], 0
    while True:
        dims = derived_ideal_dimensions(n, k, c)
        d = sum(dims.values())
        out.append(d)
        if d == 0:
            return out
        k += 1


@claim(id="free_lie.free_nilpotent_series", title="Derived series of free nilpotent Lie algebras",
       source=TEXTBOOK(REF_FREE, "free nilpotent Lie algebras; derived series"),
       statement="the free nilpotent Lie algebra N(n, c) has dimension Σ_{m<=c} Witt(n, m), nilpotency "
                 "class c, and derived series dims Σ_{m<=c} dim L^(k)_m")
def free_nilpotent_series(ctx: Context) -> Outcome:
    rows = []
    for n, c in _nilpotent_cases(ctx):
        g = free_nilpotent(n, c)
        ds = [s.dim for s in g.derived_series()]
        graded = _graded_derived_dims(n, c)
        rows.append({"n": n, "c": c, "dim": g.dim, "witt_sum": sum(witt_dimension(n, m) for m in range(1, c + 1)),
                     "derived_series": ds, "graded": graded, "derived_length": g.derived_length,
                     "nilpotency_class": g.nilpotency_class})
    verdict, why = free_nilpotent_decide(rows)
    for r in rows:
        r["match"] = _nilpotent_row_ok(r)
    return Outcome(
        verdict=verdict,
        key_figure="; ".join(f"N({r['n']},{r['c']}): {r['derived_series']}" for r in rows[-4:]),
        evidence={"rows": rows}, tables={"derived_series": [{**r, "derived_series": str(r["derived_series"]),
                                                             "graded": str(r["graded"])} for r in rows]},
        notes="Two independent computations: the LieAlgebra series from the Lyndon-basis structure "
              "constants, and the homogeneous components of the derived ideals of the free Lie "
              "algebra. " + why)


def _nilpotent_row_ok(r: dict) -> bool:
    return (r["derived_series"] == r["graded"] and r["nilpotency_class"] == r["c"]
            and r["dim"] == r["witt_sum"])


@free_nilpotent_series.decision_rule
def free_nilpotent_decide(rows: list[dict]) -> tuple[Verdict, str]:
    """Decision rule of ``free_lie.free_nilpotent_series``: rows ``{"n", "c", "dim", "witt_sum",
    "derived_series", "graded", "nilpotency_class"}``; supported iff in every row the
    structure-constant derived series equals the graded one, the class is c and the dimension is
    the Witt sum (each row exact; the statement is for every (n, c), so finitely many rows
    support it, counted); refuted otherwise; inconclusive without rows."""
    bad = [(r["n"], r["c"]) for r in rows if not _nilpotent_row_ok(r)]
    if bad:
        return Verdict.REFUTED, f"mismatch for (n, c) = {bad}"
    if not rows:
        return Verdict.INCONCLUSIVE, "no (n, c) case computed"
    cases = ", ".join(f"({r['n']}, {r['c']})" for r in rows)
    return Verdict.SUPPORTED, f"all {len(rows)} (n, c) cases agree exactly: {cases}"


@free_nilpotent_series.control
def _free_nilpotent_control(ctx: Context) -> ControlOutcome:
    from seqtheory.theory.free_lie import free_nilpotent_structure_constants
    from seqtheory.theory.lie import LieAlgebra

    n, c = 2, 5
    basis, sc = free_nilpotent_structure_constants(n, c)
    # wrong variant (still a Lie algebra): every bracket landing in degree c is dropped, i.e.
    # N(n, c-1) plus a central abelian summand of dimension Witt(n, c) -- mistaken for N(n, c)
    sc = {k: v for k, v in sc.items() if all(len(basis[t]) < c for t in v)}
    g = LieAlgebra.from_structure_constants(sc, dim=len(basis))
    row = {"n": n, "c": c, "dim": g.dim, "witt_sum": sum(witt_dimension(n, m) for m in range(1, c + 1)),
           "derived_series": [s.dim for s in g.derived_series()], "graded": _graded_derived_dims(n, c),
           "nilpotency_class": g.nilpotency_class}
    verdict, why = free_nilpotent_decide([row])
    return ControlOutcome(rejected=verdict is Verdict.REFUTED,
                          variant="N(2,5) with all brackets into degree 5 dropped",
                          reason=(f"{verdict.value}: {why}; variant derived series "
                                  f"{row['derived_series']}, class {row['nilpotency_class']}; graded "
                                  f"{row['graded']}, class {c}"), evidence=row)

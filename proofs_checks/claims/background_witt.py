"""Background (textbook) claim ``free_lie.witt_dimensions`` (SPEC §3.3): Lyndon-word counts (and
Hall-basis counts) equal Witt's formula. Evidence: exact counts from
:mod:`seqtheory.theory.free_lie`. Decision: :func:`witt_decide` (the named values exact; the
identity for every (n, m) on finitely many pairs). Control: the formula without the Möbius
function.
"""
from __future__ import annotations

from seqtheory.theory.free_lie import hall_basis, lyndon_words, witt_dimension

from ..background_evidence import REF_FREE
from ..registry import ControlOutcome, Context, Outcome, TEXTBOOK, Verdict, claim, combine_verdicts

SPEC_WITT2 = [2, 1, 2, 3, 6, 9, 18, 30, 56, 99]


def _witt_table(ctx: Context, formula) -> list[dict]:
    limits = {2: 14, 3: 8, 4: 6} if ctx.quick else {2: 20, 3: 12, 4: 10}
    rows = []
    for n, M in limits.items():
        alphabet = "xyzw"[:n]
        for m in range(1, M + 1):
            count = len(lyndon_words(alphabet, m))
            rows.append({"n": n, "m": m, "lyndon_words": count, "witt": formula(n, m),
                         "match": count == formula(n, m)})
    return rows


@claim(id="free_lie.witt_dimensions", title="Witt's formula = number of Lyndon words",
       source=TEXTBOOK(REF_FREE, "Witt's formula; Lyndon basis"),
       statement="dim L_m(n) = (1/m) Σ_{d|m} μ(d) n^{m/d} = number of Lyndon words of length m over n "
                 "letters; n = 2: 2, 1, 2, 3, 6, 9, 18, 30, 56, 99, …, cumulative to degree 20: 111013")
def witt_dimensions(ctx: Context) -> Outcome:
    rows = _witt_table(ctx, witt_dimension)
    seq2 = [r["lyndon_words"] for r in rows if r["n"] == 2][:10]
    cum20 = sum(witt_dimension(2, m) for m in range(1, 21))
    hb = hall_basis("xy", 8 if ctx.quick else 10)
    hall = {}
    for h in hb:
        d = _tree_degree(h)
        hall[d] = hall.get(d, 0) + 1
    hall_ok = all(hall[m] == witt_dimension(2, m) for m in hall)
    verdict, why = witt_decide(rows, seq2, cum20, hall_ok)
    return Outcome(
        verdict=verdict, notes="Decision rule: " + why,
        key_figure=f"{sum(r['match'] for r in rows)}/{len(rows)} (n, m) pairs match; n=2: {seq2}; "
                   f"cumulative to 20: {cum20}; Hall basis counts match: {hall_ok}",
        evidence={"n2_sequence": seq2, "cumulative_deg20": cum20, "hall_counts": hall},
        tables={"counts": rows})


@witt_dimensions.decision_rule
def witt_decide(rows: list[dict], n2_sequence: list[int], cumulative_deg20: int,
                hall_counts_match: bool) -> tuple[Verdict, str]:
    """Decision rule of ``free_lie.witt_dimensions``: two parts, combined by
    :func:`~seqtheory.proofs_checks.registry.combine_verdicts` (the weakest part decides).
    The values the statement names (n = 2: 2, 1, 2, 3, 6, 9, 18, 30, 56, 99; 111013 to degree
    20): confirmed iff both equal the SPEC oracles exactly, refuted otherwise. The identity
    "Witt's formula = number of Lyndon words" for every (n, m): refuted if some (n, m) row or a
    Hall-basis count differs; otherwise supported (finitely many (n, m), counted)."""
    bad = [(r["n"], r["m"], r["lyndon_words"], r["witt"]) for r in rows
           if r["lyndon_words"] != r["witt"]]
    named_ok = n2_sequence == SPEC_WITT2 and cumulative_deg20 == 111013
    named = ((Verdict.CONFIRMED if named_ok else Verdict.REFUTED),
             f"n = 2 sequence {n2_sequence} (oracle {n2_sequence == SPEC_WITT2}); cumulative to "
             f"degree 20 {cumulative_deg20} (oracle 111013)")
    if bad or not hall_counts_match or not rows:
        ident = (Verdict.REFUTED if bad or not hall_counts_match else Verdict.INCONCLUSIVE,
                 f"{len(bad)} of {len(rows)} (n, m) counts differ from the formula (first "
                 f"(n, m, Lyndon, formula): {bad[:3]}); Hall counts {hall_counts_match}")
    else:
        ns = sorted({r["n"] for r in rows})
        ident = (Verdict.SUPPORTED, f"all {len(rows)} (n, m) pairs agree (n = {ns}, m up to "
                 f"{max(r['m'] for r in rows)}) and the Hall-basis counts match")
    return combine_verdicts({"the named values (exact)": named,
                             "the identity for every (n, m)": ident})


def _tree_degree(t) -> int:
    return 1 if isinstance(t, str) else _tree_degree(t[0]) + _tree_degree(t[1])


@witt_dimensions.control
def _witt_control(ctx: Context) -> ControlOutcome:
    def no_mobius(n, m):  # deliberately wrong: drops the Möbius function
        return sum(n ** (m // d) for d in range(1, m + 1) if m % d == 0) // m

    rows = _witt_table(ctx, no_mobius)
    seq2 = [r["witt"] for r in rows if r["n"] == 2][:10]
    cum20 = sum(no_mobius(2, m) for m in range(1, 21))
    verdict, why = witt_decide(rows, seq2, cum20, True)
    bad = [r for r in rows if not r["match"]]
    return ControlOutcome(rejected=verdict is Verdict.REFUTED,
                          variant="Witt's formula without the Möbius function",
                          reason=f"{verdict.value}: {why}", evidence={"first_mismatches": bad[:5]})

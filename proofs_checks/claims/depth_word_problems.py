"""[DEPTH] (G. Heo et al., arXiv:2603.05573), Table 1: the depth each group's word problem needs.

Claim ``depth.exp.word_problems``: solvable groups need depth equal to their derived length
whatever T (depth 1 fails and 2 suffices on D8 and S3; S4 needs 3), while A5's needed depth grows
with T. Table 1's model families are registered (:data:`TABLE1_FAMILIES`, the families of
:mod:`seqtheory.models.names`): the verdict is decided per family over the **diagonal** families
(:data:`VERDICT_FAMILIES`: GLA, Mamba with positive transitions, signed Mamba, AUSSM; restricted
layers, the class [DEPTH]'s theory covers), each family one part of the statement; the
Transformer and DeltaProduct (non-commuting Householder transitions) are not of that class and are
reported as readings ("the pattern read as covering that family"), never in the verdict. A family
that is not run at the profile's scale is ``inconclusive`` ("not run at this scale").

Experiment: cells (group, family, depth, train length T) per profile (:func:`wp_plan`), the
shared word-problem runs (:func:`~seqtheory.proofs_checks.trained_recipe.wp_cfgs`; the S3 AUSSM
cells are those of ``depth.exp.s3_depth``), two replication blocks of seeds
(:mod:`seqtheory.proofs_checks.seed_blocks`), a seed solving a cell at held-out sequence accuracy
≥ 0.9 at 2T (trained on T). Decision (:func:`wp_decide`, pure): per block and family the parts of
:data:`WP_PARTS`; only positive results refute (depth 1 solving a non-abelian group, depth 2
solving S4); a depth-2 (or depth-3) model that does not train is ``inconclusive``, never a point
against "depth 2 suffices". Families combine as parts (weakest decides), blocks replicate.
Control: the depth-2 D8/S3 runs trained on shuffled labels, which must not support.
"""
from __future__ import annotations

from seqtheory.proofs_checks.evidence_checks import per_seed, rate_counts, unique_rows
from seqtheory.proofs_checks.rates import success_rate
from seqtheory.theory._messages import counted
from seqtheory.proofs_checks.registry import (DEPTH, Context, ControlOutcome, Outcome, Reading, Verdict,
                                              claim, combine_verdicts)
from seqtheory.proofs_checks.seed_blocks import block_indices, block_size, decide_blocks, split_blocks
from seqtheory.proofs_checks.trained_recipe import (RATE_RULE, S3_FACTORS, SUCCESS, acc_at,
                                                    check_protocol, s3_scale, wp_cfgs)
from seqtheory.proofs_checks.training_figures import extrapolation_figure, word_problem_heatmap
from seqtheory.proofs_checks.training_runs import run_arms

from ..run_inspection import inspector_note, inspector_summary

#: The parts of the Table 1 pattern that :func:`wp_pattern` decides per family: (short name for
#: the key figure, definition for the report's notes).
WP_PARTS = {
    "A": ("depth 1 fails", "depth 1 fails (no seed solves it) on every non-abelian group run; "
          "depth 1 solving one in ≥ 80% of the seeds refutes"),
    "B": ("depth 2 solves D8, S3", "depth 2 succeeds on D8 and S3 at every train length run; a "
          "depth-2 model that does not train is inconclusive, never against the statement"),
    "C": ("S4 needs depth 3", "on S4 depth 2 fails and depth 3 succeeds; depth 2 solving S4 in ≥ "
          "80% of the seeds refutes"),
    "D": ("A5 needs more depth at larger T",
          "A5's least succeeding depth does not decrease with T and grows from the shortest "
          "to the longest T run"),
}
#: the model families of Table 1 (seqtheory.models.names)
TABLE1_FAMILIES = ("transformer", "gla", "mamba", "signed_mamba", "aussm", "deltaproduct")
#: the families the verdict is decided on: diagonal (restricted) layers, [DEPTH]'s class
VERDICT_FAMILIES = ("gla", "mamba", "signed_mamba", "aussm")
#: the families reported as readings (not of the theory's class)
READING_FAMILIES = tuple(f for f in TABLE1_FAMILIES if f not in VERDICT_FAMILIES)
#: the parts of a family without runs at the profile's scale
NOT_RUN = {"scale": "not run at this scale"}
#: the groups of part (B) ("on D8 and S3 depth 2 succeeds"): each must be run
B_GROUPS = ("D8", "S3")
#: family names in the report
FAMILY_NAMES = {"transformer": "Transformer", "gla": "GLA", "mamba": "Mamba (positive)",
                "signed_mamba": "signed Mamba", "aussm": "AUSSM", "deltaproduct": "DeltaProduct"}


def _cells(groups, models, lengths, depths, steps: int) -> list[tuple[str, str, int, int, int]]:
    """Cells (group, model, depth, T, steps), ordered by group, model, T, depth."""
    return [(g, m, L, t, steps) for g in groups for m in models for t in lengths for L in depths]


def wp_plan(ctx: Context) -> list[tuple[str, str, int, int, int]]:
    """(group, model, depth, T, steps) cells. Quick: AUSSM on D8 and S3 at depths 1, 2 and one
    train length (the S3 cells are the runs of ``depth.exp.s3_depth``). Full: AUSSM on D8, S3 at
    two train lengths (depths 1, 2), S4 (depths 2, 3), A5 at two train lengths (depths 1–4).
    Paper: AUSSM on D8, S3 at T = 64, 128 (depths 1, 2), S4 at T = 128 (depths 2, 3), A5 at
    T = 64, 128 (depths 1, 2, 4, 8), and the other families of Table 1 on D8 and S3 at T = 128
    (depths 1, 2). The other families are not run on a CPU (quick, full): their parts are
    "not run at this scale" (about 100 more runs per block of 5 seeds at full's T = 8, with
    DeltaProduct outside the batched engine), so the verdict there is at most inconclusive."""
    T, steps = s3_scale(ctx)
    pair = ("D8", "S3")
    others = tuple(f for f in TABLE1_FAMILIES if f != "aussm")
    two_lengths = _cells(pair, ("aussm",), (T // 2, T), (1, 2), steps)
    return ctx.by_profile(
        _cells(pair, ("aussm",), (T,), (1, 2), steps),
        two_lengths + _cells(("S4",), ("aussm",), (6,), (2, 3), 2000)
        + _cells(("A5",), ("aussm",), (2, 4), (1, 2, 3, 4), 2000),
        paper=two_lengths + _cells(("S4",), ("aussm",), (T,), (2, 3), steps)
        + _cells(("A5",), ("aussm",), (T // 2, T), (1, 2, 4, 8), steps)
        + _cells(pair, others, (T,), (1, 2), steps))


def _row(cell: tuple, rs: list[dict]) -> dict:
    g, m, L, T, steps = cell
    acc = [acc_at(r, 2 * T) for r in rs]
    return {"group": g, "model": m, "depth": L, "train_length": T, "steps": steps,
            "seq_acc": acc, "successes": sum(a >= SUCCESS for a in acc), "seeds": len(acc),
            "per_position": [r["test"]["per_position_accuracy"] for r in rs]}


def wp_blocks(ctx: Context, plan, shuffle_depth: int | None = None) -> tuple[dict, list[dict]]:
    """The rows of ``plan``'s cells per replication block, ``{block: (seed indices, rows)}``, and
    the rows over both blocks (one row per cell: accuracy at 2T per seed, successes, per-position
    accuracies); the cells at ``shuffle_depth`` are trained on shuffled labels."""
    runs = run_arms(ctx, {cell: wp_cfgs(ctx, *cell, shuffle=cell[2] == shuffle_depth) for cell in plan})
    for rs in runs.values():
        check_protocol(rs, max(S3_FACTORS))
    split = {cell: split_blocks(rs) for cell, rs in runs.items()}
    idx = block_indices(block_size(ctx))
    blocks = {b: (idx[b], [_row(cell, split[cell][b]) for cell in runs]) for b in idx}
    return blocks, [_row(cell, rs) for cell, rs in runs.items()]


#: what evidence would decide the claim when it is inconclusive (report.md shows it)
DECIDED_BY = ('models that learn the groups: part (A) falls only to a depth-1 model that solves '
              'a non- abelian group at 2T, part (B) needs depth-2 models that solve D8 and S3 '
              'at 2T in at least 80% of seeds; depth-2 models that fail to train decide nothing '
              '(absence is not evidence). No CPU recipe measured so far trains them '
              '(docs/trained_recipes.md); the paper profile on a GPU may')



@claim(id="depth.exp.word_problems", claim_version=2, title="Table 1: depth needed per group",
       decided_by=DECIDED_BY,
       source=DEPTH("Table 1"), uses_training=True,
       statement="solvable groups need depth equal to their derived length whatever T (depth 1 "
                 "fails and 2 suffices on D8 and S3; S4 needs 3), while A5's needed depth grows "
                 "with T; decided per diagonal model family of Table 1 (GLA, Mamba, signed Mamba, "
                 "AUSSM), trained on T and tested at 2T")
def word_problems(ctx: Context) -> Outcome:
    plan = wp_plan(ctx)
    blocks, rows = wp_blocks(ctx, plan)
    verdict, why, per = wp_decide(blocks)
    aussm = [r for r in rows if r["model"] == "aussm"]
    figs = word_problem_heatmap(ctx, aussm) + extrapolation_figure(ctx, aussm)
    inspected = inspector_summary(ctx, [c for cell in plan for c in wp_cfgs(ctx, *cell)])
    readings = [Reading(f"Table 1's pattern read as covering {FAMILY_NAMES[f]} layers (not diagonal: "
                        "outside the class of [DEPTH]'s theory)", *wp_decide(blocks, families=(f,))[:2])
                for f in READING_FAMILIES]
    return Outcome(verdict, family_summary(per),
                   evidence={"blocks": {b: {"verdict": r[0].value, "why": r[1],
                                            "families": {f: {"verdict": v.value, "parts": parts}
                                                         for f, (v, parts) in r[2].items()}}
                                        for b, r in per.items()},
                             "parts_defined": {k: d for k, (_, d) in WP_PARTS.items()},
                             "families_decided": list(VERDICT_FAMILIES),
                             "families_as_readings": list(READING_FAMILIES),
                             "rule": RATE_RULE.describe(),
                             "cells": [(r["group"], r["model"], r["depth"], r["train_length"], r["steps"])
                                       for r in rows]},
                   tables={"word_problems": [wp_table_row(r, b) for b, (_, rs) in blocks.items() for r in rs],
                           "inspector": inspected},
                   figures=figs, readings=readings,
                   notes=f"{why}. Profile {ctx.profile}. A cell is a (group, family, train length T, "
                         f"depth), one run per seed, {counted(block_size(ctx), 'seed')} in each of two disjoint "
                         f"blocks; a seed solves the cell when its held-out sequence accuracy at length "
                         f"2T is ≥ {SUCCESS}. A cell succeeds when ≥ {RATE_RULE.min_rate:.0%} of a "
                         f"block's seeds solve it and fails when none does (the Wilson 95% interval of "
                         f"the rate is shown). The parts of the pattern, per family: "
                         + "; ".join(f"({k}) {d}" for k, (_, d) in WP_PARTS.items())
                         + ". Families decided (each a part of the statement; weakest decides): "
                         + ", ".join(FAMILY_NAMES[f] for f in VERDICT_FAMILIES)
                         + "; a family not run at this scale is inconclusive. Readings (not in the "
                           "verdict): " + ", ".join(FAMILY_NAMES[f] for f in READING_FAMILIES)
                         + f". Figures: AUSSM cells. {inspector_note(inspected)}.")


def family_summary(per_block: dict) -> str:
    """The key figure: each decided family's verdict and parts, once when every block agrees;
    the families not run at this scale named together."""
    families = next(iter(per_block.values()))[2]
    not_run = [FAMILY_NAMES[f] for f in families
               if all(r[2][f][1] == NOT_RUN for r in per_block.values())]
    out = []
    for f in families:
        if FAMILY_NAMES[f] in not_run:
            continue
        each = {b: f"{r[2][f][0].value} ({wp_parts_text(r[2][f][1])})" for b, r in per_block.items()}
        out.append(f"{FAMILY_NAMES[f]}: " + (f"{next(iter(each.values()))} in every block"
                                             if len(set(each.values())) == 1 else
                                             "; ".join(f"block {b} {t}" for b, t in each.items())))
    if not_run:
        out.append(f"{', '.join(not_run)}: not run at this scale (inconclusive)")
    return " | ".join(out)


def wp_table_row(r: dict, block: str = "") -> dict:
    """One row of the word-problem table, every number formatted: the block, the cell, how many
    seeds solved it, the rate with its Wilson 95% interval, the rule's reading of the rate and the
    per-seed accuracies at 2T."""
    rate = success_rate(a >= SUCCESS for a in r["seq_acc"])
    lo, hi = rate["wilson95"]
    reading = ("solved" if RATE_RULE.succeeds(rate) else "not solved" if RATE_RULE.fails(rate)
               else "undecided")
    return {**({"block": block} if block else {}), "group": r["group"],
            "family": FAMILY_NAMES.get(r["model"], r["model"]), "depth": r["depth"],
            "train length T": r["train_length"], "steps": r["steps"],
            f"seeds solving (acc. at 2T ≥ {SUCCESS})": f"{rate['successes']}/{rate['seeds']}",
            "rate [Wilson 95%]": f"{rate['rate']:.2f} [{lo:.2f}, {hi:.2f}]", "cell": reading,
            "acc. at 2T per seed": ", ".join(f"{a:.3f}" for a in r["seq_acc"])}


def wp_parts_text(parts: dict[str, str]) -> str:
    """The rule's parts as one line: ``(A) depth 1 fails: holds on D8 T=4; (B) ...`` (a family
    not run: ``not run at this scale``)."""
    return "; ".join(f"({k}) {WP_PARTS[k][0]}: {v}" if k in WP_PARTS else v for k, v in parts.items())


def _cells_text(cells: list[tuple[str, int]]) -> str:
    """``[("D8", 4), ("S3", 4)]`` as ``"D8 T=4, S3 T=4"``."""
    return ", ".join(f"{g} T={T}" for g, T in cells)


def _rate_of(row: dict) -> dict:
    return success_rate([True] * row["successes"] + [False] * (row["seeds"] - row["successes"]))


def _needed_depth(cells: dict[int, dict]) -> int | None:
    ok = [L for L, r in sorted(cells.items()) if RATE_RULE.succeeds(_rate_of(r))]
    return ok[0] if ok else None


def wp_pattern(rows: list[dict]) -> tuple[Verdict, dict[str, str]]:
    """One family's verdict in one block. Rows ``{group, depth, train_length, successes, seeds}``.
    Parts: (A) depth 1 fails (no seed) on every non-abelian group — a depth-1 success rate ≥ 80%
    refutes; (B) on D8 and S3 depth 2 succeeds (≥ 80% of seeds) at every train length run — not
    met is inconclusive (a model that did not train); (C) on S4 depth 2 fails and 3 succeeds — a
    depth-2 success rate ≥ 80% refutes; (D) A5's least succeeding depth does not decrease with T
    and grows between the shortest and the longest T. Supported when every part present holds (and
    at least A, B are present, B on both D8 and S3); inconclusive when a part is not met or
    absent. Rows are checked by :func:`checked_rows` (a cell without seeds is absent; invalid
    counts and conflicting duplicates are a ``ValueError``)."""
    from seqtheory.theory.groups import FiniteGroup

    rows = checked_rows(rows)
    by: dict[tuple[str, int], dict[int, dict]] = {}
    for r in rows:
        by.setdefault((r["group"], r["train_length"]), {})[r["depth"]] = r
    parts: dict[str, str] = {}
    a_cells = [(g, T) for (g, T), c in by.items() if 1 in c and not FiniteGroup.named(g).is_abelian]
    a_bad = [k for k in a_cells if RATE_RULE.succeeds(_rate_of(by[k][1]))]
    if a_bad:
        return Verdict.REFUTED, {"A": f"refuted: depth 1 solved {_cells_text(a_bad)} in ≥ 80% of seeds"}
    s4 = [(g, T) for (g, T) in by if g == "S4"]
    c_bad = [k for k in s4 if 2 in by[k] and RATE_RULE.succeeds(_rate_of(by[k][2]))]
    if c_bad:
        return Verdict.REFUTED, {"C": f"refuted: depth 2 solved {_cells_text(c_bad)} in ≥ 80% of seeds"}
    ok = True
    a_ok = all(RATE_RULE.fails(_rate_of(by[k][1])) for k in a_cells)
    parts["A"] = (("holds" if a_ok else "not met") + f" on {_cells_text(a_cells)}") \
        if a_cells else "not run"
    ok &= bool(a_cells) and a_ok
    b_cells = [(g, T) for (g, T) in by if g in B_GROUPS]
    b_missing = [g for g in B_GROUPS if g not in {g for g, _ in b_cells}]
    b_ok = all(2 in by[k] and RATE_RULE.succeeds(_rate_of(by[k][2])) for k in b_cells)
    parts["B"] = (("holds" if b_ok else "not met (depth 2 did not train)") + f" on {_cells_text(b_cells)}") \
        if b_cells else "not run"
    if b_cells and b_missing:
        parts["B"] += f"; not run on {', '.join(b_missing)} (the statement names {' and '.join(B_GROUPS)})"
    ok &= bool(b_cells) and b_ok and not b_missing
    if s4:
        c_ok = all(2 in by[k] and 3 in by[k] and RATE_RULE.fails(_rate_of(by[k][2]))
                   and RATE_RULE.succeeds(_rate_of(by[k][3])) for k in s4)
        parts["C"] = "holds" if c_ok else "not met"
        ok &= c_ok
    else:
        parts["C"] = "not run at this scale"
    a5 = sorted((T, _needed_depth(c)) for (g, T), c in by.items() if g == "A5")
    if len(a5) >= 2:
        need = [d for _, d in a5]
        d_ok = None not in need and all(x <= y for x, y in zip(need, need[1:])) and need[-1] > need[0]
        parts["D"] = ("holds" if d_ok else "not met") + ": least succeeding depth " + ", ".join(
            f"{'no depth run' if d is None else d} at T={T}" for T, d in a5)
        ok &= d_ok
    else:
        parts["D"] = "not run at this scale"
    return (Verdict.SUPPORTED if ok else Verdict.INCONCLUSIVE), parts


def checked_rows(rows: list[dict]) -> list[dict]:
    """One family's rows, checked (:mod:`~seqtheory.proofs_checks.evidence_checks`): ``successes``
    and ``seeds`` ints with 0 ≤ successes ≤ seeds, ``seq_acc`` (when present) one accuracy in
    [0, 1] per seed, one row per (group, train length, depth) (an exact repeat kept once;
    conflicting values: ``ValueError`` naming both rows). A row with no seeds carries no evidence
    and is left out (its cell is absent)."""
    rows = unique_rows(rows, ("group", "train_length", "depth"))
    out = []
    for i, r in enumerate(rows):
        at = f"rows[{i}] ({r['group']}, T={r['train_length']}, depth {r['depth']})"
        _, n = rate_counts(at, r.get("successes"), r.get("seeds"))
        if "seq_acc" in r:
            per_seed(at, "seq_acc", r["seq_acc"], range(n), 0, 1)
        if n:
            out.append(r)
    return out


def decide_block(rows: list[dict], families: tuple[str, ...] = VERDICT_FAMILIES) -> tuple[Verdict, str, dict]:
    """One block: :func:`wp_pattern` per family of ``families`` (a family without rows:
    inconclusive, not run at this scale), combined as parts (weakest decides)."""
    per: dict[str, tuple[Verdict, dict]] = {}
    for f in families:
        fr = [r for r in rows if r["model"] == f]
        per[f] = wp_pattern(fr) if fr else (Verdict.INCONCLUSIVE, dict(NOT_RUN))
    v, why = combine_verdicts({FAMILY_NAMES[f]: (v, wp_parts_text(p)) for f, (v, p) in per.items()})
    return v, why, per


@word_problems.decision_rule
def wp_decide(blocks: dict[str, tuple[list, list[dict]]],
              families: tuple[str, ...] = VERDICT_FAMILIES) -> tuple[Verdict, str, dict]:
    """``blocks[name] = (seed indices, rows)``, rows ``{group, model, depth, train_length,
    successes, seeds}`` of that block's seeds (checked by :func:`checked_rows`: absent cells
    are inconclusive, invalid counts a ``ValueError``). Per block, each family of ``families`` is decided by
    :func:`wp_pattern` (no rows: inconclusive, not run at this scale) and the families combine as
    parts of the statement (refuted > inconclusive > supported); the blocks are replicated
    (disagreement: inconclusive). Returns ``(verdict, why, per_block)``, ``per_block[name] =
    (verdict, why, {family: (verdict, parts)})``."""
    return decide_blocks(blocks, lambda rows: decide_block(rows, families))


def wp_control_cells(ctx: Context) -> list[tuple[str, str, int, int, int]]:
    """The plan's AUSSM D8 and S3 cells at their longest train length (the control's cells)."""
    plan = [c for c in wp_plan(ctx) if c[0] in ("D8", "S3") and c[1] == "aussm"]
    longest = max(c[3] for c in plan)
    return [c for c in plan if c[3] == longest]


@word_problems.control
def _wp_control(ctx: Context) -> ControlOutcome:
    # the depth-2 AUSSM cells (longest train length) trained on shuffled labels: part B must fail
    blocks, _ = wp_blocks(ctx, wp_control_cells(ctx), shuffle_depth=2)
    v, why, _ = wp_decide(blocks, families=("aussm",))
    return ControlOutcome(rejected=v != Verdict.SUPPORTED,
                          variant="depth-2 AUSSM runs on D8/S3 trained on labels shuffled across each batch",
                          reason=f"{v.value}: {why}")


@word_problems.training_plan
def wp_plan_runs(ctx: Context, controls: bool) -> list:
    """The runs of every cell of :func:`wp_plan`, and with ``controls`` the shuffled-label ones."""
    cfgs = [c for cell in wp_plan(ctx) for c in wp_cfgs(ctx, *cell)]
    if controls:
        cfgs += [c for cell in wp_control_cells(ctx)
                 for c in wp_cfgs(ctx, *cell, shuffle=cell[2] == 2)]
    return cfgs

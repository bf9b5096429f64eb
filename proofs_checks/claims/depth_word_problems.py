"""[DEPTH] (G. Heo et al., arXiv:2603.05573), Table 1: the depth each group's word problem needs.

Claim ``depth.exp.word_problems``: solvable groups need depth equal to their derived length
whatever T (depth 1 fails and 2 suffices on D8 and S3; S4 needs 3), while A5's needed depth grows
with T. Experiment: AUSSM cells (group, train length T, depth) per profile (:func:`wp_plan`), the
shared word-problem runs (:func:`~seqtheory.proofs_checks.trained_recipe.wp_cfgs`; the S3 cells are
those of ``depth.exp.s3_depth``), a seed solving a cell at held-out sequence accuracy ≥ 0.9 at 2T.
Decision (:func:`wp_pattern`, pure): the parts of :data:`WP_PARTS`, each decided on the cells run;
supported when every part present holds. Control: the depth-2 D8/S3 runs trained on shuffled
labels, which must not support.
"""
from __future__ import annotations

from seqtheory.proofs_checks.rates import success_rate
from seqtheory.proofs_checks.registry import DEPTH, Context, ControlOutcome, Outcome, Verdict, claim
from seqtheory.proofs_checks.trained_recipe import (RATE_RULE, S3_FACTORS, SUCCESS, acc_at,
                                                    check_protocol, s3_scale, wp_cfgs)
from seqtheory.proofs_checks.training_figures import extrapolation_figure, word_problem_heatmap
from seqtheory.proofs_checks.training_runs import run_arms

from ..run_inspection import inspector_note, inspector_summary

#: The parts of the Table 1 pattern that :func:`wp_pattern` decides: (short name for the key
#: figure, definition for the report's notes).
WP_PARTS = {
    "A": ("depth 1 fails", "depth 1 fails (no seed solves it) on every non-abelian group run"),
    "B": ("depth 2 solves D8, S3", "depth 2 succeeds on D8 and S3 at every train length run"),
    "C": ("S4 needs depth 3", "on S4 depth 2 fails and depth 3 succeeds"),
    "D": ("A5 needs more depth at larger T",
          "A5's least succeeding depth does not decrease with T and grows from the shortest "
          "to the longest T run"),
}


def _wp_cells(groups, lengths, depths, steps: int) -> list[tuple[str, str, int, int, int]]:
    """AUSSM cells (group, "aussm", depth, T, steps), ordered by group, T, depth."""
    return [(g, "aussm", L, t, steps) for g in groups for t in lengths for L in depths]


def wp_plan(ctx: Context) -> list[tuple[str, str, int, int, int]]:
    """(group, model, depth, T, steps) cells, all AUSSM. Quick: D8 and S3 at depths 1, 2 and one
    train length (the S3 cells are the runs of ``depth.exp.s3_depth``). Full: D8, S3 at two train
    lengths (depths 1, 2), S4 (depths 2, 3), A5 at two train lengths (depths 1–4). Paper: D8, S3 at
    T = 64, 128 (depths 1, 2), S4 at T = 128 (depths 2, 3), A5 at T = 64, 128 (depths 1, 2, 4, 8),
    the recipe's ``PAPER_RECIPE``."""
    T, steps = s3_scale(ctx)
    pair = ("D8", "S3")
    two_lengths = _wp_cells(pair, (T // 2, T), (1, 2), steps)
    return ctx.by_profile(
        _wp_cells(pair, (T,), (1, 2), steps),
        two_lengths + _wp_cells(("S4",), (6,), (2, 3), 2000)
        + _wp_cells(("A5",), (2, 4), (1, 2, 3, 4), 2000),
        paper=two_lengths + _wp_cells(("S4",), (T,), (2, 3), steps)
        + _wp_cells(("A5",), (T // 2, T), (1, 2, 4, 8), steps))


def wp_rows(ctx: Context, plan, shuffle_depth: int | None = None) -> list[dict]:
    """One row per cell of ``plan``: the cell, accuracy at 2T per seed, successes, per-position
    accuracies (the cells at ``shuffle_depth`` trained on shuffled labels)."""
    rows = []
    runs = run_arms(ctx, {cell: wp_cfgs(ctx, *cell, shuffle=cell[2] == shuffle_depth) for cell in plan})
    for (g, m, L, T, steps), rs in runs.items():
        check_protocol(rs, max(S3_FACTORS))
        acc = [acc_at(r, 2 * T) for r in rs]
        rows.append({"group": g, "model": m, "depth": L, "train_length": T, "steps": steps,
                     "seq_acc": acc, "successes": sum(a >= SUCCESS for a in acc), "seeds": len(acc),
                     "per_position": [r["test"]["per_position_accuracy"] for r in rs]})
    return rows


#: what evidence would decide the claim when it is inconclusive (report.md shows it)
DECIDED_BY = ('models that learn the groups: part (A) falls only to a depth-1 model that solves '
              'a non- abelian group at 2T, part (B) needs depth-2 models that solve D8 and S3 '
              'at 2T in at least 80% of seeds; depth-2 models that fail to train decide nothing '
              '(absence is not evidence). No CPU recipe measured so far trains them '
              '(docs/trained_recipes.md); the paper profile on a GPU may')


@claim(id="depth.exp.word_problems", title="Table 1: depth needed per group",
       decided_by=DECIDED_BY,
       source=DEPTH("Table 1"), uses_training=True,
       statement="solvable groups need depth equal to their derived length whatever T (depth 1 "
                 "fails and 2 suffices on D8 and S3; S4 needs 3), while A5's needed depth grows "
                 "with T")
def word_problems(ctx: Context) -> Outcome:
    plan = wp_plan(ctx)
    rows = wp_rows(ctx, plan)
    verdict, parts = wp_pattern(rows)
    figs = word_problem_heatmap(ctx, rows) + extrapolation_figure(ctx, rows)
    inspected = inspector_summary(ctx, [c for cell in plan for c in wp_cfgs(ctx, *cell)])
    return Outcome(verdict, wp_parts_text(parts),
                   evidence={"parts": parts, "parts_defined": {k: d for k, (_, d) in WP_PARTS.items()},
                             "rule": RATE_RULE.describe(),
                             "cells": [(r["group"], r["model"], r["depth"], r["train_length"], r["steps"])
                                       for r in rows]},
                   tables={"word_problems": [wp_table_row(r) for r in rows],
                           "inspector": inspected},
                   figures=figs,
                   notes=f"Profile {ctx.profile}. A cell is a (group, train length T, depth) of "
                         f"AUSSM models, one run per seed; a seed solves the cell when its held-out "
                         f"sequence accuracy at length 2T is ≥ {SUCCESS}. A cell succeeds when "
                         f"≥ {RATE_RULE.min_rate:.0%} of its seeds solve it and fails when none "
                         f"does (the Wilson 95% interval of the rate is shown). The parts of the "
                         f"pattern: " + "; ".join(f"({k}) {d}" for k, (_, d) in WP_PARTS.items())
                         + ". The verdict is decided on the parts present in the table; a part "
                           f"not run at this scale is named as such. {inspector_note(inspected)}.")


def wp_table_row(r: dict) -> dict:
    """One row of the word-problem table, every number formatted: the cell, how many seeds
    solved it, the rate with its Wilson 95% interval, the rule's reading of the rate and the
    per-seed accuracies at 2T."""
    rate = success_rate(a >= SUCCESS for a in r["seq_acc"])
    lo, hi = rate["wilson95"]
    reading = ("succeeds" if RATE_RULE.succeeds(rate) else "fails" if RATE_RULE.fails(rate)
               else "undecided")
    return {"group": r["group"], "model": r["model"], "depth": r["depth"],
            "train length T": r["train_length"], "steps": r["steps"],
            f"seeds solving (acc. at 2T ≥ {SUCCESS})": f"{rate['successes']}/{rate['seeds']}",
            "rate [Wilson 95%]": f"{rate['rate']:.2f} [{lo:.2f}, {hi:.2f}]", "cell": reading,
            "acc. at 2T per seed": ", ".join(f"{a:.3f}" for a in r["seq_acc"])}


def wp_parts_text(parts: dict[str, str]) -> str:
    """The rule's parts as one line: ``(A) depth 1 fails: holds on D8 T=4; (B) ...``."""
    return "; ".join(f"({k}) {WP_PARTS[k][0]}: {v}" for k, v in parts.items())


def _cells_text(cells: list[tuple[str, int]]) -> str:
    """``[("D8", 4), ("S3", 4)]`` as ``"D8 T=4, S3 T=4"``."""
    return ", ".join(f"{g} T={T}" for g, T in cells)


def _rate_of(row: dict) -> dict:
    return success_rate([True] * row["successes"] + [False] * (row["seeds"] - row["successes"]))


def _needed_depth(cells: dict[int, dict]) -> int | None:
    ok = [L for L, r in sorted(cells.items()) if RATE_RULE.succeeds(_rate_of(r))]
    return ok[0] if ok else None


@word_problems.decision_rule
def wp_pattern(rows: list[dict]) -> tuple[Verdict, dict[str, str]]:
    """Rows ``{group, model, depth, train_length, successes, seeds}``. Parts: (A) depth 1 fails
    (no seed) on every non-abelian group — a depth-1 success rate ≥ 80% refutes; (B) on D8 and S3
    depth 2 succeeds (≥ 80% of seeds) at every train length run; (C) on S4 depth 2 fails and 3
    succeeds; (D) A5's least succeeding depth does not decrease with T and grows between the
    shortest and the longest T. Supported when every part present holds (and at least A, B are
    present); inconclusive when a part is not met or absent."""
    from seqtheory.theory.groups import FiniteGroup

    by: dict[tuple[str, int], dict[int, dict]] = {}
    for r in rows:
        by.setdefault((r["group"], r["train_length"]), {})[r["depth"]] = r
    parts: dict[str, str] = {}
    ok = True
    a_bad = [(g, T) for (g, T), c in by.items() if 1 in c and not FiniteGroup.named(g).is_abelian
             and RATE_RULE.succeeds(_rate_of(c[1]))]
    a_cells = [(g, T) for (g, T), c in by.items() if 1 in c and not FiniteGroup.named(g).is_abelian]
    if a_bad:
        return Verdict.REFUTED, {"A": f"depth 1 solved {_cells_text(a_bad)} in ≥ 80% of seeds"}
    a_ok = all(RATE_RULE.fails(_rate_of(by[k][1])) for k in a_cells)
    parts["A"] = (("holds" if a_ok else "not met") + f" on {_cells_text(a_cells)}") \
        if a_cells else "not run"
    ok &= bool(a_cells) and a_ok
    b_cells = [(g, T) for (g, T) in by if g in ("D8", "S3")]
    b_ok = all(2 in by[k] and RATE_RULE.succeeds(_rate_of(by[k][2])) for k in b_cells)
    parts["B"] = (("holds" if b_ok else "not met") + f" on {_cells_text(b_cells)}") \
        if b_cells else "not run"
    ok &= bool(b_cells) and b_ok
    s4 = [(g, T) for (g, T) in by if g == "S4"]
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


def wp_control_cells(ctx: Context) -> list[tuple[str, str, int, int, int]]:
    """The plan's D8 and S3 cells at their longest train length (the control's cells)."""
    plan = [c for c in wp_plan(ctx) if c[0] in ("D8", "S3")]
    longest = max(c[3] for c in plan)
    return [c for c in plan if c[3] == longest]


@word_problems.control
def _wp_control(ctx: Context) -> ControlOutcome:
    # the depth-2 cells (longest train length) trained on shuffled labels: part B must then fail
    rows = wp_rows(ctx, wp_control_cells(ctx), shuffle_depth=2)
    v, parts = wp_pattern(rows)
    return ControlOutcome(rejected=v != Verdict.SUPPORTED,
                          variant="depth-2 runs on D8/S3 trained on labels shuffled across each batch",
                          reason=f"{v.value}: {wp_parts_text(parts)}")


@word_problems.training_plan
def wp_plan_runs(ctx: Context, controls: bool) -> list:
    """The runs of every cell of :func:`wp_plan`, and with ``controls`` the shuffled-label ones."""
    cfgs = [c for cell in wp_plan(ctx) for c in wp_cfgs(ctx, *cell)]
    if controls:
        cfgs += [c for cell in wp_control_cells(ctx)
                 for c in wp_cfgs(ctx, *cell, shuffle=cell[2] == 2)]
    return cfgs

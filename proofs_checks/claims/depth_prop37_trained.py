"""[DEPTH] (G. Heo et al., arXiv:2603.05573), Proposition 3.7 and Figure 2, the trained half: on A5
the held-out length generalisation grows with depth. The exact half (least depth for word problems
of length T) is ``depth.prop3.7`` in :mod:`.depth_prop37`.

Claim ``depth.prop3.7.trained``: on A5 the longest length with ≥ 90% held-out sequence accuracy
grows with depth. Experiment: ``signed_mamba`` (restricted layers) at the profile's depths, the
shared recipe (:mod:`seqtheory.proofs_checks.trained_recipe`), test words :data:`A5_TEST_FACTOR`
× T long. Decision (:func:`prop37_decide`, pure): Kendall's τ between depth and length over all
runs, one-sided at :data:`ALPHA`, in each of two replication blocks of seeds
(:mod:`seqtheory.proofs_checks.seed_blocks`); a decrease refutes only when the deeper models fit
their training length (a deeper model that did not train is absence of evidence). Quick has 2
seeds per block and depths 1, 2: 4 runs per block, where only a clean separation (both depth-2
runs longer than both depth-1 runs, ties within a depth) reaches p ≤ 0.05, in each block; so
quick is mostly ``inconclusive``. Control: the
depth-1 models' lengths reported at every depth, which must not be supported.
"""
from __future__ import annotations

import numpy as np

from seqtheory.proofs_checks.evidence_checks import absent_keys, per_seed_blocks
from seqtheory.proofs_checks.figures import new_figure, save_figure
from seqtheory.proofs_checks.registry import DEPTH, Context, ControlOutcome, Outcome, Verdict, claim
from seqtheory.proofs_checks.report import format_stat
from seqtheory.proofs_checks.seed_blocks import block_size, decide_blocks, n_block_seeds, split_arms
from seqtheory.proofs_checks.trained_recipe import (PAPER_RECIPE, check_protocol, paper_scale, recipe,
                                                    seed_configs)
from seqtheory.proofs_checks.training_runs import run_arms
from seqtheory.theory._messages import counted

#: A5 test words are 4T long: length generalisation is measured up to 4T
A5_TEST_FACTOR = 4
#: one-sided significance of Kendall's τ (depth vs generalised length, over all runs)
ALPHA = 0.05
#: why Kendall's τ cannot be computed (the rule's degenerate case)
NO_TAU = "every run reached the same length: no ranking to correlate"


def a5_cfgs(ctx: Context) -> dict[int, list]:
    """``{depth: the seeds' configurations}`` (both replication blocks, in seed order) at the
    profile's depths, T and steps."""
    depths, T, steps = ctx.by_profile(([1, 2], 3, 400), ([1, 2, 3, 4], 4, 2000),
                                      paper=([1, 2, 4, 8], 32, PAPER_RECIPE["steps"]))
    return {L: seed_configs(ctx, f"a5:{L}", n_block_seeds(ctx), task="A5", model="signed_mamba", depth=L,
                            **recipe(T, steps, test_length=A5_TEST_FACTOR * T, **paper_scale(ctx, T, L)))
            for L in depths}


def _length_figure(ctx: Context, lengths: dict[int, list[int]], T: int) -> list[str]:
    """Longest length at ≥ 90% accuracy per seed and its median, against depth."""
    fig, ax = new_figure(figsize=(5, 3.5))
    for i, (L, v) in enumerate(lengths.items()):
        ax.scatter([L] * len(v), v, color="C0", alpha=0.6, s=14, label="per seed" if i == 0 else None)
    ax.plot(list(lengths), [np.median(v) for v in lengths.values()], "o-", color="C1", label="median over seeds")
    ax.axhline(T, color="grey", ls=":", label=f"train length T = {T}")
    ax.set_xticks(list(lengths))
    ax.yaxis.get_major_locator().set_params(integer=True)
    ax.set_xlabel("depth L (signed_mamba layers)")
    ax.set_ylabel("longest length with ≥ 90% held-out seq. acc.")
    ax.legend(fontsize=7)
    return save_figure(fig, ctx, "depth_prop37_trained")


#: what evidence would decide the claim when it is inconclusive (report.md shows it)
DECIDED_BY = ('A5 runs whose longest 90%-accuracy lengths differ across depths (models that '
              "generalise beyond length 1), so that Kendall's τ between depth and length can be "
              'tested (one-sided, α = 0.05); runs that all stop at length 1 decide nothing')



def length_blocks(runs: dict[int, list[dict]]) -> dict[str, tuple[list[int], dict[int, list[int]]]]:
    """``{block: (seed indices, {depth: [longest length at ≥ 90% per seed]})}``."""
    labels, per = split_arms({L: [r["test"]["max_len_90"] for r in rs] for L, rs in runs.items()})
    return {b: (labels[b], per[b]) for b in labels}


@claim(id="depth.prop3.7.trained", claim_version=2,
       decided_by=DECIDED_BY,
       title="A5: held-out length generalisation grows with depth",
       source=DEPTH("Proposition 3.7 and Figure 2 (trained half)"), uses_training=True,
       statement="on A5 the longest length with ≥ 90% held-out sequence accuracy grows with depth")
def prop37_trained(ctx: Context) -> Outcome:
    runs = run_arms(ctx, a5_cfgs(ctx))
    for rs in runs.values():
        check_protocol(rs, A5_TEST_FACTOR)
    lengths = {L: [r["test"]["max_len_90"] for r in rs] for L, rs in runs.items()}
    T = runs[min(runs)][0]["config"]["train_length"]
    blocks = length_blocks(runs)
    verdict, why, per = prop37_decide(blocks, T)
    figs = _length_figure(ctx, lengths, T)
    return Outcome(verdict, " | ".join(f"block {b}: " + "; ".join(f"L={L}: {v}" for L, v in ev.items())
                                       + "; " + prop37_key_statistic(per[b][2])
                                       for b, (_, ev) in blocks.items()),
                   evidence={"max_len_90": {str(L): v for L, v in lengths.items()},
                             "blocks": {b: {"verdict": r[0].value, "why": r[1], **r[2]}
                                        for b, r in per.items()}, "train_length": T},
                   tables={"length_vs_depth": [{"depth": L, "seed": r["config"]["seed"],
                                                "max_len_90": r["test"]["max_len_90"]}
                                               for L, rs in runs.items() for r in rs]},
                   figures=figs,
                   notes=f"{why}. Held-out A5 words of length {A5_TEST_FACTOR}T (T = {T}); "
                         f"signed_mamba (restricted layers), {counted(block_size(ctx), 'seed')} per "
                         "depth in each of two disjoint seed blocks, decided in each block and "
                         "replicated. A decrease with depth refutes only when every deeper run fits "
                         "its training length (longest length ≥ T); a deeper model that did not train "
                         "is absence of evidence")


def prop37_key_statistic(stats: dict) -> str:
    """``Kendall τ 0.53 (one-sided p 0.012)``, or ``Kendall τ n/a (why)`` when τ (and so its
    test) cannot be computed."""
    if stats["tau"] != stats["tau"]:
        return f"Kendall τ {format_stat(None, why=NO_TAU)}"
    return f"Kendall τ {format_stat(stats['tau'], '.2f')} (one-sided p {format_stat(stats['p_greater'], '.3f')})"


def decide_block(lengths: dict[int, list[int]], train_length: int) -> tuple[Verdict, str, dict]:
    """One block's verdict (see :func:`prop37_decide`)."""
    from scipy.stats import kendalltau

    nan = {"tau": float("nan"), "p_greater": float("nan"), "p_less": float("nan")}
    absent = absent_keys(lengths)
    if absent:
        return Verdict.INCONCLUSIVE, absent, nan
    x = [L for L, v in lengths.items() for _ in v]
    y = [float(u) for v in lengths.values() for u in v]
    if len(set(y)) < 2 or len(set(x)) < 2:
        return Verdict.INCONCLUSIVE, (f"every run reached the same length {y[0]:g}: no growth to test "
                                      f"(training budget at this scale)"), \
            {"tau": float("nan"), "p_greater": float("nan"), "p_less": float("nan")}
    up, down = kendalltau(x, y, alternative="greater"), kendalltau(x, y, alternative="less")
    stats = {"tau": float(up.statistic), "p_greater": float(up.pvalue), "p_less": float(down.pvalue)}
    if stats["p_greater"] <= ALPHA:
        return Verdict.SUPPORTED, f"length grows with depth (τ {stats['tau']:.2f}, p {stats['p_greater']:.3f})", stats
    if stats["p_less"] <= ALPHA:
        down = f"length decreases with depth (τ {stats['tau']:.2f}, p {stats['p_less']:.3f})"
        short = sorted(L for L, v in lengths.items() if L > min(lengths) and min(v) < train_length)
        if not short:
            return Verdict.REFUTED, f"{down} while every deeper run fits its training length {train_length}", stats
        return Verdict.INCONCLUSIVE, (f"{down}, but deeper runs did not fit their training length "
                                      f"{train_length} (depths {short}): models that did not train, "
                                      "no evidence against growth"), stats
    return Verdict.INCONCLUSIVE, (f"no significant growth (τ {stats['tau']:.2f}, one-sided p "
                                  f"{stats['p_greater']:.3f} > {ALPHA})"), stats


@prop37_trained.decision_rule
def prop37_decide(blocks: dict[str, tuple[list, dict[int, list[int]]]],
                  train_length: int) -> tuple[Verdict, str, dict]:
    """``blocks[name] = (seed indices, lengths)``, ``lengths[depth]``: the longest held-out length
    at ≥ 90% sequence accuracy, per seed of the block; ``train_length``: T. Per block, Kendall's τ
    between depth and length over its runs: supported when the one-sided test of growth has
    p ≤ 0.05; refuted when the one-sided test of decrease has p ≤ 0.05 and every run deeper than
    the shallowest depth fits its training length (length ≥ T), inconclusive when some does not (a
    model that did not train); else inconclusive (including when every run has the same length).
    The blocks are replicated (disagreement: inconclusive). Absent evidence (no depths, a depth
    without runs, a block without seeds) is inconclusive; invalid evidence (a length NaN, ±inf or
    negative, a depth with a number of lengths other than the block's seeds) is a ``ValueError``
    naming the block, depth and seed. Returns ``(verdict, why, per_block)``."""
    per_seed_blocks(blocks, "lengths", 0)
    return decide_blocks(blocks, lambda lengths: decide_block(lengths, train_length))


@prop37_trained.control
def _prop37_control(ctx: Context) -> ControlOutcome:
    # depth makes no difference: the shallowest models' lengths stand for every depth
    runs = run_arms(ctx, a5_cfgs(ctx))
    L1 = min(runs)
    flat = {L: runs[L1] for L in runs}
    v, why, _ = prop37_decide(length_blocks(flat), runs[L1][0]["config"]["train_length"])
    return ControlOutcome(rejected=v != Verdict.SUPPORTED,
                          variant="the depth-1 models' lengths reported at every depth",
                          reason=f"{v.value}: {why}")


@prop37_trained.training_plan
def prop37_plan(ctx: Context, controls: bool) -> list:
    """Every depth's runs (the control reads the same runs)."""
    return [c for cfgs in a5_cfgs(ctx).values() for c in cfgs]

"""[DEPTH] (G. Heo et al., arXiv:2603.05573), experiments, the continuous A5 rotation task.

Claim ``depth.exp.rotation``: the held-out MSE of the continuous A5 rotation task (the faithful
icosahedral representation) decreases with depth. Experiment: ``signed_mamba`` (restricted layers)
at the profile's depths (:func:`rotation_depths`), the shared recipe
(:mod:`seqtheory.proofs_checks.trained_recipe`) with lr 1e-2 and no curriculum, held-out test at
2T; the constant predictor's MSE (:func:`constant_mse`) is the baseline. Decision
(:func:`mse_decreasing`, pure): per seed, between successive depths; supported when ≥ 80% of the
seeds improve at every step; in each of two replication blocks of seeds
(:mod:`seqtheory.proofs_checks.seed_blocks`), replicated. A deeper model whose MSE stays at the
constant predictor's did not train: absence of evidence, never a refutation. Control: depth 1
against depth 1 trained with other seeds, labelled as depth 2, which must not be supported.
"""
from __future__ import annotations

import math

import numpy as np

from seqtheory.proofs_checks.figures import new_figure, save_figure
from seqtheory.proofs_checks.evidence_checks import absent_keys, measured, per_seed_blocks
from seqtheory.proofs_checks.rates import rate_text, success_rate
from seqtheory.theory._messages import counted
from seqtheory.proofs_checks.registry import DEPTH, Context, ControlOutcome, Outcome, Verdict, claim
from seqtheory.proofs_checks.seed_blocks import block_size, decide_blocks, n_block_seeds, split_arms
from seqtheory.proofs_checks.trained_recipe import (PAPER_RECIPE, RATE_RULE, paper_scale, recipe,
                                                    seed_configs)
from seqtheory.proofs_checks.training_runs import run_arms

#: a depth "learned the task" when its mean held-out MSE is below this fraction of the constant
#: predictor's
LEARNED = 0.9


def rotation_cfgs(ctx: Context, depth: int, salt: str = "") -> list:
    """The seeds of the rotation runs at ``depth``, both replication blocks in seed order (``salt``
    picks another set of seeds)."""
    T, steps = ctx.by_profile((6, 300), (12, 2000), paper=(64, PAPER_RECIPE["steps"]))
    return seed_configs(ctx, f"rot:signed_mamba:{depth}{salt}", n_block_seeds(ctx), task="rotation_a5",
                        model="signed_mamba", depth=depth,
                        **recipe(T, steps, lr=1e-2, n_train=512, curriculum_steps=0,
                                 **paper_scale(ctx, T, depth)))


def rotation_depths(ctx: Context) -> list[int]:
    return ctx.by_profile([1, 2], [1, 2, 4], paper=[1, 2, 4, 8])


def constant_mse(cfg) -> float:
    """Held-out MSE of the constant predictor (the mean training target at each position)."""
    from seqtheory.models.training import build_task

    d = build_task(cfg)
    mean = d.train_targets.mean(axis=0)
    T2 = d.test_targets.shape[1]
    pred = np.concatenate([mean, np.repeat(mean[-1:], T2 - len(mean), axis=0)])
    return float(((d.test_targets - pred) ** 2).mean())


def _mse_figure(ctx: Context, runs: dict[int, list[dict]], T: int) -> list[str]:
    """Held-out MSE per position, one colour per depth, one line per seed."""
    fig, ax = new_figure(figsize=(6, 3.5))
    for L, rs in runs.items():
        for j, r in enumerate(rs):
            pp = r["test"]["per_position_mse"]
            ax.plot(np.arange(1, len(pp) + 1), pp, color=f"C{L}", lw=0.8,
                    label=f"depth {L}" if j == 0 else None)
    ax.axvline(T + 0.5, color="grey", ls=":", label="train length")
    ax.set_yscale("log")
    ax.set_xlabel("position")
    ax.set_ylabel("MSE (per seed)")
    ax.xaxis.get_major_locator().set_params(integer=True)
    ax.legend()
    return save_figure(fig, ctx, "depth_exp_rotation_mse")


#: what evidence would decide the claim when it is inconclusive (report.md shows it)
DECIDED_BY = ('a depth that learns the task (mean held-out MSE below 90% of the constant '
              "predictor's): then at least 80% of the seeds improving at every depth step "
              'supports the claim and most seeds getting worse refutes it; models stuck at the '
              'constant predictor decide nothing')



def mse_blocks(runs: dict[int, list[dict]]) -> dict[str, tuple[list[int], dict[int, list[float]]]]:
    """``{block: (seed indices, {depth: [held-out MSE per seed]})}``."""
    labels, per = split_arms({L: [r["test"]["mse"] for r in rs] for L, rs in runs.items()})
    return {b: (labels[b], per[b]) for b in labels}


@claim(id="depth.exp.rotation", claim_version=2, title="A5 rotation task: MSE decreases with depth",
       decided_by=DECIDED_BY,
       source=DEPTH("experiments, continuous A5 rotation task"), uses_training=True,
       statement="the MSE of the continuous A5 rotation task (faithful icosahedral representation) "
                 "decreases with depth")
def rotation(ctx: Context) -> Outcome:
    runs = run_arms(ctx, {L: rotation_cfgs(ctx, L) for L in rotation_depths(ctx)})
    mses = {L: [r["test"]["mse"] for r in rs] for L, rs in runs.items()}
    base = constant_mse(rotation_cfgs(ctx, 1)[0])
    verdict, why, per = mse_decreasing(mse_blocks(runs), base)
    T = runs[min(runs)][0]["config"]["train_length"]
    figs = _mse_figure(ctx, runs, T)
    return Outcome(verdict, "held-out MSE, mean ± s.d. over seeds: "
                   + ", ".join(f"depth {L}: {np.mean(v):.3g} ± {np.std(v):.2g}" for L, v in mses.items())
                   + f" (constant predictor {base:.3g})",
                   evidence={"mse": {str(L): v for L, v in mses.items()}, "constant_predictor_mse": base,
                             "blocks": {b: {"verdict": r[0].value, "why": r[1]} for b, r in per.items()},
                             "audit": runs[min(runs)][0]["data"]["audit"]},
                   tables={"mse_vs_depth": [{"depth": L, "seed": r["config"]["seed"], "mse": r["test"]["mse"]}
                                            for L, rs in runs.items() for r in rs]},
                   figures=figs, notes=why + f" (signed_mamba, restricted layers, T = {T}, "
                                             f"held-out test at 2T, {counted(block_size(ctx), 'seed')} "
                                             "per depth in each of two disjoint seed blocks)")


def decide_block(mses: dict[int, list[float]], baseline: float | None = None,
                 margin: float = 0.05) -> tuple[Verdict, str]:
    """One block's verdict (see :func:`mse_decreasing`)."""
    absent = absent_keys(mses)
    if absent:
        return Verdict.INCONCLUSIVE, absent
    learned = {L: baseline is None or np.mean(v) < LEARNED * baseline for L, v in mses.items()}
    if not any(learned.values()):
        return Verdict.INCONCLUSIVE, (f"no depth learned the task: every mean MSE is within "
                                      f"{1 - LEARNED:.0%} of the constant predictor's {baseline:.3g} "
                                      "(training budget)")
    Ls = sorted(mses)
    steps = []
    for a, b in zip(Ls, Ls[1:]):
        ratio = [y / x if x > 0 else (1.0 if y == 0 else math.inf) for x, y in zip(mses[a], mses[b])]
        steps.append((a, b, success_rate(r <= 1 - margin for r in ratio),
                      success_rate(r > 1 + margin for r in ratio)))
    desc = "; ".join(f"{a}→{b}: improves {rate_text(up)}" for a, b, up, _ in steps)
    worse = [(a, b) for a, b, _, down in steps if RATE_RULE.succeeds(down)]
    if any(learned[b] for _, b in worse):
        return Verdict.REFUTED, f"MSE increases with depth in most seeds where the deeper model learned ({desc})"
    if worse:
        return Verdict.INCONCLUSIVE, (f"MSE increases with depth in most seeds, but the deeper models "
                                      f"(depths {sorted(b for _, b in worse)}) stayed at the constant "
                                      f"predictor's MSE: they did not train ({desc})")
    if steps and all(RATE_RULE.succeeds(up) for _, _, up, _ in steps):
        return Verdict.SUPPORTED, f"MSE decreases with depth ({desc})"
    return Verdict.INCONCLUSIVE, f"no consistent decrease ({desc})"


@rotation.decision_rule
def mse_decreasing(blocks: dict[str, tuple[list, dict[int, list[float]]]], baseline: float | None = None,
                   margin: float = 0.05) -> tuple[Verdict, str, dict]:
    """``blocks[name] = (seed indices, mses)``, ``mses[depth]``: held-out MSE per seed of the
    block (same seed order at every depth); ``baseline``: the constant predictor's MSE. Per block:
    inconclusive when no depth's mean MSE is below 0.9 × ``baseline`` (nothing learned). Between
    successive depths a seed *improves* when its MSE falls by ≥ ``margin`` (relative) and *worsens*
    when it rises by more. Supported: at every step ≥ 80% of the seeds improve; refuted: at some
    step ≥ 80% worsen and the deeper depth learned (mean MSE below 0.9 × ``baseline``; a deeper
    model that did not train is inconclusive); else inconclusive. The blocks are replicated
    (disagreement: inconclusive). Absent evidence (no depths, a depth without seeds, a block
    without seeds) is inconclusive, and so is a diverged run (an MSE NaN: its loss went
    non-finite); invalid evidence (an MSE ±inf or negative, a depth with
    a number of values other than the block's seeds, a baseline that is not a positive finite
    number) is a ``ValueError`` naming the block, depth and seed. Returns ``(verdict, why,
    per_block)``."""
    if baseline is not None:
        measured("", "baseline", baseline, 0, above=True)
    diverged = [f"block {b}, depth {L}, seed #{i}" for b, (_, m) in blocks.items()
                for L, vs in m.items() for i, v in enumerate(vs)
                if isinstance(v, float) and math.isnan(v)]
    if diverged:      # a run whose loss went non-finite: a real outcome, and no evidence either way
        return (Verdict.INCONCLUSIVE, f"{counted(len(diverged), 'run')} diverged (held-out MSE "
                f"NaN: {', '.join(diverged[:3])}{', …' if len(diverged) > 3 else ''})", {})
    per_seed_blocks(blocks, "mse", 0)
    return decide_blocks(blocks, lambda m: decide_block(m, baseline, margin))


@rotation.control
def _rotation_control(ctx: Context) -> ControlOutcome:
    # the deeper model replaced by the depth-1 architecture trained with other seeds: no depth
    # effect, so the claim's decrease must not be found
    runs = run_arms(ctx, {1: rotation_cfgs(ctx, 1), 2: rotation_cfgs(ctx, 1, salt=":control")})
    v, why, _ = mse_decreasing(mse_blocks(runs), constant_mse(rotation_cfgs(ctx, 1)[0]))
    return ControlOutcome(rejected=v != Verdict.SUPPORTED,
                          variant="depth 1 vs depth 1 (other seeds) labelled as depth 2",
                          reason=f"{v.value}: {why}",
                          evidence={"mse": {L: [r["test"]["mse"] for r in rs] for L, rs in runs.items()}})


@rotation.training_plan
def rotation_plan(ctx: Context, controls: bool) -> list:
    """The runs at every depth, and with ``controls`` the depth-1 runs of other seeds."""
    return [c for L in rotation_depths(ctx) for c in rotation_cfgs(ctx, L)] + \
        (rotation_cfgs(ctx, 1, salt=":control") if controls else [])

"""Parity (C2) with one diagonal layer: negative eigenvalues are needed (a result of Grazzi et al.,
arXiv:2411.12537, not a statement of [DEPTH]; tested with [DEPTH]'s experimental protocol).

Claim ``finding.parity_negative_eigenvalues``: a 1-layer diagonal SSM with transitions in (−1, 1)
(``signed_mamba``) solves parity at twice the training length; with transitions in (0, 1)
(``mamba``) it does not. Experiment: :data:`PARITY_SEEDS` seeds per arm, the shared recipe
(:mod:`seqtheory.proofs_checks.trained_recipe`), held-out words of length 2T. Decision
(:func:`parity_decide`, pure): a seed succeeds at sequence accuracy ≥ :data:`PARITY_SUCCESS`; per
seed block (:mod:`seqtheory.proofs_checks.seed_blocks`: seeds 1–3 of each arm are block A, 4–5
block B) supported when signed succeeds in ≥ 80% of the block's seeds and positive in none,
refuted when positive succeeds in ≥ 80% (a model doing what the statement says is impossible:
positive evidence), else inconclusive (a signed model that does not train is never evidence
against the statement); the two blocks must agree
(:func:`~seqtheory.proofs_checks.registry.replicate`), else inconclusive with both shown. (Until
2026-12-04 the rule decided on all 5 seeds at once; changed after seed 0 of the quick profile
and seeds 0, 1, 5 of the full one were seen.) Control: both arms on ``C2.token`` (label = the
current token, no memory), which the rule must refute.
"""
from __future__ import annotations

from seqtheory.proofs_checks.rates import rate_text, success_rate
from seqtheory.proofs_checks.registry import FINDING, Context, ControlOutcome, Outcome, Verdict, claim
from seqtheory.proofs_checks.seed_blocks import arm_blocks, blocks_text, replicated
from seqtheory.proofs_checks.trained_recipe import (PAPER_RECIPE, PAPER_T, RATE_RULE, check_protocol,
                                                    paper_scale, recipe, seed_configs)
from seqtheory.proofs_checks.training_figures import loss_curves_figure
from seqtheory.proofs_checks.training_runs import run_arms
from seqtheory.theory._messages import counted

from ..run_inspection import inspector_note, inspector_summary

PARITY_SUCCESS = 0.99  # parity: sequence accuracy at 2T that counts as "solved"
PARITY_SEEDS = 5       # parity runs 5 seeds in every profile
#: steps of the control's runs: the token-label task needs no memory and is learnt in ~100 steps
PARITY_CONTROL_STEPS = 150


def parity_cfgs(ctx: Context, model: str) -> list:
    """The :data:`PARITY_SEEDS` runs of one arm (``model``): depth 1, the profile's T and steps."""
    T, steps = ctx.by_profile((8, 1000), (16, 1500), paper=(PAPER_T, PAPER_RECIPE["steps"]))
    return seed_configs(ctx, f"parity:{model}", PARITY_SEEDS, task="C2", model=model, depth=1,
                        **recipe(T, steps, **paper_scale(ctx, T, 1)))


def token_cfgs(ctx: Context, model: str) -> list:
    """The parity control's runs: the same words, model and recipe as :func:`parity_cfgs` at the
    quick profile's length, on ``C2.token`` (label = the current token: no memory, so no
    negative eigenvalue is needed), :data:`PARITY_CONTROL_STEPS` steps."""
    return seed_configs(ctx, f"parity-control:{model}", PARITY_SEEDS, task="C2.token", model=model,
                        depth=1, **recipe(8, PARITY_CONTROL_STEPS))


PARITY_ARMS = ("signed", "positive")


def seq_acc_at_2T(arms: dict[str, list[dict]], cfgs: dict[str, list]) -> list[dict]:
    """The evidence of :func:`parity_decide`: one row per run, ``{"arm", "seq_acc", "block",
    "seed_pos"}`` (held-out sequence accuracy at 2T; the seed block of
    :func:`~seqtheory.proofs_checks.seed_blocks.seed_blocks` over ``cfgs``, the arms'
    configurations), after :func:`~seqtheory.proofs_checks.trained_recipe.check_protocol` on every
    run."""
    block = arm_blocks(cfgs)
    rows = []
    for arm, rs in arms.items():
        check_protocol(rs)
        for r in rs:
            b, i = block[r["key"]]
            rows.append({"arm": arm, "seq_acc": float(r["test"]["seq_acc"]), "block": b, "seed_pos": i})
    return rows


def _parity_arms(ctx: Context, task: str = "C2") -> dict[str, list]:
    make = parity_cfgs if task == "C2" else token_cfgs
    return {"signed": make(ctx, "signed_mamba"), "positive": make(ctx, "mamba")}


#: what evidence would decide the claim when it is inconclusive (report.md shows it)
DECIDED_BY = ('a clear split in both seed blocks (3 and 2 of the 5 seeds): the signed model '
              'solving parity at 2T in at least 80% of a block and the positive one in none '
              'supports it, the positive one in at least 80% refutes it; a split in between '
              '(e.g. signed 2/5) stays inconclusive')


@claim(id="finding.parity_negative_eigenvalues",
       decided_by=DECIDED_BY,
       title="Parity needs negative eigenvalues (1 diagonal layer)",
       source=FINDING("R. Grazzi, J. Siems, A. Zela, J. K. H. Franke, F. Hutter, M. Pontil, "
                      "Unlocking State-Tracking in Linear RNNs Through Negative Eigenvalues",
                      "the parity result for diagonal linear RNNs (a third-party result, not a "
                      "statement of [DEPTH])", arxiv="2411.12537"),
       aliases=("depth.exp.parity",), uses_training=True,
       statement="a 1-layer diagonal SSM with transitions in (−1, 1) solves parity (C2) at twice "
                 "the training length; with transitions in (0, 1) it does not")
def parity(ctx: Context) -> Outcome:
    cfgs = _parity_arms(ctx)
    arms = run_arms(ctx, cfgs)
    ev = seq_acc_at_2T(arms, cfgs)
    verdict, why, stats = parity_decide(ev)
    T = arms["signed"][0]["config"]["train_length"]
    figs = loss_curves_figure(ctx, arms, "depth_exp_parity_loss", f"C2 (parity), 1 layer, T = {T}")
    inspected = inspector_summary(ctx, cfgs["signed"] + cfgs["positive"])
    all_rates = _arm_rates(ev)
    return Outcome(verdict, f"solved at 2T = {2 * T}: signed {rate_text(all_rates['signed'])}, positive "
                            f"{rate_text(all_rates['positive'])} (all seeds, Wilson 95%); "
                            f"{blocks_text(stats)}",
                   evidence={"seq_acc_at_2T": ev, "rates_per_block": stats, "rates_all_seeds": all_rates,
                             "rule": RATE_RULE.describe(), "threshold": PARITY_SUCCESS,
                             "train_length": T},
                   figures=figs,
                   tables={"runs": [{"model": r["config"]["model"], "seed": r["config"]["seed"],
                                     "seed block": e["block"], "seq_acc_2T": r["test"]["seq_acc"],
                                     "max_len_90": r["test"]["max_len_90"],
                                     "final_loss": r["final_loss"], "key": r["key"][:12]}
                                    for r, e in zip([r for rs in arms.values() for r in rs], ev)],
                           "inspector": inspected},
                   notes=f"{why}. Scale: width {arms['signed'][0]['config']['width']}, T = {T}, "
                         f"{arms['signed'][0]['config']['steps']} steps, "
                         f"{counted(PARITY_SEEDS, 'seed')} per model in two seed blocks (3 + 2); "
                         f"success = sequence accuracy ≥ {PARITY_SUCCESS} on held-out words of "
                         f"length 2T. Layer class: one diagonal (restricted: input bias) layer. "
                         f"{inspector_note(inspected)}.")


def _arm_rates(rows: list[dict]) -> dict[str, dict]:
    return {arm: success_rate(r["seq_acc"] >= PARITY_SUCCESS for r in rows if r["arm"] == arm)
            for arm in PARITY_ARMS}


def _parity_block(rows: list[dict]) -> tuple[Verdict, str, dict]:
    """One seed block: the rates of both arms and the rule of the module docstring."""
    rates = _arm_rates(rows)
    s, p = rates["signed"], rates["positive"]
    if RATE_RULE.succeeds(p):
        return Verdict.REFUTED, (f"the positive-eigenvalue model succeeded in {rate_text(p)} "
                                 "of the seeds: negative eigenvalues are not needed"), rates
    if RATE_RULE.succeeds(s) and RATE_RULE.fails(p):
        return Verdict.SUPPORTED, (f"signed succeeded in {rate_text(s)} of the seeds (≥ "
                                   f"{RATE_RULE.required(s['seeds'])} required), positive in none"), rates
    return Verdict.INCONCLUSIVE, (f"signed {rate_text(s)} (needs ≥ {RATE_RULE.required(s['seeds'])}), "
                                  f"positive {rate_text(p)} (needs 0)"), rates


@parity.decision_rule
def parity_decide(rows: list[dict]) -> tuple[Verdict, str, dict]:
    """``rows``: one per run, ``{"arm": "signed" | "positive", "seq_acc": held-out sequence
    accuracy at 2T, "block", "seed_pos"}``. A seed succeeds at ≥ 0.99. Per seed block:
    supported when signed succeeds in ≥ 80% of the block's seeds and positive in none (negative
    eigenvalues are needed); refuted when positive succeeds in ≥ 80% (the task is solved without
    them); else inconclusive. The blocks must agree. Returns ``(verdict, why, rates per block)``;
    ``ValueError`` for a row lacking a field, of another arm, with an accuracy outside [0, 1], or a
    block without both arms."""
    from seqtheory.theory._checks import check_real

    for i, r in enumerate(rows):
        for f in ("arm", "seq_acc", "block", "seed_pos"):
            if f not in r:
                raise ValueError(f"rows[{i}] lacks {f!r}")
        if r["arm"] not in PARITY_ARMS:
            raise ValueError(f"rows[{i}]['arm'] must be one of {PARITY_ARMS}, got {r['arm']!r}")
        check_real(f"rows[{i}]['seq_acc']", r["seq_acc"], 0, 1)
    for b in {r["block"] for r in rows}:
        if {r["arm"] for r in rows if r["block"] == b} != set(PARITY_ARMS):
            raise ValueError(f"seed block {b!r} must hold runs of both arms {PARITY_ARMS}")
    return replicated(_parity_block, rows)


@parity.control
def _parity_control(ctx: Context) -> ControlOutcome:
    """Both arms on a task that needs no negative eigenvalue, ``C2.token`` (the words of parity,
    each position labelled by its own token: no memory). Both arms succeed, so the rule's
    comparison must come out the other way: rejected iff it refutes "negative eigenvalues are
    needed" (a rule that said supported or inconclusive here could not tell the claim apart from
    a task that needs no memory)."""
    cfgs = _parity_arms(ctx, "C2.token")
    ev = seq_acc_at_2T(run_arms(ctx, cfgs), cfgs)
    verdict, why, _ = parity_decide(ev)
    return ControlOutcome(rejected=verdict is Verdict.REFUTED,
                          variant=("both arms on C2.token (label = the current token; needs no "
                                   f"negative eigenvalue), {PARITY_CONTROL_STEPS} steps"),
                          reason=f"{verdict.value}: {why}", evidence={"rows": ev})


@parity.training_plan
def parity_plan(ctx: Context, controls: bool) -> list:
    """The check's runs, and with ``controls`` the control's (:func:`token_cfgs`)."""
    return (parity_cfgs(ctx, "signed_mamba") + parity_cfgs(ctx, "mamba")
            + (token_cfgs(ctx, "signed_mamba") + token_cfgs(ctx, "mamba") if controls else []))

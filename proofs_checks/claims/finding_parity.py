"""[DEPTH] (G. Heo et al., arXiv:2603.05573), experiments, parity (C2): negative eigenvalues are
needed.

Claim ``finding.parity_negative_eigenvalues``: a 1-layer diagonal SSM with transitions in (−1, 1) (``signed_mamba``)
solves parity at twice the training length; with transitions in (0, 1) (``mamba``) it does not.
Experiment: :data:`PARITY_SEEDS` seeds per arm, the shared recipe
(:mod:`seqtheory.proofs_checks.trained_recipe`), held-out words of length 2T. Decision
(:func:`parity_decide`, pure): a seed succeeds at sequence accuracy ≥ :data:`PARITY_SUCCESS`;
supported when signed succeeds in ≥ 80% of seeds and positive in none, refuted when positive
succeeds in ≥ 80%. Control: both arms on ``C2.token`` (label = the current token, no memory), which
the rule must refute.
"""
from __future__ import annotations

from seqtheory.proofs_checks.rates import rate_text, success_rate
from seqtheory.proofs_checks.registry import FINDING, Context, ControlOutcome, Outcome, Verdict, claim
from seqtheory.proofs_checks.trained_recipe import (PAPER_RECIPE, PAPER_T, RATE_RULE, check_protocol,
                                                    paper_width, recipe, seed_configs)
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
                        **recipe(T, steps, **paper_width(ctx)))


def token_cfgs(ctx: Context, model: str) -> list:
    """The parity control's runs: the same words, model and recipe as :func:`parity_cfgs` at the
    quick profile's length, on ``C2.token`` (label = the current token: no memory, so no
    negative eigenvalue is needed), :data:`PARITY_CONTROL_STEPS` steps."""
    return seed_configs(ctx, f"parity-control:{model}", PARITY_SEEDS, task="C2.token", model=model,
                        depth=1, **recipe(8, PARITY_CONTROL_STEPS))


def seq_acc_at_2T(arms: dict[str, list[dict]]) -> dict[str, list[float]]:
    """The evidence of :func:`parity_decide`: held-out sequence accuracy at 2T per seed of each
    arm, after :func:`~seqtheory.proofs_checks.trained_recipe.check_protocol` on every run."""
    for rs in arms.values():
        check_protocol(rs)
    return {arm: [r["test"]["seq_acc"] for r in rs] for arm, rs in arms.items()}


#: what evidence would decide the claim when it is inconclusive (report.md shows it)
DECIDED_BY = ('a clear split over the 5 seeds: the signed model solving parity at 2T in at '
              'least 80% of them and the positive one in none supports it, the positive one in '
              'at least 80% refutes it; a split in between (e.g. signed 3/5) stays inconclusive')


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
    arms = run_arms(ctx, {"signed": parity_cfgs(ctx, "signed_mamba"),
                          "positive": parity_cfgs(ctx, "mamba")})
    ev = seq_acc_at_2T(arms)
    verdict, why, rates = parity_decide(ev)
    T = arms["signed"][0]["config"]["train_length"]
    figs = loss_curves_figure(ctx, arms, "depth_exp_parity_loss", f"C2 (parity), 1 layer, T = {T}")
    inspected = inspector_summary(ctx, parity_cfgs(ctx, "signed_mamba") + parity_cfgs(ctx, "mamba"))
    return Outcome(verdict, f"solved at 2T = {2 * T}: signed {rate_text(rates['signed'])}, positive "
                            f"{rate_text(rates['positive'])} (seeds, Wilson 95%)",
                   evidence={"seq_acc_at_2T": ev, "rates": rates, "rule": RATE_RULE.describe(),
                             "threshold": PARITY_SUCCESS, "train_length": T},
                   figures=figs,
                   tables={"runs": [{"model": r["config"]["model"], "seed": r["config"]["seed"],
                                     "seq_acc_2T": r["test"]["seq_acc"],
                                     "max_len_90": r["test"]["max_len_90"],
                                     "final_loss": r["final_loss"], "key": r["key"][:12]}
                                    for rs in arms.values() for r in rs],
                           "inspector": inspected},
                   notes=f"{why}. Scale: width {arms['signed'][0]['config']['width']}, T = {T}, "
                         f"{arms['signed'][0]['config']['steps']} steps, "
                         f"{counted(PARITY_SEEDS, 'seed')} per model; success = sequence accuracy ≥ "
                         f"{PARITY_SUCCESS} on held-out words of length 2T. {inspector_note(inspected)}.")


@parity.decision_rule
def parity_decide(seq_acc: dict[str, list[float]]) -> tuple[Verdict, str, dict]:
    """``seq_acc = {"signed": [...], "positive": [...]}`` (held-out sequence accuracy at 2T per
    seed). A seed succeeds at ≥ 0.99. Supported: signed succeeds in ≥ 80% of seeds and positive in
    none (negative eigenvalues are needed); refuted: positive succeeds in ≥ 80% of seeds (the task
    is solved without them); else inconclusive."""
    rates = {arm: success_rate(a >= PARITY_SUCCESS for a in v) for arm, v in seq_acc.items()}
    s, p = rates["signed"], rates["positive"]
    if RATE_RULE.succeeds(p):
        return Verdict.REFUTED, (f"the positive-eigenvalue model succeeded in {rate_text(p)} "
                                 "of the seeds: negative eigenvalues are not needed"), rates
    if RATE_RULE.succeeds(s) and RATE_RULE.fails(p):
        return Verdict.SUPPORTED, (f"signed succeeded in {rate_text(s)} of the seeds (≥ "
                                   f"{RATE_RULE.required(s['seeds'])} required), positive in none"), rates
    return Verdict.INCONCLUSIVE, (f"signed {rate_text(s)} (needs ≥ {RATE_RULE.required(s['seeds'])}), "
                                  f"positive {rate_text(p)} (needs 0)"), rates


@parity.control
def _parity_control(ctx: Context) -> ControlOutcome:
    """Both arms on a task that needs no negative eigenvalue, ``C2.token`` (the words of parity,
    each position labelled by its own token: no memory). Both arms succeed, so the rule's
    comparison must come out the other way: rejected iff it refutes "negative eigenvalues are
    needed" (a rule that said supported or inconclusive here could not tell the claim apart from
    a task that needs no memory)."""
    ev = seq_acc_at_2T(run_arms(ctx, {"signed": token_cfgs(ctx, "signed_mamba"),
                                      "positive": token_cfgs(ctx, "mamba")}))
    verdict, why, _ = parity_decide(ev)
    return ControlOutcome(rejected=verdict is Verdict.REFUTED,
                          variant=("both arms on C2.token (label = the current token; needs no "
                                   f"negative eigenvalue), {PARITY_CONTROL_STEPS} steps"),
                          reason=f"{verdict.value}: {why}", evidence=ev)


@parity.training_plan
def parity_plan(ctx: Context, controls: bool) -> list:
    """The check's runs, and with ``controls`` the control's (:func:`token_cfgs`)."""
    return (parity_cfgs(ctx, "signed_mamba") + parity_cfgs(ctx, "mamba")
            + (token_cfgs(ctx, "signed_mamba") + token_cfgs(ctx, "mamba") if controls else []))

"""[DEPTH] (G. Heo et al., arXiv:2603.05573), Table 1 (S3 row): S3, of derived length 2, needs two
layers, measured far beyond the trained length. The constructive counterpart for restricted layers
with a periodic readout is :mod:`.depth_s3`.

Claim ``depth.exp.s3_depth``: one abelian layer fails and two restricted (AUSSM) layers succeed on
the S3 word problem at 8T–16T, where an ordinary readout cannot extrapolate. Experiment: three arms
(:data:`S3_ARMS`) of the shared word-problem cells (:func:`~seqtheory.proofs_checks.trained_recipe.wp_cfgs`,
shared with ``depth.exp.word_problems``). Decision (:func:`s3_decide`, pure): a seed succeeds at
sequence accuracy ≥ 0.9 at 8T; refuted when the abelian layer succeeds in any seed or one AUSSM
layer in ≥ 80%; supported when two layers succeed in ≥ 80% and neither one-layer arm in any.
Control: the two-layer arm trained on shuffled labels, which the rule must not support.
"""
from __future__ import annotations

from seqtheory.proofs_checks.rates import rate_text, success_rate
from seqtheory.proofs_checks.registry import DEPTH, Context, ControlOutcome, Outcome, Verdict, claim
from seqtheory.proofs_checks.trained_recipe import (RATE_RULE, S3_FACTORS, SUCCESS, acc_at,
                                                    check_protocol, s3_scale, wp_cfgs)
from seqtheory.proofs_checks.training_figures import loss_curves_figure
from seqtheory.proofs_checks.training_runs import run_arms
from seqtheory.theory._messages import counted

from ..run_inspection import inspector_note, inspector_summary

#: (arm, model, depth): ``abelian`` = one purely abelian layer (commuting diagonal transitions, no
#: input bias, state-only readout); ``aussm`` = restricted complex-diagonal layers (with bias)
S3_ARMS = (("abelian L=1", "abelian", 1), ("aussm L=1", "aussm", 1), ("aussm L=2", "aussm", 2))


def s3_cfgs(ctx: Context, model: str, depth: int, shuffle: bool = False) -> list:
    """The seeds of the S3 cell of ``model`` at ``depth`` (the profile's :func:`s3_scale`)."""
    return wp_cfgs(ctx, "S3", model, depth, *s3_scale(ctx), shuffle=shuffle)


def s3_evidence(runs: dict[str, list[dict]]) -> dict[str, dict[str, list[float]]]:
    """``{arm: {"1T"|"2T"|"8T"|"16T": [accuracy per seed]}}`` after checking every run's protocol."""
    for rs in runs.values():
        check_protocol(rs, max(S3_FACTORS))
    T = next(iter(runs.values()))[0]["config"]["train_length"]
    return {arm: {f"{f}T": [acc_at(r, f * T) for r in rs] for f in (1, 2) + S3_FACTORS}
            for arm, rs in runs.items()}


#: what evidence would decide the claim when it is inconclusive (report.md shows it)
DECIDED_BY = ('one-layer models that solve S3 at 8T refute it (the abelian layer in any seed, '
              'one AUSSM layer in at least 80%); two AUSSM layers solving it at 8T in at least '
              '80% of seeds, with neither one-layer arm in any, support it; two-layer models '
              'that fail to train cannot refute')


@claim(id="depth.exp.s3_depth", title="S3 needs two layers far beyond the trained length",
       decided_by=DECIDED_BY,
       source=DEPTH("Table 1 (S3 row)"), uses_training=True,
       statement="on S3 (derived length 2) one abelian layer fails and two (restricted, AUSSM) "
                 "layers succeed, measured at 8T–16T where a readout cannot extrapolate")
def s3_depth(ctx: Context) -> Outcome:
    runs = run_arms(ctx, {arm: s3_cfgs(ctx, m, L) for arm, m, L in S3_ARMS})
    ev = s3_evidence(runs)
    verdict, why, rates = s3_decide(ev)
    T = runs["aussm L=2"][0]["config"]["train_length"]
    figs = loss_curves_figure(ctx, runs, "depth_exp_s3_loss", f"S3 word problem, T = {T}")
    rows = [{"arm": arm, "seed": r["config"]["seed"],
             **{k: v[i] for k, v in ev[arm].items()}, "max_len_90": r["test"]["max_len_90"],
             "final_loss": r["final_loss"]} for arm, rs in runs.items() for i, r in enumerate(rs)]
    inspected = inspector_summary(ctx, [c for _, m, L in S3_ARMS for c in s3_cfgs(ctx, m, L)])
    return Outcome(verdict, "solved at 8T: " + "; ".join(f"{a}: {rate_text(r)}" for a, r in rates.items()),
                   evidence={"seq_acc": ev, "rates_at_8T": rates, "rule": RATE_RULE.describe(),
                             "train_length": T},
                   tables={"runs": rows, "inspector": inspected}, figures=figs,
                   notes=f"{why}. Model classes: 'abelian' = one layer of commuting diagonal "
                         "transitions without input bias and a state-only readout (its output depends "
                         "only on the multiset of letters); AUSSM = restricted (complex diagonal linear "
                         "part plus an input bias, affine). One restricted layer with a periodic readout "
                         "tracks S3 exactly (a separate constructive claim); an ordinary readout cannot "
                         f"extrapolate, hence the test at 8T and 16T. Scale: T = {T}, width "
                         f"{runs['aussm L=2'][0]['config']['width']}, "
                         f"{runs['aussm L=2'][0]['config']['steps']} steps, {counted(len(runs['aussm L=2']), 'seed')}. "
                         f"{inspector_note(inspected)}.")


@s3_depth.decision_rule
def s3_decide(seq_acc: dict[str, dict[str, list[float]]]) -> tuple[Verdict, str, dict]:
    """``seq_acc[arm]["8T"]``: held-out sequence accuracy at 8T per seed, arms ``abelian L=1``,
    ``aussm L=1``, ``aussm L=2``. A seed succeeds at ≥ 0.9. Refuted: the abelian layer succeeds in
    any seed, or one restricted layer succeeds in ≥ 80% of seeds (one layer is then enough);
    supported: two layers succeed in ≥ 80% of seeds and neither one-layer arm in any; else
    inconclusive."""
    rates = {arm: success_rate(a >= SUCCESS for a in v["8T"]) for arm, v in seq_acc.items()}
    ab, one, two = rates["abelian L=1"], rates.get("aussm L=1"), rates["aussm L=2"]
    if ab["successes"]:
        return Verdict.REFUTED, f"one abelian layer solved S3 at 8T in {rate_text(ab)} of the seeds", rates
    if one is not None and RATE_RULE.succeeds(one):
        return Verdict.REFUTED, f"one restricted (AUSSM) layer solved S3 at 8T in {rate_text(one)} of the seeds", rates
    one_fails = one is None or RATE_RULE.fails(one)
    if RATE_RULE.succeeds(two) and one_fails:
        return Verdict.SUPPORTED, (f"two layers solved S3 at 8T in {rate_text(two)} of the seeds, one layer "
                                   "(abelian or restricted) in none"), rates
    if not RATE_RULE.succeeds(two):
        return Verdict.INCONCLUSIVE, (f"two layers solved S3 at 8T in only {rate_text(two)} of the seeds "
                                      f"(needs ≥ {RATE_RULE.required(two['seeds'])}): training / "
                                      "extrapolation budget"), rates
    return Verdict.INCONCLUSIVE, f"one restricted layer solved S3 at 8T in {rate_text(one)} of the seeds", rates


@s3_depth.control
def _s3_control(ctx: Context) -> ControlOutcome:
    # the two-layer arm trained on shuffled labels: the claim fails if two layers do not learn S3
    runs = run_arms(ctx, {arm: s3_cfgs(ctx, m, L, shuffle=(arm == "aussm L=2"))
                          for arm, m, L in S3_ARMS if arm != "aussm L=1"})
    ev = s3_evidence(runs)
    v, why, _ = s3_decide(ev)
    return ControlOutcome(rejected=v != Verdict.SUPPORTED,
                          variant="two-layer AUSSM trained on labels shuffled across each batch",
                          reason=f"{v.value}: {why}", evidence=ev)


@s3_depth.training_plan
def s3_plan(ctx: Context, controls: bool) -> list:
    """The three arms' runs, and with ``controls`` the shuffled-label two-layer runs."""
    return [c for arm, m, L in S3_ARMS for c in s3_cfgs(ctx, m, L)] + \
        (s3_cfgs(ctx, "aussm", 2, shuffle=True) if controls else [])

"""[DEPTH] (G. Heo et al., arXiv:2603.05573), Table 1 (S3 row): S3, of derived length 2, needs two
layers; one fails. The constructive counterpart for restricted layers with a periodic readout is
``finding.s3_one_restricted_layer``.

Claim ``depth.exp.s3_depth``, decided under the paper's protocol (trained on T, tested at 2T) and
per model class: the class decided is the **restricted** one of the paper's experiments (AUSSM:
complex diagonal linear part plus an input bias, affine; Mamba is of this class too), one layer
against two. Beside it, not in the verdict: one **purely abelian** layer (commuting diagonal
transitions, no input bias, state-only readout; :mod:`seqtheory.models.abelian`), a reading of
"abelian" taken literally, and the same arms at 8T (beyond the protocol, where an ordinary readout
cannot extrapolate), each reported as a :class:`~seqtheory.proofs_checks.registry.Reading`.

Experiment: the arms :data:`S3_ARMS` of the shared word-problem cells
(:func:`~seqtheory.proofs_checks.trained_recipe.wp_cfgs`, shared with ``depth.exp.word_problems``),
two replication blocks of seeds (:mod:`seqtheory.proofs_checks.seed_blocks`). Decision
(:func:`s3_decide`, pure, per block, replicated): a seed solves S3 at sequence accuracy ≥ 0.9 at the
test length; refuted when one layer of the class solves it in ≥ 80% of a block's seeds (a positive
result against "one fails"); supported when two layers do and one layer in none; a two-layer model
that does not train is ``inconclusive``, never evidence against "two suffice". Control: the
two-layer arm trained on shuffled labels, which the rule must not support.
"""
from __future__ import annotations

from seqtheory.proofs_checks.evidence_checks import per_seed
from seqtheory.proofs_checks.rates import rate_text, success_rate
from seqtheory.proofs_checks.registry import DEPTH, Context, ControlOutcome, Outcome, Reading, Verdict, claim
from seqtheory.proofs_checks.seed_blocks import block_size, decide_blocks, split_arms, split_blocks
from seqtheory.proofs_checks.trained_recipe import (RATE_RULE, S3_FACTORS, SUCCESS, acc_at,
                                                    check_protocol, s3_scale, wp_cfgs)
from seqtheory.proofs_checks.training_figures import loss_curves_figure
from seqtheory.proofs_checks.training_runs import run_arms
from seqtheory.theory._messages import counted

from ..run_inspection import inspector_note, inspector_summary

#: (arm, model, depth): ``abelian`` = one purely abelian layer (commuting diagonal transitions, no
#: input bias, state-only readout); ``aussm`` = restricted complex-diagonal layers (with bias)
S3_ARMS = (("abelian L=1", "abelian", 1), ("aussm L=1", "aussm", 1), ("aussm L=2", "aussm", 2))
#: the paper's protocol: trained on T, decided at 2T
PROTOCOL = "2T"
#: the class the verdict decides: (class, one-layer arm, two-layer arm)
DECIDED = ("restricted (AUSSM)", "aussm L=1", "aussm L=2")
#: the purely abelian arm, reported beside the verdict
ABELIAN = ("purely abelian (no bias)", "abelian L=1", None)


def s3_cfgs(ctx: Context, model: str, depth: int, shuffle: bool = False) -> list:
    """The seeds of the S3 cell of ``model`` at ``depth`` (the profile's :func:`s3_scale`), both
    replication blocks in seed order."""
    return wp_cfgs(ctx, "S3", model, depth, *s3_scale(ctx), shuffle=shuffle)


def s3_evidence(runs: dict[str, list[dict]]) -> dict[str, dict[str, list[float]]]:
    """``{arm: {"1T"|"2T"|"8T"|"16T": [accuracy per seed]}}`` after checking every run's protocol."""
    for rs in runs.values():
        check_protocol(rs, max(S3_FACTORS))
    T = next(iter(runs.values()))[0]["config"]["train_length"]
    return {arm: {f"{f}T": [acc_at(r, f * T) for r in rs] for f in (1, 2) + S3_FACTORS}
            for arm, rs in runs.items()}


#: what evidence would decide the claim when it is inconclusive (report.md shows it)
DECIDED_BY = ('restricted (AUSSM) models at the paper\'s 2T in both seed blocks: a one-layer '
              'model that solves S3 at 2T refutes it; two layers solving it in at least 80% of '
              'the seeds while one layer does not support it; two-layer models that fail to '
              'train cannot refute (absence is not evidence)')


def s3_blocks(runs: dict[str, list[dict]]) -> dict[str, tuple[list[int], dict]]:
    """The evidence of each replication block: ``{block: (seed indices, s3_evidence of its runs)}``."""
    labels, per = split_arms(runs)
    return {b: (labels[b], s3_evidence(per[b])) for b in labels}


@claim(id="depth.exp.s3_depth", claim_version=2,
       decided_by=DECIDED_BY,
       title="S3 needs two layers: one restricted layer fails, two succeed at 2T",
       source=DEPTH("Table 1 (S3 row)"), uses_training=True,
       statement="on S3 (derived length 2), trained on T and tested at 2T (the paper's protocol), "
                 "one restricted (AUSSM) layer fails and two succeed")
def s3_depth(ctx: Context) -> Outcome:
    runs = run_arms(ctx, {arm: s3_cfgs(ctx, m, L) for arm, m, L in S3_ARMS})
    blocks = s3_blocks(runs)
    verdict, why, per = s3_decide(blocks)
    T = runs["aussm L=2"][0]["config"]["train_length"]
    figs = loss_curves_figure(ctx, runs, "depth_exp_s3_loss", f"S3 word problem, T = {T}")
    ev = s3_evidence(runs)
    rows = [{"arm": arm, "seed": r["config"]["seed"], "block": b,
             **{k: v[i] for k, v in ev[arm].items()}, "max_len_90": r["test"]["max_len_90"],
             "final_loss": r["final_loss"]} for arm, rs in runs.items()
            for i, (r, b) in enumerate(zip(rs, _block_names(len(rs))))]
    inspected = inspector_summary(ctx, [c for _, m, L in S3_ARMS for c in s3_cfgs(ctx, m, L)])
    readings = s3_readings(blocks)
    key = "; ".join(f"block {b}: " + ", ".join(f"{a} {rate_text(r)}" for a, r in res[2].items())
                    for b, res in per.items())
    return Outcome(verdict, f"solved at {PROTOCOL} ({DECIDED[0]}): {key}",
                   evidence={"seq_acc": {b: ev_ for b, (_, ev_) in blocks.items()},
                             "blocks": {b: {"verdict": r[0].value, "why": r[1], "rates": r[2]}
                                        for b, r in per.items()},
                             "rule": RATE_RULE.describe(), "train_length": T, "decided_at": PROTOCOL,
                             "class_decided": DECIDED[0]},
                   tables={"runs": rows, "inspector": inspected}, figures=figs, readings=readings,
                   notes=f"{why}. Decided under the paper's protocol (trained on T = {T}, tested at "
                         f"2T = {2 * T}) on the restricted class (AUSSM: a complex diagonal linear part "
                         "plus an input bias, affine, like Mamba), one layer against two, in two "
                         "disjoint seed blocks. A two-layer model that does not train is absence of "
                         "evidence (inconclusive), never a point against 'two layers suffice'; one "
                         "layer solving S3 in most seeds would refute 'one fails'. Beside the verdict "
                         "(readings, not in it): one purely abelian layer (no input bias, state-only "
                         "readout: its output depends only on the multiset of letters), and the same "
                         "arms at 8T, beyond the protocol. One restricted layer with a periodic "
                         "readout tracks S3 exactly (finding.s3_one_restricted_layer). Scale: width "
                         f"{runs['aussm L=2'][0]['config']['width']}, "
                         f"{runs['aussm L=2'][0]['config']['steps']} steps, "
                         f"{counted(block_size(ctx), 'seed')} per block. {inspector_note(inspected)}.")


def _block_names(n: int) -> list[str]:
    return [b for b, ix in split_blocks(range(n)).items() for _ in ix]


def s3_readings(blocks: dict) -> list[Reading]:
    """The readings beside the verdict: one purely abelian layer at 2T, and the decided class
    at 8T (beyond the protocol), each decided by :func:`s3_decide` on both blocks."""
    v_ab, why_ab, _ = s3_decide(blocks, arms=ABELIAN)
    v_8, why_8, _ = s3_decide(blocks, at="8T")
    return [Reading("'abelian' read literally: one purely abelian (no-bias) layer, at 2T", v_ab, why_ab),
            Reading("beyond the protocol: the same restricted arms at 8T (trained on T)", v_8, why_8)]


def decide_block(seq_acc: dict[str, dict[str, list[float]]], at: str = PROTOCOL,
                 arms: tuple = DECIDED) -> tuple[Verdict, str, dict]:
    """One block's verdict (see :func:`s3_decide`)."""
    name, one_arm, two_arm = arms
    absent = [f"no runs of {a} at {at}" for a in (one_arm, two_arm)
              if a and not (seq_acc.get(a) or {}).get(at)]
    if absent:
        return Verdict.INCONCLUSIVE, "; ".join(absent), {}
    rates = {a: success_rate(x >= SUCCESS for x in seq_acc[a][at]) for a in (one_arm, two_arm) if a}
    one, two = rates[one_arm], rates.get(two_arm)
    if RATE_RULE.succeeds(one):
        return Verdict.REFUTED, f"one {name} layer solved S3 at {at} in {rate_text(one)} of the seeds", rates
    if two is None:
        if RATE_RULE.fails(one):
            return Verdict.SUPPORTED, f"one {name} layer solved S3 at {at} in no seed ({rate_text(one)})", rates
        return Verdict.INCONCLUSIVE, f"one {name} layer solved S3 at {at} in {rate_text(one)} of the seeds", rates
    if not RATE_RULE.succeeds(two):
        return Verdict.INCONCLUSIVE, (f"two {name} layers solved S3 at {at} in only {rate_text(two)} of "
                                      f"the seeds (needs ≥ {RATE_RULE.required(two['seeds'])}): they did "
                                      "not train at this scale, which is no evidence against 'two "
                                      "suffice'"), rates
    if RATE_RULE.fails(one):
        return Verdict.SUPPORTED, (f"two {name} layers solved S3 at {at} in {rate_text(two)} of the "
                                   f"seeds, one layer in none"), rates
    return Verdict.INCONCLUSIVE, f"one {name} layer solved S3 at {at} in {rate_text(one)} of the seeds", rates


@s3_depth.decision_rule
def s3_decide(blocks: dict[str, tuple[list, dict]], at: str = PROTOCOL,
              arms: tuple = DECIDED) -> tuple[Verdict, str, dict]:
    """``blocks[name] = (seed indices, seq_acc)``, ``seq_acc[arm][at]``: held-out sequence
    accuracy per seed at ``at`` (``"2T"``, the paper's protocol; ``"8T"`` for the reading beyond
    it); ``arms = (class name, one-layer arm, two-layer arm or None)``. Per block, a seed succeeds
    at ≥ 0.9: refuted when the one-layer arm succeeds in ≥ 80% of the seeds (a positive result
    against "one fails"); with a two-layer arm, supported when it succeeds in ≥ 80% and the
    one-layer arm in none, inconclusive when it does not (a model that did not train), else
    inconclusive; without one, supported when the one-layer arm succeeds in no seed. The blocks
    are replicated (disagreement: inconclusive). Absent evidence (a block without seeds, an arm
    missing or without values at ``at``) is inconclusive; invalid evidence (an accuracy NaN or
    outside [0, 1], a number of values other than the block's seeds) is a ``ValueError`` naming
    the block, arm and seed. Returns ``(verdict, why, per_block)``."""
    if isinstance(blocks, dict):
        for b, (seeds, ev) in blocks.items():
            _check_block(b, seeds, ev, at, arms)
    return decide_blocks(blocks, lambda ev: decide_block(ev, at, arms))


def _check_block(name: str, seeds: list, seq_acc: dict, at: str, arms: tuple) -> None:
    """``ValueError`` unless each present arm of ``arms`` holds at ``at`` one accuracy in
    [0, 1] per seed of the block."""
    for a in arms[1:]:
        acc = (seq_acc.get(a) or {}).get(at) if a else None
        if acc:
            per_seed(f"block {name}: {a}", at, acc, seeds, 0, 1)


@s3_depth.control
def _s3_control(ctx: Context) -> ControlOutcome:
    # the two-layer arm trained on shuffled labels: the claim fails if two layers do not learn S3
    runs = run_arms(ctx, {arm: s3_cfgs(ctx, m, L, shuffle=(arm == "aussm L=2"))
                          for arm, m, L in S3_ARMS})
    v, why, _ = s3_decide(s3_blocks(runs))
    return ControlOutcome(rejected=v != Verdict.SUPPORTED,
                          variant="two-layer AUSSM trained on labels shuffled across each batch",
                          reason=f"{v.value}: {why}")


@s3_depth.training_plan
def s3_plan(ctx: Context, controls: bool) -> list:
    """The three arms' runs, and with ``controls`` the shuffled-label two-layer runs."""
    return [c for arm, m, L in S3_ARMS for c in s3_cfgs(ctx, m, L)] + \
        (s3_cfgs(ctx, "aussm", 2, shuffle=True) if controls else [])

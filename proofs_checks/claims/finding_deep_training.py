"""Deep (8-layer) models are hard to train: a remark made about [DEPTH]'s depth-8 runs (G. Heo et
al., arXiv:2603.05573, Table 1 / Figure 2 experiments), not a theorem of the paper; the package
does not hold the paper's wording, so the statement tested is the package's.

Claim ``finding.deep_models_hard_to_train`` (the package's hypothesis about training): with the
recipe shared by the trained claims (:mod:`seqtheory.proofs_checks.trained_recipe`) and at the
profile's scale, an 8-layer diagonal model fails to fit a task that a 1-layer model of the same
family fits. The cell: parity (C2) with ``signed_mamba`` (transitions in (−1, 1); restricted
layers), where one layer suffices (``finding.parity_negative_eigenvalues``): the reference runs
are that claim's signed runs (already trained by the profile), the deep runs the same recipe at
depth :data:`DEEP_DEPTH` with their own seeds. A seed *fits* when its held-out sequence accuracy
on the first T positions (the training length) is ≥ :data:`FIT`.

Rule (:func:`deep_decide`, pure), per cell and per seed block
(:mod:`seqtheory.proofs_checks.seed_blocks`: seeds 1–3 of each arm are block A, 4–5 block B), with
the counts of :data:`~seqtheory.proofs_checks.trained_recipe.RATE_RULE`: supported when the
reference fits in ≥ 80% of the seeds and the deep model in none (depth alone stops training);
refuted when the deep model fits in ≥ 80% of the seeds (8 layers train at this scale: positive
evidence); else inconclusive (e.g. the reference does not fit either: the task, not the depth, is
hard). Cells are parts (weakest part decides); the two blocks must agree, else inconclusive with
both shown. Control: (a) the deep arm replaced by 1-layer runs with other seeds (labelled as
deep), which the rule must not support; (b) the deep arm untrained (stopped after one step), which
the rule must not refute.
"""
from __future__ import annotations

import dataclasses
from typing import Any

from seqtheory.proofs_checks.rates import rate_text, success_rate
from seqtheory.proofs_checks.registry import FINDING, Context, ControlOutcome, Outcome, Verdict, claim
from seqtheory.proofs_checks.seed_blocks import arm_blocks, blocks_text, by_parts, replicated
from seqtheory.proofs_checks.trained_recipe import RATE_RULE, acc_at, seed_configs
from seqtheory.proofs_checks.training_runs import run_arms
from seqtheory.theory._messages import counted

from .finding_parity import PARITY_SEEDS, parity_cfgs

DEEP_DEPTH = 8          # the depth the remark is about
FIT = 0.9               # held-out sequence accuracy at T that counts as fitting the training length
ROLES = ("reference", "deep")


def deep_arms(ctx: Context, control: bool = False) -> dict[str, list]:
    """``{"reference": 1-layer signed Mamba parity runs (those of finding.parity_negative_eigenvalues),
    "deep": the same recipe at depth 8}``; with ``control`` the deep arm is 1-layer runs with
    other seeds."""
    ref = parity_cfgs(ctx, "signed_mamba")
    depth = 1 if control else DEEP_DEPTH
    salt = f"deep{'-control' if control else ''}:C2:signed_mamba:{depth}"
    base = {f.name: getattr(ref[0], f.name) for f in dataclasses.fields(ref[0])
            if f.name not in ("seed", "depth", "data_seed")}
    return {"reference": ref, "deep": seed_configs(ctx, salt, PARITY_SEEDS, **{**base, "depth": depth})}


def deep_rows(arms: dict[str, list[dict]], cfgs: dict[str, list]) -> list[dict]:
    """The evidence of :func:`deep_decide`: per run the cell, role, depth, accuracy at T (held out),
    seed block and seed index."""
    block = arm_blocks(cfgs)
    rows = []
    for role, rs in arms.items():
        for r in rs:
            c = r["config"]
            b, i = block[r["key"]]
            rows.append({"cell": f"{c['task']}, {c['model']}, T = {c['train_length']}", "role": role,
                         "depth": c["depth"], "acc_at_T": acc_at(r, c["train_length"]),
                         "block": b, "seed_pos": i, "key": r["key"][:12]})
    return rows


def _deep_cell(rows: list[dict]) -> tuple[Verdict, str, dict]:
    rates = {role: success_rate(r["acc_at_T"] >= FIT for r in rows if r["role"] == role)
             for role in ROLES}
    ref, deep = rates["reference"], rates["deep"]
    depths = {role: sorted({r["depth"] for r in rows if r["role"] == role}) for role in ROLES}
    desc = (f"fit at T: depth {'/'.join(map(str, depths['deep']))} {rate_text(deep)}, depth "
            f"{'/'.join(map(str, depths['reference']))} {rate_text(ref)}")
    if RATE_RULE.succeeds(deep):
        return Verdict.REFUTED, desc + ": the deep model trains at this scale", rates
    if RATE_RULE.succeeds(ref) and RATE_RULE.fails(deep):
        return Verdict.SUPPORTED, desc + ": only the deep model fails to fit", rates
    return Verdict.INCONCLUSIVE, desc + (f" (supported needs the reference ≥ "
                                         f"{RATE_RULE.required(ref['seeds'])} and the deep model 0; "
                                         f"refuted the deep model ≥ {RATE_RULE.required(deep['seeds'])})"), rates


def _check_rows(rows: list[dict]) -> None:
    from seqtheory.theory._checks import check_real

    for i, r in enumerate(rows):
        for f in ("cell", "role", "depth", "acc_at_T", "block", "seed_pos"):
            if f not in r:
                raise ValueError(f"rows[{i}] lacks {f!r}")
        if r["role"] not in ROLES:
            raise ValueError(f"rows[{i}]['role'] must be one of {ROLES}, got {r['role']!r}")
        check_real(f"rows[{i}]['acc_at_T']", r["acc_at_T"], 0, 1)
    for key in {(r["cell"], r["block"]) for r in rows}:
        if {r["role"] for r in rows if (r["cell"], r["block"]) == key} != set(ROLES):
            raise ValueError(f"cell {key[0]!r} in seed block {key[1]!r} must hold both roles {ROLES}")


#: what evidence would decide the finding when it is inconclusive (report.md shows it)
DECIDED_BY = ('in both seed blocks, a clear split of the parity cell: one layer fitting in at least '
              '80% of the seeds and eight layers in none supports it, eight layers fitting in at '
              'least 80% refutes it')


@claim(id="finding.deep_models_hard_to_train", title="Deep (8-layer) models are hard to train",
       decided_by=DECIDED_BY,
       source=FINDING("seqtheory (this package): a hypothesis about training at depth",
                      "prompted by remarks about [DEPTH]'s depth-8 runs (Table 1, Figure 2); "
                      "neither paper states it, and its verdict says nothing about [DEPTH]"),
       uses_training=True,
       statement=("with the recipe of the trained claims, at the profile's scale, an 8-layer "
                  "diagonal model (signed Mamba) fails to fit, at the training length, a task that "
                  "one layer of the same family fits (parity, C2), replicated on two disjoint seed "
                  "blocks"))
def deep_models_hard_to_train(ctx: Context) -> Outcome:
    cfgs = deep_arms(ctx)
    arms = run_arms(ctx, cfgs)
    rows = deep_rows(arms, cfgs)
    verdict, why, stats = deep_decide(rows)
    c = cfgs["deep"][0]
    scale = (f"signed Mamba (restricted diagonal layers), width {c.width}, training length "
             f"{c.train_length}, {c.steps} steps, batch {c.batch_size}, lr {c.lr:g}, "
             f"{counted(PARITY_SEEDS, 'seed')} per depth (blocks of 3 + 2), depths 1 and {DEEP_DEPTH}")
    all_rates = {role: success_rate(r["acc_at_T"] >= FIT for r in rows if r["role"] == role)
                 for role in ROLES}
    return Outcome(verdict, (f"fit at T: depth {DEEP_DEPTH} {rate_text(all_rates['deep'])}, depth 1 "
                             f"{rate_text(all_rates['reference'])} (all seeds); {blocks_text(stats)}"),
                   evidence={"rows": rows, "per_block": stats, "rule": _deep_rule_text(), "scale": scale},
                   tables={"runs": [{**{k: v for k, v in r.items() if k != "key"},
                                     "final_loss": res["final_loss"],
                                     "acc at 2T": res["test"]["seq_acc"], "key": r["key"]}
                                    for r, res in zip(rows, [x for rs in arms.values() for x in rs])]},
                   notes=(f"{why}. Scale: {scale}. A seed fits when its held-out sequence accuracy on "
                          f"the first T positions is ≥ {FIT}. The verdict is about this recipe and "
                          "scale only: deeper models might need another learning rate, more steps "
                          "or another initialisation."))


def _deep_rule_text() -> str:
    return (f"per cell and seed block: supported when the 1-layer reference fits in ≥ "
            f"{RATE_RULE.min_rate:.0%} of the seeds and the {DEEP_DEPTH}-layer model in none; "
            f"refuted when the {DEEP_DEPTH}-layer model fits in ≥ {RATE_RULE.min_rate:.0%}; cells "
            "combined by the weakest part; the two seed blocks must agree")


@deep_models_hard_to_train.decision_rule
def deep_decide(rows: list[dict]) -> tuple[Verdict, str, dict[str, Any]]:
    """Decision rule of ``finding.deep_models_hard_to_train`` (pure; module docstring). ``rows``:
    one per run, ``{"cell", "role": "reference" | "deep", "depth", "acc_at_T" (held-out sequence
    accuracy at the training length), "block", "seed_pos"}``. Returns ``(verdict, why, per
    block)``; ``ValueError`` for a row lacking a field, of another role, with an accuracy outside
    [0, 1] (``TypeError`` for a non-number), or a cell and block without both roles."""
    _check_rows(rows)
    return replicated(lambda rs: by_parts(rs, "cell", _deep_cell), rows)


@deep_models_hard_to_train.control
def _deep_control(ctx: Context) -> ControlOutcome:
    """Two wrong variants through :func:`deep_decide`: (a) the deep arm replaced by 1-layer runs
    with other seeds: depth cannot be what stops them, so the rule must not call the deep arm
    hard to train (not supported); (b) the deep arm untrained (its runs stopped after one step):
    a deep model that did not train, so the rule must not say that 8 layers train (not
    refuted). (b) is the variant that tests the power of the claim's own verdict (refuted)."""
    out = {}
    for name, cfgs in (("(a) deep arm = 1-layer runs", deep_arms(ctx, control=True)),
                       ("(b) deep arm untrained", untrained_deep_arms(ctx))):
        out[name] = deep_decide(deep_rows(run_arms(ctx, cfgs), cfgs))[:2]
    (va, _), (vb, _) = out.values()
    return ControlOutcome(rejected=va is not Verdict.SUPPORTED and vb is not Verdict.REFUTED,
                          variant="; ".join(out),
                          reason=" | ".join(f"{n}: {v.value} ({w})" for n, (v, w) in out.items()),
                          evidence={"verdicts": {n: v.value for n, (v, _) in out.items()}})


def untrained_deep_arms(ctx: Context) -> dict[str, list]:
    """:func:`deep_arms` with the deep arm's runs stopped after one optimizer step (no warm-up,
    no curriculum): a deep model that has not trained (a wrong variant for the control)."""
    arms = deep_arms(ctx)
    stop = dict(steps=1, warmup=0, curriculum_steps=0, log_every=1, checkpoint_every=1)
    return {"reference": arms["reference"], "deep": [dataclasses.replace(c, **stop)
                                                    for c in arms["deep"]]}


@deep_models_hard_to_train.training_plan
def _deep_plan(ctx: Context, controls: bool) -> list:
    arms = deep_arms(ctx)
    return arms["reference"] + arms["deep"] + (deep_arms(ctx, control=True)["deep"]
                                               + untrained_deep_arms(ctx)["deep"] if controls else [])

"""Trained-model check of [HEAD] (A. Somasundaram et al., arXiv:2608.22253): RowNorm head vs AdamW
head with a Muon backbone (``head.exp.rownorm_vs_adamw``, SPEC §3.2).

The experiment (:func:`seqtheory.models.lm_experiment.head_comparison`: paired seeds with the same init,
batches and backbone) is one results-store record per seed block, keyed by its configuration
(:class:`HeadExperiment`): a finished record is read, never retrained. Recipes are the released
ones (:class:`~seqtheory.models.lm.LMConfig` defaults), and so are the peak head learning rates:
[HEAD]'s published AdamW / RowNorm values have the ratio 1.25 and scale as 1/d (η_AdamW·d =
2.048, SPEC §3.2), applied at this model's head width
(:func:`~seqtheory.proofs_checks.head_width_sweep.head_lrs`); nothing is tuned. The recorded head
steps exclude weight decay, as the paper's diagnostics do. The statistics are the paper's: ratios
of the mean final-step row diameter ``D(S_T)`` and of the mean final-step Hilbert RMS across seeds
(AdamW / RowNorm), with the per-seed ratios and the fraction of recorded steps at which RowNorm is
smaller on both. The verdict is decided on two disjoint seed blocks and stands only when both
give it (SPEC §3, "trained verdicts replicate"). The same statistics across head widths up to the
paper's (a shallow backbone, the head scaled) are ``head.exp.rownorm_vs_adamw.width``
(:mod:`seqtheory.proofs_checks.claims.head_width`).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from seqtheory.models.store import keyed_config
from seqtheory.proofs_checks.figures import new_figure, save_figure
from seqtheory.proofs_checks.head_evidence import adamw_in_both_arms, stored_result
from seqtheory.proofs_checks.head_width_sweep import BLOCKS, head_lrs
from seqtheory.proofs_checks.rates import SeedRule, success_rate
from seqtheory.proofs_checks.registry import (HEAD, Context, ControlOutcome, Outcome, Verdict, claim,
                                              replicate)
from seqtheory.proofs_checks.training_runs import n_seeds, seeds
from seqtheory.theory._messages import counted

PAPER = {"ratio_diameter": (45.0, 60.0), "ratio_hilbert_rms": (12.0, 15.0),
         "val_loss_diff": (0.006, 0.015), "scale": "190M–640M parameters"}
PAPER_MIN_PARAMS = 190_000_000
LOSS_TOL = 0.1              # RowNorm's validation-loss cost tolerated below the paper's scale (nats)
#: direction: RowNorm's final-step D and Hilbert RMS smaller in ≥ 80% of the seeds
DIRECTION_RULE = SeedRule(min_rate=0.8, max_rate=0.0)
#: revision of the experiment code (part of the store key): bump when lm.py changes what it trains
#: (2: released recipes, final-step statistics; 3: RowNorm row norms on max-scaled rows; 4: the
#: published learning rates instead of tuned ones, the AdamW step without weight decay, seed blocks)
HEAD_CODE_REVISION = 4


@keyed_config
@dataclass(frozen=True)
class HeadExperiment:
    """The configuration of one seed block's stored head experiment (hashed by the results
    store): the model, the block's seeds and the two heads' peak lrs."""

    lm: Any                 # seqtheory.models.lm.LMConfig
    seeds: tuple[int, ...]
    lr_adamw: float
    lr_rownorm: float
    block: str = "A"
    code_revision: int = HEAD_CODE_REVISION

    def n_models(self) -> int:
        """Models the experiment trains: one per head (AdamW, RowNorm) and seed."""
        return 2 * len(self.seeds)


def _experiment_config(ctx: Context, block: str = "A") -> HeadExperiment:
    from seqtheory.models.lm import gpu_config, quick_config

    if ctx.quick:
        lm = quick_config(device=ctx.device)
    elif ctx.device == "cuda":
        lm = gpu_config(device="cuda")
    else:
        lm = quick_config(steps=400, tune_steps=200, d_model=48, n_heads=4, seq_len=48, batch_size=16)
    if block not in BLOCKS:
        raise ValueError(f"block must be one of {', '.join(BLOCKS)}, got {block!r}")
    n, i = n_seeds(ctx), BLOCKS.index(block)
    sd = tuple(seeds(ctx, "head.exp", n * len(BLOCKS))[i * n:(i + 1) * n])
    return HeadExperiment(lm, sd, *head_lrs(lm.width), block=block)


def stored_experiment(ctx: Context, block: str = "A") -> dict:
    """Seed block ``block``'s experiment from the store of ``ctx``, run and stored when absent."""
    from seqtheory.models.lm_experiment import head_comparison

    cfg = _experiment_config(ctx, block)
    return stored_result(ctx, cfg, lambda: head_comparison(cfg.lm, seeds=cfg.seeds,
                                                          lr_adamw=cfg.lr_adamw,
                                                          lr_rownorm=cfg.lr_rownorm))


def stored_block_a(ctx: Context) -> dict:
    """Block A's experiment (a training job of its own)."""
    return stored_experiment(ctx, "A")


def stored_block_b(ctx: Context) -> dict:
    """Block B's experiment (a training job of its own)."""
    return stored_experiment(ctx, "B")


def param_count(config: dict, vocab_size: int) -> int:
    """Parameters of the decoder LM of ``config`` (an ``LMConfig`` as a dict)."""
    d, L, V = config["d_model"], config["n_layers"], vocab_size
    return 2 * V * d + config["seq_len"] * d + L * (4 * d * d + 2 * config["mlp_ratio"] * d * d + 2 * d) + d


def evidence_of(res: dict) -> dict:
    """The decision evidence of a stored experiment."""
    s = res["summary"]
    runs = [r for arm in res["runs"].values() for r in arm]
    return {"seeds": [r["seed"] for r in res["runs"]["adamw"]],
            "ratio_diameter": s["ratio_diameter"], "ratio_hilbert_rms": s["ratio_hilbert_rms"],
            "ratio_diameter_per_seed": s["ratio_diameter_per_seed"],
            "ratio_hilbert_rms_per_seed": s["ratio_hilbert_rms_per_seed"],
            "val_loss_diff": s["val_loss_diff"],
            "converged": all(math.isfinite(r["val_loss"]) and r["val_loss"] < r["val_loss_init"] - 0.5
                             for r in runs),
            "parameters": param_count(res["config"], res["vocab_size"])}


#: what evidence would decide the claim when it is inconclusive (report.md shows it)
DECIDED_BY = ("a run at the paper's scale (at least 190M parameters: a GPU): ratios outside the "
              "paper's 45–60× (diameter) and 12–15× (Hilbert RMS) there refute the claim, "
              "inside them (with the paper's loss cost) support it; a smaller model's ratios "
              "cannot refute it, only the direction (RowNorm's steps smaller) is tested below "
              'that scale')


@claim("head.exp.rownorm_vs_adamw", title="RowNorm head vs AdamW head (Muon backbone)",
       decided_by=DECIDED_BY,
       source=HEAD("experiments: RowNorm vs AdamW head"), uses_training=True, claim_version=2,
       statement="RowNorm on the head (Muon on the backbone) shrinks the per-step row diameter "
                 "45–60× and the Hilbert RMS 12–15× vs AdamW, at +0.006–0.015 validation loss "
                 "(190M–640M models), with the released recipes and learning rates")
def rownorm_vs_adamw(ctx: Context) -> Outcome:
    results = {b: stored_experiment(ctx, b) for b in BLOCKS}
    blocks = {b: evidence_of(res) for b, res in results.items()}
    verdict, why, parts = experiment_verdict({"blocks": blocks})
    fig, axes = new_figure(1, 2, figsize=(9, 3.2))
    for b, res in results.items():
        for arm, c in (("adamw", "C0"), ("rownorm", "C3")):
            for j, r in enumerate(res["runs"][arm]):
                lab = f"{arm} (lr {r['head_lr']:.3g})" if j == 0 and b == BLOCKS[0] else None
                axes[0].semilogy(r["diameter"], c, lw=0.6, alpha=0.7, label=lab)
                axes[1].semilogy(r["hilbert_rms"], c, lw=0.6, alpha=0.7, label=lab)
    axes[0].set_title("row diameter D(S_t), every seed of both blocks")
    axes[1].set_title("Hilbert RMS on the validation panel")
    for a in axes:
        a.set_xlabel("step")
        a.legend(fontsize=7)
    figs = save_figure(fig, ctx, "head_rownorm_vs_adamw")
    table = [{"block": b, "head": arm, "seed": r["seed"], "lr": r["head_lr"],
              "val_loss": r["val_loss"], "final_D": r["diameter"][-1],
              "final_hilbert_rms": r["hilbert_rms"][-1], "identity_err_max": r["identity_err_max"]}
             for b, res in results.items() for arm in ("adamw", "rownorm") for r in res["runs"][arm]]
    first = results[BLOCKS[0]]
    n = blocks[BLOCKS[0]]["parameters"]
    key = "; ".join(
        f"block {b}: D ratio {res['summary']['ratio_diameter']:.1f}×, Hilbert RMS ratio "
        f"{res['summary']['ratio_hilbert_rms']:.1f}×, Δval {res['summary']['val_loss_diff']:+.4f}"
        f" ± {res['summary']['val_loss_diff_se']:.4f} nats (s.e.)" for b, res in results.items())
    return Outcome(
        verdict,
        f"at {n:,} params, {counted(len(first['runs']['adamw']), 'seed')} per block: {key} "
        f"(paper 45–60×, 12–15×, +0.006–0.015 at {PAPER['scale']})",
        evidence={"decision": {"blocks": blocks}, "parts": parts, "paper": PAPER,
                  "summary": {b: res["summary"] for b, res in results.items()},
                  "lr_adamw": first["lr_adamw"], "lr_rownorm": first["lr_rownorm"],
                  "corpus_sha256": first["corpus_sha256"], "config": first["config"]},
        tables={"runs": table}, figures=figs,
        notes=f"{why}. Byte-level decoder LM on Python stdlib sources at {n:,} parameters "
              f"(the paper: {PAPER['scale']}); released recipes (head AdamW betas (0.9, 0.999), "
              "eps 1e-10, weight decay 0.1; head RowNorm β 0.95, eps 1e-8, no weight decay; Muon "
              "backbone, weight decay 0.1) and the published peak head learning rates: ratio "
              "η_AdamW / η_RowNorm = 1.25 and η_AdamW·d = 2.048 as at d = 512 / 768 / 1024, here "
              f"at d = {first['config']['head_width'] or first['config']['d_model']}: AdamW "
              f"{first['lr_adamw']:.3g}, RowNorm {first['lr_rownorm']:.3g} (nothing tuned). The "
              "recorded steps exclude weight decay, as the paper's diagnostics do. This run grows "
              "the whole model at a small head width; the ratios at the paper's head widths "
              "(d = 512 / 768 / 1024, a shallow backbone) are the sibling claim "
              "head.exp.rownorm_vs_adamw.width")


@rownorm_vs_adamw.decision_rule
def experiment_verdict(ev: dict) -> tuple[Verdict, str, dict]:
    """Evidence: ``{"blocks": {name: block evidence}}``, two or more disjoint seed blocks, each
    with ``seeds``, final-step ratios (mean and per seed), ``val_loss_diff``, ``converged``,
    ``parameters``. Each block is decided alone (:func:`block_experiment_verdict`); the verdict
    stands when every block gives it, else it is inconclusive with both blocks shown
    (``registry.replicate``). Returns ``(verdict, why, {"blocks": {name: parts}, "direction":
    bool})`` (``direction``: RowNorm smaller in every block)."""
    blocks = ev["blocks"]
    decided = {name: block_experiment_verdict(bev) for name, bev in blocks.items()}
    verdict, why = replicate({name: (blocks[name]["seeds"], v, w)
                              for name, (v, w, _) in decided.items()})
    parts = {"blocks": {name: p for name, (_, _, p) in decided.items()}}
    parts["direction"] = all(p.get("direction", False) for p in parts["blocks"].values())
    return verdict, why, parts


def block_experiment_verdict(ev: dict) -> tuple[Verdict, str, dict]:
    """One seed block. Inconclusive when training did not converge. Direction: both per-seed
    ratios > 1 in ≥ 80% of seeds; refuted when both are < 1 in ≥ 80% of seeds. Magnitude: both
    mean ratios inside the paper's ranges. Supported when direction and magnitude hold and
    RowNorm's loss cost is ≤ 0.1 nats; when the magnitude misses the range: refuted at the
    paper's scale (≥ 190M parameters), else inconclusive with the scale and the ratios
    measured."""
    parts: dict[str, Any] = {}
    if not ev["converged"]:
        return Verdict.INCONCLUSIVE, "training did not converge (val loss fell < 0.5 nats)", parts
    pairs = list(zip(ev["ratio_diameter_per_seed"], ev["ratio_hilbert_rms_per_seed"]))
    up = success_rate(d > 1 and h > 1 for d, h in pairs)
    down = success_rate(d < 1 and h < 1 for d, h in pairs)
    parts["direction"] = DIRECTION_RULE.succeeds(up)
    parts["direction_rate"] = up
    scale = f"at {ev['parameters']:,} parameters"
    if DIRECTION_RULE.succeeds(down):
        return (Verdict.REFUTED, f"RowNorm's final steps are larger than AdamW's in "
                                 f"{down['successes']}/{counted(down['seeds'], 'seed')} {scale}",
                parts)
    if not parts["direction"]:
        return (Verdict.INCONCLUSIVE, f"the direction holds in only {up['successes']}/"
                                      f"{counted(up['seeds'], 'seed')} {scale}", parts)
    (lo_d, hi_d), (lo_h, hi_h) = PAPER["ratio_diameter"], PAPER["ratio_hilbert_rms"]
    parts["magnitude"] = lo_d <= ev["ratio_diameter"] <= hi_d and lo_h <= ev["ratio_hilbert_rms"] <= hi_h
    parts["loss"] = ev["val_loss_diff"] <= LOSS_TOL
    measured = (f"final-step ratios D {ev['ratio_diameter']:.1f}×, Hilbert RMS "
                f"{ev['ratio_hilbert_rms']:.1f}× {scale} (paper: 45–60×, 12–15× at {PAPER['scale']})")
    if parts["magnitude"] and parts["loss"]:
        return Verdict.SUPPORTED, f"direction and magnitude hold: {measured}", parts
    if not parts["magnitude"] and ev["parameters"] >= PAPER_MIN_PARAMS:
        return Verdict.REFUTED, f"ratios outside the stated ranges at the paper's scale: {measured}", parts
    why = [] if parts["magnitude"] else [f"RowNorm's steps are smaller in every seed, but {measured}"]
    if not parts["loss"]:
        why.append(f"RowNorm's validation-loss cost {ev['val_loss_diff']:+.3f} exceeds {LOSS_TOL}")
    return Verdict.INCONCLUSIVE, "; ".join(why), parts


@rownorm_vs_adamw.control
def _rownorm_control(ctx: Context) -> ControlOutcome:
    # AdamW in both arms (seed s against seed s+1): the direction the claim needs must fail
    blocks = {b: evidence_of(adamw_in_both_arms(stored_experiment(ctx, b))) for b in BLOCKS}
    verdict, why, parts = experiment_verdict({"blocks": blocks})
    ratios = "; ".join(f"block {b}: D ratio {ev['ratio_diameter']:.2f}, Hilbert ratio "
                       f"{ev['ratio_hilbert_rms']:.2f}" for b, ev in blocks.items())
    return ControlOutcome(verdict is not Verdict.SUPPORTED and not parts["direction"],
                          "AdamW head in both arms (seeds paired s ↔ s+1)",
                          f"verdict {verdict.value}: {why}; {ratios}", {"decision": {"blocks": blocks}})


#: rough CPU seconds of one seed block's stored head experiment (2-core development machine):
#: quick, full (``paper`` runs the full experiment)
_HEAD_CPU_SECONDS = (20.0, 200.0)
_BLOCK_JOBS = {"A": f"{__name__}:stored_block_a", "B": f"{__name__}:stored_block_b"}


@rownorm_vs_adamw.training_plan
def _head_plan(ctx: Context, controls: bool) -> list:
    from seqtheory.proofs_checks.training_runs import StoreJob

    return [StoreJob(_BLOCK_JOBS[b], _experiment_config(ctx, b), ctx.by_profile(*_HEAD_CPU_SECONDS))
            for b in BLOCKS]

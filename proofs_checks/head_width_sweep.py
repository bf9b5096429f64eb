"""The head-width sweep of ``head.exp.rownorm_vs_adamw.width`` ([HEAD], A. Somasundaram et al.,
arXiv:2608.22253; SPEC §3.2) and of ``finding.head_width_law``: its configuration (one
results-store record per width and seed block, one over each block's sweep), its training, and
its statistics (per-width ratios with seed intervals, the exponent fits in d, the step
geometry). The claims, their decision rules, controls and figure are in
:mod:`seqtheory.proofs_checks.claims.head_width` and
:mod:`seqtheory.proofs_checks.claims.finding_head_width_law`.

**Learning rates: the published ones.** [HEAD]'s table and released ``optimizer_recipes.py``
give the peak head learning rates AdamW 4.0 / 2.667 / 2.0e-3 and RowNorm 3.2 / 2.133 / 1.6e-3 at
d = 512 / 768 / 1024 (SPEC §3.2): a ratio η_AdamW / η_RowNorm = 1.25 at every width, and
η·d = 2.048 (AdamW) at every width. The sweep uses these values at the paper's widths and the
same two facts at the others (η_AdamW = 2.048 / d, η_RowNorm = η_AdamW / 1.25: the published
values' own 1/d scaling, extended below 512); no factor is fitted to the paper's ratios. The
backbone's lr is fixed (its width is fixed).

**Seed blocks.** Trained verdicts replicate on two disjoint blocks of seeds (SPEC §3): block A
holds the first :data:`SEEDS_PER_BLOCK` training seeds of the run seed, block B the next ones;
each block is its own stored sweep, trained by its own job.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from seqtheory.numerics.fits import fit_loglog_slope
from seqtheory.models.store import keyed_config
from seqtheory.proofs_checks.head_evidence import stored_result
from seqtheory.proofs_checks.registry import Context
from seqtheory.proofs_checks.training_runs import seeds
from seqtheory.theory._checks import check_int
from seqtheory.theory._messages import counted

__all__ = ["PUBLISHED_HEAD_LRS", "PUBLISHED_LR_RATIO", "PUBLISHED_LR_TIMES_D", "BLOCKS",
           "SEEDS_PER_BLOCK", "WIDTH_CODE_REVISION", "head_lrs", "block_seeds", "WidthPoint",
           "WidthSweep", "sweep_config", "stored_point", "stored_sweep", "stored_block_a",
           "stored_block_b", "BLOCK_JOBS", "block_evidence", "adamw_both_arms_evidence", "width_plan", "seed_interval", "fit_exponent", "step_geometry",
           "point_evidence", "evidence_of", "WIDTH_CPU_SECONDS"]

#: [HEAD]'s published peak head learning rates (AdamW, RowNorm) by head width d (SPEC §3.2)
PUBLISHED_HEAD_LRS = {512: (4.0e-3, 3.2e-3), 768: (2.667e-3, 2.133e-3), 1024: (2.0e-3, 1.6e-3)}
#: their ratio η_AdamW / η_RowNorm (1.25 at every published width) and η_AdamW·d (2.048)
PUBLISHED_LR_RATIO, PUBLISHED_LR_TIMES_D = 1.25, 2.048
#: the seed blocks a verdict replicates on, and the training seeds in each
BLOCKS, SEEDS_PER_BLOCK = ("A", "B"), 3
#: 2: the published learning rates, the AdamW step without weight decay, seed blocks
WIDTH_CODE_REVISION = 2


def head_lrs(d: int) -> tuple[float, float]:
    """The peak head lrs ``(η_AdamW, η_RowNorm)`` at head width ``d``: the published values at
    d = 512 / 768 / 1024, else ``η_AdamW = 2.048 / d`` and ``η_RowNorm = η_AdamW / 1.25`` (the
    published values' own scaling; module docstring). ``ValueError`` for ``d`` < 1."""
    d = check_int("d", d)
    if d in PUBLISHED_HEAD_LRS:
        return PUBLISHED_HEAD_LRS[d]
    adamw = PUBLISHED_LR_TIMES_D / d
    return adamw, adamw / PUBLISHED_LR_RATIO


def block_seeds(ctx: Context, block: str) -> tuple[int, ...]:
    """The training seeds of seed block ``block`` (one of :data:`BLOCKS`) of the run seed of
    ``ctx``: disjoint blocks of :data:`SEEDS_PER_BLOCK` seeds. ``ValueError`` for another block."""
    if block not in BLOCKS:
        raise ValueError(f"block must be one of {', '.join(BLOCKS)}, got {block!r}")
    i = BLOCKS.index(block)
    sd = seeds(ctx, "head.width", SEEDS_PER_BLOCK * len(BLOCKS))
    return tuple(sd[i * SEEDS_PER_BLOCK:(i + 1) * SEEDS_PER_BLOCK])


@dataclass(frozen=True)
class WidthPoint:
    """One width of a block's sweep (hashed by the results store): the model at head width
    ``lm.head_width``, the block's seeds and the two heads' peak lrs."""

    lm: Any                 # seqtheory.models.lm.LMConfig
    seeds: tuple[int, ...]
    lr_adamw: float
    lr_rownorm: float
    code_revision: int = WIDTH_CODE_REVISION

    def n_models(self) -> int:
        """Models this width trains: one per head (AdamW, RowNorm) and seed."""
        return 2 * len(self.seeds)


@keyed_config
@dataclass(frozen=True)
class WidthSweep:
    """One seed block's sweep: one :class:`WidthPoint` per width."""

    points: tuple[WidthPoint, ...]
    block: str = "A"
    code_revision: int = WIDTH_CODE_REVISION


def sweep_config(ctx: Context, block: str = "A", widths: tuple[int, ...] | None = None,
                 **lm_kw) -> WidthSweep:
    """The sweep of seed block ``block`` in the profile of ``ctx`` (``widths`` and LMConfig
    fields override it)."""
    from seqtheory.models.lm import quick_config

    base = dict(d_model=64, n_layers=1, n_heads=4, seq_len=32, batch_size=8, level="word",
                warmup=20, eval_windows=32, panel_windows=2, max_bytes=1_000_000,
                device=ctx.device, torch_threads=1 if ctx.device == "cpu" else None)
    base.update(ctx.by_profile(
        dict(vocab_size=512, steps=30, record_points=3, max_bytes=200_000, eval_windows=16),
        dict(vocab_size=2048, steps=300, record_points=6)))
    base.update(lm_kw)
    lm = quick_config(**base)
    if widths is None:
        widths = ctx.by_profile((32, 64, 128), (64, 128, 256, 512, 768, 1024))
    sd = block_seeds(ctx, block)
    return WidthSweep(tuple(WidthPoint(replace(lm, head_width=d), sd, *head_lrs(d))
                            for d in widths), block)


def stored_point(ctx: Context, p: WidthPoint) -> dict:
    """The AdamW-vs-RowNorm comparison at one width (same seeds, the published lrs; no tuning)."""
    from seqtheory.models.lm_experiment import head_comparison

    return stored_result(ctx, p, lambda: head_comparison(p.lm, seeds=p.seeds, lr_adamw=p.lr_adamw,
                                                         lr_rownorm=p.lr_rownorm))


def stored_sweep(ctx: Context, sweep: WidthSweep | None = None) -> dict:
    """A block's sweep result ``{"points": [per-width result, …]}`` from the store of ``ctx``
    (default: block A of :func:`sweep_config`)."""
    sweep = sweep_config(ctx) if sweep is None else sweep
    return stored_result(ctx, sweep, lambda: {"points": [stored_point(ctx, p) for p in sweep.points]})


def stored_block_a(ctx: Context) -> dict:
    """Block A's sweep (a training job of its own: :data:`BLOCK_JOBS`)."""
    return stored_sweep(ctx, sweep_config(ctx, "A"))


def stored_block_b(ctx: Context) -> dict:
    """Block B's sweep (a training job of its own: :data:`BLOCK_JOBS`)."""
    return stored_sweep(ctx, sweep_config(ctx, "B"))


#: the training job of each seed block (``package.module:function``, for the claims' plans)
BLOCK_JOBS = {"A": f"{__name__}:stored_block_a", "B": f"{__name__}:stored_block_b"}


def block_evidence(ctx: Context) -> dict[str, dict]:
    """``{block: decision evidence}`` (:func:`evidence_of`) of every seed block's stored sweep
    (trained when absent)."""
    return {b: evidence_of(stored_sweep(ctx, sweep_config(ctx, b))) for b in BLOCKS}


def adamw_both_arms_evidence(ctx: Context) -> dict[str, dict]:
    """The negative controls' evidence: :func:`block_evidence` with the RowNorm arm of every
    width replaced by the AdamW runs paired seed s ↔ s+1
    (:func:`~seqtheory.proofs_checks.head_evidence.adamw_in_both_arms`)."""
    from .head_evidence import adamw_in_both_arms

    out = {}
    for b in BLOCKS:
        res = stored_sweep(ctx, sweep_config(ctx, b))
        out[b] = evidence_of(dict(res, points=[adamw_in_both_arms(r) for r in res["points"]]))
    return out


def width_plan(ctx: Context) -> list:
    """The training jobs of the sweep, one per seed block: the plan of
    ``head.exp.rownorm_vs_adamw.width`` and of ``finding.head_width_law``, which read the same
    stored sweeps."""
    from seqtheory.proofs_checks.training_runs import StoreJob

    return [StoreJob(BLOCK_JOBS[b], sweep_config(ctx, b), ctx.by_profile(*WIDTH_CPU_SECONDS))
            for b in BLOCKS]


def seed_interval(values, confidence: float = 0.95) -> tuple[float, float]:
    """Student-t interval of the geometric mean of positive ``values`` (≥ 2 of them)."""
    from scipy import stats

    v = np.asarray(values, dtype=float)
    if v.ndim != 1 or len(v) < 2 or not np.all(np.isfinite(v) & (v > 0)):
        raise ValueError(f"values must be ≥ 2 positive finite numbers, got {values!r}")
    x = np.log(v)
    h = float(stats.t.ppf(0.5 + confidence / 2, len(x) - 1) * x.std(ddof=1) / math.sqrt(len(x)))
    return float(math.exp(x.mean() - h)), float(math.exp(x.mean() + h))


def fit_exponent(widths, per_seed) -> dict:
    """The exponent of a ratio in ``d``: OLS of log ratio on log d over every (width, seed)
    pair (``per_seed[i]``: the ratios at ``widths[i]``; ≥ 3 pairs, ≥ 2 widths), with its 95%
    Student-t CI: ``{"exponent", "ci": [lo, hi], "n"}``."""
    ds = [d for d, r in zip(widths, per_seed) for _ in r]
    f = fit_loglog_slope(ds, [x for r in per_seed for x in r])
    return {"exponent": f.slope, "ci": [f.ci_low, f.ci_high], "n": f.n}


def step_geometry(res: dict) -> dict:
    """Final-step diameters in units of the step size: RowNorm's ``c_R = D / (2 η_RN f_T)`` (1 when
    the diameter pair's rows point in opposite directions) and AdamW's ``c_A = D / (2 η_A f_T √d)``
    (1 when the pair's update entries are ±η_A f_T, sign-like), per seed; ``f_T`` is the
    schedule's factor at the final step; the recorded steps exclude weight decay. So the
    diameter ratio is (η_A / η_R)·√d·c_A / c_R (with η_A / η_R = 1.25 here, as published)."""
    from seqtheory.models.lm import LMConfig, lr_factor

    cfg = res["config"]
    lm = LMConfig(**{k: tuple(v) if isinstance(v, list) else v for k, v in cfg.items()})
    f = lr_factor(lm.steps - 1, lm, lm.steps)
    d = lm.width
    return {"rownorm_D_over_2lr": [r["diameter"][-1] / (2 * res["lr_rownorm"] * f)
                                   for r in res["runs"]["rownorm"]],
            "adamw_D_over_2lr_sqrt_d": [r["diameter"][-1] / (2 * res["lr_adamw"] * f * math.sqrt(d))
                                        for r in res["runs"]["adamw"]]}


def point_evidence(res: dict) -> dict:
    """The decision evidence of one width's stored comparison."""
    s = res["summary"]
    runs = [r for arm in res["runs"].values() for r in arm]
    return {"d": res["config"]["head_width"], "step_geometry": step_geometry(res),
            "lr_adamw": res["lr_adamw"], "lr_rownorm": res["lr_rownorm"],
            "ratio_diameter": s["ratio_diameter"], "ratio_hilbert_rms": s["ratio_hilbert_rms"],
            "ratio_diameter_per_seed": s["ratio_diameter_per_seed"],
            "ratio_hilbert_rms_per_seed": s["ratio_hilbert_rms_per_seed"],
            "interval_diameter": seed_interval(s["ratio_diameter_per_seed"]),
            "interval_hilbert_rms": seed_interval(s["ratio_hilbert_rms_per_seed"]),
            "frac_steps_rownorm_smaller": s["frac_steps_b_smaller"],
            "val_loss_diff": s["val_loss_diff"],
            "converged": all(math.isfinite(r["val_loss"]) and r["val_loss"] < r["val_loss_init"] - 0.5
                             for r in runs)}


def evidence_of(sweep_res: dict) -> dict:
    """The decision evidence of a stored sweep: per-width evidence, the exponent fits, the scale."""
    pts = [point_evidence(r) for r in sweep_res["points"]]
    cfg = sweep_res["points"][0]["config"]
    ws = [p["d"] for p in pts]
    ev = {"points": pts, "seeds": [r["seed"] for r in sweep_res["points"][0]["runs"]["adamw"]],
          "scale": {"backbone": f"{counted(cfg['n_layers'], 'layer')} of width {cfg['d_model']}",
                    "vocab_size": sweep_res["points"][0]["vocab_size"], "steps": cfg["steps"],
                    "tokens": cfg["steps"] * cfg["batch_size"] * cfg["seq_len"],
                    "seeds": len(pts[0]["ratio_diameter_per_seed"])}}
    if len(set(ws)) >= 2:
        ev["fit_diameter"] = fit_exponent(ws, [p["ratio_diameter_per_seed"] for p in pts])
        ev["fit_hilbert_rms"] = fit_exponent(ws, [p["ratio_hilbert_rms_per_seed"] for p in pts])
    return ev


#: rough CPU seconds of one seed block's sweep on the shared 2-core development machine
#: (measured 2026-12-01 at shared lrs: quick 30 s; full 920 s of training, per-width 88 / 49 /
#: 88 / 206 / 236 / 252 s for six runs of 300 steps at d = 64 … 1024, i.e. 0.03–0.14 s per
#: step): quick, full
WIDTH_CPU_SECONDS = (30.0, 950.0)

"""The head-width sweep of ``head.exp.rownorm_vs_adamw.width`` ([HEAD], A. Somasundaram et al.,
arXiv:2608.22253; SPEC §3.2): its configuration (one results-store record per width, one over the
sweep), its training, and its statistics (per-width ratios with seed intervals, the exponent fits
in d, the step geometry). The claim, its decision rule, control and figure are in
:mod:`seqtheory.proofs_checks.claims.head_width`.

**Learning rates.** The released code's rule for scaling peak learning rates with model size is
unknown (SPEC §3.2 records only that they scale). The rule used: both heads share one peak lr at
each width, ``η(d) = LR_REF · √(D_REF / d)``; the backbone's lr is fixed (its width is fixed).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from seqtheory.numerics.fits import fit_loglog_slope
from seqtheory.proofs_checks.head_evidence import stored_result
from seqtheory.proofs_checks.registry import Context
from seqtheory.proofs_checks.training_runs import seeds
from seqtheory.theory._checks import check_int
from seqtheory.theory._messages import counted

__all__ = ["LR_REF", "D_REF", "WIDTH_CODE_REVISION", "head_lr", "WidthPoint", "WidthSweep",
           "sweep_config", "stored_point", "stored_sweep", "seed_interval", "fit_exponent",
           "step_geometry", "point_evidence", "evidence_of", "WIDTH_CPU_SECONDS"]

#: learning-rate rule (see the module docstring)
LR_REF, D_REF = 1e-2, 64
WIDTH_CODE_REVISION = 1


def head_lr(d: int) -> float:
    """The shared peak head lr at width ``d``: ``LR_REF · √(D_REF / d)``."""
    d = check_int("d", d)
    return LR_REF * math.sqrt(D_REF / d)


@dataclass(frozen=True)
class WidthPoint:
    """One width of the sweep (hashed by the results store): the model at head width
    ``lm.head_width``, the seeds and the shared head lr."""

    lm: Any                 # seqtheory.models.lm.LMConfig
    seeds: tuple[int, ...]
    lr: float
    code_revision: int = WIDTH_CODE_REVISION


@dataclass(frozen=True)
class WidthSweep:
    """The sweep: one :class:`WidthPoint` per width."""

    points: tuple[WidthPoint, ...]
    code_revision: int = WIDTH_CODE_REVISION


def sweep_config(ctx: Context, widths: tuple[int, ...] | None = None, **lm_kw) -> WidthSweep:
    """The sweep of the profile of ``ctx`` (``widths`` and LMConfig fields override it)."""
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
    sd = tuple(seeds(ctx, "head.width", 3))
    return WidthSweep(tuple(WidthPoint(replace(lm, head_width=d), sd, head_lr(d)) for d in widths))


def stored_point(ctx: Context, p: WidthPoint) -> dict:
    """The AdamW-vs-RowNorm comparison at one width (same seeds, shared lr; no tuning)."""
    from seqtheory.models.lm import head_comparison

    return stored_result(ctx, p, lambda: head_comparison(p.lm, seeds=p.seeds, lr_adamw=p.lr,
                                                         lr_rownorm=p.lr))


def stored_sweep(ctx: Context, sweep: WidthSweep | None = None) -> dict:
    """The sweep's result ``{"points": [per-width result, …]}`` from the store of ``ctx``."""
    sweep = sweep_config(ctx) if sweep is None else sweep
    return stored_result(ctx, sweep, lambda: {"points": [stored_point(ctx, p) for p in sweep.points]})


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
    """Final-step diameters in units of the step size: RowNorm's ``D / (2 η_RN f_T)`` (1 when the
    diameter pair's rows point in opposite directions) and AdamW's ``D / (2 η_A f_T √d)`` (1 when
    the pair's update entries are ±η_A f_T, sign-like), per seed; ``f_T`` is the schedule's factor
    at the final step. Their ratio times √d is the diameter ratio."""
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
    ev = {"points": pts,
          "scale": {"backbone": f"{counted(cfg['n_layers'], 'layer')} of width {cfg['d_model']}",
                    "vocab_size": sweep_res["points"][0]["vocab_size"], "steps": cfg["steps"],
                    "tokens": cfg["steps"] * cfg["batch_size"] * cfg["seq_len"],
                    "seeds": len(pts[0]["ratio_diameter_per_seed"])}}
    if len(set(ws)) >= 2:
        ev["fit_diameter"] = fit_exponent(ws, [p["ratio_diameter_per_seed"] for p in pts])
        ev["fit_hilbert_rms"] = fit_exponent(ws, [p["ratio_hilbert_rms_per_seed"] for p in pts])
    return ev


#: rough CPU seconds of the sweep on the shared 2-core development machine (measured 2026-12-01:
#: quick 30 s; full 920 s of training, per-width 88 / 49 / 88 / 206 / 236 / 252 s for six runs
#: of 300 steps at d = 64 … 1024, i.e. 0.03–0.14 s per step): quick, full
WIDTH_CPU_SECONDS = (30.0, 950.0)

"""[DEPTH] (G. Heo et al., arXiv:2603.05573), §3 and the diagnosis of docs/trained_recipes.md:
a layer whose learned phases miss the roots of unity by ``δ`` per letter drifts by ``n·δ`` after
``n`` letters, so the learned phases predict how far a trained model extrapolates.

Claim ``finding.phase_horizon``: across the word-problem and parity runs of the profile (the runs
of :data:`~seqtheory.proofs_checks.run_inspection.SOURCE_CLAIMS`, read by the inspector, never
trained beyond their plans), the inspector's predicted horizon (layer 1, decision margin π/m,
:func:`seqtheory.models.inspector.predicted_horizon`) predicts the measured longest length with
≥ 90% held-out sequence accuracy (``max_len_90``). Rule (:func:`horizon_decide`, pure): over the
runs with a finite prediction and an uncensored measurement (below the test length), at least
:data:`MIN_RUNS`; supported when Spearman's ρ > 0 with one-sided p < :data:`ALPHA` (a permutation p,
exact for n ≤ 9: :func:`spearman_one_sided`) and at least :data:`WITHIN_SHARE` of the runs measure within a factor :data:`FACTOR` of the prediction
(``(pred + 1)/FACTOR ≤ measured + 1 ≤ FACTOR·(pred + 1)``); refined when ρ > 0 with p < ALPHA but
fewer than that share lie within the factor (the phases rank the runs' horizons, the horizon's
value is off: the report gives the geometric-mean ratio (measured + 1)/(predicted + 1) and its
spread); refuted when ρ ≤ 0 and fewer than that share lie within the factor; else inconclusive.
The refined branch was added on 2026-12-02, after a full-profile run at seed 0 (ρ = 0.68, one-sided
p = 0.0003, n = 22, 45% within a factor 2) and before the runs it was then judged on (seed 1).
Control: the same rule on the predictions permuted across runs by a seeded derangement (each run
judged by another run's phases) must be neither supported nor refined.
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from seqtheory.proofs_checks.registry import FINDING, Context, ControlOutcome, Outcome, Verdict, claim
from seqtheory.proofs_checks.run_inspection import inspections, run_fields, source_configs
from seqtheory.theory._messages import counted

MIN_RUNS = 6            # usable (prediction, measurement) pairs for a decision
ALPHA = 0.05            # one-sided level of the rank-correlation test
FACTOR = 2.0            # "within a factor": (pred + 1)/2 ≤ measured + 1 ≤ 2 (pred + 1)
WITHIN_SHARE = 0.5      # share of usable runs within the factor for "supported"


def _horizon_rows(pairs: list[tuple[dict, Any]]) -> list[dict]:
    rows = []
    for r, ins in pairs:
        c = r["config"]
        rows.append({**run_fields(r), "train_length": c["train_length"],
                     "test_length": r["test"]["test_length"], "predicted": ins.predicted_horizon,
                     "unbounded": ins.predicted_unbounded, "measured": r["test"]["max_len_90"],
                     "prediction_note": ins.prediction_note})
    return rows


def _usable(rows: list[dict]) -> tuple[list[dict], dict[str, int]]:
    out = [r for r in rows if r["predicted"] is not None and r["measured"] < r["test_length"]]
    skipped = {"no prediction (no non-trivial homomorphic character in layer 1)":
               sum(r["predicted"] is None and not r["unbounded"] for r in rows),
               "unbounded prediction (exact roots, |λ| = 1)": sum(r["unbounded"] for r in rows),
               "censored measurement (= test length)":
               sum(r["predicted"] is not None and r["measured"] >= r["test_length"] for r in rows)}
    return out, skipped


def _within(pred: int, meas: int) -> bool:
    ratio = (meas + 1) / (pred + 1)
    return 1 / FACTOR <= ratio <= FACTOR


def _ratio_stats(pred: list[int], meas: list[int]) -> tuple[float, list[float]]:
    """The geometric mean and the quartiles of ``(measured + 1)/(predicted + 1)``."""
    logs = np.log((np.asarray(meas, float) + 1) / (np.asarray(pred, float) + 1))
    q1, q3 = np.quantile(logs, [0.25, 0.75])
    return float(np.exp(logs.mean())), [float(np.exp(q1)), float(np.exp(q3))]


#: the one-sided p of Spearman's ρ is a permutation p: exact (every pairing) up to this many
#: pairings (n ≤ 9), else from seeded random pairings drawn in blocks of 40,000 until at least this
#: many (400,000 draws; (count + 1)/(draws + 1))
_PAIRINGS = 362_880
_PAIRING_SEED = 20261202


def spearman_one_sided(x: list, y: list) -> tuple[float, float]:
    """Spearman's ρ of ``x`` and ``y`` (midranks for ties) and its one-sided permutation p
    (``P(ρ* ≥ ρ)`` over re-pairings of ``y`` with ``x``): exact for ``n! ≤`` :data:`_PAIRINGS`,
    else a seeded Monte Carlo estimate over 400,000 random pairings. Exact rather than
    scipy's t approximation, which is anti-conservative at small n (n = 6, ρ = 0.771: t gives
    p = 0.036, the exact p is 0.051). Both sequences must be non-constant (length ≥ 2)."""
    from itertools import islice, permutations

    from scipy.stats import rankdata

    rx, ry = (2 * rankdata(v) for v in (x, y))        # midranks doubled: integers
    rx, ry = rx.astype(np.int64), ry.astype(np.int64)
    cx, cy = rx - rx.mean(), ry - ry.mean()
    rho = float(cx @ cy / np.sqrt((cx @ cx) * (cy @ cy)))
    obs, n = int(rx @ ry), len(rx)                     # ρ is increasing in Σ rx·ry at fixed ranks
    if math.factorial(n) <= _PAIRINGS:
        perms = np.array(list(islice(permutations(range(n)), _PAIRINGS)))
        return rho, float(np.mean(ry[perms] @ rx >= obs))
    rng = np.random.default_rng(_PAIRING_SEED)
    hits = 0
    for _ in range(_PAIRINGS // 40_000 + 1):
        perms = rng.permuted(np.tile(np.arange(n), (40_000, 1)), axis=1)
        hits += int(np.sum(ry[perms] @ rx >= obs))
    draws = 40_000 * (_PAIRINGS // 40_000 + 1)
    return rho, (hits + 1) / (draws + 1)


def _check_row(i: int, r: dict) -> None:
    """``ValueError``/``TypeError`` naming the row and field: ``predicted`` None or an int ≥ 0,
    ``unbounded`` a bool (True only with ``predicted`` None), ``measured`` an int ≥ 0,
    ``test_length`` an int ≥ 1."""
    from seqtheory.theory._checks import check_int, check_optional_int

    for f in ("predicted", "unbounded", "measured", "test_length"):
        if f not in r:
            raise ValueError(f"row {r!r} lacks {f!r}")
    check_optional_int(f"rows[{i}]['predicted']", r["predicted"], 0)
    check_int(f"rows[{i}]['measured']", r["measured"], 0)
    check_int(f"rows[{i}]['test_length']", r["test_length"], 1)
    if not isinstance(r["unbounded"], (bool, np.bool_)):
        raise TypeError(f"rows[{i}]['unbounded'] must be a bool, got {r['unbounded']!r}")
    if r["unbounded"] and r["predicted"] is not None:
        raise ValueError(f"rows[{i}] is unbounded but carries a finite prediction {r['predicted']!r}")


def horizon_decide(rows: list[dict]) -> tuple[Verdict, str, dict]:
    """Decision rule of ``finding.phase_horizon`` (pure; module docstring). ``rows``: dicts with
    ``predicted`` (int or None), ``unbounded``, ``measured`` and ``test_length`` (ints). Returns
    ``(verdict, why, stats)``; ``ValueError``/``TypeError`` for a row lacking a field or with a
    field out of its domain (:func:`_check_row`)."""
    for i, r in enumerate(rows):
        _check_row(i, r)
    use, skipped = _usable(rows)
    stats: dict[str, Any] = {"usable": len(use), "runs": len(rows), "skipped": skipped}
    if len(use) < MIN_RUNS:
        return Verdict.INCONCLUSIVE, (f"only {len(use)} of {counted(len(rows), 'run')} carry a finite "
                                      f"prediction and an uncensored measurement (needs ≥ "
                                      f"{MIN_RUNS}; skipped: {skipped})"), stats
    pred = [r["predicted"] for r in use]
    meas = [r["measured"] for r in use]
    within = sum(_within(p, m) for p, m in zip(pred, meas)) / len(use)
    stats["within_factor_share"] = within
    if len(set(pred)) < 2 or len(set(meas)) < 2:
        return Verdict.INCONCLUSIVE, "predicted or measured horizons are all equal: no ranking", stats
    rho, p = spearman_one_sided(pred, meas)
    stats.update(spearman_rho=float(rho), p_one_sided=float(p))
    desc = (f"Spearman ρ = {rho:.2f} (one-sided p = {p:.3g}, n = {len(use)}), "
            f"{within:.0%} within a factor {FACTOR:g}")
    if rho > 0 and p < ALPHA and within >= WITHIN_SHARE:
        return Verdict.SUPPORTED, desc, stats
    if rho > 0 and p < ALPHA:
        ratio, spread = _ratio_stats(pred, meas)
        stats.update(geometric_mean_ratio=ratio, ratio_quartiles=spread)
        return Verdict.REFINED, desc + (
            f": the phases rank the horizons but the predicted value is off (measured + 1 = "
            f"{ratio:.2g} × (predicted + 1), geometric mean; quartiles {spread[0]:.2g}–{spread[1]:.2g})"), stats
    if rho <= 0 and within < WITHIN_SHARE:
        return Verdict.REFUTED, desc + ": no positive association", stats
    return Verdict.INCONCLUSIVE, desc + f" (needs ρ > 0 with p < {ALPHA} and ≥ {WITHIN_SHARE:.0%} within)", stats


def derangement(n: int, seed: int) -> list[int]:
    """A seeded permutation of ``range(n)`` without fixed points (``n ≥ 2``; identity for n < 2)."""
    if n < 2:
        return list(range(n))
    rng = np.random.default_rng(seed)
    while True:
        p = rng.permutation(n)
        if not np.any(p == np.arange(n)):
            return [int(i) for i in p]


def permuted_predictions(rows: list[dict], seed: int) -> list[dict]:
    """The rows with the prediction of run ``i`` taken from run ``π(i)`` (a seeded derangement
    over the runs with a finite prediction): each run judged by another run's phases."""
    idx = [i for i, r in enumerate(rows) if r["predicted"] is not None]
    perm = derangement(len(idx), seed)
    out = [dict(r) for r in rows]
    for i, j in zip(idx, perm):
        out[i]["predicted"] = rows[idx[j]]["predicted"]
    return out


#: what evidence would decide the claim when it is inconclusive (report.md shows it)
DECIDED_BY = ('at least 6 runs with a finite predicted horizon and a measured length below the '
              "test length; then Spearman's ρ between prediction and measurement decides (ρ > 0 "
              'at one-sided p < 0.05 supports or refines it, ρ ≤ 0 with few runs within a '
              'factor 2 refutes it)')


@claim(id="finding.phase_horizon", title="Learned phase errors predict the extrapolation length",
       decided_by=DECIDED_BY,
       source=FINDING("seqtheory (this package): a hypothesis about trained abelian layers",
                      "after [DEPTH] §3 (abelian layers track cyclic quotients by roots of "
                      "unity); docs/trained_recipes.md diagnosis; SPEC §3.4"),
       aliases=("depth.exp.phase_horizon",), uses_training=True,
       statement=("across the word-problem and parity runs of the profile, the horizon predicted "
                  "from the learned layer-1 phases (accumulated error n·δ against the decision "
                  "margin π/m, modulus decay) predicts the measured longest length with ≥ 90% "
                  "held-out sequence accuracy"))
def phase_horizon(ctx: Context) -> Outcome:
    from seqtheory.proofs_checks.figures import save_figure
    from seqtheory.proofs_checks.inspect_figures import horizon_figure

    rows = _horizon_rows(inspections(ctx, source_configs(ctx)))
    verdict, why, stats = horizon_decide(rows)
    return Outcome(verdict, why, evidence={"stats": stats, "rule": _horizon_rule_text()},
                   tables={"runs": rows},
                   figures=save_figure(horizon_figure(rows), ctx, "depth_exp_phase_horizon"),
                   notes=(f"{why}. Prediction per run: the largest horizon of a layer-1 channel whose "
                          "learned character is a non-trivial homomorphism (exact test on the Cayley "
                          "table); phases numerical (float64, phase tolerance π/(2·exponent)). "
                          "Runs whose measured 90% length equals the test length are censored and "
                          "not used. The modulus part counts a channel lost when its amplitude halves "
                          "(a stated convention)."))


def _horizon_rule_text() -> str:
    return (f"usable runs ≥ {MIN_RUNS}; supported: Spearman ρ > 0 with one-sided p < {ALPHA} and "
            f"≥ {WITHIN_SHARE:.0%} within a factor {FACTOR:g}; refined: ρ > 0 with p < {ALPHA} and < "
            f"{WITHIN_SHARE:.0%} within; refuted: ρ ≤ 0 and < {WITHIN_SHARE:.0%} within")


horizon_decide = phase_horizon.decision_rule(horizon_decide)


@phase_horizon.control
def _phase_horizon_control(ctx: Context) -> ControlOutcome:
    rows = _horizon_rows(inspections(ctx, source_configs(ctx)))
    v, why, _ = horizon_decide(permuted_predictions(rows, ctx.numpy_seed("phase-horizon-control")))
    return ControlOutcome(rejected=v not in (Verdict.SUPPORTED, Verdict.REFINED),
                          variant="predictions permuted across runs (each run judged by another "
                                  "run's phases)", reason=f"{v.value}: {why}")


@phase_horizon.training_plan
def _phase_horizon_plan(ctx: Context, controls: bool) -> list:
    return source_configs(ctx)

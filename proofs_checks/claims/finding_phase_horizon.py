"""[DEPTH] (G. Heo et al., arXiv:2603.05573), §3 and the diagnosis of docs/trained_recipes.md:
a layer whose learned phases miss the roots of unity by ``δ`` per letter drifts by ``n·δ`` after
``n`` letters, so the learned phases predict how far a trained model extrapolates.

Claim ``finding.phase_horizon`` (the package's hypothesis, not the paper's): in the word-problem
and parity runs of the profile (the runs of
:data:`~seqtheory.proofs_checks.run_inspection.SOURCE_CLAIMS`, read by the inspector, never trained
beyond their plans), the inspector's predicted horizon (layer 1, decision margin π/m,
:func:`seqtheory.models.inspector.predicted_horizon`, from the best layer-1 character of any kind
the inspector reads) is within a factor :data:`FACTOR` of the measured longest length with ≥ 90%
held-out sequence accuracy (``max_len_90``): ``(pred + 1)/FACTOR ≤ measured + 1 ≤ FACTOR·(pred +
1)``, in at least 80% of the runs (seeds) with a prediction, **for each task** whose group has a
non-trivial character (``G/G′ ≠ 1``; A5 has none, so no prediction: it is not a part).

Rule (:func:`horizon_decide`, pure), per task and per seed block
(:mod:`seqtheory.proofs_checks.seed_blocks`): a run is usable when it has a finite prediction and
its measurement decides the factor test: uncensored (below the test length), or censored (= the
test length) with ``FACTOR·(pred + 1) < test length + 1`` (then it certainly lies beyond the
factor: a miss). Over at least :data:`MIN_RUNS` usable runs: supported when ≥ 80% lie within the
factor (:data:`HORIZON_RULE`), refuted when the Wilson 95% interval of that share lies wholly
below 80% (at least 2 of 3, 3 of 4, 3 of 5 or 4 of 6 usable runs outside the factor), else
inconclusive; fewer usable runs: inconclusive. A run without a prediction (no
character read: "cannot tell") is never counted. Tasks are parts of the statement (weakest part
decides); the two seed blocks must agree, else inconclusive with both shown. The layer classes of
the usable runs are stated per task. (Until 2026-12-04 the rule pooled every task in one Spearman
test with a refined branch; changed after seed 0 of the quick profile and seeds 0, 1, 5 of the
full one were seen, because within D8 the largest prediction had the smallest measurement.)
Control: the same rule on the predictions permuted across runs by a seeded derangement (each run
judged by another run's phases) must not support.
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from seqtheory.proofs_checks.rates import SeedRule, rate_text, success_rate
from seqtheory.proofs_checks.registry import FINDING, Context, ControlOutcome, Outcome, Verdict, claim
from seqtheory.proofs_checks.run_inspection import inspections, run_fields, source_configs
from seqtheory.proofs_checks.seed_blocks import blocks_key, by_parts, replicated, seed_blocks
from seqtheory.theory._messages import counted

MIN_RUNS = 3            # usable (prediction, measurement) pairs of a task and block for a decision
FACTOR = 2.0            # "within a factor": (pred + 1)/2 ≤ measured + 1 ≤ 2 (pred + 1)
HORIZON_RULE = SeedRule(min_rate=0.8, max_rate=0.0)   # only min_rate is read (refuting: Wilson)


def _horizon_tasks(configs: list) -> list:
    """The runs of tasks whose group has a non-trivial character (``G/G′ ≠ 1``)."""
    from seqtheory.theory.groups import FiniteGroup

    keep = {t for t in {c.task for c in configs}
            if FiniteGroup.named(t).commutator_subgroup().order < FiniteGroup.named(t).order}
    return [c for c in configs if c.task in keep]


def _horizon_rows(ctx: Context, configs: list) -> list[dict]:
    block = seed_blocks(configs)
    rows = []
    for r, ins in inspections(ctx, configs):
        c = r["config"]
        b, i = block[r["key"]]
        chars = ins.layers[0].characters
        rows.append({**run_fields(r), "block": b, "seed_pos": i,
                     "layer_class": ins.layers[0].layer_class, "train_length": c["train_length"],
                     "test_length": r["test"]["test_length"], "predicted": ins.predicted_horizon,
                     "unbounded": ins.predicted_unbounded, "measured": r["test"]["max_len_90"],
                     "character": ", ".join(sorted({x.kind for x in chars})) or "–",
                     "prediction_note": ins.prediction_note})
    return rows


def _decided(r: dict) -> bool | None:
    """Whether the run's measurement lies within the factor of its prediction; None when it has
    no finite prediction or a censored measurement that does not decide."""
    pred, meas = r["predicted"], r["measured"]
    if pred is None:
        return None
    if meas >= r["test_length"]:                 # censored: the true length is ≥ the test length
        return False if FACTOR * (pred + 1) < r["test_length"] + 1 else None
    return _within(pred, meas)


def _skipped(rows: list[dict]) -> dict[str, int]:
    return {"no prediction (no layer-1 character read)":
            sum(r["predicted"] is None and not r["unbounded"] for r in rows),
            "unbounded prediction (exact roots, |λ| = 1)": sum(r["unbounded"] for r in rows),
            "censored measurement within reach of the factor":
            sum(r["predicted"] is not None and _decided(r) is None for r in rows)}


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
    ``test_length`` an int ≥ 1, ``task`` a string, ``block`` and ``seed_pos`` present."""
    from seqtheory.theory._checks import check_int, check_optional_int

    for f in ("task", "predicted", "unbounded", "measured", "test_length", "block", "seed_pos"):
        if f not in r:
            raise ValueError(f"row {r!r} lacks {f!r}")
    check_optional_int(f"rows[{i}]['predicted']", r["predicted"], 0)
    check_int(f"rows[{i}]['measured']", r["measured"], 0)
    check_int(f"rows[{i}]['test_length']", r["test_length"], 1)
    if not isinstance(r["task"], str):
        raise TypeError(f"rows[{i}]['task'] must be a task name, got {r['task']!r}")
    if not isinstance(r["unbounded"], (bool, np.bool_)):
        raise TypeError(f"rows[{i}]['unbounded'] must be a bool, got {r['unbounded']!r}")
    if r["unbounded"] and r["predicted"] is not None:
        raise ValueError(f"rows[{i}] is unbounded but carries a finite prediction {r['predicted']!r}")


def _horizon_task(rows: list[dict]) -> tuple[Verdict, str, dict]:
    """One task in one seed block (module docstring)."""
    flags = [f for f in map(_decided, rows) if f is not None]
    classes = ", ".join(sorted({r.get("layer_class", "?") for r in rows if _decided(r) is not None})) or "–"
    stats: dict[str, Any] = {"runs": len(rows), "usable": len(flags), "skipped": _skipped(rows),
                             "layer_classes": classes}
    if len(flags) < MIN_RUNS:
        skipped = "; ".join(f"{v} {k}" for k, v in stats["skipped"].items() if v) or "none skipped"
        return Verdict.INCONCLUSIVE, (f"{len(flags)} of {counted(len(rows), 'run')} usable (needs ≥ "
                                      f"{MIN_RUNS}; {skipped})"), stats
    rate = success_rate(flags)
    stats["within"] = rate
    desc = (f"{rate_text(rate)} of the usable runs within a factor {FACTOR:g} of the prediction "
            f"(layer class: {classes})")
    if HORIZON_RULE.succeeds(rate):
        return Verdict.SUPPORTED, desc, stats
    if rate["wilson95"][1] < HORIZON_RULE.min_rate:
        return Verdict.REFUTED, desc + f" (the interval lies below {HORIZON_RULE.min_rate:.0%})", stats
    return Verdict.INCONCLUSIVE, desc + (f" (supporting needs ≥ {HORIZON_RULE.required(len(flags))}; "
                                         f"refuting a Wilson interval below {HORIZON_RULE.min_rate:.0%})"), stats


def horizon_decide(rows: list[dict]) -> tuple[Verdict, str, dict]:
    """Decision rule of ``finding.phase_horizon`` (pure; module docstring). ``rows``: dicts with
    ``task``, ``predicted`` (int or None), ``unbounded``, ``measured`` and ``test_length`` (ints),
    ``block`` and ``seed_pos`` (:mod:`~seqtheory.proofs_checks.seed_blocks`), optionally
    ``layer_class``. Returns ``(verdict, why, stats per block and task)``; ``ValueError`` /
    ``TypeError`` for a row lacking a field or with a field out of its domain
    (:func:`_check_row`), or of an unknown block."""
    for i, r in enumerate(rows):
        _check_row(i, r)
    return replicated(lambda rs: by_parts(rs, "task", _horizon_task), rows)


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
DECIDED_BY = ('at least 3 usable runs per task in each seed block (a finite predicted horizon and '
              'a measured length below the test length; a censored run counts only as a certain '
              'miss): predictions within a factor 2 of the measurement in at least 80% of them '
              'support it, a Wilson 95% interval wholly below 80% refutes it, per task')


@claim(id="finding.phase_horizon", title="Learned phase errors predict the extrapolation length",
       decided_by=DECIDED_BY,
       source=FINDING("seqtheory (this package): a hypothesis about trained abelian layers",
                      "after [DEPTH] §3 (abelian layers track cyclic quotients by roots of "
                      "unity); docs/trained_recipes.md diagnosis; SPEC §3.4"),
       aliases=("depth.exp.phase_horizon",), uses_training=True, claim_version=2,
       statement=("for each task of the profile whose group has a non-trivial character, the "
                  "horizon predicted from the learned layer-1 phases (accumulated error n·δ "
                  "against the decision margin π/m, modulus decay) is within a factor 2 of the "
                  "measured longest length with ≥ 90% held-out sequence accuracy in at least 80% "
                  "of the runs with a prediction, replicated on two disjoint seed blocks"))
def phase_horizon(ctx: Context) -> Outcome:
    from seqtheory.proofs_checks.figures import save_figure
    from seqtheory.proofs_checks.inspect_figures import horizon_figure

    rows = _horizon_rows(ctx, _horizon_tasks(source_configs(ctx)))
    verdict, why, stats = horizon_decide(rows)
    return Outcome(verdict, _horizon_key(stats), evidence={"stats": stats, "rule": _horizon_rule_text()},
                   tables={"runs": rows, "per_task": _task_summary(rows)},
                   figures=save_figure(horizon_figure(rows), ctx, "depth_exp_phase_horizon"),
                   notes=(f"{why}. Prediction per run: the largest horizon of a layer-1 character "
                          "read by the inspector (one channel, one channel up to a common phase "
                          "offset, or a pair of channels; exact test on the Cayley table); phases "
                          "numerical (float64, phase tolerance π/(2·exponent)). A run without a "
                          "prediction is not counted (the inspector cannot tell). A measurement "
                          "equal to the test length is censored: used only when it certainly lies "
                          "beyond the factor. The modulus part counts a channel lost when its "
                          "amplitude halves (a stated convention). Per task, the table 'per_task' "
                          "gives the geometric-mean ratio (measured + 1)/(predicted + 1) and "
                          "Spearman's ρ (descriptive, not part of the rule). Runs of A5 (no "
                          "non-trivial character) are not inspected for this finding."))


def _horizon_key(stats: dict[str, dict]) -> str:
    """Per seed block and task: runs within the factor / usable runs."""
    def task(t: str, st: dict) -> str:
        if "within" not in st:
            return f"{t} {st['usable']} usable of {st['runs']}"
        return f"{t} {st['within']['successes']}/{st['usable']} within ×{FACTOR:g}"
    return blocks_key(stats, task)


def _task_summary(rows: list[dict]) -> list[dict]:
    """Per task, descriptive: usable runs, layer classes, the geometric-mean ratio and quartiles
    of (measured + 1)/(predicted + 1) over the uncensored runs, and Spearman's ρ with its
    one-sided permutation p where at least 4 uncensored runs vary."""
    out = []
    for task in sorted({r["task"] for r in rows}):
        sel = [r for r in rows if r["task"] == task and r["predicted"] is not None
               and r["measured"] < r["test_length"]]
        row = {"task": task, "runs": sum(r["task"] == task for r in rows),
               "usable": sum(r["task"] == task and _decided(r) is not None for r in rows),
               "layer classes": ", ".join(sorted({r["layer_class"] for r in sel})) or "–",
               "geometric-mean ratio": None, "ratio quartiles": None, "spearman rho": None,
               "one-sided p": None}
        if sel:
            pred, meas = [r["predicted"] for r in sel], [r["measured"] for r in sel]
            ratio, (q1, q3) = _ratio_stats(pred, meas)
            row.update({"geometric-mean ratio": round(ratio, 3), "ratio quartiles": f"{q1:.2g}–{q3:.2g}"})
            if len(sel) >= 4 and len(set(pred)) > 1 and len(set(meas)) > 1:
                rho, p = spearman_one_sided(pred, meas)
                row.update({"spearman rho": round(rho, 3), "one-sided p": round(p, 4)})
        out.append(row)
    return out


def _horizon_rule_text() -> str:
    return (f"per task and seed block, over ≥ {MIN_RUNS} usable runs: supported when ≥ "
            f"{HORIZON_RULE.min_rate:.0%} measure within a factor {FACTOR:g} of the prediction; "
            f"refuted when the Wilson 95% interval of that share lies below "
            f"{HORIZON_RULE.min_rate:.0%}; tasks combined by the weakest part; the two seed blocks "
            "must agree")


horizon_decide = phase_horizon.decision_rule(horizon_decide)


@phase_horizon.control
def _phase_horizon_control(ctx: Context) -> ControlOutcome:
    rows = _horizon_rows(ctx, _horizon_tasks(source_configs(ctx)))
    v, why, _ = horizon_decide(permuted_predictions(rows, ctx.numpy_seed("phase-horizon-control")))
    return ControlOutcome(rejected=v is not Verdict.SUPPORTED,
                          variant="predictions permuted across runs (each run judged by another "
                                  "run's phases)", reason=f"{v.value}: {why}")


@phase_horizon.training_plan
def _phase_horizon_plan(ctx: Context, controls: bool) -> list:
    return _horizon_tasks(source_configs(ctx))

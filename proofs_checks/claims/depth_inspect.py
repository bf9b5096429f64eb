"""What trained diagonal models learned, read by the inspector (:mod:`seqtheory.models.inspector`),
against the mechanism of [DEPTH] (G. Heo et al., arXiv:2603.05573): a depth-k abelian model solves a
group of derived length k through the tower of abelian quotients of its derived series
(Theorem 3.4's construction; layer 1 reads ``G/G′``), and a layer whose phases miss the roots of
unity by ``δ`` per letter drifts by ``n·δ`` after ``n`` letters (docs/trained_recipes.md).

Both claims read runs the profile already trains (the training plans of ``depth.exp.word_problems``,
``depth.exp.s3_depth`` and ``depth.exp.parity``, through the claim registry), so ``verify`` trains
them once; the inspector never trains. The same runs' readings are evidence of the source claims
too: :func:`inspector_summary` (one row per run: predicted horizon, phase error, layer-1 character,
measured length) fills their table ``inspector`` and :func:`inspector_note` a sentence of their
notes; no decision rule reads them.

* ``depth.exp.phase_horizon``: across those runs, the inspector's predicted horizon (layer 1, decision
  margin π/m, :func:`seqtheory.models.inspector.predicted_horizon`) predicts the measured longest
  length with ≥ 90% held-out sequence accuracy (``max_len_90``). Rule (:func:`horizon_decide`, pure):
  over the runs with a finite prediction and an uncensored measurement (below the test length), at
  least :data:`MIN_RUNS`; supported when Spearman's ρ > 0 with one-sided p < :data:`ALPHA` and at
  least :data:`WITHIN_SHARE` of the runs measure within a factor :data:`FACTOR` of the prediction
  (``(pred + 1)/FACTOR ≤ measured + 1 ≤ FACTOR·(pred + 1)``); refuted when ρ ≤ 0 and fewer than
  that share lie within the factor; else inconclusive. Control: the same rule on the predictions
  permuted across runs by a seeded derangement (each run judged by another run's phases).
* ``depth.exp.abelian_tower``: in the depth-2 AUSSM runs on S3 and D8 that fit the training length
  (held-out sequence accuracy ≥ 0.9 at T), layer 1 carries a channel whose learned character is a
  non-trivial homomorphism (exact, Cayley table) constant on every coset of ``G′`` (it factors
  through ``G/G′``). Rule (:func:`tower_decide`, pure): supported when that holds in ≥ 80% of the
  fitted seeds (:data:`TOWER_RULE`); refuted when it holds in none of at least
  :data:`MIN_FITTED_REFUTE` fitted seeds; else inconclusive. Channels whose map is not a homomorphism
  are counted and reported. Control: the rule given wrong quotients (the left cosets of a non-normal
  subgroup of order 2, and the trivial quotient) must not support.
"""
from __future__ import annotations

import json
import math
from typing import Any

import numpy as np

from seqtheory.proofs_checks.rates import SeedRule, success_rate
from seqtheory.proofs_checks.registry import DEPTH, Context, ControlOutcome, Outcome, Verdict, claim, get_claim
from seqtheory.proofs_checks.training_runs import run_many, store

#: runs of these claims' plans are inspected (their union, each run once)
SOURCE_CLAIMS = ("depth.exp.word_problems", "depth.exp.s3_depth", "depth.exp.parity")
MIN_RUNS = 6            # usable (prediction, measurement) pairs for a decision
ALPHA = 0.05            # one-sided level of the rank-correlation test
FACTOR = 2.0            # "within a factor": (pred + 1)/2 ≤ measured + 1 ≤ 2 (pred + 1)
WITHIN_SHARE = 0.5      # share of usable runs within the factor for "supported"
FIT = 0.9               # held-out sequence accuracy at T that counts as fitting the training length
TOWER_RULE = SeedRule(min_rate=0.8, max_rate=0.0)
MIN_FITTED_REFUTE = 5   # fitted seeds needed before "none carries the character" refutes
TOWER_GROUPS = ("S3", "D8")


# ------------------------------------------------------------------------------------------------
# the runs and their inspections
# ------------------------------------------------------------------------------------------------
def inspectable(cfg) -> bool:
    """The run is a word problem over a finite group trained with a family the inspector reads
    (:data:`seqtheory.models.inspector.SUPPORTED_FAMILIES`)."""
    from seqtheory.models.inspector import SUPPORTED_FAMILIES

    return not cfg.is_rotation and cfg.model in SUPPORTED_FAMILIES


def source_configs(ctx: Context) -> list:
    """Word-problem runs of the source claims' plans (no controls), each once, in plan order, of
    the families the inspector reads."""
    seen, out = set(), []
    for cid in SOURCE_CLAIMS:
        for cfg in get_claim(cid).plan(ctx, False):
            if cfg.key not in seen and not cfg.shuffle_labels and inspectable(cfg):
                seen.add(cfg.key)
                out.append(cfg)
    return out


def _tower_configs(ctx: Context) -> list:
    return [c for c in source_configs(ctx) if c.task in TOWER_GROUPS and c.depth == 2]


def inspections(ctx: Context, cfgs: list) -> list[tuple[dict, Any]]:
    """``(result, Inspection)`` per run (trained once through the store when absent; read only
    from an evidence bundle); the models are loaded back from the store, the Lie algebras skipped."""
    results = run_many(ctx, cfgs)
    st = store(ctx)
    return [(r, _inspect_run(st, c, r)) for c, r in zip(cfgs, results)]


#: inspections already made in this process, by (store, run key, stored result, checkpoint file):
#: the check of ``depth.exp.phase_horizon``, its control and the source claims' inspector tables
#: read the same runs; an Inspection is frozen, so one reading serves them all
_INSPECTED: dict[tuple, Any] = {}
_INSPECTED_MAX = 1024


def _fingerprint(st, cfg, result: dict) -> tuple:
    """What an inspection of a stored run depends on: the store, the run key, the stored result
    and the checkpoint file (size and modification time; absent: None)."""
    try:
        ck = st.checkpoint_path(cfg).stat()
        ck_id = (ck.st_size, ck.st_mtime_ns)
    except (OSError, AttributeError):
        ck_id = None
    return (str(st.root), cfg.key, json.dumps(result, sort_keys=True, default=str), ck_id)


def _inspect_run(st, cfg, result: dict):
    """The :class:`~seqtheory.models.inspector.Inspection` of one stored run (no Lie algebras);
    made once per process for a given stored run (:data:`_INSPECTED`)."""
    from seqtheory.models.inspector import inspect
    from seqtheory.models.train import load_model

    fp = _fingerprint(st, cfg, result)
    if fp not in _INSPECTED:
        if len(_INSPECTED) >= _INSPECTED_MAX:
            _INSPECTED.clear()
        _INSPECTED[fp] = inspect(load_model(cfg, st), group=cfg.task, run_result=result, lie=False)
    return _INSPECTED[fp]


# ------------------------------------------------------------------------------------------------
# the inspector's summary per run, for the evidence of the source claims
# ------------------------------------------------------------------------------------------------
#: the fields of a row of :func:`inspector_summary`, in order
SUMMARY_FIELDS = ("key", "task", "model", "depth", "seed", "inspected", "predicted", "unbounded",
                  "prediction_note", "channel", "max_abs_delta_over_pi", "classes", "homomorphism",
                  "factors_through_abelianisation", "character_channels", "measured", "test_length")


def inspector_summary(ctx: Context, cfgs: list) -> list[dict]:
    """The inspector's reading of each run of ``cfgs`` (TrainConfigs of a claim's plan; results
    read through the store as the claim reads them, never trained beyond the plan), one row per
    run with the fields :data:`SUMMARY_FIELDS`:

    * ``key`` (12-character prefix), ``task``, ``model``, ``depth``, ``seed``; ``inspected``
      (False for a rotation task or a family without diagonal transitions, or when the model
      cannot be loaded: ``prediction_note`` says why and the inspector's fields are None);
    * ``predicted``: the predicted horizon (int, letters) or None, ``unbounded`` (exact roots and
      ``|λ| = 1``), ``prediction_note`` (the inspector's reason);
    * the reported layer-1 ``channel``: the one behind the prediction (a non-trivial homomorphic
      character; an unbounded one first, else the largest horizon), else the channel closest to a
      non-trivial character (a non-constant map first, then the largest homomorphism fraction,
      then the image order): ``max_abs_delta_over_pi``
      (max over the letters of ``|δ|/π``, δ the phase error to the nearest root of unity of an
      order dividing the exponent; numerical), ``classes`` (the token indices per root index k,
      ``"k=0: 0 2 5 | k=3: 1 3 4"``), ``homomorphism`` (``"yes"``, ``"yes, trivial"`` or
      ``"no (p/q of products)"``: exact on the Cayley table), ``factors_through_abelianisation``
      (``"yes"``/``"no"`` when a homomorphism: kernel ⊇ G′, exact; else None);
    * ``character_channels``: ``"a/b"`` layer-1 channels carrying a non-trivial homomorphic
      character; ``measured``: the run's ``max_len_90``, ``test_length`` (measured = test length
      is censored).

    Source: [DEPTH] (arXiv:2603.05573) §3 / Theorem 3.4 and :mod:`seqtheory.models.inspector`."""
    results = run_many(ctx, cfgs)
    st = store(ctx)
    rows = []
    for cfg, r in zip(cfgs, results):
        ins, why = None, f"not inspected: {cfg.task!r} with {cfg.model!r} (the inspector reads " \
                         "word problems of diagonal families)"
        if inspectable(cfg):
            try:
                ins = _inspect_run(st, cfg, r)
            except ValueError as exc:            # e.g. a bundle without the run's checkpoint
                why = f"not inspected: {exc}"
        rows.append(_summary_row(r, ins, why))
    return rows


def _character_channel(layer):
    chars = [c for c in layer.channels if c.nontrivial_character]
    if chars:
        return max(chars, key=lambda c: (c.horizon_unbounded, c.horizon or 0))
    return max(layer.channels, key=lambda c: (c.image_order > 1, c.hom_fraction, c.image_order))


def _summary_row(r: dict, ins, why: str) -> dict:
    row = dict.fromkeys(SUMMARY_FIELDS)
    row.update(_run_fields(r), inspected=ins is not None, prediction_note=why,
               measured=r["test"].get("max_len_90"), test_length=r["test"].get("test_length"))
    if ins is None:
        return row
    layer = ins.layers[0]
    ch = _character_channel(layer)
    frac = ch.hom_fraction
    hom = ("yes" if ch.image_order > 1 else "yes, trivial") if frac == 1 else \
        f"no ({frac.numerator}/{frac.denominator} of products)"
    row.update(predicted=ins.predicted_horizon, unbounded=ins.predicted_unbounded,
               prediction_note=ins.prediction_note, channel=ch.channel,
               max_abs_delta_over_pi=max(abs(d) for d in ch.phase_error) / math.pi,
               classes=" | ".join(f"k={k}: " + " ".join(map(str, toks)) for k, toks in ch.classes),
               homomorphism=hom,
               factors_through_abelianisation=None if ch.kernel_contains_next is None
               else ("yes" if ch.kernel_contains_next else "no"),
               character_channels=f"{layer.n_nontrivial}/{len(layer.channels)}")
    return row


def _median(xs) -> str:
    return f"{float(np.median(xs)):.3g}"


def inspector_note(rows: list[dict]) -> str:
    """One sentence on :func:`inspector_summary` rows: how many inspected runs carry a non-trivial
    homomorphic layer-1 character (and factor through G/G′), the median ``max|δ|/π`` of the
    reported channels, the predictions (finite, unbounded, none) against the measured lengths."""
    ins = [r for r in rows if r["inspected"]]
    if not ins:
        return f"inspector: none of the {len(rows)} runs could be inspected"
    chars = [r for r in ins if r["homomorphism"] == "yes"]
    finite = [r for r in ins if r["predicted"] is not None]
    unb = sum(r["unbounded"] for r in ins)
    pred = (f"predicted horizon finite in {len(finite)} (median {_median([r['predicted'] for r in finite])} "
            f"letters vs measured max_len_90 median {_median([r['measured'] for r in finite])})"
            if finite else "no finite predicted horizon")
    skipped = f"; {len(rows) - len(ins)} runs not inspected" if len(ins) < len(rows) else ""
    return (f"inspector (layer 1, per run in table 'inspector'): a non-trivial homomorphic character "
            f"in {len(chars)}/{len(ins)} runs ({sum(r['factors_through_abelianisation'] == 'yes' for r in chars)} "
            f"factoring through G/G′); median max|δ| of the reported channel "
            f"{_median([r['max_abs_delta_over_pi'] for r in ins])}·π; {pred}, unbounded in {unb}, "
            f"none in {len(ins) - len(finite) - unb}{skipped}")


# ------------------------------------------------------------------------------------------------
# depth.exp.phase_horizon
# ------------------------------------------------------------------------------------------------
def _run_fields(r: dict) -> dict:
    """The run's key prefix, task, model, depth and seed (from its stored result)."""
    c = r["config"]
    return {"key": r["key"][:12], "task": c["task"], "model": c["model"], "depth": c["depth"],
            "seed": c["seed"]}


def _horizon_rows(pairs: list[tuple[dict, Any]]) -> list[dict]:
    rows = []
    for r, ins in pairs:
        c = r["config"]
        rows.append({**_run_fields(r), "train_length": c["train_length"],
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


def horizon_decide(rows: list[dict]) -> tuple[Verdict, str, dict]:
    """Decision rule of ``depth.exp.phase_horizon`` (pure; module docstring). ``rows``: dicts with
    ``predicted`` (int or None), ``unbounded``, ``measured`` and ``test_length`` (ints). Returns
    ``(verdict, why, stats)``; ``ValueError`` for a row lacking a field."""
    from scipy.stats import spearmanr

    for r in rows:
        for f in ("predicted", "unbounded", "measured", "test_length"):
            if f not in r:
                raise ValueError(f"row {r!r} lacks {f!r}")
    use, skipped = _usable(rows)
    stats: dict[str, Any] = {"usable": len(use), "runs": len(rows), "skipped": skipped}
    if len(use) < MIN_RUNS:
        return Verdict.INCONCLUSIVE, (f"only {len(use)} of {len(rows)} runs carry a finite "
                                      f"prediction and an uncensored measurement (needs ≥ "
                                      f"{MIN_RUNS}; skipped: {skipped})"), stats
    pred = [r["predicted"] for r in use]
    meas = [r["measured"] for r in use]
    within = sum(_within(p, m) for p, m in zip(pred, meas)) / len(use)
    stats["within_factor_share"] = within
    if len(set(pred)) < 2 or len(set(meas)) < 2:
        return Verdict.INCONCLUSIVE, "predicted or measured horizons are all equal: no ranking", stats
    rho, p = spearmanr(pred, meas, alternative="greater")
    stats.update(spearman_rho=float(rho), p_one_sided=float(p))
    desc = (f"Spearman ρ = {rho:.2f} (one-sided p = {p:.3g}, n = {len(use)}), "
            f"{within:.0%} within a factor {FACTOR:g}")
    if rho > 0 and p < ALPHA and within >= WITHIN_SHARE:
        return Verdict.SUPPORTED, desc, stats
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


@claim(id="depth.exp.phase_horizon", title="Learned phase errors predict the extrapolation length",
       source=DEPTH("§3 (abelian layers track cyclic quotients by roots of unity); "
                    "docs/trained_recipes.md diagnosis"),
       uses_training=True,
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
            f"≥ {WITHIN_SHARE:.0%} within a factor {FACTOR:g}; refuted: ρ ≤ 0 and < "
            f"{WITHIN_SHARE:.0%} within")


horizon_decide = phase_horizon.decision_rule(horizon_decide)


@phase_horizon.control
def _phase_horizon_control(ctx: Context) -> ControlOutcome:
    rows = _horizon_rows(inspections(ctx, source_configs(ctx)))
    v, why, _ = horizon_decide(permuted_predictions(rows, ctx.numpy_seed("phase-horizon-control")))
    return ControlOutcome(rejected=v != Verdict.SUPPORTED,
                          variant="predictions permuted across runs (each run judged by another "
                                  "run's phases)", reason=f"{v.value}: {why}")


@phase_horizon.training_plan
def _phase_horizon_plan(ctx: Context, controls: bool) -> list:
    return source_configs(ctx)


# ------------------------------------------------------------------------------------------------
# depth.exp.abelian_tower
# ------------------------------------------------------------------------------------------------
def quotient_blocks(group: str, kind: str = "abelianisation") -> list[list[int]]:
    """Element indices of the blocks of a partition of the group ``group``: ``"abelianisation"``
    (cosets of ``G′``), ``"non_normal"`` (left cosets of a non-normal subgroup of order 2; a wrong
    quotient) or ``"trivial"`` (one block). ``ValueError`` for another kind or a group without a
    non-normal subgroup of order 2."""
    from seqtheory.theory.groups import FiniteGroup

    G = FiniteGroup.named(group)
    if kind == "trivial":
        return [list(range(G.order))]
    if kind == "abelianisation":
        H = G.commutator_subgroup()
    elif kind == "non_normal":
        H = next((K for g in G.elements if G.element_order(g) == 2
                  for K in [G.subgroup_generated([g])] if not G.is_normal(K)), None)
        if H is None:
            raise ValueError(f"group {group!r} has no non-normal subgroup of order 2")
    else:
        raise ValueError(f"kind must be 'abelianisation', 'non_normal' or 'trivial', got {kind!r}")
    return [sorted(G.index(x) for x in c) for c in G.cosets(H)]


def _tower_runs(pairs: list[tuple[dict, Any]]) -> list[dict]:
    out = []
    for r, ins in pairs:
        T = r["config"]["train_length"]
        layer = ins.layers[0]
        out.append({"key": r["key"][:12], "group": r["config"]["task"], "seed": r["config"]["seed"],
                    "train_length": T, "acc_at_T": float(r["test"]["prefix_seq_acc"][T - 1]),
                    "layer_class": layer.layer_class, "exponent": ins.exponent,
                    "maps": [list(c.root_index) for c in layer.channels]})
    return out


def tower_decide(runs: list[dict], blocks: dict[str, list[list[int]]]) -> tuple[Verdict, str, dict]:
    """Decision rule of ``depth.exp.abelian_tower`` (pure; module docstring). ``runs``: dicts with
    ``group``, ``acc_at_T``, ``exponent`` and ``maps`` (per layer-1 channel the root index of every
    token); ``blocks[group]``: the partition of the group's elements the characters must be
    constant on (the cosets of ``G′`` for the claim). A seed counts when some channel is a
    homomorphism (exact, Cayley table), non-trivial and constant on every block. Returns
    ``(verdict, why, stats)``."""
    from seqtheory.models.inspector import character_table_test
    from seqtheory.theory.groups import FiniteGroup

    fitted = [r for r in runs if r["acc_at_T"] >= FIT]
    flags, nonhom, channels = [], 0, 0
    for r in fitted:
        table = FiniteGroup.named(r["group"]).cayley_table()
        ok = False
        for m in r["maps"]:
            frac, order, _ = character_table_test(table, m, r["exponent"])
            channels += 1
            nonhom += frac != 1
            const = all(len({m[i] for i in b}) == 1 for b in blocks[r["group"]])
            ok |= frac == 1 and order > 1 and const
        flags.append(ok)
    stats: dict[str, Any] = {"fitted": len(fitted), "runs": len(runs), "channels": channels,
                             "non_homomorphism_channels": nonhom}
    if not fitted:
        return Verdict.INCONCLUSIVE, f"no run of {len(runs)} fits the training length (acc ≥ {FIT} at T)", stats
    rate = success_rate(flags)
    stats["rate"] = rate
    lo, hi = rate["wilson95"]
    desc = (f"{rate['successes']}/{rate['seeds']} fitted seeds [{lo:.2f}, {hi:.2f}] carry a "
            f"non-trivial layer-1 character constant on the quotient's blocks; {nonhom} of "
            f"{channels} layer-1 channels are not homomorphisms")
    if TOWER_RULE.succeeds(rate):
        return Verdict.SUPPORTED, desc, stats
    if TOWER_RULE.fails(rate) and len(fitted) >= MIN_FITTED_REFUTE:
        return Verdict.REFUTED, desc, stats
    return Verdict.INCONCLUSIVE, desc + (f" (needs ≥ {TOWER_RULE.required(len(fitted))}; refuting "
                                         f"needs none of ≥ {MIN_FITTED_REFUTE} fitted)"), stats


@claim(id="depth.exp.abelian_tower", title="Layer 1 of a trained depth-2 model reads G/G′",
       source=DEPTH("Theorem 3.4 (depth-k cascade through the derived series)"), uses_training=True,
       statement=("in trained depth-2 restricted (AUSSM) models that fit S3 and D8 at the training "
                  "length, layer 1 carries a non-trivial character that factors through the "
                  "abelianisation G/G′ (for S3 the sign) in at least 80% of the seeds"))
def abelian_tower(ctx: Context) -> Outcome:
    runs = _tower_runs(inspections(ctx, _tower_configs(ctx)))
    blocks = {g: quotient_blocks(g) for g in TOWER_GROUPS}
    verdict, why, stats = tower_decide(runs, blocks)
    return Outcome(verdict, why, evidence={"stats": stats, "quotient_blocks": blocks,
                                           "rule": TOWER_RULE.describe()},
                   tables={"runs": [{k: v for k, v in r.items() if k != "maps"} for r in runs]},
                   notes=(f"{why}. Layer class: restricted (AUSSM: complex unit-modulus diagonal "
                          "transitions plus an input bias). Characters: each channel's per-token "
                          "phases rounded to the nearest root of unity of an order dividing the "
                          "group's exponent (numerical), then tested exactly on the Cayley table."))


tower_decide = abelian_tower.decision_rule(tower_decide)


@abelian_tower.control
def _abelian_tower_control(ctx: Context) -> ControlOutcome:
    runs = _tower_runs(inspections(ctx, _tower_configs(ctx)))
    reasons, ok = [], True
    for kind in ("non_normal", "trivial"):
        v, why, _ = tower_decide(runs, {g: quotient_blocks(g, kind) for g in TOWER_GROUPS})
        ok &= v != Verdict.SUPPORTED
        reasons.append(f"{kind}: {v.value} ({why})")
    return ControlOutcome(rejected=ok, variant="wrong quotients: left cosets of a non-normal "
                                               "subgroup of order 2; the trivial quotient",
                          reason=" | ".join(reasons))


@abelian_tower.training_plan
def _abelian_tower_plan(ctx: Context, controls: bool) -> list:
    return _tower_configs(ctx)

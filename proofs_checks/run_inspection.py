"""The inspector's reading (:mod:`seqtheory.models.inspector`) of runs a claim's plan trains,
shared by the claims that read it: ``finding.phase_horizon`` and ``finding.abelian_tower``
(their experiments), and ``depth.exp.word_problems``, ``depth.exp.s3_depth``,
``finding.parity_negative_eigenvalues`` (whose evidence carries the reading of their own runs).

Against the mechanism of [DEPTH] (G. Heo et al., arXiv:2603.05573): a depth-k abelian model solves
a group of derived length k through the tower of abelian quotients of its derived series
(Theorem 3.4's construction; layer 1 reads ``G/G′``), and a layer whose phases miss the roots of
unity by ``δ`` per letter drifts by ``n·δ`` after ``n`` letters (docs/trained_recipes.md).

The inspected runs are those the profile already trains (the training plans of
:data:`SOURCE_CLAIMS`, through the claim registry), so ``verify`` trains them once; the inspector
never trains. :func:`inspector_summary` (one row per run: predicted horizon, phase error, layer-1
character, measured length) fills the source claims' table ``inspector`` and
:func:`inspector_note` a sentence of their notes; no decision rule reads them.
"""
from __future__ import annotations

import json
import math
from typing import Any

import numpy as np

from seqtheory.theory._messages import counted

from .registry import Context, get_claim
from .training_runs import run_many, store

__all__ = ["SOURCE_CLAIMS", "inspectable", "source_configs", "inspections", "run_fields",
           "SUMMARY_FIELDS", "inspector_summary", "inspector_note"]

#: runs of these claims' plans are inspected (their union, each run once)
SOURCE_CLAIMS = ("depth.exp.word_problems", "depth.exp.s3_depth", "finding.parity_negative_eigenvalues")


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


def inspections(ctx: Context, cfgs: list) -> list[tuple[dict, Any]]:
    """``(result, Inspection)`` per run (trained once through the store when absent; read only
    from an evidence bundle); the models are loaded back from the store, the Lie algebras skipped."""
    results = run_many(ctx, cfgs)
    st = store(ctx)
    return [(r, _inspect_run(st, c, r)) for c, r in zip(cfgs, results)]


#: inspections already made in this process, by (store, run key, stored result, checkpoint file):
#: the check of ``finding.phase_horizon``, its control and the source claims' inspector tables
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
    from seqtheory.models.training import load_model

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
                  "prediction_note", "character_status", "character", "max_abs_delta_over_pi",
                  "classes", "homomorphism", "factors_through_abelianisation", "characters_found",
                  "token_collisions", "measured", "test_length")


def inspector_summary(ctx: Context, cfgs: list) -> list[dict]:
    """The inspector's reading of each run of ``cfgs`` (TrainConfigs of a claim's plan; results
    read through the store as the claim reads them, never trained beyond the plan), one row per
    run with the fields :data:`SUMMARY_FIELDS`:

    * ``key`` (12-character prefix), ``task``, ``model``, ``depth``, ``seed``; ``inspected``
      (False for a rotation task or a family without diagonal transitions, or when the model
      cannot be loaded: ``prediction_note`` says why and the inspector's fields are None);
    * ``predicted``: the predicted horizon (int, letters) or None, ``unbounded`` (exact roots and
      ``|λ| = 1``), ``prediction_note`` (the inspector's reason);
    * ``character_status``: layer 1's ``"found"``, ``"cannot tell"`` or ``"none exists"``
      (:attr:`seqtheory.models.inspector.LayerReport.character_status`; never "absent");
    * the reported layer-1 ``character``: the one behind the prediction (an unbounded one first,
      else the largest horizon; ``"channel 3"``, ``"channels 1 − 4 up to a common offset …"``),
      else the channel closest to a non-trivial character (a non-constant map first, then the
      largest homomorphism fraction, then the image order; ``"channel 2 (closest, no
      character)"``): ``max_abs_delta_over_pi`` (max over the letters of ``|δ|/π``, δ the phase
      error to the nearest root of unity of an order dividing the exponent, after the offset;
      numerical), ``classes`` (the token indices per root index k, ``"k=0: 0 2 5 | k=3: 1 3 4"``),
      ``homomorphism`` (``"yes"``, ``"yes, trivial"`` or ``"no (p/q of products)"``: exact on the
      Cayley table), ``factors_through_abelianisation`` (``"yes"``/``"no"`` when a homomorphism:
      kernel ⊇ G′, exact; else None);
    * ``characters_found``: the layer-1 characters read, by kind (``"2 channel, 1 relative"``, or
      ``"0"``); ``token_collisions``: pairs of tokens with one layer-1 map; ``measured``: the
      run's ``max_len_90``, ``test_length`` (measured = test length is censored).

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


def _reported(layer) -> tuple[str, Any]:
    """The layer-1 character behind the prediction, else the channel closest to one."""
    if layer.characters:
        best = max(layer.characters, key=lambda c: (c.horizon_unbounded, c.horizon or 0))
        return best.describe(), best
    ch = max(layer.channels, key=lambda c: (c.image_order > 1, c.hom_fraction, c.image_order))
    return f"channel {ch.channel} (closest, no character)", ch


def _classes(root_index, tokens) -> str:
    classes: dict[int, list[int]] = {}
    for k, t in zip(root_index, tokens):
        classes.setdefault(int(k), []).append(int(t))
    return " | ".join(f"k={k}: " + " ".join(map(str, toks)) for k, toks in sorted(classes.items()))


def _summary_row(r: dict, ins, why: str) -> dict:
    row = dict.fromkeys(SUMMARY_FIELDS)
    row.update(run_fields(r), inspected=ins is not None, prediction_note=why,
               measured=r["test"].get("max_len_90"), test_length=r["test"].get("test_length"))
    if ins is None:
        return row
    layer = ins.layers[0]
    name, ch = _reported(layer)
    frac = getattr(ch, "hom_fraction", 1)
    hom = ("yes" if ch.image_order > 1 else "yes, trivial") if frac == 1 else \
        f"no ({frac.numerator}/{frac.denominator} of products)"
    kinds = [c.kind for c in layer.characters]
    row.update(predicted=ins.predicted_horizon, unbounded=ins.predicted_unbounded,
               prediction_note=ins.prediction_note, character_status=layer.character_status,
               character=name, max_abs_delta_over_pi=max(abs(d) for d in ch.phase_error) / math.pi,
               classes=_classes(ch.root_index, ch.tokens), homomorphism=hom,
               factors_through_abelianisation=None if ch.kernel_contains_next is None
               else ("yes" if ch.kernel_contains_next else "no"),
               characters_found=", ".join(f"{kinds.count(k)} {k}" for k in dict.fromkeys(kinds)) or "0",
               token_collisions=len(layer.token_collisions))
    return row


def _median(xs) -> str:
    return f"{float(np.median(xs)):.3g}"


def inspector_note(rows: list[dict]) -> str:
    """One sentence on :func:`inspector_summary` rows: in how many inspected runs layer 1 carries
    a character the inspector reads (and factors through G/G′), where it cannot tell, the median
    ``max|δ|/π`` of the reported characters, the predictions (finite, unbounded, none) against the
    measured lengths."""
    ins = [r for r in rows if r["inspected"]]
    if not ins:
        return f"inspector: {counted(len(rows), 'run')}, none could be inspected"
    chars = [r for r in ins if r["character_status"] == "found"]
    finite = [r for r in ins if r["predicted"] is not None]
    unb = sum(r["unbounded"] for r in ins)
    pred = (f"predicted horizon finite in {len(finite)} (median "
            f"{counted(_median([r['predicted'] for r in finite]), 'letter')} vs measured max_len_90 median {_median([r['measured'] for r in finite])})"
            if finite else "no finite predicted horizon")
    skipped = (f"; {counted(len(rows) - len(ins), 'run')} not inspected" if len(ins) < len(rows)
               else "")
    delta = (f"; median max|δ| of the characters read {_median([r['max_abs_delta_over_pi'] for r in chars])}·π"
             if chars else "")
    cannot = sum(r["character_status"] == "cannot tell" for r in ins)
    return (f"inspector (layer 1, per run in table 'inspector'): a character read in "
            f"{len(chars)}/{counted(len(ins), 'run')} ({sum(r['factors_through_abelianisation'] == 'yes' for r in chars)} "
            f"factoring through G/G′), cannot tell in {cannot} (no evidence of absence){delta}; "
            f"{pred}, unbounded in {unb}, none in {len(ins) - len(finite) - unb}{skipped}")


def run_fields(r: dict) -> dict:
    """The run's key prefix, task, model, depth and seed (from its stored result)."""
    c = r["config"]
    return {"key": r["key"][:12], "task": c["task"], "model": c["model"], "depth": c["depth"],
            "seed": c["seed"]}

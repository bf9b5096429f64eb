"""Audit ``audit.max_seq_len_mixed_lengths`` of the released code of [DEPTH] (Heo et al.,
arXiv:2603.05573; SPEC §3.1, dataset audits): with mixed training lengths (``strict_len=False``,
lengths 2..k, needed to train on lengths up to 128) the labels are right-padded and the prefix
accuracy at a position past a word's end keeps that word's final value, so a short word that is
right counts as right at every later position: the metric can report k + 1 for a model that is
wrong on every word longer than L < k. Experiment: models right up to L, L = 1..128, through the
released metric re-implemented exactly (:mod:`seqtheory.numerics.released_metric`). Decision:
:func:`mixed_lengths_decide`. Control: fixed-length training words.
"""
from __future__ import annotations

from typing import Any

from seqtheory.numerics.released_metric import (THRESHOLD, released_max_len,
                                                released_prefix_accuracies)
from seqtheory.theory._messages import counted

from ..registry import AUDIT, ControlOutcome, Outcome, Verdict, claim
from ..released_code import MAX_TRAIN_LENGTH, RELEASED_CODE, reimplemented


def mixed_length_rows(k: int, mixed: bool = True) -> list[dict[str, Any]]:
    """For each ``L = 1..k``: a model right on every token of words of length ≤ L and on the
    first L tokens of longer words, wrong on token L + 1. Training words: one per length
    ``2..k`` (``mixed``; equal numbers per length give the same fractions) or only length k.
    ``true_length``: the longest ℓ whose words of length ℓ are ≥ 90 % right (= L, or k);
    ``reported``: the released metric minus its BOS position."""
    lengths = list(range(2, k + 1)) if mixed else [k]
    rows = []
    for L in range(1, k + 1):
        words = [[t < L for t in range(n)] for n in lengths]
        reported = released_max_len(released_prefix_accuracies(words)) - 1
        rows.append({"L": L, "true_length": min(L, k), "reported_tokens": reported})
    return rows


@claim(
    id="audit.max_seq_len_mixed_lengths",
    premise=reimplemented("the metric train/max_seq_len_at_90 with mixed training lengths (label "
                          "template '[BOS] $A', pad_collate, cumulative_sequence_accuracies, "
                          "max_prefix_at_threshold)",
                          "seqtheory.numerics.released_metric"),
    title="With mixed training lengths the released max_seq_len_at_90 can report the full length "
          "for a model that fails on long words",
    source=AUDIT("[DEPTH] (arXiv:2603.05573) Figure 2 metric train/max_seq_len_at_90, released "
                 "code " + RELEASED_CODE),
    statement=("With mixed training lengths the released [DEPTH] max_seq_len_at_90 overstates: "
               "with words of every length 2..128 in equal numbers in a batch "
               "(strict_len=False), a padded word keeps its final prefix value at later "
               "positions, so for some L < 128 a model right on every word of length ≤ L and "
               "wrong on every longer word gets max_seq_len_at_90 − 1 (BOS removed) > L; the "
               "smallest such L is reported. A fact about the released code, its definitions "
               "re-implemented."),
)
def max_seq_len_mixed_lengths(ctx) -> Outcome:
    rows = mixed_length_rows(MAX_TRAIN_LENGTH)
    verdict, why = mixed_lengths_decide(rows)
    over = [r for r in rows if r["reported_tokens"] > r["true_length"]]
    return Outcome(
        verdict=verdict,
        key_figure=(f"lengths 2..{MAX_TRAIN_LENGTH}: reported length {MAX_TRAIN_LENGTH} (tokens) "
                    f"for every model right only up to L ≥ {over[0]['L'] if over else '—'}; "
                    f"{len(over)} of {counted(len(rows), 'model')} overstated"),
        evidence={"source": RELEASED_CODE, "threshold": str(THRESHOLD),
                  "smallest_overstated_L": over[0]["L"] if over else None,
                  "n_overstated": len(over), "n_models": len(rows)},
        tables={"models": [r for r in rows if r["L"] % 8 == 0 or r in over[:3]]},
        notes=(why + ". Exhaustive over L = 1..128, exact fractions. A word of length n ≤ L is "
               "right at every position and stays right past its end (padding is not valid, the "
               "cumulative counts stop), so past position L + 1 the prefix accuracy is the "
               "fraction (L − 1)/127 of words of length ≤ L, ≥ 0.9 once L ≥ 116. The metric is "
               "computed per batch; how the per-batch curves are combined (sfirah.metrics."
               "reduce_metrics, not part of the release) is unknown, and so is whether the runs "
               "behind [DEPTH] Figure 2 used equal numbers per length (the released data "
               "generator writes one file per length)."),
    )


@max_seq_len_mixed_lengths.decision_rule
def mixed_lengths_decide(rows: list[dict[str, Any]]) -> tuple[Verdict, str]:
    """``rows``: ``{"L", "true_length", "reported_tokens"}``. Confirmed iff some model's reported
    length (BOS removed) exceeds its true length (the metric overstates), naming the smallest
    such L; refuted if every model is reported at its true length; inconclusive without rows."""
    if not rows:
        return Verdict.INCONCLUSIVE, "no models evaluated"
    over = [r for r in rows if r["reported_tokens"] > r["true_length"]]
    if over:
        return Verdict.CONFIRMED, (f"{len(over)} of {counted(len(rows), 'model')} are overstated; from "
                                   f"L = {over[0]['L']} (true length) the metric reports "
                                   f"{over[0]['reported_tokens']}")
    under = [r for r in rows if r["reported_tokens"] != r["true_length"]]
    return Verdict.REFUTED, ("every model is reported at its true length" if not under else
                             f"no model is overstated ({len(under)} reported below)")


@max_seq_len_mixed_lengths.control
def _mixed_control(ctx) -> ControlOutcome:
    """The same metric on fixed-length training words (``strict_len=True``: all of length 128,
    no padding): nothing is carried past a word's end, so the rule must refute the claim."""
    rows = mixed_length_rows(MAX_TRAIN_LENGTH, mixed=False)
    verdict, why = mixed_lengths_decide(rows)
    return ControlOutcome(verdict is Verdict.REFUTED, "fixed-length training words (no padding)",
                          f"{verdict.value}: {why}", {"n_models": len(rows)})

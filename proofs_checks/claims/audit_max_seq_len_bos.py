"""Audit ``audit.max_seq_len_counts_bos`` of the released code of [DEPTH] (Heo et al.,
arXiv:2603.05573; SPEC §3.1, dataset audits): ``train/max_seq_len_at_90`` is the 1-based index of
the last position whose prefix accuracy is ≥ 0.9, over label sequences that begin with the
``[BOS]`` token (the tokenizer's template ``[BOS] $A`` is applied to the targets too): a word of k
group tokens predicted right reports k + 1. Experiment: every word length k ≤ 128 and every
prefix-correctness pattern through the released metric, re-implemented exactly
(:mod:`seqtheory.numerics.released_metric`). Decision: :func:`bos_decide`. Control: the package's
own metric (no BOS position).
"""
from __future__ import annotations

from typing import Any, Sequence

from seqtheory.numerics.released_metric import (THRESHOLD, released_max_len,
                                                released_prefix_accuracies)
from seqtheory.theory._messages import counted

from ..registry import AUDIT, ControlOutcome, Outcome, Verdict, claim
from ..released_code import MAX_TRAIN_LENGTH, RELEASED_CODE, reimplemented


def package_max_len(rows: Sequence[Sequence[bool]], threshold: float = 0.9) -> int:
    """The package's own metric (:func:`seqtheory.models.training.max_len_at`: no BOS position) on
    equal-length rows."""
    import numpy as np

    from seqtheory.models.training import max_len_at

    return max_len_at(np.array(rows, dtype=bool), threshold)


def bos_cases(k_max: int, metric: str = "released") -> list[dict[str, Any]]:
    """Every word length ``k ≤ k_max`` and every prefix-correctness pattern (right on the first
    ``j`` group tokens, wrong on token ``j + 1``): the length each metric reports."""
    cases = []
    for k in range(1, k_max + 1):
        for j in range(k + 1):
            row = [True] * j + [False] * (k - j)
            reported = (released_max_len(released_prefix_accuracies([row])) if metric == "released"
                        else package_max_len([row]))
            cases.append({"k": k, "tokens_right": j, "reported": reported})
    return cases


@claim(
    id="audit.max_seq_len_counts_bos",
    premise=reimplemented("the metric train/max_seq_len_at_90 (label template '[BOS] $A', "
                          "pad_collate, cumulative_sequence_accuracies, max_prefix_at_threshold)",
                          "seqtheory.numerics.released_metric"),
    title="The released metric max_seq_len_at_90 counts the BOS position",
    source=AUDIT("[DEPTH] (arXiv:2603.05573) Figure 2 metric train/max_seq_len_at_90, released "
                 "code " + RELEASED_CODE),
    statement=("max_seq_len_at_90 of the released [DEPTH] code counts the BOS position: for "
               "every word length k ≤ 128 and every word whose first j group tokens are predicted "
               "right it reports j + 1 (k + 1 for a word right throughout), because its label "
               "sequences begin with [BOS]. A fact about the released code, its definitions "
               "re-implemented."),
)
def max_seq_len_counts_bos(ctx) -> Outcome:
    cases = bos_cases(MAX_TRAIN_LENGTH)
    verdict, why = bos_decide(cases)
    return Outcome(
        verdict=verdict,
        key_figure=(f"{counted(len(cases), 'case')} (k = 1..{MAX_TRAIN_LENGTH}, every prefix pattern): "
                    f"reported − tokens right ∈ {sorted({c['reported'] - c['tokens_right'] for c in cases})}"
                    f"; a word of {MAX_TRAIN_LENGTH} right tokens reports "
                    f"{cases[-1]['reported']}"),
        evidence={"n_cases": len(cases), "source": RELEASED_CODE, "threshold": str(THRESHOLD),
                  "examples": [c for c in cases if c["k"] in (1, 2, MAX_TRAIN_LENGTH)][:8]},
        tables={"cases_k_le_3": [c for c in cases if c["k"] <= 3]},
        notes=(why + ". Exhaustive over the named range: every k = 1.."
               f"{MAX_TRAIN_LENGTH} and every j = 0..k (single-word batches; the offset comes "
               "from the label template, not from the batch). Exact integers. The source "
               "definitions are the released code's (" + RELEASED_CODE + "); the package's own "
               "max_len_90 (models.train.max_len_at) has no BOS position and reports j."),
    )


@max_seq_len_counts_bos.decision_rule
def bos_decide(cases: list[dict[str, Any]]) -> tuple[Verdict, str]:
    """``cases``: ``{"k", "tokens_right", "reported"}``. Confirmed iff every case reports
    ``tokens_right + 1`` (the BOS position is counted); refuted otherwise, with the offsets seen;
    inconclusive without cases."""
    if not cases:
        return Verdict.INCONCLUSIVE, "no cases evaluated"
    offsets = sorted({c["reported"] - c["tokens_right"] for c in cases})
    if offsets == [1]:
        return Verdict.CONFIRMED, (f"every one of {counted(len(cases), 'case')} reports one more than the "
                                   "number of right group tokens: the BOS position is counted")
    return Verdict.REFUTED, f"reported − tokens right takes the values {offsets}, not always 1"


@max_seq_len_counts_bos.control
def _bos_control(ctx) -> ControlOutcome:
    """The package's own metric (labels without a BOS position) on the same patterns: it does
    not count BOS, so the rule must refute the claim for it."""
    cases = bos_cases(16, metric="package")
    verdict, why = bos_decide(cases)
    return ControlOutcome(verdict is Verdict.REFUTED,
                          "labels without a BOS position (the package's models.train.max_len_at)",
                          f"{verdict.value}: {why}", {"n_cases": len(cases)})

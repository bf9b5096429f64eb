"""The prefix-accuracy metric of the released code of [DEPTH], re-implemented exactly.

Source: [DEPTH] G. Heo et al., arXiv:2603.05573, Figure 2 (``train/max_seq_len_at_90``); released
code github.com/kazuki-irie/lie-algebra-state-tracking, commit 62e3b48,
``state_tracking/src/utils.py`` (``cumulative_sequence_accuracies``) and
``state_tracking/src/main.py`` (``max_prefix_at_threshold``; labels built with the template
``[BOS] $A``, right-padded by ``pad_collate``).

The prefix accuracy is, per row, ``floor(cumulative correct / cumulative valid)`` over positions
whose label is not padding, averaged over rows; the reported length is ``i + 1`` for the last
position ``i`` whose accuracy is ≥ the threshold. Exact integers and fractions.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Sequence

from seqtheory.theory.contract import check_bool

__all__ = ["THRESHOLD", "released_prefix_accuracies", "released_max_len"]

#: the threshold of ``max_seq_len_at_90``
THRESHOLD = Fraction(9, 10)


def released_prefix_accuracies(rows: Sequence[Sequence[bool]], bos: bool = True) -> list[Fraction]:
    """``cumulative_sequence_accuracies`` of the released code, exactly. ``rows``: per word, the
    correctness of its group-token predictions (one bool per token, words may differ in length);
    ``bos``: the labels begin with a ``[BOS]`` position (predicted right). Rows are right-padded
    to the longest; a padded position is not valid, so a row keeps its last value there.
    Returns the accuracy per position (length: longest word + 1 with BOS)."""
    bos = check_bool("bos", bos)
    if not rows:
        raise ValueError("rows must hold at least one word")
    lab = [([True] if bos else []) + [bool(c) for c in r] for r in rows]
    width = max(len(r) for r in lab)
    if width == 0:
        raise ValueError("rows must hold at least one position")
    total = [0] * width
    for r in lab:
        good = valid = 0
        for p in range(width):
            if p < len(r):
                valid, good = valid + 1, good + r[p]
            total[p] += int(valid > 0 and good == valid)      # floor(good / valid)
    return [Fraction(t, len(lab)) for t in total]


def released_max_len(accuracies: Sequence[Fraction], threshold: Fraction = THRESHOLD) -> int:
    """``max_prefix_at_threshold``: ``i + 1`` for the last position ``i`` with accuracy ≥
    ``threshold`` (0 if none)."""
    return max((i + 1 for i, a in enumerate(accuracies) if a >= threshold), default=0)

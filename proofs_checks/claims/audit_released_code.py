"""Facts about the released code of [DEPTH] (Heo et al., arXiv:2603.05573) that change the numbers
it reports, each checked exactly on a re-implementation of the released definitions
(SPEC §3.1, dataset audits). Released code: github.com/kazuki-irie/lie-algebra-state-tracking,
commit 62e3b48, ``state_tracking/src/main.py``, ``main_regression.py`` and ``utils.py``.

* ``audit.rotation_start_orbit`` -- the rotation task starts every sequence at
  ``v0 = (1,1,1)/(‖(1,1,1)‖ + 1e-8)`` (``GroupV0Dataset._sample_v0``; its ``sample_mode``
  argument is never read) and moves it by the released A5 matrices
  (``h_t = M(x_t) h_{t-1}``). The states it can reach are the orbit of ``(1,1,1)`` under the group
  the released matrices generate: computed exactly over Q(√5), 20 points, not the sphere.
* ``audit.max_seq_len_counts_bos`` -- ``train/max_seq_len_at_90`` is the 1-based index of the
  last position whose prefix accuracy is ≥ 0.9, over label sequences that begin with the
  ``[BOS]`` token (the tokenizer's template ``[BOS] $A`` is applied to the targets too): a word of
  k group tokens predicted right reports k + 1.
* ``audit.max_seq_len_mixed_lengths`` -- with mixed training lengths (``strict_len=False``,
  lengths 2..k, needed to train on lengths up to 128) the labels are right-padded and the prefix
  accuracy at a position past a word's end keeps that word's final value, so a short word that
  is right counts as right at every later position: the metric can report k + 1 for a model that
  is wrong on every word longer than L < k.

The prefix accuracy (``cumulative_sequence_accuracies``) is, per row, ``floor(cumulative correct /
cumulative valid)`` over positions whose label is not padding, averaged over rows; the reported
length (``max_prefix_at_threshold``) is ``i + 1`` for the last position ``i`` whose accuracy is
≥ the threshold. Both are re-implemented here with exact integers / fractions.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Any, Sequence

from seqtheory.theory._messages import counted
from ..registry import AUDIT, ControlOutcome, Outcome, Verdict, claim

#: Where the released definitions live (repository, commit, files and functions).
RELEASED_CODE = ("github.com/kazuki-irie/lie-algebra-state-tracking @ 62e3b48: "
                 "state_tracking/src/main.py (get_dataset: TemplateProcessing '[BOS] $A' on "
                 "input and target; pad_collate; max_prefix_at_threshold), "
                 "state_tracking/src/utils.py (cumulative_sequence_accuracies), "
                 "state_tracking/src/main_regression.py (a5_generators, "
                 "build_group_representation_from_table, GroupV0Dataset._sample_v0, "
                 "target loop vv = M_t vv)")
THRESHOLD = Fraction(9, 10)
MAX_TRAIN_LENGTH = 128     # [DEPTH] Figure 2: models trained on lengths up to 128


# ================================================================ the released prefix metric
def released_prefix_accuracies(rows: Sequence[Sequence[bool]], bos: bool = True) -> list[Fraction]:
    """``cumulative_sequence_accuracies`` of the released code, exactly. ``rows``: per word, the
    correctness of its group-token predictions (one bool per token, words may differ in length);
    ``bos``: the labels begin with a ``[BOS]`` position (predicted right). Rows are right-padded
    to the longest; a padded position is not valid, so a row keeps its last value there.
    Returns the accuracy per position (length: longest word + 1 with BOS)."""
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


def package_max_len(rows: Sequence[Sequence[bool]], threshold: float = 0.9) -> int:
    """The package's own metric (:func:`seqtheory.models.train.max_len_at`: no BOS position) on
    equal-length rows."""
    import numpy as np

    from seqtheory.models.train import max_len_at

    return max_len_at(np.array(rows, dtype=bool), threshold)


# ================================================================ BOS
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


# ================================================================ mixed lengths
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


# ================================================================ rotation start vector
_Q5 = tuple  # an element a + b√5 of Q(√5), as (Fraction a, Fraction b)


def q5(expr) -> _Q5:
    """An exact sympy number ``a + b√5`` (a, b rational) as ``(Fraction(a), Fraction(b))``.
    ``ValueError`` for anything else."""
    import sympy

    e = sympy.expand(sympy.radsimp(expr))
    b = e.coeff(sympy.sqrt(5))
    a = sympy.expand(e - b * sympy.sqrt(5))
    if not (a.is_Rational and b.is_Rational):
        raise ValueError(f"expr must lie in Q(√5), got {expr!r}")
    return Fraction(int(a.p), int(a.q)), Fraction(int(b.p), int(b.q))


def _mul(x: _Q5, y: _Q5) -> _Q5:
    return x[0] * y[0] + 5 * x[1] * y[1], x[0] * y[1] + x[1] * y[0]


def _apply(M: tuple, v: tuple) -> tuple:
    out = []
    for row in M:
        a = b = Fraction(0)
        for m, x in zip(row, v):
            p = _mul(m, x)
            a, b = a + p[0], b + p[1]
        out.append((a, b))
    return tuple(out)


def orbit(matrices: list, start: Sequence[int], limit: int = 200) -> tuple[list, bool]:
    """The orbit of the integer vector ``start`` under the group generated by ``matrices``
    (exact sympy 3×3 over Q(√5)): breadth-first closure under every matrix, exact equality in
    Q(√5). Returns ``(points, closed)``; ``closed`` is False when ``limit`` points were exceeded
    (for a finite group the closure is the orbit, and ``closed`` certifies it)."""
    mats = {tuple(tuple(q5(M[i, j]) for j in range(3)) for i in range(3)) for M in matrices}
    v0 = tuple((Fraction(int(x)), Fraction(0)) for x in start)
    seen, queue = {v0}, [v0]
    while queue:
        v = queue.pop(0)
        for M in mats:
            w = _apply(M, v)
            if w not in seen:
                if len(seen) >= limit:
                    return list(seen), False
                seen.add(w)
                queue.append(w)
    return list(seen), True


def orbit_evidence(start: Sequence[int]) -> list[dict[str, Any]]:
    """The orbit of ``start`` under the released map, for both readings of its product ``x·g``:
    number of points, closure certificate, number of distinct matrices."""
    from seqtheory.theory.representations import paper_rotation_map

    rows = []
    for composition in ("x∘g", "g∘x"):
        m = paper_rotation_map(composition)
        distinct = {tuple(tuple(q5(M[i, j]) for j in range(3)) for i in range(3))
                    for M in m.images}
        pts, closed = orbit(m.images, start)
        rows.append({"reading": f"x·g = {composition}", "start": list(start),
                     "distinct_matrices": len(distinct), "orbit_points": len(pts),
                     "closed": closed})
    return rows


START = (1, 1, 1)     # v0 ∝ (1, 1, 1); the orbit does not depend on the positive scale


@claim(
    id="audit.rotation_start_orbit",
    title="The released rotation task visits 20 points, not the sphere",
    source=AUDIT("[DEPTH] (arXiv:2603.05573) A5 rotation task, released code " + RELEASED_CODE),
    statement=("The released [DEPTH] rotation task visits exactly 20 points: every sequence "
               "starts at v0 = (1,1,1)/√3 (up to the 1e-8 in its normalisation; the sample_mode "
               "argument is not used) and its targets h_t = M(x_t) h_{t-1} (released A5 "
               "matrices) lie in the orbit of v0 under the group those matrices generate, which "
               "has exactly 20 points under either reading of the released product x·g. A fact "
               "about the released code, its definitions re-implemented."),
)
def rotation_start_orbit(ctx) -> Outcome:
    rows = orbit_evidence(START)
    verdict, why = orbit_decide(rows, 20)
    return Outcome(
        verdict=verdict,
        key_figure="; ".join(f"{r['reading']}: {counted(r['orbit_points'], 'point')} "
                             f"({'closed' if r['closed'] else 'not closed'}), "
                             f"{counted(r['distinct_matrices'], 'distinct matrix', 'distinct matrices')}" for r in rows),
        evidence={"rows": rows, "source": RELEASED_CODE, "stated_orbit_size": 20},
        tables={"orbit": rows},
        notes=(why + ". Exact over Q(√5): the closure of (1,1,1) under every released matrix, "
               "with exact equality; a closed set containing v0 and mapped into itself by every "
               "generator is the orbit (certificate). The reachable targets are therefore 20 "
               "points (the vertices of a dodecahedron when the group is the icosahedral "
               "rotation group: (1,1,1) lies on a 3-fold axis, 60/3 = 20), so the task is a "
               "20-state tracking problem, not regression on the sphere."),
    )


@rotation_start_orbit.decision_rule
def orbit_decide(rows: list[dict[str, Any]], stated: int) -> tuple[Verdict, str]:
    """``rows``: per reading of the released map, the orbit size and whether the closure was
    reached. Inconclusive unless every closure was reached; confirmed iff every reading's orbit
    has exactly ``stated`` points; refuted otherwise, with the sizes."""
    if not rows or not all(r["closed"] for r in rows):
        return Verdict.INCONCLUSIVE, "the orbit closure was not reached"
    sizes = {r["reading"]: r["orbit_points"] for r in rows}
    if all(v == stated for v in sizes.values()):
        return Verdict.CONFIRMED, f"the orbit has exactly {counted(stated, 'point')} under every reading"
    return Verdict.REFUTED, f"orbit sizes {sizes}, not {stated}"


@rotation_start_orbit.control
def _orbit_control(ctx) -> ControlOutcome:
    """A start vector off every symmetry axis, (1, 2, 3): its orbit is a free orbit of the
    generated group, not 20 points, so the rule must refute the 20-point statement for it."""
    rows = orbit_evidence((1, 2, 3))
    verdict, why = orbit_decide(rows, 20)
    return ControlOutcome(verdict is Verdict.REFUTED, "start vector (1, 2, 3)/√14 (general position)",
                          f"{verdict.value}: {why}", {"rows": rows})

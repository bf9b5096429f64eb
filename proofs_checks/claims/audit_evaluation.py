"""Audit of the evaluation statistic of [DEPTH] Figure 2 (Heo et al., arXiv:2603.05573), SPEC §3.1.

* ``audit.fig2_training_accuracy`` -- premise, *sourced and not checked*: [DEPTH] Figure 2 plots
  sequence accuracy on the training words (the released code logs ``train/max_seq_len_at_90``,
  SPEC §3.1). What the check establishes, exactly, on the instances it names: training-word
  sequence accuracy cannot tell a memorising lookup model (it stores the label sequence of every
  training word and answers nothing on any other word) from the group itself -- both score 1.0 on
  the training words at every length checked -- while on held-out words the memoriser scores only
  the fraction of them that occur in the training sample (``1 - (1 - 60^-T)^N`` in expectation
  for N training words drawn uniformly from A5^T; 0 in the sample at the longer lengths) and the
  group 1.0. The verdict covers that check only, never what Figure 2 plots.

Sequence accuracy: a word counts as correct when every prefix label is right. Labels are prefix
products in the ``left`` convention of SPEC §2 (``g_t = x_t · g_{t-1}``); the audit does not
depend on the convention (both models see the same labels).
"""
from __future__ import annotations

from typing import Any

import mpmath
import numpy as np

from seqtheory.theory._messages import counted
from seqtheory.numerics.group_cascades import prefix_products
from seqtheory.theory.groups import FiniteGroup

from ..registry import AUDIT, ControlOutcome, Outcome, Premise, Verdict, claim
from seqtheory.theory.mp_precision import working_dps

DPS = 50


def prefix_labels(G: FiniteGroup, words: list[tuple[int, ...]]) -> list[tuple[int, ...]]:
    """Indices of the prefix products ``g_t = x_t · g_{t-1}`` (left convention) of each word of
    element indices (:func:`seqtheory.numerics.group_cascades.prefix_products` on ``G``'s Cayley
    table, whose indices are ``G.elements``')."""
    if not words:
        return []
    return [tuple(int(g) for g in row) for row in prefix_products(G.cayley_table(), np.array(words))]


def expected_seen_fraction(group_order: int, T: int, n_train: int) -> mpmath.mpf:
    """Probability that a uniform word of length T occurs among ``n_train`` independent uniform
    training words: ``1 - (1 - |G|^-T)^n_train`` (evaluated at :data:`DPS` digits)."""
    with working_dps(DPS):
        return 1 - (1 - mpmath.mpf(group_order) ** -T) ** n_train


def _accuracy(predict, words, labels) -> float:
    return sum(predict(w) == y for w, y in zip(words, labels)) / len(words)


def evaluation_rows(ctx, lengths: list[int], n_train: int, n_test: int) -> list[dict[str, Any]]:
    """For each length T: training and held-out sequence accuracy of the memoriser and of the
    true group model, and the memoriser's expected held-out accuracy."""
    G = FiniteGroup.named("A5")
    rows = []
    for T in lengths:
        rng = ctx.rng(f"audit.fig2:{T}")
        train = [tuple(rng.randrange(G.order) for _ in range(T)) for _ in range(n_train)]
        test = [tuple(rng.randrange(G.order) for _ in range(T)) for _ in range(n_test)]
        y_train, y_test = prefix_labels(G, train), prefix_labels(G, test)
        table = dict(zip(train, y_train))

        def memoriser(w):
            return table.get(w)

        def true_model(w):
            return group_labels[w]

        expected = expected_seen_fraction(G.order, T, n_train)
        group_labels = dict(zip(train + test, y_train + y_test))   # the group: every word's products
        rows.append({
            "T": T, "n_train": n_train, "n_test": n_test,
            "train_memoriser": _accuracy(memoriser, train, y_train),
            "train_true": _accuracy(true_model, train, y_train),
            "heldout_memoriser": _accuracy(memoriser, test, y_test),
            "heldout_true": _accuracy(true_model, test, y_test),
            "expected_heldout_memoriser": float(expected),
            "expected_heldout_memoriser_50_digits": mpmath.nstr(expected, 20),
        })
    return rows


#: (lengths, training words, held-out words) per profile; the statement names these instances.
QUICK_CONFIG = ([2, 3, 4, 8], 1500, 1000)
FULL_CONFIG = ([2, 3, 4, 6, 8, 16, 32], 3000, 3000)

FIG2_PREMISE = Premise(
    text=("[DEPTH] Figure 2 plots sequence accuracy on the training words: the released code "
          "logs the metric `train/max_seq_len_at_90`, computed on training batches"),
    source="released code of [DEPTH] (arXiv:2603.05573), as recorded in SPEC §3.1")


def _names(cfg: tuple[list[int], int, int]) -> str:
    """The instances of one profile, as the statement names them."""
    lengths, n_train, n_test = cfg
    return (f"{', '.join(map(str, lengths))} with N = {n_train} training and "
            f"{counted(n_test, 'held-out word')}")


def _config(ctx) -> tuple[list[int], int, int]:
    return QUICK_CONFIG if ctx.quick else FULL_CONFIG


def _with_statistic(rows: list[dict[str, Any]], stat: str) -> list[dict[str, Any]]:
    """The rows with the statistic under audit (``"train"`` or ``"heldout"``) named
    ``stat_memoriser`` / ``stat_true``."""
    return [{**r, "stat_memoriser": r[f"{stat}_memoriser"], "stat_true": r[f"{stat}_true"]}
            for r in rows]


@claim(
    id="audit.fig2_training_accuracy",
    title=("Training-word sequence accuracy cannot tell a memoriser from the group (the metric "
           "[DEPTH] Figure 2 plots, per its released code)"),
    source=AUDIT("[DEPTH] (arXiv:2603.05573) Figure 2; its metric as in the released code, "
                 "recorded in SPEC §3.1"),
    statement=("Training-word sequence accuracy cannot tell a memorising lookup model from the "
               "group on A5: at the lengths T = " + _names(QUICK_CONFIG) + " (full profile: T = "
               + _names(FULL_CONFIG) + ") both score 1 on the training words, while on held-out "
               "words the memoriser scores only the fraction it has seen and the group 1. So "
               "that metric cannot show length generalisation; held-out words are needed."),
    premise=FIG2_PREMISE,
    claim_version=2,  # v1 stated the premise about Figure 2 as part of what the check confirmed
)
def fig2_training_accuracy(ctx) -> Outcome:
    lengths, n_train, n_test = _config(ctx)
    rows = evaluation_rows(ctx, lengths, n_train, n_test)
    verdict, why = fig2_decide(_with_statistic(rows, "train"))
    return Outcome(
        verdict=verdict,
        key_figure=("training-word accuracy memoriser/group: "
                    + ", ".join(f"T={r['T']}: {r['train_memoriser']:.3f}/{r['train_true']:.3f}"
                                for r in rows)
                    + "; held-out memoriser/group: "
                    + ", ".join(f"T={r['T']}: {r['heldout_memoriser']:.3f}/"
                                f"{r['heldout_true']:.3f} (memoriser expected "
                                f"{r['expected_heldout_memoriser']:.3g})" for r in rows)),
        evidence={"lengths": lengths, "n_train": n_train, "n_test": n_test, "rows": rows,
                  "premise (sourced, not checked)": str(FIG2_PREMISE),
                  "what the verdict covers": "the two accuracies of the two models on the "
                                             "instances named; not what Figure 2 plots"},
        tables={"accuracy": rows},
        notes=(why + ". Exact: accuracies are counts over the sampled words; the memoriser's "
               "expected held-out accuracy is 1 - (1 - 60^-T)^N. The premise (Figure 2 plots "
               "this training-word metric) is sourced from the released code as recorded in "
               "SPEC §3.1 and is not checked here; the verdict covers only what the metric can "
               "and cannot tell apart."),
    )


def _consistent(r: dict[str, Any]) -> bool:
    """The memoriser's held-out accuracy agrees with its expectation within 4 binomial standard
    errors (plus one word)."""
    p, n = r["expected_heldout_memoriser"], r["n_test"]
    return abs(r["heldout_memoriser"] - p) <= 4 * (p * (1 - p) / n) ** 0.5 + 1 / n


@fig2_training_accuracy.decision_rule
def fig2_decide(rows: list[dict[str, Any]]) -> tuple[Verdict, str]:
    """Decision rule of ``audit.fig2_training_accuracy``. Rows per length T with the audited
    statistic for both models (``stat_memoriser``, ``stat_true``), their held-out accuracies
    and the memoriser's expected held-out accuracy.

    ``refuted`` if the statistic separates the memoriser from the group model at some T (then it
    does measure generalisation); ``inconclusive`` if the two models are not separated on
    held-out words at some T (the sample cannot tell them apart) or the memoriser's held-out
    accuracy is inconsistent with its expectation, or the group model does not score 1 on the
    training words (the baseline of the check: the group model is perfect there);
    ``confirmed`` otherwise: exact counts on the finite instances the statement names (it is
    about the metric, never about what [DEPTH] Figure 2 plots, which is a sourced premise).
    ``ValueError`` for an accuracy that is not a number in [0, 1]."""
    if not rows:
        return Verdict.INCONCLUSIVE, "no lengths evaluated"
    for r in rows:
        for key in ("stat_memoriser", "stat_true", "heldout_memoriser", "heldout_true"):
            v = r[key]
            if not (isinstance(v, (int, float)) and not isinstance(v, bool) and 0 <= v <= 1):
                raise ValueError(f"rows[T={r.get('T')}][{key!r}] must be an accuracy in [0, 1], "
                                 f"got {v!r}")
    imperfect = [r["T"] for r in rows if r["stat_true"] != 1]
    if imperfect:
        return (Verdict.INCONCLUSIVE, f"the group model does not score 1 on the training words "
                f"at T = {imperfect}: the check's baseline fails")
    sep = [r["T"] for r in rows if r["stat_memoriser"] != r["stat_true"]]
    if sep:
        return (Verdict.REFUTED, f"the statistic separates the memoriser from the group model "
                f"at T = {sep}")
    blind = [r["T"] for r in rows if not r["heldout_memoriser"] < r["heldout_true"]]
    if blind:
        return Verdict.INCONCLUSIVE, f"held-out words do not separate the models at T = {blind}"
    off = [r["T"] for r in rows if not _consistent(r)]
    if off:
        return Verdict.INCONCLUSIVE, f"memoriser held-out accuracy off its expectation at T = {off}"
    return (Verdict.CONFIRMED, "on the training words the metric is identical for the memoriser "
            f"and the group model at each T = {[r['T'] for r in rows]} (exact counts), while "
            "held-out words separate them: the metric cannot tell a memoriser from the group")


@fig2_training_accuracy.control
def _fig2_control(ctx) -> ControlOutcome:
    """The same rule on the held-out statistic (the one ``depth.prop3.7.trained`` uses): it
    separates the memoriser from the group model, so the claim 'this statistic cannot measure
    generalisation' must be rejected for it."""
    lengths, n_train, n_test = _config(ctx)
    rows = evaluation_rows(ctx, lengths, n_train, n_test)
    verdict, why = fig2_decide(_with_statistic(rows, "heldout"))
    return ControlOutcome(
        rejected=verdict is Verdict.REFUTED,
        variant="statistic = held-out sequence accuracy",
        reason=f"{verdict.value}: {why}",
        evidence={"rows": rows},
    )

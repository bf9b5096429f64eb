"""Audit of the word-problem datasets (SPEC §3.1 dataset audits): each task is the group it names.

Claim ``audit.task_identity``: the multiplication table recovered from each word-problem dataset
(C2, C3, D8, H3, S3, S4, A5; :data:`seqtheory.models.tasks.TASK_GROUPS`) is a group isomorphic to
the named group. Experiment: the Cayley table read off the training words and labels
(:func:`table_from_data`, ``left`` convention), validated as a group, tested for isomorphism
(:meth:`seqtheory.theory.groups.FiniteGroup.is_isomorphic`). Decision (:func:`identity_decide`,
pure): confirmed when every recovered table is its named group. Control: an ``H3`` task built over
Z/2 (the dihedral group of order 8), which must be refuted.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from seqtheory.proofs_checks.registry import AUDIT, Context, ControlOutcome, Outcome, Verdict, claim


def table_from_data(tokens: np.ndarray, labels: np.ndarray, n: int, identity: int,
                    convention: str = "left") -> np.ndarray:
    """Recover the Cayley table from word-problem data (``left``: ``g_t = x_t · g_{t−1}`` gives
    ``T[x_t, g_{t−1}] = g_t``). ``ValueError`` for contradictory data or unobserved cells."""
    T = np.full((n, n), -1, dtype=np.int64)
    prev = np.concatenate([np.full((len(labels), 1), identity), labels[:, :-1]], axis=1)
    a, b = (tokens, prev) if convention == "left" else (prev, tokens)
    a, b, c = a.ravel(), b.ravel(), labels.ravel()
    T[a, b] = c
    if (T[a, b] != c).any():
        raise ValueError("the data contradict a single multiplication table")
    if (T < 0).any():
        raise ValueError(f"{int((T < 0).sum())} products are not observed in the data")
    return T


def identify(name: str, ctx: Context, group_name: str | None = None) -> dict[str, Any]:
    """The group recovered from task ``name``'s training data (built over ``group_name`` when
    given): order, derived length, whether it is the named group, the task groups it is
    isomorphic to."""
    from seqtheory.models.tasks import TASK_GROUPS, WordProblemSpec, make_word_problem
    from seqtheory.theory.groups import FiniteGroup

    built = group_name or name
    n = FiniteGroup.named(built).order
    d = make_word_problem(WordProblemSpec(built, train_length=8, n_train=min(n ** 8 // 2, 8000),
                                          n_test=8, seed=ctx.numpy_seed("audit") % 2**31))
    G = FiniteGroup.from_cayley_table(table_from_data(d.train_tokens, d.train_labels, d.group.order,
                                                      d.group.identity_index, d.spec.convention))
    iso = [c for c in TASK_GROUPS + ("H3(2)", "Q8", "A4") if FiniteGroup.named(c).is_isomorphic(G)]
    return {"task": name, "order": G.order, "derived_length": G.derived_length,
            "isomorphic_to_claimed": bool(FiniteGroup.named(name).is_isomorphic(G)),
            "isomorphic_to": iso}


@claim(id="audit.task_identity", title="Each word-problem task is the group it claims to be",
       source=AUDIT("§3.1 dataset audits: task group identification"),
       statement="the multiplication table recovered from each word-problem dataset (C2, C3, D8, H3, "
                 "S3, S4, A5) is a group isomorphic to the named group")
def task_identity(ctx: Context) -> Outcome:
    from seqtheory.models.tasks import TASK_GROUPS

    rows = [identify(g, ctx) for g in TASK_GROUPS]
    verdict, why = identity_decide(rows, list(TASK_GROUPS))
    return Outcome(verdict, f"{sum(r['isomorphic_to_claimed'] for r in rows)}/{len(rows)} task groups identified",
                   tables={"identity": [dict(r, isomorphic_to=", ".join(r["isomorphic_to"])) for r in rows]},
                   notes=why + "; table recovered from the training data (left convention), validated "
                               "as a group (associativity on all triples), then tested for isomorphism")


@task_identity.decision_rule
def identity_decide(rows: list[dict], named: list[str]) -> tuple[Verdict, str]:
    """``rows``: per recovered task, ``{"task", "isomorphic_to_claimed"}``; ``named``: the tasks
    the statement names. Refuted when a recovered table is not isomorphic to its named group,
    naming the tasks; inconclusive when a named task was not recovered (nothing can be said of
    it); confirmed when every named task is its group (exhaustive over the named tasks)."""
    bad = [r["task"] for r in rows if not r["isomorphic_to_claimed"]]
    if bad:
        return Verdict.REFUTED, f"not the named group: {bad}"
    missing = [t for t in named if t not in {r["task"] for r in rows}]
    if missing or not named:
        return Verdict.INCONCLUSIVE, f"not recovered: {missing or 'no task named'}"
    return Verdict.CONFIRMED, f"every named task ({', '.join(named)}) is the group it names"


@task_identity.control
def _task_identity_control(ctx: Context) -> ControlOutcome:
    row = identify("H3", ctx, group_name="H3(2)")         # an 'H3' task built over Z/2
    v, why = identity_decide([row], ["H3"])
    return ControlOutcome(rejected=v != Verdict.CONFIRMED, variant="'H3' task built over Z/2",
                          reason=f"{v.value}: {why}; recovered group of order {row['order']} is "
                                 f"isomorphic to {row['isomorphic_to']}")

"""The twin runs of the float Lie path's a-posteriori rule
(:mod:`seqtheory.theory.float_rank`): a computation is run on the input and on :data:`TWINS`
twins (every entry multiplied by ``1 + TWIN_PERTURBATION r``, :func:`twin`), each with its
decisions recorded; the runs are repeated with raised levels where the twins measure noise among
the kept values (:func:`twin_runs`), and certified decision by decision (:func:`certify`), else
:class:`~seqtheory.theory.float_rank.NumericalRankError`.
"""
from __future__ import annotations

from typing import Any, Callable

import numpy as np

from .float_rank import (TWIN_PERTURBATION, NumericalRankError, compare_decision_logs,
                         raised_levels, recording_decisions)

__all__ = ["TWINS", "twin", "twin_runs", "twin_refusals", "twin_error", "certify"]


TWINS = 2   # perturbed twin runs of the float path's a-posteriori rule


def twin(data: np.ndarray, k: int) -> np.ndarray:
    """Twin ``k`` of the float input: every entry multiplied by ``1 + TWIN_PERTURBATION r``,
    ``r`` uniform in [-1, 1] from a generator seeded by ``k`` (zeros stay zero)."""
    r = np.random.default_rng(1000 + k).uniform(-1.0, 1.0, data.shape)
    return data * (1.0 + TWIN_PERTURBATION * r)


_MAX_PASSES = 6   # repetitions of the twin runs with raised levels (raised_levels)


def twin_runs(run: Callable[[int], Any],
              restore: Callable[[], None] | None = None) -> tuple[list, list]:
    """Run ``run(k)`` for the input (``k = 0``) and its :data:`TWINS` twins, each with its
    decisions recorded; returns ``([(result or None, ValueError or None), ...], logs)``. When
    the twins measure noise among the kept values of a decision
    (:func:`~seqtheory.theory.float_rank.raised_levels`), the runs are repeated with that
    decision's level raised between the measured noise and the signal (at most
    :data:`_MAX_PASSES` times; ``restore()`` is called before a repetition, e.g. to drop what
    the runs cached, so cached terms are recomputed). Certification is the caller's
    (:func:`certify`)."""
    levels: dict[int, float] = {}
    for rep in range(_MAX_PASSES):
        outs, logs = [], []
        for k in range(TWINS + 1):
            with recording_decisions(levels) as log:
                try:
                    outs.append((run(k), None))
                except ValueError as exc:
                    outs.append((None, exc))
            logs.append(log)
        nxt = raised_levels(logs[0], logs[1:], levels)
        if nxt is None or rep == _MAX_PASSES - 1:
            break
        levels = nxt
        if restore is not None:
            restore()
    return outs, logs


def twin_refusals(tol: float, rest: list) -> None:
    """Raise the a-posteriori rule's error when a twin run refused (``rest``: the twins'
    ``(result, error)`` pairs of :func:`twin_runs`)."""
    for _, exc in rest:
        if isinstance(exc, NumericalRankError):
            raise twin_error(tol, f"a twin run refused: {exc}") from exc


def twin_error(tol: float, why: str) -> NumericalRankError:
    """The a-posteriori rule's refusal, with the reason ``why``."""
    why = why.split(". Pass exact entries")[0]
    return NumericalRankError("mats", 0.0, tol, 0.0, np.zeros(0), message=(
        f"the a-posteriori rule (the computation repeated on the input with every entry "
        f"perturbed by up to {TWIN_PERTURBATION:g} relative) does not certify the answer: {why}. "
        f"Pass exact entries (ints, Fractions, sympy numbers) for the exact path"))


def certify(tol: float, log: list, logs: list) -> None:
    """Raise the a-posteriori rule's error unless the twin logs certify ``log``."""
    _gap, why = compare_decision_logs(log, logs, tol)
    if why is not None:
        raise twin_error(tol, why)

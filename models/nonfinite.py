"""Non-finite inputs in the parallel (chunked, masked) forms of the sequence layers.

A parallel form mixes the time steps of a chunk in matrix products whose causal mask is a zero
coefficient, and ``0 · NaN = NaN``: without care, a NaN or ``±inf`` at step ``s`` turns the outputs
of every earlier step of its chunk (and, in the backward pass, their gradients) into NaN, although
the step-by-step recurrence never reads step ``s`` before it. The parallel forms therefore run on
inputs whose non-finite entries are replaced by a finite stand-in, and the outputs from the first
non-finite input on are set to NaN afterwards (``masked_fill``, which multiplies nothing):

* outputs before the first non-finite input of their batch element and head equal the
  step-by-step reference's, and so do their gradients;
* from that input on the outputs are NaN. The reference gives NaN or ``±inf`` there, or keeps
  finite the channels a value does not reach; after an undefined input these outputs are
  undefined, and the parallel form says so with NaN in every channel.

Inputs come in three kinds: *carried* ones enter the state (keys, values, input injections,
gates), and a bad one poisons its step and every later step; *read* ones (queries, read-out
vectors) only poison their own step; *log gates* (``log a``, ``log α``) are carried, but ``-inf``
is a valid gate (``a = 0``, a saturated decay) and only NaN and ``+inf`` are bad.
Every tensor has the layout ``(B, T, H, ...)``.
"""
from __future__ import annotations

from contextlib import contextmanager
from typing import Sequence

import torch

__all__ = ["finite_stand_ins", "poison_after", "unchecked", "is_checked"]

_CHECKED = [True]


@contextmanager
def unchecked():
    """Within the block, :func:`finite_stand_ins` checks nothing (the tensors come back as they
    are and ``poisoned`` is ``None``, as when a check finds nothing bad) and :func:`poison_after`
    returns ``y``. With finite inputs the layers run the same operations as checked (bit for
    bit the same values, gradients included), without the checks' cost (masks, cumulative sums,
    a read of a device value per layer); with a non-finite input the parallel forms spread NaN
    over its whole chunk. For training steps whose loss is then checked (a poisoned output is NaN, so a
    non-finite layer input makes the loss non-finite either way) and redone checked when it is
    not finite; see :func:`seqtheory.models.recipe.checked_if_nonfinite`. Not thread-safe (one
    flag per process)."""
    _CHECKED.append(False)
    try:
        yield
    finally:
        _CHECKED.pop()


def is_checked() -> bool:
    """Whether the layers check their inputs now (False inside :func:`unchecked`)."""
    return _CHECKED[-1]


def _split(t: torch.Tensor | None, log_gate: bool):
    """``(t with its bad entries replaced by 0, (B, T, H) bool: steps holding a bad entry)``;
    ``(None, None)`` for ``None``."""
    if t is None:
        return None, None
    bad = (torch.isnan(t) | (t == float("inf"))) if log_gate else ~torch.isfinite(t)
    steps = bad.flatten(3).any(-1) if bad.ndim > 3 else bad
    return t.masked_fill(bad, 0.0), steps


def _any_bad(flags: list[torch.Tensor]) -> bool:
    """Whether any flag is set (one read of a device value). Under ``torch.func`` transforms,
    which cannot branch on a value, True (the masking path is exact when nothing is bad)."""
    if not flags:
        return False
    found = flags[0].any() if len(flags) == 1 else torch.stack([f.any() for f in flags]).any()
    try:
        return bool(found)
    except RuntimeError:                       # data-dependent control flow under vmap
        return True


def finite_stand_ins(carried: Sequence[torch.Tensor | None], read: Sequence[torch.Tensor | None] = (),
                     log_gates: Sequence[torch.Tensor | None] = ()):
    """``(carried', read', log_gates', poisoned)``: each tensor with its bad entries replaced by
    0 (a gate of ``log a = 0``), in the order given (``None`` stays ``None``), and ``poisoned``
    ``(B, T, H)`` bool, true from the first bad carried input or log gate of a batch element and
    head on, and at every step whose read input is bad (see the module docstring). When no entry
    is bad, and always inside :func:`unchecked`: the tensors themselves and ``poisoned = None``
    (so with finite inputs the checked and unchecked layers run the same operations)."""
    if not _CHECKED[-1]:
        return list(carried), list(read), list(log_gates), None
    c = [_split(t, False) for t in carried]
    g = [_split(t, True) for t in log_gates]
    r = [_split(t, False) for t in read]
    if not _any_bad([f for _, f in c + g + r if f is not None]):
        return list(carried), list(read), list(log_gates), None
    flags = [f for _, f in c + g if f is not None]
    poisoned = flags[0]
    for f in flags[1:]:
        poisoned = poisoned | f
    poisoned = poisoned.to(torch.int32).cumsum(1) > 0
    for _, f in r:
        if f is not None:
            poisoned = poisoned | f
    return [t for t, _ in c], [t for t, _ in r], [t for t, _ in g], poisoned


def poison_after(y: torch.Tensor, poisoned: torch.Tensor | None) -> torch.Tensor:
    """``y`` (``(B, T, H, ...)``) with NaN at every poisoned step (``poisoned`` ``(B, T, H)``;
    ``None``, nothing poisoned or from :func:`unchecked`: ``y`` itself)."""
    if poisoned is None:
        return y
    mask = poisoned.reshape(*poisoned.shape, *([1] * (y.ndim - 3)))
    return y.masked_fill(mask, float("nan"))

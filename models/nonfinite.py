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
    """Within the block, :func:`finite_stand_ins` checks nothing (each tensor comes back through a
    mask that replaces nothing, so with the values, layout and backward pass of a stand-in that
    found nothing bad, and ``poisoned`` is ``None``) and :func:`poison_after` returns ``y`` the same
    way. With finite inputs the layers compute exactly
    what they compute checked; with a non-finite one the parallel forms spread NaN over its whole
    chunk. For training steps whose loss is then checked (a poisoned output is NaN, so a
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


_NO = torch.zeros((), dtype=torch.bool)


def _unmasked(t: torch.Tensor | None) -> torch.Tensor | None:
    """``t`` through a mask that replaces nothing: the values, layout and backward pass of a
    stand-in (or poisoning) that found nothing to replace."""
    return None if t is None else t.masked_fill(_NO.to(t.device), 0.0)


def finite_stand_ins(carried: Sequence[torch.Tensor | None], read: Sequence[torch.Tensor | None] = (),
                     log_gates: Sequence[torch.Tensor | None] = ()):
    """``(carried', read', log_gates', poisoned)``: each tensor with its bad entries replaced by
    0 (a gate of ``log a = 0``), in the order given (``None`` stays ``None``), and ``poisoned``
    ``(B, T, H)`` bool, true from the first bad carried input or log gate of a batch element and
    head on, and at every step whose read input is bad (see the module docstring); inside
    :func:`unchecked` the tensors as they are (contiguous) and ``poisoned = None``."""
    if not _CHECKED[-1]:
        return [_unmasked(t) for t in carried], [_unmasked(t) for t in read], \
            [_unmasked(t) for t in log_gates], None
    c = [_split(t, False) for t in carried]
    g = [_split(t, True) for t in log_gates]
    r = [_split(t, False) for t in read]
    flags = [f for _, f in c + g if f is not None]
    poisoned = flags[0]
    for f in flags[1:]:
        poisoned = poisoned | f
    poisoned = poisoned.to(torch.int32).cumsum(1) > 0
    for _, f in r:
        if f is not None:
            poisoned = poisoned | f
    return [t for t, _ in c], [t for t, _ in r], [t for t, _ in g], poisoned


def poison_after(y: torch.Tensor, poisoned: torch.Tensor) -> torch.Tensor:
    """``y`` (``(B, T, H, ...)``) with NaN at every poisoned step (``poisoned`` ``(B, T, H)``;
    ``None``, from :func:`unchecked`: ``y`` as it is, contiguous)."""
    if poisoned is None:
        return _unmasked(y)
    mask = poisoned.reshape(*poisoned.shape, *([1] * (y.ndim - 3)))
    return y.masked_fill(mask, float("nan"))

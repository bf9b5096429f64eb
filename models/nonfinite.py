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

from typing import Sequence

import torch

__all__ = ["finite_stand_ins", "poison_after"]


def _split(t: torch.Tensor | None, log_gate: bool):
    """``(t with its bad entries replaced by 0, (B, T, H) bool: steps holding a bad entry)``;
    ``(None, None)`` for ``None``."""
    if t is None:
        return None, None
    bad = (torch.isnan(t) | (t == float("inf"))) if log_gate else ~torch.isfinite(t)
    steps = bad.flatten(3).any(-1) if bad.ndim > 3 else bad
    return t.masked_fill(bad, 0.0), steps


def finite_stand_ins(carried: Sequence[torch.Tensor | None], read: Sequence[torch.Tensor | None] = (),
                     log_gates: Sequence[torch.Tensor | None] = ()):
    """``(carried', read', log_gates', poisoned)``: each tensor with its bad entries replaced by
    0 (a gate of ``log a = 0``), in the order given (``None`` stays ``None``), and ``poisoned``
    ``(B, T, H)`` bool, true from the first bad carried input or log gate of a batch element and
    head on, and at every step whose read input is bad (see the module docstring)."""
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
    """``y`` (``(B, T, H, ...)``) with NaN at every poisoned step (``poisoned`` ``(B, T, H)``)."""
    mask = poisoned.reshape(*poisoned.shape, *([1] * (y.ndim - 3)))
    return y.masked_fill(mask, float("nan"))

"""The per-step training recipe of a :class:`~seqtheory.models.training.TrainConfig`, shared by the
training engines (:func:`seqtheory.models.training.train`, one run at a time, and
:func:`seqtheory.models.batched.train_batched`, many runs in one stacked step).

A run is defined by these pieces, so every engine must use them unchanged:

* :func:`seed_all` — python, numpy and torch seeded from ``cfg.seed`` before the model is built
  (the parameter initialisation of the run);
* :func:`lr_factor` — linear warm-up over ``cfg.warmup`` steps, then cosine decay to 0 at
  ``cfg.steps`` (the multiplier of ``cfg.lr`` used by optimizer step ``step``, 0-based);
* :func:`task_loss` — cross-entropy (classification, logits cast to float32) or mean squared
  error (regression);
* :func:`run_dtype` — float64 for ``precision="fp64"``, else float32;
* :func:`checked_if_nonfinite` — a step's forward pass runs with the layers' non-finite checks
  off (:func:`seqtheory.models.nonfinite.unchecked`) and again with them on when its loss is not
  finite, so every step computes what the checked layers compute.

The formulas are those of ``seqtheory.models.training`` (code revision 2).
"""
from __future__ import annotations

import math
import random
from typing import Callable

import numpy as np
import torch
import torch.nn.functional as F

from ._checks import check_int
from .nonfinite import unchecked

__all__ = ["seed_all", "lr_factor", "task_loss", "task_losses", "run_dtype", "train_arrays",
           "jsonable", "checked_if_nonfinite"]


def seed_all(seed: int) -> None:
    """Seed python's ``random``, numpy's global generator and torch from ``seed`` (an int ≥ 0)."""
    seed = check_int("seed", seed, 0)
    random.seed(seed)
    np.random.seed(seed % 2**32)
    torch.manual_seed(seed)


def lr_factor(cfg, step: int) -> float:
    """Multiplier of ``cfg.lr`` at optimizer step ``step`` (0-based): ``(step+1)/warmup`` during
    the warm-up, then ``½(1 + cos(π·min(1, (step − warmup)/max(1, steps − warmup))))``."""
    step = check_int("step", step, 0)
    if cfg.warmup and step < cfg.warmup:
        return (step + 1) / cfg.warmup
    prog = (step - cfg.warmup) / max(1, cfg.steps - cfg.warmup)
    return 0.5 * (1.0 + math.cos(math.pi * min(1.0, prog)))


def task_loss(out: torch.Tensor, y: torch.Tensor, regression: bool) -> torch.Tensor:
    """Mean loss of outputs ``out (B, T, C)`` against targets ``y``: MSE for ``regression``
    (float32 unless ``out`` is float64), else cross-entropy over ``C`` classes with labels
    ``y (B, T)`` (logits cast to float32). The one-run case of :func:`task_losses` (the same
    operations, so one run trained alone and in a stacked group computes the same loss)."""
    return task_losses(out[None], y[None], regression)[0]


def task_losses(out: torch.Tensor, y: torch.Tensor, regression: bool) -> torch.Tensor:
    """:func:`task_loss` of each run of a stacked batch, ``(R,)``: outputs ``out (R, B, T, C)``
    against targets ``y`` (``(R, B, T)`` labels or ``(R, B, T, C)`` regression targets), computed
    by one loss call over all runs (per-element losses, then each run's mean)."""
    R = out.shape[0]
    if regression:
        o, t = (out, y) if out.dtype == torch.float64 else (out.float(), y.float())
        return F.mse_loss(o, t, reduction="none").reshape(R, -1).mean(1)
    per = F.cross_entropy(out.float().reshape(-1, out.shape[-1]), y.reshape(-1), reduction="none")
    return per.reshape(R, -1).mean(1)


def checked_if_nonfinite(forward: Callable[[], tuple]) -> tuple:
    """``forward()`` (a pure function returning ``(outputs, loss)``, ``loss`` a tensor of one or
    more losses) run inside :func:`seqtheory.models.nonfinite.unchecked`; when a loss is not
    finite, ``forward()`` again with the layers' checks on, and that result.

    Why this is the checked forward pass: with finite layer inputs the unchecked layers compute
    exactly what the checked ones compute (a check that finds nothing leaves the tensors as they
    are: the same operations run), and a non-finite layer input makes the loss non-finite either way (checked, the outputs from it on
    are NaN; unchecked, NaN spreads over its chunk), so such a step is recomputed checked. The
    checks cost a sizeable share of a small model's step (isfinite, masks and a read of a
    device value in every layer). The one read here (is the loss finite?) is the step's one
    host synchronisation on a GPU."""
    with unchecked():
        out, loss = forward()
    if bool(torch.isfinite(loss.detach()).all()):
        return out, loss
    return forward()


def run_dtype(cfg) -> torch.dtype:
    """Parameter dtype of run ``cfg``: float64 for ``fp64``, float32 otherwise (bf16 = autocast)."""
    return torch.float64 if cfg.precision == "fp64" else torch.float32


def train_arrays(data, cfg):
    """``(train_tokens, train_targets, test_tokens, test_targets)`` of a task dataset: targets
    are the rotated vectors for rotation tasks, the class labels for word problems."""
    if cfg.is_rotation:
        return data.train_tokens, data.train_targets, data.test_tokens, data.test_targets
    return data.train_tokens, data.train_labels, data.test_tokens, data.test_labels


def jsonable(metadata: dict) -> dict:
    """A dataset's ``metadata`` with numpy scalars as python numbers and tuples as lists
    (nested dicts converted too), for the JSON result of a run."""
    out = {}
    for k, v in metadata.items():
        if isinstance(v, dict):
            out[k] = jsonable(v)
        elif isinstance(v, np.generic):
            out[k] = v.item()
        elif isinstance(v, tuple):
            out[k] = list(v)
        else:
            out[k] = v
    return out

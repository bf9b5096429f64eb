"""The forward pass of a batched training step, eager or through ``torch.compile``.

:func:`step_forward` returns ``(xb, yb) → (outputs, per-run losses)`` of a stacked model
(:mod:`seqtheory.models.stacking`). With a compile backend the function is compiled once per
input shape (``dynamic=False``: static shapes, so on CUDA the ``"inductor"`` backend records the
step as CUDA graphs, ``mode="reduce-overhead"``; the backward pass is compiled with it). Guarded:

* only the unchecked pass is compiled (:func:`seqtheory.models.nonfinite.unchecked`, the pass of
  every finite step); the checked recomputation after a non-finite loss runs eagerly;
* a compiler failure warns once and the step runs eagerly from then on (the same values up to
  rounding); a length-curriculum with more distinct lengths than torch's recompile limit
  (``torch._dynamo.config.cache_size_limit``) runs its further lengths eagerly (torch's own
  fallback).

The layers trace without graph breaks (no value is read back inside the step;
tests/test_compiled_step.py compiles every family with ``fullgraph=True``). Whether compiling
pays depends on the device: on a CPU the compile time of each shape exceeds a quick run's whole
training time, so the engines default to eager (``compile=None``); ``"auto"`` compiles on CUDA
only. ``benchmarks/bench_training_step.py`` measures it where a GPU is lent.
"""
from __future__ import annotations

import warnings
from typing import Callable

import torch

from .nonfinite import is_checked
from .recipe import task_losses

__all__ = ["COMPILE_BACKENDS", "check_compile", "step_forward"]

#: ``torch.compile`` backends a batched run may use (``"eager"`` / ``"aot_eager"``: tracing and
#: autograd graphs without code generation, for tests and debugging)
COMPILE_BACKENDS = ("inductor", "aot_eager", "eager")


def check_compile(compile: str | None, device: torch.device) -> str | None:
    """The backend ``compile`` names for ``device``: ``None`` (eager), one of
    :data:`COMPILE_BACKENDS`, or ``"auto"`` (``"inductor"`` on CUDA, else ``None``);
    ``ValueError`` naming ``compile`` otherwise."""
    if compile is None:
        return None
    if compile == "auto":
        return "inductor" if device.type == "cuda" else None
    if compile not in COMPILE_BACKENDS:
        raise ValueError(f"compile must be None, 'auto' or one of {COMPILE_BACKENDS}, "
                         f"got {compile!r}")
    return compile


def step_forward(stacked: torch.nn.Module, regression: bool, backend: str | None,
                 device: torch.device) -> Callable[[torch.Tensor, torch.Tensor], tuple]:
    """``(xb (R, B, T), yb) → (outputs (R, B, T, C), losses (R,))`` of ``stacked`` (its
    ``logits``, :func:`~seqtheory.models.recipe.task_losses`), eager for ``backend=None``, else
    compiled with the guards of the module docstring."""
    def forward(xb: torch.Tensor, yb: torch.Tensor) -> tuple:
        out = stacked.logits(xb)
        return out, task_losses(out, yb, regression)

    if backend is None:
        return forward
    graphs = backend == "inductor" and device.type == "cuda"
    state = {"fn": torch.compile(forward, backend=backend, dynamic=False,
                                 mode="reduce-overhead" if graphs else None)}

    def guarded(xb: torch.Tensor, yb: torch.Tensor) -> tuple:
        if is_checked() or state["fn"] is forward:
            return forward(xb, yb)
        if graphs:
            torch.compiler.cudagraph_mark_step_begin()
        try:
            return state["fn"](xb, yb)
        except Exception as exc:             # the compiler failed: eager from here on
            warnings.warn(f"torch.compile (backend {backend!r}) failed ({type(exc).__name__}: "
                          f"{exc}); the batched step runs eagerly", RuntimeWarning, stacklevel=2)
            state["fn"] = forward
            return forward(xb, yb)

    return guarded

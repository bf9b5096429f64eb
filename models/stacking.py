"""Stacked runs: ``R`` models of one architecture as one module whose parameters carry a leading
run dimension, computed by the layers' own forward code (no ``torch.func.vmap``).

:func:`stack_models` deep-copies a model and replaces each parameter of shape ``s`` by the
stack ``(R, *s)`` of the runs' parameters (leaf ``nn.Parameter`` objects, so an optimizer updates
them in place), and marks every sub-module with ``runs = R``. A stacked module's forward takes
inputs with a leading run dimension (tokens ``(R, B, T)``, activations ``(R, B, T, width)``) and
returns ``out[r]`` = the forward of run ``r``'s model on ``input[r]``. The layers support it
through the helpers here:

* :class:`Linear` and :class:`Embedding` — ``nn.Linear`` / ``nn.Embedding`` (same parameters and
  state dicts) whose forward runs one matrix product per run (``torch.baddbmm``) / one lookup
  in the runs' tables laid end to end when stacked;
* :func:`run_view` — a stacked parameter ``(R, *s)`` viewed as ``(R, 1, …, 1, *s)`` so that it
  broadcasts against activations ``(R, B, …)`` like the unstacked ``s`` against ``(B, …)``;
* :func:`fold` / :func:`unfold` — the run and batch dimensions merged for the parameter-free
  parts (the scans: runs never mix there, each row of the merged batch is one run's sequence).

Unstacked modules (``runs = 0``, the class default) compute exactly what ``nn.Linear`` /
``nn.Embedding`` compute. Why: under ``torch.func.vmap`` every operation of a small model pays a
batching-rule overhead of the order of the operation itself (``benchmarks/bench_training_step.py``
measures the engines).
"""
from __future__ import annotations

import copy
from typing import Sequence

import torch
import torch.nn.functional as F
from torch import nn

__all__ = ["Linear", "Embedding", "run_view", "fold", "unfold", "stack_models", "stacked_shell",
           "runs_of"]


def runs_of(module: nn.Module) -> int:
    """The number of stacked runs of ``module`` (0: an ordinary, unstacked module)."""
    return getattr(module, "runs", 0)


class Linear(nn.Linear):
    """``nn.Linear`` whose forward also runs stacked: weight ``(R, out, in)``, bias ``(R, out)``,
    input ``(R, *, in)`` → ``(R, *, out)`` (run ``r``'s input times run ``r``'s weight)."""

    runs = 0

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if not self.runs:
            return F.linear(x, self.weight, self.bias)
        R, out = self.weight.shape[0], self.weight.shape[1]
        flat = x.reshape(R, -1, x.shape[-1])
        wt = self.weight.transpose(1, 2)
        y = flat @ wt if self.bias is None else torch.baddbmm(self.bias[:, None], flat, wt)
        return y.reshape(*x.shape[:-1], out)


class Embedding(nn.Embedding):
    """``nn.Embedding`` (no padding index, no max-norm) whose forward also runs stacked: weight
    ``(R, V, d)``, indices ``(R, *)`` → ``(R, *, d)`` (run ``r``'s indices in run ``r``'s table)."""

    runs = 0

    def forward(self, idx: torch.Tensor) -> torch.Tensor:
        if not self.runs:
            return super().forward(idx)
        R, V, d = self.weight.shape
        offsets = torch.arange(R, device=idx.device).mul_(V).view(R, *([1] * (idx.ndim - 1)))
        return F.embedding(idx + offsets, self.weight.reshape(R * V, d))


def run_view(p: torch.Tensor, ndim: int, runs: int) -> torch.Tensor:
    """``p`` shaped to broadcast against an activation of ``ndim`` dimensions: unstacked
    (``runs = 0``) as it is; stacked (``p (R, *s)``, activation ``(R, …)`` of ``ndim`` dimensions
    whose trailing ones match ``s``) viewed as ``(R, 1, …, 1, *s)``."""
    if not runs:
        return p
    return p.reshape(p.shape[0], *([1] * (ndim - p.ndim)), *p.shape[1:])


def fold(t: torch.Tensor | None, runs: int) -> torch.Tensor | None:
    """``t`` with its run and batch dimensions merged, ``(R, B, …) → (R·B, …)``, when stacked
    (``runs > 0``); else (or for ``None``) as it is."""
    return t.flatten(0, 1) if runs and t is not None else t


def unfold(t: torch.Tensor, runs: int) -> torch.Tensor:
    """Inverse of :func:`fold`: ``(R·B, …) → (R, B, …)`` when stacked."""
    return t.unflatten(0, (runs, -1)) if runs else t


def stacked_shell(template: nn.Module, runs: int) -> nn.Module:
    """A deep copy of ``template`` with every sub-module marked ``runs`` (its parameters still the
    template's shapes: for ``torch.func.functional_call`` with stacked parameters)."""
    shell = copy.deepcopy(template)
    for m in shell.modules():
        m.runs = runs
    return shell


def stack_models(models: Sequence[nn.Module]) -> nn.Module:
    """One stacked module of ``models`` (same architecture: same parameter names and shapes;
    ``ValueError`` otherwise): a deep copy of ``models[0]`` whose parameters are new leaf
    ``nn.Parameter`` stacks ``(R, *shape)`` of the runs' parameters (dtype and device of the
    originals, ``requires_grad`` as theirs), every sub-module marked ``runs = R`` (module
    docstring). The originals are not changed."""
    if not models:
        raise ValueError("models must not be empty")
    named = [dict(m.named_parameters()) for m in models]
    for i, d in enumerate(named[1:], 1):
        if {n: p.shape for n, p in d.items()} != {n: p.shape for n, p in named[0].items()}:
            raise ValueError(f"models[{i}] differs from models[0] in its parameters")
    stacked = stacked_shell(models[0], len(models))
    for name, p in list(stacked.named_parameters()):
        owner, _, leaf = name.rpartition(".")
        module = stacked.get_submodule(owner) if owner else stacked
        data = torch.stack([d[name].detach() for d in named])
        module._parameters[leaf] = nn.Parameter(data, requires_grad=p.requires_grad)
    return stacked

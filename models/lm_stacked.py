"""Stacked training of language-model runs: several runs of one :class:`~seqtheory.models.lm.LMConfig`
trained together, each giving exactly the result of :func:`seqtheory.models.lm.train_run`.

The runs of one stack share the configuration (hence the model's shape, the step count and the
backbone's learning rate) and may differ in the head optimizer (``"adamw"`` | ``"rownorm"``), its
learning rate and the seed. Each run keeps

* its own initial parameters (``torch.manual_seed(seed)``, then ``DecoderLM``) and its own batch
  stream (a generator seeded ``10_000 + seed``; runs with one seed read the same batches);
* its own head, a leaf tensor stepped by its own head optimizer
  (:class:`~seqtheory.models.optim.AdamWHead` / :class:`~seqtheory.models.optim.RowNorm`) and
  recorded by its own :class:`~seqtheory.models.optim.HeadDiagnostics`, as in ``train_run``.

The backbone's parameters are stacked along a leading run dimension ``R``; one forward pass maps
the model over the runs (``torch.func.vmap`` of ``functional_call``) and one backward pass of the
plain sum of the per-run losses gives each run its own gradient. Their optimizers act on the
stacks: ``torch.optim.AdamW`` itself for the embeddings and norms (an elementwise update with
hyperparameters the runs share), and :class:`StackedMuon` for the hidden matrices, which is
``torch.optim.Muon``'s update with the Newton–Schulz iteration on each run's matrix (a batched
matrix product). A run whose training loss turns non-finite stops after that step, as in
``train_run``; the others go on.

Equivalence: on torch 2.13's CPU kernels every run's result (losses, validation losses, diagnostic
series) is bit-identical to ``train_run``'s (tests/test_lm_stacked.py) when the model's matrices
have at least 32 rows and columns (``d_model ≥ 32``: the quick and GPU configurations), where
torch's single and batched bfloat16 matrix products of the Newton–Schulz iteration take the same
kernel; with smaller matrices (below torch's oneDNN size threshold for a single product), or on a
build whose batched products round differently, the Muon updates may differ in the last bits. ``seconds``
is the wall time of the whole stack up to the run's last step.
"""
from __future__ import annotations

import math
import time
import warnings
from numbers import Integral, Real
from typing import Sequence

import torch
import torch.nn.functional as F
from torch.func import functional_call, vmap

from .lm import (DecoderLM, LMConfig, check_head, eval_loss, lr_factor, record_steps, run_result,
                 run_steps)
from .optim import AdamWHead, HeadDiagnostics, RowNorm, split_parameters
from .recipe import checked_if_nonfinite
from .run_state import isolated_run_state
from .text import TextData

__all__ = ["train_stacked", "StackedMuon", "newton_schulz_stacked"]


def newton_schulz_stacked(G: torch.Tensor, ns_coefficients: tuple[float, float, float],
                          ns_steps: int, eps: float) -> torch.Tensor:
    """``torch.optim.Muon``'s Newton–Schulz orthogonalisation of each matrix of ``G`` (``(R, A, B)``,
    any float dtype; result bfloat16 ``(R, A, B)``): in bfloat16, each matrix divided by its
    Frobenius norm (at least ``eps``), transposed to wide form when ``A > B``, then ``ns_steps``
    quintic steps ``X ← a X + (b M + c M²) X`` with ``M = X Xᵀ``. The same operations as torch's
    per-matrix ``_zeropower_via_newtonschulz``, batched. ``ValueError`` for a non-3-D ``G``."""
    if G.ndim != 3:
        raise ValueError(f"G must be a stack of matrices (R, A, B), got shape {tuple(G.shape)}")
    a, b, c = ns_coefficients
    X = G.bfloat16()
    # the norm sums the entries in memory order, as torch's norm of one (transposed) matrix does
    X = X / X.flatten(1).norm(dim=1).clamp(min=eps)[:, None, None]
    tall = G.size(1) > G.size(2)
    if tall:
        X = X.mT
    for _ in range(ns_steps):
        M = X @ X.mT
        X = torch.baddbmm(X, torch.baddbmm(M, M, M, beta=b, alpha=c), X, beta=a)
    return X.mT if tall else X


class StackedMuon:
    """``torch.optim.Muon`` (its defaults: Nesterov momentum 0.95, 5 Newton–Schulz steps, eps 1e-7;
    ``adjust_lr_fn="match_rms_adamw"``) on stacked matrices ``(R, A, B)``, one Muon per run with a
    shared learning rate and weight decay: per step ``buf ← lerp(buf, g, 1 − μ)``,
    ``u = NS(lerp(g, buf, μ))``, ``p ← p(1 − lr·wd) − lr·0.2·√max(A, B)·u``.

    ``params``: stacked leaf tensors (``ValueError`` for one that is not 3-D); ``step(lr)`` reads
    their ``.grad`` (a parameter without one is skipped, as torch skips it)."""

    def __init__(self, params: Sequence[torch.Tensor], weight_decay: float) -> None:
        self.params = list(params)
        for p in self.params:
            if p.ndim != 3:
                raise ValueError(f"StackedMuon needs stacked matrices (R, A, B), got shape "
                                 f"{tuple(p.shape)}")
        ref = torch.optim.Muon([torch.zeros(1, 1)], weight_decay=weight_decay,
                               adjust_lr_fn="match_rms_adamw").defaults
        self.weight_decay, self.momentum = ref["weight_decay"], ref["momentum"]
        self.nesterov, self.ns = ref["nesterov"], (ref["ns_coefficients"], ref["ns_steps"], ref["eps"])
        self.bufs = [torch.zeros_like(p) for p in self.params]

    @torch.no_grad()
    def step(self, lr: float) -> None:
        for p, buf in zip(self.params, self.bufs):
            if p.grad is None:
                continue
            g = p.grad
            buf.lerp_(g, 1 - self.momentum)
            update = g.lerp(buf, self.momentum) if self.nesterov else buf
            update = newton_schulz_stacked(update, *self.ns)
            p.mul_(1 - lr * self.weight_decay)
            p.add_(update, alpha=-(lr * (0.2 * math.sqrt(max(p.shape[1], p.shape[2])))))


def _check_runs(runs) -> list[tuple[str, float, int]]:
    if not isinstance(runs, (list, tuple)) or not runs:
        raise ValueError("runs must be a non-empty list of (head, head_lr, seed)")
    out = []
    for i, r in enumerate(runs):
        if not (isinstance(r, (list, tuple)) and len(r) == 3):
            raise TypeError(f"runs[{i}] must be a (head, head_lr, seed) triple, got {r!r}")
        head, lr, seed = r
        check_head(head, f"runs[{i}]: head")
        if isinstance(lr, bool) or not isinstance(lr, Real) or not (math.isfinite(lr) and lr >= 0):
            raise ValueError(f"runs[{i}]: head_lr must be a finite real ≥ 0, got {lr!r}")
        if isinstance(seed, bool) or not isinstance(seed, Integral):
            raise TypeError(f"runs[{i}]: seed must be an int, got {seed!r}")
        out.append((head, float(lr), int(seed)))
    return out


def train_stacked(data: TextData, cfg: LMConfig, runs: Sequence[tuple[str, float, int]], *,
                  steps: int | None = None, diagnostics: bool = True) -> list[dict]:
    """Train the runs ``(head, head_lr, seed)`` of ``cfg`` together; returns one result per run,
    in order, each the dict :func:`seqtheory.models.lm.train_run` returns for
    ``train_run(data, cfg, head, head_lr, seed, steps=steps, diagnostics=diagnostics)``
    (``seconds``: the stack's wall time). ``ValueError`` for an empty list or an unknown head,
    ``TypeError`` for an entry that is not a triple; the head optimizers check their lrs."""
    runs = _check_runs(runs)
    with isolated_run_state(cfg.device, cfg.torch_threads):
        return _Stack(data, cfg, runs, run_steps(cfg, steps), diagnostics).train()


class _Stack:
    """The state of one stacked training (see :func:`train_stacked`)."""

    def __init__(self, data: TextData, cfg: LMConfig, runs: list, steps: int, diagnostics: bool):
        self.data, self.cfg, self.runs, self.steps = data, cfg, runs, steps
        self.t0 = time.perf_counter()
        dev = torch.device(cfg.device)
        self.models = []
        for _, _, seed in runs:
            torch.manual_seed(seed)
            self.models.append(DecoderLM(data.vocab_size, cfg).to(dev))
        m0 = self.models[0]
        hidden, other, _ = split_parameters(m0, m0.head.weight, [m0.tok.weight, m0.pos.weight])
        names = {id(p): n for n, p in m0.named_parameters()}
        self.hidden_names = [names[id(p)] for p in hidden]
        self.other_names = [names[id(p)] for p in other]
        self.stacked = {n: torch.stack([m.get_parameter(n).detach() for m in self.models])
                        .clone().requires_grad_() for n in self.hidden_names + self.other_names}
        self.muon = StackedMuon([self.stacked[n] for n in self.hidden_names],
                                cfg.backbone_weight_decay)
        self.adamw = torch.optim.AdamW([self.stacked[n] for n in self.other_names],
                                       lr=cfg.backbone_lr, weight_decay=0.0)
        self.heads = [self._head_opt(m.head.weight, head, lr) for m, (head, lr, _) in
                      zip(self.models, runs)]
        self.ex, self.ey = (t.to(dev) for t in data.fixed_windows("val", cfg.eval_windows,
                                                                  cfg.seq_len))
        self.px = data.fixed_windows("val", cfg.panel_windows, cfg.seq_len)[0].to(dev)
        self.gens = {seed: torch.Generator().manual_seed(10_000 + seed) for _, _, seed in runs}
        self.diags = [HeadDiagnostics() for _ in runs] if diagnostics else None
        self.recorded = record_steps(cfg.record_points, steps)
        self.val0 = [eval_loss(m, self.ex, self.ey) for m in self.models]
        self.losses: list[list[float]] = [[] for _ in runs]
        self.results: list[dict | None] = [None] * len(runs)

    def _head_opt(self, U: torch.nn.Parameter, head: str, lr: float):
        c = self.cfg
        if head == "adamw":
            return AdamWHead([U], lr=lr, betas=c.adam_betas, eps=c.adam_eps,
                             weight_decay=c.adamw_weight_decay)
        return RowNorm([U], lr=lr, beta=c.rownorm_beta, eps=c.rownorm_eps,
                       weight_decay=c.rownorm_weight_decay)

    def _params(self) -> dict[str, torch.Tensor]:
        p = dict(self.stacked)
        p["head.weight"] = torch.stack([m.head.weight for m in self.models])
        return p

    def _forward(self, params: dict, x: torch.Tensor, hidden: bool = False) -> torch.Tensor:
        """Each run's logits (``hidden``: its final hidden states) on its own tokens ``x[r]``."""
        module = _Hidden(self.models[0]) if hidden else self.models[0]
        if hidden:
            params = {"model." + n: p for n, p in params.items()}
        with warnings.catch_warnings():     # torch's CPU attention kernel has no batching rule
            warnings.filterwarnings("ignore", message="There is a performance drop")
            return vmap(lambda p, t: functional_call(module, p, (t,)))(params, x)

    def _batches(self) -> tuple[torch.Tensor, torch.Tensor]:
        drawn = {seed: self.data.batch("train", self.cfg.batch_size, self.cfg.seq_len, g)
                 for seed, g in self.gens.items()}
        dev = self.ex.device
        x = torch.stack([drawn[seed][0] for _, _, seed in self.runs]).to(dev)
        y = torch.stack([drawn[seed][1] for _, _, seed in self.runs]).to(dev)
        return x, y

    def train(self) -> list[dict]:
        for step in range(self.steps):
            if all(r is not None for r in self.results):
                break
            self._step(step)
        for r in range(len(self.runs)):
            if self.results[r] is None:
                self._finish(r)
        return self.results  # type: ignore[return-value]

    def _step(self, step: int) -> None:
        f = lr_factor(step, self.cfg, self.steps)
        for g in self.adamw.param_groups:
            g["lr"] = self.cfg.backbone_lr * f
        for opt, (_, lr, _) in zip(self.heads, self.runs):
            opt.param_groups[0]["lr"] = lr * f
        x, y = self._batches()
        params = self._params()
        live = [r for r in range(len(self.runs)) if self.results[r] is None]

        def forward():      # checked_if_nonfinite looks at the losses of the live runs only
            out = self._forward(params, x)
            losses = torch.stack([F.cross_entropy(o.flatten(0, 1), t.flatten())
                                  for o, t in zip(out.unbind(0), y)])
            return losses, losses[live]

        losses, _ = checked_if_nonfinite(forward)
        self.adamw.zero_grad(set_to_none=True)
        for p in self.stacked.values():
            p.grad = None
        for m in self.models:
            m.head.weight.grad = None
        losses.sum().backward()
        values = losses.tolist()
        for r in live:
            self.losses[r].append(values[r])
        record = self.diags is not None and step in self.recorded
        if record:
            with torch.no_grad():
                Hp = self._forward(params, self.px.expand(len(self.runs), *self.px.shape),
                                   hidden=True).flatten(1, 2)
            U_old = [self.models[r].head.weight.detach().clone() for r in live]
        self.muon.step(self.cfg.backbone_lr * f)
        self.adamw.step()
        for i, r in enumerate(live):
            S = self.heads[r].step()[0]
            if record:
                self.diags[r].record(S, U_old[i], Hp[r], step)
        for r in live:
            if not math.isfinite(self.losses[r][-1]):
                self._finish(r)

    def _finish(self, r: int) -> None:
        m = self.models[r]
        with torch.no_grad():
            for n, p in self.stacked.items():
                m.get_parameter(n).copy_(p[r])
        head, lr, seed = self.runs[r]
        self.results[r] = run_result(head, lr, seed, self.steps, self.val0[r],
                                     eval_loss(m, self.ex, self.ey), self.losses[r],
                                     time.perf_counter() - self.t0,
                                     self.diags[r] if self.diags is not None else None,
                                     self.recorded)


class _Hidden(torch.nn.Module):
    """``model`` whose ``forward`` is ``model.hidden`` (so that ``functional_call`` maps it)."""

    def __init__(self, model: DecoderLM) -> None:
        super().__init__()
        self.model = model

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        return self.model.hidden(tokens)

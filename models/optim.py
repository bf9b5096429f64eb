"""Language-model-head optimizers and their per-step geometry diagnostics.

Source: A. Somasundaram et al., *Toward a First-Principles Update Geometry for the Language-Model
Head*, arXiv:2608.22253v2 ([HEAD]): the projected RowNorm update ``S = −(η/2) P·RN(P M)``
(``M`` the gradient EMA, ``P = I − 11ᵀ/V``, ``RN`` row normalisation), compared with AdamW on the
head while the hidden matrices use Muon (``torch.optim.Muon``, torch ≥ 2.9; signature
``Muon(params, lr=1e-3, weight_decay=0.1, momentum=0.95, nesterov=True, ns_coefficients=...,
eps=1e-7, ns_steps=5, adjust_lr_fn=None)``, 2-D parameters only).

* :class:`RowNorm` — EMA of the gradient with bias correction, optional centring over the rows
  (the projection ``P``), row normalisation with ``eps``, decoupled weight decay. ``lr`` plays
  the role of ``η/2``: every applied step (without weight decay) has covering radius ≤ lr, hence
  row diameter ``D(S) ≤ 2·lr``.
* :class:`AdamWHead` — ``torch.optim.AdamW`` with the same diagnostics.
  Both ``step()`` methods return the list of the optimiser's steps without the weight decay,
  ``θ_new − (1 − lr·wd)·θ_old`` (one tensor per parameter, float32 like the parameters): the
  diagnostics exclude weight decay, as [HEAD]'s do (SPEC §3.2).
* :func:`muon_for_hidden` — ``torch.optim.Muon`` over the hidden 2-D matrices of a model
  (embeddings and head excluded), plus AdamW for everything else of the backbone.
* :class:`HeadDiagnostics` — per step: ``D(S_t)``; the Hilbert change
  ``𝓗(p_{U+S}(h), p_U(h)) = ‖S h‖_var`` on a fixed panel of validation hidden states (RMS and
  maximum); a float64 spot check of the per-position diameter identity on the actual step
  (``𝓗`` from log-softmax vs ``max_{i<j}|(s_i − s_j)ᵀh|``, and ``≤ ‖h‖₂ D(S)``).
"""
from __future__ import annotations

from typing import Iterable

import numpy as np
import torch

from seqtheory.theory.contract import check_bool, check_real
from seqtheory.theory.hilbert import hilbert_distance, row_diameter

__all__ = ["RowNorm", "AdamWHead", "muon_for_hidden", "split_parameters", "HeadDiagnostics"]


def _check_lr(lr: float, name: str = "lr") -> float:
    """``lr`` as a finite float ≥ 0 (:func:`~seqtheory.theory.contract.check_real`)."""
    return check_real(name, lr, 0)


class RowNorm(torch.optim.Optimizer):
    """Projected RowNorm for 2-D head matrices ``U ∈ R^{V×d}`` (rows = vocabulary entries).

    Per step, for each parameter with gradient ``G``::

        m ← β m + (1 − β) G;   m̂ = m / (1 − β^t)
        M = P m̂  (if centre)   R_i = M_i / (‖M_i‖₂ + eps)
        S = −lr · (P R if centre else R)
        U ← U (1 − lr·weight_decay) + S

    ``lr`` ≥ 0 (= η/2), ``beta ∈ [0, 1)``, ``eps > 0``, ``weight_decay ≥ 0``. Only 2-D parameters are
    accepted (``ValueError`` otherwise). ``step()`` returns the list of the steps ``S`` (one per
    parameter with a gradient, in order; the weight decay excluded, as [HEAD]'s diagnostics
    exclude it), also kept in ``self.last_updates``.
    Source: [HEAD] arXiv:2608.22253v2 (projected RowNorm).
    """

    def __init__(self, params: Iterable, lr: float = 1e-3, beta: float = 0.9, eps: float = 1e-8,
                 centre: bool = True, weight_decay: float = 0.0) -> None:
        lr = _check_lr(lr)
        beta = check_real("beta", beta, 0, 1, below=True)
        eps = check_real("eps", eps, 0, above=True)
        weight_decay = _check_lr(weight_decay, "weight_decay")
        super().__init__(params, dict(lr=lr, beta=beta, eps=eps, centre=check_bool("centre", centre),
                                      weight_decay=weight_decay))
        for group in self.param_groups:
            for p in group["params"]:
                if p.ndim != 2:
                    raise ValueError(f"RowNorm needs 2-D parameters (V, d), got shape "
                                     f"{tuple(p.shape)}")
        self.last_updates: list[torch.Tensor] = []
        self.last_loss = None

    @torch.no_grad()
    def step(self, closure=None) -> list[torch.Tensor]:
        if closure is not None:
            with torch.enable_grad():
                self.last_loss = closure()
        updates: list[torch.Tensor] = []
        for group in self.param_groups:
            lr, beta, eps = group["lr"], group["beta"], group["eps"]
            for p in group["params"]:
                if p.grad is None:
                    continue
                st = self.state[p]
                if not st:
                    st["step"] = 0
                    st["m"] = torch.zeros_like(p)
                st["step"] += 1
                st["m"].mul_(beta).add_(p.grad, alpha=1.0 - beta)
                M = st["m"] / (1.0 - beta ** st["step"])
                if group["centre"]:
                    M = M - M.mean(dim=0, keepdim=True)
                R = M / (_row_norms(M) + eps)
                if group["centre"]:
                    R = R - R.mean(dim=0, keepdim=True)
                if group["weight_decay"]:
                    p.mul_(1.0 - lr * group["weight_decay"])
                decayed = p.detach().clone()
                p.add_(R, alpha=-lr)
                updates.append(p.detach() - decayed)
        self.last_updates = updates
        return updates


def _row_norms(M: torch.Tensor) -> torch.Tensor:
    """Euclidean norms of the rows of ``M`` (shape ``(V, d)`` → ``(V, 1)``), computed on rows
    scaled by their largest entry so that no square overflows (float32 rows up to the format's
    maximum); zero rows give 0."""
    a = M.abs().amax(dim=1, keepdim=True)
    return a * (M / torch.where(a > 0, a, torch.ones_like(a))).norm(dim=1, keepdim=True)


class AdamWHead(torch.optim.AdamW):
    """``torch.optim.AdamW`` whose ``step()`` returns its steps without the decoupled weight decay,
    ``θ_new − (1 − lr·wd)·θ_old`` = ``−lr·m̂/(√v̂ + eps)`` (one per parameter with a gradient, in
    order), also in ``self.last_updates``; same arguments as AdamW. The weight decay is left out
    because [HEAD]'s diagnostics leave it out (SPEC §3.2); ``(1 − lr·wd)·θ_old`` is computed by
    the same float operation AdamW applies, so the step is the one added to the decayed
    parameter."""

    @torch.no_grad()
    def step(self, closure=None) -> list[torch.Tensor]:
        olds = [(p, p.detach().clone(), 1.0 - g["lr"] * g["weight_decay"])
                for g in self.param_groups for p in g["params"] if p.grad is not None]
        self.last_loss = super().step(closure)
        self.last_updates = [p.detach() - o.mul(c) if c != 1.0 else p.detach() - o
                             for p, o, c in olds]
        return self.last_updates


def split_parameters(model: torch.nn.Module, head: torch.nn.Parameter,
                     embeddings: Iterable[torch.nn.Parameter] = ()):
    """``(hidden_matrices, other, [head])``: 2-D parameters that are neither the head nor an
    embedding (→ Muon), the remaining backbone parameters (→ AdamW), and the head."""
    emb = {id(p) for p in embeddings}
    hidden, other = [], []
    for p in model.parameters():
        if p is head or not p.requires_grad:
            continue
        (hidden if p.ndim == 2 and id(p) not in emb else other).append(p)
    return hidden, other, [head]


def muon_for_hidden(hidden: list, other: list, lr: float, weight_decay: float = 0.0
                    ) -> list[torch.optim.Optimizer]:
    """Backbone optimizers: ``torch.optim.Muon`` (``adjust_lr_fn="match_rms_adamw"``, so the same
    ``lr`` as AdamW applies) on the hidden matrices and AdamW on the rest (embeddings, norms)."""
    lr = _check_lr(lr)
    weight_decay = _check_lr(weight_decay, "weight_decay")
    opts: list[torch.optim.Optimizer] = []
    if hidden:
        opts.append(torch.optim.Muon(hidden, lr=lr, weight_decay=weight_decay,
                                     adjust_lr_fn="match_rms_adamw"))
    if other:
        opts.append(torch.optim.AdamW(other, lr=lr, weight_decay=0.0))
    return opts


class HeadDiagnostics:
    """Per-step geometry of the head update on a fixed panel of hidden states.

    ``record(S, U, H)`` with the applied head update ``S`` (``V×d``), the head before the step ``U``
    and the panel's hidden states ``H`` (``n×d``, computed before the step) appends to ``history``:
    ``diameter`` = ``D(S)`` (exact, float64), ``hilbert_rms`` / ``hilbert_max`` of
    ``‖S h‖_var`` over the panel, and ``identity_err`` = max over the panel of
    ``|𝓗(p_{U+S}(h), p_U(h)) − max_{i<j}|(s_i−s_j)ᵀh||`` in float64 (log-softmax path) relative to
    ``1 + 𝓗``, and ``bound_ok`` (``𝓗 ≤ ‖h‖₂ D(S)`` up to 1e-9 relative) — the spot check.
    """

    def __init__(self) -> None:
        self.history: list[dict] = []
        self.skipped: list = []

    @torch.no_grad()
    def record(self, S: torch.Tensor, U: torch.Tensor, H: torch.Tensor,
               step: int | None = None) -> dict | None:
        """The step's record (appended to ``history``); ``None``, nothing appended and ``step``
        added to ``skipped``, when ``S``, ``U`` or ``H`` is not finite (a diverging run: the
        geometry is undefined)."""
        S64 = S.detach().to("cpu", torch.float64).numpy()
        U64 = U.detach().to("cpu", torch.float64).numpy()
        H64 = H.detach().to("cpu", torch.float64).numpy()
        if not all(np.isfinite(a).all() for a in (S64, U64, H64)):
            self.skipped.append(step)
            return None
        D, _ = row_diameter(S64)
        SH = H64 @ S64.T
        var = SH.max(axis=1) - SH.min(axis=1)
        z0 = H64 @ U64.T
        lp0 = z0 - _logsumexp(z0)
        lp1 = (z0 + SH) - _logsumexp(z0 + SH)
        hil = hilbert_distance(lp1, lp0, space="log")
        err = float(np.max(np.abs(hil - var) / (1.0 + var)))
        bound_ok = bool(np.all(hil <= np.linalg.norm(H64, axis=1) * D * (1 + 1e-9) + 1e-12))
        rec = dict(diameter=float(D), hilbert_rms=float(np.sqrt(np.mean(var ** 2))),
                   hilbert_max=float(var.max()), identity_err=err, bound_ok=bound_ok)
        self.history.append(rec)
        return rec

    def series(self, key: str) -> np.ndarray:
        return np.array([r[key] for r in self.history], dtype=float)


def _logsumexp(z: np.ndarray) -> np.ndarray:
    m = z.max(axis=1, keepdims=True)
    return m + np.log(np.exp(z - m).sum(axis=1, keepdims=True))

"""A small decoder-only language model and one training run of it (the RowNorm-head vs AdamW-head
experiment that compares such runs is :mod:`seqtheory.models.lm_experiment`).

Source: A. Somasundaram et al., *Toward a First-Principles Update Geometry for the Language-Model
Head*, arXiv:2608.22253v2 ([HEAD]), SPEC §3.2 ``head.exp.rownorm_vs_adamw``: RowNorm on the head
(Muon on the backbone) shrinks the per-step row diameter 45–60× and the Hilbert RMS 12–15× vs
AdamW, at +0.006–0.015 validation loss (190M–640M parameter models).

Model: pre-norm decoder (RMSNorm → causal self-attention → residual; RMSNorm → GELU MLP →
residual), learned positional embeddings, final RMSNorm, untied bias-free head ``U ∈ R^{V×d}``.

Experiment (:func:`seqtheory.models.lm_experiment.head_comparison`): for each seed the two arms share the initialisation, the
batch order and the backbone optimizer (``torch.optim.Muon`` on hidden matrices, AdamW on
embeddings/norms, same lr); only the head optimizer differs (:class:`~seqtheory.models.optim.AdamWHead`
vs :class:`~seqtheory.models.optim.RowNorm`). **Learning-rate fairness**: each head's lr is chosen
on its own grid by the validation loss of a short tuning run (seed ``tune_seed``, distinct from
the reported seeds; same data), the grids and losses are recorded, and a choice at a grid edge is
flagged. Per step, :class:`~seqtheory.models.optim.HeadDiagnostics` logs ``D(S_t)`` and the
Hilbert change on a fixed panel of validation positions.
"""
from __future__ import annotations

import math
import time
from contextlib import contextmanager
from dataclasses import dataclass, replace

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from ._checks import check_int, check_int_fields, check_real_field
from .layers_attention import causal_attention
from .optim import AdamWHead, HeadDiagnostics, RowNorm, muon_for_hidden, split_parameters
from .recipe import checked_if_nonfinite
from .run_state import isolated_run_state
from .text import TextData

__all__ = ["LMConfig", "DecoderLM", "train_run", "lr_factor", "quick_config", "gpu_config",
           "eval_loss", "run_result", "torch_threads", "record_steps", "run_steps", "HEADS",
           "check_head"]


@dataclass(frozen=True)
class LMConfig:
    """Model and training configuration (all runs of one comparison share it).

    Optimizer defaults follow the released recipes of [HEAD] (arXiv:2608.22253; SPEC §3.2): head
    AdamW betas (0.9, 0.999), eps 1e-10, weight decay 0.1; head RowNorm β 0.95, eps 1e-8, no
    weight decay; backbone Muon (Nesterov, momentum 0.95, 5 Newton–Schulz steps: the
    ``torch.optim.Muon`` defaults) with weight decay 0.1."""

    d_model: int = 32
    n_layers: int = 2
    n_heads: int = 4
    mlp_ratio: int = 4
    seq_len: int = 32
    batch_size: int = 8
    steps: int = 150
    backbone_lr: float = 3e-3
    backbone_weight_decay: float = 0.1
    adamw_weight_decay: float = 0.1
    adam_betas: tuple[float, float] = (0.9, 0.999)
    adam_eps: float = 1e-10
    rownorm_beta: float = 0.95
    rownorm_eps: float = 1e-8
    rownorm_weight_decay: float = 0.0
    warmup: int = 20
    eval_windows: int = 32
    panel_windows: int = 2
    max_bytes: int = 1_000_000
    level: str = "byte"
    vocab_size: int = 4096      # level "word" only: ids of the word vocabulary (models.tokenizer)
    # d of the head; None: d_model with no up-projection. head_width=d_model is another model (a
    # d_model x d_model up-projection and a GELU before the head; see DecoderLM): another run.
    head_width: int | None = None
    record_points: int = 0      # diagnostics at this many evenly spaced steps (0: every step)
    tune_steps: int = 150
    adamw_grid: tuple[float, ...] = (1e-2, 3e-2, 1e-1, 3e-1)
    rownorm_grid: tuple[float, ...] = (1e-2, 3e-2, 1e-1, 3e-1)
    device: str = "cpu"
    torch_threads: int | None = 1

    def __post_init__(self) -> None:
        check_int_fields(self, ("d_model", "n_layers", "n_heads", "mlp_ratio", "seq_len",
                                "batch_size", "steps", "eval_windows", "panel_windows",
                                "max_bytes", "tune_steps"))
        check_int_fields(self, ("warmup", "record_points"), 0)
        check_int_fields(self, ("torch_threads", "head_width"), optional=True)
        if self.d_model % self.n_heads:
            raise ValueError(f"d_model {self.d_model} must be divisible by n_heads {self.n_heads}")
        check_int_fields(self, ("vocab_size",), 2)
        for name in ("backbone_lr", "adam_eps", "rownorm_eps"):
            check_real_field(self, name, 0, above=True)
        for name in ("backbone_weight_decay", "adamw_weight_decay", "rownorm_weight_decay"):
            check_real_field(self, name, 0)
        check_real_field(self, "rownorm_beta", 0, maximum=1, below=True)

    @property
    def width(self) -> int:
        """The head's width ``d`` (``head_width``, else ``d_model``)."""
        return self.d_model if self.head_width is None else self.head_width


def quick_config(**kw) -> LMConfig:
    """The CPU quick form: tiny byte-level model, a few hundred steps."""
    return replace(LMConfig(), **kw)


def gpu_config(**kw) -> LMConfig:
    """A larger configuration for a GPU (≈ 10M parameters, longer runs)."""
    base = LMConfig(d_model=384, n_layers=6, n_heads=6, seq_len=256, batch_size=64, steps=3000,
                    backbone_lr=2e-3, warmup=200, eval_windows=256, panel_windows=8,
                    max_bytes=4_000_000, tune_steps=1000, adamw_grid=(3e-4, 1e-3, 3e-3, 1e-2),
                    rownorm_grid=(1e-3, 3e-3, 1e-2, 3e-2, 1e-1), device="cuda",
                    torch_threads=None)
    return replace(base, **kw)


class _Block(nn.Module):
    def __init__(self, cfg: LMConfig) -> None:
        super().__init__()
        d = cfg.d_model
        self.n_heads = cfg.n_heads
        self.norm1 = nn.RMSNorm(d)
        self.qkv = nn.Linear(d, 3 * d, bias=False)
        self.proj = nn.Linear(d, d, bias=False)
        self.norm2 = nn.RMSNorm(d)
        self.fc = nn.Linear(d, cfg.mlp_ratio * d, bias=False)
        self.out = nn.Linear(cfg.mlp_ratio * d, d, bias=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        B, T, d = x.shape
        q, k, v = self.qkv(self.norm1(x)).split(d, dim=-1)
        q, k, v = (t.view(B, T, self.n_heads, d // self.n_heads) for t in (q, k, v))
        x = x + self.proj(causal_attention(q, k, v).reshape(B, T, d))
        return x + self.out(F.gelu(self.fc(self.norm2(x))))


class DecoderLM(nn.Module):
    """Pre-norm decoder-only LM with an untied, bias-free head ``self.head.weight`` (``V×d``).

    With ``cfg.head_width`` set, the backbone (width ``d_model``) is followed by a bias-free
    up-projection to ``d = head_width`` and a GELU before the final RMSNorm (a hidden matrix:
    Muon trains it), so the head's width is varied without growing the backbone."""

    def __init__(self, vocab_size: int, cfg: LMConfig) -> None:
        super().__init__()
        vocab_size = check_int("vocab_size", vocab_size)
        self.tok = nn.Embedding(vocab_size, cfg.d_model)
        self.pos = nn.Embedding(cfg.seq_len, cfg.d_model)
        self.blocks = nn.ModuleList(_Block(cfg) for _ in range(cfg.n_layers))
        self.up = None if cfg.head_width is None else nn.Linear(cfg.d_model, cfg.width, bias=False)
        self.norm = nn.RMSNorm(cfg.width)
        self.head = nn.Linear(cfg.width, vocab_size, bias=False)
        for m in self.modules():
            if isinstance(m, (nn.Linear, nn.Embedding)):
                nn.init.normal_(m.weight, std=0.02)

    def hidden(self, x: torch.Tensor) -> torch.Tensor:
        """Final (normed) hidden states ``h``, shape ``(B, T, d)``; logits are ``h Uᵀ``."""
        h = self.tok(x) + self.pos(torch.arange(x.shape[1], device=x.device))
        for b in self.blocks:
            h = b(h)
        if self.up is not None:
            h = F.gelu(self.up(h))
        return self.norm(h)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(self.hidden(x))


@torch.no_grad()
def eval_loss(model: DecoderLM, xs: torch.Tensor, ys: torch.Tensor, chunk: int = 16) -> float:
    """Mean next-token cross-entropy (nats) of ``model`` on windows ``xs`` → targets ``ys`` (long
    ``(n, T)`` each), evaluated in chunks of ``chunk`` windows."""
    model.eval()
    tot, n = 0.0, 0
    for i in range(0, xs.shape[0], chunk):
        logits = model(xs[i:i + chunk])
        tot += F.cross_entropy(logits.flatten(0, 1), ys[i:i + chunk].flatten(), reduction="sum").item()
        n += ys[i:i + chunk].numel()
    model.train()
    return tot / n


def lr_factor(step: int, cfg: LMConfig, steps: int) -> float:
    """Linear warmup, then cosine decay to 10% (same schedule for every optimizer)."""
    if step < cfg.warmup:
        return (step + 1) / cfg.warmup
    frac = (step - cfg.warmup) / max(1, steps - cfg.warmup)
    return 0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * frac))


def train_run(data: TextData, cfg: LMConfig, head: str, head_lr: float, seed: int, *,
              steps: int | None = None, diagnostics: bool = True) -> dict:
    """Train one model; see :func:`_train_run` (runs with ``cfg.torch_threads`` intra-op threads and
    torch's global state pinned, :func:`~seqtheory.models.run_state.isolated_run_state`).
    :mod:`seqtheory.models.lm_stacked` trains several runs of one configuration together, each
    with exactly this run's result."""
    with isolated_run_state(cfg.device, cfg.torch_threads):
        return _train_run(data, cfg, head, head_lr, seed, steps=steps, diagnostics=diagnostics)


@contextmanager
def torch_threads(n: int | None):
    """Run the block with ``n`` torch intra-op threads (restored afterwards; ``None``: leave torch's
    setting). 1 is the default of :class:`LMConfig`: tiny models gain nothing from threads and
    oversubscribed machines lose a lot."""
    if n is None:
        yield
        return
    old = torch.get_num_threads()
    torch.set_num_threads(n)
    try:
        yield
    finally:
        torch.set_num_threads(old)


def _train_run(data: TextData, cfg: LMConfig, head: str, head_lr: float, seed: int, *,
               steps: int | None = None, diagnostics: bool = True) -> dict:
    """Train one model; ``head`` is ``"adamw"`` or ``"rownorm"``.

    Returns a dict: ``val_loss`` (final, on ``cfg.eval_windows`` fixed validation windows),
    ``val_loss_init``, ``train_loss`` (last 20 steps' mean), and with ``diagnostics`` the per-step
    series ``diameter``, ``hilbert_rms``, ``hilbert_max`` plus ``identity_err_max`` and
    ``bound_ok`` (see :class:`~seqtheory.models.optim.HeadDiagnostics`), ``seconds``.
    """
    check_head(head)
    steps = run_steps(cfg, steps)
    dev = torch.device(cfg.device)
    t0 = time.perf_counter()
    torch.manual_seed(seed)
    model = DecoderLM(data.vocab_size, cfg).to(dev)
    U = model.head.weight
    hidden, other, head_params = split_parameters(model, U, [model.tok.weight, model.pos.weight])
    opts = muon_for_hidden(hidden, other, cfg.backbone_lr, weight_decay=cfg.backbone_weight_decay)
    if head == "adamw":
        hopt = AdamWHead(head_params, lr=head_lr, betas=cfg.adam_betas, eps=cfg.adam_eps,
                         weight_decay=cfg.adamw_weight_decay)
    else:
        hopt = RowNorm(head_params, lr=head_lr, beta=cfg.rownorm_beta, eps=cfg.rownorm_eps,
                       weight_decay=cfg.rownorm_weight_decay)
    all_opts = opts + [hopt]
    base_lrs = [[g["lr"] for g in o.param_groups] for o in all_opts]
    ex, ey = (t.to(dev) for t in data.fixed_windows("val", cfg.eval_windows, cfg.seq_len))
    px, _ = data.fixed_windows("val", cfg.panel_windows, cfg.seq_len)
    px = px.to(dev)
    gen = torch.Generator().manual_seed(10_000 + seed)
    diag = HeadDiagnostics()
    recorded = record_steps(cfg.record_points, steps)
    val0 = eval_loss(model, ex, ey)
    losses = []
    for step in range(steps):
        f = lr_factor(step, cfg, steps)
        for o, lrs in zip(all_opts, base_lrs):
            for g, lr in zip(o.param_groups, lrs):
                g["lr"] = lr * f
        x, y = (t.to(dev) for t in data.batch("train", cfg.batch_size, cfg.seq_len, gen))
        _, loss = checked_if_nonfinite(
            lambda: (None, F.cross_entropy(model(x).flatten(0, 1), y.flatten())))
        for o in all_opts:
            o.zero_grad(set_to_none=True)
        loss.backward()
        losses.append(loss.item())
        record = diagnostics and step in recorded
        if record:
            with torch.no_grad():
                Hp = model.hidden(px).flatten(0, 1)
            U_old = U.detach().clone()
        for o in opts:
            o.step()
        S = hopt.step()[0]
        if record:
            diag.record(S, U_old, Hp, step)
        if not math.isfinite(losses[-1]):
            break
    return run_result(head, head_lr, seed, steps, val0, eval_loss(model, ex, ey), losses,
                      time.perf_counter() - t0, diag if diagnostics else None, recorded)


#: the head optimizers a run may use
HEADS = ("adamw", "rownorm")


def check_head(head, name: str = "head") -> str:
    """``head`` when it names a head optimizer of :data:`HEADS`; ``ValueError`` naming ``name``
    otherwise."""
    if head not in HEADS:
        raise ValueError(f"{name} must be 'adamw' or 'rownorm', got {head!r}")
    return head


def run_steps(cfg: LMConfig, steps: int | None) -> int:
    """The number of training steps of a run: ``cfg.steps`` for ``None``, else ``steps`` (an
    ``int`` >= 1; ``TypeError`` / ``ValueError`` naming ``steps`` otherwise)."""
    return cfg.steps if steps is None else check_int("steps", steps, 1)


def run_result(head: str, head_lr: float, seed: int, steps: int, val0: float, val: float,
               losses: list[float], seconds: float, diag: HeadDiagnostics | None,
               recorded: set[int]) -> dict:
    """The result dict of one run (:func:`_train_run` documents the keys): ``losses`` are the
    training losses of the steps taken, ``diag`` the run's diagnostics (``None``: none kept),
    ``recorded`` the steps at which they were to be recorded (``recorded_steps`` leaves out those
    the diagnostics skipped: a diverging run's non-finite head update)."""
    out = dict(head=head, head_lr=head_lr, seed=seed, steps=steps, val_loss_init=val0,
               val_loss=val, train_loss=float(np.mean(losses[-20:])), seconds=seconds)
    if diag is not None:
        out.update(recorded_steps=sorted(s for s in recorded
                                         if s < len(losses) and s not in diag.skipped),
                   diameter=diag.series("diameter").tolist(),
                   hilbert_rms=diag.series("hilbert_rms").tolist(),
                   hilbert_max=diag.series("hilbert_max").tolist(),
                   identity_err_max=float(diag.series("identity_err").max()),
                   bound_ok=bool(all(r["bound_ok"] for r in diag.history)))
    return out


def record_steps(points: int, steps: int) -> set[int]:
    """The steps at which the diagnostics are recorded: every step for ``points == 0``, else
    ``points`` evenly spaced steps (rounded) that always include the first and the final step."""
    if points == 0 or points >= steps:
        return set(range(steps))
    return {int(round(x)) for x in np.linspace(0, steps - 1, points)}

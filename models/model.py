"""One sequence-model class for every layer family: embedding → L pre-norm blocks → readout.

Block ``ℓ``: ``x ← x + Mixer(RMSNorm(x))``; ``x ← x + MLP(RMSNorm(x))`` (the MLP is the smooth
position-wise output map between layers of [DEPTH], arXiv:2603.05573, Theorem 3.4). The mixer is
one of :data:`MODEL_NAMES`:

==================  =====================================================================
``transformer``     causal self-attention (:mod:`.layers_attention`), rotary or learned positions
``mamba``           diagonal selective SSM, transitions in (0, 1) (:mod:`.layers_diagonal`)
``signed_mamba``    diagonal selective SSM, transitions ``2 exp(ΔA) − 1`` in (−1, 1)
``aussm``           complex unit-modulus diagonal SSM
``gla``             gated linear attention
``deltanet``        delta rule, one generalised Householder step per token (:mod:`.layers_delta`)
``deltaproduct``    ``n_householder`` (default 2) Householder steps per token
==================  =====================================================================

Readout: ``head="classification"`` (logits over ``n_out`` classes per position) or
``head="regression"`` (a linear map to ``R^{n_out}`` per position). Input: integer tokens
``(B, T)`` in ``[0, vocab_size)``.
"""
from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import nn

from ._checks import check_int_fields
from .layers_attention import CausalSelfAttention
from .layers_delta import DeltaProductMixer
from .layers_diagonal import AUSSMMixer, GLAMixer, MambaMixer, check_mode
from .names import MODEL_NAMES, RECURRENT_MODELS
from .stacking import Embedding, Linear, run_view

__all__ = ["MODEL_NAMES", "RECURRENT_MODELS", "ModelConfig", "SequenceModel", "make_mixer"]



@dataclass(frozen=True)
class ModelConfig:
    """Architecture of a :class:`SequenceModel` (part of the run configuration hash)."""

    name: str
    vocab_size: int
    n_out: int
    depth: int = 1
    width: int = 64
    n_heads: int = 4
    d_state: int = 16
    head: str = "classification"
    positions: str = "rotary"
    n_householder: int = 2
    allow_negative: bool = True
    max_len: int = 4096
    mlp_ratio: int = 2

    def __post_init__(self) -> None:
        if self.name not in MODEL_NAMES:
            raise ValueError(f"model name must be one of {MODEL_NAMES}, got {self.name!r}")
        check_int_fields(self, ("vocab_size", "n_out", "depth", "width", "n_heads", "d_state",
                                "n_householder", "max_len", "mlp_ratio"))
        if self.width % self.n_heads:
            raise ValueError(f"width ({self.width}) must be divisible by n_heads ({self.n_heads})")
        if self.head not in ("classification", "regression"):
            raise ValueError(f"head must be 'classification' or 'regression', got {self.head!r}")
        if self.positions not in ("rotary", "learned"):
            raise ValueError(f"positions must be 'rotary' or 'learned', got {self.positions!r}")


def make_mixer(cfg: ModelConfig) -> nn.Module:
    """The sequence-mixing layer named by ``cfg.name``."""
    w, h = cfg.width, cfg.n_heads
    if cfg.name == "transformer":
        return CausalSelfAttention(w, h, cfg.positions)
    if cfg.name in ("mamba", "signed_mamba"):
        return MambaMixer(w, h, cfg.d_state, signed=cfg.name == "signed_mamba")
    if cfg.name == "aussm":
        return AUSSMMixer(w, h, cfg.d_state)
    if cfg.name == "gla":
        return GLAMixer(w, h)
    if cfg.name == "deltanet":
        return DeltaProductMixer(w, h, 1, cfg.allow_negative)
    return DeltaProductMixer(w, h, cfg.n_householder, cfg.allow_negative)


class RMSNorm(nn.Module):
    runs = 0

    def __init__(self, width: int, eps: float = 1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(width))
        self.eps = eps

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        scale = torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps)
        return x * scale * run_view(self.weight, x.ndim, self.runs)


class Block(nn.Module):
    def __init__(self, cfg: ModelConfig):
        super().__init__()
        self.norm1, self.norm2 = RMSNorm(cfg.width), RMSNorm(cfg.width)
        self.mixer = make_mixer(cfg)
        self.mlp = nn.Sequential(Linear(cfg.width, cfg.mlp_ratio * cfg.width), nn.GELU(),
                                 Linear(cfg.mlp_ratio * cfg.width, cfg.width))

    def forward(self, x: torch.Tensor, mode: str) -> torch.Tensor:
        x = x + self.mixer(self.norm1(x), mode=mode)
        return x + self.mlp(self.norm2(x))


class SequenceModel(nn.Module):
    """Embedding (shared across positions) → ``cfg.depth`` blocks → final norm → readout.

    ``forward(tokens (B, T) long, mode="parallel"|"recurrent") -> (B, T, n_out)``. Raises
    ``ValueError`` for tokens outside ``[0, vocab_size)`` or a learned-position model fed more than
    ``max_len`` positions, ``TypeError`` for non-integer tokens. A stacked model
    (:func:`seqtheory.models.stacking.stack_models`, ``runs = R``) maps tokens ``(R, B, T)`` to
    ``(R, B, T, n_out)``, run ``r``'s model on ``tokens[r]``.
    """

    runs = 0

    def __init__(self, cfg: ModelConfig):
        super().__init__()
        self.cfg = cfg
        self.embed = Embedding(cfg.vocab_size, cfg.width)
        self.pos = (Embedding(cfg.max_len, cfg.width)
                    if cfg.name == "transformer" and cfg.positions == "learned" else None)
        self.blocks = nn.ModuleList(Block(cfg) for _ in range(cfg.depth))
        self.norm = RMSNorm(cfg.width)
        self.readout = Linear(cfg.width, cfg.n_out)

    def forward(self, tokens: torch.Tensor, mode: str = "parallel") -> torch.Tensor:
        check_mode(mode)
        self.check_tokens(tokens)
        return self.logits(tokens, mode)

    def check_tokens(self, tokens: torch.Tensor) -> None:
        """``TypeError`` / ``ValueError`` unless ``tokens`` is an integer tensor ``(batch, time)``
        (``(runs, batch, time)`` when stacked) with values in ``[0, vocab_size)`` (a learned-position
        model: at most ``max_len`` positions). Reads the values (a host synchronisation on a GPU)."""
        shape = "(runs, batch, time)" if self.runs else "(batch, time)"
        if not isinstance(tokens, torch.Tensor) or tokens.dtype not in (torch.int64, torch.int32):
            raise TypeError(f"tokens must be an integer torch.Tensor of shape {shape}")
        if tokens.ndim != 2 + bool(self.runs) or (self.runs and tokens.shape[0] != self.runs):
            raise ValueError(f"tokens must have shape {shape}, got {tuple(tokens.shape)}")
        if tokens.numel() and (int(tokens.min()) < 0 or int(tokens.max()) >= self.cfg.vocab_size):
            raise ValueError(f"tokens must lie in [0, {self.cfg.vocab_size})")
        if self.pos is not None and tokens.shape[-1] > self.cfg.max_len:
            raise ValueError(f"sequence length {tokens.shape[-1]} exceeds max_len {self.cfg.max_len}")

    def logits(self, tokens: torch.Tensor, mode: str = "parallel") -> torch.Tensor:
        """:meth:`forward` without the checks of :meth:`check_tokens` (reads no tensor value:
        for a caller that checked its tokens once, e.g. on the host)."""
        x = self.embed(tokens)
        if self.pos is not None:
            T = tokens.shape[-1]
            positions = torch.arange(T, device=tokens.device)
            if self.runs:                                   # (R, 1, T, width)
                x = x + self.pos(positions.expand(self.runs, T))[:, None]
            else:
                x = x + self.pos(positions)[None]
        for blk in self.blocks:
            x = blk(x, mode)
        return self.readout(self.norm(x))

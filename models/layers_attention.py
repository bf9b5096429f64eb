"""Causal multi-head self-attention (the ``transformer`` mixer), rotary or no positions.

Pre-norm blocks are assembled in :mod:`seqtheory.models.model`; this module provides the mixer.
Positions: ``"rotary"`` (RoPE, Su et al. 2021, arXiv:2104.09864) applied to queries and keys, or
``"learned"`` (the model adds a learned position embedding to the input; the mixer then uses none).
``forward(x, mode=...)`` accepts ``"parallel"`` and ``"recurrent"`` for interface parity with the
recurrent layers; attention has a single (parallel, masked) form. Shapes ``(B, T, width)``.
A non-finite input leaves the outputs before it as they are without it; later outputs are NaN
(:mod:`seqtheory.models.nonfinite`).
"""
from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn

from .layers_diagonal import check_input, check_mode, check_sizes
from .nonfinite import finite_stand_ins, poison_after
from .stacking import Linear, fold, unfold

__all__ = ["rotary_embedding", "causal_attention", "CausalSelfAttention"]


def rotary_embedding(x: torch.Tensor, base: float = 10000.0) -> torch.Tensor:
    """Apply RoPE to ``x (B, T, H, D)`` (``D`` even): pairs ``(x_{2i}, x_{2i+1})`` are rotated by
    the angle ``t · base^{−2i/D}`` at position ``t`` (0-based)."""
    Bsz, T, H, D = x.shape
    if D % 2:
        raise ValueError(f"rotary embedding needs an even head dimension, got {D}")
    inv = base ** (-torch.arange(0, D, 2, dtype=x.dtype, device=x.device) / D)
    ang = torch.arange(T, dtype=x.dtype, device=x.device)[:, None] * inv[None, :]   # (T, D/2)
    cos, sin = ang.cos()[None, :, None, :], ang.sin()[None, :, None, :]
    x1, x2 = x[..., 0::2], x[..., 1::2]
    out = torch.stack([x1 * cos - x2 * sin, x1 * sin + x2 * cos], dim=-1)
    return out.flatten(-2)


def causal_attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
    """Causal scaled dot-product attention, ``q, k, v`` and the result ``(B, T, H, D)``. A
    non-finite query, key or value leaves the outputs before it as they are without it (the
    masked weights are 0, and ``0 · NaN`` would be NaN); the outputs from a non-finite key or
    value on, and at a non-finite query, are NaN (:mod:`seqtheory.models.nonfinite`)."""
    (k, v), (q,), _, poisoned = finite_stand_ins((k, v), (q,))
    o = F.scaled_dot_product_attention(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2),
                                       is_causal=True).transpose(1, 2)
    return poison_after(o, poisoned)


class CausalSelfAttention(nn.Module):
    """Multi-head causal self-attention with optional rotary positions. Shapes ``(B, T, width)``
    (``(R, B, T, width)`` when stacked, :mod:`seqtheory.models.stacking`)."""

    runs = 0

    def __init__(self, width: int, n_heads: int = 4, positions: str = "rotary"):
        super().__init__()
        check_sizes(width, n_heads)
        if positions not in ("rotary", "learned"):
            raise ValueError(f"positions must be 'rotary' or 'learned', got {positions!r}")
        self.width, self.n_heads, self.positions = width, n_heads, positions
        self.head_dim = width // n_heads
        self.qkv = Linear(width, 3 * width)
        self.out_proj = Linear(width, width)

    def forward(self, x: torch.Tensor, mode: str = "parallel") -> torch.Tensor:
        check_mode(mode)
        check_input(x, self.width, self.runs)
        H, D, R = self.n_heads, self.head_dim, self.runs
        q, k, v = fold(self.qkv(x), R).unflatten(-1, (3, H, D)).unbind(-3)
        if self.positions == "rotary":
            q, k = rotary_embedding(q), rotary_embedding(k)
        return self.out_proj(unfold(causal_attention(q, k, v), R).flatten(-2))

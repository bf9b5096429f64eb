"""A purely abelian one-layer state model: commuting diagonal transitions, no input bias, and a
readout of the state alone.

The state is ``h_t = λ(x_t) ⊙ h_{t−1}`` with ``h_0`` learned (complex, ``width`` channels) and
``λ(a) = exp(−softplus(ρ_a) + iθ_a)`` (modulus ≤ 1, any phase, so negative reals included). All
transition maps commute and no token adds a bias, so the final state after a word depends only on
the multiset of its letters: ``h_T(x) = h_T(x̄)`` for the reversed word ``x̄``. The output at
position ``t`` is an MLP of ``(Re h_t, Im h_t)`` only (no residual path from the current token).

This is the *abelian* class of [DEPTH] (G. Heo et al., arXiv:2603.05573, Theorem 3.2 as corrected
for abelian models; SPEC §3.1 ``depth.thm3.2.abelian``), as opposed to the *restricted* layers
(Mamba, AUSSM: commuting linear parts plus an input bias) of :mod:`.layers_diagonal`, whose
affine maps do not commute.

Input: integer tokens ``(B, T)`` in ``[0, vocab_size)``; output ``(B, T, n_out)`` in the
parameters' dtype. The scan is computed in parallel through cumulative sums of the log-transitions
(exact up to floating-point rounding of the sums).
"""
from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn

from ._checks import check_int

__all__ = ["AbelianStateModel", "diagonal_scan", "check_tokens"]


class AbelianStateModel(nn.Module):
    """One abelian layer + state-only readout (see the module docstring).

    ``vocab_size``, ``n_out``, ``width`` (complex state channels), ``hidden`` (readout MLP width):
    positive ints (``ValueError`` otherwise).
    """

    def __init__(self, vocab_size: int, n_out: int, width: int = 32, hidden: int = 64):
        super().__init__()
        vocab_size, n_out, width, hidden = (
            check_int(name, v, 1) for name, v in (("vocab_size", vocab_size), ("n_out", n_out),
                                                  ("width", width), ("hidden", hidden)))
        self.vocab_size = vocab_size
        self.log_decay = nn.Parameter(torch.full((vocab_size, width), -3.0))   # ρ: |λ| = e^{−softplus ρ}
        self.phase = nn.Parameter(0.05 * torch.randn(vocab_size, width))        # θ, small at init
        self.h0 = nn.Parameter(torch.randn(2, width) / width ** 0.5)            # (Re, Im) of h_0
        self.readout = nn.Sequential(nn.Linear(2 * width, hidden), nn.GELU(), nn.Linear(hidden, n_out))

    def states(self, tokens: torch.Tensor) -> torch.Tensor:
        """``(Re h_t, Im h_t)`` concatenated, ``(B, T, 2·width)``."""
        check_tokens(tokens, self.vocab_size)
        return diagonal_scan(-F.softplus(self.log_decay[tokens]), self.phase[tokens], self.h0)

    def forward(self, tokens: torch.Tensor, mode: str = "parallel") -> torch.Tensor:
        if mode not in ("parallel", "recurrent"):
            raise ValueError(f"mode must be 'parallel' or 'recurrent', got {mode!r}")
        return self.readout(self.states(tokens))


def check_tokens(tokens, vocab_size: int) -> None:
    """``TypeError`` unless ``tokens`` is an integer tensor; ``ValueError`` unless it has shape
    ``(batch, time)`` with entries in ``[0, vocab_size)``."""
    if not isinstance(tokens, torch.Tensor) or tokens.dtype not in (torch.int64, torch.int32):
        raise TypeError("tokens must be an integer torch.Tensor of shape (batch, time)")
    if tokens.ndim != 2:
        raise ValueError(f"tokens must have shape (batch, time), got {tuple(tokens.shape)}")
    if tokens.numel() and (int(tokens.min()) < 0 or int(tokens.max()) >= vocab_size):
        raise ValueError(f"tokens must lie in [0, {vocab_size})")


def diagonal_scan(log_modulus: torch.Tensor, phase: torch.Tensor, h0: torch.Tensor) -> torch.Tensor:
    """States of a complex-diagonal linear recurrence without input bias (left action
    ``h_t = λ_t ⊙ h_{t−1}``, ``λ_t = exp(log_modulus_t + i·phase_t)``), so
    ``h_t = exp(Σ_{s≤t} log λ_s) ⊙ h_0``: computed in parallel by cumulative sums over time.

    ``log_modulus``, ``phase``: real ``(B, T, w)``; ``h0``: ``(2, w)`` (real and imaginary parts).
    Returns ``(Re h_t, Im h_t)`` concatenated, ``(B, T, 2w)``, in the inputs' dtype."""
    mag = torch.exp(torch.cumsum(log_modulus, dim=1))
    ang = torch.cumsum(phase, dim=1)
    re0, im0 = h0[0], h0[1]
    c, s = torch.cos(ang), torch.sin(ang)
    return torch.cat([mag * (c * re0 - s * im0), mag * (s * re0 + c * im0)], dim=-1)

"""A deep abelian state model: ``k`` layers of commuting complex-diagonal transitions without input
bias, where the transition of layer ``i`` at position ``t`` is a smooth function of the token and of
layer ``i−1``'s state at ``t`` (the polynomial coupling of a cascade), and a smooth readout.

Conventions (left action, as :mod:`.abelian`): layer ``i`` has complex state
``h^i_t = λ^i_t ⊙ h^i_{t−1}`` (``width`` channels, ``h^i_0`` learned), so
``h^i_t = (λ^i_t ⋯ λ^i_1) ⊙ h^i_0``: every transition is diagonal and linear (no bias), and the
transitions of one layer commute.

* layer 1: ``λ^1_t = exp(−softplus(ρ_{x_t}) + iθ_{x_t})``, a function of the token alone (exactly
  :class:`~seqtheory.models.abelian.AbelianStateModel`'s layer; same parameter names), so
  ``h^1_t`` depends only on the multiset of ``x_1 … x_t``;
* layer ``i ≥ 2``: ``(ρ, θ) = W₂ tanh(E[x_t] + W₁ y^{i−1}_t + b₁) + b₂`` with
  ``y^{i−1}_t = (Re h^{i−1}_t, Im h^{i−1}_t)``, ``λ^i_t = exp(−softplus ρ + iθ)``. With
  ``coupling=False`` the ``W₁`` term is absent: every layer is then a function of the token alone
  and the whole model is order-free (the negative control of ``depth.cor3.6.trained``);
* readout: ``Linear → GELU → Linear`` of the concatenated ``y^1_t … y^k_t`` (every layer's state;
  the readout sees no token directly).

This is the depth-``k`` abelian class of [DEPTH] (G. Heo et al., arXiv:2603.05573, Proposition 3.3:
a cascade of abelian layers coupled through smooth (polynomial) maps of the previous layer's
output; Corollary 3.6: its local error on an ε-scaled target). Depth 1 is
:class:`~seqtheory.models.abelian.AbelianStateModel` (tests/test_abelian_deep.py checks equal
outputs under the same parameters).

Input: integer tokens ``(B, T)`` in ``[0, vocab_size)``; output ``(B, T, n_out)`` in the
parameters' dtype (float64 after ``.double()``).
"""
from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn

from ._checks import check_int
from .abelian import check_tokens, diagonal_scan

__all__ = ["DeepAbelianModel", "CoupledAbelianLayer"]


class CoupledAbelianLayer(nn.Module):
    """Layer ``i ≥ 2`` of :class:`DeepAbelianModel`: diagonal transitions ``exp(−softplus ρ + iθ)``
    with ``(ρ, θ)`` an MLP (tanh, ``hidden`` units) of the token and (``coupling``) of the
    previous layer's state ``(B, T, 2·in_width)``."""

    def __init__(self, vocab_size: int, in_width: int, width: int, hidden: int, coupling: bool):
        super().__init__()
        self.width, self.coupling = width, coupling
        self.token = nn.Embedding(vocab_size, hidden)
        nn.init.normal_(self.token.weight, std=0.5)
        self.state_in = nn.Linear(2 * in_width, hidden, bias=False) if coupling else None
        self.out = nn.Linear(hidden, 2 * width)
        with torch.no_grad():                              # transitions near the identity at init
            self.out.weight.mul_(0.1)
            self.out.bias.zero_()
            self.out.bias[:width] = -3.0                   # |λ| = e^{−softplus(−3)} ≈ 0.95
        self.h0 = nn.Parameter(torch.randn(2, width) / width ** 0.5)

    def log_transitions(self, tokens: torch.Tensor, prev: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """``(log|λ_t|, arg λ_t)``, each ``(B, T, width)``."""
        z = self.token(tokens)
        if self.state_in is not None:
            z = z + self.state_in(prev)
        rho, theta = self.out(torch.tanh(z)).split(self.width, dim=-1)
        return -F.softplus(rho), theta


class DeepAbelianModel(nn.Module):
    """``depth`` coupled abelian layers + a state-only readout (see the module docstring).

    ``vocab_size``, ``n_out``, ``depth``, ``width`` (complex channels per layer), ``hidden``
    (readout width), ``coupling_hidden`` (width of each coupling MLP): positive ints
    (``ValueError`` otherwise). ``coupling``: bool; False drops the dependence of layer ``i ≥ 2``
    on layer ``i − 1`` (an order-free model of the same size)."""

    def __init__(self, vocab_size: int, n_out: int, depth: int = 2, width: int = 8, hidden: int = 32,
                 coupling_hidden: int = 16, coupling: bool = True):
        super().__init__()
        vocab_size, n_out, depth, width, hidden, coupling_hidden = (
            check_int(name, v, 1) for name, v in (
                ("vocab_size", vocab_size), ("n_out", n_out), ("depth", depth), ("width", width),
                ("hidden", hidden), ("coupling_hidden", coupling_hidden)))
        if not isinstance(coupling, bool):
            raise TypeError(f"coupling must be a bool, got {coupling!r}")
        self.vocab_size, self.depth, self.coupling = vocab_size, depth, coupling
        self.log_decay = nn.Parameter(torch.full((vocab_size, width), -3.0))   # layer 1: ρ
        self.phase = nn.Parameter(0.05 * torch.randn(vocab_size, width))        # layer 1: θ
        self.h0 = nn.Parameter(torch.randn(2, width) / width ** 0.5)            # layer 1: h_0
        self.layers = nn.ModuleList(CoupledAbelianLayer(vocab_size, width, width, coupling_hidden, coupling)
                                    for _ in range(depth - 1))
        self.readout = nn.Sequential(nn.Linear(2 * width * depth, hidden), nn.GELU(),
                                     nn.Linear(hidden, n_out))

    def log_transitions(self, tokens: torch.Tensor) -> list[tuple[torch.Tensor, torch.Tensor]]:
        """Per layer ``(log|λ^i_t|, arg λ^i_t)``, each real ``(B, T, width)``."""
        return [lt for lt, _ in self._layers(tokens)]

    def layer_states(self, tokens: torch.Tensor, mode: str = "parallel") -> list[torch.Tensor]:
        """Per layer ``(Re h^i_t, Im h^i_t)``, each ``(B, T, 2·width)``. ``mode``: ``"parallel"``
        (cumulative sums of the log-transitions) or ``"recurrent"`` (the product
        ``h_t = λ_t ⊙ h_{t−1}`` step by step; the same up to rounding)."""
        if mode not in ("parallel", "recurrent"):
            raise ValueError(f"mode must be 'parallel' or 'recurrent', got {mode!r}")
        return [y for _, y in self._layers(tokens, mode)]

    def forward(self, tokens: torch.Tensor, mode: str = "parallel") -> torch.Tensor:
        return self.readout(torch.cat(self.layer_states(tokens, mode), dim=-1))

    def _layers(self, tokens, mode: str = "parallel"):
        check_tokens(tokens, self.vocab_size)
        lt = (-F.softplus(self.log_decay[tokens]), self.phase[tokens])
        out = [(lt, _scan(*lt, self.h0, mode))]
        for layer in self.layers:
            lt = layer.log_transitions(tokens, out[-1][1])
            out.append((lt, _scan(*lt, layer.h0, mode)))
        return out


def _scan(log_modulus, phase, h0, mode):
    if mode == "parallel":
        return diagonal_scan(log_modulus, phase, h0)
    h = torch.complex(h0[0], h0[1]).expand(log_modulus.shape[0], -1)
    states = []
    for t in range(log_modulus.shape[1]):
        h = torch.polar(torch.exp(log_modulus[:, t]), phase[:, t]) * h
        states.append(torch.cat([h.real, h.imag], dim=-1))
    return torch.stack(states, dim=1)

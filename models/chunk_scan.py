"""Closed-form chunked scans of linear recurrences with scalar (per-head) or per-key decays.

The parallel forms of :mod:`seqtheory.models.layers_diagonal` reduce to one computation, the
state-space duality (SSD) form of Dao & Gu 2024 (arXiv:2405.21060, §6, the ``ssd_minimal``
listing) of the recurrence

    Z_t = a_t Z_{t−1} + k_t v_tᵀ,   y_t = Z_tᵀ q_t,   Z_0 = state0,   a_t = exp(g_t) ∈ [0, 1],

with ``Z_t`` an ``N × P`` state per batch element and head. The sequence is cut into chunks of
``L`` steps (layout ``(B, H, n_chunks, L, ·)``) and every quantity is a batched matrix product:

* inside a chunk ``y = ((Q Kᵀ) ⊙ W) V`` with the causal decay matrix
  ``W[t, s] = exp(Σ_{s<r≤t} g_r)`` (:func:`segment_sums`: sums of terms ``≤ 0`` over the steps a
  pair spans, never differences of cumulative sums, so no cancellation and nothing above 1);
* each chunk's own contribution to the state at its end, ``(K ⊙ exp(Σ_{r>s} g_r))ᵀ V``;
* the state at the start of every chunk, for all chunks at once (:func:`chunk_starts`): the
  recurrence over chunks solved in closed form by one more matrix of segment sums over the chunk
  totals (no loop over chunks);
* the start-state contribution ``(Q ⊙ exp(Σ_{r≤t} g_r)) Z_start``.

No step computes the exponential of a positive number, so every factor lies in ``[0, 1]`` and
saturated decays (``g = −1e4``, or ``−inf``) are exact zeros, not overflows. With ``g = 0``
throughout (``log_decay=None``: unit-modulus transitions after the rotating-frame change of
variables of :mod:`seqtheory.models.layers_diagonal`) ``W`` is the causal mask and the chunk
states are plain cumulative sums. The number of operations does not depend on ``T``.
"""
from __future__ import annotations

import functools
import math

import torch
import torch.nn.functional as F

__all__ = ["segment_sums", "decay_matrix", "sums_after", "pad_time", "to_chunks", "from_chunks",
           "chunk_starts", "decay_scan_chunked"]


#: log-decays below this are replaced by it before the sums (``-inf`` is a valid gate, ``a = 0``;
#: in a matrix product ``0 · (−inf)`` would be NaN); ``exp`` of any sum involving it is still 0
_LOG_FLOOR = -1e30


#: the sums :func:`_sums` computes: over the steps ``s < r ≤ t`` of each pair (``"segment"``,
#: ``L²`` columns, ``t·L + s``), after each step (``"after"``: ``r > s``) and up to each step
#: (``"prefix"``: ``r ≤ t``)
_SUM_PARTS = ("segment", "after", "prefix")


def _constant(builder, *args):
    """``builder(*args)``, made once per argument set and kept (:func:`functools.lru_cache`);
    under ``torch.compile`` built in the graph instead (a constant the compiler folds)."""
    if torch.compiler.is_compiling():
        return builder.__wrapped__(*args)
    return builder(*args)


@functools.lru_cache(maxsize=64)
def _sum_matrix(L: int, parts: tuple[str, ...], device: torch.device, dtype: torch.dtype):
    """The constant 0/1 matrix ``(L, Σ widths)`` whose product with per-step values ``(…, L)``
    gives the sums ``parts`` of :data:`_SUM_PARTS`, side by side. Created once per argument
    set, outside any inference mode (so that autograd may save it)."""
    with torch.inference_mode(False):
        r = torch.arange(L, device=device)
        cols = {"segment": lambda: ((r[None, :, None] < r[None, None, :])
                                    & (r[None, None, :] <= r[:, None, None])).reshape(L * L, L).T,
                "after": lambda: r[:, None] > r[None, :],
                "prefix": lambda: r[:, None] <= r[None, :]}
        return torch.cat([cols[p]() for p in parts], dim=1).to(dtype)


@functools.lru_cache(maxsize=64)
def _causal(L: int, device: torch.device, dtype: torch.dtype):
    """``(causal, upper)``: the mask ``t ≥ s`` of an ``L × L`` chunk as ``dtype`` and the mask
    ``t < s`` as bool (constants, made once)."""
    with torch.inference_mode(False):
        causal = torch.ones(L, L, dtype=torch.bool, device=device).tril()
        return causal.to(dtype), ~causal


def _sums(vals: torch.Tensor, parts: tuple[str, ...]) -> list[torch.Tensor]:
    """The sums ``parts`` (:data:`_SUM_PARTS`) of per-step values ``vals (…, L)`` by one matrix
    product, each ``(…, width)``. Each sum adds exactly the terms it spans (the other
    coefficients are 0), so a sum of log-decays ``≤ 0`` has no cancellation. Values below
    ``−1e30`` (``-inf``: a closed gate; ``0 · (−inf)`` would be NaN) count as ``−1e30``."""
    L = vals.shape[-1]
    out = vals.clamp_min(_LOG_FLOOR) @ _constant(_sum_matrix, L, parts, vals.device, vals.dtype)
    if len(parts) == 1:
        return [out]
    return list(out.split([L * L if p == "segment" else L for p in parts], dim=-1))


def segment_sums(vals: torch.Tensor, fill: float = float("-inf")) -> torch.Tensor:
    """Segment sums of per-step values ``vals[..., l]`` (length ``L``): ``out[..., t, s] =
    Σ_{s<r≤t} vals_r`` for ``t ≥ s`` (0 on the diagonal) and ``fill`` above it (``-inf``: ``exp``
    gives the causal decay matrix).

    Each entry is summed from the steps it spans (one product with a constant 0/1 matrix), never
    formed as a difference ``cs_t − cs_s`` of cumulative sums: for log-gates the entries are sums
    of terms ``≤ 0`` without cancellation, so a segment after a saturated gate
    (``log a ≈ −1e4``) keeps its full relative precision in float32. Values below ``−1e30``
    (``-inf``: a closed gate) count as ``−1e30``.
    """
    L = vals.shape[-1]
    (seg,) = _sums(vals, ("segment",))
    return seg.unflatten(-1, (L, L)).masked_fill(_constant(_causal, L, vals.device, vals.dtype)[1], fill)


def _decays(seg: torch.Tensor) -> torch.Tensor:
    """The causal decay matrix ``exp`` of segment sums ``(…, L²)`` (:func:`_sums`), zeros above
    the diagonal, ``(…, L, L)``."""
    L = math.isqrt(seg.shape[-1])
    return torch.exp(seg.unflatten(-1, (L, L))) * _constant(_causal, L, seg.device, seg.dtype)[0]


def decay_matrix(vals: torch.Tensor) -> torch.Tensor:
    """``exp`` of :func:`segment_sums` with zeros above the diagonal: the causal decay matrix
    ``W[..., t, s] = ∏_{s<r≤t} a_r`` of log-decays ``vals (..., L)``, entries in ``[0, 1]``."""
    return _decays(_sums(vals, ("segment",))[0])


def sums_after(vals: torch.Tensor, dim: int = -1) -> torch.Tensor:
    """``out_s = Σ_{r>s} vals_r`` along ``dim`` (sums of the spanned terms only, no
    cancellation): the log-decay from step ``s`` to the end of its chunk."""
    return _sums(vals.movedim(dim, -1), ("after",))[0].movedim(-1, dim)


def pad_time(t: torch.Tensor | None, pad: int) -> torch.Tensor | None:
    """``t`` (time on dim 1) with ``pad`` zero steps appended (``None`` stays ``None``)."""
    if t is None or pad == 0:
        return t
    return F.pad(t, (0, 0) * (t.ndim - 2) + (0, pad))


def to_chunks(t: torch.Tensor, n_chunks: int) -> torch.Tensor:
    """``(*, B, T, H, d)`` (``T`` a multiple of ``n_chunks``) → ``(*, B, H, n_chunks, L, d)``;
    a ``(B, T, H)`` tensor → ``(B, H, n_chunks, L)``."""
    if t.ndim == 3:
        B, T, H = t.shape
        return t.reshape(B, n_chunks, T // n_chunks, H).permute(0, 3, 1, 2)
    *lead, B, T, H, d = t.shape
    k = len(lead)
    t = t.reshape(*lead, B, n_chunks, T // n_chunks, H, d)
    return t.permute(*range(k), k, k + 3, k + 1, k + 2, k + 4)


def from_chunks(y: torch.Tensor, T: int) -> torch.Tensor:
    """Inverse of :func:`to_chunks` for ``(*, B, H, n_chunks, L, P)``, cut to ``T`` steps:
    ``(*, B, T, H, P)``."""
    *lead, B, H, nc, L, P = y.shape
    k = len(lead)
    y = y.permute(*range(k), k, k + 2, k + 3, k + 1, k + 4).reshape(*lead, B, nc * L, H, P)
    return y[..., :T, :, :]


def chunk_starts(states: torch.Tensor, log_totals: torch.Tensor | None,
                 state0: torch.Tensor | None) -> torch.Tensor:
    """The state at the start of every chunk, in closed form.

    ``states (B, H, nc, N, P)``: each chunk's own contribution to the state at its end;
    ``log_totals``: the log-decay of each whole chunk, ``(B, H, nc)`` (one decay per head) or
    ``(B, H, nc, N)`` (one per state row, GLA's key-wise gates), or ``None`` (no decay);
    ``state0 (B, H, N, P)`` or ``None`` (zero). Returns ``starts (B, H, nc, N, P)`` with
    ``starts_k = Σ_{j<k} exp(Σ_{j<m<k} g_m) ⊙ states_j + exp(Σ_{m<k} g_m) ⊙ state0``: the
    recurrence ``S ← exp(g_k) ⊙ S + states_k`` over chunks solved by one product with the matrix
    ``exp(segment_sums)`` over the chunk totals (entries in ``[0, 1]``)."""
    B, H, nc, N, P = states.shape
    first = (states.new_zeros(B, H, 1, N, P) if state0 is None
             else state0.to(states.dtype).expand(B, H, N, P)[:, :, None])
    prev = torch.cat([first, states[:, :, :-1]], dim=2)             # prev_k: what enters chunk k
    if log_totals is None:
        return prev.cumsum(2)
    shifted = F.pad(log_totals.narrow(2, 0, nc - 1), (0, 0) * (log_totals.ndim - 3) + (1, 0))
    if log_totals.ndim == 3:                                         # one decay per head
        D = decay_matrix(shifted).to(states.dtype)                   # (B, H, nc, nc)
        return (D @ prev.reshape(B, H, nc, N * P)).reshape(B, H, nc, N, P)
    D = decay_matrix(shifted.transpose(-1, -2)).to(states.dtype)     # (B, H, N, nc, nc)
    return (D @ prev.transpose(2, 3)).transpose(2, 3)


def decay_scan_chunked(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor,
                       log_decay: torch.Tensor | None, state0: torch.Tensor | None,
                       chunk: int) -> torch.Tensor:
    """``y_t = Z_tᵀ q_t`` of ``Z_t = exp(g_t) Z_{t−1} + k_t v_tᵀ``, ``Z_0 = state0`` (module
    docstring), in closed form over chunks of ``chunk`` steps.

    Shapes: ``q (*, B, T, H, N)`` (``*``: optional leading dimensions, e.g. several read-outs of
    one state), ``k (B, T, H, N)``, ``v (B, T, H, P)``, ``log_decay (B, T, H)`` (``g_t ≤ 0``;
    ``-inf`` allowed) or ``None`` (``g = 0``), ``state0 (B, H, N, P)`` or ``(H, N, P)`` or
    ``None``. All of one dtype (real or complex; the decays real). Returns ``(*, B, T, H, P)``.
    Inputs are not checked (the public scans of :mod:`seqtheory.models.layers_diagonal` do);
    ``T ≥ 1`` and ``B ≥ 1``.
    """
    B, T, H, N = k.shape
    L = min(chunk, T)
    nc = -(-T // L)
    pad = nc * L - T
    qc = to_chunks(q if pad == 0 else F.pad(q, (0, 0, 0, 0, 0, pad)), nc)
    kc, vc = (to_chunks(pad_time(t, pad), nc) for t in (k, v))
    scores = qc @ kc.transpose(-1, -2)                                  # (*, B, H, nc, L, L)
    if log_decay is None:
        scores = scores.masked_fill(_constant(_causal, L, k.device, torch.float32)[1], 0.0)
    else:
        g = to_chunks(pad_time(log_decay, pad), nc)                     # (B, H, nc, L)
        parts = ("segment",) + (("prefix",) if nc > 1 or state0 is not None else ()) + \
            (("after",) if nc > 1 else ())
        sums = dict(zip(parts, _sums(g, parts)))                        # one product: every sum
        scores = scores * _decays(sums["segment"]).to(scores.dtype)
    y = scores @ vc
    if nc == 1 and state0 is None:
        return from_chunks(y, T)
    if state0 is not None and state0.ndim == 3:
        state0 = state0.expand(B, H, N, v.shape[-1])
    if log_decay is None:
        if nc == 1:
            return from_chunks(y + qc @ state0[:, :, None], T)
        starts = chunk_starts(kc.transpose(-1, -2) @ vc, None, state0)
        return from_chunks(y + qc @ starts, T)
    cs = sums["prefix"]                                                 # ≤ 0: decay from the chunk start
    if nc == 1:
        starts = state0[:, :, None]
    else:
        to_end = torch.exp(sums["after"]).to(kc.dtype)[..., None]
        starts = chunk_starts((kc * to_end).transpose(-1, -2) @ vc, cs[..., -1], state0)
    return from_chunks(y + (qc * torch.exp(cs).to(qc.dtype)[..., None]) @ starts, T)

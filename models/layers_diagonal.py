"""Diagonal (abelian) sequence-mixing layers: ``mamba``, ``signed_mamba``, ``aussm``, ``gla``.

Every layer here is a *restricted* (abelian) linear recurrence in the sense of [DEPTH]
(G. Heo et al., "Why Depth Matters in Parallelizable Sequence Models: A Lie Algebraic View",
arXiv:2603.05573, §3): the state transition of every token is a diagonal matrix, so the
transitions of all tokens commute. State updates use the left action of SPEC §2,
``h_t = a(x_t) ⊙ h_{t-1} + b(x_t)``, with ``h_0 = 0``.

* ``mamba`` (Mamba-2 / SSD style, Dao & Gu 2024, arXiv:2405.21060): a scalar transition per head
  ``a_t = exp(Δ_t A) ∈ (0, 1)`` (``A < 0``, ``Δ_t = softplus(·) > 0``) acting on a ``P × N`` state.
* ``signed_mamba``: the same with ``a_t = 2 exp(Δ_t A) − 1 ∈ (−1, 1)`` (negative eigenvalues, as in
  Grazzi et al. 2024, arXiv:2411.12537).
* ``aussm``: complex unit-modulus transitions ``a_t = exp(i θ_t)`` (AUSSM-style), output ``Re(S C)``.
* ``gla``: gated linear attention (Yang et al. 2023, arXiv:2312.06635): key-wise gates
  ``α_t ∈ (0, 1)^{d_k}``, ``S_t = diag(α_t) S_{t−1} + k_t v_tᵀ``, ``o_t = S_tᵀ q_t``.

Each layer has two mathematically identical forms, selected by ``forward(x, mode=...)``:
``"recurrent"`` (step-by-step reference loop) and ``"parallel"`` (chunked: exact intra-chunk
products computed in log space as segment sums, which are ≤ 0 and therefore never overflow, plus a
short recurrence over chunk states). Tensors are ``(batch, time, width)``; any float dtype and
device. Both forms agree in float64 to ~1e-12 (tests/test_layers.py), also at saturated gates
(log-gates ``−1e4`` or ``≈ 0``) for every chunk size, and in float32 to ~1e-6 relative
(tests/test_layers_saturated.py): no in-chunk quantity is the exponential of a positive
number or a difference of cumulative sums.
"""
from __future__ import annotations

import math

import torch
import torch.nn.functional as F
from torch import nn

from seqtheory.theory._messages import shown

from ._checks import check_int
from .nonfinite import finite_stand_ins, poison_after

__all__ = [
    "scalar_decay_scan_reference", "scalar_decay_scan_chunked", "gla_scan_reference",
    "gla_scan_chunked", "scan_dtype_guard", "MambaMixer", "AUSSMMixer", "GLAMixer", "check_mode", "check_input",
]

_MODES = ("parallel", "recurrent")


def check_sizes(width, n_heads, **sizes) -> None:
    """The size arguments of a mixer: ``width`` and ``n_heads`` positive ints with ``n_heads``
    dividing ``width``, and every ``sizes`` entry (``d_state``, ``chunk``, ...) a positive int;
    ``ValueError`` / ``TypeError`` naming the argument otherwise."""
    check_int("width", width)
    check_int("n_heads", n_heads)
    for name, v in sizes.items():
        check_int(name, v)
    if width % n_heads:
        raise ValueError(f"width ({width}) must be divisible by n_heads ({n_heads})")


def check_mode(mode: str) -> str:
    """Validate a layer ``mode`` (``"parallel"`` or ``"recurrent"``); ValueError otherwise."""
    if mode not in _MODES:
        raise ValueError(f"mode must be one of {_MODES}, got {mode!r}")
    return mode


def check_input(x: torch.Tensor, width: int) -> None:
    """Validate a layer input: a floating tensor of shape ``(batch, time, width)``."""
    if not isinstance(x, torch.Tensor):
        raise TypeError(f"x must be a torch.Tensor, got {type(x).__name__}")
    if x.ndim != 3 or x.shape[-1] != width:
        raise ValueError(f"x must have shape (batch, time, {width}), got {tuple(x.shape)}")
    if not x.is_floating_point():
        raise TypeError(f"x must be a floating tensor, got {x.dtype}")


def scan_dtype_guard(*tensors: torch.Tensor) -> tuple[torch.Tensor, ...]:
    """Upcast half/bfloat16 tensors to float32 for a scan (cumulative sums and products are
    not computed in 8-bit mantissas); other dtypes pass through."""
    return tuple(t.float() if t.dtype in (torch.float16, torch.bfloat16) else t for t in tensors)


def _segsum(vals: torch.Tensor, fill: float = float("-inf")) -> torch.Tensor:
    """Segment sums of per-step values ``vals[..., l]`` (length ``L``): ``out[..., t, s] =
    Σ_{s<r≤t} vals_r`` for ``t ≥ s`` (0 on the diagonal) and ``fill`` above it (``-inf``: ``exp``
    gives the causal decay matrix).

    Each entry is summed from the steps it spans (a masked cumulative sum), never formed as a
    difference ``cs_t − cs_s`` of cumulative sums: for log-gates the entries are sums of terms
    ``≤ 0`` without cancellation, so a segment after a saturated gate (``log a ≈ −1e4``) keeps its
    full relative precision in float32.
    """
    L = vals.shape[-1]
    x = vals[..., :, None].expand(*vals.shape, L)                      # x[..., r, s] = vals_r
    strict = torch.ones(L, L, dtype=torch.bool, device=vals.device).tril(-1)
    out = x.masked_fill(~strict, 0.0).cumsum(-2)                        # Σ_{s<r≤t}
    incl = torch.ones(L, L, dtype=torch.bool, device=vals.device).tril()
    return out.masked_fill(~incl, fill)


def _sum_after(vals: torch.Tensor, dim: int = -1) -> torch.Tensor:
    """``out_s = Σ_{r>s} vals_r`` along ``dim`` (a reversed exclusive cumulative sum, no
    cancellation): the log-decay from step ``s`` to the end of its chunk."""
    shifted = torch.cat([vals.narrow(dim, 1, vals.shape[dim] - 1),
                         torch.zeros_like(vals.narrow(dim, 0, 1))], dim=dim)
    return shifted.flip(dim).cumsum(dim).flip(dim)


def _pad_time(t: torch.Tensor, pad: int, value: float = 0.0) -> torch.Tensor:
    if pad == 0:
        return t
    shape = list(t.shape)
    shape[1] = pad
    return torch.cat([t, t.new_full(shape, value)], dim=1)


def _check_real_without_phase(phase, **tensors) -> None:
    """Without ``phase`` the transitions are real and so must be ``x, b, c`` and ``state0``
    (``TypeError`` naming the first complex one; with ``phase`` they may be complex)."""
    if phase is not None:
        return
    for name, t in tensors.items():
        if isinstance(t, torch.Tensor) and t.is_complex():
            raise TypeError(f"{name} is complex ({t.dtype}) but phase is None: real transitions "
                            f"take real x, b, c and state0 (pass phase for a complex state)")


def scalar_decay_scan_reference(x, b, c, log_mag, parity=None, phase=None, state0=None):
    """Step-by-step reference of ``S_t = a_t S_{t−1} + x_t b_tᵀ``, ``y_t = S_t c_t`` per head.

    Shapes: ``x (B, T, H, P)``, ``b, c (B, T, H, N)``, ``log_mag (B, T, H)`` (``log|a_t|``),
    ``parity (B, T, H)`` optional 0/1 float (1 where ``a_t < 0``), ``phase (B, T, H)`` optional
    (``a_t = |a_t| e^{i phase}``, complex state; ``c`` may then be complex). Returns ``y (B, T, H, P)``
    (complex when ``phase`` is given). ``S_0 = state0`` (``(H, P, N)`` or ``(B, H, P, N)``, real
    or complex; real without ``phase``), ``0`` when ``state0`` is None. ``TypeError`` for a
    complex ``x``, ``b``, ``c`` or ``state0`` without ``phase``.
    """
    _check_real_without_phase(phase, x=x, b=b, c=c, state0=state0)
    Bsz, T, H, P = x.shape
    N = b.shape[-1]
    a = torch.exp(log_mag)
    if parity is not None:
        a = a * (1.0 - 2.0 * parity)
    if phase is not None:
        a = a * torch.exp(1j * phase)
        x, b = x.to(a.dtype), b.to(a.dtype)
        c = c.to(a.dtype)
    S = x.new_zeros(Bsz, H, P, N)
    if state0 is not None:
        S = S + state0
    ys = []
    for t in range(T):
        S = a[:, t, :, None, None] * S + x[:, t, :, :, None] * b[:, t, :, None, :]
        ys.append(torch.einsum("bhpn,bhn->bhp", S, c[:, t]))
    return torch.stack(ys, dim=1) if ys else x.new_zeros(Bsz, 0, H, P)


def scalar_decay_scan_chunked(x, b, c, log_mag, parity=None, phase=None, chunk: int = 32,
                              state0=None, real_part: bool = False):
    """Chunked (SSD) form of :func:`scalar_decay_scan_reference`; same arguments and result.
    ``real_part=True`` returns ``Re y`` only (a real tensor, the same values as ``y.real``):
    with phases and real ``x, b`` the imaginary part is then never computed, nor differentiated.

    Within a chunk the decay ``∏_{s<r≤t} a_r`` is ``exp`` of a segment sum of ``log|a|`` (≤ 0, no
    overflow), times ``(−1)^(parity count)`` and ``e^{i Σ phase}``; chunk states are passed on by a
    recurrence over ``⌈T/chunk⌉`` chunks (the first starts from ``state0``). ``T`` need not be a
    multiple of ``chunk``; a chunk longer than ``T`` is shortened to ``T`` (no padding work).
    Non-finite inputs (``log_mag = -inf``, ``a = 0``, is a valid gate): outputs before the
    first one equal the reference's, later ones are NaN (:mod:`seqtheory.models.nonfinite`).
    """
    check_int("chunk", chunk)
    _check_real_without_phase(phase, x=x, b=b, c=c, state0=state0)
    if not isinstance(real_part, bool):
        raise TypeError(f"real_part must be a bool, got {type(real_part).__name__}")
    (x, b, parity, phase), (c,), (log_mag,), poisoned = finite_stand_ins((x, b, parity, phase), (c,),
                                                                          (log_mag,))
    y = _scalar_decay_chunks(x, b, c, log_mag, parity, phase, chunk, state0, real_part)
    return poison_after(y.real if real_part and y.is_complex() else y, poisoned)


def _scalar_decay_chunks(x, b, c, log_mag, parity, phase, chunk: int, state0,
                        real_part: bool = False):
    """The chunked scan of :func:`scalar_decay_scan_chunked` on finite inputs (``real_part``:
    the real-arithmetic path computes ``Re y`` only)."""
    Bsz, T, H, P = x.shape
    N = b.shape[-1]
    if T == 0:
        return x.new_zeros(Bsz, 0, H, P)
    chunk = min(chunk, T)
    S0 = None
    if state0 is not None:                                    # (B, H, N, P): the chunk layout
        S0 = state0.transpose(-1, -2).expand(Bsz, H, N, P)
    pad = (-T) % chunk
    x, b, c, log_mag = (_pad_time(t, pad) for t in (x, b, c, log_mag))
    if parity is not None:
        parity = _pad_time(parity, pad)
    if phase is not None:
        phase = _pad_time(phase, pad)
    nc, L = (T + pad) // chunk, chunk
    # layout (B, H, nc, L, ·): every chunk computation is a batched matrix product
    xr, br, cr = (t.reshape(Bsz, nc, L, H, -1).permute(0, 3, 1, 2, 4).contiguous() for t in (x, b, c))
    lm = log_mag.reshape(Bsz, nc, L, H).permute(0, 3, 1, 2)           # (B, H, nc, L)
    cs = lm.cumsum(-1)
    decay = torch.exp(_segsum(lm))                                      # (B, H, nc, L, L)
    to_end = torch.exp(_sum_after(lm))                                  # (B, H, nc, L)
    from_start = torch.exp(cs)                                          # (B, H, nc, L)
    chunk_total = torch.exp(cs[..., -1])                                # (B, H, nc)
    if parity is not None:
        pc = parity.reshape(Bsz, nc, L, H).permute(0, 3, 1, 2).cumsum(-1)
        sign = lambda d: 1.0 - 2.0 * torch.remainder(d, 2.0)  # noqa: E731
        decay = decay * sign(pc[..., :, None] - pc[..., None, :])
        to_end = to_end * sign(pc[..., -1:] - pc)
        from_start = from_start * sign(pc)
        chunk_total = chunk_total * sign(pc[..., -1])
    if phase is not None:                   # phases: segment sums as for log|a| (no cancellation)
        step_ph = phase.reshape(Bsz, nc, L, H).permute(0, 3, 1, 2)
        ph, dph, te = step_ph.cumsum(-1), _segsum(step_ph, 0.0), _sum_after(step_ph)
    if phase is not None and not (x.is_complex() or b.is_complex()):
        return _complex_chunks_real_arith(xr, br, cr, decay, to_end, from_start, chunk_total,
                                          (ph, dph, te), Bsz, T, H, P, N, nc, L, S0, real_part)
    if phase is not None:
        decay = decay * torch.exp(1j * dph)
        to_end = to_end * torch.exp(1j * te)
        from_start = from_start * torch.exp(1j * ph)
        chunk_total = chunk_total * torch.exp(1j * ph[..., -1])
        cdt = decay.dtype
        xr, br, cr = xr.to(cdt), br.to(cdt), cr.to(cdt)
    if S0 is not None and (S0.is_complex() or xr.is_complex()):
        cdt = torch.promote_types(S0.dtype, xr.dtype)
        xr, br, cr, S0 = xr.to(cdt), br.to(cdt), cr.to(cdt), S0.to(cdt)
        decay, to_end, from_start, chunk_total = (t.to(cdt) for t in (decay, to_end, from_start, chunk_total))
    y = ((cr @ br.transpose(-1, -2)) * decay) @ xr                      # intra-chunk, (B, H, nc, L, P)
    states = (br * to_end[..., None]).transpose(-1, -2) @ xr            # (B, H, nc, N, P) = Sᵀ per chunk
    S = states.new_zeros(Bsz, H, N, P) if S0 is None else S0.to(states.dtype)
    starts = []
    for k in range(nc):
        starts.append(S)
        S = chunk_total[:, :, k, None, None] * S + states[:, :, k]
    y = y + (cr * from_start[..., None]) @ torch.stack(starts, dim=2)
    return y.permute(0, 2, 3, 1, 4).reshape(Bsz, nc * L, H, P)[:, :T]


def _complex_chunks_real_arith(xr, br, cr, decay, to_end, from_start, chunk_total, phases,
                               Bsz, T, H, P, N, nc, L, S0=None, real_part: bool = False):
    """The unit-phase part of :func:`scalar_decay_scan_chunked` for real ``x, b`` in real
    arithmetic (cos/sin pairs instead of complex tensors, which are slow on CPU). ``phases`` is
    ``(cumulative phase, in-chunk segment sums, phase to the chunk end)``. ``real_part``: return
    ``Re y`` (real) without computing ``Im y``; ``Re y`` is the same computation either way."""
    ph, dph, te = phases
    Dc, Ds = decay * torch.cos(dph), decay * torch.sin(dph)
    te_c, te_s = to_end * torch.cos(te), to_end * torch.sin(te)
    fs_c, fs_s = from_start * torch.cos(ph), from_start * torch.sin(ph)
    tc, ts = chunk_total * torch.cos(ph[..., -1]), chunk_total * torch.sin(ph[..., -1])
    c_re, c_im = ((cr.real.contiguous(), cr.imag.contiguous()) if cr.is_complex()
                  else (cr, torch.zeros_like(cr)))
    bT = br.transpose(-1, -2)
    G_re, G_im = c_re @ bT, c_im @ bT
    y_re = (G_re * Dc - G_im * Ds) @ xr
    st_re = (br * te_c[..., None]).transpose(-1, -2) @ xr               # (B, H, nc, N, P)
    st_im = (br * te_s[..., None]).transpose(-1, -2) @ xr
    S_re, S_im = st_re.new_zeros(Bsz, H, N, P), st_re.new_zeros(Bsz, H, N, P)
    if S0 is not None:                                                  # the initial state (B, H, N, P)
        S_re = S_re + (S0.real if S0.is_complex() else S0)
        if S0.is_complex():
            S_im = S_im + S0.imag
    s_re, s_im = [], []
    for k in range(nc):
        s_re.append(S_re)
        s_im.append(S_im)
        a, bb = tc[:, :, k, None, None], ts[:, :, k, None, None]
        S_re, S_im = a * S_re - bb * S_im + st_re[:, :, k], a * S_im + bb * S_re + st_im[:, :, k]
    S0_re, S0_im = torch.stack(s_re, dim=2), torch.stack(s_im, dim=2)
    cf_re = c_re * fs_c[..., None] - c_im * fs_s[..., None]
    cf_im = c_re * fs_s[..., None] + c_im * fs_c[..., None]
    y_re = y_re + cf_re @ S0_re - cf_im @ S0_im
    if real_part:
        y = y_re
    else:
        y_im = (G_re * Ds + G_im * Dc) @ xr
        y = torch.complex(y_re, y_im + cf_re @ S0_im + cf_im @ S0_re)
    return y.permute(0, 2, 3, 1, 4).reshape(Bsz, nc * L, H, P)[:, :T]


class MambaMixer(nn.Module):
    """Selective diagonal SSM, Mamba-2 style (one scalar transition per head).

    ``signed=False``: ``a_t = exp(Δ_t A) ∈ (0, 1)`` (``mamba``); ``signed=True``:
    ``a_t = 2 exp(Δ_t A) − 1 ∈ (−1, 1)`` (``signed_mamba``). Input injection ``Δ_t x_t b_tᵀ``,
    output ``(S_t c_t + D x_t) ⊙ silu(z_t)``, then a linear projection. Shapes ``(B, T, width)``.
    """

    def __init__(self, width: int, n_heads: int = 4, d_state: int = 16, signed: bool = False,
                 chunk: int = 16):
        super().__init__()
        check_sizes(width, n_heads, d_state=d_state, chunk=chunk)
        self.width, self.n_heads, self.d_state, self.signed, self.chunk = width, n_heads, d_state, signed, chunk
        self.head_dim = width // n_heads
        self.in_proj = nn.Linear(width, 2 * width + 2 * n_heads * d_state + n_heads)
        self.A_log = nn.Parameter(torch.log(torch.linspace(1.0, 8.0, n_heads)))
        self.dt_bias = nn.Parameter(torch.log(torch.expm1(torch.linspace(0.01, 0.5, n_heads))))
        self.D = nn.Parameter(torch.ones(n_heads))
        self.out_proj = nn.Linear(width, width)

    def transitions(self, dt_raw: torch.Tensor):
        """From the raw step sizes ``(B, T, H)``: ``(log|a|, parity or None, Δ)``, each
        ``(B, T, H)``; parity is 1.0 where ``a_t < 0`` (signed variant only)."""
        dt = F.softplus(dt_raw + self.dt_bias)
        dA = -dt * torch.exp(self.A_log)                                 # < 0
        if not self.signed:
            return dA, None, dt
        a = 2.0 * torch.exp(dA) - 1.0
        tiny = torch.finfo(a.dtype).tiny
        return torch.log(a.abs().clamp_min(tiny)), (a < 0).to(a.dtype), dt

    def forward(self, x: torch.Tensor, mode: str = "parallel") -> torch.Tensor:
        check_mode(mode)
        check_input(x, self.width)
        Bsz, T, _ = x.shape
        H, N, P = self.n_heads, self.d_state, self.head_dim
        proj = self.in_proj(x)
        xin, z, bb, cc = torch.split(proj[..., :-H], [self.width, self.width, H * N, H * N], dim=-1)
        log_mag, parity, dt = self.transitions(proj[..., -H:])
        xin = xin.reshape(Bsz, T, H, P)
        u = xin * dt[..., None]
        bb, cc = bb.reshape(Bsz, T, H, N), cc.reshape(Bsz, T, H, N)
        dtype = u.dtype
        u, bb, cc, log_mag = scan_dtype_guard(u, bb, cc, log_mag)
        if parity is not None:
            parity = parity.to(log_mag.dtype)
        with torch.autocast(x.device.type, enabled=False):
            if mode == "recurrent":
                y = scalar_decay_scan_reference(u, bb, cc, log_mag, parity)
            else:
                y = scalar_decay_scan_chunked(u, bb, cc, log_mag, parity, chunk=self.chunk)
        y = y.to(dtype) + self.D[:, None] * xin
        y = y.reshape(Bsz, T, self.width) * F.silu(z)
        return self.out_proj(y)


class AUSSMMixer(nn.Module):
    """Complex unit-modulus diagonal SSM (AUSSM-style): ``a_t = exp(i θ_t)``, ``θ_t`` a linear
    function of the input per head; complex state ``S_t = a_t S_{t−1} + x_t b_tᵀ``, output
    ``Re(S_t c_t)`` with complex ``c_t``, gated by ``silu(z_t)``. Shapes ``(B, T, width)``.

    ``learned_state0`` (default True): the start state ``S_0 ∈ C^{H×P×N}`` is a learned parameter
    (else ``S_0 = 0``). With unit-modulus transitions and ``S_0 = 0`` the state is reachable only
    through the input injection, and a phase counter (the cyclic factors of the cascade of [DEPTH]
    Theorem 3.4, which act on a non-zero start state) must be assembled from it; a learned start
    state gives the counter ``e^{iΣθ} S_0`` directly. (A per-head RMS normalisation of the read-out
    was tried and slowed training on S3 markedly.) Internally float inputs become complex
    (complex64 for float32/bfloat16, complex128 for float64).
    """

    def __init__(self, width: int, n_heads: int = 4, d_state: int = 16, chunk: int = 16,
                 learned_state0: bool = True):
        super().__init__()
        check_sizes(width, n_heads, d_state=d_state, chunk=chunk)
        self.width, self.n_heads, self.d_state, self.chunk = width, n_heads, d_state, chunk
        self.head_dim = width // n_heads
        self.in_proj = nn.Linear(width, 2 * width + 3 * n_heads * d_state + n_heads)
        self.out_proj = nn.Linear(width, width)
        if learned_state0:
            shape = (n_heads, self.head_dim, d_state)
            self.state0_re = nn.Parameter(torch.randn(shape) / math.sqrt(d_state))
            self.state0_im = nn.Parameter(torch.randn(shape) / math.sqrt(d_state))
        else:
            self.state0_re = self.state0_im = None

    def state0(self) -> torch.Tensor | None:
        """The start state ``(H, P, N)`` (complex), or None when it is 0."""
        if self.state0_re is None:
            return None
        return torch.complex(self.state0_re, self.state0_im)

    def forward(self, x: torch.Tensor, mode: str = "parallel") -> torch.Tensor:
        check_mode(mode)
        check_input(x, self.width)
        Bsz, T, _ = x.shape
        H, N, P = self.n_heads, self.d_state, self.head_dim
        proj = self.in_proj(x)
        dtype = proj.dtype                        # bfloat16 under autocast
        if dtype not in (torch.float32, torch.float64):
            proj = proj.float()
        xin, z, bb, c_re, c_im, theta = torch.split(
            proj, [self.width, self.width, H * N, H * N, H * N, H], dim=-1)
        xin = xin.reshape(Bsz, T, H, P)
        bb = bb.reshape(Bsz, T, H, N)
        cc = torch.complex(c_re, c_im).reshape(Bsz, T, H, N) / math.sqrt(2.0)
        log_mag = torch.zeros_like(theta)
        s0 = self.state0()
        if s0 is not None:
            s0 = s0.to(cc.dtype)
        with torch.autocast(x.device.type, enabled=False):
            if mode == "recurrent":
                y = scalar_decay_scan_reference(xin, bb, cc, log_mag, phase=theta, state0=s0)
            else:
                y = scalar_decay_scan_chunked(xin, bb, cc, log_mag, phase=theta, chunk=self.chunk,
                                              state0=s0, real_part=True)
        y = y.real.reshape(Bsz, T, self.width).to(dtype) * F.silu(z.to(dtype))
        return self.out_proj(y)


def gla_scan_reference(q, k, v, log_alpha):
    """Step-by-step GLA: ``S_t = diag(α_t) S_{t−1} + k_t v_tᵀ``, ``o_t = S_tᵀ q_t``.

    Shapes ``q, k, log_alpha (B, T, H, K)``, ``v (B, T, H, V)``; returns ``(B, T, H, V)``.
    """
    Bsz, T, H, K = q.shape
    V = v.shape[-1]
    S = q.new_zeros(Bsz, H, K, V)
    alpha = torch.exp(log_alpha)
    out = []
    for t in range(T):
        S = alpha[:, t, :, :, None] * S + k[:, t, :, :, None] * v[:, t, :, None, :]
        out.append(torch.einsum("bhkv,bhk->bhv", S, q[:, t]))
    return torch.stack(out, dim=1) if out else q.new_zeros(Bsz, 0, H, V)


def _factorised_span_limit(dtype: torch.dtype) -> float:
    """Largest in-chunk decay span ``−Σ_chunk log α`` (per key) for which the factorised GLA
    scores ``(q ⊙ e^{b_t})·(k ⊙ e^{−b_s})`` keep every factor within ``[tiny^{1/4}, tiny^{−1/4}]``
    (≈ 21.8 in float32, 177 in float64): no overflow, no subnormal, and a relative error of the
    decay factors of at most about ``L·u·span``."""
    return -0.25 * math.log(torch.finfo(dtype).tiny)


def gla_scan_chunked(q, k, v, log_alpha, chunk: int = 16, log_alpha_min: float | None = None):
    """Chunked GLA (same arguments/result as :func:`gla_scan_reference`), stable for every chunk
    size and every gate value (``log α`` down to ``−inf``).

    Within a chunk the score of the pair ``s ≤ t`` is ``Σ_k q_tk k_sk e^{Σ_{s<r≤t} log α_rk}``.
    When the whole in-chunk decay span ``−Σ_chunk log α`` is at most
    :func:`_factorised_span_limit` (the common case: e.g. ``GLAMixer``'s gates ``≥ e^{−1}`` with
    chunks of ≤ 16 steps in float32) it is computed in the factorised form
    ``(q_t ⊙ e^{b_t}) · (k_s ⊙ e^{−b_s})`` (``b`` the in-chunk cumulative ``log α``: two matrix
    products); otherwise — saturated gates, long chunks — ``e^{−b_s}`` would overflow, and the
    scores are formed pairwise from segment sums of ``log α`` (all ``≤ 0``; memory
    ``B·H·T·chunk·K``). Chunk states are carried by a recurrence over chunks, with the decays to
    the chunk end taken from sums over the steps they span (no differences of cumulative sums).

    ``log_alpha_min`` (optional, ≤ 0): a lower bound on every ``log α`` that the caller
    guarantees (``GLAMixer`` clamps its gates at −1). The path is then chosen from the static
    bound ``−log_alpha_min · chunk`` instead of from the data, so the function reads no tensor
    value and runs under ``torch.func.vmap`` (batched training, :mod:`seqtheory.models.batched`).

    Non-finite inputs (``log α = -inf`` is a valid gate): outputs before the first one equal the
    reference's, later ones are NaN (:mod:`seqtheory.models.nonfinite`).
    """
    check_int("chunk", chunk)
    if log_alpha_min is not None and not (math.isfinite(log_alpha_min) and log_alpha_min <= 0):
        raise ValueError(f"log_alpha_min must be a finite number <= 0, got {shown(log_alpha_min)}")
    (k, v), (q,), (log_alpha,), poisoned = finite_stand_ins((k, v), (q,), (log_alpha,))
    return poison_after(_gla_chunks(q, k, v, log_alpha, chunk, log_alpha_min), poisoned)


def _gla_chunks(q, k, v, log_alpha, chunk: int, log_alpha_min: float | None):
    """The chunked scan of :func:`gla_scan_chunked` on finite inputs."""
    Bsz, T, H, K = q.shape
    V = v.shape[-1]
    if T == 0:
        return q.new_zeros(Bsz, 0, H, V)
    chunk = min(chunk, T)
    pad = (-T) % chunk
    q, k, v, log_alpha = (_pad_time(t, pad) for t in (q, k, v, log_alpha))
    nc, L = (T + pad) // chunk, chunk
    # (B, H, nc, L, ·)
    qr, kr, vr, la = (t.reshape(Bsz, nc, L, H, -1).permute(0, 3, 1, 2, 4) for t in (q, k, v, log_alpha))
    cs = la.cumsum(3)
    q_in = qr * torch.exp(cs)                                            # ⊙ e^{b_t} (≤ 1)
    mask = torch.ones(L, L, dtype=torch.bool, device=q.device).tril()
    if log_alpha_min is not None:
        span = -log_alpha_min * L                                        # static bound
    else:
        span = float(-cs.detach()[..., -1, :].min())
    if span <= _factorised_span_limit(cs.dtype):
        k_in = kr * torch.exp(-cs)                                       # ⊙ e^{−b_s}, bounded
        scores = (q_in @ k_in.transpose(-1, -2)).masked_fill(~mask, 0.0)    # (B, H, nc, L, L)
    else:
        decay = torch.exp(_segsum(la.transpose(-1, -2)))                 # (B, H, nc, K, L, L)
        scores = torch.einsum("bhctk,bhcsk,bhckts->bhcts", qr, kr, decay)
    o = scores @ vr
    k_end = kr * torch.exp(_sum_after(la, dim=3))                        # decay to the chunk end
    states = k_end.transpose(-1, -2) @ vr                                # (B, H, nc, K, V)
    total = torch.exp(cs[..., -1, :])                                    # (B, H, nc, K)
    S = q.new_zeros(Bsz, H, K, V)
    starts = []
    for c in range(nc):
        starts.append(S)
        S = total[:, :, c, :, None] * S + states[:, :, c]
    o = o + q_in @ torch.stack(starts, dim=2)
    return o.permute(0, 2, 3, 1, 4).reshape(Bsz, nc * L, H, V)[:, :T]


GATE_FLOOR = -1.0   # GLAMixer's clamp of log α (keeps the factorised chunked path for chunks ≤ 16)


class GLAMixer(nn.Module):
    """Gated linear attention layer (Yang et al. 2023, arXiv:2312.06635).

    ``log α_t = max(logsigmoid(W_α x_t) / τ, −1)`` (τ = ``gate_temperature``, 16 in the paper;
    the clamp keeps the chunked form on its fast factorised path for chunks of ≤ 16 steps in
    float32; :func:`gla_scan_chunked` is stable for any gates and chunk size), queries
    scaled by ``d_k^{-1/2}``, output gate ``silu(W_g x)``. Shapes ``(B, T, width)``.
    """

    def __init__(self, width: int, n_heads: int = 4, gate_temperature: float = 16.0, chunk: int = 16):
        super().__init__()
        check_sizes(width, n_heads, chunk=chunk)
        self.width, self.n_heads, self.tau, self.chunk = width, n_heads, gate_temperature, chunk
        self.head_dim = width // n_heads
        self.qkvg = nn.Linear(width, 4 * width)
        self.gate = nn.Linear(width, width)
        self.out_proj = nn.Linear(width, width)

    def forward(self, x: torch.Tensor, mode: str = "parallel") -> torch.Tensor:
        check_mode(mode)
        check_input(x, self.width)
        Bsz, T, _ = x.shape
        H, D = self.n_heads, self.head_dim
        q, k, v, g = self.qkvg(x).chunk(4, dim=-1)
        q = q.reshape(Bsz, T, H, D) * D ** -0.5
        k, v = k.reshape(Bsz, T, H, D), v.reshape(Bsz, T, H, D)
        log_alpha = (F.logsigmoid(self.gate(x)) / self.tau).clamp_min(GATE_FLOOR).reshape(Bsz, T, H, D)
        dtype = v.dtype
        q, k, v, log_alpha = scan_dtype_guard(q, k, v, log_alpha)
        with torch.autocast(x.device.type, enabled=False):
            if mode == "recurrent":
                o = gla_scan_reference(q, k, v, log_alpha)
            else:
                o = gla_scan_chunked(q, k, v, log_alpha, chunk=self.chunk, log_alpha_min=GATE_FLOOR)
        return self.out_proj(o.to(dtype).reshape(Bsz, T, self.width) * F.silu(g))

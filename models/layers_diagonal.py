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
``"recurrent"`` (step-by-step reference loop, kept as the reference) and ``"parallel"`` (the
closed form over chunks of :mod:`seqtheory.models.chunk_scan`: intra-chunk products from segment
sums of log-decays, which are ≤ 0 and therefore never overflow, and the chunk start states of
all chunks at once; signs and phases moved into read-outs and inputs, a rotating frame).
Tensors are ``(batch, time, width)`` (``(runs, batch, time, width)`` for stacked runs,
:mod:`seqtheory.models.stacking`); any float dtype and device. Both forms agree in float64 to
~1e-12 (tests/test_layers.py, tests/test_chunk_scan.py, gradients included), also at saturated
gates (log-gates ``−1e4`` or ``≈ 0``) for every chunk size, and in float32 to ~1e-6 relative
(tests/test_layers_saturated.py): no in-chunk quantity is the exponential of a positive number
or a difference of cumulative sums (GLA's factorised path, under its span bound, excepted).
"""
from __future__ import annotations

import contextlib
import math

import torch
import torch.nn.functional as F
from torch import nn

from seqtheory.theory._messages import shown

from ._checks import check_int
from .chunk_scan import (chunk_starts, decay_matrix, decay_scan_chunked, from_chunks, pad_time,
                         sums_after, to_chunks)
from .nonfinite import finite_stand_ins, poison_after
from .scan_inputs import promote_scan_inputs, real_dtype_of
from .stacking import Linear, fold, run_view, unfold

__all__ = [
    "scalar_decay_scan_reference", "scalar_decay_scan_chunked", "gla_scan_reference",
    "gla_scan_chunked", "scan_dtype_guard", "scan_context", "MambaMixer", "AUSSMMixer", "GLAMixer",
    "check_mode", "check_input",
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


def check_input(x: torch.Tensor, width: int, runs: int = 0) -> None:
    """Validate a layer input: a floating tensor of shape ``(batch, time, width)``, or
    ``(runs, batch, time, width)`` for a stacked layer (``runs > 0``,
    :mod:`seqtheory.models.stacking`)."""
    if not isinstance(x, torch.Tensor):
        raise TypeError(f"x must be a torch.Tensor, got {type(x).__name__}")
    lead = f"({runs}, batch, " if runs else "(batch, "
    if x.ndim != 3 + bool(runs) or x.shape[-1] != width or (runs and x.shape[0] != runs):
        raise ValueError(f"x must have shape {lead}time, {width}), got {tuple(x.shape)}")
    if not x.is_floating_point():
        raise TypeError(f"x must be a floating tensor, got {x.dtype}")


def scan_context(x: torch.Tensor):
    """The context a layer runs its scan in: autocast off (scans run in float32 or wider) when
    autocast is on for ``x``'s device, else nothing to enter."""
    if torch.is_autocast_enabled(x.device.type):
        return torch.autocast(x.device.type, enabled=False)
    return contextlib.nullcontext()


def scan_dtype_guard(*tensors: torch.Tensor) -> tuple[torch.Tensor, ...]:
    """Upcast half/bfloat16 tensors to float32 for a scan (cumulative sums and products are
    not computed in 8-bit mantissas); other dtypes pass through."""
    return tuple(t.float() if t.dtype in (torch.float16, torch.bfloat16) else t for t in tensors)


def _check_real_without_phase(phase, **tensors) -> None:
    """Without ``phase`` the transitions are real and so must be ``x, b, c`` and ``state0``
    (``TypeError`` naming the first complex one; with ``phase`` they may be complex)."""
    if phase is not None:
        return
    for name, t in tensors.items():
        if isinstance(t, torch.Tensor) and t.is_complex():
            raise TypeError(f"{name} is complex ({t.dtype}) but phase is None: real transitions "
                            f"take real x, b, c and state0 (pass phase for a complex state)")


def _scan_inputs(x, b, c, log_mag, parity, phase, state0):
    """The scan's arguments checked (complex ones only with ``phase``) and promoted to one
    precision (:func:`~seqtheory.models.scan_inputs.promote_scan_inputs`), in argument order."""
    _check_real_without_phase(phase, x=x, b=b, c=c, state0=state0)
    t, _ = promote_scan_inputs({"log_mag": log_mag, "parity": parity, "phase": phase},
                               {"x": x, "b": b, "c": c, "state0": state0})
    return tuple(t[n] for n in ("x", "b", "c", "log_mag", "parity", "phase", "state0"))


def _result_dtype(x, b, c, phase, state0, real_part: bool = False) -> torch.dtype:
    """The dtype of the scan's result: complex with a phase or a complex argument (unless
    ``real_part``), else the real dtype of ``x``."""
    complex_args = [t.dtype for t in (x, b, c, state0) if t is not None and t.is_complex()]
    if real_part or (phase is None and not complex_args):
        return real_dtype_of(x.dtype)
    return complex_args[0] if complex_args else torch.promote_types(x.dtype, torch.complex64)


def scalar_decay_scan_reference(x, b, c, log_mag, parity=None, phase=None, state0=None):
    """Step-by-step reference of ``S_t = a_t S_{t−1} + x_t b_tᵀ``, ``y_t = S_t c_t`` per head.

    Shapes: ``x (B, T, H, P)``, ``b, c (B, T, H, N)``, ``log_mag (B, T, H)`` (``log|a_t|``; ``None``:
    ``|a_t| = 1``), ``parity (B, T, H)`` optional 0/1 float (1 where ``a_t < 0``; an indicator,
    which the chunked form does not differentiate), ``phase (B, T, H)``
    optional (``a_t = |a_t| e^{i phase}``, complex state; ``x, b, c`` may then be complex).
    Returns ``y (B, T, H, P)`` (complex when ``phase`` is given). ``S_0 = state0`` (``(H, P, N)``
    or ``(B, H, P, N)``, real or complex; real without ``phase``), ``0`` when ``state0`` is None.
    Arguments of mixed precisions are promoted to one (float32 and float64 give float64;
    :mod:`seqtheory.models.scan_inputs`). ``TypeError`` for a complex ``x``, ``b``, ``c`` or
    ``state0`` without ``phase``, a complex ``log_mag``, ``parity`` or ``phase``, or a
    non-floating argument, naming it.
    """
    x, b, c, log_mag, parity, phase, state0 = _scan_inputs(x, b, c, log_mag, parity, phase, state0)
    Bsz, T, H, P = x.shape
    N = b.shape[-1]
    a = torch.exp(log_mag) if log_mag is not None else x.new_ones(Bsz, T, H, dtype=real_dtype_of(x.dtype))
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
    if not ys:
        return x.new_zeros(Bsz, 0, H, P, dtype=_result_dtype(x, b, c, phase, state0))
    return torch.stack(ys, dim=1)


def scalar_decay_scan_chunked(x, b, c, log_mag, parity=None, phase=None, chunk: int = 32,
                              state0=None, real_part: bool = False):
    """Chunked (SSD) form of :func:`scalar_decay_scan_reference`; same arguments and result
    (empty inputs too: a batch of 0, ``T = 0``). ``real_part=True`` returns ``Re y`` only (a
    real tensor, the same values as ``y.real``): with phases and real ``x, b`` the imaginary part
    is then never computed, nor differentiated.

    The signs and phases are moved into the read-outs and inputs (a rotating frame): with
    ``σ_t = (−1)^{#{r ≤ t: a_r < 0}}`` and ``φ_t = Σ_{r≤t} phase_r`` (summed in float64), the state
    ``Z_t = σ_t e^{−iφ_t} S_t`` follows ``Z_t = |a_t| Z_{t−1} + x_t (σ_t e^{−iφ_t} b_t)ᵀ`` and
    ``y_t = Z_t (σ_t e^{iφ_t} c_t)``: a recurrence with real decays in ``[0, 1]``, computed by
    :func:`seqtheory.models.chunk_scan.decay_scan_chunked` (closed form over chunks of
    ``chunk`` steps: segment sums of ``log|a|``, never the exponential of a positive number; no
    loop over chunks). With real ``x, b`` the complex products are real products of
    ``[Re, Im]`` pairs. ``T`` need not be a multiple of ``chunk``; a chunk longer than ``T`` is
    shortened to ``T``. Non-finite inputs (``log_mag = -inf``, ``a = 0``, is a valid gate): outputs
    before the first one equal the reference's, later ones are NaN
    (:mod:`seqtheory.models.nonfinite`).
    """
    check_int("chunk", chunk)
    if not isinstance(real_part, bool):
        raise TypeError(f"real_part must be a bool, got {type(real_part).__name__}")
    x, b, c, log_mag, parity, phase, state0 = _scan_inputs(x, b, c, log_mag, parity, phase, state0)
    Bsz, T, H, P = x.shape
    if Bsz * T * H * P == 0:
        return x.new_zeros(Bsz, T, H, P, dtype=_result_dtype(x, b, c, phase, state0, real_part))
    (x, b, parity, phase), (c,), (log_mag,), poisoned = finite_stand_ins((x, b, parity, phase), (c,),
                                                                          (log_mag,))
    y = _scalar_decay_chunks(x, b, c, log_mag, parity, phase, chunk, state0, real_part)
    return poison_after(y.real if real_part and y.is_complex() else y, poisoned)


def _rotation(phase, sign, dtype):
    """``(cos, sin)`` of the rotating frame, ``σ_t e^{iφ_t}`` with ``φ_t = Σ_{r≤t} phase_r``,
    shape ``(B, T, H, 1)`` in ``dtype``. The cumulative phase is summed in float64 (a float32
    cumulative sum of ``T`` phases of size ``θ`` errs by up to ``T² θ u / 2``)."""
    phi = phase.to(torch.float64).cumsum(1)
    cos, sin = torch.cos(phi), torch.sin(phi)
    if sign is not None:
        cos, sin = cos * sign, sin * sign
    return cos.to(dtype)[..., None], sin.to(dtype)[..., None]


def _scalar_decay_chunks(x, b, c, log_mag, parity, phase, chunk: int, state0,
                         real_part: bool = False):
    """The chunked scan of :func:`scalar_decay_scan_chunked` on finite, promoted, non-empty
    inputs (``real_part``: with real ``x, b`` the real-arithmetic path computes ``Re y`` only)."""
    z0 = None if state0 is None else state0.transpose(-1, -2)          # (…, N, P): Z_0 = S_0ᵀ
    sign = None
    if parity is not None:                 # (−1)^(count of negative a_r, r ≤ t): exact in floats
        with torch.no_grad():              # a 0/1 indicator: no gradient flows through it
            sign = 1.0 - 2.0 * torch.remainder(parity.cumsum(1), 2.0)
    if phase is None:
        q, k = (c, b) if sign is None else (c * sign[..., None], b * sign[..., None])
        return decay_scan_chunked(q, k, x, log_mag, z0, chunk)
    cos, sin = _rotation(phase, sign, real_dtype_of(x.dtype))
    if x.is_complex() or b.is_complex():                                # complex arithmetic
        rot = torch.complex(cos, sin)
        cdt = torch.promote_types(rot.dtype, x.dtype)
        z0 = None if z0 is None else z0.to(cdt)
        return decay_scan_chunked((c * rot).to(cdt), (b * rot.conj()).to(cdt), x.to(cdt),
                                  log_mag, z0, chunk)
    c_re, c_im = (c.real, c.imag) if c.is_complex() else (c, None)
    if z0 is not None:
        z0 = _realified_state(z0.real, z0.imag if z0.is_complex() else None)
    return _rotated_real_scan(x, b, c_re, c_im, cos, sin, log_mag, z0, chunk, real_part)


def _realified_state(z0_re, z0_im):
    """A start state ``Z_0 (…, N, P)`` given by its real and imaginary parts (``None``: 0) as the
    real ``(…, 2N, P)`` state ``[Re Z_0; Im Z_0]`` of :func:`_rotated_real_scan`."""
    return torch.cat([z0_re, torch.zeros_like(z0_re) if z0_im is None else z0_im], dim=-2)


def _rotated_real_scan(x, b, c_re, c_im, cos, sin, log_mag, z0, chunk: int, real_part: bool):
    """The scan with phases for real ``x, b`` in real arithmetic: the rotating-frame state
    ``Z = Σ x (σ e^{−iφ} b)ᵀ`` kept as ``[Re Z; Im Z]`` (``2N`` rows), read out with
    ``Re(q·k) = [q_re, −q_im]·[k_re, k_im]`` and ``Im(q·k) = [q_im, q_re]·[k_re, k_im]``.
    ``c_re, c_im`` the read-out's parts (``c_im`` None: real), ``cos, sin`` ``(B, T, H, 1)`` of
    :func:`_rotation`, ``z0`` the realified start state (:func:`_realified_state`) or None.
    Returns ``Re y`` (``real_part``) or the complex ``y``."""
    nsin = -sin
    k = torch.cat([b * cos, b * nsin], dim=-1)                          # b e^{−iφ}: [Re, Im]
    if c_im is None:
        q_re, q_nim = c_re * cos, c_re * nsin                           # c e^{iφ}: Re, −Im
    else:
        q_re, q_nim = c_re * cos + c_im * nsin, c_re * nsin - c_im * cos
    q = torch.cat([q_re, q_nim], dim=-1)
    if not real_part:
        q = torch.stack([q, torch.cat([-q_nim, q_re], dim=-1)])
    y = decay_scan_chunked(q, k, x, log_mag, z0, chunk)
    return y if real_part else torch.complex(y[0], y[1])


class MambaMixer(nn.Module):
    """Selective diagonal SSM, Mamba-2 style (one scalar transition per head).

    ``signed=False``: ``a_t = exp(Δ_t A) ∈ (0, 1)`` (``mamba``); ``signed=True``:
    ``a_t = 2 exp(Δ_t A) − 1 ∈ (−1, 1)`` (``signed_mamba``). Input injection ``Δ_t x_t b_tᵀ``,
    output ``(S_t c_t + D x_t) ⊙ silu(z_t)``, then a linear projection. Shapes ``(B, T, width)``
    (``(R, B, T, width)`` when stacked, :mod:`seqtheory.models.stacking`).
    """

    runs = 0

    def __init__(self, width: int, n_heads: int = 4, d_state: int = 16, signed: bool = False,
                 chunk: int = 16):
        super().__init__()
        check_sizes(width, n_heads, d_state=d_state, chunk=chunk)
        self.width, self.n_heads, self.d_state, self.signed, self.chunk = width, n_heads, d_state, signed, chunk
        self.head_dim = width // n_heads
        self.in_proj = Linear(width, 2 * width + 2 * n_heads * d_state + n_heads)
        self.A_log = nn.Parameter(torch.log(torch.linspace(1.0, 8.0, n_heads)))
        self.dt_bias = nn.Parameter(torch.log(torch.expm1(torch.linspace(0.01, 0.5, n_heads))))
        self.D = nn.Parameter(torch.ones(n_heads))
        self.out_proj = Linear(width, width)

    def transitions(self, dt_raw: torch.Tensor):
        """From the raw step sizes ``(B, T, H)``: ``(log|a|, parity or None, Δ)``, each
        ``(B, T, H)``; parity is 1.0 where ``a_t < 0`` (signed variant only)."""
        nd = dt_raw.ndim
        dt = F.softplus(dt_raw + run_view(self.dt_bias, nd, self.runs))
        dA = -dt * torch.exp(run_view(self.A_log, nd, self.runs))       # < 0
        if not self.signed:
            return dA, None, dt
        a = 2.0 * torch.exp(dA) - 1.0
        tiny = torch.finfo(a.dtype).tiny
        return torch.log(a.abs().clamp_min(tiny)), (a < 0).to(a.dtype), dt

    def forward(self, x: torch.Tensor, mode: str = "parallel") -> torch.Tensor:
        check_mode(mode)
        check_input(x, self.width, self.runs)
        H, N, P, R = self.n_heads, self.d_state, self.head_dim, self.runs
        xin, z, bb, cc, dt_raw = torch.split(self.in_proj(x), [self.width, self.width, H * N, H * N, H],
                                             dim=-1)
        log_mag, parity, dt = self.transitions(dt_raw)
        xin = xin.unflatten(-1, (H, P))
        u = xin * dt[..., None]
        bb, cc = bb.unflatten(-1, (H, N)), cc.unflatten(-1, (H, N))
        dtype = u.dtype
        u, bb, cc, log_mag = scan_dtype_guard(*(fold(t, R) for t in (u, bb, cc, log_mag)))
        if parity is not None:
            parity = fold(parity, R).to(log_mag.dtype)
        with scan_context(x):
            if mode == "recurrent":
                y = scalar_decay_scan_reference(u, bb, cc, log_mag, parity)
            else:
                y = scalar_decay_scan_chunked(u, bb, cc, log_mag, parity, chunk=self.chunk)
        y = unfold(y, R).to(dtype) + run_view(self.D, xin.ndim - 1, R)[..., None] * xin
        return self.out_proj(y.flatten(-2) * F.silu(z))


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
    (complex64 for float32/bfloat16, complex128 for float64). Stacked (:mod:`seqtheory.models.stacking`):
    ``(R, B, T, width)``, one start state per run.
    """

    runs = 0

    def __init__(self, width: int, n_heads: int = 4, d_state: int = 16, chunk: int = 16,
                 learned_state0: bool = True):
        super().__init__()
        check_sizes(width, n_heads, d_state=d_state, chunk=chunk)
        self.width, self.n_heads, self.d_state, self.chunk = width, n_heads, d_state, chunk
        self.head_dim = width // n_heads
        self.in_proj = Linear(width, 2 * width + 3 * n_heads * d_state + n_heads)
        self.out_proj = Linear(width, width)
        if learned_state0:
            shape = (n_heads, self.head_dim, d_state)
            self.state0_re = nn.Parameter(torch.randn(shape) / math.sqrt(d_state))
            self.state0_im = nn.Parameter(torch.randn(shape) / math.sqrt(d_state))
        else:
            self.state0_re = self.state0_im = None

    def state0(self) -> torch.Tensor | None:
        """The start state ``(H, P, N)`` (complex; ``(R, H, P, N)`` when stacked), or None when
        it is 0."""
        if self.state0_re is None:
            return None
        return torch.complex(self.state0_re, self.state0_im)

    def forward(self, x: torch.Tensor, mode: str = "parallel") -> torch.Tensor:
        check_mode(mode)
        check_input(x, self.width, self.runs)
        H, N, P, R = self.n_heads, self.d_state, self.head_dim, self.runs
        proj = self.in_proj(x)
        dtype = proj.dtype                        # bfloat16 under autocast
        if dtype not in (torch.float32, torch.float64):
            proj = proj.float()
        xin, z, bb, c_re, c_im, theta = torch.split(
            proj, [self.width, self.width, H * N, H * N, H * N, H], dim=-1)
        xin, bb = fold(xin.unflatten(-1, (H, P)), R), fold(bb.unflatten(-1, (H, N)), R)
        c_re, c_im = (fold(c.unflatten(-1, (H, N)), R) for c in (c_re, c_im))
        theta = fold(theta, R)
        if mode == "recurrent":
            y = self._recurrent(xin, bb, c_re, c_im, theta, x.shape[-3] if R else None)
        else:
            y = self._parallel(xin, bb, c_re, c_im, theta, x.shape[-3] if R else None)
        y = unfold(y, R).flatten(-2).to(dtype) * F.silu(z.to(dtype))
        return self.out_proj(y * (1.0 / math.sqrt(2.0)))          # the read-out c / √2

    def _row_state0(self, part: torch.Tensor | None, batch: int | None) -> torch.Tensor | None:
        """A part ``(H, P, N)`` of the start state (``(R, H, P, N)`` stacked: then repeated
        for each of a run's ``batch`` rows of the folded batch), or None."""
        if part is None or batch is None:
            return part
        return fold(part[:, None].expand(part.shape[0], batch, *part.shape[1:]), self.runs)

    def _recurrent(self, xin, bb, c_re, c_im, theta, batch):
        s0 = self.state0()
        if s0 is not None:
            s0 = self._row_state0(s0, batch)
        with scan_context(xin):
            return scalar_decay_scan_reference(xin, bb, torch.complex(c_re, c_im), None,
                                               phase=theta, state0=s0).real

    def _parallel(self, xin, bb, c_re, c_im, theta, batch):
        """``Re y`` of the chunked scan in real arithmetic (no complex tensor: the parts of the
        read-out and start state enter as pairs), with the non-finite handling of
        :func:`scalar_decay_scan_chunked`."""
        if xin.numel() == 0:
            return xin.new_zeros(xin.shape)
        (xin, bb, theta), (c_re, c_im), _, poisoned = finite_stand_ins((xin, bb, theta), (c_re, c_im))
        z0 = None
        if self.state0_re is not None:             # Z_0 = S_0ᵀ, realified
            z0 = _realified_state(*(self._row_state0(p, batch).transpose(-1, -2).to(xin.dtype)
                                    for p in (self.state0_re, self.state0_im)))
        with scan_context(xin):
            cos, sin = _rotation(theta, None, xin.dtype)
            y = _rotated_real_scan(xin, bb, c_re, c_im, cos, sin, None, z0, self.chunk, True)
        return poison_after(y, poisoned)


def gla_scan_reference(q, k, v, log_alpha):
    """Step-by-step GLA: ``S_t = diag(α_t) S_{t−1} + k_t v_tᵀ``, ``o_t = S_tᵀ q_t``.

    Shapes ``q, k, log_alpha (B, T, H, K)``, ``v (B, T, H, V)``; returns ``(B, T, H, V)``. Real
    arguments of mixed precisions are promoted to one (:mod:`seqtheory.models.scan_inputs`);
    ``TypeError`` naming a complex or non-floating one.
    """
    q, k, v, log_alpha = _gla_inputs(q, k, v, log_alpha)
    Bsz, T, H, K = q.shape
    V = v.shape[-1]
    S = q.new_zeros(Bsz, H, K, V)
    alpha = torch.exp(log_alpha)
    out = []
    for t in range(T):
        S = alpha[:, t, :, :, None] * S + k[:, t, :, :, None] * v[:, t, :, None, :]
        out.append(torch.einsum("bhkv,bhk->bhv", S, q[:, t]))
    return torch.stack(out, dim=1) if out else q.new_zeros(Bsz, 0, H, V)


def _gla_inputs(q, k, v, log_alpha):
    t, _ = promote_scan_inputs({"q": q, "k": k, "v": v, "log_alpha": log_alpha})
    return t["q"], t["k"], t["v"], t["log_alpha"]


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
    q, k, v, log_alpha = _gla_inputs(q, k, v, log_alpha)
    Bsz, T, H, K = q.shape
    if Bsz * T * H * v.shape[-1] == 0:
        return q.new_zeros(Bsz, T, H, v.shape[-1])
    (k, v), (q,), (log_alpha,), poisoned = finite_stand_ins((k, v), (q,), (log_alpha,))
    return poison_after(_gla_chunks(q, k, v, log_alpha, chunk, log_alpha_min), poisoned)


def _gla_chunks(q, k, v, log_alpha, chunk: int, log_alpha_min: float | None):
    """The chunked scan of :func:`gla_scan_chunked` on finite, promoted, non-empty inputs."""
    T = q.shape[1]
    L = min(chunk, T)
    nc = -(-T // L)
    pad = nc * L - T
    # (B, H, nc, L, ·)
    qr, kr, vr, la = (to_chunks(pad_time(t, pad), nc) for t in (q, k, v, log_alpha))
    cs = la.cumsum(3)
    q_in = qr * torch.exp(cs)                                            # ⊙ e^{b_t} (≤ 1)
    if log_alpha_min is not None:
        span = -log_alpha_min * L                                        # static bound
    else:
        span = float(-cs.detach()[..., -1, :].min())
    if span <= _factorised_span_limit(cs.dtype):
        k_in = kr * torch.exp(-cs)                                       # ⊙ e^{−b_s}, bounded
        scores = (q_in @ k_in.transpose(-1, -2)).tril()                  # (B, H, nc, L, L)
    else:
        decay = decay_matrix(la.transpose(-1, -2))                       # (B, H, nc, K, L, L)
        scores = torch.einsum("bhctk,bhcsk,bhckts->bhcts", qr, kr, decay)
    o = scores @ vr
    if nc > 1:                                   # the chunk start states, in closed form
        k_end = kr * torch.exp(sums_after(la, dim=3))                    # decay to the chunk end
        starts = chunk_starts(k_end.transpose(-1, -2) @ vr, cs[..., -1, :], None)
        o = o + q_in @ starts
    return from_chunks(o, T)


GATE_FLOOR = -1.0   # GLAMixer's clamp of log α (keeps the factorised chunked path for chunks ≤ 16)


class GLAMixer(nn.Module):
    """Gated linear attention layer (Yang et al. 2023, arXiv:2312.06635).

    ``log α_t = max(logsigmoid(W_α x_t) / τ, −1)`` (τ = ``gate_temperature``, 16 in the paper;
    the clamp keeps the chunked form on its fast factorised path for chunks of ≤ 16 steps in
    float32; :func:`gla_scan_chunked` is stable for any gates and chunk size), queries
    scaled by ``d_k^{-1/2}``, output gate ``silu(W_g x)``. Shapes ``(B, T, width)``
    (``(R, B, T, width)`` when stacked, :mod:`seqtheory.models.stacking`).
    """

    runs = 0

    def __init__(self, width: int, n_heads: int = 4, gate_temperature: float = 16.0, chunk: int = 16):
        super().__init__()
        check_sizes(width, n_heads, chunk=chunk)
        self.width, self.n_heads, self.tau, self.chunk = width, n_heads, gate_temperature, chunk
        self.head_dim = width // n_heads
        self.qkvg = Linear(width, 4 * width)
        self.gate = Linear(width, width)
        self.out_proj = Linear(width, width)

    def forward(self, x: torch.Tensor, mode: str = "parallel") -> torch.Tensor:
        check_mode(mode)
        check_input(x, self.width, self.runs)
        H, D, R = self.n_heads, self.head_dim, self.runs
        q, k, v, g = self.qkvg(x).chunk(4, dim=-1)
        q = q.unflatten(-1, (H, D)) * D ** -0.5
        k, v = k.unflatten(-1, (H, D)), v.unflatten(-1, (H, D))
        log_alpha = (F.logsigmoid(self.gate(x)) / self.tau).clamp_min(GATE_FLOOR).unflatten(-1, (H, D))
        dtype = v.dtype
        q, k, v, log_alpha = scan_dtype_guard(*(fold(t, R) for t in (q, k, v, log_alpha)))
        with scan_context(x):
            if mode == "recurrent":
                o = gla_scan_reference(q, k, v, log_alpha)
            else:
                o = gla_scan_chunked(q, k, v, log_alpha, chunk=self.chunk, log_alpha_min=GATE_FLOOR)
        return self.out_proj(unfold(o, R).to(dtype).flatten(-2) * F.silu(g))

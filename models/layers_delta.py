"""Delta-rule layers: ``deltanet`` and ``deltaproduct`` (non-diagonal, non-abelian transitions).

DeltaNet (Schlag et al. 2021; Yang et al. 2024, arXiv:2406.06484) keeps a state ``S ∈ R^{K×V}``
per head and applies, per token, the generalised Householder transition (left action, SPEC §2)

    S_t = (I − β_t k_t k_tᵀ) S_{t−1} + β_t k_t v_tᵀ,     o_t = S_tᵀ q_t,    S_0 = 0,

with L2-normalised keys. With ``β ∈ (0, 2)`` (``allow_negative=True``, Grazzi et al. 2024,
arXiv:2411.12537) the transition has the eigenvalue ``1 − β ∈ (−1, 1)``. DeltaProduct (Siems et
al. 2025, arXiv:2502.10297) applies ``n_h`` such steps per token (keys, values and β's of its own
for each step) and reads the output after the last one: the transition of a token is a product
of ``n_h`` generalised Householder matrices.

Two forms (``forward(x, mode=...)``): ``"recurrent"`` (step-by-step loop) and ``"parallel"``
(chunked WY / UT form: inside a chunk the pseudo-values ``u_t = β_t (v_t − S_{t−1}ᵀ k_t)`` solve a
unit lower-triangular system, and only the ``⌈T n_h / chunk⌉`` chunk states are passed on
sequentially). They agree in float64 to ~1e-12 (tests/test_layers.py), also at saturated
``β → 0``, ``β = 1``, ``β → 2`` for every chunk size (tests/test_layers_saturated.py; the chunked form
has no exponentials), and with the naive references of flash-linear-attention
(tests/test_fla_reference.py).
"""
from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn

from ._checks import check_int
from .nonfinite import finite_stand_ins, poison_after
from .layers_diagonal import check_input, check_mode, check_sizes, scan_context, scan_dtype_guard
from .scan_inputs import promote_scan_inputs
from .stacking import Linear, fold, unfold

__all__ = ["delta_rule_reference", "delta_rule_chunked", "DeltaProductMixer"]


def delta_rule_reference(q, k, v, beta):
    """Step-by-step delta rule. ``q, k (B, T, H, K)``, ``v (B, T, H, V)``, ``beta (B, T, H)``;
    returns ``o (B, T, H, V)`` with ``o_t = S_tᵀ q_t``. Real arguments of mixed precisions are
    promoted to one (:mod:`seqtheory.models.scan_inputs`); ``TypeError`` naming a complex or
    non-floating one."""
    q, k, v, beta = _delta_inputs(q, k, v, beta)
    Bsz, T, H, K = k.shape
    V = v.shape[-1]
    S = k.new_zeros(Bsz, H, K, V)
    out = []
    for t in range(T):
        kt, bt = k[:, t], beta[:, t, :, None]
        pred = torch.einsum("bhkv,bhk->bhv", S, kt)
        S = S + (bt * kt)[..., :, None] * (v[:, t] - pred)[..., None, :]
        out.append(torch.einsum("bhkv,bhk->bhv", S, q[:, t]))
    return torch.stack(out, dim=1) if out else v.new_zeros(Bsz, 0, H, V)


def _delta_inputs(q, k, v, beta):
    t, _ = promote_scan_inputs({"q": q, "k": k, "v": v, "beta": beta})
    return t["q"], t["k"], t["v"], t["beta"]


def delta_rule_chunked(q, k, v, beta, chunk: int = 32):
    """Chunked (WY/UT) delta rule; same arguments and result as :func:`delta_rule_reference`
    (empty inputs too: a batch of 0, ``T = 0``). ``T`` need not be a multiple of ``chunk`` (zero
    padding at the end: β = 0 is the identity). Non-finite inputs: outputs before the first one
    equal the reference's, later ones are NaN (:mod:`seqtheory.models.nonfinite`)."""
    chunk = check_int("chunk", chunk)
    q, k, v, beta = _delta_inputs(q, k, v, beta)
    Bsz, T, H, _ = k.shape
    if Bsz * T * H * v.shape[-1] == 0:
        return v.new_zeros(Bsz, T, H, v.shape[-1])
    (k, v, beta), (q,), _, poisoned = finite_stand_ins((k, v, beta), (q,))
    return poison_after(_delta_chunks(q, k, v, beta, chunk), poisoned)


def _delta_chunks(q, k, v, beta, chunk: int):
    """The chunked WY/UT scan of :func:`delta_rule_chunked` on finite inputs."""
    Bsz, T, H, K = k.shape
    V = v.shape[-1]
    if T == 0:
        return v.new_zeros(Bsz, 0, H, V)
    chunk = min(chunk, T)                  # no padding work when the sequence is shorter
    pad = (-T) % chunk

    def padt(t):
        if pad == 0:
            return t
        shape = list(t.shape)
        shape[1] = pad
        return torch.cat([t, t.new_zeros(shape)], dim=1)

    q, k, v, beta = padt(q), padt(k), padt(v), padt(beta)
    nc, L = (T + pad) // chunk, chunk
    # layout (nc, B, H, L, ·), contiguous: the per-chunk slices of the loop below are views
    qr, kr, vr = (t.reshape(Bsz, nc, L, H, -1).permute(1, 0, 3, 2, 4).contiguous() for t in (q, k, v))
    br = beta.reshape(Bsz, nc, L, H).permute(1, 0, 3, 2).contiguous()
    eye = torch.eye(L, dtype=k.dtype, device=k.device)
    strict = torch.ones(L, L, dtype=torch.bool, device=k.device).tril(-1)
    kk = (kr @ kr.transpose(-1, -2)).masked_fill(~strict, 0.0)
    A = eye + br[..., None] * kk                                           # unit lower triangular
    rhs = torch.cat([br[..., None] * kr, br[..., None] * vr], dim=-1)
    sol = torch.linalg.solve_triangular(A, rhs, upper=False, unitriangular=True)
    W, Uv = sol[..., :K].contiguous(), sol[..., K:].contiguous()
    incl = torch.ones(L, L, dtype=torch.bool, device=k.device).tril()
    qk = (qr @ kr.transpose(-1, -2)).masked_fill(~incl, 0.0)              # (nc, B, H, L, L)
    kT = kr.transpose(-1, -2).contiguous()
    S = k.new_zeros(Bsz, H, K, V)
    outs = []
    for c in range(nc):
        U = Uv[c] - W[c] @ S
        outs.append(qr[c] @ S + qk[c] @ U)
        S = S + kT[c] @ U
    o = torch.stack(outs, dim=0)                                          # (nc, B, H, L, V)
    return o.permute(1, 0, 3, 2, 4).reshape(Bsz, nc * L, H, V)[:, :T]


class DeltaProductMixer(nn.Module):
    """DeltaNet (``n_householder=1``) / DeltaProduct (``n_householder=n_h ≥ 2``) layer.

    ``β = sigmoid(·)`` ∈ (0, 1), or ``2·sigmoid(·)`` ∈ (0, 2) when ``allow_negative`` (default),
    keys L2-normalised, output gate ``silu(W_g x)``. Shapes ``(B, T, width)`` (``(R, B, T, width)``
    when stacked, :mod:`seqtheory.models.stacking`).
    """

    runs = 0

    def __init__(self, width: int, n_heads: int = 4, n_householder: int = 1,
                 allow_negative: bool = True, chunk: int = 64):
        super().__init__()
        check_sizes(width, n_heads, n_householder=n_householder, chunk=chunk)
        self.width, self.n_heads, self.nh, self.chunk = width, n_heads, n_householder, chunk
        self.allow_negative = allow_negative
        self.head_dim = width // n_heads
        nh = n_householder
        self.q_proj = Linear(width, width)
        self.kv_proj = Linear(width, 2 * nh * width)
        self.beta_proj = Linear(width, nh * n_heads)
        self.gate = Linear(width, width)
        self.out_proj = Linear(width, width)

    def forward(self, x: torch.Tensor, mode: str = "parallel") -> torch.Tensor:
        check_mode(mode)
        check_input(x, self.width, self.runs)
        H, D, nh, R = self.n_heads, self.head_dim, self.nh, self.runs
        q = F.normalize(fold(self.q_proj(x), R).unflatten(-1, (H, D)), dim=-1)
        Bsz, T = q.shape[:2]
        k, v = fold(self.kv_proj(x), R).reshape(Bsz, T, nh, 2, H, D).unbind(3)    # (B, T, nh, H, D)
        k = F.normalize(k, dim=-1)
        beta = torch.sigmoid(fold(self.beta_proj(x), R).reshape(Bsz, T, nh, H))
        if self.allow_negative:
            beta = 2.0 * beta
        # interleave the n_h sub-steps; the query acts only after the last one
        qs = torch.cat([q.new_zeros(Bsz, T, nh - 1, H, D), q[:, :, None]], dim=2)
        flat = lambda t: t.reshape(Bsz, T * nh, *t.shape[3:])  # noqa: E731
        fn = delta_rule_reference if mode == "recurrent" else (
            lambda *a: delta_rule_chunked(*a, chunk=self.chunk))
        dtype = v.dtype
        args = scan_dtype_guard(flat(qs), flat(k), flat(v), flat(beta))
        with scan_context(x):
            o = fn(*args).to(dtype)
        o = unfold(o.reshape(Bsz, T, nh, H, D)[:, :, -1].flatten(-2), R)
        return self.out_proj(o * F.silu(self.gate(x)))

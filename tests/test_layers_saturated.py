"""Chunked (parallel) forms against their step-by-step references at saturated gates.

Every chunked form of ``models/layers_*.py`` — the scalar-decay scan (mamba, signed_mamba,
aussm), GLA and the delta rule (deltanet, deltaproduct) — is run with gates at the ends of their
range (log-gates ``−1e4``, i.e. a gate that closes completely; log-gates ``≈ 0``, a gate that never
decays; and mixtures) for chunk sizes 1, 4, 16, 64 and ``T``, in float32 and float64. The parallel
form must be finite wherever the step form is, and agree with it to a tolerance set by the dtype.
"""
from __future__ import annotations

import pytest
import torch
from hypothesis import given, settings, strategies as st

from seqtheory.models.layers_delta import delta_rule_chunked, delta_rule_reference
from seqtheory.models.layers_diagonal import (GLAMixer, MambaMixer, gla_scan_chunked,
                                              gla_scan_reference, scalar_decay_scan_chunked,
                                              scalar_decay_scan_reference)

T = 70                                   # not a multiple of the chunk sizes
CHUNKS = (1, 4, 16, 64, T)
DTYPES = (torch.float32, torch.float64)
TOL = {torch.float32: 2e-5, torch.float64: 1e-12}    # relative to max|reference| (≥ 1)


def _log_gates(pattern: str, shape, g: torch.Generator, dtype) -> torch.Tensor:
    """Log-gates of a saturation ``pattern``: ``closed`` (−1e4), ``open`` (−1e-9), ``mixed`` (each
    step closed, open or moderate at random), ``burst`` (open, one closed step in the middle)."""
    if pattern == "closed":
        return torch.full(shape, -1e4, dtype=dtype)
    if pattern == "open":
        return torch.full(shape, -1e-9, dtype=dtype)
    if pattern == "mixed":
        pick = torch.randint(0, 3, shape, generator=g)
        moderate = -torch.rand(shape, generator=g, dtype=torch.float64).to(dtype)
        return torch.where(pick == 0, torch.full(shape, -1e4, dtype=dtype),
                           torch.where(pick == 1, torch.full(shape, -1e-9, dtype=dtype), moderate))
    if pattern == "burst":
        out = torch.full(shape, -1e-3, dtype=dtype)
        out[:, shape[1] // 2] = -1e4
        return out
    raise ValueError(pattern)


def _close(out: torch.Tensor, ref: torch.Tensor, dtype) -> None:
    assert torch.isfinite(ref).all()
    assert torch.isfinite(out).all(), "the chunked form is not finite where the step form is"
    scale = max(1.0, ref.abs().max().item())
    err = (out - ref).abs().max().item()
    assert err <= TOL[dtype] * scale, (err, scale)


PATTERNS = ("closed", "open", "mixed", "burst")


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("pattern", PATTERNS)
@pytest.mark.parametrize("kind", ["positive", "signed", "complex"])
def test_scalar_decay_scan_saturated(kind, pattern, dtype):
    g = torch.Generator().manual_seed(3)
    B, H, P, N = 2, 2, 3, 4
    x, b, c = (torch.randn(B, T, H, d, generator=g, dtype=torch.float64).to(dtype) for d in (P, N, N))
    log_mag = _log_gates(pattern, (B, T, H), g, dtype)
    parity = (torch.rand(B, T, H, generator=g) < 0.5).to(dtype) if kind == "signed" else None
    phase = None
    if kind == "complex":
        phase = (torch.randn(B, T, H, generator=g, dtype=torch.float64) * 3).to(dtype)
        c = torch.complex(c, torch.randn(B, T, H, N, generator=g, dtype=torch.float64).to(dtype))
    ref = scalar_decay_scan_reference(x, b, c, log_mag, parity, phase)
    for chunk in CHUNKS:
        _close(scalar_decay_scan_chunked(x, b, c, log_mag, parity, phase, chunk=chunk), ref, dtype)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("pattern", PATTERNS)
def test_gla_saturated(pattern, dtype):
    g = torch.Generator().manual_seed(4)
    B, H, K, V = 2, 2, 4, 3
    q, k = (torch.randn(B, T, H, K, generator=g, dtype=torch.float64).to(dtype) for _ in range(2))
    v = torch.randn(B, T, H, V, generator=g, dtype=torch.float64).to(dtype)
    la = _log_gates(pattern, (B, T, H, K), g, dtype)
    ref = gla_scan_reference(q, k, v, la)
    for chunk in CHUNKS:
        _close(gla_scan_chunked(q, k, v, la, chunk=chunk), ref, dtype)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2 ** 31 - 1), st.sampled_from(CHUNKS), st.sampled_from(DTYPES),
       st.floats(0.0, 1e4), st.floats(0.0, 1.0))
def test_gla_any_gate_scale(seed, chunk, dtype, depth, p_closed):
    # log-gates of any size, each step closed with probability p_closed: the chunked form never
    # overflows, whatever the in-chunk decay span
    g = torch.Generator().manual_seed(seed)
    B, H, K, V = 1, 2, 3, 2
    q, k = (torch.randn(B, T, H, K, generator=g, dtype=torch.float64).to(dtype) for _ in range(2))
    v = torch.randn(B, T, H, V, generator=g, dtype=torch.float64).to(dtype)
    la = -torch.rand(B, T, H, K, generator=g, dtype=torch.float64)
    la = torch.where(torch.rand(B, T, H, K, generator=g, dtype=torch.float64) < p_closed,
                     la * depth, la * 1e-3).to(dtype)
    _close(gla_scan_chunked(q, k, v, la, chunk=chunk), gla_scan_reference(q, k, v, la), dtype)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("beta_end", [1e-7, 1.0, 2.0 - 1e-7])
def test_delta_rule_saturated_beta(beta_end, dtype):
    # β → 0 (no write), β = 1 (projection: eigenvalue 0), β → 2 (reflection: eigenvalue −1)
    g = torch.Generator().manual_seed(5)
    B, H, K, V = 2, 2, 4, 3
    q, k = (torch.nn.functional.normalize(
        torch.randn(B, T, H, K, generator=g, dtype=torch.float64), dim=-1).to(dtype) for _ in range(2))
    v = torch.randn(B, T, H, V, generator=g, dtype=torch.float64).to(dtype)
    beta = torch.full((B, T, H), beta_end, dtype=dtype)
    ref = delta_rule_reference(q, k, v, beta)
    for chunk in CHUNKS:
        _close(delta_rule_chunked(q, k, v, beta, chunk=chunk), ref, dtype)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_gla_mixer_long_chunk_saturated_gates(dtype):
    # GLAMixer clamps log α ≥ −1 per step: a chunk of 128 steps spans e^{−128}, whose inverse
    # overflows float32 in the factorised form
    torch.manual_seed(0)
    m = GLAMixer(8, n_heads=2, chunk=128).to(dtype)
    with torch.no_grad():
        m.gate.weight.zero_()
        m.gate.bias.fill_(-1e3)                           # logsigmoid → −1e3, clamped to −1
    x = torch.randn(2, 150, 8, dtype=dtype)
    with torch.no_grad():
        _close(m(x, mode="parallel"), m(x, mode="recurrent"), dtype)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("signed", [False, True])
def test_mamba_mixer_saturated_steps(signed, dtype):
    torch.manual_seed(0)
    m = MambaMixer(8, n_heads=2, d_state=4, signed=signed, chunk=64).to(dtype)
    with torch.no_grad():
        m.dt_bias.fill_(1e3)                              # Δ ≈ 1e3: a_t = e^{ΔA} saturates at 0
    x = torch.randn(2, 100, 8, dtype=dtype)
    with torch.no_grad():
        _close(m(x, mode="parallel"), m(x, mode="recurrent"), dtype)


@pytest.mark.parametrize("bad", [0, -3, 2.5, True, "16"])
def test_bad_chunk_is_refused_naming_chunk(bad):
    from seqtheory.models.layers_delta import DeltaProductMixer
    from seqtheory.models.layers_diagonal import AUSSMMixer

    z = torch.zeros(1, 3, 1, 2)
    for call in (lambda: scalar_decay_scan_chunked(z, z, z, z[..., 0], chunk=bad),
                 lambda: gla_scan_chunked(z, z, z, z, chunk=bad),
                 lambda: delta_rule_chunked(z, z, z, z[..., 0], chunk=bad),
                 lambda: MambaMixer(8, 2, chunk=bad), lambda: AUSSMMixer(8, 2, chunk=bad),
                 lambda: GLAMixer(8, 2, chunk=bad), lambda: DeltaProductMixer(8, 2, chunk=bad)):
        with pytest.raises(ValueError, match="chunk must be"):
            call()


@pytest.mark.parametrize("pattern", PATTERNS)
def test_gradients_at_saturated_gates_match_the_step_form(pattern):
    # training differentiates the chunked forms: their gradients must be finite and equal the
    # step form's, also where gates close completely
    g = torch.Generator().manual_seed(6)
    B, Tg, H, K = 1, 40, 2, 3
    q, k, v = (torch.randn(B, Tg, H, K, generator=g, dtype=torch.float64) for _ in range(3))
    la = _log_gates(pattern, (B, Tg, H, K), g, torch.float64)
    lm = _log_gates(pattern, (B, Tg, H), g, torch.float64)
    for fn_ref, fn_chunk, args in ((gla_scan_reference, gla_scan_chunked, (q, k, v, la)),
                                   (scalar_decay_scan_reference, scalar_decay_scan_chunked,
                                    (v, k, q, lm))):
        grads = []
        for fn in (fn_ref, lambda *a: fn_chunk(*a, chunk=16)):
            leaves = [a.clone().requires_grad_(True) for a in args]
            fn(*leaves).pow(2).sum().backward()
            grads.append([a.grad for a in leaves])
        for gr, gc in zip(*grads):
            assert torch.isfinite(gc).all()
            _close(gc, gr, torch.float64)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("chunk", (4, 16, 32, T))
def test_gla_static_gate_bound_matches_the_data_path_and_runs_under_vmap(chunk, dtype):
    """With ``log_alpha_min`` (GLAMixer's clamp −1) the path is chosen without reading the data,
    so the scan runs under ``torch.func.vmap``; results equal the data-driven path and the
    step form, on either side of the factorised-span limit (chunk 32 crosses it in float32)."""
    g = torch.Generator().manual_seed(chunk)
    q, k, v = (torch.randn(3, 2, T, 2, 3, generator=g, dtype=torch.float64).to(dtype)
               for _ in range(3))
    la = (-torch.rand(3, 2, T, 2, 3, generator=g, dtype=torch.float64)).to(dtype)   # in [−1, 0]
    ref = torch.stack([gla_scan_reference(q[i], k[i], v[i], la[i]) for i in range(3)])
    static = torch.func.vmap(lambda *a: gla_scan_chunked(*a, chunk=chunk, log_alpha_min=-1.0))(
        q, k, v, la)
    data = torch.stack([gla_scan_chunked(q[i], k[i], v[i], la[i], chunk=chunk) for i in range(3)])
    _close(static, ref, dtype)
    _close(data, ref, dtype)


@pytest.mark.parametrize("bad", [0.5, float("inf"), float("nan")])
def test_gla_bad_static_gate_bound_is_refused(bad):
    z = torch.zeros(1, 3, 1, 2)
    with pytest.raises(ValueError, match="log_alpha_min"):
        gla_scan_chunked(z, z, z, z, chunk=2, log_alpha_min=bad)

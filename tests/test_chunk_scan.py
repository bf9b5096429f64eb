"""The closed-form chunked scans (models/chunk_scan.py) against step-by-step recurrences in
float64: values, gradients (torch.autograd.gradcheck and comparison with the reference's
gradients), the sums over a chunk (no cancellation, closed gates), and the chunk start states.
The layers' own forms against their references are in tests/test_layers.py and
tests/test_layers_saturated.py."""
from __future__ import annotations

import pytest
import torch
from hypothesis import example, given, settings, strategies as st

from seqtheory.models.chunk_scan import (chunk_starts, decay_matrix, decay_scan_chunked,
                                         segment_sums, sums_after)
from seqtheory.models.layers_diagonal import (AUSSMMixer, MambaMixer, gla_scan_chunked,
                                              gla_scan_reference, scalar_decay_scan_chunked,
                                              scalar_decay_scan_reference)

F64 = torch.float64


def _naive_decay_scan(q, k, v, g, z0):
    """``Z_t = exp(g_t) Z_{t−1} + k_t v_tᵀ``, ``y_t = Z_tᵀ q_t`` step by step (q without leading
    dimensions)."""
    B, T, H, N = k.shape
    Z = q.new_zeros(B, H, N, v.shape[-1]) if z0 is None else z0.expand(B, H, N, v.shape[-1]).clone()
    ys = []
    for t in range(T):
        a = torch.ones(B, H, dtype=F64) if g is None else torch.exp(g[:, t])
        Z = a[..., None, None] * Z + k[:, t, :, :, None] * v[:, t, :, None, :]
        ys.append(torch.einsum("bhnp,bhn->bhp", Z, q[:, t]))
    return torch.stack(ys, dim=1)


def _inputs(seed, B, T, H, N, P, gates, state):
    g_ = torch.Generator().manual_seed(seed)
    q, k = (torch.randn(B, T, H, N, generator=g_, dtype=F64) for _ in range(2))
    v = torch.randn(B, T, H, P, generator=g_, dtype=F64)
    g = None
    if gates == "moderate":
        g = -torch.rand(B, T, H, generator=g_, dtype=F64) * 2
    elif gates == "saturated":
        pick = torch.randint(0, 3, (B, T, H), generator=g_)
        g = torch.where(pick == 0, torch.full((B, T, H), -1e4, dtype=F64),
                        torch.where(pick == 1, torch.full((B, T, H), float("-inf"), dtype=F64),
                                    -torch.rand(B, T, H, generator=g_, dtype=F64)))
    z0 = None
    if state == "shared":
        z0 = torch.randn(H, N, P, generator=g_, dtype=F64)
    elif state == "per_row":
        z0 = torch.randn(B, H, N, P, generator=g_, dtype=F64)
    return q, k, v, g, z0


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**16), T=st.integers(1, 40), chunk=st.integers(1, 48),
       gates=st.sampled_from(["none", "moderate", "saturated"]),
       state=st.sampled_from(["none", "shared", "per_row"]))
@example(seed=0, T=37, chunk=8, gates="saturated", state="per_row")    # several chunks, padding
@example(seed=1, T=5, chunk=16, gates="none", state="shared")          # one chunk shorter than chunk
def test_decay_scan_matches_the_recurrence(seed, T, chunk, gates, state):
    q, k, v, g, z0 = _inputs(seed, 2, T, 3, 4, 2, gates, state)
    ref = _naive_decay_scan(q, k, v, g, z0)
    out = decay_scan_chunked(q, k, v, g, z0, chunk)
    assert torch.isfinite(out).all()
    assert (out - ref).abs().max().item() <= 1e-11 * max(1.0, ref.abs().max().item())


def test_leading_read_out_dimensions_are_independent_read_outs():
    q, k, v, g, z0 = _inputs(3, 2, 21, 2, 3, 4, "moderate", "shared")
    q2 = torch.stack([q, -2 * q.flip(1)])
    out = decay_scan_chunked(q2, k, v, g, z0, 8)
    for i in range(2):
        assert (out[i] - _naive_decay_scan(q2[i], k, v, g, z0)).abs().max().item() < 1e-12


def test_the_scan_does_not_read_the_future():
    q, k, v, g, z0 = _inputs(4, 1, 30, 2, 3, 2, "moderate", "shared")
    out = decay_scan_chunked(q, k, v, g, z0, 8)
    k2, v2 = k.clone(), v.clone()
    k2[:, 17:] += 1.0
    v2[:, 17:] -= 3.0
    out2 = decay_scan_chunked(q, k2, v2, g, z0, 8)
    assert torch.equal(out[:, :17], out2[:, :17]) and (out[:, 17:] - out2[:, 17:]).abs().max() > 1e-3


@pytest.mark.parametrize("gates", ["none", "moderate"])
@pytest.mark.parametrize("state", ["none", "per_row"])
def test_decay_scan_gradcheck(gates, state):
    q, k, v, g, z0 = _inputs(5, 1, 7, 2, 2, 2, gates, state)
    args = [t.requires_grad_() for t in (q, k, v, g, z0) if t is not None]

    def f(*a):
        it = iter(a)
        q_, k_, v_ = next(it), next(it), next(it)
        g_ = next(it) if g is not None else None
        z_ = next(it) if z0 is not None else None
        return decay_scan_chunked(q_, k_, v_, g_, z_, 3)

    assert torch.autograd.gradcheck(f, args)


def test_segment_sums_have_no_cancellation_after_a_closed_gate():
    # float32: the segment (−0.5, −0.25) right after a gate of −1e4 keeps its full precision
    # (a difference of cumulative sums would lose about 1e4·u ≈ 1e-3 of it)
    vals = torch.tensor([-1e4, -0.5, -0.25, -1e-3], dtype=torch.float32)
    S = segment_sums(vals)
    assert S[2, 0].item() == pytest.approx(-0.75, abs=0)
    assert S[3, 1].item() == pytest.approx(-0.251, rel=1e-6)
    assert torch.isinf(S[0, 1]) and S[1, 1].item() == 0.0
    W = decay_matrix(torch.tensor([-0.5, float("-inf"), 0.0]))    # a closed gate at step 1
    assert W.tolist() == [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 1.0, 1.0]]
    after = sums_after(torch.tensor([[-1.0, -2.0, -4.0]]))
    assert after.tolist() == [[-6.0, -4.0, 0.0]]


@pytest.mark.parametrize("per_key", [False, True])
def test_chunk_starts_solve_the_recurrence_over_chunks(per_key):
    g_ = torch.Generator().manual_seed(7)
    B, H, nc, N, P = 2, 3, 6, 4, 2
    states = torch.randn(B, H, nc, N, P, generator=g_, dtype=F64)
    shape = (B, H, nc, N) if per_key else (B, H, nc)
    totals = -torch.rand(*shape, generator=g_, dtype=F64) * 3
    totals[0, 0, 2] = float("-inf")                       # a chunk that closes completely
    s0 = torch.randn(B, H, N, P, generator=g_, dtype=F64)
    for start in (None, s0):
        S = torch.zeros(B, H, N, P, dtype=F64) if start is None else start.clone()
        want = []
        for c in range(nc):
            want.append(S)
            a = torch.exp(totals[:, :, c])
            S = (a[..., None] if per_key else a[..., None, None]) * S + states[:, :, c]
        got = chunk_starts(states, totals, start)
        assert (got - torch.stack(want, dim=2)).abs().max().item() < 1e-12
    plain = chunk_starts(states, None, s0)
    assert (plain - (s0[:, :, None] + torch.cumsum(states, 2) - states)).abs().max() < 1e-12


KINDS = ["positive", "signed", "complex", "complex_state"]


def _scan_args(kind, seed=11, B=2, T=13, H=2, P=3, N=4):
    g_ = torch.Generator().manual_seed(seed)
    x, b, c = (torch.randn(B, T, H, d, generator=g_, dtype=F64) for d in (P, N, N))
    log_mag = -torch.rand(B, T, H, generator=g_, dtype=F64)
    parity = (torch.rand(B, T, H, generator=g_) < 0.5).double() if kind == "signed" else None
    phase = torch.randn(B, T, H, generator=g_, dtype=F64) if kind.startswith("complex") else None
    s0 = None
    if kind.startswith("complex"):
        c = torch.complex(c, torch.randn_like(c))
    if kind == "complex_state":
        log_mag = None                                      # unit modulus, as AUSSM
        s0 = torch.complex(*(torch.randn(H, P, N, generator=g_, dtype=F64) for _ in range(2)))
    return x, b, c, log_mag, parity, phase, s0


@pytest.mark.parametrize("kind", KINDS)
def test_scan_gradients_equal_the_reference_gradients(kind):
    x, b, c, log_mag, parity, phase, s0 = _scan_args(kind)
    leaves = {"x": x, "b": b, "c": c, "log_mag": log_mag, "phase": phase}
    leaves = {n: t for n, t in leaves.items() if t is not None}
    grads = []
    for fn in (scalar_decay_scan_reference,
               lambda *a, **kw: scalar_decay_scan_chunked(*a, chunk=4, **kw)):
        ls = {n: t.clone().requires_grad_() for n, t in leaves.items()}
        y = fn(ls["x"], ls["b"], ls["c"], ls.get("log_mag"), parity, ls.get("phase"), state0=s0)
        w = torch.linspace(-1, 1, y.numel(), dtype=F64).reshape(y.shape)
        (y.real * w).sum().backward()
        grads.append({n: t.grad for n, t in ls.items()})
    for n in leaves:
        assert (grads[0][n] - grads[1][n]).abs().max().item() < 1e-10, n


@pytest.mark.parametrize("kind", ["positive", "complex_state"])
def test_scan_gradcheck(kind):
    x, b, c, log_mag, parity, phase, s0 = _scan_args(kind, T=6, H=1, P=2, N=2)
    ins = [x, b, c.real if c.is_complex() else c] + ([log_mag] if log_mag is not None else []) \
        + ([phase] if phase is not None else [])
    ins = [t.clone().requires_grad_() for t in ins]

    def f(*a):
        x_, b_, c_ = a[:3]
        rest = list(a[3:])
        lm = rest.pop(0) if log_mag is not None else None
        ph = rest.pop(0) if phase is not None else None
        cc = torch.complex(c_, c.imag) if c.is_complex() else c_
        return scalar_decay_scan_chunked(x_, b_, cc, lm, parity, ph, chunk=4, state0=s0,
                                         real_part=phase is not None)

    assert torch.autograd.gradcheck(f, ins)


def test_gla_gradients_equal_the_reference_gradients():
    g_ = torch.Generator().manual_seed(12)
    q, k, v = (torch.randn(2, 23, 2, 3, generator=g_, dtype=F64) for _ in range(3))
    la = -torch.rand(2, 23, 2, 3, generator=g_, dtype=F64)
    grads = []
    for fn in (gla_scan_reference, lambda *a: gla_scan_chunked(*a, chunk=8)):
        ls = [t.clone().requires_grad_() for t in (q, k, v, la)]
        fn(*ls).pow(2).sum().backward()
        grads.append([t.grad for t in ls])
    for a, b in zip(*grads):
        assert (a - b).abs().max().item() < 1e-10


@pytest.mark.parametrize("mixer", ["mamba", "signed_mamba", "aussm"])
def test_mixer_parameter_gradients_parallel_equal_recurrent(mixer):
    torch.manual_seed(0)
    m = (AUSSMMixer(8, 2, 4, chunk=4) if mixer == "aussm"
         else MambaMixer(8, 2, 4, signed=mixer == "signed_mamba", chunk=4)).double()
    x = torch.randn(2, 11, 8, dtype=F64)
    grads = []
    for mode in ("recurrent", "parallel"):
        m.zero_grad()
        m(x, mode=mode).pow(2).sum().backward()
        grads.append({n: p.grad.clone() for n, p in m.named_parameters()})
    for n in grads[0]:
        assert (grads[0][n] - grads[1][n]).abs().max().item() < 1e-10, n

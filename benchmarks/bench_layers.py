"""Tokens/s of each recurrent family's parallel (chunked) form vs its step-by-step reference.

Run: ``python -m pytest benchmarks/bench_layers.py -m benchmark -s`` (CPU, T = 256, batch 8,
4 heads, head/state dimension 16, one torch thread). Two measurements per family:

* ``test_scan_forms`` — the recurrence itself (the two forms being compared; input/output
  projections are identical in both and excluded). Target: parallel ≥ 3× the reference.
* ``test_whole_layer`` — the full mixer (projections, gates, scan); reported, no target.

Results and the machine are recorded in benchmarks/README_layers.md.
"""
import time

import pytest
import torch
import torch.nn.functional as F

from seqtheory.models.layers_delta import DeltaProductMixer, delta_rule_chunked, delta_rule_reference
from seqtheory.models.layers_diagonal import (AUSSMMixer, GLAMixer, MambaMixer, gla_scan_chunked,
                                              gla_scan_reference, scalar_decay_scan_chunked,
                                              scalar_decay_scan_reference)

T, BATCH, WIDTH, H, D = 256, 8, 64, 4, 16


def _best(fn, reps=7):
    with torch.no_grad():
        fn()                                   # warm-up
        best = float("inf")
        for _ in range(reps):
            t0 = time.perf_counter()
            fn()
            best = min(best, time.perf_counter() - t0)
    return BATCH * T / best


def _scan_inputs(name):
    g = torch.Generator().manual_seed(0)
    r = lambda *s: torch.randn(*s, generator=g)  # noqa: E731
    if name in ("mamba", "signed_mamba", "aussm"):
        x, b, c = r(BATCH, T, H, D), r(BATCH, T, H, D), r(BATCH, T, H, D)
        lm = -torch.rand(BATCH, T, H, generator=g)
        par = (torch.rand(BATCH, T, H, generator=g) < 0.5).float() if name == "signed_mamba" else None
        if name == "aussm":
            ph, c, lm = r(BATCH, T, H), torch.complex(c, r(BATCH, T, H, D)), torch.zeros_like(lm)
        else:
            ph = None
        return (lambda: scalar_decay_scan_chunked(x, b, c, lm, par, ph, chunk=16),
                lambda: scalar_decay_scan_reference(x, b, c, lm, par, ph))
    q, k, v = r(BATCH, T, H, D), F.normalize(r(BATCH, T, H, D), dim=-1), r(BATCH, T, H, D)
    if name == "gla":
        la = (F.logsigmoid(r(BATCH, T, H, D)) / 16).clamp_min(-1.0)
        return (lambda: gla_scan_chunked(q, k, v, la, chunk=16), lambda: gla_scan_reference(q, k, v, la))
    nh = 1 if name == "deltanet" else 2           # DeltaProduct: n_h sub-steps per token
    qq, kk, vv = (torch.repeat_interleave(t, nh, dim=1) for t in (q, k, v))
    beta = 2 * torch.rand(BATCH, T * nh, H, generator=g)
    return (lambda: delta_rule_chunked(qq, kk, vv, beta, chunk=64),
            lambda: delta_rule_reference(qq, kk, vv, beta))


LAYERS = {
    "mamba": lambda: MambaMixer(WIDTH, H, D),
    "signed_mamba": lambda: MambaMixer(WIDTH, H, D, signed=True),
    "aussm": lambda: AUSSMMixer(WIDTH, H, D),
    "gla": lambda: GLAMixer(WIDTH, H),
    "deltanet": lambda: DeltaProductMixer(WIDTH, H, 1),
    "deltaproduct": lambda: DeltaProductMixer(WIDTH, H, 2),
}


@pytest.fixture(autouse=True)
def _one_thread():
    # one intra-op thread: the comparison is of algorithms, not of thread scheduling on a shared CPU
    old = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(old)


@pytest.mark.benchmark
@pytest.mark.parametrize("name", list(LAYERS))
def test_scan_forms(name):
    par_fn, ref_fn = _scan_inputs(name)
    par, ref = _best(par_fn), _best(ref_fn)
    print(f"\nscan  {name:14s} parallel {par:10.0f} tok/s   reference {ref:10.0f} tok/s   "
          f"speed-up {par / ref:5.1f}x")
    assert par >= 3 * ref, f"{name}: parallel form only {par / ref:.1f}x the reference"


@pytest.mark.benchmark
@pytest.mark.parametrize("name", list(LAYERS))
def test_whole_layer(name):
    torch.manual_seed(0)
    layer = LAYERS[name]()
    x = torch.randn(BATCH, T, WIDTH)
    par = _best(lambda: layer(x, mode="parallel"))
    ref = _best(lambda: layer(x, mode="recurrent"))
    print(f"\nlayer {name:14s} parallel {par:10.0f} tok/s   reference {ref:10.0f} tok/s   "
          f"speed-up {par / ref:5.1f}x")

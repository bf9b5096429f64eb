"""The package's recurrences against flash-linear-attention's pure-PyTorch naive references.

Peer check: ``fla-core`` 0.6.0 (PyPI; the ops package of ``flash-linear-attention`` 0.6.0, pinned in
the ``test`` extra) keeps a plain ``naive.py`` recurrence beside each Triton kernel. The three
recurrences of seqtheory are compared with them on small random inputs:

* GLA (:func:`gla_scan_reference` / :func:`gla_scan_chunked`) with ``fla.ops.gla.naive.naive_recurrent_gla``
  (fla scales the query by ``K^{-1/2}``; it is undone here);
* the scalar-decay scan of mamba (:func:`scalar_decay_scan_reference` / ``_chunked``) with
  ``fla.ops.simple_gla.naive.naive_recurrent_simple_gla`` (key = ``b``, value = ``x``, query = ``c``,
  log-gate = ``log|a|``, ``scale = 1``);
* the delta rule (:func:`delta_rule_reference` / ``_chunked``, used by deltanet and deltaproduct)
  with ``fla.ops.delta_rule.naive.delta_rule_recurrence`` and ``delta_rule_chunkwise`` (layout
  ``(B, H, T, ·)``, query scaled by ``K^{-1/2}``).

How fla is loaded on CPU. ``import fla.ops.gla.naive`` fails on a machine without Triton:
importing the sub-package runs ``fla/ops/__init__.py``, which imports every kernel family
(``fla.ops.abc.chunk`` → ``import triton``: ``ModuleNotFoundError``), and Triton is a GPU
compiler that the CPU test environment does not install. The ``naive.py`` files themselves import
only ``torch`` and ``einops``, so they are loaded here directly from their files
(``importlib.util.spec_from_file_location``) without running the package ``__init__`` modules.

Precision. ``naive_recurrent_gla``, ``naive_recurrent_simple_gla`` and ``delta_rule_recurrence``
cast their inputs to float32 (``.float()``) whatever the input dtype, so the comparison with them is
made on float64 inputs at a float32 tolerance (2e-5 relative to the output scale);
``delta_rule_chunkwise`` keeps float64 and is compared at 1e-12. The package's own step-by-step
references stay the primary oracle (tests/test_layers.py, tests/test_layers_saturated.py).
The module is skipped, saying why, when ``fla-core`` is not installed.
"""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
import torch

from seqtheory.models.layers_delta import delta_rule_chunked, delta_rule_reference
from seqtheory.models.layers_diagonal import (gla_scan_chunked, gla_scan_reference,
                                              scalar_decay_scan_chunked,
                                              scalar_decay_scan_reference)

FLA_VERSION = "0.6.0"
F32_TOL = 2e-5
F64_TOL = 1e-12


def _fla_root() -> Path:
    spec = importlib.util.find_spec("fla")              # locates the package; runs nothing
    if spec is None or not spec.submodule_search_locations:
        pytest.skip("fla-core is not installed (pip install 'fla-core==0.6.0' einops)",
                    allow_module_level=True)
    return Path(list(spec.submodule_search_locations)[0])


def _load_naive(family: str):
    path = _fla_root() / "ops" / family / "naive.py"
    spec = importlib.util.spec_from_file_location(f"_fla_naive_{family}", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


pytest.importorskip("einops", reason="fla's naive references import einops")
ROOT = _fla_root()
GLA, SIMPLE, DELTA = (_load_naive(f) for f in ("gla", "simple_gla", "delta_rule"))


def test_pinned_version():
    import importlib.metadata as md

    assert md.version("fla-core") == FLA_VERSION


def _rand(g, *shape):
    return torch.randn(*shape, generator=g, dtype=torch.float64)


def _close(a: torch.Tensor, b: torch.Tensor, tol: float) -> None:
    scale = max(1.0, b.abs().max().item())
    assert (a - b).abs().max().item() <= tol * scale


@pytest.mark.parametrize("T", [1, 7, 33])
def test_gla_matches_fla_naive(T):
    g = torch.Generator().manual_seed(T)
    B, H, K, V = 2, 3, 4, 5
    q, k, v = _rand(g, B, T, H, K), _rand(g, B, T, H, K), _rand(g, B, T, H, V)
    la = -torch.rand(B, T, H, K, generator=g, dtype=torch.float64) * 2
    o_fla, _ = GLA.naive_recurrent_gla(q * K ** 0.5, k, v, la)
    ref = gla_scan_reference(q, k, v, la)
    _close(ref, o_fla, F32_TOL)
    for chunk in (4, 16):
        _close(gla_scan_chunked(q, k, v, la, chunk=chunk), o_fla, F32_TOL)


@pytest.mark.parametrize("T", [1, 7, 33])
def test_scalar_decay_scan_matches_fla_simple_gla(T):
    g = torch.Generator().manual_seed(100 + T)
    B, H, P, N = 2, 3, 4, 5
    x, b, c = _rand(g, B, T, H, P), _rand(g, B, T, H, N), _rand(g, B, T, H, N)
    log_mag = -torch.rand(B, T, H, generator=g, dtype=torch.float64) * 2
    o_fla, _ = SIMPLE.naive_recurrent_simple_gla(c, b, x, log_mag, scale=1.0)
    _close(scalar_decay_scan_reference(x, b, c, log_mag), o_fla, F32_TOL)
    for chunk in (4, 16):
        _close(scalar_decay_scan_chunked(x, b, c, log_mag, chunk=chunk), o_fla, F32_TOL)


@pytest.mark.parametrize("T", [8, 32])
@pytest.mark.parametrize("beta_max", [1.0, 2.0])
def test_delta_rule_matches_fla_naive(T, beta_max):
    g = torch.Generator().manual_seed(200 + T)
    B, H, K, V = 2, 3, 4, 5
    q, k = (torch.nn.functional.normalize(_rand(g, B, T, H, K), dim=-1) for _ in range(2))
    v = _rand(g, B, T, H, V)
    beta = beta_max * torch.rand(B, T, H, generator=g, dtype=torch.float64)
    bh = lambda t: t.transpose(1, 2).contiguous()          # noqa: E731  (B, T, H, ·) → (B, H, T, ·)
    o_rec, _ = DELTA.delta_rule_recurrence(bh(q) * K ** 0.5, bh(k), bh(v), bh(beta))
    o_chunk, _ = DELTA.delta_rule_chunkwise(bh(q) * K ** 0.5, bh(k), bh(v), bh(beta), chunk_size=8)
    assert o_chunk.dtype == torch.float64
    ref = delta_rule_reference(q, k, v, beta)
    _close(ref, bh(o_rec), F32_TOL)
    _close(ref, bh(o_chunk), F64_TOL)
    for chunk in (4, 8, 16):
        _close(delta_rule_chunked(q, k, v, beta, chunk=chunk), bh(o_chunk), F64_TOL)


def test_a_convention_error_is_detected():
    # the comparison is sharp enough to see a transposed state convention (o = S q instead of Sᵀ q)
    g = torch.Generator().manual_seed(9)
    B, T, H, K = 1, 6, 1, 3
    q, k, v = _rand(g, B, T, H, K), _rand(g, B, T, H, K), _rand(g, B, T, H, K)
    la = -torch.rand(B, T, H, K, generator=g, dtype=torch.float64)
    o_fla, _ = GLA.naive_recurrent_gla(q * K ** 0.5, k, v, la)
    wrong = gla_scan_reference(q, v, k, la)                  # keys and values swapped
    assert (wrong - o_fla).abs().max().item() > 1e-2

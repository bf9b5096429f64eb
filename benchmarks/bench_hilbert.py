"""Benchmarks for the [HEAD] geometry kernels (excluded from the default test run).

Run: ``python -m pytest benchmarks/bench_hilbert.py -m benchmark -s``. Measures the exact blocked row
diameter (time and peak traced memory; the brief's budget is V = 50 000, d = 1024 in 2 GB) and the
SOCP oracles at their intended sizes.
"""
from __future__ import annotations

import time
import tracemalloc

import numpy as np
import pytest

from seqtheory.theory.hilbert import row_diameter

pytestmark = pytest.mark.benchmark


@pytest.mark.parametrize("V,d", [(5_000, 256), (20_000, 512), (50_000, 1024)])
def test_row_diameter_time_and_memory(V, d):
    S = np.random.default_rng(0).standard_normal((V, d), dtype=np.float32)
    tracemalloc.start()
    t0 = time.perf_counter()
    D, (i, j) = row_diameter(S)
    secs = time.perf_counter() - t0
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    input_bytes = S.nbytes
    print(f"\nrow_diameter V={V} d={d}: {secs:.1f} s, peak {peak / 2**30:.2f} GiB "
          f"(+ input {input_bytes / 2**30:.2f} GiB), D={D:.4f} pair=({i},{j})")
    assert abs(np.linalg.norm(S[i].astype(np.float64) - S[j]) - D) <= 1e-12 * D
    assert peak + input_bytes < 2 * 2**30


@pytest.mark.parametrize("V,d", [(6, 3), (12, 6)])
def test_socp_oracles(V, d):
    from seqtheory.numerics.head_oracles import centre_rows, min_tension, steepest_descent_diameter

    G = centre_rows(np.random.default_rng(1).normal(size=(V, d)))
    t0 = time.perf_counter()
    p = steepest_descent_diameter(G)
    t1 = time.perf_counter()
    q = min_tension(G)
    t2 = time.perf_counter()
    print(f"\nSOCP V={V} d={d}: primal {t1 - t0:.2f} s, dual {t2 - t1:.2f} s, "
          f"gap {abs(p.value + q.value):.1e}")

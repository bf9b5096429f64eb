"""Performance of the exact separation enumeration (SPEC: n = 2, T = 12 under a minute on 2 cores;
n = 3 up to T >= 8). Run with ``python -m pytest benchmarks -m benchmark``."""
from __future__ import annotations

import time

import pytest

from seqtheory.numerics.separation import least_separating_class, max_class_for_depth


@pytest.mark.benchmark
@pytest.mark.parametrize("n,T,budget", [(2, 12, 60.0), (2, 16, 120.0), (3, 8, 60.0), (3, 9, 120.0)])
def test_least_separating_class_time(n, T, budget):
    t0 = time.perf_counter()
    c = least_separating_class(n, T)
    dt = time.perf_counter() - t0
    print(f"least_separating_class({n}, {T}) = {c} in {dt:.2f} s")
    assert dt < budget


@pytest.mark.benchmark
def test_max_class_for_depth_time():
    t0 = time.perf_counter()
    vals = [max_class_for_depth(2, k) for k in range(1, 5)] + [max_class_for_depth(3, k)
                                                                for k in range(1, 4)]
    dt = time.perf_counter() - t0
    print(f"c_k(2), c_k(3) = {vals} in {dt:.2f} s")
    assert dt < 60

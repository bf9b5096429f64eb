"""Benchmarks for the exact Lie-algebra core (run: python -m pytest benchmarks/bench_lie.py -m benchmark -s).

Measures: exact derived series of b(n) for n = 8, 12, 16 (dim up to 136 in gl(16)); the Lie closure
of two random 10x10 integer matrices (seeded); the derived series of a sparse structure-constant
algebra (strictly upper triangular n(20), dim 190, given as a dict). Results are printed and
recorded by hand in ``benchmarks/README_lie.md``.
Target: b(16) derived series (construction included) <= 10 s on a 2-core machine.
"""
import time

import numpy as np
import pytest

from seqtheory.theory.lie import LieAlgebra
from seqtheory.theory.lie_named import b, strictly_upper

RESULTS: dict = {}


def _timed(fn):
    t = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t


@pytest.mark.benchmark
@pytest.mark.parametrize("n", [8, 12, 16])
def test_borel_derived_series(n):
    def run():
        B = b(n)
        return B, B.derived_series().dims
    (B, dims), dt = _timed(run)
    RESULTS[f"b({n}) build + derived series"] = {"seconds": round(dt, 3), "dim": B.dim, "dims": dims}
    print(f"b({n}): dim {B.dim}, derived series {dims}, {dt:.2f} s")
    assert len(dims) - 1 == int(np.ceil(np.log2(n))) + 1
    if n == 16:
        assert dt <= 10.0, f"b(16) took {dt:.1f} s (target 10 s)"


@pytest.mark.benchmark
def test_random_closure_10x10():
    rng = np.random.default_rng(12345)
    gens = [rng.integers(-3, 4, (10, 10)) for _ in range(2)]
    G, dt = _timed(lambda: LieAlgebra.generated_by(gens))
    ds, dt2 = _timed(lambda: G.derived_series().dims)
    RESULTS["closure of two random 10x10 integer matrices"] = {"seconds": round(dt, 3), "dim": G.dim}
    RESULTS["closure 10x10: its derived series"] = {"seconds": round(dt2, 3), "dims": ds}
    print(f"closure: dim {G.dim} in {dt:.2f} s; derived series {ds} in {dt2:.2f} s")
    assert G.dim in (99, 100)


@pytest.mark.benchmark
def test_sparse_structure_constants_n20():
    N = strictly_upper(20)
    d = N.dim
    sparse, dt0 = _timed(N.structure_constants_sparse)
    RESULTS[f"n(20) structure constants (matrix -> sparse dict)"] = {"seconds": round(dt0, 3)}
    S, dt = _timed(lambda: LieAlgebra.from_structure_constants(sparse, dim=d))
    dims, dt2 = _timed(lambda: S.derived_series().dims)
    RESULTS[f"n(20) from sparse structure constants (dim {d}, validated)"] = {"seconds": round(dt, 3)}
    RESULTS["n(20) structure constants: derived series"] = {"seconds": round(dt2, 3), "dims": dims}
    print(f"n(20) structure constants: build+validate {dt:.2f} s, derived series {dims} {dt2:.2f} s")
    assert dims == N.derived_series().dims

"""BCH timing per degree (exact Lyndon coefficients, classical series, two letters).

Run: ``python -m pytest benchmarks/bench_bch.py -m benchmark -s`` (prints a markdown table and
writes it to ``$SEQTHEORY_BENCH_OUT`` if set). Also runnable as a script:
``python benchmarks/bench_bch.py 20``. Times are wall-clock and process CPU seconds of
``bch(N, use_cache=False)`` in a fresh engine (lookup tables included), i.e. the uncached cost.
Targets (issue 3): degree 16 <= 10 s, degree 20 <= 60 s.
"""
from __future__ import annotations

import importlib
import os
import sys
import time

import pytest


def _time_degree(N: int) -> dict:
    bch_mod = importlib.import_module("seqtheory.theory.bch_series")
    bch_mod._engine.cache_clear()
    w, c = time.perf_counter(), time.process_time()
    Z = bch_mod.bch(N, use_cache=False)
    wall, cpu = time.perf_counter() - w, time.process_time() - c
    return {"degree": N, "wall_s": wall, "cpu_s": cpu, "terms": len(Z.lyndon_coefficients()),
            "basis": sum(len(bch_mod._lyndon_internal(2, N)[m]) for m in range(1, N + 1)),
            "nonzero_top": Z.nonzero_per_degree().get(N, 0),
            "denominator_top": Z.common_denominators().get(N, 1)}


def table(degrees) -> str:
    rows = ["| degree N | Lyndon basis (<= N) | non-zero coefficients (<= N) | non-zero in degree N | "
            "common denominator of degree N | wall s | CPU s |", "|---|---|---|---|---|---|---|"]
    for N in degrees:
        r = _time_degree(N)
        rows.append(f"| {r['degree']} | {r['basis']} | {r['terms']} | {r['nonzero_top']} | "
                    f"{r['denominator_top']} | {r['wall_s']:.2f} | {r['cpu_s']:.2f} |")
    return "\n".join(rows)


@pytest.mark.benchmark
def test_bch_timing_table():
    top = int(os.environ.get("SEQTHEORY_BENCH_MAX_DEGREE", "18"))
    md = table(range(8, top + 1, 2))
    print("\n" + md)
    out = os.environ.get("SEQTHEORY_BENCH_OUT")
    if out:
        from seqtheory.theory._io import atomic_write_text

        atomic_write_text(out, md + "\n")


@pytest.mark.benchmark
def test_bch_degree16_target():
    r = _time_degree(16)
    print(f"\ndegree 16: wall {r['wall_s']:.2f} s, CPU {r['cpu_s']:.2f} s")
    from seqtheory.theory.free_lie import witt_dimension

    assert r["basis"] == sum(witt_dimension(2, m) for m in range(1, 17))
    assert r["cpu_s"] <= 10.0


if __name__ == "__main__":  # pragma: no cover
    top = int(sys.argv[1]) if len(sys.argv) > 1 else 18
    print(table(range(8, top + 1, 2)))

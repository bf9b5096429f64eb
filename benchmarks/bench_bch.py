"""BCH series in the Lyndon basis: seqtheory against H. Hofstätter's C program ``bch``, same run.

Run as a script::

    python benchmarks/bench_bch.py --peer /path/to/bch            # degrees 12 14 16 18 20
    python benchmarks/bench_bch.py --peer /path/to/bch --degrees 16 20 --kinds classical
    SEQTHEORY_BCH_PEER=/path/to/bch python -m pytest benchmarks/bench_bch.py -m benchmark -s

The peer (https://github.com/HaraldHofstaetter/BCH, C, OpenMP) is not part of seqtheory: it is
built outside the repository (see ``benchmarks/README_bch.md``) and passed by path (``--peer``
or ``$SEQTHEORY_BCH_PEER``). Without a peer path only seqtheory is timed, and the table says so.

For each kind (``classical`` = ``log(e^X e^Y)``, ``symmetric`` = ``log(e^{X/2} e^Y e^{X/2})``;
the peer's ``expression=0`` / ``expression=1``) and degree N, one process (this one) times
``bch(N, kind, use_cache=False)`` with its engine and memo caches cleared (best of
``--repeat`` runs, wall clock, plus the CPU seconds of this process and its forked workers), and
runs the peer ``--repeat`` times as a subprocess, reading its own timing of the computation
(``#seconds=`` from the build driver described in the README, or ``#total time=`` that the
upstream ``bch`` prints at ``verbosity_level=1``) and the number of non-zero coefficients per
degree, which must equal seqtheory's (the row is marked otherwise). Recorded per row: both
times, their ratio (wall: seqtheory's wall time over the peer's own timing; CPU: CPU seconds of
both, less sensitive to other jobs on a shared machine), the growth factor from the previous
degree of the table, and the load average (``os.getloadavg``) before the row. ``--out FILE`` (or ``$SEQTHEORY_BENCH_OUT``) also
writes the markdown table there.
"""
from __future__ import annotations

import argparse
import importlib
import os
import re
import resource
import subprocess
import sys
import time

import pytest

KINDS = ("classical", "symmetric")
DEFAULT_DEGREES = (12, 14, 16, 18, 20)
_PEER_EXPRESSION = {"classical": 0, "symmetric": 1}


def _bch_module():
    return importlib.import_module("seqtheory.theory.bch_series")


def _clear_caches(mod) -> None:
    for name in ("_engine", "_goldberg_runs", "_goldberg_G"):
        getattr(mod, name).cache_clear()


def time_seqtheory(N: int, kind: str, repeat: int = 1) -> dict:
    """Best-of-``repeat`` wall seconds (and that run's CPU seconds, this process plus forked
    workers) of ``bch(N, kind, use_cache=False)`` with cleared caches, and its non-zero
    coefficient counts per degree."""
    mod = _bch_module()
    best = None
    for _ in range(max(1, repeat)):
        _clear_caches(mod)
        c0 = time.process_time() + resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
        w0 = time.perf_counter()
        Z = mod.bch(N, kind, use_cache=False)
        wall = time.perf_counter() - w0
        cpu = time.process_time() + resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime - c0
        if best is None or wall < best["wall_s"]:
            nz = Z.nonzero_per_degree()
            best = {"wall_s": wall, "cpu_s": cpu, "terms": len(Z.lyndon_coefficients()),
                    "per_degree": [nz.get(m, 0) for m in range(1, N + 1)]}
    return best


def parse_peer_output(text: str, N: int) -> dict:
    """Timing and non-zero counts from the peer's stdout (build driver or upstream format)."""
    m = re.search(r"#seconds=([0-9.eE+-]+)", text) or re.search(r"#total time=([0-9.eE+-]+)", text)
    if m is None:
        raise ValueError("peer output has no '#seconds=' or '#total time=' line "
                         "(run the upstream bch with verbosity_level=1)")
    seconds = float(m.group(1))
    per = None
    m2 = re.search(r"#nonzero_per_degree=([0-9,]+)", text)
    if m2:
        per = [int(x) for x in m2.group(1).split(",")]
    else:  # upstream statistics lines: '#  degree  dim  #nonzero  dim(cum.)  #nz(cum.)'
        rows = re.findall(r"^#\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*$", text, re.M)
        if rows:
            d = {int(r[0]): int(r[2]) for r in rows}
            per = [d.get(k, 0) for k in range(1, N + 1)]
    return {"seconds": seconds, "per_degree": per}


def time_peer(peer: str, N: int, kind: str, repeat: int = 3) -> dict:
    """Best-of-``repeat`` of the peer's own timing of the computation; also the subprocess wall
    time and CPU seconds (user + system, all threads) of that run, start-up and printing
    included."""
    best = None
    for _ in range(max(1, repeat)):
        ru = resource.getrusage(resource.RUSAGE_CHILDREN)
        w0 = time.perf_counter()
        proc = subprocess.run([peer, f"N={N}", f"expression={_PEER_EXPRESSION[kind]}", "verbosity_level=1"],
                              capture_output=True, text=True, check=True)
        wall = time.perf_counter() - w0
        ru2 = resource.getrusage(resource.RUSAGE_CHILDREN)
        r = parse_peer_output(proc.stdout, N)
        r["process_wall_s"] = wall
        r["process_cpu_s"] = ru2.ru_utime + ru2.ru_stime - ru.ru_utime - ru.ru_stime
        if best is None or r["seconds"] < best["seconds"]:
            best = r
    return best


def run(degrees, kinds, peer: str | None, repeat: int = 2) -> list[dict]:
    mod = _bch_module()
    mod.bch(6, use_cache=False)  # imports (flint) and prime generation outside the timings
    rows = []
    for kind in kinds:
        prev = None
        for N in degrees:
            load = os.getloadavg()[0]
            ours = time_seqtheory(N, kind, repeat)
            row = {"kind": kind, "degree": N, "load": load, "ours": ours, "peer": None,
                   "growth": None if prev is None else ours["wall_s"] / prev["wall_s"]}
            if peer:
                p = time_peer(peer, N, kind, max(3, repeat))
                row["peer"] = p
                row["ratio"] = ours["wall_s"] / p["seconds"] if p["seconds"] > 0 else float("inf")
                row["counts_agree"] = p["per_degree"] == ours["per_degree"]
                row["peer_growth"] = None if prev is None or prev.get("peer") is None else \
                    p["seconds"] / prev["peer"]["seconds"]
            rows.append(row)
            prev = dict(ours, peer=row["peer"])
    return rows


def table(rows) -> str:
    have_peer = any(r["peer"] for r in rows)
    if have_peer:
        head = ("| kind | N | non-zero (<= N) | counts agree | peer s | peer CPU s | seqtheory wall s | "
                "seqtheory CPU s | ratio (wall) | ratio (CPU) | growth peer | growth seqtheory | load |")
        out = [head, "|" + "---|" * 13]
        for r in rows:
            p = r["peer"]
            g = "" if r["growth"] is None else f"{r['growth']:.1f}x"
            gp = "" if r.get("peer_growth") is None else f"{r['peer_growth']:.1f}x"
            rc = r["ours"]["cpu_s"] / p["process_cpu_s"] if p["process_cpu_s"] > 0 else float("inf")
            out.append(f"| {r['kind']} | {r['degree']} | {r['ours']['terms']} | "
                       f"{'yes' if r['counts_agree'] else '**NO**'} | {p['seconds']:.3f} | "
                       f"{p['process_cpu_s']:.3f} | {r['ours']['wall_s']:.2f} | {r['ours']['cpu_s']:.2f} | "
                       f"{r['ratio']:.1f}x | {rc:.1f}x | {gp} | {g} | {r['load']:.2f} |")
    else:
        out = ["No peer given (--peer or $SEQTHEORY_BCH_PEER): seqtheory alone, no ratio.", "",
               "| kind | N | non-zero (<= N) | seqtheory wall s | seqtheory CPU s | growth | load |",
               "|" + "---|" * 7]
        for r in rows:
            g = "" if r["growth"] is None else f"{r['growth']:.1f}x"
            out.append(f"| {r['kind']} | {r['degree']} | {r['ours']['terms']} | {r['ours']['wall_s']:.2f} | "
                       f"{r['ours']['cpu_s']:.2f} | {g} | {r['load']:.2f} |")
    out.append("")
    out.append(f"cpu_count={os.cpu_count()}, OMP_NUM_THREADS={os.environ.get('OMP_NUM_THREADS', 'unset')}, "
               f"SEQTHEORY_BCH_WORKERS={os.environ.get('SEQTHEORY_BCH_WORKERS', 'unset')}, "
               f"load after: {os.getloadavg()[0]:.2f}")
    return "\n".join(out)


def _write(md: str, out: str | None) -> None:
    if out:
        sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        from seqtheory.theory._io import atomic_write_text

        atomic_write_text(out, md + "\n")


@pytest.mark.benchmark
def test_bch_against_peer_table():
    top = int(os.environ.get("SEQTHEORY_BENCH_MAX_DEGREE", "20"))
    peer = os.environ.get("SEQTHEORY_BCH_PEER") or None
    rows = run([d for d in DEFAULT_DEGREES if d <= top], KINDS, peer, repeat=1)
    md = table(rows)
    print("\n" + md)
    _write(md, os.environ.get("SEQTHEORY_BENCH_OUT"))
    for r in rows:  # exact facts checked alongside the timings
        per = r["ours"]["per_degree"]
        assert per[:2] == [2, 1 if r["kind"] == "classical" else 0] and sum(per) == r["ours"]["terms"]
        if r["peer"]:
            assert r["counts_agree"], r


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--peer", default=os.environ.get("SEQTHEORY_BCH_PEER"),
                    help="path of the peer executable (default: $SEQTHEORY_BCH_PEER; none: seqtheory alone)")
    ap.add_argument("--degrees", type=int, nargs="+", default=list(DEFAULT_DEGREES))
    ap.add_argument("--kinds", nargs="+", choices=KINDS, default=list(KINDS))
    ap.add_argument("--repeat", type=int, default=2, help="best of this many runs (peer: at least 3)")
    ap.add_argument("--out", default=os.environ.get("SEQTHEORY_BENCH_OUT"))
    a = ap.parse_args(argv)
    if a.peer and not os.access(a.peer, os.X_OK):
        ap.error(f"--peer {a.peer!r} is not an executable file")
    if not a.peer:
        print("no peer executable given: timing seqtheory alone", file=sys.stderr)
    rows = run(a.degrees, a.kinds, a.peer, a.repeat)
    md = table(rows)
    print(md)
    _write(md, a.out)
    return 0 if all(r.get("counts_agree", True) for r in rows) else 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

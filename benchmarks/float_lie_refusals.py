"""Why the float Lie path refuses well-conditioned input (issue 19 §3): the refused cases of the
stress test (tests/test_float_lie_stress.py, same generator and seed) with condition number
``<= 1e4``, each classified as *intrinsic* or not.

For a refused case the decisions of one recorded run of the float path
(:func:`seqtheory.theory.lie.recorded_run`) on the float input ``F = fl(P g fl(P^-1))`` are set
beside those on ``A``, the exact conjugation ``P g P^-1`` of the integer generators ``g`` by the
binary ``P`` (Fractions), rounded to ``longdouble`` (relative error 5e-20), and on a second
rounding of ``A`` (every entry times ``1 + 1e-18 r``). A value of ``A``'s run is *genuine* when
the second rounding moves it by less than a tenth of itself and it lies above the arithmetic's
floor; else it is a genuine zero (rounding). The noise the input's rounding makes in a decision:
``F``'s values at the genuine zeros, and ``|v_F - v_A|`` at the genuine values. The refusal is
*intrinsic* when the smallest genuine value of the log is less than ``MIN_GAP`` (100) times that
noise: the float input does not separate it from rounding, so no rule can answer it from ``F``
(and refusing is the right answer). Other refusals are the rule's (over-conservative).

Run: ``python benchmarks/float_lie_refusals.py [--seed 2026] [--cases 10000] [--json out.json]``
(about a minute per 1000 refused cases on one core).
"""
from __future__ import annotations

import argparse
import collections
import json
import math
import sys
from fractions import Fraction
from pathlib import Path

import mpmath
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from float_lie_cases import QUERIES, conjugate, each_invariant, stress_cases  # noqa: E402
from seqtheory.theory.float_rank import ARITHMETIC_FLOOR, MIN_GAP  # noqa: E402
from seqtheory.theory.lie import LieAlgebra, recorded_run  # noqa: E402

GENUINE_CHANGE = 0.1
SECOND_ROUNDING = 1e-18


def exact_conjugates(gens, P):
    """``P g P^-1`` exactly (Fractions) for the binary ``P``."""
    n = P.shape[0]
    Pq = [[Fraction(float(x)) for x in row] for row in P]
    M = [row[:] + [Fraction(int(i == j)) for j in range(n)] for i, row in enumerate(Pq)]
    for c in range(n):
        p = next(r for r in range(c, n) if M[r][c] != 0)
        M[c], M[p] = M[p], M[c]
        inv = 1 / M[c][c]
        M[c] = [x * inv for x in M[c]]
        for r in range(n):
            if r != c and M[r][c] != 0:
                f = M[r][c]
                M[r] = [x - f * y for x, y in zip(M[r], M[c])]
    Pi = [row[n:] for row in M]

    def mul(X, Y):
        return [[sum(X[i][k] * Y[k][j] for k in range(n)) for j in range(n)] for i in range(n)]
    return [mul(mul(Pq, [[Fraction(int(x)) for x in row] for row in g]), Pi) for g in gens]


def to_longdouble(A):
    mpmath.mp.dps = 40
    return np.array([[np.longdouble(mpmath.nstr(mpmath.mpf(x.numerator) / x.denominator, 30))
                      for x in row] for row in A])


def input_error(F, Aq):
    """The float input's relative error against the exact conjugates (Frobenius, largest over
    the generators)."""
    worst = 0.0
    for f, a in zip(F, Aq):
        num = sum((Fraction(float(f[i][j])) - a[i][j]) ** 2 for i in range(len(a))
                  for j in range(len(a)))
        den = sum(x * x for row in a for x in row)
        worst = max(worst, math.sqrt(float(num / den)) if den else 0.0)
    return worst


def classify(gens, P, query):
    """The genuine values and the input's noise of one refused query (``None``: the algebra
    itself)."""
    F = conjugate(gens, P)
    exact = LieAlgebra.generated_by(gens)
    exact = exact if query is None else getattr(exact, query)
    exact = exact() if callable(exact) else exact
    Aq = exact_conjugates(gens, P)
    A = [to_longdouble(a) for a in Aq]
    rng = np.random.default_rng(0)
    A2 = [a * (1 + np.longdouble(SECOND_ROUNDING) * rng.uniform(-1, 1, a.shape)) for a in A]
    runs = [recorded_run(X, query) for X in (F, A, A2)]
    logs = [r[1] for r in runs]
    g_min, noise, aligned, where = math.inf, 0.0, 0, ""
    for dF, dA, dA2 in zip(*logs):
        if dF[0] != dA[0] or dF[1].shape != dA[1].shape or dA2[1].shape != dA[1].shape:
            break
        aligned += 1
        vF, vA, vA2 = dF[1], dA[1], dA2[1]
        genuine = dA[2] & (np.abs(vA2 - vA) < GENUINE_CHANGE * vA)
        if np.any(genuine) and float(vA[genuine].min()) < g_min:
            g_min, where = float(vA[genuine].min()), dA[0]
        noise = max(noise, float(np.abs(vF - vA).max(initial=0.0)))
    ratio = g_min / noise if noise > 0 else math.inf
    return {"genuine_min": g_min, "input_noise": noise, "ratio": ratio, "where": where,
            "aligned": f"{aligned}/{len(logs[0])}/{len(logs[1])}",
            "input_error": input_error(F, Aq), "intrinsic": ratio < MIN_GAP,
            "precise_right": _same(runs[1][0], exact), "float_run_right": _same(runs[0][0], exact)}


def _value(x):
    return tuple(x.dims) if hasattr(x, "dims") else x.dim if hasattr(x, "space") else x


def _same(answer, exact):
    return not isinstance(answer, Exception) and _value(answer) == _value(exact)


def rule_of(why: str) -> str:
    for key, name in (("resolution", "resolution gap"), ("does not re-draw", "square (not re-drawn)"),
                      ("below the square", "square"), ("changes the decision", "decision changes"),
                      ("decisions:", "decision count changes"), ("gap between", "gap"),
                      ("neither re-drawn", "dropped value not explained"),
                      ("twin run refused", "twin refused")):
        if key in why:
            return name
    return "other: " + why[:80]


def run(ncases: int, seed: int, max_band: int = 4):
    bands = collections.defaultdict(lambda: collections.Counter())
    rows = []
    for c, gens, log_cond, P in stress_cases(ncases, seed):
        if log_cond >= max_band:
            continue
        band = int(log_cond)
        got, why = each_invariant(conjugate(gens, P))
        if all(w is None for w in why):
            bands[band]["answered"] += 1
            continue
        # the first refused query (the algebra itself: every query refused)
        k = next(i for i, w in enumerate(why) if w is not None)
        info = classify(gens, P, QUERIES[k][1])
        info.update(case=c, band=band, cond=10 ** log_cond, query=QUERIES[k][0],
                    rule=rule_of(why[k]), why=why[k][:400])
        bands[band]["intrinsic" if info["intrinsic"] else "other"] += 1
        rows.append(info)
    return bands, rows


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--cases", type=int, default=10_000)
    ap.add_argument("--json", type=str, default=None)
    a = ap.parse_args(argv)
    bands, rows = run(a.cases, a.seed)
    for b in sorted(bands):
        r = bands[b]
        print(f"cond 1e{b}..1e{b + 1}: answered {r['answered']}, refused intrinsic "
              f"{r['intrinsic']}, refused other {r['other']}")
    for rule, n in collections.Counter((r["rule"], r["intrinsic"]) for r in rows).most_common():
        print(f"  {rule}: {n}")
    if a.json:
        Path(a.json).write_text(json.dumps(rows, indent=1, default=str))


if __name__ == "__main__":
    main()

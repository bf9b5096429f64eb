"""Why the float Lie path refuses well-conditioned input (issue 19 §3): the refused cases of the
stress test (tests/test_float_lie_stress.py, same generator and seed) with condition number
``<= 1e4`` (``--max-band``), each classified as *intrinsic* or not, with the rule that refused it.

For a refused case, the first refused query is run once more, recorded
(:func:`seqtheory.theory.lie.recorded_run`), on the float input ``F = fl(P g fl(P^-1))``, on
``A`` -- the exact conjugation ``P g P^-1`` of the integer generators by the binary ``P``
(Fractions), rounded to ``longdouble`` (relative error 5e-20) -- and on a second rounding of
``A`` (entries times ``1 + 1e-18 r``); see ``tests/float_lie_cases.genuine_and_noise``. The
genuine values are ``A``'s kept values that the second rounding does not move (all its stable
values where ``A``'s answer at the tolerance is not the exact one); the noise the input's
rounding makes in a decision is the largest ``|v_F - v_A|`` there. The refusal is *intrinsic*
when, in some decision, the smallest genuine value is less than ``MIN_GAP`` (100) times that
noise: the float input does not separate it from its rounding, no rule can answer from ``F``,
and refusing is right. Other refusals are the rule's own (over-conservative).

Run: ``python benchmarks/float_lie_refusals.py [--seed 2026] [--cases 10000] [--json out.json]``
(about 90 s on one core for the 5 088 cases below 1e4 of seed 2026).
"""
from __future__ import annotations

import argparse
import collections
import json
import sys
from pathlib import Path


sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from float_lie_cases import (QUERIES, conjugate, each_invariant, genuine_and_noise,  # noqa: E402
                             stress_cases)


def rule_of(why: str) -> str:
    """The rule of the a-posteriori certificate that a refusal message names."""
    for key, name in (("resolution", "resolution gap"), ("does not re-draw", "square (not re-drawn)"),
                      ("below the square", "square"), ("changes the decision", "decision changes"),
                      ("decisions:", "decision count changes"), ("gap between", "gap"),
                      ("neither re-drawn", "dropped value not explained"),
                      ("twin run refused", "twin refused")):
        if key in why:
            return name
    return "other: " + why[:80]


def run(ncases: int, seed: int, max_band: int = 4, min_band: int = 0):
    """Per band (condition number in [10^b, 10^(b+1))): answered / refused intrinsic / refused
    other counts, and one row per refused case (its first refused query classified by
    :func:`float_lie_cases.genuine_and_noise`, the rule that refused it)."""
    bands = collections.defaultdict(lambda: collections.Counter())
    rows = []
    for c, gens, log_cond, P in stress_cases(ncases, seed):
        if not min_band <= log_cond < max_band:
            continue
        band = int(log_cond)
        got, why = each_invariant(conjugate(gens, P))
        if all(w is None for w in why):
            bands[band]["answered"] += 1
            continue
        # the first refused query (the algebra itself: every query refused)
        k = next(i for i, w in enumerate(why) if w is not None)
        info = genuine_and_noise(gens, P, QUERIES[k][1])
        info.update(case=c, band=band, cond=10 ** log_cond, query=QUERIES[k][0],
                    rule=rule_of(why[k]), why=why[k][:400])
        bands[band]["intrinsic" if info["intrinsic"] else "other"] += 1
        rows.append(info)
    return bands, rows


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--cases", type=int, default=10_000)
    ap.add_argument("--max-band", type=int, default=4,
                    help="classify condition numbers below 10**MAX_BAND (default 4: <= 1e4)")
    ap.add_argument("--min-band", type=int, default=0)
    ap.add_argument("--json", type=str, default=None)
    a = ap.parse_args(argv)
    bands, rows = run(a.cases, a.seed, a.max_band, a.min_band)
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

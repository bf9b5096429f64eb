"""[HEAD] (A. Somasundaram et al., arXiv:2608.22253), the RowNorm approximation ratio.

Claim ``head.rownorm_ratio``: √((k+1)/(2k)) ≤ Δ_RN/Δ* ≤ 1 with k = rank G, tight for a
regular-simplex gradient. Experiment: random gradients of rank ≤ k (unbalanced rows included) and
the regular-simplex gradients for k = 1..kmax, Δ* from the diameter SOCP. Decision
(:func:`rownorm_ratio_decide`, pure): refuted outside the bounds (beyond the SOCP tolerance),
refined when the simplex gradients miss the lower bound, else supported. Control: three wrong
variants (:data:`_RATIO_VARIANTS`) through the same rule.
"""
from __future__ import annotations

import math

import numpy as np

from seqtheory.proofs_checks.figures import new_figure, save_figure
from seqtheory.proofs_checks.head_evidence import SOLVER_TOL
from seqtheory.proofs_checks.registry import HEAD, Context, ControlOutcome, Outcome, Verdict, claim
from seqtheory.proofs_checks.report import format_stat


def _ratio_data(ctx: Context, n_random: int, kmax: int) -> dict:
    from seqtheory.numerics.head_oracles import regular_simplex_gradient, rownorm_ratio

    rng = np.random.default_rng(ctx.numpy_seed("rr"))
    rand = []
    for t in range(n_random):
        k = 1 + t % kmax
        V = k + 1 + int(rng.integers(0, 4))
        d = k + int(rng.integers(0, 2))
        G = (rng.normal(size=(V, k)) @ rng.normal(size=(k, d)))      # rank ≤ k
        G -= G.mean(axis=0)
        if t % 3 == 0:
            G[: V // 2] *= 10.0                                      # unbalanced rows
        rand.append(rownorm_ratio(G))
    simplex = [rownorm_ratio(regular_simplex_gradient(k)) for k in range(1, kmax + 1)]
    return {"random": rand, "simplex": simplex}


_NO_K2 = "no random G of rank ≥ 2"


def _ratio_stats(data: dict, bound) -> dict:
    """How the measured ratios sit against ``bound(k)``: the worst violation below the bound and
    above 1, and the distance of the regular-simplex ratios from the bound (tightness)."""
    below = max(max(bound(r["k"]) - r["ratio"] for r in data["random"] + data["simplex"]), 0.0)
    above = max(max(r["ratio"] - 1 for r in data["random"] + data["simplex"]), 0.0)
    tight = max(abs(r["ratio"] - bound(r["k"])) for r in data["simplex"])
    rand = data["random"]
    return {"max_violation_below": below, "max_violation_above": above, "simplex_tightness_err":
            tight, "min_margin_random_k>=2": min((r["ratio"] - bound(r["k"]) for r in rand
                                                  if r["k"] >= 2), default=float("nan")),
            "max_ratio_random_k>=2": max((r["ratio"] for r in rand if r["k"] >= 2),
                                         default=float("nan"))}


_CACHE: dict = {}


def _cached(key, fn):
    if key not in _CACHE:
        _CACHE[key] = fn()
    return _CACHE[key]


@claim("head.rownorm_ratio", title="RowNorm is within √((k+1)/(2k)) of the exact step",
       source=HEAD("RowNorm approximation ratio"),
       statement="√((k+1)/(2k)) ≤ Δ_RN/Δ* ≤ 1, k = rank G, tight for a regular-simplex gradient")
def rownorm_ratio_claim(ctx: Context) -> Outcome:
    from seqtheory.numerics.head_oracles import rownorm_ratio_bound

    kmax = 4 if ctx.quick else 6
    data = _cached(("rr", ctx.seed, ctx.profile),
                   lambda: _ratio_data(ctx, 12 if ctx.quick else 80, kmax))
    v = _ratio_stats(data, rownorm_ratio_bound)
    verdict, why = rownorm_ratio_decide(v)
    fig, ax = new_figure(figsize=(5, 3.5))
    ks = np.arange(1, kmax + 1)
    ax.plot(ks, [rownorm_ratio_bound(int(k)) for k in ks], "k-", label="√((k+1)/(2k))")
    ax.scatter([r["k"] for r in data["random"]], [r["ratio"] for r in data["random"]], s=12,
               label="random G (SOCP)")
    ax.scatter([r["k"] for r in data["simplex"]], [r["ratio"] for r in data["simplex"]],
               marker="x", c="r", label="regular simplex G")
    ax.axhline(1.0, ls=":", c="gray")
    ax.set_xlabel("k = rank G")
    ax.set_ylabel("Δ_RN / Δ*")
    ax.legend(fontsize=7)
    figs = save_figure(fig, ctx, "head_rownorm_ratio")
    return Outcome(verdict,
                   f"random G with k ≥ 2: min (ratio − bound) = "
                   f"{format_stat(v['min_margin_random_k>=2'], '.3f', _NO_K2)}, max ratio "
                   f"{format_stat(v['max_ratio_random_k>=2'], '.4f', _NO_K2)} "
                   f"(k = 1: bound = 1); "
                   f"regular simplex k=1..{kmax}: |ratio − bound| ≤ {v['simplex_tightness_err']:.1e} "
                   f"(solver tolerance {SOLVER_TOL:g})",
                   evidence=v,
                   tables={"simplex": [{"k": r["k"], "ratio": r["ratio"], "bound": r["bound"]}
                                       for r in data["simplex"]],
                           "random": [{"k": r["k"], "ratio": r["ratio"], "bound": r["bound"]}
                                      for r in data["random"]]},
                   figures=figs,
                   notes="Δ* from the diameter SOCP (Clarabel). Lower end: Jung's theorem in the "
                         "k-dimensional row space of G; k is the numerical rank of PG (relative "
                         "tolerance 1e-9). rank PG ≤ rank G and the bound decreases in k, so the "
                         "statement with k = rank G follows. Decision rule: " + why)


@rownorm_ratio_claim.decision_rule
def rownorm_ratio_decide(stats: dict) -> tuple[Verdict, str]:
    """Refuted if a ratio lies below the stated lower bound or above 1 by more than ``SOLVER_TOL``
    (the SOCP tolerance); refined if the bounds hold but the regular-simplex gradients miss the
    lower bound by more than ``SOLVER_TOL`` (the statement says it is tight there); supported
    otherwise."""
    tolerance = SOLVER_TOL
    if stats["max_violation_below"] > tolerance or stats["max_violation_above"] > tolerance:
        return Verdict.REFUTED, (f"ratio below the bound by {stats['max_violation_below']:.3g}, "
                                 f"above 1 by {stats['max_violation_above']:.3g}")
    if stats["simplex_tightness_err"] > tolerance:
        return Verdict.REFINED, (f"bounds hold, but the regular-simplex gradients miss the lower "
                                 f"bound by {stats['simplex_tightness_err']:.3g} (not tight)")
    return Verdict.SUPPORTED, "bounds hold; the regular-simplex gradients attain the lower bound"


def _oversized_step(data: dict) -> dict:
    """The ratios of the oversized step ``S = −η P·RN(PG)`` (covering radius η, so D(S) can reach
    2η: outside the feasible set ``D(S) ≤ η``). ``Δ = −⟨G, S⟩`` is linear in the step's scale, so
    each ratio is exactly twice the measured ``Δ_RN/Δ*``."""
    return {key: [{**r, "ratio": 2.0 * r["ratio"]} for r in rows] for key, rows in data.items()}


#: Wrong variants of ``head.rownorm_ratio`` the rule must reject, each with its data transform,
#: its stated lower bound and the verdicts that count as a rejection. The first is not tight (the
#: rule must not call it supported); the other two are violated (the rule must refute them).
_RATIO_VARIANTS = (
    ("wrong constant √(k/(2(k+1))) (Jung's radius itself): holds, not tight",
     lambda d: d, lambda k: math.sqrt(k / (2.0 * (k + 1))), "not supported"),
    ("violation below: the claim 'RowNorm is exact' (lower bound 1 for every k)",
     lambda d: d, lambda k: 1.0, "refuted"),
    ("violation above: the oversized step −η P·RN(PG) (covering radius η, outside D(S) ≤ η)",
     _oversized_step, None, "refuted"),
)


@rownorm_ratio_claim.control
def _(ctx: Context) -> ControlOutcome:
    """Three wrong variants through the same rule: a bound that holds but is not tight (must not
    be supported), a bound violated from below (must be refuted) and a ratio above 1 (must be
    refuted). Rejected iff every variant gets its expected verdict."""
    from seqtheory.numerics.head_oracles import rownorm_ratio_bound

    data = _cached(("rr", ctx.seed, ctx.profile),
                   lambda: _ratio_data(ctx, 12 if ctx.quick else 80, 4 if ctx.quick else 6))
    rows, ok = [], True
    for name, transform, bound, expected in _RATIO_VARIANTS:
        v = _ratio_stats(transform(data), bound or rownorm_ratio_bound)
        verdict, why = rownorm_ratio_decide(v)
        good = (verdict is Verdict.REFUTED if expected == "refuted"
                else verdict is not Verdict.SUPPORTED)
        ok &= good
        rows.append({"variant": name, "expected": expected, "verdict": verdict.value,
                     "rejected": good, "why": why, **v})
    return ControlOutcome(ok, "; ".join(r["variant"] for r in rows),
                          " | ".join(f"{r['verdict']}: {r['why']}" for r in rows),
                          {"variants": rows})

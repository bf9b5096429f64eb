"""[HEAD] (A. Somasundaram et al., arXiv:2608.22253), the backward bound through the head.

Claim ``head.backward_bound``: ‖Sᵀr‖₂ ≤ ½ D(S) ‖r‖₁ for every residual with 1ᵀr = 0, tight at
r = e_i − e_j for a diameter pair (i, j). Experiment: random heads (shifted rows included) and
centred residuals; the ratio at a diameter pair. Decision (:func:`backward_bound_decide`, pure):
refuted above 1 (+1e-12), refined when the diameter pair misses equality, else supported. Control:
residuals without the centring, which must be refuted.
"""
from __future__ import annotations

import numpy as np

from seqtheory.proofs_checks.head_evidence import TOL_BOUND
from seqtheory.proofs_checks.registry import HEAD, Context, ControlOutcome, Outcome, Verdict, claim
from seqtheory.theory.hilbert import row_diameter


def _backward_ratios(centre: bool, ctx: Context, n: int) -> dict:
    rng = np.random.default_rng(ctx.numpy_seed("bb"))
    worst, tight = 0.0, 1.0
    for k in range(n):
        V, d = 2 + k % 9, 1 + k % 6
        S = rng.normal(size=(V, d)) + (rng.normal(size=d) * 5 if k % 2 else 0)
        r = rng.normal(size=V)
        if centre:
            r -= r.mean()
        D, (i, j) = row_diameter(S)
        if D == 0:
            continue
        worst = max(worst, float(np.linalg.norm(S.T @ r) / (0.5 * D * np.abs(r).sum())))
        e = np.zeros(V)
        e[i], e[j] = 1.0, -1.0
        tight = min(tight, float(np.linalg.norm(S.T @ e) / (0.5 * D * 2.0)))
    return {"max_ratio": worst, "ratio_at_diameter_pair": tight, "instances": n}


@claim("head.backward_bound", title="Backward bound through the head",
       source=HEAD("backward bound through the head"),
       statement="‖Sᵀr‖₂ ≤ ½ D(S) ‖r‖₁ for 1ᵀr = 0, tight at r = e_i − e_j")
def backward_bound_claim(ctx: Context) -> Outcome:
    r = _backward_ratios(True, ctx, 150 if ctx.quick else 3000)
    verdict, why = backward_bound_decide(r["max_ratio"], r["ratio_at_diameter_pair"])
    return Outcome(verdict,
                   f"max ‖Sᵀr‖/(½D‖r‖₁) = {r['max_ratio']:.6f}; at a diameter pair "
                   f"{r['ratio_at_diameter_pair']:.15f}", evidence=r,
                   notes="1ᵀr = 0 splits r into two parts of mass ‖r‖₁/2 each, so Sᵀr is "
                         "‖r‖₁/2 times a difference of two convex combinations of rows. "
                         "Decision rule: " + why)


@backward_bound_claim.decision_rule
def backward_bound_decide(max_ratio: float, ratio_at_diameter_pair: float
                          ) -> tuple[Verdict, str]:
    """Refuted if some instance has ``‖Sᵀr‖₂ / (½D(S)‖r‖₁) > 1 + 1e-12``; refined if the bound
    holds but ``r = e_i − e_j`` at a diameter pair misses equality by more than 1e-12 (the
    statement says it is tight there); supported otherwise."""
    if max_ratio > 1 + TOL_BOUND:
        return Verdict.REFUTED, f"‖Sᵀr‖₂ / (½D‖r‖₁) reaches {max_ratio:.6g} > 1"
    if abs(ratio_at_diameter_pair - 1) > TOL_BOUND:
        return Verdict.REFINED, (f"bound holds but the diameter pair gives only "
                                 f"{ratio_at_diameter_pair:.15f} (not tight)")
    return Verdict.SUPPORTED, "bound holds on every instance, equality at a diameter pair"


@backward_bound_claim.control
def _(ctx: Context) -> ControlOutcome:
    r = _backward_ratios(False, ctx, 100)
    verdict, why = backward_bound_decide(r["max_ratio"], r["ratio_at_diameter_pair"])
    return ControlOutcome(verdict is Verdict.REFUTED, "residuals without the centring 1ᵀr = 0",
                          f"{verdict.value}: {why}", r)

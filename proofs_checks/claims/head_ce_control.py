"""[HEAD] (A. Somasundaram et al., arXiv:2608.22253), cross-entropy control by the Hilbert distance.

Claim ``head.ce_control``: |−log p_c + log q_c| ≤ 𝓗(p, q) for every class c. Experiment: the
ratio |Δlog p_c| / 𝓗 on random logit pairs (V 2–12, scales 1e-3–1e3) and on a near-tight family
(one rare class moved by t). Decision (:func:`ce_control_decide`, pure): supported iff no ratio
exceeds 1 (+1e-12). Control: the constant ½ in place of 1, which must be refuted.
"""
from __future__ import annotations

import numpy as np

from seqtheory.proofs_checks.head_evidence import TOL_BOUND, log_softmax, logit_pairs
from seqtheory.proofs_checks.registry import HEAD, Context, ControlOutcome, Outcome, Verdict, claim


def _ce_ratios(constant: float, ctx: Context, n: int) -> dict:
    rng = np.random.default_rng(ctx.numpy_seed("ce"))
    worst = 0.0
    for z, w in logit_pairs(rng, n):
        lz, lw = log_softmax(z), log_softmax(w)
        H = np.ptp(lz - lw)
        if H > 0:
            worst = max(worst, float(np.abs(lz - lw).max() / (constant * H)))
    # near-tight family: one rare class moved by t, the rest renormalised
    tight = []
    for t in (1.0, 5.0):
        for V in (10, 1000):
            z = np.zeros(V)
            z[0] = -40.0
            w = z.copy()
            w[0] += t
            lz, lw = log_softmax(z), log_softmax(w)
            tight.append(float(np.abs(lz - lw).max() / (constant * np.ptp(lz - lw))))
    return {"max_ratio_random": worst, "tight_family_ratios": tight,
            "max_ratio": max(worst, max(tight))}


@claim("head.ce_control", title="Cross-entropy change is controlled by the Hilbert distance",
       source=HEAD("cross-entropy control by the Hilbert distance"),
       statement="|−log p_c + log q_c| ≤ 𝓗(p, q) for every class c")
def ce_control_claim(ctx: Context) -> Outcome:
    r = _ce_ratios(1.0, ctx, 400 if ctx.quick else 4000)
    verdict, why = ce_control_decide(r["max_ratio"], r["tight_family_ratios"])
    sharp = min(abs(1 - x) for x in r["tight_family_ratios"]) < 1e-9
    return Outcome(
        verdict,
        f"max |Δlog p_c| / 𝓗 = {r['max_ratio']:.12f} (≤ 1); rare-class family reaches "
        f"{max(r['tight_family_ratios']):.12f} (sharp: {sharp})",
        evidence={**r, "sharp": sharp},
        notes="Proof sketch: both distributions sum to 1, so the log-ratios straddle 0 and each "
              "lies in [min, max]. Sharp: moving one rare class by t gives ratio → 1. "
              "Decision rule: " + why)


@ce_control_claim.decision_rule
def ce_control_decide(max_ratio: float, tight_family_ratios: list[float]
                      ) -> tuple[Verdict, str]:
    """Supported iff no instance has ``|Δlog p_c| / 𝓗 > 1 + 1e-12`` (random pairs and the
    rare-class family); refuted otherwise. The statement claims no sharpness; how close the
    rare-class family comes to 1 is reported."""
    worst = max([max_ratio, *tight_family_ratios])
    if worst > 1 + TOL_BOUND:
        return Verdict.REFUTED, f"|Δlog p_c| / 𝓗 reaches {worst:.6g} > 1"
    return Verdict.SUPPORTED, f"|Δlog p_c| / 𝓗 ≤ {worst:.12f} on every instance"


@ce_control_claim.control
def _(ctx: Context) -> ControlOutcome:
    r = _ce_ratios(0.5, ctx, 100)
    verdict, why = ce_control_decide(r["max_ratio"], r["tight_family_ratios"])
    return ControlOutcome(verdict is Verdict.REFUTED, "constant ½ (|Δlog p_c| ≤ ½𝓗)",
                          f"{verdict.value}: {why}", r)

"""[HEAD] (A. Somasundaram et al., arXiv:2608.22253), steepest descent under a diameter bound.

Claim ``head.min_tension_duality``: min_{D(S)≤η, 1ᵀS=0} ⟨G,S⟩ = −η𝒯(G), with 𝒯(G) the minimum
tension Σ_{i<j}‖y_ij‖₂ over antisymmetric flows with Σ_j y_ij = g_i. Experiment: both programs
solved (Clarabel, :mod:`seqtheory.numerics.head_oracles`) on centred softmax cross-entropy head
gradients of several sizes. Decision (:func:`min_tension_decide`, pure): inconclusive when a
program is unsolved, refuted when a relative gap exceeds the solver tolerance, else supported.
Control: the dual constant ½ (the covering-radius constant), which must be refuted.
"""
from __future__ import annotations

import math

import numpy as np

from seqtheory.proofs_checks.head_evidence import SOLVER_TOL, log_softmax
from seqtheory.proofs_checks.registry import HEAD, Context, ControlOutcome, Outcome, Verdict, claim
from seqtheory.theory._messages import counted


def _ce_gradient(rng: np.random.Generator, V: int, d: int, n: int = 4) -> np.ndarray:
    """A softmax cross-entropy gradient w.r.t. the head: Σ_t (p_t − e_{y_t}) h_tᵀ (centred)."""
    U = rng.normal(size=(V, d))
    G = np.zeros((V, d))
    for _ in range(n):
        h = rng.normal(size=d)
        p = np.exp(log_softmax(U @ h))
        p[rng.integers(V)] -= 1.0
        G += np.outer(p, h)
    return G


def _duality_rows(dual_constant: float, ctx: Context, sizes) -> list[dict]:
    """Solve the primal ``min_{D(S)≤η, 1ᵀS=0} ⟨G,S⟩`` and the min-tension flow problem for
    centred cross-entropy gradients; each row holds the primal value and the dual value claimed
    by the statement ``primal = −dual_constant·η·𝒯(G)`` (the paper's constant is 1)."""
    from seqtheory.numerics.head_oracles import centre_rows, min_tension, steepest_descent_diameter

    rng = np.random.default_rng(ctx.numpy_seed("mt"))
    rows = []
    for V, d in sizes:
        G = _ce_gradient(rng, V, d)
        eta = float(rng.uniform(0.5, 2))
        primal = steepest_descent_diameter(G, eta)
        dual = min_tension(centre_rows(G))          # removes the float residue of 1ᵀG = 0
        rows.append({"V": V, "d": d, "eta": eta, "primal": primal.value, "tension": dual.value,
                     "claimed_dual": -dual_constant * eta * dual.value,
                     "status": f"{primal.status}/{dual.status}"})
    return rows


@claim("head.min_tension_duality", title="Minimum-tension dual of diameter-constrained descent",
       source=HEAD("steepest descent under a diameter bound"),
       statement="min_{D(S)≤η, 1ᵀS=0} ⟨G,S⟩ = −η𝒯(G), 𝒯(G) = min Σ_{i<j}‖y_ij‖₂ over "
                 "antisymmetric flows with Σ_j y_ij = g_i")
def min_tension_duality(ctx: Context) -> Outcome:
    from seqtheory.numerics.head_oracles import min_tension

    sizes = [(2, 1), (3, 2), (5, 3), (8, 4)] if ctx.quick else \
        [(V, d) for V in (2, 3, 5, 8, 12) for d in (1, 2, 4, 6)]
    rows = _duality_rows(1.0, ctx, sizes)
    verdict, why = min_tension_decide(rows)
    gap = max(_rel_gap(r) for r in rows)
    unc = min_tension(np.eye(3, 2))
    return Outcome(verdict,
                   f"max relative gap primal vs −η𝒯 = {gap:.1e} over "
                   f"{counted(len(sizes), 'instance')} (Clarabel; tolerance {SOLVER_TOL})",
                   evidence={"max_rel_gap": gap, "tolerance": SOLVER_TOL,
                             "uncentred_flow_status": unc.status},
                   tables={"duality": [{**r, "rel_gap": _rel_gap(r)} for r in rows]},
                   notes="Instances are softmax cross-entropy head gradients, which satisfy 1ᵀG = 0. "
                         "For a general G the flow constraint Σ_j y_ij = g_i is infeasible unless "
                         "1ᵀG = 0 (flows carry no net mass), while the primal only sees PG: the "
                         "identity then holds with 𝒯(PG). Decision rule: " + why)


def _rel_gap(row: dict) -> float:
    """``|primal − claimed_dual| / max(1, |primal|)``; ``inf`` when either value is not finite."""
    p, q = row["primal"], row["claimed_dual"]
    if not (math.isfinite(p) and math.isfinite(q)):
        return math.inf
    return abs(p - q) / max(1.0, abs(p))


@min_tension_duality.decision_rule
def min_tension_decide(rows: list[dict]) -> tuple[Verdict, str]:
    """``rows``: one dict per instance with the solved ``primal`` value and the ``claimed_dual``
    value. Inconclusive without rows or if a program was not solved (a non-finite value: the
    evidence cannot decide); refuted if some relative gap ``|primal − claimed_dual| /
    max(1, |primal|)`` exceeds ``SOLVER_TOL`` (the conic solver's tolerance); supported otherwise."""
    tolerance = SOLVER_TOL
    if not rows:
        return Verdict.INCONCLUSIVE, "no instance solved"
    unsolved = [r for r in rows if not (math.isfinite(r["primal"])
                                        and math.isfinite(r["claimed_dual"]))]
    if unsolved:
        return Verdict.INCONCLUSIVE, f"{counted(len(unsolved), 'program')} not solved (non-finite value)"
    gap = max(_rel_gap(r) for r in rows)
    if gap > tolerance:
        return Verdict.REFUTED, f"relative gap {gap:.3g} > solver tolerance {tolerance:g}"
    return Verdict.SUPPORTED, f"every relative gap ≤ {gap:.1e} (tolerance {tolerance:g})"


@min_tension_duality.control
def _(ctx: Context) -> ControlOutcome:
    rows = _duality_rows(0.5, ctx, [(3, 2), (5, 3)])
    verdict, why = min_tension_decide(rows)
    return ControlOutcome(verdict is Verdict.REFUTED,
                          "dual constant ½ (primal = −(η/2)𝒯(G), the covering-radius constant), "
                          "both programs feasible and solved",
                          f"{verdict.value}: {why}",
                          {"max_rel_gap": max(_rel_gap(r) for r in rows), "rows": rows})

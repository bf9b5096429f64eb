"""[HEAD] (A. Somasundaram et al., arXiv:2608.22253), projected RowNorm.

Claim ``head.rownorm_oracle``: S_RN = −(η/2)P·RN(PG) minimises ⟨G,S⟩ over covering radius ≤ η/2,
gives Δ_RN = (η/2)Σ_i‖(PG)_i‖₂, and D(S_RN) ≤ η. Experiment: deliberately uncentred gradients of
several sizes; the value, the SOCP optimum (:func:`seqtheory.numerics.head_oracles.covering_radius_descent`),
the diameter and the feasibility of S_RN. Decision (:func:`rownorm_oracle_decide`, pure): supported
iff each error is within its tolerance (:data:`_RN_KEYS`). Control: the centring left out,
S = −(η/2)·RN(G), which must be refuted.
"""
from __future__ import annotations

import numpy as np

from seqtheory.proofs_checks.head_evidence import SOLVER_TOL
from seqtheory.proofs_checks.registry import HEAD, Context, ControlOutcome, Outcome, Verdict, claim
from seqtheory.theory.hilbert import row_diameter


def _rownorm_oracle_check(centre: bool, ctx: Context, sizes) -> dict:
    from seqtheory.numerics.head_oracles import (
        covering_radius_descent, row_normalise, rownorm_update, rownorm_value,
    )

    rng = np.random.default_rng(ctx.numpy_seed("rn"))
    rows = []
    worst_val, worst_opt, worst_diam, worst_feas = 0.0, 0.0, 0.0, 0.0
    for V, d in sizes:
        G = rng.normal(size=(V, d)) + rng.normal(size=d)       # uncentred on purpose
        eta = float(rng.uniform(0.5, 2))
        S = rownorm_update(G, eta, centre=centre)
        val = float(np.sum(G * S))
        stated = -rownorm_value(G, eta)
        socp = covering_radius_descent(G, eta)
        D = row_diameter(S)[0]
        c = S.mean(axis=0) if not centre else (eta / 2) * row_normalise(G - G.mean(0)).mean(0)
        feas = max(float(np.abs(S.sum(axis=0)).max()),
                   float(np.linalg.norm(S - c, axis=1).max() - eta / 2))
        worst_val = max(worst_val, abs(val - stated) / abs(stated))
        worst_opt = max(worst_opt, abs(val - socp.value) / abs(socp.value))
        worst_diam = max(worst_diam, (D - eta) / eta)
        worst_feas = max(worst_feas, feas)
        rows.append({"V": V, "d": d, "eta": eta, "<G,S_RN>": val, "-Delta_RN": stated,
                     "socp_optimum": socp.value, "D(S_RN)": D})
    return {"value_rel_err": worst_val, "optimality_rel_gap": worst_opt,
            "diameter_excess": worst_diam, "feasibility_violation": worst_feas, "rows": rows}


_RN_KEYS = {"value_rel_err": 1e-12, "optimality_rel_gap": SOLVER_TOL, "diameter_excess": 1e-12,
            "feasibility_violation": 1e-12}


@claim("head.rownorm_oracle", title="Projected RowNorm solves the covering-radius problem",
       source=HEAD("projected RowNorm"),
       statement="S_RN = −(η/2)P·RN(PG) minimises ⟨G,S⟩ over covering radius ≤ η/2, gives "
                 "Δ_RN = (η/2)Σ_i‖(PG)_i‖₂, and D(S_RN) ≤ η")
def rownorm_oracle(ctx: Context) -> Outcome:
    sizes = [(2, 2), (4, 3), (7, 2), (10, 5)] if ctx.quick else \
        [(V, d) for V in (2, 3, 5, 8, 12) for d in (1, 2, 4, 6)]
    r = _rownorm_oracle_check(True, ctx, sizes)
    verdict, why = rownorm_oracle_decide({k: r[k] for k in _RN_KEYS})
    return Outcome(verdict,
                   f"⟨G,S_RN⟩ = −Δ_RN to {r['value_rel_err']:.1e}; SOCP gap "
                   f"{r['optimality_rel_gap']:.1e}; max (D−η)/η = {r['diameter_excess']:.2e}",
                   evidence={**{k: v for k, v in r.items() if k != "rows"},
                             "tolerances": dict(_RN_KEYS)},
                   tables={"rownorm_oracle": r["rows"]},
                   notes="G is deliberately uncentred: the covering-radius program carries "
                         "1ᵀS = 0 (without it the objective is unbounded below for 1ᵀG ≠ 0); the "
                         "outer P places the optimal ball's centre so that 1ᵀS_RN = 0. "
                         "Decision rule: " + why)


@rownorm_oracle.decision_rule
def rownorm_oracle_decide(errors: dict) -> tuple[Verdict, str]:
    """``errors``: the worst value error ``|⟨G,S_RN⟩ + Δ_RN|/Δ_RN``, SOCP optimality gap,
    diameter excess ``(D(S_RN) − η)/η`` and feasibility violation (``1ᵀS = 0`` and covering
    radius ≤ η/2). Supported iff each is ≤ its tolerance in ``_RN_KEYS``; refuted otherwise."""
    bad = [f"{k} = {errors[k]:.3g} > {tol:g}" for k, tol in _RN_KEYS.items()
           if not errors[k] <= tol]
    if bad:
        return Verdict.REFUTED, "; ".join(bad)
    return Verdict.SUPPORTED, "value, optimality, diameter and feasibility within tolerance"


@rownorm_oracle.control
def _(ctx: Context) -> ControlOutcome:
    r = _rownorm_oracle_check(False, ctx, [(4, 3), (7, 2)])
    verdict, why = rownorm_oracle_decide({k: r[k] for k in _RN_KEYS})
    return ControlOutcome(verdict is Verdict.REFUTED, "missing centring: S = −(η/2)·RN(G)",
                          f"{verdict.value}: {why}",
                          {k: v for k, v in r.items() if k != "rows"})

"""[DEPTH] (Heo et al., arXiv:2603.05573), Theorem 3.2 corrected to abelian models.

Claim ``depth.thm3.2.abelian``: an **abelian** model (all transitions commute, no bias) has
simulation error bounded below by a term in the commutator mass, decided under the paper's reading
of simulation (SPEC §3.1, a sourced premise: linear readout, every initial state): on a word or
its reversal, from some unit initial state, it errs by at least ½‖Φ_x − Φ_x̄‖₂ =
ε²‖Ω2‖₂(1 + O(ε)) (:mod:`seqtheory.numerics.reversal`), a term that can grow with T. Experiment
(:mod:`seqtheory.numerics.reversal_experiments`, on the so(3) generators of the A5 rotations): the
bound's ε-asymptotics, its growth on (ab)^r, and abelian models measured against it. Decision
(:func:`abelian_decide`) on the bound's slope, the ratio to ε²‖Ω2‖₂, the growth with T and
abelian models above the bound.

Another reading, reported beside the verdict (never in it): from a *fixed* initial state h0 the
bound is ε²‖Ω2 h0‖, which vanishes when the commutator acts in an unobserved direction
(A = diag(1,0), B = E12 from h0 = e1: ‖Ω2‖ grows like T/2, the bound is ≡ 0), so that reading
needs observability. Control: wrong constants, sign and exponent through the same rule, and the
unobserved mass ‖Ω2‖·‖h0‖ at a fixed h0. The statement for restricted models is ``depth.thm3.2``
(:mod:`.depth_thm32`).
"""
from __future__ import annotations

import numpy as np

from seqtheory.numerics.local_error import target_generators
from seqtheory.numerics.reversal import affine_diagonal_final_state
from seqtheory.numerics.reversal_experiments import (abelian_models_vs_bound,
                                                     commutator_mass_growth,
                                                     non_growing_families, reversal_asymptotics)

from ..figures import new_figure, save_figure
from ..registry import DEPTH, ControlOutcome, Outcome, Reading, Verdict, claim, finite_reals
from ..simulation import PAPER_READING, SIMULATION_PREMISE

SLOPE_RESOLUTION = 0.1  # slopes within ±0.1 of a value count as equal (fits on smooth power laws)
#: The experiment's initial state and its non-palindromic word for the ε-asymptotics.
H0 = [1, 2, 2]
WORD = [0, 1, 0, 1, 1]


def _so3_pair():
    return target_generators("so3_a5")


def _repeats(ctx) -> int:
    return 8 if ctx.quick else 32


def _reversal_asymptotics(ctx, sign: int = 1, scale=1, h0=None) -> dict:
    """Bound vs ε²‖Ω2‖₂ (every unit initial state; ``h0``: from that initial state, vs
    ε²‖Ω2 h0‖) on the A5 so(3) generators, word ababb (not a palindrome). ``sign``/``scale``
    alter the predicted second-order difference (negative controls)."""
    grid = np.geomspace(1e-4, 1e-2, 6 if ctx.quick else 12)
    return reversal_asymptotics(_so3_pair(), WORD, h0, grid, omega2_sign=sign, omega2_scale=scale)


def _growth(ctx, h0=None):
    R = _repeats(ctx)
    return commutator_mass_growth(_so3_pair(), h0, R, 1e-3 / R)


def _families(ctx) -> list[dict]:
    """Patterns where the bound does not grow: an unobserved commutator direction and zero-area
    blocks."""
    return non_growing_families(_so3_pair(), H0, _repeats(ctx))


def _models_above(ctx) -> list[dict]:
    return abelian_models_vs_bound(_so3_pair(), [0, 1] * 4, H0, (1e-3, 1e-2, 1e-1),
                                   ctx.numpy_seed("thm32-diag"))


def _abelian_evidence(res: dict, g_fit, fam: list[dict], above: list[dict],
                      exponent: float = 2.0, mass: str = "observed") -> dict:
    """The numbers :func:`abelian_decide` reads. ``mass="observed"`` compares the bound with the
    mass of the scan (ε²‖Ω2‖₂ over unit h0, or ε²‖Ω2h0‖ from a fixed h0: correct);
    ``"unobserved"`` with ε²‖Ω2‖·‖h0‖ at a fixed h0 (a wrong variant)."""
    b, r = res["bound_fit"], res["residual_fit"]
    return {"exponent": exponent,
            "bound_slope": b.slope, "bound_ci": [b.ci_low, b.ci_high],
            "residual_slope": r.slope,
            "ratio_at_min_eps": (res["ratio_at_min_eps"] if mass == "observed"
                                 else res["ratio_opnorm_at_min_eps"]),
            "growth_slope": g_fit.slope, "growth_ci": [g_fit.ci_low, g_fit.ci_high],
            "abelian_models_above_bound": all(a["above"] for a in above),
            "unobserved_gap": all(f["norm_Omega2"] > 0.1 and f["bound_eps_0.01"] < 1e-40
                                  for f in fam if f["family"].startswith("unobserved"))}


@claim(
    id="depth.thm3.2.abelian",
    title="Abelian models: error ≥ ε²‖Ω2‖ (time-reversal bound), accumulating with length",
    source=DEPTH("Theorem 3.2 (corrected to abelian models)"),
    statement=("an abelian model (all transitions commute, no bias) has simulation error bounded "
               "below by a term in the commutator mass: on a word x or its reversal x̄, from some "
               "unit initial state, ≥ ½‖Φx − Φx̄‖₂ = ε²‖Ω2‖₂(1 + O(ε)); it can grow with T"),
    premise=SIMULATION_PREMISE,
    claim_version=2,  # v1: the bound seen from one fixed h0 (ε²‖Ω2 h0‖), refined by observability
)
def thm32_abelian(ctx) -> Outcome:
    res = _reversal_asymptotics(ctx)
    growth, g_fit = _growth(ctx)
    fam = _families(ctx)
    above = _models_above(ctx)
    ev = _abelian_evidence(res, g_fit, fam, above)
    fixed_res = _reversal_asymptotics(ctx, h0=H0)
    _, fixed_fit = _growth(ctx, H0)
    fixed = _abelian_evidence(fixed_res, fixed_fit, fam, above)
    verdict, why, readings = abelian_decide(ev, fixed)
    w = [0, 1] * 4
    hx = affine_diagonal_final_state([[0.9], [0.5]], [[1.0], [2.0]], w)
    hr = affine_diagonal_final_state([[0.9], [0.5]], [[1.0], [2.0]], w[::-1])
    return Outcome(
        verdict=verdict,
        key_figure=(f"paper's reading ({PAPER_READING}): B(ε)=½‖Φx−Φx̄‖₂ = ε²‖Ω2‖₂(1+O(ε)): "
                    f"slope {ev['bound_slope']:.3f}, ratio {ev['ratio_at_min_eps']:.5f} at ε=1e-4; "
                    f"‖Ω2‖₂ ∝ T^{ev['growth_slope']:.2f} for (ab)^r; fixed h0: "
                    f"{readings[0].outcome.value} (bound ≡ 0 with ‖Ω2‖>0 when Ω2h0=0)"),
        evidence={**ev, "decision": why, "bound_fit": res["bound_fit"].as_dict(),
                  "residual_fit": res["residual_fit"].as_dict(), "growth_fit": g_fit.as_dict(),
                  "fixed initial state h0": {**fixed, "h0": H0},
                  "affine_diagonal_state_gap_x_vs_reversal": float(np.abs(hx - hr).max()),
                  "constant": "Φx − Φx̄ = 2ε²Ω2 + ε³(Ω1Ω2+Ω2Ω1) + O(ε⁴) ⇒ B = ε²‖Ω2‖₂(1+O(ε))"},
        tables={"eps_scan": [p.__dict__ for p in res["points"]], "growth_with_T": growth,
                "fixed h0: eps_scan": [p.__dict__ for p in fixed_res["points"]],
                "non_growing_families": fam, "abelian_models": above},
        figures=_figure(ctx, res, growth),
        readings=readings,
        notes=("Read as the paper defines simulation (SPEC §3.1: linear readout, every initial "
               "state; a sourced premise). Any abelian model returns the same output on x and its "
               "reversal x̄, so its worst error on {x, x̄} from h0 is ≥ ½‖(Φx − Φx̄)h0‖, and over "
               "unit h0 ≥ B(ε) = ½‖Φx − Φx̄‖₂. B(ε)/(ε²‖Ω2‖₂) → 1 (the factor 2 of Φx−Φx̄ ≈ 2ε²Ω2 "
               "cancels the ½), and ‖Ω2‖₂ grows linearly in T for repeated (ab) blocks; zero-area "
               "blocks have Ω2 = 0 identically and B = O(ε⁴) (measured slopes "
               + ", ".join(f"{f['bound_slope_in_eps']:.2f}" for f in fam if "bound_slope_in_eps" in f)
               + "). "
               f"Decision: {why}. Fixed-initial-state reading (reported, not in the verdict): from "
               "one h0 the bound is ε²‖Ω2 h0‖; with A=diag(1,0), B=E12, h0=e1 the commutator mass "
               "grows like T/2 while the bound ≡ 0 (the diagonal model e^{ε#a} e1 is exact), so "
               "that reading needs observability of h0. The commuting model exp(εΩ1) and random "
               "diagonal models all lie above the bound from h0 = (1, 2, 2) (hence above the bound "
               "over unit h0); trained 1-layer diagonal models are checked in "
               "depth.thm3.2.abelian.trained. Scope: linear (homogeneous) abelian layers; an affine "
               "diagonal layer h ← a(x)h + b(x) separates (ab)^4 from its reversal (gap in "
               "evidence): depth.thm3.2 measures restricted layers."),
    )


def _judge(ev: dict, resolution: float, gap_refines: bool) -> tuple[Verdict, str]:
    """The rule on one reading's evidence (see :func:`abelian_decide`)."""
    p = ev["exponent"]
    above = _flag(ev, "abelian_models_above_bound")
    gap = _flag(ev, "unobserved_gap") if gap_refines else False
    informative = all(finite_reals(ev[k]) and finite_reals(*ev[c]) and (ev[c][1] - ev[c][0]) / 2 <= resolution
                      for k, c in (("bound_slope", "bound_ci"), ("growth_slope", "growth_ci")))
    ok_b = _agrees(ev["bound_slope"], ev["bound_ci"], p, resolution)
    ok_r = ev["residual_slope"] >= p + 1 - resolution
    ok_ratio = abs(ev["ratio_at_min_eps"] - 1) < 1e-2
    grows = _agrees(ev["growth_slope"], ev["growth_ci"], 1.0, resolution)
    why = (f"bound slope {ev['bound_slope']:.3f} (expected {p:g}): {ok_b}; residual slope "
           f"{ev['residual_slope']:.3f} (≥ {p + 1 - resolution:g}): {ok_r}; ratio "
           f"{ev['ratio_at_min_eps']:.5f}: {ok_ratio}; growth slope {ev['growth_slope']:.2f}: "
           f"{grows}; models above bound: {ev['abelian_models_above_bound']}"
           + (f"; unobserved gap: {ev['unobserved_gap']}" if gap_refines else ""))
    if not informative:
        return Verdict.INCONCLUSIVE, (f"a slope fit is not informative (95% CI half-width above "
                                      f"{resolution:g}, or not finite): {why}")
    if not (ok_b and ok_r and ok_ratio and grows and above):
        return Verdict.REFUTED, why
    if gap:
        return Verdict.REFINED, (f"{why}; from a fixed h0 the bound is governed by ‖Ω2 h0‖, not "
                                 "‖Ω2‖: the reading needs observability of h0")
    return Verdict.SUPPORTED, why


@thm32_abelian.decision_rule
def abelian_decide(ev: dict, fixed_state: dict | None = None,
                   resolution: float = SLOPE_RESOLUTION) -> tuple[Verdict, str, list[Reading]]:
    """Decision rule of ``depth.thm3.2.abelian`` (pure). ``ev``: the paper's reading (every unit
    initial state: bound ½‖Φx − Φx̄‖₂ against ε²‖Ω2‖₂). Asymptotics hold iff the bound's slope
    CI (widened to ± ``resolution``) contains ``exponent``, the residual of the second-order
    prediction has slope ≥ exponent + 1 − resolution, and B/(ε²·mass) at the smallest ε is within
    1e-2 of 1. Growth holds iff the CI of the mass vs T contains 1 (widened likewise).
    Inconclusive when a fit is not informative (CI half-width above ``resolution``); supported
    when asymptotics, growth and every abelian model above the bound hold (finitely many
    targets and words); else refuted.

    ``fixed_state``: the same evidence from one fixed h0 (bound ½‖(Φx − Φx̄)h0‖ against
    ε²‖Ω2 h0‖, with ``unobserved_gap``: ‖Ω2‖ > 0 while the bound ≡ 0 from e1), judged the same
    way except that the gap makes it ``refined`` (that reading needs observability); returned as
    a :class:`~seqtheory.proofs_checks.registry.Reading`, never in the verdict.
    Returns ``(verdict, why, readings)``."""
    verdict, why = _judge(ev, resolution, gap_refines=False)
    readings = []
    if fixed_state is not None:
        v, w = _judge(fixed_state, resolution, gap_refines=True)
        readings.append(Reading("fixed initial state h0 (mass ‖Ω2 h0‖: so(3) from (1, 2, 2); diag(1,0), E12 "
                                "from e1)", v, w))
    return verdict, why, readings


def _agrees(slope: float, ci, value: float, resolution: float) -> bool:
    """A fitted slope agrees with ``value`` when its CI contains it or it lies within
    ``resolution`` of it (the CI is assumed informative: half-width ≤ ``resolution``)."""
    return ci[0] <= value <= ci[1] or abs(slope - value) <= resolution


def _flag(ev: dict, key: str) -> bool:
    v = ev[key]
    if not isinstance(v, (bool, np.bool_)):
        raise TypeError(f"evidence[{key!r}] must be a bool, got {type(v).__name__}")
    return bool(v)


def _figure(ctx, res, growth):
    fig, (ax1, ax2) = new_figure(1, 2, figsize=(9, 3.5))
    eps = [p.eps for p in res["points"]]
    ax1.loglog(eps, [p.bound for p in res["points"]], "o", label="B(ε) = ½‖Φx−Φx̄‖₂")
    ax1.loglog(eps, [p.predicted for p in res["points"]], "-", label="ε²‖Ω2‖₂")
    ax1.loglog(eps, [p.residual for p in res["points"]], "s", label="residual (slope 3)")
    ax1.set_xlabel("ε")
    ax1.legend(fontsize=7)
    ax1.set_title("thm3.2 (abelian): reversal bound, so(3) (A5 generators)", fontsize=8)
    ax2.plot([g["T"] for g in growth], [g["norm_Omega2_h0"] for g in growth], "o-",
             label="‖Ω2‖₂, (ab)^r")
    ax2.set_xlabel("T")
    ax2.legend(fontsize=7)
    return save_figure(fig, ctx, "thm32_reversal_bound")


@thm32_abelian.control
def _thm32_abelian_control(ctx) -> ControlOutcome:
    """Wrong variants through :func:`abelian_decide`: Ω2's sign flipped (Φx−Φx̄ ≈ −2ε²Ω2), a
    wrong constant (Φx−Φx̄ ≈ ε²Ω2) and a wrong exponent (B ∝ ε³) in the paper's reading, and, in
    the fixed-initial-state reading, the unobserved mass ‖Ω2‖·‖h0‖ in place of ‖Ω2h0‖. Each must
    be refuted."""
    growth, g_fit = _growth(ctx)
    fam, above = _families(ctx), _models_above(ctx)
    correct = _reversal_asymptotics(ctx)
    variants = {
        "sign flip": _abelian_evidence(_reversal_asymptotics(ctx, sign=-1), g_fit, fam, above),
        "constant ½": _abelian_evidence(_reversal_asymptotics(ctx, scale=0.5), g_fit, fam, above),
        "exponent 3": _abelian_evidence(correct, g_fit, fam, above, exponent=3.0),
    }
    out = {k: abelian_decide(v)[:2] for k, v in variants.items()}
    _, fixed_fit = _growth(ctx, H0)
    wrong_mass = _abelian_evidence(_reversal_asymptotics(ctx, h0=H0), fixed_fit, fam, above,
                                   mass="unobserved")
    read = abelian_decide(_abelian_evidence(correct, g_fit, fam, above), wrong_mass)[2][0]
    out["‖Ω2‖·‖h0‖ at a fixed h0 (reading)"] = (read.outcome, read.why)
    return ControlOutcome(
        rejected=all(v is Verdict.REFUTED for v, _ in out.values()),
        variant="; ".join(out),
        reason=" | ".join(f"{k}: {v.value} ({why})" for k, (v, why) in out.items()),
        evidence={k: v.value for k, (v, _) in out.items()})

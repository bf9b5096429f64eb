"""Claim ``head.ema_rownorm_bound`` of [HEAD] (A. Somasundaram et al., *Toward a First-Principles
Update Geometry for the Language-Model Head*, arXiv:2608.22253v2, projected RowNorm in practice:
EMA of the gradients and ``ε`` in the normalisation; the section number is unknown).

Statement: the practical RowNorm update keeps the row diameter of every applied step below twice
the learning rate, ``D(S_t) ≤ 2γ_t``, whatever the gradient stream, ``β`` and ``ε``.

The check runs the package's optimizer, :class:`seqtheory.models.optim.RowNorm` (EMA with bias
correction, centring ``P``, ``R_i = M_i/(‖M_i‖₂ + ε)``, step ``−γ_t P R``, no weight decay as in the
released recipe), on float64 parameters, over seeded random gradient streams of several kinds
(Gaussian with scales from 1e-6 to 1e3, softmax cross-entropy head gradients, rows far below
``ε``, antipodal rows that probe tightness), random ``β``, ``ε`` and learning-rate schedules
``γ_t`` (constant, warm-up + cosine, random per step). The statistic is ``max_t D(S_t)/γ_t``; the
statement says it is ≤ 2. ``D`` is invariant under a common row shift, so the centring ``P`` plays
no part in this bound (it gives ``1ᵀS = 0``); the normalisation does. The streams and their
measurement: :mod:`seqtheory.models.rownorm_streams`.
"""
from __future__ import annotations

import math

from seqtheory.models.rownorm_streams import momentum_factory, rownorm_factory, stream_evidence
from seqtheory.proofs_checks.registry import HEAD, ControlOutcome, Context, Outcome, Verdict, claim

STATED_CONSTANT = 2.0
_TOL = 1e-9          # relative; float64 rounding of the applied step is ≤ ~1e-11 here (evidence)


@claim("head.ema_rownorm_bound", title="Practical RowNorm keeps D(S_t) ≤ 2γ_t",
       source=HEAD("projected RowNorm with gradient EMA and ε (practical update)"),
       statement="the practical RowNorm update (EMA of gradients, ε in the normalisation) keeps "
                 "D(S_t) ≤ 2γ_t for every gradient stream, β and ε")
def ema_rownorm_bound(ctx: Context) -> Outcome:
    ev = stream_evidence(ctx.numpy_seed("head.ema_rownorm_bound"), rownorm_factory,
                         24 if ctx.quick else 240, 12 if ctx.quick else 25)
    verdict, why = ema_rownorm_decide(ev["max_ratio"], STATED_CONSTANT, ev["max_ulp_ratio"])
    anti = max(r["max_D_over_gamma"] for r in ev["rows"] if r["kind"] == "antipodal")
    return Outcome(
        verdict,
        f"max D(S_t)/γ_t = 2 − {STATED_CONSTANT - ev['max_ratio']:.1e} over {len(ev['rows'])} "
        f"streams (stated ≤ {STATED_CONSTANT:g}; approached by the antipodal streams, "
        f"{anti:.15g}); float64 rounding ≤ {ev['max_ulp_ratio']:.0e}",
        evidence={"max_ratio": ev["max_ratio"], "stated_constant": STATED_CONSTANT,
                  "tolerance": _TOL, "max_float64_rounding_ratio": ev["max_ulp_ratio"],
                  "antipodal_max_ratio": anti},
        tables={"streams": ev["rows"]},
        notes="Each row of R = RN(PM) has norm ‖M_i‖/(‖M_i‖+ε) < 1, the centring P shifts all rows "
              "by the same vector, so ‖s_i − s_j‖ = γ‖R_i − R_j‖ < 2γ. The antipodal streams show "
              "the constant 2 is approached (ratio 2‖v‖/(‖v‖+ε)). Parameters are float64 so the "
              "applied update is measured to ~1e-11 relative; weight decay is off, as in the "
              "released RowNorm recipe (a decoupled decay term −γλU is not a RowNorm step and can "
              "exceed the bound). Decision rule: " + why)


@ema_rownorm_bound.decision_rule
def ema_rownorm_decide(max_ratio: float, stated_constant: float, rounding: float = 0.0
                       ) -> tuple[Verdict, str]:
    """Supported iff ``max_t D(S_t)/γ_t ≤ stated_constant·(1 + _TOL)`` over every stream;
    refuted otherwise (a NaN ratio is refuted: the step was not even finite). ``rounding`` is the
    relative float rounding scale of the measured ratios: if it exceeds ``_TOL`` the
    measurement cannot decide (inconclusive)."""
    tolerance = _TOL
    if not rounding <= tolerance:
        return Verdict.INCONCLUSIVE, (f"float rounding of the measured steps ({rounding:.1e}) "
                                      f"exceeds the tolerance {tolerance:g}")
    if not (math.isfinite(max_ratio) and max_ratio <= stated_constant * (1 + tolerance)):
        return Verdict.REFUTED, (f"D(S_t)/γ_t reaches {max_ratio:.6g} > {stated_constant:g}")
    return Verdict.SUPPORTED, (f"D(S_t)/γ_t ≤ {max_ratio:.12f} ≤ {stated_constant:g} on every "
                               "step of every stream")


@ema_rownorm_bound.control
def _(ctx: Context) -> ControlOutcome:
    ev = stream_evidence(ctx.numpy_seed("head.ema_rownorm_bound"), momentum_factory, 8, 8)
    verdict, why = ema_rownorm_decide(ev["max_ratio"], STATED_CONSTANT, ev["max_ulp_ratio"])
    return ControlOutcome(verdict is Verdict.REFUTED,
                          "the same EMA step without row normalisation (SGD momentum β, "
                          "dampening 1 − β): S_t = −γ_t m_t",
                          f"{verdict.value}: {why}",
                          {"max_ratio": ev["max_ratio"], "rows": ev["rows"]})

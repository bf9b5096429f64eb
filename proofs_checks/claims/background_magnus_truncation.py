"""Background (textbook) claim ``magnus.truncation_order`` (SPEC §3.3): truncating the Magnus
series of ``Y' = εA(t)Y`` (and ``Y' = Y εA(t)``) after degree c leaves ``Θ(ε^{c+1})``. Evidence:
log-log slopes of the truncation error against ε at 50 digits, both conventions
(:func:`seqtheory.numerics.series_truncation.magnus_truncation_slopes`). Decision:
:func:`magnus_truncation_decide` (the rule shared with ``bch.truncation_order``,
:func:`~seqtheory.proofs_checks.background_evidence.slopes_decide`). Control: the sign of Ω2
flipped; the other convention's formula; the wrong exponent c + 2.
"""
from __future__ import annotations

from seqtheory.numerics.series_truncation import magnus_truncation_slopes

from ..background_evidence import DPS, REF_MAGNUS, slopes_decide, truncation_figure
from ..registry import ControlOutcome, Context, Outcome, TEXTBOOK, Verdict, claim


def _magnus_trunc(ctx: Context, convention: str, flip2: bool, swap: bool, shift: int):
    return magnus_truncation_slopes(ctx.numpy_seed("magnus.trunc"), convention,
                                    6 if ctx.quick else 8, flip2=flip2, swap=swap, shift=shift,
                                    dps=DPS)


@claim(id="magnus.truncation_order", title="Magnus truncation error order",
       source=TEXTBOOK(REF_MAGNUS, "the Magnus expansion"),
       statement="for Y' = εA(t)Y (and Y' = Y εA(t)), truncating Ω after degree c leaves an error Θ(ε^{c+1})")
def magnus_truncation_order(ctx: Context) -> Outcome:
    rows = []
    curves_all = {}
    for conv in ("AY", "YA"):
        r, curves = _magnus_trunc(ctx, conv, False, False, 0)
        rows += [{"convention": conv, **x} for x in r]
        if conv == "AY":
            curves_all = curves
    verdict, why = magnus_truncation_decide(rows)
    figs = truncation_figure(ctx, curves_all, "Magnus truncation error (Y'=AY)", "magnus_truncation_order")
    return Outcome(
        verdict=verdict,
        key_figure="; ".join(f"{r['convention']} c={r['c']}: {r['slope']:.3f}" for r in rows),
        evidence={"dps": DPS, "rows": rows}, tables={"slopes": rows}, figures=figs,
        notes="A(t) = P + tQ on [0, 1] (random 3x3, unit Frobenius norm), scaled by ε; reference = "
              "logm of the 50-digit Taylor-series ODE solution. " + why)


@magnus_truncation_order.decision_rule
def magnus_truncation_decide(rows: list[dict]) -> tuple[Verdict, str]:
    """Decision rule of ``magnus.truncation_order``: rows ``{"convention", "c", "slope",
    "expected", "pass"}``; supported iff every row passes, refuted if one does not."""
    return slopes_decide(rows)


@magnus_truncation_order.control
def _magnus_trunc_control(ctx: Context) -> ControlOutcome:
    variants = {}
    r, _ = _magnus_trunc(ctx, "AY", True, False, 0)
    variants["wrong sign of Ω2"] = magnus_truncation_decide(r)[0] is Verdict.REFUTED
    r, _ = _magnus_trunc(ctx, "YA", False, True, 0)
    variants["Y'=AY formula used for Y'=YA"] = magnus_truncation_decide(r)[0] is Verdict.REFUTED
    r, _ = _magnus_trunc(ctx, "AY", False, False, 1)
    variants["wrong exponent (c+2)"] = magnus_truncation_decide(r)[0] is Verdict.REFUTED
    return ControlOutcome(rejected=all(variants.values()), variant="; ".join(variants),
                          reason=", ".join(f"{k}: {'rejected' if v else 'ACCEPTED'}" for k, v in variants.items()),
                          evidence={"variants": variants})

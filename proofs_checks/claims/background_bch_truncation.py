"""Background (textbook) claim ``bch.truncation_order`` (SPEC §3.3): truncating
``log(e^{εX} e^{εY})`` after degree c leaves ``Θ(ε^{c+1})``, c = 1..6. Evidence: log-log slopes of
the truncation error against ε at 50 digits
(:func:`seqtheory.numerics.series_truncation.bch_truncation_slopes`). Decision:
:func:`bch_truncation_decide` (the rule shared with ``magnus.truncation_order``,
:func:`~seqtheory.proofs_checks.background_evidence.slopes_decide`). Control: the sign of the
degree-2 term flipped; the wrong exponent c.
"""
from __future__ import annotations

from seqtheory.numerics.series_truncation import bch_truncation_slopes

from ..background_evidence import DPS, REF_BCH, slopes_decide, truncation_figure
from ..registry import ControlOutcome, Context, Outcome, TEXTBOOK, Verdict, claim


def _bch_trunc(ctx: Context, flip2: bool, exponent_shift: int):
    return bch_truncation_slopes(ctx.numpy_seed("bch.trunc"), 6 if ctx.quick else 8,
                                 flip_degree2=flip2, exponent_shift=exponent_shift, dps=DPS)


@claim(id="bch.truncation_order", title="BCH truncation error order",
       source=TEXTBOOK(REF_BCH, "BCH series"),
       statement="truncating log(e^{εX} e^{εY}) after degree c leaves an error Θ(ε^{c+1})")
def bch_truncation_order(ctx: Context) -> Outcome:
    rows, curves = _bch_trunc(ctx, False, 0)
    verdict, why = bch_truncation_decide(rows)
    figs = truncation_figure(ctx, curves, "BCH truncation error", "bch_truncation_order")
    return Outcome(
        verdict=verdict,
        key_figure="; ".join(f"c={r['c']}: slope {r['slope']:.3f} [{r['ci_low']:.3f}, {r['ci_high']:.3f}]"
                             for r in rows),
        evidence={"dps": DPS, "rows": rows}, tables={"slopes": rows}, figures=figs,
        notes="OLS slope of log error vs log ε with 95% t-CI (accepted within ±0.05 resolution); the "
              "ε-grid keeps every error ≥ 1e8 × 10^-50. " + why)


@bch_truncation_order.decision_rule
def bch_truncation_decide(rows: list[dict]) -> tuple[Verdict, str]:
    """Decision rule of ``bch.truncation_order``: rows ``{"c", "slope", "expected", "pass"}``
    (``pass``: the 95% CI, widened to ±0.05, contains ``expected``); supported iff every row
    passes, refuted if one does not."""
    return slopes_decide(rows)


@bch_truncation_order.control
def _bch_trunc_control(ctx: Context) -> ControlOutcome:
    variants = {}
    rows, _ = _bch_trunc(ctx, True, 0)
    variants["sign of degree-2 term flipped"] = bch_truncation_decide(rows)[0] is Verdict.REFUTED
    rows, _ = _bch_trunc(ctx, False, -1)
    variants["wrong exponent (c instead of c+1)"] = bch_truncation_decide(rows)[0] is Verdict.REFUTED
    return ControlOutcome(rejected=all(variants.values()), variant="; ".join(variants),
                          reason=", ".join(f"{k}: {'rejected' if v else 'ACCEPTED'}" for k, v in variants.items()),
                          evidence={"variants": variants})

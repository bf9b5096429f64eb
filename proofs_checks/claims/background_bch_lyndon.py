"""Background (textbook) claim ``bch.lyndon_coefficients`` (SPEC §3.3): the exact BCH series in
the Lyndon basis. Evidence: the SPEC oracles (degree-4 coefficients, common denominators per degree
1..8, computed exactly by :func:`seqtheory.theory.bch_series.bch`) and, as a guard, agreement with
``logm(expm X expm Y)`` at 50 digits (:func:`seqtheory.numerics.series_truncation.bch_residuals`).
Decision: :func:`bch_lyndon_decide`. Control: the sign of ½[X, Y] flipped.
"""
from __future__ import annotations

from fractions import Fraction

from seqtheory.numerics.series_truncation import bch_residuals, negate_degree
from seqtheory.theory.bch_series import bch
from seqtheory.theory.lie_poly import LiePolynomial

from ..background_evidence import DPS, REF_BCH, TOL_HIGH
from ..registry import ControlOutcome, Context, Outcome, TEXTBOOK, Verdict, claim

SPEC_DEG4 = {"x": Fraction(1), "y": Fraction(1), "xy": Fraction(1, 2), "xxy": Fraction(1, 12),
             "xyy": Fraction(1, 12), "xxyy": Fraction(1, 24)}
SPEC_DENOMS = [1, 2, 12, 24, 720, 1440, 30240, 120960]


def _bch_evidence(ctx: Context, Z: LiePolynomial, scale: float) -> list[float]:
    return bch_residuals(Z, ctx.numpy_seed("bch.lyndon"), 3 if ctx.quick else 5, scale, DPS)


def _bch_oracles(Z: LiePolynomial) -> dict:
    deg4 = {w: v for w, v in Z.lyndon_coefficients().items() if len(w) <= 4}
    dens = Z.common_denominators()
    return {"degree4_ok": deg4 == SPEC_DEG4,
            "denominators": [dens.get(m, 1) for m in range(1, 9)],
            "denominators_ok": [dens.get(m, 1) for m in range(1, 9)] == SPEC_DENOMS,
            "word_xxy": str(Z.word_coefficient("xxy")), "word_xyx": str(Z.word_coefficient("xyx"))}


def _bch_setup(ctx: Context):
    N, scale = (12, 0.004) if ctx.quick else (16, 0.01)
    return N, scale


@claim(id="bch.lyndon_coefficients", title="BCH series in the Lyndon basis",
       source=TEXTBOOK(REF_BCH, "BCH series; Lyndon basis"),
       statement="log(e^X e^Y) = X + Y + ½[X,Y] + (1/12)([X,[X,Y]] + [Y,[Y,X]]) - (1/24)[Y,[X,[X,Y]]] + …, "
                 "with common denominators 1, 2, 12, 24, 720, 1440, 30240, 120960 in degrees 1..8")
def bch_lyndon_coefficients(ctx: Context) -> Outcome:
    N, scale = _bch_setup(ctx)
    Z = bch(N)
    orc = _bch_oracles(Z)
    resid = _bch_evidence(ctx, Z, scale)
    verdict, why = bch_lyndon_decide(orc, resid)
    counts = Z.nonzero_per_degree()
    table = [{"degree": m, "nonzero": counts.get(m, 0), "common_denominator": Z.common_denominators().get(m, 1)}
             for m in range(1, N + 1)]
    return Outcome(
        verdict=verdict,
        key_figure=f"degree-4 oracle {'ok' if orc['degree4_ok'] else 'FAILED'}, denominators "
                   f"{'ok' if orc['denominators_ok'] else 'FAILED'}, max residual vs logm {max(resid):.1e} "
                   f"(degree {N}, ‖X‖=‖Y‖={scale}, {DPS} digits)",
        evidence={"degree": N, "scale": scale, "dps": DPS, "residuals": resid, **orc,
                  "seconds": getattr(Z, "timing", None), "from_cache": getattr(Z, "from_cache", None)},
        tables={"per_degree": table},
        notes="Exact coefficients (vectorised unitriangular solve from Goldberg word coefficients); "
              "numerical residual ‖Z_N(X,Y) - logm(expm X expm Y)‖_F at 50 digits on random 3x3 "
              "matrices scaled so that the tail beyond degree N is below 1e-25. " + why)


@bch_lyndon_coefficients.decision_rule
def bch_lyndon_decide(oracles: dict, residuals: list[float]) -> tuple[Verdict, str]:
    """Decision rule of ``bch.lyndon_coefficients``: confirmed iff the degree-4 coefficients and
    the common denominators of degrees 1..8 (the finite values the statement names, computed
    exactly) equal the SPEC oracles and every residual against ``logm(expm X expm Y)`` is below
    :data:`TOL_HIGH` (a guard on the implementation: it can refute, not confirm); refuted
    otherwise."""
    worst = max(residuals) if residuals else float("inf")
    ok = oracles["degree4_ok"] and oracles["denominators_ok"] and worst < float(TOL_HIGH)
    why = (f"exact for the values named: degree-4 oracle {oracles['degree4_ok']}, denominators "
           f"{oracles['denominators_ok']}; guard: max residual {worst:.1e} (tolerance "
           f"{float(TOL_HIGH):.0e})")
    return (Verdict.CONFIRMED if ok else Verdict.REFUTED), why


@bch_lyndon_coefficients.control
def _bch_lyndon_control(ctx: Context) -> ControlOutcome:
    N, scale = _bch_setup(ctx)
    Z = negate_degree(bch(N), 2)  # wrong sign of ½[X, Y]
    orc = _bch_oracles(Z)
    resid = _bch_evidence(ctx, Z, scale)
    verdict, why = bch_lyndon_decide(orc, resid)
    return ControlOutcome(rejected=verdict is Verdict.REFUTED,
                          variant="sign of the degree-2 term flipped (½[Y,X])",
                          reason=f"{verdict.value}: {why}", evidence={"residuals": resid})

"""Background (textbook) claim ``magnus.terms`` (SPEC §3.3): the Magnus expansion terms, for
``Y' = AY`` and ``Y' = YA``. Evidence, exact: the general integrands of Ω1-Ω4 (kernels on the
time simplex, :mod:`seqtheory.theory.magnus_kernels`: the textbook nested commutators against the
logarithm of the time-ordered exponential expanded by the shuffle product, equal as exact
multilinear polynomials, hence equal for every A) and the SPEC oracle for ``A = P + tQ`` (both
conventions, exact in the Lyndon basis, :func:`seqtheory.theory.magnus_series.magnus_lie_terms`);
as guards, agreement with a 50-digit ODE solution, discrete Magnus = multi-factor BCH, quadrature
= exact (:func:`seqtheory.numerics.series_truncation.magnus_residuals`). Decision:
:func:`magnus_terms_decide`. Control: each convention's formula used for the other.
"""
from __future__ import annotations

from fractions import Fraction

from seqtheory.numerics.series_truncation import (DISCRETE_DEGREE, DISCRETE_SCALE,
                                                  magnus_residuals)

from ..background_evidence import DPS, REF_MAGNUS, TOL_HIGH
from seqtheory.theory._messages import counted

from ..registry import ControlOutcome, Context, Outcome, TEXTBOOK, Verdict, claim


def _magnus_oracle_ok(convention: str) -> bool:
    from seqtheory.theory.magnus_series import magnus_lie_terms

    T = magnus_lie_terms(2, 3, convention)
    s = 1 if convention == "AY" else -1
    # letters A = P, B = Q; (t^3/12)[Q,P] = -(1/12) P_AB; (t^5/240)[Q,[Q,P]] = (1/240) P_ABB
    return (T[0].lyndon_coefficients() == {"A": 1, "B": Fraction(1, 2)}
            and T[1].lyndon_coefficients() == {"AB": Fraction(-s, 12)}
            and T[2].lyndon_coefficients() == {"ABB": Fraction(1, 240)})


#: the general terms whose integrands are certified exactly (Ω1 … Ω_KERNEL_ORDER)
KERNEL_ORDER = 4


def kernel_certificate(swap_convention: bool = False) -> dict[str, dict]:
    """Per convention and m ≤ :data:`KERNEL_ORDER`: whether the textbook integrand of Ω_m
    (:func:`~seqtheory.theory.magnus_kernels.textbook_kernel`) equals the kernel of the degree-m
    part of log Y (:func:`~seqtheory.theory.magnus_kernels.time_ordered_log_kernel`), exactly,
    and the number of words compared. ``swap_convention``: each convention's textbook form
    compared with the other's logarithm (the control)."""
    from seqtheory.theory.magnus_kernels import textbook_kernel, time_ordered_log_kernel

    out = {}
    for conv in ("AY", "YA"):
        other = {"AY": "YA", "YA": "AY"}[conv] if swap_convention else conv
        for m in range(1, KERNEL_ORDER + 1):
            stated, derived = textbook_kernel(m, conv), time_ordered_log_kernel(m, other)
            out[f"{conv}: Ω{m}"] = {"equal": stated == derived,
                                    "words": len(set(stated) | set(derived))}
    return out


def _magnus_numeric(ctx: Context, swap_convention: bool):
    order, scale = (8, 0.01) if ctx.quick else (10, 0.02)
    num = magnus_residuals(ctx.numpy_seed("magnus.terms"), order, scale, swap_convention,
                           odefun=ctx.profile == "full", dps=DPS)
    return order, scale, num


#: The order-N residual must be explained by the first omitted term: |res_N/‖Ω_{N+1}‖ − 1| ≤ this
#: (successive terms fall by ~1e-3 at the scales used, so the next-next term is far below 10 %),
#: and adding Ω_{N+1} must shrink the residual at least tenfold (the series converges to log Y).
TAIL_REL = 0.1


def magnus_residuals_ok(num: dict) -> tuple[bool, str]:
    """Decision rule of ``magnus.terms`` (shared with its control): for each convention the
    residual of the order-N series against the 50-digit ODE solution equals ‖Ω_{N+1}‖ within
    :data:`TAIL_REL` and drops ≥ 10× when Ω_{N+1} is added; the discrete expansion matches
    ``logm`` of the product below :data:`TOL_HIGH` (its tail is < 1e-25 a priori)."""
    why, ok = [], True
    for conv in ("AY", "YA"):
        r, r1, tail = num[conv], num[f"{conv}_next"], num[f"{conv}_tail"]
        good = tail > 0 and abs(r / tail - 1) <= TAIL_REL and r1 <= r / 10
        ok &= good
        why.append(f"{conv}: residual {r:.2e} = {r / tail if tail else float('inf'):.4g} × "
                   f"‖Ω_N+1‖, next {r1:.1e}")
    ok &= num["discrete"] < float(TOL_HIGH)
    why.append(f"discrete {num['discrete']:.1e}")
    return bool(ok), "; ".join(why)


@claim(id="magnus.terms", title="Magnus expansion terms (Y'=AY and Y'=YA)",
       source=TEXTBOOK(REF_MAGNUS, "the Magnus expansion"), claim_version=2,
       statement="for Y' = A(t)Y, Y(0) = I, Y = exp Ω, with A_i = A(t_i) and t ≥ t1 ≥ t2 ≥ … ≥ 0: "
                 "Ω1 = ∫A1, Ω2 = ½∫∫[A1,A2], Ω3 = ⅙∫∫∫([A1,[A2,A3]] + [A3,[A2,A1]]), "
                 "Ω4 = (1/12)∫∫∫∫([[[A1,A2],A3],A4] + [A1,[[A2,A3],A4]] + [A1,[A2,[A3,A4]]] + "
                 "[A2,[A3,[A4,A1]]]); for A = P + tQ: Ω1 = tP + t²Q/2, Ω2 = (t³/12)[Q,P], "
                 "Ω3 = (t⁵/240)[Q,[Q,P]]; even terms change sign for Y' = YA")
def magnus_terms(ctx: Context) -> Outcome:
    oracle = {c: _magnus_oracle_ok(c) for c in ("AY", "YA")}
    kernels = kernel_certificate()
    order, scale, num = _magnus_numeric(ctx, False)
    verdict, why = magnus_terms_decide(oracle, kernels, num)
    return Outcome(
        verdict=verdict,
        key_figure=f"general Ω1–Ω{KERNEL_ORDER}, both conventions: "
                   f"{sum(k['equal'] for k in kernels.values())} of {len(kernels)} integrands equal "
                   f"to log Y's exactly ({counted(sum(k['words'] for k in kernels.values()), 'word')}); "
                   f"oracle AY/YA {oracle['AY']}/{oracle['YA']}; residual vs 50-digit ODE at order "
                   f"{order}: {num['AY']:.1e} (AY), {num['YA']:.1e} (YA) = "
                   f"{num['AY'] / num['AY_tail']:.4f}, {num['YA'] / num['YA_tail']:.4f} × ‖Ω_{order + 1}‖ "
                   f"(rule: within {TAIL_REL:.0%}); discrete vs logm {num['discrete']:.1e}; "
                   f"quadrature vs exact {num['quadrature_vs_exact']:.1e}",
        evidence={"oracle": oracle, "kernels": kernels, "order": order, "scale": scale, "dps": DPS,
                  "discrete_scale": DISCRETE_SCALE, "discrete_degree": DISCRETE_DEGREE, **num},
        tables={"general terms: textbook integrand vs log of the time-ordered exponential":
                [{"term": k, **v} for k, v in kernels.items()]},
        notes="Certificate for the general terms: every Ω_m is ∫ over the simplex t ≥ t1 ≥ … ≥ tm "
              "of a multilinear polynomial F_m(A1, …, Am); two such integrands give the same Ω_m "
              "for every A if and only if they are equal (A a sum of free letters on disjoint "
              "intervals picks F_m out). The textbook integrands of Ω1–Ω4 are compared, as exact "
              "rational polynomials in the words A_{π(1)}⋯A_{π(m)}, with F_m derived from "
              "log Y = Σ (−1)^{r+1}/r (J_1 + J_2 + …)^r, J_k = ∫A1⋯Ak, products of iterated "
              "integrals expanded by the shuffle product (theory.magnus_kernels). "
              "ODE reference: Taylor-series solution at 50 digits (cross-checked against mpmath.odefun "
              "in the full profile); Magnus terms exact (Lyndon coordinates) evaluated in mpmath. "
              "Decision: the order-N residual must be the first omitted term (ratio to ‖Ω_{N+1}‖ "
              "within 10 %, and ≥ 10× smaller once Ω_{N+1} is added), not an absolute tolerance. "
              + why)


@magnus_terms.decision_rule
def magnus_terms_decide(oracle: dict[str, bool], kernels: dict[str, dict],
                        num: dict) -> tuple[Verdict, str]:
    """Decision rule of ``magnus.terms``. ``oracle``: per convention, whether the closed forms
    the statement names for A = P + tQ hold exactly (SPEC §4, Lyndon basis); ``kernels``: per
    general term (convention and m), ``{"equal", "words"}`` from :func:`kernel_certificate`;
    ``num``: the numerical guards. Refuted if a closed form or a general integrand differs
    exactly, if :func:`magnus_residuals_ok` rejects the residuals, or the quadrature terms
    disagree with the exact ones beyond 1e-12 (the numerical parts guard the implementation:
    they can refute, not confirm); confirmed when, beside that, every general term Ω1–Ω4 of
    both conventions was compared exactly (the certificate for every A); supported when some
    was not (then the general formulas rest on the numerical guards only)."""
    res_ok, why = magnus_residuals_ok(num)
    quad = num["quadrature_vs_exact"]
    terms = [f"{c}: Ω{m}" for c in ("AY", "YA") for m in range(1, KERNEL_ORDER + 1)]
    differ = [k for k, v in kernels.items() if not v["equal"]]
    missing = [t for t in terms if t not in kernels]
    why = (f"exact closed forms for A = P + tQ: {', '.join(f'{c} {ok}' for c, ok in oracle.items())}; "
           f"general integrands equal to log Y's exactly: "
           f"{len(kernels) - len(differ)} of {len(kernels)}"
           + (f" (differ: {', '.join(differ)})" if differ else "")
           + f"; guards: {why}; quadrature vs exact {quad:.1e} (tolerance 1e-12)")
    if not (all(oracle.values()) and res_ok and quad < 1e-12) or differ:
        return Verdict.REFUTED, why
    if missing:
        return Verdict.SUPPORTED, (f"{why}; not compared exactly: {', '.join(missing)} (the "
                                   "general formulas then rest on the numerical guards)")
    return Verdict.CONFIRMED, why


@magnus_terms.control
def _magnus_terms_control(ctx: Context) -> ControlOutcome:
    oracle = {c: _magnus_oracle_ok(c) for c in ("AY", "YA")}
    order, scale, num = _magnus_numeric(ctx, True)
    verdict, why = magnus_terms_decide(oracle, kernel_certificate(swap_convention=True), num)
    return ControlOutcome(rejected=verdict is Verdict.REFUTED, variant="Y'=AY formula used for Y'=YA (and vice versa), in the "
                          "exact integrands and the numerical terms; product order reversed for "
                          "the discrete expansion",
                          reason=why, evidence=num)

"""[HEAD] (A. Somasundaram et al., arXiv:2608.22253), the Hilbert metric of the softmax simplex.

Claim ``head.hilbert_softmax``: 𝓗(softmax z, softmax z′) = ‖z − z′‖_var (max − min of the logit
difference). Experiment: a symbolic certificate for every V (sympy, free normalisers:
:func:`_symbolic_softmax_identity`) and a numerical guard on random logit pairs (V 2–12, scales
1e-3–1e3) against the Hilbert distance computed from the probabilities in 60-digit arithmetic.
Decision (:func:`hilbert_softmax_decide`, pure): confirmed iff the certificate holds and the guard
stays within tolerance. Control: ‖z − z′‖_∞ in place of ‖z − z′‖_var, which must be refuted.
"""
from __future__ import annotations

import functools

import numpy as np

from seqtheory.proofs_checks.evidence_checks import measured
from seqtheory.proofs_checks.head_evidence import logit_pairs
from seqtheory.proofs_checks.registry import HEAD, Context, ControlOutcome, Outcome, Verdict, claim
from seqtheory.theory.mp_precision import working_dps


def _hilbert_softmax_errors(formula, n: int, seed: int) -> dict:
    """max relative error between 𝓗(softmax z, softmax z′) computed from the probabilities in
    60-digit arithmetic (mpmath) and ``formula(z − z′)``."""
    import mpmath

    rng = np.random.default_rng(seed)
    worst, tiny = 0.0, 0.0
    with working_dps(60):
        for z, w in logit_pairs(rng, n):
            pz = [mpmath.exp(mpmath.mpf(float(x))) for x in z]
            pw = [mpmath.exp(mpmath.mpf(float(x))) for x in w]
            sz, sw = mpmath.fsum(pz), mpmath.fsum(pw)
            logs = [mpmath.log((a / sz) / (b / sw)) for a, b in zip(pz, pw)]
            true = max(logs) - min(logs)
            tiny = min(tiny, float(mpmath.log10(min(min(pz) / sz, min(pw) / sw))))
            err = abs(float(true) - formula(z - w)) / max(1.0, float(true))
            worst = max(worst, err)
    return {"max_rel_err": worst, "log10_smallest_probability": tiny, "pairs": n}


@functools.lru_cache(maxsize=None)
def _symbolic_softmax_identity() -> bool:
    """Exact (sympy), for every V: with a coordinate ``z_i``, ``w_i`` and the normalisers ``Z``,
    ``W`` as free positive symbols (a softmax coordinate is ``p_i = e^{z_i}/Z`` whatever the
    other coordinates are), ``log(p_i/q_i) − (z_i − w_i)`` simplifies to an expression free of
    ``z_i`` and ``w_i`` (``log W − log Z``): the log-ratios are the logit differences up to one
    shift common to all i, and max − min is shift invariant, so 𝓗 = ‖z − z′‖_var."""
    import sympy as sp

    z, w = sp.symbols("z w", real=True)
    Z, W = sp.symbols("Z W", positive=True)
    shift = sp.simplify(sp.expand_log(sp.log((sp.exp(z) / Z) / (sp.exp(w) / W)), force=True)
                        - (z - w))
    return not ({z, w} & shift.free_symbols)


_TOL_ID = 1e-12


@claim("head.hilbert_softmax", title="Softmax is an isometry from (logits, ‖·‖_var) to Hilbert",
       source=HEAD("Hilbert metric of the softmax simplex"),
       statement="𝓗(softmax z, softmax z′) = ‖z − z′‖_var")
def hilbert_softmax(ctx: Context) -> Outcome:
    n = 200 if ctx.quick else 2000
    exact = _symbolic_softmax_identity()
    num = _hilbert_softmax_errors(lambda d: float(np.ptp(d)), n, ctx.numpy_seed("hs"))
    verdict, why = hilbert_softmax_decide(exact, num["max_rel_err"])
    return Outcome(
        verdict,
        f"exact (sympy, every V) {exact}; max rel. error {num['max_rel_err']:.1e} over {n} pairs "
        f"(logits up to 1e3, probabilities down to 1e{num['log10_smallest_probability']:.0f})",
        evidence={"symbolic_identity": exact, **num, "tolerance": _TOL_ID},
        notes="Certificate, every V: log(p_i/q_i) = (z_i − w_i) + (log W − log Z) symbolically "
              "with free normalisers, so the log-ratios are the logit differences up to a common "
              "shift and their max − min is ‖z − z′‖_var. The numerical check (a guard on the "
              "implementation: it can refute, not confirm) computes 𝓗 from the probabilities in "
              "60-digit arithmetic. Decision rule: " + why)


@hilbert_softmax.decision_rule
def hilbert_softmax_decide(symbolic_identity: bool, max_rel_err: float
                           ) -> tuple[Verdict, str]:
    """Confirmed iff the symbolic identity holds (the certificate, every V) and the formula
    matches the 60-digit Hilbert distance within ``_TOL_ID`` (relative) on every pair (a guard
    on the implementation); refuted otherwise. ``TypeError`` unless ``symbolic_identity`` is a
    bool; ``ValueError`` unless ``max_rel_err`` is a finite number ≥ 0 (a relative error cannot be
    NaN or negative: such a value is a defect of the measurement, not evidence)."""
    if not isinstance(symbolic_identity, (bool, np.bool_)):
        raise TypeError(f"symbolic_identity must be a bool, got {symbolic_identity!r}")
    max_rel_err = measured("", "max_rel_err", max_rel_err, 0)
    tolerance = _TOL_ID
    if symbolic_identity and max_rel_err <= tolerance:
        return Verdict.CONFIRMED, ("symbolic certificate for every V; formula within "
                                   f"{tolerance:g} of the 60-digit value on every pair")
    if not symbolic_identity:
        return Verdict.REFUTED, "the symbolic log-ratio identity fails"
    return Verdict.REFUTED, f"formula off by {max_rel_err:.3g} (relative) > {tolerance:g}"


@hilbert_softmax.control
def _(ctx: Context) -> ControlOutcome:
    num = _hilbert_softmax_errors(lambda d: float(np.abs(d).max()), 200, ctx.numpy_seed("hs"))
    verdict, why = hilbert_softmax_decide(_symbolic_softmax_identity(), num["max_rel_err"])
    return ControlOutcome(verdict is Verdict.REFUTED, "‖z − z′‖_∞ instead of ‖z − z′‖_var",
                          f"{verdict.value}: {why}", num)

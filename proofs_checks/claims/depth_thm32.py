"""[DEPTH] (Heo et al., arXiv:2603.05573), Theorem 3.2, tested on the class it names.

Claim ``depth.thm3.2``: a constant-depth **restricted** model (commuting linear parts, free bias:
Mamba, GLA, diagonal linear RNNs) has simulation error bounded below by a term scaling with the
commutator mass ``‖Ω2‖``. Experiment (:mod:`seqtheory.numerics.restricted`): a target acting on
``(h, 1)`` by ``[[α_x, β_x], [0, 1]]`` has ``‖Ω2‖ > 0`` yet one restricted layer
``h ← α_x h + β_x`` reproduces it exactly on every word; the same at every ε of the
continuous-time version; a search over random targets of that class. Decision
(:func:`thm32_decide`): refuted iff some word has error ≤ tol while its mass is ≥ a threshold (no
bound C·‖Ω2‖ with C > 0 can hold there). Control: the best order-free model in place of the
layer. The corrected statement for abelian models is ``depth.thm3.2.abelian``
(:mod:`.depth_thm32_abelian`).
"""
from __future__ import annotations

from fractions import Fraction

from seqtheory.numerics.restricted import (affine_generators, eps_scaled_rows,
                                           order_free_best_errors, random_target_search,
                                           restricted_vs_target_table)
from seqtheory.theory._messages import counted

from ..registry import DEPTH, ControlOutcome, Outcome, Verdict, claim, finite_reals

ERROR_TOL = 1e-12       # an error at or below this counts as exact
MASS_THRESHOLD = 1e-6   # a commutator mass at or above this counts as non-zero

# The counterexample of the issue: two tokens, α = (0.9, 0.5), β = (1, 2), h0 = 0.
ALPHA = [[Fraction(9, 10)], [Fraction(1, 2)]]
BETA = [[Fraction(1)], [Fraction(2)]]
H0 = [0]

# The continuous-time version is checked on this word at these ε.
EPS_WORD = (0, 1, 1, 0, 1)
EPS_VALUES = (Fraction(1, 1000), Fraction(1, 100), Fraction(1, 10), Fraction(1))


def _search(ctx) -> dict:
    """Random targets of the class (24 of them, words up to 4 letters; full: 200, 6)."""
    n_targets, L = (24, 4) if ctx.quick else (200, 6)
    return random_target_search(ctx.rng("thm32-restricted-search"), n_targets, L, ERROR_TOL,
                                MASS_THRESHOLD)


@claim(
    id="depth.thm3.2",
    title="Restricted models: error ≥ commutator-mass term (as stated)",
    source=DEPTH("Theorem 3.2"),
    statement=("a constant-depth restricted model (commuting linear parts A(x), free bias b(x): "
               "Mamba, GLA, diagonal linear RNNs) has simulation error bounded below by a term "
               "scaling with the commutator mass ‖Ω2‖; the error can accumulate with T"),
    claim_version=2,  # v1 of this check tested abelian models in place of restricted ones
)
def thm32(ctx) -> Outcome:
    L = 6
    rows = restricted_vs_target_table(ALPHA, BETA, H0, L)
    verdict, why = thm32_decide(rows)
    witness = max((r for r in rows if r["error"] <= ERROR_TOL), key=lambda r: r["norm_Omega2"])
    search = _search(ctx)
    eps_rows = eps_scaled_rows(ALPHA, BETA, H0, EPS_WORD, EPS_VALUES)
    G = affine_generators(ALPHA, BETA, dps=30)
    comm = G[0].dot(G[1]) - G[1].dot(G[0])
    return Outcome(
        verdict=verdict,
        key_figure=(f"target [[α_x, β_x],[0,1]], α=(0.9, 0.5), β=(1, 2): the restricted layer "
                    f"h ← α_x h + β_x has error {max(r['error'] for r in rows):.1e} on all "
                    f"{counted(len(rows), 'word')} of length ≤ {L}, while ‖Ω2‖ reaches "
                    f"{max(r['norm_Omega2'] for r in rows):.3f} (e.g. {witness['word']}: "
                    f"{witness['norm_Omega2']:.3f}); random targets of the class: bound fails on "
                    f"{search['n_bound_fails']}/{search['n_targets']}"),
        evidence={"decision": why, "error_tol": ERROR_TOL, "mass_threshold": MASS_THRESHOLD,
                  "target_matrices": "M_a = [[9/10, 1], [0, 1]], M_b = [[1/2, 2], [0, 1]] on (h, 1)",
                  "model": "one restricted layer, d = 1: h ← α_x h + β_x, α = (9/10, 1/2), "
                           "β = (1, 2), h0 = 0; output h (no output map)",
                  "generators G_x = log M_x": [[[float(v) for v in row] for row in g.tolist()]
                                                for g in G],
                  "commutator [G_a, G_b]": [[float(v) for v in row] for row in comm.tolist()],
                  "linear parts commute": True,
                  "words": len(rows), "max_error": max(r["error"] for r in rows),
                  "max_norm_Omega2": max(r["norm_Omega2"] for r in rows),
                  "search": {k: v for k, v in search.items() if k != "targets"}},
        tables={"counterexample_all_words": rows, "eps_scaled": eps_rows,
                "search_targets": search["targets"]},
        notes=("The statement names restricted models; the affine maps h ↦ αh + β of one "
               "restricted layer do not commute (fixed points β/(1−α) = 10 and 4 differ), so "
               "their generators have a non-zero commutator [G_a, G_b] (evidence) and ‖Ω2‖ > 0 on "
               "every word that is not a zero-area word, while the layer tracks the target "
               "exactly (exact rationals; the target is computed as a product of 2×2 matrices, "
               "the model by its recurrence). The same holds at every ε when tokens act by "
               "exp(εG_x) (table eps_scaled: error at working precision, ε²‖Ω2‖ > 0). No bound "
               "C·‖Ω2‖ with C > 0 holds, so the statement as written is refuted. The commutator "
               "mass lives in the bias direction; the linear parts commute. The corrected "
               "statement, for abelian (linear, commuting, no-bias) models, is "
               "depth.thm3.2.abelian. Related: finding.s3_one_restricted_layer (one restricted "
               "layer tracks S3 exactly at every length)."),
    )


@thm32.decision_rule
def thm32_decide(rows: list[dict], tol: float = ERROR_TOL,
                 threshold: float = MASS_THRESHOLD) -> tuple[Verdict, str]:
    """Decision rule of ``depth.thm3.2`` (pure). ``rows``: per word, ``error`` of the model and
    ``norm_Omega2`` of the target (finite, ≥ 0; ``ValueError`` otherwise). Refuted iff some word
    has mass ≥ ``threshold`` and ``error ≤ tol·max(1, mass)`` (the tolerance is relative to the
    mass, so a near-exact tracker at a large scale is not read as a bound holding); otherwise
    supported, with the smallest ratio error/mass (the best constant C the rows allow)."""
    for i, r in enumerate(rows):
        if not (finite_reals(r["error"], r["norm_Omega2"]) and r["error"] >= 0 and r["norm_Omega2"] >= 0):
            raise ValueError(f"rows[{i}]: error and norm_Omega2 must be finite numbers >= 0, got "
                             f"{r['error']!r}, {r['norm_Omega2']!r}")
    massive = [r for r in rows if r["norm_Omega2"] >= threshold]
    bad = [r for r in massive if r["error"] <= tol * max(1.0, r["norm_Omega2"])]
    if bad:
        w = max(bad, key=lambda r: r["norm_Omega2"])
        return Verdict.REFUTED, (f"{len(bad)}/{counted(len(massive), 'word')} with ‖Ω2‖ ≥ {threshold:g} "
                                 f"are tracked with error ≤ {tol:g} (e.g. {w.get('word', '?')}: "
                                 f"error {w['error']:.1e}, ‖Ω2‖ {w['norm_Omega2']:.3f})")
    if not massive:
        return Verdict.INCONCLUSIVE, "no word with non-zero commutator mass"
    C = min(r["error"] / r["norm_Omega2"] for r in massive)
    return Verdict.SUPPORTED, (f"every word with ‖Ω2‖ ≥ {threshold:g} has error ≥ "
                               f"{C:.3g}·‖Ω2‖ ({counted(len(massive), 'word')})")


@thm32.control
def _thm32_control(ctx) -> ControlOutcome:
    """The same target tracked by the best order-free model (an abelian layer without bias, or
    any model whose output depends on the letter counts only): it cannot tell a word from its
    rearrangements, so its error is bounded below and the rule must not find a counterexample."""
    L = 6
    rows = restricted_vs_target_table(ALPHA, BETA, H0, L)
    best = order_free_best_errors(ALPHA, BETA, H0, L)
    variant = [dict(r, error=e) for r, e in zip(rows, best)]
    v, why = thm32_decide(variant)
    return ControlOutcome(
        rejected=v is not Verdict.REFUTED,
        variant="the counterexample's restricted layer replaced by the best order-free (abelian, "
                "no-bias) model",
        reason=f"{v.value}: {why}",
        evidence={"min_error": min(best)})

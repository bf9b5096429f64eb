"""[DEPTH] (Heo et al., arXiv:2603.05573), Theorem 3.2, tested on the class it names.

Claim ``depth.thm3.2``: a constant-depth **restricted** model (commuting linear parts, free bias:
Mamba, GLA, diagonal linear RNNs) has simulation error bounded below by a term scaling with the
commutator mass ``‖Ω2‖``; the error can accumulate with T. Decided under the paper's reading of
simulation (SPEC §3.1, a sourced premise: a linear readout P, every initial state of the target).

Experiment. For every restricted layer with a linear (affine) readout, one of the runs
``{x, x̄} × {h0, −h0}`` (a word, its reversal, a unit initial state and its negative) errs by at
least ``½‖(Φ_x − Φ_x̄)h0‖`` (:mod:`seqtheory.numerics.order_blind`: the output's h0-dependent part
ignores letter order), attained by the order-free output ``½(Φ_x + Φ_x̄)h0``; over unit ``h0``
the best error of restricted models on the pair is ``½‖Φ_x − Φ_x̄‖₂ = ε²‖Ω2‖₂(1 + O(ε))``
(:func:`seqtheory.numerics.reversal.reversal_scan` with ``h0=None``). Measured against
``ε²‖Ω2‖₂`` on non-solvable targets (so(3) of the A5 rotations, sl2, a random gl3) and on the
affine target ``[[α_x, β_x], [0, 1]]`` from every initial state, with its growth on ``(ab)^r``.

Depth 2. The statement names constant-depth models; "constant depth" is read as any fixed depth
(the paper's exact statement is not known). Two restricted layers
(:mod:`seqtheory.numerics.restricted_stack`: layer 1 with commuting unipotent linear parts
``[[I, 0, 0], [Y, I, 0], [Y², 0, I]]``, layer 2 with linear part ``I`` and a bias linear in layer
1's state, a linear readout) reproduce every target to second order in ε from every initial state:
their error on ``{x, x̄}`` is ``O(ε³)`` against ``ε²‖Ω2‖₂``, so the bound holds only under the
hypothesis "one restricted layer (depth 1)": ``refined``, with that witness.
Decision: :func:`thm32_decide`.

Another reading, reported beside the verdict (never in it): from initial states whose last
coordinate is 1 only (a *fixed* affine slice), the restricted layer ``h ← α_x h + β_x`` tracks the
affine target exactly while ``‖Ω2‖ > 0`` (:mod:`seqtheory.numerics.restricted`): the statement
needs "every initial state" (part of the paper's definition of simulation). The corrected
statement for abelian models is ``depth.thm3.2.abelian`` (:mod:`.depth_thm32_abelian`).
"""
from __future__ import annotations

from fractions import Fraction

import numpy as np

from seqtheory.numerics.fits import fit_loglog_slope
from seqtheory.numerics.local_error import target_generators
from seqtheory.numerics.restricted import (affine_generators, eps_scaled_rows,
                                           random_target_search, restricted_vs_target_table)
from seqtheory.numerics.restricted_stack import (commutation_certificate,
                                                 second_order_certificate, stack_error_scan)
from seqtheory.numerics.reversal import reversal_scan
from seqtheory.numerics.reversal_experiments import commutator_mass_growth
from seqtheory.theory._messages import counted

from ..registry import DEPTH, ControlOutcome, Outcome, Reading, Verdict, claim, finite_reals
from ..simulation import PAPER_READING, SIMULATION_PREMISE

ERROR_TOL = 1e-12       # an error at or below this times the mass counts as exact
MASS_THRESHOLD = 1e-20  # a mass at or above this counts as non-zero (masses are computed with 40
                        # digits: a zero mass, e.g. of a palindrome, comes out near 1e-40)
SLOPE_RESOLUTION = 0.1  # slopes within ±0.1 count as equal (fits on smooth power laws)

# The affine target of the fixed-initial-state reading: two tokens, α = (0.9, 0.5), β = (1, 2).
ALPHA = [[Fraction(9, 10)], [Fraction(1, 2)]]
BETA = [[Fraction(1)], [Fraction(2)]]
H0 = [0]

# The continuous-time version is checked on this word at these ε.
EPS_WORD = (0, 1, 1, 0, 1)
EPS_VALUES = (Fraction(1, 1000), Fraction(1, 100), Fraction(1, 10), Fraction(1))
#: The non-palindromic word of the ε-scans (a word and its reversal differ).
WORD = [0, 1, 0, 1, 1]

#: The hypothesis under which the statement holds, and the reading of "constant depth" used.
HYPOTHESIS = "one restricted layer (depth 1)"
DEPTH_READING = ("'constant depth' read as any fixed depth, C fixed; the paper's exact statement "
                 "is not known, and its own Cor 3.6 (depth-2 abelian cascades reach local error "
                 "O(ε³)) suggests the bound is meant for one layer")
DECIDED_BY = ("the paper's exact statement of Theorem 3.2: whether 'constant depth' takes in two "
              "restricted layers (then the two-layer stack with error O(ε³) refutes the bound "
              "C·ε²‖Ω2‖) or the bound's term changes with the depth (then the depth-1 evidence "
              "with a depth-k term would decide)")


def _targets(ctx) -> dict[str, list]:
    """Targets of the paper's reading: name -> generators (token maps exp(ε G_x))."""
    return {"so(3), A5 rotation generators": target_generators("so3_a5"),
            "sl2 (E, F)": target_generators("sl2"),
            "random gl3": target_generators("gl_random", seed=ctx.numpy_seed("thm32-gl3")),
            "affine [[α, β], [0, 1]], every initial state": affine_generators(ALPHA, BETA)}


def _scan_row(name: str, gens, grid, word=WORD, variant: str = "") -> dict:
    """The best linear-readout error of restricted models on {word, reversal} over unit initial
    states, against ε²‖Ω2‖₂, over ``grid``. ``variant="residual only"`` replaces the error by the
    third-order residual ‖Φ_x − Φ_x̄ − 2ε²Ω2‖₂/2 (a wrong variant: an error that vanishes faster
    than the mass)."""
    pts = reversal_scan(gens, word, None, grid, dps=40)
    err = [p.residual / 2 if variant == "residual only" else p.bound for p in pts]
    fit = fit_loglog_slope(list(grid), err)
    mfit = fit_loglog_slope(list(grid), [p.predicted for p in pts])
    return {"target": name, "word": "".join("ab"[i] for i in word),
            "points": [{"eps": p.eps, "error": e, "mass": p.predicted} for p, e in zip(pts, err)],
            "error_slope": fit.slope, "error_ci": [fit.ci_low, fit.ci_high],
            "mass_slope": mfit.slope, "ratio_at_min_eps": err[0] / pts[0].predicted}


def paper_reading_rows(ctx, variant: str = "") -> list[dict]:
    """One ε-scan row per target of :func:`_targets` (6 ε in [1e-4, 1e-2]; full: 10)."""
    grid = np.geomspace(1e-4, 1e-2, 6 if ctx.quick else 10)
    return [_scan_row(name, gens, grid, variant=variant) for name, gens in _targets(ctx).items()]


def depth2_rows(ctx) -> dict:
    """The depth-2 witness (:mod:`seqtheory.numerics.restricted_stack`) as :func:`thm32_decide`
    reads it: ``{"restricted"`` (layer 1's linear parts commute for all tokens: symbolic
    certificate), ``"second_order"`` (symbolic: the output agrees with every target to order ε²
    and misses its ε³ term, words of length ≤ 6), ``"certificate"`` (its rows),
    ``"rows"}``: per target of :func:`_targets`, the stack's worst error over unit h0 on
    ``{x, x̄}`` against ``ε²‖Ω2‖₂`` over the grid of :func:`paper_reading_rows`, with its log-log
    fit."""
    grid = np.geomspace(1e-4, 1e-2, 6 if ctx.quick else 10)
    rows = []
    for name, gens in _targets(ctx).items():
        pts = stack_error_scan(gens, WORD, grid)
        fit = fit_loglog_slope(list(grid), [p["error"] for p in pts])
        mfit = fit_loglog_slope(list(grid), [p["mass"] for p in pts])
        rows.append({"target": name, "word": "".join("ab"[i] for i in WORD),
                     "points": [{k: p[k] for k in ("eps", "error", "mass")} for p in pts],
                     "error_slope": fit.slope, "error_ci": [fit.ci_low, fit.ci_high],
                     "mass_slope": mfit.slope, "ratio_at_min_eps": pts[0]["ratio"],
                     "ratio_at_max_eps": pts[-1]["ratio"]})
    cert = second_order_certificate(len(WORD) + 1)
    comm = commutation_certificate()
    return {"restricted": comm["linear_parts_commute"], "tokens_commute": comm["tokens_commute"],
            "second_order": all(r["agree_to_order"] == 2 and r["model_degree"] == 2
                                for r in cert),
            "certificate": cert, "layer1_product": comm["product"], "rows": rows}


def _growth(ctx) -> dict:
    """‖Ω2‖₂ and the best error over unit h0 on (ab)^r, so(3) generators."""
    R = 8 if ctx.quick else 32
    rows, fit = commutator_mass_growth(target_generators("so3_a5"), None, R, 1e-3 / R)
    return {"rows": rows, "slope": fit.slope, "ci": [fit.ci_low, fit.ci_high]}


def fixed_state_rows(ctx) -> dict:
    """The fixed-initial-state reading: the restricted layer h ← α_x h + β_x from h0 = 0 (the
    target's initial state (0, 1): last coordinate 1) on every word of length ≤ 6, as one row
    of :func:`thm32_decide`'s form (error of that layer, mass ‖Ω2‖₂ at ε = 1)."""
    rows = restricted_vs_target_table(ALPHA, BETA, H0, 6)
    return {"target": "affine [[α, β], [0, 1]] from (h0, 1), h0 = 0",
            "points": [{"word": r["word"], "error": r["error"], "mass": r["norm_Omega2"]}
                       for r in rows], "table": rows}


def _fixed_search(ctx) -> dict:
    """Random targets of the affine class from initial states (h0, 1) (24 of them, words up to 4
    letters; full: 200, 6)."""
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
    premise=SIMULATION_PREMISE,
    claim_version=4,  # v1: abelian models in place of restricted ones; v2: fixed initial states;
                      # v3: one restricted layer only (no depth-2 stack)
    decided_by=DECIDED_BY,
)
def thm32(ctx) -> Outcome:
    rows = paper_reading_rows(ctx)
    growth = _growth(ctx)
    fixed = fixed_state_rows(ctx)
    search = _fixed_search(ctx)
    depth2 = depth2_rows(ctx)
    verdict, why, readings = thm32_decide(rows, growth, fixed, depth2)
    eps_rows = eps_scaled_rows(ALPHA, BETA, H0, EPS_WORD, EPS_VALUES)
    return Outcome(
        verdict=verdict,
        key_figure=_key_figure(verdict, rows, growth, depth2, readings),
        evidence={"decision": why, "error_tol": ERROR_TOL, "mass_threshold": MASS_THRESHOLD,
                  "slope_resolution": SLOPE_RESOLUTION, "hypothesis": HYPOTHESIS,
                  "reading of constant depth": DEPTH_READING,
                  "paper reading": [{k: v for k, v in r.items() if k != "points"} for r in rows],
                  "growth": {"slope": growth["slope"], "ci": growth["ci"]},
                  "depth 2": {
                      "model": ("layer 1: state (c, a, q) from (h0, 0, 0), linear part "
                                "[[I, 0, 0], [Y, I, 0], [Y², 0, I]] with Y = εX_x, no bias; "
                                "layer 2: state r from 0, linear part I, bias Y a; readout "
                                "c + a − q/2 + r (linear)"),
                      "layer-1 linear parts commute (symbolic, every dimension)":
                          depth2["restricted"],
                      "tokens commute": depth2["tokens_commute"],
                      "layer-1 product L(Y)L(Z)": depth2["layer1_product"],
                      "matches every target to order ε² (symbolic, words of length ≤ "
                      f"{len(depth2['certificate'])})": depth2["second_order"],
                      "rows": [{k: v for k, v in r.items() if k != "points"}
                               for r in depth2["rows"]]},
                  "fixed initial state": {
                      "target_matrices": "M_a = [[9/10, 1], [0, 1]], M_b = [[1/2, 2], [0, 1]] on "
                                         "(h, 1)",
                      "model": "one restricted layer, d = 1: h ← α_x h + β_x, α = (9/10, 1/2), "
                               "β = (1, 2), h0 = 0; output h (no output map)",
                      "words": len(fixed["table"]),
                      "max_error": max(r["error"] for r in fixed["table"]),
                      "max_norm_Omega2": max(r["norm_Omega2"] for r in fixed["table"]),
                      "search": {k: v for k, v in search.items() if k != "targets"}}},
        tables={"paper reading: ε-scan": [dict(p, target=r["target"]) for r in rows
                                          for p in r["points"]],
                "growth with T": growth["rows"],
                "depth 2: ε-scan": [dict(p, target=r["target"], **{"error / mass":
                                                                   p["error"] / p["mass"]})
                                    for r in depth2["rows"] for p in r["points"]],
                "depth 2: second-order certificate": [
                    {"T": r["T"], "model_degree": r["model_degree"],
                     "agree_to_order": r["agree_to_order"],
                     "missed terms of order ε³": r["first_difference_terms"],
                     "first_difference": r["first_difference"] if r["T"] <= 2 else "…"}
                    for r in depth2["certificate"]],
                "fixed initial state: all words": fixed["table"],
                "fixed initial state: ε-scaled": eps_rows,
                "fixed initial state: random targets": search["targets"]},
        readings=readings,
        notes=("Under the paper's reading (SPEC §3.1: linear readout P, every initial state; a "
               "sourced premise) a restricted layer's output has an h0-dependent part P A_w "
               "(s0(h0) − s0(−h0)) that depends only on the letter counts of w (the A commute; "
               "numerics/order_blind.py checks the identity symbolically for every dimension, bias, "
               "encoding and readout). A word x and its reversal x̄ have the same counts, so on the "
               "runs {x, x̄} × {h0, −h0} some error is ≥ ½‖(Φx − Φx̄)h0‖, and the order-free output "
               "½(Φx + Φx̄)h0 attains it: the best error over unit h0 is ½‖Φx − Φx̄‖₂ = "
               "ε²‖Ω2‖₂(1 + O(ε)) (reversal keeps Ω1 and flips Ω2). Measured per target: slope 2 "
               "like the mass and ratio → 1, so a bound C·ε²‖Ω2‖ holds for one restricted layer "
               "with C → 1 on the pair; the mass and the error grow linearly with T on (ab)^r. "
               "Depth 2 ('constant depth' read as any fixed depth; the paper's exact statement is "
               "not known): two restricted layers escape the bound. Layer 1 has linear parts "
               "L(Y) = [[I, 0, 0], [Y, I, 0], [Y², 0, I]] (L(Y)L(Z) = [[I, 0, 0], [Y + Z, I, 0], "
               "[Y² + Z², 0, I]] is symmetric in Y, Z: they commute for all tokens, checked "
               "symbolically) and no bias; layer 2 has linear part I and the bias Y·a (a: layer "
               "1's middle block); the linear readout c + a − q/2 + r equals the terms of degree "
               "≤ 2 in ε of Φ_w h0 (checked symbolically with non-commuting symbols), so the "
               "error from every initial state is O(ε³); the ε-scan measures its slope against "
               "the mass's. Where it vanishes faster than the mass, the bound holds only under "
               "the hypothesis 'one restricted layer (depth 1)' (refined; at most refined, since "
               "the paper's exact statement is not known). Fixed-initial-state reading (reported, not in the verdict): the "
               "affine maps h ↦ αh + β do not commute (fixed points 10 and 4), so the target "
               "[[α_x, β_x], [0, 1]] has ‖Ω2‖ > 0, yet from initial states (h0, 1) the restricted "
               "layer h ← α_x h + β_x tracks it exactly (all words ≤ 6, exact rationals; every ε in "
               "the continuous-time version; random targets of the class); from every initial "
               "state (h0, r) the same target errs by ½‖Φx − Φx̄‖₂ (the affine row of the ε-scan). "
               "So the bound needs 'every initial state', which the paper's definition of "
               "simulation supplies. The corrected statement for abelian (linear, commuting, "
               "no-bias) models is depth.thm3.2.abelian. Decision: " + why),
    )


def _key_figure(verdict: Verdict, rows: list[dict], growth: dict, depth2: dict,
                readings: list[Reading]) -> str:
    """The key figure: the reading and the hypothesis first, then the measured figures."""
    lead = {Verdict.REFINED: f"holds for {HYPOTHESIS} under the paper's simulation; two "
                             f"restricted layers escape any bound C·ε²‖Ω2‖ ({DEPTH_READING})",
            Verdict.SUPPORTED: f"holds for one and for two restricted layers ({DEPTH_READING})"
            }.get(verdict, f"{verdict.value} ({DEPTH_READING})")
    one = "; ".join(f"{r['target']}: slope {r['error_slope']:.3f} (mass {r['mass_slope']:.3f}), "
                    f"ratio {r['ratio_at_min_eps']:.5f}" for r in rows)
    two = "; ".join(f"{r['target']}: slope {r['error_slope']:.2f}, ratio "
                    f"{r['ratio_at_max_eps']:.3g} at ε = {r['points'][-1]['eps']:g} → "
                    f"{r['ratio_at_min_eps']:.2g} at ε = {r['points'][0]['eps']:g}"
                    for r in depth2["rows"])
    return (f"{lead}. One restricted layer ({PAPER_READING}): best error on {{x, x̄}} = "
            f"½‖Φx − Φx̄‖₂ against ε²‖Ω2‖₂: {one}; grows ∝ T^{growth['slope']:.2f} on (ab)^r. "
            f"Two restricted layers (commuting linear parts, checked symbolically): worst error "
            f"over unit h0 on {{x, x̄}} against ε²‖Ω2‖₂: {two}. {_fixed_state_text(readings)}")


def _fixed_state_text(readings: list[Reading]) -> str:
    """The fixed-initial-state reading in words (not in the verdict)."""
    r = readings[0]
    if r.outcome is Verdict.REFUTED:
        return ("Fixed-initial-state reading (not in the verdict): the hypothesis 'every initial "
                "state' is needed (the affine target is tracked exactly from initial states with "
                "last coordinate 1)")
    return f"Fixed-initial-state reading (not in the verdict): {r.outcome.value}"


def _check_points(points: list[dict], where: str) -> None:
    for i, p in enumerate(points):
        if not (finite_reals(p["error"], p["mass"]) and p["error"] >= 0 and p["mass"] >= 0):
            raise ValueError(f"{where} point {i}: error and mass must be finite numbers >= 0, got "
                             f"{p['error']!r}, {p['mass']!r}")


def _decide_rows(rows: list[dict], growth: dict | None, tol: float, threshold: float,
                 resolution: float) -> tuple[Verdict, str]:
    """The rule on one reading's rows (see :func:`thm32_decide`)."""
    for r in rows:
        _check_points(r["points"], r.get("target", "?"))
    massive = [(r, p) for r in rows for p in r["points"] if p["mass"] >= threshold]
    exact = [(r, p) for r, p in massive if p["error"] <= tol * p["mass"]]
    if exact:
        r, p = max(exact, key=lambda rp: rp[1]["mass"])
        return Verdict.REFUTED, (f"{len(exact)}/{counted(len(massive), 'point')} with commutator "
                                 f"mass ≥ {threshold:g} are tracked by a restricted model with error "
                                 f"≤ {tol:g}·mass (e.g. {r.get('target', '?')}, "
                                 f"{p.get('word', r.get('word', '?'))}: error {p['error']:.1e}, "
                                 f"mass {p['mass']:.3g}): no bound C·‖Ω2‖ with C > 0")
    if not massive:
        return Verdict.INCONCLUSIVE, "no point with non-zero commutator mass"
    fitted = [r for r in rows if r.get("error_slope") is not None]
    if not fitted:
        return Verdict.INCONCLUSIVE, "no ε-scan: how the error scales with the mass is not measured"
    wide = [r["target"] for r in fitted
            if not finite_reals(r["error_slope"], *r["error_ci"])
            or (r["error_ci"][1] - r["error_ci"][0]) / 2 > resolution]
    if wide:
        return Verdict.INCONCLUSIVE, "slope fits not informative for " + ", ".join(wide)
    fast = [f"{r['target']}: error slope {r['error_slope']:.3f} > mass slope "
            f"{r['mass_slope']:.3f}" for r in fitted
            if r["error_ci"][0] > r["mass_slope"] + resolution]
    if fast:
        return Verdict.REFUTED, ("the error vanishes faster than the commutator mass as ε → 0, so "
                                 "no bound C·‖Ω2‖ holds at small ε: " + "; ".join(fast))
    C = min(p["error"] / p["mass"] for _, p in massive)
    why = (f"every point with mass ≥ {threshold:g} has error ≥ {C:.4g}·ε²‖Ω2‖ "
           f"({counted(len(massive), 'point')}, {counted(len(rows), 'target')}); error slopes "
           + ", ".join(f"{r['error_slope']:.3f}" for r in fitted) + " match the mass's")
    if growth is None:
        return Verdict.SUPPORTED, why
    if not finite_reals(growth["slope"], *growth["ci"]):
        raise ValueError(f"growth slope and CI must be finite, got {growth!r:.80}")
    if growth["ci"][1] < 1 - resolution:
        return Verdict.INCONCLUSIVE, (f"{why}; but no accumulation with T was shown (growth slope "
                                      f"{growth['slope']:.2f})")
    return Verdict.SUPPORTED, f"{why}; grows ∝ T^{growth['slope']:.2f} on (ab)^r"


def _with_depth2(one: tuple[Verdict, str], depth2: dict, tol: float, threshold: float,
                 resolution: float) -> tuple[Verdict, str]:
    """The verdict once the depth-2 evidence is in (see :func:`thm32_decide`); ``one`` is the
    one-layer verdict, supported."""
    _, why = one
    if not isinstance(depth2.get("restricted"), bool):
        raise TypeError(f"depth2['restricted'] must be a bool, got {depth2.get('restricted')!r}")
    if not depth2["restricted"]:
        return Verdict.INCONCLUSIVE, (f"{why}; depth 2 untested: the two-layer stack's linear "
                                      "parts do not commute, so it is not a restricted model")
    v2, why2 = _decide_rows(depth2["rows"], None, tol, threshold, resolution)
    if v2 is Verdict.REFUTED:
        return Verdict.REFINED, (f"holds under the hypothesis '{HYPOTHESIS}': {why}. Two "
                                 f"restricted layers escape it ({DEPTH_READING}): {why2}")
    if v2 is Verdict.INCONCLUSIVE:
        return Verdict.INCONCLUSIVE, f"{why}; depth 2 cannot decide: {why2}"
    return Verdict.SUPPORTED, f"{why}; two restricted layers: {why2}"


@thm32.decision_rule
def thm32_decide(rows: list[dict], growth: dict | None = None, fixed_state: dict | None = None,
                 depth2: dict | None = None, tol: float = ERROR_TOL,
                 threshold: float = MASS_THRESHOLD,
                 resolution: float = SLOPE_RESOLUTION) -> tuple[Verdict, str, list[Reading]]:
    """Decision rule of ``depth.thm3.2`` (pure). ``rows``: the paper's reading for one restricted
    layer, per target
    ``{"target", "points": [{"eps", "error", "mass"}], "error_slope", "error_ci", "mass_slope"}``
    with ``error`` the best error of restricted models with a linear readout over every unit
    initial state (or a built model's error) and ``mass`` = ε²‖Ω2‖ (finite, ≥ 0; ``ValueError``
    otherwise). Refuted when some point with mass ≥ ``threshold`` has error ≤ ``tol·mass`` (a
    restricted model tracks a target with commutator mass), or when an
    error's slope in ε exceeds the mass's by more than ``resolution`` (its CI above: the error
    vanishes faster than the mass, so no C > 0 holds at small ε). Inconclusive without points of
    non-zero mass, without an informative ε-scan (CI half-width ≤ ``resolution``), or when
    ``growth`` (``{"slope", "ci"}`` of the error vs T) shows no accumulation (CI below
    1 − ``resolution``). Otherwise supported (finitely many targets), with the smallest ratio
    error / mass.

    ``depth2`` (the statement names constant-depth models; "constant depth" is read as any fixed
    depth): ``{"restricted"`` (bool: the stack's linear parts commute, ``TypeError`` otherwise),
    ``"rows"}`` (a built two-layer restricted stack's error, rows of the form above). Used when
    one layer is supported: the same rule on its rows; where it refutes (the stack beats every
    bound C·ε²‖Ω2‖) the verdict is ``refined``, holding under the hypothesis "one restricted
    layer (depth 1)", with the stack as the witness (at most refined: the paper's exact statement
    is not known); where it supports, supported; a stack that is not restricted, or rows that
    cannot decide, give inconclusive.

    ``fixed_state``: the fixed-initial-state reading (``{"target", "points": [{"word", "error",
    "mass"}]}``, a built restricted layer's error from initial states with last coordinate 1),
    judged by the same rule and returned as a
    :class:`~seqtheory.proofs_checks.registry.Reading`; it never enters the verdict.
    Returns ``(verdict, why, readings)``."""
    verdict, why = _decide_rows(rows, growth, tol, threshold, resolution)
    if depth2 is not None and verdict is Verdict.SUPPORTED:
        verdict, why = _with_depth2((verdict, why), depth2, tol, threshold, resolution)
    readings = []
    if fixed_state is not None:
        v, w = _decide_rows([fixed_state], None, tol, threshold, resolution)
        readings.append(Reading(
            "fixed initial states (last coordinate 1)", v,
            w + ("; the statement needs every initial state (the paper's simulation supplies it)"
                 if v is Verdict.REFUTED else "")))
    return verdict, why, readings


@thm32.control
def _thm32_control(ctx) -> ControlOutcome:
    """Wrong variants through the same rule, each a way the statement could fail: (a) the
    fixed-initial-state counterexample's rows given as the paper's reading (a restricted layer
    exact while the mass is non-zero); (b) the unobserved direction A = diag(1,0), B = E12 seen
    from h0 = e1 only (the reversal bound is ≡ 0 while ‖Ω2‖ > 0); (c) errors that vanish like ε³
    (the third-order residual in place of the best error). None may be supported or refined."""
    from seqtheory.numerics.reversal import reversal_scan as scan

    fixed = fixed_state_rows(ctx)
    gap_pts = scan([[[1, 0], [0, 0]], [[0, 1], [0, 0]]], [0, 1, 0, 1], [1, 0],
                   np.geomspace(1e-3, 1e-1, 5), dps=50)
    gap = {"target": "diag(1,0), E12 from e1", "word": "abab",
           "points": [{"eps": p.eps, "error": p.bound, "mass": p.eps ** 2 * 0.5} for p in gap_pts]}
    variants = {
        "fixed initial states as the paper's reading": [fixed],
        "diag(1,0), E12 seen from e1 only": [gap],
        "errors of order ε³": paper_reading_rows(ctx, variant="residual only")[:2],
    }
    out = {n: thm32_decide(rows) for n, rows in variants.items()}
    return ControlOutcome(
        rejected=all(v not in (Verdict.SUPPORTED, Verdict.REFINED) for v, _, _ in out.values()),
        variant="; ".join(variants),
        reason=" | ".join(f"{n}: {v.value} ({w})" for n, (v, w, _) in out.items()),
        evidence={n: v.value for n, (v, _, _) in out.items()})

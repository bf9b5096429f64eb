"""[DEPTH] (Heo et al., arXiv:2603.05573), Lemma 3.1: no abelian (restricted) system simulates a
general one.

Claim ``depth.lemma3.1``, decided under the paper's reading of simulation (SPEC §3.1, a sourced
premise: a linear projection P of the model's state, every initial state of the target). The
certificate (:mod:`seqtheory.numerics.order_blind`): for every restricted layer
``s ← A(x)s + b(x)`` with commuting ``A(x)`` (any dimension, bias, encoding of ``h0``, affine
readout) the ``h0``-dependent part of the output on ``xy`` equals that on ``yx`` (a symbolic
identity), so any target whose maps for ``xy`` and ``yx`` differ is simulated from no set of
initial states containing ``h`` and ``−h`` for a unit ``h`` that sees the difference; exact witnesses: the flows
``exp(E12), exp(E21)`` (sl2), ``exp(diag(1, 0)), exp(E12)``, and the 3x3 permutation action of S3
(a discrete system: its transpositions have determinant −1, so it is not a flow of
``h' = A(x)h``). Decision: :func:`lemma31_decide`.

Other readings, reported beside the verdict (never in it): a *fixed initial state* with abelian
layers (:mod:`seqtheory.theory.orbit_module`: ``A = diag(1, 0)``, ``B = E12`` from ``h0 = e1``
is invisible at all orders, so that reading needs observability: refined) and a *periodic
readout* (:mod:`seqtheory.numerics.affine_readout`: one restricted layer carrying ``h0`` and read
out by periodic weights reproduces S3's action from every ``h0``; the finding
``finding.s3_one_restricted_layer``). Proposition 3.3 is in :mod:`.depth_prop33`.
"""
from __future__ import annotations

from typing import Any

import sympy

from seqtheory.numerics.affine_readout import (agl_best_affine_readout, agl_permutation_action,
                                               permutation_matrix)
from seqtheory.numerics.order_blind import equal_count_witnesses, restricted_pair_identity
from seqtheory.theory._messages import counted
from seqtheory.theory.orbit_module import diagonal_model_identifies_reorderings, separation_rows

from ..registry import DEPTH, ControlOutcome, Outcome, Reading, Verdict, claim
from ..simulation import PAPER_READING, SIMULATION_PREMISE


_PAIRS = {
    "E12,E21": {"x": [[0, 1], [0, 0]], "y": [[0, 0], [1, 0]]},
    "diag(1,0),E12": {"x": [[1, 0], [0, 0]], "y": [[0, 1], [0, 0]]},
}
_H0 = {"e1": [1, 0], "e2": [0, 1], "e1+e2": [1, 1]}


# ---------------------------------------------------------------- the periodic-readout reading
#: The system of the periodic-readout reading, in words (shown in the report).
S3_SYSTEM = ("h_t = P(x_t) h_(t-1) on R^3: the tokens are the 6 elements of S3, each acting by its "
             "3x3 permutation matrix (P(p) e_i = e_(p(i))); non-abelian (the matrices do not "
             "commute). Token by token, as the paper's models run.")
#: The restricted layer of the periodic-readout reading, in words (shown in the report).
S3_LAYER = ("one restricted layer, state (σ, z, u) in R^5 started at (1, 0, h0); token x with "
            "coordinates (s, c) in AGL(1,3) ≅ S3: σ ← s·σ, z ← s·z + c, u ← u, i.e. linear part "
            "diag(s, s, 1, 1, 1) (all tokens' linear parts commute) and bias (0, c, 0, 0, 0); "
            "periodic output map (not a linear projection: it multiplies the stored h0 by "
            "weights of the state) y = Σ_g χ_g(σ, z) P(g) u with χ_(s,c)(σ, z) = (1 + s·σ)/2 · "
            "(1 + 2cos(2π(z − c)/3))/3")


def restricted_s3_evidence(max_len: int, bias: bool = True) -> dict[str, Any]:
    """The periodic-readout reading of Lemma 3.1, exactly: the layer :data:`S3_LAYER` against the
    system :data:`S3_SYSTEM` on every word of length ≤ ``max_len``, with the inductive step and
    readout that carry it to every length
    (:func:`~seqtheory.numerics.affine_readout.agl_permutation_action`). ``bias=False`` drops the
    bias (a purely abelian layer z ← s·z; a wrong variant)."""
    return {"system": S3_SYSTEM, "layer": S3_LAYER if bias else S3_LAYER + " (bias dropped)",
            **agl_permutation_action(max_len, bias=bias)}


def _periodic_reading(ev: dict[str, Any]) -> tuple[Verdict, str]:
    """Sub-rule of the periodic-readout reading ("no restricted system simulates a general one"
    when the output map may be any smooth (periodic) function of the state): not the verdict."""
    for key in ("prefixes", "mismatches", "step_failures", "readout_failures"):
        v = ev[key]
        if not isinstance(v, int) or isinstance(v, bool) or v < 0:
            raise ValueError(f"restricted[{key!r}] must be an int >= 0, got {v!r}")
    if not ev["linear_parts_commute"]:
        return Verdict.INCONCLUSIVE, "the layer is not restricted: its linear parts do not commute"
    if ev["system_commutes"]:
        return Verdict.INCONCLUSIVE, "the system is abelian: it is not a general one"
    if any(d <= 0 for d in ev["target_determinants"]):
        return Verdict.INCONCLUSIVE, (
            "the only witness is a discrete system (determinants "
            + ", ".join(map(str, ev["target_determinants"])) + "), no time-one map of a flow "
            "h' = A(x)h, so it lies outside the lemma's class and decides nothing; that one "
            "restricted layer with a periodic output map tracks it is finding."
            "s3_one_restricted_layer")
    if not ev["prefixes"]:
        return Verdict.INCONCLUSIVE, "no word checked"
    if ev["mismatches"]:
        return Verdict.INCONCLUSIVE, (f"this layer does not simulate the system ({ev['mismatches']}"
                                      f"/{ev['prefixes']} prefixes wrong, e.g. word "
                                      f"{ev['first_wrong_word']}): it decides nothing")
    if ev["step_failures"] or ev["readout_failures"] or not ev["initial_ok"]:
        return Verdict.INCONCLUSIVE, ("exact on every word of length ≤ "
                                      f"{ev['max_len']}, but the inductive step fails "
                                      f"({ev['step_failures']} transitions, "
                                      f"{ev['readout_failures']} readout pairs, initial state ok: "
                                      f"{ev['initial_ok']}): no certificate for every length")
    return Verdict.REFUTED, (f"with a periodic output map, one restricted layer simulates the "
                             f"non-abelian system exactly from every initial state: all {counted(ev['prefixes'], 'word')} of length ≤ "
                             f"{ev['max_len']} exact, and every length by induction (step "
                             f"{ev['step_transitions']}/{ev['step_transitions']} transitions, "
                             f"readout {ev['readout_pairs']}/{ev['readout_pairs']} pairs exact)")


# ---------------------------------------------------------------- the paper's reading
#: Controlled systems h' = A(x)h given by their generators: the token maps are exp(A_x).
FLOW_TARGETS = {
    "sl2 flows exp(E12), exp(E21)": [[[0, 1], [0, 0]], [[0, 0], [1, 0]]],
    "flows exp(diag(1,0)), exp(E12)": [[[1, 0], [0, 0]], [[0, 1], [0, 0]]],
}


def _target_row(name: str, maps: list, flow: bool, names: list[str] | None = None
                ) -> dict[str, Any]:
    """One target of the paper's reading: its first equal-count witness (the pair xy/yx with
    the largest difference) and whether it is a flow of h' = A(x)h."""
    w = equal_count_witnesses(maps, names, limit=1)
    dets = sorted({str(sympy.Matrix(M).det()) for M in maps})
    return {"target": name, "flow": flow, "determinants": ", ".join(dets),
            "witness": w[0]["words"] if w else "", "difference": w[0]["difference"] if w else "",
            "lower_bound": w[0]["lower_bound"] if w else 0.0}


def _cycles(p: tuple[int, ...]) -> str:
    """A permutation in image notation, written in cycle notation ("(0 1)", "()")."""
    from sympy.combinatorics import Permutation

    return "".join("(" + " ".join(map(str, c)) + ")" for c in Permutation(list(p)).cyclic_form) \
        or "()"


def paper_reading_evidence(commuting: bool = True, flows: dict | None = None,
                           s3: bool = True) -> dict[str, Any]:
    """The certificate of the paper's reading: the symbolic identity of a restricted layer on
    ``xy`` / ``yx`` (``commuting=False``: a layer whose linear parts need not commute, a wrong
    variant) and, per target, its exact witness. ``flows``: name -> generators (default
    :data:`FLOW_TARGETS`; token maps ``exp(A_x)``, exact); ``s3``: add the 3x3 permutation action
    of S3 (a discrete system, not a flow: determinant −1)."""
    from seqtheory.theory.groups import FiniteGroup

    rows = [_target_row(name, [sympy.Matrix(g).exp() for g in gens], True)
            for name, gens in (FLOW_TARGETS if flows is None else flows).items()]
    if s3:
        G = FiniteGroup.named("S3")
        rows.append(_target_row("S3 permutation action (3x3 permutation matrices)",
                                [permutation_matrix(p) for p in G.elements], False,
                                [_cycles(p) for p in G.elements]))
    return {**restricted_pair_identity(commuting), "targets": rows,
            "linear_readout_constructions": []}


def _paper_reading(ev: dict[str, Any]) -> tuple[Verdict, str]:
    """Sub-rule of the paper's reading (this decides the verdict)."""
    for key in ("identity_holds", "order_blind"):
        if not isinstance(ev[key], bool):
            raise TypeError(f"paper[{key!r}] must be a bool, got {ev[key]!r}")
    made = [c["name"] for c in ev.get("linear_readout_constructions", [])
            if all(c[k] for k in ("restricted", "linear_readout", "every_initial_state", "exact",
                                  "target_nonabelian"))]
    certified = ev["identity_holds"] and ev["order_blind"]
    if made and certified:
        return Verdict.INCONCLUSIVE, (f"the evidence contradicts itself: constructions {made} "
                                      "claim what the verified identity excludes")
    if made:
        return Verdict.REFUTED, (f"a restricted layer with a linear readout simulates the "
                                 f"non-abelian system {made[0]} exactly from every initial state")
    if not certified:
        return Verdict.INCONCLUSIVE, ("the symbolic step did not verify (identity "
                                      f"{ev['identity_holds']}, order-blind {ev['order_blind']}): "
                                      "no certificate")
    witnessed = [t for t in ev["targets"] if t["witness"] and t["lower_bound"] > 0]
    flows = [t for t in witnessed if t["flow"]]
    if not witnessed:
        return Verdict.INCONCLUSIVE, ("no target separates two words with equal letter counts: "
                                      "nothing general to simulate")
    if not flows:
        return Verdict.INCONCLUSIVE, ("the witnesses are not flows of h' = A(x)h (" + ", ".join(
            f"{t['target']}: determinants {t['determinants']}" for t in witnessed)
            + "): the certificate does not reach a controlled system")
    shown = "; ".join(f"{t['target']}: {t['witness']} differ, error ≥ {t['lower_bound']:.4g} on "
                      "one of the four runs" for t in witnessed)
    return Verdict.CONFIRMED, (
        "certificate for every restricted layer (any dimension, bias, encoding of h0 and affine "
        "readout): the h0-dependent output on xy equals that on yx (symbolic identity, commuting "
        f"linear parts), while the targets' maps differ exactly: {shown}. So no restricted system "
        f"simulates them under the paper's reading ({PAPER_READING}); flows of h' = A(x)h "
        f"among them: {', '.join(t['target'] for t in flows)}")


# ---------------------------------------------------------------- the claim
@claim(id="depth.lemma3.1",
       title="No abelian (restricted) system simulates a general one",
       source=DEPTH("Lemma 3.1"),
       statement="No abelian (restricted) system simulates a general (non-abelian) controlled "
                 "system h' = A(x) h.",
       premise=SIMULATION_PREMISE,
       claim_version=3)  # v1: abelian reading only; v2: readings combined by the weakest
def lemma31(ctx) -> Outcome:
    max_len = 2 if ctx.quick else 3
    paper = paper_reading_evidence()
    rows = separation_rows(_PAIRS, _H0, max_len)
    abel_same = all(diagonal_model_identifies_reorderings(ctx.numpy_seed(f"abel{i}"))
                    for i in range(3 if ctx.quick else 10))
    periodic = {**restricted_s3_evidence(4 if ctx.quick else 5),
                "linear_readout": agl_best_affine_readout(4 if ctx.quick else 5)}
    verdict, why, readings = lemma31_decide(
        paper, {"rows": rows, "abelian_identifies_reorderings": abel_same}, periodic)
    gap = next(r for r in rows if r["pair"] == "diag(1,0),E12" and r["h0"] == "e1")
    gap_invisible = (not gap["algebra_abelian"]) and gap["commutator_on_h0_zero"] and \
        gap["restricted_algebra_abelian"] and gap["n_separating_pairs"] == 0
    lin = periodic["linear_readout"]
    bounds = ", ".join(f"{t['target']}: {t['lower_bound']:.4g}" for t in paper["targets"])
    return Outcome(
        verdict=verdict,
        key_figure=(f"paper's reading ({PAPER_READING}, SPEC §3.1): {verdict.value}: every restricted layer "
                    "gives xy and yx the same h0-dependent output (symbolic identity), so some "
                    f"run errs by at least ½‖Φ_xy − Φ_yx‖₂: {bounds}; other readings (not in the "
                    f"verdict; reasons below): fixed h0: {readings[0].outcome.value}, periodic "
                    f"readout: {readings[1].outcome.value}"),
        evidence={"decision": why, "paper reading": paper,
                  "reading_outcomes": {r.name: r.outcome.value for r in readings},
                  "fixed initial state (abelian layers)": {
                      "max_word_length": max_len, "abelian_models_identify_xy_yx": abel_same,
                      "gap_invisible_all_orders": gap_invisible,
                      "criteria_consistent": _criteria_consistent(rows),
                      "missing_hypothesis": "non-degenerate initial state / observability: "
                                            "g restricted to U(g)h0 non-abelian"},
                  "periodic readout (finding.s3_one_restricted_layer)": periodic},
        tables={"paper reading: witnesses": paper["targets"],
                "fixed initial state: separation": rows},
        readings=readings,
        notes=("Read as the paper defines simulation (SPEC §3.1: a linear projection P, every "
               "initial state; a sourced premise). The statement speaks of 'a general one': there "
               "is a non-abelian controlled system that no restricted system simulates. The "
               "certificate covers it and more: the identity [y(xy,h) − y(xy,h')] − "
               "[y(yx,h) − y(yx,h')] = P[A_y, A_x](s0(h) − s0(h')) holds for every restricted layer "
               "(non-commuting symbols: any dimension, bias, encoding and readout) and vanishes when "
               "the linear parts commute; at h' = −h the target's side is 2(Φ_xy − Φ_yx)h, so one "
               "of the runs {xy, yx} x {h, −h} errs by at least ½‖(Φ_xy − Φ_yx)h‖ (attained by the "
               "order-free output ½(Φ_xy + Φ_yx)h). It applies to every target whose token maps do "
               "not all commute (the universal form for such targets). The S3 permutation action "
               "(error ≥ √3/2 ≈ 0.866 against a target of norm 1) includes transpositions of "
               "determinant −1, which are not time-one maps of any real flow h' = A(x)h, so it is a "
               "discrete witness; the flows exp(E12), exp(E21) (sl2) and exp(diag(1,0)), exp(E12) "
               "are controlled systems of the statement's class. Other readings (reported, never "
               "in the verdict): with a fixed initial state and abelian layers, A = diag(1,0), "
               "B = E12 from h0 = e1 is invisible at all orders (U(g)e1 = span{e1}), so that "
               "reading needs observability (refined); with a periodic output map that multiplies "
               f"a stored copy of h0 ({S3_LAYER}), one restricted layer reproduces {S3_SYSTEM} "
               "exactly from every h0 (finding.s3_one_restricted_layer). The best affine readout of "
               f"that layer's state has RMS error {lin['rms_error']:.3f} against a target RMS of "
               f"{lin['rms_target']:.3f} (exact least squares over all "
               f"{counted(lin['words'], 'word')} of length ≤ {lin['max_len']}, isotropic h0). "
               f"Decision: {why}. Related: depth.thm3.2."),
    )


def _criteria_consistent(rows: list[dict[str, Any]]) -> bool:
    """The all-order criterion (restricted algebra abelian) agrees with the word search."""
    return all((r["n_separating_pairs"] == 0) == r["restricted_algebra_abelian"] for r in rows)


def _abelian_reading(rows: list[dict[str, Any]], abelian_identifies_reorderings: bool
                     ) -> tuple[Verdict, str]:
    """Sub-rule of the abelian reading ("no abelian system simulates a general one")."""
    if not abelian_identifies_reorderings:
        return Verdict.INCONCLUSIVE, "an abelian model separated reordered words"
    if not _criteria_consistent(rows):
        return Verdict.INCONCLUSIVE, "word search and restricted-algebra criterion disagree"
    targets = sorted({r["pair"] for r in rows if not r["algebra_abelian"]})
    if not targets:
        return Verdict.INCONCLUSIVE, "no non-abelian target in the evidence: nothing to separate"
    seen = {t: [r for r in rows if r["pair"] == t] for t in targets}
    never = [t for t, rs in seen.items() if not any(r["n_separating_pairs"] for r in rs)]
    if never:
        return (Verdict.REFUTED, f"non-abelian targets {', '.join(never)} are separated from an "
                f"abelian model from none of the initial states "
                f"{', '.join(r['h0'] for r in seen[never[0]])}")
    blind = ", ".join(f"{t} from {r['h0']}" for t, rs in seen.items() for r in rs
                      if not r["n_separating_pairs"])
    if blind:
        return (Verdict.REFINED,
                "separation holds whenever the orbit module U(g)h0 carries a non-abelian action; "
                f"from {blind} no pair of inputs is distinguishable at any order (the restricted "
                "algebra on U(g)h0 is abelian; word search and criterion agree). Missing "
                "hypothesis: a non-degenerate initial state / observability (the restriction of "
                "g to U(g)h0 must be non-abelian)")
    n = sum(len(rs) for rs in seen.values())
    return Verdict.SUPPORTED, (f"every non-abelian target separates from every initial state "
                               f"({len(targets)} targets x initial states = {counted(n, 'instance')})")


@lemma31.decision_rule
def lemma31_decide(paper: dict[str, Any], fixed_state: dict[str, Any] | None = None,
                   periodic: dict[str, Any] | None = None
                   ) -> tuple[Verdict, str, list[Reading]]:
    """Decision rule of ``depth.lemma3.1``. The verdict reads ``paper`` only: the paper's reading
    (SPEC §3.1: a linear projection P, every initial state; :func:`paper_reading_evidence`).
    ``refuted`` when a construction claims a restricted layer with a linear readout that simulates
    a non-abelian system exactly from every initial state (``linear_readout_constructions``) and
    the symbolic identity did not verify; ``inconclusive`` when both (the evidence contradicts
    itself), when the identity did not verify, when no target has a witness (two words of equal
    letter counts with different maps) or when no witness is a flow of h' = A(x)h (a discrete
    system with maps of negative determinant is outside the statement's class); otherwise
    ``confirmed``: the identity covers every restricted layer and the exact witnesses show the
    targets, a controlled system among them, are simulated by none.

    The other readings never enter the verdict; each gets its own outcome, returned as
    :class:`~seqtheory.proofs_checks.registry.Reading` rows: ``fixed_state`` (the separation
    table ``rows`` and ``abelian_identifies_reorderings``: abelian layers from a given h0;
    refuted when a non-abelian target separates from none of its initial states, refined when
    from some but not all -- the missing hypothesis is observability --, supported when from
    all, inconclusive when the evidence is inconsistent) and ``periodic`` (the layer of
    :func:`restricted_s3_evidence`: refuted under that reading when it reproduces the system
    exactly at every length, else inconclusive). ``None`` leaves a reading out.

    Returns ``(verdict, why, readings)``."""
    verdict, why = _paper_reading(paper)
    readings = []
    if fixed_state is not None:
        v, w = _abelian_reading(fixed_state["rows"], fixed_state["abelian_identifies_reorderings"])
        readings.append(Reading("fixed initial state h0, abelian layers (no bias)", v, w))
    if periodic is not None:
        v, w = _periodic_reading(periodic)
        lin = periodic.get("linear_readout")
        if lin:
            w += (f"; the best affine readout of the same state errs by RMS {lin['rms_error']:.3f} "
                  f"(target RMS {lin['rms_target']:.3f})")
        readings.append(Reading("periodic output map (multiplies a stored h0; not a linear P)",
                                v, w, finding="finding.s3_one_restricted_layer"))
    return verdict, why, readings


@lemma31.control
def _lemma31_control(ctx) -> ControlOutcome:
    """Wrong variants through the same rule, each a way the certificate could fail: a layer whose
    linear parts need not commute (not restricted: the identity no longer makes xy and yx look
    alike), commuting targets passed off as general ones (no witness), and the S3 permutation
    action alone (determinant −1: not a flow of h' = A(x)h). None may be confirmed. The readings'
    sub-rules get their own wrong variants: the periodic layer with its bias dropped (an abelian
    layer: it must not refute that reading) and diag(1,0), E12 seen only from e1 (the fixed-state
    reading must not accept it)."""
    commuting = {"diag(1,0), diag(0,2)": [[[1, 0], [0, 0]], [[0, 0], [0, 2]]],
                 "X, 2X + I": [[[1, 2], [0, 3]], [[3, 4], [0, 7]]]}
    variants = {
        "linear parts need not commute": paper_reading_evidence(commuting=False),
        "commuting targets": paper_reading_evidence(flows=commuting, s3=False),
        "S3 alone (not a flow)": paper_reading_evidence(flows={}),
    }
    out = {n: lemma31_decide(ev) for n, ev in variants.items()}
    max_len = 2 if ctx.quick else 3
    paper = paper_reading_evidence()
    gap = {"rows": separation_rows({"diag(1,0),E12": _PAIRS["diag(1,0),E12"]}, {"e1": [1, 0]},
                                   max_len), "abelian_identifies_reorderings": True}
    _, _, read = lemma31_decide(paper, gap, restricted_s3_evidence(3, bias=False))
    fixed, periodic = read[0].outcome, read[1].outcome
    ok = (all(v is not Verdict.CONFIRMED for v, _, _ in out.values())
          and fixed not in (Verdict.REFINED, Verdict.SUPPORTED, Verdict.CONFIRMED)
          and periodic is not Verdict.REFUTED)
    return ControlOutcome(
        rejected=ok,
        variant="; ".join(variants) + "; readings: diag(1,0),E12 from e1 only, periodic layer "
                "without bias",
        reason=" | ".join(f"{n}: {v.value} ({w})" for n, (v, w, _) in out.items())
        + f" | fixed-state reading from e1 only: {fixed.value} ({read[0].why}) | periodic layer "
          f"without bias: {periodic.value} ({read[1].why})",
        evidence={"verdicts": {n: v.value for n, (v, _, _) in out.items()},
                  "readings": {"diag(1,0),E12 from e1 only": fixed.value,
                               "periodic layer without bias": periodic.value}},
    )

"""[DEPTH] (Heo et al., arXiv:2603.05573), experiments on S3 (``depth.exp.s3_depth``: S3, of
derived length 2, is reported to need two abelian layers): the constructive counterpart for
*restricted* layers.

Claim ``finding.s3_one_restricted_layer``: one restricted layer (commuting linear parts
``diag(s, s)``, bias ``(0, c)``) with the periodic output map ``(σ, z mod 3)`` tracks the S3 word
problem exactly at every length, because S3 ≅ AGL(1, 3) (:mod:`seqtheory.numerics.affine_layer`).
Experiment: all words up to length 7 (every prefix of all 6^7 words) and random words of length
4096, labels from the package's group code (:func:`seqtheory.numerics.group_cascades.prefix_products`,
``left`` convention). Decision (:func:`s3_decide`, pure): confirmed iff the layer is restricted
(its linear parts commute) and no prefix is wrong; refuted if some prefix is wrong.
"""
from __future__ import annotations

import itertools

import numpy as np

from seqtheory.theory._messages import counted
from seqtheory.numerics.affine_layer import (agl13_coordinates, agl_decode, agl_layer_states,
                                             agl_step_certificate)
from seqtheory.numerics.group_cascades import all_words, prefix_products
from seqtheory.theory.groups import FiniteGroup

from ..registry import FINDING, ControlOutcome, Outcome, Verdict, claim

MAX_LEN = 7
RANDOM_LEN = 4096


def _evidence(ctx, bias: bool = True, convention: str = "left") -> dict:
    G = FiniteGroup.named("S3")
    coords = agl13_coordinates(G)
    table = G.cayley_table()
    lin = [np.diag([float(s), float(s)]) for s, _ in coords]
    commute = all(np.array_equal(A @ B, B @ A) for A, B in itertools.product(lin, repeat=2))
    affine = [np.array([[s, 0, 0], [0, s, c], [0, 0, 1]], dtype=float) for s, c in coords]
    affine_commute = all(np.array_equal(A @ B, B @ A) for A, B in itertools.product(affine, repeat=2))
    W = all_words(G.order, MAX_LEN)
    B = 64 if ctx.quick else 1024
    R = np.random.default_rng(ctx.numpy_seed("s3-restricted")).integers(0, G.order, (B, RANDOM_LEN))
    step = agl_step_certificate(G, coords if bias else [(s, 0) for s, _ in coords])
    out = {"linear_parts_commute": commute, "affine_maps_commute": affine_commute,
           "step_transitions": step["transitions"], "step_failures": len(step["failures"]),
           "initial_ok": step["initial_ok"],
           "group_abelian": bool(np.array_equal(table, table.T)),
           "coordinates (s, c) per element": [tuple(int(v) for v in r) for r in coords],
           "convention": convention, "bias": bias}
    for key, words in (("exhaustive", W), ("random", R)):
        truth = prefix_products(table, words, convention)
        sig, z = agl_layer_states(coords, words, bias=bias)
        got = agl_decode(coords, sig, z)
        out[f"{key}_prefixes"] = int(truth.size)
        out[f"{key}_mismatches"] = int(np.count_nonzero(got != truth))
    out["max_abs_z_random"] = float(np.abs(agl_layer_states(coords, R, bias=bias)[1]).max())
    out["words"] = {"exhaustive": f"all {G.order}^{MAX_LEN} words (every prefix: lengths 1..{MAX_LEN})",
                    "random": f"{B} x {RANDOM_LEN}"}
    return out


@claim(
    id="finding.s3_one_restricted_layer",
    title="One restricted layer with a periodic output map tracks S3 exactly at every length",
    source=FINDING("seqtheory (this package): a construction",
                   "bears on [DEPTH] Lemma 3.1 under other readings (fixed initial state, "
                   "periodic readout) and on the S3 experiments (depth.exp.s3_depth)"),
    aliases=("depth.s3_one_restricted_layer",),
    statement=("S3 ≅ AGL(1,3): the restricted layer σ ← s·σ, z ← s·z + c (linear part diag(s, s), "
               "bias (0, c)) followed by the output (σ, z mod 3) computes the S3 prefix product "
               "exactly at every length"),
)
def s3_one_layer(ctx) -> Outcome:
    ev = _evidence(ctx)
    verdict, why = s3_decide(ev)
    return Outcome(
        verdict=verdict,
        key_figure=(f"{ev['exhaustive_mismatches']} wrong of {ev['exhaustive_prefixes']} prefixes "
                    f"(all words ≤ {MAX_LEN}), {ev['random_mismatches']} wrong of "
                    f"{ev['random_prefixes']} (random, length {RANDOM_LEN}); linear parts "
                    f"commute: {ev['linear_parts_commute']}"),
        evidence={**ev, "decision": why},
        notes=("Every permutation of Z/3 is affine, so S3 ≅ AGL(1,3); the isomorphism is found and "
               "verified on the full Cayley table (coordinates in evidence). The layer's state "
               "(σ, z) is the affine map u ↦ σu + z of the prefix product (left convention, "
               "g_t = x_t·g_{t−1}), so the output is exact at every length by induction; the "
               "exhaustive and random checks confirm the implementation. The induction is the certificate "
               f"the rule requires: the initial state is the identity's coordinates and all "
               f"{ev['step_transitions']} (state, token) transitions, reduced mod 3, land on the "
               f"product's coordinates ({counted(ev['step_failures'], 'failure')}). The linear parts "
               "diag(s, s) commute, the affine maps do not (affine_maps_commute in evidence): a "
               "restricted layer is not an abelian one. The output map (σ, z mod 3) is periodic, "
               "not a linear projection: with the paper's linear readout P no restricted layer "
               "reproduces S3's permutation action from every initial state (depth.lemma3.1, "
               "exact certificate), so this finding bears on [DEPTH] only under other readings "
               "(a periodic readout; the word problem's labels). S3 acts by permutation matrices "
               "of determinant −1 (its transpositions), which are not time-one maps of any real "
               "flow h' = A(x)h: S3 is a discrete system with no real generators and no commutator "
               "mass ‖Ω2‖, so it bears on no statement in ‖Ω2‖ (depth.thm3.2). The depth-2 "
               "requirement of depth.exp.s3_depth applies to abelian (no-bias) layers, not to "
               "Mamba/AUSSM-style restricted ones read out periodically."),
    )


@s3_one_layer.decision_rule
def s3_decide(ev: dict) -> tuple[Verdict, str]:
    """Decision rule of ``finding.s3_one_restricted_layer`` (pure): inconclusive if the layer is
    not restricted (linear parts do not commute); refuted if some prefix is wrong on the
    exhaustive or the random words; confirmed ("at every length") iff no prefix is wrong *and*
    the inductive step holds exactly (``step_failures == 0``, ``initial_ok``): the certificate
    for every length; without it, supported (exact on the words checked only). ``ValueError``
    for counts that are not non-negative ints; inconclusive when either word set checked no
    prefix."""
    counts = ("exhaustive_prefixes", "random_prefixes", "exhaustive_mismatches",
              "random_mismatches", "step_failures")
    for key in counts:
        v = ev[key]
        if not isinstance(v, int) or isinstance(v, bool) or v < 0:
            raise ValueError(f"evidence[{key!r}] must be an int >= 0, got {v!r}")
    if not (ev["exhaustive_prefixes"] and ev["random_prefixes"]):
        return Verdict.INCONCLUSIVE, "no prefix checked on the exhaustive or on the random words"
    if not ev["linear_parts_commute"]:
        return Verdict.INCONCLUSIVE, "the layer is not restricted: its linear parts do not commute"
    bad = ev["exhaustive_mismatches"] + ev["random_mismatches"]
    if bad:
        return Verdict.REFUTED, (f"{ev['exhaustive_mismatches']} exhaustive and "
                                 f"{ev['random_mismatches']} random prefixes wrong")
    exact = (f"all {ev['exhaustive_prefixes']} exhaustive and {ev['random_prefixes']} random "
             "prefixes exact")
    if ev["step_failures"] or not ev["initial_ok"]:
        return Verdict.SUPPORTED, (f"{exact}, but the inductive step fails "
                                   f"({ev['step_failures']} transitions, initial state ok: "
                                   f"{ev['initial_ok']}): no certificate for every length")
    return Verdict.CONFIRMED, (f"{exact}; every length by induction (all {ev['step_transitions']} "
                               "transitions exact)")


@s3_one_layer.control
def _s3_control(ctx) -> ControlOutcome:
    """Wrong variants through :func:`s3_decide`: (a) the bias dropped (a purely abelian layer
    σ ← s·σ, z ← s·z); (b) the labels taken in the right convention, which this layer does not
    compute. Both must be refuted."""
    no_bias = _evidence(ctx, bias=False)
    right = _evidence(ctx, convention="right")
    v_a, why_a = s3_decide(no_bias)
    v_b, why_b = s3_decide(right)
    return ControlOutcome(
        rejected=v_a is Verdict.REFUTED and v_b is Verdict.REFUTED,
        variant="bias dropped (abelian layer); right-convention labels",
        reason=f"no bias: {v_a.value} ({why_a}) | right convention: {v_b.value} ({why_b})")

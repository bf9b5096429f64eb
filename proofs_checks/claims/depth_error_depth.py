"""[DEPTH] (Heo et al., arXiv:2603.05573), abstract and Corollary 3.6: at a fixed small ε the error
of an abelian model on a non-solvable target "diminishes exponentially as the depth increases".

Claim ``depth.error_falls_with_depth``: the statement of the abstract, on the construction behind
the paper's error bound (the nilpotentization of Corollary 3.6: a depth-k abelian cascade realising
the free nilpotent group of the class its depth allows). Experiment: built depth-k cascades
(:func:`seqtheory.numerics.cascade_local_error.cascade_error_at`; linear coupling realises class k,
polynomial coupling class ``c_k(n)``), run token by token with their output map on a fixed word,
against the exact product ``exp(εA_{x_T}) ⋯ exp(εA_{x_1})`` of non-solvable targets (the so(3)
generators of the A5 rotations, a random gl3 on 3 letters; full profile adds sl2), at the fixed
ε = :data:`EPS`. Decision: :func:`error_depth_decide`.
"""
from __future__ import annotations

from fractions import Fraction

from seqtheory.numerics.cascade_local_error import cascade_error_at
from seqtheory.numerics.local_error import target_generators
from seqtheory.theory._messages import counted

from ..registry import DEPTH, ControlOutcome, Outcome, Verdict, claim, finite_reals

#: The fixed ε of the statement (small: the local regime of the targets here, whose generators
#: have norms of order 1).
EPS = Fraction(1, 64)
#: Each extra layer must divide the error by at least 1/FALL_MAX for an exponential fall.
FALL_MAX = 0.5

_W2 = (0, 1, 1, 0, 1, 0, 0)
_W3 = (0, 1, 2, 1, 0, 2, 2, 1)


def _cases(ctx) -> list[tuple[str, list, tuple, dict]]:
    """(target, generators, word, {coupling: depths})."""
    q = ctx.quick
    cases = [("so(3), A5 rotation generators", target_generators("so3_a5"), _W2,
              {"linear": (1, 2, 3) if q else (1, 2, 3, 4), "polynomial": (1, 2) if q else (1, 2, 3)}),
             ("random gl3, 3 letters", target_generators(
                 "gl_random", seed=ctx.numpy_seed("error-depth-gl3"), n_letters=3), _W3,
              {"linear": (1, 2, 3), "polynomial": (1, 2)})]
    if not q:
        cases.append(("sl2 (E, F)", target_generators("sl2"), _W2,
                      {"linear": (1, 2, 3, 4), "polynomial": (1, 2)}))
    return cases


def error_depth_rows(ctx, **variant) -> list[dict]:
    """One row per (target, coupling, depth): the built cascade's error at :data:`EPS`.
    ``variant``: ``reverse_input`` / ``drop_top_layer`` (wrong variants, depths ≥ 2)."""
    rows = []
    for label, gens, word, plan in _cases(ctx):
        for coupling, depths in plan.items():
            for k in depths:
                if variant.get("drop_top_layer") and k < 2:
                    r = cascade_error_at(gens, word, k, coupling, EPS)
                else:
                    r = cascade_error_at(gens, word, k, coupling, EPS, **variant)
                rows.append({"target": label, **r})
    return rows


_error_depth_claim = claim(
    id="depth.error_falls_with_depth",
    title="At fixed small ε, the error of the abelian construction falls exponentially with depth",
    source=DEPTH("Abstract (\"error diminishes exponentially as the depth increases\"); "
                 "Corollary 3.6"),
    statement=("at a fixed small ε, the local error of a depth-k abelian model on a non-solvable "
               "target (the nilpotentization construction behind the paper's error bound) "
               "diminishes exponentially as the depth k increases"),
)


@_error_depth_claim
def error_falls_with_depth(ctx) -> Outcome:
    rows = error_depth_rows(ctx)
    verdict, why = error_depth_decide(rows)
    groups = {}
    for r in rows:
        groups.setdefault((r["target"], r["coupling"]), []).append(r)
    per = "; ".join(f"{t}, {c}: " + ", ".join(f"k={r['depth']} {r['error']:.2e}" for r in g)
                    for (t, c), g in groups.items())
    return Outcome(
        verdict=verdict,
        key_figure=f"error at ε = {EPS} of built depth-k cascades: {per}",
        evidence={"decision": why, "eps": str(EPS), "fall_max": FALL_MAX},
        tables={"errors": [{k: v for k, v in r.items() if k != "variant"} for r in rows]},
        notes=("The statement of the abstract, read on the construction behind the paper's error "
               "bound: a depth-k abelian cascade realising the free nilpotent group of class k "
               "(linear coupling) or c_k(n) (polynomial coupling), whose output matches the "
               "target's product up to the degree-c part of its logarithm, so its local error is "
               "≈ ε^(c+1)‖Z_(c+1)‖. At a fixed ε each extra layer raises c, so the error falls at "
               "least geometrically with k (polynomial coupling: faster, c_k(n) grows like 2^k). "
               f"Rule: at ε = {EPS}, each extra layer must divide the error by at least "
               f"{1 / FALL_MAX:g} (an exponential envelope on the depths run); an error that does "
               "not fall refutes the statement for this construction; the construction is "
               "checked exactly (its state is the free-nilpotent group element of the word, its "
               "layers are translations). Finitely many depths and targets: supported at best. "
               "Related: depth.cor3.6 (the exponents). Decision: " + why),
    )


@error_falls_with_depth.decision_rule
def error_depth_decide(rows: list[dict], fall_max: float = FALL_MAX) -> tuple[Verdict, str]:
    """Decision rule of ``depth.error_falls_with_depth`` (pure). ``rows``: per built cascade
    ``{"target", "coupling", "depth", "error"`` (finite, ≥ 0; ``ValueError`` otherwise),
    ``"exact_group_element", "translations"}``, all at one fixed ε. Inconclusive if a cascade
    fails its exact checks (the construction is not understood) or no (target, coupling) has two
    depths; refuted if some depth-(k+1) error is not below the depth-k error of the same target
    and coupling (the error does not fall); supported if every extra layer divides the error by
    at least ``1/fall_max`` (an exponential envelope on the depths run; finitely many depths);
    else inconclusive (it falls, more slowly than that envelope)."""
    for i, r in enumerate(rows):
        if not (finite_reals(r["error"]) and r["error"] >= 0):
            raise ValueError(f"rows[{i}]: error must be a finite number >= 0, got {r['error']!r}")
    broken = [f"{r['target']}, {r['coupling']}, depth {r['depth']}" for r in rows
              if not (r["exact_group_element"] and r["translations"])]
    if broken:
        return Verdict.INCONCLUSIVE, ("the built cascades fail their exact checks at "
                                      + "; ".join(broken))
    groups: dict = {}
    for r in rows:
        groups.setdefault((r["target"], r["coupling"]), []).append(r)
    steps = [(key, a, b) for key, g in groups.items()
             for a, b in zip(sorted(g, key=lambda r: r["depth"]),
                             sorted(g, key=lambda r: r["depth"])[1:])]
    if not steps:
        return Verdict.INCONCLUSIVE, "no target and coupling has two depths"
    flat = [f"{t}, {c}: depth {a['depth']} {a['error']:.3g} → depth {b['depth']} {b['error']:.3g}"
            for (t, c), a, b in steps if b["error"] >= a["error"]]
    if flat:
        return Verdict.REFUTED, "the error does not fall with depth: " + "; ".join(flat)
    slow = [f"{t}, {c}: depth {a['depth']} → {b['depth']} ratio {b['error'] / a['error']:.3g}"
            for (t, c), a, b in steps if b["error"] > fall_max * a["error"]]
    worst = max(b["error"] / a["error"] if a["error"] else 0.0 for _, a, b in steps)
    if slow:
        return Verdict.INCONCLUSIVE, ("the error falls with depth, but slower than a factor "
                                      f"{1 / fall_max:g} per layer: " + "; ".join(slow))
    return Verdict.SUPPORTED, (f"every extra layer divides the error (largest ratio {worst:.3g} ≤ "
                               f"{fall_max:g}) on {counted(len(groups), 'target-coupling pair')}, "
                               f"{counted(len(steps), 'step')} in depth")


@error_falls_with_depth.control
def _error_depth_control(ctx) -> ControlOutcome:
    """Wrong variants through the same rule, each a way the statement could fail: the cascades
    fed the reversed word (the right-multiplication convention: every even term of the logarithm
    flips, so depth cannot help) and a depth-k cascade that is really depth k − 1 (its top layer
    dropped). Neither may be supported."""
    variants = {"reversed input": error_depth_rows(ctx, reverse_input=True),
                "top layer dropped": error_depth_rows(ctx, drop_top_layer=True)}
    out = {n: error_depth_decide(rows) for n, rows in variants.items()}
    return ControlOutcome(
        rejected=all(v is not Verdict.SUPPORTED for v, _ in out.values()),
        variant="; ".join(variants),
        reason=" | ".join(f"{n}: {v.value} ({w})" for n, (v, w) in out.items()),
        evidence={n: v.value for n, (v, _) in out.items()})

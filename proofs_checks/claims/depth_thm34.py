"""[DEPTH] (Heo et al., arXiv:2603.05573), Theorem 3.4 in its finite-group form: abelian cascades
for finite solvable groups.

Claim ``depth.thm3.4``: the word problem of a finite solvable group of derived length k is
tracked by a k-layer cascade of abelian layers (cyclic counters). Experiment: the cascade built
exactly (:mod:`seqtheory.numerics.group_cascades`) for each group of :data:`TASK_GROUPS`, run on
all short words and random long ones, exact and float; A5 (not solvable) must admit no cascade.
Not a check of the Lie-algebraic form (:data:`THM34_LIE_FORM`). Decision: :func:`thm34_decide`.
Theorem 3.2 is in :mod:`.depth_thm32`, Proposition 3.7 in :mod:`.depth_prop37`, Corollary 3.8 in
:mod:`.depth_cor38`.
"""
from __future__ import annotations

import numpy as np

from seqtheory.numerics.group_cascades import (all_words, build_cascade, cascade_for_group,
                                               prefix_products)
from seqtheory.theory.groups import FiniteGroup
from seqtheory.theory._messages import counted

from ..registry import DEPTH, ControlOutcome, Outcome, Verdict, claim


TASK_GROUPS = ("C2", "C3", "D8", "H3", "S3", "A4", "S4", "Q8", "F21")


def _cascade_agrees(cascade, table, words, convention="left") -> tuple[bool, float]:
    truth = prefix_products(table, words, convention)
    ok = True
    frac = 0.0
    for mode in ("exact", "float"):
        got = cascade.run(words, mode)
        bad = float(np.mean(got != truth))
        frac = max(frac, bad)
        ok = ok and bad == 0.0
    return ok, frac


def _thm34_rows(ctx) -> list[dict]:
    rows = []
    for name in TASK_GROUPS:
        G = FiniteGroup.named(name)
        L = (6 if G.order <= 8 else 4) if not ctx.quick else (4 if G.order <= 8 else 3)
        C = cascade_for_group(G)
        Cr = cascade_for_group(G, "right")
        W = all_words(G.order, L)
        ok_all, _ = _cascade_agrees(C, G.cayley_table(), W)
        ok_right, _ = _cascade_agrees(Cr, G.cayley_table(), W, "right")
        B, T = (10_000, 256) if not ctx.quick else (300, 64)
        R = np.random.default_rng(ctx.numpy_seed(f"thm34-{name}")).integers(0, G.order, (B, T))
        ok_rand, _ = _cascade_agrees(C, G.cayley_table(), R)
        # induction certificate: the cascade is a deterministic automaton on state tuples; if the
        # number of state tuples equals |G| and all words of length <= 2 decode correctly, the
        # decoding is a bijection and every (state, token) transition is verified: all lengths.
        n_states = int(np.prod([int(np.prod(L_.orders)) for L_ in C.layers]))
        certificate = (n_states == G.order and L >= 2 and ok_all and
                       all(int(np.prod(L_.orders)) == L_.quotient_order for L_ in C.layers))
        rows.append({"group": name, "order": G.order, "derived_series": list(
            G.derived_series().orders), "derived_length": G.derived_length, "layers": C.depth,
            "cyclic_counters": [L_.orders for L_ in C.layers], "state_dim": C.state_dim,
            "all_words_len": L, "n_all_words": int(W.shape[0]), "all_words_ok": ok_all,
            "right_convention_ok": ok_right, "random_words": f"{B}x{T}", "random_ok": ok_rand,
            "state_tuples": n_states, "all_lengths_by_induction": certificate,
            # any cascade of finite abelian counters tracking G has at least this many layers
            # (its transition group lies in an iterated wreath product of abelian groups, whose
            # derived length is at most the number of layers)
            "certified_min_layers": G.derived_length})
    return rows


#: What the Lie-algebraic form of Theorem 3.4 states beyond the finite-group form checked here.
THM34_LIE_FORM = (
    "The check is the finite-group (discrete) form of Theorem 3.4: word problems of finite "
    "solvable groups, tracked by cascades of finite cyclic counters. The Lie-algebraic form "
    "(a controlled system h' = A(x(t)) h whose generators span a solvable Lie algebra of derived "
    "length k is simulated by k abelian layers plus a smooth output map) would add continuous "
    "time and inputs, real- or complex-valued states of a connected Lie group (not finitely many "
    "states), the smooth output map, and every solvable Lie algebra rather than the finitely many "
    "groups listed; none of that is tested by this check, and its verdict is not a verdict on the "
    "Lie-algebraic theorem.")

_thm34_claim = claim(
    id="depth.thm3.4",
    title="k abelian layers track a finite solvable group of derived length k "
          "(finite-group form of Theorem 3.4)",
    source=DEPTH("Theorem 3.4"),
    statement=("Theorem 3.4 (a Lie algebra / system of derived length k is simulated by k abelian "
               "layers plus a smooth output map), checked in its finite-group (discrete) form: "
               "the word problem of a finite solvable group of derived length k is tracked by a "
               "k-layer cascade of abelian layers (cyclic counters). Not a check of the "
               "Lie-algebraic form"),
)


@_thm34_claim
def thm34(ctx) -> Outcome:
    rows = _thm34_rows(ctx)
    A5 = FiniteGroup.named("A5")
    try:
        cascade_for_group(A5)
        a5_msg, a5_ok = "a cascade was built (unexpected)", False
    except ValueError as exc:
        a5_msg, a5_ok = str(exc), True
    verdict, why = thm34_decide(rows, a5_ok)
    return Outcome(
        verdict=verdict,
        key_figure=(f"{sum(r['all_words_ok'] and r['random_ok'] for r in rows)}/{counted(len(rows), 'group')} "
                    f"tracked exactly with k = derived length layers (all lengths by induction: "
                    f"{sum(r['all_lengths_by_induction'] for r in rows)}/{len(rows)}); A5: "
                    f"{'no cascade (perfect)' if a5_ok else 'unexpected'}"),
        evidence={"decision": why, "A5_derived_series": list(A5.derived_series().orders),
                  "A5": a5_msg, "form_checked": "finite groups (discrete form)",
                  "lie_algebraic_form": THM34_LIE_FORM,
                  "groups": [r["group"] for r in rows],
                  "convention": "left (g_t = x_t g_{t-1}); right checked too"},
        tables={"cascades": rows},
        notes=("Layer i counts the image of the prefix product in G^(i)/G^(i+1) (cyclic counters "
               "= unit-modulus complex-diagonal transitions, simulated both as exact integers mod "
               "m and as float phases with a cumulative product); its input is the token of the "
               "layer below conjugated by the transversal: y' = s(q_t)^{-1} y s(q_{t-1}). "
               "Exhaustive proof for all lengths: the cascade is a deterministic automaton on "
               "state tuples; there are exactly |G| tuples and every word of length ≤ 2 decodes "
               "correctly, so decoding is a bijection and every (state, token) transition is "
               "verified (induction on the length). Necessity of k holds for cascades of finite "
               "abelian counters (their wreath product has derived length ≤ k); it does NOT hold "
               "for bounded-length word problems with unbounded-precision real states (see "
               "depth.prop3.7: two linear-coupled abelian layers separate all words of length T). "
               "A5 is perfect: no cascade of finite abelian counters tracks it. " + THM34_LIE_FORM
               + " Decision rule: " + why))


@thm34.decision_rule
def thm34_decide(rows: list[dict], a5_has_no_cascade: bool) -> tuple[Verdict, str]:
    """Decision rule of ``depth.thm3.4`` (pure). ``rows``: per group, whether its cascade of
    ``layers`` abelian layers tracks the word problem on all short words, on random long words
    and (where given) in the right convention, whether the all-lengths certificate holds, and the
    derived length. The statement is universal (every finite solvable group), so a finite list of
    certified groups makes it ``supported``, never ``confirmed``: supported iff every row holds
    with ``layers == derived_length`` (each group certified for all lengths) and no cascade
    exists for A5, naming the groups and their number, and saying that it covers the
    finite-group proxy only; refuted when a row's ``certified_min_layers`` (a proven lower bound
    on the layers of any abelian cascade tracking the group) exceeds its derived length (k
    layers cannot suffice); otherwise inconclusive (the construction, not the theorem, fails),
    naming the failing groups."""
    too_few = [r["group"] for r in rows if r.get("certified_min_layers", 0) > r["derived_length"]]
    if too_few:
        return Verdict.REFUTED, (f"no cascade of derived-length many abelian layers can track "
                                 f"{', '.join(too_few)}: a proven lower bound needs more layers")
    bad = [r["group"] for r in rows
           if not (r["all_words_ok"] and r["random_ok"] and r.get("right_convention_ok", True)
                   and r["all_lengths_by_induction"] and r["layers"] == r["derived_length"])]
    if bad or not a5_has_no_cascade or not rows:
        return Verdict.INCONCLUSIVE, (f"cascades with k = derived length fail for {bad}"
                                      + ("" if a5_has_no_cascade else "; a cascade was built "
                                         "for the perfect group A5"))
    return Verdict.SUPPORTED, (f"finite-group proxy only (not the Lie-algebraic form): "
                               f"{counted(len(rows), 'group')} "
                               f"({', '.join(r['group'] for r in rows)}): each tracked exactly by "
                               "k = derived length abelian layers, certified for all word lengths "
                               "(automaton induction); none for A5. Finitely many instances of a "
                               "statement about every solvable group: supported")


def _variant_row(group: str, cascade, table, derived_length: int) -> dict:
    ok, frac = _cascade_agrees(cascade, table, all_words(len(table), 3))
    return {"group": group, "all_words_ok": ok, "random_ok": ok, "all_lengths_by_induction": ok,
            "layers": derived_length, "derived_length": derived_length, "wrong_prefixes": frac}


@thm34.control
def _thm34_control(ctx) -> ControlOutcome:
    """Wrong variants through :func:`thm34_decide`: (a) each of S3, D8, S4 given one layer fewer
    than its derived length (claimed k = derived length); (b) the C6 cascade on S3 words. Both
    must not be supported. Also a perturbed S3 table must be refused by the cascade builder."""
    rows = []
    for name in ("S3", "D8", "S4"):
        G = FiniteGroup.named(name)
        C = cascade_for_group(G).truncated(G.derived_length - 1)
        rows.append(_variant_row(f"{name} ({counted(G.derived_length - 1, 'layer')})", C, G.cayley_table(),
                                 G.derived_length))
    v_short, why_short = thm34_decide(rows, True)
    S3 = FiniteGroup.named("S3")
    T = np.array(S3.cayley_table(), dtype=np.int64)
    C6 = FiniteGroup.named("C6") if _has_named("C6") else FiniteGroup.cyclic(6)
    c6 = _variant_row("S3 via the C6 cascade", cascade_for_group(C6), T, 2)
    v_c6, why_c6 = thm34_decide([c6], True)
    bad = T.copy()
    bad[1, [0, 1]] = bad[1, [1, 0]]
    try:
        build_cascade(bad, [range(6), [S3.identity_index]])
        refused = "perturbed S3 table accepted"
    except ValueError as exc:
        refused = f"perturbed S3 table refused: {exc}"
    return ControlOutcome(
        rejected=(v_short is not Verdict.SUPPORTED and v_c6 is not Verdict.SUPPORTED
                  and refused.startswith("perturbed S3 table refused")),
        variant="one layer too few; a wrong group (C6 for S3); a perturbed table",
        reason=(f"one layer too few: {v_short.value} ({why_short}; wrong prefixes "
                + ", ".join(f"{r['group']}: {r['wrong_prefixes']:.1%}" for r in rows)
                + f") | C6 for S3: {v_c6.value} ({c6['wrong_prefixes']:.1%} wrong) | {refused}"))


def _has_named(name: str) -> bool:
    try:
        FiniteGroup.named(name)
        return True
    except ValueError:
        return False

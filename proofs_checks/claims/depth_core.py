"""Central depth claims of [DEPTH] (Heo et al., arXiv:2603.05573): Theorem 3.4, Proposition 3.7,
Corollary 3.8 (v1 statements as known; v2 corrected an index affecting Cor 3.6, Prop 3.7 and
Fig 2 and its text is unknown, so each check measures the true quantity and compares it with
every candidate form). Theorem 3.2 lives in :mod:`.depth_thm32`, Corollary 3.6 in
:mod:`.depth_cor36`, the S3 construction in :mod:`.depth_s3`.

* ``depth.thm3.4``  -- abelian cascades for solvable groups (:mod:`numerics.group_cascades`);
  rule :func:`thm34_decide`.
* ``depth.prop3.7`` -- least depth for word problems of length T (:mod:`numerics.separation`);
  rule :func:`prop37_decision`.
* ``depth.cor3.8``  -- state size of the construction (Witt / Lyndon counts); rule
  :func:`cor38_decide`.
"""
from __future__ import annotations

import math

import numpy as np

from seqtheory.theory._messages import counted
from seqtheory.numerics.group_cascades import (all_words, build_cascade, cascade_for_group,
                                               prefix_products)
from seqtheory.numerics.separation import (colliding_pair, least_depth_for_class,
                                           least_separating_class, max_class_for_depth)
from seqtheory.theory.groups import FiniteGroup

from ..figures import new_figure, save_figure
from ..registry import DEPTH, ControlOutcome, Outcome, Verdict, claim


# ============================================================================ Theorem 3.4
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
            "state_tuples": n_states, "all_lengths_by_induction": certificate})
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
    exists for A5, naming the groups and their number; otherwise inconclusive (the
    construction, not the theorem, fails), naming the failing groups."""
    bad = [r["group"] for r in rows
           if not (r["all_words_ok"] and r["random_ok"] and r.get("right_convention_ok", True)
                   and r["all_lengths_by_induction"] and r["layers"] == r["derived_length"])]
    if bad or not a5_has_no_cascade or not rows:
        return Verdict.INCONCLUSIVE, (f"cascades with k = derived length fail for {bad}"
                                      + ("" if a5_has_no_cascade else "; a cascade was built "
                                         "for the perfect group A5"))
    return Verdict.SUPPORTED, (f"finite-group form on {counted(len(rows), 'group')} "
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


# ============================================================================ Proposition 3.7
def _candidates(T: int) -> dict[str, int]:
    lg = math.log2(T)
    return {"ceil(log2 T)+1": math.ceil(lg) + 1, "ceil(log2 T)": math.ceil(lg),
            "floor(log2 T)+1": math.floor(lg) + 1}


def _prop37_rows(ctx) -> list[dict]:
    rows = []
    for n, Tmax in ((2, 10 if ctx.quick else 14), (3, 6 if ctx.quick else 9)):
        for T in range(1, Tmax + 1):
            c = least_separating_class(n, T)
            k = least_depth_for_class(n, c)
            pair = colliding_pair(n, T, c - 1) if c >= 1 else None
            row = {"n": n, "T": T, "c*(T)": c, "nilpotent_construction_depth": k,
                   "witness_at_c*-1": "".join("abc"[i] for i in pair[0]) + " ~ " +
                   "".join("abc"[i] for i in pair[1]) if pair else ""}
            row.update(_candidates(T))
            rows.append(row)
    return rows


def _series_rows(ctx) -> list[dict]:
    from seqtheory.theory.free_lie import free_nilpotent

    out = []
    for n, cmax in ((2, 7 if ctx.quick else 8), (3, 5 if ctx.quick else 7)):
        for c in range(1, cmax + 1):
            L = free_nilpotent(n, c)
            ds = L.derived_series()
            out.append({"n": n, "c": c, "derived_dims": ds.dims, "derived_length": L.derived_length,
                        "ceil(log2(c+1))": math.ceil(math.log2(c + 1)),
                        "from c_k(n)": least_depth_for_class(n, c)})
    return out


def two_layer_cascade_states(n: int, T: int, layers: int = 2) -> dict:
    """Exhaustive, exact check that a 2-layer linear-coupled abelian cascade separates all words
    of length 1..T over ``n`` letters (so it simulates every word problem of length ≤ T with a
    lookup output map).

    Layer 1 (1-D diagonal): ``h1 ← 2^(R^x) h1``, ``h1_0 = 1`` (R = T+1), so ``h1 = 2^code`` with
    ``code = Σ_m count_m R^m`` (injective in the letter counts). Layer 2 (n-D, identity
    transition, input linear in layer 1): ``h2 ← h2 + e_x h1`` (h1 before the update). The whole
    system is ``M(x) = [[2^(R^x), 0], [e_x, I_n]]``: block lower-triangular with commuting
    diagonal blocks, Lie algebra inside ``{[[α, 0], [v, 0]]}`` (derived length ≤ 2, computed
    exactly below). ``h2_x`` is a sum of distinct powers of 2 (the codes of the occurrences of x
    differ), so (h1, h2) determines the count vector before every occurrence, hence the word.
    The enumeration checks distinctness exactly (Python integers) instead of relying on this
    argument. ``layers=1`` drops layer 2 (a negative control: a single diagonal layer is
    order-free and must collide for T ≥ 2). Returns counts, the number of distinct states, the
    largest state size in bits and the derived length of the ambient algebra."""
    if layers not in (1, 2):
        raise ValueError(f"layers must be 1 or 2, got {layers!r}")
    from seqtheory.theory.lie import LieAlgebra

    R = T + 1
    mult = [1 << (R ** m) for m in range(n)]          # 2^(R^m) as an exact integer
    level = [(1, (0,) * (n if layers == 2 else 0))]
    seen: set = set()
    total, bits = 0, 0
    for _ in range(T):
        nxt = []
        for h1, h2 in level:
            for x in range(n):
                st = (h1 * mult[x], h2[:x] + (h2[x] + h1,) + h2[x + 1:] if layers == 2 else ())
                nxt.append(st)
                seen.add(st)
                bits = max(bits, st[0].bit_length())
        total += len(nxt)
        level = nxt
    basis = []
    for x in range(n + 1):
        M = [[0] * (n + 1) for _ in range(n + 1)]
        if x == 0:
            M[0][0] = 1
        else:
            M[x][0] = 1
        basis.append(M)
    ambient = LieAlgebra.generated_by(basis)
    return {"layers": layers, "n": n, "T": T, "words": total, "distinct_states": len(seen),
            "separates_all": len(seen) == total, "state_dim": 1 + (n if layers == 2 else 0),
            "max_state_bits": bits,
            "ambient_derived_length": ambient.derived_length}


_prop37_claim = claim(
    id="depth.prop3.7",
    title="Word problems of length T need at most ⌈log2 T⌉+1 abelian layers",
    source=DEPTH("Proposition 3.7"),
    statement=("a word problem of length ≤ T is simulated by an abelian deep model with "
               "≤ ⌈log2 T⌉ + 1 layers (v1; index corrected in v2)"),
)


@_prop37_claim
def prop37(ctx) -> Outcome:
    series = _series_rows(ctx)
    series_ok = all(r["derived_length"] == r["from c_k(n)"] for r in series)
    rows = _prop37_rows(ctx)
    tmax = {n: max(r["T"] for r in rows if r["n"] == n) for n in (2, 3)}
    casc = {n: two_layer_cascade_states(n, tmax[n]) for n in (2, 3)}
    one = {n: two_layer_cascade_states(n, tmax[n], layers=1) for n in (2, 3)}
    cascade_ok = all(casc[n]["separates_all"] and casc[n]["ambient_derived_length"] == 2
                     and not one[n]["separates_all"] for n in (2, 3))
    for r in rows:
        r["lower_depth"] = 1 if r["T"] == 1 else 2
        two = 2 if cascade_ok else r["nilpotent_construction_depth"]
        r["least_depth"] = min(two, r["nilpotent_construction_depth"])
    main = "ceil(log2 T)+1"
    holds = {k: all(r["least_depth"] <= r[k] for r in rows) for k in _candidates(2)}
    tight = {k: [r["T"] for r in rows if r["least_depth"] == r[k] == r["lower_depth"]
                 and r["n"] == 2] for k in _candidates(2)}
    violations = {k: [(r["n"], r["T"]) for r in rows if r["lower_depth"] > r[k]]
                  for k in _candidates(2)}
    verdict = prop37_decision(rows, main) if series_ok else Verdict.INCONCLUSIVE
    figures = _prop37_figure(ctx, rows)
    last = {n: max((r for r in rows if r["n"] == n), key=lambda r: r["T"]) for n in (2, 3)}
    nil_holds = all(r["nilpotent_construction_depth"] <= r[main] for r in rows)
    failing = [k for k in _candidates(2) if violations[k]]
    return Outcome(
        verdict=verdict,
        key_figure=("least depth = 2 for 2 ≤ T (exact: 2-layer cascade separates all words, "
                    f"n=2 to T={tmax[2]}, n=3 to T={tmax[3]}; 1 layer is order-free) vs "
                    + ", ".join(f"⌈log2 T⌉+1 = {last[n][main]} at n={n}, T={last[n]['T']}"
                                for n in (2, 3))
                    + f"; bound holds: {holds[main]}, tight only at T ∈ {tight[main]}; "
                      "free-nilpotent construction depth "
                    + ", ".join(f"{last[n]['nilpotent_construction_depth']} (n={n})" for n in (2, 3))),
        evidence={"bound_holds": holds, "tight_at_T_n2": tight, "violations": violations,
                  "series_consistent_with_c_k": series_ok, "two_layer_cascade": casc,
                  "one_layer_variant": one, "two_layer_cascade_verified": cascade_ok,
                  "c_k(n)": {f"n={n}": [max_class_for_depth(n, k) for k in (1, 2, 3)]
                             for n in (2, 3)}},
        tables={"least_depth": rows, "two_layer_cascade": [casc[2], casc[3], one[2], one[3]],
                "free_nilpotent_derived_series": series},
        figures=figures,
        notes=("Two constructions, both exact. (1) Free-nilpotent truncation (SPEC §3.1 (b)): "
               "c*(T) = least class whose truncated log-signature separates all n^T words "
               "(exhaustive, exact integers; witness pair at c*−1); its depth is the derived "
               "length of N(n, c*(T)) (column nilpotent_construction_depth), within ⌈log2 T⌉+1: "
               f"{nil_holds}. (2) A 2-layer linear-coupled abelian cascade (1-D diagonal layer "
               "h1 ← 2^(R^x) h1 feeding an identity-transition layer h2 ← h2 + e_x h1; Lie algebra "
               f"of derived length {casc[2]['ambient_derived_length']}) gives distinct exact states "
               f"to all {casc[2]['words']} (n=2) and {casc[3]['words']} (n=3) words of length "
               "1..T, so with a lookup output map it simulates every word problem of length ≤ T "
               f"with 2 layers, state dimension n+1 — at the price of states up to "
               f"{casc[3]['max_state_bits']} bits (exponential precision in T). One diagonal layer "
               "is order-free (ab ~ ba; the 1-layer variant collides: "
               f"{not one[2]['separates_all']}), so the least depth is exactly 2 for T ≥ 2 (1 at "
               "T = 1) under unbounded precision: ⌈log2 T⌉+1 holds but is tight only at "
               f"T ∈ {tight[main]}. Candidate bounds violated somewhere: {failing}. Under bounded "
               "precision the depth/width trade-off is open here; the nilpotent column is the "
               "relevant one for constructions with bounded-magnitude states. Trained models on "
               "A5 (part c) are in depth.prop3.7.trained."),
    )


@prop37.decision_rule
def prop37_decision(rows: list[dict], key: str) -> Verdict:
    """Decision rule of ``depth.prop3.7`` for the bound named ``key`` (shared with the control).

    Per T, ``lower`` is the proven least depth lower bound (1; 2 for T ≥ 2, since one diagonal
    layer is order-free) and ``upper`` the least depth of a verified construction. Refuted if
    some lower > bound; inconclusive if some upper > bound (the constructions here do not meet it, yet
    it is not contradicted); supported if upper = lower = bound for every T computed (a bound for
    every T, checked exactly on finitely many T: not a certificate for all T); else refined (the
    bound is not tight at some T, shown exactly by the construction there)."""
    if any(r["lower_depth"] > r[key] for r in rows):
        return Verdict.REFUTED
    if any(r["least_depth"] > r[key] for r in rows):
        return Verdict.INCONCLUSIVE
    if all(r["least_depth"] == r["lower_depth"] == r[key] for r in rows):
        return Verdict.SUPPORTED
    return Verdict.REFINED


def _prop37_figure(ctx, rows):
    fig, ax = new_figure(figsize=(6, 4))
    for n, mk in ((2, "o-"), (3, "s-")):
        rs = [r for r in rows if r["n"] == n]
        ax.plot([r["T"] for r in rs], [r["least_depth"] for r in rs], mk, label=f"least depth, n={n}")
        ax.plot([r["T"] for r in rs], [r["nilpotent_construction_depth"] for r in rs], mk[0] + ":",
                mfc="none", label=f"free-nilpotent construction, n={n}")
    Ts = sorted({r["T"] for r in rows})
    for key, st in (("ceil(log2 T)+1", "--"), ("ceil(log2 T)", ":"), ("floor(log2 T)+1", "-.")):
        ax.step(Ts, [_candidates(T)[key] for T in Ts], st, where="mid", label=key)
    ax.set_xlabel("T")
    ax.set_ylabel("layers")
    ax.legend(fontsize=7)
    ax.set_title("prop3.7: least abelian depth separating all words of length T\n"
                 "(filled: exact 2-layer cascade; open: free-nilpotent truncation)", fontsize=8)
    return save_figure(fig, ctx, "prop37_least_depth")


@prop37.control
def _prop37_control(ctx) -> ControlOutcome:
    """Wrong variants through the same logic: (a) class c*(T)−1 claimed separating → a collision
    must be exhibited for every T; (b) the 2-layer cascade with its second layer dropped must
    collide (T ≥ 2); (c) the decision rule applied to the too-small bounds ⌈log2 T⌉ − 1 and
    ⌈log2 T⌉ must refute them (they undercut the proven lower bound)."""
    rows = _prop37_rows(ctx)
    collide = all(colliding_pair(r["n"], r["T"], r["c*(T)"] - 1) is not None for r in rows
                  if r["c*(T)"] >= 2)
    tmax = max(r["T"] for r in rows if r["n"] == 2)
    one = two_layer_cascade_states(2, tmax, layers=1)
    for r in rows:
        r["lower_depth"] = 1 if r["T"] == 1 else 2
        r["least_depth"] = min(2, r["nilpotent_construction_depth"])
        r["ceil(log2 T)-1"] = r["ceil(log2 T)"] - 1
    v_minus = prop37_decision(rows, "ceil(log2 T)-1")
    v_ceil = prop37_decision(rows, "ceil(log2 T)")
    rejected = collide and not one["separates_all"] and v_minus is Verdict.REFUTED and \
        v_ceil is Verdict.REFUTED
    return ControlOutcome(
        rejected=rejected,
        variant=("class c*(T)−1 claimed separating; the cascade with one layer; bounds "
                 "⌈log2 T⌉ − 1 and ⌈log2 T⌉ claimed"),
        reason=(f"collisions found at c*−1 for every T: {collide}; 1-layer variant: "
                f"{one['distinct_states']} distinct states for {counted(one['words'], 'word')}; decision on "
                f"⌈log2 T⌉−1: {v_minus.value}, on ⌈log2 T⌉: {v_ceil.value}"))


# ============================================================================ Corollary 3.8
def _witt_rows(witt=None, max_m: int = 10) -> list[dict]:
    from seqtheory.theory.free_lie import lyndon_words, witt_dimension

    witt = witt or witt_dimension
    rows = []
    for n in (2, 3, 4):
        for m in range(1, (max_m if n == 2 else 7) + 1):
            alphabet = "abcd"[:n]
            rows.append({"n": n, "m": m, "witt": witt(n, m),
                         "lyndon_count": len(lyndon_words(alphabet, m))})
    return rows


_cor38_claim = claim(
    id="depth.cor3.8",
    title="State dimension of the word-problem construction is O(n^T / T)",
    source=DEPTH("Corollary 3.8"),
    statement=("the total state dimension of that construction (the class-T truncation of the "
               "free Lie algebra on n letters, for words of length T) is O(n^T / T)"),
)

#: Growth exponent that separates O(n^T/T) (size/(n^T/T) bounded: exponent 0) from a state of
#: order n^T (size/(n^T/T) ~ T: exponent 1) in :func:`growth_class`.
GROWTH_SPLIT = 0.5


def _cor38_sizes(ns_T: dict[int, int], state_of, name: str, role: str, reading: str,
                 T_min: int = 1) -> list[dict]:
    """One construction's state sizes: per alphabet size n, ``{"T": [...], "size": [...]}`` for
    ``T_min ≤ T ≤ ns_T[n]``, with ``state_of(n, T)`` the size (an exact int)."""
    return [{"construction": name, "role": role, "reading": reading, "n": n,
             "T": list(range(T_min, Tmax + 1)),
             "size": [int(state_of(n, T)) for T in range(T_min, Tmax + 1)]}
            for n, Tmax in ns_T.items()]


def growth_class(T: list[int], size: list[int], n: int) -> dict:
    """Fitted exponent β of ``size/(n^T/T) ~ T^β`` (OLS on log-log over the upper half of the T
    range, 95 % t-interval; :func:`seqtheory.numerics.fits.fit_loglog_slope`) and its class:
    ``"O(n^T/T)"`` if the whole interval lies below :data:`GROWTH_SPLIT` (the ratio does not grow
    like a power of T), ``"not O(n^T/T)"`` if it lies above, ``"undecided"`` otherwise. Pure."""
    from seqtheory.numerics.fits import fit_loglog_slope

    pts = [(t, s * t / n ** t) for t, s in zip(T, size) if t >= max(T) / 2]
    fit = fit_loglog_slope([t for t, _ in pts], [r for _, r in pts])
    cls = ("O(n^T/T)" if fit.ci_high < GROWTH_SPLIT else
           "not O(n^T/T)" if fit.ci_low > GROWTH_SPLIT else "undecided")
    return {"beta": fit.slope, "ci": [fit.ci_low, fit.ci_high], "points": len(pts),
            "T_range": [pts[0][0], pts[-1][0]], "ratio_at_max_T": pts[-1][1], "class": cls}


_READING_VERDICT = {"O(n^T/T)": Verdict.SUPPORTED, "not O(n^T/T)": Verdict.REFUTED,
                    "undecided": Verdict.INCONCLUSIVE}


@_cor38_claim
def cor38(ctx) -> Outcome:
    from seqtheory.theory.free_lie import witt_dimension

    witt = _witt_rows(max_m=10 if ctx.quick else 14)
    cum20 = sum(witt_dimension(2, m) for m in range(1, 21))
    ev = _cor38_evidence(witt, cum20, ctx)
    verdict, why, table = cor38_decide(ev)
    rows = {(r["construction"], r["n"]): r for r in table}
    casc = two_layer_cascade_states(2, 10 if ctx.quick else 14)
    fig, ax = new_figure(figsize=(6, 4))
    for c in ev["constructions"]:
        ax.semilogy(c["T"], [s * t / c["n"] ** t for t, s in zip(c["T"], c["size"])], "o-",
                    ms=3, label=f"{c['construction']}, n={c['n']}")
    ax.set_xlabel("T (word length)")
    ax.set_ylabel("state size / (n^T / T)")
    ax.legend(fontsize=6)
    figures = save_figure(fig, ctx, "cor38_dimensions")
    key = "; ".join(f"{name} n=2: β = {rows[(name, 2)]['beta']:+.3f} "
                    f"[{rows[(name, 2)]['ci'][0]:+.3f}, {rows[(name, 2)]['ci'][1]:+.3f}] "
                    f"({rows[(name, 2)]['class']})" for name in _CONSTRUCTIONS)
    return Outcome(
        verdict=verdict,
        key_figure=key,
        evidence={"decision": why, "witt_equals_lyndon": ev["witt_equals_lyndon"],
                  "cumulative_to_20_n2": cum20, "growth_split": GROWTH_SPLIT,
                  "growth": table, "two_layer_cascade_n2": casc,
                  "sizes": ev["constructions"]},
        tables={"witt_vs_lyndon": witt, "growth_exponents": table},
        figures=figures,
        notes=("Each construction's state size is divided by n^T/T and the exponent β of "
               "ratio ~ T^β is fitted on the upper half of the T range (95 % CI): O(n^T/T) means "
               f"β = 0, a state of order n^T means β = 1; the rule splits at {GROWTH_SPLIT}. "
               "The paper's construction is the class-T truncation: counted as Lie-algebra "
               "coordinates its state is dim N(n, T) = Σ_(m≤T) Witt(n, m) ~ (n/(n−1)) n^T/T "
               "(the reading that gives n^T/T); the faithful matrix representation of that "
               "truncation (left multiplication on the truncated tensor algebra) has dimension "
               "Σ_(m≤T) n^m = (n^(T+1) − 1)/(n − 1), so its ratio to n^T/T is exactly "
               "T(n − n^(−T))/(n − 1), of order T. The package's construction (extra evidence, "
               "not the basis of the verdict) uses the class c*(T) actually needed to separate "
               "words of length T (depth.prop3.7), a different and much smaller construction. "
               "Finitely many T: a fitted exponent, not a proof (Lyndon words give the exact "
               "bound dim L_m(n) ≤ n^m/m, not checked here as a certificate). Dimension alone is "
               "not the right currency: the exact 2-layer cascade of depth.prop3.7 separates all "
               f"words of length ≤ {casc['T']} (n = 2) with state dimension {casc['state_dim']} "
               f"but states of {casc['max_state_bits']} bits. Decision rule: " + why))


def _lie_dim(n: int, c: int) -> int:
    from seqtheory.theory.free_lie import witt_dimension

    return sum(witt_dimension(n, m) for m in range(1, c + 1))


def _tensor_dim(n: int, c: int) -> int:
    return sum(n ** m for m in range(c + 1))


#: The constructions measured: name -> (role, reading, state size for words of length T).
_CONSTRUCTIONS = {
    "paper, Lie coordinates dim N(n,T)": (
        "paper", "Lie-algebra coordinates", lambda n, T: _lie_dim(n, T)),
    "paper, faithful rep Σ_(m≤T) n^m": (
        "paper", "faithful matrix representation", lambda n, T: _tensor_dim(n, T)),
    "package, faithful rep at class c*(T)": (
        "package", "faithful matrix representation",
        lambda n, T: _tensor_dim(n, least_separating_class(n, T))),
}


def _cor38_evidence(witt: list[dict], cum20: int, ctx, replace: dict | None = None) -> dict:
    """The evidence :func:`cor38_decide` reads: Witt = Lyndon counts, the cumulative dimension
    to degree 20 (n = 2) and the state sizes of each construction of :data:`_CONSTRUCTIONS`
    (``replace``: name -> size function, for a control's wrong variant)."""
    constructions = []
    for name, (role, reading, size) in _CONSTRUCTIONS.items():
        size = (replace or {}).get(name, size)
        ns_T = ({2: 12 if ctx.quick else 14, 3: 8 if ctx.quick else 9} if role == "package"
                else {2: 24, 3: 16})
        constructions += _cor38_sizes(ns_T, size, name, role, reading, T_min=2)
    return {"witt_equals_lyndon": all(r["witt"] == r["lyndon_count"] for r in witt),
            "cumulative_to_20_n2": cum20, "constructions": constructions}


@cor38.decision_rule
def cor38_decide(ev: dict) -> tuple[Verdict, str, list[dict]]:
    """Decision rule of ``depth.cor3.8`` (pure). Returns ``(verdict, why, growth table)``.

    The counts are wrong (Witt ≠ Lyndon or Σ_(m≤20) dim L_m(2) ≠ 111013) → inconclusive (the
    machinery, not the claim, fails). Otherwise each construction and alphabet size gets a
    growth class (:func:`growth_class`) and a sub-verdict (O(n^T/T): supported; not:
    refuted; undecided: inconclusive). The overall verdict reads the paper's construction
    (role ``"paper"``): refuted if its Lie-algebra-coordinate count is not O(n^T/T) for some n;
    inconclusive if undecided for some n; else refined if its faithful matrix representation is
    not O(n^T/T) (the statement needs the named reading: the state counts Lie-algebra
    coordinates); else supported (finitely many T). The package's construction is reported,
    never the basis of the verdict."""
    if not (ev["witt_equals_lyndon"] and ev["cumulative_to_20_n2"] == 111013):
        return (Verdict.INCONCLUSIVE, f"dimension counts wrong: Witt = Lyndon "
                f"{ev['witt_equals_lyndon']}, Σ_(m≤20) dim L_m(2) = {ev['cumulative_to_20_n2']} "
                "(oracle 111013)", [])
    table = []
    for c in ev["constructions"]:
        g = growth_class(c["T"], c["size"], c["n"])
        table.append({"construction": c["construction"], "role": c["role"],
                      "reading": c["reading"], "n": c["n"], **g,
                      "sub_verdict": _READING_VERDICT[g["class"]].value})
    paper = [r for r in table if r["role"] == "paper"]
    lie = [r for r in paper if r["reading"] == "Lie-algebra coordinates"]
    rep = [r for r in paper if r["reading"] != "Lie-algebra coordinates"]
    if not lie:
        return Verdict.INCONCLUSIVE, "the paper's construction was not measured", table

    def show(rows):
        return ", ".join(f"n={r['n']}: β = {r['beta']:+.3f} [{r['ci'][0]:+.3f}, "
                         f"{r['ci'][1]:+.3f}]" for r in rows)

    if any(r["class"] == "not O(n^T/T)" for r in lie):
        return Verdict.REFUTED, f"the construction's state grows faster than n^T/T ({show(lie)})", table
    if any(r["class"] == "undecided" for r in lie):
        return Verdict.INCONCLUSIVE, f"growth undecided ({show(lie)})", table
    Ts = ", ".join(f"n={r['n']}: T ≤ {r['T_range'][1]}" for r in lie)
    if any(r["class"] != "O(n^T/T)" for r in rep):
        return Verdict.REFINED, (f"O(n^T/T) as Lie-algebra coordinates dim N(n, T) ({show(lie)}; "
                                 f"{Ts}), but not as the faithful matrix representation of the "
                                 f"class-T truncation ({show(rep)}): the statement holds when "
                                 "the state counts Lie-algebra coordinates"), table
    return Verdict.SUPPORTED, (f"O(n^T/T) on every T measured ({Ts}) in both readings "
                               f"({show(lie + rep)})"), table


@cor38.control
def _cor38_control(ctx) -> ControlOutcome:
    """Wrong variants through :func:`cor38_decide`: (a) a construction whose state grows like
    n^T (the tensor dimension Σ_(m≤T) n^m put in place of the Lie-algebra coordinates): the rule
    must refute it as not O(n^T/T); (b) Witt's formula with the Möbius sign flipped (its counts
    no longer match the Lyndon words): inconclusive (the machinery fails)."""
    from seqtheory.theory.free_lie import mobius, witt_dimension

    def wrong_witt(n, m):  # Möbius sign flipped
        return sum(-mobius(d) * n ** (m // d) for d in range(1, m + 1) if m % d == 0) // m

    rows = _witt_rows(wrong_witt, max_m=6)
    mism = [(r["n"], r["m"], r["witt"], r["lyndon_count"]) for r in rows
            if r["witt"] != r["lyndon_count"]]
    cum20 = sum(witt_dimension(2, m) for m in range(1, 21))
    v_w, why_w, _ = cor38_decide({"witt_equals_lyndon": not mism, "cumulative_to_20_n2": cum20,
                                  "constructions": []})
    ev = _cor38_evidence(_witt_rows(max_m=6), cum20, ctx,
                         replace={"paper, Lie coordinates dim N(n,T)": _tensor_dim})
    v_t, why_t, _ = cor38_decide(ev)
    return ControlOutcome(
        rejected=v_t is Verdict.REFUTED and v_w is Verdict.INCONCLUSIVE,
        variant=("a construction with state Σ_(m≤T) n^m (order n^T) in place of dim N(n, T); "
                 "Witt's formula with the Möbius sign flipped"),
        reason=(f"state of order n^T: {v_t.value} ({why_t}) | Möbius flipped: {v_w.value} "
                f"({len(mism)} mismatches with Lyndon counts, e.g. {mism[:3]}; {why_w})"))

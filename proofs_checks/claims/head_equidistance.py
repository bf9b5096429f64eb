"""[HEAD] (A. Somasundaram et al., arXiv:2608.22253, v1), max–min row separation under a diameter
bound.

Claim ``head.equidistance_limit``: the max-min-separation update under a diameter bound is only
approximately equidistant when V > d+1. Experiment: exact, for every d, at most d+1 equidistant
points (the Gram matrix (I+J)/2 = LLᵀ, :func:`gram_cholesky_certificate`; python-flint ranks for
small d): the certificate of the statement; numerical, how far from equidistant the best update
is (the best min/max separation ratio found by multi-start optimisation against the
simplex/Rankin bounds), and the v1 update itself as a computed object
(:func:`seqtheory.numerics.equidistance.max_min_update`). Decision (:func:`equidistance_decide`,
pure): the exact part decides; the optimisation is reported and can only show the evidence
inconsistent. Control: the limit V ≤ d in place of d+1, which must be refuted.
"""
from __future__ import annotations

import functools

from seqtheory.proofs_checks.figures import new_figure, save_figure
from seqtheory.proofs_checks.registry import (HEAD, Context, ControlOutcome, Outcome, Verdict,
                                              claim, parts_table)
from seqtheory.theory.hilbert import (equidistant_gram, max_equidistant_points, rankin_ratio_bound,
                                      simplex_ratio_bound)
from seqtheory.theory._messages import counted


def _exact_simplex_equidistant(d: int) -> bool:
    """The d+1 standard basis vectors of R^{d+1} span a d-dimensional affine space and are exactly
    equidistant (squared distance 2, exact integers)."""
    E = [[int(i == j) for j in range(d + 1)] for i in range(d + 1)]
    sq = {sum((a - b) ** 2 for a, b in zip(E[i], E[j])) for i in range(d + 1) for j in range(i)}
    return sq == {2}


@functools.lru_cache(maxsize=None)
def gram_cholesky_certificate() -> dict:
    """The Gram argument for every V at once, checked symbolically (sympy, symbolic sizes): the
    Gram matrix ``(I + J)/2`` of ``u_i = x_i − x_0`` for V mutually equidistant points (size
    ``m = V − 1``, any m) equals ``L Lᵀ`` with ``L`` lower triangular, ``L_ii = √((i+1)/(2i))``,
    ``L_ij = 1/√(2j(j+1))`` (j < i): the off-diagonal entries of ``L Lᵀ`` are
    ``Σ_{k<j} 1/(2k(k+1)) + L_ij L_jj = 1/2`` and the diagonal ones
    ``Σ_{k<i} 1/(2k(k+1)) + L_ii² = 1``. ``L`` has a positive diagonal, so the Gram matrix has
    rank m = V − 1; vectors of R^d have a Gram matrix of rank ≤ d, so V ≤ d + 1 for every d.
    Returns ``{"off_diagonal", "diagonal", "holds"}`` (the simplified entries as strings)."""
    import sympy as sp

    i, j, k = sp.symbols("i j k", integer=True, positive=True)
    diag = sp.sqrt((i + 1) / (2 * i))
    tail = sp.summation(1 / (2 * k * (k + 1)), (k, 1, j - 1))
    off = sp.simplify(tail + 1 / sp.sqrt(2 * j * (j + 1)) * diag.subs(i, j))
    on = sp.simplify(sp.summation(1 / (2 * k * (k + 1)), (k, 1, i - 1)) + diag ** 2)
    return {"off_diagonal": str(off), "diagonal": str(on),
            "holds": off == sp.Rational(1, 2) and on == 1}


def _equidistance_check(limit, ctx: Context, dmax: int, cases) -> dict:
    from seqtheory.numerics.equidistance import max_min_separation

    exact = []
    for d in range(1, dmax + 1):
        m = max_equidistant_points(d)
        exact.append({"d": d, "max_equidistant_points": m, "claimed": limit(d),
                      "gram_rank_at_d+2": equidistant_gram(d + 2).rank(),
                      "simplex_exact": _exact_simplex_equidistant(d)})
    opt = []
    for V, d in cases:
        r = max_min_separation(V, d, starts=5 if ctx.quick else 30, seed=ctx.numpy_seed(f"eq{V},{d}"))
        opt.append({"V": V, "d": d, "best_ratio": r.ratio, "simplex_bound": simplex_ratio_bound(V, d),
                    "rankin_bound": rankin_ratio_bound(V, d), "bound": r.bound,
                    "equidistant": r.ratio > 1 - 1e-6, "claimed_equidistant": V <= limit(d)})
    return {"exact": exact, "optimisation": opt, "gram_certificate": gram_cholesky_certificate()}


_EQ_CASES_QUICK = [(3, 1), (3, 2), (4, 2), (5, 2), (7, 2), (4, 3), (5, 3), (8, 3)]
_EQ_CASES_FULL = _EQ_CASES_QUICK + [(6, 2), (9, 2), (6, 3), (10, 3), (5, 4), (6, 4), (12, 4)]
#: the v1 updates shown as objects (V, d), at η = 1, and the one whose rows are printed
_UPDATE_CASES, _UPDATE_SHOWN = [(4, 3), (5, 2), (7, 2), (8, 3)], (5, 2)


def update_objects(ctx: Context) -> tuple[list[dict], list[dict]]:
    """[HEAD] v1's update (maximise the smallest row separation under D(S) ≤ η) computed for
    :data:`_UPDATE_CASES` at η = 1: one summary row per case and the rows of ``S`` for
    :data:`_UPDATE_SHOWN`."""
    from seqtheory.numerics.equidistance import max_min_update

    summary, shown = [], []
    for V, d in _UPDATE_CASES:
        u = max_min_update(V, d, 1.0, starts=5 if ctx.quick else 30,
                           seed=ctx.numpy_seed(f"eq-update{V},{d}"))
        summary.append({"V": V, "d": d, "eta": u.eta, "D(S)": u.diameter,
                        "min separation": u.min_separation, "min/max": u.ratio,
                        "bound": u.bound, "max |1ᵀS|": float(abs(u.S.sum(axis=0)).max()),
                        "method": u.method})
        if (V, d) == _UPDATE_SHOWN:
            shown = [{"row": i, **{f"s_{k + 1}": float(x) for k, x in enumerate(r)}}
                     for i, r in enumerate(u.S)]
    return summary, shown


@claim("head.equidistance_limit", title="Max–min separation is only approximately equidistant",
       source=HEAD("max–min row separation under a diameter bound", version="v1"),
       statement="the max-min-separation update under a diameter bound is only approximately "
                 "equidistant when V > d+1")
def equidistance_limit(ctx: Context) -> Outcome:
    r = _equidistance_check(lambda d: d + 1, ctx, 6 if ctx.quick else 12,
                            _EQ_CASES_QUICK if ctx.quick else _EQ_CASES_FULL)
    verdict, parts, why = equidistance_decide(r["exact"], r["optimisation"],
                                              r["gram_certificate"]["holds"])
    updates, shown = update_objects(ctx)
    fig, ax = new_figure(figsize=(5, 3.5))
    for d, mk in ((1, "s"), (2, "o"), (3, "^"), (4, "d")):
        pts = [o for o in r["optimisation"] if o["d"] == d]
        if pts:
            ax.plot([o["V"] for o in pts], [o["best_ratio"] for o in pts], mk, label=f"best, d={d}")
            ax.plot([o["V"] for o in pts], [o["bound"] for o in pts], mk, mfc="none", c="gray")
    ax.set_xlabel("V (rows)")
    ax.set_ylabel("min / max row separation")
    ax.legend(fontsize=7, title="open: simplex/Rankin bound", title_fontsize=7)
    figs = save_figure(fig, ctx, "head_equidistance")
    far = [o for o in r["optimisation"] if o["V"] > o["d"] + 1]
    worst = max((o["best_ratio"] for o in far), default=0)
    return Outcome(verdict,
                   f"exact, every d: at most d+1 equidistant points (Gram (I+J)/2 = LLᵀ, rank V−1; "
                   f"symbolic certificate {r['gram_certificate']['holds']}); optimisation, "
                   f"{counted(len(far), 'case')} with V > d+1: best ratio found ≤ {worst:.4f} < 1, within "
                   "the simplex/Rankin bounds; the v1 update computed for "
                   + ", ".join(f"(V, d) = ({u['V']}, {u['d']}): min/max {u['min/max']:.4f}"
                               for u in updates),
                   evidence={"verdict_reason": why, "gram_certificate": r["gram_certificate"],
                             "part_verdicts": {k: v.value for k, (v, _) in parts.items()},
                             "v1_updates": updates},
                   tables={"parts": parts_table(parts), "exact": r["exact"],
                           "optimisation": r["optimisation"],
                           "the v1 update S (max-min row separation, D(S) ≤ η = 1)": updates,
                           f"rows of S at (V, d) = {_UPDATE_SHOWN}": shown},
                   figures=figs,
                   notes="Exact part, every d: V mutually equidistant points give the Gram "
                         "matrix (I+J)/2 of u_i = x_i − x_0, which equals LLᵀ with L lower "
                         "triangular with positive diagonal (checked symbolically for a symbolic "
                         "size: entries 1/2 and 1), so its rank is V−1 ≤ d; the regular simplex "
                         "attains d+1 (exact integers), and the python-flint ranks for d ≤ "
                         f"{len(r['exact'])} agree. Numerical part: for V > d+1 the ratio is at "
                         "most √(d/(d+1)) (Rankin with Jung's radius) — close to 1 in high "
                         "dimension, so 'only approximately equidistant' is quantitatively mild "
                         "when d is large; how close the optimum comes is an optimisation result "
                         "(multi-start SLSQP reproduces the known planar optima V=4: 1/√2, V=5: "
                         "1/φ, V=7: 1/2), not a certificate. The v1 update itself: S whose rows "
                         "are that configuration scaled to D(S) = η and centred (1ᵀS = 0; a "
                         "common row shift changes no output), the regular simplex for V ≤ d+1; "
                         "its rotation and row order are left free here (how the paper ties them "
                         "to the gradient is not recorded in SPEC §3.2). Decision rule: " + why)


@equidistance_limit.decision_rule
def equidistance_decide(exact: list[dict], optimisation: list[dict], gram_certificate: bool
                        ) -> tuple[Verdict, dict[str, tuple[Verdict, str]], str]:
    """The statement ("for V > d+1 the update is only approximately equidistant", i.e. not
    exactly) is decided by its exact part; the optimisation says how far from equidistant the
    best update is and is reported beside it. ``exact``: per d, the exact maximum number of
    equidistant points, the ``claimed`` limit and whether the regular simplex is exactly
    equidistant; ``gram_certificate``: the symbolic Gram argument for every V
    (:func:`gram_cholesky_certificate`). Exact part: refuted if some exact maximum differs from
    the claimed limit or the simplex is not exact; confirmed when the symbolic certificate
    holds (every d); supported without it (the d computed only). ``optimisation``: per (V, d),
    the best min/max ratio found, its proven ``bound`` and whether equidistance was reached vs
    claimed. The verdict: refuted when the exact part is, or when an optimum is equidistant
    (ratio within 1e-6 of 1) where V > d+1 and within its bound (a counterexample); inconclusive
    when an optimum beats its proven bound by > 1e-9 (the evidence contradicts a theorem, so it
    decides nothing); otherwise the exact part's verdict. An optimiser that misses the simplex
    where V ≤ d+1 is reported (a failed search, no evidence either way).
    Returns ``(verdict, {part: (verdict, why)}, why)``."""
    bad = [f"d={e['d']}: exact maximum {e['max_equidistant_points']} ≠ claimed {e['claimed']}"
           for e in exact if e["max_equidistant_points"] != e["claimed"] or not e["simplex_exact"]]
    if bad:
        ex = (Verdict.REFUTED, "; ".join(bad))
    elif gram_certificate:
        ex = (Verdict.CONFIRMED, f"symbolic Gram certificate for every d; exact ranks agree for "
                                 f"d = 1..{len(exact)}")
    elif exact:
        ex = (Verdict.SUPPORTED, f"exact ranks for d = 1..{len(exact)} only (no certificate for "
                                 "every d)")
    else:
        ex = (Verdict.INCONCLUSIVE, "no exact evidence")
    beats = [f"(V, d)=({o['V']}, {o['d']}): ratio {o['best_ratio']:.6f} > bound {o['bound']:.6f}"
             for o in optimisation if o["best_ratio"] > o["bound"] + 1e-9]
    counter = [f"(V, d)=({o['V']}, {o['d']}): ratio {o['best_ratio']:.6f}" for o in optimisation
               if o["equidistant"] and not o["claimed_equidistant"]]
    missed = [f"({o['V']}, {o['d']})" for o in optimisation
              if o["claimed_equidistant"] and not o["equidistant"]]
    if beats:
        num = (Verdict.INCONCLUSIVE, "an optimum beats its proven bound: " + "; ".join(beats))
    elif counter:
        num = (Verdict.REFUTED, "equidistant with V > d+1: " + "; ".join(counter))
    else:
        num = (Verdict.SUPPORTED, f"{counted(len(optimisation), 'case')} (V, d): optima within "
                                  "their bounds, none equidistant where V > d+1"
               + (f"; the search missed the simplex at {', '.join(missed)}" if missed else ""))
    parts = {"exact: at most d+1 equidistant points": ex,
             "numerical: best ratio for V > d+1 (reported)": num}
    if ex[0] is Verdict.REFUTED or num[0] is Verdict.REFUTED:
        verdict = Verdict.REFUTED
        why = "refuted: " + "; ".join(w for v, w in (ex, num) if v is Verdict.REFUTED)
    elif num[0] is Verdict.INCONCLUSIVE:
        verdict, why = Verdict.INCONCLUSIVE, f"the optimisation contradicts a proven bound ({num[1]})"
    else:
        verdict = ex[0]
        why = f"decided by the exact part: {ex[1]}; optimisation (reported): {num[1]}"
    return verdict, parts, why


@equidistance_limit.control
def _(ctx: Context) -> ControlOutcome:
    r = _equidistance_check(lambda d: d, ctx, 4, [(3, 2), (4, 3)])
    verdict, _, why = equidistance_decide(r["exact"], r["optimisation"],
                                          r["gram_certificate"]["holds"])
    return ControlOutcome(verdict is Verdict.REFUTED, "limit V ≤ d (instead of d+1)",
                          f"{verdict.value}: {why}", {"exact": r["exact"]})

"""Claim ``head.backward_bound_u_dependence`` of [HEAD] (A. Somasundaram et al., *Toward a
First-Principles Update Geometry for the Language-Model Head*, arXiv:2608.22253v2, backward bound
through the head; the section number is unknown): a bound on the backward change must depend on
``U``.

Reading tested. The *backward change* is the change of the gradient that the cross-entropy loss
sends back to the hidden state when the head moves from ``U`` to ``U + S``:
``Δg = (U+S)ᵀ(p_{U+S}(h) − e_y) − Uᵀ(p_U(h) − e_y)`` (:mod:`seqtheory.numerics.head_backward`).
``head.backward_bound`` bounds the term ``Sᵀr`` alone, which needs no ``U``. The claim is that
no bound of the form ``‖Δg‖₂ ≤ F(S, h, y)`` — any function of the update, the hidden state and
the target, but not of ``U`` — can hold for every head ``U``.

Counterexample (exact, sympy): ``V = d = 2``, ``h = e₁``, ``y = 0``,
``S = (s/2)[[1, 0], [−1, 0]]`` (``D(S) = s``) and ``U_λ = λ[[0, 1], [0, −1]]``. Since
``U_λ h = 0``, ``p_U(h)`` is uniform and ``p_{U+S}(h) = (σ(s), σ(−s))`` do not depend on ``λ``,
and ``Δg = (−s·σ(−s), λ·tanh(s/2))``: ``‖Δg‖₂ ≥ λ tanh(s/2)`` grows without bound in ``λ`` for a
fixed ``(S, h, y)``, so every ``F(S, h, y)`` is exceeded once ``λ > F / tanh(s/2)``.

Dependence that suffices: ``‖Δg‖₂ ≤ D(S)(1 − p_{U+S}(h)_y) + D(U)·tanh(‖h‖₂D(S)/4)`` (the backward
bound on each term of the split, then ``TV ≤ tanh(𝓗/4)``); along the family its ratio tends to
``1/(1 + tanh²(s/4))`` → 1 as ``s → 0``, so the factor ``D(U)`` cannot be weakened.
"""
from __future__ import annotations

import functools
import math

import numpy as np

from seqtheory.proofs_checks.registry import HEAD, ControlOutcome, Context, Outcome, Verdict, claim

_TOL = 1e-12
_S_VALUE = 1        # D(S) of the exhibited instance (exact); ‖h‖₂ = 1
# U-free candidate bounds F(D(S), ‖h‖₂) for the exhibited instance: any function would do.
_CANDIDATES = (("D(S)", lambda s, H: s), ("‖h‖₂·D(S)", lambda s, H: H * s),
               ("10³·D(S)", lambda s, H: 1000 * s),
               ("10⁶·(D(S) + ‖h‖₂)·exp(‖h‖₂D(S))", lambda s, H: 10**6 * (s + H) * math.exp(H * s)))


@functools.lru_cache(maxsize=None)
def _symbolic_family(frozen: bool):
    """``(Δg(s, λ), growth(s), closed_form_ok)`` for the family of the module docstring, computed
    from the definition ``(U+S)ᵀ(p′ − e_y) − Uᵀ(p − e_y)`` with exact softmax
    (``frozen``: ``p′ = p``).
    ``growth = lim_{λ→∞} ‖Δg‖₂/λ``; ``closed_form_ok``: Δg equals the docstring's closed form."""
    import sympy as sp

    s, lam = sp.symbols("s lambda", positive=True)
    U = lam * sp.Matrix([[0, 1], [0, -1]])
    S = (s / 2) * sp.Matrix([[1, 0], [-1, 0]])
    h, e0 = sp.Matrix([1, 0]), sp.Matrix([1, 0])

    def softmax(z):
        w = [sp.exp(x) for x in z]
        return sp.Matrix([x / sum(w) for x in w])

    p = softmax(U * h)
    q = p if frozen else softmax((U + S) * h)
    dg = ((U + S).T * (q - e0) - U.T * (p - e0)).applyfunc(sp.simplify)
    sig = lambda x: 1 / (1 + sp.exp(-x))  # noqa: E731
    closed = sp.Matrix([-s / 2, 0]) if frozen else sp.Matrix([-s * sig(-s), lam * sp.tanh(s / 2)])
    ok = all(sp.simplify((a - b).rewrite(sp.exp)) == 0 for a, b in zip(dg, closed))
    growth = sp.limit(sp.sqrt(dg.dot(dg)) / lam, lam, sp.oo)
    return dg, growth, bool(ok), (s, lam)


def family_evidence(frozen: bool = False) -> dict:
    """Exact growth rate, U-free candidates vs the change at ``λ = 2F/growth`` (mpmath, 50
    digits) and the U-dependent bound along the family, for ``D(S) = 1``, ``‖h‖₂ = 1``."""
    import mpmath
    import sympy as sp

    dg, growth, closed_ok, (s, lam) = _symbolic_family(frozen)
    g = sp.simplify(growth.subs(s, _S_VALUE))
    gval = float(g)

    def norm_change(lv) -> float:
        vec = [sp.N(x.subs({s: _S_VALUE, lam: lv}), 50) for x in dg]
        return float(mpmath.sqrt(sum(mpmath.mpf(str(x)) ** 2 for x in vec)))

    cands = []
    for name, F in _CANDIDATES:
        bound = F(_S_VALUE, 1.0)
        lam_star = (2 * sp.nsimplify(bound) / g) if g.is_positive else sp.Integer(10) ** 9
        cands.append({"candidate": name, "bound": bound, "lambda": float(lam_star),
                      "change": norm_change(lam_star)})
    ratios = []
    for lv in (0, 1, 10, 10**3, 10**6, 10**9):
        sig = 1 / (1 + math.exp(-_S_VALUE))
        bound = _S_VALUE * (1 - sig) + 2 * lv * math.tanh(_S_VALUE / 4)
        ratios.append({"lambda": lv, "change": norm_change(lv), "u_dependent_bound": bound,
                       "ratio": norm_change(lv) / bound})
    return {"growth_exact": str(g), "growth": gval, "growth_positive": bool(g.is_positive),
            "closed_form_ok": closed_ok, "candidates": cands, "family_bound": ratios}


def random_evidence(ctx: Context, n: int) -> dict:
    """On random ``(U, S, h, y)``: the worst ratio ``‖Δg‖₂ / (U-dependent bound)``; and, for heads
    ``U = λA`` with ``Ah = 0``, the slope ``‖Δg(λ = 10⁶)‖₂ / 10⁶`` (> 0: the growth is generic)."""
    from seqtheory.numerics.head_backward import backward_change, u_dependent_backward_bound

    rng = np.random.default_rng(ctx.numpy_seed("head.backward_bound_u_dependence"))
    worst, slopes = 0.0, []
    for k in range(n):
        V, d = int(rng.integers(2, 11)), int(rng.integers(2, 7))
        S = rng.normal(size=(V, d)) * 10.0 ** rng.uniform(-3, 1)
        h = rng.normal(size=d) * rng.uniform(0.1, 5)
        y = int(rng.integers(V))
        U = rng.normal(size=(V, d)) * 10.0 ** rng.uniform(-1, 1.5)
        b = u_dependent_backward_bound(U, S, h, y)
        if b > 0:
            worst = max(worst, float(np.linalg.norm(backward_change(U, S, h, y))) / b)
        A = U - np.outer(U @ h, h) / (h @ h)               # rows orthogonal to h
        slopes.append(float(np.linalg.norm(backward_change(1e6 * A, S, h, y))) / 1e6)
    return {"u_dependent_max_ratio": worst, "min_slope_orthogonal_heads": min(slopes),
            "instances": n}


@claim("head.backward_bound_u_dependence", title="A bound on the backward change must depend on U",
       source=HEAD("backward bound through the head"),
       statement="no bound ‖Δg‖₂ ≤ F(S, h, y) on the backward change Δg = (U+S)ᵀ(p_{U+S}(h) − e_y) "
                 "− Uᵀ(p_U(h) − e_y) holds for every head U, so a valid bound must involve U "
                 "(certified by an exact family; the U-dependent bound itself is the claim "
                 "head.backward_change_bound)")
def backward_bound_u_dependence(ctx: Context) -> Outcome:
    fam = family_evidence(frozen=False)
    rnd = random_evidence(ctx, 200 if ctx.quick else 2000)
    worst = max(rnd["u_dependent_max_ratio"], max(r["ratio"] for r in fam["family_bound"]))
    verdict, why = backward_u_decide(fam["growth_positive"] and fam["closed_form_ok"],
                                     fam["candidates"], worst, [])
    return Outcome(
        verdict,
        f"‖Δg‖₂/λ → {fam['growth_exact']} = {fam['growth']:.6f} > 0 for fixed D(S) = 1, ‖h‖₂ = 1 "
        f"(exact); every U-free candidate exceeded; ‖Δg‖₂ / [D(S)(1−p′_y) + D(U)tanh(‖h‖D(S)/4)] "
        f"≤ {worst:.15g} (equality at U = 0; the family's limit is "
        f"{fam['family_bound'][-1]['ratio']:.4f})",
        evidence={"growth_exact": fam["growth_exact"], "growth": fam["growth"],
                  "closed_form_ok": fam["closed_form_ok"], "u_dependent_max_ratio": worst,
                  "tolerance": _TOL,
                  **{k: v for k, v in rnd.items() if k != "u_dependent_max_ratio"}},
        tables={"u_free_candidates": fam["candidates"], "family_vs_u_dependent_bound":
                fam["family_bound"], "small_s_limit": _small_s_limits()},
        notes="Reading: the backward change is the change of ∇_h(−log p_y) caused by the head "
              "step, "
              "including the change of the probabilities; the term Sᵀ(p′ − e_y) alone is bounded "
              "without U (head.backward_bound), the term Uᵀ(p′ − p) is not. Exact family: "
              "U_λ h = 0 "
              "keeps p and p′ fixed while U_λ grows; Δg = (−sσ(−s), λ tanh(s/2)) is verified "
              "symbolically from the definition. Random heads with rows orthogonal to h show the "
              "same linear growth in λ. The U-dependent bound holds on random instances and along "
              "the family, with limiting ratio 1/(1 + tanh²(s/4)) (table small_s_limit). "
              "Decision rule: " + why)


def _small_s_limits() -> list[dict]:
    """``lim_{λ→∞}`` of the family's ratio to the U-dependent bound, ``1/(1 + tanh²(s/4))``."""
    return [{"D(S)": s, "limit_ratio": 1 / (1 + math.tanh(s / 4) ** 2)}
            for s in (2.0, 1.0, 0.1, 0.01)]


@backward_bound_u_dependence.decision_rule
def backward_u_decide(growth_positive: bool, candidates: list[dict], u_dependent_max_ratio: float,
                      proven_u_free: list[str]) -> tuple[Verdict, str]:
    """``growth_positive``: the exact limit of ``‖Δg‖₂/λ`` along the family is > 0 (and the family's
    closed form was verified); ``candidates``: U-free bounds with the change measured at a head of
    the family; ``u_dependent_max_ratio``: worst ``‖Δg‖₂`` over the U-dependent bound;
    ``proven_u_free``: U-free bounds on the change that a proven result gives for every head U
    (none is known for the backward change; the frozen-probability reading has one:
    ``D(S)``, by ``head.backward_bound``).
    Refuted when a U-free bound is proven and the family does not grow (then a bound need not
    depend on U); inconclusive when one is proven but the family grows (the evidence contradicts
    itself). Otherwise confirmed iff the change grows without bound (exact: the certificate of
    the statement) and exceeds every candidate, with the U-dependent bound holding (within
    ``_TOL``) as a consistency gate; inconclusive if the family is no counterexample (a
    U-free bound may exist) or if the U-dependent bound fails too (the needed dependence is
    unknown)."""
    if proven_u_free:
        if growth_positive:
            return Verdict.INCONCLUSIVE, (f"a U-free bound is proven ({', '.join(proven_u_free)}) "
                                          "yet the family grows without bound: the evidence "
                                          "contradicts itself")
        return Verdict.REFUTED, (f"a bound independent of U holds for every head: "
                                 f"{', '.join(proven_u_free)}; the family does not grow")
    missed = [c["candidate"] for c in candidates if not c["change"] > c["bound"]]
    if not growth_positive or missed or not candidates:
        return Verdict.INCONCLUSIVE, ("no counterexample: the change stays bounded along the "
                                      "family" + (f" (not exceeded: {', '.join(missed)})"
                                                  if missed else ""))
    if not u_dependent_max_ratio <= 1 + _TOL:
        return Verdict.INCONCLUSIVE, (f"U-free bounds fail, but the U-dependent bound is exceeded "
                                      f"too (ratio {u_dependent_max_ratio:.6g})")
    return Verdict.CONFIRMED, (f"every U-free candidate is exceeded ({len(candidates)} tried) and "
                               "D(S)(1 − p′_y) + D(U)·tanh(‖h‖₂D(S)/4) holds")


@backward_bound_u_dependence.control
def _(ctx: Context) -> ControlOutcome:
    fam = family_evidence(frozen=True)
    # the frozen change Sᵀ(p − e_y) has a proven U-free bound: ‖Sᵀr‖₂ ≤ ½D(S)‖r‖₁ ≤ D(S)
    verdict, why = backward_u_decide(fam["growth_positive"] and fam["closed_form_ok"],
                                     fam["candidates"],
                                     max(r["ratio"] for r in fam["family_bound"]),
                                     ["D(S) (head.backward_bound: ‖Sᵀ(p − e_y)‖₂ ≤ "
                                      "½D(S)‖p − e_y‖₁ ≤ D(S))"])
    return ControlOutcome(verdict is Verdict.REFUTED,
                          "probabilities frozen at p_U(h): Δg = Sᵀ(p − e_y) (the change of the "
                          "head's Jacobian alone, which needs no U)",
                          f"{verdict.value}: {why}", fam)

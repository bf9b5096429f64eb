"""Claims of [HEAD]: A. Somasundaram et al., *Toward a First-Principles Update Geometry for the
Language-Model Head*, arXiv:2608.22253 (v1 Aug 2026: max–min row separation under a diameter bound;
v2 Sep 2026: projected RowNorm). Statements as listed in SPEC §3.2. The paper's theorem and
section numbers are unknown; each source names the section topic instead.

Each claim has three parts: the statement (with its source), the experiment that gathers evidence,
and a pure decision rule (``@claim.decision_rule``) that turns the evidence into a verdict. The
check and its negative control both call the rule; the control feeds it the evidence of a
deliberately wrong variant (a wrong norm, a missing centring, a wrong constant) and is rejected by
what the rule returns.
"""
from __future__ import annotations

import functools
import math

import numpy as np

from seqtheory.proofs_checks.figures import new_figure, save_figure
from seqtheory.proofs_checks.registry import (
    HEAD, ControlOutcome, Context, Outcome, Verdict, claim, combine_verdicts, parts_table,
)
from seqtheory.proofs_checks.report import format_stat
from seqtheory.theory._messages import counted
from seqtheory.theory.hilbert import (
    equidistant_gram, hilbert_change, hilbert_distance, max_equidistant_points,
    max_l1_row_difference, rankin_ratio_bound, row_diameter, simplex_ratio_bound,
    worst_case_hidden,
)

# ============================================================================================
# shared helpers
# ============================================================================================


def _log_softmax(z: np.ndarray) -> np.ndarray:
    m = z.max(axis=-1, keepdims=True)
    return z - m - np.log(np.exp(z - m).sum(axis=-1, keepdims=True))


def _logit_pairs(rng: np.random.Generator, n: int):
    """Pairs of logit vectors: V from 2 to 12, scales 1e-3 … 1e3 (incl. probabilities < 1e-300)."""
    for k in range(n):
        V = 2 + k % 11
        scale = [1e-3, 1.0, 30.0, 1e3][k % 4]
        yield rng.normal(size=V) * scale, rng.normal(size=V) * scale


# ============================================================================================
# head.hilbert_softmax
# ============================================================================================


def _hilbert_softmax_errors(formula, n: int, seed: int) -> dict:
    """max relative error between 𝓗(softmax z, softmax z′) computed from the probabilities in
    60-digit arithmetic (mpmath) and ``formula(z − z′)``."""
    import mpmath

    rng = np.random.default_rng(seed)
    worst, tiny = 0.0, 0.0
    with mpmath.workdps(60):
        for z, w in _logit_pairs(rng, n):
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
    verdict, why = hilbert_softmax_decide(exact, num["max_rel_err"], _TOL_ID)
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
def hilbert_softmax_decide(symbolic_identity: bool, max_rel_err: float, tolerance: float
                           ) -> tuple[Verdict, str]:
    """Confirmed iff the symbolic identity holds (the certificate, every V) and the formula
    matches the 60-digit Hilbert distance within ``tolerance`` (relative) on every pair (a guard
    on the implementation); refuted otherwise."""
    if symbolic_identity and max_rel_err <= tolerance:
        return Verdict.CONFIRMED, ("symbolic certificate for every V; formula within "
                                   f"{tolerance:g} of the 60-digit value on every pair")
    if not symbolic_identity:
        return Verdict.REFUTED, "the symbolic log-ratio identity fails"
    return Verdict.REFUTED, f"formula off by {max_rel_err:.3g} (relative) > {tolerance:g}"


@hilbert_softmax.control
def _(ctx: Context) -> ControlOutcome:
    num = _hilbert_softmax_errors(lambda d: float(np.abs(d).max()), 200, ctx.numpy_seed("hs"))
    verdict, why = hilbert_softmax_decide(_symbolic_softmax_identity(), num["max_rel_err"],
                                          _TOL_ID)
    return ControlOutcome(verdict is Verdict.REFUTED, "‖z − z′‖_∞ instead of ‖z − z′‖_var",
                          f"{verdict.value}: {why}", num)


# ============================================================================================
# head.diameter_identity
# ============================================================================================


def _ascent_sup(S: np.ndarray, H: float, rng: np.random.Generator, starts: int = 20) -> float:
    """Best ``‖S h‖_var`` over the sphere ‖h‖ = H found by projected subgradient ascent."""
    V, d = S.shape
    best = 0.0
    for _ in range(starts):
        h = rng.normal(size=d)
        h *= H / max(np.linalg.norm(h), 1e-300)
        for _ in range(50):
            z = S @ h
            g = S[np.argmax(z)] - S[np.argmin(z)]
            if not np.any(g):
                break
            h = h + 0.5 * H * g / np.linalg.norm(g)
            h *= H / np.linalg.norm(h)
        best = max(best, float(hilbert_change(S, h)))
    return best


def _diameter_identity_check(sup_formula, ctx: Context, n: int) -> dict:
    rng = np.random.default_rng(ctx.numpy_seed("di"))
    per_h, sup_err, exceed, dual_err = 0.0, 0.0, 0.0, 0.0
    for k in range(n):
        V, d = 2 + k % 7, 1 + k % 5
        S = rng.normal(size=(V, d)) * 10.0 ** rng.uniform(-3, 2)
        if k % 9 == 0:
            S[1] = S[0]                             # equal rows
        U = rng.normal(size=(V, d)) * 10
        H = float(rng.uniform(0.1, 10))
        h = rng.normal(size=d)
        lhs = hilbert_distance(_log_softmax((U + S) @ h), _log_softmax(U @ h), space="log")
        pair = max(abs((S[i] - S[j]) @ h) for i in range(V) for j in range(i + 1, V))
        per_h = max(per_h, abs(lhs - pair) / (1 + pair))
        claimed = sup_formula(S, H)
        attained = max(float(hilbert_change(S, worst_case_hidden(S, H))), _ascent_sup(S, H, rng, 3))
        scale = max(claimed, 1e-300)
        sup_err = max(sup_err, abs(attained - claimed) / scale if claimed else attained)
        hs = rng.normal(size=(200, d))
        hs *= H / np.linalg.norm(hs, axis=1, keepdims=True)
        exceed = max(exceed, float((hilbert_change(S, hs).max() - claimed) / scale)
                     if claimed else float(hilbert_change(S, hs).max()))
        if d <= 4:   # ℓ∞ ball: the convex sup is at a vertex; enumerate all 2^d sign vectors
            import itertools

            verts = np.array(list(itertools.product([-1.0, 1.0], repeat=d))) * H
            ex = float(hilbert_change(S, verts).max())
            l1 = H * max_l1_row_difference(S)[0]
            dual_err = max(dual_err, abs(ex - l1) / max(1.0, l1))
    return {"per_h_identity_max_err": per_h, "sup_rel_err": sup_err,
            "max_rel_excess_random_h": exceed, "linf_ball_dual_err": dual_err, "instances": n}


def _trained_spot_check(ctx: Context) -> dict:
    """The identity on the actual head updates of a tiny LM (float64 spot check per step)."""
    from seqtheory.models.lm import quick_config, train_run
    from seqtheory.models.text import TextData, load_corpus

    cfg = quick_config(max_bytes=100_000, eval_windows=2) if not ctx.quick else \
        quick_config(d_model=16, n_heads=2, n_layers=1, seq_len=16, batch_size=4, warmup=2,
                     max_bytes=30_000, eval_windows=2)
    data = TextData.from_corpus(load_corpus(None, cfg.max_bytes))
    out = {}
    for head, lr in (("adamw", 3e-3), ("rownorm", 1e-2)):
        r = train_run(data, cfg, head, lr, ctx.seed, steps=10 if ctx.quick else 100)
        out[head] = {"identity_err_max": r["identity_err_max"], "bound_ok": r["bound_ok"],
                     "mean_diameter": float(np.mean(r["diameter"]))}
    return out


_TOL_DI = 1e-9
_DI_KEYS = ("per_h_identity_max_err", "sup_rel_err", "max_rel_excess_random_h",
            "linf_ball_dual_err")


@claim("head.diameter_identity", title="Diameter identity of the head update",
       source=HEAD("diameter identity of the head update"),
       statement="𝓗(p_{U+S}(h), p_U(h)) = max_{i<j}|(s_i−s_j)ᵀh| (independent of U); "
                 "sup_{‖h‖₂≤H} = H·D(S), attained at h = H(s_i−s_j)/‖s_i−s_j‖")
def diameter_identity(ctx: Context) -> Outcome:
    n = 40 if ctx.quick else 600
    res = _diameter_identity_check(lambda S, H: H * row_diameter(S)[0], ctx, n)
    trained = _trained_spot_check(ctx)
    verdict, why = diameter_identity_decide(res, trained, _TOL_DI)
    return Outcome(
        verdict,
        f"per-h identity err {res['per_h_identity_max_err']:.1e}, sup err {res['sup_rel_err']:.1e}, "
        f"ℓ∞-ball dual err {res['linf_ball_dual_err']:.1e}; trained-LM steps: "
        + ", ".join(f"{k} err {v['identity_err_max']:.1e}" for k, v in trained.items()),
        evidence={**res, "trained_lm": trained, "tolerance": _TOL_DI},
        notes="The supremum is attained by the worst-case hidden state and never exceeded by random "
              "or subgradient-ascent hidden states; the ℓ∞ ball gives the max ℓ1 row difference "
              "(checked by vertex enumeration); the RMS ball of radius 1 is the ℓ2 ball of radius √d, so it "
              "gives √d·D by the same identity (not a separate computation). The "
              "trained-LM spot check recomputes 𝓗 from float64 log-softmax on every step. "
              "Decision rule: " + why)


@diameter_identity.decision_rule
def diameter_identity_decide(errors: dict, trained: dict, tolerance: float
                             ) -> tuple[Verdict, str]:
    """Supported iff every relative error in ``errors`` (per-h identity, attained vs stated
    supremum, excess of random hidden states over it, ℓ∞-ball dual norm) is ≤ ``tolerance`` and
    every trained run in ``trained`` (``{head: {"identity_err_max", "bound_ok"}}``; may be empty
    when no trained model is involved) has identity error ≤ ``tolerance`` and its bound held;
    refuted otherwise, naming the failing quantities."""
    bad = [f"{k} = {errors[k]:.3g}" for k in _DI_KEYS if not errors[k] <= tolerance]
    bad += [f"trained {k}: identity err {v['identity_err_max']:.3g}, bound held {v['bound_ok']}"
            for k, v in trained.items()
            if not (v["identity_err_max"] <= tolerance and v["bound_ok"])]
    if bad:
        return Verdict.REFUTED, "exceeds tolerance " + f"{tolerance:g}: " + "; ".join(bad)
    return Verdict.SUPPORTED, f"all errors ≤ {tolerance:g}"


@diameter_identity.control
def _(ctx: Context) -> ControlOutcome:
    res = _diameter_identity_check(lambda S, H: H * max_l1_row_difference(S)[0], ctx, 15)
    verdict, why = diameter_identity_decide(res, {}, _TOL_DI)
    return ControlOutcome(verdict is Verdict.REFUTED,
                          "sup over the ℓ2 ball claimed as H·max‖s_i−s_j‖₁ (wrong norm)",
                          f"{verdict.value}: {why}", res)


# ============================================================================================
# head.ce_control
# ============================================================================================


def _ce_ratios(constant: float, ctx: Context, n: int) -> dict:
    rng = np.random.default_rng(ctx.numpy_seed("ce"))
    worst = 0.0
    for z, w in _logit_pairs(rng, n):
        lz, lw = _log_softmax(z), _log_softmax(w)
        H = np.ptp(lz - lw)
        if H > 0:
            worst = max(worst, float(np.abs(lz - lw).max() / (constant * H)))
    # near-tight family: one rare class moved by t, the rest renormalised
    tight = []
    for t in (1.0, 5.0):
        for V in (10, 1000):
            z = np.zeros(V)
            z[0] = -40.0
            w = z.copy()
            w[0] += t
            lz, lw = _log_softmax(z), _log_softmax(w)
            tight.append(float(np.abs(lz - lw).max() / (constant * np.ptp(lz - lw))))
    return {"max_ratio_random": worst, "tight_family_ratios": tight,
            "max_ratio": max(worst, max(tight))}


_TOL_BOUND = 1e-12


@claim("head.ce_control", title="Cross-entropy change is controlled by the Hilbert distance",
       source=HEAD("cross-entropy control by the Hilbert distance"),
       statement="|−log p_c + log q_c| ≤ 𝓗(p, q) for every class c")
def ce_control_claim(ctx: Context) -> Outcome:
    r = _ce_ratios(1.0, ctx, 400 if ctx.quick else 4000)
    verdict, why = ce_control_decide(r["max_ratio"], r["tight_family_ratios"])
    sharp = min(abs(1 - x) for x in r["tight_family_ratios"]) < 1e-9
    return Outcome(
        verdict,
        f"max |Δlog p_c| / 𝓗 = {r['max_ratio']:.12f} (≤ 1); rare-class family reaches "
        f"{max(r['tight_family_ratios']):.12f} (sharp: {sharp})",
        evidence={**r, "sharp": sharp},
        notes="Proof sketch: both distributions sum to 1, so the log-ratios straddle 0 and each "
              "lies in [min, max]. Sharp: moving one rare class by t gives ratio → 1. "
              "Decision rule: " + why)


@ce_control_claim.decision_rule
def ce_control_decide(max_ratio: float, tight_family_ratios: list[float]
                      ) -> tuple[Verdict, str]:
    """Supported iff no instance has ``|Δlog p_c| / 𝓗 > 1 + 1e-12`` (random pairs and the
    rare-class family); refuted otherwise. The statement claims no sharpness; how close the
    rare-class family comes to 1 is reported."""
    worst = max([max_ratio, *tight_family_ratios])
    if worst > 1 + _TOL_BOUND:
        return Verdict.REFUTED, f"|Δlog p_c| / 𝓗 reaches {worst:.6g} > 1"
    return Verdict.SUPPORTED, f"|Δlog p_c| / 𝓗 ≤ {worst:.12f} on every instance"


@ce_control_claim.control
def _(ctx: Context) -> ControlOutcome:
    r = _ce_ratios(0.5, ctx, 100)
    verdict, why = ce_control_decide(r["max_ratio"], r["tight_family_ratios"])
    return ControlOutcome(verdict is Verdict.REFUTED, "constant ½ (|Δlog p_c| ≤ ½𝓗)",
                          f"{verdict.value}: {why}", r)


# ============================================================================================
# head.backward_bound
# ============================================================================================


def _backward_ratios(centre: bool, ctx: Context, n: int) -> dict:
    rng = np.random.default_rng(ctx.numpy_seed("bb"))
    worst, tight = 0.0, 1.0
    for k in range(n):
        V, d = 2 + k % 9, 1 + k % 6
        S = rng.normal(size=(V, d)) + (rng.normal(size=d) * 5 if k % 2 else 0)
        r = rng.normal(size=V)
        if centre:
            r -= r.mean()
        D, (i, j) = row_diameter(S)
        if D == 0:
            continue
        worst = max(worst, float(np.linalg.norm(S.T @ r) / (0.5 * D * np.abs(r).sum())))
        e = np.zeros(V)
        e[i], e[j] = 1.0, -1.0
        tight = min(tight, float(np.linalg.norm(S.T @ e) / (0.5 * D * 2.0)))
    return {"max_ratio": worst, "ratio_at_diameter_pair": tight, "instances": n}


@claim("head.backward_bound", title="Backward bound through the head",
       source=HEAD("backward bound through the head"),
       statement="‖Sᵀr‖₂ ≤ ½ D(S) ‖r‖₁ for 1ᵀr = 0, tight at r = e_i − e_j")
def backward_bound_claim(ctx: Context) -> Outcome:
    r = _backward_ratios(True, ctx, 150 if ctx.quick else 3000)
    verdict, why = backward_bound_decide(r["max_ratio"], r["ratio_at_diameter_pair"])
    return Outcome(verdict,
                   f"max ‖Sᵀr‖/(½D‖r‖₁) = {r['max_ratio']:.6f}; at a diameter pair "
                   f"{r['ratio_at_diameter_pair']:.15f}", evidence=r,
                   notes="1ᵀr = 0 splits r into two parts of mass ‖r‖₁/2 each, so Sᵀr is "
                         "‖r‖₁/2 times a difference of two convex combinations of rows. "
                         "Decision rule: " + why)


@backward_bound_claim.decision_rule
def backward_bound_decide(max_ratio: float, ratio_at_diameter_pair: float
                          ) -> tuple[Verdict, str]:
    """Refuted if some instance has ``‖Sᵀr‖₂ / (½D(S)‖r‖₁) > 1 + 1e-12``; refined if the bound
    holds but ``r = e_i − e_j`` at a diameter pair misses equality by more than 1e-12 (the
    statement says it is tight there); supported otherwise."""
    if max_ratio > 1 + _TOL_BOUND:
        return Verdict.REFUTED, f"‖Sᵀr‖₂ / (½D‖r‖₁) reaches {max_ratio:.6g} > 1"
    if abs(ratio_at_diameter_pair - 1) > _TOL_BOUND:
        return Verdict.REFINED, (f"bound holds but the diameter pair gives only "
                                 f"{ratio_at_diameter_pair:.15f} (not tight)")
    return Verdict.SUPPORTED, "bound holds on every instance, equality at a diameter pair"


@backward_bound_claim.control
def _(ctx: Context) -> ControlOutcome:
    r = _backward_ratios(False, ctx, 100)
    verdict, why = backward_bound_decide(r["max_ratio"], r["ratio_at_diameter_pair"])
    return ControlOutcome(verdict is Verdict.REFUTED, "residuals without the centring 1ᵀr = 0",
                          f"{verdict.value}: {why}", r)


# ============================================================================================
# head.tv_bound
# ============================================================================================


def _tv_search(divisor: float, ctx: Context, starts: int) -> dict:
    """Maximise TV(p, q) / tanh(𝓗/divisor) over logits (Nelder–Mead from random starts)."""
    from scipy.optimize import minimize

    rng = np.random.default_rng(ctx.numpy_seed("tv"))

    def ratio(x, V):
        z, w = x[:V], x[V:]
        H = np.ptp(z - w)
        if H < 1e-6:
            return 0.0
        tv = 0.5 * np.abs(np.exp(_log_softmax(z)) - np.exp(_log_softmax(w))).sum()
        return tv / np.tanh(H / divisor)

    best = 0.0
    per_V = {}
    for V in ((2, 3, 5) if starts < 10 else (2, 3, 5, 8)):
        bv = 0.0
        for _ in range(starts):
            x0 = rng.normal(size=2 * V) * rng.choice([0.3, 3.0])
            res = minimize(lambda x: -ratio(x, V), x0, method="Nelder-Mead",
                           options={"maxiter": 400 * V, "xatol": 1e-10, "fatol": 1e-13})
            bv = max(bv, -res.fun, ratio(x0, V))
        per_V[V] = bv
        best = max(best, bv)
    sig = lambda x: 1 / (1 + math.exp(-x))  # noqa: E731
    eq = []
    for t in (0.1, 1.0, 4.0):
        p = np.array([sig(t / 2), sig(-t / 2)])
        eq.append(float(0.5 * np.abs(p - p[::-1]).sum() / np.tanh(t / divisor)))
    return {"max_ratio_found": best, "max_ratio_by_V": per_V, "two_point_ratios": eq,
            "max_ratio": max(best, max(eq))}


@claim("head.tv_bound", title="Total variation bounded by tanh of a quarter Hilbert distance",
       source=HEAD("total-variation bound"), statement="TV(p, q) ≤ tanh(𝓗(p, q)/4), sharp")
def tv_bound_claim(ctx: Context) -> Outcome:
    r = _tv_search(4.0, ctx, 3 if ctx.quick else 20)
    verdict, why = tv_bound_decide(r["max_ratio"], r["two_point_ratios"])
    sharp = all(abs(x - 1) < 1e-12 for x in r["two_point_ratios"])
    return Outcome(verdict,
                   f"max TV/tanh(𝓗/4) found {r['max_ratio_found']:.9f}; symmetric two-point pair "
                   f"gives {r['two_point_ratios'][0]:.15f} (equality)", evidence={**r, "sharp": sharp},
                   notes="Numerical maximisation (Nelder–Mead, random starts, V = 2, 3, 5 (quick) "
                         "or 2, 3, 5, 8 (full)); the "
                         "equality case p = (σ(t/2), σ(−t/2)), q = reversed is exact. "
                         "Decision rule: " + why)


@tv_bound_claim.decision_rule
def tv_bound_decide(max_ratio: float, two_point_ratios: list[float]) -> tuple[Verdict, str]:
    """Refuted if some pair has ``TV / tanh(𝓗/4) > 1 + 1e-9`` (tolerance of the Nelder–Mead
    search); refined if the bound holds but the symmetric two-point pairs miss equality by more
    than 1e-12 (the statement says 'sharp'); supported otherwise."""
    if max_ratio > 1 + 1e-9:
        return Verdict.REFUTED, f"TV / tanh(𝓗/4) reaches {max_ratio:.6g} > 1"
    if not all(abs(x - 1) < 1e-12 for x in two_point_ratios):
        return Verdict.REFINED, f"bound holds but the two-point ratios are {two_point_ratios}"
    return Verdict.SUPPORTED, "bound holds; equality at the symmetric two-point pairs"


@tv_bound_claim.control
def _(ctx: Context) -> ControlOutcome:
    r = _tv_search(8.0, ctx, 1)
    verdict, why = tv_bound_decide(r["max_ratio"], r["two_point_ratios"])
    return ControlOutcome(verdict is Verdict.REFUTED, "tanh(𝓗/8) (wrong constant)",
                          f"{verdict.value}: {why}", r)


# ============================================================================================
# head.min_tension_duality
# ============================================================================================


def _ce_gradient(rng: np.random.Generator, V: int, d: int, n: int = 4) -> np.ndarray:
    """A softmax cross-entropy gradient w.r.t. the head: Σ_t (p_t − e_{y_t}) h_tᵀ (centred)."""
    U = rng.normal(size=(V, d))
    G = np.zeros((V, d))
    for _ in range(n):
        h = rng.normal(size=d)
        p = np.exp(_log_softmax(U @ h))
        p[rng.integers(V)] -= 1.0
        G += np.outer(p, h)
    return G


def _duality_rows(dual_constant: float, ctx: Context, sizes) -> list[dict]:
    """Solve the primal ``min_{D(S)≤η, 1ᵀS=0} ⟨G,S⟩`` and the min-tension flow problem for
    centred cross-entropy gradients; each row holds the primal value and the dual value claimed
    by the statement ``primal = −dual_constant·η·𝒯(G)`` (the paper's constant is 1)."""
    from seqtheory.numerics.head_oracles import centre_rows, min_tension, steepest_descent_diameter

    rng = np.random.default_rng(ctx.numpy_seed("mt"))
    rows = []
    for V, d in sizes:
        G = _ce_gradient(rng, V, d)
        eta = float(rng.uniform(0.5, 2))
        primal = steepest_descent_diameter(G, eta)
        dual = min_tension(centre_rows(G))          # removes the float residue of 1ᵀG = 0
        rows.append({"V": V, "d": d, "eta": eta, "primal": primal.value, "tension": dual.value,
                     "claimed_dual": -dual_constant * eta * dual.value,
                     "status": f"{primal.status}/{dual.status}"})
    return rows


_SOLVER_TOL = 1e-6


@claim("head.min_tension_duality", title="Minimum-tension dual of diameter-constrained descent",
       source=HEAD("steepest descent under a diameter bound"),
       statement="min_{D(S)≤η, 1ᵀS=0} ⟨G,S⟩ = −η𝒯(G), 𝒯(G) = min Σ_{i<j}‖y_ij‖₂ over "
                 "antisymmetric flows with Σ_j y_ij = g_i")
def min_tension_duality(ctx: Context) -> Outcome:
    from seqtheory.numerics.head_oracles import min_tension

    sizes = [(2, 1), (3, 2), (5, 3), (8, 4)] if ctx.quick else \
        [(V, d) for V in (2, 3, 5, 8, 12) for d in (1, 2, 4, 6)]
    rows = _duality_rows(1.0, ctx, sizes)
    verdict, why = min_tension_decide(rows, _SOLVER_TOL)
    gap = max(_rel_gap(r) for r in rows)
    unc = min_tension(np.eye(3, 2))
    return Outcome(verdict,
                   f"max relative gap primal vs −η𝒯 = {gap:.1e} over "
                   f"{counted(len(sizes), 'instance')} (Clarabel; tolerance {_SOLVER_TOL})",
                   evidence={"max_rel_gap": gap, "tolerance": _SOLVER_TOL,
                             "uncentred_flow_status": unc.status},
                   tables={"duality": [{**r, "rel_gap": _rel_gap(r)} for r in rows]},
                   notes="Instances are softmax cross-entropy head gradients, which satisfy 1ᵀG = 0. "
                         "For a general G the flow constraint Σ_j y_ij = g_i is infeasible unless "
                         "1ᵀG = 0 (flows carry no net mass), while the primal only sees PG: the "
                         "identity then holds with 𝒯(PG). Decision rule: " + why)


def _rel_gap(row: dict) -> float:
    """``|primal − claimed_dual| / max(1, |primal|)``; ``inf`` when either value is not finite."""
    p, q = row["primal"], row["claimed_dual"]
    if not (math.isfinite(p) and math.isfinite(q)):
        return math.inf
    return abs(p - q) / max(1.0, abs(p))


@min_tension_duality.decision_rule
def min_tension_decide(rows: list[dict], tolerance: float) -> tuple[Verdict, str]:
    """``rows``: one dict per instance with the solved ``primal`` value and the ``claimed_dual``
    value. Inconclusive if a program was not solved (a non-finite value: the evidence cannot
    decide); refuted if some relative gap ``|primal − claimed_dual| / max(1, |primal|)`` exceeds
    ``tolerance``; supported otherwise."""
    unsolved = [r for r in rows if not (math.isfinite(r["primal"])
                                        and math.isfinite(r["claimed_dual"]))]
    if unsolved:
        return Verdict.INCONCLUSIVE, f"{counted(len(unsolved), 'program')} not solved (non-finite value)"
    gap = max(_rel_gap(r) for r in rows)
    if gap > tolerance:
        return Verdict.REFUTED, f"relative gap {gap:.3g} > solver tolerance {tolerance:g}"
    return Verdict.SUPPORTED, f"every relative gap ≤ {gap:.1e} (tolerance {tolerance:g})"


@min_tension_duality.control
def _(ctx: Context) -> ControlOutcome:
    rows = _duality_rows(0.5, ctx, [(3, 2), (5, 3)])
    verdict, why = min_tension_decide(rows, _SOLVER_TOL)
    return ControlOutcome(verdict is Verdict.REFUTED,
                          "dual constant ½ (primal = −(η/2)𝒯(G), the covering-radius constant), "
                          "both programs feasible and solved",
                          f"{verdict.value}: {why}",
                          {"max_rel_gap": max(_rel_gap(r) for r in rows), "rows": rows})


# ============================================================================================
# head.rownorm_oracle
# ============================================================================================


def _rownorm_oracle_check(centre: bool, ctx: Context, sizes) -> dict:
    from seqtheory.numerics.head_oracles import (
        covering_radius_descent, row_normalise, rownorm_update, rownorm_value,
    )

    rng = np.random.default_rng(ctx.numpy_seed("rn"))
    rows = []
    worst_val, worst_opt, worst_diam, worst_feas = 0.0, 0.0, 0.0, 0.0
    for V, d in sizes:
        G = rng.normal(size=(V, d)) + rng.normal(size=d)       # uncentred on purpose
        eta = float(rng.uniform(0.5, 2))
        S = rownorm_update(G, eta, centre=centre)
        val = float(np.sum(G * S))
        stated = -rownorm_value(G, eta)
        socp = covering_radius_descent(G, eta)
        D = row_diameter(S)[0]
        c = S.mean(axis=0) if not centre else (eta / 2) * row_normalise(G - G.mean(0)).mean(0)
        feas = max(float(np.abs(S.sum(axis=0)).max()),
                   float(np.linalg.norm(S - c, axis=1).max() - eta / 2))
        worst_val = max(worst_val, abs(val - stated) / abs(stated))
        worst_opt = max(worst_opt, abs(val - socp.value) / abs(socp.value))
        worst_diam = max(worst_diam, (D - eta) / eta)
        worst_feas = max(worst_feas, feas)
        rows.append({"V": V, "d": d, "eta": eta, "<G,S_RN>": val, "-Delta_RN": stated,
                     "socp_optimum": socp.value, "D(S_RN)": D})
    return {"value_rel_err": worst_val, "optimality_rel_gap": worst_opt,
            "diameter_excess": worst_diam, "feasibility_violation": worst_feas, "rows": rows}


_RN_KEYS = {"value_rel_err": 1e-12, "optimality_rel_gap": _SOLVER_TOL, "diameter_excess": 1e-12,
            "feasibility_violation": 1e-12}


@claim("head.rownorm_oracle", title="Projected RowNorm solves the covering-radius problem",
       source=HEAD("projected RowNorm"),
       statement="S_RN = −(η/2)P·RN(PG) minimises ⟨G,S⟩ over covering radius ≤ η/2, gives "
                 "Δ_RN = (η/2)Σ_i‖(PG)_i‖₂, and D(S_RN) ≤ η")
def rownorm_oracle(ctx: Context) -> Outcome:
    sizes = [(2, 2), (4, 3), (7, 2), (10, 5)] if ctx.quick else \
        [(V, d) for V in (2, 3, 5, 8, 12) for d in (1, 2, 4, 6)]
    r = _rownorm_oracle_check(True, ctx, sizes)
    verdict, why = rownorm_oracle_decide({k: r[k] for k in _RN_KEYS}, _RN_KEYS)
    return Outcome(verdict,
                   f"⟨G,S_RN⟩ = −Δ_RN to {r['value_rel_err']:.1e}; SOCP gap "
                   f"{r['optimality_rel_gap']:.1e}; max (D−η)/η = {r['diameter_excess']:.2e}",
                   evidence={**{k: v for k, v in r.items() if k != "rows"},
                             "tolerances": dict(_RN_KEYS)},
                   tables={"rownorm_oracle": r["rows"]},
                   notes="G is deliberately uncentred: the covering-radius program carries "
                         "1ᵀS = 0 (without it the objective is unbounded below for 1ᵀG ≠ 0); the "
                         "outer P places the optimal ball's centre so that 1ᵀS_RN = 0. "
                         "Decision rule: " + why)


@rownorm_oracle.decision_rule
def rownorm_oracle_decide(errors: dict, tolerances: dict) -> tuple[Verdict, str]:
    """``errors``: the worst value error ``|⟨G,S_RN⟩ + Δ_RN|/Δ_RN``, SOCP optimality gap,
    diameter excess ``(D(S_RN) − η)/η`` and feasibility violation (``1ᵀS = 0`` and covering
    radius ≤ η/2). Supported iff each is ≤ its tolerance in ``tolerances``; refuted otherwise."""
    bad = [f"{k} = {errors[k]:.3g} > {tol:g}" for k, tol in tolerances.items()
           if not errors[k] <= tol]
    if bad:
        return Verdict.REFUTED, "; ".join(bad)
    return Verdict.SUPPORTED, "value, optimality, diameter and feasibility within tolerance"


@rownorm_oracle.control
def _(ctx: Context) -> ControlOutcome:
    r = _rownorm_oracle_check(False, ctx, [(4, 3), (7, 2)])
    verdict, why = rownorm_oracle_decide({k: r[k] for k in _RN_KEYS}, _RN_KEYS)
    return ControlOutcome(verdict is Verdict.REFUTED, "missing centring: S = −(η/2)·RN(G)",
                          f"{verdict.value}: {why}",
                          {k: v for k, v in r.items() if k != "rows"})


# ============================================================================================
# head.rownorm_ratio
# ============================================================================================


def _ratio_data(ctx: Context, n_random: int, kmax: int) -> dict:
    from seqtheory.numerics.head_oracles import regular_simplex_gradient, rownorm_ratio

    rng = np.random.default_rng(ctx.numpy_seed("rr"))
    rand = []
    for t in range(n_random):
        k = 1 + t % kmax
        V = k + 1 + int(rng.integers(0, 4))
        d = k + int(rng.integers(0, 2))
        G = (rng.normal(size=(V, k)) @ rng.normal(size=(k, d)))      # rank ≤ k
        G -= G.mean(axis=0)
        if t % 3 == 0:
            G[: V // 2] *= 10.0                                      # unbalanced rows
        rand.append(rownorm_ratio(G))
    simplex = [rownorm_ratio(regular_simplex_gradient(k)) for k in range(1, kmax + 1)]
    return {"random": rand, "simplex": simplex}


_NO_K2 = "no random G of rank ≥ 2"


def _ratio_stats(data: dict, bound) -> dict:
    """How the measured ratios sit against ``bound(k)``: the worst violation below the bound and
    above 1, and the distance of the regular-simplex ratios from the bound (tightness)."""
    below = max(max(bound(r["k"]) - r["ratio"] for r in data["random"] + data["simplex"]), 0.0)
    above = max(max(r["ratio"] - 1 for r in data["random"] + data["simplex"]), 0.0)
    tight = max(abs(r["ratio"] - bound(r["k"])) for r in data["simplex"])
    rand = data["random"]
    return {"max_violation_below": below, "max_violation_above": above, "simplex_tightness_err":
            tight, "min_margin_random_k>=2": min((r["ratio"] - bound(r["k"]) for r in rand
                                                  if r["k"] >= 2), default=float("nan")),
            "max_ratio_random_k>=2": max((r["ratio"] for r in rand if r["k"] >= 2),
                                         default=float("nan"))}


_CACHE: dict = {}


def _cached(key, fn):
    if key not in _CACHE:
        _CACHE[key] = fn()
    return _CACHE[key]


@claim("head.rownorm_ratio", title="RowNorm is within √((k+1)/(2k)) of the exact step",
       source=HEAD("RowNorm approximation ratio"),
       statement="√((k+1)/(2k)) ≤ Δ_RN/Δ* ≤ 1, k = rank G, tight for a regular-simplex gradient")
def rownorm_ratio_claim(ctx: Context) -> Outcome:
    from seqtheory.numerics.head_oracles import rownorm_ratio_bound

    kmax = 4 if ctx.quick else 6
    data = _cached(("rr", ctx.seed, ctx.profile),
                   lambda: _ratio_data(ctx, 12 if ctx.quick else 80, kmax))
    v = _ratio_stats(data, rownorm_ratio_bound)
    verdict, why = rownorm_ratio_decide(v, _SOLVER_TOL)
    fig, ax = new_figure(figsize=(5, 3.5))
    ks = np.arange(1, kmax + 1)
    ax.plot(ks, [rownorm_ratio_bound(int(k)) for k in ks], "k-", label="√((k+1)/(2k))")
    ax.scatter([r["k"] for r in data["random"]], [r["ratio"] for r in data["random"]], s=12,
               label="random G (SOCP)")
    ax.scatter([r["k"] for r in data["simplex"]], [r["ratio"] for r in data["simplex"]],
               marker="x", c="r", label="regular simplex G")
    ax.axhline(1.0, ls=":", c="gray")
    ax.set_xlabel("k = rank G")
    ax.set_ylabel("Δ_RN / Δ*")
    ax.legend(fontsize=7)
    figs = save_figure(fig, ctx, "head_rownorm_ratio")
    return Outcome(verdict,
                   f"random G with k ≥ 2: min (ratio − bound) = "
                   f"{format_stat(v['min_margin_random_k>=2'], '.3f', _NO_K2)}, max ratio "
                   f"{format_stat(v['max_ratio_random_k>=2'], '.4f', _NO_K2)} "
                   f"(k = 1: bound = 1); "
                   f"regular simplex k=1..{kmax}: |ratio − bound| ≤ {v['simplex_tightness_err']:.1e} "
                   f"(solver tolerance {_SOLVER_TOL:g})",
                   evidence=v,
                   tables={"simplex": [{"k": r["k"], "ratio": r["ratio"], "bound": r["bound"]}
                                       for r in data["simplex"]],
                           "random": [{"k": r["k"], "ratio": r["ratio"], "bound": r["bound"]}
                                      for r in data["random"]]},
                   figures=figs,
                   notes="Δ* from the diameter SOCP (Clarabel). Lower end: Jung's theorem in the "
                         "k-dimensional row space of G; k is the numerical rank of PG (relative "
                         "tolerance 1e-9). rank PG ≤ rank G and the bound decreases in k, so the "
                         "statement with k = rank G follows. Decision rule: " + why)


@rownorm_ratio_claim.decision_rule
def rownorm_ratio_decide(stats: dict, tolerance: float) -> tuple[Verdict, str]:
    """Refuted if a ratio lies below the stated lower bound or above 1 by more than ``tolerance``
    (the SOCP tolerance); refined if the bounds hold but the regular-simplex gradients miss the
    lower bound by more than ``tolerance`` (the statement says it is tight there); supported
    otherwise."""
    if stats["max_violation_below"] > tolerance or stats["max_violation_above"] > tolerance:
        return Verdict.REFUTED, (f"ratio below the bound by {stats['max_violation_below']:.3g}, "
                                 f"above 1 by {stats['max_violation_above']:.3g}")
    if stats["simplex_tightness_err"] > tolerance:
        return Verdict.REFINED, (f"bounds hold, but the regular-simplex gradients miss the lower "
                                 f"bound by {stats['simplex_tightness_err']:.3g} (not tight)")
    return Verdict.SUPPORTED, "bounds hold; the regular-simplex gradients attain the lower bound"


def _oversized_step(data: dict) -> dict:
    """The ratios of the oversized step ``S = −η P·RN(PG)`` (covering radius η, so D(S) can reach
    2η: outside the feasible set ``D(S) ≤ η``). ``Δ = −⟨G, S⟩`` is linear in the step's scale, so
    each ratio is exactly twice the measured ``Δ_RN/Δ*``."""
    return {key: [{**r, "ratio": 2.0 * r["ratio"]} for r in rows] for key, rows in data.items()}


#: Wrong variants of ``head.rownorm_ratio`` the rule must reject, each with its data transform,
#: its stated lower bound and the verdicts that count as a rejection. The first is not tight (the
#: rule must not call it supported); the other two are violated (the rule must refute them).
_RATIO_VARIANTS = (
    ("wrong constant √(k/(2(k+1))) (Jung's radius itself): holds, not tight",
     lambda d: d, lambda k: math.sqrt(k / (2.0 * (k + 1))), "not supported"),
    ("violation below: the claim 'RowNorm is exact' (lower bound 1 for every k)",
     lambda d: d, lambda k: 1.0, "refuted"),
    ("violation above: the oversized step −η P·RN(PG) (covering radius η, outside D(S) ≤ η)",
     _oversized_step, None, "refuted"),
)


@rownorm_ratio_claim.control
def _(ctx: Context) -> ControlOutcome:
    """Three wrong variants through the same rule: a bound that holds but is not tight (must not
    be supported), a bound violated from below (must be refuted) and a ratio above 1 (must be
    refuted). Rejected iff every variant gets its expected verdict."""
    from seqtheory.numerics.head_oracles import rownorm_ratio_bound

    data = _cached(("rr", ctx.seed, ctx.profile),
                   lambda: _ratio_data(ctx, 12 if ctx.quick else 80, 4 if ctx.quick else 6))
    rows, ok = [], True
    for name, transform, bound, expected in _RATIO_VARIANTS:
        v = _ratio_stats(transform(data), bound or rownorm_ratio_bound)
        verdict, why = rownorm_ratio_decide(v, _SOLVER_TOL)
        good = (verdict is Verdict.REFUTED if expected == "refuted"
                else verdict is not Verdict.SUPPORTED)
        ok &= good
        rows.append({"variant": name, "expected": expected, "verdict": verdict.value,
                     "rejected": good, "why": why, **v})
    return ControlOutcome(ok, "; ".join(r["variant"] for r in rows),
                          " | ".join(f"{r['verdict']}: {r['why']}" for r in rows),
                          {"variants": rows})


# ============================================================================================
# head.equidistance_limit (v1)
# ============================================================================================


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


@claim("head.equidistance_limit", title="Max–min separation is only approximately equidistant",
       source=HEAD("max–min row separation under a diameter bound", version="v1"),
       statement="the max-min-separation update under a diameter bound is only approximately "
                 "equidistant when V > d+1")
def equidistance_limit(ctx: Context) -> Outcome:
    r = _equidistance_check(lambda d: d + 1, ctx, 6 if ctx.quick else 12,
                            _EQ_CASES_QUICK if ctx.quick else _EQ_CASES_FULL)
    verdict, parts, why = equidistance_decide(r["exact"], r["optimisation"],
                                              r["gram_certificate"]["holds"])
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
                   "the simplex/Rankin bounds",
                   evidence={"verdict_reason": why, "gram_certificate": r["gram_certificate"],
                             "part_verdicts": {k: v.value for k, (v, _) in parts.items()}},
                   tables={"parts": parts_table(parts), "exact": r["exact"],
                           "optimisation": r["optimisation"]},
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
                         "1/φ, V=7: 1/2), not a certificate. Decision rule: " + why)


@equidistance_limit.decision_rule
def equidistance_decide(exact: list[dict], optimisation: list[dict], gram_certificate: bool
                        ) -> tuple[Verdict, dict[str, tuple[Verdict, str]], str]:
    """Two parts, combined by :func:`~seqtheory.proofs_checks.registry.combine_verdicts` (the
    weakest part decides). ``exact``: per d, the exact maximum number of equidistant points, the
    ``claimed`` limit and whether the regular simplex is exactly equidistant;
    ``gram_certificate``: the symbolic Gram argument for every V (:func:`gram_cholesky_certificate`).
    Exact part ("no more than d+1 points are equidistant, so V > d+1 is never exact"): refuted if
    some exact maximum differs from the claimed limit or the simplex is not exact; confirmed when
    the symbolic certificate holds (every d); supported without it (the d computed only).
    ``optimisation``: per (V, d), the best min/max ratio found, its ``bound`` and whether
    equidistance was reached vs claimed. Numerical part ("only approximately"): refuted if an
    optimum beats its bound (by > 1e-9) or equidistance is reached where not claimed or missed
    where claimed; otherwise supported (an optimisation result on the cases listed).
    Returns ``(overall, {part: (verdict, why)}, why)``."""
    bad = [f"d={e['d']}: exact maximum {e['max_equidistant_points']} ≠ claimed {e['claimed']}"
           for e in exact if e["max_equidistant_points"] != e["claimed"] or not e["simplex_exact"]]
    if bad:
        ex = (Verdict.REFUTED, "; ".join(bad))
    elif gram_certificate:
        ex = (Verdict.CONFIRMED, f"symbolic Gram certificate for every d; exact ranks agree for "
                                 f"d = 1..{len(exact)}")
    else:
        ex = (Verdict.SUPPORTED, f"exact ranks for d = 1..{len(exact)} only (no certificate for "
                                 "every d)")
    off = [f"(V, d)=({o['V']}, {o['d']}): ratio {o['best_ratio']:.4f}, bound {o['bound']:.4f}, "
           f"equidistant {o['equidistant']} vs claimed {o['claimed_equidistant']}"
           for o in optimisation if not (o["best_ratio"] <= o["bound"] + 1e-9
                                         and o["equidistant"] == o["claimed_equidistant"])]
    if off:
        num = (Verdict.REFUTED, "; ".join(off))
    elif not optimisation:
        num = (Verdict.INCONCLUSIVE, "no optimisation case")
    else:
        num = (Verdict.SUPPORTED, f"{counted(len(optimisation), 'case')} (V, d): optima within their bounds, "
                                  "equidistant exactly where V ≤ d+1 (optimisation results)")
    parts = {"exact: at most d+1 equidistant points": ex,
             "numerical: best ratio for V > d+1": num}
    verdict, why = combine_verdicts(parts)
    return verdict, parts, why


@equidistance_limit.control
def _(ctx: Context) -> ControlOutcome:
    r = _equidistance_check(lambda d: d, ctx, 4, [(3, 2), (4, 3)])
    verdict, _, why = equidistance_decide(r["exact"], r["optimisation"],
                                          r["gram_certificate"]["holds"])
    return ControlOutcome(verdict is Verdict.REFUTED, "limit V ≤ d (instead of d+1)",
                          f"{verdict.value}: {why}", {"exact": r["exact"]})

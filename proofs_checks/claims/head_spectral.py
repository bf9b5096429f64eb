"""Claim ``head.spectral_norm_mismatch`` of [HEAD] (A. Somasundaram et al., *Toward a
First-Principles Update Geometry for the Language-Model Head*, arXiv:2608.22253v2, section on
the choice of update geometry; the section number is unknown): the spectral norm is the wrong
geometry for head updates.

The witness is the update ``S = 1aᵀ`` (every row equal to ``a ∈ R^d``): it adds the same number
``aᵀh`` to every logit, so by the shift invariance of softmax it changes no output
(``𝓗(p_{U+S}(h), p_U(h)) = ‖Sh‖_var = 0`` for every ``U`` and ``h``) and its row diameter is
``D(S) = 0``; yet its operator norm is ``‖S‖₂ = √V‖a‖₂``, the largest any update with rows of norm
``‖a‖₂`` can have. A spectral-norm budget can therefore be spent entirely on a direction that
does nothing, while ``D(S)`` measures exactly what the output feels.

Evidence is exact (sympy over the integers, symbolic ``h``): the differences ``(Sh)_i − (Sh)_j``
are the zero polynomial, all rows are equal, and ``SᵀS = V·aaᵀ`` has rank 1 and trace ``V‖a‖²``,
so its only non-zero eigenvalue is ``V‖a‖²``. A float table adds the family
``S_λ = S₀ + λ·1aᵀ``: ``D(S_λ)`` stays fixed while ``‖S_λ‖₂`` grows without bound.
"""
from __future__ import annotations

from typing import Callable

import numpy as np

from seqtheory.theory._messages import counted
from seqtheory.proofs_checks.registry import HEAD, ControlOutcome, Context, Outcome, Verdict, claim
from seqtheory.theory.hilbert import hilbert_distance, row_diameter

_SIZES_QUICK = [(2, 1), (3, 2), (5, 3), (8, 4)]
_SIZES_FULL = _SIZES_QUICK + [(12, 5), (30, 6), (64, 3)]


def _softmax_output_change(z: list) -> list:
    """Expressions that vanish iff softmax does not move under the logit change ``z``: the
    differences ``z_i − z_0`` (softmax is invariant exactly under constant shifts)."""
    return [zi - z[0] for zi in z[1:]]


def _logit_output_change(z: list) -> list:
    """Expressions that vanish iff the logits themselves do not move: the entries of ``z``."""
    return list(z)


def _exact_instance(V: int, a: list[int], output_change: Callable[[list], list]) -> dict:
    """Exact evidence for ``S = 1aᵀ`` (``V`` rows, integer ``a``), with symbolic ``h``."""
    import sympy as sp

    d = len(a)
    h = sp.Matrix(sp.symbols(f"h0:{d}", real=True))
    S = sp.Matrix([list(a)] * V)
    z = list(S * h)
    change_zero = all(sp.expand(e) == 0 for e in output_change(z))
    M = S.T * S
    return {"V": V, "d": d, "a": list(a), "output_change_zero": bool(change_zero),
            "rows_equal": all(S.row(i) == S.row(0) for i in range(V)),
            "gram_rank": int(M.rank()), "op_norm_sq": int(M.trace()),
            "stated_op_norm_sq": int(V * sum(x * x for x in a))}


def _instances(ctx: Context, output_change: Callable[[list], list]) -> list[dict]:
    rng = ctx.rng("head.spectral_norm_mismatch")
    rows = []
    for V, d in (_SIZES_QUICK if ctx.quick else _SIZES_FULL):
        a = [0] * d
        while not any(a):
            a = [rng.randint(-9, 9) for _ in range(d)]
        rows.append(_exact_instance(V, a, output_change))
    return rows


def _float_family(ctx: Context) -> list[dict]:
    """``S_λ = S₀ + λ·1aᵀ`` (V = 6, d = 4): row diameter, operator norm and the largest Hilbert
    change over 2000 random unit hidden states and 3 random heads U (float64, from the
    log-probabilities of both heads)."""
    from scipy.special import log_softmax

    rng = np.random.default_rng(ctx.numpy_seed("head.spectral_norm_mismatch.float"))
    V, d = 6, 4
    S0, a = rng.normal(size=(V, d)), rng.normal(size=d)
    hs = rng.normal(size=(2000, d))
    hs /= np.linalg.norm(hs, axis=1, keepdims=True)
    Us = [rng.normal(size=(V, d)) * 3 for _ in range(3)]
    out = []
    for lam in (0.0, 1.0, 10.0, 100.0, 1000.0):
        S = S0 + lam * np.outer(np.ones(V), a)
        change = max(float(np.max(hilbert_distance(log_softmax(hs @ (U + S).T, axis=1),
                                                   log_softmax(hs @ U.T, axis=1), space="log")))
                     for U in Us)
        out.append({"lambda": lam, "D(S)": row_diameter(S)[0],
                    "op_norm": float(np.linalg.norm(S, 2)), "max_hilbert_change_unit_h": change})
    return out


@claim("head.spectral_norm_mismatch", title="The spectral norm is the wrong head-update geometry",
       source=HEAD("choice of update geometry for the head"),
       statement="S = 1aᵀ changes no output (Hilbert change 0 for every h, every U) and has "
                 "D(S) = 0, yet its operator norm is √V‖a‖₂")
def spectral_norm_mismatch(ctx: Context) -> Outcome:
    rows = _instances(ctx, _softmax_output_change)
    verdict, why = spectral_mismatch_decide(rows)
    fam = _float_family(ctx)
    return Outcome(
        verdict,
        f"{counted(len(rows), 'exact instance')} (V up to {max(r['V'] for r in rows)}): Hilbert change ≡ 0, "
        f"D(S) = 0, ‖S‖₂² = V‖a‖² exactly; S₀ + λ·1aᵀ: D fixed at {fam[0]['D(S)']:.3f} while "
        f"‖S‖₂ goes {fam[0]['op_norm']:.2f} → {fam[-1]['op_norm']:.0f} (λ = 0 → 1000)",
        evidence={"instances": len(rows), "family_max_hilbert_change_spread":
                  max(r["max_hilbert_change_unit_h"] for r in fam)
                  - min(r["max_hilbert_change_unit_h"] for r in fam)},
        tables={"exact": rows, "family_S0_plus_lambda_1a": fam},
        notes="Exact: (Sh)_i − (Sh)_j is the zero polynomial in a symbolic h, so softmax (shift "
              "invariant) does not move for any U; SᵀS = V·aaᵀ has rank 1, so its largest "
              "eigenvalue is its trace V‖a‖². The float family shows the spectral norm growing "
              "without bound while D(S) and the largest Hilbert change over unit hidden states "
              "(which equals D(S) up to sampling) stay fixed: the spectral norm does not measure "
              "what the output feels. The converse inequality D(S) ≤ √2·‖S‖₂ does hold, so a "
              "spectral budget bounds the Hilbert change but spends it on dead directions. "
              "Decision rule: " + why)


@spectral_norm_mismatch.decision_rule
def spectral_mismatch_decide(instances: list[dict]) -> tuple[Verdict, str]:
    """``instances``: per exact instance of ``S = 1aᵀ``, whether the output change is the zero
    polynomial, whether all rows are equal (``D(S) = 0``), the rank of ``SᵀS`` and the exact
    ``‖S‖₂² = trace(SᵀS)`` (valid when the rank is 1) vs the stated ``V‖a‖²``. Supported iff every
    instance has a zero output change, equal rows, rank 1 and ``‖S‖₂² = V‖a‖² > 0`` (each
    instance exact, for every h and U; the statement is for every V and a, so finitely many
    instances support it, listed and counted); refuted otherwise, naming the instance and what
    failed."""
    if not instances:
        return Verdict.INCONCLUSIVE, "no instance"
    bad = []
    for r in instances:
        what = [w for w, ok in (("output changes", r["output_change_zero"]),
                                ("rows differ (D(S) > 0)", r["rows_equal"]),
                                ("rank SᵀS ≠ 1", r["gram_rank"] == 1),
                                ("‖S‖₂² ≠ V‖a‖²", r["op_norm_sq"] == r["stated_op_norm_sq"] > 0))
                if not ok]
        if what:
            bad.append(f"V={r['V']}, a={r['a']}: " + ", ".join(what))
    if bad:
        return Verdict.REFUTED, "; ".join(bad)
    sizes = ", ".join(f"V={r['V']}, a={r['a']}" for r in instances)
    return Verdict.SUPPORTED, (f"exact on all {counted(len(instances), 'instance')} ({sizes}): no output "
                               "moves, D(S) = 0, ‖S‖₂ = √V‖a‖₂")


@spectral_norm_mismatch.control
def _(ctx: Context) -> ControlOutcome:
    rows = _instances(ctx, _logit_output_change)
    verdict, why = spectral_mismatch_decide(rows)
    return ControlOutcome(verdict is Verdict.REFUTED,
                          "outputs read as the logits Uh (no softmax, so no shift invariance)",
                          f"{verdict.value}: {why}", {"instances": rows})

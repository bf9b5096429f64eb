"""Restricted (affine, commuting linear parts) layers against targets with non-zero commutator mass.

Source: [DEPTH] G. Heo et al., arXiv:2603.05573, Theorem 3.2 (a constant-depth restricted model
has simulation error bounded below by a term scaling with the commutator mass ``‖Ω2‖``) and
SPEC §2/§3.1: a *restricted* layer has commuting linear parts and a free bias,
``h ← a(x) ⊙ h + b(x)`` (Mamba, GLA, diagonal linear RNNs).

The target class here: token x acts on ``(h, 1)`` by the affine matrix
``M_x = [[diag(α_x), β_x], [0, 1]]`` (d+1)×(d+1). The ``M_x`` need not commute (their commutator
is ``[[0, (α_x − 1)β_y − (α_y − 1)β_x], [0, 0]]`` coordinate-wise), so the Lie generators
``G_x = log M_x = [[diag(a_x), b_x], [0, 0]]`` (``a = log α``, ``b = β a/(α − 1)``, ``b = β``
where ``α = 1``) have ``Ω2 ≠ 0``; yet the restricted layer ``h ← α_x ⊙ h + β_x`` reproduces the
target's first d coordinates exactly. All products are exact (``Fraction``); the generators and
``Ω2`` use mpmath.
"""
from __future__ import annotations

import itertools
import random
from fractions import Fraction

import mpmath
import numpy as np

from seqtheory.theory._checks import check_int
from seqtheory.theory.contract import check_exact
from seqtheory.theory.mp_precision import MAX_DPS

from .local_error import check_word
from .reversal import omega2, spectral_norm
from .word_counts import check_word_count
from seqtheory.theory.mp_precision import working_dps

__all__ = ["affine_target_matrices", "affine_generators", "affine_target_state",
           "restricted_layer_state", "restricted_vs_target_table", "order_free_best_errors",
           "random_target_search", "eps_scaled_rows", "MAX_TABLE_WORDS"]

#: the most words :func:`restricted_vs_target_table` tabulates (each an exact product and an
#: mpmath Ω2: about a millisecond)
MAX_TABLE_WORDS = 2 ** 14


def _fractions(v, name: str, ndim: int = 2) -> np.ndarray:
    """``v`` as an object array of ``Fraction`` (:func:`~seqtheory.theory.contract.check_exact`
    per entry: ints, Fractions, sympy / python-flint rationals, Decimal; floats refused), of
    ``ndim`` dimensions, none of them empty."""
    A = np.asarray(v.tolist() if hasattr(v, "tolist") else v, dtype=object)
    if A.ndim != ndim or 0 in A.shape:
        want = "an (n_letters, d) array" if ndim == 2 else "a vector"
        raise ValueError(f"{name} must be {want} of exact numbers, got shape {A.shape}")
    out = np.empty(A.shape, dtype=object)
    for idx, x in np.ndenumerate(A):
        out[idx] = check_exact(name, x)
    return out


def _check(alpha, beta, names: tuple[str, str] = ("alpha", "beta")) -> tuple[np.ndarray, np.ndarray]:
    a, b = _fractions(alpha, names[0]), _fractions(beta, names[1])
    if a.shape != b.shape:
        raise ValueError(f"{names[0]} and {names[1]} must have equal shapes, got {a.shape}, {b.shape}")
    if any(x <= 0 for x in a.flat):
        raise ValueError(f"{names[0]} must be positive (the affine maps need a real logarithm)")
    return a, b


def affine_target_matrices(alpha, beta) -> list[np.ndarray]:
    """``M_x = [[diag(α_x), β_x], [0, 1]]`` (exact ``Fraction`` object arrays, (d+1)×(d+1))."""
    a, b = _check(alpha, beta)
    d = a.shape[1]
    out = []
    for x in range(a.shape[0]):
        M = np.array([[Fraction(0)] * (d + 1) for _ in range(d + 1)], dtype=object)
        for i in range(d):
            M[i, i] = a[x, i]
            M[i, d] = b[x, i]
        M[d, d] = Fraction(1)
        out.append(M)
    return out


def affine_generators(alpha, beta, dps: int = 50) -> list[np.ndarray]:
    """``G_x = log M_x = [[diag(a_x), b_x], [0, 0]]`` with ``a = log α``, ``b = β a / (α − 1)``
    (``b = β`` where ``α = 1``), mpf object arrays at ``dps`` digits."""
    a, b = _check(alpha, beta)
    d = a.shape[1]
    out = []
    with working_dps(dps) as dps:
        for x in range(a.shape[0]):
            G = np.empty((d + 1, d + 1), dtype=object)
            G[...] = mpmath.mpf(0)
            for i in range(d):
                al = mpmath.mpf(a[x, i].numerator) / a[x, i].denominator
                be = mpmath.mpf(b[x, i].numerator) / b[x, i].denominator
                la = mpmath.log(al)
                G[i, i] = la
                G[i, d] = be if a[x, i] == 1 else be * la / (al - 1)
            out.append(G)
    return out


def affine_target_state(alpha, beta, word, h0) -> np.ndarray:
    """First d coordinates of ``M_{x_T} ⋯ M_{x_1} (h0, 1)`` (exact; matrix products)."""
    Ms = affine_target_matrices(alpha, beta)
    w = check_word(word, len(Ms))
    d = Ms[0].shape[0] - 1
    v = np.array([Fraction(x) for x in _h0(h0, d)] + [Fraction(1)], dtype=object)
    P = np.array([[Fraction(int(i == j)) for j in range(d + 1)] for i in range(d + 1)],
                 dtype=object)
    for x in w:
        P = Ms[x].dot(P)
    return P.dot(v)[:d]


def restricted_layer_state(decay, bias, word, h0) -> np.ndarray:
    """State of the restricted layer ``h ← a(x) ⊙ h + b(x)`` after ``word`` from ``h0`` (exact)."""
    a, b = _check(decay, bias, ("decay", "bias"))
    w = check_word(word, a.shape[0])
    h = np.array([Fraction(x) for x in _h0(h0, a.shape[1])], dtype=object)
    for x in w:
        h = a[x] * h + b[x]
    return h


def _h0(h0, d: int) -> list:
    v = list(_fractions(h0, "h0", ndim=1))
    if len(v) != d:
        raise ValueError(f"h0 must have length {d}, got {len(v)}")
    return v


def restricted_vs_target_table(alpha, beta, h0, max_len: int, dps: int = 40) -> list[dict]:
    """For every word of length 1..max_len: the restricted layer with weights ``(α, β)`` vs the
    target ``M_x``: exact error (max abs over coordinates), ``‖Ω2‖`` (spectral norm, generators
    ``G_x``, ε = 1) and ``‖Ω2 (h0, 1)‖``."""
    max_len = check_int("max_len", max_len)
    dps = check_int("dps", dps, 1, MAX_DPS)
    a, b = _check(alpha, beta)
    n, d = a.shape
    check_word_count(n, max_len, ("alpha's letters", "max_len"), upto=True,
                     cap=MAX_TABLE_WORDS)
    G = affine_generators(alpha, beta, dps)
    v0 = np.array([float(x) for x in _h0(h0, d)] + [1.0])
    rows = []
    for T in range(1, max_len + 1):
        for w in itertools.product(range(n), repeat=T):
            y = restricted_layer_state(a, b, w, h0)
            t = affine_target_state(a, b, w, h0)
            O2 = np.array(omega2(G, list(w), dps), dtype=float)
            rows.append({"word": "".join("abcdefgh"[i] for i in w),
                         "error": float(max(abs(p - q) for p, q in zip(y, t))),
                         "target": [str(x) for x in t],
                         "norm_Omega2": spectral_norm(O2),
                         "norm_Omega2_h0": float(np.linalg.norm(O2 @ v0))})
    return rows


def order_free_best_errors(alpha, beta, h0, max_len: int) -> list[float]:
    """For every word (same order as :func:`restricted_vs_target_table`): the worst error, over
    the words with the same letter counts, of the best *order-free* model (an abelian layer
    without bias, or any model whose output depends only on the letter counts), i.e. half the
    range of the target's first coordinate over that count class (sup norm)."""
    max_len = check_int("max_len", max_len)
    a, b = _check(alpha, beta)
    n, d = a.shape
    vals, keys = [], []
    for T in range(1, max_len + 1):
        for w in itertools.product(range(n), repeat=T):
            vals.append(affine_target_state(a, b, w, h0))
            keys.append(tuple(w.count(x) for x in range(n)))
    half: dict = {}
    for k, v in zip(keys, vals):
        lo, hi = half.get(k, (list(v), list(v)))
        half[k] = ([min(p, q) for p, q in zip(lo, v)], [max(p, q) for p, q in zip(hi, v)])
    return [float(max((h - l) / 2 for l, h in zip(*half[k]))) for k in keys]


def random_target_search(rng: random.Random, n_targets: int, max_len: int, tol: float,
                         threshold: float) -> dict:
    """Random targets of the class one restricted layer realises, each checked on all words:
    ``n_targets`` targets with ``n ∈ {2, 3}`` letters, ``d ∈ {1, 2}`` coordinates,
    ``α ∈ {1..19}/10 \\ {1}``, ``β ∈ {−20..20}/10``, ``h0 ∈ {−2..2}^d`` (drawn from ``rng``, a
    ``random.Random``), all words up to ``max_len`` letters (``max_len − 1`` for 3 letters)
    through :func:`restricted_vs_target_table`. A target's words *with mass* have
    ``‖Ω2‖ ≥ threshold``; the bound "error ≥ C‖Ω2‖" fails on a target when such a word has
    error ≤ ``tol``.

    Returns ``{"targets": [per target: "target", "n", "d", "words", "words_with_mass",
    "words_exact_with_mass", "bound_fails", "max_error"], "n_targets", "n_bound_fails",
    "fraction_targets_bound_fails", "fraction_words_with_mass_exact", "max_len"}``. Source:
    [DEPTH] arXiv:2603.05573, Theorem 3.2 (as stated, for restricted models)."""
    n_targets, max_len = check_int("n_targets", n_targets), check_int("max_len", max_len, 2)
    per_target = []
    for i in range(n_targets):
        n, d = rng.choice((2, 3)), rng.choice((1, 2))
        alpha = [[Fraction(rng.choice([v for v in range(1, 20) if v != 10]), 10)
                  for _ in range(d)] for _ in range(n)]
        beta = [[Fraction(rng.randint(-20, 20), 10) for _ in range(d)] for _ in range(n)]
        h0 = [rng.randint(-2, 2) for _ in range(d)]
        rows = restricted_vs_target_table(alpha, beta, h0, max_len if n == 2 else max_len - 1)
        massive = [r for r in rows if r["norm_Omega2"] >= threshold]
        fails = [r for r in massive if r["error"] <= tol]
        per_target.append({"target": i, "n": n, "d": d, "words": len(rows),
                           "words_with_mass": len(massive), "words_exact_with_mass": len(fails),
                           "bound_fails": bool(fails),
                           "max_error": max(r["error"] for r in rows)})
    n_fail = sum(t["bound_fails"] for t in per_target)
    return {"targets": per_target, "n_targets": n_targets, "n_bound_fails": n_fail,
            "fraction_targets_bound_fails": n_fail / n_targets,
            "fraction_words_with_mass_exact": (sum(t["words_exact_with_mass"] for t in per_target)
                                               / max(1, sum(t["words_with_mass"]
                                                            for t in per_target))),
            "max_len": max_len}


def eps_scaled_rows(alpha, beta, h0, word, eps_values, dps: int = 50) -> list[dict]:
    """The continuous-time version of a one-coordinate target (``alpha``, ``beta``: (n, 1)
    exact): tokens act by ``exp(ε G_x)`` (``G_x = log M_x``, :func:`affine_generators`), and the
    restricted layer with ``α_x(ε) = e^{ε a_x}``, ``β_x(ε) = b_x (e^{ε a_x} − 1)/a_x`` runs
    beside it from ``h0`` (length 1). One row per ε of ``eps_values`` (Fractions or ints > 0):
    ``{"eps", "word"`` (letters a, b, …), ``"error"`` (|layer − target| at ``dps`` digits: working
    precision when the layer tracks the target), ``"eps2_norm_Omega2"`` (ε²‖Ω2‖, spectral
    norm)``}``. ``ValueError`` unless d = 1 and every ``a_x ≠ 0`` (α ≠ 1)."""
    from .local_error import path_product

    a, _ = _check(alpha, beta)
    if a.shape[1] != 1 or any(x == 1 for x in a.flat):
        raise ValueError("eps_scaled_rows needs a one-coordinate target (alpha, beta of shape "
                         "(n, 1)) with alpha != 1")
    h00 = _h0(h0, 1)[0]
    h00 = mpmath.mpf(h00.numerator) / h00.denominator
    w = check_word(word, a.shape[0])
    G = affine_generators(alpha, beta, dps=dps)
    O2 = spectral_norm(omega2(G, list(w), dps))
    rows = []
    with working_dps(dps) as dps:
        for e in eps_values:
            e = Fraction(e)
            em = mpmath.mpf(e.numerator) / e.denominator
            P = path_product(G, list(w), em, dps)
            h = mpmath.mpf(h00)
            for x in w:
                ax, bx = G[x][0, 0], G[x][0, 1]
                h = mpmath.exp(em * ax) * h + bx * (mpmath.exp(em * ax) - 1) / ax
            target = P[0, 0] * h00 + P[0, 1]
            rows.append({"eps": float(e), "word": "".join("abcdefgh"[i] for i in w),
                         "error": float(abs(h - target)), "eps2_norm_Omega2": float(em ** 2) * O2})
    return rows

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
from fractions import Fraction

import mpmath
import numpy as np

from seqtheory.theory._checks import check_int

from .local_error import check_word
from .reversal import omega2

__all__ = ["affine_target_matrices", "affine_generators", "affine_target_state",
           "restricted_layer_state", "restricted_vs_target_table", "order_free_best_errors"]


def _fractions(v, name: str) -> np.ndarray:
    A = np.asarray(v, dtype=object)
    if A.ndim != 2 or A.shape[0] < 1 or A.shape[1] < 1:
        raise ValueError(f"{name} must be an (n_letters, d) array, got shape {A.shape}")
    out = np.empty(A.shape, dtype=object)
    for idx, x in np.ndenumerate(A):
        if isinstance(x, bool) or not isinstance(x, (int, Fraction, np.integer)):
            raise TypeError(f"{name} must hold ints or Fractions (exact), got {type(x).__name__}")
        out[idx] = Fraction(x)
    return out


def _check(alpha, beta) -> tuple[np.ndarray, np.ndarray]:
    a, b = _fractions(alpha, "alpha"), _fractions(beta, "beta")
    if a.shape != b.shape:
        raise ValueError(f"alpha and beta must have equal shapes, got {a.shape}, {b.shape}")
    if any(x <= 0 for x in a.flat):
        raise ValueError("alpha must be positive (the affine maps need a real logarithm)")
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
    with mpmath.workdps(check_int("dps", dps)):
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
    a, b = _check(decay, bias)
    w = check_word(word, a.shape[0])
    h = np.array([Fraction(x) for x in _h0(h0, a.shape[1])], dtype=object)
    for x in w:
        h = a[x] * h + b[x]
    return h


def _h0(h0, d: int) -> list:
    v = list(np.asarray(h0, dtype=object).reshape(-1))
    if len(v) != d:
        raise ValueError(f"h0 must have length {d}, got {len(v)}")
    if any(isinstance(x, bool) or not isinstance(x, (int, Fraction, np.integer)) for x in v):
        raise TypeError("h0 must hold ints or Fractions (exact)")
    return v


def _opnorm(M) -> float:
    return float(np.linalg.norm(np.array(M, dtype=float), 2))


def restricted_vs_target_table(alpha, beta, h0, max_len: int, dps: int = 40) -> list[dict]:
    """For every word of length 1..max_len: the restricted layer with weights ``(α, β)`` vs the
    target ``M_x``: exact error (max abs over coordinates), ``‖Ω2‖`` (spectral norm, generators
    ``G_x``, ε = 1) and ``‖Ω2 (h0, 1)‖``."""
    check_int("max_len", max_len)
    check_int("dps", dps)
    a, b = _check(alpha, beta)
    n, d = a.shape
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
                         "norm_Omega2": _opnorm(O2),
                         "norm_Omega2_h0": float(np.linalg.norm(O2 @ v0))})
    return rows


def order_free_best_errors(alpha, beta, h0, max_len: int) -> list[float]:
    """For every word (same order as :func:`restricted_vs_target_table`): the worst error, over
    the words with the same letter counts, of the best *order-free* model (an abelian layer
    without bias, or any model whose output depends only on the letter counts), i.e. half the
    range of the target's first coordinate over that count class (sup norm)."""
    check_int("max_len", max_len)
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

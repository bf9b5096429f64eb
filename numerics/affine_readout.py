"""The restricted AGL(1, 3) layer with a smooth output map reproduces the permutation action of
S3 exactly, from every initial state: the restricted reading of Lemma 3.1.

Source: [DEPTH] G. Heo et al., arXiv:2603.05573, Lemma 3.1 (no abelian (restricted) system
simulates a general one). The system: ``h_t = P(x_t) h_(t-1)`` on R^3, the tokens the 6 elements
of S3 acting by their permutation matrices (non-abelian). The layer (one restricted layer of
:mod:`seqtheory.numerics.affine_layer`, extended by a carried copy ``u`` of ``h0``): state
``(σ, z, u)`` started at ``(1, 0, h0)``; token ``x`` with AGL(1,3) coordinates ``(s, c)`` acts by
``σ ← s·σ``, ``z ← s·z + c``, ``u ← u`` (linear part ``diag(s, s, 1, 1, 1)``: all tokens' linear
parts commute; bias ``(0, c, 0, 0, 0)``); output ``y = Σ_g χ_g(σ, z) P(g) u`` with the smooth
weights ``χ_(s,c)(σ, z) = (1 + s·σ)/2 · (1 + 2cos(2π(z − c)/3))/3`` (:func:`agl_readout_weight`).
Since ``χ_g`` is the indicator of the reduced state and the reduced state is the prefix product's
coordinates (:func:`~seqtheory.numerics.affine_layer.agl_step_certificate`), ``y_t = P(g_t) h0``
at every length. Everything here is exact (``fractions.Fraction``).
"""
from __future__ import annotations

import functools
from fractions import Fraction
from typing import Any

import sympy

from seqtheory.theory._checks import check_int
from seqtheory.theory.contract import check_bool

from .affine_layer import agl13_coordinates, agl_step_certificate

__all__ = ["agl_readout_weight", "permutation_matrix", "agl_output_matrix",
           "agl_permutation_action", "agl_best_affine_readout"]

Matrix = tuple[tuple[Fraction, ...], ...]


@functools.lru_cache(maxsize=None)
def _cos_third(k: int) -> Fraction:
    """cos(2πk/3) for an integer k, exactly (sympy evaluates it to 1 or −1/2)."""
    v = sympy.cos(2 * sympy.pi * k / 3)
    if not v.is_Rational:
        raise ValueError(f"cos(2π·{k}/3) did not evaluate to a rational: {v}")
    return Fraction(int(v.p), int(v.q))


def agl_readout_weight(coord: tuple[int, int], sigma: int, z: int) -> Fraction:
    """The output map's weight χ_(s,c)(σ, z) = (1 + s·σ)/2 · (1 + 2cos(2π(z − c)/3))/3 of the
    element with AGL(1,3) coordinates ``coord = (s, c)``, exactly, at an integer layer state
    ``(σ, z)`` (σ = ±1): 1 if ``(σ, z mod 3) = (s, c)``, else 0."""
    s, c = coord
    return Fraction(1 + s * sigma, 2) * (1 + 2 * _cos_third(z - c)) / 3


def permutation_matrix(p: tuple[int, ...]) -> Matrix:
    """The permutation matrix of ``p`` (a tuple of images of ``0 .. n-1``;
    ``P e_i = e_{p(i)}``), as a tuple of rows of Fractions, so that ``P(p) P(q) = P(p ∘ q)``
    (the product of :class:`~seqtheory.theory.groups.FiniteGroup`)."""
    n = len(p)
    return tuple(tuple(Fraction(int(p[j] == i)) for j in range(n)) for i in range(n))


def agl_output_matrix(coords, perms: list[Matrix], sigma: int, z: int) -> Matrix:
    """The linear map ``h0 ↦ y`` of the layer's output at the integer state ``(σ, z)`` (``u = h0``
    is carried unchanged): ``Σ_g χ_g(σ, z) P(g)``, exact. ``coords[g]`` are the AGL(1,3)
    coordinates of element ``g``, ``perms[g]`` its permutation matrix (n x n)."""
    n = len(perms[0])
    M = [[Fraction(0)] * n for _ in range(n)]
    for coord, P in zip(coords, perms):
        w = agl_readout_weight(coord, sigma, z)
        if w:
            for i in range(n):
                for j in range(n):
                    M[i][j] += w * P[i][j]
    return tuple(map(tuple, M))


def agl_permutation_action(max_len: int, bias: bool = True) -> dict[str, Any]:
    """Run the layer of this module on every word of length 1..``max_len`` over the 6 elements
    of S3 (:meth:`FiniteGroup.named("S3") <seqtheory.theory.groups.FiniteGroup.named>`) and
    compare its output map ``h0 ↦ y`` (a 3x3 matrix: the output is linear in ``h0`` at a fixed
    word, so equal matrices mean equal outputs from *every* initial state) with the system's
    ``P(g_t)`` (``left`` convention, ``g_t = x_t · g_(t−1)``). Also the inductive step
    (:func:`agl_step_certificate`) and the readout on the 6 reduced states (``χ_g`` at ``h``'s
    coordinates is ``[g = h]``), which carry the check to every length. ``bias=False`` drops the
    bias (``z ← s·z``, a purely abelian layer; a wrong variant). Exact (Fractions).

    Returns ``{"coordinates (s, c) per element", "system_commutes", "target_determinants"`` (the
    distinct determinants of the system's matrices: −1 marks a map that is no time-one map of a
    real flow), ``"linear_parts_commute",
    "max_len", "prefixes"`` (words checked), ``"mismatches", "first_wrong_word"`` (element
    indices joined by ``-``, or ``""``), ``"step_transitions", "step_failures", "initial_ok",
    "readout_pairs", "readout_failures"}``. ``ValueError`` / ``TypeError`` for ``max_len`` not
    an int ≥ 1 (the word count is 6^max_len: keep it small)."""
    bias = check_bool("bias", bias)
    from seqtheory.theory.groups import FiniteGroup

    max_len = check_int("max_len", max_len)
    G = FiniteGroup.named("S3")
    coords = [tuple(int(v) for v in r) for r in agl13_coordinates(G)]
    perms = [permutation_matrix(p) for p in G.elements]
    mats = [sympy.Matrix(P) for P in perms]
    lin = [sympy.diag(s, s, 1, 1, 1) for s, _ in coords]
    step = agl_step_certificate(G, coords) if bias else \
        agl_step_certificate(G, [(s, 0) for s, _ in coords])
    readout_fail = sum(agl_readout_weight(coords[g], *coords[h]) != int(g == h)
                       for g in range(G.order) for h in range(G.order))
    prefixes = mismatches = 0
    first_wrong = ""
    stack = [((), 1, 0, G.index(G.identity))]
    while stack:
        word, sigma, z, g = stack.pop()
        if len(word) == max_len:
            continue
        for x, (s, c) in enumerate(coords):
            w, sg, zz = word + (x,), s * sigma, s * z + (c if bias else 0)
            gx = G.index(G.multiply(G.elements[x], G.elements[g]))
            prefixes += 1
            if agl_output_matrix(coords, perms, sg, zz) != perms[gx]:
                mismatches += 1
                first_wrong = first_wrong or "-".join(map(str, w))
            stack.append((w, sg, zz, gx))
    return {"coordinates (s, c) per element": {str(p): c for p, c in zip(G.elements, coords)},
            "system_commutes": all(A * B == B * A for A in mats for B in mats),
            "target_determinants": sorted({int(M.det()) for M in mats}),
            "linear_parts_commute": all(A * B == B * A for A in lin for B in lin),
            "max_len": max_len, "prefixes": prefixes, "mismatches": mismatches,
            "first_wrong_word": first_wrong,
            "step_transitions": step["transitions"], "step_failures": len(step["failures"]),
            "initial_ok": step["initial_ok"], "readout_pairs": G.order ** 2,
            "readout_failures": int(readout_fail)}


def agl_best_affine_readout(max_len: int) -> dict[str, Any]:
    """The best *affine* readout of the layer of this module, exactly: the least-squares map
    ``y ≈ W·(σ, z, 1, u)`` from the layer's state (``u = h0`` carried) to the system's
    ``P(g_t) h0``, over every word of length 1..``max_len`` (each word weighted equally; the
    state read after the whole word) and an isotropic initial state (``E h0 = 0``,
    ``E h0 h0ᵀ = I``: e.g. ``h0 ~ N(0, I_3)``), by the exact normal equations (Fractions).

    A linear (affine) readout cannot multiply the carried ``u`` by the weights χ_g(σ, z), so it
    is far from the periodic output map that makes the layer exact (:func:`agl_permutation_action`).
    Returns ``{"words", "max_len", "weights"`` (the optimal 3 x 6 map as text rows: columns σ, z,
    1, u1, u2, u3), ``"rms_error"`` (per output coordinate, float), ``"rms_target"`` (1 for an
    isotropic h0), ``"mse_exact"`` (the per-coordinate mean squared error as a fraction)``}``.
    ``ValueError`` / ``TypeError`` for ``max_len`` not an int ≥ 1 (6^max_len words)."""
    from seqtheory.theory.groups import FiniteGroup

    max_len = check_int("max_len", max_len)
    G = FiniteGroup.named("S3")
    coords = [tuple(int(v) for v in r) for r in agl13_coordinates(G)]
    perms = [sympy.Matrix(permutation_matrix(p)) for p in G.elements]
    # moments of (σ, z, 1) and the mean of P(g) over all words (state after the whole word)
    S = {"n": 0, "s": 0, "z": 0, "ss": 0, "sz": 0, "zz": 0}
    meanP = sympy.zeros(3, 3)
    sqP = 0
    level = [(1, 0, G.index(G.identity))]
    for _ in range(max_len):
        nxt = []
        for sigma, z, g in level:
            for x, (s, c) in enumerate(coords):
                sg, zz = s * sigma, s * z + c
                gx = G.index(G.multiply(G.elements[x], G.elements[g]))
                nxt.append((sg, zz, gx))
                for key, v in (("n", 1), ("s", sg), ("z", zz), ("ss", sg * sg), ("sz", sg * zz),
                               ("zz", zz * zz)):
                    S[key] += v
                meanP += perms[gx]
                sqP += sum(v * v for v in perms[gx])
        level = nxt
    N = sympy.Integer(S["n"])
    # features f = (σ, z, 1, u); E[f fᵀ] is block diagonal (E u = 0, u independent of the word)
    Gm = sympy.zeros(6, 6)
    Gm[:3, :3] = sympy.Matrix([[S["ss"], S["sz"], S["s"]], [S["sz"], S["zz"], S["z"]],
                               [S["s"], S["z"], S["n"]]]) / N
    Gm[3:, 3:] = sympy.eye(3)
    B = sympy.zeros(6, 3)                   # E[f yᵀ]: only the u rows: E[u h0ᵀ P(g)ᵀ] = E[P]ᵀ
    B[3:, :] = (meanP / N).T
    W = Gm.LUsolve(B)                       # optimal readout, transposed (6 x 3)
    mse = (sympy.Integer(sqP) / N - (B.T * W).trace()) / 3      # E‖y‖² = E‖P h0‖² = tr E[PᵀP]
    return {"words": int(S["n"]), "max_len": max_len,
            "weights": ["; ".join(str(v) for v in W[:, i]) for i in range(3)],
            "rms_error": float(sympy.sqrt(mse)), "rms_target": float(sympy.sqrt(sympy.Integer(sqP) / N / 3)),
            "mse_exact": str(mse)}

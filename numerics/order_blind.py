"""Linear readouts of restricted layers cannot see letter order: an exact certificate.

Source: [DEPTH] G. Heo et al., *Why Depth Matters in Parallelizable Sequence Models: A Lie
Algebraic View*, arXiv:2603.05573, Lemma 3.1 (no abelian (restricted) system simulates a general
one), read with the paper's simulation (SPEC §3.1: the model's state is read out by a linear
projection P, from every initial state of the target).

Argument. A restricted layer ``s ← A(x) s + b(x)`` (any dimension; the ``A(x)`` commute; any bias),
started at ``s0(h0)`` (any encoding of the target's initial state ``h0``) and read out by
``y = P s + q``, has after a word ``w`` the state ``A_w s0(h0) + c(w)`` with
``A_w = A(x_T) ⋯ A(x_1)``. So ``y(w, h) − y(w, h') = P A_w (s0(h) − s0(h'))``, and ``A_w`` depends
only on the letter counts of ``w``. For the two words ``xy`` and ``yx`` this is the identity

    [y(xy, h) − y(xy, h')] − [y(yx, h) − y(yx, h')] = P [A_y, A_x] (s0(h) − s0(h')),

which :func:`restricted_pair_identity` verifies symbolically (non-commuting symbols: it covers
every dimension, bias, encoding and readout) and which vanishes when ``A_x, A_y`` commute. For the
target ``h ↦ Φ_w h`` the same combination at ``h' = −h`` is ``2 (Φ_xy − Φ_yx) h``; the errors
``e(w, h) = y(w, h) − Φ_w h`` therefore satisfy
``[e(xy, h) − e(xy, −h)] − [e(yx, h) − e(yx, −h)] = −2 (Φ_xy − Φ_yx) h``, so one of the four runs
errs by at least ``½ ‖(Φ_xy − Φ_yx) h‖``; over unit ``h``, ``½ ‖Φ_xy − Φ_yx‖₂``
(:func:`equal_count_witnesses`). The bound is attained by an order-free model with output
``½(Φ_xy + Φ_yx) h``, so it is the best error of every restricted layer with a linear readout on
that pair of words.

Everything is exact (sympy) except the spectral norm of the difference, reported in float64.
"""
from __future__ import annotations

from seqtheory.theory._messages import counted
from seqtheory.theory.contract import as_list, check_bool, check_exact_sympy, check_int

import itertools
from typing import Any

import numpy as np
import sympy

__all__ = ["restricted_pair_identity", "exact_matrices", "equal_count_witnesses"]


def restricted_pair_identity(commuting: bool = True) -> dict[str, Any]:
    """Verify symbolically the identity of this module's argument for the words ``xy``, ``yx``:
    with non-commuting sympy symbols ``A_x, A_y`` (linear parts), ``b_x, b_y`` (biases), ``P``
    (readout) and ``s, t`` (two encoded initial states), the combination
    ``Δ = [P·s_xy(s) − P·s_xy(t)] − [P·s_yx(s) − P·s_yx(t)]`` of a restricted recurrence equals
    ``P (A_y A_x − A_x A_y)(s − t)``; and, when ``commuting`` (the layer is restricted: its linear
    parts commute, imposed by rewriting ``A_y A_x`` as ``A_x A_y``), ``Δ = 0``. ``commuting=False``
    (a layer whose linear parts need not commute: a wrong variant) leaves ``Δ`` as it is.

    Returns ``{"identity_holds"`` (Δ = P[A_y, A_x](s − t), exactly), ``"order_blind"`` (Δ = 0
    after the commutation rule, or without it when ``commuting`` is False), ``"difference"`` (Δ
    as text), ``"commuting"}``. ``TypeError`` for a ``commuting`` that is not a bool."""
    commuting = check_bool("commuting", commuting)
    if not isinstance(commuting, bool):
        raise TypeError(f"commuting must be a bool, got {type(commuting).__name__}")
    Ax, Ay, bx, by, P, s, t = sympy.symbols("A_x A_y b_x b_y P s t", commutative=False)
    step = {"x": (Ax, bx), "y": (Ay, by)}

    def readout(word: str, s0):
        h = s0
        for letter in word:
            A, b = step[letter]
            h = A * h + b
        return P * h

    delta = sympy.expand((readout("xy", s) - readout("xy", t)) - (readout("yx", s) - readout("yx", t)))
    identity = sympy.expand(delta - P * (Ay * Ax - Ax * Ay) * (s - t)) == 0
    reduced = sympy.expand(delta.subs(Ay * Ax, Ax * Ay)) if commuting else delta
    return {"identity_holds": bool(identity), "order_blind": bool(reduced == 0),
            "difference": str(delta), "commuting": commuting}


def exact_matrices(mats) -> list[sympy.Matrix]:
    """``mats`` (a non-empty list of square matrices of one size: nested lists, numpy arrays or
    sympy matrices of ints, Fractions, Decimals or exact sympy numbers, each entry read by
    :func:`~seqtheory.theory.contract.check_exact_sympy`) as exact sympy matrices.
    ``ValueError`` for an empty list, non-square or mismatched matrices; ``TypeError`` naming
    ``mats[i]`` for a float entry (not exact: never read as a nearby number), a bool, a string
    or a complex number."""
    mats = as_list("mats", mats, "a non-empty list of square matrices")
    if not mats:
        raise ValueError("mats must be a non-empty list of square matrices")
    out = []
    for i, M in enumerate(mats):
        A = np.asarray(M.tolist() if isinstance(M, sympy.MatrixBase) else M, dtype=object)
        if A.ndim != 2 or A.shape[0] != A.shape[1] or A.shape[0] == 0:
            raise ValueError(f"mats[{i}] must be square, got shape {A.shape}")
        out.append(sympy.Matrix([[check_exact_sympy(f"mats[{i}]", v) for v in r]
                                 for r in A.tolist()]))
    if len({M.rows for M in out}) != 1:
        raise ValueError("mats must all have the same size")
    return out


def equal_count_witnesses(mats, names: list[str] | None = None, limit: int = 6) -> list[dict]:
    """The pairs of two-letter words ``xy`` / ``yx`` (``x < y``: equal letter counts) on which the
    target with token maps ``mats`` (left action: ``Φ_xy = M_y M_x``; exact,
    :func:`exact_matrices`) differs, at most ``limit`` of them, the largest difference first.

    One row per pair: ``{"words"`` (e.g. ``"a·b / b·a"``: the first letter acts first; letters named
    by ``names`` or a, b, ...),
    ``"maps_differ"`` (exactly), ``"difference"`` (``Φ_xy − Φ_yx`` as text, rows separated by
    ``;``), ``"diff_spectral_norm"``
    (float64), ``"lower_bound"`` (``½‖Φ_xy − Φ_yx‖₂``: every restricted layer with a linear readout
    errs by at least this on one of xy, yx from h or −h, for some unit h)``}``. An empty list
    means every pair of maps commutes. ``ValueError`` for bad matrices, names of the wrong
    number, or ``limit < 1``."""
    M = exact_matrices(mats)
    names = names or [chr(ord("a") + i) for i in range(len(M))]
    if len(names) != len(M):
        raise ValueError(f"names must name every letter ({counted(len(M), 'letter')}), got {len(names)}")
    limit = check_int("limit", limit)
    rows = []
    for x, y in itertools.combinations(range(len(M)), 2):
        D = sympy.simplify(M[y] * M[x] - M[x] * M[y])
        if D.is_zero_matrix:
            continue
        norm = float(np.linalg.norm(np.array(D.evalf(30).tolist(), dtype=float), 2))
        rows.append({"words": f"{names[x]}·{names[y]} / {names[y]}·{names[x]}", "maps_differ": True,
                     "difference": "[" + "; ".join(", ".join(str(v) for v in D.row(i))
                                                   for i in range(D.rows)) + "]",
                     "diff_spectral_norm": norm,
                     "lower_bound": norm / 2})
    rows.sort(key=lambda r: -r["diff_spectral_norm"])
    return rows[:limit]

"""Two restricted layers match every target to second order in ε: a depth-2 witness against an
``ε²‖Ω2‖`` lower bound.

Source: [DEPTH] G. Heo et al., arXiv:2603.05573, Theorem 3.2 (a constant-depth restricted model
has simulation error bounded below by a term scaling with the commutator mass ``‖Ω2‖``), read with
the paper's simulation (SPEC §3.1: linear readout P, every initial state). One restricted layer
obeys such a bound (:mod:`seqtheory.numerics.order_blind`: its best error on a word and its
reversal is ``ε²‖Ω2‖₂(1 + O(ε))``). The stack below is the package's construction (found by an
independent referee's check), not the paper's: with two restricted layers the error is ``O(ε³)``
from every initial state, so no bound ``C·ε²‖Ω2‖`` with ``C > 0`` holds at depth 2.

Construction. Target ``h0 ↦ Φ_w(ε) h0``, ``Φ_w = e^{εX_{x_T}} ⋯ e^{εX_{x_1}}`` on ``R^d``; write
``Y_t = εX_{x_t}``.

* Layer 1, state ``s = (c, a, q) ∈ R^{3d}`` started at ``(h0, 0, 0)``, no bias, linear part
  ``L(Y) = [[I, 0, 0], [Y, I, 0], [Y², 0, I]]`` (:func:`layer1_linear_part`). Since
  ``L(Y) L(Z) = [[I, 0, 0], [Y + Z, I, 0], [Y² + Z², 0, I]]`` is symmetric in ``Y, Z``, the
  linear parts commute for all tokens although the ``Y`` do not
  (:func:`commutation_certificate`): a restricted layer. After the word ``c = h0``,
  ``a = Σ_t Y_t h0``, ``q = Σ_t Y_t² h0``.
* Layer 2, state ``r ∈ R^d`` started at 0: linear part ``I`` and bias ``Y_t a_t`` (``a_t``: the
  ``a`` block of layer 1's state after token ``t``, the layer's input; a token-dependent linear
  map of it, as the input matrix ``B(x)`` of an SSM). After the word
  ``r = Σ_{t ≥ s} Y_t Y_s h0``.
* Linear readout ``y = P (c, a, q, r) = c + a − q/2 + r = (I + Σ_t Y_t + Σ_{t>s} Y_t Y_s +
  ½ Σ_t Y_t²) h0``: the terms of degree ≤ 2 in ε of ``Φ_w h0``.

So ``y − Φ_w h0 = −ε³ C3 h0 + O(ε⁴)`` for every ``h0``, ``C3`` the ε³ coefficient of ``Φ_w``:
the stack's error over unit ``h0`` is ``ε³‖C3‖₂(1 + O(ε))`` while ``ε²‖Ω2‖₂`` (the best error of
one restricted layer on ``{w, w̄}``) is of order ε². :func:`second_order_certificate` checks the
match symbolically (non-commuting symbols, one per position: every dimension, alphabet and word of
the given lengths); :func:`stack_error_scan` measures the error against ``ε²‖Ω2‖₂`` in mpmath.
"""
from __future__ import annotations

import mpmath
import numpy as np
import sympy

from seqtheory.theory._checks import check_int
from seqtheory.theory.contract import as_list, check_real
from seqtheory.theory.mp_precision import working_dps

from .local_error import as_mp_matrices, check_word, path_product, to_mpf
from .reversal import mp_spectral_norm, omega2

__all__ = ["layer1_linear_part", "stack_output_map", "commutation_certificate",
           "second_order_certificate", "stack_error_scan", "MAX_CERTIFIED_LENGTH"]

#: the longest word :func:`second_order_certificate` expands (its target series has 4^T terms
#: before truncation)
MAX_CERTIFIED_LENGTH = 8


def _square(Y, name: str) -> np.ndarray:
    """``Y`` as a square object array, its entries kept as given: symbolic sympy expressions,
    or real numbers (:func:`~seqtheory.theory.contract.check_real` decides which: a bool, a
    string, a complex number, NaN or inf is refused, naming ``name[i][j]``)."""
    A = np.asarray(Y.tolist() if hasattr(Y, "tolist") else Y, dtype=object)
    if A.ndim != 2 or A.shape[0] != A.shape[1] or A.shape[0] == 0:
        raise ValueError(f"{name} must be a non-empty square matrix, got shape {A.shape}")
    for (i, j), v in np.ndenumerate(A):
        if not (isinstance(v, sympy.Basic) and not v.is_number):
            check_real(f"{name}[{i}][{j}]", v)
    return A


def _eye(d: int) -> np.ndarray:
    return np.eye(d, dtype=int).astype(object)


def _zeros(rows: int, cols: int) -> np.ndarray:
    return np.zeros((rows, cols), dtype=int).astype(object)


def layer1_linear_part(Y) -> np.ndarray:
    """The linear part ``L(Y) = [[I, 0, 0], [Y, I, 0], [Y², 0, I]]`` (3d × 3d object array) of
    layer 1 for a token matrix ``Y`` (d × d: numbers of any kind, sympy expressions included,
    kept as they are; products in order, so non-commuting symbols are fine). ``ValueError`` for
    a ``Y`` that is not a non-empty square matrix."""
    Y = _square(Y, "Y")
    d = Y.shape[0]
    I, Z = _eye(d), _zeros(d, d)
    return np.block([[I, Z, Z], [Y, I, Z], [Y.dot(Y), Z, I]])


def _layer2_input_map(Y: np.ndarray) -> np.ndarray:
    """Layer 2's bias map on layer 1's state: ``(c, a, q) ↦ Y a`` (d × 3d)."""
    d = Y.shape[0]
    return np.hstack([_zeros(d, d), Y, _zeros(d, d)])


def stack_output_map(Ys) -> np.ndarray:
    """The map ``h0 ↦ y`` (d × d object array) of the two-layer restricted stack of this module
    after the tokens ``Ys`` (their matrices ``Y_t = εX_{x_t}``, first token first; square
    matrices of one size, entries of any kind, kept as they are). All initial states at once:
    the columns are the outputs from the basis vectors. ``ValueError`` for an empty list or
    matrices of different sizes."""
    Ys = [_square(Y, f"Ys[{i}]") for i, Y in enumerate(
        as_list("Ys", Ys, "a non-empty list of square matrices"))]
    if not Ys or len({Y.shape for Y in Ys}) != 1:
        raise ValueError("Ys must be a non-empty list of square matrices of one size")
    d = Ys[0].shape[0]
    s = np.vstack([_eye(d), _zeros(2 * d, d)])      # layer 1: (c, a, q) = (h0, 0, 0)
    r = _zeros(d, d)                                 # layer 2
    for Y in Ys:
        s = layer1_linear_part(Y).dot(s)
        r = r + _layer2_input_map(Y).dot(s)
    c, a, q = s[:d], s[d:2 * d], s[2 * d:]
    return c + a - q / 2 + r


def commutation_certificate() -> dict:
    """Symbolic check, with non-commuting sympy symbols ``Y, Z`` (two tokens of any dimension),
    that the layer-1 linear parts commute: ``L(Y) L(Z) = L(Z) L(Y)``, although ``YZ ≠ ZY``.
    Returns ``{"linear_parts_commute", "tokens_commute", "product"}`` (the product as text)."""
    Y, Z = sympy.symbols("Y Z", commutative=False)
    LY, LZ = layer1_linear_part([[Y]]), layer1_linear_part([[Z]])
    diff = [sympy.expand(v) for v in (LY.dot(LZ) - LZ.dot(LY)).flat]
    return {"linear_parts_commute": all(v == 0 for v in diff),
            "tokens_commute": sympy.expand(Y * Z - Z * Y) == 0,
            "product": str(sympy.Matrix(LY.dot(LZ)).applyfunc(sympy.expand).tolist())}


def _by_degree(expr, eps, top: int) -> list:
    """The coefficients of ``eps^0 … eps^top`` of a polynomial in the commuting symbol ``eps``
    whose other factors need not commute."""
    out = [sympy.Integer(0)] * (top + 1)
    for term in sympy.Add.make_args(sympy.expand(expr)):
        k = int(sympy.degree(sympy.Mul(*term.args_cnc()[0]), eps))
        if k <= top:
            out[k] += term / eps ** k
    return [sympy.expand(v) for v in out]


def second_order_certificate(max_len: int = 6) -> list[dict]:
    """For each length ``T = 1 … max_len``: the stack's output map and the target
    ``e^{εX_T} ⋯ e^{εX_1}`` expanded in ε with non-commuting symbols ``X_1 … X_T`` (one per
    position, so every word of length T, every alphabet and dimension is a specialization).
    One row per T: ``{"T", "model_degree"`` (the output is a polynomial in ε of this degree),
    ``"agree_to_order"`` (the largest k such that every coefficient of order ≤ k agrees),
    ``"first_difference"`` (the target's lowest-order part the stack misses, as text),
    ``"first_difference_terms"`` (its number of monomials)``}``.
    ``ValueError`` for ``max_len`` outside 1 … :data:`MAX_CERTIFIED_LENGTH`."""
    max_len = check_int("max_len", max_len, 1, MAX_CERTIFIED_LENGTH)
    eps = sympy.Symbol("epsilon")
    rows = []
    for T in range(1, max_len + 1):
        X = sympy.symbols(f"X1:{T + 1}", commutative=False)
        model = stack_output_map([[[eps * x]] for x in X])[0, 0]
        target = sympy.Integer(1)
        for x in X:     # later factor on the left, truncated after each product
            step = 1 + eps * x + eps ** 2 * x ** 2 / 2 + eps ** 3 * x ** 3 / 6
            target = sum(c * eps ** k for k, c in enumerate(_by_degree(step * target, eps, 3)))
        m, t = _by_degree(model, eps, 3), _by_degree(target, eps, 3)
        agree = next((k - 1 for k in range(4) if m[k] != t[k]), 3)
        missed = t[agree + 1] - m[agree + 1] if agree < 3 else sympy.Integer(0)
        rows.append({"T": T, "model_degree": max(k for k, v in enumerate(m) if v != 0),
                     "agree_to_order": agree, "first_difference": str(missed) if missed else "",
                     "first_difference_terms": len(sympy.Add.make_args(missed)) if missed else 0})
    return rows


def stack_error_scan(gens, word, eps_grid, dps: int = 50) -> list[dict]:
    """The stack's worst error over unit initial states on ``word`` and its reversal,
    ``max_{w ∈ {x, x̄}} ‖M_w(ε) − Φ_w(ε)‖₂`` (``M_w``: :func:`stack_output_map` of the tokens
    ``εX``, ``gens`` the target's generators X, one per letter), against the commutator mass
    ``ε²‖Ω2‖₂`` of ``word``, at each ε of ``eps_grid`` (mpmath at ``dps`` digits).
    One row per ε: ``{"eps", "error", "error_word", "error_reversal", "mass", "ratio"}`` (floats;
    ratio = error / mass, NaN where the mass is 0). ``ValueError``/``TypeError`` from the
    generator, word and ε checks of :mod:`seqtheory.numerics.local_error`."""
    grid = as_list("eps_grid", eps_grid, "a sequence of positive numbers")
    rows = []
    with working_dps(dps) as dps:
        X = as_mp_matrices(gens)
        w = check_word(word, len(X))
        mass = mp_spectral_norm(omega2(X, w, dps))
        for i, e in enumerate(grid):
            e = to_mpf(e, f"eps_grid[{i}]", 0, above=True)
            err = [mp_spectral_norm(stack_output_map([X[a] * e for a in v])
                                    - path_product(X, v, e, dps)) for v in (w, w[::-1])]
            m = e * e * mass
            rows.append({"eps": float(e), "error": float(max(err)), "error_word": float(err[0]),
                         "error_reversal": float(err[1]), "mass": float(m),
                         "ratio": float(max(err) / m) if m > 0 else float("nan")})
    return rows

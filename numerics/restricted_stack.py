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

import math

import mpmath
import numpy as np
import sympy

from seqtheory.theory._checks import check_int
from seqtheory.theory.contract import as_list, check_exact, check_real, check_size
from seqtheory.theory.mp_precision import MAX_DPS, resolving_dps, working_dps

from .local_error import (MAX_POINTS, as_mp_matrices, check_word, frobenius_mp,
                          log_series_coefficients, path_product, to_mpf)
from .reversal import mp_spectral_norm, omega2

__all__ = ["layer1_linear_part", "stack_output_map", "commutation_certificate",
           "second_order_certificate", "stack_error_scan", "MAX_CERTIFIED_LENGTH",
           "MAX_SCAN_STEPS"]

#: the longest word :func:`second_order_certificate` expands (its target series has 4^T terms
#: before truncation)
MAX_CERTIFIED_LENGTH = 8
#: the most ``letters × ε values × d³`` a :func:`stack_error_scan` runs (each unit: about 45 µs
#: of mpmath matrix work at 50 digits, so 2^18 is about 12 s; the claim depth.thm3.2 uses
#: 5 × 10 × 27 = 1350)
MAX_SCAN_STEPS = 2 ** 18


def _entry_kind(name: str, v) -> str:
    """The kind of one matrix entry, checked: ``"symbolic"`` (a sympy expression that is not a
    rational or float: symbols, ``sqrt(2)``; its infinities and NaN refused), ``"mpf"``,
    ``"float"`` (binary floats: Python, numpy, sympy ``Float``) or ``"exact"`` (ints, numpy
    integers, ``Fraction``, sympy ``Rational``, finite ``Decimal``, python-flint numbers).
    ``TypeError`` / ``ValueError`` naming ``name`` for a bool, string, complex, NaN or inf."""
    if isinstance(v, sympy.Basic) and not (v.is_Rational or v.is_Float):
        if v.has(sympy.oo, -sympy.oo, sympy.zoo, sympy.nan):
            raise ValueError(f"{name} must be finite, got {v}")
        if v.is_number and not v.is_extended_real:
            raise TypeError(f"{name} must be real, got the complex number {v}")
        return "symbolic"
    if type(v).__module__.startswith("mpmath"):
        check_real(name, v)
        return "mpf"
    if isinstance(v, (float, sympy.Float)) or (isinstance(v, np.generic)
                                               and np.issubdtype(type(v), np.floating)):
        check_real(name, v)
        return "float"
    check_exact(name, v, floats=True)
    return "exact"


#: the kind every entry takes when kinds are mixed: the first of these present decides
_KIND_ORDER = ("symbolic", "mpf", "float", "exact")


def _converted(v, own: str, kind: str):
    """An entry of kind ``own`` (already checked by :func:`_entry_kind`) in the arithmetic
    ``kind`` of its matrices: exact values as ``Fraction`` (sympy ``Rational`` on the symbolic
    path, ``mpf`` rounded once on the mpmath path), floats exactly as ``mpf`` / sympy ``Float``
    on those paths."""
    if own == "symbolic" or (own == kind == "mpf"):
        return v
    if kind == "float":
        return check_real("entry", v)
    if kind == "mpf":
        return to_mpf(v)
    q = check_exact("entry", v, floats=True)
    if kind == "exact":
        return q
    return sympy.Rational(q.numerator, q.denominator) if own == "exact" else sympy.Float(v)


def _square_matrices(mats: list, names: list[str]) -> list[np.ndarray]:
    """The matrices ``mats`` as square object arrays in one arithmetic: each entry checked by
    :func:`_entry_kind` (named ``names[t][i][j]``), then all converted once to the kind of
    :data:`_KIND_ORDER` that the entries call for -- sympy if any entry is symbolic, else mpf if
    any is, else float if any is, else ``Fraction`` (so ``Decimal`` and ``Fraction`` or
    ``Decimal`` and float never meet in one product). ``ValueError`` for a matrix that is not
    a non-empty square."""
    arrays, kinds = [], set()
    for Y, name in zip(mats, names):
        A = np.asarray(Y.tolist() if hasattr(Y, "tolist") else Y, dtype=object)
        if A.ndim != 2 or A.shape[0] != A.shape[1] or A.shape[0] == 0:
            raise ValueError(f"{name} must be a non-empty square matrix, got shape {A.shape}")
        K = np.empty(A.shape, dtype=object)      # each entry's kind, checked once
        for (i, j), v in np.ndenumerate(A):
            K[i, j] = _entry_kind(f"{name}[{i}][{j}]", v)
        kinds.update(K.flat)
        arrays.append((A, K))
    kind = next(k for k in _KIND_ORDER if k in kinds)
    convert = np.vectorize(lambda v, own: _converted(v, own, kind), otypes=[object])
    return [convert(A, K) for A, K in arrays]


def _finite(M: np.ndarray, name: str) -> np.ndarray:
    """``M`` itself when no entry is a float or mpf infinity or NaN (a float product beyond
    1.8e308: numpy only warns, and ``inf − inf`` is NaN); ``ValueError`` naming ``name``."""
    for v in M.flat:
        if isinstance(v, float) and not math.isfinite(v) or \
                type(v).__module__.startswith("mpmath") and not mpmath.isfinite(v):
            raise ValueError(f"{name}: the result overflows the float range (an entry is {v}); "
                             "give the entries as exact Fractions or mpmath numbers, or smaller")
    return M


def _eye(d: int) -> np.ndarray:
    return np.eye(d, dtype=int).astype(object)


def _zeros(rows: int, cols: int) -> np.ndarray:
    return np.zeros((rows, cols), dtype=int).astype(object)


def _layer1(Y: np.ndarray) -> np.ndarray:
    d = Y.shape[0]
    I, Z = _eye(d), _zeros(d, d)
    return np.block([[I, Z, Z], [Y, I, Z], [Y.dot(Y), Z, I]])


def layer1_linear_part(Y) -> np.ndarray:
    """The linear part ``L(Y) = [[I, 0, 0], [Y, I, 0], [Y², 0, I]]`` (3d × 3d object array) of
    layer 1 for a token matrix ``Y`` (d × d; entries converted as in :func:`stack_output_map`;
    products in order, so non-commuting symbols are fine). ``ValueError`` for a ``Y`` that is
    not a non-empty square matrix, a float ``Y²`` beyond the float range, or NaN/inf entries;
    ``TypeError`` for a bool, string or complex entry (each naming ``Y``)."""
    with np.errstate(over="ignore", invalid="ignore"):     # an overflow is refused below
        L = _layer1(_square_matrices([Y], ["Y"])[0])
    return _finite(L, "Y")


def _layer2_input_map(Y: np.ndarray) -> np.ndarray:
    """Layer 2's bias map on layer 1's state: ``(c, a, q) ↦ Y a`` (d × 3d)."""
    d = Y.shape[0]
    return np.hstack([_zeros(d, d), Y, _zeros(d, d)])


def stack_output_map(Ys) -> np.ndarray:
    """The map ``h0 ↦ y`` (d × d object array) of the two-layer restricted stack of this module
    after the tokens ``Ys`` (their matrices ``Y_t = εX_{x_t}``, first token first; square
    matrices of one size). All initial states at once: the columns are the outputs from the
    basis vectors.

    Entries: symbolic sympy expressions or real numbers, converted once to one arithmetic for
    all tokens: sympy if any entry is symbolic (exact numbers as ``Rational``), else ``mpf`` if
    any is (others rounded once at the working precision), else ``float`` if any entry is a
    binary float, else ``Fraction`` (ints, ``Fraction``, ``Decimal``, sympy ``Rational``: the
    result is exact). ``ValueError`` for an empty list, matrices of different sizes, NaN/inf
    entries (sympy ``oo``, ``zoo``, ``nan`` in an expression included) or a float result beyond
    the float range; ``TypeError`` for a bool, string or complex entry (each naming ``Ys``)."""
    mats = as_list("Ys", Ys, "a non-empty list of square matrices")
    Ys = _square_matrices(mats, [f"Ys[{t}]" for t in range(len(mats))]) if mats else []
    if not Ys or len({Y.shape for Y in Ys}) != 1:
        raise ValueError("Ys must be a non-empty list of square matrices of one size")
    d = Ys[0].shape[0]
    s = np.vstack([_eye(d), _zeros(2 * d, d)])      # layer 1: (c, a, q) = (h0, 0, 0)
    r = _zeros(d, d)                                 # layer 2
    with np.errstate(over="ignore", invalid="ignore"):     # an overflow is refused below
        for Y in Ys:
            s = _layer1(Y).dot(s)
            r = r + _layer2_input_map(Y).dot(s)
        c, a, q = s[:d], s[d:2 * d], s[2 * d:]
        out = c + a - q / 2 + r
    return _finite(out, "Ys")


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


def _cubic_term_norm(X: list, word: list[int]) -> mpmath.mpf:
    """``‖C3‖_F / √d`` (at most ``‖C3‖₂``; 30 digits), ``C3`` the ε³ coefficient of ``Φ_word``:
    ``Z3 + (Z1 Z2 + Z2 Z1)/2 + Z1³/6`` from the log-series coefficients ``Z_m``."""
    with working_dps(30):
        Z1, Z2, Z3 = log_series_coefficients(X, word, 3, dps=30)
        C3 = Z3 + (Z1.dot(Z2) + Z2.dot(Z1)) / 2 + Z1.dot(Z1).dot(Z1) / 6
        return frobenius_mp(C3) / mpmath.sqrt(C3.shape[0])


def _scan_dps(lead, e, dps: int, name: str) -> int:
    """Digits at which the error ``≈ ε³ lead`` (a difference of terms of size ≈ 1) keeps ``dps``
    significant digits (:func:`~seqtheory.theory.mp_precision.resolving_dps`), at least ``dps``;
    ``ValueError`` naming ``name`` (the ε) beyond :data:`MAX_DPS`."""
    work = max(dps, resolving_dps(lead, 3, e, dps))
    if work > MAX_DPS:
        raise ValueError(f"{name} = {mpmath.nstr(e, 5)}: resolving the stack's error (≈ ε³ "
                         f"‖C3‖ = {mpmath.nstr(lead * e ** 3, 5)}) to {dps} digits needs {work} "
                         f"digits, more than MAX_DPS = {MAX_DPS}")
    return work


def stack_error_scan(gens, word, eps_grid, dps: int = 50) -> list[dict]:
    """The stack's worst error over unit initial states on ``word`` and its reversal,
    ``max_{w ∈ {x, x̄}} ‖M_w(ε) − Φ_w(ε)‖₂`` (``M_w``: :func:`stack_output_map` of the tokens
    ``εX``, ``gens`` the target's generators X, one per letter), against the commutator mass
    ``ε²‖Ω2‖₂`` of ``word``, at each ε of ``eps_grid`` (positive reals, at most
    :data:`~seqtheory.numerics.local_error.MAX_POINTS`).

    Precision: the error ``≈ ε³‖C3‖`` is the difference of terms of size ≈ 1, so each ε runs in
    mpmath at ``dps`` digits plus those the cancellation costs
    (:func:`~seqtheory.theory.mp_precision.resolving_dps` with the norm of the ε³ coefficient
    ``C3`` of ``Φ_w``): the error keeps about ``dps`` significant digits however small ε is.
    One row per ε: ``{"eps", "error", "error_word", "error_reversal", "mass", "ratio",
    "dps"}`` (floats; ratio = error / mass, NaN where the mass is 0; dps: the digits used).
    ``ValueError`` naming ``eps_grid[i]`` for an ε whose error needs more than
    :data:`~seqtheory.theory.mp_precision.MAX_DPS` digits, naming ``word`` when
    ``len(word) × len(eps_grid) × d³`` exceeds :data:`MAX_SCAN_STEPS`; the other
    ``ValueError``/``TypeError`` from the generator, word and ε checks of
    :mod:`seqtheory.numerics.local_error`."""
    grid = as_list("eps_grid", eps_grid, "a sequence of positive numbers")
    check_size("len(eps_grid)", len(grid), len(grid), MAX_POINTS, "MAX_POINTS", "ε values")
    rows = []
    with working_dps(dps) as dps:
        X = as_mp_matrices(gens)
        w = check_word(word, len(X))
        d = X[0].shape[0]
        check_size("len(word)", len(w), len(w) * len(grid) * d ** 3, MAX_SCAN_STEPS,
                   "MAX_SCAN_STEPS", f"mpmath steps (letters × {len(grid)} ε × d³, d = {d})")
        eps = [to_mpf(e, f"eps_grid[{i}]", 0, above=True) for i, e in enumerate(grid)]
        lead = min(_cubic_term_norm(X, v) for v in (w, w[::-1]))
        mass = mp_spectral_norm(omega2(X, w, dps))
        for i, e in enumerate(eps):
            rows.append(_scan_point(gens, w, grid[i], mass, _scan_dps(lead, e, dps,
                                                                      f"eps_grid[{i}]")))
    return rows


def _scan_point(gens, w: list[int], eps, mass, work: int) -> dict:
    """One row of :func:`stack_error_scan` at ``work`` digits (the generators and ε converted
    again at that precision)."""
    with working_dps(work):
        X = as_mp_matrices(gens)
        e = to_mpf(eps)
        err = [mp_spectral_norm(stack_output_map([X[a] * e for a in v])
                                - path_product(X, v, e, work)) for v in (w, w[::-1])]
        m = e * e * mass
        return {"eps": float(e), "error": float(max(err)), "error_word": float(err[0]),
                "error_reversal": float(err[1]), "mass": float(m),
                "ratio": float(max(err) / m) if m > 0 else float("nan"), "dps": work}

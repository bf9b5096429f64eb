"""Magnus expansion: exact terms for polynomial ``A(t)``, quadrature for general ``A(t)``, and the
discrete (piecewise-constant) expansion, for both ``Y' = A(t) Y`` and ``Y' = Y A(t)``.

Conventions (SPEC §2): ``Y(0) = I``, ``Y(t) = exp Ω(t)``, ``Ω = Σ_m Ω_m``, ``t ≥ t1 ≥ t2 ≥ …``;
for ``Y' = A Y``: ``Ω1 = ∫A(t1)``, ``Ω2 = ½∫∫[A(t1), A(t2)]``, ``Ω3 = (1/6)∫∫∫([A1,[A2,A3]] +
[A3,[A2,A1]])``, …; for ``Y' = Y A`` every even term changes sign. Oracle: ``A(t) = P + tQ`` gives
``Ω1 = tP + t²Q/2``, ``Ω2 = (t³/12)[Q, P]``, ``Ω3 = (t⁵/240)[Q,[Q,P]]``.
Source: W. Magnus, Comm. Pure Appl. Math. 7 (1954) 649-673; S. Blanes, F. Casas, J. A. Oteo,
J. Ros, *The Magnus expansion and some of its applications*, Phys. Rep. 470 (2009) 151-238,
arXiv:0810.5488, §2.

Method. The solution is the time-ordered exponential ``Y = Σ_m J_m``, ``J_m(t) = ∫_{t≥t1≥…≥tm≥0}
A(t1)⋯A(tm)`` (``A(tm)⋯A(t1)`` for ``Y' = YA``), and ``Ω_m`` is the part of ``log Y`` of degree m
in A: ``Ω_m = Σ_k (-1)^{k+1}/k Σ_{m1+…+mk=m} J_{m1}⋯J_{mk}``. For ``A(t) = Σ_k t^k A_k`` the word
coefficients of ``J`` are exact rationals times powers of t (iterated integrals of monomials), so
``Ω_m`` is an exact Lie polynomial in letters ``A_0 < A_1 < …`` (:func:`magnus_lie_terms`); no
non-commutative symbolic integration is needed. For a general callable ``A(t)`` the ``J_m`` are
computed on Gauss-Legendre nodes with a spectral integration matrix (float64). The discrete
expansion of a product ``e^{X_T}⋯e^{X_1}`` is the multi-factor BCH series (:func:`.bch.bch_multi`).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache
from numbers import Rational
from typing import Any, Callable, Sequence

import numpy as np

from .contract import as_list, check_exact, check_exact_sympy, check_int, check_real
from ._messages import shown
from .lie_poly import (LiePolynomial, check_matrices, check_series_size, log_word_coefficient,
                       lyndon_coordinates_encoded, numpy_dtype)
from .words import decode
from .mp_precision import working_dps

__all__ = ["CONVENTIONS", "magnus_lie_terms", "magnus", "MagnusResult", "magnus_discrete",
           "commutator_mass", "taylor_ode_solution"]

CONVENTIONS = ("AY", "YA")
_LETTERS = "ABCDEFGHIJKLMNOP"


def _check_convention(convention: str) -> str:
    if convention not in CONVENTIONS:
        raise ValueError(f"convention must be 'AY' (Y' = A(t)Y) or 'YA' (Y' = Y A(t)), got {convention!r}")
    return convention


def _J_coefficient(w: str, convention: str) -> Fraction:
    """Coefficient (at t = 1) of the word w (internal letters = powers k of t) in the
    time-ordered exponential for A(t) = Σ t^k A_k. For 'AY' the leftmost letter is the latest
    time: ∫_{t≥t1≥…≥tm} Π t_i^{k_i} = 1/Π_j (Σ_{i≥j}(k_i+1))."""
    ks = [ord(ch) - 0x100 for ch in w]
    if convention == "YA":
        ks = ks[::-1]
    den, s = 1, 0
    for k in reversed(ks):
        s += k + 1
        den *= s
    return Fraction(1, den)


def _log_J_coefficient(w: str, convention: str, memo: dict) -> Fraction:
    return log_word_coefficient(w, lambda u: _J_coefficient(u, convention), memo)


@lru_cache(maxsize=64)
def _magnus_terms_cached(n_coeffs: int, order: int, convention: str):
    memo: dict = {}
    out = []
    letters = _LETTERS[:n_coeffs]
    for m in range(1, order + 1):
        res = lyndon_coordinates_encoded(n_coeffs, [m], lambda w: _log_J_coefficient(w, convention, memo))
        out.append({decode(w, letters): v for w, v in res.items()})
    return tuple(out)


def magnus_lie_terms(n_coeffs: int, order: int, convention: str = "AY") -> list[LiePolynomial]:
    """Exact Magnus terms ``[Ω_1, …, Ω_order]`` at ``t = 1`` for ``A(t) = Σ_{k<n_coeffs} t^k A_k``,
    as Lie polynomials in letters ``"A" < "B" < …`` standing for ``A_0, A_1, …``.

    ``Ω_m(t)`` is obtained by substituting ``t^{k+1} A_k`` for ``A_k`` (each letter ``A_k`` carries
    ``t^{k+1}``), see :func:`magnus`. E.g. for ``A(t) = P + tQ`` (``A = P, B = Q``) Ω_2 is
    ``-(1/12) P_AB = (1/12)[Q, P]``. Raises ``ValueError`` for bad arguments."""
    n_coeffs = check_int("n_coeffs", n_coeffs)
    order = check_int("order", order)
    if n_coeffs > len(_LETTERS):
        raise ValueError(f"n_coeffs must be <= {len(_LETTERS)}")
    check_series_size("order", order, n_coeffs)
    _check_convention(convention)
    return [LiePolynomial(c, _LETTERS[:n_coeffs]) for c in _magnus_terms_cached(n_coeffs, order, convention)]


@dataclass
class MagnusResult:
    """Magnus terms ``terms[m-1] = Ω_m(t)`` (matrices of the input type), their sum ``omega``,
    the convention and how they were computed."""

    terms: list[Any]
    convention: str
    t: Any
    method: str
    info: dict = field(default_factory=dict)

    @property
    def omega(self):
        total = self.terms[0]
        for T in self.terms[1:]:
            total = total + T
        return total

    def commutator_mass(self, norm: str = "fro") -> float:
        """``‖Ω_2‖`` (Frobenius by default; ``"2"`` for the spectral norm), the commutator mass of
        [DEPTH] §3. Needs order >= 2."""
        if len(self.terms) < 2:
            raise ValueError("commutator mass needs order >= 2")
        return commutator_mass(self.terms[1], norm)


def commutator_mass(omega2, norm: str = "fro") -> float:
    """Norm of a second Magnus term (float). ``norm``: ``"fro"`` or ``"2"``."""
    if norm not in ("fro", "2"):
        raise ValueError(f"norm must be 'fro' or '2', got {norm!r}")
    M = _to_float(omega2)
    return float(np.linalg.norm(M, "fro" if norm == "fro" else 2))


def _to_float(M) -> np.ndarray:
    try:
        import mpmath

        if isinstance(M, mpmath.matrix):
            return np.array(M.tolist(), dtype=float)
    except ImportError:  # pragma: no cover
        pass
    return np.array(np.asarray(M).tolist(), dtype=float)


def _check_t(t) -> None:
    """``t`` a real number >= 0 (exact sign for exact values, no float overflow for a huge
    ``t``); ``TypeError`` / ``ValueError`` naming ``t``."""
    if isinstance(t, (Rational, Decimal)) and not isinstance(t, (bool, np.bool_)):
        bad = not t.is_finite() if isinstance(t, Decimal) else False
        bad = bad or t < 0
    elif _sympy_number(t):
        bad = not (t.is_real and t.is_finite) or bool(t.is_extended_negative)
    else:
        bad = check_real("t", t, finite=False) < 0 or not math.isfinite(float(t))
    if bad:
        raise ValueError(f"t must be finite and >= 0, got {shown(t)}")


def _exact_time(t, kind: str):
    """``t`` for exact coefficient matrices: a sympy number for sympy matrices
    (:func:`~seqtheory.theory.contract.check_exact_sympy`: ``sympy.sqrt(2)`` stays), a
    ``Fraction`` for ``object`` arrays; a float ``t`` is refused (never read as a nearby
    rational)."""
    return check_exact_sympy("t", t) if kind == "sympy" else check_exact("t", t)


def _sympy_number(t) -> bool:
    """``t`` is a sympy number expression (``sympy.sqrt(2)``, ``pi``), not a symbol."""
    return type(t).__module__.startswith("sympy") and bool(getattr(t, "is_number", False))


def _nested_matrices(coeffs: list) -> list:
    """Coefficients given as nested lists (as :meth:`LieAlgebra.generated_by` takes them) made
    arrays: numpy object arrays of ``Fraction`` when every nested entry is exact (int, Fraction,
    sympy rational, Decimal: the exact path), else float64 arrays (numbers only: a bool or a
    string is a ``TypeError`` naming ``A[k][i][j]``). Other coefficients are kept as given."""
    nested = {k: [as_list(f"A[{k}][{i}]", r, "a row of numbers") for i, r in enumerate(M)]
              for k, M in enumerate(coeffs) if isinstance(M, (list, tuple))}
    for k, rows in nested.items():
        if len({len(r) for r in rows}) > 1:
            raise ValueError(f"A[{k}]: rows of different lengths")
    try:
        conv = {k: [[check_exact(f"A[{k}][{i}][{j}]", v) for j, v in enumerate(r)]
                    for i, r in enumerate(rows)] for k, rows in nested.items()}
        dtype = object
    except TypeError:
        conv = {k: [[check_real(f"A[{k}][{i}][{j}]", v) for j, v in enumerate(r)]
                    for i, r in enumerate(rows)] for k, rows in nested.items()}
        dtype = np.float64
    out = list(coeffs)
    for k, rows in conv.items():
        arr = np.empty((len(rows), len(rows[0]) if rows else 0), dtype=dtype)
        for i, r in enumerate(rows):
            arr[i, :] = r
        out[k] = arr
    return out


def magnus(A: Sequence[Any] | Callable[[float], np.ndarray], order: int = 4, *, t: Any = 1,
           convention: str = "AY", nodes: int = 24) -> MagnusResult:
    """Magnus terms ``Ω_1(t), …, Ω_order(t)`` for ``Y' = A(t)Y`` (``convention="AY"``) or
    ``Y' = YA(t)`` (``"YA"``), ``Y(0) = I``.

    * ``A`` a sequence of square matrices ``[A_0, A_1, …]`` (numpy arrays, sympy or mpmath
      matrices, or nested lists: exact when every entry is exact, else float64): the polynomial
      ``A(t) = Σ t^k A_k``;
      terms are the exact Lie polynomials of :func:`magnus_lie_terms` evaluated at
      ``t^{k+1} A_k`` -- exact for sympy / numpy object (Fraction) matrices (``t`` exact:
      int, Fraction, sympy number, Decimal; a float ``t`` is a ``TypeError`` there, never read as
      a nearby rational), float64 for numpy arrays, arbitrary precision for mpmath matrices
      (``t`` rounded once to the working precision) (``method="exact"``).
    * ``A`` a callable ``t -> (n, n) float array``: quadrature on ``nodes`` Gauss-Legendre points
      with spectral integration (float64; exact for polynomial A of degree < nodes - order)
      (``method="quadrature"``).

    Raises ``ValueError`` for order < 1, t < 0, an unknown convention, non-square or mismatched
    matrices; ``TypeError`` for unsupported matrix types."""
    order = check_int("order", order)
    _check_convention(convention)
    _check_t(t)
    if callable(A):
        return _magnus_quadrature(A, order, check_real("t", t), convention, nodes)
    coeffs = as_list("A", A, "a sequence of coefficient matrices or a callable")
    if not coeffs:
        raise ValueError("A must contain at least one coefficient matrix")
    if len(coeffs) > len(_LETTERS):
        raise ValueError(f"A has {len(coeffs)} coefficient matrices; at most {len(_LETTERS)}")
    letters = _LETTERS[:len(coeffs)]
    coeffs = _nested_matrices(coeffs)
    kind, n = check_matrices(dict(zip(letters, coeffs)), tuple(letters), "A")
    if kind == "mpmath":
        tt = _mp(t)
    elif kind == "numpy":
        tt = check_real("t", t)
    else:
        tt = _exact_time(t, kind)
    dt = numpy_dtype(coeffs) if kind == "numpy" else None
    scaled = {a: coeffs[k] * (tt ** (k + 1)) if kind != "numpy" else
              np.asarray(coeffs[k], dt) * tt ** (k + 1) for k, a in enumerate(letters)}
    terms = [P.evaluate(scaled) if P.lyndon_coefficients() else _zero_like(coeffs[0], kind)
             for P in magnus_lie_terms(len(coeffs), order, convention)]
    return MagnusResult(terms, convention, t, "exact", {"matrix_kind": kind, "size": n})


def _mp(t):
    """``t`` as an mpf at the current precision (an exact or binary value rounded once)."""
    import mpmath

    if _sympy_number(t) and not isinstance(t, Rational):
        return mpmath.mpf(t._to_mpmath(mpmath.mp.prec + 10))   # sympy.sqrt(2), pi: evaluated
    q = check_exact("t", t, floats=True)
    return mpmath.mpf(q.numerator) / q.denominator


def _zero_like(M, kind):
    if kind == "numpy":
        return np.zeros_like(np.asarray(M, numpy_dtype([M])))
    return M * 0


@lru_cache(maxsize=16)
def _gl_integration(nodes: int):
    """Gauss-Legendre nodes x on [0, 1] and the matrix S with (S f)(x_i) = ∫_0^{x_i} p(s) ds for
    the interpolating polynomial p of f (spectral integration)."""
    from numpy.polynomial import legendre as L

    u, _ = L.leggauss(nodes)
    x = (u + 1) / 2
    V = L.legvander(u, nodes - 1)  # Legendre basis: well conditioned
    I = np.empty_like(V)
    for j in range(nodes):
        e = np.zeros(nodes)
        e[j] = 1.0
        I[:, j] = L.legval(u, L.legint(e, lbnd=-1)) / 2  # dx = du / 2
    S = I @ np.linalg.inv(V)
    return x, S


#: the most Gauss-Legendre nodes of the quadrature path (its Legendre-Vandermonde system is
#: inverted; beyond a few hundred nodes that costs more than it gains)
MAX_NODES = 256


def _magnus_quadrature(A, order, t, convention, nodes):
    nodes = check_int("nodes", nodes, 1, MAX_NODES)
    if nodes < order + 2:
        raise ValueError(f"nodes must be >= order + 2, got {nodes}")
    x, S = _gl_integration(nodes)
    pts = x * t
    mats = [np.asarray(A(float(s))) for s in pts]
    if any(m.dtype == object or not np.issubdtype(m.dtype, np.number) or np.iscomplexobj(m)
           for m in mats):
        raise TypeError("A(t) must return real numeric arrays (the quadrature path is float64)")
    mats = [m.astype(float) for m in mats]
    shp = mats[0].shape
    if len(shp) != 2 or shp[0] != shp[1]:
        raise ValueError(f"A(t) must return square matrices, got shape {shp}")
    if any(m.shape != shp for m in mats):
        raise ValueError("A(t) returned matrices of different shapes")
    if not all(np.all(np.isfinite(m)) for m in mats):
        raise ValueError("A(t) returned NaN/inf")
    Am = np.stack(mats)  # (nodes, n, n)
    n = shp[0]
    J = [np.broadcast_to(np.eye(n), Am.shape).copy()]
    for _ in range(order):
        prod = Am @ J[-1] if convention == "AY" else J[-1] @ Am
        J.append(t * np.einsum("ij,jkl->ikl", S, prod))
    # value at time t: integrate to the end point with the quadrature weights of [0, 1]
    from numpy.polynomial import legendre as L

    _, wts = L.leggauss(nodes)
    wts = wts / 2
    Jt = [np.eye(n)]
    for m in range(1, order + 1):
        prod = Am @ J[m - 1] if convention == "AY" else J[m - 1] @ Am
        Jt.append(t * np.einsum("i,ikl->kl", wts, prod))
    terms = [_log_graded(Jt, m) for m in range(1, order + 1)]
    return MagnusResult(terms, convention, t, "quadrature", {"nodes": nodes})


def _compositions(m: int):
    if m == 0:
        yield ()
        return
    for first in range(1, m + 1):
        for rest in _compositions(m - first):
            yield (first,) + rest


def _log_graded(J: list, m: int):
    """Ω_m = Σ_k (-1)^{k+1}/k Σ_{m1+…+mk=m} J_{m1}⋯J_{mk}."""
    total = np.zeros_like(J[1])
    for comp in _compositions(m):
        P = J[comp[0]]
        for c in comp[1:]:
            P = P @ J[c]
        k = len(comp)
        total = total + ((-1) ** (k + 1) / k) * P
    return total


def magnus_discrete(X: Sequence[Any], degree: int):
    """Discrete Magnus expansion of ``log(e^{X_T} ⋯ e^{X_1})`` for the sequence ``X = [X_1, …,
    X_T]`` (the later factor first, SPEC §2): the list of its homogeneous terms of degree 1..degree
    (multi-factor BCH, :func:`.bch.bch_multi`, evaluated at the matrices)."""
    from .bch_series import bch_multi

    Xs = as_list("X", X, "a sequence of square matrices")
    if not Xs:
        raise ValueError("X must be a non-empty sequence of matrices")
    degree = check_int("degree", degree)
    letters = tuple(chr(0x100 + i) for i in range(len(Xs)))
    check_matrices(dict(zip(letters, Xs)), letters, "X")     # before the series is computed
    Z = bch_multi(len(Xs), degree)
    mats = dict(zip(Z.alphabet, Xs))
    out = []
    for m in range(1, degree + 1):
        comp = Z.homogeneous_component(m)
        out.append(comp.evaluate(mats) if comp.lyndon_coefficients() else
                   _zero_like(Xs[0], check_matrices(mats, Z.alphabet)[0]))
    return out


def taylor_ode_solution(A: Sequence[Any], t: Any = 1, convention: str = "AY", dps: int = 50,
                        max_terms: int = 10000, max_dps: int = 5000):
    """Reference solution ``Y(t)`` of ``Y' = A(t)Y`` (``"AY"``) or ``Y' = YA(t)`` (``"YA"``),
    ``Y(0) = I``, for polynomial ``A(t) = Σ_k t^k A_k``, by its Taylor series
    ``Y = Σ_j Y_j t^j``, ``(j+1) Y_{j+1} = Σ_k A_k Y_{j-k}`` (``Y_{j-k} A_k`` for ``"YA"``), summed
    until the terms fall below ``10^-(dps+5)`` relative (the series is entire). Independent of the
    Magnus machinery; returns an mpmath matrix whose Frobenius-norm relative error is below
    ``10^-dps``.

    Cancellation. The terms of the series can be far larger than its sum (``A = [[-100]]``:
    terms up to ``1e42``, sum ``exp(-100) = 3.7e-44``). With ``a_k = ‖A_k‖_F`` and
    ``E = exp(Σ_k a_k |t|^{k+1}/(k+1))``, the scalar series ``z' = (Σ a_k s^k) z`` majorises the
    matrix one, so ``Σ_j ‖Y_j t^j‖_F ≤ √n E``; ``Y(t)^{-1}`` solves ``Z' = -ZA`` (``-AZ``), so
    ``‖Y(t)^{-1}‖_2 ≤ E`` and ``‖Y(t)‖_F ≥ 1/E``. The sum of |terms| is therefore at most
    ``√n E²`` times the result, and the series is summed at ``dps + log10(√n E²)`` digits plus
    guard digits for the rounding of ``max_terms`` recurrence steps (Higham, *Accuracy and
    Stability of Numerical Algorithms*, 2nd ed., §4.2: summation error is bounded by the sum of
    |terms| times the unit roundoff). The sum of |terms| met is checked against the digits added.

    Raises ``ValueError`` for ``dps < 1``, ``max_terms < 1``, ``max_dps < dps``, a bad
    ``t``/convention or non-square / mismatched matrices; ``ArithmeticError`` if ``max_terms``
    terms do not converge or the accuracy ``10^-dps`` needs more than ``max_dps`` working
    digits (cancellation too large: shorten ``t`` or raise ``max_dps``)."""
    import mpmath

    _check_convention(convention)
    _check_t(t)
    dps = check_int("dps", dps)
    max_terms = check_int("max_terms", max_terms)
    max_dps = check_int("max_dps", max_dps)
    if dps > max_dps:
        raise ValueError(f"dps = {dps} is above max_dps = {max_dps}: dps must be <= max_dps")
    if callable(A) or isinstance(A, (str, bytes)):
        raise TypeError("A must be a sequence of coefficient matrices [A_0, A_1, ...]")
    wdps = dps + _cancellation_digits(A, t, max_terms)
    if wdps > max_dps:
        raise ArithmeticError(
            f"taylor_ode_solution: an accuracy of 10^-{dps} needs {wdps} working digits (the sum "
            f"of |terms| may exceed the result by 10^{wdps - dps - _GUARD_DIGITS}), above "
            f"max_dps = {max_dps}; shorten t or raise max_dps")
    with working_dps(wdps):
        As = _mp_coefficients(A)
        total, mass = _taylor_sum(As, _mp(t), convention, dps, max_terms)
        lost = mpmath.log10(mass / mpmath.mnorm(total, "f"))
    if lost > wdps - dps - 1:     # cannot happen if the a-priori bound holds; never answer wrongly
        raise ArithmeticError(f"taylor_ode_solution: cancellation of 10^{float(lost):.0f} exceeds "
                              f"the {wdps - dps} guard digits")
    return total


_GUARD_DIGITS = 10


def _mp_coefficients(A):
    import mpmath

    As = []
    for k, M in enumerate(as_list("A", A, "a sequence of coefficient matrices")):
        if not isinstance(M, mpmath.matrix):
            M = np.asarray(M.tolist() if hasattr(M, "tolist") else M, dtype=object)
            if M.ndim != 2 or 0 in M.shape:
                raise ValueError(f"A[{k}]: a coefficient must be a non-empty square matrix, got "
                                 f"shape {M.shape}")
            M = [[_mp_entry(x, f"A[{k}]") for x in row] for row in M.tolist()]
        As.append(mpmath.matrix(M))
    if not As:
        raise ValueError("A must contain at least one coefficient matrix")
    n = As[0].rows
    if n < 1 or any(M.rows != n or M.cols != n for M in As):
        raise ValueError("A: coefficient matrices must be square, non-empty and of one size")
    for k, M in enumerate(As):
        for x in M:
            if not isinstance(x, mpmath.mpf):
                raise TypeError(f"A[{k}]: entries must be real numbers, got {shown(x)}")
            if not mpmath.isfinite(x):
                raise ValueError(f"A[{k}]: entries must be finite, got {shown(x)}")
    return As


def _mp_entry(x, where: str):
    """One coefficient entry as an mpf at the working precision: an exact or binary real number
    rounded once (:func:`~seqtheory.theory.contract.check_exact` with ``floats``), a sympy
    number evaluated; ``TypeError`` naming ``where`` for a bool, string or complex entry."""
    import mpmath

    if _sympy_number(x) and not isinstance(x, Rational):
        if not x.is_real:
            raise TypeError(f"{where}: entries must be real numbers, got {x}")
        return mpmath.mpf(x._to_mpmath(mpmath.mp.prec + 10))
    if isinstance(x, (complex, np.complexfloating)) or type(x).__name__ == "mpc":
        raise TypeError(f"{where}: entries must be real numbers, got {shown(x)}")
    q = check_exact(where, x, floats=True)
    return mpmath.mpf(q.numerator) / q.denominator


def _cancellation_digits(A, t, max_terms: int) -> int:
    """Digits to add so that the Taylor sum keeps ``dps`` digits relative to its result: the
    log10 of ``√n E²`` (see :func:`taylor_ode_solution`), of the rounding steps, and guard digits."""
    import mpmath

    with working_dps(30):
        As = _mp_coefficients(A)
        tt = abs(_mp(t))
        log_e = sum(mpmath.mnorm(M, "f") * tt ** (k + 1) / (k + 1) for k, M in enumerate(As))
        n = As[0].rows
        digits = (2 * log_e / mpmath.log(10) + mpmath.log10(n) / 2
                  + mpmath.log10(max_terms * n * len(As)))
    return int(mpmath.ceil(digits)) + _GUARD_DIGITS


def _taylor_sum(As, tt, convention: str, dps: int, max_terms: int):
    """Σ_j Y_j t^j and Σ_j ‖Y_j t^j‖_F at the current mpmath precision."""
    import mpmath

    n = As[0].rows
    Ys = [mpmath.eye(n)]
    total = mpmath.eye(n)
    mass = mpmath.sqrt(n)
    tol = mpmath.mpf(10) ** -(dps + 5)
    small = 0
    for j in range(max_terms):
        acc = mpmath.zeros(n, n)
        for k, Ak in enumerate(As):
            if j - k >= 0:
                acc += (Ak * Ys[j - k]) if convention == "AY" else (Ys[j - k] * Ak)
        Ynext = acc / (j + 1)
        Ys.append(Ynext)
        term = Ynext * tt ** (j + 1)
        total += term
        size = mpmath.mnorm(term, "f")
        mass += size
        small = small + 1 if size < tol * mpmath.mnorm(total, "f") else 0
        if small >= len(As) + 1:
            return total, mass
    raise ArithmeticError("Taylor series did not converge within max_terms")

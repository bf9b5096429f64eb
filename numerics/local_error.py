"""Local error of degree-c truncations of the multi-factor BCH / Magnus logarithm.

Source: [DEPTH] G. Heo et al., arXiv:2603.05573, Corollary 3.6 (local error of a k-layer abelian
model on a non-solvable target: ``O(ε^(2^(k−1)+1))`` in v1; a simplified form
``O(ε^(k+1))`` circulates in summaries of the paper; v2 corrected an index). Mechanism (SPEC §3.1): a k-layer abelian model realises
the free nilpotent Lie algebra ``N(n, c)`` when its derived length is ≤ k, i.e. up to
``c = c_k(n)`` (:func:`seqtheory.numerics.separation.max_class_for_depth`); what it cannot
represent is the part of ``log(e^{εX_{x_T}} ⋯ e^{εX_{x_1}})`` of degree > c, so its local error is
that of the degree-c truncation, ``Θ(ε^(c+1))`` on generic targets.

Conventions (SPEC §2): a word ``x = (x_1..x_T)`` of generator indices has product
``Φ_x(ε) = e^{εX_{x_T}} ⋯ e^{εX_{x_1}}`` (later factor first) and
``log Φ_x(ε) = Σ_m ε^m Z_m`` with ``Z_1 = Σ X_{x_i}``, ``Z_2 = ½ Σ_{i>j} [X_{x_i}, X_{x_j}]``.

Arithmetic: numpy object arrays of ``mpmath.mpf`` at a caller-chosen precision (``dps``). The
coefficients ``Z_m`` are computed by truncated power-series arithmetic in ε (exact up to the
working precision); the *measured* error uses an independent path: ``mp.expm`` of each factor,
their product, ``mp.logm``, minus the truncated series.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

import mpmath
import numpy as np

from seqtheory.theory._checks import check_int
from seqtheory.theory.contract import as_list, check_exact, check_instance, check_int_sequence
from seqtheory.theory.mp_precision import MAX_DPS, resolving_dps, working_dps

__all__ = [
    "as_mp_matrices",
    "to_mpf",
    "mp_zeros",
    "mp_to_object_array",
    "frobenius_mp",
    "log_series_coefficients",
    "path_product",
    "truncation_error",
    "LocalErrorScan",
    "local_error_scan",
    "target_generators",
    "default_eps_grid",
]


#: the highest degree of a log-series expansion (its cost grows like degree³ · d³ products)
MAX_DEGREE = 32
#: the most ε values of a local-error scan
MAX_POINTS = 1000
#: the largest size / letter count of a random target
MAX_TARGET_SIZE = 32


def as_mp_matrices(gens, name: str = "gens") -> list[np.ndarray]:
    """Validate a list of square matrices (same size, finite) and convert to mpf object arrays.

    Entries may be ints, floats, Fractions, Decimals, sympy numbers or mpf (each rounded once to
    the current mpmath precision, :func:`to_mpf`); numpy arrays of any real dtype, nested
    sequences, sympy matrices, tensors (``.tolist()``). Raises ``ValueError`` for an empty list,
    non-square or mismatched shapes, NaN/inf entries, ``TypeError`` for a non-sequence or a
    bool, string or complex entry; every message names ``name``."""
    mats = as_list(name, gens, "a non-empty list of square matrices")
    if not mats:
        raise ValueError(f"{name} must be a non-empty list of square matrices")
    out = []
    size = None
    for i, G in enumerate(mats):
        A = np.asarray(G.tolist() if hasattr(G, "tolist") else G, dtype=object)
        if A.ndim != 2 or A.shape[0] != A.shape[1] or A.shape[0] == 0:
            raise ValueError(f"{name}[{i}] must be a square matrix, got shape {A.shape}")
        if size is None:
            size = A.shape[0]
        elif A.shape[0] != size:
            raise ValueError(f"{name}[{i}] has size {A.shape[0]}, expected {size}")
        M = np.empty(A.shape, dtype=object)
        for idx, v in np.ndenumerate(A):
            M[idx] = to_mpf(v, f"{name}[{i}]")
        out.append(M)
    return out


def to_mpf(v, name: str = "value", minimum=None, above: bool = False) -> mpmath.mpf:
    """``v`` (a real number: int, float, Fraction, Decimal, sympy number, python-flint rational
    or mpf) as an mpf at the current mpmath precision: an exact or binary value
    (:func:`~seqtheory.theory.contract.check_exact` with ``floats``, bounded below by
    ``minimum``) divided exactly at that precision, a sympy irrational evaluated 10 digits
    beyond it. ``TypeError`` / ``ValueError`` naming ``name`` for a bool, string, complex or
    non-finite value, or one out of bounds."""
    if type(v).__module__.startswith("sympy") and getattr(v, "is_number", False) \
            and not getattr(v, "is_Rational", False):
        if not (v.is_real and v.is_finite):
            raise TypeError(f"{name} must be a finite real number, got {v}")
        x = mpmath.mpf(str(v.evalf(mpmath.mp.dps + 10)))
        if minimum is not None and (x <= minimum if above else x < minimum):
            raise ValueError(f"{name} must be {'>' if above else '>='} {minimum}, got {v}")
        return x
    q = check_exact(name, v, floats=True, minimum=minimum, above=above)
    return mpmath.mpf(q.numerator) / q.denominator


def check_word(word, n: int, name: str = "word") -> list[int]:
    """``word`` (letters 0..n-1) as a non-empty list of ints
    (:func:`~seqtheory.theory.contract.check_int_sequence`); ``TypeError`` for a non-integer
    letter (floats and bools are refused, not rounded), ``ValueError`` for an empty word or a
    letter out of range; messages name ``name``."""
    return check_int_sequence(name, word, 0, n - 1, min_len=1)


def _eye(d: int) -> np.ndarray:
    E = np.empty((d, d), dtype=object)
    for i in range(d):
        for j in range(d):
            E[i, j] = mpmath.mpf(1 if i == j else 0)
    return E


def mp_zeros(d: int) -> np.ndarray:
    """The ``d x d`` zero matrix as an object array of mpf."""
    Z = np.empty((d, d), dtype=object)
    Z[...] = mpmath.mpf(0)
    return Z


def _series_mul(A: list, B: list, D: int) -> list:
    d = next(M for M in A if M is not None).shape[0]
    out = [mp_zeros(d) for _ in range(D + 1)]
    for i, a in enumerate(A):
        if a is None:
            continue
        for j in range(0, D + 1 - i):
            b = B[j]
            if b is None:
                continue
            out[i + j] = out[i + j] + a.dot(b)
    return out


def log_series_coefficients(gens, word, degree: int, dps: int = 50) -> list[np.ndarray]:
    """``[Z_1, ..., Z_degree]`` with ``log(e^{εX_{x_T}} ⋯ e^{εX_{x_1}}) = Σ_m ε^m Z_m``.

    ``gens``: list of n square matrices (any numeric entries; see :func:`as_mp_matrices`);
    ``word``: letters in ``[0, n)``; ``degree`` ≥ 1; ``dps``: mpmath decimal digits. Returns mpf
    object arrays (d, d). Truncated power-series arithmetic: the product of the exponential
    series, then ``log(I + Y) = Σ_j (−1)^{j+1} Y^j / j`` (``Y = O(ε)``, so ``j ≤ degree``).
    """
    degree = check_int("degree", degree, 1, MAX_DEGREE)
    with working_dps(dps) as dps:
        X = as_mp_matrices(gens)
        w = check_word(word, len(X))
        d = X[0].shape[0]
        D = degree
        exp_series = []
        for A in X:
            s = [_eye(d)]
            P = _eye(d)
            for j in range(1, D + 1):
                P = P.dot(A) / j
                s.append(P)
            exp_series.append(s)
        prod = [_eye(d)] + [mp_zeros(d) for _ in range(D)]
        for a in w:  # later factor multiplies on the left
            prod = _series_mul(exp_series[a], prod, D)
        Y = [None] + prod[1:]
        log = [mp_zeros(d) for _ in range(D + 1)]
        Yj = Y
        for j in range(1, D + 1):
            sign = 1 if j % 2 == 1 else -1
            for m in range(j, D + 1):
                log[m] = log[m] + Yj[m] * (mpmath.mpf(sign) / j)
            if j < D:
                Yj = _series_mul(Yj, Y, D)
                Yj[0] = None
        return log[1:]


def path_product(gens, word, eps, dps: int = 50) -> np.ndarray:
    """``Φ_x(ε) = e^{εX_{x_T}} ⋯ e^{εX_{x_1}}`` as an mpf object array (``mp.expm`` per
    distinct letter, then products). Raises ``ValueError`` for negative ``eps``."""
    with working_dps(dps) as dps:
        e = to_mpf(eps, "eps", 0)
        X = as_mp_matrices(gens)
        w = check_word(word, len(X))
        d = X[0].shape[0]
        cache = {}
        P = _eye(d)
        for a in w:
            if a not in cache:
                cache[a] = mp_to_object_array(mpmath.expm(mpmath.matrix((X[a] * e).tolist())))
            P = cache[a].dot(P)
        return P


def mp_to_object_array(M) -> np.ndarray:
    """An mpmath matrix as a numpy object array of the same shape (entries kept as mpf/mpc),
    the form :func:`as_mp_matrices` reads back."""
    out = np.empty((M.rows, M.cols), dtype=object)
    for i in range(M.rows):
        for j in range(M.cols):
            out[i, j] = M[i, j]
    return out


def frobenius_mp(M) -> mpmath.mpf:
    """``‖M‖_F = sqrt(Σ |m_ij|²)`` of an array (or sequence) of mpf / mpc / numbers, an mpf at
    the working precision (``mpmath.norm``: the modulus of a complex entry, so a complex matrix
    -- e.g. ``logm`` past its branch cut -- has a real, non-negative norm)."""
    return mpmath.norm(list(np.asarray(M, dtype=object).flat), 2)


def truncation_error(gens, word, c: int, eps, coeffs=None, dps: int = 50):
    """``‖log Φ_x(ε) − Σ_{m≤c} ε^m Z_m‖_F`` (an ``mpf``), with ``log Φ_x`` computed independently
    (``mp.expm`` products and ``mp.logm``). ``coeffs`` may pass precomputed ``[Z_1..]``."""
    c = check_int("c", c, 1, MAX_DEGREE)
    with working_dps(dps) as dps:
        Z = coeffs if coeffs is not None else log_series_coefficients(gens, word, c, dps)
        e = to_mpf(eps, "eps", 0)
        P = path_product(gens, word, e, dps)
        L = mp_to_object_array(mpmath.logm(mpmath.matrix(P.tolist())))
        trunc = mp_zeros(P.shape[0])
        for m in range(1, c + 1):
            trunc = trunc + Z[m - 1] * e ** m
        return frobenius_mp(L - trunc)


def default_eps_grid(coeffs, c: int, n_points: int = 9, span: float = 10.0,
                     rel_next: float = 1e-2) -> np.ndarray:
    """A geometric ε grid over one ``span`` decade-factor whose top keeps the next-order
    correction small: ``ε_max = rel_next · ‖Z_{c+1}‖ / ‖Z_{c+2}‖`` (capped by the radius
    ``1 / max_m ‖Z_m‖^{1/m}``), ``ε_min = ε_max / span``. ``coeffs`` must reach degree c+2."""
    c = check_int("c", c)
    n_points = check_int("n_points", n_points, 3)
    norms = [float(frobenius_mp(Z)) for Z in coeffs]
    if len(norms) < c + 2:
        raise ValueError("coeffs must reach degree c+2")
    radius = 1.0 / max(max(nm ** (1.0 / (m + 1)) for m, nm in enumerate(norms) if nm > 0), 1e-300)
    a, b = norms[c], norms[c + 1]
    top = radius * 0.1
    if a > 0 and b > 0:
        top = min(top, rel_next * a / b)
    return np.geomspace(top / span, top, n_points)


def target_generators(name: str, seed: int = 0, size: int = 3, n_letters: int = 2) -> list:
    """Generators of non-solvable targets used by the cor3.6 experiments.

    ``"so3_a5"``: the so(3) logarithms of the icosahedral A5 rotation generators (order 5 and
    order 2), from :func:`seqtheory.theory.representations.icosahedral_representation`, as exact
    sympy matrices; ``"sl2"``: ``E = [[0,1],[0,0]]``, ``F = [[0,0],[1,0]]`` (they generate sl2);
    ``"gl_random"``: ``n_letters`` random ``size × size`` matrices with entries in
    ``{-3..3}/4`` (Fractions; generically they generate gl_n, non-solvable)."""
    check_instance("name", name, str, "a target name (str)")
    seed = check_int("seed", seed, 0)
    size = check_int("size", size, 1, MAX_TARGET_SIZE)
    n_letters = check_int("n_letters", n_letters, 1, MAX_TARGET_SIZE)
    if name == "so3_a5":
        from seqtheory.theory.representations import icosahedral_representation

        return [np.array(L.tolist(), dtype=object) for L in
                icosahedral_representation().so3_generators]
    if name == "sl2":
        return [np.array([[0, 1], [0, 0]], dtype=object), np.array([[0, 0], [1, 0]], dtype=object)]
    if name == "gl_random":
        rng = np.random.default_rng(seed)
        return [np.vectorize(lambda v: Fraction(int(v), 4), otypes=[object])(
            rng.integers(-3, 4, size=(size, size))) for _ in range(n_letters)]
    raise ValueError(f"name: unknown target {name!r}; expected 'so3_a5', 'sl2' or 'gl_random'")


@dataclass
class LocalErrorScan:
    """Errors of the degree-c truncation over an ε grid, with the fitted log-log slope."""

    c: int
    eps: list[float]
    errors: list[float]
    slope: float
    ci: tuple[float, float]
    leading_norm: float          # ‖Z_{c+1}‖_F
    predicted_exponent: int      # c + 1
    dps: int
    fit: dict = field(default_factory=dict)


def local_error_scan(gens, word, c: int, n_points: int = 9, dps: int | None = None,
                     eps_grid=None, series_word=None) -> LocalErrorScan:
    """Measure the local-error exponent of the degree-c truncation on ``(gens, word)``.

    Chooses the ε grid with :func:`default_eps_grid` (unless given) and the precision so that the
    smallest error is ≥ 10^(−dps+20) (``dps`` grows as needed), computes the errors with
    :func:`truncation_error` and fits the log-log slope with
    :func:`seqtheory.numerics.fits.fit_loglog_slope`.

    ``series_word`` (default: ``word``) is the word whose truncated series is subtracted from
    ``log Φ_word``: passing ``word[::-1]`` gives the *wrong product convention* (earlier factor
    first; every even term flips sign), a negative control whose exponent must drop to 2.
    """
    from seqtheory.numerics.fits import fit_loglog_slope

    c = check_int("c", c, 1, MAX_DEGREE - 2)
    n_points = check_int("n_points", n_points, 3, MAX_POINTS)
    work = check_int("dps", dps, 1, MAX_DPS) if dps is not None else 40
    sw = word if series_word is None else series_word
    coeffs = log_series_coefficients(gens, sw, c + 2, dps=work)
    grid = np.asarray(eps_grid if eps_grid is not None else default_eps_grid(coeffs, c, n_points),
                      dtype=float)
    lead = float(frobenius_mp(coeffs[c]))
    # predicted smallest error: ε_min^(c+1) ‖Z_{c+1}‖ -> digits needed (in logs: the product
    # underflows float64 for small ε and large c, which once gave 60 digits where more were needed)
    need = resolving_dps(lead, c + 1, float(grid.min()), 25)
    if dps is None and need > work:
        work = need
        coeffs = log_series_coefficients(gens, sw, c + 2, dps=work)
    errs_mp = [truncation_error(gens, word, c, e, coeffs=coeffs, dps=work) for e in grid]
    errs = [float(e) for e in errs_mp]
    fit = fit_loglog_slope(list(grid), errs_mp)
    slope, ci = _fit_slope_ci(fit)
    return LocalErrorScan(c, [float(e) for e in grid], errs, slope, ci, lead, c + 1, work,
                          _fit_dict(fit))


def _fit_slope_ci(fit) -> tuple[float, tuple[float, float]]:
    return float(fit.slope), (float(fit.ci_low), float(fit.ci_high))


def _fit_dict(fit) -> dict:
    from dataclasses import asdict

    return {k: float(v) for k, v in asdict(fit).items()}

"""The time-reversal lower bound for abelian models (commuting transitions, no bias).

Source: [DEPTH] G. Heo et al., arXiv:2603.05573, Theorem 3.2 (stated for restricted models: a
constant-depth restricted model has error bounded below by a term scaling with the commutator mass
``‖Ω2‖``; the error can accumulate with sequence length). The bound below holds for *abelian*
models; restricted (affine) layers are order-sensitive and escape it
(:mod:`seqtheory.numerics.restricted`).

Argument (made quantitative here). An abelian model's state after a word depends only on the
multiset of its letters, so it returns the same output for a word ``x`` and its time reversal
``x̄``. If ``y`` is that output, the triangle inequality gives

    max(‖Φ_x h0 − y‖, ‖Φ_x̄ h0 − y‖) ≥ B(ε) := ½ ‖(Φ_x(ε) − Φ_x̄(ε)) h0‖.

Constant. ``Φ_x̄(ε) = Φ_x(−ε)^{-1}``, so ``log Φ_x̄(ε) = −log Φ_x(−ε)``: with
``log Φ_x(ε) = εΩ1 + ε²Ω2 + ε³Ω3 + …`` the reversed path has the same odd terms and opposite even
terms. Writing ``a = εΩ1 + ε³Ω3 + …``, ``b = ε²Ω2 + ε⁴Ω4 + …``,

    Φ_x − Φ_x̄ = e^{a+b} − e^{a−b} = 2b + (ab + ba) + O(ε⁴) = 2ε²Ω2 + ε³(Ω1Ω2 + Ω2Ω1) + O(ε⁴),

hence ``B(ε) = ε² ‖Ω2 h0‖ (1 + O(ε))``: the ratio ``B / (ε²‖Ω2 h0‖) → 1`` and the log-log slope
is 2 whenever ``Ω2 h0 ≠ 0``; the residual ``(Φ_x − Φ_x̄)h0 − 2ε²Ω2h0`` is ``O(ε³)``. Here
``Ω2 = ½ Σ_{i>j} [A_{x_i}, A_{x_j}]`` (SPEC §2, later factor first). When ``Ω2 h0 = 0`` (the
commutator acts in an unobserved direction, e.g. ``A = diag(1, 0)``, ``B = E12``, ``h0 = e1``)
the ε² term vanishes although ``‖Ω2‖ > 0``.

Every initial state (the paper's reading, SPEC §3.1): ``h0=None`` takes the supremum over unit
initial states, ``B(ε) = ½‖Φ_x − Φ_x̄‖₂ = ε²‖Ω2‖₂(1 + O(ε))`` (spectral norms, mpmath). The same
bound holds for *restricted* layers (free bias, any encoding of h0, affine readout) over the runs
``{x, x̄} × {h0, −h0}``: see :mod:`seqtheory.numerics.order_blind`.
"""
from __future__ import annotations

from dataclasses import dataclass

import mpmath
import numpy as np

from seqtheory.theory._checks import check_int
from seqtheory.theory.contract import as_list, complex_array

from .word_counts import check_word_count
from .local_error import as_mp_matrices, check_word, frobenius_mp, mp_zeros, path_product, to_mpf
from seqtheory.theory.mp_precision import working_dps

__all__ = [
    "omega1",
    "omega2",
    "reversal_bound",
    "ReversalPoint",
    "reversal_scan",
    "abelian_model_error",
    "zero_area_words",
    "affine_diagonal_final_state",
    "euclidean_norm",
    "spectral_norm",
    "mp_spectral_norm",
]


def omega1(gens, word, dps: int = 50) -> np.ndarray:
    """``Ω1 = Σ_i A_{x_i}`` (mpf object array)."""
    with working_dps(dps) as dps:
        A = as_mp_matrices(gens)
        w = check_word(word, len(A))
        out = mp_zeros(A[0].shape[0])
        for a in w:
            out = out + A[a]
        return out


def omega2(gens, word, dps: int = 50) -> np.ndarray:
    """``Ω2 = ½ Σ_{i>j} [A_{x_i}, A_{x_j}]`` (the second Magnus/BCH term of the word, later factor
    first; SPEC §2). O(T·n) commutators via the running prefix sum."""
    with working_dps(dps) as dps:
        A = as_mp_matrices(gens)
        w = check_word(word, len(A))
        d = A[0].shape[0]
        out = mp_zeros(d)
        prefix = mp_zeros(d)
        for a in w:
            out = out + (A[a].dot(prefix) - prefix.dot(A[a]))
            prefix = prefix + A[a]
        return out * mpmath.mpf(0.5)


def _vec(h0, d: int) -> np.ndarray:
    h = np.asarray(h0.tolist() if hasattr(h0, "tolist") else h0, dtype=object)
    if h.ndim != 1 or h.shape[0] != d:
        raise ValueError(f"h0 must be a vector of length {d}, got shape {h.shape}")
    out = np.empty(d, dtype=object)
    for i, v in enumerate(h):
        out[i] = to_mpf(v, f"h0[{i}]")
    return out


def euclidean_norm(v):
    """``‖v‖₂`` of a vector (or array, all entries) of mpf / mpc or numbers, as an mpf at the
    working precision (:func:`~seqtheory.numerics.local_error.frobenius_mp`)."""
    return frobenius_mp(v)


def mp_spectral_norm(M):
    """``‖M‖₂`` of a real matrix (mpf object array, or numbers) at the working mpmath precision:
    its largest singular value (``mpmath.svd_r``), an mpf."""
    return max(mpmath.svd_r(mpmath.matrix(np.asarray(M).tolist()), compute_uv=False))


def _applied_norm(M, h):
    """``‖M h‖₂`` for a vector ``h``, or the spectral norm ``‖M‖₂`` (sup over unit h) when
    ``h`` is None; an mpf at the working precision."""
    return mp_spectral_norm(M) if h is None else euclidean_norm(M.dot(h))


def spectral_norm(M) -> float:
    """Spectral norm ``‖M‖₂`` (largest singular value) of a real matrix, in float64 (the entries,
    mpf or exact, converted by ``float``)."""
    return float(np.linalg.norm(np.array(M, dtype=float), 2))


def reversal_bound(gens, word, h0, eps, dps: int = 50):
    """``B(ε) = ½ ‖(Φ_x(ε) − Φ_x̄(ε)) h0‖₂`` (mpf), the lower bound on the worst-case error of any
    abelian model over the pair {x, x̄}; ``h0=None``: ``½ ‖Φ_x(ε) − Φ_x̄(ε)‖₂``, the bound over
    every unit initial state."""
    with working_dps(dps) as dps:
        A = as_mp_matrices(gens)
        w = check_word(word, len(A))
        h = None if h0 is None else _vec(h0, A[0].shape[0])
        D = path_product(A, w, eps, dps) - path_product(A, w[::-1], eps, dps)
        return _applied_norm(D, h) / 2


@dataclass
class ReversalPoint:
    """One ε of a reversal scan: the bound ``B``, the prediction ``ε²‖Ω2 h0‖``, their ratio, and
    the residual ``‖(Φ_x − Φ_x̄)h0 − 2 s ε²Ω2 h0‖`` for the sign ``s`` used (``+1`` correct)."""

    eps: float
    bound: float
    predicted: float
    ratio: float
    residual: float


def reversal_scan(gens, word, h0, eps_grid, dps: int = 50, omega2_sign: int = 1,
                  omega2_scale=1) -> list[ReversalPoint]:
    """Bound vs prediction over an ε grid. ``omega2_sign``/``omega2_scale`` alter the predicted
    second-order difference ``2·Ω2`` (negative controls: ``−1`` flips the sign of Ω2, scale ½
    drops the factor 2); the correct values are ``+1``, ``1``. ``h0=None``: every unit initial
    state (spectral norms: ``½‖Φ_x − Φ_x̄‖₂`` against ``ε²‖Ω2‖₂``)."""
    omega2_sign = check_int("omega2_sign", omega2_sign, None)
    if omega2_sign not in (1, -1):
        raise ValueError("omega2_sign must be +1 or -1")
    grid = as_list("eps_grid", eps_grid, "a sequence of positive numbers")
    out = []
    with working_dps(dps) as dps:
        A = as_mp_matrices(gens)
        w = check_word(word, len(A))
        h = None if h0 is None else _vec(h0, A[0].shape[0])
        O2 = omega2(A, w, dps)
        nO2h = _applied_norm(O2, h)
        scale = to_mpf(omega2_scale, "omega2_scale")
        for i, e in enumerate(grid):
            e = to_mpf(e, f"eps_grid[{i}]", 0, above=True)
            D = path_product(A, w, e, dps) - path_product(A, w[::-1], e, dps)
            bound = _applied_norm(D, h) / 2
            pred = e * e * nO2h
            resid = _applied_norm(D - O2 * (2 * omega2_sign * scale * e * e), h)
            out.append(ReversalPoint(float(e), float(bound), float(pred),
                                     float(bound / pred) if pred > 0 else float("nan"),
                                     float(resid)))
    return out


def abelian_model_error(gens, word, h0, eps, diag=None, dps: int = 50) -> tuple[float, float]:
    """Errors ``(‖Φ_x h0 − y‖, ‖Φ_x̄ h0 − y‖)`` of an abelian model's common output ``y``.

    ``diag=None``: the commuting model ``y = exp(εΩ1) h0`` (the degree-1 truncation);
    otherwise ``diag`` is a list of per-letter diagonal entries (complex or real vectors of length
    d) of a 1-layer diagonal model ``y = Π_i diag(exp(ε λ_{x_i})) h0`` (order-free).
    """
    with working_dps(dps) as dps:
        A = as_mp_matrices(gens)
        w = check_word(word, len(A))
        d = A[0].shape[0]
        h = _vec(h0, d)
        e = to_mpf(eps, "eps", 0)
        if diag is None:
            E = mpmath.expm(mpmath.matrix((omega1(A, w, dps) * e).tolist()))
            y = np.array([mpmath.fsum(E[i, j] * h[j] for j in range(d)) for i in range(d)],
                         dtype=object)
        else:
            lam = [np.asarray(v, dtype=complex).reshape(-1) for v in diag]
            if len(lam) != len(A) or any(v.shape[0] != d for v in lam):
                raise ValueError("diag must hold one length-d vector per letter")
            tot = sum(lam[a] for a in w)
            y = np.array([mpmath.exp(e * mpmath.mpc(complex(t))) * h[i]
                          for i, t in enumerate(tot)], dtype=object)
        ex = path_product(A, w, e, dps).dot(h) - y
        er = path_product(A, w[::-1], e, dps).dot(h) - y
        nx, nr = frobenius_mp(ex), frobenius_mp(er)
        return float(nx), float(nr)


def zero_area_words(T: int, n: int = 2, limit: int = 10) -> list[tuple[int, ...]]:
    """Non-palindromic words of length ``T`` over ``n`` letters whose free second-order term
    vanishes (``Σ_{i>j} [X_{x_i}, X_{x_j}] = 0`` in the free Lie algebra, i.e. every pair of
    letters has equal counts of ``(a before b)`` and ``(b before a)``), at most ``limit`` of them,
    in lexicographic order. For such a word ``Ω2 = 0`` for every choice of matrices, yet ``x ≠ x̄``."""
    import itertools

    T, n, limit = check_int("T", T), check_int("n", n), check_int("limit", limit)
    check_word_count(n, T)
    out = []
    for w in itertools.product(range(n), repeat=T):
        if w == w[::-1]:
            continue
        cnt = np.zeros((n, n), dtype=np.int64)
        seen = np.zeros(n, dtype=np.int64)
        for a in w:
            cnt[a] += seen  # pairs (earlier b, later a)
            seen[a] += 1
        if np.array_equal(cnt, cnt.T):
            out.append(w)
            if len(out) >= limit:
                break
    return out


def affine_diagonal_final_state(decay, inject, word) -> np.ndarray:
    """Final state of a 1-layer *affine* diagonal recurrence ``h_t = a(x_t) ⊙ h_{t-1} + b(x_t)``,
    ``h_0 = 0`` (Mamba / GLA style input injection; complex float64).

    ``decay``, ``inject``: per-letter vectors (n, d). Scope of the reversal bound: it applies to
    *linear* abelian layers (output a function of ``Π_t A(x_t) h0``, order-free); with an input
    term the final state ``Σ_s (Π_{r>s} a(x_r)) b(x_s)`` depends on the order, so an affine
    diagonal layer can separate ``x`` from ``x̄`` (cf. [DEPTH] Prop. 3.3: affine restricted layers
    reach derived length 2 per layer)."""
    a = complex_array(decay, "decay")
    b = complex_array(inject, "inject")
    if a.ndim != 2 or a.shape != b.shape or 0 in a.shape:
        raise ValueError(f"decay and inject must be (n, d) arrays of equal shape, got {a.shape}, "
                         f"{b.shape}")
    w = check_word(word, a.shape[0])
    h = np.zeros(a.shape[1], dtype=complex)
    for x in w:
        h = a[x] * h + b[x]
    return h

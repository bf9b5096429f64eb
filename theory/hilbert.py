"""Hilbert projective geometry of the language-model head.

Source: A. Somasundaram et al., *Toward a First-Principles Update Geometry for the
Language-Model Head*, arXiv:2608.22253 ([HEAD]; v1 Aug 2026, v2 Sep 2026), SPEC §3.2.

Setting and conventions (SPEC §3.2):

* head ``U ∈ R^{V×d}``, next-token distribution ``p_U(h) = softmax(U h)``; an update ``S`` has rows
  ``s_i`` (one per vocabulary entry) and the hidden state lies in a ball ``‖h‖ ≤ H``;
* Hilbert projective distance on the open simplex / on positive vectors
  ``𝓗(p, q) = max_i log(p_i/q_i) − min_i log(p_i/q_i)``; it only depends on the rays, so
  ``𝓗(softmax z, softmax z′) = ‖z − z′‖_var`` with the variation seminorm
  ``‖x‖_var = max_i x_i − min_i x_i``; everything here is computed in log space;
* row diameter ``D(S) = max_{i<j} ‖s_i − s_j‖₂`` and the diameter identity
  ``sup_{‖h‖₂≤H} 𝓗(p_{U+S}(h), p_U(h)) = H·D(S)`` (attained at ``h = H(s_i−s_j)/‖s_i−s_j‖`` for a
  diameter pair); for other hidden-state balls the dual norm replaces ``‖·‖₂``;
* ``P = I − 11ᵀ/V`` (centring over the vocabulary).

The equidistance facts (v1 of [HEAD]) live at the end: at most ``d+1`` points of ``R^d`` are
mutually equidistant (exact Gram-matrix argument), and the simplex / Rankin / Jung bounds on the
ratio ``min_{i<j}‖s_i−s_j‖ / max_{i<j}‖s_i−s_j‖`` of ``V`` points in ``R^d``.

numpy only (no torch). Every function raises ``ValueError`` for mismatched shapes, NaN/inf, or
values outside the domain (non-positive vectors for the Hilbert distance), and ``TypeError`` for
non-numeric input.
"""
from __future__ import annotations

import math

import numpy as np

from ._arrays import UNIT_ROUNDOFF, as_array, as_rows, pow2_exponent
from ._checks import check_int, check_optional_int, check_real
from ._messages import shown

__all__ = [
    "variation_seminorm", "hilbert_distance", "row_diameter", "worst_case_hidden",
    "hilbert_change", "max_hilbert_change", "max_l1_row_difference", "backward_bound",
    "tv_distance", "tv_tanh_bound", "ce_control", "equidistant_gram", "max_equidistant_points",
    "jung_radius", "simplex_ratio_bound", "rankin_ratio_bound", "separation_ratio_bound",
    "min_max_distance_ratio",
]

_U = UNIT_ROUNDOFF
_as_array, _as_rows = as_array, as_rows


def _scaled(a: np.ndarray) -> tuple[np.ndarray, int]:
    """``(a / 2^e, e)`` with ``max|a/2^e| ∈ [1/2, 1)`` (exact for normal numbers); ``(a, 0)`` for
    an all-zero array. Work on the scaled array cannot overflow or underflow in squares."""
    e = pow2_exponent(a)
    return (a, 0) if e is None else (np.ldexp(a, -e), e)


def _ldexp_checked(v, e, what: str):
    """``v · 2^e`` (float for 0-d, else array); ``ValueError(what)`` when a value exceeds the
    float64 range (≈ 1.8e308). Underflow is gradual (the true value is below 2^−1022)."""
    with np.errstate(over="ignore"):
        out = np.ldexp(v, e)
    if not np.all(np.isfinite(out)):
        raise ValueError(what)
    return float(out) if np.ndim(out) == 0 else out


def _times(h: float, v, e, what: str):
    """``h · v · 2^e`` for a finite ``h ≥ 0`` without intermediate overflow (ValueError(what))."""
    fh, eh = math.frexp(h)
    return _ldexp_checked(fh * np.asarray(v, dtype=float), np.asarray(e) + eh, what)


def _reduce_sum(terms: list[np.ndarray], axis: int, kind: str) -> tuple[np.ndarray, int]:
    """``(v, k)`` with ``v · 2^k`` = ``kind`` of ``Σ terms`` along ``axis`` and ``v`` finite:
    ``kind = "var"``: ``max − min``; ``"absmax"``: ``max |·|``.

    Computed directly in float64 when no intermediate overflows; otherwise every term is first
    divided by ``2^k ≥ 2·len(terms)`` (exact for normal numbers), which bounds the sum and its
    variation by the float64 maximum. The error is that of the direct formula: ``≲ n·u`` times
    the largest ``|Σ terms|`` entry."""
    def run(ts):
        with np.errstate(over="ignore", invalid="ignore"):
            t = ts[0]
            for x in ts[1:]:
                t = t + x
            return t.max(axis=axis) - t.min(axis=axis) if kind == "var" else np.abs(t).max(axis=axis)

    v = run(terms)
    if np.all(np.isfinite(v)):
        return v, 0
    k = math.ceil(math.log2(2 * len(terms)))
    return run([np.ldexp(x, -k) for x in terms]), k


def _check_axis(a: np.ndarray, axis) -> int:
    """``axis`` as an int in ``[-a.ndim, a.ndim)`` (:func:`~seqtheory.theory.contract.check_int`)."""
    return check_int("axis", axis, -a.ndim, a.ndim - 1)


def _same_shape(a: np.ndarray, b: np.ndarray, na: str, nb: str) -> None:
    if a.shape != b.shape:
        raise ValueError(f"{na} and {nb} must have the same shape, got {a.shape} and {b.shape}")


def _log_of(x, name: str, space: str) -> np.ndarray:
    if space == "prob":
        a = _as_array(x, name, min_ndim=1)
        if np.any(a <= 0):
            raise ValueError(f"{name} must be strictly positive (open simplex / positive cone); "
                             f"min entry {shown(a.min())}")
        return np.log(a)
    if space == "log":
        return _as_array(x, name, min_ndim=1)
    raise ValueError(f"space must be 'prob' or 'log', got {space!r}")


# --------------------------------------------------------------------------------------------
# Hilbert distance and the variation seminorm
# --------------------------------------------------------------------------------------------
def variation_seminorm(x, axis: int = -1) -> np.ndarray | float:
    """``‖x‖_var = max x − min x`` along ``axis`` (float64; a float for 1-D input).

    Raises ``ValueError`` for an empty axis, NaN/inf, or a variation beyond the float64 range
    (e.g. ``x = (−1e308, 1e308)``: the answer 2e308 is not representable).
    """
    a = _as_array(x, "x", min_ndim=1)
    axis = _check_axis(a, axis)
    if a.shape[axis] == 0:
        raise ValueError("x must be non-empty along the reduction axis")
    v, k = _reduce_sum([a], axis, "var")
    return _ldexp_checked(v, k, "x: ‖x‖_var = max x − min x exceeds the float64 range "
                                "(≈ 1.8e308); rescale x")


def hilbert_distance(x, y, *, space: str = "prob", axis: int = -1) -> np.ndarray | float:
    """Hilbert projective distance ``𝓗(x, y) = max_i log(x_i/y_i) − min_i log(x_i/y_i)``.

    ``x, y``: arrays of the same shape; the simplex / positive-cone axis is ``axis`` (leading axes
    are batch axes). ``space="prob"``: strictly positive vectors (probabilities need not be
    normalised; the distance is projective); ``space="log"``: log-probabilities, logits or any
    log-coordinates (the result is then ``‖x − y‖_var``, so ``𝓗(softmax z, softmax z′)`` is
    ``hilbert_distance(z, z′, space="log")``). Always computed in log space: stable for logits of
    any finite size (differences of 1e308-scale log-coordinates are formed on scaled values) and
    probabilities down to the smallest subnormal.

    Raises ``ValueError`` for mismatched shapes, NaN/inf, (``space="prob"``) an entry ≤ 0, or a
    distance beyond the float64 range (naming ``x, y``).
    Source: [HEAD] arXiv:2608.22253, §2 (Hilbert metric of the softmax simplex).
    """
    v, k = _hilbert_scaled(x, y, space, axis, "x", "y")
    return _ldexp_checked(v, k, "x, y: 𝓗(x, y) = ‖log x − log y‖_var exceeds the float64 range "
                                "(≈ 1.8e308): the log-coordinates x and y differ by more than that")


def _hilbert_scaled(x, y, space: str, axis, nx: str, ny: str) -> tuple[np.ndarray, int]:
    """``(v, k)`` with ``𝓗(x, y) = v·2^k`` and ``v`` finite (see :func:`_reduce_sum`)."""
    lx, ly = _log_of(x, nx, space), _log_of(y, ny, space)
    _same_shape(lx, ly, nx, ny)
    axis = _check_axis(lx, axis)
    if lx.shape[axis] == 0:
        raise ValueError(f"{nx} and {ny} must be non-empty along the reduction axis")
    return _reduce_sum([lx, -ly], axis, "var")


# --------------------------------------------------------------------------------------------
# the row diameter
# --------------------------------------------------------------------------------------------
def row_diameter(S, *, block_rows: int | None = None, memory_bytes: int = 512 * 2**20
                 ) -> tuple[float, tuple[int, int]]:
    """Row diameter ``D(S) = max_{i<j} ‖s_i − s_j‖₂`` and an attaining pair ``(i, j)``, ``i < j``.

    ``S``: ``(V, d)`` real array, ``V ≥ 2``. Exact over all pairs (no sampling): rows are centred,
    squared distances are formed blockwise from the Gram matrix ``n_i + n_j − 2⟨s_i, s_j⟩``, and —
    to guard against cancellation — every pair whose Gram estimate could, within the rigorous
    float64 error bound ``|err| ≤ 2(d+4)u(n_i+n_j)``, beat the best certified lower value is
    recomputed directly as ``‖s_i − s_j‖₂`` from the original rows, block by block; the maximum
    of those direct values is returned.

    Memory: the arrays the function allocates (two ``V × d`` float64 copies of ``S``, the block
    arrays and the candidate pairs, however many pairs are tied) stay within ``memory_bytes``
    bytes (default 512 MiB): ``block_rows`` (default: the largest block that fits) rows of pairs
    are formed at a time, and the candidate pairs of a block are recomputed in pieces that fit.
    ``V = 50 000, d = 1024`` runs in < 2 GB.

    Raises ``ValueError`` for fewer than two rows, a non-2-D array, NaN/inf, a diameter beyond
    the float64 range (rows of size ≈ 1e308; the computation itself never overflows), a
    ``block_rows`` or ``memory_bytes`` that is not a positive int, and a ``memory_bytes`` too
    small for ``S`` (or for the given ``block_rows``), naming the least budget that works.
    Source: [HEAD] arXiv:2608.22253 (row diameter, diameter identity).
    """
    A = _as_rows(S, "S", min_rows=2)
    block_rows = check_optional_int("block_rows", block_rows)
    memory_bytes = check_int("memory_bytes", memory_bytes)
    best, e, pair = _row_diameter_scaled(A, block_rows, memory_bytes)
    return _ldexp_checked(best, e, "S: the row diameter D(S) exceeds the float64 range "
                                   "(≈ 1.8e308); rescale S"), pair


_BYTES_PER_PAIR = 8 * 8     # float64/int64 work arrays per pair of a block (sq, err, lo, hi, tri, indices)


def _fit_block_rows(what: str, V: int, fixed: int, per_row: int, block_rows: int | None,
                    memory_bytes: int) -> int:
    """Rows per block for ``what`` on ``V`` rows: ``fixed`` bytes plus ``per_row`` bytes per
    block row within ``memory_bytes`` (``block_rows``, if given, is checked against it);
    ``ValueError`` naming the least budget that works otherwise."""
    rows = block_rows if block_rows is not None else (memory_bytes - fixed) // per_row
    rows = min(rows, V)
    if rows < 1 or fixed + rows * per_row > memory_bytes:
        need = fixed + max(1, rows) * per_row
        raise ValueError(f"memory_bytes = {memory_bytes} is too small for {what}"
                         + (f" with block_rows = {block_rows}" if block_rows is not None else "")
                         + f": it needs at least {need} bytes")
    return int(rows)


def _row_diameter_scaled(A: np.ndarray, block_rows, memory_bytes: int
                         ) -> tuple[float, int, tuple[int, int]]:
    """``(D̂, e, pair)`` with ``D(A) = D̂ · 2^e`` (``D̂ ≤ 2√d``; never overflows)."""
    V, d = A.shape
    block_rows = _fit_block_rows(f"row_diameter of a {V} x {d} S", V,
                                 2 * 8 * V * d + 8 * V + _BYTES_PER_PAIR * d,   # copies of S, norms
                                 _BYTES_PER_PAIR * V, block_rows, memory_bytes)
    # D(cS) = c D(S): work on S / max|S| so that squares neither overflow (entries ~1e200)
    # nor underflow (entries ~1e-200); rescale the result at the end
    A, e = _scaled(A)                            # a power of two: exact
    if not A.any():
        return 0.0, 0, (0, 1)
    C = A - A.mean(axis=0)                       # translation invariant; shrinks cancellation
    n = np.einsum("ij,ij->i", C, C)
    c_err = 2.0 * (d + 4) * _U * 2.0             # safety factor 2 on the Gram error bound
    c_dir = 4.0 * (d + 2) * _U                   # relative error bound of a direct ‖a − b‖²
    piece = max(1, (block_rows * V) // max(1, d))   # candidate pairs recomputed at a time
    best_lo, best, pair = -np.inf, -1.0, (0, 1)
    for b0 in range(0, V - 1, block_rows):
        b1 = min(V - 1, b0 + block_rows)
        rows = C[b0:b1]
        cols = C[b0:]                                  # upper triangle only (j ≥ i)
        sq = n[b0:b1, None] + n[None, b0:] - 2.0 * (rows @ cols.T)
        err = c_err * (n[b0:b1, None] + n[None, b0:])
        tri = np.arange(b0, b1)[:, None] >= np.arange(b0, V)[None, :]   # j ≤ i: not a pair
        sq[tri] = -np.inf
        best_lo = max(best_lo, float((sq - err).max()))
        sq += err                                      # the upper bound of each pair
        del err, tri
        ii, jj = np.nonzero(sq >= best_lo)             # could still reach the certified best
        del sq
        for k0 in range(0, ii.size, piece):
            pi, pj = ii[k0:k0 + piece] + b0, jj[k0:k0 + piece] + b0
            dist = np.linalg.norm(A[pi] - A[pj], axis=1)
            k = int(np.argmax(dist))
            if dist[k] > best:
                best, pair = float(dist[k]), (int(pi[k]), int(pj[k]))
                best_lo = max(best_lo, best * best * (1.0 - c_dir))
    return best, e, pair


def worst_case_hidden(S, radius: float = 1.0) -> np.ndarray:
    """The worst-case hidden state of the diameter identity: ``h = H(s_i − s_j)/‖s_i − s_j‖₂`` for a
    diameter pair ``(i, j)`` of ``S`` (``H = radius``), so that ``hilbert_change(S, h) = H·D(S)``.

    For ``D(S) = 0`` every ``h`` gives 0 and ``H·e_1`` is returned. Shape ``(d,)``, float64.
    Raises ``ValueError`` for bad ``S`` or a negative / non-finite radius.
    """
    H = _radius(radius)
    A, _ = _scaled(_as_rows(S, "S", min_rows=2))      # scaled: neither D nor a row difference overflows
    D, _, (i, j) = _row_diameter_scaled(A, None, 512 * 2**20)
    if D == 0.0:
        h = np.zeros(A.shape[1])
        h[0] = H
        return h
    diff, _ = _scaled(A[i] - A[j])                # rescale again: ‖diff‖ may underflow
    return H * (diff / np.linalg.norm(diff))


def _radius(radius) -> float:
    return check_real("radius", radius, 0)


def hilbert_change(S, h) -> np.ndarray | float:
    """``𝓗(p_{U+S}(h), p_U(h)) = ‖S h‖_var = max_{i<j} |(s_i − s_j)ᵀh|`` (independent of ``U``).

    ``S``: ``(V, d)``; ``h``: ``(d,)`` or ``(..., d)`` (batch of hidden states). Returns a float or
    an array of the batch shape. Raises ``ValueError`` for mismatched ``d``, NaN/inf, or a
    change beyond the float64 range (naming ``S, h``).
    """
    A = _as_rows(S, "S")
    hh = _as_array(h, "h", min_ndim=1)
    if hh.shape[-1] != A.shape[1]:
        raise ValueError(f"h must have last dimension d={A.shape[1]}, got shape {hh.shape}")
    # ‖S h‖_var = 2^(e_S + e_h) ‖Ŝ ĥ‖_var with S, each h scaled by a power of two: S h may
    # overflow (or underflow) where its variation is finite. The rows are centred first
    # (‖(S − 1mᵀ)h‖_var = ‖S h‖_var), so the rounding error is ≲ d·u·D(S)·‖h‖₂, not d·u·max|s_i|·‖h‖₂
    As, eS = _scaled(A)
    m = np.abs(hh).max(axis=-1, keepdims=True)
    eh = np.frexp(np.where(m > 0, m, 1.0))[1]
    v = variation_seminorm(np.ldexp(hh, -eh) @ (As - As.mean(axis=0)).T, axis=-1)
    return _ldexp_checked(v, eS + eh[..., 0], "S, h: the Hilbert change ‖S h‖_var (or its rounding "
                                             "error, ≈ d·2⁻⁵³·D(S)·‖h‖₂) exceeds the float64 range "
                                             "(≈ 1.8e308); rescale S or h")


def max_l1_row_difference(S, *, block_rows: int | None = None, memory_bytes: int = 512 * 2**20
                          ) -> tuple[float, tuple[int, int]]:
    """``max_{i<j} ‖s_i − s_j‖₁`` and an attaining pair (exact, blockwise ``O(V² d)``).

    This is the dual-norm diameter for an ℓ∞ hidden-state ball. ``block_rows`` rows of pairs are
    formed at a time (default: the largest block whose arrays, with the scaled copy of ``S``, fit
    in ``memory_bytes``, 512 MiB). Raises ``ValueError`` for bad ``S``, a value beyond the float64
    range, a ``block_rows`` or ``memory_bytes`` that is not a positive int, or a ``memory_bytes``
    too small for ``S`` (or for the given ``block_rows``).
    """
    A = _as_rows(S, "S", min_rows=2)
    block_rows = check_optional_int("block_rows", block_rows)
    memory_bytes = check_int("memory_bytes", memory_bytes)
    V, d = A.shape
    block_rows = _fit_block_rows(f"max_l1_row_difference of a {V} x {d} S", V, 8 * V * d,
                                 16 * V * d + 24 * V, block_rows, memory_bytes)
    A, e = _scaled(A)                                 # scaled: differences and sums cannot overflow
    best, pair = -1.0, (0, 1)
    for b0 in range(0, V - 1, block_rows):
        b1 = min(V - 1, b0 + block_rows)
        dist = np.abs(A[b0:b1, None, :] - A[None, :, :]).sum(axis=-1)
        tri = np.arange(b0, b1)[:, None] >= np.arange(V)[None, :]
        dist[tri] = -1.0
        k = int(np.argmax(dist))
        r, c = divmod(k, V)
        if dist[r, c] > best:
            best, pair = float(dist[r, c]), (b0 + r, c)
    return _ldexp_checked(best, e, "S: max_{i<j} ‖s_i − s_j‖₁ exceeds the float64 range "
                                   "(≈ 1.8e308); rescale S"), pair


def max_hilbert_change(S, ball: str = "l2", radius: float = 1.0) -> float:
    """``sup_{‖h‖ ≤ radius} 𝓗(p_{U+S}(h), p_U(h))`` for the hidden-state ball ``ball``:

    * ``"l2"``: ``radius · D(S)`` (the diameter identity);
    * ``"linf"``: ``radius · max_{i<j} ‖s_i − s_j‖₁`` (dual of ℓ∞ is ℓ1);
    * ``"l1"``: ``radius · max_{i<j} ‖s_i − s_j‖_∞``;
    * ``"rms"``: ``‖h‖_rms = ‖h‖₂/√d ≤ radius`` gives ``radius · √d · D(S)``.

    Raises ``ValueError`` for an unknown ball, bad ``S``, a negative radius, or a value beyond the
    float64 range (naming ``S, radius``).
    """
    H = _radius(radius)
    if ball not in ("l2", "rms", "linf", "l1"):
        raise ValueError(f"ball must be 'l2', 'linf', 'l1' or 'rms', got {ball!r}")
    A, e = _scaled(_as_rows(S, "S", min_rows=2))      # the value is radius · (norm of S) · 2^e
    if ball in ("l2", "rms"):
        v = _row_diameter_scaled(A, None, 512 * 2**20)[0]
        v = v * math.sqrt(A.shape[1]) if ball == "rms" else v
    elif ball == "linf":
        v = max_l1_row_difference(A)[0]
    else:
        v = float((A.max(axis=0) - A.min(axis=0)).max())
    return _times(H, v, e, f"S, radius: the maximal Hilbert change over the {ball} ball exceeds "
                           "the float64 range (≈ 1.8e308); rescale S or radius")


# --------------------------------------------------------------------------------------------
# backward bound, TV and CE control
# --------------------------------------------------------------------------------------------
def backward_bound(S, r, *, atol: float = 1e-12) -> tuple[float, float]:
    """``(‖Sᵀr‖₂, ½ D(S) ‖r‖₁)`` for a residual with ``1ᵀr = 0``; [HEAD] states lhs ≤ rhs, with
    equality at ``r = e_i − e_j`` for a diameter pair.

    ``S``: ``(V, d)``; ``r``: ``(V,)``. Computed on ``S`` and ``r`` scaled by powers of two (no
    intermediate overflow or underflow). Raises ``ValueError`` for mismatched ``V``, NaN/inf,
    ``|1ᵀr| > atol·max(1, ‖r‖₁)``, or a value beyond the float64 range (naming ``S, r``).
    """
    A = _as_rows(S, "S", min_rows=2)
    rr = _as_array(r, "r", ndim=1)
    if rr.shape[0] != A.shape[0]:
        raise ValueError(f"r must have length V={A.shape[0]}, got {rr.shape[0]}")
    # every quantity on S/2^eS and r/2^er (exact): Sᵀr, ‖r‖₁ and 1ᵀr cannot overflow or underflow
    As, eS = _scaled(A)
    rs, er = _scaled(rr)
    l1 = float(np.abs(rs).sum())
    with np.errstate(over="ignore"):
        one = float(np.ldexp(1.0, -er))                      # the "1" of max(1, ‖r‖₁), scaled
    if abs(float(rs.sum())) > atol * max(one, l1):
        raise ValueError(f"r must sum to zero (1ᵀr = 0), got sum {shown(rr.sum())}")
    # Sᵀr = (S − 1mᵀ)ᵀr + m(1ᵀr) for any row m (here the mean row; 1ᵀr by math.fsum, correctly
    # rounded): the cancellation error of the matrix product is then ≲ d·u·D(S)·‖r‖₁, a small
    # fraction of the right-hand side, instead of d·u·max|s_i|·‖r‖₁
    m = As.mean(axis=0)
    w, ew = _scaled((As - m).T @ rs + m * math.fsum(rs.tolist()))
    what = ("S, r: the backward bound (or the rounding error of ‖Sᵀr‖₂, ≲ V·2⁻⁵³·D(S)·‖r‖₁) "
            "exceeds the float64 range (≈ 1.8e308); rescale S or r")
    lhs = _ldexp_checked(float(np.linalg.norm(w)), ew + eS + er, what)
    D = _row_diameter_scaled(As, None, 512 * 2**20)[0]
    return lhs, _ldexp_checked(0.5 * D * l1, eS + er, what)


def _shift_and_log_sum(lx: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(m, ℓ)`` with ``log Σ_i e^{lx_i} = m + ℓ`` along the last axis (keepdims): ``m = max lx``
    and ``ℓ = log Σ e^{lx − m} ∈ [0, log V]``, kept apart so that ``ℓ`` is not lost in the
    rounding of a large ``m``. Entries far below the maximum contribute ``e^{−∞} = 0``."""
    m = lx.max(axis=-1, keepdims=True)
    with np.errstate(over="ignore"):
        return m, np.log(np.exp(lx - m).sum(axis=-1, keepdims=True))


def _probs_from(x, name: str, space: str) -> np.ndarray:
    """Normalised probabilities from ``x`` in ``space``: ``e^{x − max x}`` divided by its sum
    (relative error a few ulps for any finite log-coordinates; entries below the range are 0)."""
    lx = _log_of(x, name, space)
    with np.errstate(over="ignore"):
        w = np.exp(lx - lx.max(axis=-1, keepdims=True))
    return w / w.sum(axis=-1, keepdims=True)


def tv_distance(p, q, *, space: str = "prob") -> np.ndarray | float:
    """Total variation ``½ Σ_i |p_i − q_i|`` along the last axis (inputs are normalised first;
    ``space="log"`` for logits / log-probabilities of any finite size). Raises ``ValueError`` as
    :func:`hilbert_distance`."""
    pp = _probs_from(p, "p", space)
    qq = _probs_from(q, "q", space)
    _same_shape(pp, qq, "p", "q")
    v = 0.5 * np.abs(pp - qq).sum(axis=-1)
    return float(v) if np.ndim(v) == 0 else v


def tv_tanh_bound(p, q, *, space: str = "prob"):
    """``(TV(p, q), tanh(𝓗(p, q)/4))``; [HEAD] states TV ≤ tanh(𝓗/4), with equality for the
    symmetric two-point pair ``p = (σ(t/2), σ(−t/2))``, ``q = (σ(−t/2), σ(t/2))``. ``tanh(𝓗/4)``
    is formed from ``𝓗/4`` on scaled values, so it is 1 (not an error) when ``𝓗`` itself exceeds
    the float64 range."""
    v, k = _hilbert_scaled(p, q, space, -1, "p", "q")
    with np.errstate(over="ignore"):
        t = np.tanh(np.ldexp(v, k - 2))
    return tv_distance(p, q, space=space), float(t) if np.ndim(t) == 0 else t


def ce_control(p, q, *, space: str = "prob"):
    """``(max_c |−log p_c + log q_c|, 𝓗(p, q))`` for normalised ``p, q`` (last axis); [HEAD] states
    the first is ≤ the second for every class ``c`` (cross-entropy change at any label).

    ``log p_c − log q_c = (x_c − max x) − (y_c − max y) − (ℓ_x − ℓ_y)`` (``ℓ = log Σ e^{· − max}``)
    is formed from the inputs, their maxima and ``ℓ`` on scaled values, so logits of size 1e308 do not overflow where the answer is
    finite. Raises ``ValueError`` as :func:`hilbert_distance`, naming ``p, q`` when a value
    exceeds the float64 range."""
    lx, ly = _log_of(p, "p", space), _log_of(q, "q", space)
    _same_shape(lx, ly, "p", "q")
    what = ("p, q: the change of log-probability exceeds the float64 range (≈ 1.8e308): the "
            "log-coordinates of p and q differ by more than that")
    (mx, sx), (my, sy) = _shift_and_log_sum(lx), _shift_and_log_sum(ly)
    terms = [lx, -np.broadcast_to(mx, lx.shape), -ly, np.broadcast_to(my, ly.shape),
             np.broadcast_to(sy - sx, lx.shape)]
    dev = _ldexp_checked(*_reduce_sum(terms, -1, "absmax"), what)
    return dev, _ldexp_checked(*_reduce_sum([lx, -ly], -1, "var"), what)


# --------------------------------------------------------------------------------------------
# equidistance (v1): Gram argument, simplex / Rankin / Jung bounds
# --------------------------------------------------------------------------------------------

def equidistant_gram(V: int):
    """Exact Gram matrix (python-flint ``fmpq_mat``) of ``u_i = x_i − x_0`` (``i = 1..V−1``) for
    ``V`` points at mutual distance 1: ``⟨u_i, u_j⟩ = (1 + δ_ij)/2``. Its rank is ``V − 1``, and a Gram
    matrix of vectors in ``R^d`` has rank ≤ d, so at most ``d + 1`` points of ``R^d`` are mutually
    equidistant. Source: [HEAD] arXiv:2608.22253v1 (equidistance discussion); classical."""
    import flint

    V = check_int("V", V, 2)
    m = V - 1
    return flint.fmpq_mat(m, m, [flint.fmpq(1 + (i == j), 2) for i in range(m) for j in range(m)])


def max_equidistant_points(d: int, *, search_limit: int | None = None) -> int:
    """Largest ``V`` such that ``V`` mutually equidistant points fit in ``R^d``, found by exact rank
    computations of :func:`equidistant_gram` (``V`` fits iff rank ≤ d; the regular simplex attains
    it). Returns ``d + 1`` — computed, not assumed (``search_limit`` defaults to ``d + 3``)."""
    d = check_int("d", d, 1)
    limit = d + 3 if search_limit is None else check_int("search_limit", search_limit, 2)
    best = 1
    for V in range(2, limit + 1):
        if equidistant_gram(V).rank() <= d:
            best = V
        else:
            break
    return best


def jung_radius(d: int) -> float:
    """Jung's theorem: a set of diameter 1 in ``R^d`` lies in a ball of radius ``√(d/(2(d+1)))``
    (tight for the regular simplex). Source: H. Jung (1901)."""
    d = check_int("d", d, 1)
    return math.sqrt(d / (2 * (d + 1)))          # int / int: correctly rounded for any size


def simplex_ratio_bound(V: int, d: int) -> float:
    """Upper bound on ``min/max`` pairwise distance of ``V`` points in ``R^d``: points in a ball of
    radius r satisfy ``Σ_{i<j}‖x_i − x_j‖² ≤ V² r²`` (simplex bound), so with Jung's radius
    ``ratio ≤ √(2V/(V−1)) · √(d/(2(d+1))) = √(dV/((d+1)(V−1)))`` (= 1 at ``V = d+1``, ≥ 1 below)."""
    V = check_int("V", V, 2)
    d = check_int("d", d, 1)
    return 1.0 if V <= d + 1 else math.sqrt(d * V / ((d + 1) * (V - 1)))


def rankin_ratio_bound(V: int, d: int) -> float:
    """Rankin-type bound: ``V ≥ d + 2`` points in a ball of radius r in ``R^d`` have a pair at
    distance ≤ √2·r (else all pairwise inner products about the centre are negative, which allows
    at most d+1 vectors); with Jung's radius ``ratio ≤ √(d/(d+1))``. Returns 1 for ``V ≤ d + 1``.
    Source: R. A. Rankin (1955), Proc. Glasgow Math. Assoc. 2."""
    V = check_int("V", V, 2)
    d = check_int("d", d, 1)
    return 1.0 if V <= d + 1 else math.sqrt(2.0) * jung_radius(d)


def separation_ratio_bound(V: int, d: int) -> float:
    """``min(simplex_ratio_bound, rankin_ratio_bound)``: 1 iff ``V ≤ d + 1``."""
    return min(simplex_ratio_bound(V, d), rankin_ratio_bound(V, d))


def min_max_distance_ratio(X) -> float:
    """``min_{i<j} ‖x_i − x_j‖ / max_{i<j} ‖x_i − x_j‖`` of the rows of ``X`` (``V ≥ 2``; 0 when all
    rows coincide). Raises ``ValueError`` for bad input."""
    A, _ = _scaled(_as_rows(X, "X", min_rows=2))   # the ratio is scale invariant; avoids under/overflow
    if not A.any():
        return 0.0
    diff = A[:, None, :] - A[None, :, :]
    dist = np.sqrt(np.einsum("ijk,ijk->ij", diff, diff))
    iu = np.triu_indices(A.shape[0], 1)
    mx = dist[iu].max()
    return 0.0 if mx == 0 else float(dist[iu].min() / mx)

"""The change of the backward signal that a head update sends to the hidden state.

Source: A. Somasundaram et al., *Toward a First-Principles Update Geometry for the Language-Model
Head*, arXiv:2608.22253v2 ([HEAD]), backward bound through the head, Appendix C; SPEC §3.2, claims
``head.backward_bound``, ``head.backward_bound_u_dependence`` and ``head.backward_change_bound``.

For a head ``U ∈ R^{V×d}``, hidden state ``h ∈ R^d`` and target class ``y``, the cross-entropy loss
``ℓ = −log p_U(h)_y`` with ``p_U(h) = softmax(U h)`` sends back ``∇_h ℓ = Uᵀ(p_U(h) − e_y)``. After
the head update ``U → U + S`` it sends ``(U + S)ᵀ(p_{U+S}(h) − e_y)``. Their difference splits as

    Δg = Sᵀ(p_{U+S}(h) − e_y)  +  Uᵀ(p_{U+S}(h) − p_U(h)).

Both residuals sum to zero, so the backward bound ``‖Aᵀr‖₂ ≤ ½D(A)‖r‖₁`` (``1ᵀr = 0``) applies
to each term: ``‖Δg‖₂ ≤ D(S)(1 − p_{U+S}(h)_y) + D(U)·TV(p_{U+S}(h), p_U(h))``, and
``TV ≤ tanh(𝓗/4)`` with ``𝓗 ≤ ‖h‖₂ D(S)`` gives a bound in ``D(S)``, ``‖h‖₂`` and ``D(U)``. The
second term is why a bound on ``Δg`` must depend on ``U``.

The same change also splits as ``Sᵀ(p_U(h) − e_y) + (U + S)ᵀ(p_{U+S}(h) − p_U(h))``, which gives
the second branch ``D(S)(1 − p_U(h)_y) + D(U + S)·TV``; the full bound is the smaller of the two
(:func:`backward_change_bounds`). [HEAD] App. C states the chain with ``tanh(δ/4)`` for the TV,
``δ = 𝓗(p_{U+S}(h), p_U(h)) = ‖Sh‖_var``:

    ‖Δg‖₂ ≤ min{D(S)(1 − p′_y) + D(U) tanh(δ/4), D(S)(1 − p_y) + D(U+S) tanh(δ/4)}
          ≤ D(S) + D_min tanh(D(S)‖h‖₂/4) ≤ η(1 + H·D_min/4),

``D_min = min(D(U), D(U + S))``, for ``D(S) ≤ η``, ``‖h‖₂ ≤ H`` (``1 − p_y ≤ 1``, ``δ ≤ ‖h‖₂D(S)``,
``tanh x ≤ x``; :func:`eta_form_backward_bound` for the last). numpy, and mpmath for
:func:`backward_change_ratios_exact`.

Near saturation (``1 − p_y`` small) the textbook float64 forms lose relative accuracy:
``p′_y − p_y``, ``p′_y − 1`` and ``1 − p_y`` are differences of numbers near 1, and a large
component common to the rows of ``U`` multiplies the rounding of ``Σ(p′ − p) = 0``. With
``1 − p_y = 1.8e-11`` the float ``‖Δg‖₂`` was off by 3e-6 relative (ratio 1.0000005 to a tight
bound, exact 0.99999999996; an instance of the seed-1 full profile), and with ``U = 100·11ᵀ``,
``V = 2`` a ratio of exactly 1 read 1 + 8e-9. So every form here sums relative to a reference
row (``(S − 1S_y)ᵀp′ + (U − 1U_m)ᵀ(p′ − p)``, ``m`` the mode of ``p′``; ``1 − p_y`` as the sum of
the other entries; TV with the mode's entry from the others), which keeps float64 relative
accuracy there; what remains is the rounding of the inputs ``Uh`` and ``(U + S)h`` themselves
(relative ``‖U‖·2⁻⁵³/‖S‖`` in ``p′ − p`` when ``S`` is tiny against ``U``).
:func:`backward_change_ratios_exact` evaluates the same quantities in 50-digit arithmetic on the
same binary inputs.
"""
from __future__ import annotations

import math

import numpy as np

from seqtheory.theory._messages import shown
from seqtheory.theory.contract import check_bool
from seqtheory.theory.hilbert import row_diameter
from seqtheory.theory.mp_precision import working_dps

__all__ = ["backward_signal", "backward_change", "u_dependent_backward_bound",
           "backward_change_bounds", "eta_form_backward_bound", "backward_change_ratios_exact"]


def _real_array(x, name: str, ndim: int) -> np.ndarray:
    try:
        a = np.asarray(x, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be an array of real numbers, "
                        f"got {type(x).__name__}") from None
    if a.ndim != ndim:
        raise ValueError(f"{name} must be {ndim}-D, got shape {a.shape}")
    if not np.all(np.isfinite(a)):
        raise ValueError(f"{name} contains NaN or inf")
    return a


def _inputs(U, S, h, y) -> tuple[np.ndarray, np.ndarray | None, np.ndarray, int]:
    """Validated ``(U, S, h, y)``; ``S = None`` is passed through (no update)."""
    U, h = _real_array(U, "U", 2), _real_array(h, "h", 1)
    V, d = U.shape
    if V < 2 or d < 1:
        raise ValueError(f"U must have at least 2 rows and 1 column, got shape {U.shape}")
    if S is not None:
        S = _real_array(S, "S", 2)
        if S.shape != U.shape:
            raise ValueError(f"S must have the shape of U {U.shape}, got {S.shape}")
    if h.shape != (d,):
        raise ValueError(f"h must have shape ({d},), got {h.shape}")
    if isinstance(y, bool) or not isinstance(y, (int, np.integer)):
        raise TypeError(f"y must be an int class index, got {shown(y)}")
    if not 0 <= y < V:
        raise ValueError(f"y must be in [0, {V}), got {y}")
    return U, S, h, int(y)


def _required(S):
    if S is None:
        raise TypeError("S must be an array of real numbers, got None")
    return S


def _softmax(z: np.ndarray) -> np.ndarray:
    e = np.exp(z - z.max())
    return e / e.sum()


def _complement(p: np.ndarray, y: int) -> float:
    """``1 − p_y`` as the sum of the other entries (no rounding of ``p_y`` near 1)."""
    return float(np.delete(p, y).sum())


def _tv(p: np.ndarray, q: np.ndarray) -> float:
    """``½‖q − p‖₁`` with the entry at the mode ``m`` of ``q`` taken as ``−Σ_{i≠m}(q_i − p_i)``
    (``q_m − p_m`` of two numbers near 1 would keep no digit near saturation)."""
    d = np.delete(q - p, int(np.argmax(q)))
    return 0.5 * float(np.abs(d).sum() + abs(d.sum()))


def _change(U: np.ndarray, S: np.ndarray, p: np.ndarray, q: np.ndarray, y: int) -> np.ndarray:
    """``Sᵀ(q − e_y) + Uᵀ(q − p)`` as ``(S − 1S_y)ᵀq + (U − 1U_m)ᵀ(q − p)`` (``m`` the mode of
    ``q``; equal since ``Σq = 1``, ``Σ(q − p) = 0``): neither ``q_y − 1`` nor ``q_m − p_m`` nor a
    common row component enters, so near saturation the result keeps float64 relative accuracy."""
    m = int(np.argmax(q))
    return (S - S[y]).T @ q + (U - U[m]).T @ (q - p)


def backward_signal(U, h, y) -> np.ndarray:
    """``∇_h(−log softmax(Uh)_y) = Uᵀ(p_U(h) − e_y)``, shape ``(d,)``, float64.

    ``U``: ``(V, d)``, ``V ≥ 2``; ``h``: ``(d,)``; ``y``: int in ``[0, V)``. Raises ``ValueError``
    for shapes, NaN/inf or ``y`` out of range; ``TypeError`` for a non-int ``y``."""
    U, _, h, y = _inputs(U, None, h, y)
    r = _softmax(U @ h)
    r[y] -= 1.0
    return U.T @ r


def backward_change(U, S, h, y, *, frozen_probabilities: bool = False) -> np.ndarray:
    """The backward change ``Δg = (U+S)ᵀ(p_{U+S}(h) − e_y) − Uᵀ(p_U(h) − e_y)``, shape ``(d,)``.

    Computed from its split ``Sᵀ(p′ − e_y) + Uᵀ(p′ − p)`` (no cancellation between two large
    gradients). ``frozen_probabilities=True`` keeps ``p′ = p_U(h)`` (the change of the head's
    Jacobian alone, ``Sᵀ(p − e_y)``): a wrong reading used as a negative control.
    Arguments as in :func:`backward_signal`, with ``S`` of the shape of ``U``."""
    frozen_probabilities = check_bool("frozen_probabilities", frozen_probabilities)
    U, S, h, y = _inputs(U, _required(S), h, y)
    p = _softmax(U @ h)
    q = p if frozen_probabilities else _softmax((U + S) @ h)
    return _change(U, S, p, q, y)


def u_dependent_backward_bound(U, S, h, y) -> float:
    """``D(S)(1 − p_{U+S}(h)_y) + D(U)·tanh(‖h‖₂ D(S)/4)``, an upper bound on
    ``‖backward_change(U, S, h, y)‖₂`` (module docstring). Arguments as in
    :func:`backward_change`."""
    U, S, h, y = _inputs(U, _required(S), h, y)
    DS, DU = row_diameter(S)[0], row_diameter(U)[0]
    q = _softmax((U + S) @ h)
    return DS * _complement(q, y) + DU * math.tanh(float(np.linalg.norm(h)) * DS / 4.0)


def backward_change_bounds(U, S, h, y) -> dict:
    """Both branches of the bound on ``‖backward_change(U, S, h, y)‖₂`` and their minimum.

    ``tv``: ``TV(p′, p) = ½‖p_{U+S}(h) − p_U(h)‖₁``; ``delta``: ``δ = 𝓗(p′, p) = ‖Sh‖_var``;
    ``D_S``, ``D_min``: ``D(S)``, ``min(D(U), D(U+S))``; ``branch_U = D(S)(1 − p′_y) + D(U)·TV``;
    ``branch_U_plus_S = D(S)(1 − p_y) + D(U+S)·TV``; ``min`` = the smaller; ``paper_min``: the
    same with ``TV`` replaced by ``tanh(δ/4)`` (≥ TV; [HEAD] App. C's first form);
    ``tanh_min``: with ``tanh(‖h‖₂ D(S)/4)`` (≥ ``tanh(δ/4)``); ``paper_middle``:
    ``D(S) + D_min·tanh(D(S)‖h‖₂/4)`` (App. C's second form); ``one_minus_p_y``,
    ``one_minus_p_prime_y``: ``1 − p_y``, ``1 − p′_y`` (sums of the other entries). Floats.
    Arguments as in :func:`backward_change`; the same errors."""
    U, S, h, y = _inputs(U, _required(S), h, y)
    DS, DU, DUS = row_diameter(S)[0], row_diameter(U)[0], row_diameter(U + S)[0]
    p, q = _softmax(U @ h), _softmax((U + S) @ h)
    tv, om_p, om_q = _tv(p, q), _complement(p, y), _complement(q, y)
    Sh = S @ h
    delta = float(Sh.max() - Sh.min())
    th = math.tanh(float(np.linalg.norm(h)) * DS / 4.0)
    td = math.tanh(delta / 4.0)
    b_u, b_us = DS * om_q + DU * tv, DS * om_p + DUS * tv
    return {"tv": tv, "delta": delta, "branch_U": float(b_u), "branch_U_plus_S": float(b_us),
            "min": float(min(b_u, b_us)), "D_min": float(min(DU, DUS)), "D_S": float(DS),
            "paper_min": float(min(DS * om_q + DU * td, DS * om_p + DUS * td)),
            "tanh_min": float(min(DS * om_q + DU * th, DS * om_p + DUS * th)),
            "paper_middle": float(DS + min(DU, DUS) * th),
            "one_minus_p_y": om_p, "one_minus_p_prime_y": om_q}


def eta_form_backward_bound(U, S, eta: float, H: float, constant: float = 4.0) -> float:
    """``η(1 + H·D_min/constant)``, ``D_min = min(D(U), D(U+S))``: the bound on
    ``‖backward_change(U, S, h, y)‖₂`` for every ``y`` and ``‖h‖₂ ≤ H`` when ``D(S) ≤ η``
    (``constant = 4`` is the derived one; others are wrong variants for controls).
    ``ValueError`` for ``η``, ``H`` or ``constant`` not positive and finite, or ``D(S) > η``
    (beyond a relative 1e-12)."""
    _check_positive(eta=eta, H=H, constant=constant)
    U = _real_array(U, "U", 2)
    S = _real_array(S, "S", 2)
    if S.shape != U.shape:
        raise ValueError(f"S must have the shape of U {U.shape}, got {S.shape}")
    if row_diameter(S)[0] > eta * (1 + 1e-12):
        raise ValueError(f"D(S) = {row_diameter(S)[0]:.6g} exceeds eta = {eta:.6g}")
    D_min = min(row_diameter(U)[0], row_diameter(U + S)[0])
    return float(eta * (1.0 + H * D_min / constant))


def _check_positive(**values) -> None:
    """``ValueError`` naming the first value that is not a positive finite real number."""
    for name, v in values.items():
        if isinstance(v, bool) or not isinstance(v, (int, float, np.floating, np.integer)) \
                or not (math.isfinite(v) and v > 0):
            raise ValueError(f"{name} must be a positive finite number, got {v!r}")


def _mp_rows(A, mp):
    return [[mp.mpf(float(x)) for x in row] for row in A]


def _mp_diameter(rows, mp):
    """``max_{i<j} ‖r_i − r_j‖₂`` over all pairs, in mpmath."""
    best = mp.mpf(0)
    for i in range(len(rows)):
        for j in range(i + 1, len(rows)):
            best = max(best, mp.sqrt(mp.fsum((a - b) ** 2 for a, b in zip(rows[i], rows[j]))))
    return best


def _mp_softmax(rows, h, mp):
    z = [mp.fsum(a * b for a, b in zip(r, h)) for r in rows]
    top = max(z)
    e = [mp.exp(v - top) for v in z]
    tot = mp.fsum(e)
    return [v / tot for v in e]


def backward_change_ratios_exact(U, S, h, y, eta: float, H: float, constant: float = 4.0,
                                 dps: int = 50) -> dict:
    """``‖Δg‖₂`` divided by each bound -- ``"min"`` (the branch minimum with TV),
    ``"paper_min"`` (TV replaced by ``tanh(δ/4)``), ``"tanh_min"`` (by ``tanh(‖h‖₂D(S)/4)``),
    ``"paper_middle"`` (``D(S) + D_min·tanh(D(S)‖h‖₂/4)``) and ``"eta"``
    (``η(1 + H·D_min/constant)``) -- evaluated in ``dps``-digit arithmetic (mpmath) on the exact binary values of the float
    inputs, so no cancellation near saturation (module docstring); no entry near 1 enters a
    difference (sums taken relative to a reference row), so this holds however small
    ``1 − p_y`` is, also below ``10^-dps``. Returns floats (the ratios
    rounded once) and ``"one_minus_p_y"``, ``"one_minus_p_prime_y"`` (the complements).
    Arguments as in :func:`backward_change` and :func:`eta_form_backward_bound`, checked as there
    (``ValueError``/``TypeError`` naming the argument) except that ``D(S) ≤ η`` is not required;
    ``dps``: an int ≥ 20. ``V·(V−1)/2`` pairs per diameter, so meant for small ``V`` (the random
    instances of ``head.backward_change_bound``: ``V ≤ 10``)."""
    import mpmath

    from seqtheory.theory._checks import check_int

    _check_positive(eta=eta, H=H, constant=constant)
    dps = check_int("dps", dps, 20)
    U, S, h, y = _inputs(U, _required(S), h, y)
    with working_dps(dps) as dps:
        mp = mpmath.mp
        Um, Sm = _mp_rows(U, mp), _mp_rows(S, mp)
        USm = [[a + b for a, b in zip(r, q)] for r, q in zip(Um, Sm)]
        hm = [mp.mpf(float(x)) for x in h]
        p, q = _mp_softmax(Um, hm, mp), _mp_softmax(USm, hm, mp)
        # no entry near 1 enters a difference: Σ(q − e_y) = Σ(q − p) = 0, so each sum is taken
        # over the other rows relative to a reference row (y; m, the mode of q), which drops
        # q_y − 1 and q_m − p_m (they lose every digit once 1 − p_y falls below 10^-dps)
        m = max(range(len(q)), key=q.__getitem__)
        dq = {i: q[i] - p[i] for i in range(len(q)) if i != m}
        g = [mp.fsum([mp.fsum((Sm[i][k] - Sm[y][k]) * q[i] for i in range(len(q)) if i != y),
                      mp.fsum((Um[i][k] - Um[m][k]) * v for i, v in dq.items())])
             for k in range(len(hm))]
        gn = mp.sqrt(mp.fsum(v ** 2 for v in g))
        DS, DU, DUS = _mp_diameter(Sm, mp), _mp_diameter(Um, mp), _mp_diameter(USm, mp)
        om_p = mp.fsum(v for i, v in enumerate(p) if i != y)
        om_q = mp.fsum(v for i, v in enumerate(q) if i != y)
        tv = (mp.fsum(abs(v) for v in dq.values()) + abs(mp.fsum(dq.values()))) / 2
        th = mp.tanh(mp.sqrt(mp.fsum(v ** 2 for v in hm)) * DS / 4)
        Sh = [mp.fsum(a * b for a, b in zip(r, hm)) for r in Sm]
        td = mp.tanh((max(Sh) - min(Sh)) / 4)
        b_min = min(DS * om_q + DU * tv, DS * om_p + DUS * tv)
        b_paper = min(DS * om_q + DU * td, DS * om_p + DUS * td)
        b_tanh = min(DS * om_q + DU * th, DS * om_p + DUS * th)
        b_middle = DS + min(DU, DUS) * th
        b_eta = mp.mpf(float(eta)) * (1 + mp.mpf(float(H)) * min(DU, DUS) / mp.mpf(float(constant)))
        ratio = (lambda b: float(gn / b) if b > 0 else (0.0 if gn == 0 else math.inf))
        return {"min": ratio(b_min), "paper_min": ratio(b_paper), "tanh_min": ratio(b_tanh),
                "paper_middle": ratio(b_middle), "eta": ratio(b_eta),
                "one_minus_p_y": float(om_p), "one_minus_p_prime_y": float(om_q)}

"""``theory.hilbert`` on finite inputs whose intermediates overflow or underflow, against mpmath.

Every function is fed inputs of size up to 1.7e308 (and down to 1e-300) whose answer is
representable; the reference is computed in mpmath at 3000 bits (exact for the sums and products
of a few float64 numbers involved, and far below float64 rounding for logs and exps). Where the
answer exceeds the float64 range, the error must name the caller's arguments.
"""
from __future__ import annotations

import mpmath
import numpy as np
import pytest
from hypothesis import example, given, settings, strategies as st
from hypothesis.extra import numpy as hnp

from seqtheory.theory.hilbert import (
    backward_bound, ce_control, hilbert_change, hilbert_distance, max_hilbert_change,
    max_l1_row_difference, min_max_distance_ratio, row_diameter, tv_distance, tv_tanh_bound,
    variation_seminorm, worst_case_hidden,
)

U = np.finfo(float).eps / 2
BIG = np.finfo(float).max
TINY = 2.0 ** -1074
SET = settings(max_examples=40, deadline=None)
PREC = 3000


def mp(x):
    return mpmath.mpf(float(x))


def close(value: float, ref, bound) -> None:
    """|value − ref| ≤ bound (+ one subnormal ulp for gradual underflow)."""
    with mpmath.workprec(PREC):
        err = abs(mp(value) - ref)
        assert err <= mpmath.mpf(bound) + TINY, (value, float(ref), float(err), bound)


offset = st.floats(1e300, 1.7e308).flatmap(lambda c: st.sampled_from([c, -c]))
spread = st.floats(-1e3, 1e3, allow_nan=False)


def near(c, n):
    """n floats at c + (spread) — huge entries whose differences are small."""
    return hnp.arrays(np.float64, n, elements=spread).map(lambda a: c + a * max(abs(c) * 1e-10, 1.0))


# ---------------------------------------------------------------------------- variation, Hilbert
@SET
@given(st.integers(2, 6).flatmap(lambda n: st.tuples(offset, offset).flatmap(
    lambda cs: st.tuples(near(cs[0], n), near(cs[1], n)))))
@example((np.array([1e308, 1e308]), np.array([-1e308, -1e308])))
@example((np.array([1.7e308, -1.7e308]), np.array([0.0, 0.0])))
def test_hilbert_distance_log_space_huge(xy):
    x, y = xy
    with mpmath.workprec(PREC):
        d = [mp(a) - mp(b) for a, b in zip(x, y)]
        ref = max(d) - min(d)
        bound = 4 * U * float(max(abs(t) for t in d))
        if ref > BIG:
            with pytest.raises(ValueError, match=r"^x, y: .*exceeds the float64 range"):
                hilbert_distance(x, y, space="log")
            tv, t = tv_tanh_bound(x, y, space="log")           # tanh(𝓗/4) is still defined
            assert t == pytest.approx(float(mpmath.tanh(ref / 4)), abs=1e-15)
            return
        close(hilbert_distance(x, y, space="log"), ref, bound)


@SET
@given(st.integers(2, 6).flatmap(lambda n: offset.flatmap(lambda c: near(c, n))))
@example(np.array([-1.7e308, 1.7e308]))
def test_variation_seminorm_huge(x):
    with mpmath.workprec(PREC):
        ref = max(mp(a) for a in x) - min(mp(a) for a in x)
    if ref > BIG:
        with pytest.raises(ValueError, match=r"^x: .*exceeds the float64 range"):
            variation_seminorm(x)
    else:
        close(variation_seminorm(x), ref, 2 * U * float(ref))


def test_variation_near_the_top_of_the_range():
    # 1.7e308 − (−5e306) = 1.75e308 is representable; 1.7e308 − (−1e307) = 1.8e308 is not
    assert variation_seminorm([1.7e308, -5e306]) == 1.7e308 + 5e306
    with pytest.raises(ValueError, match=r"^x: "):
        variation_seminorm([1.7e308, -1e307])


# ---------------------------------------------------------------------------- softmax: TV, CE
def _mp_log_softmax(z):
    m = max(z)
    logz = m + mpmath.log(sum(mpmath.exp(t - m) for t in z))
    return [t - logz for t in z]


@SET
@given(st.integers(2, 5).flatmap(lambda n: st.tuples(
    hnp.arrays(np.float64, n, elements=st.floats(-1.7e308, 1.7e308)),
    hnp.arrays(np.float64, n, elements=st.floats(-1.7e308, 1.7e308)))))
@example((np.array([1e308, -1e308]), np.array([1e308, -1e308])))
@example((np.array([1e308, -1e308]), np.array([1e308, -1e308 + 1e293])))
@example((np.array([1e308, -1e308]), np.array([-1e308, 1e308])))
def test_ce_control_and_tv_with_extreme_logits(xy):
    x, y = xy
    with mpmath.workprec(PREC):
        lx, ly = [mp(t) for t in x], [mp(t) for t in y]
        lp, lq = _mp_log_softmax(lx), _mp_log_softmax(ly)
        dev = max(abs(a - b) for a, b in zip(lp, lq))
        d = [a - b for a, b in zip(lx, ly)]
        H = max(d) - min(d)
        tv = sum(abs(mpmath.exp(a) - mpmath.exp(b)) for a, b in zip(lp, lq)) / 2
        scale = float(max(max(abs(t) for t in lx + ly), 1))
    # p_c = e^{x_c − max x}/Σ: rounding of the exponent, ≤ 745·u relative where p_c matters
    assert tv_distance(x, y, space="log") == pytest.approx(float(tv), abs=len(x) * 1e-12)
    t = tv_tanh_bound(x, y, space="log")[1]
    assert t == pytest.approx(float(mpmath.tanh(H / 4)), abs=max(1e-15, 2 * U * scale))
    if dev > BIG or H > BIG:
        with pytest.raises(ValueError, match=r"^p, q: .*exceeds the float64 range"):
            ce_control(x, y, space="log")
        return
    got_dev, got_H = ce_control(x, y, space="log")
    close(got_dev, dev, 16 * U * scale)
    close(got_H, H, 8 * U * scale)
    assert got_dev <= got_H * (1 + 4 * U) + 16 * U * scale     # the stated inequality survives


# ---------------------------------------------------------------------------- row geometry
def _mp_norm(v):
    return mpmath.sqrt(sum(t * t for t in v))


def _mp_rows(S):
    return [[mp(t) for t in row] for row in S]


@SET
@given(st.tuples(st.integers(2, 5), st.integers(1, 4)).flatmap(lambda s: st.tuples(
    hnp.arrays(np.float64, s, elements=st.floats(-1, 1)), st.sampled_from(
        [1.5e308, 1e300, 1e-300, 3e-308, 1.0])).map(lambda t: t[0] * t[1])))
@example(np.array([[1.5e308, 0.0], [1.6e308, 0.0]]))
@example(np.array([[1.7e308], [-1.7e308]]))
def test_row_diameter_l1_and_balls_at_extreme_scales(S):
    with mpmath.workprec(PREC):
        R = _mp_rows(S)
        pairs = [(i, j) for i in range(len(R)) for j in range(i + 1, len(R))]
        D = max(_mp_norm([a - b for a, b in zip(R[i], R[j])]) for i, j in pairs)
        L1 = max(sum(abs(a - b) for a, b in zip(R[i], R[j])) for i, j in pairs)
        cols = list(zip(*R))
        Linf = max(max(c) - min(c) for c in cols)
    d = S.shape[1]
    for name, fn, ref in (("D", lambda: row_diameter(S)[0], D),
                          ("l1", lambda: max_l1_row_difference(S)[0], L1),
                          ("l2", lambda: max_hilbert_change(S, "l2"), D),
                          ("rms", lambda: max_hilbert_change(S, "rms"), D * mpmath.sqrt(d)),
                          ("linf", lambda: max_hilbert_change(S, "linf"), L1),
                          ("l1ball", lambda: max_hilbert_change(S, "l1"), Linf)):
        if ref > BIG:
            with pytest.raises(ValueError, match=r"^S\b.*exceeds the float64 range"):
                fn()
        else:
            close(fn(), ref, 8 * (d + 4) * U * float(ref))
    h = worst_case_hidden(S, radius=2.0)
    assert np.isfinite(h).all() and np.linalg.norm(h) == pytest.approx(2.0, rel=1e-15)
    assert 0.0 <= min_max_distance_ratio(S) <= 1.0


def test_max_hilbert_change_radius_times_diameter():
    S = np.array([[0.0, 0.0], [1e-300, 0.0]])
    assert max_hilbert_change(S, "l2", radius=1e300) == pytest.approx(1.0, rel=1e-15)
    with pytest.raises(ValueError, match=r"^S, radius: .*exceeds the float64 range"):
        max_hilbert_change(np.array([[0.0], [1e10]]), "l2", radius=1e300)


@SET
@given(st.tuples(st.integers(2, 5), st.integers(1, 4)).flatmap(lambda s: st.tuples(
    hnp.arrays(np.float64, s, elements=st.floats(-1, 1)),
    hnp.arrays(np.float64, s[1], elements=st.floats(-1, 1)),
    st.sampled_from([1e200, 1e-200, 1e150, 1.0]), st.sampled_from([1e200, 1e-150, 1e-120, 1.0]),
    st.sampled_from([0.0, 1.0]))))
@example((np.array([[1.0], [1.0 + 2 ** -40]]), np.array([1.0]), 1e200, 1e200, 1.0))
@example((np.array([[1.0, 1.0], [1.0, 1.0]]), np.array([1.0, -1.0]), 1e200, 1e200, 0.0))
@example((np.array([[1.0, 1.0], [-1.0, -1.0]]), np.array([1.0, -1.0]), 1e200, 1e200, 0.0))
def test_hilbert_change_products_overflow(data):
    A, h, cS, ch, offset = data
    S = (A + offset) * cS                 # offset: rows share a huge common part; S h overflows
    h = h * ch
    with mpmath.workprec(PREC):
        Sh = [sum(mp(a) * mp(b) for a, b in zip(row, h)) for row in S]
        ref = max(Sh) - min(Sh)
        bound = 4 * (S.shape[1] + 2) * U * float(max(sum(abs(mp(a) * mp(b)) for a, b in zip(row, h))
                                                     for row in S))
    if ref > BIG:
        with pytest.raises(ValueError, match=r"^S, h: .*exceeds the float64 range"):
            hilbert_change(S, h)
    elif bound > BIG:           # the float64 rounding error alone may exceed the range: an error
        try:                    # saying so, or a value within the bound
            close(hilbert_change(S, h), ref, bound)
        except ValueError as exc:
            assert str(exc).startswith("S, h: ") and "rounding" in str(exc)
    else:
        close(hilbert_change(S, h), ref, bound)


@SET
@given(st.tuples(st.integers(2, 5), st.integers(1, 3)).flatmap(lambda s: st.tuples(
    hnp.arrays(np.float64, s, elements=st.floats(-1, 1)),
    hnp.arrays(np.float64, s[0], elements=st.floats(-1, 1)),
    st.sampled_from([1e200, 1e-200, 1.0]), st.sampled_from([1e200, 1e-200, 1e-120, 1.0]))))
@example((np.array([[1.0], [1.0]]), np.array([0.0, 1.0]), 1e200, 1e200))   # Sᵀr = 0 exactly
def test_backward_bound_at_extreme_scales(data):
    A, r, cS, cr = data
    r = r - r.mean()
    S, r = A * cS, r * cr
    if not np.any(r):
        return
    with mpmath.workprec(PREC):
        R = _mp_rows(S)
        rr = [mp(t) for t in r]
        if abs(sum(rr)) > 1e-12 * max(1, sum(abs(t) for t in rr)):
            return                                            # rounding left 1ᵀr ≠ 0
        lhs = _mp_norm([sum(R[i][k] * rr[i] for i in range(len(R))) for k in range(S.shape[1])])
        D = max(_mp_norm([a - b for a, b in zip(R[i], R[j])])
                for i in range(len(R)) for j in range(i + 1, len(R)))
        rhs = D * sum(abs(t) for t in rr) / 2
        lbound = 4 * (S.shape[0] + 2) * U * float(
            _mp_norm([sum(abs(R[i][k] * rr[i]) for i in range(len(R))) for k in range(S.shape[1])]))
    if lhs > BIG or rhs > BIG:
        with pytest.raises(ValueError, match=r"^S, r: .*exceeds the float64 range"):
            backward_bound(S, r)
        return
    got_l, got_r = backward_bound(S, r)
    close(got_l, lhs, lbound)
    close(got_r, rhs, 8 * (S.shape[0] + S.shape[1] + 4) * U * float(rhs))


def test_errors_name_the_callers_arguments():
    with pytest.raises(ValueError, match=r"^S: the row diameter"):
        row_diameter(np.array([[1.7e308, 1.7e308], [-1.7e308, -1.7e308]]))
    with pytest.raises(ValueError, match=r"^S, h: "):
        hilbert_change(np.array([[1e300], [-1e300]]), np.array([1e10]))
    with pytest.raises(ValueError, match=r"^x, y: "):
        hilbert_distance([1e308, -1e308], [-1e308, 1e308], space="log")
    # finite answers where the old code overflowed in an intermediate
    assert hilbert_distance([1e308, 1e308], [-1e308, -1e308], space="log") == 0.0
    assert hilbert_change(np.array([[1e300], [1e300]]), np.array([1e10])) == 0.0
    assert row_diameter(np.array([[1.5e308], [1.6e308]]))[0] == pytest.approx(1e307, rel=1e-15)
    assert ce_control([1e308, -1e308], [1e308, -1e308], space="log") == (0.0, 0.0)

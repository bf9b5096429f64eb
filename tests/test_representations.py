"""Representation audit and the icosahedral representation of A5."""
from __future__ import annotations

import functools
from fractions import Fraction

import numpy as np
import pytest
import scipy.linalg
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from seqtheory.theory.groups import FiniteGroup
from seqtheory.theory.representations import (audit_representation, icosahedral_representation,
                                              rotation_log)


@functools.lru_cache(maxsize=None)
def group(name):
    return FiniteGroup.named(name)


def perm_matrix(p):
    """P e_i = e_{p(i)}, so P(p∘q) = P(p) P(q) with the FiniteGroup convention."""
    n = len(p)
    P = np.zeros((n, n), dtype=np.int64)
    P[list(p), list(range(n))] = 1
    return P


def parity(p):
    sign, seen = 1, set()
    for i in range(len(p)):
        if i in seen:
            continue
        j, length = i, 0
        while j not in seen:
            seen.add(j)
            j, length = p[j], length + 1
        sign *= (-1) ** (length - 1)
    return sign


# ------------------------------------------------------------------ audit
def test_permutation_matrices_pin_the_convention():
    S4 = group("S4")
    good = audit_representation(S4, {p: perm_matrix(p) for p in S4.elements})
    assert good.exact and good.is_homomorphism and good.is_faithful
    assert good.fraction_respected == 1 and good.n_distinct == 24 and good.kernel_order == 1
    # the opposite convention (sympy's p*q applies p first) is an anti-homomorphism: rejected
    bad = audit_representation(S4, {p: perm_matrix(p).T for p in S4.elements})
    assert not bad.is_homomorphism and bad.fraction_respected < 1
    ex = bad.failing_example
    Pa, Pb, Pab = (perm_matrix(ex[k]).T for k in ("a", "b", "ab"))
    assert not np.array_equal(Pa @ Pb, Pab)  # the reported pair really fails


def test_sign_and_trivial_representations():
    S4 = group("S4")
    sign = audit_representation(S4, lambda p: [[parity(p)]])
    assert sign.is_homomorphism and not sign.is_faithful
    assert sign.n_distinct == 2 and sign.kernel_order == 12
    triv = audit_representation(S4, [np.eye(2, dtype=np.int64)] * 24)
    assert triv.is_homomorphism and triv.kernel_order == 24 and triv.n_distinct == 1


def test_swapped_images_detected_exactly():
    S3 = group("S3")
    m = {p: perm_matrix(p) for p in S3.elements}
    a, b = S3.elements[1], S3.elements[2]
    m[a], m[b] = m[b], m[a]
    res = audit_representation(S3, m)
    assert not res.is_homomorphism and res.n_distinct == 6 and not res.is_faithful
    assert 0 < res.fraction_respected < 1
    # count independently
    ok = sum(np.array_equal(m[S3.multiply(x, y)], m[x] @ m[y])
             for x in S3.elements for y in S3.elements)
    assert res.fraction_respected == Fraction(ok, 36)


def test_identity_not_mapped_to_identity():
    C2 = group("C2")
    res = audit_representation(C2, {0: [[-1]], 1: [[1]]})
    assert not res.identity_maps_to_identity and not res.is_homomorphism


def test_float_path_tolerance():
    S3 = group("S3")
    rng = np.random.default_rng(0)
    Q, _ = np.linalg.qr(rng.standard_normal((3, 3)))
    m = {p: Q @ perm_matrix(p) @ Q.T for p in S3.elements}
    res = audit_representation(S3, m)
    assert not res.exact and res.is_faithful and res.max_error < 1e-12 and res.tol == 1e-9
    p = S3.elements[3]
    m[p] = m[p] + 1e-6
    res = audit_representation(S3, m)
    assert not res.is_homomorphism and res.max_error > 1e-7
    assert audit_representation(S3, m, tol=1e-5).is_homomorphism  # stated tolerance is honoured


def test_audit_bad_input():
    S3 = group("S3")
    full = {p: perm_matrix(p) for p in S3.elements}
    partial = dict(list(full.items())[:5])
    with pytest.raises(ValueError, match="no image"):
        audit_representation(S3, partial)
    with pytest.raises(ValueError, match="not an element"):
        audit_representation(S3, {**full, (9, 9, 9): np.eye(3)})
    bad = dict(full)
    bad[S3.identity] = np.eye(2, dtype=np.int64)
    with pytest.raises(ValueError, match="square of the same size"):
        audit_representation(S3, bad)
    nan = {p: perm_matrix(p).astype(float) for p in S3.elements}
    nan[S3.identity][0, 0] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        audit_representation(S3, nan)
    with pytest.raises(ValueError, match="tol"):
        audit_representation(S3, full, tol=-1.0)
    with pytest.raises(TypeError):
        audit_representation("S3", full)
    with pytest.raises(ValueError, match="one matrix per element"):
        audit_representation(S3, [np.eye(3)] * 5)


@settings(max_examples=15, deadline=None)
@given(name=st.sampled_from(["C3", "V4", "D8", "Q8", "S3", "A4", "H3(2)", "F21"]),
       seed=st.integers(0, 2**32 - 1))
def test_regular_representation_is_faithful(name, seed):
    """Left-regular representation L(g) e_h = e_{gh}: exact, faithful; a random orthogonal
    conjugate passes the float audit; two swapped images fail it."""
    G = group(name)
    T = G.cayley_table().astype(np.int64)
    n = G.order
    L = [np.zeros((n, n), dtype=np.int64) for _ in range(n)]
    for g in range(n):
        L[g][T[g], np.arange(n)] = 1
    res = audit_representation(G, L)
    assert res.is_faithful and res.n_distinct == n
    rng = np.random.default_rng(seed)
    Q, _ = np.linalg.qr(rng.standard_normal((n, n)))
    Lf = [Q @ M @ Q.T for M in L]
    assert audit_representation(G, Lf).is_faithful
    i, j = rng.choice(np.arange(1, n), size=2, replace=False)
    Lf[i], Lf[j] = Lf[j], Lf[i]
    # the swapped map g -> L(σ g) is a homomorphism iff the transposition σ = (i j) is an
    # automorphism (e.g. inversion in C3); otherwise the audit must reject it
    sigma = np.arange(n)
    sigma[[i, j]] = [j, i]
    is_aut = np.array_equal(sigma[T], T[sigma[:, None], sigma[None, :]])
    assert audit_representation(G, Lf).is_homomorphism == is_aut


# ------------------------------------------------------------------ icosahedral representation
@pytest.fixture(scope="module")
def ico():
    return icosahedral_representation()


def test_icosahedral_is_faithful_exact(ico):
    G = ico.group
    assert G.order == 60 and G.is_perfect
    a, b = ico.generators
    assert G.element_order(a) == 5 and G.element_order(b) == 2
    assert G.element_order(G.multiply(a, b)) == 3
    aud = ico.audit
    assert aud.exact and aud.domain == "QQ<sqrt(5)>"
    assert aud.is_homomorphism and aud.fraction_respected == 1 and aud.n_pairs == 3600
    assert aud.n_distinct == 60 and aud.is_faithful and aud.kernel_order == 1
    assert ico.all_rotations
    assert len({tuple(M) for M in ico.matrices.values()}) == 60


def test_icosahedral_independent_exact_checks(ico):
    """Recheck with plain sympy (independent of the audit code) on a sample of pairs, plus the
    rotation properties of every image."""
    G = ico.group
    m = ico.matrices
    for M in m.values():
        assert sympy.simplify(M.T * M - sympy.eye(3)) == sympy.zeros(3, 3)
        assert sympy.simplify(M.det() - 1) == 0
    rng = np.random.default_rng(1)
    for _ in range(40):
        x, y = (G.elements[i] for i in rng.integers(0, 60, size=2))
        assert sympy.simplify(m[x] * m[y] - m[G.multiply(x, y)]) == sympy.zeros(3, 3)
    traces = sorted({sympy.nsimplify(sympy.simplify(M.trace())) for M in m.values()}, key=float)
    # traces 1 + 2cos θ for θ in {π, 4π/5, 2π/3, 2π/5, 0}: -1, (1-√5)/2, 0, (1+√5)/2, 3
    assert [float(t) for t in traces] == pytest.approx(
        [-1, (1 - 5 ** 0.5) / 2, 0, (1 + 5 ** 0.5) / 2, 3])


def test_icosahedral_permutes_the_12_vertices(ico):
    phi = (1 + 5 ** 0.5) / 2
    V = []
    for s1 in (1, -1):
        for s2 in (1, -1):
            for v in ((0, s1, s2 * phi), (s1, s2 * phi, 0), (s2 * phi, 0, s1)):
                V.append(v)
    V = np.array(V)
    for M in ico.float_matrices:
        W = V @ M.T
        d = np.abs(W[:, None, :] - V[None, :, :]).max(axis=2)
        assert (d.min(axis=1) < 1e-12).all()


def test_icosahedral_float_versions(ico):
    A = ico.float_matrices
    assert A.shape == (60, 3, 3) and A.dtype == np.float64
    assert np.abs(np.einsum("kji,kjl->kil", A, A) - np.eye(3)).max() < 1e-14
    assert np.abs(np.linalg.det(A) - 1).max() < 1e-14
    for k, x in enumerate(ico.group.elements):
        exact = np.array(ico.matrices[x].evalf(25).tolist(), dtype=float)
        assert np.abs(exact - A[k]).max() < 1e-15
    aud = audit_representation(ico.group, ico.float_mapping())
    assert aud.is_faithful and not aud.exact and aud.max_error < 1e-14


def test_so3_generators(ico):
    X, Y = ico.generator_matrices
    L1, L2 = ico.so3_generators_float
    for L, R in ((L1, X), (L2, Y)):
        assert np.abs(L + L.T).max() < 1e-15
        Rf = np.array(R.evalf(25).tolist(), dtype=float)
        assert np.abs(scipy.linalg.expm(L) - Rf).max() < 1e-13
    assert ico.angles == (2 * sympy.pi / 5, sympy.pi)
    # exact Rodrigues: R = I + sin θ K + (1 - cos θ) K^2 with K = [w]_x
    for (theta, w, L), R in zip((rotation_log(X), rotation_log(Y)), (X, Y)):
        K = sympy.Matrix([[0, -w[2], w[1]], [w[2], 0, -w[0]], [-w[1], w[0], 0]])
        assert sympy.simplify((w.T * w)[0] - 1) == 0
        R2 = sympy.eye(3) + sympy.sin(theta) * K + (1 - sympy.cos(theta)) * K * K
        assert sympy.simplify(R2 - R) == sympy.zeros(3, 3)
    # the two logarithms generate so(3): L1, L2, [L1, L2] are linearly independent
    B = np.stack([L1.ravel(), L2.ravel(), (L1 @ L2 - L2 @ L1).ravel()])
    B = B / np.linalg.norm(B, axis=1, keepdims=True)
    sv = np.linalg.svd(B, compute_uv=False)
    assert sv.min() > 0.1


def test_so3_field_generators(ico):
    """Positive multiples of the logarithms with entries in Q(√5); they generate so(3) exactly."""
    from sympy.polys.constructor import construct_domain

    from seqtheory.theory.representations import rotation_axis_generator

    K1, K2 = ico.so3_field_generators
    for K, L in zip((K1, K2), ico.so3_generators_float):
        dom, _ = construct_domain(list(K), extension=True)
        assert str(dom) in ("QQ", "ZZ", "QQ<sqrt(5)>")
        Kf = np.array(K.evalf(25).tolist(), dtype=float)
        nz = np.abs(Kf) > 1e-12
        ratio = L[nz] / Kf[nz]
        assert ratio.min() > 0 and np.ptp(ratio) < 1e-13  # L = c K with c > 0
    B = sympy.Matrix([list(K1), list(K2), list(K1 * K2 - K2 * K1)])
    assert B.rank(simplify=True) == 3  # span{K1, K2, [K1, K2]} = so(3), exactly
    with pytest.raises(ValueError, match="identity"):
        rotation_axis_generator(sympy.eye(3))


def test_rotation_log_rejects_non_rotation():
    with pytest.raises(ValueError, match="not a rotation"):
        rotation_log(sympy.diag(1, 1, -1))
    with pytest.raises(ValueError, match="3x3"):
        rotation_log(sympy.eye(2))
    theta, w, L = rotation_log(sympy.eye(3))
    assert theta == 0 and w is None and L == sympy.zeros(3, 3)


# ============================================================================ adversarial review
# Regression tests for defects found by an adversarial review.

def test_audit_rejects_bad_tol_and_bool_images():
    """tol='x' raised a numpy ufunc error; boolean images [[True]] were audited as 1.0."""
    C2 = FiniteGroup.cyclic(2)
    with pytest.raises(TypeError, match="tol"):
        audit_representation(C2, [np.eye(1), -np.eye(1)], tol="x")
    with pytest.raises(TypeError, match="real numbers"):
        audit_representation(C2, [[[True]], [[True]]])
    assert audit_representation(C2, [np.eye(1), -np.eye(1)]).is_homomorphism

"""Property tests (hypothesis) for LieAlgebra: invariance of series dimensions, float vs exact,
structure-constant round trips."""
import numpy as np
import sympy
from hypothesis import given, settings, strategies as st

from seqtheory.theory.lie import LieAlgebra

SEEDS = st.integers(0, 2 ** 32 - 1)


def _random_gens(rng, n, k, kind):
    gens = []
    for _ in range(k):
        M = rng.integers(-2, 3, (n, n))
        if kind == "upper":
            M = np.triu(M)
        elif kind == "strict":
            M = np.triu(M, 1)
        gens.append(M)
    return gens


def _unimodular(rng, n):
    """Random integer matrix with determinant +-1 (product of elementary operations)."""
    P = np.eye(n, dtype=np.int64)
    if n < 2:
        return P
    for _ in range(3 * n):
        i, j = rng.choice(n, 2, replace=False)
        P[i] += int(rng.integers(-2, 3)) * P[j]
    return P


def _dims(L):
    return (L.dim, tuple(L.derived_series().dims), tuple(L.lower_central_series().dims),
            tuple(L.upper_central_series().dims))


@settings(max_examples=20, deadline=None)
@given(SEEDS, st.integers(2, 4), st.sampled_from(["upper", "strict", "full"]))
def test_series_invariant_under_conjugation(seed, n, kind):
    rng = np.random.default_rng(seed)
    gens = _random_gens(rng, n, 2, kind)
    if all(not g.any() for g in gens):
        gens[0][0, n - 1] = 1
    L = LieAlgebra.generated_by(gens)
    P = _unimodular(rng, n)
    Pinv = np.array(sympy.Matrix(P).inv(), dtype=np.int64)
    L2 = LieAlgebra.generated_by([P @ g @ Pinv for g in gens])
    assert _dims(L) == _dims(L2)


@settings(max_examples=20, deadline=None)
@given(SEEDS, st.integers(2, 4), st.sampled_from(["upper", "strict"]))
def test_series_invariant_under_change_of_algebra_basis(seed, n, kind):
    rng = np.random.default_rng(seed)
    gens = _random_gens(rng, n, 2, kind)
    gens[0][0, n - 1] = 1
    L = LieAlgebra.generated_by(gens)
    B = [np.array(x, dtype=object) for x in L.basis]
    Q = _unimodular(rng, L.dim)
    mixed = [sum(int(Q[i, j]) * B[j] for j in range(L.dim)) for i in range(L.dim)]
    L2 = LieAlgebra.spanned_by(mixed)
    assert L2 == L and _dims(L2) == _dims(L)


@settings(max_examples=15, deadline=None)
@given(SEEDS, st.integers(2, 4), st.sampled_from(["upper", "strict", "full"]),
       st.sampled_from([0.0, 3.0]))
def test_float_path_matches_exact(seed, n, kind, log_scale):
    """Well-conditioned (log_scale 0) and ill-scaled (generators scaled by 10^{+-3}) inputs,
    conjugated by a random orthogonal matrix."""
    rng = np.random.default_rng(seed)
    gens = _random_gens(rng, n, 2, kind)
    gens[0][0, n - 1] = 1
    L = LieAlgebra.generated_by(gens)
    Qm, _ = np.linalg.qr(rng.standard_normal((n, n)))
    scales = 10.0 ** rng.uniform(-log_scale, log_scale, len(gens))
    F = LieAlgebra.generated_by([s * (Qm @ g @ Qm.T) for s, g in zip(scales, gens)], tol=1e-9)
    assert F.dim == L.dim
    assert F.derived_series().dims == L.derived_series().dims
    assert F.lower_central_series().dims == L.lower_central_series().dims


@settings(max_examples=15, deadline=None)
@given(SEEDS, st.integers(2, 4), st.sampled_from(["upper", "strict", "full"]))
def test_structure_constants_round_trip(seed, n, kind):
    rng = np.random.default_rng(seed)
    gens = _random_gens(rng, n, 2, kind)
    gens[0][0, n - 1] = 1
    L = LieAlgebra.generated_by(gens)
    C = L.structure_constants()
    S = LieAlgebra.from_structure_constants(C.tolist())  # validated: antisymmetric + Jacobi
    assert _dims(S) == _dims(L)
    assert S.is_semisimple == L.is_semisimple
    sparse = {(i, j): {k: C[i, j, k] for k in range(L.dim) if C[i, j, k]}
              for i in range(L.dim) for j in range(L.dim) if i < j}
    S2 = LieAlgebra.from_structure_constants(sparse, dim=L.dim)
    assert _dims(S2) == _dims(L)


@settings(max_examples=20, deadline=None)
@given(SEEDS, st.integers(2, 4))
def test_closure_contains_generators_and_brackets(seed, n):
    rng = np.random.default_rng(seed)
    gens = _random_gens(rng, n, 2, "upper")
    L = LieAlgebra.generated_by(gens)
    for g in gens:
        assert L.contains(g)
    assert L.contains(L.bracket(gens[0], gens[1]))
    # derived algebra is an ideal: [g, g'] in g'
    D = L.derived_algebra()
    assert L.bracket_space(D).is_subalgebra_of(D)

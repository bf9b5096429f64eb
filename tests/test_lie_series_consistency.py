"""The exact series of seqtheory.theory.lie against independent oracles and each other.

* The centre is the first term ``Z_1`` of the upper central series (the same object), and it is
  the centre: checked against a sympy nullspace of the stacked ``ad`` constraints.
* The series are consistent: lower central and derived series descend, the upper central series
  ascends, ``g^(i) ⊆ γ_{i+1}``, and a nilpotent algebra has ``γ_{c+1-i} ⊆ Z_i`` with both series of
  length ``c + 1`` (Humphreys §3).
* The sparse fast paths (sparse bracket products, rows already in reduced echelon form, hashed
  duplicate removal) give the answers of the dense paths: a sparse-basis algebra and its
  conjugate by a unimodular integer matrix (dense basis), and the structure-constant ambient.
"""
import numpy as np
import pytest
import sympy

from seqtheory.theory import int_rows, linalg
from seqtheory.theory.lie import LieAlgebra
from seqtheory.theory.lie_named import b, gl, heisenberg, sl, so, strictly_upper


def _unimodular(n, seed):
    """A dense integer matrix of determinant 1 (product of a lower and an upper unitriangular
    matrix with random entries) and its integer inverse."""
    rng = np.random.default_rng(seed)
    Lo = np.tril(rng.integers(-2, 3, (n, n)), -1) + np.eye(n, dtype=np.int64)
    Up = np.triu(rng.integers(-2, 3, (n, n)), 1) + np.eye(n, dtype=np.int64)
    P = Lo @ Up
    Pi = np.array(sympy.Matrix(P).inv(), dtype=np.int64)
    assert (P @ Pi == np.eye(n, dtype=np.int64)).all()
    return P, Pi


def _conjugate(L, seed):
    P, Pi = _unimodular(L.matrix_size, seed)
    return LieAlgebra.spanned_by([P @ np.array(m, dtype=np.int64) @ Pi for m in L.basis])


def _centre_oracle(L) -> int:
    """dim {x : [x, e_b] = 0 for all b}, by sympy: the nullspace of the matrix whose columns
    are the flattened brackets [e_a, e_b] stacked over b."""
    B = [sympy.Matrix(np.array(m, dtype=object)) for m in L.basis]
    if not B:
        return 0
    cols = []
    for a in B:
        cols.append(sympy.Matrix.vstack(*[(a * e - e * a).reshape(len(a), 1) for e in B]))
    return len(sympy.Matrix.hstack(*cols).nullspace())


CASES = {
    "heisenberg(2)": lambda: heisenberg(2),
    "b(5)": lambda: b(5),
    "n(6)": lambda: strictly_upper(6),
    "sl(3)": lambda: sl(3),
    "gl(3)": lambda: gl(3),
    "so(4)": lambda: so(4),
    "n(5) conjugated": lambda: _conjugate(strictly_upper(5), 1),
    "b(4) conjugated": lambda: _conjugate(b(4), 2),
}


@pytest.mark.parametrize("name", list(CASES))
def test_centre_is_first_term_of_upper_central_series(name):
    L = CASES[name]()
    ucs = L.upper_central_series()
    Z = L.center()
    assert Z is (ucs[1] if len(ucs) > 1 else ucs[0])
    assert Z.dim == _centre_oracle(L)
    for z in Z.basis:                          # central: brackets with every basis element vanish
        for e in L.basis:
            assert not np.any(np.asarray(L.bracket(z, e)) != 0)


@pytest.mark.parametrize("name", list(CASES))
def test_series_are_consistent(name):
    L = CASES[name]()
    ds, lcs, ucs = L.derived_series(), L.lower_central_series(), L.upper_central_series()
    for s in (ds, lcs):
        for nxt, cur in zip(s[1:], s[:-1]):
            assert nxt.dim < cur.dim and nxt.is_subalgebra_of(cur)
    for nxt, cur in zip(ucs[1:], ucs[:-1]):
        assert nxt.dim > cur.dim and cur.is_subalgebra_of(nxt) and nxt.is_subalgebra_of(L)
    for i, t in enumerate(ds):
        assert t.is_subalgebra_of(lcs[min(i, len(lcs) - 1)])
    assert lcs.stabilised == ucs.stabilised
    if not lcs.stabilised:                      # nilpotent of class c
        c = len(lcs) - 1
        assert len(ucs) == c + 1 and ucs[-1] == L
        for i in range(c + 1):
            assert lcs[c - i].is_subalgebra_of(ucs[i])


@pytest.mark.parametrize("make,seed", [(lambda: b(6), 3), (lambda: strictly_upper(7), 4),
                                       (lambda: so(5), 5), (lambda: heisenberg(3), 6)])
def test_sparse_and_dense_paths_agree(make, seed):
    """A sparse (matrix-unit) basis takes the sparse products; its conjugate by a dense
    unimodular matrix the dense ones. Isomorphic algebras: the same dimensions everywhere."""
    L = make()
    C = _conjugate(L, seed)
    rows, crows = L.space.rows, C.space.rows
    assert L._ambient.sparse_brackets(rows, rows, True) is not None
    assert C._ambient.sparse_brackets(crows, crows, True) is None

    def inv(A):
        return (A.dim, A.derived_series().dims, A.lower_central_series().dims,
                A.upper_central_series().dims, A.center().dim)
    assert inv(L) == inv(C)


def test_structure_constant_ambient_matches_matrix_algebra():
    N = strictly_upper(7)
    S = LieAlgebra.from_structure_constants(N.structure_constants_sparse(), dim=N.dim)
    for f in ("derived_series", "lower_central_series", "upper_central_series"):
        assert getattr(S, f)().dims == getattr(N, f)().dims
    assert S.center().dim == N.center().dim == 1


def test_unique_rows_detects_hash_collisions(monkeypatch):
    """With every row hashing alike, the exact comparison must catch it (no row dropped)."""
    rows = np.array([[1, 0, 2], [0, 1, 0], [1, 0, 2], [3, 3, 3], [0, 1, 0]], dtype=np.int64)
    monkeypatch.setitem(int_rows._HASH_WEIGHTS, 3, np.zeros(3, dtype=np.int64))
    got = int_rows.unique_rows(rows)
    assert sorted(map(tuple, got.tolist())) == [(0, 1, 0), (1, 0, 2), (3, 3, 3)]
    monkeypatch.undo()
    got = int_rows.unique_rows(rows)           # hashed path: first occurrences, in order
    assert got.tolist() == [[1, 0, 2], [0, 1, 0], [3, 3, 3]]


def test_reduced_echelon_shortcut_only_for_reduced_rows():
    reduced = np.array([[0, 0, 1, 5], [2, 0, 0, 1], [0, 1, 0, 0]], dtype=np.int64)
    rows, piv = int_rows.reduced_echelon(reduced)
    assert piv == (0, 1, 2) and rows.tolist() == [[2, 0, 0, 1], [0, 1, 0, 0], [0, 0, 1, 5]]
    assert int_rows.reduced_echelon(np.array([[1, 1, 0], [0, 1, 0]], dtype=np.int64)) is None
    assert int_rows.reduced_echelon(np.array([[1, 0, 0], [2, 0, 1]], dtype=np.int64)) is None


@pytest.mark.parametrize("seed", range(6))
def test_extend_rows_matches_sympy_rref(seed):
    """Sparse random integer rows (some already reduced, some not) against sympy's RREF."""
    rng = np.random.default_rng(seed)
    N = 9
    A = rng.integers(-2, 3, (7, N)) * (rng.random((7, N)) < 0.25)
    S = linalg.RationalSubspace(N).extend_rows(A.astype(np.int64))[0]
    R, piv = sympy.Matrix(A.tolist()).rref()
    assert S.pivots == tuple(piv)
    ours = [[sympy.Rational(int(x), int(r[p])) for x in r] for r, p in zip(S.rows, S.pivots)]
    assert ours == [list(R.row(i)) for i in range(len(piv))]


def test_int64_matmul_exact_near_float_bound():
    """Under the 2**53 bound the float64 (BLAS) product is exact; at 2**62 numpy's integer one."""
    rng = np.random.default_rng(7)
    a = rng.integers(-2 ** 20, 2 ** 20, (5, 8)).astype(np.int64)
    b_ = rng.integers(-2 ** 29, 2 ** 29, (8, 4)).astype(np.int64)
    bound = 2 ** 20 * 2 ** 29 * 8                       # 2**52
    exact = a.astype(object) @ b_.astype(object)
    assert (linalg.int64_matmul(a, b_, bound).astype(object) == exact).all()
    assert (linalg.exact_matmul(a, b_).astype(object) == exact).all()
    big = rng.integers(-2 ** 28, 2 ** 28, (8, 4)).astype(np.int64) * 2 ** 25
    exact = a.astype(object) @ big.astype(object)
    assert (linalg.exact_matmul(a, big).astype(object) == exact).all()


# found by review: mixed integer dtypes, the float centre, caller edits to a returned series
def test_int64_uint64_mix_is_exact():
    # np.stack(int64, uint64) -> float64 in _integer_matrices: 2**53 + 1 rounds to 2**53
    a = np.diag(np.array([2**53 + 1, 1], dtype=np.int64))
    b = np.diag(np.array([2**53, 1], dtype=np.uint64))
    assert LieAlgebra.spanned_by([a, b]).dim == 2          # independent, abelian
    assert LieAlgebra.spanned_by([a.tolist(), b.tolist()]).dim == 2


def test_float_center_does_not_need_the_lower_central_series():
    # these span n(3) (centre of dim 1); f16b268's center() answered 1
    mats = [np.array(m) for m in (
        [[0.0, -0.0033243825763210897, 2.009134941528146e-05], [0.0, 0.0, -0.0008289987576694607], [0.0, 0.0, 0.0]],
        [[0.0, 0.0008859864782219287, 1.1054096900223888e-05], [0.0, 0.0, -0.0039761215987478594], [0.0, 0.0, 0.0]],
        [[0.0, 0.0007629469095025819, 2.4216330013674132e-06], [0.0, 0.0, -0.011949728597811227], [0.0, 0.0, 0.0]])]
    L = LieAlgebra.generated_by(mats, tol=1e-9)
    assert L.dim == 3
    assert L.center().dim == 1


def test_center_independent_of_caller_edits_to_the_series():
    L = heisenberg(1)
    ucs = L.upper_central_series()
    ucs[1] = ucs[2]                      # a LieSeries is a plain list, returned by reference
    assert L.center().dim == 1

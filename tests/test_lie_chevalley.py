"""Simple Lie algebras of types A-D in a Chevalley basis (theory/lie_chevalley.py): dimensions and
root counts against the textbook formulas and sympy's root systems, the Bourbaki Cartan matrices,
Chevalley-basis identities. GAP's SimpleLieAlgebra is compared in tests/test_gap_structure.py."""
import pytest

from seqtheory.theory import cartan_matrix, root_system_size, simple_lie_algebra

CASES = [("A", 1), ("A", 2), ("A", 3), ("B", 2), ("B", 3), ("C", 2), ("C", 3), ("D", 4)]


@pytest.mark.parametrize("kind,n", CASES)
def test_dimension_roots_and_rank(kind, n):
    """dim = rank + |Φ|; |Φ| = n(n+1), 2n², 2n², 2n(n-1) (Humphreys §12.1) and the number of roots
    of sympy's RootSystem (a peer); the algebra is simple: semisimple and indecomposable."""
    from sympy.liealgebras.root_system import RootSystem

    C = simple_lie_algebra(kind, n)
    formula = {"A": n * (n + 1), "B": 2 * n * n, "C": 2 * n * n, "D": 2 * n * (n - 1)}[kind]
    assert root_system_size(kind, n) == formula == C.n_roots
    peer = "B2" if (kind, n) == ("C", 2) else f"{kind}{n}"     # sympy has no C2 (= B2)
    assert len(RootSystem(peer).all_roots()) == formula
    assert C.algebra.dim == n + formula and C.rank == n
    assert C.algebra.is_semisimple and C.algebra.is_perfect
    assert len(C.labels) == C.algebra.dim


def test_cartan_matrices_are_bourbaki():
    """A[i][j] = <α_j, α_i^∨> (Bourbaki, Plates I-IV): B_n's last root short, C_n's long, D_n's
    fork at node n-2."""
    assert cartan_matrix("A", 3) == [[2, -1, 0], [-1, 2, -1], [0, -1, 2]]
    assert cartan_matrix("B", 3) == [[2, -1, 0], [-1, 2, -1], [0, -2, 2]]
    assert cartan_matrix("C", 3) == [[2, -1, 0], [-1, 2, -2], [0, -1, 2]]
    assert cartan_matrix("D", 4) == [[2, -1, 0, 0], [-1, 2, -1, -1], [0, -1, 2, 0],
                                     [0, -1, 0, 2]]


def test_chevalley_basis_identities_b2():
    """In the Chevalley basis of B2: positive roots α1, α2, α1+α2, α1+2α2 by height; every
    structure constant an integer; [x_α, y_α] = h_α in the Cartan part; the Killing form pairs
    x_α with y_α only."""
    C = simple_lie_algebra("B", 2)
    assert C.positive_roots == ((1, 0), (0, 1), (1, 1), (1, 2))
    sc = C.algebra.structure_constants_sparse()
    assert all(v.denominator == 1 for row in sc.values() for v in row.values())
    K = C.algebra.killing_form()
    N = len(C.positive_roots)
    for a in range(N):
        assert [b for b in range(2 * N + 2) if K[a, b]] == [N + a]


@pytest.mark.parametrize("kind,n", [("A", 0), ("B", 1), ("C", 1), ("D", 3), ("E", 6)])
def test_refuses_other_types_and_ranks(kind, n):
    with pytest.raises(ValueError):
        simple_lie_algebra(kind, n)
    with pytest.raises(TypeError):
        simple_lie_algebra("A", 2.0)

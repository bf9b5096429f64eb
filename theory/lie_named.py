"""Named matrix Lie algebras, exact over Q (as :class:`~seqtheory.theory.lie.LieAlgebra`).

``gl(n)``, ``sl(n)``, ``so(n)``, upper triangular ``b(n)``, strictly upper triangular
``strictly_upper(n)`` (alias ``n_upper``), ``heisenberg(m)``, ``diagonal(n)``, ``sl_affine(n)``.
Each is built from its standard basis with :meth:`LieAlgebra.spanned_by` (so closure under the bracket is verified).
Source: Humphreys, *Introduction to Lie Algebras and Representation Theory*, §1.2, §3.
Known invariants (SPEC §4): derived length of ``strictly_upper(n)`` is ``ceil(log2 n)``, its
nilpotency class ``n - 1``; derived length of ``b(n)`` is ``ceil(log2 n) + 1``; ``sl(n)``,
``so(n)`` (n >= 3) are perfect; the Heisenberg algebra has class 2. Matrix sizes above
:data:`MAX_SIZE` are refused (``ValueError`` naming the argument) before any matrix is built.
"""
from __future__ import annotations

import numpy as np

from ._checks import check_int
from .lie import LieAlgebra

__all__ = ["gl", "sl", "so", "b", "upper_triangular", "strictly_upper", "n_upper", "heisenberg",
           "diagonal", "sl_affine", "elementary", "MAX_SIZE"]

#: the largest matrix size of a named algebra (``gl(32)``: 1024 basis matrices, about 2 s; the
#: closure check grows like n^6: ``gl(48)`` takes 15 s)
MAX_SIZE = 32


def elementary(n: int, i: int, j: int) -> np.ndarray:
    """The matrix unit ``E_ij`` (n x n, int64; 0-based ``i, j``). ``ValueError`` for ``n < 1``
    or an index outside ``0..n-1``."""
    n = check_int("n", n)
    i, j = check_int("i", i, 0, n - 1), check_int("j", j, 0, n - 1)
    m = np.zeros((n, n), dtype=np.int64)
    m[i, j] = 1
    return m


def gl(n: int) -> LieAlgebra:
    """``gl(n)``: all n x n matrices (dim n^2)."""
    n = check_int("n", n, 1, MAX_SIZE)
    return LieAlgebra.spanned_by([elementary(n, i, j) for i in range(n) for j in range(n)])


def sl(n: int) -> LieAlgebra:
    """``sl(n)``: trace-zero matrices (dim n^2 - 1); n >= 2."""
    n = check_int("n", n, 2, MAX_SIZE)
    mats = [elementary(n, i, j) for i in range(n) for j in range(n) if i != j]
    mats += [elementary(n, i, i) - elementary(n, i + 1, i + 1) for i in range(n - 1)]
    return LieAlgebra.spanned_by(mats)


def so(n: int) -> LieAlgebra:
    """``so(n)``: antisymmetric matrices (dim n(n-1)/2); n >= 2."""
    n = check_int("n", n, 2, MAX_SIZE)
    return LieAlgebra.spanned_by([elementary(n, i, j) - elementary(n, j, i)
                                  for i in range(n) for j in range(i + 1, n)])


def b(n: int) -> LieAlgebra:
    """Upper triangular matrices ``b(n)`` (Borel subalgebra of gl(n); dim n(n+1)/2)."""
    n = check_int("n", n, 1, MAX_SIZE)
    return LieAlgebra.spanned_by([elementary(n, i, j) for i in range(n) for j in range(i, n)])


upper_triangular = b


def strictly_upper(n: int) -> LieAlgebra:
    """Strictly upper triangular matrices ``n(n)`` (dim n(n-1)/2; the zero algebra for n = 1)."""
    n = check_int("n", n, 1, MAX_SIZE)
    if n == 1:
        return LieAlgebra.spanned_by([np.zeros((1, 1), dtype=np.int64)])
    return LieAlgebra.spanned_by([elementary(n, i, j) for i in range(n) for j in range(i + 1, n)])


n_upper = strictly_upper


def heisenberg(m: int = 1) -> LieAlgebra:
    """The Heisenberg algebra of dimension 2m+1 as (m+2) x (m+2) matrices:
    ``x_i = E_{0,i}``, ``y_i = E_{i,m+1}``, ``z = E_{0,m+1}``, ``[x_i, y_i] = z``.
    For m = 1 this is span{E12, E23, E13} (SPEC §4)."""
    m = check_int("m", m, 1, MAX_SIZE - 2)
    d = m + 2
    mats = [elementary(d, 0, i) for i in range(1, m + 1)]
    mats += [elementary(d, i, m + 1) for i in range(1, m + 1)]
    mats.append(elementary(d, 0, m + 1))
    return LieAlgebra.spanned_by(mats)


def diagonal(n: int) -> LieAlgebra:
    """Diagonal n x n matrices (abelian, dim n)."""
    n = check_int("n", n, 1, MAX_SIZE)
    return LieAlgebra.spanned_by([elementary(n, i, i) for i in range(n)])


def sl_affine(n: int) -> LieAlgebra:
    """``sl(n) ⋉ Q^n``, the Lie algebra of the special affine group: the ``(n+1) x (n+1)``
    matrices ``[[A, v], [0, 0]]`` with ``tr A = 0`` (dim ``n² - 1 + n``; Levi factor ``sl(n)``,
    solvable radical the abelian ideal ``Q^n``, perfect for n >= 2); n >= 2. Source:
    Humphreys §1.2 (the classical algebras), de Graaf (2000), Ch. 4 (a standard example of a
    Levi decomposition)."""
    n = check_int("n", n, 2, MAX_SIZE - 1)
    m = n + 1
    mats = [elementary(m, i, j) for i in range(n) for j in range(n) if i != j]
    mats += [elementary(m, i, i) - elementary(m, i + 1, i + 1) for i in range(n - 1)]
    mats += [elementary(m, i, n) for i in range(n)]
    return LieAlgebra.spanned_by(mats)

"""Exact upper bounds on the dimensions of free Lie algebras: ``dim L_m(n) ≤ n^m / m`` and
``dim N(n, T) ≤ (n/(n−1))² · n^T / T`` for every ``T ≥ 1`` and ``n ≥ 2``.

Source: Witt's formula ``dim L_m(n) = (1/m) Σ_{d|m} μ(d) n^{m/d}`` (C. Reutenauer, *Free Lie
Algebras*, Oxford 1993, Cor. 4.14; M. Lothaire, *Combinatorics on Words*, Thm 5.1.5): ``m·dim
L_m(n)`` is the number of primitive (aperiodic) words of length m over n letters (each Lyndon
word has m distinct conjugates, all primitive), so ``m·dim L_m(n) ≤ n^m``. Summing over the
degrees of the free nilpotent Lie algebra ``N(n, T) = L_1 ⊕ … ⊕ L_T``:

    dim N(n, T) ≤ Σ_{m≤T} n^m/m = (n^T/T) Σ_{j=0}^{T−1} n^{−j} T/(T−j)
                ≤ (n^T/T) Σ_{j≥0} (j+1) n^{−j} = (n/(n−1))² n^T/T,

because ``T/(T−j) ≤ j+1`` ⟺ ``j(T−j−1) ≥ 0`` for ``0 ≤ j ≤ T−1``. :func:`sum_bound_steps`
verifies the two algebraic steps with sympy; :func:`witt_bound_rows` checks the counting step
exactly (and, where the words can be enumerated, that ``m·dim L_m`` counts the primitive words);
:func:`dimension_bound_rows` checks the resulting inequality exactly on a range of T.
"""
from __future__ import annotations

import itertools
from fractions import Fraction

import sympy

from ._checks import check_int
from .free_lie import witt_dimension

__all__ = ["primitive_word_count", "witt_bound_rows", "nilpotent_dimension_bound",
           "sum_bound_steps", "dimension_bound_rows"]

#: Enumerate the words of length m over n letters only when there are at most this many.
ENUMERATION_LIMIT = 1 << 16


def primitive_word_count(n: int, m: int) -> int:
    """The number of primitive words (not a power ``u^k``, ``k ≥ 2``) of length ``m`` over ``n``
    letters, by enumeration (``n^m`` words: keep it small). ``ValueError``/``TypeError`` for
    ``n`` or ``m`` not an int ≥ 1."""
    n, m = check_int("n", n), check_int("m", m)
    return sum(1 for w in itertools.product(range(n), repeat=m)
               if all(w != w[:d] * (m // d) for d in range(1, m) if m % d == 0))


def witt_bound_rows(ns, max_m: int) -> list[dict]:
    """Per ``n`` in ``ns`` and ``1 ≤ m ≤ max_m``: ``{"n", "m", "m_dim_L_m"`` (m·Witt(n, m)),
    ``"n^m", "holds"`` (m·dim L_m ≤ n^m, exact), ``"primitive_words"`` (enumerated when
    ``n^m ≤`` :data:`ENUMERATION_LIMIT`, else None), ``"counts_primitive_words"`` (equal to
    m·dim L_m, or None)``}``."""
    max_m = check_int("max_m", max_m)
    rows = []
    for n in ns:
        n = check_int("n", n)
        for m in range(1, max_m + 1):
            md = m * witt_dimension(n, m)
            prim = primitive_word_count(n, m) if n ** m <= ENUMERATION_LIMIT else None
            rows.append({"n": n, "m": m, "m_dim_L_m": md, "n^m": n ** m, "holds": md <= n ** m,
                         "primitive_words": prim,
                         "counts_primitive_words": None if prim is None else prim == md})
    return rows


def nilpotent_dimension_bound(n: int, T: int) -> Fraction:
    """``(n/(n−1))² · n^T / T`` exactly (a Fraction): an upper bound on ``dim N(n, T)`` for every
    ``T ≥ 1`` (module docstring). ``ValueError`` for ``n < 2`` or ``T < 1``."""
    n, T = check_int("n", n, 2), check_int("T", T)
    return Fraction(n, n - 1) ** 2 * Fraction(n ** T, T)


def sum_bound_steps() -> dict[str, bool]:
    """The two algebraic steps of the bound, verified with sympy: ``"ratio_step"``:
    ``(j+1)(T−j) − T = j(T−j−1)`` identically (so ``T/(T−j) ≤ j+1`` for ``0 ≤ j ≤ T−1``);
    ``"geometric_sum"``: ``Σ_{j≥0} (j+1) n^{−j} = n²/(n−1)²`` for ``n ≥ 2``."""
    j, T = sympy.symbols("j T")
    n = sympy.symbols("n", integer=True, positive=True)
    ratio = sympy.expand((j + 1) * (T - j) - T - j * (T - j - 1)) == 0
    total = sympy.piecewise_fold(sympy.summation((j + 1) * n ** (-j), (j, 0, sympy.oo)))
    if isinstance(total, sympy.Piecewise):       # the branch of convergence, 1/n < 1 (n ≥ 2)
        total = next(e for e, cond in total.args if cond.subs(n, 2) is sympy.true)
    geometric = sympy.simplify(total - n ** 2 / (n - 1) ** 2) == 0
    return {"ratio_step": bool(ratio), "geometric_sum": bool(geometric)}


def dimension_bound_rows(ns_T: dict[int, int]) -> list[dict]:
    """Per ``n`` and ``1 ≤ T ≤ ns_T[n]``: ``{"n", "T", "dim_N"`` (Σ_{m≤T} Witt(n, m)),
    ``"bound"`` (:func:`nilpotent_dimension_bound`, as text), ``"ratio"`` (dim_N / bound, float),
    ``"holds"`` (dim_N ≤ bound, exact)``}``."""
    rows = []
    for n, Tmax in ns_T.items():
        dim = 0
        for T in range(1, check_int("T", Tmax) + 1):
            dim += witt_dimension(n, T)
            b = nilpotent_dimension_bound(n, T)
            rows.append({"n": n, "T": T, "dim_N": dim, "bound": str(b),
                         "ratio": float(dim / b), "holds": dim <= b})
    return rows

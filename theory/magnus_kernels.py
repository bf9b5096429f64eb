"""The Magnus terms of a general ``A(t)`` as exact kernels on the time simplex.

Source: W. Magnus, Comm. Pure Appl. Math. 7 (1954) 649-673; S. Blanes, F. Casas, J. A. Oteo,
J. Ros, *The Magnus expansion and some of its applications*, Phys. Rep. 470 (2009) 151-238,
arXiv:0810.5488, §2 (eqs. for Ω1-Ω4); K.-T. Chen's shuffle product of iterated integrals.

Every Magnus term is an integral over the simplex ``t ≥ t1 ≥ t2 ≥ … ≥ tm ≥ 0`` of a multilinear
non-commutative polynomial in ``A1 = A(t1), …, Am = A(tm)``:

    Ω_m(t) = ∫_{t ≥ t1 ≥ … ≥ tm ≥ 0} F_m(A1, …, Am) dt1 ⋯ dtm,

``F_m = Σ_π c_π A_{π(1)} ⋯ A_{π(m)}`` over the permutations π of ``1..m``. Such a *kernel* is
represented exactly as ``{π: Fraction}``. Two kernels give the same ``Ω_m`` for every ``A`` (of
any size, in any associative algebra) if and only if they are equal: take ``A`` a sum of ``m``
free letters supported on disjoint short intervals in decreasing order of time; the part of
``Ω_m`` linear in each letter is ``F_m`` of the letters times the interval lengths. So an exact
comparison of kernels is a certificate for the general formulas.

:func:`time_ordered_log_kernel` derives ``F_m`` from the definition ``Ω = log Y``: ``Y = Σ J_k``
with ``J_k = ∫_{simplex} A1 ⋯ Ak`` (``Y' = AY``; ``Ak ⋯ A1`` for ``Y' = YA``), and a product
``J_{k1} ⋯ J_{kr}`` of iterated integrals is the sum over the shuffles of their time variables
(ordered set partitions of the ranks ``1..m`` into blocks of sizes ``k1, …, kr``), so
``F_m = Σ_r (−1)^{r+1}/r Σ_{k1+…+kr=m} Σ_shuffles (words)``. :func:`bracket_kernel` expands a
nested commutator of ``A_i`` into its kernel. :data:`TEXTBOOK_TERMS` holds the textbook
integrands of Ω1-Ω4 (Blanes et al. 2009, §2: Ω1 = ∫A1, Ω2 = ½∫∫[A1, A2],
Ω3 = ⅙∫∫∫([A1,[A2,A3]] + [A3,[A2,A1]]), Ω4 = (1/12)∫∫∫∫([[[A1,A2],A3],A4] + [A1,[[A2,A3],A4]] +
[A1,[A2,[A3,A4]]] + [A2,[A3,[A4,A1]]])) for ``Y' = AY``; for ``Y' = YA`` every even term changes
sign.
"""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from itertools import combinations
from typing import Union

from ._checks import check_int

__all__ = ["Kernel", "Bracket", "TEXTBOOK_TERMS", "time_ordered_log_kernel", "bracket_kernel",
           "textbook_kernel"]

#: a kernel: permutation of 1..m (a word A_{π(1)}⋯A_{π(m)}) → exact coefficient
Kernel = dict[tuple[int, ...], Fraction]
#: a nested commutator of the letters 1..m: a letter (int) or a pair (left, right)
Bracket = Union[int, tuple]

#: the textbook integrands of Ω1…Ω4 for Y' = AY (Blanes et al. 2009, §2): (coefficient, brackets)
TEXTBOOK_TERMS: dict[int, tuple[Fraction, tuple[Bracket, ...]]] = {
    1: (Fraction(1), (1,)),
    2: (Fraction(1, 2), ((1, 2),)),
    3: (Fraction(1, 6), ((1, (2, 3)), (3, (2, 1)))),
    4: (Fraction(1, 12), ((((1, 2), 3), 4), (1, ((2, 3), 4)), (1, (2, (3, 4))), (2, (3, (4, 1))))),
}


def _check_convention(convention: str) -> str:
    if convention not in ("AY", "YA"):
        raise ValueError(f"convention must be 'AY' (Y' = A(t)Y) or 'YA' (Y' = Y A(t)), "
                         f"got {convention!r}")
    return convention


def _compositions(m: int):
    """The compositions of ``m`` (ordered tuples of positive ints summing to m), one per set of
    cut points in ``1..m−1``."""
    for r in range(m):
        for cuts in combinations(range(1, m), r):
            ends = (0, *cuts, m)
            yield tuple(b - a for a, b in zip(ends, ends[1:]))


def _shuffles(ranks: tuple[int, ...], sizes: tuple[int, ...]):
    """The ordered set partitions of ``ranks`` (ascending) into blocks of ``sizes``, each block
    ascending."""
    if not sizes:
        yield ()
        return
    for block in combinations(ranks, sizes[0]):
        rest = tuple(r for r in ranks if r not in block)
        for tail in _shuffles(rest, sizes[1:]):
            yield (block,) + tail


@lru_cache(maxsize=None)
def _log_kernel(m: int, convention: str) -> tuple[tuple[tuple[int, ...], Fraction], ...]:
    out: dict[tuple[int, ...], Fraction] = {}
    ranks = tuple(range(1, m + 1))
    for sizes in _compositions(m):
        r = len(sizes)
        coef = Fraction((-1) ** (r + 1), r)
        for blocks in _shuffles(ranks, sizes):
            # each J_k is A(s1)⋯A(sk) with s1 ≥ … ≥ sk (ranks ascending) for Y' = AY, reversed
            # for Y' = YA
            word = tuple(i for b in blocks for i in (b if convention == "AY" else b[::-1]))
            out[word] = out.get(word, Fraction(0)) + coef
    return tuple(sorted((w, c) for w, c in out.items() if c != 0))


def time_ordered_log_kernel(m: int, convention: str = "AY") -> Kernel:
    """The kernel ``F_m`` of the degree-``m`` part of ``log Y`` for ``Y' = A(t)Y`` (``"AY"``) or
    ``Y' = Y A(t)`` (``"YA"``), ``Y(0) = I``, from the time-ordered exponential and the shuffle
    product (module docstring): ``{permutation of 1..m: Fraction}``, zero coefficients dropped.
    ``m`` an int ≥ 1 (the cost grows like the ordered Bell number of m: meant for m ≤ 7);
    ``ValueError``/``TypeError`` otherwise, and for another convention."""
    check_int("m", m, 1)
    _check_convention(convention)
    return dict(_log_kernel(m, convention))


def _letters(b: Bracket) -> list[int]:
    return [b] if isinstance(b, int) else _letters(b[0]) + _letters(b[1])


def _expand(b: Bracket) -> dict[tuple[int, ...], int]:
    if isinstance(b, int):
        return {(b,): 1}
    left, right = _expand(b[0]), _expand(b[1])
    out: dict[tuple[int, ...], int] = {}
    for u, x in left.items():
        for v, y in right.items():
            out[u + v] = out.get(u + v, 0) + x * y
            out[v + u] = out.get(v + u, 0) - x * y
    return out


def bracket_kernel(brackets, coefficient=1) -> Kernel:
    """The kernel of ``coefficient · Σ brackets``: each bracket a nested commutator of the letters
    ``1..m``, each letter once (an int, or a pair ``(left, right)`` for ``[left, right]``).
    ``ValueError`` for a bracket that does not use each of ``1..m`` exactly once, or brackets of
    different degrees; ``TypeError`` for a node that is neither an int nor a pair."""
    out: dict[tuple[int, ...], Fraction] = {}
    degree = None
    for b in brackets:
        _check_bracket(b)
        letters = sorted(_letters(b))
        if letters != list(range(1, len(letters) + 1)):
            raise ValueError(f"bracket {b!r} must use each letter 1..m exactly once")
        if degree is not None and len(letters) != degree:
            raise ValueError(f"brackets must have one degree, got {degree} and {len(letters)}")
        degree = len(letters)
        for w, c in _expand(b).items():
            out[w] = out.get(w, Fraction(0)) + Fraction(coefficient) * c
    return {w: c for w, c in sorted(out.items()) if c != 0}


def _check_bracket(b) -> None:
    if isinstance(b, bool) or not isinstance(b, (int, tuple)) or (isinstance(b, tuple) and len(b) != 2):
        raise TypeError(f"a bracket must be an int letter or a pair (left, right), got {b!r}")
    if isinstance(b, tuple):
        _check_bracket(b[0])
        _check_bracket(b[1])


def textbook_kernel(m: int, convention: str = "AY") -> Kernel:
    """The kernel of the textbook integrand of ``Ω_m`` (:data:`TEXTBOOK_TERMS`, m = 1…4), with
    the sign ``(−1)^{m+1}`` for ``Y' = YA`` (even terms change sign). ``ValueError`` for another
    ``m`` or convention."""
    if m not in TEXTBOOK_TERMS:
        raise ValueError(f"m must be one of {sorted(TEXTBOOK_TERMS)}, got {m!r}")
    _check_convention(convention)
    coef, brackets = TEXTBOOK_TERMS[m]
    sign = 1 if convention == "AY" or m % 2 else -1
    return bracket_kernel(brackets, sign * coef)

"""Separation of words by truncated signatures, and the depth needed to realise a class.

Source: [DEPTH] G. Heo et al., *Why Depth Matters in Parallelizable Sequence Models: A Lie
Algebraic View*, arXiv:2603.05573, Proposition 3.7 and Corollary 3.6 (the nilpotentization
mechanism: a k-layer abelian model realises the free nilpotent Lie algebra ``N(n, c)`` when its
derived length is at most ``k``).

Conventions (SPEC §2): free letters ``X_1 .. X_n`` (indices ``0 .. n-1`` here); a word
``x = (x_1, ..., x_T)`` is read left action, so its product is ``e^{X_{x_T}} ⋯ e^{X_{x_1}}`` (the
later factor first). The *signature* of the word is that product in the tensor algebra
``T((X_1..X_n))``; its level ``m`` is a tensor of ``n**m`` coefficients, indexed by monomials
``X_{u_1} ⋯ X_{u_m}`` with flat index ``Σ_p u_p n^{m-1-p}`` (leftmost letter most significant).

Exactness: ``m! ·`` (level ``m``) is integral (its coefficients are sums of multinomial
coefficients), so all signatures here are int64 arrays, guarded against overflow
(``T**m < 2**62``). Because ``exp``/``log`` are mutually inverse bijections of the truncated
tensor algebra, two words have equal degree-≤c truncated *log*-signatures (the truncated
multi-factor BCH logarithm ``log(e^{X_{x_T}} ⋯ e^{X_{x_1}})``) iff their degree-≤c truncated
signatures are equal; this module decides the latter exactly.
"""
from __future__ import annotations

import math
from functools import lru_cache
import numpy as np
from seqtheory.theory._checks import check_int
from seqtheory.theory._messages import counted
from seqtheory.theory.contract import blamed_on, check_int_sequence, check_size

from .word_counts import check_word_count, word_count

__all__ = [
    "word_signature_levels",
    "all_word_signatures",
    "colliding_pair",
    "least_separating_class",
    "max_class_for_depth",
    "least_depth_for_class",
    "least_depth_for_length",
    "derived_ideal_lowest_degree_fast",
    "MAX_TENSOR_ENTRIES",
    "check_tensor_size",
]

_INT_LIMIT = 2 ** 62



def _check_overflow(T: int, c: int) -> None:
    # Sum of all level-m scaled coefficients of a length-T word is T**m (set every X_a = 1).
    if c >= 1 and T >= 2 and (c * (T.bit_length() - 1) >= 62 or T ** c >= _INT_LIMIT):
        raise ValueError(f"T**c = {T}**{c} exceeds the exact int64 range; use a smaller T or c")


def _left_shift_offset(n: int, a: int, j: int, m: int) -> int:
    """Flat-index offset of prefixing ``X_a^j`` to a level-(m-j) monomial (result level m)."""
    return a * sum(n ** (m - 1 - p) for p in range(j))


def _extend(levels: list[np.ndarray], n: int, c: int) -> list[np.ndarray]:
    """All one-letter left extensions ``e^{X_a} S`` of a batch of scaled signatures.

    ``levels[m]`` has shape ``(B, n**m)`` and holds ``m! S_m``; returns the levels of the
    ``B * n`` extended words, word ``i * n + a`` being word ``i`` followed by letter ``a``.
    """
    B = levels[0].shape[0]
    out = [np.ones((B * n, 1), dtype=np.int64)]
    for m in range(1, c + 1):
        new = np.zeros((B, n, n ** m), dtype=np.int64)
        for a in range(n):
            for j in range(0, m + 1):
                block = n ** (m - j)
                off = _left_shift_offset(n, a, j, m)
                new[:, a, off:off + block] += math.comb(m, j) * levels[m - j]
        out.append(new.reshape(B * n, n ** m))
    return out


def all_word_signatures(n: int, T: int, c: int) -> list[np.ndarray]:
    """Scaled truncated signatures of all ``n**T`` words of length ``T``.

    Returns ``levels`` with ``levels[m]`` an int64 array of shape ``(n**T, n**m)`` holding
    ``m!`` times the level-m signature, for ``m = 0 .. c``. Row ``i`` is the word whose letters
    are the base-``n`` digits of ``i``, most significant first (``x_1`` first). Built
    incrementally, sharing prefixes. Raises ``ValueError``/``TypeError`` for bad arguments or
    when the coefficients could exceed int64.
    """
    n = check_int("n", n, 1)
    T = check_int("T", T, 0)
    c = check_int("c", c, 0)
    _check_overflow(T, c)
    check_word_count(n, T)
    check_tensor_size(n, c)
    if n ** T * sum(n ** m for m in range(c + 1)) > 2 * 10 ** 8:
        raise ValueError(f"n**T * dim(T^<=c) too large for n={n}, T={T}, c={c}")
    levels = [np.ones((1, 1), dtype=np.int64)] + [np.zeros((1, n ** m), dtype=np.int64)
                                                  for m in range(1, c + 1)]
    for _ in range(T):
        levels = _extend(levels, n, c)
    return levels


#: the most coefficients a truncated signature holds (``Σ_{m<=c} n**m``)
MAX_TENSOR_ENTRIES = 10 ** 7


def check_tensor_size(n: int, c: int, names: tuple[str, str] = ("n", "c")) -> None:
    """``ValueError`` naming both arguments (``names``) when the levels ``0..c`` over ``n``
    letters hold more than :data:`MAX_TENSOR_ENTRIES` coefficients (counted before any level is
    allocated)."""
    check_size(", ".join(names), (n, c), word_count(n, c, MAX_TENSOR_ENTRIES, upto=True) + 1,
               MAX_TENSOR_ENTRIES, "MAX_TENSOR_ENTRIES", f"tensor coefficients over {counted(n, 'letter')}")


def word_signature_levels(word, n: int, c: int) -> list[np.ndarray]:
    """Scaled truncated signature of one word: ``[m! S_m for m in 0..c]`` (int64 vectors).

    ``word``: sequence of ints in ``[0, n)`` (``x_1`` first). The product is
    ``e^{X_{x_T}} ⋯ e^{X_{x_1}}`` (SPEC §2). ``ValueError`` beyond the int64 range or above
    :data:`MAX_TENSOR_ENTRIES` coefficients.
    """
    n = check_int("n", n, 1)
    c = check_int("c", c, 0)
    word = check_int_sequence("word", word, 0, n - 1)  # no int() coercion: 1.5 is not letter 1
    _check_overflow(len(word), c)
    check_tensor_size(n, c)
    levels = [np.ones((1, 1), dtype=np.int64)] + [np.zeros((1, n ** m), dtype=np.int64)
                                                  for m in range(1, c + 1)]
    for a in word:
        ext = _extend(levels, n, c)
        levels = [lv[a:a + 1] for lv in ext]
    return [lv[0] for lv in levels]


def _decode_word(i: int, n: int, T: int) -> tuple[int, ...]:
    digits = []
    for _ in range(T):
        i, r = divmod(i, n)
        digits.append(r)
    return tuple(reversed(digits))


def colliding_pair(n: int, T: int, c: int) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """Two distinct words of length ``T`` over ``n`` letters with equal degree-≤c truncated
    signatures (hence equal truncated log-signatures), or ``None`` if class ``c`` separates all
    ``n**T`` words. Exact (integer comparison of whole rows). ``ValueError`` beyond
    :data:`~seqtheory.numerics.word_counts.MAX_WORDS` words or the int64 range."""
    n, T, c = check_int("n", n, 1), check_int("T", T, 0), check_int("c", c, 0)
    levels = all_word_signatures(n, T, c)
    rows = np.ascontiguousarray(np.concatenate(levels[1:], axis=1)) if c >= 1 else \
        np.zeros((n ** T, 0), dtype=np.int64)
    if rows.shape[0] <= 1:
        return None
    if rows.shape[1] == 0:
        return _decode_word(0, n, T), _decode_word(1, n, T)
    order = np.lexsort(rows.T[::-1])
    srt = rows[order]
    same = np.all(srt[1:] == srt[:-1], axis=1)
    hit = np.flatnonzero(same)
    if hit.size == 0:
        return None
    i, j = int(order[hit[0]]), int(order[hit[0] + 1])
    return _decode_word(min(i, j), n, T), _decode_word(max(i, j), n, T)


def least_separating_class(n: int, T: int) -> int:
    """The least class ``c`` such that the degree-≤c truncated log-signature
    ``log(e^{X_{x_T}} ⋯ e^{X_{x_1}})`` separates all ``n**T`` words of length ``T``.

    [DEPTH] arXiv:2603.05573, Proposition 3.7 (the separation step). Exact enumeration over all
    words with int64 signatures (see the module docstring); ``c <= T`` always: with
    ``e^{X_a} = 1 + Y_a`` (a graded, invertible change of generators) the level-≤c signature
    is equivalent to the counts of all scattered subwords of length ≤ c, and the word itself is
    the only length-T word containing it as a subword. Returns 0 when there is at most one word
    (``n == 1`` or ``T == 0``). Raises ``TypeError``/``ValueError`` for non-int or negative
    arguments, ``n < 1``, or sizes beyond exact int64 range.
    """
    n = check_int("n", n, 1)
    T = check_int("T", T, 0)
    check_word_count(n, T)
    if n ** T <= 1:
        return 0
    for c in range(1, T + 1):
        if colliding_pair(n, T, c) is None:
            return c
    raise AssertionError("class T must separate all words of length T")  # pragma: no cover


def max_class_for_depth(n: int, k: int) -> int:
    """``c_k(n)``: the largest class ``c`` with derived length of ``N(n, c)`` at most ``k``.

    Equals (lowest degree of the k-th derived ideal ``L^(k)`` of the free Lie algebra on ``n``
    letters) − 1, computed exactly by :func:`seqtheory.theory.free_lie` (no closed form is
    assumed: n = 2 gives 1, 4, 9, 20 for k = 1..4; n >= 3 gives 2^k − 1). ``k = 0`` gives 0.
    [DEPTH] arXiv:2603.05573, Corollary 3.6 / Proposition 3.7. Raises ``TypeError``/
    ``ValueError`` for non-int arguments, ``n < 2`` (``n = 1`` is abelian for every class: no
    finite answer) or ``k < 0``.
    """
    n = check_int("n", n, 1)
    k = check_int("k", k, 0)
    if n < 2:
        raise ValueError("n must be >= 2: the free Lie algebra on one letter is abelian, so "
                         "N(1, c) has derived length <= 1 for every c")
    with blamed_on("k", k):                 # a derived series beyond reach: say which k asked
        return _max_class_cached(n, k)


@lru_cache(maxsize=None)
def _max_class_cached(n: int, k: int) -> int:
    return derived_ideal_lowest_degree_fast(n, k) - 1


def derived_ideal_lowest_degree_fast(n: int, k: int) -> int:
    """Lowest degree ``d_k`` of ``L^(k)``, the k-th derived ideal of the free Lie algebra ``L`` on
    ``n >= 2`` letters (``d_0 = 1``). Raises ``ValueError`` for ``n < 2`` (on one letter
    ``L^(1) = 0`` has no lowest degree) or ``k < 0``, ``TypeError`` for non-ints.

    Recurrence: ``d_k = 2 d_{k-1}`` if ``dim L^(k-1)_{d_{k-1}} >= 2``, else ``2 d_{k-1} + 1``.
    Proof: ``L^(k)`` is graded and spanned in degree m by brackets of homogeneous elements of
    ``L^(k-1)``; in a free Lie algebra two homogeneous elements commute iff they are linearly
    dependent (Shirshov–Witt: subalgebras of free Lie algebras are free; C. Reutenauer, *Free Lie
    Algebras*, 1993, §2.1 and Thm 2.5), so degree ``2d`` is reached iff ``L^(k-1)_d`` has two
    independent elements, and degree ``2d+1`` always is, because ``L^(k-1)`` is an ideal and
    ``[x, u] ≠ 0`` lies in ``L^(k-1)_{d+1}`` for a letter x and ``u ∈ L^(k-1)_d`` (d ≥ 2).
    The one dimension needed, ``dim L^(k-1)_d``, is computed exactly by
    :func:`seqtheory.theory.free_lie.derived_ideal_dimensions` (integer ranks); the recurrence is
    cross-checked against :func:`~seqtheory.theory.free_lie.derived_ideal_lowest_degree` in the
    tests wherever the latter is affordable.
    """
    n = check_int("n", n, 1)
    k = check_int("k", k, 0)
    if n < 2:
        raise ValueError("n must be >= 2: on one letter the derived ideal L^(1) is 0")
    return _lowest_degree_cached(n, k)


@lru_cache(maxsize=None)
def _lowest_degree_cached(n: int, k: int) -> int:
    from seqtheory.theory.free_lie import derived_ideal_dimensions

    d = 1                                   # d_0; the recurrence, iterated (no recursion depth)
    for j in range(1, k + 1):
        if j == 1:
            dim = n
        else:
            dim = derived_ideal_dimensions(n, j - 1, d)[d]
            if dim == 0:  # pragma: no cover - contradicts the definition of d
                raise AssertionError("lowest component of the derived ideal is zero")
        d = 2 * d if dim >= 2 else 2 * d + 1
    return d


def least_depth_for_class(n: int, c: int) -> int:
    """Derived length of ``N(n, c)``: the least ``k`` with ``max_class_for_depth(n, k) >= c``."""
    n = check_int("n", n, 2)
    c = check_int("c", c, 0)
    k = 0
    with blamed_on("c", c):
        while max_class_for_depth(n, k) < c:
            k += 1
    return k


def least_depth_for_length(n: int, T: int) -> tuple[int, int]:
    """``(c*(T), k*(T))``: the least separating class for words of length ``T`` over ``n``
    letters and the least depth ``k*`` = derived length of ``N(n, c*(T))``."""
    c = least_separating_class(n, T)
    return c, least_depth_for_class(n, c)

"""Words over an ordered alphabet: the alphabet check, the internal encoding, Lyndon words.

Shared by :mod:`.free_lie` (the free Lie algebra: Lyndon basis, Witt's formula, free nilpotent
algebras), :mod:`.lie_poly` (Lie polynomials in Lyndon coordinates), :mod:`.bch_series` and
:mod:`.magnus_series`; this module imports none of them.

An *alphabet* is an ordered sequence of distinct one-character letters (``"xy"`` means
``x < y``). Computations run on *encoded* words: the ``i``-th letter of the alphabet is the
character ``chr(0x100 + i)``, so Python's string order is the alphabet's order whatever the
letters (:func:`encode`, :func:`decode`). The functions named ``*_encoded`` take and return
encoded words.

Sources: Lyndon words by Duval's algorithm (J.-P. Duval, Theoret. Comput. Sci. 60 (1988)
255-283); standard factorisation ``w = uv`` with ``v`` the longest proper Lyndon suffix
(C. Reutenauer, *Free Lie Algebras*, Oxford 1993, §5.1).
"""
from __future__ import annotations

import math
from functools import lru_cache

__all__ = ["check_alphabet", "encode", "decode", "lyndon_words_encoded",
           "is_lyndon_encoded", "standard_factorization_encoded", "mobius", "divisors",
           "witt_formula", "lyndon_count", "capped_multinomial", "lyndon_content_count"]


def check_alphabet(alphabet) -> tuple[str, ...]:
    """Validate an alphabet (a string or a sequence of distinct one-character strings, ordered).

    Returns the letters as a tuple. Raises ``TypeError`` for a wrong type, ``ValueError`` for an
    empty alphabet, repeated letters or letters that are not single characters."""
    if isinstance(alphabet, str):
        letters = tuple(alphabet)
    elif isinstance(alphabet, (list, tuple)):
        letters = tuple(alphabet)
        for a in letters:
            if not isinstance(a, str) or len(a) != 1:
                raise ValueError(f"alphabet: every letter must be a one-character string, got {a!r}")
    else:
        raise TypeError(f"alphabet must be a string or a sequence of letters, got {type(alphabet).__name__}")
    if not letters:
        raise ValueError("alphabet must not be empty")
    if len(set(letters)) != len(letters):
        raise ValueError(f"alphabet has repeated letters: {alphabet!r}")
    return letters


def _codec(letters: tuple[str, ...]):
    """Translation tables letter -> internal char (chr(0x100 + index), ordered like the alphabet)
    and back."""
    enc = {ord(a): chr(0x100 + i) for i, a in enumerate(letters)}
    dec = {0x100 + i: a for i, a in enumerate(letters)}
    return enc, dec


def encode(word: str, letters: tuple[str, ...]) -> str:
    """``word`` (a string over ``letters``) as an encoded word. ``TypeError`` for a non-string,
    ``ValueError`` naming the letters outside the alphabet."""
    if not isinstance(word, str):
        raise TypeError(f"word must be a string, got {type(word).__name__}")
    bad = set(word) - set(letters)
    if bad:
        raise ValueError(f"word {word!r} has letters {sorted(bad)} outside the alphabet {''.join(letters)!r}")
    enc, _ = _codec(letters)
    return word.translate(enc)


def decode(word: str, letters: tuple[str, ...]) -> str:
    """The word over ``letters`` that the encoded ``word`` stands for."""
    _, dec = _codec(letters)
    return word.translate(dec)


@lru_cache(maxsize=32)
def lyndon_words_encoded(k: int, n: int) -> tuple[tuple[str, ...], ...]:
    """The encoded Lyndon words over ``k`` letters of length ``0..n``: entry ``m`` holds those
    of length ``m`` in lexicographic order (entry 0 is empty). Duval's generation algorithm."""
    by_len: list[list[str]] = [[] for _ in range(n + 1)]
    w = [-1]
    top = k - 1
    while w:
        w[-1] += 1
        by_len[len(w)].append("".join(chr(0x100 + i) for i in w))
        m = len(w)
        while len(w) < n:
            w.append(w[len(w) - m])
        while w and w[-1] == top:
            w.pop()
    return tuple(tuple(b) for b in by_len)


def is_lyndon_encoded(w: str) -> bool:
    """True when the encoded ``w`` is a Lyndon word: non-empty and strictly smaller than each
    of its proper suffixes."""
    return bool(w) and all(w < w[i:] for i in range(1, len(w)))


def standard_factorization_encoded(w: str) -> tuple[str, str]:
    """The standard factorisation ``(u, v)`` of an encoded Lyndon word of length >= 2: ``v`` its
    lexicographically smallest proper suffix (= its longest proper Lyndon suffix)."""
    i = min(range(1, len(w)), key=lambda j: w[j:])
    return w[:i], w[i:]


# ----------------------------------------------------------------------------------------------
# counting Lyndon words (Witt's formula) without enumerating them
# ----------------------------------------------------------------------------------------------
def mobius(d: int) -> int:
    """The Möbius function μ(d) for an int d >= 1 (trial division)."""
    result, p, n = 1, 2, d
    while p * p <= n:
        if n % p == 0:
            n //= p
            if n % p == 0:
                return 0
            result = -result
        p += 1
    return -result if n > 1 else result


def divisors(m: int) -> list[int]:
    """The divisors of an int ``m >= 1``, ascending (trial division up to sqrt(m))."""
    small = [d for d in range(1, math.isqrt(m) + 1) if m % d == 0]
    return small + [m // d for d in reversed(small) if d * d != m]


def witt_formula(n: int, m: int) -> int:
    """``(1/m) Σ_{d|m} μ(d) n^{m/d}``: the number of Lyndon words of length ``m`` over ``n``
    letters (ints >= 1, not checked; the caller bounds ``n^m``)."""
    if n == 1:
        return 1 if m == 1 else 0
    total = sum(mobius(d) * n ** (m // d) for d in divisors(m))
    assert total % m == 0
    return total // m


def lyndon_count(n: int, m: int, cap: int) -> int:
    """``Σ_{d=1..m} witt_formula(n, d)`` (the Lyndon words of length <= m over n letters), or
    ``cap + 1`` as soon as the sum exceeds ``cap``: computed without enumerating and in
    O(log cap) steps however large ``m`` is (``witt(n, d) >= n^d / (2d)`` for n >= 2, d >= 4)."""
    if n == 1:
        return 1
    total, bits = 0, n.bit_length() - 1               # n >= 2^bits
    for d in range(1, m + 1):
        if d >= 4 and d * bits >= cap.bit_length() + (2 * d).bit_length():
            return cap + 1                             # n^d / (2d) > cap
        total += witt_formula(n, d)
        if total > cap:
            return cap + 1
    return total


def capped_multinomial(parts: list[int], limit: int) -> int:
    """``(Σ parts)! / Π parts_i!`` (ints >= 0, not checked), or ``limit + 1`` as soon as it
    exceeds ``limit``: a product of binomials ``C(s, e)``, each built term by term as
    ``C(s, j + 1) = C(s, j) (s - j) / (j + 1)`` up to ``j = min(e, s - e)``; since
    ``C(s, j) >= 2^j`` there, at most about ``log2(limit)`` terms per part however large the
    parts are."""
    total, s = 1, 0
    for e in parts:
        s += e
        c = 1
        for j in range(min(e, s - e)):
            c = c * (s - j) // (j + 1)
            if total * c > limit:
                return limit + 1
        total *= c
    return total


def lyndon_content_count(counts: list[int], cap: int) -> int:
    """The number of Lyndon words in which letter ``i`` occurs ``counts[i]`` times (ints >= 0,
    not checked), ``(1/n) Σ_{d | g} μ(d) M(counts / d)`` (``n = Σ counts``, ``g`` their gcd,
    ``M`` the multinomial), or ``cap + 1`` once it exceeds ``cap``, without enumerating and
    without the factorials of a large ``n``: ``M(counts/d)^d <= M(counts)`` (``d`` words of
    content ``counts/d`` concatenate to distinct words of content ``counts``), so the terms
    ``d > 1`` add up to at most ``n sqrt(M)``, and the count is at least ``M / (2n) > cap`` once
    ``M`` exceeds ``max(4n², 2n(cap + 1))``. Source: the content formula of Sage's
    ``LyndonWords(e).cardinality()``; Reutenauer, *Free Lie Algebras*, §7."""
    parts = [c for c in counts if c]
    n = sum(parts)
    if len(parts) <= 1:                       # one letter: a Lyndon word only when n = 1
        return 1 if n == 1 else 0
    limit = max(4 * n * n, 2 * n * (cap + 1))
    if capped_multinomial(parts, limit) > limit:
        return cap + 1
    g = math.gcd(*parts)
    total = sum(mobius(d) * capped_multinomial([c // d for c in parts], limit)
                for d in divisors(g))
    return min(total // n, cap + 1)

"""How many words an enumeration would visit, counted before it starts: the bound every
enumeration of words in :mod:`seqtheory.numerics` refuses to exceed.

``word_count(n, T, cap)`` is ``n**T`` (or ``Σ_{t=1..T} n**t`` with ``upto``), computed only when
it is at most ``cap`` (a huge ``T`` costs nothing: the bit length decides first), else
``cap + 1``. :func:`check_word_count` raises the contract's ``ValueError`` naming the caller's
argument (:func:`seqtheory.theory.contract.check_size`).
"""
from __future__ import annotations

from seqtheory.theory._messages import counted
from seqtheory.theory.contract import check_size

__all__ = ["MAX_WORDS", "word_count", "check_word_count"]

#: the most words an exhaustive enumeration visits (2^20: about 10 s of pure-Python work per
#: microsecond-scale step; the claims use n**T up to 3^8 = 6561 and 2^16)
MAX_WORDS = 2 ** 20


def word_count(n: int, T: int, cap: int, upto: bool = False) -> int:
    """``n**T`` words of length ``T`` over ``n`` letters (``upto``: of every length 1..T), or
    ``cap + 1`` when that exceeds ``cap`` (decided from bit lengths before any power is
    computed)."""
    if n <= 1:
        return (T if upto else 1) if n == 1 else 0
    if (n.bit_length() - 1) * T > cap.bit_length() + 1:
        return cap + 1
    total = sum(n ** t for t in range(1, T + 1)) if upto else n ** T
    return total if total <= cap else cap + 1


def check_word_count(n: int, T: int, names: tuple[str, str] = ("n", "T"), *, upto: bool = False,
                     cap: int = MAX_WORDS) -> None:
    """``ValueError`` naming both arguments (``names``: the caller's names for the letter count
    ``n`` and the length ``T``) when the enumeration of the words of length ``T`` (``upto``:
    1..T) over ``n`` letters would visit more than ``cap`` words."""
    check_size(", ".join(names), (n, T), word_count(n, T, cap, upto), cap,
               "MAX_WORDS" if cap == MAX_WORDS else f"{cap:,}",
               f"words of length {'<= ' if upto else ''}{T} over {counted(n, 'letter')}")

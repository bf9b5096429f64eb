"""A deterministic word-level vocabulary with byte fallback, for a few thousand tokens of real text.

Pre-tokenisation splits a byte string into pieces, every byte in exactly one piece: identifiers
(``[A-Za-z_][A-Za-z0-9_]*``), digit runs, runs of spaces, and any other single byte. The
vocabulary is the 256 byte values (ids 0–255) followed by the ``vocab_size − 256`` most frequent
pieces of length ≥ 2 that occur at least twice in the fitting text, ordered by decreasing count
and then by their bytes (so the same text always gives the same vocabulary). Encoding maps a piece
to its id when it is in the vocabulary and to its bytes otherwise, so ``decode(encode(b)) == b``
for every byte string ``b`` (round trip exact), and a text never seen while fitting still encodes.

Used by :class:`seqtheory.models.text.TextData` (``level="word"``) for the head-width sweep of
``head.exp.rownorm_vs_adamw.width`` (SPEC §3.2), whose statistic needs a vocabulary of a few
thousand rows.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from ._checks import check_int

__all__ = ["WordVocab", "pieces"]

_PIECE = re.compile(rb"[A-Za-z_][A-Za-z0-9_]*|[0-9]+| +|[\x00-\xff]", re.DOTALL)


def pieces(data: bytes) -> list[bytes]:
    """The pre-tokenisation of ``data`` (see the module docstring); ``b"".join`` of the result is
    ``data``. ``TypeError`` unless ``data`` is bytes."""
    if not isinstance(data, (bytes, bytearray)):
        raise TypeError(f"data must be bytes, got {type(data).__name__}")
    return _PIECE.findall(bytes(data))


@dataclass(frozen=True)
class WordVocab:
    """The vocabulary: ``words[k]`` is the piece of id ``256 + k``; ``size = 256 + len(words)``."""

    words: tuple[bytes, ...]

    @classmethod
    def fit(cls, data: bytes, vocab_size: int) -> "WordVocab":
        """The vocabulary of at most ``vocab_size`` ids fitted on ``data`` (fewer when the text
        has fewer repeated pieces). ``ValueError`` for ``vocab_size < 257``; ``TypeError`` for
        non-bytes ``data``."""
        check_int("vocab_size", vocab_size, 257)        # 256 bytes + words
        counts = Counter(p for p in pieces(data) if len(p) >= 2)
        ranked = sorted((p for p, c in counts.items() if c >= 2), key=lambda p: (-counts[p], p))
        return cls(tuple(ranked[: vocab_size - 256]))

    @property
    def size(self) -> int:
        return 256 + len(self.words)

    def encode(self, data: bytes) -> list[int]:
        """Token ids of ``data`` (ints in ``[0, size)``)."""
        index = {w: 256 + k for k, w in enumerate(self.words)}
        out: list[int] = []
        for p in pieces(data):
            k = index.get(p)
            if k is None:
                out.extend(p)
            else:
                out.append(k)
        return out

    def decode(self, ids) -> bytes:
        """The bytes of token ids ``ids``; ``ValueError`` for an id outside ``[0, size)``."""
        parts = []
        for i in ids:
            i = int(i)
            if not 0 <= i < self.size:
                raise ValueError(f"token id {i} outside [0, {self.size})")
            parts.append(bytes((i,)) if i < 256 else self.words[i - 256])
        return b"".join(parts)

"""Real text available offline: a byte- or char-level corpus with a deterministic split.

Default corpus: the Python standard library's own source files (``sysconfig.get_paths()["stdlib"]``,
top-level ``*.py`` files in sorted order) — present on every machine that runs seqtheory. A user's
corpus is a file or a folder (all regular files below it, sorted by relative path, decoded as
UTF-8 with replacement). The corpus is truncated to ``max_bytes``; its SHA-256 is recorded so a
report says exactly which text was used (stdlib sources differ between Python versions).

Split: contiguous — the first ``1 − val_fraction`` of the byte stream is training text, the rest
validation. Batches are drawn with a caller-supplied ``torch.Generator`` (deterministic).
"""
from __future__ import annotations

import hashlib
import os
import sysconfig
from dataclasses import dataclass
from pathlib import Path

import torch

from ._checks import check_int
from seqtheory.theory._messages import shown

__all__ = ["load_corpus", "TextData", "stdlib_source_files"]


def stdlib_source_files() -> list[Path]:
    """Top-level ``*.py`` files of the running interpreter's standard library, sorted by name."""
    root = Path(sysconfig.get_paths()["stdlib"])
    return sorted(p for p in root.glob("*.py") if p.is_file())


def load_corpus(source: str | os.PathLike | None = None, max_bytes: int = 2_000_000) -> bytes:
    """The corpus as bytes: ``source=None`` → stdlib sources; a file → its bytes; a folder → all
    regular files below it (sorted by relative path) concatenated. Truncated to ``max_bytes``.

    Raises ``ValueError`` for a missing path, an empty corpus or ``max_bytes < 1``.
    """
    max_bytes = check_int("max_bytes", max_bytes)
    if source is None:
        files = stdlib_source_files()
    else:
        src = Path(source)
        if src.is_file():
            files = [src]
        elif src.is_dir():
            files = sorted((p for p in src.rglob("*") if p.is_file()),
                           key=lambda p: p.relative_to(src).as_posix())
        else:
            raise ValueError(f"source {str(source)!r} is neither a file nor a folder")
    chunks, total = [], 0
    for f in files:
        if total >= max_bytes:
            break
        b = f.read_bytes()
        chunks.append(b[: max_bytes - total])
        total += len(chunks[-1])
    data = b"".join(chunks)
    if not data:
        raise ValueError(f"the corpus from {source!r} is empty")
    return data


@dataclass
class TextData:
    """Token streams for training and validation.

    ``level="byte"``: vocabulary = the 256 byte values; ``level="char"``: the corpus is decoded as
    UTF-8 (errors replaced) and the vocabulary is its sorted set of characters (``itos``);
    ``level="word"``: a :class:`~seqtheory.models.tokenizer.WordVocab` of at most ``vocab_size``
    ids (words with byte fallback) fitted on the training bytes only (the first
    ``1 − val_fraction`` of the corpus), which then encodes both splits.
    """

    train: torch.Tensor
    val: torch.Tensor
    vocab_size: int
    level: str
    sha256: str
    itos: list[str] | None = None

    @classmethod
    def from_corpus(cls, data: bytes, level: str = "byte", val_fraction: float = 0.1,
                    vocab_size: int = 4096) -> "TextData":
        if level not in ("byte", "char", "word"):
            raise ValueError(f"level must be 'byte', 'char' or 'word', got {level!r}")
        if not 0.0 < val_fraction < 1.0:
            raise ValueError(f"val_fraction must be in (0, 1), got {shown(val_fraction)}")
        sha = hashlib.sha256(data).hexdigest()
        if level == "word":
            return cls._words(data, val_fraction, vocab_size, sha)
        if level == "byte":
            ids = torch.frombuffer(bytearray(data), dtype=torch.uint8).long()
            vocab, itos = 256, None
        else:
            text = data.decode("utf-8", errors="replace")
            itos = sorted(set(text))
            stoi = {c: i for i, c in enumerate(itos)}
            ids = torch.tensor([stoi[c] for c in text], dtype=torch.long)
            vocab = len(itos)
        n_val = max(2, int(len(ids) * val_fraction))
        if len(ids) - n_val < 2:
            raise ValueError(f"corpus too small to split ({len(ids)} tokens)")
        return cls(ids[:-n_val], ids[-n_val:], vocab, level, sha, itos)

    @classmethod
    def _words(cls, data: bytes, val_fraction: float, vocab_size: int, sha: str) -> "TextData":
        from .tokenizer import WordVocab

        cut = len(data) - max(1, int(len(data) * val_fraction))
        vocab = WordVocab.fit(data[:cut], vocab_size)
        train = torch.tensor(vocab.encode(data[:cut]), dtype=torch.long)
        val = torch.tensor(vocab.encode(data[cut:]), dtype=torch.long)
        if len(train) < 2 or len(val) < 2:
            raise ValueError(f"corpus too small to split ({len(data)} bytes)")
        return cls(train, val, vocab.size, "word", sha)

    def batch(self, split: str, batch_size: int, seq_len: int, generator: torch.Generator
              ) -> tuple[torch.Tensor, torch.Tensor]:
        """Random windows ``(x, y)`` of shape ``(batch_size, seq_len)`` (``y`` = ``x`` shifted by one)."""
        batch_size = check_int("batch_size", batch_size)
        seq_len = check_int("seq_len", seq_len)
        src = self._split(split)
        if seq_len + 1 > len(src):
            raise ValueError(f"seq_len {seq_len} too long for the {split} split ({len(src)} tokens)")
        start = torch.randint(0, len(src) - seq_len - 1, (batch_size,), generator=generator)
        idx = start[:, None] + torch.arange(seq_len + 1)[None, :]
        w = src[idx]
        return w[:, :-1], w[:, 1:]

    def fixed_windows(self, split: str, n: int, seq_len: int) -> tuple[torch.Tensor, torch.Tensor]:
        """``n`` evenly spaced windows of the split (the fixed evaluation / diagnostic panel)."""
        n = check_int("n", n)
        seq_len = check_int("seq_len", seq_len)
        src = self._split(split)
        if seq_len + 1 > len(src):
            raise ValueError(f"seq_len {seq_len} too long for the {split} split ({len(src)} tokens)")
        starts = torch.linspace(0, len(src) - seq_len - 1, n).long()
        idx = starts[:, None] + torch.arange(seq_len + 1)[None, :]
        w = src[idx]
        return w[:, :-1], w[:, 1:]

    def _split(self, split: str) -> torch.Tensor:
        if split == "train":
            return self.train
        if split == "val":
            return self.val
        raise ValueError(f"split must be 'train' or 'val', got {split!r}")

"""On-disk cache for exact Lie series (BCH coefficients), versioned, checksummed, atomic.

Files live under ``cache_dir("bch")`` (``$SEQTHEORY_CACHE_DIR/bch``, see :mod:`._io`) and are named
``{name}.v{FORMAT_VERSION}.json``. A file holds a header (format, version, name, alphabet,
degree, number of terms, SHA-256 of the payload) and the payload: a list of
``[lyndon word, numerator, denominator]``. A file that cannot be parsed, has another version, or
whose checksum does not match, or whose terms are malformed (not words of length 1..degree over
the alphabet with integer numerator and positive denominator, or listed twice), is treated as
absent (the caller recomputes and overwrites it); so is an unreadable cache folder.
Writes go through :func:`._io.atomic_write_text`, so an interrupted run never leaves a truncated
file.
"""
from __future__ import annotations

import hashlib
import json
from fractions import Fraction
from pathlib import Path

from ._checks import check_int
from ._io import atomic_write_text, cache_dir

__all__ = ["FORMAT_VERSION", "cache_path", "load_series", "save_series"]

FORMAT_VERSION = 1
_FORMAT = "seqtheory-lie-series"


def cache_path(name: str, folder: str = "bch") -> Path:
    """Path of the cache file for series ``name`` (e.g. ``"classical_deg20"``)."""
    if not name or any(ch in name for ch in "/\\"):
        raise ValueError(f"name must be a plain file stem, got {name!r}")
    return cache_dir(folder) / f"{name}.v{FORMAT_VERSION}.json"


def _digest(payload: list) -> str:
    return hashlib.sha256(json.dumps(payload, separators=(",", ":")).encode()).hexdigest()


def save_series(name: str, coefficients: dict[str, Fraction], alphabet: str, degree: int,
                meta: dict | None = None, folder: str = "bch") -> Path:
    """Write ``{lyndon word: Fraction}`` atomically with header and checksum. Concurrent writers
    are safe (each write replaces the file atomically; the last one wins, and both wrote the
    same series). Raises ``OSError`` when the cache folder cannot be written."""
    degree = check_int("degree", degree)
    payload = [[w, c.numerator, c.denominator] for w, c in coefficients.items()]
    doc = {"format": _FORMAT, "version": FORMAT_VERSION, "name": name, "alphabet": alphabet,
           "degree": degree, "n_terms": len(payload), "sha256": _digest(payload),
           "meta": meta or {}, "payload": payload}
    return atomic_write_text(cache_path(name, folder), json.dumps(doc, separators=(",", ":")))


def load_series(name: str, alphabet: str, degree: int, folder: str = "bch") -> dict[str, Fraction] | None:
    """The cached coefficients, or ``None`` when the file is absent, of another format version,
    for another alphabet/degree, or corrupt (bad JSON, wrong term count or checksum)."""
    degree = check_int("degree", degree)
    try:
        path = cache_path(name, folder)
        if not path.exists():
            return None
        doc = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(doc, dict):
            return None
        if (doc.get("format") != _FORMAT or doc.get("version") != FORMAT_VERSION
                or doc.get("alphabet") != alphabet or doc.get("degree") != degree):
            return None
        payload = doc["payload"]
        if not isinstance(payload, list) or len(payload) != doc["n_terms"] \
                or _digest(payload) != doc["sha256"]:
            return None
        out: dict[str, Fraction] = {}
        letters = set(alphabet)
        for entry in payload:
            w, p, q = entry
            # structural validation: a well-formed term is a word of length 1..degree over the
            # alphabet with integer numerator and positive integer denominator, listed once
            if (not isinstance(w, str) or not 1 <= len(w) <= degree or not set(w) <= letters
                    or type(p) is not int or type(q) is not int or q <= 0 or w in out):
                return None
            out[w] = Fraction(p, q)
        return out
    except (ValueError, KeyError, TypeError, OSError, ZeroDivisionError, RecursionError):
        return None

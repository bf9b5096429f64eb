"""Progress of a ``seqtheory verify`` run: the claim counter and the estimate of the time left."""
from __future__ import annotations

from typing import Iterable, Mapping

__all__ = ["estimate_remaining", "format_duration"]


def estimate_remaining(remaining: Iterable[str], recorded: Mapping[str, float],
                       finished: Iterable[float]) -> float | None:
    """Seconds the ``remaining`` claim ids should take: each claim's time recorded by an earlier
    report (``recorded``, id → seconds) when there is one, else the average time of the claims
    ``finished`` in this run, else the average recorded time. ``None`` when nothing is known."""
    remaining = list(remaining)
    finished = list(finished)
    if not remaining:
        return 0.0
    pool = finished or list(recorded.values())
    if not pool and not any(r in recorded for r in remaining):
        return None
    mean = sum(pool) / len(pool) if pool else 0.0
    return float(sum(recorded.get(r, mean) for r in remaining))


def format_duration(seconds: float | None) -> str:
    """``"1:05:09"``, ``"4:10"``, ``"0:07"``; ``"?"`` for ``None``."""
    if seconds is None:
        return "?"
    s = int(round(seconds))
    h, rest = divmod(s, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


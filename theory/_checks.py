"""The one check of integer arguments (sizes, blocks, budgets, counts, degrees, seeds) shared by
:mod:`seqtheory.theory`, :mod:`seqtheory.numerics` and :mod:`seqtheory.models`.

``check_int(name, value, minimum, maximum)`` accepts a Python or numpy integer (never a bool)
within ``[minimum, maximum]`` and returns it as a Python ``int``; otherwise it raises an error
naming the argument: :class:`IntArgumentTypeError` (a ``TypeError`` and, so that configuration
readers which report every bad value as a ``ValueError`` keep doing so, also a ``ValueError``) for
a non-integer, ``ValueError`` for an integer out of range.
"""
from __future__ import annotations

from numbers import Integral
from typing import Any

from ._messages import shown

__all__ = ["IntArgumentTypeError", "check_int", "check_optional_int"]


class IntArgumentTypeError(TypeError, ValueError):
    """An integer argument that is not an integer (a float, a bool, a string, ...)."""


def _range(minimum: int | None, maximum: int | None) -> str:
    if maximum is None:
        return f">= {minimum}"
    if minimum is None:
        return f"<= {maximum}"
    return f"in {minimum}..{maximum}"


def check_int(name: str, value: Any, minimum: int | None = 1, maximum: int | None = None) -> int:
    """``value`` as a Python ``int`` if it is an integer (not a bool) in ``[minimum, maximum]``
    (``None``: unbounded on that side). Raises :class:`IntArgumentTypeError` (a ``TypeError``)
    for a non-integer and ``ValueError`` for an integer out of range, each naming ``name``."""
    if isinstance(value, bool) or not isinstance(value, Integral):
        raise IntArgumentTypeError(f"{name} must be an int, got {type(value).__name__} {shown(value)}")
    v = int(value)
    if (minimum is not None and v < minimum) or (maximum is not None and v > maximum):
        raise ValueError(f"{name} must be {_range(minimum, maximum)}, got {v}")
    return v


def check_optional_int(name: str, value: Any, minimum: int | None = 1,
                       maximum: int | None = None) -> int | None:
    """:func:`check_int`, with ``None`` passed through."""
    return None if value is None else check_int(name, value, minimum, maximum)

"""Argument checks shared by the configuration dataclasses of :mod:`seqtheory.models`."""
from __future__ import annotations

from typing import Any, Iterable

from seqtheory.theory._messages import shown

__all__ = ["check_int", "check_int_fields"]


def check_int(name: str, value: Any, least: int = 1) -> None:
    """``ValueError`` naming ``name`` unless ``value`` is an int (not a bool) ``>= least``."""
    if not isinstance(value, int) or isinstance(value, bool) or value < least:
        want = {1: "a positive int", 0: "a non-negative int"}.get(least, f"an int >= {least}")
        raise ValueError(f"{name} must be {want}, got {shown(value)}")


def check_int_fields(obj: Any, names: Iterable[str], least: int = 1) -> None:
    """:func:`check_int` on each attribute ``names`` of ``obj``."""
    for name in names:
        check_int(name, getattr(obj, name), least)

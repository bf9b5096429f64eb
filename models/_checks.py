"""Argument checks shared by the configuration dataclasses of :mod:`seqtheory.models` (the
integer check itself is :func:`seqtheory.theory._checks.check_int`)."""
from __future__ import annotations

from typing import Any, Iterable

from seqtheory.theory._checks import check_int, check_optional_int

__all__ = ["check_int", "check_int_fields", "check_optional_int"]


def check_int_fields(obj: Any, names: Iterable[str], least: int = 1) -> None:
    """:func:`check_int` on each attribute ``names`` of ``obj``."""
    for name in names:
        check_int(name, getattr(obj, name), least)

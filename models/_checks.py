"""Argument checks shared by the configuration dataclasses of :mod:`seqtheory.models` (the
checks themselves are :func:`seqtheory.theory._checks.check_int` and
:func:`~seqtheory.theory._checks.check_real`)."""
from __future__ import annotations

from typing import Any, Iterable

from seqtheory.theory._checks import check_int, check_optional_int, check_real
from seqtheory.theory.contract import check_bool

__all__ = ["check_bool_fields", "check_int", "check_int_fields", "check_optional_int", "check_real",
           "check_real_field"]


def check_int_fields(obj: Any, names: Iterable[str], least: int = 1, *,
                     optional: bool = False) -> None:
    """:func:`check_int` on each attribute ``names`` of the (possibly frozen) dataclass ``obj``;
    any other integer there (a numpy integer, sympy ``Integer``, ...) is replaced by the Python
    ``int`` it holds."""
    for name in names:
        value = getattr(obj, name)
        if optional and value is None:
            continue
        number = check_int(name, value, least)
        if type(value) is not int:
            object.__setattr__(obj, name, number)


def check_real_field(obj: Any, name: str, minimum: float | None = None, **bounds: Any) -> None:
    """:func:`check_real` on the attribute ``name`` of the (possibly frozen) dataclass ``obj``;
    a number of another type there (a numpy scalar, ``Fraction``, ``Decimal``, ``mpf``) is
    replaced by the float :func:`check_real` gives (``np.float32(3e-3)`` by
    ``float(np.float32(3e-3))``), so that the configuration reads, compares and serialises as
    plain numbers. ``int`` / ``float`` values are kept as given."""
    value = getattr(obj, name)
    number = check_real(name, value, minimum, **bounds)
    if type(value) not in (int, float):
        object.__setattr__(obj, name, number)


def check_bool_fields(obj: Any, names: Iterable[str]) -> None:
    """Each attribute ``names`` of the dataclass ``obj`` must be a ``bool`` (a numpy bool is
    replaced by the Python bool it holds); ``TypeError`` naming the field otherwise, so that
    ``1`` or ``"False"`` (truthy) never stand for a flag and never key a run apart."""
    for name in names:
        value = getattr(obj, name)
        flag = check_bool(name, value)
        if type(value) is not bool:
            object.__setattr__(obj, name, flag)

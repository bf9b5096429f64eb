"""The checks of integer and real number arguments shared by :mod:`seqtheory.theory`,
:mod:`seqtheory.numerics` and :mod:`seqtheory.models`.

``check_int(name, value, minimum, maximum)`` accepts a Python or numpy integer (never a bool)
within ``[minimum, maximum]`` and returns it as a Python ``int``; otherwise it raises an error
naming the argument: :class:`IntArgumentTypeError` (a ``TypeError`` and, so that configuration
readers which report every bad value as a ``ValueError`` keep doing so, also a ``ValueError``) for
a non-integer, ``ValueError`` for an integer out of range.

``check_real(name, value, ...)`` does the same for a real number argument (rates, tolerances,
times, scales): any real number (``int``, ``float``, ``Fraction``, a numpy integer or floating
scalar such as ``np.float32(3e-3)``; never a bool) within the stated bounds is accepted and
returned as a Python ``float``; :class:`RealArgumentTypeError` (a ``TypeError`` and a
``ValueError``) names the argument and what is expected for a non-number, ``ValueError`` the
bound for a number outside it (NaN and ±inf too; with ``finite=False`` they pass, for callers
that handle a non-finite value themselves).
"""
from __future__ import annotations

import math
from numbers import Integral, Real
from typing import Any

from ._messages import shown

__all__ = ["IntArgumentTypeError", "RealArgumentTypeError", "check_int", "check_optional_int",
           "check_real"]


class IntArgumentTypeError(TypeError, ValueError):
    """An integer argument that is not an integer (a float, a bool, a string, ...)."""


class RealArgumentTypeError(TypeError, ValueError):
    """A real number argument that is not a number (a bool, a string, an array, ...)."""


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


def check_real(name: str, value: Any, minimum: float | None = None, maximum: float | None = None,
               *, above: bool = False, below: bool = False, finite: bool = True) -> float:
    """``value`` as a Python ``float`` if it is a real number (``int``, ``float``, ``Fraction``,
    numpy integer or floating scalar; not a bool) ``>= minimum`` (``> minimum`` with ``above``)
    and ``<= maximum`` (``< maximum`` with ``below``); ``None``: unbounded on that side; with
    ``finite`` (the default), NaN and ±inf are refused, else they pass. Raises :class:`RealArgumentTypeError` (a
    ``TypeError``) for a non-number and ``ValueError`` otherwise, each naming ``name`` and what
    is expected."""
    lo = None if minimum is None else f"{'>' if above else '>='} {minimum:g}"
    hi = None if maximum is None else f"{'<' if below else '<='} {maximum:g}"
    bounds = " and ".join(b for b in (lo, hi) if b)
    expected = f"a {'finite ' if finite else ''}real number{' ' + bounds if bounds else ''}"
    if isinstance(value, bool) or not isinstance(value, Real):
        raise RealArgumentTypeError(f"{name} must be {expected} (int, float or a numpy scalar), "
                                    f"got {type(value).__name__} {shown(value)}")
    try:
        v = float(value)
    except OverflowError:                 # an int beyond a float
        v = math.inf if value > 0 else -math.inf
    if (finite and not math.isfinite(v)) or (not math.isnan(v) and (
            (minimum is not None and (v <= minimum if above else v < minimum)) or
            (maximum is not None and (v >= maximum if below else v > maximum)))):
        raise ValueError(f"{name} must be {expected}, got {shown(value)}")
    return v

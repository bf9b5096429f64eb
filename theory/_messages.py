"""How error messages show a value: as the user would type it.

``shown(v)`` is ``repr(v)`` except that numbers appear as plain numbers: a numpy scalar as the
Python number it holds (``0.0``, not ``np.float64(0.0)``), a ``Fraction`` as ``1/3``, an mpmath
number by its decimal digits (``0.5``, not ``mpf('0.5')``), a numpy array as a nested list; the
same inside tuples, lists and dicts. A string keeps its quotes (``'log'``), so a message still
shows that a name was a string. numpy and mpmath are not imported by this module.

``counted(n, noun)`` is a count beside its noun, in agreement: ``1 run``, ``2 runs``, ``0 runs``
(every terminal and report line that prints a count with a noun goes through it).
"""
from __future__ import annotations

from fractions import Fraction
from typing import Any

__all__ = ["counted", "shown"]


def shown(v: Any) -> str:
    """``v`` for an error message: plain numbers (see the module docstring), else ``repr(v)``; a
    number too long to print (Python refuses ints of more than 4300 digits) by its size."""
    try:
        return _shown(v)
    except ValueError:                    # "Exceeds the limit (4300 digits) for integer string ..."
        return f"<{type(v).__name__} of more than 4300 digits>"


def _shown(v: Any) -> str:
    if isinstance(v, tuple):
        inner = ", ".join(shown(x) for x in v)
        return f"({inner},)" if len(v) == 1 else f"({inner})"
    if isinstance(v, list):
        return "[" + ", ".join(shown(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{shown(k)}: {shown(x)}" for k, x in v.items()) + "}"
    if isinstance(v, Fraction):
        return str(v)
    module = type(v).__module__.split(".")[0]
    if module == "numpy":
        plain = v.tolist() if hasattr(v, "tolist") else v
        return str(v) if type(plain) is type(v) else shown(plain)   # a longdouble stays itself
    if module == "mpmath":
        return str(v)
    return repr(v)


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """``"{n} {noun}"`` with the noun in agreement with the count: singular for exactly 1,
    else ``plural`` (default ``noun + "s"``): ``counted(1, "claim")`` is ``"1 claim"``,
    ``counted(3, "process", "processes")`` is ``"3 processes"``. ``n`` is printed with
    ``str``; a count that needs formatting (``f"{n:,}"``) goes beside :func:`plural_of`."""
    return f"{n} {plural_of(n, noun, plural)}"


def plural_of(n: int, noun: str, plural: str | None = None) -> str:
    """``noun`` when ``n == 1``, else ``plural`` (default ``noun + "s"``)."""
    return noun if n == 1 else (plural if plural is not None else noun + "s")

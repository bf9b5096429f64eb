"""Values as the report, the terminal and the notebooks show them: numbers to a few significant
digits (``n/a`` for one that could not be computed), and containers in words, never as Python
reprs (a dict ``{'a': 1, 'b': 2}`` reads ``a: 1, b: 2``; a list of pairs ``[(0.1, 7), (0.05,
7)]`` reads ``(0.1, 7), (0.05, 7)``). Claim modules call :func:`plain` when they put a container
into a key figure, a note or a control's reason; report.md's tables and evidence lines go through
it too."""
from __future__ import annotations

import re
from typing import Any

__all__ = ["format_stat", "format_number", "plain", "last_line", "RAW_CONTAINER"]

#: a Python repr of a dict or of a list of tuples inside a text (``{'a': 1}``, ``[('x', 1)]``,
#: ``{1: 2}``, ``['H3']``, ``'a': 1``): what :func:`plain` avoids (tests/test_plain_text.py greps reports with it)
RAW_CONTAINER = re.compile(r"\{'|\{\d+: |\[\(|\['|'[^']*': ")


def format_stat(v: Any, spec: str = ".3g", why: str | None = None) -> str:
    """A statistic as key figures, notes and report.md show it: ``format(v, spec)`` for a number,
    and ``n/a`` for one that could not be computed (``None``, NaN, ``"nan"``), followed by
    `` (why)`` when the caller gives the reason (``format_stat(tau, ".2f", "every run reached
    the same length")``). A key figure never shows ``nan``."""
    if v is None or v == "nan" or v != v:                     # v != v: NaN of any number type
        return "n/a" + (f" ({why})" if why else "")
    return format(v, spec)


_BARE_NAN = re.compile(r"(?<![\w.])[-+]?nan(?!\w)", re.IGNORECASE)


def _no_bare_nan(text: str) -> str:
    """``text`` with every bare ``nan`` (a statistic formatted without :func:`format_stat`) as
    ``n/a``: the last guard that a key figure or note never shows ``nan``."""
    return _BARE_NAN.sub("n/a", text)


def format_number(v: Any, digits: int = 4) -> str:
    """A value as report.md shows it: floats to ``digits`` significant digits (``0.3333``,
    ``1.235e-13``), NaN (``nan`` / ``"nan"``: e.g. the standard error of a single seed) as
    ``n/a`` (:func:`format_stat`), everything else as ``str``."""
    if isinstance(v, float) or v == "nan":
        return format_stat(v, f".{digits}g")
    return str(v)


def plain(v: Any, digits: int = 4) -> str:
    """``v`` in words: a float to ``digits`` significant digits (:func:`format_number`), a dict
    as ``key: value`` pairs joined by ``, `` (``; `` when a value holds commas), a list, set or
    tuple as its items joined by ``, `` (one inside a container in parentheses), ``None`` as
    ``none``, a string as it is (``"nan"``, report.json's NaN, as ``n/a``); nested containers
    likewise."""
    return _plain(v, digits, top=True)


def _plain(v: Any, digits: int, top: bool) -> str:
    if v is None:
        return "none"
    if isinstance(v, str):
        return "n/a" if v == "nan" else v      # report.json writes NaN as "nan"
    if isinstance(v, bool):
        return str(v)
    if isinstance(v, dict):
        items = [f"{_plain(k, digits, False)}: {_plain(x, digits, False)}" for k, x in v.items()]
        return ("; " if any(", " in i for i in items) else ", ").join(items) or "none"
    if isinstance(v, (list, tuple, set, frozenset)):
        seq = sorted(v, key=repr) if isinstance(v, (set, frozenset)) else v
        text = ", ".join(_plain(x, digits, False) for x in seq)
        return text if top else f"({text})"
    return format_number(v, digits)


def last_line(text: str) -> str:
    """The last non-empty line of ``text`` (an error's message after its traceback)."""
    return text.strip().splitlines()[-1] if text.strip() else text

"""argparse ``type=`` converters shared by the subcommands: each refuses a bad value with an
``ArgumentTypeError`` that says what was expected (argparse then names the option)."""
from __future__ import annotations

import argparse
import math
from typing import Callable

__all__ = ["int_at_least", "number_above", "number_at_least", "finite_number",
           "add_results_option"]


def int_at_least(minimum: int) -> Callable[[str], int]:
    """Converter to an int ``>= minimum``."""
    def convert(s: str) -> int:
        try:
            v = int(s)
        except ValueError:
            v = None
        if v is None or v < minimum:
            raise argparse.ArgumentTypeError(f"must be an integer >= {minimum}, got {s!r}")
        return v
    return convert


def _number(s: str, ok: Callable[[float], bool], what: str) -> float:
    try:
        v = float(s)
    except ValueError:
        v = math.nan
    if not (math.isfinite(v) and ok(v)):
        raise argparse.ArgumentTypeError(f"must be {what}, got {s!r}")
    return v


def number_above(bound: float) -> Callable[[str], float]:
    """Converter to a finite float ``> bound``."""
    return lambda s: _number(s, lambda v: v > bound, f"a finite number > {bound:g}")


def number_at_least(bound: float) -> Callable[[str], float]:
    """Converter to a finite float ``>= bound``."""
    return lambda s: _number(s, lambda v: v >= bound, f"a finite number >= {bound:g}")


def finite_number(s: str) -> float:
    """Converter to a finite float."""
    return _number(s, lambda v: True, "a finite number")


def add_results_option(p: argparse.ArgumentParser, what: str = "results store folder") -> None:
    """The ``--results`` option of a subcommand: the results store, by default the one store
    that every command and the notebooks share
    (:func:`~seqtheory.models.store.default_results_dir`)."""
    from seqtheory.models.store import default_results_dir

    default = default_results_dir()
    p.add_argument("--results", default=str(default),
                   help=f"{what}; by default the one store every command and the notebooks "
                        f"share, $SEQTHEORY_CACHE_DIR/results when that is set (default {default})")

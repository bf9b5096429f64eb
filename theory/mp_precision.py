"""mpmath's working precision, set per computation and never shared between threads.

mpmath keeps one precision for the whole process (``mpmath.mp.dps``); ``mpmath.workdps`` sets it
and restores it on exit, but two threads inside ``workdps`` at once read each other's precision
(a result computed at the wrong precision) and restore each other's value (``mp.dps`` left
changed after both finish). :func:`working_dps` is ``workdps`` inside one process-wide
re-entrant lock: the package's arbitrary-precision computations run one at a time per process,
each at its own precision, nested calls in one thread keep working, and ``mpmath.mp`` is as the
caller left it afterwards. (Code outside seqtheory that changes ``mpmath.mp`` in another thread
while a computation runs is not covered: mpmath offers no per-thread context.)
"""
from __future__ import annotations

import contextlib
import math
import threading
from fractions import Fraction
from typing import Any, Iterator

import mpmath

from .contract import check_int

__all__ = ["working_dps", "resolving_dps", "MAX_DPS"]

#: the most decimal digits a computation runs at (matrix exponentials and logarithms at 10^4
#: digits take minutes; beyond, a request cannot finish)
MAX_DPS = 10_000

_LOCK = threading.RLock()


@contextlib.contextmanager
def working_dps(dps: int) -> Iterator[int]:
    """Hold the package's mpmath lock and ``mpmath.workdps(dps)`` for the ``with`` block; yields
    ``dps`` as a Python int in ``1..MAX_DPS`` (``ValueError`` / ``TypeError`` naming ``dps``
    otherwise)."""
    dps = check_int("dps", dps, 1, MAX_DPS)
    with _LOCK, mpmath.workdps(dps):
        yield dps


def _log10(x: Any) -> float:
    """``log10 x`` of a positive real (float, ``Fraction``, ``mpf``) without rounding ``x`` to a
    float first (a tiny ``Fraction`` or ``mpf`` underflows to 0 there)."""
    if isinstance(x, Fraction):
        return math.log10(x.numerator) - math.log10(x.denominator)
    if type(x).__module__.startswith("mpmath"):
        return float(mpmath.log10(x))
    return math.log10(x)


def resolving_dps(scale: Any, order: int, eps: Any, spare: int) -> int:
    """The decimal digits at which a quantity of size ``≈ scale · eps^order``, formed as the
    difference of terms of size ≈ 1 (an error of a series truncated after order ``order − 1``),
    keeps ``spare`` significant digits: ``⌈−log10 scale − order · log10 eps⌉ + spare``, computed
    in logs (the product underflows float64 for small ε and large orders). ``scale`` at or below
    1e-300 (0 included) counts as 1e-300; ``eps`` > 0 (float, ``Fraction`` or ``mpf``). The
    caller checks the result against :data:`MAX_DPS`."""
    log_scale = math.log10(scale) if scale > 1e-300 else -300.0
    return int(math.ceil(-log_scale - order * _log10(eps))) + spare

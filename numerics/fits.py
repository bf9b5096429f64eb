"""Error-scaling fits: log-log slopes with confidence intervals, and ε-grids that keep the error
far above the working precision.

Typical use (local error of a truncated series, expected ``Θ(ε^{p})``)::

    eps = choose_eps_grid(err_fn, expected_order=p, eps_max=0.1, floor=mpmath.mpf(10) ** -45)
    fit = fit_loglog_slope(eps, [err_fn(e) for e in eps])
    fit.slope, fit.ci_low, fit.ci_high      # OLS slope of log(err) on log(eps), t-based CI
    fit.contains(p)                         # is p inside the CI?

Both functions accept any positive real numbers: floats, mpmath numbers, and exact ones (int,
Fraction, Decimal), whose logarithms are taken without a detour through float64, so errors far
below 1e-300 (or above 1e308) are fine; they return plain floats.

Statistics: ordinary least squares of ``y = log err`` on ``x = log ε``; the slope's standard
error is ``sqrt(s² / Σ(x - x̄)²)`` with ``s²`` the residual variance on ``n - 2`` degrees of
freedom, and the CI is ``slope ± t_{1-α/2, n-2} · se`` (Student t quantile from scipy). A fit on
an exact power law has zero residual and a zero-width CI; use ``min_halfwidth`` to state a
resolution below which slopes are considered equal.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import Decimal
from numbers import Rational
from typing import Callable, Sequence

import numpy as np

from seqtheory.theory._checks import check_int, check_real
from seqtheory.theory.contract import as_list, check_positive, is_positive_real
from seqtheory.theory._messages import shown

__all__ = ["SlopeFit", "fit_loglog_slope", "choose_eps_grid"]


@dataclass(frozen=True)
class SlopeFit:
    """Result of :func:`fit_loglog_slope`. Iterable as ``(slope, ci_low, ci_high, intercept,
    stderr, r2, n)``."""

    slope: float
    ci_low: float
    ci_high: float
    intercept: float
    stderr: float
    r2: float
    n: int
    confidence: float

    def __iter__(self):
        return iter((self.slope, self.ci_low, self.ci_high, self.intercept, self.stderr, self.r2, self.n))

    def contains(self, value: float, min_halfwidth: float = 0.0) -> bool:
        """True when ``value`` lies in the CI widened to at least ``± min_halfwidth``
        (``value`` finite, ``min_halfwidth >= 0``: :func:`~seqtheory.theory.contract.check_real`)."""
        value = check_real("value", value)
        min_halfwidth = check_real("min_halfwidth", min_halfwidth, 0)
        lo = min(self.ci_low, self.slope - min_halfwidth)
        hi = max(self.ci_high, self.slope + min_halfwidth)
        return lo <= value <= hi

    def as_dict(self) -> dict:
        return {"slope": self.slope, "ci_low": self.ci_low, "ci_high": self.ci_high,
                "intercept": self.intercept, "stderr": self.stderr, "r2": self.r2, "n": self.n,
                "confidence": self.confidence}


def _log(v) -> float:
    """``log |v|`` as a float, taken exactly for exact numbers (``int``, ``Fraction``, numpy
    integers: ``log`` of numerator and denominator, which ``math.log`` takes for ints of any
    size) and in mpmath for mpmath numbers, so that values far outside the float64 range
    (``Fraction(1, 10**400)``, ``10**400``) have their true logarithm."""
    if isinstance(v, Rational):
        q = abs(v)
        return math.log(q.numerator) - math.log(q.denominator)
    try:
        import mpmath

        if isinstance(v, (mpmath.mpf, mpmath.mpc)):
            return float(mpmath.log(abs(v)))
    except ImportError:  # pragma: no cover
        pass
    if isinstance(v, Decimal):
        return float(abs(v).ln())
    return math.log(abs(float(v)))


def fit_loglog_slope(eps: Sequence, err: Sequence, confidence: float = 0.95) -> SlopeFit:
    """OLS fit ``log err = slope · log ε + intercept`` with a Student-t confidence interval.

    ``eps``, ``err``: equal-length sequences of positive finite numbers (float or mpmath), at
    least 3 points, at least two distinct ε. Returns a :class:`SlopeFit` (floats).
    Raises ``ValueError`` for mismatched lengths, fewer than 3 points, non-positive or
    non-finite values, a degenerate ε-grid or a confidence outside (0, 1)."""
    from scipy import stats

    eps = as_list("eps", eps, "a sequence of positive numbers")
    err = as_list("err", err, "a sequence of positive numbers")
    confidence = check_real("confidence", confidence, 0, 1, above=True, below=True)
    if len(eps) != len(err):
        raise ValueError(f"eps and err must have the same length, got {len(eps)} and {len(err)}")
    if len(eps) < 3:
        raise ValueError(f"eps and err need at least 3 points for a slope with a CI, got {len(eps)}")
    for name, seq in (("eps", eps), ("err", err)):
        for v in seq:
            check_positive(name, v, "{name} values must be positive and finite, got {value}")
    x = [_log(e) for e in eps]
    y = [_log(e) for e in err]
    n = len(x)
    mx, my = sum(x) / n, sum(y) / n
    sxx = sum((xi - mx) ** 2 for xi in x)
    if sxx == 0:
        raise ValueError("eps values must not all be equal")
    sxy = sum((xi - mx) * (yi - my) for xi, yi in zip(x, y))
    slope = sxy / sxx
    intercept = my - slope * mx
    resid = [yi - (intercept + slope * xi) for xi, yi in zip(x, y)]
    sse = sum(r * r for r in resid)
    syy = sum((yi - my) ** 2 for yi in y)
    dof = n - 2
    stderr = math.sqrt(sse / dof / sxx) if dof > 0 else float("inf")
    q = float(stats.t.ppf(0.5 + confidence / 2, dof))
    r2 = 1 - sse / syy if syy > 0 else 1.0
    return SlopeFit(slope, slope - q * stderr, slope + q * stderr, intercept, stderr, r2, n, confidence)


#: the most points :func:`choose_eps_grid` places (each is one call of ``err_fn``)
MAX_GRID_POINTS = 1000


def choose_eps_grid(err_fn: Callable, expected_order: float, *, eps_max: float = 0.1, n: int = 8,
                    floor=None, margin: float = 1e6, span: float = 100.0, min_eps: float = 1e-12) -> list:
    """An ε-grid (geometric, decreasing, ``n`` points) on which ``err_fn(ε)`` stays above
    ``margin × floor`` (``floor`` = the working precision, e.g. ``mpmath.mpf(10)**-mp.dps``;
    default: ``2**-52`` for floats).

    Starts at ``eps_max`` and goes down by at most a factor ``span`` in total; the lower end is
    raised so that the *predicted* error ``err(eps_max) · (ε/eps_max)^expected_order`` stays above
    ``margin × floor``, then the whole grid is checked with ``err_fn`` and shortened if any point
    falls below the threshold (an error that rounds to exactly 0 counts as below it). Raises
    ``ValueError`` if fewer than 3 usable points remain (the precision is too low for the order:
    raise the working precision or ``eps_max``), for non-positive / non-finite parameters, or
    when ``err_fn`` returns a negative, NaN or infinite value (or 0 at ``eps_max``);
    ``TypeError`` for a non-int ``n``."""
    n = check_int("n", n, 3, MAX_GRID_POINTS)
    eps_max, expected_order, margin, min_eps = (
        check_positive(name, v) for name, v in (("eps_max", eps_max), ("expected_order", expected_order),
                                                ("margin", margin), ("min_eps", min_eps)))
    span = check_positive("span", span, "span must be a finite number > 1, got {value}")
    if not span > 1:
        raise ValueError(f"span must be a finite number > 1, got {shown(span)}")
    floor = check_positive("floor", 2.0 ** -52 if floor is None else floor)

    def err_at(e, zero_ok=False):
        v = err_fn(e)
        if zero_ok and not isinstance(v, (bool, np.bool_)) and v == 0:
            return None  # rounded to exactly 0: below any precision floor
        if not is_positive_real(v):
            raise ValueError(f"err_fn({shown(e)}) = {shown(v)}: errors must be positive finite "
                             f"numbers (an exact 0 or NaN cannot be placed on a log-log grid)")
        return v

    thresh = _log(floor) + _log(margin)
    top = _log(err_at(eps_max))
    if top <= thresh:
        raise ValueError(f"err_fn(eps_max) is already below margin * floor at eps_max={eps_max}")
    # predicted log err at eps: top + p (log eps - log eps_max) >= thresh
    hi = _log(eps_max)
    lo_allowed = hi - (top - thresh) / float(expected_order)
    lo = max(hi - _log(span), lo_allowed, _log(min_eps))
    grid = [math.exp(hi + (lo - hi) * i / (n - 1)) for i in range(n)]
    ok = []
    for e in grid:
        v = err_at(e, zero_ok=True)
        if v is not None and _log(v) > thresh:
            ok.append(e)
        else:
            break
    if len(ok) < 3:
        raise ValueError("fewer than 3 grid points keep the error above the precision floor")
    return ok

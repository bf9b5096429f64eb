"""Success rates over seeds, with binomial confidence intervals (SPEC §3: "rates over seeds when
training is stochastic").

A trained claim decides on the number of seeds that succeed, by a rule stated before the runs
(a :class:`SeedRule`), and reports each rate with its Wilson score interval
(``scipy.stats.binomtest(k, n).proportion_ci(method="wilson")``).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterable

from seqtheory.theory._messages import shown

__all__ = ["wilson_interval", "success_rate", "rate_text", "SeedRule"]


def wilson_interval(successes: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """Wilson score interval of a binomial proportion ``successes / n``.

    ``ValueError`` unless ``0 ≤ successes ≤ n``, ``n ≥ 1`` (ints) and ``0 < confidence < 1``."""
    from scipy.stats import binomtest

    for name, v in (("successes", successes), ("n", n)):
        if not isinstance(v, int) or isinstance(v, bool):
            raise TypeError(f"{name} must be an int, got {type(v).__name__}")
    if n < 1 or not 0 <= successes <= n:
        raise ValueError(f"need 0 <= successes <= n and n >= 1, got successes={successes}, n={n}")
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must lie in (0, 1), got {shown(confidence)}")
    ci = binomtest(successes, n).proportion_ci(confidence_level=confidence, method="wilson")
    return float(ci.low), float(ci.high)


def success_rate(outcomes: Iterable[bool]) -> dict:
    """``{"successes", "seeds", "rate", "wilson95": [lo, hi]}`` of a list of per-seed outcomes
    (``ValueError`` when empty)."""
    flags = [bool(o) for o in outcomes]
    if not flags:
        raise ValueError("outcomes must not be empty")
    k, n = sum(flags), len(flags)
    return {"successes": k, "seeds": n, "rate": k / n, "wilson95": list(wilson_interval(k, n))}


def rate_text(rate: dict) -> str:
    """A :func:`success_rate` as ``"4/5 [0.38, 0.96]"``: successes / seeds and the Wilson 95%
    interval, two decimals."""
    lo, hi = rate["wilson95"]
    return f"{rate['successes']}/{rate['seeds']} [{lo:.2f}, {hi:.2f}]"


@dataclass(frozen=True)
class SeedRule:
    """A rule on success counts, stated before the runs.

    ``min_rate``: the fraction of seeds that must succeed for "succeeds" (e.g. 0.8: 4/5, 3/3);
    ``max_rate``: the largest fraction that may succeed for "fails" (0.0: none may succeed).
    """

    min_rate: float = 0.8
    max_rate: float = 0.0

    def __post_init__(self) -> None:
        if not 0 < self.min_rate <= 1 or not 0 <= self.max_rate < self.min_rate:
            raise ValueError(f"need 0 <= max_rate < min_rate <= 1, got {self}")

    def required(self, n: int) -> int:
        """Least number of successes out of ``n`` that counts as "succeeds"."""
        return math.ceil(self.min_rate * n - 1e-9)

    def succeeds(self, rate: dict) -> bool:
        return rate["successes"] >= self.required(rate["seeds"])

    def fails(self, rate: dict) -> bool:
        return rate["successes"] <= math.floor(self.max_rate * rate["seeds"] + 1e-9)

    def describe(self) -> str:
        """The rule in words: ``succeeds: ≥ 80% of seeds (e.g. 4/5, 3/3); fails: no seed
        succeeds`` (``fails: at most 20% of seeds succeed`` for a non-zero ``max_rate``)."""
        fails = ("no seed succeeds" if self.max_rate == 0
                 else f"at most {self.max_rate:.0%} of seeds succeed")
        return (f"succeeds: ≥ {self.min_rate:.0%} of seeds (e.g. {self.required(5)}/5, "
                f"{self.required(3)}/3); fails: {fails}")

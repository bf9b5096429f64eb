"""Run registered claims (and their negative controls) and collect the results."""
from __future__ import annotations

import time
import traceback
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from .registry import Claim, Context, ControlOutcome, Outcome

__all__ = ["ClaimResult", "run_claim", "run_claims", "resolve_device"]


@dataclass
class ClaimResult:
    """One claim's run: the outcome (or the crash), the control's outcome, the timings."""

    claim: Claim
    outcome: Outcome | None
    error: str | None
    seconds: float
    control: ControlOutcome | None = None
    control_error: str | None = None
    control_seconds: float | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def crashed(self) -> bool:
        return self.error is not None or self.control_error is not None

    @property
    def control_failed(self) -> bool:
        """True when a control ran and was *not* rejected (the check is broken)."""
        return self.control is not None and not self.control.rejected


def resolve_device(device: str) -> str:
    """``"auto"`` → ``"cuda"`` when torch sees a GPU, else ``"cpu"``; ``cpu``/``cuda`` pass through.

    Raises ``ValueError`` for another name, or for ``"cuda"`` without a visible GPU.
    """
    if device not in ("auto", "cpu", "cuda"):
        raise ValueError(f"device must be 'auto', 'cpu' or 'cuda', got {device!r}")
    if device == "cpu":
        return "cpu"
    try:
        import torch

        has_cuda = torch.cuda.is_available()
    except ImportError:
        has_cuda = False
    if device == "cuda" and not has_cuda:
        raise ValueError("device 'cuda' requested but torch sees no CUDA GPU")
    return "cuda" if has_cuda else "cpu"


def _timed(fn: Callable[[], Any]) -> tuple[Any, str | None, float]:
    t0 = time.perf_counter()
    try:
        value, err = fn(), None
    except Exception:  # a crashing check is reported, not propagated
        value, err = None, traceback.format_exc()
    return value, err, time.perf_counter() - t0


def run_claim(claim: Claim, ctx: Context, controls: bool = False) -> ClaimResult:
    """Run ``claim.check(ctx)`` (and its negative control when ``controls``); never raises for a
    crashing check: the traceback is stored in ``error``."""
    outcome, err, secs = _timed(lambda: claim.check(ctx))
    if outcome is not None and not isinstance(outcome, Outcome):
        outcome, err = None, f"check returned {type(outcome).__name__}, not Outcome"
    res = ClaimResult(claim, outcome, err, secs)
    if controls:
        if claim.negative_control is None:
            res.control_error = "claim has no negative control"
        else:
            ctl, cerr, csecs = _timed(lambda: claim.negative_control(ctx))
            if ctl is not None and not isinstance(ctl, ControlOutcome):
                ctl, cerr = None, f"control returned {type(ctl).__name__}, not ControlOutcome"
            res.control, res.control_error, res.control_seconds = ctl, cerr, csecs
    return res


def run_claims(claims: Iterable[Claim], ctx: Context, controls: bool = False,
               on_start: Callable[[Claim], None] | None = None,
               on_done: Callable[[ClaimResult], None] | None = None) -> list[ClaimResult]:
    """Run claims in order, calling ``on_start`` / ``on_done`` around each (progress display)."""
    results = []
    for c in claims:
        if on_start:
            on_start(c)
        r = run_claim(c, ctx, controls=controls)
        results.append(r)
        if on_done:
            on_done(r)
    return results

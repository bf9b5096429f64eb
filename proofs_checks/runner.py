"""Run registered claims (and their negative controls) and collect the results."""
from __future__ import annotations

import time
import traceback
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from .registry import Claim, Context, ControlOutcome, Outcome, recording_decisions

__all__ = ["ClaimResult", "run_claim", "run_claims", "prefetch_training", "resolve_device"]


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


def _is_bool(v: Any) -> bool:
    import numpy as np

    return isinstance(v, (bool, np.bool_))


def _field_problems(obj: Any) -> list[str]:
    """Fields of an Outcome / ControlOutcome whose type the report cannot record."""
    str_fields = ("key_figure", "notes") if isinstance(obj, Outcome) else ("variant", "reason")
    bad = [f"{f} is {type(getattr(obj, f)).__name__}, not str" for f in str_fields
           if not isinstance(getattr(obj, f), str)]
    if not isinstance(obj.evidence, dict):
        bad.append(f"evidence is {type(obj.evidence).__name__}, not dict")
    if isinstance(obj, Outcome):
        if not (isinstance(obj.tables, dict) and all(
                isinstance(rows, list) and all(isinstance(r, dict) for r in rows)
                for rows in obj.tables.values())):
            bad.append("tables is not a dict of lists of row dicts")
        if not (isinstance(obj.figures, list) and all(isinstance(f, str) for f in obj.figures)):
            bad.append("figures is not a list of str")
    elif not _is_bool(obj.rejected):
        bad.append(f"rejected is {type(obj.rejected).__name__}, not bool")
    return bad


def _checked(value: Any, err: str | None, kind: type, what: str) -> tuple[Any, str | None]:
    if value is None:
        return None, err
    if not isinstance(value, kind):
        return None, f"{what} returned {type(value).__name__}, not {kind.__name__}"
    problems = _field_problems(value)
    if problems:
        return None, f"{what} returned a malformed {kind.__name__}: {'; '.join(problems)}"
    return value, err


def run_claim(claim: Claim, ctx: Context, controls: bool = False) -> ClaimResult:
    """Run ``claim.check(ctx)`` (and its negative control when ``controls``); never raises for a
    crashing check: the traceback is stored in ``error`` (also for a return value that is not
    a well-formed :class:`Outcome` / :class:`ControlOutcome`, e.g. a non-str key figure).

    A control counts only when it went through the claim's registered decision rule
    (:meth:`Claim.decision_rule`); a control that bypasses it, or a claim without a rule, is
    recorded as a control error."""
    outcome, err, secs = _timed(lambda: claim.check(ctx))
    outcome, err = _checked(outcome, err, Outcome, "check")
    res = ClaimResult(claim, outcome, err, secs)
    if controls:
        if claim.negative_control is None:
            res.control_error = "claim has no negative control"
        elif claim.decision is None:
            res.control_error = "claim has no registered decision rule (Claim.decision_rule)"
        else:
            with recording_decisions() as decided:
                ctl, cerr, csecs = _timed(lambda: claim.negative_control(ctx))
            ctl, cerr = _checked(ctl, cerr, ControlOutcome, "control")
            if ctl is not None:
                ctl.rejected = bool(ctl.rejected)
                if claim.id not in decided:
                    ctl, cerr = None, (f"the control of {claim.id} did not go through the claim's "
                                       "decision rule (SPEC §3: the check and its control both call it)")
            res.control, res.control_error, res.control_seconds = ctl, cerr, csecs
    return res


def prefetch_training(claims: list[Claim], ctx: Context, controls: bool = False) -> dict[str, Any]:
    """Train the runs of every selected trained claim together before the checks run
    (:func:`seqtheory.proofs_checks.training_runs.prefetch`). Never raises for a failed training
    worker: the error is returned under ``"error"`` and each check then trains (and reports) its
    own runs."""
    from .training_runs import prefetch

    try:
        return prefetch(claims, ctx, controls)
    except Exception:
        return {"runs": 0, "jobs": 0, "workers": 0, "seconds": 0.0, "error": traceback.format_exc()}


def run_claims(claims: Iterable[Claim], ctx: Context, controls: bool = False,
               on_start: Callable[[Claim], None] | None = None,
               on_done: Callable[[ClaimResult], None] | None = None,
               on_training: Callable[[dict | None], None] | None = None) -> list[ClaimResult]:
    """Run claims in order, calling ``on_start`` / ``on_done`` around each (progress display).
    When some claims registered a training plan, their runs are trained first, together
    (:func:`prefetch_training`); ``on_training`` is called with ``None`` before and with the
    summary after."""
    claims = list(claims)
    if any(c.plan is not None for c in claims):
        if on_training:
            on_training(None)
        info = prefetch_training(claims, ctx, controls)
        if on_training:
            on_training(info)
    results = []
    for c in claims:
        if on_start:
            on_start(c)
        r = run_claim(c, ctx, controls=controls)
        results.append(r)
        if on_done:
            on_done(r)
    return results

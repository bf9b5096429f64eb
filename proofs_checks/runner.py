"""Run registered claims (and their negative controls) and collect the results."""
from __future__ import annotations

import sys
import time
import traceback
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from .registry import Claim, Context, ControlOutcome, Outcome, recording_decisions

__all__ = ["ClaimResult", "run_claim", "run_claims", "start_training", "finish_training",
           "resolve_device"]


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


def _check(claim: Claim, ctx: Context):
    """``claim.check(ctx)``; a check that finds its runs missing from the evidence is
    inconclusive (:func:`~seqtheory.proofs_checks.training_runs.missing_outcome`), never crashed."""
    from .evidence import MissingEvidence

    try:
        return claim.check(ctx)
    except MissingEvidence as exc:
        from .training_runs import missing_outcome

        return missing_outcome(claim, ctx, exc)


def run_claim(claim: Claim, ctx: Context, controls: bool = False) -> ClaimResult:
    """Run ``claim.check(ctx)`` (and its negative control when ``controls``); never raises for a
    crashing check: the traceback is stored in ``error`` (a check whose runs an evidence bundle
    lacks is ``inconclusive``, "missing N runs") (also for a return value that is not
    a well-formed :class:`Outcome` / :class:`ControlOutcome`, e.g. a non-str key figure).

    A control counts only when it went through the claim's registered decision rule
    (:meth:`Claim.decision_rule`); a control that bypasses it, or a claim without a rule, is
    recorded as a control error. A trained claim's result carries the fresh-store cost of its
    runs in ``extra["training"]`` (:func:`_training_cost`)."""
    outcome, err, secs = _timed(lambda: _check(claim, ctx))
    outcome, err = _checked(outcome, err, Outcome, "check")
    res = ClaimResult(claim, outcome, err, secs)
    if claim.plan is not None:
        res.extra["training"] = _training_cost(claim, ctx)
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
                else:
                    ctl.rule_verdicts = decided.verdicts_of(claim.id)
            res.control, res.control_error, res.control_seconds = ctl, cerr, csecs
    return res


def start_training(claims: list[Claim], ctx: Context, controls: bool = False):
    """Start training the runs of every selected trained claim together
    (:class:`seqtheory.proofs_checks.training_runs.TrainingPool` of their training plans).
    Returns ``(pool, error)``: never raises for a failed start (the traceback is ``error``, the
    pool ``None``); each check then trains (and reports) its own runs."""
    from .training_runs import TrainingPool, plan_jobs

    try:
        return TrainingPool(ctx, plan_jobs(claims, ctx, controls)), None
    except Exception:
        return None, traceback.format_exc()


def finish_training(pool, error: str | None = None) -> dict[str, Any]:
    """Wait for ``pool`` (from :func:`start_training`); returns its summary, with ``error`` when
    the start or a worker failed (never raises for that)."""
    empty = {"runs": 0, "jobs": 0, "workers": 0, "seconds": 0.0}
    if pool is None:
        return dict(empty, error=error) if error else empty
    try:
        return pool.wait()
    except Exception:
        return dict(pool.summary, seconds=0.0, error=traceback.format_exc())


#: seconds between two looks at the store while the workers train and no trained claim is ready
POLL_S = 0.25


@contextmanager
def _one_torch_thread(pool):
    """One torch thread in this process while ``pool``'s worker processes train (each on one
    CPU): the checks run here beside them, and a second thread would only oversubscribe."""
    torch = sys.modules.get("torch")
    if pool is None or not pool.summary.get("workers") or torch is None:
        yield
        return
    old = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        yield
    finally:
        torch.set_num_threads(old)


def _ready(pool, pending: list[Claim], plans: dict, ctx: Context, controls: bool) -> Claim | None:
    """The first claim of ``pending`` whose training plan the store holds finished, else None."""
    for c in pending:
        if c.id not in plans:
            plans[c.id] = pool.keys(c.plan(ctx, controls))
        if pool.finished(plans[c.id]):
            return c
    return None


def _training_cost(c: Claim, ctx: Context) -> dict | None:
    """The fresh-store cost of the runs the claim's check reads (its plan without controls:
    :func:`~seqtheory.proofs_checks.training_runs.training_cost`); ``None`` when it cannot be
    told."""
    from .training_runs import training_cost

    try:
        return training_cost(ctx, c.plan(ctx, False))
    except Exception:            # a cost that cannot be read never fails the run
        return None


def run_claims(claims: Iterable[Claim], ctx: Context, controls: bool = False,
               on_start: Callable[[Claim], None] | None = None,
               on_done: Callable[[ClaimResult], None] | None = None,
               on_training: Callable[[dict], None] | None = None) -> list[ClaimResult]:
    """Run claims, calling ``on_start`` / ``on_done`` around each (progress display), and return
    the results in the order of ``claims``. When some claims registered a training plan, their
    runs start training first, in worker processes, while the claims without training run here;
    then the trained claims run, reading their runs from the store: while the workers still
    train, each trained claim whose runs are all finished runs at once (in the order of
    ``claims``), the others after training. ``on_training`` is called with the pool's summary
    plus ``"phase": "started"`` and again, when training is over, with ``"phase": "finished"``
    (and ``seconds``, ``error`` when training failed), and with ``"phase": "note"`` and
    ``text`` when a worker waits for a run another process holds (whose, how long). Ctrl-C stops
    the workers."""
    claims = list(claims)
    trained = [c for c in claims if c.plan is not None]
    pool, error = start_training(claims, ctx, controls) if trained else (None, None)
    if trained and on_training:
        on_training(dict(pool.summary if pool else {"runs": 0, "jobs": 0, "workers": 0},
                         phase="started"))
    results: dict[str, ClaimResult] = {}

    def run(c: Claim) -> None:
        if on_start:
            on_start(c)
        results[c.id] = run_claim(c, ctx, controls=controls)
        if on_done:
            on_done(results[c.id])

    try:
        with _one_torch_thread(pool):
            for c in claims:
                if c.plan is None:
                    run(c)
            pending, plans = list(trained), {}
            while pending and pool is not None and pool.running():
                for text in pool.notes() if on_training else ():
                    on_training({"phase": "note", "text": text})
                c = _ready(pool, pending, plans, ctx, controls)
                if c is None:
                    time.sleep(POLL_S)
                    continue
                pending.remove(c)
                run(c)
        if trained:
            info = finish_training(pool, error)
            pool = None
            if on_training:
                on_training(dict(info, phase="finished"))
        for c in pending:
            run(c)
    finally:
        if pool is not None:
            pool.stop()
    return [results[c.id] for c in claims if c.id in results]

"""Float rank decisions: the gap rule, the a-posteriori (twin) rule, numerical rank.

Float rank decisions (:func:`rank_decision`, used by every float rank in the package): the
singular values ``s`` of the stacked unit rows are compared with ``level = tol * s_max``; the
rank is the number above. ``noise`` is a first-order bound (Weyl's inequality) on how far
rounding can move a singular value, propagated from the rounding of the input (``EPS``-level
per row) through every bracket and every new basis vector (Wedin's sin-theta bound: a direction
found with singular value ``sigma`` is known to ``noise / sigma``). The decision is accepted only
when (1) the *gap* ``s_kept_min / max(s_dropped_max, noise)`` is at least :data:`MIN_GAP` -- every
kept value is far above rounding and above the dropped ones -- and (2) every dropped value is
both within ``noise`` and ``MIN_GAP`` times below ``level`` -- a value below the tolerance but
above rounding is a genuine value that the tolerance would cut. Otherwise the input does not
determine the rank at working precision and :class:`NumericalRankError` (a ``ValueError``) is
raised with the gap, the tolerance and the noise level -- never a guessed rank. The remedy it
names: exact input (ints, Fractions, sympy numbers) for the exact path, or a ``tol`` placed
inside a wide gap. Known limit: ``noise`` is a worst-case bound, so where it is large a genuine
value far below the tolerance can pass as rounding (the property tests against the exact path
found no such case over integer algebras conjugated by matrices of condition number up to 1e12).

A-posteriori rule (the float Lie path, :mod:`seqtheory.theory.lie`): the propagated bound above
is a worst case that compounds through a Lie closure (n(5) conjugated by a matrix of condition
number 100 got a bound of 0.0044 where the actual noise is 1e-14) and, where it is large, lets a
genuine small value pass as rounding. The Lie path therefore decides differently: inside
:func:`recording_decisions` every decision is recorded (values, which were kept, level) instead
of certified, the arithmetic is ``numpy.longdouble`` (:func:`working_dtype`), subspaces are
built by in-order Gram-Schmidt and :func:`complement_rows` (bases continuous in the input), and
the same computation is repeated on twins of the input (every entry multiplied by ``1 +
TWIN_PERTURBATION r``, ``|r| <= 1``). Each recorded value then has a measured *resolution*
(:func:`resolutions`): the relative input error that, to first order, moves it by its own size.
:func:`compare_decision_logs` accepts the answer only when every twin made the same decisions,
every dropped value is re-drawn by the perturbation (rounding noise) or far below the level and
explained by an input rounding of relative size :data:`INPUT_ROUNDING`, every kept value's
resolution is :data:`RESOLUTION_GAP` times above that of the dropped noise (a direction created
by the input's rounding has the resolution of the noise the same rounding creates), every
dropped value is ``MIN_GAP`` (re-drawn) or :data:`WEAK_DROP_MARGIN` (not re-drawn) times below
the square of the smallest kept value (a bracket of two directions separated by ``sigma`` can
have a genuine component of a small multiple of ``sigma**2``), and the gaps are wide -- except
for *settled* decisions (:func:`settle_decisions`): those of a computation whose result already
has the largest dimension the exact computation can have (a Lie closure that is the whole
ambient; a bracket space of matrices that is ``sl(n)``, brackets being traceless; ``[g, g] =
g``). A genuine value dropped there would make the exact answer larger than the largest possible
one, so their dropped values are left out of the square rules (a dimension argument, no margin;
every other rule still applies). Levels follow the measured noise: where the twins measure noise
among the kept values of a decision (input rounding amplified above ``tol``, e.g. 5e-9 in the
lower central series of n(5) conjugated at condition number 1e3), :func:`raised_levels` sets
that decision's level between the noise and the signal (``MIN_GAP`` above each) and the runs are
repeated (:func:`decision_level`). Its answer is the one for exact matrices that the float input
approximates to a relative accuracy far below ``tol``: rounding of the input (e.g. of a
conjugation ``P A P^-1``) is recognised as noise, not as the exact algebra of the binary
fractions given. Measured (tests/test_float_lie_stress.py): all 80 named family cases at
condition number 1e3 exact; no wrong answer over 10 000 random conjugated integer algebras,
condition numbers up to 1e8. Known limit: the square margins are measured, not proven (sl(2)
conjugated above condition number 1e6 once had its dimension answered wrongly by a genuine
component 1/10 600 of that square, dropped as not re-drawn; such values are now refused); a
genuine value further below the square, hidden in re-drawn noise, would not be told from
rounding; none is known.

Source: Golub & Van Loan, *Matrix Computations*, §2.6 (Weyl, Wedin), §5.4 (SVD rank).
"""
from __future__ import annotations

import contextlib
import contextvars
import math
from typing import Any

import numpy as np

from .contract import check_instance, check_real, real_array

__all__ = [
    "EPS", "MIN_GAP", "NumericalRankError", "RankDecision", "rank_decision", "decide",
    "TWIN_PERTURBATION", "INPUT_ROUNDING", "WEAK_DROP_MARGIN", "RESOLUTION_GAP",
    "ARITHMETIC_FLOOR", "recording_decisions", "is_recording", "decision_level", "working_dtype",
    "record_decision", "decision_count", "settle_decisions", "resolutions",
    "compare_decision_logs", "raised_levels",
    "FloatRank", "float_rank", "row_norms", "normalise_rows", "input_noise", "svd_noise",
    "complement_rows", "check_tol",
]


EPS = float(np.finfo(float).eps)
MIN_GAP = 100.0  # a float rank decision needs s_kept_min >= MIN_GAP * max(s_dropped_max, noise)


class NumericalRankError(ValueError):
    """A floating-point rank decision that the input does not determine: no wide gap separates
    the singular values kept as signal from those at the rounding / tolerance level.

    Attributes: ``argument`` (what was being ranked, named as the caller knows it), ``gap`` (the
    measured ratio ``s_kept_min / max(s_dropped_max, noise)``), ``tol`` (the relative
    tolerance), ``noise`` (the propagated rounding bound on the singular values), ``s`` (the
    singular values, descending)."""

    def __init__(self, argument: str, gap: float, tol: float, noise: float, s: np.ndarray,
                 message: str | None = None):
        self.argument = check_instance("argument", argument, str, "a str")
        self.gap = check_real("gap", gap, 0, finite=False)
        if math.isnan(self.gap):
            raise ValueError("gap must be a number >= 0 (inf: nothing dropped), got nan")
        self.tol = check_real("tol", tol, 0)
        self.noise = check_real("noise", noise, 0)
        self.s = real_array(s, "s")
        self._message = message
        if message is not None:
            super().__init__(f"{argument}: {message}")
            return
        shown = ", ".join(f"{x:.3g}" for x in self.s[:8]) + (", ..." if self.s.size > 8 else "")
        super().__init__(
            f"{argument}: the numerical rank is not determined at working precision: the "
            f"gap s_kept_min / max(s_dropped_max, noise) is {self.gap:.3g} < {MIN_GAP:g} (singular "
            f"values {shown}; relative tol {self.tol:g}; propagated rounding bound {self.noise:.3g}). Pass "
            f"exact entries (ints, Fractions, sympy numbers) to use the exact path, or a tol "
            f"inside a wide gap of the singular values if the input is known only to that "
            f"accuracy")

    def __reduce__(self):
        """Pickle by the constructor's arguments (the default would call ``__init__`` with the
        message alone)."""
        return type(self), (self.argument, self.gap, self.tol, self.noise, self.s, self._message)


class RankDecision:
    """One float rank decision (:func:`rank_decision`): ``rank``; ``s`` (singular values,
    descending); ``level`` (values ``<= level`` are zero); ``gap`` (``s_kept_min /
    max(s_dropped_max, noise)``, ``inf`` when nothing is kept or nothing is dropped above
    ``noise``); ``min_kept`` / ``max_dropped`` (relative to ``s[0]``)."""

    def __init__(self, rank: int, s: np.ndarray, level: float, gap: float):
        self.rank, self.s, self.level, self.gap = rank, s, level, gap
        s0 = float(s[0]) if s.size and s[0] > 0 else 1.0
        self.min_kept = float(s[rank - 1]) / s0 if rank else math.inf
        self.max_dropped = float(s[rank]) / s0 if rank < s.size else 0.0


def rank_decision(s: np.ndarray, tol: float, noise: float, argument: str,
                  scale: float | None = None) -> RankDecision:
    """The rank from singular values ``s`` (descending, of a matrix with unit-norm rows, or of a
    matrix in orthonormal bases whose size is bounded by ``scale``) with relative tolerance
    ``tol`` and absolute rounding bound ``noise`` (by Weyl's inequality no singular value moves
    by more than the spectral norm of the rounding error). ``level = tol * scale`` (``scale``
    defaults to ``s[0]``; ``scale = 0`` means the matrix is exactly 0: rank 0). The rank is the
    number of values ``> level``, accepted only when

    * the gap ``s_kept_min / max(s_dropped_max, noise)`` is at least :data:`MIN_GAP` (every
      kept value is far above both the dropped ones and anything rounding can produce), and
    * every dropped value is explained by rounding (``<= noise``) and at least
      :data:`MIN_GAP` times below ``level`` (so neither a genuine small value nor a pessimistic
      rounding bound is ever dropped as zero);

    otherwise :class:`NumericalRankError` (naming ``argument``). A noise bound above the tolerance therefore never hides a value: values
    between ``level`` and ``MIN_GAP * noise`` raise. Pure function of its arguments.
    ``TypeError`` / ``ValueError`` naming the argument for ``s`` not a finite, non-negative,
    descending 1-D real array, ``tol`` outside (0, 1), a negative ``noise`` or ``scale``."""
    s = real_array(s, "s", ndim=1)
    if s.size and (s[-1] < 0 or np.any(np.diff(s) > 0)):
        raise ValueError("s must be singular values: non-negative and descending")
    tol = check_tol(tol)
    noise = check_real("noise", noise, 0)
    check_instance("argument", argument, str, "a str (what is being ranked)")
    if s.size == 0:
        return RankDecision(0, s, 0.0, math.inf)
    scale = float(s[0]) if scale is None else check_real("scale", scale, 0)
    if scale == 0.0:
        return RankDecision(0, s, 0.0, math.inf)
    return decide(s, tol * scale, noise, tol, argument)


def decide(s: np.ndarray, level: float, noise: float, tol: float, argument: str) -> RankDecision:
    """Count ``s > level`` and apply the certification rules of :func:`rank_decision` (while
    :func:`recording_decisions` is active: record the decision instead, see there)."""
    if is_recording():
        level = decision_level(level)
    r = int(np.sum(s > level))
    if is_recording():
        # the SVD behind s is float64: values within its backward error are its rounding
        record_decision(argument, s, s > level, level,
                        svd_noise(s.size, s.size) * max(float(s[0]), level / tol))
        below = float(s[r]) if r < s.size else 0.0
        gap = float(s[r - 1]) / below if r and below > 0 else math.inf
        return RankDecision(r, s, level, gap)
    dropped = float(s[r]) if r < s.size else None
    if dropped is not None and dropped > min(float(noise), level / MIN_GAP):
        raise NumericalRankError(argument, (float(s[r - 1]) / dropped) if r else 0.0, tol,
                                 float(noise), s, message=(
                                     f"a singular value {dropped:.3g} lies below the tolerance "
                                     f"level {level:.3g} (relative tol {tol:g}) but is not "
                                     f"both {MIN_GAP:g} times below it and within the propagated "
                                     f"rounding bound {noise:.3g}: it may be a genuine value, so "
                                     f"the rank is not determined. Pass exact entries (ints, "
                                     f"Fractions, sympy numbers) for the exact path, or a tol "
                                     f"inside a wide gap of the singular values"))
    if r == 0:
        return RankDecision(0, s, level, math.inf)
    below = max(dropped or 0.0, float(noise))
    gap = float(s[r - 1]) / below if below > 0 else math.inf
    if gap < MIN_GAP:
        raise NumericalRankError(argument, gap, tol, float(noise), s)
    return RankDecision(r, s, level, gap)


# ----------------------------------------------------------------------------- a-posteriori
# The a-posteriori rule for float rank decisions: the same computation is run on the input as
# given and on "twins" -- the input with every entry multiplied by (1 + TWIN_PERTURBATION * r),
# r uniform in [-1, 1] (seeded) -- with every decision recorded instead of certified; the runs
# are then compared decision by decision (:func:`compare_decision_logs`).
TWIN_PERTURBATION = 1e-15
# the largest relative input error a dropped value may need to be explained as rounding
INPUT_ROUNDING = 1e-12
# values below this are rounding of the recorded runs' arithmetic (longdouble), whatever they do
ARITHMETIC_FLOOR = MIN_GAP * float(np.finfo(np.longdouble).eps)
_NOISE_CHANGE = 0.1
# a dropped value that the twins move by less than itself (not re-drawn: possibly a genuine
# value of high sensitivity) must be this many times below the square of the smallest kept
# value (re-drawn ones: MIN_GAP times); sl(2) conjugated at condition number 1e6..1e8 dropped
# genuine components of [e, f] 1/125, 1/520 and 1/10 600 of that square under a margin of
# MIN_GAP (the last 1.4e-14, moved by 4%, beside a float64 floor of 2.2e-14)
WEAK_DROP_MARGIN = 1e5
_REDRAWN = 1.0
# kept values must have a resolution this many times that of the dropped noise (measured at
# condition number 1e3: noise resolution at most 4e-14, kept resolutions at least 3e-9)
RESOLUTION_GAP = 1e5
_RAISE_CHANGE = 1.0

_LOG: contextvars.ContextVar[list | None] = contextvars.ContextVar("float_decision_log", default=None)
_LEVELS: contextvars.ContextVar[dict | None] = contextvars.ContextVar("float_decision_levels",
                                                                     default=None)


@contextlib.contextmanager
def recording_decisions(levels: dict[int, float] | None = None):
    """Context in which every float decision (:func:`rank_decision`, membership, intersection,
    and whatever calls :func:`record_decision`) is recorded, not certified: the rank is the
    number of values above the level and no :class:`NumericalRankError` is raised for a narrow
    gap. Yields the log: a list of ``(argument, values, kept_mask, level, floor)``
    (:func:`record_decision`). ``levels``: raised levels by place in the log (decision ``i``
    decides at ``max(its level, levels[i])``, see :func:`decision_level` and
    :func:`raised_levels`). Used by the a-posteriori rule (compare the logs of twin runs with
    :func:`compare_decision_logs`)."""
    log: list = []
    token = _LOG.set(log)
    ltoken = _LEVELS.set(dict(levels or {}))
    try:
        yield log
    finally:
        _LEVELS.reset(ltoken)
        _LOG.reset(token)


def is_recording() -> bool:
    """Whether :func:`recording_decisions` is active."""
    return _LOG.get() is not None


def decision_level(level: float) -> float:
    """The level of the next recorded decision: ``level``, raised to the level that
    :func:`raised_levels` set for its place in the log of the active
    :func:`recording_decisions` (unchanged when not recording)."""
    log, levels = _LOG.get(), _LEVELS.get()
    if log is None or not levels:
        return level
    return max(float(level), levels.get(len(log), level))


def working_dtype() -> type:
    """The float type of the float path's arithmetic: ``numpy.longdouble`` while
    :func:`recording_decisions` is active (80-bit extended precision on x86-64 Linux, unit
    roundoff 5.4e-20: rounding noise 2048 times below float64's, so the twin runs measure the
    input's noise rather than the arithmetic's; on platforms where ``longdouble`` is float64 the
    rule still holds, it only refuses more), else ``float`` (float64)."""
    return np.longdouble if is_recording() else float


def record_decision(argument: str, values: np.ndarray, kept: np.ndarray, level: float,
                    floor: float | None = None) -> None:
    """Append one decision to the active log: the measured ``values`` (float array), which of
    them were kept as non-zero (``kept``, bool array of the same shape), the ``level`` and the
    ``floor`` (values at or below it are rounding of the arithmetic that measured them;
    default: that of ``numpy.longdouble``, ``MIN_GAP`` units of its roundoff)."""
    log = _LOG.get()
    if log is not None:
        log.append((argument, np.array(values, dtype=float), np.array(kept, dtype=bool),
                    float(level), ARITHMETIC_FLOOR if floor is None else float(floor)))


def decision_count() -> int | None:
    """The number of decisions in the active log of :func:`recording_decisions` (``None`` when
    not recording): the place where the next decision goes, for :func:`settle_decisions`."""
    log = _LOG.get()
    return None if log is None else len(log)


def settle_decisions(start: int | None) -> None:
    """Mark the decisions of the active log from place ``start`` on as *settled*: the result
    they built already has the largest dimension that the exact computation can have (the Lie
    closure is the whole ambient; a bracket space ``[a, b]`` of matrices is ``sl(n)``, all
    of whose elements are traceless, ``tr [x, y] = 0``; ``[g, g]`` is all of ``g``). A dropped
    value of a settled decision cannot be a genuine direction that the answer lacks -- the
    exact answer has no room for one -- so :func:`compare_decision_logs` leaves it out of the
    square rules (every other rule still applies to it). A settled entry carries a sixth
    field ``True``. No-op when not recording or ``start`` is ``None``."""
    log = _LOG.get()
    if log is None or start is None:
        return
    for i in range(start, len(log)):
        log[i] = tuple(log[i][:5]) + (True,)


def is_settled(decision: tuple) -> bool:
    """Whether a logged decision was marked by :func:`settle_decisions`."""
    return len(decision) > 5 and bool(decision[5])


def resolutions(values: np.ndarray, change: np.ndarray, perturbation: float) -> np.ndarray:
    """The *resolution* of each measured value: the relative input error that, to first order,
    moves it by its own size -- ``perturbation * value / change`` (``change``: its largest change
    over the twin runs, whose entries were perturbed by ``perturbation`` relative). ``inf`` for a
    value the twins do not move, ``0`` for a zero value. A value created by an input rounding of
    relative size ``rho`` has resolution about ``rho``; a genuine value has a resolution far
    above the input's rounding. Pure function of its arguments."""
    v = np.asarray(values, dtype=float)
    c = np.asarray(change, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(c > 0, perturbation * v / np.where(c > 0, c, 1.0),
                        np.where(v > 0, math.inf, 0.0))


def compare_decision_logs(base: list, twins: list[list], tol: float,
                          perturbation: float = TWIN_PERTURBATION) -> tuple[float, str | None]:
    """The a-posteriori certificate of a float computation recorded by
    :func:`recording_decisions`: ``base`` is the log of the input as given, ``twins`` the logs
    of the same computation on copies whose entries were multiplied by ``1 + perturbation * r``
    (``|r| <= 1``). Returns ``(smallest_gap, None)`` when every decision is certified, else
    ``(gap, reason)``. Each value ``v`` of a decision has a measured *resolution*
    ``rho(v) = perturbation * v / change`` (:func:`resolutions`: the relative input error that
    moves it by its own size, to first order). The log is certified when

    * every twin made the same decisions (same argument, same values kept, same count);
    * every dropped value ``d`` is *noise*: it changed by at least ``10%`` of itself in some
      twin (rounding of the arithmetic, re-drawn by the perturbation), or it is at most its
      decision's arithmetic floor, or it is at least :data:`MIN_GAP` times below the level and
      an input rounding of relative size :data:`INPUT_ROUNDING` explains it
      (``rho(d) <= INPUT_ROUNDING``; a genuine value moves far less: two generators 2.8e-12
      apart after a conjugation of condition number 1e12 moved by 2e-4 of that, and were
      refused);
    * ``MIN_GAP * max(dropped values, measured change of the kept values) <= smallest kept
      value`` in every run (the recorded gap is the smallest such ratio);
    * the *resolution gap*: every kept value has resolution at least :data:`RESOLUTION_GAP`
      times the input error that explains the noise -- the largest resolution of a dropped
      value above its decision's arithmetic floor, over the whole log (at least ``EPS``;
      :data:`INPUT_ROUNDING` when the log has no such value). A direction created by the
      input's rounding has about the resolution of the dropped noise that the same rounding
      creates (the rounding of a conjugation by a matrix of condition number 1e8 is about
      2e-8), so it is refused, while a genuine value is resolved far better than the input's
      rounding. Measured at condition number 1e3 (80 family cases): noise resolution at most
      4e-14, kept resolutions at least 3e-9;
    * the *square rule*: every dropped value above the floor of extended-precision arithmetic,
      in every run, is :data:`MIN_GAP` times below ``sigma**2`` (``sigma``: the smallest kept
      value of the log), and :data:`WEAK_DROP_MARGIN` (1e5) times below it when the twins move
      it by less than itself (not re-drawn: possibly a genuine value of high sensitivity): a
      bracket of two directions that are separated only by a small value ``sigma`` can have a
      genuine component of a small multiple of ``sigma**2`` (conjugated sl(2): about a
      quarter at condition number 7e5, the component of ``[e, f]`` outside ``span{e, f}`` is
      4e-12 with ``sigma = 2.7e-6``; genuine values down to 1/10 600 of it above 1e6), which
      must not sink into the dropped values. The dropped values of *settled* decisions
      (:func:`settle_decisions`: the result already has the largest dimension possible, so no
      genuine direction can be missing from it) are left out of both square rules.

    Pure function of its arguments. ``tol`` is the relative tolerance (for the messages)."""
    for t in twins:
        if len(t) != len(base):
            return 0.0, (f"the twin runs made {len(t)} and {len(base)} decisions: the decisions "
                         f"change under a relative perturbation {perturbation:g} of the input")
    tally = _Tally()
    for i, decision in enumerate(base):
        runs = [t[i] for t in twins]
        differs = _same_decision(decision, runs, tol, perturbation)
        refused = (0.0, differs) if differs is not None \
            else tally.add(decision, runs, tol, perturbation)
        if refused is not None:
            return refused
    why = tally.verdict()
    return (0.0, why) if why is not None else (tally.smallest, None)


def _same_decision(decision: tuple, runs: list, tol: float, perturbation: float) -> str | None:
    """Why the twins' ``runs`` of ``decision`` differ from it (argument, count, values kept),
    else ``None``."""
    arg, v0, k0 = decision[:3]
    for arg_t, vt, kt in (r[:3] for r in runs):
        if arg_t != arg or vt.shape != v0.shape or not np.array_equal(kt, k0):
            return (f"{arg}: a relative perturbation {perturbation:g} of the input changes the "
                    f"decision (rank {int(k0.sum())} -> {int(kt.sum())} of {v0.size} values at "
                    f"relative tol {tol:g})")
    return None


class _Tally:
    """What :func:`compare_decision_logs` collects over a log: the smallest gap, the smallest
    kept value, the largest dropped values (all, and those not re-drawn), the resolution of the
    noise and the least resolved kept value."""

    def __init__(self):
        self.smallest, self.least_kept, self.least_drawn, self.most_noise = \
            math.inf, math.inf, 0.0, 0.0
        self.noise_res, self.least = 0.0, (math.inf, 0.0, "")

    def add(self, decision: tuple, runs: list, tol: float,
            perturbation: float) -> tuple[float, str] | None:
        """Judge one decision made alike by every run; ``(gap, reason)`` when it is refused."""
        arg, v0, k0, level, floor = decision[:5]
        change = np.max([np.abs(r[1] - v0) for r in runs], axis=0) if runs \
            else np.zeros_like(v0)
        res = resolutions(v0, change, perturbation)
        drop0, kept = v0[~k0], v0[k0]
        if kept.size:
            j = int(np.argmin(res[k0]))
            if res[k0][j] < self.least[0]:
                self.least = (float(res[k0][j]), float(kept[j]), arg)
        if drop0.size:
            why = self._dropped(decision, runs, change[~k0], res[~k0], tol)
            if why is not None:
                return 0.0, why
        if not kept.size:
            return None
        below = max(float(drop0.max(initial=0.0)), float(change[k0].max(initial=0.0)),
                    *(float(r[1][~k0].max(initial=0.0)) for r in runs))
        gap = float(kept.min()) / below if below > 0 else math.inf
        if gap < MIN_GAP:
            return gap, (f"{arg}: the gap between the smallest kept value {kept.min():.3g} and "
                         f"the largest dropped value or measured noise {below:.3g} is "
                         f"{gap:.3g} < {MIN_GAP:g}")
        self.smallest = min(self.smallest, gap)
        self.least_kept = min(self.least_kept, float(kept.min()))
        return None

    def _dropped(self, decision: tuple, runs: list, dchange: np.ndarray, dres: np.ndarray,
                 tol: float) -> str | None:
        """The dropped values of ``decision``: each re-drawn, under its floor, or far below the
        level and explained by an input rounding of at most INPUT_ROUNDING; tallied for the
        square rule and the noise's resolution."""
        arg, v0, k0, level, floor = decision[:5]
        drop0 = v0[~k0]
        moved = dchange >= _NOISE_CHANGE * drop0                  # re-drawn: rounding
        explained = (drop0 <= floor) | ((drop0 <= level / MIN_GAP) & (dres <= INPUT_ROUNDING))
        bad = ~moved & ~explained
        if np.any(bad):
            return (f"{arg}: a value {float(drop0[bad].max()):.3g} below the tolerance level "
                    f"{level:.3g} (relative tol {tol:g}) is neither re-drawn by a perturbation "
                    f"of the input nor {MIN_GAP:g} times below the level and explained by an "
                    f"input rounding of relative size {INPUT_ROUNDING:g}: it may be a genuine "
                    f"value, so the rank is not determined")
        # the resolution of the noise: of the values above the arithmetic's floor
        self.noise_res = max(self.noise_res, float(dres[drop0 > floor].max(initial=0.0)))
        if is_settled(decision):
            return None     # no room for a genuine direction: not held to the square rules
        # not re-drawn (moved by less than itself): possibly a genuine value of high
        # sensitivity, held to the wider square margin
        weak = (drop0 > ARITHMETIC_FLOOR) & (dchange < _REDRAWN * drop0)
        self.least_drawn = max(self.least_drawn, float(drop0[weak].max(initial=0.0)))
        for run in [v0] + [r[1] for r in runs]:
            dr = run[~k0]
            self.most_noise = max(self.most_noise,
                                  float(dr[dr > ARITHMETIC_FLOOR].max(initial=0.0)))
        return None

    def verdict(self) -> str | None:
        """The rules over the whole log (square rules, resolution gap): a reason, or ``None``."""
        square = self.least_kept ** 2
        if self.least_drawn * WEAK_DROP_MARGIN > square:
            return (f"a dropped value {self.least_drawn:.3g} that the perturbation does not "
                    f"re-draw is not {WEAK_DROP_MARGIN:g} times below the square of the smallest "
                    f"kept value {self.least_kept:.3g}: a bracket of two directions separated by "
                    f"that value can have a genuine component that small (about a quarter of the "
                    f"square for sl(2)), so it is not told from rounding")
        if self.most_noise * MIN_GAP > square:
            return (f"the largest dropped value {self.most_noise:.3g} is not {MIN_GAP:g} times "
                    f"below the square of the smallest kept value {self.least_kept:.3g}: a "
                    f"bracket of two directions separated by that value can have a genuine "
                    f"component that small, so it is not told from rounding")
        ref = max(self.noise_res, EPS) if self.noise_res > 0 else INPUT_ROUNDING
        res, value, arg = self.least
        if res < RESOLUTION_GAP * ref:
            return (f"{arg}: a kept value {value:.3g} has resolution {res:.3g} (the relative "
                    f"input error that would move it by its own size), not "
                    f"{RESOLUTION_GAP:g} times above the input error {ref:.3g} that explains the "
                    f"dropped values: an input rounding could have created it")
        return None


def raised_levels(base: list, twins: list[list], levels: dict[int, float],
                  perturbation: float = TWIN_PERTURBATION) -> dict[int, float] | None:
    """The next levels for a repeated set of twin runs (:func:`recording_decisions` with
    ``levels``), or ``None`` when no level needs raising. The first decision of ``base`` (all
    earlier ones made alike by every twin) whose kept values include *measured noise* -- a
    value at or below its floor, or one that the twins' perturbation moves by at least its own
    size -- gets the level ``sqrt(noise * signal)``: ``noise`` the largest such value in any
    run, ``signal`` the smallest value that every run kept and whose resolution
    (:func:`resolutions`) is at least :data:`RESOLUTION_GAP` times that of the noise (at least
    ``EPS``). Raised only when every value is one or the other and ``signal >= MIN_GAP**2 *
    noise`` (so the raised level is ``MIN_GAP`` times above the noise and below the signal);
    else ``None`` and the runs are judged as they are (refused by :func:`compare_decision_logs`
    where a decision is not certified). Levels only rise, so repeating terminates. Pure
    function of its arguments."""
    for i, (arg, v0, k0, level, floor) in enumerate(d[:5] for d in base):
        if any(len(t) <= i or t[i][0] != arg or t[i][1].shape != v0.shape for t in twins):
            return None
        runs = [v0] + [t[i][1] for t in twins]
        kept_any = np.logical_or.reduce([k0] + [t[i][2] for t in twins])
        kept_all = np.logical_and.reduce([k0] + [t[i][2] for t in twins])
        change = np.max([np.abs(v - v0) for v in runs], axis=0)
        res = resolutions(v0, change, perturbation)
        noise = (v0 <= floor) | (change >= _RAISE_CHANGE * v0) | (res <= INPUT_ROUNDING)
        if not np.any(kept_any & noise):
            if not np.array_equal(kept_any, kept_all):
                return None
            continue
        ref = max(EPS, float(res[noise & (v0 > ARITHMETIC_FLOOR)].max(initial=0.0)))
        signal = kept_all & ~noise & (res >= RESOLUTION_GAP * ref)
        if np.any(~noise & ~signal):
            return None
        top = float(np.max([v[noise].max() for v in runs]))
        low = float(np.min([v[signal].min() for v in runs])) if np.any(signal) else 1.0
        if low < MIN_GAP ** 2 * top:
            return None
        new = math.sqrt(top * low)
        if new <= level:
            return None
        out = {j: lv for j, lv in levels.items() if j < i}
        out[i] = new
        return out
    return None


class FloatRank:
    """Result of :func:`float_rank`: ``rank``, the singular values of the row-normalised matrix
    ``s``, the threshold ``tol * s[0]``, ``tol`` itself and the ``gap`` of the decision (see
    :func:`rank_decision`)."""

    def __init__(self, rank: int, s: np.ndarray, tol: float, gap: float = math.inf):
        self.rank, self.s, self.tol, self.gap = rank, s, tol, gap
        self.threshold = tol * (s[0] if s.size else 0.0)

    def __repr__(self) -> str:
        return f"FloatRank(rank={self.rank}, tol={self.tol:g}, gap={self.gap:.3g})"


def row_norms(a: np.ndarray) -> np.ndarray:
    """Euclidean norms of the rows of a finite float array without overflow or underflow:
    each row is first divided by its largest absolute entry (so entries of size 1e-300 or
    1e300 give their true norms, not 0 or inf)."""
    if a.shape[0] == 0:
        return np.zeros(0)
    m = np.abs(a).max(axis=1) if a.shape[1] else np.zeros(a.shape[0])
    safe = np.where(m > 0, m, 1.0)
    return m * np.linalg.norm(a / safe[:, None], axis=1)


def normalise_rows(a: np.ndarray) -> np.ndarray:
    """The non-zero rows of ``a`` scaled to unit Euclidean norm (overflow/underflow-free: every
    row is divided by its largest absolute entry first)."""
    if a.shape[0] == 0:
        return a
    m = np.abs(a).max(axis=1) if a.shape[1] else np.zeros(a.shape[0])
    keep = m > 0
    b = a[keep] / m[keep, None]
    return b / np.linalg.norm(b, axis=1)[:, None]


def input_noise(ncols: int) -> float:
    """Relative rounding of one float input row after normalisation (the entries are taken as
    correct to ``EPS`` relative; normalising adds ``O(sqrt(N) EPS)``)."""
    return EPS * (2.0 + math.sqrt(ncols))


def svd_noise(m: int, n: int) -> float:
    """Backward error of a float SVD of an ``m x n`` matrix of unit rows (relative to
    ``s_max``)."""
    return 4.0 * EPS * max(m, n)


def float_rank(m: Any, tol: float = 1e-9) -> FloatRank:
    """Numerical rank of the rows of ``m`` (2-D float array-like): every non-zero row is scaled
    to unit norm, then the rank is decided by :func:`rank_decision` with relative tolerance
    ``tol`` (the number of singular values ``> tol * s_max``, provided a gap of at least
    :data:`MIN_GAP` separates them from the rest and from the rounding level).
    ``tol`` must be in (0, 1). Raises ``ValueError`` for NaN/inf or a bad ``tol``, and
    :class:`NumericalRankError` when the rank is not determined at working precision."""
    tol = check_tol(tol)
    a = np.asarray(m, dtype=float)
    if a.ndim != 2:
        raise ValueError(f"m must be 2-D, got shape {a.shape}")
    if not np.all(np.isfinite(a)):
        raise ValueError("m contains NaN or infinite entries")
    a = normalise_rows(a)
    if a.size == 0:
        return FloatRank(0, np.zeros(0), tol)
    s = np.linalg.svd(a, compute_uv=False)
    noise = math.sqrt(a.shape[0]) * input_noise(a.shape[1]) + svd_noise(*a.shape) * s[0]
    d = rank_decision(s, tol, noise, "m")
    return FloatRank(d.rank, s, tol, d.gap)


def complement_rows(V: np.ndarray, d: int) -> np.ndarray:
    """An orthonormal basis (rows, float64 ``(d - k, d)``) of the orthogonal complement of the
    row space of the orthonormal rows ``V`` (``(k, d)``), continuous in that space: the unit
    vectors ``e_1, ..., e_d`` are projected onto the complement and orthonormalised in order
    (modified Gram-Schmidt, twice), each kept when its residual exceeds ``1 / (2 sqrt(d))``.
    That always yields ``d - k`` vectors: the part of the complement left uncovered would have
    trace ``<= d / (4 d) < 1`` (the residuals of all unit vectors bound it). Unlike an SVD
    basis it does not turn freely inside clusters of equal singular values, so the float
    path's twin runs stay comparable."""
    V = np.asarray(V)
    V = V.astype(np.result_type(V.dtype, float)).reshape(-1, d)
    need = d - V.shape[0]
    basis = list(V)
    out = []
    for i in range(d):
        if len(out) == need:
            break
        x = np.zeros(d, dtype=V.dtype)
        x[i] = 1.0
        for _ in range(2):
            for b in basis:
                x = x - (b @ x) * b
        r = float(np.linalg.norm(x))
        if r > 0.5 / math.sqrt(d):
            x = x / r
            basis.append(x)
            out.append(x)
    if len(out) != need:
        raise RuntimeError(f"complement_rows: found {len(out)} of {need} vectors (V is not "
                           f"orthonormal)")
    return np.array(out) if out else np.zeros((0, d), dtype=V.dtype)


def check_tol(tol: float) -> float:
    """``tol`` as a float in (0, 1) (:func:`~seqtheory.theory.contract.check_real`)."""
    return check_real("tol", tol, 0, 1, above=True, below=True)

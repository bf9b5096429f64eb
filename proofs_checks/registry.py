"""The claim registry: claims, sources, verdicts and evidence.

Every claim of the covered papers is a :class:`Claim` with a stable id (used for citation), its
source (paper, arXiv id, version, theorem number), a one-line statement in the paper's terms, a
``check`` that returns an :class:`Outcome` (verdict + structured evidence), and a
``negative_control``: the same checking logic applied to a deliberately wrong variant (wrong
exponent, wrong sign, perturbed input), which must be *rejected*. A check whose negative control
is not rejected is broken; the test suite and ``seqtheory verify --controls`` run every control.

Claims register themselves at import time through the :func:`claim` decorator; the modules of
:mod:`seqtheory.proofs_checks.claims` are discovered automatically (see :func:`load_all`).
"""
from __future__ import annotations

import contextlib
import contextvars
import enum
import functools
import importlib
import pkgutil
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from seqtheory.theory.contract import check_bool, check_instance, check_int

__all__ = [
    "Verdict", "Source", "Premise", "Context", "Outcome", "ControlOutcome", "Claim", "claim",
    "recording_decisions", "DecisionLog", "verdict_of", "combine_verdicts", "COMBINATION_ORDER",
    "parts_table", "finite_reals", "Reading", "replicate", "PAPERS",
    "REGISTRY", "get_claim", "all_claims", "load_all", "DEPTH", "HEAD", "TEXTBOOK", "AUDIT",
    "FINDING", "PAPER_TITLE", "PAPER_VERSIONS",
]


class Verdict(str, enum.Enum):
    """The five verdicts of SPEC §3 (README "Reading a verdict")."""

    CONFIRMED = "confirmed"      # a certificate the report shows (exact argument checked by code,
                                 # exhaustive enumeration) for the whole stated class or for the
                                 # finite instances the statement itself names
    SUPPORTED = "supported"      # a universal statement checked on finitely many instances (listed
                                 # and counted), or numerical evidence within stated tolerances
    REFUTED = "refuted"          # a counterexample or contradicting measurement
    REFINED = "refined"          # holds but not tight (or needs a named hypothesis); tight value given
    INCONCLUSIVE = "inconclusive"  # evidence cannot decide; the reason is given

    @classmethod
    def _missing_(cls, value):
        """``Verdict(x)`` for an unknown ``x``: a ``ValueError`` that names the argument and the
        verdicts."""
        raise ValueError(f"value: {value!r} is not a verdict; one of "
                         f"{[v.value for v in cls]}")

    def __str__(self) -> str:  # pragma: no cover - trivial
        return self.value


#: How a statement with several parts (layer classes, named instances, exact and numerical parts;
#: never readings, which are alternatives: :class:`Reading`) combines their verdicts: the first
#: verdict of this order that some part has decides the whole.
COMBINATION_ORDER = (Verdict.REFUTED, Verdict.INCONCLUSIVE, Verdict.REFINED, Verdict.SUPPORTED,
                     Verdict.CONFIRMED)


def combine_verdicts(parts: dict[str, Verdict | tuple[Verdict, str]]) -> tuple[Verdict, str]:
    """The verdict of ONE statement made of several parts (layer classes named by the statement,
    the instances it names, an exact and a numerical part of the same assertion), by the rule of
    SPEC §3: the whole is as strong as its weakest part -- ``refuted`` if any part is refuted (the
    statement as written covers it), else ``inconclusive`` if any part is, else ``refined`` if any
    part is, else ``supported`` if any part is, else ``confirmed`` (every part has a certificate).

    Never for *readings* (alternative meanings of the statement: which readout, which initial
    states): readings are not conjuncts. The paper's own reading decides the verdict; the others
    are reported beside it as :class:`Reading` rows (``Outcome.readings``) and never enter it
    (SPEC §3, "the paper's reading decides").

    ``parts`` maps each part's name to its verdict, or to ``(verdict, why)``; returns ``(verdict,
    why)`` naming the rule, the parts that decided and every part (with its reason when given).
    ``ValueError`` for no parts, ``TypeError`` for a value that is not a Verdict."""
    if not parts:
        raise ValueError("parts must name at least one part's verdict")
    verdicts, reasons = {}, {}
    for name, v in parts.items():
        v, reasons[name] = v if isinstance(v, tuple) and len(v) == 2 else (v, "")
        if not isinstance(v, Verdict):
            raise TypeError(f"parts[{name!r}] must be a Verdict or (Verdict, why), got {v!r}")
        verdicts[name] = v
    whole = next(v for v in COMBINATION_ORDER if v in verdicts.values())
    deciding = [n for n, v in verdicts.items() if v is whole]
    order = " > ".join(v.value for v in COMBINATION_ORDER)
    return whole, (f"combined by the weakest part ({order}): {whole.value} from "
                   f"{', '.join(deciding)}; parts: "
                   + "; ".join(f"{n}: {v.value}" + (f" ({reasons[n]})" if reasons[n] else "")
                               for n, v in verdicts.items()))


@dataclass(frozen=True)
class Reading:
    """A reading of a claim's statement other than the paper's own (SPEC §3, "the paper's
    reading decides"): reported under the claim, with its own outcome, and never part of the
    claim's verdict. ``name``: the reading in a few words ("fixed initial state h0 = e1");
    ``outcome``: the verdict the statement would get under this reading; ``why``: the evidence in
    one or two sentences; ``finding``: the id of a ``finding.*`` claim that holds its evidence,
    if any. ``ValueError`` for an empty name or why, ``TypeError`` for an outcome that is not a
    :class:`Verdict`."""

    name: str
    outcome: Verdict
    why: str
    finding: str = ""

    def __post_init__(self) -> None:
        if not isinstance(self.outcome, Verdict):
            raise TypeError(f"Reading.outcome must be a Verdict, got {self.outcome!r}")
        for key in ("name", "why"):
            if not isinstance(getattr(self, key), str) or not getattr(self, key).strip():
                raise ValueError(f"Reading.{key} must be a non-empty string, "
                                 f"got {getattr(self, key)!r}")
        if self.finding and not self.finding.startswith("finding."):
            raise ValueError(f"Reading.finding must be a finding.* claim id, got {self.finding!r}")

    def record(self) -> dict[str, str]:
        """The report.json row: ``{"reading", "outcome", "why", "finding"}``."""
        return {"reading": self.name, "outcome": self.outcome.value, "why": self.why,
                "finding": self.finding}


def replicate(blocks: dict[str, tuple[Any, Verdict, str]]) -> tuple[Verdict, str]:
    """The verdict of a trained claim decided on disjoint blocks of seeds (SPEC §3, "trained
    verdicts replicate"): ``blocks`` maps a block's name to ``(seeds, verdict, why)``, the
    verdict the claim's rule gave on that block's runs alone. The verdict stands when every block
    gives it; when blocks disagree the verdict is ``inconclusive``, with every block shown.

    ``ValueError`` for fewer than two blocks, an empty block or blocks that share a seed;
    ``TypeError`` for a verdict that is not a :class:`Verdict`. Returns ``(verdict, why)``."""
    if not isinstance(blocks, dict) or len(blocks) < 2:
        raise ValueError(f"replicate needs at least two blocks of seeds, got {blocks!r:.80}")
    seen: dict[Any, str] = {}
    for name, (seeds, verdict, _) in blocks.items():
        if not isinstance(verdict, Verdict):
            raise TypeError(f"blocks[{name!r}] verdict must be a Verdict, got {verdict!r}")
        seeds = list(seeds)
        if not seeds:
            raise ValueError(f"blocks[{name!r}] holds no seed")
        for s in seeds:
            if s in seen:
                raise ValueError(f"seed {s!r} is in blocks {seen[s]!r} and {name!r}: blocks must "
                                 "be disjoint")
            seen[s] = name
    shown = "; ".join(f"block {n} ({_seed_list(s)}): {v.value} ({w})"
                      for n, (s, v, w) in blocks.items())
    verdicts = {v for _, v, _ in blocks.values()}
    if len(verdicts) == 1:
        v = verdicts.pop()
        return v, f"{v.value} in each of {len(blocks)} disjoint seed blocks: {shown}"
    return Verdict.INCONCLUSIVE, (f"the seed blocks disagree, so the verdict does not replicate: "
                                  f"{shown}")


def _seed_list(seeds: Any) -> str:
    """A block's seeds in a line: ``seeds 0–4`` for a run of small integers, the labels as they
    are (``seeds #0, #1``), and derived 32-bit seeds by their number and the first one (``3
    derived seeds: 1877093675, …``; report.json holds them in full)."""
    seeds = list(seeds)
    if len(seeds) > 2 and all(isinstance(s, int) for s in seeds) and \
            seeds == list(range(seeds[0], seeds[0] + len(seeds))):
        return f"seeds {seeds[0]}–{seeds[-1]}"
    if any(isinstance(s, int) and abs(s) > 99_999 for s in seeds):
        return f"{len(seeds)} derived seeds: {seeds[0]}{', …' if len(seeds) > 1 else ''}"
    return "seeds " + ", ".join(str(s) for s in seeds)


def parts_table(parts: dict[str, tuple[Verdict, str]]) -> list[dict[str, str]]:
    """The report table of a claim's parts: one row ``{"part", "verdict", "why"}`` per part."""
    return [{"part": n, "verdict": v.value, "why": w} for n, (v, w) in parts.items()]


def finite_reals(*xs: Any) -> bool:
    """Whether every value is a finite real ``int`` or ``float`` (not a bool): the input check of
    decision rules that read measured numbers."""
    import math

    return all(isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)
               for x in xs)


@dataclass(frozen=True)
class Source:
    """Where a claim comes from.

    ``paper`` is a short key (``"DEPTH"``, ``"HEAD"``, ``"textbook"``, ``"audit"``), ``arxiv`` the
    arXiv identifier (empty for textbook facts), ``version`` the paper version the statement is
    taken from (``"v1"``), ``location`` the theorem / section (``"Theorem 3.2"``).
    """

    paper: str
    arxiv: str
    version: str
    location: str
    reference: str = ""

    def __post_init__(self) -> None:
        for name in ("paper", "arxiv", "version", "location", "reference"):
            check_instance(name, getattr(self, name), str, "a str")

    def cite(self, paper_version: bool = False) -> str:
        """``reference, arXiv:IDvN, location``; with ``paper_version`` the arXiv id is followed
        by `` = paper version vN`` (a citation names which "v" is the paper's)."""
        bits = [self.reference or self.paper]
        if self.arxiv:
            v = self.version if self.version.startswith("v") else ""
            bits.append(f"arXiv:{self.arxiv}{v}" + (f" = paper version {v}" if paper_version and v
                                                    else ""))
        if self.location:
            bits.append(self.location)
        return ", ".join(bits)


#: the papers' titles, one spelling everywhere (report, terminal, README, notebooks)
PAPER_TITLE = {
    "DEPTH": "Why Depth Matters in Parallelizable Sequence Models: A Lie Algebraic View",
    "HEAD": "Toward a First-Principles Update Geometry for the Language-Model Head",
}
#: the papers' arXiv versions and which one the claims' statements follow (each claim's
#: ``source.version`` names it)
PAPER_VERSIONS = {
    "DEPTH": "v1 (March 2026) and v2 (June 2026: splits former Theorem 3.4 into Theorem 3.4 and "
             "Corollary 3.5, and corrects an indexing error affecting Corollary 3.6, Proposition "
             "3.7 and Figure 2). The v2 text could not be obtained: every [DEPTH] statement here "
             "follows v1, and the checks of Cor 3.6 and Prop 3.7 measure the true quantity and "
             "compare it with each candidate form",
    "HEAD": "v1 (August 2026: max-min row separation under a diameter bound) and v2 (September "
            "2026: projected RowNorm); the [HEAD] statements here follow v2",
}
_DEPTH_REF = f"G. Heo, T. Ngotiaoco, K. Irie, S. J. Gershman, B. L. Sabatini, {PAPER_TITLE['DEPTH']}"
_HEAD_REF = f"A. Somasundaram et al., {PAPER_TITLE['HEAD']}"


@dataclass(frozen=True)
class Premise:
    """A fact a claim takes from a source and does not check itself (SPEC §3: a premise taken
    from a source is stated as sourced, never confirmed). ``text``: the fact; ``source``: where
    it comes from (a paper's released code, a section of the spec). The report prints it apart
    from the statement, marked "sourced, not checked"; the claim's verdict never covers it."""

    text: str
    source: str

    def __post_init__(self) -> None:
        for name in ("text", "source"):
            if not isinstance(getattr(self, name), str) or not getattr(self, name).strip():
                raise ValueError(f"Premise.{name} must be a non-empty string, "
                                 f"got {getattr(self, name)!r}")

    def __str__(self) -> str:
        return f"{self.text} (source: {self.source}; sourced, not checked)"


#: the arXiv versions a source may name (SPEC: [DEPTH] v1, v2; [HEAD] v1, v2; what each holds:
#: :data:`PAPER_VERSIONS`)
_ARXIV_VERSIONS = ("v1", "v2")


def _check_version(version: str) -> str:
    check_instance("version", version, str, "a paper version (str)")
    if version not in _ARXIV_VERSIONS:
        raise ValueError(f"version must be one of {_ARXIV_VERSIONS}, got {version!r}")
    return version


def DEPTH(location: str, version: str = "v1") -> Source:
    """Source helper for [DEPTH], arXiv:2603.05573 (``version`` ``"v1"`` or ``"v2"``)."""
    _check_version(version)
    return Source("DEPTH", "2603.05573", version, location, _DEPTH_REF)


def HEAD(location: str, version: str = "v2") -> Source:
    """Source helper for [HEAD], arXiv:2608.22253 (``version`` ``"v1"`` or ``"v2"``)."""
    _check_version(version)
    return Source("HEAD", "2608.22253", version, location, _HEAD_REF)


def TEXTBOOK(reference: str, location: str = "") -> Source:
    """Source helper for background (textbook) facts."""
    return Source("textbook", "", "", location, reference)


def FINDING(reference: str, location: str = "", arxiv: str = "") -> Source:
    """Source helper for the package's own findings (SPEC §3, "paper claims and package findings
    are apart"): constructions, hypotheses and third-party results that neither paper states.
    ``reference``: who states it (``"seqtheory (this package)"`` or a third-party paper),
    ``location``: where (a section, a theorem of the third-party paper, the [DEPTH] statement it
    bears on), ``arxiv``: the third-party paper's arXiv id, if any. Claims with this source have
    ids ``finding.*``, are listed and tallied apart, and never count for or against a paper."""
    return Source("finding", arxiv, "", location, reference)


#: The papers whose claims the package checks (``Source.paper`` keys); findings, background and
#: audits are not claims of these papers.
PAPERS = ("DEPTH", "HEAD")


def AUDIT(location: str) -> Source:
    """Source helper for dataset / task audits (SPEC §3.1, 'Dataset audits')."""
    return Source("audit", "", "", location, "seqtheory dataset audit (SPEC §3.1)")


@dataclass
class Context:
    """What a check may use: the seed, the profile, the device and where to put figures.

    ``profile`` is one of :data:`~seqtheory.proofs_checks.profiles.PROFILES` (``"quick"``:
    seconds per claim, CPU; ``"full"``: complete tables; ``"paper"``: the paper's training
    lengths, GPU). ``out_dir`` is the report folder; figures go under ``out_dir / "figures"`` and
    are referred to by their path relative to ``out_dir``. ``results_dir`` is the trained-model
    results store. ``evidence``: an evidence bundle folder
    (:mod:`seqtheory.proofs_checks.evidence`); when set, trained claims read their runs from the
    bundle only and never train.
    """

    seed: int = 0
    profile: str = "quick"
    device: str = "cpu"
    out_dir: Path | None = None
    results_dir: Path | None = None
    evidence: Path | None = None

    def __post_init__(self) -> None:
        from .profiles import check_profile

        check_profile(self.profile)
        self.seed = check_int("seed", self.seed, 0)

    @property
    def quick(self) -> bool:
        return self.profile == "quick"

    def by_profile(self, quick, full, paper=None):
        """``quick``, ``full`` or ``paper`` by the profile (``full`` when ``paper`` is None:
        the paper's scale of that setting is unknown or the same)."""
        from .profiles import pick

        return pick(self.profile, quick, full, paper)

    def rng(self, salt: str = "") -> random.Random:
        """A ``random.Random`` seeded from the run seed and a per-use salt (stable across runs)."""
        return random.Random(f"{self.seed}:{salt}")

    def numpy_seed(self, salt: str = "") -> int:
        """A 32-bit seed derived from the run seed and a salt, for numpy / torch generators."""
        return self.rng(salt).getrandbits(32)

    def figure_path(self, name: str) -> Path | None:
        """Absolute path for a figure file ``name`` (e.g. ``"cor36_slopes.png"``), or ``None``
        when the run writes no figures (no ``out_dir``). The folder is created."""
        if self.out_dir is None:
            return None
        d = Path(self.out_dir) / "figures"
        d.mkdir(parents=True, exist_ok=True)
        return d / name

    def relative(self, path: Path) -> str:
        """``path`` relative to the report folder, as written into the report."""
        assert self.out_dir is not None
        return str(Path(path).relative_to(Path(self.out_dir)))


@dataclass
class Outcome:
    """The result of a check.

    ``verdict``: a :class:`Verdict`. ``key_figure``: one line with the headline number(s)
    (``"slope 3.01 ± 0.02 (stated 3)"``). ``evidence``: JSON-serialisable dict of numbers, lists and
    small tables. ``tables``: named tables, each a list of row dicts (rendered in report.md).
    ``figures``: paths relative to the report folder. ``notes``: free text (why this verdict).
    ``readings``: readings of the statement other than the paper's (:class:`Reading`), reported
    beside the verdict and never part of it.
    """

    verdict: Verdict
    key_figure: str
    evidence: dict[str, Any] = field(default_factory=dict)
    tables: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    figures: list[str] = field(default_factory=list)
    notes: str = ""
    readings: list[Reading] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not isinstance(self.verdict, Verdict):
            try:
                self.verdict = Verdict(self.verdict)
            except ValueError:
                raise ValueError(f"verdict must be one of {[v.value for v in Verdict]}, got "
                                 f"{self.verdict!r}") from None
            except TypeError:                  # an unhashable value
                raise TypeError(f"verdict must be a Verdict, got {type(self.verdict).__name__}") from None
        for r in self.readings:
            if not isinstance(r, Reading):
                raise TypeError(f"Outcome.readings must hold Reading objects, got {r!r:.80}")


@dataclass
class ControlOutcome:
    """The result of a negative control: ``rejected`` must be True for a working check.

    ``variant`` names the deliberately wrong variant; ``reason`` says how the check rejected it
    (or, if it did not, what it saw). ``rule_verdicts`` is filled by the runner, not by the
    control: the verdicts the claim's decision rule returned while the control ran, in call
    order (``None`` for a call whose return value names no verdict).
    """

    rejected: bool
    variant: str
    reason: str
    evidence: dict[str, Any] = field(default_factory=dict)
    rule_verdicts: tuple[Verdict | None, ...] = ()

    def __post_init__(self) -> None:
        self.rejected = check_bool("rejected", self.rejected)


CheckFn = Callable[[Context], Outcome]
ControlFn = Callable[[Context], ControlOutcome]
DecisionFn = Callable[..., Any]
PlanFn = Callable[[Context, bool], list]

class DecisionLog(list):
    """The ids of the claims whose decision rule was called (a list, in call order, with
    repeats); ``verdicts[i]`` is the verdict the ``i``-th call returned (``None`` while it runs,
    when it raised, or when its return value names no verdict: see :func:`verdict_of`)."""

    def __init__(self) -> None:
        super().__init__()
        self.verdicts: list[Verdict | None] = []

    def verdicts_of(self, claim_id: str) -> tuple[Verdict | None, ...]:
        """The verdicts returned by the calls of ``claim_id``'s rule, in call order."""
        return tuple(v for c, v in zip(self, self.verdicts) if c == claim_id)


def verdict_of(result: Any) -> Verdict | None:
    """The verdict named by a decision rule's return value: a :class:`Verdict` or its value
    (``"refuted"``), a dict's ``"verdict"``, the ``verdict`` attribute of an object that has one
    (an :class:`Outcome`, a named tuple), or (recursively) the first item of a tuple or list
    (``(Verdict, why)``); ``None`` when it names none."""
    if isinstance(result, dict):
        v = result.get("verdict")
    elif hasattr(result, "verdict"):           # an Outcome, a named tuple with that field
        v = result.verdict
    elif isinstance(result, (tuple, list)) and result:
        return verdict_of(result[0])
    else:
        v = result
    if isinstance(v, Verdict):
        return v
    if isinstance(v, str) and v in Verdict._value2member_map_:
        return Verdict(v)
    return None


# The log of the open ``recording_decisions()`` block, if any.
_DECISIONS_RUN: contextvars.ContextVar[DecisionLog | None] = contextvars.ContextVar(
    "seqtheory_decisions_run", default=None)


@contextlib.contextmanager
def recording_decisions():
    """Context manager yielding a :class:`DecisionLog`: the ids of the claims whose registered
    decision rule was called inside the block (in call order, with repeats) and the verdict each
    call returned. The runner uses it to check that a negative control went through its claim's
    own rule (SPEC §3, fidelity rules) and to record what the rule said of the control."""
    log = DecisionLog()
    token = _DECISIONS_RUN.set(log)
    try:
        yield log
    finally:
        _DECISIONS_RUN.reset(token)


@dataclass
class Claim:
    """A registered claim. ``id`` is stable and versioned by ``claim_version``; a renamed claim
    keeps its old id in ``aliases``. ``decided_by``: what evidence would decide the claim when
    its check is inconclusive (report.md's section on inconclusive claims shows it)."""

    id: str
    title: str
    source: Source
    statement: str
    check: CheckFn
    negative_control: ControlFn | None = None
    aliases: tuple[str, ...] = ()
    claim_version: int = 1
    uses_training: bool = False
    decision: DecisionFn | None = None
    plan: PlanFn | None = None
    premise: Premise | None = None
    decided_by: str = ""

    def __post_init__(self) -> None:
        self.claim_version = check_int("claim_version", self.claim_version)
        self.uses_training = check_bool("uses_training", self.uses_training)

    @property
    def family(self) -> str:
        return self.id.split(".", 1)[0]

    def control(self, fn: ControlFn) -> ControlFn:
        """Decorator registering the negative control of this claim."""
        self.negative_control = fn
        return fn

    def decision_rule(self, fn: DecisionFn) -> DecisionFn:
        """Decorator registering the claim's decision rule: a *pure* function of the evidence
        (numbers, tables; no context, no randomness, no I/O) returning the verdict and why,
        typically ``(Verdict, str)``. The check and its negative control must both call the
        returned function; each call is recorded (:func:`recording_decisions`), so the runner can
        tell a control that bypasses the rule. Unit-test the rule with synthetic evidence that
        must pass and evidence that must fail (STYLE: "a claim reads like its statement")."""
        claim_id = self.id

        @functools.wraps(fn)
        def rule(*args: Any, **kwargs: Any) -> Any:
            log = _DECISIONS_RUN.get()
            if log is None:
                return fn(*args, **kwargs)
            log.append(claim_id)
            log.verdicts.append(None)
            i = len(log) - 1
            result = fn(*args, **kwargs)
            log.verdicts[i] = verdict_of(result)
            return result

        self.decision = rule
        return rule


    def training_plan(self, fn: PlanFn) -> PlanFn:
        """Decorator registering the training runs of a trained claim: ``fn(ctx, controls)``
        returns every training job the check (and, when ``controls``, its negative control) will
        ask the results store for — :class:`~seqtheory.models.training.TrainConfig` objects and
        :class:`~seqtheory.proofs_checks.training_runs.StoreJob` objects. The runner trains the
        plans of all selected claims together before the checks run
        (:func:`seqtheory.proofs_checks.training_runs.prefetch`), so the runs of every claim share
        the CPU workers; a check then reads its runs from the store. A plan is an optimisation
        only: a run missing from it is trained when the check asks for it."""
        self.plan = fn
        return fn


REGISTRY: dict[str, Claim] = {}
_ALIASES: dict[str, str] = {}


def claim(id: str, *, title: str, source: Source, statement: str, aliases: tuple[str, ...] = (),
          claim_version: int = 1, uses_training: bool = False,
          premise: Premise | None = None, decided_by: str = "") -> Callable[[CheckFn], Claim]:
    """Decorator: register ``fn(ctx) -> Outcome`` as the check of claim ``id``.

    ``premise``: a fact the statement rests on that is taken from a source and not checked
    (:class:`Premise`); ``statement`` then says only what the check establishes.
    ``decided_by``: what evidence would decide the claim, either way, when its check comes out
    inconclusive ("a depth-2 model that fails to train cannot refute; only a depth-1 model that
    solves the task at 2T can"); report.md shows it in its section on inconclusive claims.

    Returns the :class:`Claim`; register its negative control with ``@the_claim.control``.
    Raises ``ValueError`` for a duplicate id or alias, and for an id ``finding.*`` without the
    :func:`FINDING` source (or that source on another id); ``TypeError`` / ``ValueError`` naming a
    bad argument (:mod:`seqtheory.theory.contract`).
    """
    for name, value in (("id", id), ("title", title), ("statement", statement)):
        check_instance(name, value, str, "a str")
    check_instance("source", source, Source, "a Source")
    claim_version = check_int("claim_version", claim_version)
    uses_training = check_bool("uses_training", uses_training)

    def deco(fn: CheckFn) -> Claim:
        if id in REGISTRY or id in _ALIASES:
            raise ValueError(f"claim id {id!r} is already registered")
        if (id.startswith("finding.")) != (source.paper == "finding"):
            raise ValueError(f"claim {id!r}: ids finding.* and the FINDING source go together "
                             f"(source.paper is {source.paper!r})")
        if premise is not None and not isinstance(premise, Premise):
            raise TypeError(f"premise of {id!r} must be a Premise, got {type(premise).__name__}")
        c = Claim(id=id, title=title, source=source, statement=statement, check=fn,
                  aliases=tuple(aliases), claim_version=claim_version, uses_training=uses_training,
                  premise=premise, decided_by=decided_by)
        REGISTRY[id] = c
        for a in aliases:
            if a in REGISTRY or a in _ALIASES:
                raise ValueError(f"alias {a!r} of {id!r} is already registered")
            _ALIASES[a] = id
        return c

    return deco


_LOADED = False


def load_all() -> dict[str, Claim]:
    """Import every module of :mod:`seqtheory.proofs_checks.claims` (which registers its claims)
    and return the registry, sorted by id."""
    global _LOADED
    if not _LOADED:
        from . import claims as pkg

        for mod in sorted(m.name for m in pkgutil.iter_modules(pkg.__path__)):
            if not mod.startswith("_"):
                importlib.import_module(f"{pkg.__name__}.{mod}")
        _LOADED = True
    return dict(sorted(REGISTRY.items()))


class UnknownClaimError(KeyError, ValueError):
    """No claim has that id or alias (a ``KeyError`` as a lookup, a ``ValueError`` as a bad
    argument)."""

    def __str__(self) -> str:              # the message, not KeyError's repr of it
        return str(self.args[0]) if self.args else ""


def get_claim(id_or_alias: str) -> Claim:
    """Look a claim up by id or alias; :class:`UnknownClaimError` (a ``KeyError`` and a
    ``ValueError``) naming ``id_or_alias`` with the known ids if absent, ``TypeError`` for a
    non-str."""
    check_instance("id_or_alias", id_or_alias, str, "a claim id or alias (str)")
    load_all()
    key = _ALIASES.get(id_or_alias, id_or_alias)
    if key not in REGISTRY:
        raise UnknownClaimError(f"id_or_alias: unknown claim {id_or_alias!r}; known: "
                                f"{', '.join(sorted(REGISTRY))}")
    return REGISTRY[key]


def all_claims() -> list[Claim]:
    return list(load_all().values())

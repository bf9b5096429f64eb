"""Shards of a profile's training runs: pieces that each fit one GPU lease, decisive cells first.

A GPU lease gives minutes, the ``paper`` profile needs hours. :func:`plan_shards` takes every run
the trained claims of a profile plan (:meth:`~seqtheory.proofs_checks.registry.Claim.training_plan`,
controls included, each run once however many claims share it), leaves out the runs already in
evidence (``done``), stacks the runs of one shape into groups, and cuts the groups, in order,
into shards whose estimated time is at most ``limit_s`` (default :data:`SHARD_LIMIT_S`, 6
minutes). ``sweeps/paper_profile.sh`` trains one shard per lease and packs it as an evidence
bundle (:mod:`~seqtheory.proofs_checks.evidence`); ``seqtheory verify --evidence FOLDER`` reads
the union of the bundles.

**Order** (:data:`TIERS`, the decisive cells of [DEPTH] (arXiv:2603.05573) first): S3 and D8 at
depths 1 and 2 (T = 64 and 128 in ``paper``), S4 at depths 2-3, Table 1's A5 cells, the A5
rotation task, Proposition 3.7's A5 runs, parity, then the rest. Within a tier the stacked
groups keep the order of the claims' plans, and runs that train alone (models the batched engine
does not stack, e.g. the abelian model; stored experiments) come after them. Shards are filled in that order (the next group goes into the
first shard of its tier where it fits, else starts a new one; a shard never mixes tiers), so
shard 1 holds the most decisive runs.

**Estimate** (:class:`StepCost`, :data:`H200_ESTIMATE`). ESTIMATED, NOT MEASURED on the engine of
this package: no GPU was lent when the shards were introduced. A group of ``R`` runs of one
shape (batch ``B``, depth ``L``, width ``w``) costs per training step

    fixed(model, L) + R × B × ℓ × L × c × max(1, w / 64)²          (ms)

with ``ℓ`` the mean training length over the steps (the length curriculum counted) and
``fixed(model, L) = s_model × (a + b × L)``. Sources, all measured on one H200 with torch
2.11.0+cu130 on the engine of main at 760aeba (issue 35), the engine before the chunked scans:

* ``a = 22.3 ms``, ``b = 12.8 ms``: AUSSM at width 64, T = 128, batch 32, one run: 48 ms per
  step at depth 2, 125 ms at depth 8 (the line through both);
* ``s_model``: the same step of the other families against AUSSM depth 2's 48 ms: Mamba 22,
  signed Mamba 25, GLA 21 ms; the families not measured (transformer, DeltaProduct, the abelian
  model) take AUSSM's, the costliest measured;
* ``c = 0.30 µs`` per token and layer: 5 stacked A5 AUSSM depth-8 runs took 2 000 steps in 328 s
  (164 ms per step) against one run's 125 ms, i.e. 39 ms for 4 × 32 × 128 × 8 more token-layers.

The final evaluation adds two steps' fixed cost and its tokens (``n_test × test_length`` and up
to 512 training words, forward only: a third of ``c``). A stored experiment
(:class:`~seqtheory.proofs_checks.training_runs.StoreJob`: precision sweeps, the head
experiments) has no GPU figure: its own CPU estimate (``cpu_seconds``, 2-core development
machine) is used. The engine now on main is expected to be faster per step (issue 35 §1); these
figures are then an overestimate, to be replaced by the measured ones when a GPU is lent
(``benchmarks/bench_training_step.py --device cuda``).

A run is never cut across shards (a bundle holds finished runs only); a group is split into
equal parts until one part fits. A single job whose estimate exceeds the limit gets a shard of
its own marked ``over_limit`` (with the paper plan: the stored experiments of 490-950 CPU-s).
"""
from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Sequence

from seqtheory.theory._checks import check_real

from .registry import Context

__all__ = ["SHARD_LIMIT_S", "StepCost", "H200_ESTIMATE", "TIERS", "Shard", "planned_runs",
           "job_seconds", "plan_shards", "shard_rows"]

#: a shard's estimated time at most (s): a lease of about 8 minutes of run time, less start-up,
#: installation and packing
SHARD_LIMIT_S = 360.0


@dataclass(frozen=True)
class StepCost:
    """The estimate model of a training step (module docstring): ``a_ms + b_ms × depth`` fixed
    milliseconds per step for AUSSM, scaled by ``scale[model]`` (``default_scale`` for a model
    not listed), plus ``us_per_token_layer`` microseconds per token and layer at width 64
    (× (width / 64)² above). ``source``: where the figures come from."""

    a_ms: float
    b_ms: float
    scale: dict
    default_scale: float
    us_per_token_layer: float
    source: str

    def step_ms(self, model: str, depth: int, width: int, tokens: float) -> float:
        """Estimated milliseconds of one step of ``tokens`` (runs × batch × length) sequence
        positions of ``depth`` layers of ``model`` at ``width``."""
        fixed = self.scale.get(model, self.default_scale) * (self.a_ms + self.b_ms * depth)
        return fixed + tokens * depth * self.us_per_token_layer * 1e-3 * max(1.0, width / 64) ** 2


#: the H200 estimate (module docstring): measured figures of the engine of main at 760aeba
H200_ESTIMATE = StepCost(
    a_ms=22.3, b_ms=12.83, scale={"aussm": 1.0, "mamba": 22 / 48, "signed_mamba": 25 / 48,
                                  "gla": 21 / 48},
    default_scale=1.0, us_per_token_layer=0.30,
    source="ESTIMATED from one H200 (torch 2.11.0+cu130), engine of main at 760aeba (issue 35): "
           "AUSSM width 64 T 128 batch 32 48 ms/step at depth 2, 125 at depth 8; Mamba 22, "
           "signed Mamba 25, GLA 21 ms at depth 2; 5 stacked AUSSM depth-8 runs 164 ms/step")


def _in_cells(tasks: tuple, depths: tuple) -> Callable[[frozenset, Any], bool]:
    return lambda claims, cfg: getattr(cfg, "task", None) in tasks and getattr(cfg, "depth", 0) in depths


def _of_claim(cid: str, task: str | None = None) -> Callable[[frozenset, Any], bool]:
    return lambda claims, cfg: cid in claims and (task is None or getattr(cfg, "task", None) == task)


#: the shard order: ``(label, predicate(claim ids, config))``; a run goes to the first tier
#: whose predicate holds (the last holds for every run)
TIERS: tuple[tuple[str, Callable[[frozenset, Any], bool]], ...] = (
    ("S3/D8 depths 1-2", _in_cells(("S3", "D8"), (1, 2))),
    ("S4 depths 2-3", _in_cells(("S4",), (2, 3))),
    ("A5", _of_claim("depth.exp.word_problems", "A5")),
    ("rotation", _of_claim("depth.exp.rotation")),
    ("prop3.7", _of_claim("depth.prop3.7.trained")),
    ("parity", _of_claim("finding.parity_negative_eigenvalues")),
    ("rest", lambda claims, cfg: True),
)


@dataclass(frozen=True)
class _Run:
    """One planned run: its store key, job (TrainConfig or StoreJob), claims and tier."""

    key: str
    job: Any
    claims: frozenset
    tier: int


def _config(job: Any) -> Any:
    from .training_runs import StoreJob

    return job.config if isinstance(job, StoreJob) else job


def planned_runs(profile: str = "paper", seed: int = 0, device: str = "cuda",
                 controls: bool = True) -> dict[str, Any]:
    """``{store key: job}`` of every run the trained claims of ``profile`` plan (with
    ``controls``, their negative controls' runs too), each run once, in the claims' order.
    ``ValueError`` for an unknown profile or a negative seed (:class:`Context`)."""
    return {r.key: r.job for r in _runs(Context(seed=seed, profile=profile, device=device), controls)}


def _runs(ctx: Context, controls: bool) -> list[_Run]:
    from seqtheory.models.store import ResultsStore

    from .registry import all_claims, load_all

    load_all()
    jobs: dict[str, Any] = {}
    claims: dict[str, set] = {}
    for c in all_claims():
        if c.plan is None:
            continue
        for job in c.plan(ctx, controls):
            key = ResultsStore.key(_config(job))
            jobs.setdefault(key, job)
            claims.setdefault(key, set()).add(c.id)
    out = []
    for key, job in jobs.items():
        ids = frozenset(claims[key])
        tier = next(i for i, (_, pred) in enumerate(TIERS) if pred(ids, job))
        out.append(_Run(key, job, ids, tier))
    return sorted(out, key=lambda r: r.tier)               # stable: the plans' order within a tier


def _mean_length(cfg) -> float:
    from seqtheory.models.training import length_at_step

    if not cfg.curriculum_steps:
        return float(cfg.train_length)
    ramp = min(cfg.steps, cfg.curriculum_steps)
    total = sum(length_at_step(cfg, s) for s in range(ramp)) + (cfg.steps - ramp) * cfg.train_length
    return total / max(1, cfg.steps)


def job_seconds(job: Any, cost: StepCost = H200_ESTIMATE) -> float:
    """Estimated seconds of ``job``: a list of TrainConfigs stacked as one group (one shape), a
    single TrainConfig, or a StoreJob (its ``cpu_seconds``); the model of the module docstring.
    ``ValueError`` for an empty list."""
    from .training_runs import StoreJob

    if isinstance(job, StoreJob):
        return float(job.cpu_seconds)
    group = list(job) if isinstance(job, (list, tuple)) else [job]
    if not group:
        raise ValueError("job must hold at least one run")
    c, R = group[0], len(group)
    test_length = c.test_length or 2 * c.train_length          # TrainConfig's default
    train = c.steps * cost.step_ms(c.model, c.depth, c.width, R * c.batch_size * _mean_length(c))
    ev_tokens = R * (c.n_test * test_length + min(512, c.n_train) * c.train_length)
    evaluate = 2 * cost.step_ms(c.model, c.depth, c.width, 0) + ev_tokens * c.depth * cost.us_per_token_layer * 1e-3 / 3
    return (train + evaluate) / 1000.0


@dataclass(frozen=True)
class Shard:
    """One shard: ``number`` (1 = first to train), ``tiers`` (labels, in order), ``claims`` (ids
    whose runs it holds), ``cells`` (one line per job), ``jobs`` (lists of TrainConfigs of one
    shape, or StoreJobs), ``keys`` (store keys of its runs), ``seconds`` (estimate, sum of its
    jobs'), ``over_limit`` (a single job whose estimate exceeds the limit)."""

    number: int
    tiers: tuple[str, ...]
    claims: tuple[str, ...]
    cells: tuple[str, ...]
    jobs: tuple
    keys: tuple[str, ...]
    seconds: float
    over_limit: bool = False

    @property
    def runs(self) -> int:
        return len(self.keys)


def _cell(job: Any) -> str:
    from .training_runs import StoreJob

    if isinstance(job, StoreJob):
        return f"stored experiment {job.function.rsplit(':', 1)[-1]} ({job.function.split(':')[0].rsplit('.', 1)[-1]})"
    c = job[0]
    return (f"{c.task} {c.model} L={c.depth} T={c.train_length} batch {c.batch_size} "
            f"width {c.width} x{len(job)}")


def _groups(runs: Sequence[_Run], limit_s: float, cost: StepCost) -> list[tuple[Any, list[_Run]]]:
    """The runs stacked by shape (in first-appearance order within a tier, the runs that train
    alone after the stacked groups), each group split into equal parts until a part's estimate
    fits ``limit_s`` (a single run that does not fit stays alone)."""
    from seqtheory.models.batched import shape_key

    from .training_runs import StoreJob, batchable

    groups: dict[Any, list[_Run]] = {}
    for i, r in enumerate(runs):
        one = isinstance(r.job, StoreJob) or not batchable(r.job)
        groups.setdefault(("alone", i) if one else (r.tier, shape_key(r.job)), []).append(r)
    out = []
    alone_last = sorted(groups.values(), key=lambda ms: (ms[0].tier, len(ms) == 1 and (
        isinstance(ms[0].job, StoreJob) or not batchable(ms[0].job))))
    for members in alone_last:
        if isinstance(members[0].job, StoreJob):
            out.append((members[0].job, members))
            continue
        parts = 1
        while parts < len(members) and job_seconds([r.job for r in members[:math.ceil(len(members) / parts)]], cost) > limit_s:
            parts += 1
        size = math.ceil(len(members) / parts)
        for i in range(0, len(members), size):
            chunk = members[i:i + size]
            out.append(([r.job for r in chunk], chunk))
    return out


def plan_shards(profile: str = "paper", seed: int = 0, *, limit_s: float = SHARD_LIMIT_S,
                done: Iterable[str] = (), first: int = 1, device: str = "cuda",
                controls: bool = True, cost: StepCost = H200_ESTIMATE) -> list[Shard]:
    """The shards of the runs that the trained claims of ``profile`` (seed ``seed``) plan and
    that ``done`` (store keys, e.g. of the runs in an evidence folder) does not hold, in training
    order, numbered from ``first`` (module docstring). Every shard's estimate is at most
    ``limit_s`` seconds, except a shard of one job marked ``over_limit``; no run is in two
    shards, and the shards hold every planned run not in ``done``. ``[]`` when every run is done.
    ``ValueError`` for a non-positive ``limit_s``, ``first < 1``, an unknown profile or a
    negative seed."""
    check_real("limit_s", limit_s, 0)
    if not limit_s > 0:
        raise ValueError(f"limit_s must be positive, got {limit_s!r}")
    if not isinstance(first, int) or isinstance(first, bool) or first < 1:
        raise ValueError(f"first must be a positive int, got {first!r}")
    done = frozenset(done)
    runs = [r for r in _runs(Context(seed=seed, profile=profile, device=device), controls)
            if r.key not in done]
    shards: list[list] = []
    open_from, tier = 0, None              # shards[open_from:] are those of the current tier
    for job, members in _groups(runs, limit_s, cost):
        secs = job_seconds(job, cost)
        if members[0].tier != tier:
            open_from, tier = len(shards), members[0].tier
        fits = [s for s in shards[open_from:]
                if secs <= limit_s and sum(x[2] for x in s) + secs <= limit_s]
        if fits:
            fits[0].append((job, members, secs))
        else:
            shards.append([(job, members, secs)])
    return [_shard(first + i, items, limit_s) for i, items in enumerate(shards)]


def _shard(number: int, items: list, limit_s: float) -> Shard:
    members = [r for _, ms, _ in items for r in ms]
    secs = sum(s for _, _, s in items)
    return Shard(number=number,
                 tiers=tuple(dict.fromkeys(TIERS[r.tier][0] for r in members)),
                 claims=tuple(sorted({c for r in members for c in r.claims})),
                 cells=tuple(_cell(job) for job, _, _ in items),
                 jobs=tuple(job for job, _, _ in items),
                 keys=tuple(r.key for r in members), seconds=round(secs, 1),
                 over_limit=secs > limit_s)


def shard_rows(shards: Sequence[Shard]) -> list[dict[str, Any]]:
    """One JSON-ready row per shard: number, tiers, claims, cells, runs, estimated seconds,
    over_limit and the store keys."""
    return [{"shard": s.number, "tiers": list(s.tiers), "claims": list(s.claims),
             "cells": list(s.cells), "runs": s.runs, "estimated_s": s.seconds,
             "over_limit": s.over_limit, "keys": list(s.keys)} for s in shards]

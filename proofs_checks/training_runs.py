"""How trained claims obtain their runs: the results store, the seeds, and one entry point for a
set of runs (:func:`run_many`).

Every training run of a claim goes through the results store (``ctx.results_dir``, else
``<out_dir>/results``, else the seqtheory cache folder): a run already finished there is read,
never retrained. Seeds come from the run seed by fixed salts (:func:`seeds`), never chosen after
the fact. ``quick`` runs :data:`QUICK_SEEDS` seeds per cell, ``full`` and ``paper``
:data:`FULL_SEEDS`.

With an evidence bundle (``ctx.evidence``, :mod:`seqtheory.proofs_checks.evidence`) the store is
the bundle's and nothing is trained: :func:`run_many` returns the bundle's runs or raises
:class:`~seqtheory.proofs_checks.evidence.MissingEvidence` (:func:`from_bundle`).
"""
from __future__ import annotations

import dataclasses
import importlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

from seqtheory.proofs_checks.registry import Context
from seqtheory.theory._checks import check_real
from seqtheory.theory._messages import counted, shown

__all__ = ["QUICK_SEEDS", "FULL_SEEDS", "MAX_GROUP", "MAX_GROUP_CUDA", "max_group_for",
           "StoreJob", "n_seeds", "seeds", "store",
           "from_bundle", "missing_outcome", "batchable", "run_many", "run_arms", "train_all", "TrainingPool", "plan_jobs",
           "prefetch", "schedule", "queue_order", "cpu_workers", "exit_with_parent",
           "training_cost"]

QUICK_SEEDS = 3
FULL_SEEDS = 5
#: most runs one batched job stacks on a CPU (larger groups spill out of the CPU caches;
#: benchmarks/README_batched.md)
MAX_GROUP = 8
#: most runs one batched job stacks on a CUDA GPU: a launch-bound step costs about the same for
#: 1 or 32 runs (benchmarks/README_batched.md: 32 stacked runs 14x the runs/min of one at a time
#: on an H200), so every run of one shape is stacked (the ``paper`` plans have 10-20 per shape)
MAX_GROUP_CUDA = 64


def max_group_for(device: str) -> int:
    """Most runs one batched job stacks on ``device``: :data:`MAX_GROUP_CUDA` on CUDA,
    :data:`MAX_GROUP` else."""
    return MAX_GROUP_CUDA if str(device).startswith("cuda") else MAX_GROUP


def n_seeds(ctx: Context) -> int:
    """Seeds per cell in the profile of ``ctx``."""
    return QUICK_SEEDS if ctx.quick else FULL_SEEDS


def seeds(ctx: Context, salt: str, n: int) -> list[int]:
    """``n`` training seeds (31-bit ints) derived from the run seed and the fixed ``salt``;
    seed ``i`` does not depend on ``n`` (so ``full`` extends ``quick``'s seeds)."""
    if not isinstance(n, int) or n < 1:
        raise ValueError(f"n must be a positive int, got {shown(n)}")
    return [ctx.numpy_seed(f"{salt}:seed{i}") % 2**31 for i in range(n)]


def store(ctx: Context):
    """The results store of ``ctx`` (see the module docstring)."""
    from seqtheory.models.store import ResultsStore
    from seqtheory.theory._io import cache_dir

    if ctx.evidence is not None:
        from .evidence import evidence_store

        return evidence_store(ctx.evidence)            # read-only: nothing is written there
    if ctx.results_dir is not None:
        root = Path(ctx.results_dir)
    elif ctx.out_dir is not None:
        root = Path(ctx.out_dir) / "results"
    else:
        root = cache_dir("results")
    return ResultsStore(root)


def cpu_workers() -> int:
    """Processes for CPU training: the CPUs this process may use (one torch thread each)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - platforms without sched_getaffinity
        return max(1, os.cpu_count() or 1)


def _config_from_dict(d: dict):
    from seqtheory.models.training import TrainConfig

    return TrainConfig.from_dict(d)


# ------------------------------------------------------------------------------------------------
# jobs: what one worker trains in one go
# ------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class StoreJob:
    """A training job that is not a single :class:`~seqtheory.models.training.TrainConfig` (e.g. the
    head experiment): ``function`` (``"package.module:name"``) is called with a
    :class:`~seqtheory.proofs_checks.registry.Context` of the same seed, profile and device whose
    results store is the caller's, and stores its own result there. ``config`` is the object the
    store keys that result by (the job is skipped when the store holds it finished);
    ``cpu_seconds`` is a rough cost estimate used to balance the workers."""

    function: str
    config: Any
    cpu_seconds: float

    def __post_init__(self) -> None:
        module, sep, name = self.function.partition(":") if isinstance(self.function, str) else ("", "", "")
        if not (module and sep and name.isidentifier()):
            raise ValueError(f"function must read 'package.module:name', got {self.function!r}")
        check_real("cpu_seconds", self.cpu_seconds, 0)


def batchable(cfg) -> bool:
    """True when the batched engine can stack ``cfg`` with runs of its shape (a
    :class:`~seqtheory.models.batched.VMAP_MODELS` model, not bf16)."""
    from seqtheory.models.batched import VMAP_MODELS

    return cfg.model in VMAP_MODELS and cfg.precision != "bf16"


#: relative cost of a layer family per step (complex-diagonal AUSSM layers cost more)
_LAYER_COST = {"aussm": 2.5}


def _cost(job: Any) -> float:
    """Rough CPU seconds of a job (a StoreJob, or a list of TrainConfigs trained as one stacked
    group of ``R`` runs): per step and layer ≈ 2 ms fixed plus 6 µs per (run × sequence ×
    position) at width 32 (×2.5 for AUSSM layers), fitted to runs on the 2-core development
    machine. Only the order of the costs matters (:func:`schedule`)."""
    if isinstance(job, StoreJob):
        return job.cpu_seconds
    c = job[0]
    per_step = c.depth * (0.002 + 6e-6 * len(job) * c.batch_size * c.train_length * (c.width / 32) ** 2)
    return c.steps * per_step * _LAYER_COST.get(c.model, 1.0)


def _jobs(configs: Sequence[Any], workers: int, batched: bool, max_group: int) -> list:
    """Split unfinished runs into jobs: runs of one shape that the batched engine can stack form
    one job (at most ``max_group`` runs); other runs are one job each. While there are fewer jobs
    than ``workers``, the largest group is halved."""
    from seqtheory.models.batched import shape_key

    jobs: list = []
    groups: dict[tuple, list] = {}
    for c in configs:
        if isinstance(c, StoreJob):
            jobs.append(c)
        elif batched and batchable(c):
            groups.setdefault(shape_key(c), []).append(c)
        else:
            jobs.append([c])
    for g in groups.values():
        jobs += [g[i:i + max_group] for i in range(0, len(g), max_group)]
    while len(jobs) < workers:
        big = max((j for j in jobs if isinstance(j, list)), key=len, default=None)
        if big is None or len(big) < 2:
            break
        jobs.remove(big)
        jobs += [big[:len(big) // 2], big[len(big) // 2:]]
    return jobs


def schedule(jobs: Sequence[Any], workers: int) -> list[list]:
    """Longest-processing-time-first assignment of ``jobs`` to ``workers`` shards (each job to
    the least loaded shard, in decreasing order of :func:`_cost`); empty shards are dropped.
    The assignment the workers of :class:`TrainingPool` reach when every job costs its estimate:
    they take the jobs from one queue in this order (:func:`queue_order`), so a job that costs
    more or less than estimated moves the rest to the other workers."""
    if not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers must be a positive int, got {workers!r}")
    shards: list[list] = [[] for _ in range(workers)]
    load = [0.0] * workers
    for job in queue_order(jobs):
        w = load.index(min(load))
        shards[w].append(job)
        load[w] += _cost(job)
    return [s for s in shards if s]


def queue_order(jobs: Sequence[Any]) -> list:
    """``jobs`` in decreasing order of their estimated cost (:func:`_cost`; ties keep their
    order): the order in which the workers of :class:`TrainingPool` take them."""
    return sorted(jobs, key=_cost, reverse=True)


def _take(folder: Path, i: int) -> bool:
    """Claim job ``i`` of a shared queue for this process (an exclusive create of ``folder/i``):
    True for exactly one of the processes that try."""
    try:
        os.close(os.open(folder / str(i), os.O_CREAT | os.O_EXCL | os.O_WRONLY))
        return True
    except FileExistsError:
        return False


def _threads(device: str) -> int | None:
    """Torch threads of a training process: one on CPU (one process per CPU), torch's default else."""
    return 1 if device == "cpu" else None


def _run_job(job: Any, st, ctx_fields: dict) -> None:
    """Run one job into the store ``st``; ``ctx_fields``: the seed, profile and device."""
    from seqtheory.models.batched import train_batched
    from seqtheory.models.store import RunHeldError
    from seqtheory.models.training import train

    device = ctx_fields["device"]
    if isinstance(job, StoreJob):
        module, name = job.function.split(":")
        fn = getattr(importlib.import_module(module), name)
        fn(Context(results_dir=st.root, **ctx_fields))
        return
    if len(job) > 1:
        try:
            train_batched(list(job), store=st, device=device, threads=_threads(device))
            return
        except RunHeldError:   # another process trains some of them: wait for those, one by one
            pass
    for cfg in job:
        train(cfg, store=st, device=device, threads=_threads(device), wait_s=3600.0)


def _encode(job: Any) -> dict:
    if isinstance(job, StoreJob):
        return {"store_job": job.function}
    return {"configs": [dataclasses.asdict(c) for c in job]}


def _decode(d: dict) -> Any:
    if "store_job" in d:
        return StoreJob(d["store_job"], None, 0.0)
    return [_config_from_dict(c) for c in d["configs"]]


def exit_with_parent(poll_s: float = 1.0) -> threading.Thread:
    """Interrupt this process (SIGINT, as Ctrl-C: its held runs are given back, their
    checkpoints kept) as soon as the process that started it is gone, so that a killed
    ``seqtheory verify`` leaves no orphaned worker training on and holding its runs. Returns the
    watching daemon thread."""
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(poll_s)
        os.kill(os.getpid(), signal.SIGINT)

    t = threading.Thread(target=watch, daemon=True, name="seqtheory-parent-watch")
    t.start()
    return t


def _worker_main(argv: list[str]) -> None:
    """``python -m seqtheory.proofs_checks.training_runs STORE QUEUE``: run the jobs listed in
    ``QUEUE/jobs.json`` into the store, in their order, each one that no other worker of the
    queue has taken (:func:`_take` in ``QUEUE/taken``), with the seed, profile and device of
    ``QUEUE/ctx.json``; job ``i`` done is marked by the file ``QUEUE/done/i``. The worker stops
    (giving its runs back) when its parent process is gone (:func:`exit_with_parent`)."""
    from seqtheory.models.store import ResultsStore

    exit_with_parent()
    root, queue = argv[0], Path(argv[1])
    st = ResultsStore(root)
    ctx_fields = json.loads((queue / "ctx.json").read_text())
    for i, d in enumerate(json.loads((queue / "jobs.json").read_text())):
        if _take(queue / "taken", i):
            _run_job(_decode(d), st, ctx_fields)
            (queue / "done" / str(i)).touch()


def _unfinished(st, jobs: Sequence[Any]) -> list:
    seen, todo = set(), []
    for j in jobs:
        cfg = j.config if isinstance(j, StoreJob) else j
        if cfg is None:
            raise ValueError(f"StoreJob {j.function!r} has no config (the key of its stored result)")
        key = (type(j).__name__, st.key(cfg))
        if key not in seen and st.result(cfg) is None:
            seen.add(key)
            todo.append(j)
    return todo


class TrainingPool:
    """Training of ``jobs`` (TrainConfigs and :class:`StoreJob` objects) into the store of
    ``ctx``, started at construction and finished by :meth:`wait`. The jobs the store holds
    finished are skipped; the others are split into jobs (runs of one shape stacked by the batched
    engine, :func:`seqtheory.models.batched.train_batched`, when ``batched``, at most
    ``max_group`` runs per job, default :func:`max_group_for` the device; it reproduces
    one-at-a-time training, tests/test_batched.py). On CPU with more than one job they run in
    :func:`cpu_workers` subprocesses (one torch thread each) that take the jobs from one queue,
    the costliest first (:func:`queue_order`; a worker that finishes early takes the next job,
    so the estimates' errors do not leave a CPU idle), which start at once, so the caller may do other work until :meth:`wait`; otherwise (one job,
    one CPU, or CUDA) :meth:`wait` runs them in this process. Every run is seeded, so the results
    do not depend on the number of processes or on the grouping.

    ``summary`` (also returned by :meth:`wait`, with ``seconds``): ``runs`` to train, ``jobs``,
    ``workers`` (processes; 0 when in this process)."""

    def __init__(self, ctx: Context, jobs: Sequence[Any], batched: bool = True,
                 max_group: int | None = None):
        self._t0 = time.perf_counter()
        self._store = store(ctx)
        workers = cpu_workers() if ctx.device == "cpu" else 1
        todo = [] if ctx.evidence is not None else _unfinished(self._store, jobs)   # never train into a bundle
        self._plan = queue_order(_jobs(todo, workers, batched, max_group or max_group_for(ctx.device)))
        #: store key of each run this pool trains -> the index of its job in the queue
        self._job_of = {self._store.key(c): i for i, j in enumerate(self._plan)
                        for c in ([j.config] if isinstance(j, StoreJob) else j)}
        self._fields = {"seed": ctx.seed, "profile": ctx.profile, "device": ctx.device}
        self._procs: list = []
        self._tmp = None
        self._complete = False                  # every job done (wait() returned)
        self._read: dict[int, int] = {}         # bytes of each worker's stderr read by notes()
        if workers > 1 and len(self._plan) > 1:
            self._start(min(workers, len(self._plan)))
        self.summary = {"runs": sum(1 if isinstance(j, StoreJob) else len(j) for j in self._plan),
                        "jobs": len(self._plan), "workers": len(self._procs)}

    def _start(self, workers: int) -> None:
        self._tmp = tempfile.TemporaryDirectory(prefix="seqtheory-training-")
        tmp = Path(self._tmp.name)
        (tmp / "ctx.json").write_text(json.dumps(self._fields))
        (tmp / "jobs.json").write_text(json.dumps([_encode(j) for j in self._plan]))
        (tmp / "taken").mkdir()
        (tmp / "done").mkdir()
        for w in range(workers):
            with open(tmp / f"stderr{w}.txt", "wb") as err:   # a file, not a pipe: never blocks
                self._procs.append(subprocess.Popen(
                    [sys.executable, "-m", "seqtheory.proofs_checks.training_runs",
                     str(self._store.root), str(tmp)],
                    stdout=err, stderr=err, env=dict(os.environ, OMP_NUM_THREADS="1")))

    def notes(self) -> list[str]:
        """The lines the workers wrote since the last call that say they wait for a run another
        process holds (whose it is and for how long: the results store's wait notes), so that
        the terminal can show them; ``[]`` when the jobs run in this process."""
        if self._tmp is None:
            return []
        out = []
        for w in range(len(self._procs)):
            path = Path(self._tmp.name) / f"stderr{w}.txt"
            try:
                with open(path, "rb") as f:
                    f.seek(self._read.get(w, 0))
                    data = f.read()
            except OSError:
                continue
            whole = data[:data.rfind(b"\n") + 1]            # complete lines only
            self._read[w] = self._read.get(w, 0) + len(whole)
            out += [line.removeprefix("seqtheory: ")
                    for line in whole.decode(errors="replace").splitlines()
                    if line.startswith("seqtheory: waiting for ")]
        return out

    def running(self) -> bool:
        """True while a worker process is still training (False when the jobs run in this
        process, at :meth:`wait`)."""
        return any(p.poll() is None for p in self._procs)

    def keys(self, jobs: Sequence[Any]) -> frozenset[str]:
        """The store keys of ``jobs`` (TrainConfigs and StoreJobs), for :meth:`finished`."""
        return frozenset(self._store.key(j.config if isinstance(j, StoreJob) else j) for j in jobs)

    def finished(self, keys: frozenset[str]) -> bool:
        """True when every run of ``keys`` (:meth:`keys`) is finished: each one this pool
        trains is done (its job marked done by a worker; no query of the store), and the others
        the store held finished when the pool started."""
        if self._complete:
            return True
        done = {int(n) for n in os.listdir(Path(self._tmp.name) / "done")} if self._tmp else set()
        return all(k not in self._job_of or self._job_of[k] in done for k in keys)

    def wait(self) -> dict[str, Any]:
        """Finish the training; returns :attr:`summary` with ``seconds`` (wall time since the
        start). ``RuntimeError`` with the end of its error output when a worker failed."""
        try:
            if not self._procs:
                for job in self._plan:
                    _run_job(job, self._store, self._fields)
            for w, p in enumerate(self._procs):
                if p.wait():
                    err = (Path(self._tmp.name) / f"stderr{w}.txt").read_bytes()
                    raise RuntimeError(f"a training worker failed (exit {p.returncode}):\n"
                                       f"{err.decode(errors='replace')[-2000:]}")
            self._complete = True
        finally:
            self.stop()
        return dict(self.summary, seconds=time.perf_counter() - self._t0)

    def stop(self) -> None:
        """Stop the workers still running and remove the temporary files. A worker gets SIGINT
        first, so that it releases its claimed runs (resumed from their checkpoints later), and
        is killed if it has not exited within 10 s."""
        for p in self._procs:
            if p.poll() is None:
                p.send_signal(signal.SIGINT)
        for p in self._procs:
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
        if self._tmp is not None:
            self._tmp.cleanup()
            self._tmp = None


def train_all(ctx: Context, jobs: Sequence[Any], batched: bool = True,
              max_group: int | None = None) -> dict[str, Any]:
    """Train every job of ``jobs`` that the store of ``ctx`` does not hold finished
    (:class:`TrainingPool`; at most ``max_group`` runs stacked per job, default
    :func:`max_group_for` the device) and wait; returns the pool's summary."""
    return TrainingPool(ctx, jobs, batched, max_group).wait()


def plan_jobs(claims: Sequence[Any], ctx: Context, controls: bool = False) -> list:
    """The training jobs of every claim of ``claims`` that registered a training plan
    (:meth:`~seqtheory.proofs_checks.registry.Claim.training_plan`; with ``controls``, the
    controls' runs too)."""
    return [j for c in claims if c.plan is not None for j in c.plan(ctx, controls)]


def prefetch(claims: Sequence[Any], ctx: Context, controls: bool = False) -> dict[str, Any]:
    """Train the runs of the training plans of ``claims`` (:func:`plan_jobs`) together, so that
    the runs of all claims share the workers, and wait. The checks then read their runs from
    the store."""
    return train_all(ctx, plan_jobs(claims, ctx, controls))


def training_cost(ctx: Context, jobs: Sequence[Any]) -> dict[str, Any] | None:
    """What the runs of ``jobs`` (a claim's training plan) cost a fresh results store:
    ``{"runs": n, "seconds": s}``, ``n`` the runs (a stored experiment counts its parts:
    precision sweeps, head widths; a part that trains several models, a head experiment's two
    heads per seed, counts them: its ``n_models()``), ``s`` the wall time during which
    they trained (the union of each finished record's interval in the store, the parts of a
    stored experiment included, from its first claim to its finish; runs trained
    side by side count once; a run interrupted and resumed counts its pause too), ``None`` for
    ``seconds`` when a run is not finished. ``None`` for no jobs or with an evidence bundle
    (nothing is trained)."""
    if ctx.evidence is not None or not jobs:
        return None
    st = store(ctx)
    configs = [j.config if isinstance(j, StoreJob) else j for j in jobs]
    # a stored experiment of stored parts (precision sweeps, head widths) trains in its parts
    parts = [x for c in configs for x in (c, *getattr(c, "sweeps", ()), *getattr(c, "points", ()))]
    keys = list(dict.fromkeys(st.key(c) for c in parts))
    trained = {st.key(x): x for c in configs
               for x in (getattr(c, "sweeps", ()) or getattr(c, "points", ()) or (c,))}
    runs = sum(x.n_models() if hasattr(x, "n_models") else 1 for x in trained.values())
    spans = []
    for key in keys:
        rec = st.get(key)
        if rec is None or rec.status != "finished":
            return {"runs": runs, "seconds": None}
        spans.append((rec.created, rec.updated))
    total, end = 0.0, -float("inf")
    for a, b in sorted(spans):
        if b > end:
            total += b - max(a, end)
            end = b
    return {"runs": runs, "seconds": round(total, 1)}


def run_many(ctx: Context, configs: Sequence[Any]) -> list[dict]:
    """Results of the training runs ``configs`` (:class:`~seqtheory.models.training.TrainConfig`),
    in order: read from the store when finished there, else trained (:func:`train_all`) and
    stored. Every set of runs of a trained claim goes through this one function."""
    from seqtheory.models.training import train

    if ctx.evidence is not None:
        return from_bundle(ctx, configs)
    train_all(ctx, configs)
    st = store(ctx)
    return [train(cfg, store=st, device=ctx.device, threads=_threads(ctx.device), wait_s=3600.0)
            for cfg in configs]


def run_arms(ctx: Context, arms: dict[Any, list]) -> dict[Any, list[dict]]:
    """Results of several arms of configurations (``{arm: [config, ...]}``, each arm's results in
    its configurations' order), trained as one set: one :func:`run_many` call, so unfinished runs
    of every arm share the workers."""
    flat = run_many(ctx, [c for cfgs in arms.values() for c in cfgs])
    out, i = {}, 0
    for k, cfgs in arms.items():
        out[k], i = flat[i:i + len(cfgs)], i + len(cfgs)
    return out


def from_bundle(ctx: Context, configs: Sequence[Any]) -> list[dict]:
    """The results of ``configs`` from the evidence bundle of ``ctx`` (never trained here);
    :class:`~seqtheory.proofs_checks.evidence.MissingEvidence` naming how many it lacks."""
    from .evidence import MissingEvidence, describe, evidence_provenance

    st = store(ctx)
    out = [st.result(c) for c in configs]
    missing = [c for c, r in zip(configs, out) if r is None]
    if missing:
        raise MissingEvidence(
            f"{len(missing)} of {counted(len(configs), 'run')} {'is' if len(missing) == 1 else 'are'}"
            f" not in the {describe(evidence_provenance(ctx.evidence))} "
            f"at {ctx.evidence} "
            f"(first missing: {_label(st, missing[0])}); they are not trained here",
            missing=len(missing))
    return out


def missing_outcome(claim: Any, ctx: Context, exc: Exception):
    """The outcome of a trained claim whose runs the evidence of ``ctx`` lacks (``exc``: the
    :class:`~seqtheory.proofs_checks.evidence.MissingEvidence` its check raised): ``inconclusive``
    with the key figure ``missing N runs``, ``N`` the runs of the claim's training plan (without
    controls) that the evidence lacks (at least ``exc.missing``). Absence of evidence never
    refutes (SPEC §3)."""
    from .registry import Outcome, Verdict

    st = store(ctx)
    planned = [j.config if isinstance(j, StoreJob) else j
               for j in (claim.plan(ctx, False) if claim.plan is not None else [])]
    keys = list(dict.fromkeys(st.key(c) for c in planned))
    n = max(sum(st.result(k) is None for k in keys), getattr(exc, "missing", 0), 1)
    return Outcome("inconclusive", f"missing {counted(n, 'run')}",
                   evidence={"missing_runs": n, "planned_runs": len(keys)},
                   notes=f"The evidence lacks {n} of the claim's {counted(len(keys), 'planned run')}"
                         f"; absence of evidence never refutes (SPEC §3). {exc}")


def _label(st, cfg) -> str:
    """Short name of a run configuration for messages: key prefix, task, model, depth."""
    parts = [st.key(cfg)[:12]] + [f"{f} {getattr(cfg, f)}" for f in ("task", "model", "depth")
                                  if hasattr(cfg, f)]
    return ", ".join(parts)


if __name__ == "__main__":
    _worker_main(sys.argv[1:])

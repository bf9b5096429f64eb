"""Hyper-parameter sweeps of :func:`seqtheory.models.training.train`: grid files, executors, resume.

A sweep file (TOML, read with :mod:`tomllib`) has three tables::

    [sweep]                       # optional
    name = "paper_full"
    description = "..."
    lease_s = 600.0               # lease of a claimed run (s); a killed run is reclaimable after it

    [grid]                        # every key a TrainConfig field, every value a non-empty list
    seed = [0, 1, 2]
    task = ["C2", "S3", "A5"]
    model = ["gla", "mamba"]
    depth = [1, 2, 3]

    [fixed]                       # TrainConfig fields shared by every run
    train_length = 128
    test_length = 256
    steps = 10000

The grid is the Cartesian product of the ``[grid]`` lists, in the order they are written (first
key outermost), each point merged with ``[fixed]`` into one :class:`TrainConfig`. Validation
(:func:`parse_sweep`): unknown tables or keys, a key in both ``[grid]`` and ``[fixed]``, wrong
value types, empty or repeated grid lists, unknown task names and configurations that
``TrainConfig`` rejects raise ``ValueError`` naming the key (``grid.depth``, ``fixed.steps`` …).

Execution and resume (SPEC §5, "nothing lost"). Both backends keep the results in one
:class:`~seqtheory.models.store.ResultsStore` and use its claim protocol: a run is taken with the
store's atomic ``claim`` (a lease of ``lease_s`` seconds, kept alive while the run trains), trained
with ``train`` (which resumes from the run's last checkpoint) and stored with ``finish``.
Consequently, whenever a sweep is killed (even ``SIGKILL`` of the parent and all workers):

* a finished run is never trained again (``claim`` refuses finished runs);
* a run that was training keeps its last checkpoint; once its lease has expired, the restarted
  sweep claims it and continues from that checkpoint;
* no run is lost: a sweep only ends when every run of the grid is finished, or failed during
  this invocation (a run failed by an earlier invocation is tried again), and waits (polling
  every ``poll_s``) for runs that other live sweeps hold or whose lease has not expired yet.

**Local backend.** Every worker (an in-process loop, or a process of the local pool) runs
:func:`worker_loop` against the shared store, with a heartbeat thread extending its lease.

**Ray backend: the driver owns the store.** Only the process that calls :func:`run_sweep` (the
driver) opens the results folder; no node of the cluster needs to see it. The driver claims a
run, reads its checkpoint from its own store (if any) and dispatches one Ray task with the
configuration and the checkpoint *bytes* (at most ``workers`` tasks in flight). The task trains
with the unchanged ``train`` into a private scratch store in a temporary folder of its node
(``tempfile``: ``TMPDIR`` of the node), and ships back through Ray:

* mid-run, at most every ``stream_every_s`` seconds, its newest checkpoint (bytes, with its step)
  and the new curve points, sent to a small mailbox actor on the driver's node;
* at the end, as the task's return value: the stored result, the final checkpoint bytes and the
  remaining curve points.

The driver writes them into its store (checkpoints atomically, then ``finish``) and extends the
leases of the runs in flight. A task whose worker process or node dies (a Ray system error, not
an exception of ``train``) is re-dispatched from the newest checkpoint the driver holds, up to
``ray_retries`` times per run and invocation (then the run is marked failed); messages of the
lost attempt that arrive late are ignored. An exception raised by ``train`` marks the run failed.
Killing the driver leaves the leases to expire; the restarted sweep resumes every run from the
driver's store alone. The nodes need the seqtheory package installed, nothing else: no shared
filesystem and no SQLite locking across machines.

Each sweep appends one JSON line per event to ``<results>/sweep_events.jsonl``
(:func:`read_events`), an audit trail of who trained what: ``start`` (the worker ``owner`` =
``host:pid:random``, the checkpoint step it resumes from as ``resume_step``), ``finish``
(``seconds``), ``fail`` (``error``). The Ray driver (the only writer of that file on that backend)
adds ``attempt``, ``node`` (Ray node id), ``pid`` and ``scratch`` (the task's scratch folder) to
``start``, and the events ``checkpoint`` (a mid-run checkpoint stored, with its ``step``) and
``lost`` (a task died; ``error``).
"""
from __future__ import annotations

import dataclasses
import difflib
import itertools
import json
import math
import os
import sys
import threading
import time
import tomllib
import types
import traceback
import typing
from dataclasses import dataclass, field
from pathlib import Path
from numbers import Integral, Real
from typing import Any, Callable, Iterable, Sequence

from seqtheory.theory._checks import check_real
from seqtheory.theory._messages import counted, shown

from .store import ResultsStore, check_lease_times, config_key, default_owner
from .training import TrainConfig

__all__ = ["SweepSpec", "SweepStatus", "parse_sweep", "load_sweep", "sweep_status",
           "worker_loop", "run_sweep", "read_events", "EVENTS_NAME", "DEFAULT_LEASE_S",
           "BACKENDS"]

EVENTS_NAME = "sweep_events.jsonl"
DEFAULT_LEASE_S = 600.0
DEFAULT_POLL_S = 5.0
DEFAULT_STREAM_EVERY_S = 30.0
DEFAULT_RAY_RETRIES = 3
BACKENDS = ("local", "ray")
_SWEEP_KEYS = ("name", "description", "lease_s")
_TABLES = ("sweep", "grid", "fixed")
_FIELDS = {f.name: f for f in dataclasses.fields(TrainConfig)}
_HINTS = typing.get_type_hints(TrainConfig)

Printer = Callable[[str], None]


# --------------------------------------------------------------------------- the sweep file
@dataclass(frozen=True)
class SweepSpec:
    """A validated sweep: ``grid`` (field → tuple of values, in declaration order), ``fixed``
    (field → value), ``lease_s`` and descriptive ``name``/``description``/``source``."""

    name: str
    grid: dict[str, tuple]
    fixed: dict[str, Any]
    lease_s: float = DEFAULT_LEASE_S
    description: str = ""
    source: str = "<dict>"
    _configs: tuple = field(default=(), repr=False, compare=False)

    @property
    def size(self) -> int:
        """Number of runs (the product of the grid list lengths)."""
        return math.prod(len(v) for v in self.grid.values())

    def configs(self) -> list[TrainConfig]:
        """The runs of the grid as ``TrainConfig`` objects (first grid key outermost)."""
        return list(self._configs)


def _type_name(hint) -> str:
    return getattr(hint, "__name__", None) or str(hint).replace("typing.", "")


def _coerce(name: str, value: Any, where: str) -> Any:
    """Check ``value`` against the annotation of TrainConfig field ``name``; return it converted
    (int → float for float fields, list → tuple for tuple fields)."""
    hint = _HINTS[name]
    args = typing.get_args(hint)
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        hint = next(a for a in args if a is not type(None))  # TOML has no null: the non-None type
        args = typing.get_args(hint)
    origin = typing.get_origin(hint)
    bad = ValueError(f"{where}: expected {_type_name(hint)}, got {type(value).__name__} "
                     f"{value!r}")
    if hint is bool:
        if not isinstance(value, bool):
            raise bad
        return value
    if hint is int:
        if not isinstance(value, Integral) or isinstance(value, bool):
            raise bad
        return int(value)
    if hint is float:
        if not isinstance(value, Real) or isinstance(value, bool):
            raise bad
        if not math.isfinite(value):
            raise ValueError(f"{where}: must be finite, got {shown(value)}")
        return float(value)
    if hint is str:
        if not isinstance(value, str):
            raise bad
        return value
    if origin is tuple:
        if not isinstance(value, list) or len(value) != len(args):
            raise ValueError(f"{where}: expected a list of {len(args)} numbers, got {value!r}")
        return tuple(_coerce_scalar(a, v, f"{where}[{i}]")
                     for i, (a, v) in enumerate(zip(args, value)))
    raise TypeError(f"{where}: unsupported field type {hint!r}")  # pragma: no cover


def _coerce_scalar(hint, value, where):
    if hint is float and isinstance(value, Real) and not isinstance(value, bool) \
            and math.isfinite(value):
        return float(value)
    raise ValueError(f"{where}: expected {_type_name(hint)}, got {value!r}")


def _unknown(key: str, where: str, allowed: Iterable[str]) -> ValueError:
    close = difflib.get_close_matches(key, list(allowed), n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    return ValueError(f"{where}: unknown key {key!r}{hint}")


def _check_task(task: str, where: str) -> None:
    from .tasks import task_names

    if task in task_names():
        return
    from seqtheory.theory.groups import FiniteGroup

    try:
        FiniteGroup.named(task)
    except (ValueError, TypeError) as exc:
        raise ValueError(f"{where}: unknown task {task!r} (not one of {task_names()} nor a group "
                         f"name: {exc})") from None


def parse_sweep(data: dict, source: str = "<dict>") -> SweepSpec:
    """Validate a parsed sweep file (see the module docstring) and expand its grid.

    Raises ``ValueError`` naming the offending key (``grid.lr``, ``fixed.steps``, ``sweep.lease_s``)
    for unknown tables/keys, wrong types, empty or repeated grid lists, a key both in ``grid``
    and ``fixed``, unknown task names, and grid points that ``TrainConfig`` rejects.
    """
    if not isinstance(data, dict):
        raise TypeError(f"sweep data must be a dict, got {type(data).__name__}")
    for k, v in data.items():
        if k not in _TABLES:
            raise _unknown(k, source, _TABLES)
        if not isinstance(v, dict):
            raise ValueError(f"{source}: [{k}] must be a table, got {type(v).__name__}")
    meta = data.get("sweep", {})
    for k in meta:
        if k not in _SWEEP_KEYS:
            raise _unknown(k, f"{source}: sweep", _SWEEP_KEYS)
    name = meta.get("name", Path(source).stem if source != "<dict>" else "sweep")
    description = meta.get("description", "")
    for k, v in (("name", name), ("description", description)):
        if not isinstance(v, str):
            raise ValueError(f"{source}: sweep.{k}: expected str, got {type(v).__name__}")
    lease_s = meta.get("lease_s", DEFAULT_LEASE_S)
    lease_s = check_real(f"{source}: sweep.lease_s", lease_s, 0, above=True)

    grid_in, fixed_in = data.get("grid", {}), data.get("fixed", {})
    grid: dict[str, tuple] = {}
    for k, values in grid_in.items():
        where = f"{source}: grid.{k}"
        if k not in _FIELDS:
            raise _unknown(k, f"{source}: grid", _FIELDS)
        if not isinstance(values, list):
            raise ValueError(f"{where}: expected a list of values, got {type(values).__name__}")
        if not values:
            raise ValueError(f"{where}: empty list (a grid axis needs at least one value)")
        vals = tuple(_coerce(k, v, f"{where}[{i}]") for i, v in enumerate(values))
        if len(set(vals)) != len(vals):
            raise ValueError(f"{where}: repeated values {list(values)!r}")
        grid[k] = vals
    fixed: dict[str, Any] = {}
    for k, v in fixed_in.items():
        if k not in _FIELDS:
            raise _unknown(k, f"{source}: fixed", _FIELDS)
        if k in grid:
            raise ValueError(f"{source}: {k!r} is both in [grid] and in [fixed]")
        fixed[k] = _coerce(k, v, f"{source}: fixed.{k}")
    for req in ("task", "model"):
        if req not in grid and req not in fixed:
            raise ValueError(f"{source}: {req!r} must be given in [grid] or [fixed]")
    tasks = grid.get("task", (fixed.get("task"),))
    for t in tasks:
        _check_task(t, f"{source}: {'grid' if 'task' in grid else 'fixed'}.task")

    configs = []
    axes = list(grid)
    for point in itertools.product(*grid.values()):
        kw = dict(fixed, **dict(zip(axes, point)))
        try:
            configs.append(TrainConfig(**kw))
        except (ValueError, TypeError) as exc:
            desc = ", ".join(f"{a}={v!r}" for a, v in zip(axes, point))
            raise ValueError(f"{source}: grid point ({desc}): {exc}") from None
    return SweepSpec(name=name, grid=grid, fixed=fixed, lease_s=float(lease_s),
                     description=description, source=source, _configs=tuple(configs))


def load_sweep(path: str | os.PathLike) -> SweepSpec:
    """Read and validate the sweep file ``path`` (``ValueError`` for invalid TOML or content,
    a folder or an unreadable file; ``FileNotFoundError`` when missing)."""
    p = Path(path)
    if p.is_dir():
        raise ValueError(f"{p}: is a folder, not a sweep file")
    try:
        with p.open("rb") as fh:
            data = tomllib.load(fh)
    except FileNotFoundError:
        raise FileNotFoundError(f"sweep file {str(p)!r} does not exist") from None
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"{p}: not valid TOML: {exc}") from None
    except UnicodeDecodeError as exc:
        raise ValueError(f"{p}: not valid TOML: not UTF-8 text ({exc.reason} at byte "
                         f"{exc.start})") from None
    except OSError as exc:
        raise ValueError(f"{p}: cannot be read: {exc.strerror or exc}") from None
    return parse_sweep(data, source=str(p))


# --------------------------------------------------------------------------- status
@dataclass(frozen=True)
class SweepStatus:
    """Where a sweep stands in a store: ``finished``; ``running`` (claimed, live lease);
    ``interrupted`` (claimed, lease expired: its worker died; resumable); ``failed``;
    ``new`` (not in the store). ``todo = new + interrupted + failed``."""

    total: int
    finished: int
    running: int
    interrupted: int
    failed: int
    new: int

    @property
    def todo(self) -> int:
        return self.new + self.interrupted + self.failed

    @property
    def complete(self) -> bool:
        return self.finished == self.total

    def line(self) -> str:
        return (f"{self.finished}/{self.total} done, {self.running} running, {self.todo} todo "
                f"({self.new} new, {self.interrupted} interrupted, {self.failed} failed)")


def _classify(rec, now: float) -> str:
    if rec is None:
        return "new"
    if rec.status == "finished":
        return "finished"
    if rec.status == "failed":
        return "failed"
    return "running" if (rec.lease_until or 0) > now else "interrupted"


def _records(store: ResultsStore) -> dict:
    """key → run record, for state decisions only (status, owner, lease, updated). Uses the
    store's ``states()`` when it has one (records without decoded results: cheap on large
    stores), else ``runs()``."""
    states = getattr(store, "states", None)
    if callable(states):
        return states()
    return {r.key: r for r in store.runs()}


def sweep_status(store: ResultsStore, configs: Sequence[TrainConfig],
                 now: float | None = None) -> SweepStatus:
    """Count the runs of ``configs`` by state in ``store`` (see :class:`SweepStatus`)."""
    now = time.time() if now is None else now
    recs = _records(store)
    counts = dict.fromkeys(("finished", "running", "interrupted", "failed", "new"), 0)
    key_of = getattr(store, "key_of", config_key)  # finds runs stored under an earlier key format
    for cfg in configs:
        counts[_classify(recs.get(key_of(cfg)), now)] += 1
    return SweepStatus(total=len(configs), **counts)


# --------------------------------------------------------------------------- events
def _log_event(results_dir: Path, **event: Any) -> None:
    """Append one JSON line (a single ``write`` on an ``O_APPEND`` descriptor)."""
    line = (json.dumps(dict(time=time.time(), **event), sort_keys=True) + "\n").encode()
    fd = os.open(results_dir / EVENTS_NAME, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(fd, line)
    finally:
        os.close(fd)


def read_events(results_dir: str | os.PathLike) -> list[dict]:
    """The events of ``<results_dir>/sweep_events.jsonl`` in order ([] when absent). A line cut
    short by a kill is skipped."""
    p = Path(results_dir) / EVENTS_NAME
    if not p.is_file():
        return []
    out = []
    for line in p.read_text().splitlines():
        try:
            out.append(json.loads(line))
        except json.JSONDecodeError:
            continue
    return out


# --------------------------------------------------------------------------- the worker
class _Heartbeat(threading.Thread):
    """Extends the lease of a held run every ``lease_s / 3`` seconds until stopped (or until
    the lease is no longer ours: the run finished, failed, or was taken over)."""

    def __init__(self, store: ResultsStore, cfg: TrainConfig, owner: str, lease_s: float,
                 step: int):
        super().__init__(daemon=True)
        self.store, self.cfg, self.owner, self.lease_s = store, cfg, owner, lease_s
        self.step = step
        self._stop_evt = threading.Event()

    def run(self) -> None:
        while not self._stop_evt.wait(self.lease_s / 3):
            try:
                self.store.heartbeat(self.cfg, self.owner, self.step, self.lease_s)
            except RuntimeError:
                return

    def stop(self) -> None:
        self._stop_evt.set()
        self.join()


def _checkpoint_step(store: ResultsStore, cfg: TrainConfig) -> int:
    """The step of the run's checkpoint (0 when none; -1 when it cannot be read: train() will
    report that)."""
    if not store.checkpoint_path(cfg).is_file():
        return 0
    try:
        ck = store.load_checkpoint(cfg)
        return int(ck["step"]) if ck else 0
    except Exception:
        return -1


def _train_one(store: ResultsStore, cfg: TrainConfig, owner: str, device: str, lease_s: float,
               say: Printer) -> bool:
    """Train a run that ``owner`` has claimed. True when it finished, False when it failed."""
    from .training import train

    key = config_key(cfg)
    resume = _checkpoint_step(store, cfg)
    _log_event(store.root, event="start", key=key, owner=owner, resume_step=resume)
    say(f"[{owner}] start {_describe(cfg)} ({key[:10]})"
        + (f", resuming from step {resume}" if resume else ""))
    hb = _Heartbeat(store, cfg, owner, lease_s, resume)
    hb.start()
    t0 = time.perf_counter()

    def on_progress(info: dict) -> None:
        hb.step = int(info["step"])

    try:
        res = train(cfg, store=store, device=device, owner=owner, on_progress=on_progress,
                    lease_s=lease_s)
    except Exception:
        hb.stop()
        tb = traceback.format_exc()
        store.fail(cfg, owner, tb)  # train() does so too; this covers errors before its try
        _log_event(store.root, event="fail", key=key, owner=owner,
                   error=tb.strip().splitlines()[-1][:500])
        say(f"[{owner}] FAILED {_describe(cfg)} ({key[:10]}): {tb.strip().splitlines()[-1]}")
        return False
    except BaseException:
        hb.stop()
        raise
    hb.stop()
    seconds = time.perf_counter() - t0
    acc = (res.get("test") or {}).get("seq_acc")
    _log_event(store.root, event="finish", key=key, owner=owner, seconds=seconds,
               from_store=bool(res.get("from_store")))
    say(f"[{owner}] done  {_describe(cfg)} ({key[:10]}) in {seconds:.1f} s"
        + (f", seq_acc {acc:.3f}" if isinstance(acc, float) else ""))
    return True


def _describe(cfg: TrainConfig) -> str:
    return (f"{cfg.task}/{cfg.model} depth {cfg.depth} width {cfg.width} lr {cfg.lr:g} "
            f"batch {cfg.batch_size} seed {cfg.seed}")


def _scan(store: ResultsStore, configs: Sequence[TrainConfig], keys: Sequence[str], owner: str,
          started_at: float) -> tuple[list[TrainConfig], int]:
    """The runs ``owner`` may claim now (new, interrupted, held by ``owner``, or failed before
    ``started_at``), in order, and the number of runs it must wait for (held by other live
    owners)."""
    now = time.time()
    recs = _records(store)
    claimable, waiting = [], 0
    for cfg, key in zip(configs, keys):
        rec = recs.get(key)
        state = _classify(rec, now)
        if state == "finished" or (state == "failed" and rec.updated >= started_at):
            continue
        if state == "running" and rec.owner != owner:
            waiting += 1
        else:
            claimable.append(cfg)
    return claimable, waiting


def worker_loop(results_dir: str | os.PathLike, configs: Sequence[TrainConfig], *,
                device: str = "cpu", lease_s: float = DEFAULT_LEASE_S,
                poll_s: float = DEFAULT_POLL_S, started_at: float | None = None,
                owner: str | None = None, offset: int = 0, torch_threads: int | None = None,
                say: Printer | None = None) -> dict[str, int]:
    """Claim and train runs of ``configs`` until each is finished, or failed since
    ``started_at`` (default: now). Runs held by other live workers, or by dead ones whose lease
    has not expired yet, are waited for (re-checked every ``poll_s``). ``offset`` rotates the
    scan order so that parallel workers start on different runs. Returns counts
    ``{"trained", "failed"}`` of this worker."""
    check_lease_times(lease_s, poll_s=poll_s)
    if torch_threads:
        import torch

        torch.set_num_threads(int(torch_threads))
    say = say or (lambda s: print(s, flush=True))
    started_at = time.time() if started_at is None else started_at
    owner = owner or default_owner()
    store = ResultsStore(results_dir)
    configs = list(configs)
    if configs:
        k = offset % len(configs)
        configs = configs[k:] + configs[:k]
    keys = [store.key_of(c) for c in configs]  # a run stored under an earlier key format too
    counts = {"trained": 0, "failed": 0}
    while True:
        claimable, waiting = _scan(store, configs, keys, owner, started_at)
        if not claimable and not waiting:
            return counts
        for cfg in claimable:
            if store.claim(cfg, owner, lease_s=lease_s):
                ok = _train_one(store, cfg, owner, device, lease_s, say)
                counts["trained" if ok else "failed"] += 1
                break
        else:
            time.sleep(poll_s)


# --------------------------------------------------------------------------- executors
def _local_worker_main(results_dir, configs, device, lease_s, poll_s, started_at, offset,
                       threads) -> None:
    from seqtheory.theory._signals import sigterm_as_interrupt

    sigterm_as_interrupt()   # train() then gives its lease back, keeping the checkpoint
    worker_loop(results_dir, configs, device=device, lease_s=lease_s, poll_s=poll_s,
                started_at=started_at, offset=offset, torch_threads=threads)


def _run_local(configs, results_dir, workers, device, lease_s, poll_s, started_at, say,
               progress_every_s, threads) -> list[str]:
    errors: list[str] = []
    if workers == 1:
        worker_loop(results_dir, configs, device=device, lease_s=lease_s, poll_s=poll_s,
                    started_at=started_at, torch_threads=threads, say=say)
        return errors
    import multiprocessing as mp

    ctx = mp.get_context("spawn")
    stride = max(1, len(configs) // workers)
    procs = [ctx.Process(target=_local_worker_main, name=f"sweep-worker-{i}",
                         args=(str(results_dir), configs, device, lease_s, poll_s, started_at,
                               i * stride, threads))
             for i in range(workers)]
    for p in procs:
        p.start()
    store = ResultsStore(results_dir)
    try:
        while any(p.is_alive() for p in procs):
            deadline = time.time() + progress_every_s
            while time.time() < deadline and any(p.is_alive() for p in procs):
                time.sleep(min(1.0, progress_every_s))
            say(f"progress: {sweep_status(store, configs).line()}")
    except BaseException:
        for p in procs:
            if p.is_alive():
                p.terminate()
        for p in procs:
            p.join(30)
        raise
    for p in procs:
        p.join()
        if p.exitcode != 0:
            errors.append(f"{p.name} exited with code {p.exitcode}")
    return errors


# --------------------------------------------------------------------------- the Ray backend
class _Mailbox:
    """A Ray actor on the driver's node: tasks ``put`` messages ``(kind, key, attempt, payload)``
    (``kind`` ``"start"`` or ``"checkpoint"``); the driver drains them in arrival order."""

    def __init__(self) -> None:
        self._messages: list[tuple] = []

    def put(self, message: tuple) -> None:
        self._messages.append(message)

    def drain(self) -> list[tuple]:
        out, self._messages = self._messages, []
        return out


def _step_of(checkpoint: bytes) -> int:
    """The training step recorded in checkpoint bytes (as written by ``train``)."""
    import io

    import torch

    return int(torch.load(io.BytesIO(checkpoint), map_location="cpu", weights_only=False)["step"])


class _Shipper:
    """``on_progress`` callback of a Ray task: sends the scratch store's newest checkpoint (bytes
    and step) with the curve points not sent yet to the driver's mailbox, at most every
    ``every_s`` seconds (``train`` calls it every ``log_every`` steps)."""

    def __init__(self, store: ResultsStore, cfg: TrainConfig, mailbox, attempt: int,
                 every_s: float):
        self.store, self.cfg, self.mailbox = store, cfg, mailbox
        self.key, self.attempt, self.every_s = config_key(cfg), attempt, every_s
        self.path = store.checkpoint_path(cfg)
        self.shipped = self._signature()  # the checkpoint resumed from came from the driver
        self.sent_step = 0
        self.last = time.monotonic()

    def _signature(self) -> tuple | None:
        try:
            st = self.path.stat()  # checkpoints are replaced atomically: a new inode each time
        except FileNotFoundError:
            return None
        return st.st_ino, st.st_mtime_ns, st.st_size

    def new_points(self) -> list[dict]:
        """The curve points of the scratch store after the last one sent."""
        points = [pt for pt in self.store.metrics(self.cfg) if pt["step"] > self.sent_step]
        if points:
            self.sent_step = points[-1]["step"]
        return points

    def __call__(self, info: dict) -> None:
        import ray

        if time.monotonic() - self.last < self.every_s:
            return
        sig = self._signature()
        if sig is None or sig == self.shipped:
            return
        data = self.path.read_bytes()
        payload = {"step": _step_of(data), "checkpoint": data, "metrics": self.new_points()}
        ray.get(self.mailbox.put.remote(("checkpoint", self.key, self.attempt, payload)))
        self.shipped, self.last = sig, time.monotonic()


def _ray_train(cfg: TrainConfig, checkpoint: bytes | None, attempt: int, device: str,
               threads: int, mailbox, stream_every_s: float) -> dict:
    """The Ray task of one run: train ``cfg`` with ``train`` into a scratch store in this node's
    temporary folder, resuming from ``checkpoint`` (bytes from the driver's store, or None).
    Returns the stored result, the final checkpoint bytes, the curve points not shipped yet, the
    worker's owner id and the training seconds. Never touches the driver's results folder."""
    import shutil
    import tempfile

    import ray

    from .training import train

    key = config_key(cfg)
    scratch = Path(tempfile.mkdtemp(prefix=f"seqtheory-run-{key[:10]}-"))
    try:
        store = ResultsStore(scratch)
        if checkpoint is not None:
            store.checkpoint_path(cfg).write_bytes(checkpoint)
        owner = default_owner()
        ray.get(mailbox.put.remote(("start", key, attempt, {
            "owner": owner, "pid": os.getpid(), "node": ray.get_runtime_context().get_node_id(),
            "scratch": str(scratch), "resume_step": _step_of(checkpoint) if checkpoint else 0})))
        shipper = _Shipper(store, cfg, mailbox, attempt, stream_every_s)
        t0 = time.perf_counter()
        train(cfg, store=store, device=device, owner=owner, threads=threads,
              on_progress=shipper)
        return {"result": store.result(cfg), "checkpoint": store.checkpoint_path(cfg).read_bytes(),
                "metrics": shipper.new_points(), "owner": owner,
                "seconds": time.perf_counter() - t0}
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


@dataclass
class _Flight:
    """A run whose Ray task is in flight: its attempt number in this invocation and the step of
    the newest checkpoint of it in the driver's store."""

    cfg: TrainConfig
    key: str
    attempt: int
    step: int


class _RayDriver:
    """The driver of the Ray backend (module docstring): the only user of the results store."""

    def __init__(self, ray, configs, store: ResultsStore, *, workers, device, lease_s, poll_s,
                 started_at, say, progress_every_s, threads, stream_every_s, ray_retries):
        from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

        self.ray, self.configs, self.store, self.say = ray, list(configs), store, say
        self.keys = [store.key_of(c) for c in self.configs]  # as stored (earlier formats too)
        self.workers, self.device, self.threads = workers, device, threads
        self.lease_s, self.poll_s, self.started_at = lease_s, poll_s, started_at
        self.progress_every_s, self.stream_every_s = progress_every_s, stream_every_s
        self.ray_retries = ray_retries
        self.owner = default_owner()
        self.flights: dict[Any, _Flight] = {}
        self.attempts: dict[str, int] = {}
        self.errors: list[str] = []
        here = NodeAffinitySchedulingStrategy(ray.get_runtime_context().get_node_id(), soft=False)
        self.mailbox = ray.remote(_Mailbox).options(num_cpus=0, scheduling_strategy=here).remote()
        self.task = ray.remote(_ray_train).options(
            num_cpus=threads, num_gpus=1 if device == "cuda" else 0, max_retries=0)

    def run(self) -> list[str]:
        """Dispatch and collect until every run is finished or failed in this invocation;
        returns the driver's errors. Runs still in flight when it is interrupted are cancelled
        and released (their checkpoints stay for the next invocation)."""
        tick = min(self.poll_s, self.lease_s / 3, self.progress_every_s)
        last_beat = last_progress = time.monotonic()
        try:
            while True:
                claimable, waiting = _scan(self.store, self.configs, self.keys, self.owner,
                                           self.started_at)
                busy = {f.key for f in self.flights.values()}
                claimable = [c for c in claimable if config_key(c) not in busy]
                for cfg in claimable:
                    if len(self.flights) >= self.workers:
                        break
                    if self.store.claim(cfg, self.owner, lease_s=self.lease_s):
                        self._dispatch(cfg)
                if not self.flights and not claimable and not waiting:
                    return self.errors
                if self.flights:
                    done, _ = self.ray.wait(list(self.flights), num_returns=1, timeout=tick)
                else:
                    done = []
                    time.sleep(self.poll_s)
                self._drain()
                for ref in done:
                    self._collect(ref)
                if time.monotonic() - last_beat >= self.lease_s / 3:
                    self._heartbeat()
                    last_beat = time.monotonic()
                if time.monotonic() - last_progress >= self.progress_every_s:
                    self.say(f"progress: {sweep_status(self.store, self.configs).line()}")
                    last_progress = time.monotonic()
        finally:
            self._abandon()

    # ---------------------------------------------------------------- steps of the loop
    def _dispatch(self, cfg: TrainConfig) -> None:
        key = config_key(cfg)
        try:
            ck = self.store.load_checkpoint(cfg)
        except ValueError as exc:  # a damaged checkpoint: the message names the driver's file
            self._fail(_Flight(cfg, key, self.attempts.get(key, 0), 0), str(exc))
            return
        data = self.store.checkpoint_path(cfg).read_bytes() if ck is not None else None
        attempt = self.attempts[key] = self.attempts.get(key, 0) + 1
        ref = self.task.remote(cfg, data, attempt, self.device, self.threads, self.mailbox,
                               self.stream_every_s)
        self.flights[ref] = _Flight(cfg, key, attempt, int(ck["step"]) if ck is not None else 0)

    def _flight(self, key: str, attempt: int) -> _Flight | None:
        return next((f for f in self.flights.values() if f.key == key and f.attempt == attempt),
                    None)

    def _drain(self) -> None:
        for kind, key, attempt, payload in self.ray.get(self.mailbox.drain.remote()):
            fl = self._flight(key, attempt)
            if fl is None:  # a late message of a lost attempt
                continue
            if kind == "start":
                self._event("start", fl, **payload)
                self.say(f"[{payload['owner']}] start {_describe(fl.cfg)} ({key[:10]})"
                         + (f", resuming from step {payload['resume_step']}"
                            if payload["resume_step"] else ""))
            elif payload["step"] > fl.step:
                self._store_checkpoint(fl, payload["step"], payload["checkpoint"],
                                       payload["metrics"])
                self._event("checkpoint", fl, step=fl.step)

    def _store_checkpoint(self, fl: _Flight, step: int, data: bytes, points: list[dict]) -> None:
        from seqtheory.theory._io import atomic_write_bytes

        for pt in points:
            self.store.log_metrics(fl.cfg, pt["step"], pt)
        atomic_write_bytes(self.store.checkpoint_path(fl.cfg), data)
        fl.step = step

    def _collect(self, ref) -> None:
        fl = self.flights.pop(ref)
        try:
            out = self.ray.get(ref)
        except self.ray.exceptions.RayTaskError as exc:  # train raised
            self._fail(fl, str(exc))
            return
        except self.ray.exceptions.RayError as exc:  # the worker process or its node died
            error = f"{type(exc).__name__}: {str(exc).strip().splitlines()[0][:300]}"
            self._event("lost", fl, error=error)
            if fl.attempt > self.ray_retries:
                self._fail(fl, f"Ray task lost on {counted(fl.attempt, 'attempt')} (ray_retries="
                               f"{self.ray_retries}); last: {error}")
            else:
                self.say(f"[driver] lost {_describe(fl.cfg)} ({fl.key[:10]}): {error}; "
                         f"re-dispatching from step {fl.step}")
            return
        self._store_checkpoint(fl, fl.cfg.steps, out["checkpoint"], out["metrics"])
        try:
            self.store.finish(fl.cfg, self.owner, out["result"])
        except RuntimeError as exc:  # the lease was lost while the driver stalled
            self.errors.append(str(exc))
            return
        self._event("finish", fl, owner=out["owner"], seconds=out["seconds"], from_store=False)
        acc = (out["result"].get("test") or {}).get("seq_acc")
        self.say(f"[{out['owner']}] done  {_describe(fl.cfg)} ({fl.key[:10]}) in "
                 f"{out['seconds']:.1f} s" + (f", seq_acc {acc:.3f}" if isinstance(acc, float)
                                              else ""))

    def _fail(self, fl: _Flight, error: str) -> None:
        self.store.fail(fl.cfg, self.owner, error)
        last = error.strip().splitlines()[-1] if error.strip() else error
        self._event("fail", fl, owner=self.owner, error=last[:500])
        self.say(f"[driver] FAILED {_describe(fl.cfg)} ({fl.key[:10]}): {last}")

    def _heartbeat(self) -> None:
        for ref, fl in list(self.flights.items()):
            try:
                self.store.heartbeat(fl.cfg, self.owner, fl.step, self.lease_s)
            except RuntimeError as exc:  # another sweep took the run over: let it
                self.errors.append(f"{exc}; its Ray task was cancelled")
                self.ray.cancel(ref, force=True)
                del self.flights[ref]

    def _abandon(self) -> None:
        for ref, fl in self.flights.items():
            try:
                self.ray.cancel(ref, force=True)
            finally:
                self.store.release(fl.cfg, self.owner)
        self.flights.clear()

    def _event(self, event: str, fl: _Flight, **fields: Any) -> None:
        _log_event(self.store.root, **{"event": event, "key": fl.key, "attempt": fl.attempt,
                                       **fields})


def _run_ray(configs, results_dir, workers, device, address, lease_s, poll_s, started_at, say,
             progress_every_s, threads, stream_every_s, ray_retries) -> list[str]:
    try:
        import ray
    except ImportError:
        raise ValueError("backend 'ray' needs the ray package: pip install 'seqtheory[sweeps]'") \
            from None
    started_here = not ray.is_initialized()
    if started_here:
        if address:  # connect to a running cluster ("auto": the one on this machine)
            kw: dict[str, Any] = {"address": address}
        else:  # always a new local instance sized for the workers, even if a cluster runs here
            kw = {"address": "local", "num_cpus": workers * threads, "include_dashboard": False}
        ray.init(**kw)
    try:
        if device == "cuda" and ray.cluster_resources().get("GPU", 0) < 1:
            # a task asking for a GPU that no node has would wait forever
            raise ValueError("device 'cuda' requested but the Ray cluster has no GPU")
        driver = _RayDriver(ray, configs, ResultsStore(results_dir), workers=workers,
                            device=device, lease_s=lease_s, poll_s=poll_s,
                            started_at=started_at, say=say, progress_every_s=progress_every_s,
                            threads=threads, stream_every_s=stream_every_s,
                            ray_retries=ray_retries)
        return driver.run()
    finally:
        if started_here:
            ray.shutdown()


def run_sweep(spec: SweepSpec | Sequence[TrainConfig], results_dir: str | os.PathLike, *,
              backend: str = "local", workers: int = 1, device: str = "cpu",
              address: str | None = None, lease_s: float | None = None,
              poll_s: float = DEFAULT_POLL_S, progress_every_s: float = 30.0,
              threads: int = 1, say: Printer | None = None,
              stream_every_s: float = DEFAULT_STREAM_EVERY_S,
              ray_retries: int = DEFAULT_RAY_RETRIES) -> tuple[SweepStatus, list[str]]:
    """Run every run of ``spec`` (a :class:`SweepSpec` or a list of configs) into the results
    store at ``results_dir`` and return ``(final status, worker errors)``.

    ``backend``: ``"local"`` (``workers`` processes; ``workers=1`` trains in this process) or
    ``"ray"`` (``workers`` Ray tasks on the cluster at ``address``, or on a local Ray instance
    started and shut down here). ``threads``: torch threads per worker (default 1: on small
    models, parallel runs use the cores better than intra-op threads; measured 0.5 s vs 3.9 s for
    the same 6-step run on a loaded 2-core machine). ``device``: ``"cpu"``, ``"cuda"`` or
    ``"auto"``. ``lease_s`` defaults to the sweep file's. Finished runs are skipped; interrupted
    ones resume (module docstring).

    Ray only (module docstring, "the driver owns the store"): only this process opens
    ``results_dir``; ``stream_every_s`` is the least time between two mid-run checkpoints a Ray
    task ships to the driver (0: every checkpoint ``train`` writes), so a task lost mid-run
    resumes from a recent step; ``ray_retries`` is how many times a run whose Ray task was lost
    (worker process or node died) is re-dispatched in one invocation before it is marked failed.

    ``ValueError`` for a bad backend, worker or thread count, device, lease, ``stream_every_s``
    (negative or not finite) or ``ray_retries`` (negative or not an int).
    """
    if backend not in BACKENDS:
        raise ValueError(f"backend must be one of {BACKENDS}, got {backend!r}")
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers must be a positive int, got {workers!r}")
    if device not in ("auto", "cpu", "cuda"):
        raise ValueError(f"device must be 'auto', 'cpu' or 'cuda', got {device!r}")
    if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
        raise ValueError(f"threads must be a positive int, got {threads!r}")
    if address is not None and backend != "ray":
        raise ValueError("address is only used with backend 'ray'")
    stream_every_s = check_real("stream_every_s", stream_every_s, 0)
    if isinstance(ray_retries, bool) or not isinstance(ray_retries, int) or ray_retries < 0:
        raise ValueError(f"ray_retries must be an int >= 0, got {ray_retries!r}")
    if isinstance(spec, SweepSpec):
        configs, lease = spec.configs(), spec.lease_s if lease_s is None else lease_s
    else:
        configs, lease = list(spec), DEFAULT_LEASE_S if lease_s is None else lease_s
    lease = check_real("lease_s", lease, 0, above=True)
    if device != "auto" and (backend == "local" or address is None):
        from .training import resolve_device

        resolve_device(device)  # this machine runs the workers: fail early if cuda is absent
    say = say or (lambda s: print(s, flush=True))
    workers = max(1, min(workers, len(configs)))  # an idle extra worker would only poll
    results_dir = Path(results_dir).resolve()
    store = ResultsStore(results_dir)
    started_at = time.time()
    say(f"sweep: {counted(len(configs), 'run')}, results in {results_dir}, backend {backend}, "
        f"{counted(workers, 'worker')}, device {device}, lease {lease:g} s")
    say(f"progress: {sweep_status(store, configs).line()}")
    if backend == "local":
        errors = _run_local(configs, results_dir, workers, device, lease, poll_s, started_at,
                            say, progress_every_s, threads)
    else:
        errors = _run_ray(configs, results_dir, workers, device, address, lease, poll_s,
                          started_at, say, progress_every_s, threads, stream_every_s,
                          ray_retries)
    final = sweep_status(store, configs)
    say(f"final: {final.line()}")
    for e in errors:
        print(f"sweep: {e}", file=sys.stderr)
    return final, errors

"""The trained-model results store: one SQLite file plus checkpoint files under a results folder.

Layout of ``results_dir``::

    results.sqlite              runs (config, status, lease, result), metric curves
    checkpoints/<key>.pt        the latest checkpoint of each unfinished / finished run

Keys. A run is identified by :func:`config_key`: the sha256 of the canonical JSON (sorted keys, no
whitespace, floats by ``repr``) of its configuration dataclass together with its type name and
a schema version. Numbers are normalised first (:func:`canonical_json`), so that equal
configurations get equal keys: a number in a field annotated ``float`` is written as a float
(``weight_decay=0`` and ``0.0`` alike), in a field annotated ``int`` or not annotated as a number
an integral value is written as an int, ``-0.0`` as ``0``/``0.0``, numpy scalars as Python
numbers, tuples as lists. A configuration class may also name the one spelling of values that
mean the same computation, with a classmethod ``canonical_fields(fields: dict) -> dict``
(:meth:`seqtheory.models.training.TrainConfig.canonical_fields`: ``test_length=None`` is the
explicit default ``2 * train_length``, ``task="H3"`` is ``"H3(3)"``); the key is taken of those
fields, while the store records the configuration as given. Keys written in an earlier format
are still found: before numbers were normalised (:func:`legacy_config_key`) and before the
canonical spellings (numbers normalised, fields as given); the store looks a run up under its
key, then under the key an earlier format gave it (:meth:`ResultsStore.key_of`); nothing stored
is rewritten. The execution device
is *not* part of the configuration (a run trained on a GPU is reused by a CPU check; the device is
recorded in the result).

Concurrency (for sweep runners). The database is opened in WAL mode with a busy timeout, and
every state change is one ``BEGIN IMMEDIATE`` transaction, so any number of processes (one store
object each) may share the file. A worker takes a run with :meth:`ResultsStore.claim` (atomic:
succeeds only when the run is new, failed, or its lease has expired), keeps the lease alive with
:meth:`heartbeat` while training (each checkpoint does so), and ends it with :meth:`finish` or
:meth:`fail`. A finished run is never claimed again, so it is never trained twice. Checkpoints are
written atomically (:func:`seqtheory.theory._io.atomic_write_bytes`); a killed run leaves its
lease and its last checkpoint, from which the next claimant resumes. A lease whose owner is a
process of this host that is no longer running (owner ids of :func:`default_owner`:
``host:pid:tag``; :func:`owner_gone`) is taken over at once; a lease of a process on another host
(or of an owner id of another form) is taken over when it expires. A wait on a live lease says
whose it is and for how long (:meth:`ResultsStore.wait_or_claim`).

A sweep runner is then::

    store = ResultsStore(dir)
    for cfg in grid:
        if store.result(cfg) is None and store.claim(cfg, owner=me):
            train(cfg, store=store, owner=me)        # resumes from the checkpoint if any
"""
from __future__ import annotations

import contextlib
import dataclasses
import errno
import functools
import hashlib
import io
import json
import math
import os
import shutil
import socket
import sqlite3
import threading
import time
import types
import typing
import uuid
from pathlib import Path
from typing import Any, Sequence

from seqtheory.theory._checks import check_int, check_real
from seqtheory.theory.contract import as_list
from seqtheory.theory._io import atomic_write_bytes, ensure_dir

__all__ = ["canonical_json", "config_key", "legacy_config_key", "key_class", "stored_config_key",
           "keyed_config", "keyed_classes", "default_results_dir", "ResultsStore", "RunRecord",
           "RunHeldError", "check_lease_times", "default_owner", "owner_gone", "holder_line", "holds_store", "sqlite_uri", "SCHEMA_VERSION"]

SCHEMA_VERSION = 1
DB_NAME = "results.sqlite"


def default_results_dir() -> Path:
    """The results store every command (``verify``, ``train``, ``runs``, ``inspect``,
    ``sweep``) and the notebooks use unless told otherwise: ``results/`` in the seqtheory cache
    folder (``$SEQTHEORY_CACHE_DIR/results``, else ``~/.cache/seqtheory/results``), one store
    wherever they run, so a run trained by one is read back by the others. Nothing is created."""
    from seqtheory.theory._io import cache_path

    return cache_path("results")


def holds_store(root: str | os.PathLike) -> bool:
    """True when the folder ``root`` holds a results store's database (``DB_NAME``); nothing is
    created or opened."""
    return (Path(root) / DB_NAME).is_file()


def sqlite_uri(path: str | os.PathLike, **params: str) -> str:
    """The SQLite ``file:`` URI of the database file ``path`` with query ``params``
    (``mode="ro"``, ``immutable="1"``), for ``sqlite3.connect(uri, uri=True)``. The path is made
    absolute and percent-encoded (:meth:`pathlib.Path.as_uri`), so a folder name holding ``#``,
    ``?``, ``%41``, spaces or non-ASCII letters names that folder, never a query or fragment."""
    from urllib.parse import urlencode

    uri = Path(path).absolute().as_uri()
    return uri + (f"?{urlencode(params)}" if params else "")


_COLUMNS = {"runs": {"key", "config", "status", "owner", "lease_until", "step", "result", "error",
                     "created", "updated"},
            "metrics": {"key", "step", "data"}}


def canonical_json(obj: Any) -> str:
    """Canonical JSON: dataclasses as dicts, tuples as lists, sorted keys, compact separators,
    numbers normalised by their declared type (module docstring, *Keys*): a float field holds
    floats, an int field or an unannotated place holds an integral value as an int, ``-0.0``
    reads ``0``, numpy scalars are Python numbers. ``TypeError`` for values JSON cannot
    represent; ``ValueError`` for NaN/inf."""
    return json.dumps(_normalised(obj, None), sort_keys=True, separators=(",", ":"),
                      allow_nan=False)


def _normalised(o: Any, hint: Any) -> Any:
    """``o`` as plain JSON values with its numbers normalised for the type ``hint`` declares."""
    if dataclasses.is_dataclass(o) and not isinstance(o, type):
        hints = _field_hints(type(o))
        return {f.name: _normalised(getattr(o, f.name), hints.get(f.name))
                for f in dataclasses.fields(o)}
    if isinstance(o, dict):
        if dataclasses.is_dataclass(hint) and isinstance(hint, type):  # a stored config's dict
            hints = _field_hints(hint)
            return {str(k): _normalised(v, hints.get(k)) for k, v in o.items()}
        value_hint = _arg_hints(hint, 2)[1]
        return {str(k): _normalised(v, value_hint) for k, v in o.items()}
    if isinstance(o, (list, tuple)):
        return [_normalised(v, h) for v, h in zip(o, _item_hints(hint, len(o)))]
    if type(o).__module__ == "numpy" and hasattr(o, "item") and getattr(o, "ndim", 1) == 0:
        o = o.item()                                  # numpy scalar → Python number / bool
    if o is None or isinstance(o, (bool, str)):
        return o
    if isinstance(o, int):
        return _as_float(o) if _number_kind(hint) == "float" else int(o)
    if isinstance(o, float):
        if not math.isfinite(o):
            raise ValueError(f"configuration value {o!r} is not finite")
        o = float(o) + 0.0                            # -0.0 → 0.0
        if _number_kind(hint) != "float" and o.is_integer() and abs(o) < 2 ** 53:
            return int(o)
        return o
    raise TypeError(f"configuration value of type {type(o).__name__} is not JSON-representable")


def _as_float(n: int) -> float | int:
    try:
        return float(n)
    except OverflowError:  # beyond a float: keep the exact integer
        return n


@functools.lru_cache(maxsize=None)
def _field_hints(cls: type) -> dict[str, Any]:
    try:
        return typing.get_type_hints(cls)
    except Exception:  # unresolvable annotations: numbers are normalised as unannotated
        return {}


def _strip_optional(hint: Any) -> Any:
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(hint) if a is not type(None)]
        if len(args) == 1:
            return _strip_optional(args[0])
    return hint


def _number_kind(hint: Any) -> str | None:
    """``"float"`` / ``"int"`` when ``hint`` declares only floats / only ints (``None``
    allowed), else ``None``."""
    hint = _strip_optional(hint)
    if hint is float:
        return "float"
    if hint is int:
        return "int"
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        kinds = {_number_kind(a) for a in typing.get_args(hint) if a is not type(None)}
        return kinds.pop() if len(kinds) == 1 else None
    return None


def _arg_hints(hint: Any, n: int) -> list[Any]:
    args = typing.get_args(_strip_optional(hint))
    return list(args) if len(args) == n else [None] * n


def _item_hints(hint: Any, n: int) -> list[Any]:
    """The declared type of each of ``n`` items of a ``tuple[...]`` / ``list[X]`` /
    ``Sequence[X]``."""
    hint = _strip_optional(hint)
    args = typing.get_args(hint)
    if typing.get_origin(hint) is tuple and not (len(args) == 2 and args[1] is Ellipsis):
        return list(args) if len(args) == n else [None] * n
    return [args[0] if args else None] * n


def config_key(config: Any) -> str:
    """sha256 (hex) of ``{"type": <class name>, "schema": SCHEMA_VERSION, "config": <config>}``
    in canonical JSON (:func:`canonical_json`), of the configuration's canonical fields (its
    class's ``canonical_fields``, module docstring): equal configurations, and configurations
    that are the same computation spelled differently, get equal keys. ``config`` must be a
    dataclass instance (TypeError otherwise)."""
    if not (dataclasses.is_dataclass(config) and not isinstance(config, type)):
        raise TypeError(f"config must be a dataclass instance, got {type(config).__name__}")
    fields = {f.name: getattr(config, f.name) for f in dataclasses.fields(config)}
    return _key_of_fields(type(config), _canonical_fields(type(config), fields))


def _canonical_fields(cls: type, fields: dict) -> dict:
    """``fields`` in the one spelling the class ``cls`` names (``cls.canonical_fields``), or as
    they are when the class names none."""
    canonical = getattr(cls, "canonical_fields", None)
    return canonical(dict(fields)) if callable(canonical) else fields


def stored_config_key(cls: type, fields: dict) -> str:
    """:func:`config_key` of a stored configuration (the dict of its fields) of class ``cls``."""
    return _key_of_fields(cls, _canonical_fields(cls, fields))


def _earlier_keys(cls: type, fields: dict) -> set[str]:
    """The keys the earlier key formats gave a stored configuration of class ``cls``: before
    numbers were normalised (:func:`legacy_config_key`) and before the canonical spellings."""
    keys = {_legacy_key(cls.__name__, fields)}
    try:
        keys.add(_key_of_fields(cls, fields))
    except (TypeError, ValueError):
        pass
    return keys - {None}


def _key_of_fields(cls: type, fields: Any) -> str:
    """:func:`config_key` of a configuration of class ``cls`` given as an instance or as the
    dict of its fields (a stored ``config``)."""
    payload = json.dumps({"type": cls.__name__, "schema": SCHEMA_VERSION,
                          "config": _normalised(fields, cls)},
                         sort_keys=True, separators=(",", ":"), allow_nan=False)
    return hashlib.sha256(payload.encode()).hexdigest()


#: The configuration classes whose runs a results store may hold, by class name (the key hashes
#: the class name with the fields): each registers itself where it is defined (:func:`keyed_config`)
_KEYED: dict[str, type] = {}


def keyed_config(cls: type) -> type:
    """Class decorator: register the configuration dataclass ``cls`` as one whose runs a results
    store may hold (:func:`keyed_classes`; the provenance check of evidence bundles reads a
    stored run's configuration as one of these). Returns ``cls``. ``TypeError`` for a class that
    is not a dataclass; ``ValueError`` when another class of the same name is registered (keys
    hash the class name, so two such classes would share keys)."""
    if not (isinstance(cls, type) and dataclasses.is_dataclass(cls)):
        raise TypeError(f"keyed_config registers a dataclass, got {cls!r:.80}")
    old = _KEYED.get(cls.__name__)
    if old is not None and (old.__module__, old.__qualname__) != (cls.__module__, cls.__qualname__):
        raise ValueError(f"configuration class name {cls.__name__!r} is registered by "
                         f"{old.__module__}.{old.__qualname__}; keys hash the class name, so "
                         f"{cls.__module__}.{cls.__qualname__} needs another name")
    _KEYED[cls.__name__] = cls
    return cls


def keyed_classes() -> tuple[type, ...]:
    """The configuration classes registered with :func:`keyed_config` so far, in registration
    order (a class registers when its module is imported)."""
    return tuple(_KEYED.values())


def key_class(key: str, fields: Any, classes: Any) -> type | None:
    """The configuration class among ``classes`` under which ``key`` is the key of ``fields``
    (a stored run's recorded configuration, a dict) in this format or an earlier one, or
    ``None``: then the key does not follow from the recorded configuration (the run's
    provenance does not check)."""
    if not isinstance(fields, dict):
        return None
    for cls in classes:
        keys = _earlier_keys(cls, fields)
        try:
            keys.add(stored_config_key(cls, fields))
        except (TypeError, ValueError):
            pass
        if key in keys:
            return cls
    return None


def legacy_config_key(config: Any) -> str | None:
    """The key seqtheory gave ``config`` before numbers were normalised (``0`` and ``0.0``,
    ``-0.0`` and ``0.0`` differed), or ``None`` where that format could not key it (e.g. numpy
    integers). Equal to :func:`config_key` whenever every number already had its field's type."""
    return _legacy_key(type(config).__name__, config)


def _legacy_key(type_name: str, config: Any) -> str | None:
    def conv(o):
        if dataclasses.is_dataclass(o) and not isinstance(o, type):
            return {f.name: conv(getattr(o, f.name)) for f in dataclasses.fields(o)}
        if isinstance(o, dict):
            return {str(k): conv(v) for k, v in o.items()}
        if isinstance(o, (list, tuple)):
            return [conv(v) for v in o]
        if o is None or isinstance(o, (bool, int, float, str)):
            return o
        raise TypeError

    try:
        payload = json.dumps(conv({"type": type_name, "schema": SCHEMA_VERSION,
                                   "config": config}),
                             sort_keys=True, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError):
        return None
    return hashlib.sha256(payload.encode()).hexdigest()


class RunHeldError(RuntimeError):
    """A run is held (claimed, lease not expired) by another live worker."""


#: seconds between two notes of :meth:`ResultsStore.wait_or_claim` while it waits on a live lease
WAIT_NOTE_EVERY_S = 30.0


def _note_on_stderr(text: str) -> None:
    import sys

    print(f"seqtheory: {text}", file=sys.stderr, flush=True)


#: the run keys that ``compute_once`` is computing in this thread (nested calls are refused)
_COMPUTING = threading.local()


def check_lease_times(lease_s: Any, wait_s: Any = 0.0, poll_s: Any = 1.0) -> None:
    """``lease_s`` and ``poll_s`` finite and > 0; ``wait_s`` >= 0 (``math.inf``: no limit);
    ``ValueError`` / ``TypeError`` naming the argument otherwise (the claim protocol's times,
    checked by the store's waits and by sweep workers)."""
    lease_s = check_real("lease_s", lease_s, 0, above=True)
    poll_s = check_real("poll_s", poll_s, 0, above=True)
    wait_s = check_real("wait_s", wait_s, 0, finite=False)
    if math.isnan(float(wait_s)):
        raise ValueError("wait_s must be a real number >= 0 (math.inf: no limit), got nan")


@contextlib.contextmanager
def _lease_renewed(store: "ResultsStore", config: Any, owner: str, lease_s: float):
    """Renew ``owner``'s lease on ``config`` every ``lease_s / 4`` seconds in a daemon thread
    while the block runs (stops at the first failed renewal: the lease was lost or taken)."""
    stop = threading.Event()

    def renew() -> None:
        while not stop.wait(lease_s / 4):
            try:
                store.heartbeat(config, owner, 0, lease_s=lease_s)
            except Exception:
                return

    t = threading.Thread(target=renew, daemon=True, name="seqtheory-lease")
    t.start()
    try:
        yield
    finally:
        stop.set()
        t.join()


def default_owner() -> str:
    """A worker id unique to this process: ``host:pid:random``."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


def owner_gone(owner: str | None, since: float) -> bool:
    """True when the lease owner ``owner`` (an id of :func:`default_owner`, ``host:pid:tag``) is
    a process of this host that is no longer running: no process has its pid, or the process
    that has it started after ``since`` (the lease's last renewal, a ``time.time()``), so it is
    another process that reuses the pid. False for an owner on another host, an id of another
    form, or a process that may still be the owner (the lease then runs out as usual)."""
    host, _, rest = (owner or "").partition(":")
    pid_text = rest.partition(":")[0]
    if host != socket.gethostname() or not pid_text.isdigit():
        return False
    pid = int(pid_text)
    if pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except (PermissionError, OSError):      # a process of another user: it runs
        return False
    started = _process_start(pid)
    return started is not None and started > since + 1.0       # 1 s for clock granularity


def _process_start(pid: int) -> float | None:
    """When process ``pid`` started (a ``time.time()``), from Linux's ``/proc``; ``None`` where
    that cannot be read."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
        boot = next(float(line.split()[1]) for line in Path("/proc/stat").read_text().splitlines()
                    if line.startswith("btime "))
        return boot + int(fields[19]) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError, StopIteration):
        return None


def holder_line(rec: "RunRecord", now: float | None = None) -> str:
    """Who holds the run of the record ``rec`` and for how long, in words: ``run 0a1b2c3d4e5f
    is held by host:1234:ab12cd34 (lease renewed 3 s ago, ends in 117 s unless renewed)``."""
    now = time.time() if now is None else now
    left = max(0.0, (rec.lease_until or now) - now)
    return (f"run {rec.key[:12]} is held by {rec.owner} (lease renewed {now - rec.updated:.0f} s "
            f"ago, ends in {left:.0f} s unless renewed)")


@dataclasses.dataclass
class RunRecord:
    """One row of the ``runs`` table (``result`` decoded from JSON)."""

    key: str
    config: dict
    status: str            # "claimed" | "finished" | "failed"
    owner: str | None
    lease_until: float | None
    step: int
    result: dict | None
    error: str | None
    created: float
    updated: float


_SQLITE_INT_MAX = 2 ** 31 - 1
#: the longest busy timeout SQLite can hold (a 32-bit count of milliseconds: about 24.9 days)
MAX_BUSY_TIMEOUT_S = _SQLITE_INT_MAX / 1000
#: SQLite's primary result codes for a file that is not a database / a damaged one
_NOT_A_STORE = {"SQLITE_NOTADB", "SQLITE_CORRUPT"}


def _open_error(exc: sqlite3.DatabaseError, path: Path) -> Exception:
    """The error to raise for a database that could not be opened or created at ``path``:
    ``OSError(ENOSPC)`` naming the full file system (SQLite's SQLITE_FULL, or an I/O error on a
    file system with no space left), ``OSError(EIO)`` for another I/O error, ``ValueError``
    with the advice to move the file aside only for a file that is not an SQLite database or a
    damaged one, ``ValueError`` without that advice otherwise."""
    primary = "_".join((getattr(exc, "sqlite_errorname", "") or "").split("_")[:2])
    where = f"results store {str(path)!r}"
    free = _free_bytes(path)
    if primary == "SQLITE_FULL" or (primary == "SQLITE_IOERR" and free is not None
                                    and free < _FULL_BYTES):
        return OSError(errno.ENOSPC, f"{where} cannot be opened: the disk (file system) holding "
                                     f"it is full ({free if free is not None else 'no'} bytes "
                                     f"free; SQLite: {exc}); free some space and retry -- the "
                                     f"store itself is not damaged by this")
    if primary == "SQLITE_IOERR":
        return OSError(errno.EIO, f"{where} cannot be opened: a disk I/O error ({exc}); check "
                                  f"the disk or file system -- the error does not show the store "
                                  f"is damaged, so keep it")
    if primary in _NOT_A_STORE:
        return ValueError(f"{where} cannot be opened as an SQLite database ({exc}); move it "
                          f"aside to start a new store")
    return ValueError(f"{where} cannot be opened ({exc})")


#: below this many free bytes a file system counts as full for an SQLite I/O error
_FULL_BYTES = 1 << 20


def _free_bytes(path: Path) -> int | None:
    """Free bytes on the file system of ``path`` (its nearest existing parent), or ``None``."""
    p = Path(path)
    while not p.exists() and p != p.parent:
        p = p.parent
    try:
        return shutil.disk_usage(p).free
    except OSError:
        return None


class ResultsStore:
    """Results store rooted at ``root`` (created). See the module docstring for the protocol."""

    #: ``torch.load(weights_only=...)`` for checkpoints; a store from another machine (an evidence
    #: bundle, :mod:`seqtheory.proofs_checks.evidence`) loads weights only (no pickled code)
    CHECKPOINT_WEIGHTS_ONLY = False
    #: the advice given with an unreadable checkpoint
    DAMAGED_CHECKPOINT_ADVICE = "delete it to restart this run from step 0"

    def __init__(self, root: str | os.PathLike, busy_timeout_s: float = 60.0):
        """Open (creating if needed) the store under ``root``.

        ``busy_timeout_s``: how long a write waits for another process's lock, ``> 0`` and at
        most :data:`MAX_BUSY_TIMEOUT_S` (SQLite counts it in milliseconds in a 32-bit int; a
        positive value below 1 ms waits 1 ms, never 0).

        Raises ``ValueError`` when ``busy_timeout_s`` is out of range, ``root`` is not a
        writable folder, ``root/results.sqlite`` is not an SQLite database (or is damaged), or
        it holds tables ``runs`` / ``metrics`` without the columns of this store (not a
        seqtheory store); ``OSError`` (``errno.ENOSPC``) when the file system holding it is
        full, and for another I/O error of the disk (the store is then not known to be
        damaged: the message never advises discarding it).
        """
        busy_timeout_s = check_real("busy_timeout_s", busy_timeout_s, 0, MAX_BUSY_TIMEOUT_S,
                                    above=True)
        self.root = Path(root)
        self.path = self.root / DB_NAME
        if self.path.exists() and not self.path.is_file():   # refused before anything is made
            raise ValueError(f"results store {str(self.path)!r} exists and is not a file")
        created = not self.root.exists()
        self.root = ensure_dir(root, "results folder")
        self._busy = busy_timeout_s
        self._busy_ms = min(max(1, math.ceil(busy_timeout_s * 1000)), _SQLITE_INT_MAX)
        self._legacy_keys: dict[type, dict[str, str]] = {}
        try:
            with self._connect() as con:
                con.execute("""CREATE TABLE IF NOT EXISTS runs (
                    key TEXT PRIMARY KEY, config TEXT NOT NULL, status TEXT NOT NULL,
                    owner TEXT, lease_until REAL, step INTEGER NOT NULL DEFAULT 0, result TEXT,
                    error TEXT, created REAL NOT NULL, updated REAL NOT NULL)""")
                con.execute("""CREATE TABLE IF NOT EXISTS metrics (
                    key TEXT NOT NULL, step INTEGER NOT NULL, data TEXT NOT NULL,
                    PRIMARY KEY (key, step))""")
                for table, cols in _COLUMNS.items():
                    have = {r[1] for r in con.execute(f"PRAGMA table_info({table})")}
                    if not cols <= have:
                        raise ValueError(
                            f"results store {str(self.path)!r}: table {table!r} lacks the columns "
                            f"{sorted(cols - have)} (not a seqtheory results store)")
        except sqlite3.DatabaseError as exc:
            if created:
                shutil.rmtree(self.root, ignore_errors=True)
            raise _open_error(exc, self.path) from None
        except ValueError:
            if created:                          # a refused store leaves no folder behind
                shutil.rmtree(self.root, ignore_errors=True)
            raise
        # the checkpoint folder only once the database is known good (a refused store makes none)
        ensure_dir(self.root / "checkpoints", "checkpoint folder")

    # ------------------------------------------------------------------ plumbing
    def _connect(self) -> sqlite3.Connection:
        con = sqlite3.connect(sqlite_uri(self.path), uri=True, timeout=self._busy_ms / 1000,
                              isolation_level=None)
        con.execute(f"PRAGMA busy_timeout={self._busy_ms}")
        con.execute("PRAGMA journal_mode=WAL")
        con.execute("PRAGMA synchronous=NORMAL")
        return _Tx(con)

    @staticmethod
    def key(config: Any) -> str:
        return config_key(config)

    def key_of(self, config_or_key: Any) -> str:
        """The key this store holds the run under: a ``str`` is taken as a key; for a
        configuration, its :func:`config_key`, unless the store holds that run only under the
        key an earlier format gave it (e.g. stored with ``weight_decay=0`` where this one says
        ``0.0``, or with ``test_length=None`` where this one gives ``2 * train_length``): then
        that key."""
        if isinstance(config_or_key, str):
            return config_or_key
        key = config_key(config_or_key)
        legacy = self._legacy_index(type(config_or_key))
        if key not in legacy:
            return key
        with self._connect() as con:  # a run stored since under the new key wins
            new = con.execute("SELECT 1 FROM runs WHERE key=?", (key,)).fetchone()
        return key if new else legacy[key]

    def _legacy_index(self, cls: type) -> dict[str, str]:
        """``{new key: stored key}`` of the runs of configuration class ``cls`` stored under a
        key of an earlier format (:func:`_earlier_keys`) that differs from their key now (read
        once per store object and class: the migration is a lookup; nothing stored is
        rewritten). Where several stored runs have one key now (``task="H3"`` and ``"H3(3)"``
        both trained before), a finished one is taken, else the oldest."""
        if cls not in self._legacy_keys:
            with self._connect() as con:
                rows = con.execute("SELECT key, config, status FROM runs "
                                   "ORDER BY created").fetchall()
            index: dict[str, tuple[str, str]] = {}
            for stored, text, status in rows:
                fields = json.loads(text)
                if not isinstance(fields, dict) or stored not in _earlier_keys(cls, fields):
                    continue             # another class's run, or stored in the format of now
                try:
                    now = stored_config_key(cls, fields)
                except (TypeError, ValueError):
                    continue
                if now != stored and (now not in index or (
                        status == "finished" and index[now][1] != "finished")):
                    index[now] = (stored, status)
            self._legacy_keys[cls] = {k: v for k, (v, _) in index.items()}
        return self._legacy_keys[cls]

    def _row(self, con, key: str) -> RunRecord | None:
        r = con.execute("SELECT key, config, status, owner, lease_until, step, result, error, "
                        "created, updated FROM runs WHERE key=?", (key,)).fetchone()
        if r is None:
            return None
        return RunRecord(r[0], json.loads(r[1]), r[2], r[3], r[4], r[5],
                         json.loads(r[6]) if r[6] else None, r[7], r[8], r[9])

    # ------------------------------------------------------------------ queries
    def get(self, config_or_key: Any) -> RunRecord | None:
        """The record of a run (by config or key), or None."""
        key = self.key_of(config_or_key)
        with self._connect() as con:
            return self._row(con, key)

    def result(self, config_or_key: Any) -> dict | None:
        """The stored result of a *finished* run, else None."""
        rec = self.get(config_or_key)
        return rec.result if rec is not None and rec.status == "finished" else None

    def runs(self, status: str | None = None) -> list[RunRecord]:
        """All runs, optionally only those with ``status``."""
        with self._connect() as con:
            keys = [r[0] for r in con.execute(
                "SELECT key FROM runs" + (" WHERE status=?" if status else "") + " ORDER BY created",
                (status,) if status else ())]
            return [self._row(con, k) for k in keys]

    # ------------------------------------------------------------------ the claim protocol
    def claim(self, config: Any, owner: str, lease_s: float = 600.0) -> bool:
        """Atomically take run ``config`` for ``owner``. True when the run is new, failed, already
        held by ``owner``, its lease expired, or its holder is a process of this host that is
        no longer running (:func:`owner_gone`); False when it is finished or another live owner
        holds it. ``lease_s``: a finite number of seconds (``ValueError`` / ``TypeError`` naming
        it); ``<= 0`` takes the run with a lease already expired, as a killed worker leaves it."""
        lease_s = check_real("lease_s", lease_s)
        key, now = self.key_of(config), time.time()
        with self._connect() as con:
            con.execute("BEGIN IMMEDIATE")
            rec = self._row(con, key)
            if rec is None:
                con.execute("INSERT INTO runs (key, config, status, owner, lease_until, step, "
                            "created, updated) VALUES (?, ?, 'claimed', ?, ?, 0, ?, ?)",
                            (key, canonical_json(config), owner, now + lease_s, now, now))
                return True
            if rec.status == "finished":
                return False
            if rec.status == "claimed" and rec.owner != owner and (rec.lease_until or 0) > now \
                    and not owner_gone(rec.owner, rec.updated):
                return False
            con.execute("UPDATE runs SET status='claimed', owner=?, lease_until=?, error=NULL, "
                        "updated=? WHERE key=?", (owner, now + lease_s, now, key))
            return True

    def wait_or_claim(self, config: Any, owner: str, lease_s: float = 600.0,
                      wait_s: float = 0.0, poll_s: float = 2.0,
                      on_wait: Any = None) -> dict | None:
        """Claim ``config`` for ``owner`` (:meth:`claim`), waiting while another live owner
        holds it. Returns ``None`` once the run is claimed, or its stored result when it is (or
        becomes) finished. A holder that stops renewing its lease loses the run when the lease
        expires (at once when it is a dead process of this host, :func:`owner_gone`), and the run
        is claimed then. While it waits, ``on_wait(text)`` is called with whose the lease is and
        how long it runs (:func:`holder_line`), when the wait starts and every
        :data:`WAIT_NOTE_EVERY_S` seconds after (default: a line on stderr). ``RunHeldError``
        naming the holder when the run is still held after ``wait_s`` seconds (``math.inf``:
        wait as long as the holder keeps its lease alive)."""
        check_lease_times(lease_s, wait_s, poll_s)
        on_wait = on_wait or _note_on_stderr
        deadline, noted = time.time() + wait_s, -math.inf
        while not self.claim(config, owner, lease_s=lease_s):
            done = self.result(config)
            if done is not None:
                return done
            rec = self.get(config)
            held = holder_line(rec) if rec is not None else f"run {self.key_of(config)[:12]}"
            if time.time() >= deadline:
                raise RunHeldError(f"{held}: held by another worker")
            if time.time() - noted >= WAIT_NOTE_EVERY_S:
                limit = ("until it is finished or its lease ends" if math.isinf(wait_s)
                         else f"at most {deadline - time.time():.0f} s more")
                on_wait(f"waiting for {held}; waiting {limit}")
                noted = time.time()
            time.sleep(min(poll_s, max(0.0, deadline - time.time())))
        return None

    def compute_once(self, config: Any, compute: Any, owner: str | None = None,
                     lease_s: float = 120.0, wait_s: float = math.inf) -> dict:
        """The stored result of ``config``, computed by ``compute()`` (a dict, stored) when the
        store holds none: exactly one worker computes it, the others wait for its result
        (:meth:`wait_or_claim`; ``RunHeldError`` after ``wait_s`` seconds). The lease is renewed
        every ``lease_s / 4`` seconds by a background thread while ``compute`` runs, so a
        computation of any length keeps it and a killed one loses it within ``lease_s``. A
        failed ``compute`` marks the run failed (and re-raises); an interrupted one (Ctrl-C,
        SIGTERM turned into ``KeyboardInterrupt``) gives the run back."""
        check_lease_times(lease_s, wait_s)
        done = self.result(config)
        if done is not None:
            return done
        key = self.key_of(config)
        computing = _COMPUTING.__dict__.setdefault("keys", set())
        if key in computing:
            raise RuntimeError(f"run {key[:12]} is already being computed by this thread: "
                               "compute() asked for its own result (a nested compute_once on the "
                               "same configuration would wait for itself)")
        owner = owner or default_owner()
        done = self.wait_or_claim(config, owner, lease_s=lease_s, wait_s=wait_s)
        if done is not None:
            return done
        computing.add(key)
        try:
            with _lease_renewed(self, config, owner, lease_s):
                try:
                    res = compute()
                    if not isinstance(res, dict):
                        raise TypeError(f"compute() must return a dict (the result to store), "
                                        f"got {type(res).__name__}")
                    self.finish(config, owner, res)     # a result JSON cannot hold fails here
                except Exception:
                    import traceback

                    self.fail(config, owner, traceback.format_exc())
                    raise
                except BaseException:
                    self.release(config, owner)
                    raise
        finally:
            computing.discard(key)
        return self.result(config)

    def heartbeat(self, config: Any, owner: str, step: int, lease_s: float = 600.0) -> None:
        """Extend ``owner``'s lease and record progress; RuntimeError if the lease was lost."""
        self.heartbeat_many([config], owner, step, lease_s)

    def heartbeat_many(self, configs: Sequence[Any], owner: str, step: int,
                       lease_s: float = 600.0) -> None:
        """:meth:`heartbeat` of each of ``configs`` (runs trained together), in one transaction:
        RuntimeError naming the first run whose lease was lost (no lease is extended then).
        ``step >= 0`` and ``lease_s`` finite (``ValueError`` / ``TypeError`` naming them)."""
        step = check_int("step", step, 0)
        lease_s = check_real("lease_s", lease_s)
        keys, now = [self.key_of(c) for c in configs], time.time()
        with self._connect() as con:
            con.execute("BEGIN IMMEDIATE")
            for key in keys:
                cur = con.execute("UPDATE runs SET lease_until=?, step=?, updated=? WHERE key=? "
                                  "AND owner=? AND status='claimed'",
                                  (now + lease_s, step, now, key, owner))
                if cur.rowcount != 1:
                    raise RuntimeError(f"run {key[:12]} is not held by {owner}")

    def finish(self, config: Any, owner: str, result: dict) -> None:
        """Store the result and mark the run finished (RuntimeError if ``owner`` lost the lease)."""
        key, now = self.key_of(config), time.time()
        text = json.dumps(result, sort_keys=True, allow_nan=True, default=_json_default)
        with self._connect() as con:
            con.execute("BEGIN IMMEDIATE")
            cur = con.execute("UPDATE runs SET status='finished', result=?, lease_until=NULL, "
                              "updated=? WHERE key=? AND owner=? AND status='claimed'",
                              (text, now, key, owner))
            if cur.rowcount != 1:
                raise RuntimeError(f"run {key[:12]} is not held by {owner}; result not stored")

    def fail(self, config: Any, owner: str, error: str) -> None:
        """Mark a held run failed (it may be claimed again)."""
        key, now = self.key_of(config), time.time()
        with self._connect() as con:
            con.execute("BEGIN IMMEDIATE")
            con.execute("UPDATE runs SET status='failed', error=?, lease_until=NULL, updated=? "
                        "WHERE key=? AND owner=?", (error[-4000:], now, key, owner))

    def release(self, config: Any, owner: str) -> None:
        """Give a held run back (lease expires now; its checkpoint stays for the next claimant)."""
        with self._connect() as con:
            con.execute("BEGIN IMMEDIATE")
            con.execute("UPDATE runs SET lease_until=0 WHERE key=? AND owner=? AND status='claimed'",
                        (self.key_of(config), owner))

    # ------------------------------------------------------------------ metrics and checkpoints
    def log_metrics(self, config: Any, step: int, data: dict) -> None:
        """Record one point of a run's curves (idempotent per step; ``step >= 0``)."""
        self.log_metrics_many([(config, check_int("step", step, 0), data)])

    def log_metrics_many(self, points: Sequence[tuple[Any, int, dict]]) -> None:
        """:meth:`log_metrics` of each ``(config, step, data)``, in one transaction (one
        connection for the points of runs trained together: opening and closing one per point
        costs more than the training step of a small model)."""
        rows = [(self.key_of(c), check_int(f"points[{i}] step", step, 0),
                 json.dumps(data, default=_json_default))
                for i, (c, step, data) in enumerate(as_list("points", points, "a list of (config, step, data)"))]
        with self._connect() as con:
            con.execute("BEGIN IMMEDIATE")
            con.executemany("INSERT OR REPLACE INTO metrics (key, step, data) VALUES (?, ?, ?)", rows)

    def metrics(self, config_or_key: Any) -> list[dict]:
        """The curve points of a run, by step (each dict has ``step``)."""
        key = self.key_of(config_or_key)
        with self._connect() as con:
            return [dict(json.loads(d), step=s) for s, d in con.execute(
                "SELECT step, data FROM metrics WHERE key=? ORDER BY step", (key,))]

    def checkpoint_path(self, config_or_key: Any) -> Path:
        return self.root / "checkpoints" / f"{self.key_of(config_or_key)}.pt"

    def save_checkpoint(self, config: Any, state: dict) -> Path:
        """Write ``state`` (a dict of anything ``torch.save`` takes) atomically as the run's
        checkpoint (``TypeError`` for a non-dict)."""
        import torch

        if not isinstance(state, dict):
            raise TypeError(f"state must be a dict, got {type(state).__name__}")
        buf = io.BytesIO()
        torch.save(state, buf)
        return atomic_write_bytes(self.checkpoint_path(config), buf.getvalue())

    def load_checkpoint(self, config: Any, map_location: str = "cpu") -> dict | None:
        """The run's last checkpoint (the dict given to :meth:`save_checkpoint`), or None.

        Raises ``ValueError`` naming the file when the checkpoint cannot be read or is not a
        checkpoint (checkpoints are written atomically, so this means outside damage: delete the
        file to restart the run from step 0).
        """
        import torch

        p = self.checkpoint_path(config)
        if not p.is_file():
            return None
        try:
            ck = torch.load(p, map_location=map_location, weights_only=self.CHECKPOINT_WEIGHTS_ONLY)
        except Exception as exc:
            raise ValueError(f"checkpoint {str(p)!r} cannot be read ({type(exc).__name__}: "
                             f"{exc}); {self.DAMAGED_CHECKPOINT_ADVICE}") from None
        if not isinstance(ck, dict):
            raise ValueError(f"checkpoint {str(p)!r} holds a {type(ck).__name__}, not a "
                             f"checkpoint dict; {self.DAMAGED_CHECKPOINT_ADVICE}")
        return ck


class _Tx:
    """A connection wrapper whose context manager commits an open transaction on success, rolls
    it back on error, and closes the connection."""

    def __init__(self, con: sqlite3.Connection):
        self.con = con

    def execute(self, *a):
        return self.con.execute(*a)

    def executemany(self, *a):
        return self.con.executemany(*a)

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, tb):
        try:
            if self.con.in_transaction:
                self.con.execute("ROLLBACK" if exc_type else "COMMIT")
        finally:
            self.con.close()
        return False


def _json_default(o):
    try:
        import numpy as np

        if isinstance(o, np.ndarray):
            return o.tolist()
        if isinstance(o, np.generic):
            return o.item()
    except ImportError:  # pragma: no cover
        pass
    raise TypeError(f"{type(o).__name__} is not JSON serialisable")

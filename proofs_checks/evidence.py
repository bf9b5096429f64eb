"""Evidence bundles: trained runs made elsewhere (a GPU machine) that ``seqtheory verify`` reads
back on any machine, marked with where they came from.

A bundle is a folder::

    provenance.json        format, profile, seed, git commit, device (name), versions, runs, created
    results/               a results store (models/store.py) holding the finished runs only;
                           checkpoints hold the final model weights (no optimizer state)

``seqtheory evidence pack --results DIR --out BUNDLE --profile paper`` makes one from a results
store that ``seqtheory verify --profile paper --device cuda --results DIR`` filled;
``seqtheory verify --profile paper --evidence BUNDLE`` reads it. With a bundle, the trained claims
read their runs from the bundle's store only: a run the bundle lacks is reported missing (the
claim crashes with :class:`MissingEvidence`), never trained here, so the bundle's runs are never
mixed with runs of another machine or configuration. The report records the provenance
(``environment.evidence``) and every trained claim's notes name it.

The bundle's runs are identified by their configuration hashes (the device is not part of a
configuration), so a bundle answers exactly the runs the profile and seed ask for; the profile and
seed of ``verify`` must be those of the bundle (``ValueError`` otherwise).

Provenance of each run (:func:`provenance_problems`): its key must follow from the
configuration recorded with it (for one of :func:`keyed_classes`, in this key format or an
earlier one), and a result that records its own ``key`` / ``config`` must agree with the store.
``pack`` marks every run that does not check in ``provenance.json`` (``unverified_runs``: key →
why) and says so; ``verify --evidence`` checks the bundle's runs again when it opens it, reports
those that do not check in the terminal and records them in the report
(``environment.evidence.unverified_runs``). ``run_torch_versions`` lists the torch versions the
runs' results record.
"""
from __future__ import annotations

import datetime as _dt
import json
import os
import shutil
import sqlite3
import tempfile
from pathlib import Path
from typing import Any

from seqtheory.theory._io import atomic_write_text, current_umask
from seqtheory.theory._messages import counted

from .environment import environment_info

__all__ = ["BUNDLE_FORMAT", "MissingEvidence", "pack", "load_provenance", "describe",
           "bundles_in", "evidence_store", "evidence_provenance", "EvidenceFolder",
           "bundle_store_dir", "bundle_store", "keyed_classes", "provenance_problems",
           "unverified_lines", "report_evidence"]

BUNDLE_FORMAT = 1
_PROVENANCE = "provenance.json"
_REQUIRED = {"format": int, "profile": str, "seed": int, "git_commit": str, "device": str,
             "versions": dict, "runs": int, "created_utc": str}


class MissingEvidence(RuntimeError):
    """A trained claim asked an evidence bundle for runs it does not hold; ``missing``: how many
    of the runs asked for."""

    def __init__(self, message: str, missing: int = 0):
        super().__init__(message)
        self.missing = missing


def bundle_store_dir(bundle: str | os.PathLike) -> Path:
    """The results-store folder inside ``bundle``."""
    return Path(bundle) / "results"


def bundle_store(bundle: str | os.PathLike):
    """The results store of ``bundle``, opened read-only (sqlite ``mode=ro&immutable=1``): reading
    needs no write access and changes nothing; taking or finishing a run fails; checkpoints are
    loaded with torch's ``weights_only`` loader (a bundle comes from another machine).
    ``ValueError`` when the database is missing or not a seqtheory results store."""
    from seqtheory.models.store import _COLUMNS, DB_NAME, ResultsStore, _Tx, holds_store, sqlite_uri

    class BundleStore(ResultsStore):
        CHECKPOINT_WEIGHTS_ONLY = True          # a bundle comes from another machine
        DAMAGED_CHECKPOINT_ADVICE = "the evidence bundle is damaged; pack it again"

        def __init__(self, root):
            self.root = Path(root)
            self.path = self.root / DB_NAME
            self._busy = 60.0
            self._legacy_keys = {}
            try:
                with self._connect() as con:
                    for table, cols in _COLUMNS.items():
                        have = {r[1] for r in con.execute(f"PRAGMA table_info({table})")}
                        if not cols <= have:
                            raise ValueError(f"{str(self.path)!r} is not a seqtheory results store")
            except sqlite3.Error as exc:
                raise ValueError(f"{str(self.path)!r} cannot be read as an SQLite database "
                                 f"({exc})") from None

        def _connect(self):
            return _Tx(sqlite3.connect(sqlite_uri(self.path.resolve(), mode="ro", immutable="1"),
                                       uri=True, isolation_level=None))

    if not holds_store(bundle_store_dir(bundle)):
        raise ValueError(f"evidence bundle {str(bundle)!r} has no results store (results/results.sqlite)")
    return BundleStore(bundle_store_dir(bundle))


def load_provenance(bundle: str | os.PathLike) -> dict[str, Any]:
    """The provenance of the bundle folder ``bundle``. ``ValueError`` naming ``bundle`` when it
    is not a folder, has no (or a malformed) ``provenance.json``, or no results store."""
    root = Path(bundle)
    if not root.is_dir():
        raise ValueError(f"evidence bundle {str(root)!r} is not a folder")
    path = root / _PROVENANCE
    try:
        prov = json.loads(path.read_text())
    except FileNotFoundError:
        raise ValueError(f"evidence bundle {str(root)!r} has no {_PROVENANCE}") from None
    except (OSError, json.JSONDecodeError) as exc:
        raise ValueError(f"evidence bundle {str(root)!r}: unreadable {_PROVENANCE} ({exc})") from None
    if not isinstance(prov, dict):
        raise ValueError(f"evidence bundle {str(root)!r}: {_PROVENANCE} is not an object")
    for key, typ in _REQUIRED.items():
        if not isinstance(prov.get(key), typ) or isinstance(prov.get(key), bool):
            raise ValueError(f"evidence bundle {str(root)!r}: {_PROVENANCE} needs {key!r} "
                             f"({typ.__name__}), got {prov.get(key)!r}")
    if prov["format"] != BUNDLE_FORMAT:
        raise ValueError(f"evidence bundle {str(root)!r}: format {prov['format']} is not "
                         f"{BUNDLE_FORMAT}")
    try:
        bundle_store(root)
    except ValueError as exc:
        if "has no results store" in str(exc):
            raise
        raise ValueError(f"evidence bundle {str(root)!r}: damaged results store: {exc}") from None
    return prov


def keyed_classes() -> tuple[type, ...]:
    """The configuration classes whose runs seqtheory keeps in a results store: those registered
    with :func:`seqtheory.models.store.keyed_config` where they are defined, once the models'
    training modules and every claim module (with the experiment modules they use) are imported
    (:func:`~seqtheory.proofs_checks.registry.load_all`); this module names no claim. tests/test_evidence.py checks that the
    claims' training plans hold no other."""
    from seqtheory.models import precision, training  # noqa: F401  (their configurations register)
    from seqtheory.models.store import keyed_classes as registered

    from .registry import load_all

    load_all()              # the claim modules and the experiments they store register theirs
    return registered()


def provenance_problems(store) -> dict[str, str]:
    """``{key: why}`` for each finished run of the results ``store`` whose provenance does not
    check (module docstring); empty when every run checks."""
    from seqtheory.models.store import key_class, stored_config_key

    classes, out = keyed_classes(), {}
    for rec in store.runs("finished"):
        cls = key_class(rec.key, rec.config, classes)
        res = rec.result if isinstance(rec.result, dict) else {}
        if cls is None:
            out[rec.key] = ("its key does not follow from the configuration recorded with it "
                            f"(a configuration of {', '.join(c.__name__ for c in classes)})")
            continue
        now = stored_config_key(cls, rec.config)
        if "key" in res and res["key"] not in (rec.key, now):
            out[rec.key] = f"its result records another key ({str(res['key'])[:12]})"
        elif isinstance(res.get("config"), dict) and _key_or_none(cls, res["config"]) != now:
            out[rec.key] = "its result records another configuration than the one it is keyed by"
    return out


def unverified_lines(problems: dict[str, str], shown_at_most: int = 5) -> list[str]:
    """Terminal lines naming the runs of :func:`provenance_problems` (none when it is empty)."""
    if not problems:
        return []
    rows = sorted(problems.items())
    lines = [f"{counted(len(rows), 'run')} of the bundle whose provenance does not check:"]
    lines += [f"  {key[:12]}: {why}" for key, why in rows[:shown_at_most]]
    if len(rows) > shown_at_most:
        lines.append(f"  and {len(rows) - shown_at_most} more (provenance.json: unverified_runs)")
    return lines


def _key_or_none(cls: type, fields: dict) -> str | None:
    from seqtheory.models.store import stored_config_key

    try:
        return stored_config_key(cls, fields)
    except (TypeError, ValueError):
        return None


def _torch_versions(store) -> list[str]:
    return sorted({r.result["torch"] for r in store.runs("finished")
                   if isinstance(r.result, dict) and isinstance(r.result.get("torch"), str)})


def describe(prov: dict[str, Any]) -> str:
    """One line naming a bundle's origin: device, commit, torch, profile, seed, runs, date; for
    an evidence folder (:func:`evidence_provenance`), its bundles' devices, commits and dates."""
    if "bundles" in prov:
        b = prov["bundles"]
        return (f"evidence folder of {counted(len(b), 'bundle')} made on {prov['device']} at "
                f"{counted(len({x['git_commit'] for x in b}), 'commit')} "
                f"({', '.join(sorted({x['git_commit'][:12] for x in b}))}; profile {prov['profile']}, "
                f"seed {prov['seed']}, {counted(prov['runs'], 'run')}, {prov['created_utc']})")
    torch_v = prov["versions"].get("torch") or "unknown"
    return (f"evidence bundle made on {prov['device']} at commit {prov['git_commit'][:12]} "
            f"(torch {torch_v}, profile {prov['profile']}, seed {prov['seed']}, "
            f"{counted(prov['runs'], 'run')}, {prov['created_utc']})")


def pack(results_dir: str | os.PathLike, out: str | os.PathLike, *, profile: str, seed: int,
         device: str | None = None, exclude: str | os.PathLike | None = None,
         shard: int | None = None) -> dict[str, Any]:
    """Write the bundle ``out`` from the finished runs of the results store ``results_dir``
    (made by ``verify --profile PROFILE --seed SEED``); returns its provenance, whose
    ``unverified_runs`` marks the runs whose provenance does not check
    (:func:`provenance_problems`).

    ``device``: the device the runs were trained on (default: read from the runs' results;
    ``"cuda"`` adds the GPU's name when torch sees one). Only finished runs are copied, with
    their metric curves and the model weights of their final checkpoints. The bundle is built in
    a temporary folder next to ``out`` and moved into place, so an interrupted pack leaves no
    half bundle. ``exclude``: an evidence bundle or folder of bundles (:func:`bundles_in`) whose
    runs are left out (a shard bundle holds only the new runs); ``shard``: the shard's number
    (:mod:`~seqtheory.proofs_checks.shards`), recorded in the provenance. ``ValueError`` when
    ``results_dir`` holds no finished run (none that ``exclude`` lacks), when ``out`` exists, or
    for an unknown profile."""
    from seqtheory.models.store import holds_store

    from .profiles import check_profile

    check_profile(profile)
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise ValueError(f"seed must be a non-negative int, got {seed!r}")
    src, dst = Path(results_dir), Path(out)
    if not holds_store(src):
        raise ValueError(f"results_dir {str(src)!r} holds no results store")
    if dst.exists():
        raise ValueError(f"out {str(dst)!r} exists; choose a new folder")
    if shard is not None and (not isinstance(shard, int) or isinstance(shard, bool) or shard < 1):
        raise ValueError(f"shard must be a positive int, got {shard!r}")
    skip = _evidence_keys(exclude) if exclude is not None else set()
    made = [p for p in (dst.absolute().parent, *dst.absolute().parent.parents) if not p.exists()]
    dst.parent.mkdir(parents=True, exist_ok=True)
    try:
        tmp = Path(tempfile.mkdtemp(prefix=f".{dst.name}.", dir=dst.parent))
    except BaseException:
        _remove_empty(made)
        raise
    try:
        devices, n = _copy_finished(src, bundle_store_dir(tmp), skip)
        if not n:
            raise ValueError(f"results_dir {str(src)!r} holds no finished run"
                             + (f" that {str(exclude)!r} lacks" if skip else ""))
        dev = device or ("+".join(sorted(devices)) if devices else "unknown")
        env = environment_info(dev)
        prov = {"format": BUNDLE_FORMAT, "profile": profile, "seed": seed,
                "git_commit": env["git_commit"],
                "device": env.get("device_name", dev) if dev.startswith("cuda") else dev,
                "versions": env["versions"], "platform": env["platform"], "runs": n,
                "created_utc": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")}
        if shard is not None:
            prov["shard"] = shard
        packed = bundle_store(tmp)
        prov["unverified_runs"] = provenance_problems(packed)
        prov["run_torch_versions"] = _torch_versions(packed)
        del packed
        atomic_write_text(tmp / _PROVENANCE, json.dumps(prov, indent=1, sort_keys=True) + "\n")
        os.chmod(tmp, 0o777 & ~current_umask())                    # mkdtemp makes it 0700
        os.replace(tmp, dst)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        _remove_empty(made)                # a refused or failed pack leaves nothing behind
        raise
    return prov


def _remove_empty(folders: list[Path]) -> None:
    """Remove the folders ``folders`` (deepest first) that are empty."""
    for d in folders:
        try:
            d.rmdir()
        except OSError:
            pass


def _evidence_keys(path: str | os.PathLike) -> set[str]:
    """The keys of the finished runs of the evidence ``path`` (a bundle or a folder of them)."""
    st = evidence_store(path)
    return st.keys() if isinstance(st, EvidenceFolder) else {r.key for r in st.runs("finished")}


def _copy_finished(src: Path, dst: Path, skip: set[str] = frozenset()) -> tuple[set[str], int]:
    """Copy the finished runs of the store ``src`` whose keys ``skip`` lacks into a new store
    ``dst`` (their metric curves and the model weights of their final checkpoints included);
    returns (devices recorded in the results, runs copied)."""
    from seqtheory.models.store import DB_NAME, ResultsStore, sqlite_uri

    dst.mkdir(parents=True)
    con = sqlite3.connect(sqlite_uri(src / DB_NAME, mode="ro"), uri=True)
    out = sqlite3.connect(dst / DB_NAME)
    try:
        con.backup(out)
        out.executemany("DELETE FROM runs WHERE key = ?", [(k,) for k in skip])
        out.commit()
        rows = out.execute("SELECT key, result FROM runs WHERE status = 'finished'").fetchall()
    finally:
        con.close()
        out.close()
    store, source = ResultsStore(dst), ResultsStore(src)
    for key, _ in rows:
        ck = source.load_checkpoint(key)
        if ck is not None:
            store.save_checkpoint(key, {k: ck[k] for k in ("model", "step", "curve") if k in ck})
    del store, source
    out = sqlite3.connect(dst / DB_NAME, isolation_level=None)
    try:                            # last, as ResultsStore sets WAL: one self-contained file
        out.execute("PRAGMA journal_mode=DELETE")
        out.execute("DELETE FROM runs WHERE status != 'finished'")
        out.execute("DELETE FROM metrics WHERE key NOT IN (SELECT key FROM runs)")
        out.execute("VACUUM")
    finally:
        out.close()
    devices = {r.get("device") for r in (json.loads(x) for _, x in rows if x)
               if isinstance(r, dict) and isinstance(r.get("device"), str)}
    return devices, len(rows)


def report_evidence(report: dict) -> str | None:
    """The evidence bundle a report's trained claims read (:func:`describe`), or ``None`` when
    they read this machine's runs."""
    ev = report.get("environment", {}).get("evidence")
    return describe(ev) if ev else None


# ------------------------------------------------------------------------------------------------
# an evidence folder: several bundles (one per shard, :mod:`~seqtheory.proofs_checks.shards`) read
# as one
# ------------------------------------------------------------------------------------------------
#: result fields that say how a run ran (machine, speed, engine), not what it found: two bundles'
#: results of one run that differ only there are the same result
_CIRCUMSTANCES = ("device", "torch", "train_time_s", "tokens_per_s", "engine", "seconds")


def bundles_in(path: str | os.PathLike) -> list[Path]:
    """The bundles of the evidence ``path``: ``[path]`` when it is a bundle (holds
    ``provenance.json``), else its sub-folders that are, sorted by name. ``ValueError`` when
    ``path`` is not a folder or holds no bundle."""
    root = Path(path)
    if not root.is_dir():
        raise ValueError(f"evidence {str(root)!r} is not a folder")
    if (root / _PROVENANCE).exists():
        return [root]
    found = sorted(p for p in root.iterdir() if p.is_dir() and (p / _PROVENANCE).exists())
    if not found:
        raise ValueError(f"evidence {str(root)!r} is neither a bundle nor a folder of bundles "
                         f"(no {_PROVENANCE} in it or its sub-folders)")
    return found


def _found(result: Any) -> str:
    """The part of a run's result that says what it found, as canonical JSON."""
    if isinstance(result, dict):
        result = {k: v for k, v in result.items() if k not in _CIRCUMSTANCES}
    return json.dumps(result, sort_keys=True, default=str)


class EvidenceFolder:
    """The union of the results stores of several bundles (:func:`bundles_in`), read-only, with
    the methods of a results store that reading needs (``key``, ``key_of``, ``get``,
    ``result``, ``runs``, ``metrics``, ``load_checkpoint``, ``checkpoint_path``). A run held by
    several bundles is read from the first (by name); ``ValueError`` naming both bundles and the
    run's key when two bundles hold different results for one run (identical results, the fields
    of :data:`_CIRCUMSTANCES` aside, are fine)."""

    def __init__(self, root: str | os.PathLike):
        from seqtheory.models.store import ResultsStore

        self.root = Path(root)
        self.bundles = bundles_in(root)
        self.stores = [bundle_store(b) for b in self.bundles]
        self.key = ResultsStore.key
        self._where: dict[str, int] = {}
        for i, st in enumerate(self.stores):
            for rec in st.runs("finished"):
                j = self._where.setdefault(rec.key, i)
                if j != i and _found(self.stores[j].get(rec.key).result) != _found(rec.result):
                    raise ValueError(
                        f"evidence {str(self.root)!r}: bundles {self.bundles[j].name!r} and "
                        f"{self.bundles[i].name!r} hold different results for the run "
                        f"{rec.key}; remove one of them")

    def keys(self) -> set[str]:
        """The store keys of every finished run of the union."""
        return set(self._where)

    def _store_of(self, config_or_key: Any):
        key = config_or_key if isinstance(config_or_key, str) else self.key(config_or_key)
        i = self._where.get(key)
        if i is None:                                  # a legacy key: ask each bundle's store
            i = next((n for n, st in enumerate(self.stores) if st.get(config_or_key) is not None), 0)
        return self.stores[i]

    def key_of(self, config_or_key: Any) -> str:
        return self._store_of(config_or_key).key_of(config_or_key)

    def get(self, config_or_key: Any):
        return self._store_of(config_or_key).get(config_or_key)

    def result(self, config_or_key: Any) -> dict | None:
        return self._store_of(config_or_key).result(config_or_key)

    def runs(self, status: str | None = None) -> list:
        seen, out = set(), []
        for st in self.stores:
            for rec in st.runs(status):
                if rec.key not in seen:
                    seen.add(rec.key)
                    out.append(rec)
        return out

    def metrics(self, config_or_key: Any) -> list[dict]:
        return self._store_of(config_or_key).metrics(config_or_key)

    def checkpoint_path(self, config_or_key: Any) -> Path:
        return self._store_of(config_or_key).checkpoint_path(config_or_key)

    def load_checkpoint(self, config: Any, map_location: str = "cpu") -> dict | None:
        return self._store_of(config).load_checkpoint(config, map_location)


def evidence_store(path: str | os.PathLike):
    """The read-only store of the evidence ``path``: the bundle's store (:func:`bundle_store`)
    for one bundle, an :class:`EvidenceFolder` for a folder of bundles."""
    bundles = bundles_in(path)
    return bundle_store(bundles[0]) if bundles == [Path(path)] else EvidenceFolder(path)


def evidence_provenance(path: str | os.PathLike) -> dict[str, Any]:
    """The provenance of the evidence ``path``: the bundle's (:func:`load_provenance`) for one
    bundle; for a folder of bundles, ``bundles`` (each bundle's provenance with its ``path``),
    ``profile`` and ``seed`` (the bundles' own: ``ValueError`` when they differ), ``runs``
    (finished runs of the union), ``device`` / ``git_commit`` / ``created_utc`` (the bundles'
    distinct values joined), ``format`` and ``versions`` (the first bundle's). ``ValueError`` for
    a bad bundle or two bundles that disagree on a run (:class:`EvidenceFolder`)."""
    bundles = bundles_in(path)
    if bundles == [Path(path)]:
        return load_provenance(path)
    provs = [dict(load_provenance(b), path=str(b)) for b in bundles]
    for key in ("profile", "seed"):
        values = {p[key] for p in provs}
        if len(values) > 1:
            raise ValueError(f"evidence {str(path)!r}: its bundles were made with different "
                             f"{key}s {sorted(values, key=str)}")

    def joined(key: str) -> str:
        return ", ".join(dict.fromkeys(p[key] for p in provs))

    return {"format": BUNDLE_FORMAT, "profile": provs[0]["profile"], "seed": provs[0]["seed"],
            "device": joined("device"), "git_commit": joined("git_commit"),
            "created_utc": joined("created_utc"), "versions": provs[0]["versions"],
            "runs": len(EvidenceFolder(path).keys()), "bundles": provs}

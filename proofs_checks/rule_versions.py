"""Versions of the claims' decision rules, and the ledger that records when each changed.

SPEC §3, "every rule can fail, and is fixed before the evidence": each decision rule carries a
version, a hash of its source and thresholds (:func:`rule_fingerprint`), recorded in report.json;
seeds whose results were looked at before a rule took its current form are *seen*, and only later
seeds are *out-of-sample*. The ledger (``rule_ledger.json`` beside this module, committed with
the code) holds, per claim id::

    {"version": "<12 hex>",            # the fingerprint of the rule as it is now
     "recorded": "YYYY-MM-DD",         # when this version was recorded
     "change": "what changed and why", # one line
     "seen": {"quick": [0], "full": [0, 1]},   # per profile: verify seeds looked at before
                                               # this version was fixed
     "history": [{"version", "recorded", "change"}, ...]}   # earlier versions, oldest first

A test (tests/test_rule_versions.py) fails when a rule's fingerprint differs from its ledger
entry, so no rule changes without a recorded change. After changing a rule, record it::

    python -m seqtheory.proofs_checks.rule_versions record CLAIM_ID --change "why" \\
        [--seen full:0,1,5]

(``--seen`` adds the seeds looked at so far under the old rule; they stay seen.) ``python -m
seqtheory.proofs_checks.rule_versions check`` lists the claims whose rule differs from the ledger.

The fingerprint covers the rule function's source, the source of every function of
:mod:`seqtheory.proofs_checks` it calls (transitively, by the names its code refers to), and the
values of the module-level constants those functions read (thresholds, factors); a change to any
of them is a new version. Code outside :mod:`seqtheory.proofs_checks` (the measurements in
``theory``/``numerics``/``models``) produces evidence; it is not part of the rule.
"""
from __future__ import annotations

import argparse
import datetime as _dt
import functools
import hashlib
import inspect
import json
import sys
import textwrap
import types
from fractions import Fraction
from pathlib import Path
from typing import Any, Callable

from seqtheory.theory._io import atomic_write_files

__all__ = ["LEDGER_PATH", "rule_parts", "rule_fingerprint", "load_ledger", "rule_status", "stale_rules",
           "record_change"]

LEDGER_PATH = Path(__file__).with_name("rule_ledger.json")
_RULE_PACKAGE = "seqtheory.proofs_checks"
_CONSTANT_TYPES = (bool, int, float, complex, str, bytes, Fraction, type(None))


def _is_constant(v: Any) -> bool:
    if isinstance(v, _CONSTANT_TYPES):
        return True
    if isinstance(v, (tuple, list, frozenset, set)):
        return all(_is_constant(x) for x in v)
    if isinstance(v, dict):
        return all(_is_constant(k) and _is_constant(x) for k, x in v.items())
    return False


def _names(code: types.CodeType) -> set[str]:
    """Every global / attribute name a code object (and the code nested in it) refers to."""
    out = set(code.co_names)
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            out |= _names(c)
    return out


def _in_rule_package(obj: Any) -> bool:
    return getattr(obj, "__module__", "").startswith(_RULE_PACKAGE)


def _referenced(fn: Callable) -> tuple[list[Callable], dict[str, Any]]:
    """The rule-package functions and the constants that ``fn``'s code names."""
    g = fn.__globals__
    names = _names(fn.__code__)
    modules = [v for v in g.values() if isinstance(v, types.ModuleType)
               and v.__name__.startswith(_RULE_PACKAGE)]
    funcs, consts = [], {}
    for name in sorted(names):
        found = [g[name]] if name in g else []
        found += [getattr(m, name) for m in modules if hasattr(m, name)]
        for obj in found:
            if isinstance(obj, types.FunctionType) and _in_rule_package(obj):
                funcs.append(inspect.unwrap(obj))
            elif _is_threshold_name(name) and _is_constant(obj):
                consts[f"{fn.__module__}.{name}"] = obj
    return funcs, consts


def _is_threshold_name(name: str) -> bool:
    """A module-level constant by convention: UPPER_CASE, optionally with a leading underscore."""
    bare = name.lstrip("_")
    return bool(bare) and bare.isupper()


def rule_parts(rule: Callable) -> tuple[dict[str, str], dict[str, Any]]:
    """What :func:`rule_fingerprint` hashes: ``({qualified name: source}, {qualified name:
    constant})`` for ``rule`` (unwrapped) and every function of :mod:`seqtheory.proofs_checks` it
    refers to by name, transitively, and the module-level constants (UPPER_CASE names) they
    read. ``TypeError`` for an object that is not a function."""
    rule = inspect.unwrap(rule)
    if not isinstance(rule, types.FunctionType):
        raise TypeError(f"rule must be a function, got {type(rule).__name__}")
    todo, done, consts = [rule], {}, {}
    while todo:
        f = todo.pop()
        key = f"{f.__module__}.{f.__qualname__}"
        if key in done:
            continue
        done[key] = textwrap.dedent(inspect.getsource(f))
        funcs, cs = _referenced(f)
        consts.update(cs)
        todo += funcs
    return done, consts


@functools.lru_cache(maxsize=None)
def rule_fingerprint(rule: Callable) -> str:
    """The version of a decision rule: the first 12 hex digits of the SHA-256 of
    :func:`rule_parts` (sources and constant values, in name order, names without their module
    path). ``TypeError`` for an object that is not a function."""
    sources, consts = rule_parts(rule)
    h = hashlib.sha256()
    for name, src in sorted((_local(k), v) for k, v in sources.items()):
        h.update(f"def {name}\n{src}\n".encode())
    for name, value in sorted((_local(k), repr(v)) for k, v in consts.items()):
        h.update(f"const {name} = {value}\n".encode())
    return h.hexdigest()[:12]


def _local(qualified: str) -> str:
    """``pkg.module.name`` without the module path: moving a rule to another module (a renamed
    claim module) does not change its version; its text and thresholds do."""
    return qualified.rsplit(".", 1)[-1]


def load_ledger(path: Path | None = None) -> dict[str, dict]:
    """The ledger (see the module docstring) as a dict keyed by claim id. ``ValueError`` naming
    the file when it is not a JSON object."""
    p = Path(path) if path is not None else LEDGER_PATH
    if not p.exists():
        return {}
    doc = json.loads(p.read_text())
    if not isinstance(doc, dict):
        raise ValueError(f"{p}: the rule ledger must be a JSON object keyed by claim id")
    return doc


def rule_status(claim: Any, seed: int, profile: str, ledger: dict | None = None) -> dict:
    """What report.json records of a claim's rule: ``{"version", "recorded", "change",
    "seed_status"}``; ``seed_status`` is ``"seen"`` when ``seed`` was looked at (in ``profile``)
    before the rule took its current version, ``"out-of-sample"`` when it was not, for a claim
    that trains; ``"not applicable"`` for one that does not (its evidence does not depend on
    seeds that were looked at), and ``"unrecorded"`` when the ledger's version is not the rule's
    (the rule changed without a recorded change)."""
    ledger = load_ledger() if ledger is None else ledger
    version = rule_fingerprint(claim.decision) if claim.decision is not None else ""
    entry = ledger.get(claim.id, {})
    if not version or entry.get("version") != version:
        return {"version": version, "recorded": "", "change": "", "seed_status": "unrecorded"}
    if not claim.uses_training:
        status = "not applicable"
    else:
        status = "seen" if seed in entry.get("seen", {}).get(profile, []) else "out-of-sample"
    return {"version": version, "recorded": entry["recorded"], "change": entry["change"],
            "seed_status": status}


def stale_rules(claims: list, ledger: dict | None = None) -> dict[str, str]:
    """The claims whose rule's fingerprint is not their ledger version: ``{id: why}``."""
    ledger = load_ledger() if ledger is None else ledger
    out = {}
    for c in claims:
        if c.decision is None:
            continue
        v = rule_fingerprint(c.decision)
        have = ledger.get(c.id, {}).get("version")
        if have != v:
            out[c.id] = f"rule version {v}, ledger {have or 'has no entry'}"
    return out


def record_change(claim_id: str, change: str, seen: dict[str, list[int]] | None = None,
                  path: Path | None = None, today: str | None = None) -> dict:
    """Record the current version of ``claim_id``'s rule in the ledger (atomically): the old
    entry moves to ``history``; ``seen`` adds seeds (per profile) looked at under the old rule,
    which stay seen. Returns the new entry. ``ValueError`` for an unknown claim, an empty
    ``change`` or a rule whose version is already recorded."""
    from .registry import get_claim

    if not isinstance(change, str) or not change.strip():
        raise ValueError("change must say what changed in the rule and why")
    c = get_claim(claim_id)
    if c.decision is None:
        raise ValueError(f"claim {claim_id!r} has no decision rule")
    p = Path(path) if path is not None else LEDGER_PATH
    ledger = load_ledger(p)
    version = rule_fingerprint(c.decision)
    old = ledger.get(c.id)
    if old is not None and old["version"] == version:
        raise ValueError(f"{c.id}: rule version {version} is already recorded")
    merged = {k: sorted(set(v)) for k, v in (old or {}).get("seen", {}).items()}
    for prof, seeds in (seen or {}).items():
        merged[prof] = sorted(set(merged.get(prof, [])) | set(seeds))
    history = list((old or {}).get("history", []))
    if old is not None:
        history.append({k: old[k] for k in ("version", "recorded", "change")})
    entry = {"version": version, "recorded": today or _dt.date.today().isoformat(),
             "change": change.strip(), "seen": merged, "history": history}
    ledger[c.id] = entry
    text = json.dumps(dict(sorted(ledger.items())), indent=1, ensure_ascii=False) + "\n"
    atomic_write_files({p: text.encode()})
    return entry


def _parse_seen(items: list[str]) -> dict[str, list[int]]:
    out: dict[str, list[int]] = {}
    for item in items:
        prof, _, seeds = item.partition(":")
        if not seeds:
            raise SystemExit(f"--seen takes PROFILE:SEED[,SEED...], got {item!r}")
        out.setdefault(prof, []).extend(int(s) for s in seeds.split(","))
    return out


def main(argv: list[str] | None = None) -> int:
    from .registry import all_claims

    ap = argparse.ArgumentParser(prog="python -m seqtheory.proofs_checks.rule_versions",
                                 description="Check or record the versions of the decision rules.")
    sub = ap.add_subparsers(dest="cmd", required=True)
    sub.add_parser("check", help="list the rules whose version is not recorded")
    rec = sub.add_parser("record", help="record the current version of one claim's rule")
    rec.add_argument("claim_id")
    rec.add_argument("--change", required=True, help="what changed and why (one line)")
    rec.add_argument("--seen", action="append", default=[],
                     help="PROFILE:SEEDS looked at under the old rule (e.g. full:0,1,5)")
    a = ap.parse_args(argv)
    if a.cmd == "check":
        stale = stale_rules(all_claims())
        for cid, why in stale.items():
            print(f"{cid}: {why}")
        return 1 if stale else 0
    entry = record_change(a.claim_id, a.change, _parse_seen(a.seen))
    print(f"{a.claim_id}: recorded version {entry['version']}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

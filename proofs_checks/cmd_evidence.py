"""seqtheory evidence: make evidence bundles of trained runs, one shard at a time.

    seqtheory evidence shards --profile paper [--evidence evidence]   # list the shards to train
    seqtheory evidence train --profile paper --device cuda --results R --evidence evidence
    seqtheory evidence pack --results R --out evidence/paper-shard-01-DATE --profile paper \
        --exclude-evidence evidence --shard 1

then, on any machine: seqtheory verify --profile paper --evidence evidence (the union of the
bundles in the folder). sweeps/paper_profile.sh runs train and pack for the next shard (see
seqtheory.proofs_checks.evidence for the bundle's layout and rules,
seqtheory.proofs_checks.shards for the shards and their estimates).
"""
from __future__ import annotations

import argparse
import json
import sys

from seqtheory.theory._messages import counted

__all__ = ["register"]


def register(subparsers) -> None:
    """Add the ``evidence`` subcommand (with its ``pack`` action) to the CLI's subparsers."""
    from .profiles import PROFILES

    p = subparsers.add_parser("evidence", help="make an evidence bundle of trained runs",
                              description=__doc__,
                              formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="action", required=True, metavar="ACTION",
                           help="shards: list the shards of a profile's runs; train: train one "
                                "shard; pack: make a bundle from a results store")
    k = sub.add_parser("pack", help="copy a results store's finished runs into a new bundle",
                       description="Copy the finished runs of a results store (their results, "
                                   "metric curves and final model weights) into a new evidence "
                                   "bundle folder with its provenance (commit, device, versions).")
    k.add_argument("--results", required=True, help="the results store the runs were trained into")
    k.add_argument("--out", required=True, help="the bundle folder to create (must not exist)")
    k.add_argument("--profile", required=True, choices=PROFILES,
                   help="the profile verify ran with to train these runs")
    k.add_argument("--seed", type=int, default=0, help="the seed verify ran with (default 0)")
    k.add_argument("--device", default=None,
                   help="the device the runs were trained on (default: read from the runs)")
    k.add_argument("--exclude-evidence", default=None, metavar="DIR",
                   help="leave out the runs this bundle or folder of bundles holds (default none)")
    k.add_argument("--shard", type=int, default=None,
                   help="the shard number to record in the provenance (default none)")
    k.set_defaults(fn=_cmd_pack)
    for name, fn, text in (("shards", _cmd_shards, "list the shards of a profile's planned runs "
                            "(decisive cells first, each estimated to fit the shard budget)"),
                           ("train", _cmd_train, "train one shard's runs into a results store")):
        a = sub.add_parser(name, help=text, description=text[0].upper() + text[1:] + ".")
        a.add_argument("--profile", default="paper", choices=PROFILES,
                       help="the profile whose trained claims' runs are cut (default paper)")
        a.add_argument("--seed", type=int, default=0, help="the seed of verify (default 0)")
        a.add_argument("--evidence", default=None, metavar="DIR",
                       help="leave out the runs of this bundle or folder of bundles; the shards "
                            "are numbered after its bundles (default none)")
        a.add_argument("--shard-budget-s", type=float, default=None, metavar="S",
                       help="estimated seconds of one shard at most (default 360)")
        if name == "shards":
            a.add_argument("--json", action="store_true", help="one JSON object per shard")
        else:
            a.add_argument("--shard", default="auto",
                           help="the shard to train: auto (the next one) or its number")
            a.add_argument("--device", default="cuda", choices=("cpu", "cuda"),
                           help="where to train (default cuda)")
            a.add_argument("--results", required=True, help="the results store to train into")
            a.add_argument("--info", default=None, metavar="FILE",
                           help="write the shard's number, keys and estimate here as JSON "
                                "before training")
        a.set_defaults(fn=fn)


def _cmd_pack(args: argparse.Namespace) -> int:
    import sqlite3

    from seqtheory.theory._io import os_error_line

    from .evidence import describe, pack, unverified_lines

    def fail(msg: str, code: int) -> int:
        print(f"seqtheory evidence pack: error: {msg}", file=sys.stderr)
        return code

    try:
        prov = pack(args.results, args.out, profile=args.profile, seed=args.seed, device=args.device,
                    exclude=args.exclude_evidence, shard=args.shard)
    except ValueError as exc:
        return fail(str(exc), 2)
    except OSError as exc:  # disk full, read-only file system, no permission: no bundle is left
        return fail(f"cannot write the bundle {str(args.out)!r}: {os_error_line(exc)}", 1)
    except sqlite3.DatabaseError as exc:
        return fail(f"cannot copy the results store {str(args.results)!r} into the bundle "
                    f"{str(args.out)!r}: {exc}", 1)
    print(f"wrote {args.out}: {describe(prov)}")
    for line in unverified_lines(prov["unverified_runs"]):
        print(f"seqtheory evidence pack: note: {line}" if not line.startswith(" ") else line,
              file=sys.stderr)
    print(json.dumps({k: prov[k] for k in ("git_commit", "device", "runs")}))
    return 0


def _shards_of(args: argparse.Namespace, device: str) -> list:
    """The shards of ``args`` (profile, seed, shard budget) of the runs the evidence lacks,
    numbered after its bundles."""
    from .evidence import EvidenceFolder, bundles_in, evidence_store
    from .shards import SHARD_LIMIT_S, plan_shards

    done, first = set(), 1
    if args.evidence is not None:
        st = evidence_store(args.evidence)
        done = st.keys() if isinstance(st, EvidenceFolder) else {r.key for r in st.runs("finished")}
        first = len(bundles_in(args.evidence)) + 1
    limit = SHARD_LIMIT_S if args.shard_budget_s is None else args.shard_budget_s
    return plan_shards(args.profile, args.seed, limit_s=limit, done=done, first=first,
                       device=device)


def _cmd_shards(args: argparse.Namespace) -> int:
    from .shards import shard_rows

    try:
        shards = _shards_of(args, "cuda")
    except ValueError as exc:
        print(f"seqtheory evidence shards: error: {exc}", file=sys.stderr)
        return 2
    if args.json:
        for row in shard_rows(shards):
            print(json.dumps(row))
        return 0
    print(f"{counted(len(shards), 'shard')}, {counted(sum(s.runs for s in shards), 'run')}, estimated "
          f"{sum(s.seconds for s in shards):.0f} s in all (H200 estimate, not measured)")
    for s in shards:
        flag = "  OVER THE LIMIT" if s.over_limit else ""
        print(f"shard {s.number:3d}  {counted(s.runs, 'run'):>8}  {s.seconds:6.1f} s  "
              f"{', '.join(s.tiers)}{flag}\n    claims: {', '.join(s.claims)}\n    cells: "
              f"{'; '.join(s.cells)}")
    return 0


def _cmd_train(args: argparse.Namespace) -> int:
    from pathlib import Path

    from seqtheory.theory._io import atomic_write_text

    from .registry import Context
    from .shards import shard_rows
    from .training_runs import train_all

    def fail(msg: str) -> int:
        print(f"seqtheory evidence train: error: {msg}", file=sys.stderr)
        return 2

    try:
        shards = _shards_of(args, args.device)
    except ValueError as exc:
        return fail(str(exc))
    if not shards:
        print("every planned run is in the evidence: nothing to train")
        return 0
    if args.shard == "auto":
        shard = shards[0]
    else:
        pick = [s for s in shards if str(s.number) == args.shard]
        if not pick:
            return fail(f"--shard must be 'auto' or one of {shards[0].number}-{shards[-1].number}"
                        f", got {args.shard!r}")
        shard = pick[0]
    row = shard_rows([shard])[0]
    if args.info:
        atomic_write_text(Path(args.info), json.dumps(row) + "\n")
    print(f"shard {shard.number}: {counted(shard.runs, 'run')}, estimated {shard.seconds:.0f} s "
          f"({', '.join(shard.tiers)})", flush=True)
    ctx = Context(seed=args.seed, profile=args.profile, device=args.device,
                  results_dir=Path(args.results).resolve())
    summary = train_all(ctx, [j for job in shard.jobs for j in (job if isinstance(job, list) else [job])])
    print(f"trained {counted(summary['runs'], 'run')} in {summary['seconds']:.1f} s")
    return 0

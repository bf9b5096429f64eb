"""seqtheory evidence pack: make an evidence bundle from a results store.

Example, on a GPU machine:

    seqtheory verify --profile paper --device cuda --results results-paper
    seqtheory evidence pack --results results-paper --out evidence/paper-h200 --profile paper

then, on any machine: seqtheory verify --profile paper --evidence evidence/paper-h200
(see seqtheory.proofs_checks.evidence for the bundle's layout and rules).
"""
from __future__ import annotations

import argparse
import json
import sys

__all__ = ["register"]


def register(subparsers) -> None:
    """Add the ``evidence`` subcommand (with its ``pack`` action) to the CLI's subparsers."""
    from .profiles import PROFILES

    p = subparsers.add_parser("evidence", help="make an evidence bundle of trained runs",
                              description=__doc__,
                              formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="action", required=True, metavar="ACTION",
                           help="pack: make a bundle from a results store")
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
    k.set_defaults(fn=_cmd_pack)


def _cmd_pack(args: argparse.Namespace) -> int:
    import sqlite3

    from seqtheory.theory._io import os_error_line

    from .evidence import describe, pack, unverified_lines

    def fail(msg: str, code: int) -> int:
        print(f"seqtheory evidence pack: error: {msg}", file=sys.stderr)
        return code

    try:
        prov = pack(args.results, args.out, profile=args.profile, seed=args.seed, device=args.device)
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

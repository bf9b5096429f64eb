"""``seqtheory sweep`` and ``seqtheory sweep-report``: run a grid of training runs into a
results store (resumable, local process pool or Ray), and turn a store into the tables and
figures of ``depth.exp.word_problems``."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from seqtheory.theory._messages import counted

from .cli_types import add_results_option, int_at_least, number_above, number_at_least

__all__ = ["register"]


def _cmd_sweep(args: argparse.Namespace) -> int:
    from seqtheory.models.store import ResultsStore
    from seqtheory.models.sweep import load_sweep, run_sweep, sweep_status

    try:
        spec = load_sweep(args.config)
    except (ValueError, FileNotFoundError) as exc:
        print(f"seqtheory sweep: error: {exc}", file=sys.stderr)
        return 2
    if args.dry_run:
        print(f"sweep {spec.name!r} ({spec.source}): {counted(spec.size, 'run')}")
        if spec.description:
            print(f"  {spec.description}")
        for k, v in spec.grid.items():
            print(f"  grid  {k:<14} {len(v):>3} × {list(v)}")
        for k, v in spec.fixed.items():
            print(f"  fixed {k:<14} {v!r}")
        print(f"  lease {args.lease_s if args.lease_s is not None else spec.lease_s:g} s")
        db = Path(args.results) / "results.sqlite"
        if db.exists():
            try:
                store = ResultsStore(args.results)
            except ValueError as exc:
                print(f"seqtheory sweep: error: {exc}", file=sys.stderr)
                return 2
            print(f"  status in {args.results}: {sweep_status(store, spec.configs()).line()}")
        else:
            print(f"  status: no results store at {args.results} yet (all runs new)")
        return 0
    try:
        final, errors = run_sweep(spec, args.results, backend=args.backend,
                                  workers=args.workers, device=args.device,
                                  address=args.address, lease_s=args.lease_s,
                                  poll_s=args.poll_s, progress_every_s=args.progress_s,
                                  threads=args.threads, stream_every_s=args.stream_s,
                                  ray_retries=args.ray_retries)
    except ValueError as exc:
        print(f"seqtheory sweep: error: {exc}", file=sys.stderr)
        return 2
    return 0 if final.complete and not errors else 1


def _cmd_sweep_report(args: argparse.Namespace) -> int:
    from seqtheory.models.store import holds_store
    from seqtheory.models.sweep import load_sweep
    from seqtheory.models.sweep_report import REPORT_NAME, summary_lines, write_word_problem_report
    from seqtheory.theory._io import check_dir, check_entries

    if not holds_store(args.results):
        print(f"seqtheory sweep-report: error: no results store at {args.results}",
              file=sys.stderr)
        return 2
    configs = None
    if args.config:
        try:
            configs = load_sweep(args.config).configs()
        except (ValueError, FileNotFoundError) as exc:
            print(f"seqtheory sweep-report: error: {exc}", file=sys.stderr)
            return 2
    out = Path(args.out)
    try:                                   # checked before anything is written or created
        check_dir(out, "--out")
        check_entries(out, "--out", files=(f"{REPORT_NAME}.json", f"{REPORT_NAME}.md"),
                      folders=("figures",))
    except ValueError as exc:
        print(f"seqtheory sweep-report: error: {exc}", file=sys.stderr)
        return 2
    try:
        paths = write_word_problem_report(args.results, out, configs=configs)
    except (ValueError, OSError) as exc:
        print(f"seqtheory sweep-report: error: {exc}", file=sys.stderr)
        return 2
    doc = json.loads(next(p for p in paths if p.suffix == ".json").read_text(encoding="utf-8"))
    for line in summary_lines(doc):
        print(line)
    print(f"wrote {counted(len(paths), 'file')} into {out}: "
          + ", ".join(str(p.relative_to(out)) for p in paths))
    return 0


def register(subparsers) -> None:
    """Add the ``sweep`` and ``sweep-report`` subcommands."""
    s = subparsers.add_parser(
        "sweep", help="run a grid of training runs into a results store (resumable)",
        description="Expand CONFIG.toml into training runs and train every run not yet finished "
                    "in the results store. Killed at any moment, it resumes on restart: finished "
                    "runs are skipped, interrupted ones continue from their checkpoint once their "
                    "lease has expired.")
    s.add_argument("config", metavar="CONFIG.toml",
                   help="sweep file: [sweep] name and lease, [grid] lists, [fixed] values")
    add_results_option(s)
    s.add_argument("--backend", choices=("local", "ray"), default="local",
                   help="local process pool or Ray (needs the sweeps extra; default local)")
    s.add_argument("--address", default=None,
                   help="Ray cluster address (backend ray; default: start a local Ray instance)")
    s.add_argument("--workers", type=int_at_least(1), default=1,
                   help="parallel workers (local processes or Ray tasks; default 1)")
    s.add_argument("--threads", type=int_at_least(1), default=1,
                   help="torch threads per worker (default 1)")
    s.add_argument("--device", choices=("auto", "cpu", "cuda"), default="cpu",
                   help="where the runs train (default cpu)")
    s.add_argument("--lease-s", type=number_above(0), default=None,
                   help="lease of a claimed run in seconds (default: the sweep file's, else 600)")
    s.add_argument("--poll-s", type=number_above(0), default=5.0,
                   help="how often a worker re-checks runs held by others (default 5 s)")
    s.add_argument("--progress-s", type=number_above(0), default=30.0,
                   help="seconds between progress lines (default 30)")
    s.add_argument("--stream-s", type=number_at_least(0), default=30.0,
                   help="backend ray: seconds between mid-run checkpoints shipped to the driver "
                        "(0 ships every checkpoint; default 30)")
    s.add_argument("--ray-retries", type=int_at_least(0), default=3,
                   help="backend ray: restarts of a run whose worker died, from the driver's "
                        "newest checkpoint (default 3)")
    s.add_argument("--dry-run", action="store_true",
                   help="validate and list the grid and its status; train nothing")
    s.set_defaults(fn=_cmd_sweep)

    r = subparsers.add_parser(
        "sweep-report", help="tables and figures of depth.exp.word_problems from a results store")
    add_results_option(r)
    r.add_argument("--out", default="seqtheory-report/word_problems",
                   help="output folder (default ./seqtheory-report/word_problems)")
    r.add_argument("--config", default=None,
                   help="restrict to the runs of this sweep file (default: every word-problem run)")
    r.set_defaults(fn=_cmd_sweep_report)

"""seqtheory runs: the runs a results store holds, one line each, so that ``seqtheory inspect``
has keys to take.

Columns: the run's key (12 hex digits; ``seqtheory inspect KEY`` takes it, or any unique
prefix), its status (finished / claimed / failed), the claims whose training plan holds it
(evaluated for ``--seed``, every profile, controls included; ``-`` for a run of ``seqtheory
train``, a sweep or another seed), the task and the model (with its depth), and one metric of a
finished run: the held-out sequence accuracy at the test length and the longest prefix with 90%
accuracy for a word problem, the test MSE for a rotation task, the diameter ratio for a head
experiment, the number of ε points of a precision sweep or of widths of a head-width sweep.

  seqtheory runs                       every run of the shared store
  seqtheory runs --claim finding.parity_negative_eigenvalues
  seqtheory runs --results DIR --status failed
"""
from __future__ import annotations

import argparse
import shutil
import sys
from typing import Any

from seqtheory.theory._messages import counted

from .cli_types import add_results_option
from .terminal import clip_words

__all__ = ["register", "run", "run_row", "metric_text", "claims_by_key"]


def register(subparsers) -> None:
    """Add the ``runs`` subcommand to the CLI's subparsers."""
    p = subparsers.add_parser("runs", help="list the runs of a results store (keys for inspect)",
                              description=__doc__,
                              formatter_class=argparse.RawDescriptionHelpFormatter)
    add_results_option(p)
    p.add_argument("--seed", type=int, default=0,
                   help="the verify seed whose training plans name the claims (default 0)")
    p.add_argument("--status", choices=("finished", "claimed", "failed"), default=None,
                   help="only runs of this status (default: all)")
    p.add_argument("--claim", default=None, metavar="ID",
                   help="only the runs of this claim's training plan (id or alias)")
    p.set_defaults(fn=run)


def claims_by_key(store, seed: int) -> dict[str, list[str]]:
    """``{store key: [claim id, ...]}``: the claims whose training plan (at ``seed``, in every
    profile, controls included) holds each run."""
    from .profiles import PROFILES
    from .registry import Context, all_claims
    from .training_runs import StoreJob

    out: dict[str, list[str]] = {}
    for c in all_claims():
        if c.plan is None:
            continue
        for profile in PROFILES:
            for job in c.plan(Context(seed=seed, profile=profile), True):
                config = job.config if isinstance(job, StoreJob) else job
                # a stored experiment of several stored parts (precision sweeps, width points)
                for part in (config, *getattr(config, "sweeps", ()), *getattr(config, "points", ())):
                    key = store.key(part)
                    if c.id not in out.setdefault(key, []):
                        out[key].append(c.id)
    return out


def metric_text(result: dict | None) -> str:
    """One metric of a stored result, in words (``""`` for none)."""
    if not isinstance(result, dict):
        return ""
    test = result.get("test")
    if isinstance(test, dict) and "seq_acc" in test:
        return (f"acc@{test.get('test_length', '?')} {test['seq_acc']:.2f}, "
                f"90% to length {test.get('max_len_90', '?')}")
    if isinstance(test, dict) and "mse" in test:
        return f"test MSE {test['mse']:.3g}"
    summary = result.get("summary")
    if isinstance(summary, dict) and "ratio_diameter" in summary:
        return f"D ratio {summary['ratio_diameter']:.3g}"
    if isinstance(result.get("points"), list):
        what = "ε point" if "parameters" in result else "head width"   # precision / width sweep
        return counted(len(result["points"]), what)
    if isinstance(result.get("sweeps"), list):
        return counted(len(result["sweeps"]), "precision sweep")
    return ""


def _what(config: dict) -> tuple[str, str]:
    """The task and the model of a stored configuration (``-`` where it names none)."""
    if "task" in config:
        model = config.get("model", "-")
        return str(config["task"]), f"{model} L={config['depth']}" if "depth" in config else model
    if "lm" in config:
        return "text (LM head)", "decoder LM"
    if "points" in config:
        return "text (LM head)", "head-width sweep"
    if "sweeps" in config or "eps" in config:
        return "rotation ε (precision)", f"deep abelian L={config.get('depth', '?')}" \
            if "depth" in config else "deep abelian"
    return "-", "-"


def run_row(rec: Any, claims: list[str]) -> dict[str, str]:
    """The listed fields of one :class:`~seqtheory.models.store.RunRecord`."""
    task, model = _what(rec.config if isinstance(rec.config, dict) else {})
    return {"key": rec.key[:12], "status": rec.status, "claim": ", ".join(claims) or "-",
            "task": task, "model": model,
            "metric": metric_text(rec.result) if rec.status == "finished" else ""}


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from seqtheory.models.store import ResultsStore, holds_store

    from .cli import unknown_claim_message
    from .registry import get_claim, load_all

    def fail(msg: str, code: int = 2) -> int:
        print(f"seqtheory runs: error: {msg}", file=sys.stderr)
        return code

    if args.seed < 0:
        return fail(f"--seed must be a non-negative integer, got {args.seed}")
    if not holds_store(args.results):
        print(f"no results store at {args.results} yet (seqtheory verify, train and sweep "
              "create it)")
        return 0
    load_all()
    want = None
    if args.claim is not None:
        try:
            want = get_claim(args.claim).id
        except KeyError:
            return fail(unknown_claim_message(args.claim))
    try:
        store = ResultsStore(Path(args.results))
        by_key = claims_by_key(store, args.seed)
        rows = [run_row(r, by_key.get(r.key, [])) for r in store.runs(args.status)]
    except (ValueError, OSError) as exc:
        return fail(f"results store {args.results}: {exc}", 1)
    if want is not None:
        rows = [r for r in rows if want in r["claim"].split(", ")]
    width = max(shutil.get_terminal_size((80, 24)).columns, 60)
    lines = [f"{counted(len(rows), 'run')} in {args.results}" + (f" of {want}" if want else "")]
    for r in rows:
        lines += [clip_words(f"{r['key']}  {r['status']:<8}  {r['task']}, {r['model']}"
                             + (f": {r['metric']}" if r["metric"] else ""), width),
                  "    " + clip_words(f"claim: {r['claim']}", width - 4)]
    try:
        print("\n".join(lines), flush=True)
    except BrokenPipeError:    # the reader stopped early (| head): not an error of the listing
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # as the Python docs advise
    return 0

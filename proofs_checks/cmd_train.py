"""``seqtheory train``: train one sequence model on one task, with the results store.

Example: ``seqtheory train --task S3 --model deltaproduct --depth 2 --width 64 --steps 2000
--device auto --results results``. A run already finished in the store is not retrained (its
stored summary is printed); an interrupted run resumes from its last checkpoint.
"""
from __future__ import annotations

import argparse
import math
import sys

__all__ = ["register", "run"]


def _positive_int(s: str) -> int:
    try:
        v = int(s)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {s!r}") from None
    if v < 1:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {s}")
    return v


def _finite_float(s: str) -> float:
    try:
        v = float(s)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number, got {s!r}") from None
    if not math.isfinite(v):
        raise argparse.ArgumentTypeError(f"must be a finite number, got {s}")
    return v


def register(subparsers) -> None:
    """Add the ``train`` subcommand to the CLI's subparsers."""
    from seqtheory.models.model import MODEL_NAMES
    from seqtheory.models.tasks import task_names

    p = subparsers.add_parser("train", help="train a sequence model on a task (results store)",
                              description=__doc__.splitlines()[0])
    p.add_argument("--task", required=True,
                   help=f"group name of SPEC §2 ({', '.join(task_names())}, or e.g. H3(2))")
    p.add_argument("--model", required=True, choices=MODEL_NAMES)
    p.add_argument("--depth", type=int, default=1)
    p.add_argument("--width", type=int, default=64)
    p.add_argument("--heads", type=int, default=4)
    p.add_argument("--n-householder", type=int, default=2, help="DeltaProduct steps per token")
    p.add_argument("--positions", choices=("rotary", "learned"), default="rotary")
    p.add_argument("--train-length", type=int, default=16)
    p.add_argument("--test-length", type=int, default=None, help="default: twice the train length")
    p.add_argument("--n-train", type=int, default=4096)
    p.add_argument("--n-test", type=int, default=512)
    p.add_argument("--convention", choices=("left", "right"), default="left")
    p.add_argument("--eps", type=_finite_float, default=None, help="generator scale (rotation_eps)")
    p.add_argument("--steps", type=int, default=1000)
    p.add_argument("--batch-size", type=int, default=64)
    p.add_argument("--lr", type=_finite_float, default=3e-3)
    p.add_argument("--weight-decay", type=_finite_float, default=0.01)
    p.add_argument("--warmup", type=int, default=50)
    p.add_argument("--grad-clip", type=_finite_float, default=1.0)
    p.add_argument("--precision", choices=("fp32", "bf16", "fp64"), default="fp32")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--device", choices=("auto", "cpu", "cuda"), default="auto")
    p.add_argument("--threads", type=_positive_int, default=None, help="torch CPU threads")
    p.add_argument("--results", default="results", help="results store folder (default ./results)")
    p.add_argument("--no-progress", action="store_true")
    p.set_defaults(fn=run)


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
    from rich.table import Table

    import sqlite3

    from seqtheory.models.store import ResultsStore
    from seqtheory.models.train import TrainConfig, resolve_device, train

    try:
        resolve_device(args.device)  # fail before touching the store: e.g. cuda without a GPU
        cfg = TrainConfig(task=args.task, model=args.model, depth=args.depth, width=args.width,
                          n_heads=args.heads, n_householder=args.n_householder,
                          positions=args.positions, train_length=args.train_length,
                          test_length=args.test_length, n_train=args.n_train, n_test=args.n_test,
                          convention=args.convention, eps=args.eps, steps=args.steps,
                          batch_size=args.batch_size, lr=args.lr, weight_decay=args.weight_decay,
                          warmup=args.warmup, grad_clip=args.grad_clip, precision=args.precision,
                          seed=args.seed)
        key = cfg.key
        store = ResultsStore(Path(args.results))
    except (ValueError, TypeError) as exc:
        print(f"seqtheory train: error: {exc}", file=sys.stderr)
        return 2
    console = Console()
    console.print(f"run {key[:12]}  task {cfg.task}  model {cfg.model}  depth {cfg.depth}  "
                  f"store {store.path}")
    with Progress(TextColumn("[bold]train"), BarColumn(), TextColumn("{task.completed}/{task.total}"),
                  TextColumn("{task.fields[info]}"), TimeElapsedColumn(), console=console,
                  disable=args.no_progress) as progress:
        bar = progress.add_task("train", total=cfg.steps, info="")

        def on_progress(info: dict) -> None:
            acc = "" if info["acc"] is None else f" acc {info['acc']:.3f}"
            progress.update(bar, completed=info["step"],
                            info=f"loss {info['loss']:.4f}{acc}  {info['tokens_per_s']:.0f} tok/s")

        try:
            res = train(cfg, store=store, device=args.device, on_progress=on_progress,
                        threads=args.threads)
        except (ValueError, RuntimeError, sqlite3.DatabaseError) as exc:
            print(f"seqtheory train: error: {exc}", file=sys.stderr)
            return 1
    t = Table(title=f"run {res['key'][:12]}" + (" (from the store, not retrained)"
                                                  if res.get("from_store") else ""))
    t.add_column("quantity")
    t.add_column("value")
    test = res["test"]
    rows = [("device / precision", f"{res['device']} / {res['precision']}"),
            ("train time", f"{res['train_time_s']:.1f} s"),
            ("final training loss", f"{res['final_loss']:.4g}")]
    if "seq_acc" in test:
        rows += [(f"sequence accuracy at {test['test_length']} (held-out)", f"{test['seq_acc']:.3f}"),
                 ("sequence accuracy at the train length", f"{test['seq_acc_train_length']:.3f}"),
                 ("max length with ≥ 90% sequence accuracy", str(test["max_len_90"]))]
    else:
        rows += [("test MSE (all positions)", f"{test['mse']:.4g}"),
                 ("test MSE (train length)", f"{test['mse_train_length']:.4g}")]
    for r in rows:
        t.add_row(*r)
    console.print(t)
    return 0

"""seqtheory train: train one sequence model on one task, with the results store.

Example: seqtheory train --task S3 --model deltaproduct --depth 2 --steps 2000
(every other option at its default). A run already finished in the store is not retrained (its
stored summary is printed); an interrupted run resumes from its last checkpoint.
"""
from __future__ import annotations

import argparse
import sys

from .cli_types import add_results_option, finite_number, int_at_least

__all__ = ["register", "run"]


TASK_HELP = ("a word problem over a group named as FiniteGroup.named accepts it: C<n> (cyclic), "
             "D<2n> (dihedral of order 2n: D8 has order 8), S<n>, A<n>, Q8, H3 (= H3(3)), "
             "H3(<p>), F21, V4, trivial; the paper's task groups are C2, C3, D8, H3, S3, S4, A5, "
             "and e.g. S5 is accepted too (any group of order at most 5040: S7, not S8); or rotation_a5 (faithful icosahedral rotations of A5), "
             "or rotation_eps (tokens act by exp(eps log R); needs --eps)")


def _add(p: argparse.ArgumentParser, flag: str, help: str, **kw) -> None:
    """An option whose help ends with its default (none for a required option or a flag)."""
    default = kw.get("default")
    if not kw.get("required") and kw.get("action") != "store_true":
        help += f" (default {default if default is not None else 'none'})"
    p.add_argument(flag, help=help, **kw)


def register(subparsers) -> None:
    """Add the ``train`` subcommand to the CLI's subparsers."""
    from seqtheory.models.names import MODEL_NAMES, PRECISIONS

    p = subparsers.add_parser("train", help="train a sequence model on a task (results store)",
                              description=__doc__,
                              formatter_class=argparse.RawDescriptionHelpFormatter)
    _add(p, "--task", TASK_HELP, required=True)
    _add(p, "--model", "the sequence model", required=True, choices=MODEL_NAMES)
    _add(p, "--depth", "number of layers", type=int_at_least(1), default=1)
    _add(p, "--width", "model width (hidden size)", type=int_at_least(1), default=64)
    _add(p, "--heads", "attention / state heads per layer", type=int_at_least(1), default=4)
    _add(p, "--n-householder", "DeltaProduct Householder steps per token", type=int_at_least(1),
         default=2)
    _add(p, "--positions", "position encoding of the transformer", choices=("rotary", "learned"),
         default="rotary")
    _add(p, "--train-length", "sequence length T of the training words", type=int_at_least(1),
         default=16)
    _add(p, "--test-length", "length of the held-out test words; none means twice the train "
         "length", type=int_at_least(1), default=None)
    _add(p, "--n-train", "number of training sequences", type=int_at_least(1), default=4096)
    _add(p, "--n-test", "number of held-out test sequences", type=int_at_least(1), default=512)
    _add(p, "--convention", "prefix products: left g_t = x_t g_(t-1), right g_t = g_(t-1) x_t",
         choices=("left", "right"), default="left")
    _add(p, "--eps", "generator scale of rotation_eps (required there, unused otherwise)",
         type=finite_number, default=None)
    _add(p, "--steps", "optimiser steps", type=int_at_least(1), default=1000)
    _add(p, "--batch-size", "sequences per step", type=int_at_least(1), default=64)
    _add(p, "--lr", "peak learning rate (AdamW)", type=finite_number, default=3e-3)
    _add(p, "--weight-decay", "AdamW weight decay", type=finite_number, default=0.01)
    _add(p, "--warmup", "linear warm-up steps", type=int, default=50)
    _add(p, "--grad-clip", "gradient-norm clip", type=finite_number, default=1.0)
    _add(p, "--precision", "training precision", choices=PRECISIONS, default="fp32")
    _add(p, "--seed", "training seed: initialisation and minibatch order (the data set has its "
         "own fixed seed)", type=int, default=0)
    _add(p, "--device", "auto: cuda when torch sees a GPU, else cpu",
         choices=("auto", "cpu", "cuda"), default="auto")
    _add(p, "--threads", "torch CPU threads; none leaves torch's choice", type=int_at_least(1),
         default=None)
    add_results_option(p)
    _add(p, "--no-progress", "no live progress bar", action="store_true")
    p.set_defaults(fn=run)


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
    from rich.table import Table

    import sqlite3

    from seqtheory.models.store import ResultsStore
    from seqtheory.models.training import TrainConfig, resolve_device, train
    from seqtheory.theory._io import os_error_line

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
        store = ResultsStore(Path(args.results))
        key = store.key_of(cfg)  # the key the store holds the run under (earlier formats too)
    except (ValueError, TypeError) as exc:
        print(f"seqtheory train: error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"seqtheory train: error: {os_error_line(exc, args.results)}", file=sys.stderr)
        return 1
    console = Console()
    console.print(f"run {key[:12]}  task {cfg.task}  model {cfg.model}  depth {cfg.depth}  "
                  f"store {store.path}", markup=False, highlight=False)  # a path is data
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
        except OSError as exc:  # disk full, read-only file system, no permission
            print(f"seqtheory train: error: run {key[:12]} stopped: cannot write "
                  f"{os_error_line(exc, store.root)}", file=sys.stderr)
            return 1
        except sqlite3.DatabaseError as exc:  # e.g. "database or disk is full"
            print(f"seqtheory train: error: run {key[:12]} stopped: results store "
                  f"{str(store.path)!r}: {exc}", file=sys.stderr)
            return 1
        except (ValueError, RuntimeError) as exc:
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

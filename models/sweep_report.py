"""Tables and figures of ``depth.exp.word_problems`` ([DEPTH], arXiv:2603.05573, Table 1) from a
results store.

The metric is the **sequence accuracy at the test length** (``result["test"]["seq_acc"]``: the
fraction of held-out test words, of length ``test_length`` — ``2 × train_length`` by default —
whose prefix products are all predicted correctly). Runs are word-problem runs of
:class:`~seqtheory.models.training.TrainConfig` (rotation tasks and ``shuffle_labels`` negative
controls are left out and counted).

Aggregation, in three levels, all written:

* **runs** — every run of the store (finished, failed, running or interrupted), one row each;
* **settings** — runs that differ only in ``seed``: mean ± standard error over the finished seeds
  (SE = sample standard deviation / √n; undefined for n = 1, shown as "n=1");
* **cells** — one per (train length, test length, task, model, depth): the setting with the
  highest mean (ties: more seeds, then smaller SE; hyper-parameters are thus selected on the
  test metric, which is optimistic; the settings table lists every alternative), and the mean
  over all finished runs of the cell.

Outputs (every file written atomically with :func:`seqtheory.theory._io.atomic_write_bytes`):
``word_problems.md``, ``word_problems.json``, and per experiment (train/test length pair)
``figures/word_problems_acc_vs_depth_T<T>_<T'>.{png,svg}``: one panel per task group, sequence
accuracy vs depth per model (best setting, mean ± SE as error bars) with every finished run as a
dot. The same store gives byte-identical files.
"""
from __future__ import annotations

import io
import json
import math
import os
import time
from pathlib import Path
from typing import Any, Sequence

from seqtheory.theory._io import atomic_write_bytes, atomic_write_text
from seqtheory.theory._messages import counted

from .store import ResultsStore, canonical_json, config_key, holds_store
from .tasks import TASK_GROUPS, resolved_test_length

__all__ = ["collect_runs", "summarize", "render_markdown", "accuracy_vs_depth_figure",
           "write_word_problem_report", "summary_lines", "REPORT_NAME", "METRIC"]

REPORT_NAME = "word_problems"
METRIC = "sequence accuracy at the test length (all positions of a held-out test word correct)"
_ROTATION_TASKS = ("rotation_a5", "rotation_eps")
_SETTING_COLS = ("width", "lr", "batch_size", "steps")


def _state(rec, now: float) -> str:
    if rec.status == "claimed":
        return "running" if (rec.lease_until or 0) > now else "interrupted"
    return rec.status


def collect_runs(store: ResultsStore,
                 configs: Sequence[Any] | None = None) -> tuple[list[dict], dict]:
    """Rows of every word-problem run in ``store`` (restricted to ``configs`` when given), sorted
    by (train length, task, model, depth, setting, seed); and counts of the runs left out."""
    now = time.time()
    key_of = getattr(store, "key_of", config_key)  # finds runs stored under an earlier key format
    keys = None if configs is None else {key_of(c) for c in configs}
    rows, skipped = [], {"rotation": 0, "shuffled_labels": 0, "not_in_config": 0}
    for rec in store.runs():
        if keys is not None and rec.key not in keys:
            skipped["not_in_config"] += 1
            continue
        c = rec.config
        if c.get("task") in _ROTATION_TASKS:
            skipped["rotation"] += 1
            continue
        if c.get("shuffle_labels"):
            skipped["shuffled_labels"] += 1
            continue
        result = (rec.result or {}) if rec.status == "finished" else {}
        test = result.get("test") or {}
        setting = {k: v for k, v in c.items() if k != "seed"}
        rows.append({
            "key": rec.key, "status": _state(rec, now), "task": c["task"], "model": c["model"],
            "depth": c["depth"], "width": c["width"], "lr": c["lr"],
            "batch_size": c["batch_size"], "steps": c["steps"], "seed": c["seed"],
            "train_length": c["train_length"],
            "test_length": resolved_test_length(c["train_length"], c.get("test_length")),
            "convention": c.get("convention"),
            "seq_acc": test.get("seq_acc"),
            "seq_acc_train_length": test.get("seq_acc_train_length"),
            "max_len_90": test.get("max_len_90"),
            "final_loss": result.get("final_loss"),
            "train_time_s": result.get("train_time_s"),
            "device": result.get("device"),
            "setting": canonical_json(setting),
        })
    rows.sort(key=lambda r: (r["train_length"], r["test_length"], _task_order(r["task"]),
                             _model_order(r["model"]), r["depth"], r["setting"], r["seed"]))
    return rows, skipped


def _task_order(task: str) -> tuple:
    return (TASK_GROUPS.index(task), task) if task in TASK_GROUPS else (len(TASK_GROUPS), task)


def _model_order(model: str) -> tuple:
    from .model import MODEL_NAMES

    return (MODEL_NAMES.index(model), model) if model in MODEL_NAMES else (len(MODEL_NAMES), model)


def mean_se(values: Sequence[float]) -> tuple[float | None, float | None]:
    """Mean and standard error (sample sd / √n) of ``values``; (None, None) when empty, SE None
    when n = 1."""
    n = len(values)
    if n == 0:
        return None, None
    m = math.fsum(values) / n
    if n == 1:
        return m, None
    var = math.fsum((v - m) ** 2 for v in values) / (n - 1)
    return m, math.sqrt(var / n)


def summarize(rows: Sequence[dict]) -> list[dict]:
    """Group ``rows`` into experiments (train length, test length), each with its ``settings``
    (mean ± SE over seeds) and ``cells`` (best setting per task × model × depth); see the module
    docstring."""
    exps: dict[tuple, dict] = {}
    for r in rows:
        e = exps.setdefault((r["train_length"], r["test_length"]), {})
        s = e.setdefault(r["setting"], {"runs": [], "row": r})
        s["runs"].append(r)
    out = []
    for (T, T2), settings in sorted(exps.items()):
        srows = []
        for skey, s in settings.items():
            fin = [x for x in s["runs"] if x["status"] == "finished" and x["seq_acc"] is not None]
            m, se = mean_se([x["seq_acc"] for x in fin])
            r0 = s["row"]
            srows.append({"task": r0["task"], "model": r0["model"], "depth": r0["depth"],
                          **{k: r0[k] for k in _SETTING_COLS},
                          "mean": m, "se": se, "n": len(fin),
                          "seeds": sorted(x["seed"] for x in fin),
                          "not_finished": len(s["runs"]) - len(fin), "setting": skey})
        srows.sort(key=lambda x: (_task_order(x["task"]), _model_order(x["model"]), x["depth"],
                                  x["setting"]))
        cells: dict[tuple, list] = {}
        for sr in srows:
            cells.setdefault((sr["task"], sr["model"], sr["depth"]), []).append(sr)
        finished_acc: dict[tuple, list] = {}
        for x in rows:
            if (x["train_length"], x["test_length"]) == (T, T2) and x["status"] == "finished" \
                    and x["seq_acc"] is not None:
                finished_acc.setdefault((x["task"], x["model"], x["depth"]), []).append(
                    x["seq_acc"])
        crow = []
        for (task, model, depth), group in cells.items():
            done = [g for g in group if g["mean"] is not None]
            best = max(done, key=lambda g: (g["mean"], g["n"], -(g["se"] or 0.0)), default=None)
            all_acc = finished_acc.get((task, model, depth), [])
            am, ase = mean_se(all_acc)
            crow.append({"task": task, "model": model, "depth": depth,
                         "best_mean": best["mean"] if best else None,
                         "best_se": best["se"] if best else None,
                         "best_n": best["n"] if best else 0,
                         "best_setting": {k: best[k] for k in _SETTING_COLS} if best else None,
                         "all_mean": am, "all_se": ase, "all_n": len(all_acc),
                         "n_settings": len(group),
                         "not_finished": sum(g["not_finished"] for g in group)})
        out.append({"train_length": T, "test_length": T2, "settings": srows, "cells": crow})
    return out


def _fmt(m, se, n) -> str:
    if m is None:
        return "–"
    return f"{m:.3f} ± {se:.3f}" if se is not None else f"{m:.3f} (n=1)"


def render_markdown(summary: list[dict], rows: list[dict], skipped: dict, results_dir: str,
                    figures: dict[tuple, list[str]]) -> str:
    """The markdown report (see the module docstring)."""
    L = [f"# depth.exp.word_problems — sequence accuracy vs depth", "",
         f"Source: [DEPTH] arXiv:2603.05573, Table 1. Results store: `{results_dir}`.", "",
         f"Metric: {METRIC}. Mean ± SE over seeds (SE = sd/√n).", ""]
    counts: dict[str, int] = {}
    for r in rows:
        counts[r["status"]] = counts.get(r["status"], 0) + 1
    L.append("Runs: " + (", ".join(f"{v} {k}" for k, v in sorted(counts.items())) or "none")
             + f"; left out: {skipped['rotation']} rotation, {skipped['shuffled_labels']} "
             f"shuffled-label control, {skipped['not_in_config']} outside the sweep file.")
    conv = sorted({str(r["convention"]) for r in rows})
    L += ["", f"Word-problem convention: {', '.join(conv) or '–'} "
              "(left: g_t = x_t · g_(t−1); see seqtheory.models.tasks).", ""]
    for exp in summary:
        T, T2 = exp["train_length"], exp["test_length"]
        L += [f"## Trained on length {T}, tested on length {T2}", ""]
        for p in figures.get((T, T2), []):
            if p.endswith(".png"):
                L += [f"![accuracy vs depth]({p})", ""]
        tasks = sorted({c["task"] for c in exp["cells"]}, key=_task_order)
        L += ["### Best setting per cell (mean ± SE over seeds)", "",
              "Hyper-parameters selected per cell by their mean test accuracy; every setting is "
              "in the next table and every run in the last.", "",
              "| model | depth | " + " | ".join(tasks) + " |",
              "|---|---:|" + "---:|" * len(tasks)]
        by = {(c["task"], c["model"], c["depth"]): c for c in exp["cells"]}
        for model, depth in sorted({(c["model"], c["depth"]) for c in exp["cells"]},
                                   key=lambda md: (_model_order(md[0]), md[1])):
            cells = [by.get((t, model, depth)) for t in tasks]
            L.append(f"| {model} | {depth} | " + " | ".join(
                _fmt(c["best_mean"], c["best_se"], c["best_n"]) if c else "" for c in cells) + " |")
        L += ["", "### Every hyper-parameter setting (mean ± SE over seeds)", "",
              "| task | model | depth | width | lr | batch | steps | mean ± SE | n | seeds | "
              "not finished |", "|---|---|---:|---:|---:|---:|---:|---:|---:|---|---:|"]
        for s in exp["settings"]:
            L.append(f"| {s['task']} | {s['model']} | {s['depth']} | {s['width']} | {s['lr']:g} | "
                     f"{s['batch_size']} | {s['steps']} | {_fmt(s['mean'], s['se'], s['n'])} | "
                     f"{s['n']} | {','.join(map(str, s['seeds']))} | {s['not_finished']} |")
        L.append("")
    L += ["## Every run", "",
          "| key | status | task | model | depth | width | lr | batch | seed | T | T test | "
          "seq acc (T test) | seq acc (T) | max len ≥90% | final loss | time (s) | device |",
          "|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"]

    def f(v, spec=".3f"):
        return "–" if v is None else format(v, spec)

    for r in rows:
        L.append(f"| `{r['key'][:12]}` | {r['status']} | {r['task']} | {r['model']} | "
                 f"{r['depth']} | {r['width']} | {r['lr']:g} | {r['batch_size']} | {r['seed']} | "
                 f"{r['train_length']} | {r['test_length']} | {f(r['seq_acc'])} | "
                 f"{f(r['seq_acc_train_length'])} | {f(r['max_len_90'], 'd')} | "
                 f"{f(r['final_loss'], '.4g')} | {f(r['train_time_s'], '.1f')} | "
                 f"{r['device'] or '–'} |")
    return "\n".join(L) + "\n"


def accuracy_vs_depth_figure(exp: dict, rows: Sequence[dict]):
    """One panel per task: sequence accuracy vs depth per model (best setting, mean ± SE error
    bars; every finished run of the experiment as a dot). Returns the matplotlib figure."""
    import matplotlib

    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt

    T, T2 = exp["train_length"], exp["test_length"]
    tasks = sorted({c["task"] for c in exp["cells"]}, key=_task_order)
    models = sorted({c["model"] for c in exp["cells"]}, key=_model_order)
    ncol = min(4, max(1, len(tasks)))
    nrow = math.ceil(len(tasks) / ncol)
    fig, axes = plt.subplots(nrow, ncol, figsize=(3.2 * ncol, 2.8 * nrow), squeeze=False,
                             sharey=True)
    colours = {m: plt.get_cmap("tab10")(i % 10) for i, m in enumerate(models)}
    width = 0.5 / max(1, len(models))
    for ax, task in zip(axes.flat, tasks):
        for i, model in enumerate(models):
            off = (i - (len(models) - 1) / 2) * width
            cs = sorted((c for c in exp["cells"] if c["task"] == task and c["model"] == model
                         and c["best_mean"] is not None), key=lambda c: c["depth"])
            if cs:
                ax.errorbar([c["depth"] + off for c in cs], [c["best_mean"] for c in cs],
                            yerr=[c["best_se"] or 0.0 for c in cs], color=colours[model],
                            marker="o", ms=3, lw=1, capsize=2, label=model)
            pts = [r for r in rows if r["task"] == task and r["model"] == model
                   and r["train_length"] == T and r["test_length"] == T2
                   and r["seq_acc"] is not None]
            ax.scatter([r["depth"] + off for r in pts], [r["seq_acc"] for r in pts], s=4,
                       alpha=0.3, color=colours[model], linewidths=0)
        ax.set_title(task)
        ax.set_xlabel("depth")
        depths = sorted({c["depth"] for c in exp["cells"] if c["task"] == task})
        ax.set_xticks(depths, [str(d) for d in depths])       # integer depth ticks only
        ax.set_ylim(-0.03, 1.03)
        ax.grid(alpha=0.3)
    for ax in list(axes.flat)[len(tasks):]:
        ax.set_visible(False)
    for ax in axes[:, 0]:
        ax.set_ylabel(f"seq. acc. @ {T2}")
    handles, labels = axes.flat[0].get_legend_handles_labels()
    if handles:
        fig.legend(handles, labels, loc="lower center", ncol=min(6, len(models)),
                   bbox_to_anchor=(0.5, -0.02), frameon=False)
    fig.suptitle(f"Word problems: trained on length {T}, tested on {T2} (best setting, "
                 "mean ± SE; dots = all runs)", fontsize=9)
    fig.tight_layout(rect=(0, 0.05, 1, 1))
    return fig


def _save_figure(fig, out_dir: Path, name: str) -> list[str]:
    import matplotlib.pyplot as plt

    paths = []
    try:
        for ext in ("png", "svg"):
            buf = io.BytesIO()
            fig.savefig(buf, format=ext, dpi=120, bbox_inches="tight",
                        metadata={"Software": None} if ext == "png" else {"Date": None})
            atomic_write_bytes(out_dir / "figures" / f"{name}.{ext}", buf.getvalue())
            paths.append(f"figures/{name}.{ext}")
    finally:
        plt.close(fig)
    return paths


def write_word_problem_report(results_dir: str | os.PathLike, out_dir: str | os.PathLike,
                              configs: Sequence[Any] | None = None) -> list[Path]:
    """Write ``word_problems.md``, ``word_problems.json`` and the figures for the store at
    ``results_dir`` into ``out_dir`` (restricted to ``configs`` when given). Returns the paths
    written. ``ValueError`` when ``results_dir`` holds no results store."""
    import matplotlib

    results_dir, out_dir = Path(results_dir), Path(out_dir)
    if not holds_store(results_dir):
        raise ValueError(f"results_dir {results_dir} holds no results store (results.sqlite)")
    store = ResultsStore(results_dir)
    rows, skipped = collect_runs(store, configs)
    summary = summarize(rows)
    written: list[Path] = []
    figures: dict[tuple, list[str]] = {}
    with matplotlib.rc_context({"svg.hashsalt": "seqtheory"}):
        for exp in summary:
            T, T2 = exp["train_length"], exp["test_length"]
            if not any(c["best_mean"] is not None for c in exp["cells"]):
                continue
            fig = accuracy_vs_depth_figure(exp, rows)
            paths = _save_figure(fig, out_dir, f"{REPORT_NAME}_acc_vs_depth_T{T}_{T2}")
            figures[(T, T2)] = paths
            written += [out_dir / p for p in paths]
    md = render_markdown(summary, rows, skipped, str(results_dir), figures)
    doc = {"claim": "depth.exp.word_problems", "source": "arXiv:2603.05573, Table 1",
           "metric": METRIC, "results_dir": str(results_dir), "skipped": skipped,
           "experiments": [dict(e, figures=figures.get((e["train_length"], e["test_length"]), []))
                           for e in summary],
           "runs": rows}
    written.append(atomic_write_text(out_dir / f"{REPORT_NAME}.json",
                                     json.dumps(doc, indent=1, sort_keys=True, allow_nan=False)))
    written.append(atomic_write_text(out_dir / f"{REPORT_NAME}.md", md))
    return written


def summary_lines(doc: dict) -> list[str]:
    """A few lines saying what a ``word_problems.json`` document found: runs by status, the
    runs left out, and per experiment the cells with a finished run and the best one."""
    runs = doc["runs"]
    by_status: dict[str, int] = {}
    for r in runs:
        by_status[r["status"]] = by_status.get(r["status"], 0) + 1
    status = ", ".join(f"{n} {k}" for k, n in sorted(by_status.items()))
    lines = [counted(len(runs), "word-problem run") + (f" ({status})" if status else "")]
    left = ", ".join(f"{n} {k.replace('_', ' ')}" for k, n in doc["skipped"].items() if n)
    if left:
        lines.append(f"left out: {left}")
    for e in doc["experiments"]:
        cells = [c for c in e["cells"] if c["best_mean"] is not None]
        line = (f"train length {e['train_length']}, test length {e['test_length']}: "
                f"{len(cells)}/{counted(len(e['cells']), 'task x model x depth cell')} with a "
                "finished run")
        if cells:
            b = max(cells, key=lambda c: c["best_mean"])
            line += (f"; best {b['task']} {b['model']} depth {b['depth']}: sequence accuracy "
                     f"{b['best_mean']:.3f}")
        lines.append(line)
    if not runs:
        lines.append("no word-problem run in this store: run `seqtheory sweep` first")
    return lines

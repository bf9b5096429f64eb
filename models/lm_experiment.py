"""The RowNorm-head vs AdamW-head experiment of [HEAD] on the small decoder of
:mod:`seqtheory.models.lm`: head learning rates tuned per optimizer, the reported runs of both
arms trained together (:func:`seqtheory.models.lm_stacked.train_stacked`, each run's result that
of :func:`seqtheory.models.lm.train_run`), and the paper's final-step statistics.

Source: A. Somasundaram et al., *Toward a First-Principles Update Geometry for the Language-Model
Head*, arXiv:2608.22253v2 ([HEAD]), SPEC §3.2 ``head.exp.rownorm_vs_adamw``.

Imports run one way: ``lm`` (model, one run) <- ``lm_stacked`` (runs trained together) <- this
module (the experiment).
"""
from __future__ import annotations

import math
from dataclasses import asdict

import numpy as np

from seqtheory.theory.contract import check_int, check_int_sequence, check_real

from .lm import LMConfig, check_head
from .lm_stacked import train_stacked
from .text import TextData, load_corpus

__all__ = ["select_head_lr", "choose_lr", "head_comparison", "corpus_data", "summarise"]


def select_head_lr(data: TextData, cfg: LMConfig, head: str, seed: int = 0) -> dict:
    """Tune ``head``'s lr on its grid (``cfg.adamw_grid`` / ``cfg.rownorm_grid``) by the validation
    loss of a ``cfg.tune_steps`` run; returns ``{"lr", "grid", "val_losses", "at_edge"}``."""
    return _tune(data, cfg, (head,), check_int("seed", seed, 0))[head]


def _tune(data: TextData, cfg: LMConfig, heads: tuple[str, ...], seed: int) -> dict:
    """:func:`select_head_lr` for each of ``heads``, the runs of every grid trained together
    (:func:`seqtheory.models.lm_stacked.train_stacked`; each run's result is its own)."""
    for head in heads:
        check_head(head)
    grids = {h: cfg.adamw_grid if h == "adamw" else cfg.rownorm_grid for h in heads}
    runs = [(h, lr, seed) for h in heads for lr in grids[h]]
    res = train_stacked(data, cfg, runs, steps=cfg.tune_steps, diagnostics=False)
    out, i = {}, 0
    for h in heads:
        vals = [r["val_loss"] for r in res[i:i + len(grids[h])]]
        i += len(grids[h])
        out[h] = choose_lr(grids[h], vals)
    return out


def choose_lr(grid: tuple[float, ...], val_losses: list[float]) -> dict:
    """The grid's lr of least validation loss (a non-finite loss counts as ``inf``; the first of
    equal ones): ``{"lr", "grid", "val_losses", "at_edge"}``, ``at_edge`` when a grid of several
    lrs is won at either end."""
    clean = [v if math.isfinite(v) else math.inf for v in val_losses]
    k = int(np.argmin(clean))
    return dict(lr=grid[k], grid=list(grid), val_losses=list(val_losses),
                at_edge=len(grid) > 1 and k in (0, len(grid) - 1))


def head_comparison(cfg: LMConfig, seeds: tuple[int, ...] = (0, 1, 2), *,
                    data: TextData | None = None, corpus: str | None = None,
                    lr_adamw: float | None = None, lr_rownorm: float | None = None,
                    tune_seed: int = 1000) -> dict:
    """AdamW-head vs RowNorm-head over ``seeds`` (same init, data order and backbone per seed).

    Head lrs: given explicitly, or tuned by :func:`select_head_lr` (seed ``tune_seed``, distinct
    from the reported seeds). Returns ``{"runs": {"adamw": [...], "rownorm": [...]}, "tuning",
    "summary", "config", "corpus_sha256"}``; ``summary`` is :func:`summarise` (final-step ratios).
    The tuning runs, then the reported runs, are trained together
    (:func:`seqtheory.models.lm_stacked.train_stacked`), each with the result of its own
    :func:`train_run`. ``seeds`` and ``tune_seed``: ints >= 0; ``lr_adamw`` / ``lr_rownorm``:
    positive finite reals or ``None`` (``TypeError`` / ``ValueError`` naming them otherwise).
    """
    seeds = tuple(check_int_sequence("seeds", seeds, 0, min_len=1))
    tune_seed = check_int("tune_seed", tune_seed, 0)
    lr_adamw, lr_rownorm = (None if v is None else check_real(name, v, 0, above=True)
                            for name, v in (("lr_adamw", lr_adamw), ("lr_rownorm", lr_rownorm)))
    if data is None:
        data = corpus_data(cfg, corpus)
    lrs = {"adamw": lr_adamw, "rownorm": lr_rownorm}
    to_tune = tuple(h for h in ("adamw", "rownorm") if lrs[h] is None)
    tuning = _tune(data, cfg, to_tune, tune_seed) if to_tune else {}
    for h in to_tune:
        lrs[h] = tuning[h]["lr"]
    res = train_stacked(data, cfg, [(h, lrs[h], s) for h in ("adamw", "rownorm") for s in seeds])
    runs = {"adamw": res[:len(seeds)], "rownorm": res[len(seeds):]}
    return dict(runs=runs, tuning=tuning, summary=summarise(runs["adamw"], runs["rownorm"]),
                config=asdict(cfg), corpus_sha256=data.sha256, vocab_size=data.vocab_size,
                lr_adamw=lrs["adamw"], lr_rownorm=lrs["rownorm"])


def corpus_data(cfg: LMConfig, corpus: str | None = None) -> TextData:
    """The text of ``cfg`` (``cfg.max_bytes`` of ``corpus``, default the stdlib sources) at
    ``cfg.level`` (word vocabularies of ``cfg.vocab_size`` ids)."""
    return TextData.from_corpus(load_corpus(corpus, cfg.max_bytes), level=cfg.level,
                                vocab_size=cfg.vocab_size)


def summarise(runs_a: list[dict], runs_b: list[dict]) -> dict:
    """The paper's statistics of arm A (AdamW) vs arm B (RowNorm), runs paired by position:

    * ``ratio_diameter`` = mean over seeds of the final-step ``D(S_T)`` of A / the same of B;
      ``ratio_hilbert_rms`` likewise for the final-step Hilbert RMS ([HEAD] reports ratios of
      mean final-step values across seeds); per-seed final-step ratios in ``*_per_seed``;
    * ``frac_steps_b_smaller`` = fraction of recorded (seed, step) measurements at which B's
      ``D(S_t)`` and Hilbert RMS are both below A's;
    * ``val_loss_diff`` = val loss B − A (mean, SE, per seed).

    ``ValueError`` for empty or unequal lists."""
    if len(runs_a) != len(runs_b) or not runs_a:
        raise ValueError("runs_a and runs_b must be non-empty and of equal length")

    def final(runs, key):
        return [float(r[key][-1]) for r in runs]

    smaller = np.concatenate([(np.asarray(b["diameter"]) < np.asarray(a["diameter"]))
                              & (np.asarray(b["hilbert_rms"]) < np.asarray(a["hilbert_rms"]))
                              for a, b in zip(runs_a, runs_b)])
    dv = [b["val_loss"] - a["val_loss"] for a, b in zip(runs_a, runs_b)]
    se = float(np.std(dv, ddof=1) / math.sqrt(len(dv))) if len(dv) > 1 else float("nan")
    out = dict(val_loss_diff=float(np.mean(dv)), val_loss_diff_se=se,
               val_loss_diff_per_seed=[float(x) for x in dv],
               frac_steps_b_smaller=float(smaller.mean()))
    for key, name in (("diameter", "ratio_diameter"), ("hilbert_rms", "ratio_hilbert_rms")):
        fa, fb = final(runs_a, key), final(runs_b, key)
        out[name] = float(np.mean(fa) / np.mean(fb))
        out[name + "_per_seed"] = [x / y for x, y in zip(fa, fb)]
        out["final_" + key] = {"a": fa, "b": fb}
    return out

"""Figures of the trained word-problem claims of [DEPTH] (G. Heo et al., arXiv:2603.05573): training
loss per seed (:func:`loss_curves_figure`), Table 1 as a heatmap of success rates
(:func:`word_problem_heatmap`) and held-out accuracy per position (:func:`extrapolation_figure`).
Each saves through :func:`seqtheory.proofs_checks.figures.save_figure` and returns its paths.
"""
from __future__ import annotations

import numpy as np

from seqtheory.proofs_checks.figures import new_figure, save_figure
from seqtheory.proofs_checks.registry import Context
from seqtheory.proofs_checks.trained_recipe import SUCCESS

__all__ = ["loss_curves_figure", "word_problem_heatmap", "extrapolation_figure"]


def loss_curves_figure(ctx: Context, arms: dict[str, list[dict]], name: str, title: str) -> list[str]:
    """Training loss per seed (one colour per arm, one line per seed); ``arms[label]``: the arm's
    run results (each with its ``curve`` of ``{"step", "loss"}``)."""
    fig, ax = new_figure(figsize=(6, 3.5))
    for i, (label, rs) in enumerate(arms.items()):
        for j, r in enumerate(rs):
            c = r["curve"]
            ax.plot([p["step"] for p in c], [p["loss"] for p in c], color=f"C{i}", lw=0.8,
                    alpha=0.8, label=label if j == 0 else None)
    ax.set_yscale("log")
    ax.set_xlabel("step")
    ax.set_ylabel("training loss (per seed)")
    ax.set_title(title)
    ax.legend(fontsize=7)
    return save_figure(fig, ctx, name)


def word_problem_heatmap(ctx: Context, rows: list[dict]) -> list[str]:
    """Table 1 as a heatmap: (group, T) × depth, success rate over seeds in each cell; ``rows``:
    ``{group, train_length, depth, successes, seeds}``."""
    keys = sorted({(r["group"], r["train_length"]) for r in rows})
    depths = sorted({r["depth"] for r in rows})
    grid = np.full((len(keys), len(depths)), np.nan)
    for r in rows:
        grid[keys.index((r["group"], r["train_length"])), depths.index(r["depth"])] = r["successes"] / r["seeds"]
    fig, ax = new_figure(figsize=(1.2 + 0.9 * len(depths), 0.9 + 0.45 * len(keys)))
    im = ax.imshow(grid, vmin=0, vmax=1, cmap="viridis", aspect="auto")
    for i in range(len(keys)):
        for j in range(len(depths)):
            if not np.isnan(grid[i, j]):
                ax.text(j, i, f"{grid[i, j]:.2f}", ha="center", va="center", fontsize=7,
                        color="w" if grid[i, j] < 0.5 else "k")
    ax.set_xticks(range(len(depths)), [str(d) for d in depths])
    ax.set_yticks(range(len(keys)), [f"{g}, T={T}" for g, T in keys])
    ax.set_xlabel("depth (AUSSM layers)")
    ax.set_title(f"success rate over seeds (seq. acc. at 2T ≥ {SUCCESS})", fontsize=8)
    fig.colorbar(im, ax=ax)
    return save_figure(fig, ctx, "depth_exp_word_problems")


def extrapolation_figure(ctx: Context, rows: list[dict]) -> list[str]:
    """Held-out accuracy per position (position / T on the x axis) for every run: one panel per
    (group, T), one colour per depth, one line per seed (``rows``: ``{group, train_length, depth,
    per_position}``). Shows where a run stops tracking the group: at the training length (the
    dotted line), at 2T (the evaluated length) or beyond."""
    from matplotlib.lines import Line2D

    from seqtheory.theory.groups import FiniteGroup

    keys = sorted({(r["group"], r["train_length"]) for r in rows})
    depths = sorted({r["depth"] for r in rows})
    fig, axes = new_figure(1, len(keys), figsize=(2.6 * len(keys) + 0.6, 2.8), squeeze=False,
                           sharey=True)
    refs = {"train length T": dict(color="grey", ls=":", lw=0.8),
            "evaluated length 2T": dict(color="k", ls="--", lw=0.8),
            "chance 1/|G|": dict(color="grey", lw=0.5)}
    for ax, (g, T) in zip(axes[0], keys):
        for r in (r for r in rows if (r["group"], r["train_length"]) == (g, T)):
            c = f"C{depths.index(r['depth'])}"
            for pp in r["per_position"]:
                ax.plot(np.arange(1, len(pp) + 1) / T, pp, color=c, lw=0.7, alpha=0.7)
        ax.axvline(1, **refs["train length T"])
        ax.axvline(2, **refs["evaluated length 2T"])
        ax.axhline(1 / FiniteGroup.named(g).order, **refs["chance 1/|G|"])
        ax.set_xscale("log", base=2)
        ax.set_title(f"{g}, T = {T}", fontsize=8)
        ax.set_xlabel("position / T")
    axes[0][0].set_ylabel("held-out accuracy at the position")
    fig.legend([Line2D([], [], color=f"C{i}") for i in range(len(depths))]
               + [Line2D([], [], **style) for style in refs.values()],
               [f"depth {d}" for d in depths] + list(refs), loc="lower center", fontsize=7,
               ncol=len(depths) + len(refs), bbox_to_anchor=(0.5, 1.0), frameon=False)
    return save_figure(fig, ctx, "depth_exp_word_problems_extrapolation")

"""Pictures of what a trained diagonal model learned (:mod:`seqtheory.models.inspector`), in the terms
of [DEPTH] (G. Heo et al., arXiv:2603.05573, §3): learned transition eigenvalues on the unit circle
with the roots of unity marked, predicted against measured horizons, and the learned characters
beside the group's abelianisation. Used by ``finding.phase_horizon`` and notebook 07."""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from seqtheory.theory._messages import counted

from .figures import new_figure

__all__ = ["unit_circle_figure", "horizon_figure", "character_rows", "stored_inspection", "show"]


def show(fig) -> None:
    """Display ``fig`` in a notebook as a PNG (the figures here use the non-interactive Agg
    backend) and close it."""
    import io

    import matplotlib.pyplot as plt
    from IPython.display import Image, display

    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, bbox_inches="tight", metadata={"Software": None})
    plt.close(fig)
    display(Image(data=buf.getvalue()))


def stored_inspection(task: str, model: str, depth: int, seed: int = 0, profile: str = "quick",
                      results_dir=None):
    """The :class:`~seqtheory.models.inspector.Inspection` of the first run of the profile's
    word-problem / parity plans (``finding.phase_horizon``'s runs) with this task, model and
    depth, read from ``results_dir`` (default: the notebooks' shared store). ``ValueError`` when
    the plans hold no such run or the store does not hold it finished (nothing is trained)."""
    from seqtheory.models.inspector import inspect
    from seqtheory.models.store import ResultsStore, holds_store

    from .run_inspection import source_configs
    from .notebook import notebook_results_dir
    from .registry import Context

    ctx = Context(seed=seed, profile=profile)
    cfg = next((c for c in source_configs(ctx) if (c.task, c.model, c.depth) == (task, model, depth)),
               None)
    if cfg is None:
        raise ValueError(f"profile {profile!r} trains no run with task {task!r}, model {model!r}, "
                         f"depth {depth}")
    results = results_dir if results_dir is not None else notebook_results_dir()
    if not holds_store(results):
        return inspect(cfg.key, results=results)  # says that the folder holds no store
    store = ResultsStore(results)
    return inspect(store.key_of(cfg), store=store)  # key_of: a run stored under an earlier key


def _coset_index(ins) -> list[int]:
    """For layer-1 tokens: the index of the coset of ``G′`` holding each element."""
    from seqtheory.theory.groups import FiniteGroup

    G = FiniteGroup.named(ins.group)
    out = [0] * G.order
    for i, coset in enumerate(G.cosets(G.commutator_subgroup())):
        for x in coset:
            out[G.index(x)] = i
    return out


def unit_circle_figure(ins):
    """One panel per layer: every channel's per-token transition eigenvalue ``λ`` in the complex
    plane, the unit circle, the ``e``-th roots of unity (``e`` the exponent) marked, tokens coloured
    by their coset of ``G′`` (the abelianisation ``G/G′``). Returns the matplotlib figure."""
    n = len(ins.layers)
    fig, axes = new_figure(1, n, figsize=(3.5 * n, 3.4), squeeze=False)
    coset = _coset_index(ins)
    t = np.linspace(0, 2 * np.pi, 200)
    roots = 2 * np.pi * np.arange(ins.exponent) / ins.exponent
    for ax, L in zip(axes[0], ins.layers):
        ax.plot(np.cos(t), np.sin(t), color="grey", lw=0.6)
        ax.scatter(np.cos(roots), np.sin(roots), marker="x", color="k", s=30, zorder=3,
                   label=f"{ins.exponent}-th roots of unity")
        for c in L.channels:
            lam = np.array(c.modulus) * np.exp(1j * np.array(c.phase))
            ax.scatter(lam.real, lam.imag, c=[f"C{coset[g]}" for g in c.tokens], s=14, alpha=0.8)
        ax.set_aspect("equal")
        ax.set_xlabel("Re λ")
        if L.index == 1:
            ax.set_ylabel("Im λ")
        ax.set_title(f"layer {L.index}: tokens of G^({L.index - 1}), colour = coset of G′", fontsize=7)
    axes[0][0].legend(fontsize=6, loc="lower left")
    fig.suptitle(f"{ins.group}, {ins.family}: learned λ per token and channel", fontsize=8)
    return fig


def horizon_figure(rows: list[dict[str, Any]]):
    """Predicted horizon (layer-1 phases) against the measured longest length with ≥ 90% held-out
    sequence accuracy, one point per run with a finite prediction; censored measurements (equal to
    the test length) as open markers. ``rows``: ``predicted``, ``measured``, ``test_length``,
    ``task``. Returns the figure."""
    fig, ax = new_figure(figsize=(4.2, 3.6))
    pts = [r for r in rows if r["predicted"] is not None]
    tasks = sorted({r["task"] for r in pts})
    for i, task in enumerate(tasks):
        for censored in (False, True):
            sel = [r for r in pts if r["task"] == task and (r["measured"] >= r["test_length"]) == censored]
            if sel:
                ax.scatter([r["predicted"] + 1 for r in sel], [r["measured"] + 1 for r in sel],
                           facecolors="none" if censored else f"C{i}", edgecolors=f"C{i}", s=22,
                           label=f"{task}" + (" (censored)" if censored else ""))
    top = max([r["predicted"] + 1 for r in pts] + [r["measured"] + 1 for r in pts] + [2])
    ax.plot([1, top], [1, top], color="grey", lw=0.6, ls="--", label="measured = predicted")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("predicted horizon + 1 (phase drift n·δ vs margin π/m, modulus decay)")
    ax.set_ylabel("measured 90% length + 1 (held out)")
    ax.set_title(f"{counted(len(pts), 'run')} with a layer-1 character prediction", fontsize=8)
    if pts:
        ax.legend(fontsize=6)
    return fig


def character_rows(ins) -> list[dict[str, Any]]:
    """The learned layer-1 characters beside the group's: one row per channel (root index ``k``
    per token, whether it is a homomorphism, its image order), a first row with each token's
    coset of ``G′`` (the abelianisation every character of G factors through), and one row per
    character the inspector read up to a common offset or in a pair of channels."""
    L = ins.layers[0]
    labels = [f"{i}" for i in L.channels[0].tokens]
    rows = [{"map": "coset of G′ (G/G′)", **dict(zip(labels, _coset_index(ins))), "homomorphism": "–",
             "image order": len(set(_coset_index(ins)))}]
    for c in L.channels:
        rows.append({"map": f"channel {c.channel}: k", **dict(zip(labels, c.root_index)),
                     "homomorphism": "yes" if c.is_homomorphism else
                     f"{c.hom_fraction.numerator}/{c.hom_fraction.denominator} of products",
                     "image order": c.image_order,
                     "max |δ|/π": round(max(map(abs, c.phase_error)) / math.pi, 4)})
    for c in L.characters:
        if c.kind != "channel":
            rows.append({"map": f"{c.kind}: {c.describe()}: k", **dict(zip(labels, c.root_index)),
                         "homomorphism": "yes", "image order": c.image_order,
                         "max |δ|/π": round(max(map(abs, c.phase_error)) / math.pi, 4)})
    return rows

"""Figures as the report and the notebooks show them: integer axes get integer ticks, log-axis
tick labels never overlap, the word-problem extrapolation figure's legend names its reference
lines, and notebook images carry alt text."""
from __future__ import annotations

import numpy as np
import pytest

from seqtheory.proofs_checks import figures
from seqtheory.proofs_checks.figures import new_figure, tidy_axes


def _short_log_axis():
    """A log x axis spanning 1.3 decades in a 5-inch figure: matplotlib labels its minor ticks
    (3×10⁻⁴, 4×10⁻⁴, …) and they overlap."""
    fig, ax = new_figure(figsize=(5, 3.5))
    eps = np.geomspace(2.7e-4, 6e-3, 8)
    ax.loglog(eps, eps ** 2, "o-")
    return fig, ax


def test_overlapping_log_labels_are_thinned_to_labels_that_fit():
    fig, ax = _short_log_axis()
    assert figures._labels_overlap(fig, ax.xaxis)                    # the defect, before
    tidy_axes(fig)
    assert not figures._labels_overlap(fig, ax.xaxis)
    labels = [t.get_text() for t in ax.xaxis.get_ticklabels(which="both")
              if t.get_visible() and t.get_text()]
    assert len(labels) >= 3, labels                                  # 5e-4, 1e-3, 2e-3, 5e-3
    fig.clf()


def _drawn_boxes(fig, axis) -> list:
    """The tick-label boxes of ``axis`` after a full draw of ``fig`` (the slow, obvious way)."""
    fig.canvas.draw()
    r = fig.canvas.get_renderer()
    return sorted(tuple(np.round(t.get_window_extent(r).bounds, 9))
                  for t in axis.get_ticklabels(which="both") if t.get_visible() and t.get_text())


@pytest.mark.parametrize("layout", [None, "constrained"])
def test_label_boxes_are_those_of_a_full_draw(layout):
    """``_label_boxes`` lays out one axis only; its boxes are those a full draw gives, after a
    locator change too, on shared log axes with titles and legends (and with a layout engine,
    which it then draws whole)."""
    from matplotlib.ticker import LogLocator

    fig, axs = new_figure(1, 3, figsize=(10, 3.5), sharey=True, layout=layout)
    for j, ax in enumerate(axs):
        for k in range(4):
            eps = np.geomspace(3e-4, 10 ** (-1 - j), 12)
            ax.loglog(eps, eps ** (k + 1), "o-", label=f"c = {k}")
        ax.set_title(f"panel {j}")
        ax.legend()
    fig.draw_without_rendering()
    for ax in axs:
        for axis in (ax.xaxis, ax.yaxis):
            for locator in (None, LogLocator(subs=(1.0, 2.0, 5.0)), LogLocator(numticks=3)):
                if locator is not None:
                    axis.set_major_locator(locator)
                fast = sorted(tuple(np.round(b.bounds, 9)) for b in figures._label_boxes(fig, axis))
                if layout is None:
                    assert fast == _drawn_boxes(fig, axis)
                else:   # constrained layout moves the axes a little at each draw (< 0.001 px)
                    assert np.allclose(fast, _drawn_boxes(fig, axis), rtol=0, atol=1e-2)
    fig.clf()


@pytest.mark.parametrize("layout", ["constrained", "compressed", "tight"])
def test_a_layout_engine_runs_once_per_label_measurement(layout, monkeypatch):
    """A layout engine moves the axes a little at every pass (it is not idempotent), so the saved
    bytes depend on the number of passes: ``tidy_axes`` makes one per tick-label measurement (as
    the full draw per measurement it replaced did) and no other."""
    fig, axs = new_figure(1, 2, figsize=(6, 2.5), layout=layout)
    for ax in axs.flat:                                 # labelled minor ticks overlap
        ax.loglog(np.geomspace(2.7e-4, 6e-3, 8), np.geomspace(2.7e-4, 6e-3, 8))
    engine, passes, measurements = fig.get_layout_engine(), [], []
    monkeypatch.setattr(engine, "execute", lambda f, run=engine.execute: passes.append(1) or run(f))
    monkeypatch.setattr(figures, "_label_boxes",
                        lambda f, axis, boxes=figures._label_boxes: measurements.append(1) or boxes(f, axis))
    tidy_axes(fig)
    assert len(measurements) > 4                            # 4 axes, some of them thinned
    assert len(passes) == len(measurements)
    fig.clf()


def test_a_log_axis_without_overlap_is_left_alone():
    fig, ax = new_figure(figsize=(5, 3.5))
    ax.loglog([1e-6, 1e-2], [1, 2])
    before = type(ax.xaxis.get_major_locator()), type(ax.xaxis.get_minor_formatter())
    tidy_axes(fig)
    assert (type(ax.xaxis.get_major_locator()), type(ax.xaxis.get_minor_formatter())) == before
    fig.clf()


def test_integer_data_get_integer_ticks_and_float_data_keep_theirs():
    fig, (a, b) = new_figure(1, 2, figsize=(8, 3))
    a.plot([1, 2, 3, 4], [1, 2, 3, 3], "o-")                         # layers k vs derived length
    a.axhline(2.5, color="k")             # a reference line: its x are axes fractions, y = 2.5
    b.plot([0.1, 0.25, 0.4], [1.5, 2.5, 3.5])
    tidy_axes(fig)
    fig.canvas.draw()
    locs = [t for t in a.xaxis.get_majorticklocs() if 1 <= t <= 4]
    assert locs == [1, 2, 3, 4]                                       # not 1.5, 2.5, 3.5
    assert 2.5 in a.yaxis.get_majorticklocs()                         # y holds 2.5: left alone
    assert any(not float(t).is_integer() for t in b.xaxis.get_majorticklocs())
    fig.clf()


def test_heatmap_and_colour_bar_ticks_are_left_alone():
    fig, ax = new_figure()
    im = ax.imshow(np.eye(3), vmin=0, vmax=1)
    ax.set_xticks(range(3), ["1", "2", "3"])
    bar = fig.colorbar(im, ax=ax)
    locators = [a.get_major_locator() for a in (ax.xaxis, bar.ax.yaxis)]
    tidy_axes(fig)
    assert [a.get_major_locator() for a in (ax.xaxis, bar.ax.yaxis)] == locators
    fig.clf()


def test_scatter_points_count_as_data():
    fig, ax = new_figure()
    ax.scatter([1, 2, 3], [0.5, 0.7, 0.9])
    tidy_axes(fig)
    fig.canvas.draw()
    assert all(float(t).is_integer() for t in ax.xaxis.get_majorticklocs())
    assert not all(float(t).is_integer() for t in ax.yaxis.get_majorticklocs())
    fig.clf()


def test_word_problem_extrapolation_legend_names_its_reference_lines(monkeypatch, tmp_path):
    from seqtheory.proofs_checks import training_figures
    from seqtheory.proofs_checks.registry import Context

    kept = {}
    monkeypatch.setattr(training_figures, "save_figure",
                        lambda fig, ctx, name: kept.setdefault(name, fig) and [name])
    pp = [np.linspace(1, 0.5, 32).tolist()]
    rows = [{"group": g, "train_length": 16, "depth": d, "per_position": pp}
            for g in ("D8", "S3") for d in (1, 2)]
    training_figures.extrapolation_figure(Context(out_dir=tmp_path), rows)
    fig = kept["depth_exp_word_problems_extrapolation"]
    texts = [t.get_text() for leg in fig.legends for t in leg.get_texts()]
    assert texts == ["depth 1", "depth 2", "train length T", "evaluated length 2T", "chance 1/|G|"]
    fig.clf()


def test_show_claim_gives_each_image_alt_text_and_passes_the_store(monkeypatch, tmp_path):
    pytest.importorskip("IPython")
    import IPython.display

    from seqtheory.proofs_checks import notebook
    from seqtheory.proofs_checks.registry import Outcome, Verdict, get_claim
    from seqtheory.proofs_checks.runner import ClaimResult

    seen = {}

    def fake_check(claim_id, seed, profile, out_dir, results_dir):
        seen["results_dir"] = results_dir
        fig, ax = new_figure()
        ax.plot([1, 2])
        fig.savefig(f"{out_dir}/f.png")
        return ClaimResult(get_claim(claim_id), Outcome(Verdict.SUPPORTED, "slope 3.01",
                                                        figures=["f.png"]), None, 0.0)

    shown = []
    monkeypatch.setattr(notebook, "check_claim", fake_check)
    monkeypatch.setattr(IPython.display, "display", lambda *objs: shown.extend(objs))
    notebook.show_claim("depth.cor3.6", results_dir=tmp_path)
    assert seen["results_dir"] == tmp_path
    images = [o for o in shown if isinstance(o, IPython.display.Image)]
    assert len(images) == 1
    alt = images[0]._repr_png_()[1]["alt"]
    assert alt.startswith("Figure f of claim depth.cor3.6 (") and alt.endswith("Key figure: slope 3.01")

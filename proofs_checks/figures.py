"""Saving check figures: matplotlib (Agg backend), PNG and SVG, paths relative to the report.

Every figure is tidied before it is written (:func:`tidy_axes`), so that a claim's plotting code
need not repeat the same fixes: an axis whose plotted data are all integers (layers, depths,
lengths) gets integer ticks only, and the tick labels of a logarithmic axis never overlap (its
minor labels are dropped and its labelled ticks thinned until they fit).
"""
from __future__ import annotations

from typing import Any

from seqtheory.theory._io import atomic_write_bytes

from .registry import Context

__all__ = ["new_figure", "save_figure", "tidy_axes"]


def new_figure(*args: Any, **kwargs: Any):
    """``matplotlib.pyplot.subplots`` on the non-interactive Agg backend."""
    import matplotlib

    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt

    return plt.subplots(*args, **kwargs)


def save_figure(fig, ctx: Context, name: str) -> list[str]:
    """Tidy ``fig`` (:func:`tidy_axes`), save it as ``figures/NAME.png`` and ``figures/NAME.svg``
    under the report folder (atomically, byte-identical for the same figure) and close it.
    Returns the paths relative to the report folder ([] when the run writes no figures, i.e.
    ``ctx.out_dir`` is None)."""
    import io

    import matplotlib
    import matplotlib.pyplot as plt

    paths: list[str] = []
    try:
        if ctx.out_dir is None:
            return paths
        tidy_axes(fig)
        for ext in ("png", "svg"):
            target = ctx.figure_path(f"{name}.{ext}")
            buf = io.BytesIO()
            # a fixed salt makes the SVG element ids (random by default) a function of the
            # figure: the same command writes byte-identical files
            with matplotlib.rc_context({"svg.hashsalt": f"seqtheory:{name}"}):
                fig.savefig(buf, format=ext, dpi=120, bbox_inches="tight",
                            metadata={"Software": None} if ext == "png" else {"Date": None})
            atomic_write_bytes(target, buf.getvalue())
            paths.append(ctx.relative(target))
        return paths
    finally:
        plt.close(fig)


def tidy_axes(fig) -> None:
    """Integer ticks on every linear axis whose plotted data are all integers (and whose ticks
    the plotting code left automatic); non-overlapping tick labels on every log axis."""
    for ax in fig.axes:
        for axis, which in ((ax.xaxis, 0), (ax.yaxis, 1)):
            if axis.get_scale() == "linear" and _automatic(axis) and _integer_data(ax, which):
                from matplotlib.ticker import MaxNLocator

                axis.set_major_locator(MaxNLocator(integer=True))
    log_axes = [axis for ax in fig.axes for axis in (ax.xaxis, ax.yaxis)
                if axis.get_scale() == "log"]
    if log_axes and fig.get_layout_engine() is None:
        # one layout pass (aspect, titles, label positions); with a layout engine
        # _label_boxes draws the figure itself, and every layout pass moves the axes a little
        # (the layout engines are not idempotent), so no extra pass is made
        fig.draw_without_rendering()
    for axis in log_axes:
        _declutter_log(fig, axis)


def _automatic(axis) -> bool:
    from matplotlib.ticker import AutoLocator

    return type(axis.get_major_locator()) is AutoLocator


def _integer_data(ax, which: int) -> bool:
    """True when the axes plot data (lines and scatter points; not images, meshes or colour
    bars) and every value along dimension ``which`` (0: x, 1: y) is an integer."""
    import numpy as np
    from matplotlib.collections import PathCollection

    if ax.images:
        return False
    values = [np.asarray(line.get_xydata())[:, which] for line in ax.lines
              if not _spans_axes(line, which)]
    values += [np.asarray(c.get_offsets())[:, which] for c in ax.collections
               if isinstance(c, PathCollection) and len(c.get_offsets())]
    values = [v for v in values if v.size]
    if not values:
        return False
    v = np.concatenate(values).astype(float)
    v = v[np.isfinite(v)]
    return v.size > 0 and bool(np.all(v == np.round(v)))


def _spans_axes(line, which: int) -> bool:
    """True for a reference line drawn across the axes (``axhline`` spans x, ``axvline`` y):
    its coordinates along ``which`` are axes fractions, not data."""
    return not line.get_transform().contains_branch_seperately(line.axes.transData)[which]


def _declutter_log(fig, axis) -> None:
    """When tick labels of a log ``axis`` overlap: drop its minor tick labels and label the
    first of these tick sets whose labels fit (at least two, none overlapping): 1, 2 and 5 times
    each power of ten, each power, then fewer and fewer powers."""
    from matplotlib.ticker import LogFormatterSciNotation, LogLocator, NullFormatter

    if not _overlap(_label_boxes(fig, axis)):
        return
    axis.set_minor_formatter(NullFormatter())
    inf = float("inf")                        # label every major tick, whatever the span
    axis.set_major_formatter(LogFormatterSciNotation(labelOnlyBase=False,
                                                     minor_thresholds=(inf, inf)))
    base = axis.get_transform().base
    choices = [dict(subs=(1.0, 2.0, 5.0))] if base == 10 else []
    choices += [dict(subs=(1.0,), numticks=n) for n in (12, 8, 6, 4, 3, 2)]
    for kw in choices:
        axis.set_major_locator(LogLocator(base=base, **kw))
        boxes = _label_boxes(fig, axis)                  # one axis layout per choice
        if not _overlap(boxes) and len(boxes) >= 2:
            return


def _label_boxes(fig, axis) -> list:
    """The boxes of the visible, non-empty tick labels of ``axis`` as drawn, in axis order.

    Only ``axis`` is laid out again (its ticks and labels, for its current locator and
    formatter); the axes' place in the figure is the one of the last draw. A figure with a layout
    engine (which moves the axes when tick labels change) is drawn whole each time instead."""
    if fig.get_layout_engine() is not None:
        fig.draw_without_rendering()
    renderer = fig.canvas.get_renderer()
    axis.get_tightbbox(renderer)              # updates the tick labels' texts and positions
    return sorted((t.get_window_extent(renderer) for t in axis.get_ticklabels(which="both")
                   if t.get_visible() and t.get_text()),
                  key=lambda b: b.x0 if axis.axis_name == "x" else b.y0)


def _overlap(boxes: list) -> bool:
    """True when two neighbouring boxes of ``boxes`` (:func:`_label_boxes`) overlap."""
    return any(a.overlaps(b) for a, b in zip(boxes, boxes[1:]))


def _labels_overlap(fig, axis) -> bool:
    """True when two tick labels of ``axis`` overlap once drawn."""
    return _overlap(_label_boxes(fig, axis))

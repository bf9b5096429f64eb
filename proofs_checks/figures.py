"""Saving check figures: matplotlib (Agg backend), PNG and SVG, paths relative to the report."""
from __future__ import annotations

from typing import Any

from seqtheory.theory._io import atomic_write_bytes

from .registry import Context

__all__ = ["new_figure", "save_figure"]


def new_figure(*args: Any, **kwargs: Any):
    """``matplotlib.pyplot.subplots`` on the non-interactive Agg backend."""
    import matplotlib

    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt

    return plt.subplots(*args, **kwargs)


def save_figure(fig, ctx: Context, name: str) -> list[str]:
    """Save ``fig`` as ``figures/NAME.png`` and ``figures/NAME.svg`` under the report folder
    (atomically, byte-identical for the same figure) and close it. Returns the paths relative to the report folder ([] when the run
    writes no figures, i.e. ``ctx.out_dir`` is None)."""
    import io

    import matplotlib
    import matplotlib.pyplot as plt

    paths: list[str] = []
    try:
        if ctx.out_dir is None:
            return paths
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

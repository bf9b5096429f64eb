"""Pieces the background (textbook) claims share (SPEC §3.3: the free-Lie / BCH / Magnus
machinery): their references, the working precision and tolerance of the numerical guards, and
the decision rule and figure of the two truncation-order claims (``bch.truncation_order``,
``magnus.truncation_order``), whose evidence is :func:`seqtheory.numerics.series_truncation.truncation_slopes`.
"""
from __future__ import annotations

import mpmath

from .figures import new_figure, save_figure
from .registry import Context, Verdict

__all__ = ["DPS", "TOL_HIGH", "REF_BCH", "REF_MAGNUS", "REF_FREE", "SLOPE_RESOLUTION",
           "slope_contains", "slopes_decide", "truncation_figure"]

#: digits of every mpmath computation of the background claims
DPS = 50
#: a residual below this counts as zero at :data:`DPS` digits
TOL_HIGH = mpmath.mpf("1e-25")
REF_BCH = ("C. Reutenauer, Free Lie Algebras (Oxford 1993); K. Goldberg, Duke Math. J. 23 "
           "(1956); F. Casas, A. Murua, J. Math. Phys. 50, 033513 (2009), arXiv:0810.2656")
REF_MAGNUS = ("S. Blanes, F. Casas, J. A. Oteo, J. Ros, The Magnus expansion and some of its "
              "applications, Phys. Rep. 470 (2009), arXiv:0810.5488")
REF_FREE = "C. Reutenauer, Free Lie Algebras (Oxford 1993)"


#: a slope's CI is widened to at least ± this before it is asked to contain the expected exponent
SLOPE_RESOLUTION = 0.05


def slope_contains(row: dict) -> bool:
    """Whether ``row``'s 95% CI ``[ci_low, ci_high]``, widened to at least ``slope ±``
    :data:`SLOPE_RESOLUTION`, contains ``expected``."""
    lo = min(row["ci_low"], row["slope"] - SLOPE_RESOLUTION)
    hi = max(row["ci_high"], row["slope"] + SLOPE_RESOLUTION)
    return lo <= row["expected"] <= hi


def slopes_decide(rows: list[dict]) -> tuple[Verdict, str]:
    """Supported iff every fitted slope's CI (widened to ±:data:`SLOPE_RESOLUTION`) contains its
    expected exponent (rows ``{"c", "slope", "ci_low", "ci_high", "expected"}``, optionally
    ``"convention"``; :func:`slope_contains`, computed here from the fit, not read from a
    ``"pass"`` flag); refuted if one does not; inconclusive without rows."""
    bad = [(r.get("convention", ""), r["c"], r["slope"], r["expected"]) for r in rows
           if not slope_contains(r)]
    if not rows:
        return Verdict.INCONCLUSIVE, "no slopes measured"
    if bad:
        return Verdict.REFUTED, f"slope outside its CI for (convention, c, slope, expected) {bad[:4]}"
    return Verdict.SUPPORTED, (f"all {len(rows)} slopes contain c + 1 (CI ± {SLOPE_RESOLUTION:g} "
                               "resolution)")


def truncation_figure(ctx: Context, curves: dict, title: str, name: str) -> list[str]:
    """Log-log truncation error against ε, one curve per truncation degree c; saved as ``name``."""
    fig, ax = new_figure(figsize=(5, 4))
    for c, (e, r) in curves.items():
        ax.loglog(e, r, "o-", ms=3, label=f"c={c}")
    ax.set_xlabel("ε")
    ax.set_ylabel("truncation error (Frobenius)")
    ax.set_title(title)
    ax.legend(fontsize=7)
    return save_figure(fig, ctx, name)

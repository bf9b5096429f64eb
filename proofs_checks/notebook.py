"""Showing claims inside a notebook: run a check and render its statement, verdict, evidence
tables and figures (the notebooks in ``notebooks/`` call only this and library code)."""
from __future__ import annotations

import tempfile
from pathlib import Path

from seqtheory.theory._messages import counted

from .registry import Context, get_claim
from .report import claim_record, control_outcome, md_table, readings_markdown, rule_line
from .runner import ClaimResult, run_claim

__all__ = ["check_claim", "claim_markdown", "show_claim", "train_claims", "notebook_results_dir",
           "figure_alt_text"]


def notebook_results_dir() -> Path:
    """The results store the notebooks share: ``results/`` in the seqtheory cache folder
    (``$SEQTHEORY_CACHE_DIR``, else ``~/.cache/seqtheory``), so a run trained by one notebook
    (or one claim) is read back by the others and by a later session, never retrained."""
    from seqtheory.theory._io import cache_dir

    return cache_dir("results")


def _context(seed: int, profile: str, out_dir: Path | None, results_dir: str | Path | None) -> Context:
    res = Path(results_dir) if results_dir is not None else notebook_results_dir()
    return Context(seed=seed, profile=profile, out_dir=out_dir, results_dir=res)


def check_claim(claim_id: str, seed: int = 0, profile: str = "quick", controls: bool = True,
                out_dir: str | Path | None = None,
                results_dir: str | Path | None = None) -> ClaimResult:
    """Run one claim (and its negative control) with figures written under ``out_dir``
    (a temporary folder when None) and trained runs in ``results_dir`` (default
    :func:`notebook_results_dir`)."""
    out = Path(out_dir) if out_dir is not None else Path(tempfile.mkdtemp(prefix="seqtheory-nb-"))
    return run_claim(get_claim(claim_id), _context(seed, profile, out, results_dir),
                     controls=controls)


def train_claims(claim_ids: list[str], seed: int = 0, profile: str = "quick", controls: bool = True,
                 results_dir: str | Path | None = None) -> str:
    """Train the runs of the trained claims ``claim_ids`` (and of their controls) together, as
    ``seqtheory verify`` does before its checks (:func:`seqtheory.proofs_checks.training_runs.prefetch`),
    into ``results_dir`` (default :func:`notebook_results_dir`); runs already there are read,
    not retrained. Returns a one-line summary. ``KeyError`` for an unknown id; ``RuntimeError``
    when a training worker failed."""
    from .training_runs import prefetch

    claims = [get_claim(c) for c in claim_ids]
    info = prefetch(claims, _context(seed, profile, None, results_dir), controls)
    return (f"trained {counted(info['runs'], 'run')} ({counted(info['jobs'], 'job')}, "
            f"{counted(info['workers'], 'worker process', 'worker processes')}) "
            f"in {info['seconds']:.1f} s; runs already in the store were read")


def claim_markdown(result: ClaimResult, seed: int = 0, profile: str = "quick") -> str:
    """Markdown for one result: statement, source, verdict, key figure, notes, tables, control."""
    rec = claim_record(result, seed, profile)
    s = rec["source"]
    lines = [f"### `{rec['id']}` — {rec['title']}",
             f"*{s['reference'] or s['paper']}*" + (f", arXiv:{s['arxiv']} {s['version']}" if s["arxiv"] else "")
             + (f", {s['location']}" if s["location"] else ""), "", f"> {rec['statement']}", "",
             f"**Verdict: {rec['verdict'] or 'CRASHED'}** — {rec['key_figure']}", ""]
    if rec["notes"]:
        lines += [rec["notes"], ""]
    lines += readings_markdown(rec) + [rule_line(rec), ""]
    if rec["error"]:
        lines += ["```", rec["error"], "```"]
    for name, rows in rec["tables"].items():
        lines += [f"**{name}**", "", md_table(rows)]
    if rec["control"] is not None:
        c = rec["control"]
        lines += [f"Negative control ({c['variant']}): **{control_outcome(rec)}** — "
                  f"{c['reason']}"]
    elif rec["control_error"]:
        lines += [f"Negative control **{control_outcome(rec)}**"]
    return "\n".join(lines)


def show_claim(claim_id: str, seed: int = 0, profile: str = "quick",
               results_dir: str | Path | None = None) -> ClaimResult:
    """Run a claim and display its markdown and PNG figures in the notebook (each image with
    alt text, :func:`figure_alt_text`); a trained claim reads its runs from ``results_dir``
    (default :func:`notebook_results_dir`; ``"../results"`` from ``notebooks/`` is the store
    ``seqtheory verify`` uses when run from the repository root). Returns the result."""
    from IPython.display import Image, Markdown, display

    with tempfile.TemporaryDirectory(prefix="seqtheory-nb-") as tmp:
        res = check_claim(claim_id, seed=seed, profile=profile, out_dir=tmp,
                          results_dir=results_dir)
        display(Markdown(claim_markdown(res, seed, profile)))
        if res.outcome is not None:
            for fig in res.outcome.figures:
                if fig.endswith(".png"):  # Image reads (embeds) the file now, before tmp goes
                    display(Image(filename=str(Path(tmp) / fig),
                                  alt=figure_alt_text(res, fig)))
    return res


def figure_alt_text(result: ClaimResult, figure: str) -> str:
    """Alt text of a claim's figure in a notebook: the claim, the figure's name and the claim's
    key figure (``"Figure cor36_built_cascades of claim depth.cor3.6 (Local error of ...).
    Key figure: ..."``)."""
    c, o = result.claim, result.outcome
    key = f" Key figure: {o.key_figure}" if o is not None and o.key_figure else ""
    return f"Figure {Path(figure).stem} of claim {c.id} ({c.title}).{key}"

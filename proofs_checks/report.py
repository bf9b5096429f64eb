"""``report.json`` and ``report.md``: the written record of a verification run.

report.json schema (``schema_version`` 1)::

    {
      "schema_version": 1,
      "seqtheory_version": str, "git_commit": str, "created_utc": str (ISO 8601),
      "seed": int, "profile": "quick" | "full", "device": "cpu" | "cuda", "controls": bool,
      "environment": {"versions": {package: version}, "platform": str, "machine": str, ...},
      "claims": [
        {
          "id": str, "aliases": [str], "claim_version": int, "title": str,
          "source": {"paper": str, "arxiv": str, "version": str, "location": str, "reference": str},
          "statement": str,
          "status": "ok" | "crashed",
          "verdict": "confirmed" | "supported" | "refuted" | "refined" | "inconclusive" | null,
          "key_figure": str, "notes": str,
          "evidence": {...}, "tables": {name: [row, ...]}, "figures": [relative path],
          "error": str | null,                     # traceback when crashed
          "control": {"variant", "rejected", "reason", "evidence"} | null,
          "control_error": str | null,
          "seconds": float, "control_seconds": float | null,
          "reproduce": str                         # the command that re-runs this claim
        }
      ]
    }

Exact rationals are written as strings ``"p/q"``; NaN and infinities as the strings ``"nan"``,
``"inf"``, ``"-inf"``. Everything except ``created_utc``, ``seconds`` and ``control_seconds`` is a
deterministic function of the command line and the source tree.
"""
from __future__ import annotations

import datetime as _dt
import enum
import json
import math
from dataclasses import asdict
from fractions import Fraction
from pathlib import Path
from typing import Any

from seqtheory.theory._io import atomic_write_text

from .environment import environment_info, package_version
from .runner import ClaimResult

__all__ = ["SCHEMA_VERSION", "to_jsonable", "build_report", "write_report", "render_markdown",
           "reproduce_command"]

SCHEMA_VERSION = 1


def to_jsonable(x: Any) -> Any:
    """Convert evidence to JSON-safe values (Fractions → "p/q", numpy → Python, NaN → "nan")."""
    if isinstance(x, bool) or x is None or isinstance(x, str):
        return x
    if isinstance(x, enum.Enum):
        return to_jsonable(x.value)
    if isinstance(x, int):
        return x
    if isinstance(x, float):
        return x if math.isfinite(x) else ("nan" if math.isnan(x) else ("inf" if x > 0 else "-inf"))
    if isinstance(x, Fraction):
        return str(x)
    if isinstance(x, Path):
        return str(x)
    if isinstance(x, dict):
        return {str(k): to_jsonable(v) for k, v in x.items()}
    if isinstance(x, (list, tuple, set, frozenset)):
        seq = sorted(x, key=repr) if isinstance(x, (set, frozenset)) else x
        return [to_jsonable(v) for v in seq]
    tolist = getattr(x, "tolist", None)
    if callable(tolist):  # numpy arrays and scalars, torch tensors
        return to_jsonable(tolist())
    if hasattr(x, "__float__") and not hasattr(x, "free_symbols"):
        try:
            return to_jsonable(float(x))
        except (TypeError, ValueError):
            pass
    return str(x)


def reproduce_command(claim_id: str, seed: int, profile: str) -> str:
    cmd = f"seqtheory verify --only {claim_id} --seed {seed}"
    return cmd + (" --profile full" if profile == "full" else "")


def _claim_record(r: ClaimResult, seed: int, profile: str) -> dict:
    c, o = r.claim, r.outcome
    rec = {
        "id": c.id, "aliases": list(c.aliases), "claim_version": c.claim_version, "title": c.title,
        "source": asdict(c.source), "statement": c.statement,
        "status": "crashed" if r.error else "ok",
        "verdict": o.verdict.value if o else None,
        "key_figure": o.key_figure if o else "", "notes": o.notes if o else "",
        "evidence": o.evidence if o else {}, "tables": o.tables if o else {},
        "figures": o.figures if o else [], "error": r.error,
        "control": None if r.control is None else {
            "variant": r.control.variant, "rejected": r.control.rejected,
            "reason": r.control.reason, "evidence": r.control.evidence},
        "control_error": r.control_error,
        "seconds": round(r.seconds, 3),
        "control_seconds": None if r.control_seconds is None else round(r.control_seconds, 3),
        "reproduce": reproduce_command(c.id, seed, profile),
    }
    return to_jsonable(rec)


def build_report(results: list[ClaimResult], *, seed: int, profile: str, device: str,
                 controls: bool) -> dict:
    """The report.json document for a list of results (see the module docstring for the schema)."""
    env = environment_info(device)
    return {
        "schema_version": SCHEMA_VERSION,
        "seqtheory_version": package_version(),
        "git_commit": env["git_commit"],
        "created_utc": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
        "seed": seed, "profile": profile, "device": device, "controls": controls,
        "environment": to_jsonable(env),
        "claims": [_claim_record(r, seed, profile) for r in results],
    }


def _md_escape(s: Any) -> str:
    return str(s).replace("|", "\\|").replace("\n", " ")


def _md_table(rows: list[dict]) -> str:
    if not rows:
        return "_(empty)_\n"
    cols: list[str] = []
    for row in rows:
        cols += [k for k in row if k not in cols]
    out = ["| " + " | ".join(_md_escape(c) for c in cols) + " |",
           "|" + "---|" * len(cols)]
    for row in rows:
        out.append("| " + " | ".join(_md_escape(row.get(c, "")) for c in cols) + " |")
    return "\n".join(out) + "\n"


_PAPER_TITLES = {"DEPTH": "[DEPTH] Why Depth Matters in Parallelizable Sequence Models (arXiv:2603.05573)",
                 "HEAD": "[HEAD] Update Geometry for the Language-Model Head (arXiv:2608.22253)",
                 "textbook": "Background (textbook facts guarding the machinery)",
                 "audit": "Dataset and task audits"}


def _group_by_paper(claims: list[dict]) -> dict[str, list[dict]]:
    groups: dict[str, list[dict]] = {}
    for c in claims:
        groups.setdefault(c["source"]["paper"], []).append(c)
    order = [p for p in _PAPER_TITLES if p in groups] + [p for p in groups if p not in _PAPER_TITLES]
    return {p: groups[p] for p in order}


def _evidence_lines(ev: dict) -> list[str]:
    lines = []
    for k, v in ev.items():
        text = json.dumps(v, sort_keys=False) if isinstance(v, (dict, list)) else str(v)
        if len(text) > 400:
            text = text[:400] + " … (full value in report.json)"
        lines.append(f"- `{k}`: {text}")
    return lines


def render_markdown(report: dict) -> str:
    """report.md: readable on its own (statement, source, verdict, evidence, figures, reproduce)."""
    L = ["# seqtheory verification report", "",
         f"seqtheory {report['seqtheory_version']}, commit `{report['git_commit']}`, "
         f"profile `{report['profile']}`, seed {report['seed']}, device `{report['device']}`, "
         f"created {report['created_utc']} (UTC).", "",
         "Verdicts: **confirmed** (exact computation / exhaustive enumeration), **supported** "
         "(numerical evidence within stated tolerances), **refuted** (a counterexample), "
         "**refined** (holds but not tight, or needs a named hypothesis; the tight value is given), "
         "**inconclusive** (the evidence cannot decide; the reason is given).", "",
         "## Summary", ""]
    groups = _group_by_paper(report["claims"])
    for paper, cl in groups.items():
        L += [f"### {_PAPER_TITLES.get(paper, paper)}", ""]
        L.append(_md_table([{"claim": f"[`{c['id']}`](#{c['id'].replace('.', '')})",
                             "verdict": c["verdict"] or "CRASHED", "key figure": c["key_figure"]}
                            for c in cl]))
    for paper, cl in groups.items():
        for c in cl:
            s = c["source"]
            L += ["", f"## {c['id']}", "",
                  f"**{c['title']}** — {s['reference'] or s['paper']}"
                  + (f", arXiv:{s['arxiv']} {s['version']}" if s["arxiv"] else "")
                  + (f", {s['location']}" if s["location"] else ""), "",
                  f"> {c['statement']}", "",
                  f"**Verdict: {c['verdict'] or 'CRASHED'}** — {c['key_figure']}", ""]
            if c["notes"]:
                L += [c["notes"], ""]
            if c["error"]:
                L += ["```", c["error"].rstrip(), "```", ""]
            for name, rows in c["tables"].items():
                L += [f"**{name}**", "", _md_table(rows)]
            if c["evidence"]:
                L += ["Evidence:", ""] + _evidence_lines(c["evidence"]) + [""]
            for fig in c["figures"]:
                if fig.endswith(".png"):
                    L += [f"![{c['id']}]({fig})", ""]
            if c["control"] is not None:
                ctl = c["control"]
                L += [f"Negative control ({ctl['variant']}): "
                      f"{'rejected' if ctl['rejected'] else 'NOT REJECTED — the check is broken'}"
                      f" — {ctl['reason']}", ""]
            elif c["control_error"]:
                L += [f"Negative control crashed: `{c['control_error'].strip().splitlines()[-1]}`", ""]
            L += [f"Reproduce: `{c['reproduce']}` ({c['seconds']} s)", ""]
    env = report["environment"]
    L += ["## Environment", "", _md_table([{"package": k, "version": v}
                                            for k, v in env["versions"].items()]),
          f"Platform: {env['platform']}", ""]
    return "\n".join(L)


def write_report(report: dict, out_dir: str | Path) -> tuple[Path, Path]:
    """Write report.json and report.md into ``out_dir`` atomically; returns both paths."""
    out = Path(out_dir)
    j = atomic_write_text(out / "report.json", json.dumps(report, indent=2) + "\n")
    m = atomic_write_text(out / "report.md", render_markdown(report))
    return j, m

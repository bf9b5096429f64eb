"""The README's generated parts: what command 1 prints when it worked (the closing tallies), the
findings per paper (which claims are refuted, refined or inconclusive, and why), and the tables
of the verdict and control words. Generated from a report, so they cannot go stale:

    python -m seqtheory.proofs_checks.readme_table seqtheory-report/report.json --write

rewrites the blocks between ``<!-- generated: NAME -->`` and ``<!-- end: NAME -->`` in README.md
and the slim snapshot of the report they come from (``docs/readme_report.json``: per claim its
id, title, source, verdict, key figure, control outcome, and the column names of the report's
tables, whose glossary entries tests/test_front_door.py checks); tests/test_readme_table.py checks that
README.md's blocks are this module's output for that snapshot. Without ``--write`` the blocks are
printed. The report should be the quick profile's (command 1's); with ``--controls`` the
unseparated controls are marked too.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

from .glossary import control_table, verdict_table
from .registry import PAPER_TITLE, PAPER_VERSIONS
from .tally import group_by_paper, mark_legend, marked_verdict, tally_line, tally_lines
from .terminal import clip_words

__all__ = ["snapshot", "findings_block", "expected_block", "verdicts_block", "blocks",
           "replace_blocks", "main", "SNAPSHOT_PATH", "README_PATH"]

#: where the README and the snapshot are, relative to the repository root (the working folder of
#: the command)
README_PATH = Path("README.md")
SNAPSHOT_PATH = Path("docs") / "readme_report.json"
#: the longest "why" shown in a findings row (the rest is in report.md)
WHY_CHARS = 260
_AUTHORS = {"DEPTH": "Heo, Ngotiaoco, Irie, Gershman, Sabatini", "HEAD": "Somasundaram et al."}


def snapshot(report: dict) -> dict:
    """The parts of a report.json document the README's blocks read (small enough to commit)."""
    keep = ("seqtheory_version", "git_commit", "created_utc", "seed", "profile", "controls")

    def record(c: dict) -> dict:
        ctl = c["control"]
        return {"id": c["id"], "title": c["title"],
                "source": {k: c["source"][k] for k in ("paper", "arxiv", "version", "location")},
                "verdict": c["verdict"], "key_figure": c["key_figure"],
                "decided_by": c.get("decided_by", ""),
                "control": None if ctl is None else {"rejected": ctl["rejected"],
                                                     "rule_verdicts": ctl.get("rule_verdicts")},
                "control_error": (c["control_error"] or "").strip().splitlines()[-1:] or None}
    columns = sorted({k for c in report["claims"] for rows in c["tables"].values()
                      for row in rows for k in row})
    return {**{k: report[k] for k in keep}, "claims": [record(c) for c in report["claims"]],
            "table_columns": columns}


def expected_block(snap: dict) -> str:
    """What ``seqtheory verify`` (command 1: no ``--controls``) prints last when it worked."""
    claims = [dict(c, control=None, control_error=None) for c in snap["claims"]]
    lines = [f"this run: {tally_line(claims)}", *(f"  {line}" for line in tally_lines(claims)),
             "report: .../seqtheory-report/report.md", "        .../seqtheory-report/report.json"]
    return "```\n" + "\n".join(lines) + "\n```\n"


def _why(c: dict) -> str:
    text = c["key_figure"]
    if c["verdict"] == "inconclusive" and c.get("decided_by"):
        text += f". Would decide it: {c['decided_by']}"
    return clip_words(text, WHY_CHARS).replace("|", "\\|")


def findings_block(snap: dict) -> str:
    """Per paper: its tally, a table of the claims that are refuted, refined or inconclusive and
    why (the key figure), and the ids of the confirmed and supported ones; then one line on the
    package's findings, the background facts and the audits."""
    order = {"refuted": 0, "refined": 1, "inconclusive": 2}
    controls = (" with `--controls` (command 1 runs no controls, so its report has no `*` "
                "marks)") if snap["controls"] else ""
    L = [f"From a `{snap['profile']}` report{controls} (seqtheory {snap['seqtheory_version']}, "
         f"commit `{snap['git_commit'][:12]}`, seed {snap['seed']}); report.md has every claim's "
         f"evidence.", ""]
    groups = group_by_paper(snap["claims"])
    for paper in ("DEPTH", "HEAD"):
        cl = groups.get(paper, [])
        if not cl:
            continue
        src = cl[0]["source"]
        L += [f"**[{paper}]** {_AUTHORS[paper]}, *{PAPER_TITLE[paper]}*, arXiv:{src['arxiv']}: "
              f"{tally_line(cl)}. Versions: {PAPER_VERSIONS[paper]}.", ""]
        flagged = sorted((c for c in cl if c["verdict"] in order or c["verdict"] is None),
                         key=lambda c: order.get(c["verdict"], -1))
        if flagged:
            L += ["| claim | statement | verdict | why |", "|---|---|---|---|"]
            L += [f"| `{c['id']}` | {c['title']} | {marked_verdict(c)} | {_why(c)} |"
                  for c in flagged]
            L.append("")
        rest = [c for c in cl if c not in flagged]
        for verdict in ("confirmed", "supported"):
            ids = [f"`{c['id']}`" for c in rest if c["verdict"] == verdict]
            if ids:
                L.append(f"{verdict.capitalize()}: {', '.join(ids)}.  ")
        L.append("")
    others = [f"{name}: {tally_line(groups[g])}" for g, name in
              (("finding", "Findings of the package (not the papers' claims)"),
               ("textbook", "Background facts"), ("audit", "Dataset audits")) if g in groups]
    L += [f"{line}.  " for line in others]
    legend = mark_legend(snap["claims"])
    if legend:
        L += [""] + [f"{line}.  " for line in legend]
    return "\n".join(L).rstrip() + "\n"


def verdicts_block() -> str:
    """The verdict and control-outcome tables (:mod:`seqtheory.proofs_checks.glossary`)."""
    return verdict_table() + "\n" + control_table()


def blocks(snap: dict) -> dict[str, str]:
    """Every generated block of the README, by name."""
    return {"expected": expected_block(snap), "findings": findings_block(snap),
            "verdicts": verdicts_block()}


_BLOCK = re.compile(r"(<!-- generated: (\w+) [^>]*-->\n)(.*?)(<!-- end: \2 -->)", re.S)


def replace_blocks(text: str, new: dict[str, str]) -> str:
    """``text`` (README.md) with each generated block replaced by ``new[name]``. ``ValueError``
    naming a block of ``new`` the text lacks."""
    found = {m.group(2) for m in _BLOCK.finditer(text)}
    missing = sorted(set(new) - found)
    if missing:
        raise ValueError(f"README has no generated block {missing} (<!-- generated: NAME ... --> "
                         f"... <!-- end: NAME -->)")
    return _BLOCK.sub(lambda m: m.group(1) + new[m.group(2)] + m.group(4), text)


def current_blocks(text: str) -> dict[str, str]:
    """The generated blocks of ``text`` as they are, by name."""
    return {m.group(2): m.group(3) for m in _BLOCK.finditer(text)}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m seqtheory.proofs_checks.readme_table",
                                description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("report", help="report.json (or its folder), e.g. seqtheory-report/report.json")
    p.add_argument("--write", action="store_true",
                   help="rewrite the blocks of --readme and the snapshot --snapshot")
    p.add_argument("--readme", default=str(README_PATH), help=f"default {README_PATH}")
    p.add_argument("--snapshot", default=str(SNAPSHOT_PATH), help=f"default {SNAPSHOT_PATH}")
    args = p.parse_args(argv)
    from .report import load_report

    try:
        snap = snapshot(load_report(args.report, "report"))
    except ValueError as exc:
        print(f"readme_table: error: {exc}", file=sys.stderr)
        return 2
    new = blocks(snap)
    if not args.write:
        print("\n".join(f"<!-- {name} -->\n{text}" for name, text in new.items()))
        return 0
    readme, snap_path = Path(args.readme), Path(args.snapshot)
    try:
        text = replace_blocks(readme.read_text(encoding="utf-8"), new)
    except (OSError, ValueError) as exc:
        print(f"readme_table: error: {args.readme}: {exc}", file=sys.stderr)
        return 2
    readme.write_text(text, encoding="utf-8")
    snap_path.write_text(json.dumps(snap, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {readme} and {snap_path}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

"""report.md: a verification report as a reader sees it (the header, a summary table per paper,
one section per claim, the inconclusive claims with what would decide them, the glossary of the
terms the tables use, the environment). Rendered from the report.json document alone
(:func:`render_markdown`); values go through :func:`~seqtheory.proofs_checks.plain_text.plain`
(numbers to four significant digits, containers in words)."""
from __future__ import annotations

from typing import Any

from seqtheory.theory._messages import counted

from .glossary import EXIT_STATUS, control_table, glossary_rows, verdict_table
from .evidence import report_evidence
from .plain_text import format_number, last_line, plain
from .tally import (PAPER_TITLES, control_outcome, group_by_paper, mark_legend, marked_verdict,
                    tally_line, tally_lines)

__all__ = ["render_markdown", "md_table", "anchor", "version_line", "reproduce_line",
           "readings_markdown"]


def _md_escape(s: Any) -> str:
    return plain(s).replace("|", "\\|").replace("\n", " ")


def md_table(rows: list[dict]) -> str:
    """A markdown table of row dicts (columns in first-seen order; cells via
    :func:`~seqtheory.proofs_checks.plain_text.plain`: numbers to four significant digits,
    containers in words)."""
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


def anchor(claim_id: str) -> str:
    """The link target of a claim's section in report.md: the slug GitHub and most renderers
    give its heading, which is the claim id alone (``depth.cor3.6`` -> ``depthcor36``), so that
    links never change when a claim is re-run."""
    return "".join(ch for ch in claim_id.lower() if ch.isalnum() or ch in "-_")


def _evidence_lines(ev: dict) -> list[str]:
    lines = []
    for k, v in ev.items():
        text = plain(v)
        if len(text) > 400:
            text = text[:400] + " … (full value in report.json)"
        lines.append(f"- `{k}`: {text}")
    return lines


def _paper_citation(cl: list[dict]) -> list[str]:
    """The paper's reference and its versions, once per paper (the first record's; the claims
    share it)."""
    from .registry import PAPER_VERSIONS

    s = cl[0]["source"]
    ref = (s["reference"] or s["paper"]) + (f", arXiv:{s['arxiv']}" if s["arxiv"] else "")
    versions = PAPER_VERSIONS.get(s["paper"])
    return [ref + ".", ""] + ([f"Versions: {versions}.", ""] if versions else [])


def version_line(c: dict) -> str:
    """Which "v" is which, for one claim record: the claim's version (``claim_version``), the
    paper version its statement follows, the decision rule's version (:mod:`.rule_versions`)
    and whether this seed was seen before the rule took it."""
    s, r = c["source"], c["rule"]
    parts = [f"claim version {c['claim_version']}"]
    where = f", {s['location']}" if s["location"] else ""
    if s["arxiv"] and s["version"]:
        parts.append(f"statement from arXiv:{s['arxiv']}{s['version']} (paper version "
                     f"{s['version']}){where}")
    elif s["arxiv"]:
        parts.append(f"statement from arXiv:{s['arxiv']} (no paper version stated){where}")
    elif s["location"]:
        parts.append(f"source: {s['location']}")
    rule = f"decision rule version `{r['version'] or 'none'}`"
    if r["recorded"]:
        rule += f" (recorded {r['recorded']}: {r['change']})"
    extra = _SEED_STATUS[r["seed_status"]]
    return "Versions: " + "; ".join(parts + [rule]) + (f"; {extra}." if extra else ".")


def readings_markdown(c: dict) -> list[str]:
    """The "Other readings" table of a claim record (no lines when it has none): the readings
    of the statement other than the paper's, each with its own outcome, never in the verdict."""
    if not c["readings"]:
        return []
    return ["**Other readings** (reported beside the verdict, never part of it: the paper's own "
            "reading decides, SPEC §3)", "",
            md_table([{"reading": r["reading"], "outcome under that reading": r["outcome"],
                       "why": r["why"], "finding": f"`{r['finding']}`" if r["finding"] else ""}
                      for r in c["readings"]])]


def reproduce_line(c: dict) -> str:
    """``Reproduce: `cmd` — the check 1.4 s; from a fresh results store it first trains its 10
    runs (22.4 s of training when they were trained)``: the check's time and, for a trained
    claim, what a fresh results store costs first (record key ``training``)."""
    text = f"Reproduce: `{c['reproduce']}` — the check took {format_number(float(c['seconds']), 3)} s"
    tr = c.get("training")
    if tr:
        took = (f"{format_number(float(tr['seconds']), 3)} s of training wall time when they were "
                f"trained" if tr.get("seconds") is not None else "their training time is not "
                                                                   "recorded")
        text += (f"; from a fresh results store it first trains its "
                 f"{counted(tr['runs'], 'run')} ({took}); a store that holds them is read back")
    return text + "."


def _claim_markdown(c: dict) -> list[str]:
    L = ["", f"### {c['id']}", ""]
    if c["rerun"]:
        L += ["*Re-run: this record comes from the last run that wrote the report.*", ""]
    L += [f"**{c['title']}**", "", f"> {c['statement']}", ""]
    if c.get("premise"):
        L += [f"Premise (sourced, not checked; the verdict does not cover it): "
              f"{c['premise']['text']} — source: {c['premise']['source']}", ""]
    L += [f"**Verdict: {c['verdict'] or 'CRASHED'}** — {c['key_figure']}", ""]
    if c["notes"]:
        L += [c["notes"], ""]
    if c["verdict"] == "inconclusive" and c.get("decided_by"):
        L += [f"What would decide it: {c['decided_by']}", ""]
    L += readings_markdown(c) + [version_line(c), ""]
    if c["error"]:
        L += ["```", c["error"].rstrip(), "```", ""]
    for name, rows in c["tables"].items():
        L += [f"**{name}**", "", md_table(rows)]
    if c["evidence"]:
        L += ["Evidence:", ""] + _evidence_lines(c["evidence"]) + [""]
    for fig in c["figures"]:
        if fig.endswith(".png"):
            L += [f"![{c['id']}]({fig})", ""]
    if c["control"] is not None:
        ctl = c["control"]
        L += [f"Negative control ({ctl['variant']}): {control_outcome(c)} — {ctl['reason']}",
              ""]
    elif c["control_error"]:
        L += [f"Negative control crashed: `{last_line(c['control_error'])}`", ""]
    L += [reproduce_line(c), ""]
    return L


_SEED_STATUS = {
    "seen": "this seed's results were looked at before the rule took this version, so it is "
            "not out-of-sample evidence for it",
    "out-of-sample": "this seed was not looked at before the rule took this version "
                     "(out-of-sample)",
    "not applicable": "",
    "unrecorded": "this version is not in the rule ledger: the rule changed without a recorded "
                  "change",
}


def _inconclusive_section(claims: list[dict]) -> list[str]:
    """The claims that came out inconclusive: what each lacks (its key figure) and what would
    decide it (the claim's ``decided_by``)."""
    rows = [{"claim": f"[`{c['id']}`](#{anchor(c['id'])})", "what it lacks": c["key_figure"],
             "what would decide it": c.get("decided_by")
             or "not stated by the claim (see its notes)"}
            for c in claims if c["verdict"] == "inconclusive"]
    if not rows:
        return []
    return ["## Inconclusive claims: what each lacks, and what would decide it", "",
            "An inconclusive claim is neither evidence for nor against its statement. A model "
            "that fails to learn, or an inspector that does not find a mechanism, never refutes "
            "a statement that something is possible (SPEC §3, absence is not evidence).", "",
            md_table(rows)]


def _glossary_section(claims: list[dict]) -> list[str]:
    """The glossary of every column name the report's tables use."""
    cols = {k for c in claims for rows in c["tables"].values() for row in rows for k in row}
    if not cols:
        return []
    return ["## Glossary of the table columns", "", md_table(glossary_rows(cols))]


def render_markdown(report: dict) -> str:
    """report.md: readable on its own (how to read it, the tally, a summary per paper, the
    inconclusive claims, one section per claim with statement, versions, verdict, evidence,
    figures, control and reproduce line, a glossary, the environment).

    Each paper's reference is given once, in its section header; numbers are shown to four
    significant digits (report.json holds them in full); an undefined value (NaN) reads ``n/a``.
    A claim's section heading is its id alone, in every report (:func:`anchor`)."""
    L = ["# seqtheory verification report", "",
         f"seqtheory {report['seqtheory_version']}, commit `{report['git_commit']}`, "
         f"profile `{report['profile']}`, seed {report['seed']}, device `{report['device']}`, "
         f"created {report['created_utc']} (UTC).", ""]
    if report_evidence(report):
        ev = report['environment']['evidence']
        L += [f"**Trained claims read an {report_evidence(report)}**, folder "
              f"`{ev.get('path', '?')}`; nothing was trained for this report.", ""]
        bad = ev.get("unverified_runs") or {}
        if bad:
            L += [f"**{counted(len(bad), 'run')} of the bundle whose provenance does not check** "
                  "(its key does not follow from its recorded configuration, or its result "
                  "disagrees): " + "; ".join(f"`{k[:12]}` {why}" for k, why in sorted(bad.items()))
                  + ".", ""]
    if report["interrupted"]:
        L += ["**Interrupted**: the last run was stopped before every claim it selected had run; "
              "this report holds the claims that finished.", ""]
    if len(report["runs"]) > 1:
        L += [f"Merged from {counted(len(report['runs']), 'run')}; the claims marked *re-run* come "
              f"from the last one ({report['runs'][-1]['created_utc']}).", ""]
    L += [f"Tally: {tally_line(report['claims'])}.", ""]
    L += [f"- {line}" for line in tally_lines(report["claims"])] + [""]
    L += ["## How to read this report", "", verdict_table(), control_table(),
          f"Exit status of `seqtheory verify`: {EXIT_STATUS}.", "",
          "Each claim's section names three versions: the claim's (raised when what its check "
          "tests changes), the paper version its statement follows, and its decision rule's "
          "(a hash of the rule's source and thresholds); `seqtheory changelog` lists every "
          "version and what changed. The table columns are defined in the glossary at the end.",
          "", "## Summary", ""]
    groups = group_by_paper(report["claims"])
    for paper, cl in groups.items():
        L += [f"**{PAPER_TITLES.get(paper, paper)}**", ""]
        L.append(md_table([{"claim": f"[`{c['id']}`](#{anchor(c['id'])})",
                            "verdict": marked_verdict(c), "key figure": c["key_figure"]}
                           for c in cl]))
    legend = mark_legend(report["claims"])
    if legend:
        L += ["\n".join(f"{line}  " for line in legend), ""]
    L += _inconclusive_section(report["claims"])
    for paper, cl in groups.items():
        L += ["", f"## {PAPER_TITLES.get(paper, paper)}", "", *_paper_citation(cl)]
        for c in cl:
            L += _claim_markdown(c)
    L += _glossary_section(report["claims"])
    env = report["environment"]
    L += ["## Environment", "",
          md_table([{"package": k, "version": "not installed" if v is None else v}
                    for k, v in env["versions"].items()]),
          f"Platform: {env['platform']}", ""]
    return "\n".join(L)

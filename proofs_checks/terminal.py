"""What ``seqtheory verify`` prints when it has run: a table of the run's claims that reads at any
terminal width (80 columns in a log included: two lines per claim, the id and the verdict, then
the key figure wrapped at word boundaries on at most two more, never cut inside a word), the tally of the run and of the
report, and where the report is. ``--summary`` leaves the per-claim lines out."""
from __future__ import annotations

import textwrap

from .tally import GROUP_NAMES, group_by_paper, mark_legend, marked_verdict

__all__ = ["claim_lines", "clip_words", "key_figure_lines", "MIN_WIDTH", "KEY_FIGURE_LINES"]

#: the narrowest width the lines are laid out for (a narrower terminal wraps them)
MIN_WIDTH = 60
_INDENT = "    "


def clip_words(text: str, width: int) -> str:
    """``text`` on one line of at most ``width`` characters, cut at a word boundary with ``…``
    when it is longer (a single word longer than the line is cut, as nothing else fits)."""
    text = " ".join(text.split())
    if len(text) <= width:
        return text
    cut = textwrap.shorten(text, width=width, placeholder=" …", break_long_words=False)
    return cut if cut != "…" and len(cut) <= width else text[:width - 1] + "…"


#: the group headings of the terminal table (short: a log line is 80 columns)
_HEADINGS = {"DEPTH": "[DEPTH] claims (arXiv:2603.05573)", "HEAD": "[HEAD] claims (arXiv:2608.22253)",
             "textbook": "Background (textbook facts)", "audit": "Dataset and task audits",
             "finding": "Findings of the package (not the papers' claims)"}
#: key-figure lines per claim at most (the rest is in report.md)
KEY_FIGURE_LINES = 2


def key_figure_lines(text: str, width: int) -> list[str]:
    """A key figure wrapped at word boundaries into at most :data:`KEY_FIGURE_LINES` indented
    lines of ``width`` columns, the last one ending in ``…`` when the text goes on."""
    room = width - len(_INDENT)
    lines = textwrap.wrap(" ".join(text.split()), room, break_long_words=False,
                          break_on_hyphens=False)
    if len(lines) > KEY_FIGURE_LINES:
        rest = " ".join(lines[KEY_FIGURE_LINES - 1:])
        lines = lines[:KEY_FIGURE_LINES - 1] + [clip_words(rest, room)]
    return [_INDENT + (ln if len(ln) <= room else clip_words(ln, room)) for ln in lines]


def claim_lines(records: list[dict], width: int) -> list[str]:
    """The per-claim table of ``records`` (claim records of report.json) at ``width`` columns:
    per group (paper, background, audits, findings) a heading, then per claim its id and marked
    verdict on one line and its key figure, wrapped at word boundaries, on at most
    :data:`KEY_FIGURE_LINES` more (the rest cut with ``…``; report.md holds it); the legend
    of the verdict marks last (wrapped). No line is longer than ``max(width, MIN_WIDTH)`` but for an id
    and verdict that cannot fit together."""
    width = max(width, MIN_WIDTH)
    lines: list[str] = []
    for group, cl in group_by_paper(records).items():
        lines += ["", clip_words(_HEADINGS.get(group, GROUP_NAMES.get(group, group)), width)]
        idw = max(len(c["id"]) for c in cl)
        for c in cl:
            verdict = marked_verdict(c)
            pad = max(1, min(idw, width - len(verdict) - 4) - len(c["id"]) + 2)
            lines.append(f"  {c['id']}{' ' * pad}{verdict}")
            lines += key_figure_lines(c["key_figure"], width)
    legend = mark_legend(records)
    if legend:
        lines.append("")
        for line in legend:
            lines += textwrap.wrap(line, width, subsequent_indent="  ", break_long_words=False,
                                   break_on_hyphens=False)
    return lines

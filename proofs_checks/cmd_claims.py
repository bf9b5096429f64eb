"""seqtheory claims: list the registered claims.

By default one block per claim: its id on a line of its own (never wrapped, whatever the
terminal width), then its source and statement, wrapped to the terminal width (COLUMNS).
--ids prints the ids only, one a line, for scripts:
  seqtheory verify --only $(seqtheory claims --ids | grep '^depth')
--json prints a JSON list with one object per claim, with the keys id, aliases, claim_version,
title, source (paper, arxiv, version, location, reference), statement and uses_training.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import textwrap
from dataclasses import asdict

from seqtheory.theory._messages import counted

from .registry import Claim, Source, all_claims

__all__ = ["register", "claim_listing", "claims_json", "short_source"]

_INDENT = "    "


def register(subparsers) -> None:
    """Add the ``claims`` subcommand to the CLI's subparsers."""
    p = subparsers.add_parser("claims", help="list the registered claims (--ids, --json)",
                              description=__doc__,
                              formatter_class=argparse.RawDescriptionHelpFormatter)
    form = p.add_mutually_exclusive_group()
    form.add_argument("--ids", action="store_true", help="print the claim ids only, one a line")
    form.add_argument("--json", action="store_true", help="print the claims as a JSON list")
    p.set_defaults(fn=run)


def run(args: argparse.Namespace) -> int:
    claims = all_claims()
    if args.ids:
        text = "\n".join(c.id for c in claims)
    elif args.json:
        text = claims_json(claims)
    else:
        text = claim_listing(claims, shutil.get_terminal_size((80, 24)).columns)
    try:
        print(text, flush=True)
    except BrokenPipeError:    # the reader stopped early (| head): not an error of the listing
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # as the Python docs advise
    return 0


def short_source(src: Source) -> str:
    """``[DEPTH] arXiv:2603.05573v1, Theorem 3.2`` for a paper's claim (the full reference is in
    the report); the reference and location for a textbook fact or a dataset audit."""
    if src.paper in ("DEPTH", "HEAD"):
        return f"[{src.paper}] arXiv:{src.arxiv}{src.version}, {src.location}"
    return src.cite()


def claim_listing(claims: list[Claim], width: int) -> str:
    """The text of ``seqtheory claims`` at a terminal ``width`` columns wide: per claim, its id
    alone on the first line (never broken: a line may exceed ``width`` rather than split an id),
    then aliases, source and statement wrapped at ``width`` without breaking a word."""
    width = max(width, 40)

    def wrap(text: str) -> list[str]:
        return textwrap.wrap(text, width, initial_indent=_INDENT, subsequent_indent=_INDENT * 2,
                             break_long_words=False, break_on_hyphens=False)

    lines = textwrap.wrap(f"{counted(len(claims), 'registered claim')} (seqtheory verify --only ID checks "
                          "one; seqtheory cite ID cites one)", width, break_long_words=False,
                          break_on_hyphens=False)
    for c in claims:
        lines += ["", c.id]
        if c.aliases:
            lines += wrap(f"alias: {', '.join(c.aliases)}")
        lines += wrap(f"source: {short_source(c.source)}")
        lines += textwrap.wrap(c.statement, width, initial_indent=_INDENT,
                               subsequent_indent=_INDENT, break_long_words=False,
                               break_on_hyphens=False)
    return "\n".join(lines)


def claims_json(claims: list[Claim]) -> str:
    """The claims as a JSON list (the keys of the module docstring), indented."""
    return json.dumps([{"id": c.id, "aliases": list(c.aliases), "claim_version": c.claim_version,
                        "title": c.title, "source": asdict(c.source), "statement": c.statement,
                        "uses_training": c.uses_training} for c in claims],
                      indent=2, ensure_ascii=False)

"""A count and its noun agree in every terminal, report and error line ("1 run", "2 runs"; never
"1 runs" or "run(s)"): they go through :func:`seqtheory.theory._messages.counted` (issue 19)."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from seqtheory.theory._messages import counted, plural_of

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("theory", "numerics", "models", "proofs_checks")
#: files not scanned (none: every package file is)
NOT_SCANNED: set[str] = set()
#: an expression before a plural noun that is no count (a list of names)
NOT_COUNTS = {"', '.join(missing)", "name", "FAMILY_NAMES[f]"}   # model names, not counts
NOUNS = ("runs claims figures checks files controls bundles entries seeds workers failures words "
         "instances cases groups models programs points cells processes channels characters keys "
         "rows jobs attempts layers elements letters generators matrices errors tests settings "
         "experiments records verdicts samples trials retries nodes sequences items columns "
         "arguments dimensions").split()
ADJECTIVES = ("distinct held-out training registered random exact certified fitted earlier stale "
              "other word-problem").split()
COUNT_NOUN = re.compile(r"^ (?:(?:%s) )?(%s)\b" % ("|".join(ADJECTIVES), "|".join(NOUNS)))
OPTIONAL_PLURAL = re.compile(r"\w\((?:s|es)\)")


def _f_strings():
    for pkg in PACKAGES:
        for path in sorted((ROOT / pkg).rglob("*.py")):
            rel = str(path.relative_to(ROOT))
            if rel in NOT_SCANNED:
                continue
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.JoinedStr):
                    yield rel, node


def _disagreements() -> list[str]:
    bad = []
    for rel, node in _f_strings():
        vals = node.values
        for i, v in enumerate(vals):
            if isinstance(v, ast.Constant) and OPTIONAL_PLURAL.search(v.value):
                bad.append(f"{rel}:{v.lineno}: {v.value.strip()!r}")
            if not (isinstance(v, ast.FormattedValue) and i + 1 < len(vals)
                    and isinstance(vals[i + 1], ast.Constant)):
                continue
            before = vals[i - 1].value if i and isinstance(vals[i - 1], ast.Constant) else ""
            spec = ast.unparse(v.format_spec) if v.format_spec else ""
            if before.endswith(("^", "**", "/")) or "%" in spec or \
                    ast.unparse(v.value) in NOT_COUNTS:
                continue               # an exponent, "k/n" (the noun follows n), a percentage
            m = COUNT_NOUN.match(vals[i + 1].value)
            if m:
                bad.append(f"{rel}:{v.lineno}: {{{ast.unparse(v.value)}}}{m.group(0)}")
    return bad


def test_no_count_beside_a_fixed_plural():
    assert _disagreements() == []


def test_the_scan_sees_a_disagreement():
    node = ast.parse('f"merged with {n} earlier run(s); {k} runs left, {m} files"').body[0].value
    vals = node.values
    assert OPTIONAL_PLURAL.search(vals[2].value)
    assert COUNT_NOUN.match(vals[4].value) and COUNT_NOUN.match(vals[6].value)


@pytest.mark.parametrize("n, noun, plural, text", [
    (1, "run", None, "1 run"), (0, "run", None, "0 runs"), (2, "claim", None, "2 claims"),
    (1, "process", "processes", "1 process"), (3, "process", "processes", "3 processes"),
    (-1, "run", None, "-1 runs"), (1, "other claim", None, "1 other claim"),
])
def test_counted(n, noun, plural, text):
    assert counted(n, noun, plural) == text
    assert plural_of(n, noun, plural) == text.split(" ", 1)[1]


def test_the_terminal_lines_agree_for_one(tmp_path):
    """The lines that printed "1 runs" / "run(s)" read in the singular for one."""
    from seqtheory.models.sweep_report import summary_lines
    from seqtheory.proofs_checks.evidence import describe
    from seqtheory.proofs_checks.report import tally_line

    assert tally_line([{"verdict": "confirmed", "control": None}]).startswith("1 claim:")
    prov = {"versions": {"torch": "2"}, "device": "cuda", "git_commit": "abc", "profile": "quick",
            "seed": 0, "runs": 1, "created_utc": "now"}
    assert "1 run," in describe(prov)
    doc = {"runs": [{"status": "finished"}], "skipped": {}, "experiments": [
        {"train_length": 4, "test_length": 8, "cells": [{"best_mean": None}]}]}
    lines = summary_lines(doc)
    assert lines[0] == "1 word-problem run (1 finished)"
    assert "0/1 task x model x depth cell with a finished run" in lines[1]

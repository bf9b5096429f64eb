"""seqtheory cite: a citation of one claim's verdict.

The line names three versions, each for what it is: the claim's version (``claim version 1``,
raised when the check's meaning changes), the paper version its statement follows (``paper
version v1``, the arXiv version: ``arXiv:2603.05573v1``) and the decision rule's version (``rule
version 3f2a...``, a hash of the rule's source and thresholds; docs/CHANGELOG.md lists every
claim and rule version and what changed). Then the seqtheory version and commit, and the verdict
with where it comes from:

  claim `depth.lemma3.1` (claim version 1; statement: G. Heo et al., Why Depth Matters ...,
  arXiv:2603.05573v1 = paper version v1, Lemma 3.1; rule version 9b1c...), seqtheory 0.1.0
  (commit 1a2b3c4d5e6f), verdict: refuted [report seqtheory-report/report.json, seed 0, profile
  quick]

The verdict is taken from the report of the profile's default folder (``--report`` names another)
when it holds the claim at its current version, decided by the current rule, with the seed asked
for; otherwise the check runs now (quick profile). ``--bibtex`` prints the same as a BibTeX
``@misc`` entry.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .profiles import PROFILES
from .registry import Claim, Context, get_claim

__all__ = ["register", "run", "citation_line", "bibtex_entry"]


def register(subparsers) -> None:
    """Add the ``cite`` subcommand to the CLI's subparsers."""
    from .cli import DEFAULT_OUT

    c = subparsers.add_parser("cite", help="print a citation of a claim's verdict (--bibtex)",
                              description=__doc__,
                              formatter_class=argparse.RawDescriptionHelpFormatter)
    c.add_argument("id", help="claim id or alias (see: seqtheory claims)")
    c.add_argument("--report", default=None,
                   help="take the verdict from this report (file or folder) when it holds the "
                        f"claim (default ./{DEFAULT_OUT}/report.json for the quick profile, "
                        f"./{DEFAULT_OUT}-PROFILE/report.json for --profile PROFILE, when present)")
    c.add_argument("--profile", choices=PROFILES, default=PROFILES[0],
                   help=f"whose default report folder to read (default {PROFILES[0]})")
    c.add_argument("--seed", type=int, default=None,
                   help="seed of the verdict; a report made with another seed is not used "
                        "(default: the report's seed, else 0)")
    c.add_argument("--bibtex", action="store_true", help="print a BibTeX @misc entry")
    c.set_defaults(fn=run)


def short_commit(commit: str) -> str:
    """The first 12 hex digits of a commit, keeping a ``-dirty`` mark (``"unknown"`` as is)."""
    sha, sep, rest = commit.partition("-")
    return sha[:12] + sep + rest


def citation_line(c: Claim, cited: dict) -> str:
    """The citation line of claim ``c``; ``cited``: ``verdict``, ``rule_version``,
    ``seqtheory_version``, ``commit``, ``origin`` (where the verdict comes from) and, when
    known, ``key_figure`` (quoted, cut at :data:`KEY_FIGURE_CHARS` characters)."""
    line = (f"claim `{c.id}` (claim version {c.claim_version}; statement: "
            f"{c.source.cite(paper_version=True)}; rule version {cited['rule_version'] or 'none'}), seqtheory "
            f"{cited['seqtheory_version']} (commit {short_commit(cited['commit'])}), verdict: "
            f"{cited['verdict']} [{cited['origin']}]")
    if cited.get("key_figure"):
        line += f"; key figure: {_cut(cited['key_figure'])}"
    if c.premise is not None:
        line += (f"; premise, sourced and not covered by the verdict: {c.premise.text} "
                 f"(source: {c.premise.source})")
    return line


#: the longest key figure a citation line quotes in full (longer ones are cut at a word)
KEY_FIGURE_CHARS = 300


def _cut(text: str) -> str:
    """``text`` on one line of at most :data:`KEY_FIGURE_CHARS` characters
    (:func:`~seqtheory.proofs_checks.terminal.clip_words`), with a note that report.md holds the
    rest when it was cut."""
    from .terminal import clip_words

    short = clip_words(text, KEY_FIGURE_CHARS)
    return short if short == " ".join(text.split()) else short + " (the rest in report.md)"


def bibtex_entry(c: Claim, cited: dict) -> str:
    """The BibTeX ``@misc`` entry of claim ``c``'s verdict (``cited`` as for
    :func:`citation_line`, with ``year`` and ``reproduce``, the command that re-runs it)."""
    def esc(text: str) -> str:
        return "".join("\\" + ch if ch in "{}%&$#_" else ch for ch in text)

    fields = {
        "title": f"seqtheory check of claim {c.id} (claim version {c.claim_version}): {c.title}",
        "author": "{seqtheory developers}",
        "year": str(cited["year"]),
        "howpublished": f"seqtheory {cited['seqtheory_version']}, commit "
                        f"{short_commit(cited['commit'])}",
        "note": f"Verdict: {cited['verdict']} ({cited['origin']}). Statement: "
                f"{c.source.cite(paper_version=True)}. Decision rule version "
                f"{cited['rule_version'] or 'none'}. Reproduce: {cited['reproduce']}",
    }
    body = ",\n".join(f"  {k} = {{{v if k == 'author' else esc(v)}}}" for k, v in fields.items())
    return f"@misc{{seqtheory:{c.id},\n{body}\n}}"


def _from_report(c: Claim, args: argparse.Namespace, rpath: Path) -> dict | None:
    """The citation fields from the report at ``rpath`` when it holds the claim at its current
    version, decided by the current rule, with the seed asked for; else ``None`` (and a note on
    stderr why). ``ValueError`` for a report that cannot be read."""
    from .report import control_outcome, load_report
    from .rule_versions import rule_fingerprint

    rep = load_report(rpath)
    rec = next((r for r in rep["claims"] if r["id"] == c.id), None)
    rule_now = rule_fingerprint(c.decision) if c.decision else ""
    skip = None
    if rec is None:
        skip = "does not hold this claim"
    elif rec["verdict"] is None:
        skip = "holds a crashed check of this claim"
    elif rec["claim_version"] != c.claim_version:
        skip = f"holds version {rec['claim_version']} of this claim, not the current {c.claim_version}"
    elif rec["rule"]["version"] != rule_now:
        skip = (f"holds a verdict of rule version {rec['rule']['version'] or 'none'}, not the "
                f"current {rule_now or 'none'}")
    elif args.seed is not None and rep["seed"] != args.seed:
        skip = f"was made with seed {rep['seed']}, not {args.seed}"
    if skip:
        print(f"seqtheory cite: note: report {rpath} {skip}; running the check now",
              file=sys.stderr)
        return None
    origin = f"report {rpath}, seed {rep['seed']}, profile {rep['profile']}"
    if c.uses_training and rep["environment"].get("evidence"):
        from .evidence import describe

        origin += f"; runs read from the {describe(rep['environment']['evidence'])}"
    ctl = control_outcome(rec)
    if rec["control"] is not None and not rec["control"]["rejected"]:
        origin += "; its negative control was NOT rejected: the check is broken"
    elif rec["control"] is not None and ctl != "rejected":
        origin += f"; its negative control was {ctl}"
    elif rec["control_error"]:
        origin += f"; its negative control {ctl}"
    return {"verdict": rec["verdict"], "rule_version": rec["rule"]["version"],
            "seqtheory_version": rep["seqtheory_version"], "commit": rep["git_commit"],
            "origin": origin, "year": rep["created_utc"][:4], "reproduce": rec["reproduce"],
            "key_figure": rec["key_figure"]}


def _run_now(c: Claim, seed: int) -> dict | None:
    """The citation fields of the check run now (quick profile); ``None`` when it crashed (the
    traceback goes to stderr)."""
    import datetime as _dt

    from .environment import git_commit, package_version
    from .report import reproduce_command
    from .rule_versions import rule_fingerprint
    from .runner import run_claim

    r = run_claim(c, Context(seed=seed, profile="quick"))
    if r.outcome is None:
        print(f"seqtheory cite: the check of {c.id} crashed:\n{r.error}", file=sys.stderr)
        return None
    return {"verdict": r.outcome.verdict.value,
            "rule_version": rule_fingerprint(c.decision) if c.decision else "",
            "seqtheory_version": package_version(), "commit": git_commit(),
            "origin": f"run now, seed {seed}, profile quick",
            "year": _dt.date.today().year, "reproduce": reproduce_command(c.id, seed, "quick"),
            "key_figure": r.outcome.key_figure}


def run(args: argparse.Namespace) -> int:
    from .cli import default_out, unknown_claim_message

    def fail(msg: str) -> int:
        print(f"seqtheory cite: error: {msg}", file=sys.stderr)
        return 2

    try:
        c = get_claim(args.id)
    except KeyError:
        return fail(unknown_claim_message(args.id))
    if args.seed is not None and args.seed < 0:
        return fail(f"--seed must be a non-negative integer, got {args.seed}")
    rpath = Path(args.report if args.report is not None
                 else f"{default_out(args.profile)}/report.json")
    cited = None
    if args.report is not None or rpath.is_file():
        try:
            cited = _from_report(c, args, rpath)
        except ValueError as exc:
            return fail(str(exc))
    if cited is None:
        cited = _run_now(c, 0 if args.seed is None else args.seed)
        if cited is None:
            return 1
    print(bibtex_entry(c, cited) if args.bibtex else citation_line(c, cited))
    return 0

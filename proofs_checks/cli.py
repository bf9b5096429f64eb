"""The ``seqtheory`` command line: ``claims``, ``verify``, ``cite`` and the commands that other
modules of this package add (every ``proofs_checks/cmd_*.py`` module with a
``register(subparsers)`` function, e.g. ``train`` and ``sweep``)."""
from __future__ import annotations

import argparse
import fnmatch
import importlib
import json
import pkgutil
import sys
from pathlib import Path

from .registry import Claim, Context, all_claims, get_claim, load_all

__all__ = ["main", "build_parser", "select_claims"]

DEFAULT_OUT = "seqtheory-report"


def select_claims(patterns: list[str] | None) -> list[Claim]:
    """Claims matching ids, aliases or shell patterns (``depth.*``); all when ``patterns`` is empty.

    Raises ``ValueError`` naming any pattern that matches nothing.
    """
    claims = all_claims()
    if not patterns:
        return claims
    chosen: dict[str, Claim] = {}
    for pat in patterns:
        hits = [c for c in claims if fnmatch.fnmatchcase(c.id, pat)]
        if not hits:
            try:
                hits = [get_claim(pat)]
            except KeyError:
                raise ValueError(f"--only {pat!r} matches no claim; see `seqtheory claims`") from None
        for c in hits:
            chosen[c.id] = c
    return [c for c in claims if c.id in chosen]


def _cmd_claims(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.table import Table

    t = Table(title="Registered claims")
    for col in ("id", "source", "statement"):
        t.add_column(col, overflow="fold")
    for c in all_claims():
        t.add_row(c.id + (f" (alias {', '.join(c.aliases)})" if c.aliases else ""),
                  c.source.cite() if c.source.paper in ("DEPTH", "HEAD") else c.source.paper,
                  c.statement)
    Console().print(t)
    return 0


def _clip(text: str, n: int) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"


def _print_summary(report: dict) -> None:
    from rich.console import Console
    from rich.table import Table

    from .report import _group_by_paper, _PAPER_TITLES

    console = Console()
    colours = {"confirmed": "green", "supported": "cyan", "refuted": "red", "refined": "yellow",
               "inconclusive": "magenta"}
    for paper, cl in _group_by_paper(report["claims"]).items():
        t = Table(title=_PAPER_TITLES.get(paper, paper), title_justify="left")
        t.add_column("claim", no_wrap=True)
        t.add_column("statement", overflow="fold", ratio=2)
        t.add_column("verdict", no_wrap=True)
        t.add_column("key figure (full evidence in report.md)", overflow="fold", ratio=3)
        for c in cl:
            v = c["verdict"] or "CRASHED"
            if c["control"] is not None and not c["control"]["rejected"]:
                v += " (CONTROL NOT REJECTED)"
            t.add_row(c["id"], _clip(c["statement"], 70),
                      f"[{colours.get(c['verdict'], 'bold red')}]{v}[/]", _clip(c["key_figure"], 160))
        console.print(t)


def _cmd_verify(args: argparse.Namespace) -> int:
    from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    from .report import build_report, write_report
    from .runner import resolve_device, run_claims

    try:
        claims = select_claims(args.only)
        device = resolve_device(args.device)
        ctx = Context(seed=args.seed, profile=args.profile, device=device,
                      out_dir=Path(args.out).resolve(),
                      results_dir=Path(args.results).resolve() if args.results else None)
    except ValueError as exc:
        print(f"seqtheory verify: error: {exc}", file=sys.stderr)
        return 2
    with Progress(SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn(),
                  transient=False, disable=args.no_progress) as progress:
        task = progress.add_task("starting", total=len(claims))

        def start(c: Claim) -> None:
            progress.update(task, description=f"checking [bold]{c.id}[/]")

        def done(r) -> None:
            v = r.outcome.verdict.value if r.outcome else "CRASHED"
            progress.console.print(f"  {r.claim.id:<32} {v:<13} {r.seconds:7.1f} s")
            progress.advance(task)

        results = run_claims(claims, ctx, controls=args.controls, on_start=start, on_done=done)
        progress.update(task, description="done")
    report = build_report(results, seed=args.seed, profile=args.profile, device=device,
                          controls=args.controls)
    jpath, mpath = write_report(report, ctx.out_dir)
    _print_summary(report)
    print(f"report: {mpath}\n        {jpath}")
    crashed = [r.claim.id for r in results if r.crashed]
    broken = [r.claim.id for r in results if r.control_failed]
    if crashed:
        print(f"crashed: {', '.join(crashed)}", file=sys.stderr)
    if broken:
        print(f"negative control NOT rejected (check broken): {', '.join(broken)}", file=sys.stderr)
    return 1 if (crashed or broken) else 0


def _cmd_cite(args: argparse.Namespace) -> int:
    from .environment import git_commit, package_version
    from .runner import run_claim

    try:
        c = get_claim(args.id)
    except KeyError as exc:
        print(f"seqtheory cite: error: {exc.args[0]}", file=sys.stderr)
        return 2
    verdict, origin = None, ""
    rpath = Path(args.report)
    if rpath.is_file():
        rep = json.loads(rpath.read_text())
        for rec in rep.get("claims", []):
            if rec["id"] == c.id and rec.get("verdict"):
                verdict = rec["verdict"]
                origin = f"report {rpath}, seed {rep['seed']}, profile {rep['profile']}"
    if verdict is None:
        r = run_claim(c, Context(seed=args.seed, profile="quick"))
        if r.outcome is None:
            print(f"seqtheory cite: the check of {c.id} crashed:\n{r.error}", file=sys.stderr)
            return 1
        verdict, origin = r.outcome.verdict.value, f"run now, seed {args.seed}, profile quick"
    print(f"claim `{c.id}` (v{c.claim_version}; {c.source.cite()}), seqtheory "
          f"{package_version()} (commit {git_commit()[:12]}), verdict: {verdict} [{origin}]")
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="seqtheory", description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="command", required=True)
    sub.add_parser("claims", help="list the registered claims").set_defaults(fn=_cmd_claims)

    v = sub.add_parser("verify", help="run the claim checks and write report.json / report.md")
    v.add_argument("--profile", choices=("quick", "full"), default="quick")
    v.add_argument("--only", nargs="+", metavar="ID", help="claim ids, aliases or patterns (depth.*)")
    v.add_argument("--out", default=DEFAULT_OUT, help=f"report folder (default ./{DEFAULT_OUT})")
    v.add_argument("--seed", type=int, default=0)
    v.add_argument("--device", choices=("cpu", "cuda", "auto"), default="cpu")
    v.add_argument("--results", default="results", help="trained-model results store (default ./results)")
    v.add_argument("--controls", action="store_true", help="also run every negative control")
    v.add_argument("--no-progress", action="store_true", help="no live progress display")
    v.set_defaults(fn=_cmd_verify)

    c = sub.add_parser("cite", help="print a citation line for a claim")
    c.add_argument("id")
    c.add_argument("--report", default=f"{DEFAULT_OUT}/report.json",
                   help="take the verdict from this report when it holds the claim")
    c.add_argument("--seed", type=int, default=0)
    c.set_defaults(fn=_cmd_cite)

    from . import __path__ as pkg_path

    for m in sorted(mi.name for mi in pkgutil.iter_modules(pkg_path) if mi.name.startswith("cmd_")):
        importlib.import_module(f"{__package__}.{m}").register(sub)
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command in ("verify", "claims", "cite"):
        load_all()
    return args.fn(args)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

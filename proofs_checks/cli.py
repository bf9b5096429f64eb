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

from seqtheory.theory._io import ensure_dir

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


def _check_results_dir(path: Path | None, needed: bool) -> None:
    """``--results`` must not be a file; when a selected claim trains models, the store there
    must open (``ValueError`` otherwise, e.g. a corrupt ``results.sqlite``)."""
    if path is None:
        return
    if path.exists() and not path.is_dir():
        raise ValueError(f"--results {str(path)!r} exists and is not a folder")
    if needed:
        from seqtheory.models.store import ResultsStore

        ResultsStore(path)


def _cmd_verify(args: argparse.Namespace) -> int:
    from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    from .report import build_report, write_report
    from .runner import resolve_device, run_claims

    try:
        claims = select_claims(args.only)
        device = resolve_device(args.device)
        ctx = Context(seed=args.seed, profile=args.profile, device=device,
                      out_dir=ensure_dir(Path(args.out).resolve(), "--out"),
                      results_dir=Path(args.results).resolve() if args.results else None)
        _check_results_dir(ctx.results_dir, needed=any(c.uses_training for c in claims))
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
    try:
        jpath, mpath = write_report(report, ctx.out_dir)
    except (OSError, ValueError) as exc:
        print(f"seqtheory verify: error: cannot write the report into {ctx.out_dir}: {exc}",
              file=sys.stderr)
        return 1
    _print_summary(report)
    print(f"report: {mpath}\n        {jpath}")
    crashed = [r.claim.id for r in results if r.crashed]
    broken = [r.claim.id for r in results if r.control_failed]
    if crashed:
        print(f"crashed: {', '.join(crashed)}", file=sys.stderr)
    if broken:
        print(f"negative control NOT rejected (check broken): {', '.join(broken)}", file=sys.stderr)
    return 1 if (crashed or broken) else 0


def _short_commit(commit: str) -> str:
    """The first 12 hex digits of a commit, keeping a ``-dirty`` mark (``"unknown"`` as is)."""
    sha, sep, rest = commit.partition("-")
    return sha[:12] + sep + rest


def _load_report(path: Path) -> dict:
    """A report.json (``path`` or ``path/report.json``), validated; ``ValueError`` naming the
    file and the problem when it cannot be read, is not JSON or is not a seqtheory report."""
    from .report import validate_report

    if path.is_dir():
        path = path / "report.json"
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ValueError(f"--report {str(path)!r} does not exist") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ValueError(f"--report {str(path)!r} cannot be read: {exc}") from None
    except json.JSONDecodeError as exc:
        raise ValueError(f"--report {str(path)!r} is not valid JSON ({exc}); "
                         f"re-run `seqtheory verify`") from None
    try:
        validate_report(doc)
    except ValueError as exc:
        raise ValueError(f"--report {str(path)!r} is not a seqtheory report: {exc}") from None
    return doc


def _cmd_cite(args: argparse.Namespace) -> int:
    from .environment import git_commit, package_version
    from .runner import run_claim

    def fail(msg: str) -> int:
        print(f"seqtheory cite: error: {msg}", file=sys.stderr)
        return 2

    try:
        c = get_claim(args.id)
    except KeyError as exc:
        return fail(exc.args[0])
    if args.seed is not None and args.seed < 0:
        return fail(f"--seed must be a non-negative integer, got {args.seed}")
    rpath = Path(args.report if args.report is not None else f"{DEFAULT_OUT}/report.json")
    rep = None
    if args.report is not None or rpath.is_file():
        try:
            rep = _load_report(rpath)
        except ValueError as exc:
            return fail(str(exc))
    rec = None
    if rep is not None:
        rec = next((r for r in rep["claims"] if r["id"] == c.id), None)
        skip = None
        if rec is None:
            skip = "does not hold this claim"
        elif rec["verdict"] is None:
            skip = "holds a crashed check of this claim"
        elif rec["claim_version"] != c.claim_version:
            skip = (f"holds version {rec['claim_version']} of this claim, not the current "
                    f"{c.claim_version}")
        elif args.seed is not None and rep["seed"] != args.seed:
            skip = f"was made with seed {rep['seed']}, not {args.seed}"
        if skip:
            print(f"seqtheory cite: note: report {rpath} {skip}; running the check now",
                  file=sys.stderr)
            rec = None
    if rec is not None:
        verdict, version, commit = rec["verdict"], rep["seqtheory_version"], rep["git_commit"]
        origin = f"report {rpath}, seed {rep['seed']}, profile {rep['profile']}"
        if rec["control"] is not None and not rec["control"]["rejected"]:
            origin += "; its negative control was NOT rejected: the check is broken"
    else:
        seed = 0 if args.seed is None else args.seed
        r = run_claim(c, Context(seed=seed, profile="quick"))
        if r.outcome is None:
            print(f"seqtheory cite: the check of {c.id} crashed:\n{r.error}", file=sys.stderr)
            return 1
        verdict, version, commit = r.outcome.verdict.value, package_version(), git_commit()
        origin = f"run now, seed {seed}, profile quick"
    print(f"claim `{c.id}` (v{c.claim_version}; {c.source.cite()}), seqtheory "
          f"{version} (commit {_short_commit(commit)}), verdict: {verdict} [{origin}]")
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="seqtheory", description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="command", required=True)
    sub.add_parser("claims", help="list the registered claims").set_defaults(fn=_cmd_claims)

    v = sub.add_parser("verify", help="run the claim checks and write report.json / report.md",
                       description="Run the claim checks and write report.json / report.md. "
                                   "Exit status: 0 when every check ran (whatever the verdicts), "
                                   "1 when a check or a control crashed or a negative control was "
                                   "not rejected, 2 for bad arguments.")
    v.add_argument("--profile", choices=("quick", "full"), default="quick",
                   help="quick: seconds per claim (default); full: complete tables")
    v.add_argument("--only", nargs="+", metavar="ID", help="claim ids, aliases or patterns (depth.*)")
    v.add_argument("--out", default=DEFAULT_OUT, help=f"report folder (default ./{DEFAULT_OUT})")
    v.add_argument("--seed", type=int, default=0,
                   help="non-negative seed of every random choice (default 0)")
    v.add_argument("--device", choices=("cpu", "cuda", "auto"), default="cpu",
                   help="where trained-model claims train (default cpu)")
    v.add_argument("--results", default="results", help="trained-model results store (default ./results)")
    v.add_argument("--controls", action="store_true", help="also run every negative control")
    v.add_argument("--no-progress", action="store_true", help="no live progress display")
    v.set_defaults(fn=_cmd_verify)

    c = sub.add_parser("cite", help="print a citation line for a claim")
    c.add_argument("id")
    c.add_argument("--report", default=None,
                   help="take the verdict from this report (file or folder) when it holds the "
                        f"claim (default ./{DEFAULT_OUT}/report.json when present)")
    c.add_argument("--seed", type=int, default=None,
                   help="seed of the verdict; a report made with another seed is not used "
                        "(default: the report's seed, else 0)")
    c.set_defaults(fn=_cmd_cite)

    from . import __path__ as pkg_path

    for m in sorted(mi.name for mi in pkgutil.iter_modules(pkg_path) if mi.name.startswith("cmd_")):
        importlib.import_module(f"{__package__}.{m}").register(sub)
    return p


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status (130 after Ctrl-C: files written so far
    are complete, training runs keep their last checkpoint)."""
    args = build_parser().parse_args(argv)
    try:
        if args.command in ("verify", "claims", "cite"):
            load_all()
        return args.fn(args)
    except KeyboardInterrupt:
        print(f"seqtheory {args.command}: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

"""seqtheory: verify the claims of two papers on parallelizable sequence models.

Papers: [DEPTH] Heo et al., Why Depth Matters in Parallelizable Sequence Models: A Lie
Algebraic View, arXiv:2603.05573; [HEAD] Somasundaram et al., Toward a First-Principles Update
Geometry for the Language-Model Head, arXiv:2608.22253.

Each claim of a paper is a registered check with a stable id and a verdict (confirmed,
supported, refuted, refined, inconclusive), paired with a negative control that the same
decision rule must reject.

Typical use:
  seqtheory claims                           list the claims and their ids (--ids, --json)
  seqtheory verify                           run every check; write seqtheory-report/report.md
  seqtheory verify --controls                also run every negative control
  seqtheory verify --only depth.cor3.6       re-run one claim, merged into the existing report
  seqtheory verify --profile full            the complete tables, into seqtheory-report-full/
  seqtheory cite depth.cor3.6                print a citation line with the verdict (--bibtex)
  seqtheory changelog depth.cor3.6           every claim and rule version, and what changed
  seqtheory runs                             the runs of the results store (keys for inspect)
  seqtheory train --task S3 --model gla      train one model into the results store

Every command uses one results store by default ($SEQTHEORY_CACHE_DIR/results, else
~/.cache/seqtheory/results), which the notebooks share.

Run "seqtheory COMMAND --help" for the options of a command.
"""
from __future__ import annotations

import argparse
import contextlib
import difflib
import fnmatch
import importlib
import os
import pkgutil
import sqlite3
import sys
from pathlib import Path

from seqtheory.theory._io import FolderLockTimeout, check_dir, check_entries, ensure_dir, \
    folder_lock, os_error_line
from seqtheory.theory._messages import counted
from seqtheory.theory._signals import restore_sigterm, sigterm_as_interrupt

from .cli_types import add_results_option
from .profiles import PROFILE_HELP, PROFILES
from .registry import Claim, Context, all_claims, get_claim, load_all

__all__ = ["main", "build_parser", "select_claims", "unknown_claim_message", "default_out"]

DEFAULT_OUT = "seqtheory-report"


def default_out(profile: str) -> str:
    """The default report folder of a profile: ``seqtheory-report`` for ``quick``,
    ``seqtheory-report-full`` / ``seqtheory-report-paper`` for the others (one folder per
    profile, so that ``verify --only ID --profile full`` merges into a full report, never into
    the quick one it could not merge with)."""
    return DEFAULT_OUT if profile == "quick" else f"{DEFAULT_OUT}-{profile}"


def select_claims(patterns: list[str] | None) -> list[Claim]:
    """Claims matching ids, aliases or shell patterns (``depth.*``; a pattern matches a claim when
    it matches its id or one of its aliases); all when ``patterns`` is empty.

    Raises ``ValueError`` naming any pattern that matches nothing, with the nearest ids.
    """
    claims = all_claims()
    if not patterns:
        return claims
    chosen: dict[str, Claim] = {}
    for pat in patterns:
        hits = [c for c in claims if any(fnmatch.fnmatchcase(n, pat) for n in (c.id, *c.aliases))]
        if not hits:
            try:
                hits = [get_claim(pat)]
            except KeyError:
                raise ValueError(f"--only {unknown_claim_message(pat)}") from None
        for c in hits:
            chosen[c.id] = c
    return [c for c in claims if c.id in chosen]


def unknown_claim_message(name: str) -> str:
    """``'depth.cor36' matches no claim; did you mean depth.cor3.6?`` (the nearest ids and
    aliases by :func:`difflib.get_close_matches`), or a pointer to ``seqtheory claims``."""
    names = [c.id for c in all_claims()] + [a for c in all_claims() for a in c.aliases]
    close = difflib.get_close_matches(name, names, n=3, cutoff=0.6)
    hint = f"did you mean {', '.join(close)}?" if close else "see \"seqtheory claims\" for the ids"
    return f"{name!r} matches no claim; {hint}"


def _check_results_dir(path: Path | None, needed: bool) -> None:
    """``--results`` must be a folder that can be created or written (nothing is created);
    when a selected claim trains models and a store is there, it must open (``ValueError``
    otherwise, e.g. a corrupt ``results.sqlite``)."""
    from seqtheory.models.store import DB_NAME, ResultsStore

    if path is None:
        return
    check_dir(path, "--results")
    if needed and (path / DB_NAME).exists():
        ResultsStore(path)


def _check_evidence(args: argparse.Namespace) -> Path | None:
    """The evidence of ``--evidence`` (None without one): one bundle, or a folder of bundles
    read as their union (:func:`~seqtheory.proofs_checks.evidence.evidence_provenance`); sets
    ``args.provenance`` (every bundle's provenance). ``ValueError`` for a bad bundle, bundles
    that disagree on a run, evidence of another profile or seed, or a GPU profile
    (:data:`~seqtheory.proofs_checks.profiles.GPU_PROFILES`) asked to train on a CPU."""
    from .evidence import (bundle_store, bundles_in, evidence_provenance, provenance_problems,
                           unverified_lines)
    from .profiles import GPU_PROFILES

    args.provenance = None
    if args.evidence is None:
        if args.profile in GPU_PROFILES and args.device_resolved != "cuda":
            raise ValueError(f"profile {args.profile!r} trains on a CUDA GPU: give --device cuda, "
                             "or read an evidence bundle made there with --evidence DIR")
        return None
    root = Path(args.evidence).resolve()
    prov = evidence_provenance(root)
    for key in ("profile", "seed"):
        if prov[key] != getattr(args, key):
            raise ValueError(f"--evidence {str(root)!r} was made with {key} {prov[key]!r}; this "
                             f"run uses {getattr(args, key)!r} (give --{key} {prov[key]})")
    problems: dict[str, str] = {}
    for bundle in bundles_in(root):                     # checked again: never taken on trust
        try:
            problems.update(provenance_problems(bundle_store(bundle)))
        except (sqlite3.Error, ValueError) as exc:
            raise ValueError(f"--evidence {str(bundle)!r}: the runs of its results store cannot "
                             f"be read ({exc})") from None
    for line in unverified_lines(problems):
        print(f"seqtheory verify: note: {line}" if not line.startswith(" ") else line,
              file=sys.stderr)
    args.provenance = dict(prov, path=str(root), unverified_runs=problems)
    return root


def _existing_report(out: Path) -> tuple[dict | None, str | None]:
    """The report already in the folder ``out`` (``None`` when there is none) and, when one is
    there but cannot be read as a report of this seqtheory, why."""
    from .report import load_report

    if not (out / "report.json").exists():
        return None, None
    try:
        return load_report(out, "report"), None
    except ValueError as exc:
        return None, str(exc)


def _merge_problem(args: argparse.Namespace, claims: list[Claim], old: dict | None,
                   unreadable: str | None) -> str | None:
    """Why this run's records cannot be merged into the report ``old`` (``unreadable``: why it
    could not be read), or ``None`` when they can or there is no report."""
    from .environment import package_version
    from .report import merge_problem

    probe = {"seed": args.seed, "profile": args.profile, "device": args.device_resolved,
             "seqtheory_version": package_version(), "claims": [{"id": c.id} for c in claims],
             "environment": {"evidence": getattr(args, "provenance", None)}}
    from .rule_versions import rule_fingerprint

    return unreadable or (old and merge_problem(
        old, probe, {c.id: c.claim_version for c in all_claims()},
        {c.id: rule_fingerprint(c.decision) if c.decision else "" for c in all_claims()}))


def _is_partial(claims: list[Claim]) -> bool:
    return {c.id for c in claims} != {c.id for c in all_claims()}


def _merge_base(args: argparse.Namespace, claims: list[Claim], out: Path) -> dict | None:
    """The report already in ``out`` (``None`` when there is none), for its recorded times and
    to say what will happen to it; reads only (the merge itself happens when the run has
    finished, :func:`_write_run`).

    Raises ``ValueError`` when a partial run (``--only``) would have to replace a report it
    cannot merge into and ``--replace`` was not given."""
    old, unreadable = _existing_report(out)
    partial = _is_partial(claims)
    why = _merge_problem(args, claims, old, unreadable)
    if why and partial and not args.replace:
        raise ValueError(f"--out {str(out)!r} holds a report this partial run cannot merge into "
                         f"({why}); pass --replace to overwrite it, or --out to write elsewhere")
    if why:
        print(f"seqtheory verify: note: replacing the report in {out} ({why})", file=sys.stderr)
    elif old is not None and partial and not args.replace:
        kept = len({c["id"] for c in old["claims"]} - {c.id for c in claims})
        print(f"seqtheory verify: note: merging into the report in {out} (kept from it: "
              f"{counted(kept, 'other claim')}; --replace writes a fresh report)",
              file=sys.stderr)
    return old


#: the lock file serialising the writers of one report folder (:func:`_write_run`; it exists only
#: while a run writes the report)
REPORT_LOCK = ".seqtheory-report.lock"
#: how long a run waits for another run writing the same report folder (seconds)
REPORT_LOCK_TIMEOUT_S = 600.0


def _write_run(args: argparse.Namespace, claims: list[Claim], report: dict, out: Path,
               old: dict | None, interrupted: bool) -> tuple[dict, Path, Path, str, list[str]]:
    """Write this run's ``report`` into ``out`` holding the folder's lock
    (:data:`REPORT_LOCK`) while the report there is read again, merged and replaced, so that
    concurrent runs in one folder serialise and none loses another's finished claims.

    A partial run merges into the report as it is *now* (another run may have written it since
    this one started). An interrupted run never replaces a report it cannot merge into (e.g.
    under ``--replace``): its partial report goes beside it as ``report.interrupted.json/.md``;
    likewise a partial run whose report changed into one it cannot merge into writes
    ``report.unmerged.json/.md``. Returns ``(written report, json path, md path, stem,
    stale figures removed)``; ``OSError`` / ``ValueError`` when writing fails."""
    from .report import write_report

    def waiting(holder: str) -> None:
        print(f"seqtheory verify: waiting for {holder}, which is writing the report in {out} "
              f"(at most {REPORT_LOCK_TIMEOUT_S:g} s)", file=sys.stderr)

    try:
        with folder_lock(out, REPORT_LOCK, timeout_s=REPORT_LOCK_TIMEOUT_S, on_wait=waiting):
            return _merge_and_write(args, claims, report, out, old, interrupted)
    except FolderLockTimeout as exc:
        print(f"seqtheory verify: note: {exc}; writing this run's report beside it",
              file=sys.stderr)
        return (report, *write_report(report, out, "report.unmerged"), "report.unmerged", [])


def _merge_and_write(args: argparse.Namespace, claims: list[Claim], report: dict, out: Path,
                     old: dict | None, interrupted: bool
                     ) -> tuple[dict, Path, Path, str, list[str]]:
    """:func:`_write_run`'s work, with the folder's lock held."""
    from .report import merge_reports, write_report

    current, unreadable = _existing_report(out)
    why = _merge_problem(args, claims, current, unreadable)
    partial = interrupted or _is_partial(claims)
    stem = "report"
    if partial and current is not None and not why and not args.replace:
        if old is None or current["runs"] != old["runs"]:
            print(f"seqtheory verify: note: another run wrote the report in {out} while this "
                  "one ran; this run's records are merged into that report", file=sys.stderr)
        report = merge_reports(current, report, [c.id for c in all_claims()])
    elif (out / "report.json").exists() and (
            interrupted or (_is_partial(claims) and why and not args.replace)):
        stem = "report.interrupted" if interrupted else "report.unmerged"
    jpath, mpath = write_report(report, out, stem)
    removed = _remove_stale_figures(current, report, out) if stem == "report" else []
    return report, jpath, mpath, stem, removed


def _remove_stale_figures(old: dict | None, report: dict, out: Path) -> list[str]:
    """Delete the figure files ``old`` lists and ``report`` no longer does (only paths inside
    ``out/figures``); returns the paths removed."""
    from .report import stale_figures

    removed = []
    figures = (out / "figures").resolve()
    for rel in stale_figures(old, report):
        path = (out / rel).resolve()
        if path.parent == figures and path.is_file():
            path.unlink()
            removed.append(rel)
    return removed


def _recorded_seconds(old: dict | None, profile: str, controls: bool) -> dict[str, float]:
    """Per-claim times recorded by an earlier report of the same profile (for the estimate)."""
    if old is None or old["profile"] != profile:
        return {}
    return {c["id"]: c["seconds"] + ((c["control_seconds"] or 0) if controls else 0)
            for c in old["claims"] if c["verdict"] is not None}


def _control_word(r) -> str:
    from .report import control_state

    if r.control_error:
        return "control CRASHED"
    if r.control is None:
        return ""
    if not r.control.rejected:
        return "control NOT REJECTED"
    verdict = r.outcome.verdict.value if r.outcome else None
    state = control_state({"verdict": verdict, "control": {
        "rejected": True, "rule_verdicts": [v and v.value for v in r.control.rule_verdicts]}})
    if state == "unseparated":
        return f"control unseparated (rule: {verdict} on both)"
    return f"control {state}"


def _run_with_progress(claims: list[Claim], ctx: Context, args: argparse.Namespace,
                       recorded: dict[str, float]) -> tuple[list, bool]:
    """Run the claims with a live counter (``12/33``), elapsed time and an estimate of the time
    left; one line per finished claim. Returns the finished results and whether Ctrl-C
    stopped the run."""
    from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    from .progress import estimate_remaining, format_duration
    from .runner import run_claims

    n, results = len(claims), []
    idw = max((len(c.id) for c in claims), default=0)
    with Progress(SpinnerColumn(), TextColumn("{task.completed}/{task.total}"),
                  TextColumn("{task.description}"), TimeElapsedColumn(),
                  TextColumn("{task.fields[left]}"), transient=False,
                  disable=args.no_progress) as progress:
        task = progress.add_task("starting", total=n, left="")

        def start(c: Claim) -> None:
            finished = {r.claim.id for r in results}
            left = estimate_remaining([x.id for x in claims if x.id not in finished], recorded,
                                      [r.seconds + (r.control_seconds or 0) for r in results])
            progress.update(task, description=f"checking [bold]{c.id}[/]",
                            left=f"about {format_duration(left)} left")

        def done(r) -> None:
            results.append(r)
            v = r.outcome.verdict.value if r.outcome else "CRASHED"
            progress.console.print(f"  {len(results):>{len(str(n))}}/{n} {r.claim.id:<{idw}} {v:<13}"
                                   f"{r.seconds:7.1f} s  {_control_word(r)}".rstrip(),
                                   highlight=False, soft_wrap=True)
            progress.advance(task)

        def training(info: dict) -> None:
            if info["phase"] == "note":
                progress.console.print(f"  {info['text']}", markup=False, highlight=False,
                                       soft_wrap=True)
                return
            if info["phase"] == "started":
                if info["runs"]:
                    progress.console.print(f"  training {counted(info['runs'], 'run')} in "
                                           f"{counted(info['workers'] or 1, 'process', 'processes')}"
                                           " meanwhile",
                                           highlight=False, soft_wrap=True)
                return
            if info["runs"] and not info.get("error"):
                progress.console.print(f"  trained {counted(info['runs'], 'run')} in "
                                       f"{info['seconds']:.1f} s",
                                       highlight=False, soft_wrap=True)
            if info.get("error"):
                progress.console.print("  training failed; each check trains its own runs:\n  "
                                       + info["error"].rstrip().splitlines()[-1], markup=False,
                                       highlight=False,
                                       soft_wrap=True)

        try:
            run_claims(claims, ctx, controls=args.controls, on_start=start, on_done=done,
                       on_training=training)
        except KeyboardInterrupt:
            return results, True
        progress.update(task, description="done", left="")
    return results, False


def _cmd_verify(args: argparse.Namespace) -> int:
    from .report import build_report
    from .runner import resolve_device

    try:  # nothing is created before every argument is checked (a refused run leaves no trace)
        claims = select_claims(args.only)
        if args.seed < 0:
            raise ValueError(f"--seed must be a non-negative integer, got {args.seed}")
        args.device_resolved = resolve_device(args.device)
        evidence = _check_evidence(args)
        out = check_dir(Path(args.out or default_out(args.profile)).resolve(), "--out")
        ctx = Context(seed=args.seed, profile=args.profile, device=args.device_resolved,
                      out_dir=out, results_dir=Path(args.results).resolve(), evidence=evidence)
        if evidence is None:
            _check_results_dir(ctx.results_dir, needed=any(c.uses_training for c in claims))
        _check_report_folder(out)
        old = _merge_base(args, claims, out)
        created = not out.exists()
        ensure_dir(out, "--out")
    except ValueError as exc:
        print(f"seqtheory verify: error: {exc}", file=sys.stderr)
        return 2
    figures_before = _figure_files(out)
    results, interrupted = _run_with_progress(
        claims, ctx, args, _recorded_seconds(old, args.profile, args.controls))
    if interrupted and not results:
        _discard_new_figures(out, figures_before, created)
        print("seqtheory verify: interrupted before a claim finished; no report written",
              file=sys.stderr)
        return 130
    report = build_report(results, seed=args.seed, profile=args.profile,
                          device=args.device_resolved, controls=args.controls,
                          interrupted=interrupted, evidence=args.provenance)
    try:
        report, jpath, mpath, stem, removed = _write_run(args, claims, report, out, old,
                                                         interrupted)
    except (OSError, ValueError) as exc:
        _discard_new_figures(out, figures_before, created)  # no report refers to them
        why = os_error_line(exc) if isinstance(exc, OSError) else str(exc)
        print(f"seqtheory verify: error: cannot write the report into {out}: {why}",
              file=sys.stderr)
        return 1
    ran = {r.claim.id for r in results}
    if interrupted:
        print(f"seqtheory verify: interrupted after {len(results)}/"
              f"{counted(len(claims), 'claim')}; "
              f"partial report (marked interrupted): {jpath}", file=sys.stderr)
        if stem != "report":
            print(f"seqtheory verify: the last complete report is unchanged: "
                  f"{out / 'report.json'}", file=sys.stderr)
        return 130
    return _print_run(report, [c for c in report["claims"] if c["id"] in ran], results, stem,
                      out, jpath, mpath, removed, summary=args.summary)


def _print_run(report: dict, run_records: list[dict], results: list, stem: str, out: Path,
               jpath: Path, mpath: Path, removed: list[str], summary: bool = False) -> int:
    """The terminal's account of a finished run: its claims' table (not with ``summary``), its
    tally, the merged report's tally, where the report is; returns the exit status."""
    import shutil

    from .report import tally_line, tally_lines
    from .terminal import claim_lines

    if not summary:
        for line in claim_lines(run_records, shutil.get_terminal_size((80, 24)).columns):
            print(line)
        print()
    print(f"this run: {tally_line(run_records)}")
    for line in tally_lines(run_records):
        print(f"  {line}")
    if len(report["runs"]) > 1:
        print(f"the report (merged with {counted(len(report['runs']) - 1, 'earlier run')}): "
              f"{tally_line(report['claims'])}")
    if removed:
        print(f"removed {counted(len(removed), 'stale figure file')} from {out / 'figures'}")
    print(f"report: {mpath}\n        {jpath}")
    crashed = [r.claim.id for r in results if r.crashed]
    broken = [r.claim.id for r in results if r.control_failed]
    if stem != "report":
        print(f"seqtheory verify: the report in {out} changed while this run ran into one this "
              f"run cannot merge into; it is unchanged, this run's report is {jpath}",
              file=sys.stderr)
    if crashed:
        print(f"crashed: {', '.join(crashed)}", file=sys.stderr)
    if broken:
        print(f"negative control NOT rejected (check broken): {', '.join(broken)}", file=sys.stderr)
    return 1 if (crashed or broken or stem != "report") else 0


def _remove_if_empty(folder: Path) -> None:
    try:
        folder.rmdir()
    except OSError:
        pass


#: the entries a verify run writes in its --out folder: files (the lock, the report pairs of each
#: stem) and folders (the figures)
_REPORT_FILES = (REPORT_LOCK, *(f"{stem}.{ext}" for stem in
                                ("report", "report.interrupted", "report.unmerged")
                                for ext in ("json", "md")))


def _check_report_folder(out: Path) -> None:
    """``ValueError`` (a refusal, before anything is written) when an entry the run will write in
    ``out`` is unusable: the report lock or a report file that is a folder or not writable, a
    ``figures`` that is a file (:func:`~seqtheory.theory._io.check_entries`)."""
    check_entries(out, "--out", files=_REPORT_FILES, folders=("figures",))


def _figure_files(out: Path) -> set[Path] | None:
    """The figure files in ``out/figures`` now (``None`` when there is no such folder)."""
    figures = out / "figures"
    return {p for p in figures.iterdir() if p.is_file()} if figures.is_dir() else None


def _discard_new_figures(out: Path, before: set[Path] | None, created: bool) -> None:
    """A run that writes no report leaves ``out`` as it found it: the figure files it added are
    removed, and the ``figures`` folder and ``out`` itself when the run created them and they
    are empty. (A figure file the run rewrote in place keeps its new bytes: the claims write
    figures in place, and no copy of the old ones is kept.)"""
    for p in (_figure_files(out) or set()) - (before or set()):
        with contextlib.suppress(OSError):
            p.unlink()
    if before is None:
        _remove_if_empty(out / "figures")
    if created:
        _remove_if_empty(out)


def build_parser() -> argparse.ArgumentParser:
    from seqtheory import __version__

    from .glossary import EXIT_STATUS

    p = argparse.ArgumentParser(prog="seqtheory", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--version", action="version", version=f"seqtheory {__version__}")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")

    v = sub.add_parser("verify", help="run the claim checks and write report.json / report.md",
                       description="Run the claim checks and write report.json / report.md. "
                                   "A run of some claims (--only) merges them into the report "
                                   "already in --out (they are marked re-run); it refuses a "
                                   "report made with another seed, profile, device, seqtheory "
                                   "version or evidence bundle unless --replace is given. Runs "
                                   "in one --out folder may overlap: each merges into the report "
                                   "as it is when it finishes (writers take turns through a lock "
                                   "file there). Ctrl-C writes the claims finished so far as a "
                                   "report marked interrupted, merged into the report when it "
                                   "can be, else (e.g. under --replace) beside it as "
                                   "report.interrupted.json / .md, the complete report kept. "
                                   "A refused run creates nothing. "
                                   f"Exit status: {EXIT_STATUS}.")
    v.add_argument("--profile", choices=PROFILES, default=PROFILES[0],
                   help="; ".join(f"{k}: {h}" for k, h in PROFILE_HELP.items())
                   + f" (default {PROFILES[0]})")
    v.add_argument("--only", nargs="+", metavar="ID", help="claim ids, aliases or patterns (depth.*)")
    v.add_argument("--out", default=None,
                   help=f"report folder (default ./{default_out('quick')} for the quick profile, "
                        f"./{DEFAULT_OUT}-PROFILE for the others)")
    v.add_argument("--seed", type=int, default=0,
                   help="non-negative seed of every random choice (default 0)")
    v.add_argument("--device", choices=("cpu", "cuda", "auto"), default="cpu",
                   help="where trained-model claims train (default cpu)")
    add_results_option(v, "trained-model results store")
    v.add_argument("--evidence", default=None, metavar="DIR",
                   help="read the trained claims' runs from this evidence bundle (made by "
                        "seqtheory evidence pack on another machine), or from the union of the "
                        "bundles in this folder (one per shard), instead of --results; nothing is "
                        "trained; a claim whose runs are missing is inconclusive, 'missing N "
                        "runs' (default none)")
    v.add_argument("--replace", action="store_true",
                   help="write a fresh report instead of merging into the one in --out")
    v.add_argument("--controls", action="store_true",
                   help="also run every negative control and show each outcome")
    v.add_argument("--no-progress", action="store_true", help="no live progress display")
    v.add_argument("--summary", action="store_true",
                   help="at the end print the tallies and where the report is, not the table of "
                        "the run's claims (one line per claim is printed as each finishes)")
    v.set_defaults(fn=_cmd_verify)

    from . import __path__ as pkg_path

    for m in sorted(mi.name for mi in pkgutil.iter_modules(pkg_path) if mi.name.startswith("cmd_")):
        importlib.import_module(f"{__package__}.{m}").register(sub)
    return p


#: thread-count variables that OpenMP, OpenBLAS and MKL read when they load
_THREAD_VARS = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")


def _one_thread_beside_the_workers() -> None:
    """``verify`` trains in worker processes, one per core and one thread each, while this
    process runs the checks without training beside them: a multi-threaded BLAS or OpenMP here
    oversubscribes the cores (measured on 2 idle cores, quick profile from a fresh store: 127 ->
    108 CPU-s and 66 -> 58 s wall; verdicts and key figures equal). Sets each variable the user
    has not set, before numpy or torch loads (no effect once they are loaded: in-process
    callers such as tests keep their settings)."""
    if "numpy" in sys.modules or "torch" in sys.modules:
        return
    for var in _THREAD_VARS:
        os.environ.setdefault(var, "1")


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status (130 after Ctrl-C: files written so far
    are complete, training runs keep their last checkpoint)."""
    args = build_parser().parse_args(argv)
    previous = sigterm_as_interrupt()   # a kill ends a command as Ctrl-C does
    try:
        if args.command == "verify" and getattr(args, "device", "cpu") != "cuda":
            _one_thread_beside_the_workers()
        if args.command in ("verify", "claims", "cite"):
            load_all()
        return args.fn(args)
    except KeyboardInterrupt:
        print(f"seqtheory {args.command}: interrupted", file=sys.stderr)
        return 130
    except OSError as exc:  # a file operation failed outside the places that word it themselves
        print(f"seqtheory {args.command}: error: {os_error_line(exc)}", file=sys.stderr)
        return 1
    finally:
        restore_sigterm(previous)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

"""``report.json`` and ``report.md``: the written record of a verification run.

report.json schema (``schema_version`` 3)::

    {
      "schema_version": 3,
      "seqtheory_version": str, "git_commit": str, "created_utc": str (ISO 8601),
      "seed": int, "profile": "quick" | "full" | "paper", "device": "cpu" | "cuda",
      "controls": bool,                            # every claim's negative control ran
                                                   # (its record has a control or control_error)
      "interrupted": bool,                         # the last run was stopped (Ctrl-C) part-way
      "runs": [{"created_utc": str, "git_commit": str, "claims": [str]}],
                                          # every verify run that wrote records, oldest first
      "environment": {"versions": {package: str | null}, "platform": str, "machine": str,
                      "device": str, "git_commit": str, ...},
                                          # ... includes evidence (the bundle's provenance.json
                                          # plus its path) when the trained claims read a bundle
      "claims": [
        {
          "id": str, "aliases": [str], "claim_version": int, "title": str,
          "source": {"paper": str, "arxiv": str, "version": str, "location": str, "reference": str},
          "statement": str,
          "premise": {"text": str, "source": str},  # optional: a sourced fact, not checked
          "status": "ok" | "crashed",
          "verdict": "confirmed" | "supported" | "refuted" | "refined" | "inconclusive" | null,
          "key_figure": str, "notes": str,
          "evidence": {...}, "tables": {name: [row, ...]}, "figures": [relative path],
          "error": str | null,                     # traceback when crashed
          "control": {"variant", "rejected", "reason", "evidence",
                      "rule_verdicts"} | null,     # rule_verdicts: what the claim's rule
                                                   # returned on the control (optional key)
          "control_error": str | null,
          "readings": [{"reading": str, "outcome": verdict, "why": str, "finding": str}],
                                                   # readings other than the paper's: reported,
                                                   # never part of the verdict (SPEC §3)
          "rule": {"version": str, "recorded": str, "change": str,
                   "seed_status": "seen" | "out-of-sample" | "not applicable" | "unrecorded"},
                                                   # the decision rule's version and whether
                                                   # this seed was looked at before it was fixed
                                                   # (:mod:`.rule_versions`)
          "seconds": float, "control_seconds": float | null,
          "rerun": bool,                           # run by the last of several runs (only
                                                   # the claims that run ran)
          "reproduce": str                         # the command that re-runs this claim
        }
      ]
    }

No other keys appear at the top level, in a claim record, in ``source`` or in ``control``
(``environment`` may hold more); :func:`validate_report` checks a document against this schema.
Exact rationals (``Fraction``, sympy and python-flint rationals) are written as strings ``"p/q"``,
exact integers as JSON integers; NaN and infinities as the strings ``"nan"``, ``"inf"``,
``"-inf"`` (the file is strict JSON). Everything except ``created_utc``, ``seconds`` and
``control_seconds`` is a deterministic function of the command line and the source tree.

Partial runs. ``seqtheory verify --only ID`` (and a run stopped by Ctrl-C) *merges* its records
into the report already in the folder (:func:`merge_reports`): the claims it ran replace their
records and are marked ``rerun`` (the records of earlier runs lose the mark), every other record is
kept, ``runs`` lists both runs, and ``controls`` is true when every record's control ran
(:func:`control_ran`). A merge
is refused (:func:`merge_problem`) across seeds, profiles, devices, seqtheory versions or claim
versions; the figures of a replaced record that the new record no longer lists are stale and are
removed (:func:`stale_figures`). The command line (``seqtheory verify``) reads, merges and
replaces the report holding a lock file in the folder, so overlapping runs never drop each
other's records; an interrupted run that cannot merge (``--replace``) writes
``report.interrupted.json`` / ``.md`` beside the report instead of replacing it
(:func:`write_report`'s ``stem``).
"""
from __future__ import annotations

import datetime as _dt
import enum
import json
import math
import re
from dataclasses import asdict
from fractions import Fraction
from pathlib import Path
from typing import Any, Sequence

from seqtheory.theory._io import atomic_write_files
from seqtheory.theory._messages import counted, plural_of

from .environment import environment_info, package_version
from .profiles import PROFILES
from .runner import ClaimResult

__all__ = ["SCHEMA_VERSION", "CONTROL_MARKS", "control_ran", "marked_verdict", "mark_legend",
           "to_jsonable", "build_report", "write_report", "render_markdown", "reproduce_command",
           "validate_report", "merge_problem", "merge_reports", "stale_figures", "tally",
           "tally_line", "format_number", "format_stat", "claim_record", "md_table", "PAPER_TITLES",
           "group_by_paper", "control_separation", "control_state", "control_outcome",
           "tally_lines", "GROUP_NAMES", "readings_markdown", "rule_line"]

SCHEMA_VERSION = 3


def _exact_number(x: Any) -> Any:
    """Exact integers → ``int``, exact rationals → ``"p/q"`` for python-flint (``fmpz``,
    ``fmpq``) and sympy numbers; sympy floats → ``float``; sympy infinities → ``"inf"``/
    ``"-inf"``, sympy NaN → ``"nan"``. Returns ``NotImplemented`` for anything else."""
    mod = type(x).__module__ or ""
    if mod.startswith("flint"):
        name = type(x).__name__
        if name == "fmpz":
            return int(x)
        if name == "fmpq":
            q = Fraction(int(x.p), int(x.q))
            return q.numerator if q.denominator == 1 else str(q)
        return NotImplemented
    if mod.startswith("sympy") and getattr(x, "is_Number", False):
        if x.is_Integer:
            return int(x)
        if x.is_Rational:
            return f"{int(x.p)}/{int(x.q)}"
        if x.is_Float:
            return to_jsonable(float(x))
        import sympy

        if x == sympy.oo:
            return "inf"
        if x == -sympy.oo:
            return "-inf"
        if x is sympy.nan:
            return "nan"
        return str(x)  # zoo (complex infinity)
    return NotImplemented


def to_jsonable(x: Any) -> Any:
    """Convert evidence to JSON-safe values: ``Fraction`` and exact rationals → ``"p/q"``, exact
    integers (python-flint, sympy) → ``int``, numpy / torch → Python, NaN/±inf → ``"nan"``,
    ``"inf"``, ``"-inf"``, sets sorted, other objects (sympy expressions, complex) → ``str``."""
    if isinstance(x, bool) or x is None:
        return x
    if isinstance(x, str):
        return str(x)  # numpy.str_ → str
    if isinstance(x, enum.Enum):
        return to_jsonable(x.value)
    if isinstance(x, int):
        return int(x)
    if isinstance(x, float):
        x = float(x)
        return x if math.isfinite(x) else ("nan" if math.isnan(x) else ("inf" if x > 0 else "-inf"))
    if isinstance(x, Fraction):
        return str(x)
    exact = _exact_number(x)
    if exact is not NotImplemented:
        return exact
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


def reproduce_command(claim_id: str, seed: int, profile: str, evidence: dict | None = None) -> str:
    """The command line that reruns one claim as this report ran it."""
    from .profiles import GPU_PROFILES

    import shlex

    cmd = f"seqtheory verify --only {shlex.quote(claim_id)} --seed {seed}"
    if profile != "quick":
        cmd += f" --profile {profile}"
    if evidence is not None:
        return cmd + f" --evidence {shlex.quote(str(evidence.get('path', 'BUNDLE')))}"
    return cmd + (" --device cuda" if profile in GPU_PROFILES else "")


def claim_record(r: ClaimResult, seed: int, profile: str, evidence: dict | None = None) -> dict:
    """The report.json record of one result (see the module docstring for its keys). With
    ``evidence`` (a bundle's provenance) a trained claim's notes begin by naming the bundle."""
    from .evidence import describe
    from .rule_versions import rule_status

    c, o = r.claim, r.outcome
    notes = o.notes if o else ""
    if evidence is not None and c.uses_training:
        notes = f"Runs read from the {describe(evidence)}. " + notes
    rec = {
        "id": c.id, "aliases": list(c.aliases), "claim_version": c.claim_version, "title": c.title,
        "source": asdict(c.source), "statement": c.statement,
        **({"premise": asdict(c.premise)} if c.premise is not None else {}),
        "status": "crashed" if r.error else "ok",
        "verdict": o.verdict.value if o else None,
        "key_figure": _no_bare_nan(o.key_figure) if o else "", "notes": _no_bare_nan(notes),
        "evidence": o.evidence if o else {}, "tables": o.tables if o else {},
        "figures": o.figures if o else [], "error": r.error,
        "control": None if r.control is None else {
            "variant": r.control.variant, "rejected": r.control.rejected,
            "reason": r.control.reason, "evidence": r.control.evidence,
            "rule_verdicts": [v and v.value for v in r.control.rule_verdicts]},
        "control_error": r.control_error,
        "readings": [x.record() for x in o.readings] if o else [],
        "rule": rule_status(c, seed, profile),
        "seconds": round(r.seconds, 3),
        "control_seconds": None if r.control_seconds is None else round(r.control_seconds, 3),
        "rerun": False,
        "reproduce": reproduce_command(c.id, seed, profile, evidence),
    }
    return to_jsonable(rec)


def build_report(results: list[ClaimResult], *, seed: int, profile: str, device: str,
                 controls: bool, interrupted: bool = False, evidence: dict | None = None) -> dict:
    """The report.json document for a list of results (see the module docstring for the schema).

    ``interrupted`` marks a run stopped part-way (Ctrl-C): ``results`` then holds the claims that
    finished. ``evidence``: the provenance of the evidence bundle the trained claims read
    (:mod:`seqtheory.proofs_checks.evidence`), recorded as ``environment.evidence``."""
    env = environment_info(device)
    if evidence is not None:
        env["evidence"] = evidence
    created = _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")
    claims = [claim_record(r, seed, profile, evidence) for r in results]
    return {
        "schema_version": SCHEMA_VERSION,
        "seqtheory_version": package_version(),
        "git_commit": env["git_commit"],
        "created_utc": created,
        "seed": seed, "profile": profile, "device": device, "controls": controls,
        "interrupted": interrupted,
        "runs": [{"created_utc": created, "git_commit": env["git_commit"],
                  "claims": [c["id"] for c in claims]}],
        "environment": to_jsonable(env),
        "claims": claims,
    }


# --------------------------------------------------------------------------- partial runs
def merge_problem(old: dict, new: dict, claim_versions: dict[str, int],
                  rule_versions: dict[str, str] | None = None) -> str | None:
    """Why the records of ``new`` must not be merged into the report ``old`` (``None`` when they
    may): another seed, profile, device or seqtheory version, or an ``old`` record, kept by the
    merge, of a claim that is no longer registered, of another version of it, or decided by
    another version of its rule.

    ``claim_versions`` maps every registered claim id to its current ``claim_version``;
    ``rule_versions`` (optional) each id to its rule's current version
    (:func:`~seqtheory.proofs_checks.rule_versions.rule_fingerprint`)."""
    for key in ("seed", "profile", "device", "seqtheory_version"):
        if old[key] != new[key]:
            return f"it was made with {key} {old[key]!r}, this run uses {new[key]!r}"
    if _evidence_id(old) != _evidence_id(new):
        return (f"its trained claims read {_evidence_id(old) or 'this machine’s runs'}, this run "
                f"reads {_evidence_id(new) or 'this machine’s runs'} (evidence is never mixed)")
    rerun = {c["id"] for c in new["claims"]}
    for c in old["claims"]:
        if c["id"] in rerun:
            continue
        if c["id"] not in claim_versions:
            return f"it holds claim {c['id']!r}, which is no longer registered"
        if c["claim_version"] != claim_versions[c["id"]]:
            return (f"it holds version {c['claim_version']} of claim {c['id']!r}, "
                    f"not the current {claim_versions[c['id']]}")
        if rule_versions is not None and c["rule"]["version"] != rule_versions.get(c["id"]):
            return (f"its record of claim {c['id']!r} was decided by rule version "
                    f"{c['rule']['version'] or 'unknown'}, not the current "
                    f"{rule_versions.get(c['id'])}")
    return None


def merge_reports(old: dict, new: dict, order: list[str]) -> dict:
    """``new``'s records merged into ``old`` (check :func:`merge_problem` first): ``new``'s
    claims replace their records and are marked ``rerun``; the other records of ``old`` are
    kept, unmarked (``rerun`` names the claims of ``new`` only); records are listed in ``order``
    (registered claim ids), unknown ids last. The header (version, commit, time, environment,
    ``interrupted``) is ``new``'s; ``controls`` holds when every merged record's control ran
    (:func:`control_ran`); ``runs`` is ``old``'s runs followed by ``new``'s."""
    by_id = {c["id"]: dict(c, rerun=False) for c in old["claims"]}
    for c in new["claims"]:
        by_id[c["id"]] = dict(c, rerun=True)
    rank = {cid: i for i, cid in enumerate(order)}
    claims = sorted(by_id.values(), key=lambda c: (rank.get(c["id"], len(rank)), c["id"]))
    return dict(new, controls=bool(claims) and all(control_ran(c) for c in claims),
                runs=old["runs"] + new["runs"], claims=claims)


def control_ran(c: dict) -> bool:
    """Whether a claim record's negative control was run (it has a control outcome, or the
    control crashed or was missing: ``control_error``)."""
    return c["control"] is not None or c["control_error"] is not None


def stale_figures(old: dict | None, new: dict) -> list[str]:
    """Figure paths (relative to the report folder) that ``old`` lists and ``new`` does not."""
    if old is None:
        return []
    keep = {f for c in new["claims"] for f in c["figures"]}
    return sorted({f for c in old["claims"] for f in c["figures"]} - keep)


# --------------------------------------------------------------------------- tally
_REJECTED = {"separated": "rejected", "not separated": "rejected but not separated",
             "unknown": "rejected (separation unknown)"}


def tally(claims: list[dict]) -> dict[str, int]:
    """How many records carry each verdict (``crashed`` for a check without one), and the
    control outcomes (``control rejected`` / ``control rejected but not separated`` /
    ``control rejected (separation unknown)`` (:func:`control_separation`) / ``control NOT
    rejected`` / ``control crashed``), in a fixed order; zero counts are left out."""
    counts = {k: 0 for k in (*_VERDICTS, "crashed",
                             *(f"control {s}" for s in (*_REJECTED.values(), "NOT rejected",
                                                        "crashed")))}
    for c in claims:
        counts[c["verdict"] or "crashed"] += 1
        if control_state(c):
            counts[f"control {control_state(c)}"] += 1
    return {k: v for k, v in counts.items() if v}


def control_separation(claim_verdict: str | None,
                       rule_verdicts: Sequence[str | None] | None) -> tuple[str, str]:
    """Whether the claim's decision rule told a rejected negative control apart from the claim:
    ``("separated", "")`` when some verdict the rule returned on the control (``rule_verdicts``,
    values of :class:`~seqtheory.proofs_checks.registry.Verdict`) differs from the one it returned
    on the claim's own evidence (``claim_verdict``), whichever verdicts they are (a confirmed
    claim whose wrong variant is left inconclusive is separated; the rule need not refute it);
    ``("not separated", why)`` when every one is the claim's verdict (typically ``inconclusive``
    on both: the rule does not accept the wrong variant, but nothing shows that the check can
    tell it apart, i.e. its power);
    ``("unknown", why)`` when that cannot be told: the check crashed, the rule named no verdict on
    some call, or ``rule_verdicts`` is ``None`` (a report written before they were recorded)."""
    if rule_verdicts is None:
        return "unknown", ("this record comes from a run made before the rule's verdicts were "
                           "recorded (re-run it with --controls)")
    if claim_verdict is None:
        return "unknown", "the check crashed"
    if not rule_verdicts:
        return "unknown", "no call of the rule was recorded"
    if None in rule_verdicts:
        k = list(rule_verdicts).index(None) + 1
        return "unknown", f"the rule named no verdict on its call {k}"
    if all(v == claim_verdict for v in rule_verdicts):
        return "not separated", (f"the claim's rule returned {claim_verdict} on the control, as "
                                 "on the claim, so the control does not show that the check "
                                 "can tell the wrong variant apart")
    return "separated", ""


def _separation(c: dict) -> tuple[str, str]:
    return control_separation(c["verdict"], c["control"].get("rule_verdicts"))


#: the marks on a verdict for its control's outcome (:func:`control_state`) in the closing
#: table and report.md's summary, with the legend printed under them ("" for a mark that says it
#: all)
CONTROL_MARKS = {
    "rejected but not separated": ("*", "control rejected but not separated: the rule gave it the "
                                        "claim's own verdict (no evidence of the check's power)"),
    "rejected (separation unknown)": ("†", "control rejected, separation unknown "
                                           "(see report.md)"),
    "NOT rejected": (" (CONTROL NOT REJECTED)", ""),
    "crashed": (" (control crashed)", ""),
}


def marked_verdict(c: dict) -> str:
    """A claim record's verdict (``CRASHED`` without one) with its control's mark
    (:data:`CONTROL_MARKS`)."""
    return (c["verdict"] or "CRASHED") + CONTROL_MARKS.get(control_state(c), ("", ""))[0]


def mark_legend(claims: list[dict]) -> list[str]:
    """The legend lines (``* control rejected but not separated: ...``) of the marks that
    ``claims`` carry."""
    return [f"{mark} {legend}" for state, (mark, legend) in CONTROL_MARKS.items()
            if legend and any(control_state(c) == state for c in claims)]


def control_state(c: dict) -> str:
    """A claim record's control outcome as the tally counts it (after ``control ``):
    ``rejected``, ``rejected but not separated``, ``rejected (separation unknown)``
    (:func:`control_separation`) or ``NOT rejected``; ``crashed`` for a control that crashed,
    ``""`` when no control ran."""
    if c["control"] is None:
        return "crashed" if c.get("control_error") else ""
    if not c["control"]["rejected"]:
        return "NOT rejected"
    return _REJECTED[_separation(c)[0]]


def tally_line(claims: list[dict]) -> str:
    """One line: ``33 claims: 20 confirmed, 4 refined, ...; controls: 33 rejected``."""
    counts = tally(claims)
    verdicts = ", ".join(f"{v} {k}" for k, v in counts.items() if not k.startswith("control"))
    ctl = ", ".join(f"{v} {k.removeprefix('control ')}" for k, v in counts.items()
                    if k.startswith("control"))
    n = len(claims)
    head = f"{counted(n, 'claim')}: {verdicts or 'none'}"
    return head + (f"; controls: {ctl}" if ctl else "")


def tally_lines(claims: list[dict]) -> list[str]:
    """One tally line per group of :func:`group_by_paper` (``[DEPTH] claims: 17 claims: 5
    confirmed, ...``): the papers' claims are counted apart from the background facts, the
    audits and the package's own findings (SPEC §3)."""
    return [f"{GROUP_NAMES.get(p, p)}: {tally_line(cl)}" for p, cl in group_by_paper(claims).items()]


def format_stat(v: Any, spec: str = ".3g", why: str | None = None) -> str:
    """A statistic as key figures, notes and report.md show it: ``format(v, spec)`` for a number,
    and ``n/a`` for one that could not be computed (``None``, NaN, ``"nan"``), followed by
    `` (why)`` when the caller gives the reason (``format_stat(tau, ".2f", "every run reached
    the same length")``). A key figure never shows ``nan``."""
    if v is None or v == "nan" or v != v:                     # v != v: NaN of any number type
        return "n/a" + (f" ({why})" if why else "")
    return format(v, spec)


_BARE_NAN = re.compile(r"(?<![\w.])[-+]?nan(?!\w)", re.IGNORECASE)


def _no_bare_nan(text: str) -> str:
    """``text`` with every bare ``nan`` (a statistic formatted without :func:`format_stat`) as
    ``n/a``: the last guard that a key figure or note never shows ``nan``."""
    return _BARE_NAN.sub("n/a", text)


def format_number(v: Any, digits: int = 4) -> str:
    """A value as report.md shows it: floats to ``digits`` significant digits (``0.3333``,
    ``1.235e-13``), NaN (``nan`` / ``"nan"``: e.g. the standard error of a single seed) as
    ``n/a`` (:func:`format_stat`), everything else as ``str``."""
    if isinstance(v, float) or v == "nan":
        return format_stat(v, f".{digits}g")
    return str(v)


def _rounded(v: Any) -> Any:
    """``v`` with every float (nested in lists / dicts) rounded for display."""
    if isinstance(v, float):
        return format_number(v) if math.isnan(v) else float(format_number(v))
    if v == "nan":
        return "n/a"
    if isinstance(v, dict):
        return {k: _rounded(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_rounded(x) for x in v]
    return v


def _md_escape(s: Any) -> str:
    return format_number(s).replace("|", "\\|").replace("\n", " ")


def md_table(rows: list[dict]) -> str:
    """A markdown table of row dicts (columns in first-seen order; cells via
    :func:`format_number`)."""
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


PAPER_TITLES = {"DEPTH": "[DEPTH] Why Depth Matters in Parallelizable Sequence Models (arXiv:2603.05573)",
                "HEAD": "[HEAD] Toward a First-Principles Update Geometry for the Language-Model "
                        "Head (arXiv:2608.22253)",
                "textbook": "Background (textbook facts guarding the machinery)",
                "audit": "Dataset and task audits",
                "finding": "Findings of the package (not claims of either paper; never counted "
                           "for or against them)"}

#: short names of the groups in tally lines
GROUP_NAMES = {"DEPTH": "[DEPTH] claims", "HEAD": "[HEAD] claims", "textbook": "background",
               "audit": "audits", "finding": "package findings (not the papers')"}


def group_by_paper(claims: list[dict]) -> dict[str, list[dict]]:
    """Claim records grouped by ``source.paper``: [DEPTH], [HEAD], background, audits, others."""
    groups: dict[str, list[dict]] = {}
    for c in claims:
        groups.setdefault(c["source"]["paper"], []).append(c)
    order = [p for p in PAPER_TITLES if p in groups] + [p for p in groups if p not in PAPER_TITLES]
    return {p: groups[p] for p in order}


def _evidence_lines(ev: dict) -> list[str]:
    lines = []
    for k, v in ev.items():
        v = _rounded(v)
        text = json.dumps(v, sort_keys=False) if isinstance(v, (dict, list)) else format_number(v)
        if len(text) > 400:
            text = text[:400] + " … (full value in report.json)"
        lines.append(f"- `{k}`: {text}")
    return lines


def _paper_citation(cl: list[dict]) -> str:
    """The paper's reference, once per paper (the first record's; the claims share it)."""
    s = cl[0]["source"]
    return (s["reference"] or s["paper"]) + (f", arXiv:{s['arxiv']}" if s["arxiv"] else "")


def _claim_markdown(c: dict) -> list[str]:
    s = c["source"]
    where = ", ".join(x for x in (s["version"] if s["arxiv"] else "", s["location"]) if x)
    L = ["", f"### {c['id']}" + (" (re-run)" if c["rerun"] else ""), "",
         f"**{c['title']}**" + (f" — {where}" if where else ""), "",
         f"> {c['statement']}", ""]
    if c.get("premise"):
        L += [f"Premise (sourced, not checked; the verdict does not cover it): "
              f"{c['premise']['text']} — source: {c['premise']['source']}", ""]
    L += [f"**Verdict: {c['verdict'] or 'CRASHED'}** — {c['key_figure']}", ""]
    if c["notes"]:
        L += [c["notes"], ""]
    L += readings_markdown(c) + [rule_line(c), ""]
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
        L += [f"Negative control crashed: `{_last_line(c['control_error'])}`", ""]
    L += [f"Reproduce: `{c['reproduce']}` ({format_number(float(c['seconds']), 3)} s)", ""]
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


def rule_line(c: dict) -> str:
    """The claim's decision-rule version and the seed's status (:mod:`.rule_versions`)."""
    r = c["rule"]
    text = f"Decision rule: version `{r['version'] or 'none'}`"
    if r["recorded"]:
        text += f", recorded {r['recorded']} ({r['change']})"
    extra = _SEED_STATUS[r["seed_status"]]
    return text + (f"; {extra}." if extra else ".")


def control_outcome(c: dict) -> str:
    """How a claim record's negative control came out, in words: ``rejected``, ``rejected but
    not separated (why)``, ``rejected (separation unknown: why)`` (:func:`control_separation`),
    ``NOT rejected — the check is broken``, or ``crashed (the error's last line)``; ``""`` when
    no control ran."""
    if c["control"] is None:
        return f"crashed ({_last_line(c['control_error'])})" if c.get("control_error") else ""
    if not c["control"]["rejected"]:
        return "NOT rejected — the check is broken"
    state, why = _separation(c)
    if state == "separated":
        return "rejected"
    if state == "unknown":
        return f"rejected (separation unknown: {why})"
    return f"rejected but not separated ({why})"


def _last_line(text: str) -> str:
    return text.strip().splitlines()[-1] if text.strip() else text


def _evidence_id(report: dict) -> str | None:
    """The evidence bundle a report's trained claims read (its description), or None."""
    from .evidence import describe

    ev = report.get("environment", {}).get("evidence")
    return describe(ev) if ev else None


def render_markdown(report: dict) -> str:
    """report.md: readable on its own (statement, source, verdict, evidence, figures, reproduce).

    Each paper's reference is given once, in its section header; numbers are shown to four
    significant digits (report.json holds them in full); an undefined value (NaN) reads ``n/a``."""
    L = ["# seqtheory verification report", "",
         f"seqtheory {report['seqtheory_version']}, commit `{report['git_commit']}`, "
         f"profile `{report['profile']}`, seed {report['seed']}, device `{report['device']}`, "
         f"created {report['created_utc']} (UTC).", ""]
    if _evidence_id(report):
        ev = report['environment']['evidence']
        L += [f"**Trained claims read an {_evidence_id(report)}**, folder "
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
              f"from the "
              f"last one ({report['runs'][-1]['created_utc']}).", ""]
    L += ["Verdicts: **confirmed** (exact computation / exhaustive enumeration), **supported** "
          "(numerical evidence within stated tolerances), **refuted** (a counterexample), "
          "**refined** (holds but not tight, or needs a named hypothesis; the tight value is given), "
          "**inconclusive** (the evidence cannot decide; the reason is given).", "",
          f"Tally: {tally_line(report['claims'])}.", ""]
    L += [f"- {line}" for line in tally_lines(report["claims"])] + ["", "## Summary", ""]
    groups = group_by_paper(report["claims"])
    for paper, cl in groups.items():
        L += [f"### {PAPER_TITLES.get(paper, paper)}", ""]
        L.append(md_table([{"claim": f"[`{c['id']}`](#{c['id'].replace('.', '')})",
                             "verdict": marked_verdict(c), "key figure": c["key_figure"]}
                            for c in cl]))
    legend = mark_legend(report["claims"])
    if legend:
        L += ["\n".join(f"{line}  " for line in legend), ""]
    for paper, cl in groups.items():
        L += ["", f"## {PAPER_TITLES.get(paper, paper)}", "", _paper_citation(cl)]
        for c in cl:
            L += _claim_markdown(c)
    env = report["environment"]
    L += ["## Environment", "",
          md_table([{"package": k, "version": "not installed" if v is None else v}
                     for k, v in env["versions"].items()]),
          f"Platform: {env['platform']}", ""]
    return "\n".join(L)


def write_report(report: dict, out_dir: str | Path, stem: str = "report") -> tuple[Path, Path]:
    """Write ``<stem>.json`` (strict JSON) and ``<stem>.md`` (default report.json / report.md)
    into ``out_dir`` atomically, both or neither (an interrupted or failed write leaves the
    previous pair, :func:`~seqtheory.theory._io.atomic_write_files`); returns both paths.
    ``ValueError`` when ``report`` does not follow the schema (:func:`validate_report`);
    ``OSError`` (naming the file) when a file cannot be written."""
    validate_report(report)
    out = Path(out_dir)
    text = json.dumps(report, indent=2, allow_nan=False) + "\n"
    md = render_markdown(report)
    j, m = atomic_write_files({out / f"{stem}.json": text.encode(),
                               out / f"{stem}.md": md.encode()})  # both or neither
    return j, m


# --------------------------------------------------------------------------- schema check
_VERDICTS = ("confirmed", "supported", "refuted", "refined", "inconclusive")


def _is_num(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _is(*types: type) -> Any:
    return lambda v: isinstance(v, types) and not (isinstance(v, bool) and bool not in types)


def _one_of(*values: Any) -> Any:
    return lambda v: v in values and not isinstance(v, bool)


def _or_null(pred: Any) -> Any:
    return lambda v: v is None or pred(v)


def _list_of(pred: Any) -> Any:
    return lambda v: isinstance(v, list) and all(pred(x) for x in v)


_TOP = {"schema_version": _one_of(SCHEMA_VERSION), "seqtheory_version": _is(str),
        "git_commit": _is(str), "created_utc": _is(str), "seed": _is(int),
        "profile": _one_of(*PROFILES), "device": _one_of("cpu", "cuda"),
        "controls": _is(bool), "interrupted": _is(bool), "runs": _is(list),
        "environment": _is(dict), "claims": _is(list)}
_RUN = {"created_utc": _is(str), "git_commit": _is(str), "claims": _list_of(_is(str))}
_READING = {"reading": _is(str), "outcome": _one_of(*_VERDICTS), "why": _is(str),
            "finding": _is(str)}
_RULE = {"version": _is(str), "recorded": _is(str), "change": _is(str),
         "seed_status": _one_of("seen", "out-of-sample", "not applicable", "unrecorded")}
_CLAIM = {"id": _is(str), "aliases": _list_of(_is(str)), "claim_version": _is(int),
          "title": _is(str), "source": _is(dict), "statement": _is(str),
          "status": _one_of("ok", "crashed"), "verdict": _or_null(_one_of(*_VERDICTS)),
          "key_figure": _is(str), "notes": _is(str), "evidence": _is(dict),
          "tables": lambda v: isinstance(v, dict) and all(
              _list_of(_is(dict))(rows) for rows in v.values()),
          "figures": _list_of(_is(str)), "error": _or_null(_is(str)),
          "control": _or_null(_is(dict)), "control_error": _or_null(_is(str)),
          "seconds": _is_num, "control_seconds": _or_null(_is_num), "rerun": _is(bool),
          "reproduce": _is(str),
          "readings": _list_of(lambda r: isinstance(r, dict) and set(r) == set(_READING)
                               and all(ok(r[k]) for k, ok in _READING.items())),
          "rule": lambda v: isinstance(v, dict) and set(v) == set(_RULE)
          and all(ok(v[k]) for k, ok in _RULE.items())}
_SOURCE = {k: _is(str) for k in ("paper", "arxiv", "version", "location", "reference")}
_CONTROL = {"variant": _is(str), "rejected": _is(bool), "reason": _is(str),
            "evidence": _is(dict)}
#: optional keys of a control (absent from reports written before they were recorded)
#: optional keys of a claim record, and the keys of its premise
_PREMISE = {"text": _is(str), "source": _is(str)}
_CLAIM_OPTIONAL = {"premise": lambda v: isinstance(v, dict) and set(v) == set(_PREMISE)
                   and all(ok(v[k]) for k, ok in _PREMISE.items())}
_CONTROL_OPTIONAL = {"rule_verdicts": _list_of(_or_null(_one_of(*_VERDICTS)))}
_ENV = {"versions": lambda v: isinstance(v, dict) and all(
            x is None or isinstance(x, str) for x in v.values()),
        "platform": _is(str), "machine": _is(str), "device": _is(str), "git_commit": _is(str)}


def _check_keys(d: Any, spec: dict, where: str, extra_ok: bool = False,
                optional: dict | None = None) -> None:
    if not isinstance(d, dict):
        raise ValueError(f"{where}: expected an object, got {type(d).__name__}")
    missing = [k for k in spec if k not in d]
    if missing:
        raise ValueError(f"{where}: missing {plural_of(len(missing), 'key')} {missing}")
    known = {**spec, **{k: ok for k, ok in (optional or {}).items() if k in d}}
    extra = [k for k in d if k not in known]
    if extra and not extra_ok:
        raise ValueError(f"{where}: unexpected {plural_of(len(extra), 'key')} {extra}")
    for k, ok in known.items():
        if not ok(d[k]):
            raise ValueError(f"{where}.{k}: unexpected value {d[k]!r:.80}")


def _check_json_leaves(v: Any, where: str) -> None:
    if isinstance(v, dict):
        for k, x in v.items():
            if not isinstance(k, str):
                raise ValueError(f"{where}: key {k!r} is not a string")
            _check_json_leaves(x, f"{where}.{k}")
    elif isinstance(v, list):
        for i, x in enumerate(v):
            _check_json_leaves(x, f"{where}[{i}]")
    elif isinstance(v, float):
        if not math.isfinite(v):
            raise ValueError(f"{where}: non-finite number {v!r} (must be written as a string)")
    elif not (v is None or isinstance(v, (bool, int, str))):
        raise ValueError(f"{where}: {type(v).__name__} is not a JSON value")


def validate_report(doc: Any) -> None:
    """Check a report.json document against the schema of this module's docstring: every key
    present with its type, no unexpected key, verdicts and statuses from their sets, a crashed
    claim without verdict and with its error, strict-JSON leaves (no NaN, only str keys).
    Raises ``ValueError`` naming the first offending key (``claims[3].verdict``)."""
    if isinstance(doc, dict) and doc.get("schema_version") not in (None, SCHEMA_VERSION):
        raise ValueError(f"report.schema_version is {doc['schema_version']!r}, this seqtheory "
                         f"reads {SCHEMA_VERSION}: the report was written by another version; "
                         f"re-run `seqtheory verify`")
    _check_keys(doc, _TOP, "report")
    for i, run in enumerate(doc["runs"]):
        _check_keys(run, _RUN, f"report.runs[{i}]")
    try:
        _dt.datetime.fromisoformat(doc["created_utc"])
    except ValueError:
        raise ValueError(f"report.created_utc: not ISO 8601: {doc['created_utc']!r}") from None
    _check_keys(doc["environment"], _ENV, "report.environment", extra_ok=True)
    for i, c in enumerate(doc["claims"]):
        where = f"claims[{i}]"
        _check_keys(c, _CLAIM, where, optional=_CLAIM_OPTIONAL)
        _check_keys(c["source"], _SOURCE, f"{where}.source")
        if c["control"] is not None:
            _check_keys(c["control"], _CONTROL, f"{where}.control", optional=_CONTROL_OPTIONAL)
        crashed = c["status"] == "crashed"
        if crashed != (c["verdict"] is None) or crashed != (c["error"] is not None):
            raise ValueError(f"{where}: status {c['status']!r}, verdict {c['verdict']!r} and "
                             f"error {'set' if c['error'] else 'null'} disagree")
    _check_json_leaves(doc, "report")

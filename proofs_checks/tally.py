"""Counting a report's claim records: verdicts, the outcomes of the negative controls (and
whether the claim's rule told a control apart from the claim), the marks on a verdict, and the
grouping by paper (the papers' claims apart from background facts, audits and the package's own
findings, SPEC §3). Shared by report.md, the terminal and ``seqtheory cite``; the words are
those of :mod:`seqtheory.proofs_checks.glossary`."""
from __future__ import annotations

from typing import Sequence

from seqtheory.theory._messages import counted

from .plain_text import last_line
from .registry import PAPER_TITLE

__all__ = ["VERDICT_ORDER", "tally", "tally_line", "tally_lines", "control_separation",
           "control_state", "control_outcome", "control_ran", "CONTROL_MARKS", "marked_verdict",
           "mark_legend", "PAPER_TITLES", "GROUP_NAMES", "group_by_paper"]


#: the verdicts in the order the tally lists them
VERDICT_ORDER = ("confirmed", "supported", "refuted", "refined", "inconclusive")


# --------------------------------------------------------------------------- tally
#: the tally's word for each answer of :func:`control_separation` on a rejected control (the
#: words are defined in :data:`~seqtheory.proofs_checks.glossary.CONTROL_OUTCOMES`)
_REJECTED = {"separated": "rejected", "not separated": "unseparated",
             "unknown": "separation unknown"}


def tally(claims: list[dict]) -> dict[str, int]:
    """How many records carry each verdict (``crashed`` for a check without one), and the
    control outcomes (``control rejected`` / ``control unseparated`` / ``control separation
    unknown`` (:func:`control_separation`) / ``control NOT rejected`` / ``control crashed``;
    the words of :data:`~seqtheory.proofs_checks.glossary.CONTROL_OUTCOMES`), in a fixed order;
    zero counts are left out. An unseparated control is not counted as rejected."""
    counts = {k: 0 for k in (*VERDICT_ORDER, "crashed",
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
    "unseparated": ("*", "control unseparated: the rule gave the wrong variant the claim's own "
                         "verdict, so the control is no evidence of the check's power"),
    "separation unknown": ("†", "control rejected, separation unknown (see report.md)"),
    "NOT rejected": (" (CONTROL NOT REJECTED)", ""),
    "crashed": (" (control crashed)", ""),
}


def marked_verdict(c: dict) -> str:
    """A claim record's verdict (``CRASHED`` without one) with its control's mark
    (:data:`CONTROL_MARKS`)."""
    return (c["verdict"] or "CRASHED") + CONTROL_MARKS.get(control_state(c), ("", ""))[0]


def mark_legend(claims: list[dict]) -> list[str]:
    """The legend lines (``* control unseparated: ...``) of the marks that
    ``claims`` carry."""
    return [f"{mark} {legend}" for state, (mark, legend) in CONTROL_MARKS.items()
            if legend and any(control_state(c) == state for c in claims)]


def control_state(c: dict) -> str:
    """A claim record's control outcome as the tally counts it (after ``control ``):
    ``rejected``, ``unseparated``, ``separation unknown`` (:func:`control_separation`) or
    ``NOT rejected``; ``crashed`` for a control that crashed,
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


PAPER_TITLES = {"DEPTH": f"[DEPTH] {PAPER_TITLE['DEPTH']} (arXiv:2603.05573)",
                "HEAD": f"[HEAD] {PAPER_TITLE['HEAD']} (arXiv:2608.22253)",
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


def control_outcome(c: dict) -> str:
    """How a claim record's negative control came out, in words: ``rejected``, ``unseparated
    (why)``, ``separation unknown (why)`` (:func:`control_separation`), ``NOT rejected — the
    check is broken``, or ``crashed (the error's last line)``; ``""`` when no control ran."""
    if c["control"] is None:
        return f"crashed ({last_line(c['control_error'])})" if c.get("control_error") else ""
    if not c["control"]["rejected"]:
        return "NOT rejected — the check is broken"
    state, why = _separation(c)
    if state == "separated":
        return "rejected"
    if state == "unknown":
        return f"rejected, separation unknown ({why})"
    return f"unseparated ({why})"



def control_ran(c: dict) -> bool:
    """Whether a claim record's negative control was run (it has a control outcome, or the
    control crashed or was missing: ``control_error``)."""
    return c["control"] is not None or c["control_error"] is not None

"""Every decision rule can fail and can pass (SPEC §3, "every rule can fail"): for each registered
claim, synthetic evidence that its rule must refute and synthetic evidence that it must support
(or confirm). A rule that cannot refute is a defect, and so is one that cannot support.

The cases live in ``tests/rule_power_*.py``, one file per group of claims, each a dict ``CASES``
mapping a claim id to ``{"refute": fn, "support": fn}`` (and, for a rule that can give
``refined``, ``"refine": fn``); ``fn()`` calls the claim's registered
decision rule (``get_claim(id).decision``, or the module's rule function, which is the same
object) on made-up evidence and returns what the rule returns. The test reads the verdict with
:func:`~seqtheory.proofs_checks.registry.verdict_of` and checks that the call went through the
claim's own rule (:func:`~seqtheory.proofs_checks.registry.recording_decisions`)."""
import importlib
import pathlib

import pytest

from seqtheory.proofs_checks.registry import (Verdict, all_claims, recording_decisions,
                                              verdict_of)

_HERE = pathlib.Path(__file__).parent
_FILES = sorted(p.stem for p in _HERE.glob("rule_power_*.py"))


def _cases() -> dict:
    out: dict = {}
    for name in _FILES:
        for cid, cases in importlib.import_module(name).CASES.items():
            assert cid not in out, f"{cid} has cases in two files"
            out[cid] = (name, cases)
    return out


CASES = _cases()
_EXPECTED = {"refute": (Verdict.REFUTED,), "support": (Verdict.SUPPORTED, Verdict.CONFIRMED),
             "refine": (Verdict.REFINED,)}
#: the kinds every rule must have; "refine" is optional (rules that can give refined)
_REQUIRED = ("refute", "support")


def test_every_rule_has_a_refuting_and_a_supporting_case():
    missing = [f"{c.id}: {kind}" for c in all_claims() for kind in _REQUIRED
               if kind not in CASES.get(c.id, (None, {}))[1]]
    unknown = sorted(set(CASES) - {c.id for c in all_claims()})
    assert not unknown, f"cases for claims that are not registered: {unknown}"
    assert not missing, "decision rules without synthetic evidence that must refute / support: " \
        + "; ".join(missing)


@pytest.mark.parametrize("cid,kind", [(cid, kind) for cid, (_, cases) in sorted(CASES.items())
                                      for kind in cases])
def test_rule_gives_the_expected_verdict(cid, kind):
    with recording_decisions() as log:
        result = CASES[cid][1][kind]()
    assert cid in log, f"the {kind} case of {cid} did not call the claim's registered rule"
    v = verdict_of(result)
    assert v in _EXPECTED[kind], f"{cid}: the {kind} case gave {v}, expected {_EXPECTED[kind]}"

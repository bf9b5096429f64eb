"""Test helper: run a claim's negative control and require that it went through the claim's
registered decision rule (SPEC §3 fidelity rules; :meth:`Claim.decision_rule`) and that each
call of the rule named its verdict."""
from __future__ import annotations

from seqtheory.proofs_checks.registry import Claim, Context, ControlOutcome, recording_decisions


def control_through_rule(claim: Claim, ctx: Context) -> ControlOutcome:
    """Run ``claim.negative_control(ctx)``; fail the test unless the claim has a decision rule
    and the control called it. Returns the control's outcome."""
    assert claim.decision is not None, f"{claim.id} registers no decision rule"
    assert claim.negative_control is not None, f"{claim.id} has no negative control"
    with recording_decisions() as decided:
        out = claim.negative_control(ctx)
    assert claim.id in decided, f"the control of {claim.id} bypassed the claim's decision rule"
    # every call names its verdict, so the report can tell whether the rule separated the
    # control from the claim (report.control_separation)
    assert None not in decided.verdicts_of(claim.id), \
        f"the decision rule of {claim.id} returned no Verdict on its control: {decided.verdicts}"
    return out

"""Test helper: run a claim's negative control and require that it went through the claim's
registered decision rule (SPEC §3 fidelity rules; :meth:`Claim.decision_rule`)."""
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
    return out

"""Every registered claim has a pure decision rule that its check and its negative control both
call (SPEC §3 fidelity rules). The per-module claim tests run each control through
``controls.control_through_rule`` (tests/controls.py); this module checks the registry as a whole."""
from seqtheory.proofs_checks.registry import all_claims


def test_every_claim_registers_a_decision_rule():
    missing = [c.id for c in all_claims() if c.decision is None]
    assert missing == [], f"claims without a registered decision rule: {missing}"


def test_every_claim_has_a_negative_control():
    missing = [c.id for c in all_claims() if c.negative_control is None]
    assert missing == [], f"claims without a negative control: {missing}"

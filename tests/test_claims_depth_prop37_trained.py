"""depth.prop3.7.trained (proofs_checks/claims/depth_prop37_trained.py): the decision rule on
synthetic lengths (its key figure when τ is undefined: tests/test_wrong_answers_kinds.py)."""
from seqtheory.proofs_checks.claims import depth_prop37_trained as p37
from seqtheory.proofs_checks.registry import Verdict

_S, _I, _R = Verdict.SUPPORTED, Verdict.INCONCLUSIVE, Verdict.REFUTED


def test_prop37_rule_monotone_growth():
    assert p37.prop37_decide({1: [3, 3, 4], 2: [6, 7, 6], 3: [10, 9, 12]})[0] == _S
    assert p37.prop37_decide({1: [10, 9, 12], 2: [6, 7, 6], 3: [3, 3, 4]})[0] == _R
    assert p37.prop37_decide({1: [3, 6, 4], 2: [4, 3, 6]})[0] == _I
    assert p37.prop37_decide({1: [4, 4, 4], 2: [4, 4, 4]})[0] == _I

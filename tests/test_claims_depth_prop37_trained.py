"""depth.prop3.7.trained (proofs_checks/claims/depth_prop37_trained.py): the decision rule on
synthetic lengths, per seed block (its key figure when τ is undefined:
tests/test_wrong_answers_kinds.py)."""
from seqtheory.proofs_checks.claims import depth_prop37_trained as p37
from seqtheory.proofs_checks.registry import Verdict

_S, _I, _R = Verdict.SUPPORTED, Verdict.INCONCLUSIVE, Verdict.REFUTED


def _both(a, b=None):
    return {"A": ([0, 1, 2], a), "B": ([3, 4, 5], a if b is None else b)}


def test_prop37_rule_monotone_growth():
    assert p37.prop37_decide(_both({1: [3, 3, 4], 2: [6, 7, 6], 3: [10, 9, 12]}), 3)[0] == _S
    assert p37.prop37_decide(_both({1: [10, 9, 12], 2: [6, 7, 6], 3: [3, 3, 4]}), 3)[0] == _R
    assert p37.prop37_decide(_both({1: [3, 6, 4], 2: [4, 3, 6]}), 3)[0] == _I
    assert p37.prop37_decide(_both({1: [4, 4, 4], 2: [4, 4, 4]}), 3)[0] == _I


def test_prop37_decrease_of_untrained_deeper_models_is_inconclusive():
    # the deepest models stay below their training length 4: they did not train
    v, why, _ = p37.prop37_decide(_both({1: [10, 9, 12], 2: [6, 7, 6], 3: [3, 3, 2]}), 4)
    assert v == _I and "did not fit their training length" in why


def test_prop37_blocks_replicate():
    v, why, per = p37.prop37_decide(_both({1: [3, 3, 4], 2: [6, 7, 6], 3: [10, 9, 12]},
                                          {1: [4, 4, 4], 2: [4, 4, 4]}), 3)
    assert v == _I and "disagree" in why and per["A"][0] == _S and per["B"][0] == _I

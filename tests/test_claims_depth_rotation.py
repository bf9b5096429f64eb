"""depth.exp.rotation (proofs_checks/claims/depth_rotation.py): the decision rule on synthetic
MSEs, seed by seed."""
from seqtheory.proofs_checks.claims import depth_rotation as rot
from seqtheory.proofs_checks.registry import Verdict

_S, _I, _R = Verdict.SUPPORTED, Verdict.INCONCLUSIVE, Verdict.REFUTED


def test_rotation_rule_is_per_seed():
    assert rot.mse_decreasing({1: [1.0, 1.1, 0.9], 2: [0.5, 0.6, 0.4]})[0] == _S
    assert rot.mse_decreasing({1: [0.2, 0.2, 0.2], 2: [0.5, 0.4, 0.6]})[0] == _R
    assert rot.mse_decreasing({1: [1.0, 1.0, 1.0], 2: [0.5, 1.0, 1.2]})[0] == _I
    same = [0.3, 0.2, 0.25]
    assert rot.mse_decreasing({1: same, 2: same})[0] == _I
    assert rot.mse_decreasing({1: [1.0, 1.1, 0.9], 2: [0.5, 0.6, 0.4]}, baseline=1.0)[0] == _S
    v, why = rot.mse_decreasing({1: [0.33, 0.34], 2: [0.32, 0.33]}, baseline=0.333)
    assert v == _I and "constant predictor" in why

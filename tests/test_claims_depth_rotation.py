"""depth.exp.rotation (proofs_checks/claims/depth_rotation.py): the decision rule on synthetic
MSEs, seed by seed, per seed block."""
from seqtheory.proofs_checks.claims import depth_rotation as rot
from seqtheory.proofs_checks.registry import Verdict

_S, _I, _R = Verdict.SUPPORTED, Verdict.INCONCLUSIVE, Verdict.REFUTED


def _both(a, b=None):
    n = len(next(iter(a.values())))
    return {"A": (list(range(n)), a), "B": (list(range(n, 2 * n)), a if b is None else b)}


def _v(mses, baseline=None, b=None):
    return rot.mse_decreasing(_both(mses, b), baseline)


def test_rotation_rule_is_per_seed():
    assert _v({1: [1.0, 1.1, 0.9], 2: [0.5, 0.6, 0.4]})[0] == _S
    assert _v({1: [0.2, 0.2, 0.2], 2: [0.5, 0.4, 0.6]})[0] == _R
    assert _v({1: [1.0, 1.0, 1.0], 2: [0.5, 1.0, 1.2]})[0] == _I
    same = [0.3, 0.2, 0.25]
    assert _v({1: same, 2: same})[0] == _I
    assert _v({1: [1.0, 1.1, 0.9], 2: [0.5, 0.6, 0.4]}, baseline=1.5)[0] == _S
    v, why, _ = _v({1: [0.33, 0.34], 2: [0.32, 0.33]}, baseline=0.333)
    assert v == _I and "constant predictor" in why


def test_a_deeper_model_that_did_not_train_does_not_refute():
    # depth 1 learned (0.2 against a constant predictor's 1.0); depth 2 stays at the constant's MSE
    v, why, _ = _v({1: [0.2, 0.2, 0.2], 2: [0.98, 1.0, 0.99]}, baseline=1.0)
    assert v == _I and "did not train" in why
    assert _v({1: [0.2, 0.2, 0.2], 2: [0.5, 0.4, 0.6]}, baseline=1.0)[0] == _R


def test_rotation_blocks_replicate():
    v, why, _ = _v({1: [1.0, 1.1, 0.9], 2: [0.5, 0.6, 0.4]}, b={1: [1.0, 1.0, 1.0], 2: [0.5, 1.0, 1.2]})
    assert v == _I and "disagree" in why

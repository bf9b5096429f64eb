"""finding.parity_negative_eigenvalues (proofs_checks/claims/finding_parity.py): the decision rule on synthetic
evidence, the seeds of the runs, and the control's token task."""
import numpy as np
import pytest

from seqtheory.proofs_checks.claims import finding_parity as dp
from seqtheory.proofs_checks.registry import Context, Verdict

_S, _I, _R = Verdict.SUPPORTED, Verdict.INCONCLUSIVE, Verdict.REFUTED


def test_parity_rule_counts():
    good = {"signed": [1.0, 1.0, 1.0, 1.0, 0.48], "positive": [0.0, 0.01, 0.0, 0.0, 0.0]}
    v, why, rates = dp.parity_decide(good)
    assert v == _S and rates["signed"]["successes"] == 4
    lo, hi = rates["signed"]["wilson95"]
    assert 0 < lo < 0.8 < hi < 1
    assert dp.parity_decide(dict(good, signed=[1.0, 1.0, 1.0, 0.5, 0.48]))[0] == _I   # 3/5
    assert dp.parity_decide(dict(good, positive=[1.0, 0.0, 0.0, 0.0, 0.0]))[0] == _I  # 1/5 positive
    assert dp.parity_decide(dict(good, positive=[1.0] * 5))[0] == _R
    assert dp.parity_decide({"signed": [0.995] * 3, "positive": [0.2] * 3})[0] == _S  # 3/3


def test_parity_rule_refutes_when_both_arms_succeed():
    """The control's expected evidence: both arms solve a task that needs no memory."""
    v, why, _ = dp.parity_decide({"signed": [1.0] * 5, "positive": [1.0] * 5})
    assert v == _R and "not needed" in why


def test_seeds_come_from_salts():
    ctx = Context(seed=0)
    a = dp.parity_cfgs(ctx, "signed_mamba")
    assert len(a) == dp.PARITY_SEEDS and len({c.seed for c in a}) == dp.PARITY_SEEDS
    assert [c.seed for c in a] == [c.seed for c in dp.parity_cfgs(ctx, "signed_mamba")]
    assert {c.seed for c in a}.isdisjoint(c.seed for c in dp.parity_cfgs(ctx, "mamba"))


def test_token_task_labels_are_the_tokens_with_the_parity_split():
    from seqtheory.models.tasks import WordProblemSpec, make_token_task, make_word_problem
    from seqtheory.models.train import TrainConfig, build_task

    spec = WordProblemSpec(group="C2", train_length=8, n_train=64, n_test=64, seed=3)
    tok, wp = make_token_task(spec), make_word_problem(spec)
    assert np.array_equal(tok.train_tokens, wp.train_tokens)         # the words of parity
    assert np.array_equal(tok.test_tokens, wp.test_tokens)
    assert np.array_equal(tok.train_labels, tok.train_tokens)
    assert np.array_equal(tok.test_labels, tok.test_tokens)
    assert np.array_equal(tok.label(wp.test_tokens), wp.test_tokens)
    assert not np.array_equal(wp.test_labels, wp.test_tokens)        # parity's labels differ
    with pytest.raises(ValueError, match="letters"):
        tok.label(np.array([[0, 2]]))
    cfg = dp.token_cfgs(Context(seed=0), "mamba")[0]
    assert cfg.task == "C2.token" and cfg.steps == dp.PARITY_CONTROL_STEPS
    assert isinstance(build_task(cfg), type(tok))
    with pytest.raises(ValueError, match="task must be"):
        TrainConfig(task="C2.tokens", model="mamba")


def test_parity_control_plan_uses_both_arms_on_the_token_task():
    ctx = Context(seed=0)
    plan = dp.parity_plan(ctx, True)
    ctl = [c for c in plan if c.task == "C2.token"]
    assert {c.model for c in ctl} == {"signed_mamba", "mamba"}
    assert len(ctl) == 2 * dp.PARITY_SEEDS
    assert all(c.task == "C2" for c in dp.parity_plan(ctx, False))

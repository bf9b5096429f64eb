"""finding.parity_negative_eigenvalues (proofs_checks/claims/finding_parity.py): the decision rule on synthetic
evidence, the seeds of the runs, and the control's token task."""
import numpy as np
import pytest

from seqtheory.proofs_checks.claims import finding_parity as dp
from seqtheory.proofs_checks.registry import Context, Verdict

_S, _I, _R = Verdict.SUPPORTED, Verdict.INCONCLUSIVE, Verdict.REFUTED


def _rows(signed, positive):
    """Rows of both arms; seeds 0-2 in block A, 3-4 in block B (as seed_blocks splits 5 seeds)."""
    return [{"arm": arm, "seq_acc": a, "block": "A" if i < 3 else "B", "seed_pos": i}
            for arm, accs in (("signed", signed), ("positive", positive)) for i, a in enumerate(accs)]


def test_parity_rule_counts_per_block():
    good = _rows([1.0, 1.0, 1.0, 1.0, 1.0], [0.0, 0.01, 0.0, 0.0, 0.0])
    v, why, stats = dp.parity_decide(good)
    assert v == _S and stats["A"]["stats"]["signed"]["successes"] == 3, why
    assert stats["B"]["stats"]["signed"]["seeds"] == 2
    # 4/5 over all seeds, but the failing seed leaves block B at 1/2: the blocks disagree
    v, why, stats = dp.parity_decide(_rows([1.0, 1.0, 1.0, 1.0, 0.48], [0.0] * 5))
    assert v == _I and "disagree" in why and stats["B"]["verdict"] == "inconclusive", why
    assert dp.parity_decide(_rows([1.0] * 5, [1.0, 0.0, 0.0, 0.0, 0.0]))[0] == _I   # 1/3 positive in A
    assert dp.parity_decide(_rows([1.0] * 5, [1.0] * 5))[0] == _R
    assert dp.parity_decide(_rows([0.2] * 5, [0.1] * 5))[0] == _I     # signed did not train: never against


def test_parity_rule_refutes_when_both_arms_succeed():
    """The control's expected evidence: both arms solve a task that needs no memory."""
    v, why, _ = dp.parity_decide(_rows([1.0] * 5, [1.0] * 5))
    assert v == _R and "not needed" in why


@pytest.mark.parametrize("change, match", [
    ({"arm": "other"}, "arm"), ({"seq_acc": 1.5}, "seq_acc"), ({"block": None}, "lacks 'block'")])
def test_parity_rule_rejects_bad_rows(change, match):
    rows = _rows([1.0] * 5, [0.0] * 5)
    rows[0].update(change)
    rows[0] = {k: v for k, v in rows[0].items() if v is not None}
    with pytest.raises(ValueError, match=match):
        dp.parity_decide(rows)
    with pytest.raises(ValueError, match="both arms"):
        dp.parity_decide([r for r in _rows([1.0] * 5, [0.0] * 5) if r["arm"] == "signed"])


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

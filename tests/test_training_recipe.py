"""Fresh words every step, the length curriculum, the abelian state model and the success-rate
statistics used by the trained claims."""
import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from seqtheory.models.abelian import AbelianStateModel
from seqtheory.models.tasks import WordProblemSpec, make_word_problem
from seqtheory.models.train import (TrainConfig, build_task, length_at_step, train,
                                    training_batch)
from seqtheory.proofs_checks.rates import SeedRule, success_rate, wilson_interval


def _cfg(**kw):
    base = dict(task="S3", model="signed_mamba", train_length=8, steps=30, width=8, n_heads=2,
                d_state=4, batch_size=4, n_train=32, n_test=16, fresh_words=True,
                curriculum_steps=12, curriculum_start=2)
    base.update(kw)
    return TrainConfig(**base)


def test_curriculum_ramps_from_start_to_train_length():
    cfg = _cfg()
    lens = [length_at_step(cfg, s) for s in range(30)]
    assert lens[0] == 2 and lens[12:] == [8] * 18
    assert all(a <= b for a, b in zip(lens, lens[1:]))
    assert length_at_step(_cfg(curriculum_steps=0), 0) == 8


def test_fresh_batches_are_labelled_by_the_group_and_reproducible():
    cfg = _cfg()
    data = build_task(cfg)
    x, y = training_batch(cfg, data, 20)
    assert x.shape == (4, 8) and np.array_equal(y, data.label(x))
    x2, _ = training_batch(cfg, data, 20)
    assert np.array_equal(x, x2)                         # a pure function of (cfg, step)
    assert not np.array_equal(x, training_batch(cfg, data, 21)[0])
    xs, ys = training_batch(_cfg(shuffle_labels=True), data, 20)
    assert np.array_equal(np.sort(ys, axis=0), np.sort(data.label(xs), axis=0))   # permuted rows


def test_word_problem_label_matches_dataset_and_rejects_bad_letters():
    d = make_word_problem(WordProblemSpec("D8", train_length=5, n_train=20, n_test=4))
    assert np.array_equal(d.label(d.train_tokens), d.train_labels)
    with pytest.raises(ValueError, match="letters"):
        d.label(np.array([[8]]))
    with pytest.raises(ValueError, match="shape"):
        d.label(np.array([1, 2]))


def test_curriculum_needs_fresh_words_and_a_sane_start():
    with pytest.raises(ValueError, match="fresh_words"):
        _cfg(fresh_words=False)
    with pytest.raises(ValueError, match="curriculum_start"):
        _cfg(curriculum_start=9)
    with pytest.raises(ValueError, match="depth"):
        _cfg(model="abelian", depth=2)


def test_fresh_words_training_smoke(tmp_path):
    r = train(_cfg(), threads=1)
    assert r["test"]["test_length"] == 16 and len(r["test"]["prefix_seq_acc"]) == 16
    pa = r["test"]["prefix_seq_acc"]
    assert all(a >= b for a, b in zip(pa, pa[1:])) and pa[-1] == r["test"]["seq_acc"]


@settings(max_examples=20, deadline=None)
@given(st.lists(st.integers(0, 5), min_size=1, max_size=7), st.integers(0, 2**16))
def test_abelian_model_is_invariant_under_permuting_the_word(word, seed):
    torch.manual_seed(seed)
    m = AbelianStateModel(6, 3, width=4, hidden=8).double()
    x = torch.tensor([word])
    perm = torch.tensor([list(np.random.default_rng(seed).permutation(word))])
    assert torch.allclose(m(x)[:, -1], m(perm)[:, -1], atol=1e-12)


def test_abelian_model_rejects_bad_input():
    m = AbelianStateModel(4, 2)
    with pytest.raises(ValueError, match="lie in"):
        m(torch.tensor([[4]]))
    with pytest.raises(TypeError):
        m(torch.tensor([[0.5]]))
    with pytest.raises(ValueError):
        AbelianStateModel(0, 2)


def test_abelian_training_run_fp64():
    cfg = TrainConfig(task="rotation_eps", eps=0.1, model="abelian", precision="fp64", train_length=4,
                      steps=20, width=8, batch_size=8, n_train=32, n_test=16, fresh_words=True)
    r = train(cfg, threads=1)
    assert np.isfinite(r["test"]["mse"])


def test_wilson_interval_and_rates():
    lo, hi = wilson_interval(4, 5)
    assert 0.37 < lo < 0.38 and 0.96 < hi < 0.97             # textbook values for 4/5
    assert wilson_interval(0, 5)[0] == pytest.approx(0.0, abs=1e-12)
    r = success_rate([True, True, False])
    assert r["successes"] == 2 and r["seeds"] == 3 and r["rate"] == pytest.approx(2 / 3)
    with pytest.raises(ValueError):
        success_rate([])
    with pytest.raises(ValueError):
        wilson_interval(6, 5)
    with pytest.raises(TypeError):
        wilson_interval(1.0, 5)


def test_seed_rule_counts():
    rule = SeedRule(min_rate=0.8, max_rate=0.0)
    assert rule.required(5) == 4 and rule.required(3) == 3
    assert rule.succeeds(success_rate([1, 1, 1, 1, 0])) and not rule.succeeds(success_rate([1, 1, 1, 0, 0]))
    assert rule.fails(success_rate([0, 0, 0])) and not rule.fails(success_rate([0, 1, 0]))
    with pytest.raises(ValueError):
        SeedRule(min_rate=0.5, max_rate=0.6)


@pytest.mark.slow          # spawns one worker process per CPU (each imports torch)
def test_run_many_trains_each_config_once_in_order(tmp_path):
    from seqtheory.proofs_checks.registry import Context
    from seqtheory.proofs_checks.training_runs import run_many, seeds

    ctx = Context(seed=3, results_dir=tmp_path / "results")
    cfgs = [_cfg(steps=6, seed=s) for s in seeds(ctx, "test", 2)]
    first = run_many(ctx, cfgs)
    assert [r["key"] for r in first] == [c.key for c in cfgs]
    again = run_many(ctx, cfgs)
    assert all(r["from_store"] for r in again)
    assert [r["test"]["seq_acc"] for r in again] == [r["test"]["seq_acc"] for r in first]
    assert seeds(ctx, "test", 3)[:2] == seeds(ctx, "test", 2)        # seed i does not depend on n

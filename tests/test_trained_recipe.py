"""The shared plumbing of the trained claims: the evaluation protocol
(proofs_checks/trained_recipe.py), the arms of a run set (training_runs.run_arms) and the rate
text (rates.rate_text)."""
import pytest

from seqtheory.proofs_checks import trained_recipe as tr
from seqtheory.proofs_checks import training_runs
from seqtheory.proofs_checks.rates import rate_text, success_rate
from seqtheory.proofs_checks.registry import Context


def test_validate_heldout_detects_wrong_length():
    good = {"data": {"train_length": 8, "test_length": 16, "held_out": "yes"}, "test": {"test_length": 16}}
    assert tr.validate_heldout(good) == []
    bad = {"data": {"train_length": 8, "test_length": 8, "held_out": "yes"}, "test": {"test_length": 8}}
    assert tr.validate_heldout(bad)
    assert tr.validate_heldout(dict(good, data=dict(good["data"], test_length=32),
                                    test={"test_length": 32}), 4) == []
    with pytest.raises(RuntimeError, match="protocol broken"):
        tr.check_protocol([dict(bad, key="0123456789abcdef")])


def test_acc_at_reads_the_prefix_accuracy_and_refuses_other_lengths():
    r = {"test": {"prefix_seq_acc": [1.0, 0.5, 0.25]}}
    assert tr.acc_at(r, 2) == 0.5
    for bad in (0, 4):
        with pytest.raises(ValueError, match="length must lie in"):
            tr.acc_at(r, bad)


def test_recipe_overrides_and_the_paper_scale():
    d = tr.recipe(8, 300, width=16)
    assert d["width"] == 16 and d["curriculum_steps"] == 100 and d["warmup"] == 15
    paper = Context(profile="paper")
    assert tr.paper_scale(paper, 128, 2) == {"width": tr.PAPER_RECIPE["width"], "batch_size": 256}
    assert tr.paper_scale(Context(profile="full"), 128, 2) == {}
    assert tr.paper_scale(Context(profile="quick"), 4, 1) == {}


def test_paper_batch_is_the_grid_batch_where_one_run_fits_a_shard():
    import tomllib
    from pathlib import Path

    grid = tomllib.loads((Path(__file__).parents[1] / "sweeps" / "paper_full.toml").read_text())
    assert tr.PAPER_RECIPE["batch_size"] in grid["grid"]["batch_size"]
    assert tr.paper_batch(128, 4) == tr.paper_batch(64, 8) == tr.paper_batch(32, 8) == 256
    assert tr.paper_batch(128, 8) == 32          # A5 depth 8 at T = 128: one run exceeds a shard


def test_run_arms_returns_each_arm_in_order_from_one_call(monkeypatch):
    calls = []

    def fake_run_many(ctx, configs):
        calls.append(list(configs))
        return [f"result {c}" for c in configs]

    monkeypatch.setattr(training_runs, "run_many", fake_run_many)
    out = training_runs.run_arms(Context(seed=0), {"a": [1, 2], "b": [], "c": [3]})
    assert calls == [[1, 2, 3]]
    assert out == {"a": ["result 1", "result 2"], "b": [], "c": ["result 3"]}


def test_rate_text():
    assert rate_text(success_rate([True, True, False])) == "2/3 [0.21, 0.94]"

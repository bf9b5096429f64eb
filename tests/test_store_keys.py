"""Equal configurations have equal store keys (numbers normalised: int vs float, -0.0, numpy
scalars, tuples vs lists), and runs stored under the earlier key format are still found."""
from __future__ import annotations

import dataclasses
import json
from typing import Any

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from seqtheory.models.lm import LMConfig
from seqtheory.models.store import (ResultsStore, canonical_json, config_key,
                                    legacy_config_key)
from seqtheory.models.train import TrainConfig

BASE = dict(task="C2", model="gla", steps=2, train_length=4, n_train=8, n_test=8, width=8,
            n_heads=1, code_revision=3)


def _cfg(**kw) -> TrainConfig:
    return TrainConfig(**{**BASE, **kw})


#: keys as seqtheory's store computed them before numbers were normalised (by the code of that
#: time, on these configurations): the on-disk format the legacy lookup must keep reading
OLD_KEYS = {
    "weight_decay=0": "6e4e015f2bc23bc05ca44da664ba3f8bc42960be6573982e43f6d737da56f433",
    "start=[0, 0, 1]": "0a4de90dc18080e3dff55504c77903c084a570b5c761f5f71e268bf72d4d8610",
    "weight_decay=0, lr=1": "57c7fc68310b9e893426ba5931f866512576e8a68cf3fdb92f2e81e5816f8485",
    "": "61e9b381c108dfd6fd5ed6a403371ff45794efaa0dcf71917d654e8ff49a2c25",
}
OLD_CONFIGS = {"weight_decay=0": dict(weight_decay=0), "start=[0, 0, 1]": dict(start=[0, 0, 1]),
               "weight_decay=0, lr=1": dict(weight_decay=0, lr=1), "": {}}


def _old_format(config: Any) -> tuple[str, str]:
    """``(key, config text)`` as seqtheory stored a run before numbers were normalised: the
    key of :func:`legacy_config_key` (pinned to the old code's values by
    :func:`test_the_legacy_key_is_the_old_format`), the fields as written (``0`` stays ``0``)."""
    return legacy_config_key(config), json.dumps(dataclasses.asdict(config), sort_keys=True,
                                                 separators=(",", ":"))


def _old_format_key(config: Any) -> str:
    return _old_format(config)[0]


@pytest.mark.parametrize("a, b", [
    (dict(weight_decay=0), dict(weight_decay=0.0)),
    (dict(weight_decay=-0.0), dict(weight_decay=0.0)),
    (dict(lr=1), dict(lr=1.0)),
    (dict(grad_clip=np.float64(2)), dict(grad_clip=2)),
    (dict(start=[0, 0, 1]), dict(start=(0.0, 0.0, 1.0))),
    (dict(start=(np.float64(0), -0.0, 1)), dict(start=(0.0, 0.0, 1.0))),
    (dict(task="rotation_eps", eps=1), dict(task="rotation_eps", eps=1.0)),
])
def test_equal_configurations_have_equal_keys(a, b):
    ca, cb = _cfg(**a), _cfg(**b)
    assert config_key(ca) == config_key(cb)
    assert canonical_json(ca) == canonical_json(cb)


def test_different_configurations_have_different_keys():
    assert config_key(_cfg(weight_decay=0.0)) != config_key(_cfg(weight_decay=1e-300))
    assert config_key(_cfg(lr=0.1)) != config_key(_cfg(lr=0.1 + 2 ** -55))
    assert config_key(_cfg(seed=1)) != config_key(_cfg(seed=2))


@settings(max_examples=60, deadline=None)
@given(st.one_of(st.integers(0, 10 ** 6), st.floats(0, 1e6, allow_nan=False)))
@example(0)
@example(-0.0)
@example(2 ** 60)
def test_weight_decay_key_depends_on_the_value_only(x):
    x = abs(x) if isinstance(x, float) else x
    variants = [x, float(x), np.float64(x)]   # TrainConfig takes no other numpy type
    keys = {config_key(_cfg(weight_decay=v)) for v in variants}
    assert len(keys) == 1


def test_unannotated_numbers_are_normalised_too():
    @dataclasses.dataclass(frozen=True)
    class Free:
        params: dict
        items: tuple = ()
        n: int = 3
        x: float = 0.5

    assert config_key(Free({"a": 1, "b": -0.0}, (1, 2.0))) == \
        config_key(Free({"a": 1.0, "b": 0}, [1.0, np.int32(2)]))
    assert config_key(Free({}, x=np.float32(0.5))) == config_key(Free({}, x=0.5))
    assert config_key(Free({}, x=np.int64(2), n=np.int64(3))) == config_key(Free({}, x=2.0))
    assert config_key(Free({"a": 1.5})) != config_key(Free({"a": 1}))
    assert canonical_json(Free({"a": 1.0})) == '{"items":[],"n":3,"params":{"a":1},"x":0.5}'
    with pytest.raises(ValueError):
        canonical_json(Free({"a": float("nan")}))
    with pytest.raises(TypeError, match="ndarray"):
        canonical_json(Free({"a": np.zeros(2)}))


def test_configurations_with_their_fields_types_keep_their_old_keys():
    """Every configuration written with its fields' types (all the CLI, the claims and the sweep
    files make) has the same key as before: existing stores are found without a lookup."""
    for cfg in (_cfg(), TrainConfig(task="S3", model="deltaproduct", depth=2),
                _cfg(task="rotation_eps", eps=0.25), LMConfig()):
        assert config_key(cfg) == legacy_config_key(cfg)


def test_the_legacy_key_is_the_old_format():
    for name, kw in OLD_CONFIGS.items():
        assert legacy_config_key(_cfg(**kw)) == OLD_KEYS[name]
    assert config_key(_cfg()) == OLD_KEYS[""]                  # typed as declared: unchanged
    for name in ("weight_decay=0", "start=[0, 0, 1]", "weight_decay=0, lr=1"):
        assert config_key(_cfg(**OLD_CONFIGS[name])) != OLD_KEYS[name]


def _store_under_old_key(root, cfg, status: str, result=None, lease_until=None) -> str:
    """A store holding one run as seqtheory wrote it before: its row (key and config text of the
    old format), a metric point and a checkpoint file under the old key. Returns the key."""
    import sqlite3
    import time

    import torch

    ResultsStore(root)                                  # the tables
    key, text = _old_format(cfg)
    con = sqlite3.connect(root / "results.sqlite")
    with con:
        con.execute("INSERT INTO runs (key, config, status, owner, lease_until, step, result, "
                    "created, updated) VALUES (?, ?, ?, 'old', ?, 1, ?, ?, ?)",
                    (key, text, status, lease_until, json.dumps(result) if result else None,
                     time.time(), time.time()))
        con.execute("INSERT INTO metrics (key, step, data) VALUES (?, 1, ?)",
                    (key, json.dumps({"loss": 0.25})))
    con.close()
    torch.save({"model": {}, "step": 1}, root / "checkpoints" / f"{key}.pt")
    return key


def test_a_store_written_with_the_old_key_format_is_still_read(tmp_path):
    old_cfg = _cfg(weight_decay=0)                      # int in a float field: the old key differs
    key = _store_under_old_key(tmp_path, old_cfg, "finished", {"test": {"seq_acc": 0.5}})
    assert key != config_key(old_cfg)
    for cfg in (old_cfg, _cfg(weight_decay=0.0), _cfg(weight_decay=-0.0)):  # asked any way
        store = ResultsStore(tmp_path)
        assert store.key_of(cfg) == key
        assert store.result(cfg) == {"test": {"seq_acc": 0.5}}
        assert store.metrics(cfg) == [{"loss": 0.25, "step": 1}]
        assert store.load_checkpoint(cfg)["step"] == 1
        assert not store.claim(cfg, "new")             # finished: never trained again
    assert [r.key for r in ResultsStore(tmp_path).runs()] == [key]
    assert ResultsStore(tmp_path).result(_cfg(weight_decay=0.5)) is None   # other runs: none


def test_an_unfinished_old_run_resumes_under_its_old_key(tmp_path):
    key = _store_under_old_key(tmp_path, _cfg(start=[0, 0, 1]), "claimed", lease_until=0.0)
    cfg = _cfg()                                        # start=(0.0, 0.0, 1.0): the same run
    store = ResultsStore(tmp_path)
    assert store.claim(cfg, "new")                      # the old worker's lease expired
    assert store.load_checkpoint(cfg)["step"] == 1      # resumes from the old checkpoint
    store.heartbeat(cfg, "new", step=2)
    store.log_metrics(cfg, 2, {"loss": 0.125})
    store.finish(cfg, "new", {"ok": 1})
    (run,) = store.runs()
    assert (run.key, run.status, run.step) == (key, "finished", 2)
    assert [m["step"] for m in store.metrics(cfg)] == [1, 2]


def test_the_train_command_finds_a_run_stored_with_the_old_key(tmp_path, capsys):
    from seqtheory.proofs_checks.cli import main

    res = {"key": "k", "device": "cpu", "precision": "fp32", "train_time_s": 1.0,
           "final_loss": 0.5, "test": {"seq_acc": 1.0, "seq_acc_train_length": 1.0,
                                       "max_len_90": 8, "test_length": 8}}
    from seqtheory.models.train import CODE_REVISION

    cfg = _cfg(weight_decay=0, lr=1, code_revision=CODE_REVISION)   # as the command builds it
    _store_under_old_key(tmp_path, cfg, "finished", res)
    argv = ["train", "--task", "C2", "--model", "gla", "--steps", "2", "--train-length", "4",
            "--n-train", "8", "--n-test", "8", "--width", "8", "--heads", "1",
            "--weight-decay", "0", "--lr", "1", "--results", str(tmp_path), "--no-progress",
            "--device", "cpu"]
    assert main(argv) == 0
    assert "(from the store, not retrained)" in capsys.readouterr().out


def test_a_new_run_is_stored_under_the_new_key(tmp_path):
    store = ResultsStore(tmp_path)
    cfg = _cfg(weight_decay=0)
    assert store.claim(cfg, "me")
    (run,) = store.runs()
    assert run.key == config_key(cfg) and run.config["weight_decay"] == 0.0
    assert store.key_of(_cfg(weight_decay=0.0)) == run.key


def test_sweep_status_counts_a_run_stored_with_the_old_key(tmp_path):
    from seqtheory.models.sweep import sweep_status

    _store_under_old_key(tmp_path, _cfg(weight_decay=0), "finished", {"ok": 1})
    st = sweep_status(ResultsStore(tmp_path), [_cfg(weight_decay=0.0), _cfg(weight_decay=0.5)])
    assert (st.finished, st.new) == (1, 1)


def test_the_sweep_report_lists_a_run_stored_with_the_old_key(tmp_path):
    from seqtheory.models.sweep_report import collect_runs

    res = {"device": "cpu", "precision": "fp32", "train_time_s": 1.0, "final_loss": 0.5,
           "test": {"seq_acc": 1.0, "seq_acc_train_length": 1.0, "max_len_90": 8,
                    "test_length": 8}}
    key = _store_under_old_key(tmp_path, _cfg(weight_decay=0), "finished", res)
    rows, skipped = collect_runs(ResultsStore(tmp_path), [_cfg(weight_decay=0.0)])
    assert [r["key"] for r in rows] == [key] and skipped["not_in_config"] == 0


def test_a_task_name_with_spaces_is_refused_not_keyed_apart():
    """Found by review: task=' C2' was accepted and keyed apart from 'C2' (a run trained twice)."""
    from seqtheory.models.train import TrainConfig
    for bad in (" C2", "C2 ", "\tS3"):
        with pytest.raises(ValueError, match="surrounding spaces"):
            TrainConfig(task=bad, model="mamba")


# ------------------------------------------------------------------ one computation, one key
#: spellings that build the same task (same group construction: same elements in the same
#: order, so the same token indices and labels)
TASK_ALIASES = [("H3", "H3(3)", "H3(03)", "H3 (3)"), ("D8", "D_8", "D_{8}", "Dih4", "Dih(4)"),
                ("V4", "Klein", "C2xC2"), ("C1", "trivial", "1"), ("F21", "C7:C3", "C7⋊C3"),
                ("C2", "C02"), ("H3.token", "H3(3).token")]


@pytest.mark.parametrize("names", TASK_ALIASES)
def test_aliases_of_a_task_have_one_key(names):
    keys = {config_key(_cfg(task=n)) for n in names}
    assert len(keys) == 1, names


@pytest.mark.parametrize("names", TASK_ALIASES)
def test_aliases_build_the_same_group_with_the_same_token_order(names):
    """The premise of keying aliases together: the group, its element order (token indices) and
    its Cayley table are identical, so the datasets and labels are too."""
    from seqtheory.models.tasks import canonical_task_name
    from seqtheory.theory.groups import FiniteGroup

    base = [n.removesuffix(".token") for n in names]
    ref = FiniteGroup.named(canonical_task_name(base[0]))
    for n in base:
        g = FiniteGroup.named(n)
        assert list(g.elements) == list(ref.elements)
        assert np.array_equal(g.cayley_table(), ref.cayley_table())


def test_isomorphic_groups_built_differently_are_different_runs():
    """S3 and D6 (both of order 6) index their elements differently: other token ids, other
    labels; they stay two runs. H3(5) is another group than H3."""
    from seqtheory.theory.groups import FiniteGroup

    assert list(FiniteGroup.named("S3").elements) != list(FiniteGroup.named("D6").elements)
    assert config_key(_cfg(task="S3")) != config_key(_cfg(task="D6"))
    assert config_key(_cfg(task="H3")) != config_key(_cfg(task="H3(5)"))
    assert config_key(_cfg(task="C2")) != config_key(_cfg(task="C2.token"))


def test_the_default_test_length_and_its_explicit_value_have_one_key():
    """test_length=None stands for 2 * train_length (the tasks' default): one run."""
    assert config_key(_cfg()) == config_key(_cfg(test_length=8))          # train_length 4
    assert config_key(_cfg(test_length=9)) != config_key(_cfg())
    assert config_key(_cfg(train_length=3, test_length=8)) != config_key(_cfg(test_length=8))
    rot = dict(task="rotation_eps", eps=0.25)
    assert config_key(_cfg(**rot)) == config_key(_cfg(**rot, test_length=8))
    # the data the two spellings build are the same arrays
    from seqtheory.models.train import build_task

    a, b = build_task(_cfg()), build_task(_cfg(test_length=8))
    assert np.array_equal(a.test_tokens, b.test_tokens)
    assert np.array_equal(a.train_labels, b.train_labels)


def test_the_spellings_the_claims_use_keep_their_keys():
    """The canonical spelling is the one the claims and the command line write (test_length
    None, "H3"), so the runs they stored keep their keys (no lookup needed)."""
    for cfg in (_cfg(), _cfg(task="H3"), TrainConfig(task="H3", model="gla")):
        assert config_key(cfg) == legacy_config_key(cfg)


#: keys the previous format (numbers normalised, spellings as given) gave these configurations,
#: computed by that code (git d632bf6, models/store.py)
V1_KEYS = {"test_length=8": "388da8454e573ee525f3681078d1446df3a74d4ed8e3d42978d4defb836801b2",
           "task=H3(3)": "87004c94dd717ea5625f6eda36bb036997c4ce3a43d4542c432348ed9ccbdec4"}


def _store_as_given(root, cfg, key: str, status: str, result=None) -> None:
    """A store row with ``key`` and the configuration's fields as written at the time."""
    import sqlite3
    import time

    ResultsStore(root)
    con = sqlite3.connect(root / "results.sqlite")
    with con:
        con.execute("INSERT INTO runs (key, config, status, owner, step, result, created, "
                    "updated) VALUES (?, ?, ?, 'old', 1, ?, ?, ?)",
                    (key, canonical_json(cfg), status, json.dumps(result) if result else None,
                     time.time(), time.time()))
    con.close()


@pytest.mark.parametrize("name, stored, asked", [
    ("test_length=8", dict(test_length=8), dict()),
    ("task=H3(3)", dict(task="H3(3)"), dict(task="H3", test_length=8)),
])
def test_a_run_stored_under_the_previous_key_format_is_found(tmp_path, name, stored, asked):
    key = V1_KEYS[name]
    assert key != config_key(_cfg(**stored))                 # the key of now differs
    _store_as_given(tmp_path, _cfg(**stored), key, "finished", {"ok": 1})
    store = ResultsStore(tmp_path)
    for cfg in (_cfg(**stored), _cfg(**asked)):
        assert store.key_of(cfg) == key and store.result(cfg) == {"ok": 1}
        assert not store.claim(cfg, "new")                    # never trained again


def test_a_run_stored_before_numbers_were_normalised_is_found_by_an_alias(tmp_path):
    key = _store_under_old_key(tmp_path, _cfg(task="H3(3)", test_length=8, weight_decay=0),
                               "finished", {"ok": 2})
    assert key == "77def35706848865c435ccec301fb1a9ae5461a580fa92abfda135264f939ea1"
    assert ResultsStore(tmp_path).result(_cfg(task="H3", weight_decay=0.0)) == {"ok": 2}


def test_of_two_stored_spellings_of_one_run_the_finished_one_is_found(tmp_path):
    _store_as_given(tmp_path, _cfg(test_length=8), V1_KEYS["test_length=8"], "failed")
    _store_as_given(tmp_path, _cfg(task="H3(3)"), V1_KEYS["task=H3(3)"], "finished", {"ok": 3})
    store = ResultsStore(tmp_path)
    assert store.result(_cfg(task="H3")) == {"ok": 3}
    assert store.result(_cfg(task="H3", test_length=8)) == {"ok": 3}


@pytest.mark.timeout(60)
def test_a_sweep_worker_skips_a_run_stored_under_an_earlier_key(tmp_path):
    """Found while fixing the key format: the worker loop scanned the store by the key of now,
    saw a run stored under an earlier key as new, could not claim it (finished) and scanned
    again, forever."""
    from seqtheory.models.sweep import worker_loop

    _store_as_given(tmp_path, _cfg(task="H3(3)"), V1_KEYS["task=H3(3)"], "finished", {"ok": 1})
    counts = worker_loop(tmp_path, [_cfg(task="H3")], device="cpu", poll_s=0.05,
                         say=lambda *a: None)
    assert counts == {"trained": 0, "failed": 0}


@pytest.mark.parametrize("field", ["shuffle_labels", "fresh_words"])
@pytest.mark.parametrize("value", [1, 0, "False", "yes", None])
def test_flags_take_only_booleans(field, value):
    """Found by review: ``shuffle_labels=1`` was accepted and keyed apart from ``True``, and the
    truthy string ``"False"`` would have shuffled."""
    with pytest.raises(TypeError, match=f"{field} must be True or False"):
        TrainConfig(task="S3", model="mamba", train_length=4, n_train=8, n_test=8, steps=1,
                    **{field: value})


def test_a_numpy_bool_flag_is_the_python_bool():
    import numpy as np

    a = TrainConfig(task="S3", model="mamba", train_length=4, n_train=8, n_test=8, steps=1,
                    shuffle_labels=np.bool_(True))
    b = TrainConfig(task="S3", model="mamba", train_length=4, n_train=8, n_test=8, steps=1,
                    shuffle_labels=True)
    assert a.shuffle_labels is True and a.key == b.key


def test_keyed_config_registers_classes_where_they_are_defined():
    """Configuration classes register themselves (the store keeps the registry); two classes of
    one name would share keys, so the second is refused; a non-dataclass is a TypeError."""
    import dataclasses

    import pytest

    from seqtheory.models.store import keyed_classes, keyed_config
    from seqtheory.models.train import TrainConfig

    assert TrainConfig in keyed_classes()
    assert keyed_config(TrainConfig) is TrainConfig            # re-registering is harmless

    @dataclasses.dataclass(frozen=True)
    class TrainConfig:                                         # noqa: F811 - same name, other class
        steps: int = 1

    with pytest.raises(ValueError, match="'TrainConfig' is registered by seqtheory.models.train"):
        keyed_config(TrainConfig)
    with pytest.raises(TypeError, match="registers a dataclass"):
        keyed_config(int)

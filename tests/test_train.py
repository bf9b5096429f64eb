"""Training: smoke run, resume after a simulated kill, never trains twice, metrics."""
import numpy as np
import pytest

from seqtheory.models.store import ResultsStore
from seqtheory.models.train import TrainConfig, load_model, max_len_at, train

TINY = dict(width=16, n_heads=2, d_state=4, train_length=6, n_train=128, n_test=32, steps=12,
            batch_size=16, log_every=2, checkpoint_every=4, warmup=2)


class Kill(Exception):
    pass


def test_max_len_at():
    c = np.array([[1, 1, 1, 0], [1, 1, 0, 0], [1, 1, 1, 1], [1, 1, 1, 1], [1, 0, 1, 1]], bool)
    assert max_len_at(c, 0.8) == 2 and max_len_at(c, 0.6) == 3 and max_len_at(c, 1.0) == 1
    assert max_len_at(np.zeros((3, 4), bool)) == 0


def test_smoke_and_never_trains_twice(tmp_path):
    st = ResultsStore(tmp_path)
    cfg = TrainConfig(task="S3", model="deltaproduct", **TINY)
    calls = []
    r = train(cfg, store=st, device="cpu", on_progress=calls.append, threads=1)
    assert not r["from_store"] and len(calls) == 6
    assert len(r["test"]["per_position_accuracy"]) == 12 and r["test"]["test_length"] == 12
    assert 0.0 <= r["test"]["seq_acc"] <= 1.0 and r["data"]["convention"] == "left"
    calls.clear()
    r2 = train(cfg, store=st, device="cpu", on_progress=calls.append)
    assert r2["from_store"] and calls == [] and r2["test"] == r["test"]
    m = load_model(cfg, st)
    assert m.cfg.name == "deltaproduct"


def test_resume_after_kill_is_identical(tmp_path):
    cfg = TrainConfig(task="C3", model="signed_mamba", **TINY)
    ref = train(cfg, store=ResultsStore(tmp_path / "a"), device="cpu", threads=1)
    st = ResultsStore(tmp_path / "b")

    def killer(info):
        if info["step"] == 6:
            raise Kill

    with pytest.raises(Kill):
        train(cfg, store=st, device="cpu", on_progress=killer, owner="w1", threads=1)
    assert st.get(cfg).status == "failed" and st.load_checkpoint(cfg)["step"] == 4
    seen = []
    res = train(cfg, store=st, device="cpu", on_progress=seen.append, owner="w2", threads=1)
    assert seen[0]["step"] == 6                      # resumed after the step-4 checkpoint
    assert res["test"] == ref["test"] and res["final_loss"] == ref["final_loss"]


def test_keyboard_interrupt_releases_the_lease(tmp_path):
    st = ResultsStore(tmp_path)
    cfg = TrainConfig(task="C3", model="mamba", **TINY)

    def stop(info):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        train(cfg, store=st, device="cpu", on_progress=stop, owner="w1", threads=1)
    assert st.claim(cfg, "w2")                       # lease given back


def test_regression_task_and_fp64():
    cfg = TrainConfig(task="rotation_eps", model="gla", eps=0.3, precision="fp64", **TINY)
    r = train(cfg, device="cpu", threads=1)
    assert len(r["test"]["per_position_mse"]) == 12 and r["test"]["mse"] >= 0


def test_bad_configs():
    with pytest.raises(ValueError, match="model"):
        TrainConfig(task="S3", model="rnn")
    with pytest.raises(ValueError, match="eps"):
        TrainConfig(task="rotation_eps", model="gla")
    with pytest.raises(ValueError, match="precision"):
        TrainConfig(task="S3", model="gla", precision="fp8")
    with pytest.raises(ValueError, match="device"):
        train(TrainConfig(task="S3", model="gla", **TINY), device="tpu")


def test_wait_for_another_worker(tmp_path):
    st = ResultsStore(tmp_path)
    cfg = TrainConfig(task="C3", model="gla", **TINY)
    assert st.claim(cfg, "other", lease_s=60.0)       # held by a live worker
    with pytest.raises(RuntimeError, match="held by another worker"):
        train(cfg, store=st, device="cpu", threads=1)
    st.heartbeat(cfg, "other", 0, lease_s=0.5)         # its last renewal; then it dies
    r = train(cfg, store=st, device="cpu", threads=1, wait_s=30.0)   # takes over after the lease
    assert not r["from_store"] and st.get(cfg).status == "finished"


@pytest.mark.parametrize("model", ["aussm", "signed_mamba", "gla", "deltaproduct", "transformer"])
def test_bf16_autocast_smoke(model):
    cfg = TrainConfig(task="S3", model=model, precision="bf16", **dict(TINY, steps=4))
    r = train(cfg, device="cpu", threads=1)
    assert np.isfinite(r["final_loss"]) and r["precision"] == "bf16"


# --------------------------------------------------------------------------- `seqtheory train`
_CLI_TINY = ["--task", "C3", "--model", "gla", "--steps", "2", "--width", "8", "--heads", "2",
             "--train-length", "4", "--n-train", "16", "--n-test", "16", "--batch-size", "4",
             "--threads", "1", "--no-progress"]


def test_cli_train_twice_does_not_retrain(tmp_path, capsys):
    from seqtheory.proofs_checks.cli import main

    argv = ["train", *_CLI_TINY, "--device", "cpu", "--results", str(tmp_path)]
    assert main(argv) == 0
    (rec,) = ResultsStore(tmp_path).runs()
    capsys.readouterr()
    assert main(argv) == 0
    assert "from the store, not retrained" in capsys.readouterr().out
    (rec2,) = ResultsStore(tmp_path).runs()
    assert rec2.updated == rec.updated and rec2.status == "finished"


def test_cli_train_bad_store_or_device_is_a_one_line_error(tmp_path, capsys):
    import torch

    from seqtheory.proofs_checks.cli import main

    afile = tmp_path / "afile"
    afile.write_text("x")
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "results.sqlite").write_bytes(b"\x00" * 4096)
    cases = [(afile, "cpu", "exists and is not a folder"),
             (bad, "cpu", "cannot be opened as an SQLite database")]
    if not torch.cuda.is_available():
        cases.append((tmp_path / "fresh", "cuda", "no CUDA GPU"))
    for results, device, word in cases:
        assert main(["train", *_CLI_TINY, "--device", device, "--results", str(results)]) == 2
        err = capsys.readouterr().err
        assert err.startswith("seqtheory train: error:") and word in err and "Traceback" not in err
    assert not (tmp_path / "fresh").exists()  # nothing written for a run that cannot start
    for opt, value in (("--threads", "0"), ("--threads", "-1"), ("--threads", "x"),
                       ("--lr", "nan"), ("--grad-clip", "nan"), ("--weight-decay", "inf"),
                       ("--eps", "nan")):
        with pytest.raises(SystemExit) as ei:
            main(["train", *_CLI_TINY, opt, value, "--results", str(tmp_path / "t")])
        assert ei.value.code == 2
    assert "Traceback" not in capsys.readouterr().err


@pytest.mark.parametrize("field,value", [("depth", 0), ("width", -4), ("seed", -1), ("n_train", 0),
                                         ("train_length", 0), ("grad_clip", float("nan")),
                                         ("weight_decay", float("inf")), ("convention", "middle"),
                                         ("test_length", 3)])
def test_train_config_rejects_bad_fields(field, value):
    from seqtheory.models.train import TrainConfig
    kwargs = {"task": "C2", "model": "mamba", "train_length": 8, field: value}
    with pytest.raises(ValueError, match=field):
        TrainConfig(**kwargs)


def test_train_config_eps_only_for_rotation_eps():
    from seqtheory.models.train import TrainConfig
    with pytest.raises(ValueError, match="eps"):
        TrainConfig(task="C2", model="mamba", eps=0.1)
    assert TrainConfig(task="rotation_eps", model="mamba", eps=0.1).eps == 0.1


@pytest.mark.parametrize("task, model, extra", [
    ("S3", "deltaproduct", {}), ("D8", "aussm", {"shuffle_labels": True}),
    ("C2.token", "signed_mamba", {"n_train": 32, "n_test": 8}), ("A5", "abelian", {}),
    ("rotation_a5", "mamba", {})])
def test_task_shape_is_the_datasets(task, model, extra):
    """``load_model`` rebuilds a model around stored weights from :func:`task_shape` (no words
    generated): its sizes are the dataset's, and the model built from either has the same
    parameters (names and shapes)."""
    from seqtheory.models.train import build_model, build_task, task_shape

    cfg = TrainConfig(task=task, model=model, **dict(TINY, **extra))
    data, shape = build_task(cfg), task_shape(cfg)
    assert shape.vocab_size == data.vocab_size
    if not cfg.is_rotation:
        assert shape.n_classes == data.n_classes
    a, b = build_model(cfg, data).state_dict(), build_model(cfg, shape).state_dict()
    assert {k: v.shape for k, v in a.items()} == {k: v.shape for k, v in b.items()}


def test_loaded_model_reproduces_the_stored_accuracy(tmp_path):
    """The model ``load_model`` rebuilds gives the stored held-out sequence accuracy."""
    import torch

    from seqtheory.models.train import build_task

    st = ResultsStore(tmp_path)
    cfg = TrainConfig(task="C3", model="signed_mamba", **TINY)
    r = train(cfg, store=st, device="cpu", threads=1)
    m, d = load_model(cfg, st), build_task(cfg)
    with torch.no_grad():
        pred = m(torch.as_tensor(d.test_tokens)).argmax(-1).numpy()
    assert float((pred == d.test_labels).all(axis=1).mean()) == pytest.approx(r["test"]["seq_acc"])

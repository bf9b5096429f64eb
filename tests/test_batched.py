"""Batched training (models/batched.py): each run of a stacked group is the run ``train`` trains
alone (float64: same losses, parameters and metrics to 1e-10), per-run optimizer pieces against
torch's own, grouping by shape, the results store, and bad input."""
import dataclasses

import numpy as np
import pytest
import torch
from hypothesis import given, settings, strategies as st

from seqtheory.models.batched import (PER_RUN_FIELDS, VMAP_MODELS, StackedAdamW,
                                      clip_grad_norm_per_run, shape_key, stacked_forward,
                                      train_batched, train_many)
from seqtheory.models.recipe import run_dtype, seed_all
from seqtheory.models.store import ResultsStore
from seqtheory.models.train import TrainConfig, build_model, build_task, load_model, train

TINY = dict(width=16, n_heads=2, d_state=4, train_length=6, n_train=128, n_test=32, steps=6,
            batch_size=8, log_every=2, warmup=2, depth=2, precision="fp64")
TOL = 1e-10


@pytest.fixture(autouse=True)
def _one_thread():
    old = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(old)


def _grid(model, task="S3", **kw):
    base = TrainConfig(task=task, model=model, **dict(TINY, **kw))
    return [dataclasses.replace(base, seed=s, lr=lr) for s in (0, 1, 2) for lr in (3e-3, 2e-2)]


def _state(cfg, store):
    return {k: v.clone() for k, v in load_model(cfg, store).state_dict().items()}


def _max_diff(a, b):
    return max(float((a[k] - b[k]).abs().max()) for k in a)


def _losses(res):
    return np.array([p["loss"] for p in res["curve"]])


def _assert_same_runs(cfgs, tmp_path, **kw):
    """Batched group vs one-at-a-time ``train``: curves, final parameters, test metrics."""
    sa, sb = ResultsStore(tmp_path / "alone"), ResultsStore(tmp_path / "batched")
    batched = train_batched(cfgs, store=sb, device="cpu", **kw)
    states = []
    for cfg, rb in zip(cfgs, batched):
        ra = train(cfg, store=sa, device="cpu", threads=1)
        assert set(ra) <= set(rb) and rb["engine"] == {"name": "batched", "group_size": len(cfgs)}
        assert [p["step"] for p in ra["curve"]] == [p["step"] for p in rb["curve"]]
        assert np.abs(_losses(ra) - _losses(rb)).max() <= TOL
        a, b = _state(cfg, sa), _state(cfg, sb)
        assert _max_diff(a, b) <= TOL
        assert ra["test"].keys() == rb["test"].keys()
        for k, v in ra["test"].items():
            assert np.allclose(v, rb["test"][k], rtol=0, atol=TOL), k
        states.append(b)
    return states


@pytest.mark.parametrize("model", ["mamba", "signed_mamba", "aussm", "gla"])
def test_batched_equals_one_at_a_time_diagonal(model, tmp_path):
    cfgs = _grid(model)
    states = _assert_same_runs(cfgs, tmp_path)
    # not vacuous: the runs trained, and seeds and learning rates give different parameters
    seed_all(0)
    init = build_model(cfgs[0], build_task(cfgs[0])).to(torch.float64).state_dict()
    assert _max_diff(states[0], init) > 1e-4
    assert _max_diff(states[0], states[1]) > 1e-4 and _max_diff(states[0], states[2]) > 1e-4


@pytest.mark.parametrize("model", ["transformer", "deltaproduct"])
def test_batched_equals_one_at_a_time_other_layers(model, tmp_path):
    # every SequenceModel family is stacked (attention, and the delta rule with its interleaved
    # Householder steps) and also runs under vmap
    assert model in VMAP_MODELS
    _assert_same_runs(_grid(model)[:3], tmp_path)


def test_every_per_run_field_may_differ(tmp_path):
    base = TrainConfig(task="C3", model="mamba", **TINY)
    cfgs = [base,
            dataclasses.replace(base, seed=5, warmup=0, weight_decay=0.3),
            dataclasses.replace(base, seed=6, grad_clip=1e-3),            # clipping active
            dataclasses.replace(base, seed=7, data_seed=3, shuffle_labels=True, lr=1e-2)]
    assert len({shape_key(c) for c in cfgs}) == 1
    _assert_same_runs(cfgs, tmp_path)


def test_fresh_words_and_curriculum(tmp_path):
    cfgs = _grid("mamba", fresh_words=True, curriculum_steps=4, curriculum_start=2,
                 shuffle_labels=False)[:3]
    _assert_same_runs(cfgs, tmp_path)


def test_regression_task_and_fp32(tmp_path):
    rot = _grid("gla", task="rotation_a5")[:2]
    _assert_same_runs(rot, tmp_path / "rot")
    # fp32: the same arithmetic, so the same runs up to float32 rounding of the batched products
    cfgs = [dataclasses.replace(c, precision="fp32") for c in _grid("mamba")[:2]]
    batched = train_batched(cfgs, device="cpu")
    for cfg, rb in zip(cfgs, batched):
        ra = train(cfg, device="cpu", threads=1)
        assert np.abs(_losses(ra) - _losses(rb)).max() <= 1e-5


def test_a_different_run_is_told_apart(tmp_path):
    # the comparison above can fail: a run with another seed, or another learning rate, differs
    cfg = _grid("mamba")[0]
    sa, sb = ResultsStore(tmp_path / "a"), ResultsStore(tmp_path / "b")
    train(cfg, store=sa, device="cpu", threads=1)
    for other in (dataclasses.replace(cfg, seed=9), dataclasses.replace(cfg, lr=cfg.lr * 1.01)):
        train_batched([other], store=sb, device="cpu")
        assert _max_diff(_state(cfg, sa), _state(other, sb)) > 1e-6


_RUN = st.tuples(st.floats(1e-4, 0.3), st.floats(0.0, 0.5), st.floats(1e-3, 20.0))


@settings(max_examples=25, deadline=None)
@given(runs=st.lists(_RUN, min_size=1, max_size=4), steps=st.integers(1, 6),
       seed=st.integers(0, 2**16), grad_scale=st.floats(1e-3, 1e3))
def test_stacked_adamw_and_clipping_match_torch(runs, steps, seed, grad_scale):
    """Per run, StackedAdamW + clip_grad_norm_per_run is torch.optim.AdamW + clip_grad_norm_
    with that run's learning rate (and a per-step schedule), weight decay and clipping norm."""
    g = torch.Generator().manual_seed(seed)
    R, shapes = len(runs), [(4, 5), (5,), (2, 3, 2)]
    lrs, wds, clips = ([r[k] for r in runs] for k in range(3))
    init = [torch.randn(R, *s, generator=g, dtype=torch.float64) for s in shapes]
    stacked = [p.clone() for p in init]
    alone = [[p[r].clone().requires_grad_() for p in init] for r in range(R)]
    opt = StackedAdamW(stacked)
    topts = [torch.optim.AdamW(alone[r], lr=lrs[r], weight_decay=wds[r]) for r in range(R)]
    for step in range(steps):
        grads = [grad_scale * torch.randn(R, *s, generator=g, dtype=torch.float64) for s in shapes]
        factor = 1.0 / (1 + step)                          # a schedule: per-step learning rates
        refs = []
        for r in range(R):
            for p, gr in zip(alone[r], grads):
                p.grad = gr[r].clone()
            refs.append(float(torch.nn.utils.clip_grad_norm_(alone[r], clips[r])))
            topts[r].param_groups[0]["lr"] = lrs[r] * factor
            topts[r].step()
        norms = clip_grad_norm_per_run(grads, torch.tensor(clips, dtype=torch.float64))
        assert np.allclose(norms.numpy(), refs, rtol=1e-13, atol=0)
        opt.step(grads, [lr * factor for lr in lrs], wds)
    for r in range(R):
        for p, q in zip(stacked, alone[r]):
            assert torch.allclose(p[r], q.detach(), rtol=1e-12, atol=1e-14)
    with pytest.raises(ValueError, match="learning rates"):
        opt.step(grads, lrs + [1e-3], wds)


@pytest.mark.parametrize("model,positions", [("gla", "rotary"), ("deltanet", "rotary"),
                                             ("transformer", "learned")])
def test_stacked_forward_matches_each_model(model, positions):
    # the stacked body against SequenceModel.forward itself (learned positions included)
    cfg = TrainConfig(task="S3", model=model, positions=positions, **TINY)
    data = build_task(cfg)
    models = []
    for s in range(3):
        seed_all(s)
        models.append(build_model(cfg, data).to(run_dtype(cfg)))
    params = {n: torch.stack([dict(m.named_parameters())[n].detach() for m in models])
              for n, _ in models[0].named_parameters()}
    tokens = torch.as_tensor(data.train_tokens[:12]).reshape(3, 4, -1)
    for strategy in ("auto", "stacked", "vmap", "loop"):
        out = stacked_forward(models[0], params, tokens, strategy=strategy)
        for r, m in enumerate(models):
            assert float((out[r] - m(tokens[r])).abs().max().detach()) <= 1e-12, strategy
    with pytest.raises(ValueError, match="strategy"):
        stacked_forward(models[0], params, tokens, strategy="fast")
    with pytest.raises(ValueError, match="tokens must lie"):
        stacked_forward(models[0], params, tokens + 100)
    with pytest.raises(ValueError, match="runs, batch, time"):
        stacked_forward(models[0], params, tokens[0])
    with pytest.raises(TypeError, match="integer"):
        stacked_forward(models[0], params, tokens.double())


def test_train_many_groups_by_shape_and_keeps_order():
    base = TrainConfig(task="C3", model="mamba", **dict(TINY, steps=3))
    cfgs = [dataclasses.replace(base, depth=d, seed=s) for s in (0, 1) for d in (1, 2)]
    res = train_many(cfgs, device="cpu", max_group=1)
    grouped = train_many(cfgs, device="cpu")
    for cfg, r, q in zip(cfgs, res, grouped):
        assert r["config"] == dataclasses.asdict(cfg) and q["config"] == r["config"]
        assert q["engine"]["group_size"] == 2 and r["engine"]["group_size"] == 1
        assert np.abs(_losses(r) - _losses(q)).max() <= TOL


def test_store_protocol(tmp_path):
    st = ResultsStore(tmp_path)
    cfgs = _grid("signed_mamba")[:2]
    first = train_batched(cfgs, store=st, device="cpu")
    assert not any(r["from_store"] for r in first)
    again = train(cfgs[1], store=st, device="cpu")            # the one-at-a-time engine reuses it
    assert again["from_store"] and again["test"] == first[1]["test"]
    third = dataclasses.replace(cfgs[0], seed=4)
    mixed = train_batched([cfgs[0], third], store=st, device="cpu")
    assert mixed[0]["from_store"] and not mixed[1]["from_store"]
    assert mixed[1]["engine"]["group_size"] == 1
    ck = st.load_checkpoint(third)
    assert ck["step"] == third.steps and ck["opt"]["state"] and "last_epoch" in ck["sched"]
    # a run held by another live worker: RuntimeError, and nothing stays claimed by this owner
    held = dataclasses.replace(cfgs[0], seed=8)
    free = dataclasses.replace(cfgs[0], seed=7)
    assert st.claim(held, "other", lease_s=600)
    with pytest.raises(RuntimeError, match="held by another worker"):
        train_batched([free, held], store=st, device="cpu", owner="me")
    assert st.claim(free, "someone", lease_s=600)


class Kill(Exception):
    pass


def _kill_at(step):
    def killer(info):
        if info["step"] == step:
            raise Kill
    return killer


def _same_result(a, b):
    assert np.abs(_losses(a) - _losses(b)).max() <= TOL and len(a["curve"]) == len(b["curve"])
    for k, v in a["test"].items():
        assert np.allclose(v, b["test"][k], rtol=0, atol=TOL), k


def test_resume_after_kill_with_either_engine(tmp_path):
    cfgs = [dataclasses.replace(c, checkpoint_every=2) for c in _grid("gla")[:3]]
    ref = [train(c, device="cpu", threads=1) for c in cfgs]               # never interrupted
    st = ResultsStore(tmp_path / "b")
    with pytest.raises(Kill):
        train_batched(cfgs[:2], store=st, device="cpu", on_progress=_kill_at(4), owner="w1")
    for c in cfgs[:2]:
        assert st.get(c).status == "failed" and st.load_checkpoint(c)["step"] == 2
    seen = []
    _same_result(ref[0], train(cfgs[0], store=st, device="cpu", on_progress=seen.append,
                               owner="w2", threads=1))             # the one-at-a-time engine
    assert seen[0]["step"] == 4                                    # resumed after step 2
    _same_result(ref[1], train_batched([cfgs[1]], store=st, device="cpu", owner="w2")[0])
    # a run interrupted under train() resumes in a batched call beside a fresh run
    st2 = ResultsStore(tmp_path / "c")
    with pytest.raises(Kill):
        train(cfgs[0], store=st2, device="cpu", on_progress=_kill_at(4), owner="w1", threads=1)
    seen.clear()
    res = train_batched([cfgs[0], cfgs[2]], store=st2, device="cpu", owner="w2",
                        on_progress=seen.append)
    assert {(p["step"], len(p["keys"])) for p in seen} >= {(2, 1), (4, 1)}
    _same_result(ref[0], res[0])
    _same_result(ref[2], res[1])


def test_bad_input():
    cfg = TrainConfig(task="C2", model="mamba", **TINY)
    with pytest.raises(ValueError, match="configs must not be empty"):
        train_batched([])
    with pytest.raises(TypeError, match="configs must be a list"):
        train_batched(cfg)
    with pytest.raises(TypeError, match=r"configs\[1\] must be a TrainConfig"):
        train_batched([cfg, {"task": "C2"}])
    with pytest.raises(ValueError, match=r"configs\[1\] repeats configs\[0\]"):
        train_batched([cfg, cfg])
    with pytest.raises(ValueError, match="bf16"):
        train_batched([dataclasses.replace(cfg, precision="bf16")])
    with pytest.raises(ValueError, match=r"configs\[1\] differs .*'depth'"):
        train_batched([cfg, dataclasses.replace(cfg, depth=1, seed=1)])
    with pytest.raises(ValueError, match="max_group"):
        train_many([cfg], max_group=0)
    assert "depth" not in PER_RUN_FIELDS and "seed" in PER_RUN_FIELDS


@pytest.mark.parametrize("task", ["S3", "rotation_a5", "S3.token"])
@pytest.mark.parametrize("fresh", [False, True])
def test_training_batches_equal_the_per_run_batches(task, fresh):
    from seqtheory.models.train import training_batch, training_batches

    base = TrainConfig(task=task, model="mamba", **dict(TINY, fresh_words=fresh,
                                                        curriculum_steps=3 if fresh else 0))
    shuffle = not base.is_rotation
    cfgs = [base, dataclasses.replace(base, seed=4, shuffle_labels=shuffle),
            dataclasses.replace(base, seed=5, data_seed=2)]
    datas = [build_task(c) for c in cfgs[:2]] + [build_task(cfgs[2])]
    datas[1] = datas[0] if not shuffle else datas[1]           # two runs sharing a dataset
    for step in (0, 2, 5):
        x, y = training_batches(cfgs, datas, step)
        for r, (c, d) in enumerate(zip(cfgs, datas)):
            xr, yr = training_batch(c, d, step)
            assert np.array_equal(x[r], xr) and np.array_equal(y[r], yr)


def test_stacked_adamw_keeps_one_flat_buffer():
    params = [torch.zeros(2, 3, dtype=torch.float64), torch.ones(2, 4, 5, dtype=torch.float64)]
    opt = StackedAdamW(params)
    assert opt.flat.shape == (2, 23) and params[1].data_ptr() == opt.flat[:, 3:].data_ptr()
    grads = [torch.ones(2, 3, dtype=torch.float64), torch.ones(2, 4, 5, dtype=torch.float64)]
    opt.step(opt.flatten(grads), torch.tensor([0.1, 0.0], dtype=torch.float64),
             torch.tensor([0.0, 0.0], dtype=torch.float64))
    assert torch.allclose(params[0][0], torch.full((3,), -0.1, dtype=torch.float64))
    assert torch.equal(params[0][1], torch.zeros(3, dtype=torch.float64))    # lr 0: unchanged
    assert torch.equal(opt.exp_avg[1], opt.exp_avg_flat[:, 3:].view(2, 4, 5))
    with pytest.raises(ValueError, match="one dtype and device"):
        StackedAdamW([torch.zeros(2, 3), torch.zeros(2, 3, dtype=torch.float64)])

"""Runs per CPU-minute: batched training (models/batched.py) vs one run at a time (train).

Run: ``python -m pytest benchmarks/bench_batched_training.py -m benchmark -s`` (CPU, one torch
thread; times are process CPU time, ``time.process_time``, so other processes on a shared
machine distort them less than wall time). Setting: task S3, width 32, T = 16, depth 2, 4 heads, state 16, minibatch ``BATCH``
(64, the TrainConfig default, and 16), ``STEPS`` steps, a group of ``R`` = 16 runs (8 seeds × 2
learning rates), float32. Both engines are timed end to end on the same 16 configurations in
the same process (data, initialisation, training and the evaluation of every run).

* ``test_runs_per_cpu_minute`` — runs per CPU-minute of each engine and their ratio, per layer
  family; target: batched ≥ 5× one at a time.
* ``test_step_breakdown`` — where one training step spends its time (forward, backward,
  clipping + optimizer), batched group vs a single run; reported, no target.

Results and the machine are recorded in benchmarks/README_batched.md.
"""
import dataclasses
import time

import pytest
import torch

from seqtheory.models.batched import (StackedAdamW, clip_grad_norm_per_run, stacked_forward,
                                      train_batched)
from seqtheory.models.recipe import seed_all, task_loss
from seqtheory.models.training import TrainConfig, build_model, build_task, train

R, STEPS, WIDTH, T = 16, 30, 32, 16
MODELS = ("mamba", "signed_mamba", "aussm", "gla")


def _configs(model, batch):
    base = TrainConfig(task="S3", model=model, depth=2, width=WIDTH, train_length=T,
                       n_train=2048, n_test=128, steps=STEPS, batch_size=batch, warmup=4,
                       log_every=10, precision="fp32")
    return [dataclasses.replace(base, seed=s, lr=lr) for s in range(R // 2) for lr in (3e-3, 1e-2)]


@pytest.fixture(autouse=True)
def _one_thread():
    old = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(old)


def _cpu_minutes(fn):
    t0 = time.process_time()
    fn()
    return (time.process_time() - t0) / 60


@pytest.mark.benchmark
@pytest.mark.parametrize("batch", [64, 16, 8])
@pytest.mark.parametrize("model", MODELS)
def test_runs_per_cpu_minute(model, batch):
    cfgs = _configs(model, batch)
    train_batched(cfgs[:2], device="cpu")                  # warm-up (imports, allocator)
    batched = R / _cpu_minutes(lambda: train_batched(cfgs, device="cpu"))
    alone = R / _cpu_minutes(lambda: [train(cfg, device="cpu") for cfg in cfgs])
    print(f"\n{model:13s} batch {batch:3d}: batched {batched:7.1f} runs/CPU-min   one at a time "
          f"{alone:7.1f} runs/CPU-min   ratio {batched / alone:5.2f}x")
    assert batched >= 5 * alone, f"{model}: batched only {batched / alone:.2f}x one at a time"


def _timed(fn, reps=5):
    fn()
    best = float("inf")
    for _ in range(reps):
        t0 = time.process_time()
        fn()
        best = min(best, time.process_time() - t0)
    return best


@pytest.mark.benchmark
@pytest.mark.parametrize("batch", [64, 16, 8])
def test_step_breakdown(batch):
    cfgs = _configs("mamba", batch)
    data = build_task(cfgs[0])
    models = []
    for cfg in cfgs:
        seed_all(cfg.seed)
        models.append(build_model(cfg, data))
    names = [n for n, _ in models[0].named_parameters()]
    params = {n: torch.stack([dict(m.named_parameters())[n].detach() for m in models])
              for n in names}
    x = torch.as_tensor(data.train_tokens[:R * batch]).reshape(R, batch, T)
    y = torch.as_tensor(data.train_labels[:R * batch]).reshape(R, batch, T)

    rows = []
    for k, strategy in ((4, "vmap"), (8, "vmap"), (16, "vmap"), (16, "loop"), (16, "stacked")):
        sub = {n: p[:k].detach().clone().requires_grad_() for n, p in params.items()}
        leaves = list(sub.values())

        def group_loss():
            out = stacked_forward(models[0], sub, x[:k], strategy=strategy)
            return torch.stack([task_loss(out[r], y[r], False) for r in range(k)]).sum()

        grads = torch.autograd.grad(group_loss(), leaves)
        opt, clip = StackedAdamW([p.detach() for p in leaves]), torch.ones(k)
        t_opt = _timed(lambda: (clip_grad_norm_per_run([g.clone() for g in grads], clip),
                                opt.step(grads, [1e-3] * k, [0.01] * k)))
        fwd = _timed(group_loss)
        both = _timed(lambda: torch.autograd.grad(group_loss(), leaves))
        rows.append((f"group of {k:2d}, {strategy}", fwd / k, (both - fwd) / k, t_opt / k))
    m = models[1]
    topt = torch.optim.AdamW(m.parameters(), lr=1e-3, weight_decay=0.01)

    def one_backward():
        topt.zero_grad(set_to_none=True)
        task_loss(m(x[0]), y[0], False).backward()

    def one_opt():
        torch.nn.utils.clip_grad_norm_(m.parameters(), 1.0)
        topt.step()

    one_backward()
    s_fwd = _timed(lambda: task_loss(m(x[0]), y[0], False))
    s_all = _timed(one_backward)
    rows.append(("one run", s_fwd, s_all - s_fwd, _timed(one_opt)))
    torch.set_flush_denormal(True)                 # diagnostic: are float32 denormals a cost?
    try:
        s_fwd, s_all = _timed(lambda: task_loss(m(x[0]), y[0], False)), _timed(one_backward)
        rows.append(("one run, denormals flushed", s_fwd, s_all - s_fwd, _timed(one_opt)))
    finally:
        torch.set_flush_denormal(False)
    print(f"\nmamba batch {batch}: ms per run-step        forward  backward  optimizer    total")
    for label, f, b, o in rows:
        print(f"  {label:30s} {1e3 * f:8.2f} {1e3 * b:8.2f} {1e3 * o:9.2f} {1e3 * (f + b + o):8.2f}")

"""Batched training: many small runs of one shape trained together in one stacked step.

Runs that share a *shape* (same task, model, depth, width, lengths, steps, batch size, precision:
every :class:`~seqtheory.models.train.TrainConfig` field except :data:`PER_RUN_FIELDS`) are
trained together. Their parameters are stacked along a leading run dimension ``R`` in one
stacked model (:func:`seqtheory.models.stacking.stack_models`: the layers' own forward code with
one matrix product per run in each linear map, and the parameter-free scans over the runs'
sequences as one batch); one backward pass gives every run its own gradient (the total loss is
the plain sum of the per-run losses, so no gradient mixes runs).

Each run is *the same run* as :func:`seqtheory.models.train.train` would train alone
(:mod:`seqtheory.models.recipe`):

* its own initial parameters (``seed_all(cfg.seed)`` then ``build_model``),
* its own data stream (``train.training_batch(cfg, data, step)``: rows of its training set, or
  fresh words with the length curriculum; its dataset from ``cfg.data_seed``/``shuffle_labels``),
* its own optimizer: AdamW (betas (0.9, 0.999), eps 1e-8) with its own learning rate, warm-up,
  cosine schedule and decoupled weight decay, and gradient-norm clipping at its own
  ``grad_clip`` over its own parameters (:class:`StackedAdamW`, :func:`clip_grad_norm_per_run`:
  a few operations on one flat ``(R, n_parameters)`` buffer per step, whatever the number of
  parameter tensors).

The step reads one value back from the device (whether the losses are finite,
:func:`~seqtheory.models.recipe.checked_if_nonfinite`), plus the logged losses and accuracies
every ``log_every`` steps; tokens are checked on the host, copied to a GPU from pinned memory
without waiting, and the learning-rate schedule of every step is on the device from the start.
Optionally the step is compiled (``compile``, :mod:`seqtheory.models.compiled_step`).

Equivalence with one-at-a-time training is tested in float64 (tests/test_batched.py): losses,
final parameters and test metrics agree to 1e-10 (the batched products round differently from
the unbatched ones in the last bits). Precisions ``fp32`` and ``fp64``; ``bf16`` is refused.

Results have the dict format of ``train`` (``config``, ``key``, ``curve``, ``test``, ``train`` …)
plus ``engine = {"name": "batched", "group_size": R}``; ``train_time_s`` is the wall time of the
whole group. With a results store, finished runs are reused, the others are claimed, stored on
finishing, checkpointed every ``checkpoint_every`` steps in ``train``'s format (so
``load_model`` works, and either engine resumes a run the other interrupted), and marked failed
if the group fails.
"""
from __future__ import annotations

import dataclasses
import time
import traceback
import warnings
import weakref
from dataclasses import asdict
from typing import Any, Callable, Sequence

import numpy as np
import torch
from torch.func import functional_call, vmap

from ._checks import check_optional_int

from .model import MODEL_NAMES, SequenceModel
from .recipe import checked_if_nonfinite, jsonable, lr_factor, run_dtype, seed_all, train_arrays
from .compiled_step import check_compile, step_forward
from .run_state import isolated_run_state
from .stacking import stack_models, stacked_shell
from .store import ResultsStore, RunHeldError, default_owner
from .train import (TrainConfig, build_model, build_task, evaluate, resolve_device,
                    training_batches)

__all__ = ["PER_RUN_FIELDS", "VMAP_MODELS", "shape_key", "train_batched", "train_many",
           "StackedAdamW", "clip_grad_norm_per_run", "stacked_forward"]

#: TrainConfig fields that may differ between the runs of one batched group.
PER_RUN_FIELDS = ("seed", "data_seed", "lr", "weight_decay", "warmup", "grad_clip",
                  "shuffle_labels")
#: Models the batched engine stacks (every :class:`SequenceModel` family); their layers also run
#: under ``torch.func.vmap`` (:func:`stacked_forward`'s ``"vmap"`` strategy).
VMAP_MODELS = MODEL_NAMES
ProgressFn = Callable[[dict], None]
_CLIP_EPS = 1e-6        # torch.nn.utils.clip_grad_norm_: coef = max_norm / (norm + 1e-6)


def shape_key(cfg: TrainConfig) -> tuple:
    """The fields of ``cfg`` that every run of a batched group shares (all but
    :data:`PER_RUN_FIELDS`), as a hashable tuple of ``(name, value)`` pairs."""
    return tuple((f.name, getattr(cfg, f.name)) for f in dataclasses.fields(cfg)
                 if f.name not in PER_RUN_FIELDS)


def _check_configs(configs: Any) -> list[TrainConfig]:
    if not isinstance(configs, (list, tuple)):
        raise TypeError(f"configs must be a list of TrainConfig, got {type(configs).__name__}")
    if not configs:
        raise ValueError("configs must not be empty")
    keys: dict[str, int] = {}
    for i, cfg in enumerate(configs):
        if not isinstance(cfg, TrainConfig):
            raise TypeError(f"configs[{i}] must be a TrainConfig, got {type(cfg).__name__}")
        if cfg.model not in MODEL_NAMES:
            raise ValueError(f"configs[{i}]: model {cfg.model!r} is not a SequenceModel family "
                             f"{MODEL_NAMES}; the batched engine stacks SequenceModels only")
        if cfg.precision == "bf16":
            raise ValueError(f"configs[{i}]: precision 'bf16' is not supported by the batched "
                             f"engine (use fp32 or fp64, or train one at a time)")
        if cfg.key in keys:
            raise ValueError(f"configs[{i}] repeats configs[{keys[cfg.key]}] (same run twice)")
        keys[cfg.key] = i
    return list(configs)


def _check_one_shape(configs: list[TrainConfig]) -> None:
    ref = dict(shape_key(configs[0]))
    for i, cfg in enumerate(configs[1:], 1):
        diff = [k for k, v in shape_key(cfg) if ref[k] != v]
        if diff:
            raise ValueError(f"configs must share one shape: configs[{i}] differs from configs[0] "
                             f"in {diff} (only {PER_RUN_FIELDS} may differ; use train_many to "
                             f"group by shape)")


# ---------------------------------------------------------------------------------------------
# the stacked forward pass


def stacked_forward(template: SequenceModel, params: dict[str, torch.Tensor],
                    tokens: torch.Tensor, mode: str = "parallel",
                    strategy: str = "auto") -> torch.Tensor:
    """Outputs of ``R`` models of ``template``'s architecture, one per run.

    ``params``: name → stacked parameter ``(R, *shape)`` (names of ``template.named_parameters()``);
    ``tokens``: long ``(R, B, T)``, run ``r`` reads ``tokens[r]``. Returns ``(R, B, T, n_out)``:
    ``out[r] = SequenceModel.forward(tokens[r])`` with run ``r``'s parameters, differentiable in
    ``params``. ``strategy``: ``"stacked"`` (a stacked copy of ``template``,
    :mod:`seqtheory.models.stacking`; ``"auto"`` is this one), ``"vmap"`` (``torch.func.vmap``
    of ``SequenceModel.logits`` over the runs) or ``"loop"`` (a loop over the runs, one autograd
    graph); ``ValueError`` for any other name. The tokens are checked once for all runs
    (``ValueError`` outside ``[0, vocab_size)`` or of another shape, ``TypeError`` for a
    non-integer tensor).
    """
    if strategy not in ("auto", "stacked", "vmap", "loop"):
        raise ValueError(f"strategy must be 'auto', 'stacked', 'vmap' or 'loop', got {strategy!r}")
    if not isinstance(tokens, torch.Tensor) or tokens.ndim != 3:
        template.check_tokens(tokens)          # the unstacked message names the dtype or shape
        raise ValueError(f"tokens must have shape (runs, batch, time), got {tuple(tokens.shape)}")
    R = tokens.shape[0]
    if strategy in ("auto", "stacked"):
        shell = _shell(template, R)
        shell.check_tokens(tokens)
        return functional_call(_Logits(shell), {f"model.{n}": p for n, p in params.items()},
                               (tokens, mode))
    for r in range(R):
        template.check_tokens(tokens[r])
    one = _Logits(template)
    call = lambda p, x: functional_call(one, {f"model.{n}": v for n, v in p.items()}, (x, mode))  # noqa: E731
    if strategy == "vmap":
        with warnings.catch_warnings():     # torch's CPU attention kernel has no batching rule yet
            warnings.filterwarnings("ignore", message="There is a performance drop")
            return vmap(call)(params, tokens)
    return torch.stack([call({n: p[r] for n, p in params.items()}, tokens[r]) for r in range(R)])


_SHELLS: "weakref.WeakKeyDictionary[SequenceModel, dict[int, SequenceModel]]" = weakref.WeakKeyDictionary()


def _shell(template: SequenceModel, runs: int) -> SequenceModel:
    """The stacked copy of ``template``'s architecture for ``runs`` runs (made once per template
    and number of runs; ``functional_call`` supplies every parameter)."""
    shells = _SHELLS.setdefault(template, {})
    if runs not in shells:
        shells[runs] = stacked_shell(template, runs)
    return shells[runs]


class _Logits(torch.nn.Module):
    """``model.logits`` as a module's forward (for ``functional_call``)."""

    def __init__(self, model: SequenceModel):
        super().__init__()
        self.model = model

    def forward(self, tokens: torch.Tensor, mode: str) -> torch.Tensor:
        return self.model.logits(tokens, mode)


# ---------------------------------------------------------------------------------------------
# per-run optimizer on stacked parameters


def clip_grad_norm_per_run(grads: Sequence[torch.Tensor], max_norm: torch.Tensor) -> torch.Tensor:
    """Clip each run's gradient to global 2-norm ``max_norm[r]``, in place.

    ``grads``: stacked gradients ``(R, *shape)`` (or one flat ``(R, n)`` tensor of all of them,
    :meth:`StackedAdamW.flatten`); ``max_norm``: ``(R,)``. Run ``r``'s norm is over all of its
    gradients, as ``torch.nn.utils.clip_grad_norm_`` computes it for one run, and the gradients
    are scaled by ``min(1, max_norm / (norm + 1e-6))``. Returns the norms ``(R,)`` before
    clipping.
    """
    R = grads[0].shape[0]
    if len(grads) == 1:
        norms = grads[0].reshape(R, -1).norm(dim=1)
    else:
        norms = torch.stack([g.reshape(R, -1).norm(dim=1) for g in grads], dim=1).norm(dim=1)
    coef = (max_norm.to(norms.dtype) / (norms + _CLIP_EPS)).clamp(max=1.0)
    for g in grads:
        g.mul_(coef.to(g.dtype).view((R,) + (1,) * (g.ndim - 1)))
    return norms


class StackedAdamW:
    """AdamW on stacked parameters ``(R, *shape)``, per run: run ``r`` follows exactly the update
    of ``torch.optim.AdamW`` (decoupled weight decay ``p ← p(1 − lr_r·wd_r)``, moments with
    betas ``(β1, β2)``, bias corrections, ``eps`` added to the corrected root second moment)
    with its own ``lr_r`` and ``wd_r``; moments are per run, so runs never mix.

    The parameters (one dtype and device) are moved into one flat buffer ``flat (R, n)`` (each
    parameter tensor becomes a view of its columns, in place: ``param.data`` is re-pointed), and
    the moments ``exp_avg_flat``, ``exp_avg_sq_flat`` are buffers of the same layout, so a step
    is a few operations on ``(R, n)`` tensors whatever the number of parameters (the per-run
    learning rates broadcast as ``(R, 1)``). ``exp_avg`` / ``exp_avg_sq``: per-parameter views
    of the moments, shaped like the parameters.

    ``step(grads, lr, weight_decay)``: ``grads`` stacked like the parameters (a list), or flat
    ``(R, n)`` (:meth:`flatten`); ``lr`` and ``weight_decay`` of ``R`` values each (sequences of
    floats, or ``(R,)`` tensors on the parameters' device: the current learning rates, schedule
    applied; ``ValueError`` for other lengths). ``t`` counts the steps taken (bias corrections
    use it).
    """

    def __init__(self, params: Sequence[torch.Tensor], betas: tuple[float, float] = (0.9, 0.999),
                 eps: float = 1e-8):
        self.params = list(params)
        if len({(p.dtype, p.device) for p in self.params}) != 1:
            raise ValueError("params must share one dtype and device")
        R = self.params[0].shape[0]
        self.betas, self.eps, self.t = betas, eps, 0
        with torch.no_grad():
            self.flat = torch.cat([p.detach().reshape(R, -1) for p in self.params], dim=1)
            for p, v in zip(self.params, self._views(self.flat)):
                p.data = v
        self.exp_avg_flat = torch.zeros_like(self.flat)
        self.exp_avg_sq_flat = torch.zeros_like(self.flat)
        self.exp_avg = self._views(self.exp_avg_flat)
        self.exp_avg_sq = self._views(self.exp_avg_sq_flat)

    def _views(self, flat: torch.Tensor) -> list[torch.Tensor]:
        sizes = [p[0].numel() for p in self.params]
        return [v.view(p.shape) for v, p in zip(flat.split(sizes, dim=1), self.params)]

    def flatten(self, grads: Sequence[torch.Tensor]) -> torch.Tensor:
        """The gradients ``grads`` (one per parameter, stacked like it) as one ``(R, n)``
        tensor in the layout of :attr:`flat`."""
        R = self.flat.shape[0]
        return torch.cat([g.reshape(R, -1) for g in grads], dim=1)

    @torch.no_grad()
    def step(self, grads: Sequence[torch.Tensor] | torch.Tensor, lr, weight_decay) -> None:
        R = self.flat.shape[0]
        if len(lr) != R or len(weight_decay) != R or (
                not isinstance(grads, torch.Tensor) and len(grads) != len(self.params)):
            raise ValueError(f"step needs one gradient per parameter ({len(self.params)}) and "
                             f"{R} learning rates and weight decays, got "
                             f"{1 if isinstance(grads, torch.Tensor) else len(grads)}, "
                             f"{len(lr)}, {len(weight_decay)}")
        g = grads if isinstance(grads, torch.Tensor) else self.flatten(grads)
        lr, wd = (torch.as_tensor(v, dtype=self.flat.dtype, device=self.flat.device).view(R, 1)
                  for v in (lr, weight_decay))
        self.t += 1
        b1, b2 = self.betas
        bc1, bc2_sqrt = 1 - b1 ** self.t, (1 - b2 ** self.t) ** 0.5
        self.flat.mul_(1 - lr * wd)
        self.exp_avg_flat.lerp_(g, 1 - b1)
        self.exp_avg_sq_flat.mul_(b2).addcmul_(g, g, value=1 - b2)
        denom = (self.exp_avg_sq_flat.sqrt() / bc2_sqrt).add_(self.eps)
        self.flat.addcdiv_(self.exp_avg_flat * (lr / bc1), denom, value=-1.0)


# ---------------------------------------------------------------------------------------------
# the engines


def train_many(configs: Sequence[TrainConfig], max_group: int | None = None,
               **kwargs) -> list[dict[str, Any]]:
    """Train ``configs`` grouped by :func:`shape_key` (e.g. depths differ in shape), each group
    by :func:`train_batched` (in chunks of at most ``max_group`` runs when given), and return
    the results in the order of ``configs``. ``kwargs`` go to :func:`train_batched`.
    ``ValueError`` for an empty list, a repeated run or ``max_group < 1``; ``TypeError`` for a
    non-TrainConfig entry."""
    configs = _check_configs(configs)
    check_optional_int("max_group", max_group)
    groups: dict[tuple, list[int]] = {}
    for i, cfg in enumerate(configs):
        groups.setdefault(shape_key(cfg), []).append(i)
    results: list[dict | None] = [None] * len(configs)
    for idx in groups.values():
        size = max_group or len(idx)
        for k in range(0, len(idx), size):
            part = idx[k:k + size]
            for i, res in zip(part, train_batched([configs[i] for i in part], **kwargs)):
                results[i] = res
    return results  # type: ignore[return-value]


def train_batched(configs: Sequence[TrainConfig], store: ResultsStore | None = None,
                  device: str = "auto", owner: str | None = None,
                  on_progress: ProgressFn | None = None, lease_s: float = 120.0,
                  threads: int | None = None, compile: str | None = None) -> list[dict[str, Any]]:
    """Train runs of one shape together; returns one result per config, in order.

    ``configs``: TrainConfigs differing only in :data:`PER_RUN_FIELDS` (``ValueError`` naming the
    differing fields otherwise; use :func:`train_many` for mixed shapes), no run twice, precision
    ``fp32`` or ``fp64``. ``store``/``owner``/``lease_s``/``threads``/``device`` as in
    :func:`seqtheory.models.train.train`: runs the store holds finished are returned from it
    (``from_store=True``) and not retrained; the others are claimed (``RuntimeError`` if another
    live worker holds one; the runs claimed so far are released), resumed from their last
    checkpoint (written by either engine; runs at different steps train as separate groups),
    checkpointed every ``checkpoint_every`` steps in ``train``'s format, and stored when done
    (a failure marks the unfinished runs failed); :class:`~seqtheory.models.store.RunHeldError`
    when another live worker holds one of them (nothing is claimed then). ``on_progress(info)`` is called every
    ``log_every`` steps with ``step``, ``steps`` and the per-run lists ``keys``, ``loss``, ``acc``.
    ``compile``: ``None`` (eager, the default), ``"auto"`` (compiled on CUDA only) or a
    ``torch.compile`` backend of :data:`~seqtheory.models.compiled_step.COMPILE_BACKENDS` for the
    step's forward and backward (:mod:`seqtheory.models.compiled_step`: guarded, eager fallback);
    ``ValueError`` for another value.
    """
    configs = _check_configs(configs)
    _check_one_shape(configs)
    results: list[dict | None] = [None] * len(configs)
    todo = []
    for i, cfg in enumerate(configs):
        done = store.result(cfg) if store is not None else None
        if done is not None:
            results[i] = dict(done, from_store=True)
        else:
            todo.append(i)
    if not todo:
        return results  # type: ignore[return-value]
    dev = resolve_device(device)
    call = _Call(store, dev, owner or default_owner(), on_progress, lease_s,
                 check_compile(compile, dev))
    owner = call.owner
    check_optional_int("threads", threads)
    claimed = _claim_all(store, [configs[i] for i in todo], owner, lease_s)
    finished: set[str] = set()
    try:
        with isolated_run_state(dev, threads):
            _train_todo(configs, todo, results, finished, call)
    except BaseException as exc:
        for cfg in claimed:
            if cfg.key in finished:
                continue
            if isinstance(exc, Exception):
                store.fail(cfg, owner, traceback.format_exc())
            else:
                store.release(cfg, owner)
        raise
    return results  # type: ignore[return-value]


@dataclasses.dataclass(frozen=True)
class _Call:
    """The options of one :func:`train_batched` call that every group of it trains with."""

    store: ResultsStore | None
    dev: torch.device
    owner: str
    on_progress: ProgressFn | None
    lease_s: float
    compile: str | None


def _train_todo(configs, todo, results, finished, call: _Call) -> None:
    """Train the runs ``configs[i]`` for ``i`` in ``todo`` (grouped by their checkpoints' step),
    store each finished one and put its result in ``results[i]``."""
    store = call.store
    checkpoints = {i: store.load_checkpoint(configs[i]) if store is not None else None
                   for i in todo}
    by_start: dict[int, list[int]] = {}
    for i in todo:
        by_start.setdefault(checkpoints[i]["step"] if checkpoints[i] else 0, []).append(i)
    for idx in by_start.values():
        group = [configs[i] for i in idx]
        trained = _train_group(group, [checkpoints[i] for i in idx], call)
        for i, cfg, res in zip(idx, group, trained):
            if store is not None:
                store.finish(cfg, call.owner, res)
                finished.add(cfg.key)
            results[i] = dict(res, from_store=False)


def _claim_all(store, cfgs, owner, lease_s) -> list[TrainConfig]:
    claimed: list[TrainConfig] = []
    if store is None:
        return claimed
    for cfg in cfgs:
        if not store.claim(cfg, owner, lease_s=lease_s):
            for c in claimed:
                store.release(c, owner)
            raise RunHeldError(f"run {cfg.key[:12]} is held by another worker")
        claimed.append(cfg)
    return claimed


def _build_runs(cfgs: list[TrainConfig], dev: torch.device):
    """Per run: its dataset arrays (shared between runs with the same data) and its model,
    initialised exactly as ``train`` does (``seed_all(seed)``, then ``build_model``)."""
    datasets: dict[tuple, Any] = {}
    data, models = [], []
    for cfg in cfgs:
        dkey = (cfg.data_seed, cfg.shuffle_labels)
        seed_all(cfg.seed)
        if dkey not in datasets:
            datasets[dkey] = build_task(cfg)
        data.append(datasets[dkey])
        models.append(build_model(cfg, datasets[dkey]).to(device=dev, dtype=run_dtype(cfg)))
    return data, models


def _train_group(cfgs: list[TrainConfig], checkpoints: list[dict | None],
                 call: _Call) -> list[dict[str, Any]]:
    store, dev, owner, on_progress, lease_s = (call.store, call.dev, call.owner, call.on_progress,
                                               call.lease_s)
    c0, R = cfgs[0], len(cfgs)
    regression, dtype = c0.is_rotation, run_dtype(c0)
    data, models = _build_runs(cfgs, dev)
    arrays = [train_arrays(d, c) for d, c in zip(data, cfgs)]
    ydtype = dtype if regression else torch.long
    for m, ck in zip(models, checkpoints):
        if ck is not None:
            m.load_state_dict(ck["model"])
    stacked = stack_models(models)
    params = dict(stacked.named_parameters())
    plist = list(params.values())
    opt = StackedAdamW(plist)
    start = _resume_optimizer(opt, checkpoints)
    max_norm = torch.tensor([c.grad_clip for c in cfgs], dtype=dtype, device=dev)
    weight_decay = torch.tensor([c.weight_decay for c in cfgs], dtype=dtype, device=dev)
    lrs = torch.tensor([[c.lr * lr_factor(c, step) for c in cfgs] for step in range(c0.steps)],
                       dtype=dtype, device=dev)                 # the schedule of every step
    vocab = models[0].cfg.vocab_size
    step_fn = step_forward(stacked, regression, call.compile, dev)
    curves = [list(ck["curve"]) if ck else [] for ck in checkpoints]
    elapsed = max((ck.get("elapsed", 0.0) for ck in checkpoints if ck), default=0.0)
    t0, last_hb = time.perf_counter(), time.time()
    for step in range(start, c0.steps):
        xnp, ynp = training_batches(cfgs, data, step)
        if xnp.size and (xnp.min() < 0 or xnp.max() >= vocab):     # checked on the host
            raise ValueError(f"tokens must lie in [0, {vocab})")
        xb = _to_device(torch.as_tensor(xnp), dev)
        yb = _to_device(torch.as_tensor(ynp, dtype=ydtype), dev)
        out, losses = checked_if_nonfinite(lambda xb=xb, yb=yb: step_fn(xb, yb))
        grads = opt.flatten(torch.autograd.grad(losses.sum(), plist))
        clip_grad_norm_per_run([grads], max_norm)
        opt.step(grads, lrs[step], weight_decay)
        s = step + 1
        if s % c0.log_every == 0 or s == c0.steps:
            _log(cfgs, curves, s, out, yb, losses, regression, store, t0, on_progress)
            if store is not None and time.time() - last_hb > lease_s / 4:
                store.heartbeat_many(cfgs, owner, s, lease_s)
                last_hb = time.time()
        if store is not None and (s % c0.checkpoint_every == 0 or s == c0.steps):
            for r, cfg in enumerate(cfgs):
                store.save_checkpoint(cfg, _checkpoint(r, cfg, models[r], params, opt, curves[r],
                                                       elapsed + time.perf_counter() - t0))
            store.heartbeat_many(cfgs, owner, s, lease_s)
            last_hb = time.time()
    train_time = elapsed + time.perf_counter() - t0
    return [_finish_run(r, cfgs[r], models[r], params, curves[r], data[r], arrays[r], dev,
                        train_time, R, c0.steps - start) for r in range(R)]


def _to_device(t: torch.Tensor, dev: torch.device) -> torch.Tensor:
    """``t`` (on the host) on ``dev``; to a GPU through pinned memory without waiting (a copy
    from pageable memory would wait for the GPU's queued work: a host synchronisation)."""
    if dev.type != "cuda":
        return t.to(dev)
    return t.pin_memory().to(dev, non_blocking=True)


def _resume_optimizer(opt: StackedAdamW, checkpoints: list[dict | None]) -> int:
    """Load each run's AdamW moments from its checkpoint (``train``'s format: the torch AdamW
    state of ``model.parameters()`` in order) into the stacked optimizer; returns the common
    start step (0 without checkpoints)."""
    steps = {ck["step"] if ck else 0 for ck in checkpoints}
    if len(steps) != 1:
        raise ValueError(f"checkpoints of one group must be at one step, got {sorted(steps)}")
    start = steps.pop()
    if start == 0:
        return 0
    with torch.no_grad():
        for r, ck in enumerate(checkpoints):
            state = ck["opt"]["state"]
            for j, (m, v) in enumerate(zip(opt.exp_avg, opt.exp_avg_sq)):
                m[r].copy_(state[j]["exp_avg"])
                v[r].copy_(state[j]["exp_avg_sq"])
    opt.t = start
    return start


def _log(cfgs, curves, s, out, yb, losses, regression, store, t0, on_progress) -> None:
    dt = time.perf_counter() - t0
    loss_values = losses.detach().tolist()
    accs = [None] * len(cfgs) if regression else \
        (out.argmax(-1) == yb).float().flatten(1).mean(1).tolist()
    points, logged = [], []
    for r, cfg in enumerate(cfgs):
        point = {"step": s, "loss": loss_values[r], "acc": accs[r]}
        curves[r].append(point)
        points.append(point)
        logged.append((cfg, s, dict(point, steps=cfg.steps, lr=cfg.lr * lr_factor(cfg, s),
                                    tokens_per_s=s * yb[r].numel() / dt if dt > 0 else None)))
    if store is not None:
        store.log_metrics_many(logged)
    if on_progress is not None:
        on_progress({"step": s, "steps": cfgs[0].steps, "keys": [c.key for c in cfgs],
                     "loss": [p["loss"] for p in points], "acc": [p["acc"] for p in points]})


def _finish_run(r, cfg, model, params, curve, data, arrays, dev, train_time, R, steps_run):
    """Run ``r``'s result dict in ``train``'s format, evaluated by the same ``evaluate`` on its
    own model (holding run ``r``'s final parameters)."""
    _copy_run_params(r, model, params)
    _, _, xte, yte = arrays
    regression = cfg.is_rotation
    metrics = evaluate(model, xte, yte, regression, dev, run_dtype(cfg),
                       train_length=cfg.train_length)
    train_metrics = evaluate(model, arrays[0][:512], arrays[1][:512], regression, dev,
                             run_dtype(cfg))
    tokens = steps_run * cfg.batch_size * arrays[0].shape[1]
    return {"config": asdict(cfg), "key": cfg.key, "device": dev.type, "precision": cfg.precision,
            "torch": torch.__version__, "train_time_s": train_time,
            "tokens_per_s": tokens / max(1e-9, train_time),
            "final_loss": curve[-1]["loss"] if curve else None, "curve": curve,
            "test": metrics, "train": train_metrics, "data": jsonable(data.metadata),
            "engine": {"name": "batched", "group_size": R}}


def _copy_run_params(r: int, model: SequenceModel, params: dict) -> None:
    with torch.no_grad():
        for n, p in model.named_parameters():
            p.copy_(params[n][r])


def _checkpoint(r, cfg, model, params, opt, curve, elapsed) -> dict:
    """Checkpoint of run ``r`` as ``train`` writes it: model, torch AdamW and LambdaLR state
    (run ``r``'s moments, the step count), step, curve, elapsed time, torch RNG state; either
    engine resumes from it."""
    _copy_run_params(r, model, params)
    topt = torch.optim.AdamW(model.parameters(), lr=cfg.lr, weight_decay=cfg.weight_decay)
    sched = torch.optim.lr_scheduler.LambdaLR(topt, lambda s: lr_factor(cfg, s))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")        # "scheduler.step() before optimizer.step()"
        for _ in range(opt.t):
            sched.step()
    for p, m, v in zip(model.parameters(), opt.exp_avg, opt.exp_avg_sq):
        topt.state[p] = {"step": torch.tensor(float(opt.t)), "exp_avg": m[r].detach().clone(),
                         "exp_avg_sq": v[r].detach().clone()}
    return {"model": model.state_dict(), "opt": topt.state_dict(), "sched": sched.state_dict(),
            "step": opt.t, "curve": list(curve), "elapsed": elapsed,
            "torch_rng": torch.get_rng_state()}

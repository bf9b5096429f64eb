"""Training and evaluation of sequence models on the tasks of :mod:`seqtheory.models.tasks`.

One run = one :class:`TrainConfig` (a frozen dataclass; its sha256 key is the run's identity in
the :class:`~seqtheory.models.store.ResultsStore`). Optimiser: AdamW with linear warm-up then
cosine decay to 0, gradient-norm clipping. Precision ``fp32`` | ``bf16`` (autocast; scans and
cumulative products stay in float32) | ``fp64``. Batches: rows of the fixed training set, or
(``fresh_words``) fresh uniform random words every step with an optional length curriculum
(:func:`training_batch`). Models: :data:`TRAIN_MODELS` (the :class:`SequenceModel` families and
the purely abelian one-layer ``"abelian"`` model). Device ``auto`` | ``cpu`` | ``cuda``. Seeds: python,
numpy and torch are seeded from ``cfg.seed``; minibatch ``s`` is drawn by a numpy generator seeded
by ``(seed, s)``, so a resumed run sees exactly the batches of an uninterrupted one (on CPU the
resumed run is bit-identical; tests/test_train.py).

Metrics (on the held-out test set, length ``2T`` by default):

* classification: ``per_position_accuracy[t]``; ``prefix_seq_acc[ℓ−1]`` = fraction of test
  sequences correct on all of their first ``ℓ`` positions; ``seq_acc`` = fraction of test sequences with
  every position correct (at the test length); ``seq_acc_train_length`` (first ``T`` positions);
  ``max_len_90`` = the largest ``ℓ`` such that ≥ 90% of test sequences are correct on all of their
  first ``ℓ`` positions (0 if none);
* regression: ``per_position_mse[t]`` (mean over sequences and the 3 coordinates), ``mse``.
"""
from __future__ import annotations

import functools
import time
from numbers import Integral
import traceback
from dataclasses import asdict, dataclass
from typing import Any, Callable

import numpy as np
import torch

from seqtheory.theory._messages import counted, shown
from seqtheory.theory.contract import as_list, check_instance

from ._checks import check_bool_fields, check_int, check_int_fields, check_optional_int, check_real, \
    check_real_field
from .abelian import AbelianStateModel
from .model import ModelConfig, SequenceModel
from .names import MODEL_NAMES, PRECISIONS
from .recipe import (checked_if_nonfinite, jsonable, lr_factor, run_dtype, seed_all, task_loss,
                     train_arrays)
from .run_state import isolated_run_state
from .store import ResultsStore, config_key, default_owner, keyed_config
from .tasks import (ROTATION_TASKS, TOKEN_TASK_SUFFIX, RotationSpec, WordProblemSpec,
                    canonical_task_name, make_rotation_task, make_token_task, make_word_problem,
                    resolved_test_length)

__all__ = ["TrainConfig", "build_task", "build_model", "TaskShape", "task_shape", "resolve_device",
           "train", "evaluate",
           "load_model", "PRECISIONS", "CODE_REVISION", "max_len_at", "TRAIN_MODELS",
           "length_at_step", "training_batch", "training_batches"]

#: Revision of the model/task code. It is part of every run configuration (hence of the store
#: key): bump it whenever a change to layers, tasks or training alters what a configuration
#: trains, so that stale stored results are not reused.
CODE_REVISION = 4   # 2: AUSSM learned start state; chunk = min(chunk, T); 3: fresh words, curriculum;
#                     4: closed-form chunked scans, stacked batched engine, per-element loss means
#: Model names a run may use: the :class:`SequenceModel` families plus ``"abelian"``
#: (:class:`~seqtheory.models.abelian.AbelianStateModel`, one purely abelian layer; depth 1 only).
TRAIN_MODELS = MODEL_NAMES + ("abelian",)
ProgressFn = Callable[[dict], None]


@keyed_config
@dataclass(frozen=True)
class TrainConfig:
    """Everything that defines a training run (hashed by the results store; device excluded).

    ``task``: a group name of SPEC §2 (``"C2"``, ``"S3"``, ``"H3(2)"`` …), ``"rotation_a5"``
    (exact icosahedral rotations) or ``"rotation_eps"`` (``exp(ε log R)``, ``eps`` required);
    ``"<group>.token"`` (e.g. ``"C2.token"``): the group's words labelled by their own tokens
    (:func:`~seqtheory.models.tasks.make_token_task`, a task that needs no memory).
    ``shuffle_labels``: negative control (training labels permuted across sequences).
    ``fresh_words``: every step draws a fresh batch of uniform random words (labels / targets
    computed by the task) instead of sampling the fixed training set; the test set is unchanged
    (words of length ``2T``, a length never trained on). ``curriculum_steps``: the training length
    ramps linearly from ``curriculum_start`` to ``train_length`` over that many steps (needs
    ``fresh_words``; 0 = no curriculum).
    """

    task: str
    model: str
    depth: int = 1
    width: int = 64
    n_heads: int = 4
    d_state: int = 16
    n_householder: int = 2
    positions: str = "rotary"
    train_length: int = 16
    test_length: int | None = None
    n_train: int = 4096
    n_test: int = 512
    convention: str = "left"
    eps: float | None = None
    start: tuple[float, float, float] = (0.0, 0.0, 1.0)
    steps: int = 1000
    batch_size: int = 64
    lr: float = 3e-3
    weight_decay: float = 0.01
    warmup: int = 50
    grad_clip: float = 1.0
    precision: str = "fp32"
    seed: int = 0
    data_seed: int = 0
    shuffle_labels: bool = False
    fresh_words: bool = False
    curriculum_steps: int = 0
    curriculum_start: int = 2
    checkpoint_every: int = 250
    log_every: int = 25
    code_revision: int = CODE_REVISION

    def __post_init__(self) -> None:
        if self.model not in TRAIN_MODELS:
            raise ValueError(f"model must be one of {TRAIN_MODELS}, got {self.model!r}")
        if self.model == "abelian" and self.depth != 1:
            raise ValueError(f"model 'abelian' has one layer: depth must be 1, got {shown(self.depth)}")
        if self.precision not in PRECISIONS:
            raise ValueError(f"precision must be one of {PRECISIONS}, got {self.precision!r}")
        if self.task == "rotation_eps" and self.eps is None:
            raise ValueError("task 'rotation_eps' needs eps > 0")
        if self.task == "rotation_a5" and self.eps is not None:
            raise ValueError("task 'rotation_a5' takes no eps (use 'rotation_eps')")
        check_int_fields(self, ("depth", "width", "n_heads", "d_state", "n_householder",
                                "train_length", "n_train", "n_test", "steps", "batch_size",
                                "checkpoint_every", "log_every"))
        check_int_fields(self, ("seed", "data_seed", "warmup", "curriculum_steps"), 0)
        check_int_fields(self, ("curriculum_start", "code_revision"))
        check_bool_fields(self, ("shuffle_labels", "fresh_words"))
        _check_start(self, "start")
        if self.curriculum_steps and not self.fresh_words:
            raise ValueError("curriculum_steps > 0 needs fresh_words=True (a fixed training set "
                             "has one length)")
        if self.curriculum_start > self.train_length:
            raise ValueError(f"curriculum_start ({self.curriculum_start}) must be <= train_length "
                             f"({self.train_length})")
        if self.test_length is not None:
            check_int_fields(self, ("test_length",), self.train_length)
        if self.convention not in ("left", "right"):
            raise ValueError(f"convention must be 'left' or 'right', got {self.convention!r}")
        for f, positive in (("lr", True), ("grad_clip", True), ("weight_decay", False)):
            check_real_field(self, f, 0, above=positive)
        if self.eps is not None:
            if self.task != "rotation_eps":
                raise ValueError(f"eps is only for task 'rotation_eps', got eps={shown(self.eps)} "
                                 f"for task {self.task!r}")
            check_real_field(self, "eps", 0, above=True)
        if not isinstance(self.task, str) or self.task != self.task.strip():
            # the task name is part of the store key: ' C2' and 'C2' must not be two runs
            raise ValueError(f"task must be a name without surrounding spaces, got {self.task!r}")
        if not self.is_rotation:
            from seqtheory.theory.groups import FiniteGroup, GroupTooLargeError
            try:
                FiniteGroup.named(self.task.removesuffix(TOKEN_TASK_SUFFIX))
            except GroupTooLargeError as exc:      # a valid name of a group too large to train on
                raise ValueError(f"task {self.task!r}: {exc}") from None
            except (ValueError, TypeError) as exc:
                raise ValueError(f"task must be a group name, 'rotation_a5' or 'rotation_eps': {exc}") from None
        if self.shuffle_labels and self.is_rotation:
            raise ValueError("shuffle_labels applies to word problems only")

    @classmethod
    def canonical_fields(cls, fields: dict) -> dict:
        """``fields`` (a configuration as a dict) in the one spelling of each value that names the
        same computation, for the store key (:func:`~seqtheory.models.store.config_key`): an
        explicit ``test_length`` equal to its default ``2 * train_length``
        (:func:`~seqtheory.models.tasks.resolved_test_length`) is ``None``, the spelling of the
        defaults the claims and the command line use; the task is its
        :func:`~seqtheory.models.tasks.canonical_task_name` (``"H3(3)"`` → ``"H3"``; ``"S3"``
        and ``"D6"`` stay apart: other token indices). Other fields are as given; a field that
        a setting leaves unused (``start`` of a word problem, ``curriculum_start`` without a
        curriculum) still takes part in the key."""
        out = dict(fields)
        length = out.get("train_length")
        if isinstance(length, Integral) and out.get("test_length") == \
                resolved_test_length(int(length)):
            out["test_length"] = None
        if isinstance(out.get("task"), str):
            out["task"] = canonical_task_name(out["task"])
        return out

    @classmethod
    def from_dict(cls, d: dict) -> "TrainConfig":
        """The configuration of a stored run's ``config`` dict (JSON lists back to tuples)."""
        return cls(**{k: tuple(v) if isinstance(v, list) else v for k, v in d.items()})

    @property
    def is_rotation(self) -> bool:
        return self.task in ROTATION_TASKS

    @functools.cached_property
    def key(self) -> str:
        """The run's store key (:func:`~seqtheory.models.store.config_key`), computed once per
        instance (the fields are frozen)."""
        return config_key(self)


def build_task(cfg: TrainConfig):
    """The dataset of ``cfg`` (WordProblemData or RotationData)."""
    if cfg.is_rotation:
        return make_rotation_task(RotationSpec(
            train_length=cfg.train_length, n_train=cfg.n_train, n_test=cfg.n_test,
            test_length=cfg.test_length, eps=cfg.eps, start=tuple(cfg.start),
            convention=cfg.convention, seed=cfg.data_seed))
    spec = WordProblemSpec(
        group=cfg.task.removesuffix(TOKEN_TASK_SUFFIX), train_length=cfg.train_length,
        n_train=cfg.n_train, n_test=cfg.n_test, test_length=cfg.test_length,
        convention=cfg.convention, seed=cfg.data_seed)
    data = (make_token_task(spec) if cfg.task.endswith(TOKEN_TASK_SUFFIX)
            else make_word_problem(spec))
    return data.with_shuffled_labels(cfg.data_seed) if cfg.shuffle_labels else data


@dataclass(frozen=True)
class TaskShape:
    """The sizes of a task that :func:`build_model` reads: ``vocab_size`` (tokens) and
    ``n_classes`` (labels of a word problem; unused by the regression head of a rotation task)."""

    vocab_size: int
    n_classes: int


def task_shape(cfg: TrainConfig):
    """The :class:`TaskShape` of ``cfg``'s task without generating its words: a word problem
    (and its token-label and shuffled-label variants, built without a start token) has ``|G|``
    tokens and ``|G|`` labels, ``|G|`` the order of the named group. A rotation task returns its
    dataset (:func:`build_task`; its size comes from the representation). Equal to
    ``build_task(cfg)``'s ``vocab_size`` / ``n_classes`` (tests/test_train.py); used where a model
    is rebuilt around stored weights (:func:`load_model`)."""
    if cfg.is_rotation:
        return build_task(cfg)
    from seqtheory.theory.groups import FiniteGroup

    n = FiniteGroup.named(cfg.task.removesuffix(TOKEN_TASK_SUFFIX)).order
    return TaskShape(vocab_size=n, n_classes=n)


def build_model(cfg: TrainConfig, data) -> SequenceModel | AbelianStateModel:
    """The untrained model of ``cfg`` for the task ``data`` (a dataset of :func:`build_task` or
    a :class:`TaskShape`: only its ``vocab_size`` and ``n_classes`` are read)."""
    rot = cfg.is_rotation
    if cfg.model == "abelian":
        return AbelianStateModel(data.vocab_size, 3 if rot else data.n_classes, width=cfg.width,
                                 hidden=2 * cfg.width)
    mc = ModelConfig(name=cfg.model, vocab_size=data.vocab_size, n_out=3 if rot else data.n_classes,
                     depth=cfg.depth, width=cfg.width, n_heads=cfg.n_heads, d_state=cfg.d_state,
                     head="regression" if rot else "classification", positions=cfg.positions,
                     n_householder=cfg.n_householder,
                     max_len=max(4096, 2 * resolved_test_length(cfg.train_length, cfg.test_length)))
    return SequenceModel(mc)


def resolve_device(device: str) -> torch.device:
    """``auto`` → cuda when available else cpu; ValueError for unknown names or missing CUDA."""
    if device not in ("auto", "cpu", "cuda"):
        raise ValueError(f"device must be 'auto', 'cpu' or 'cuda', got {device!r}")
    if device == "cuda" and not torch.cuda.is_available():
        raise ValueError("device 'cuda' requested but torch sees no CUDA GPU")
    if device == "auto":
        device = "cuda" if torch.cuda.is_available() else "cpu"
    return torch.device(device)


def length_at_step(cfg: TrainConfig, step: int) -> int:
    """Training length at (0-based) ``step``: ``train_length``, or with a curriculum the linear
    ramp ``curriculum_start → train_length`` over ``curriculum_steps`` steps (then constant)."""
    step = check_int("step", step, 0)
    if not cfg.curriculum_steps:
        return cfg.train_length
    frac = min(1.0, step / cfg.curriculum_steps)
    return int(round(cfg.curriculum_start + frac * (cfg.train_length - cfg.curriculum_start)))


def training_batch(cfg: TrainConfig, data, step: int) -> tuple[np.ndarray, np.ndarray]:
    """The minibatch ``(tokens (B, ℓ), labels (B, ℓ) | targets (B, ℓ, 3))`` of ``step``, a pure
    function of ``(cfg, step)`` (resumed runs see the same batches). ``fresh_words``: uniform random
    words of length :func:`length_at_step` from a generator seeded by ``(seed, step)``; with
    ``shuffle_labels`` their label sequences are permuted across the batch (negative control).
    Otherwise: rows of the fixed training set."""
    rng = np.random.default_rng([cfg.seed, step])
    if not cfg.fresh_words:
        xtr, ytr, _, _ = train_arrays(data, cfg)
        idx = rng.integers(0, len(xtr), cfg.batch_size)
        return xtr[idx], ytr[idx]
    words = rng.integers(0, data.vocab_size, (cfg.batch_size, length_at_step(cfg, step)))
    y = data.propagate(words) if cfg.is_rotation else data.label(words)
    if cfg.shuffle_labels:
        y = y[rng.permutation(len(y))]
    return words, y


def training_batches(cfgs, datas, step: int) -> tuple[np.ndarray, np.ndarray]:
    """The minibatches of ``step`` of several runs of one shape (same task, batch size and
    lengths; :func:`seqtheory.models.batched.shape_key`), stacked: ``(R, B, ℓ)`` tokens and
    ``(R, B, ℓ)`` labels / ``(R, B, ℓ, 3)`` targets, equal to stacking
    :func:`training_batch` of each ``(cfgs[r], datas[r])``. With fresh words, the labels of the
    runs that share a dataset object are computed in one call (the per-run generators draw the
    words and shuffles exactly as :func:`training_batch` does)."""
    shapes = {(c.fresh_words, c.batch_size, length_at_step(c, step), c.is_rotation) for c in cfgs}
    if len(shapes) != 1 or not cfgs[0].fresh_words:
        xs, ys = zip(*(training_batch(c, d, step) for c, d in zip(cfgs, datas)))
        return np.stack(xs), np.stack(ys)
    rngs = [np.random.default_rng([c.seed, step]) for c in cfgs]
    B, length = cfgs[0].batch_size, length_at_step(cfgs[0], step)
    words = np.stack([rng.integers(0, d.vocab_size, (B, length)) for rng, d in zip(rngs, datas)])
    ys: list = [None] * len(cfgs)
    sharing: dict[int, list[int]] = {}
    for r, d in enumerate(datas):
        sharing.setdefault(id(d), []).append(r)
    for idx in sharing.values():
        d, w = datas[idx[0]], words[idx].reshape(len(idx) * B, length)
        y = d.propagate(w) if cfgs[0].is_rotation else d.label(w)
        for k, r in enumerate(idx):
            ys[r] = y[k * B:(k + 1) * B]
            if cfgs[r].shuffle_labels:
                ys[r] = ys[r][rngs[r].permutation(B)]
    return words, np.stack(ys)


def max_len_at(correct: np.ndarray, threshold: float = 0.9) -> int:
    """From a boolean ``(N, T)`` array of per-position correctness: the largest ``ℓ`` with
    ``mean_n all(correct[n, :ℓ]) ≥ threshold`` (0 when even ``ℓ = 1`` fails)."""
    correct = np.asarray(correct, dtype=bool)
    prefix_ok = np.logical_and.accumulate(correct, axis=1).mean(axis=0)
    ok = np.flatnonzero(prefix_ok >= threshold)
    # prefix accuracy is non-increasing in ℓ, so the admissible ℓ form an initial segment
    return int(ok[-1] + 1) if ok.size else 0


@torch.no_grad()
def evaluate(model: SequenceModel, tokens: np.ndarray, targets: np.ndarray, regression: bool,
             device: torch.device, dtype: torch.dtype = torch.float32, batch: int = 256,
             train_length: int | None = None) -> dict[str, Any]:
    """Metrics of ``model`` on ``(tokens, targets)`` (see the module docstring)."""
    model.eval()
    outs = []
    for i in range(0, len(tokens), batch):
        x = torch.as_tensor(tokens[i:i + batch], device=device)
        o = model(x)
        outs.append(o.to(torch.float64).cpu().numpy() if regression else o.argmax(-1).cpu().numpy())
    pred = np.concatenate(outs)
    model.train()
    if regression:
        pp = ((pred - targets) ** 2).mean(axis=(0, 2))
        return {"per_position_mse": pp.tolist(), "mse": float(pp.mean()),
                "mse_train_length": float(pp[:train_length].mean()) if train_length else None}
    correct = pred == targets
    res = {"per_position_accuracy": correct.mean(axis=0).tolist(),
           "prefix_seq_acc": np.logical_and.accumulate(correct, axis=1).mean(axis=0).tolist(),
           "seq_acc": float(correct.all(axis=1).mean()),
           "max_len_90": max_len_at(correct, 0.9), "test_length": int(tokens.shape[1])}
    if train_length:
        res["seq_acc_train_length"] = float(correct[:, :train_length].all(axis=1).mean())
    return res


def train(cfg: TrainConfig, store: ResultsStore | None = None, device: str = "auto",
          owner: str | None = None, on_progress: ProgressFn | None = None,
          lease_s: float = 120.0, threads: int | None = None,
          wait_s: float = 0.0) -> dict[str, Any]:
    """Train ``cfg`` (or return its stored result when the store holds it finished).

    With a ``store``: the run is claimed for ``owner`` (RuntimeError if another live worker holds
    it), resumed from its last checkpoint if any, checkpointed every ``checkpoint_every`` steps and
    at the end, and its result stored. ``on_progress(info)`` is called every ``log_every`` steps
    with ``step, steps, loss, acc`` (training-batch accuracy or None), ``tokens_per_s``.
    ``threads``: torch intra-op threads for this run (restored afterwards); 1 avoids
    oversubscription on a shared CPU. Torch's global state (default dtype, random generators,
    autocast, matmul precision) is pinned during the run and restored afterwards
    (:func:`~seqtheory.models.run_state.isolated_run_state`): the result depends on ``cfg`` only. ``wait_s``: when another live worker holds the run, poll
    the store for up to this long (its result is returned when it finishes; the run is taken over
    if its lease expires) instead of raising at once.
    Returns the result dict (config, key, device, metrics, curves, timings). ``ValueError``
    for a ``lease_s`` that is not a positive number or a ``wait_s`` below 0 (numpy scalars are
    numbers).
    """
    check_instance("cfg", cfg, TrainConfig, "a TrainConfig")
    if store is not None:
        check_instance("store", store, ResultsStore, "a ResultsStore or None")
    lease_s = check_real("lease_s", lease_s, 0, above=True)
    wait_s = check_real("wait_s", wait_s, 0)
    threads = check_optional_int("threads", threads)
    if store is not None:
        done = store.result(cfg)
        if done is not None:
            return dict(done, from_store=True)
    dev = resolve_device(device)
    owner = owner or default_owner()
    if store is not None:
        done = store.wait_or_claim(cfg, owner, lease_s=lease_s, wait_s=wait_s)
        if done is not None:
            return dict(done, from_store=True)
    try:
        with isolated_run_state(dev, threads):
            result = _train(cfg, store, dev, owner, on_progress, lease_s)
    except BaseException as exc:
        if store is not None:
            if isinstance(exc, Exception):
                store.fail(cfg, owner, traceback.format_exc())
            else:  # KeyboardInterrupt / SystemExit: give the lease back, keep the checkpoint
                store.release(cfg, owner)
        raise
    if store is not None:
        store.finish(cfg, owner, result)
    return dict(result, from_store=False)


def _check_start(cfg: "TrainConfig", name: str = "start") -> None:
    """``cfg.start``: three finite reals (:func:`~seqtheory.theory.contract.check_real`); an int or
    float entry is kept as given (the key a run was stored under before numbers were normalised
    reads it), another number (numpy, Fraction) is replaced by its float."""
    start = as_list(name, getattr(cfg, name), "a 3-vector of finite reals")
    if len(start) != 3:
        raise ValueError(f"start must be a 3-vector, got {counted(len(start), 'entry', 'entries')}")
    values = [check_real(f"{name}[{i}]", v) for i, v in enumerate(start)]
    kept = [v if type(v) in (int, float) else f for v, f in zip(start, values)]
    if any(a is not b for a, b in zip(kept, start)):
        object.__setattr__(cfg, name, tuple(kept))


def _train(cfg, store, dev, owner, on_progress, lease_s) -> dict[str, Any]:
    seed_all(cfg.seed)
    data = build_task(cfg)
    xtr, ytr, xte, yte = train_arrays(data, cfg)
    model = build_model(cfg, data).to(device=dev, dtype=run_dtype(cfg))
    opt = torch.optim.AdamW(model.parameters(), lr=cfg.lr, weight_decay=cfg.weight_decay)
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: lr_factor(cfg, s))
    start, curve, elapsed = 0, [], 0.0
    if store is not None:
        ck = store.load_checkpoint(cfg)
        if ck is not None:
            model.load_state_dict(ck["model"])
            opt.load_state_dict(ck["opt"])
            sched.load_state_dict(ck["sched"])
            start, curve, elapsed = ck["step"], ck["curve"], ck.get("elapsed", 0.0)
            torch.set_rng_state(ck["torch_rng"])
    regression = cfg.is_rotation
    ydtype = run_dtype(cfg) if regression else torch.long
    amp = cfg.precision == "bf16"
    t0, tokens_seen, last_hb = time.perf_counter(), 0, time.time()
    model.train()
    for step in range(start, cfg.steps):
        xnp, ynp = training_batch(cfg, data, step)
        xb, yb = torch.as_tensor(xnp).to(dev), torch.as_tensor(ynp, dtype=ydtype).to(dev)
        def forward(xb=xb, yb=yb):
            with torch.autocast(dev.type, dtype=torch.bfloat16, enabled=amp):
                out = model(xb)
            return out, task_loss(out, yb, regression)

        out, loss = checked_if_nonfinite(forward)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), cfg.grad_clip)
        opt.step()
        sched.step()
        tokens_seen += xb.numel()
        s = step + 1
        if s % cfg.log_every == 0 or s == cfg.steps:
            acc = None if regression else float((out.argmax(-1) == yb).float().mean())
            dt = time.perf_counter() - t0
            info = {"step": s, "steps": cfg.steps, "loss": float(loss.detach()), "acc": acc,
                    "tokens_per_s": tokens_seen / dt if dt > 0 else float("nan"),
                    "lr": sched.get_last_lr()[0]}
            curve.append({k: info[k] for k in ("step", "loss", "acc")})
            if store is not None:
                store.log_metrics(cfg, s, info)
                if time.time() - last_hb > lease_s / 4:
                    store.heartbeat(cfg, owner, s, lease_s)
                    last_hb = time.time()
            if on_progress is not None:
                on_progress(info)
        if store is not None and (s % cfg.checkpoint_every == 0 or s == cfg.steps):
            _save(store, cfg, model, opt, sched, s, curve, elapsed + time.perf_counter() - t0)
            store.heartbeat(cfg, owner, s, lease_s)
            last_hb = time.time()
    train_time = elapsed + time.perf_counter() - t0
    metrics = evaluate(model, xte, yte, regression, dev, run_dtype(cfg), train_length=cfg.train_length)
    train_metrics = evaluate(model, xtr[:512], ytr[:512], regression, dev, run_dtype(cfg))
    return {"config": asdict(cfg), "key": cfg.key, "device": dev.type, "precision": cfg.precision,
            "torch": torch.__version__, "train_time_s": train_time,
            "tokens_per_s": tokens_seen / max(1e-9, time.perf_counter() - t0),
            "final_loss": curve[-1]["loss"] if curve else None, "curve": curve,
            "test": metrics, "train": train_metrics, "data": jsonable(data.metadata)}


def _save(store, cfg, model, opt, sched, step, curve, elapsed) -> None:
    store.save_checkpoint(cfg, {"model": model.state_dict(), "opt": opt.state_dict(),
                                "sched": sched.state_dict(), "step": step, "curve": list(curve),
                                "elapsed": elapsed, "torch_rng": torch.get_rng_state()})


def load_model(cfg: TrainConfig, store: ResultsStore, device: str = "cpu") -> SequenceModel:
    """The trained model of a finished run, from its final checkpoint (ValueError if absent)."""
    if store.result(cfg) is None:
        raise ValueError(f"run {cfg.key[:12]} is not finished in the store {store.root}")
    ck = store.load_checkpoint(cfg, map_location=device)
    if ck is None:
        raise ValueError(f"run {cfg.key[:12]} has no checkpoint in {store.root}")
    model = build_model(cfg, task_shape(cfg)).to(device=resolve_device(device), dtype=run_dtype(cfg))
    model.load_state_dict(ck["model"])
    model.eval()
    return model

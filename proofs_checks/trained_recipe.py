"""The training recipe and evaluation protocol shared by the trained claims of [DEPTH] (G. Heo et
al., arXiv:2603.05573): parity (:mod:`.claims.finding_parity`), S3 (:mod:`.claims.depth_s3_trained`),
Table 1 (:mod:`.claims.depth_word_problems`), the A5 rotation task (:mod:`.claims.depth_rotation`)
and the trained half of Proposition 3.7 (:mod:`.claims.depth_prop37_trained`).

Each of those claims decides on **success rates over seeds** by counts stated here before any run
(:data:`RATE_RULE`, a :class:`~seqtheory.proofs_checks.rates.SeedRule`) and reports each rate with
its Wilson 95% interval (:func:`~seqtheory.proofs_checks.rates.rate_text`). Its runs go through
:func:`~seqtheory.proofs_checks.training_runs.run_arms` (read from the results store when finished
there); seeds come from the run seed by fixed salts (:func:`seed_configs`).

Training recipe (every word-problem run, :func:`recipe`): fresh uniform random words every step, a
length curriculum (``2 → T`` over the first third of the steps), AdamW with linear warm-up and
cosine decay, gradient clipping at 1.0 (:class:`~seqtheory.models.training.TrainConfig`). Word problems
use the ``left`` convention (``g_t = x_t · g_{t−1}``, SPEC §2); test words are never trained on at
their length (``2T`` unless a claim says otherwise; :func:`check_protocol`).
"""
from __future__ import annotations

from seqtheory.proofs_checks.rates import SeedRule
from seqtheory.proofs_checks.registry import Context
from seqtheory.proofs_checks.seed_blocks import n_block_seeds
from seqtheory.proofs_checks.training_runs import seeds

__all__ = ["SUCCESS", "RATE_RULE", "PAPER_T", "PAPER_RECIPE", "S3_FACTORS", "recipe", "paper_batch",
           "paper_scale", "PAPER_BATCH_MAX_TOKENS_DEPTH",
           "seed_configs", "wp_cfgs", "s3_scale", "acc_at", "validate_heldout", "check_protocol"]

SUCCESS = 0.9          # sequence accuracy that counts as "solved" (the paper's threshold)
#: succeeds: ≥ 80% of seeds (4/5, 3/3); fails: no seed succeeds. Stated before the runs.
RATE_RULE = SeedRule(min_rate=0.8, max_rate=0.0)
#: the train length of the paper's released sweep grid (``sweeps/paper_full.toml``; its test
#: length is 256)
PAPER_T = 128
#: the package's training budget of the ``paper`` profile's word-problem family (parity, S3, Table
#: 1, rotation, A5), float32, 5 seeds per block: the paper's is unknown. Width and steps are the
#: package's choice; the batch is the smaller of the paper grid's two (``sweeps/paper_full.toml``:
#: 256 and 2048) where the cell allows it (:func:`paper_batch`).
PAPER_RECIPE = dict(width=64, steps=2000, batch_size=256)
#: the largest train length × depth of a cell trained at the paper grid's batch 256: one run of a
#: longer or deeper cell at batch 256 is estimated to need more than one 6-minute shard of an
#: H200 (:mod:`~seqtheory.proofs_checks.shards`: A5 depth 8 at T = 128, about 410 s), and a run
#: cannot be cut across shards, so such cells keep the recipe's batch 32
PAPER_BATCH_MAX_TOKENS_DEPTH = 512
#: extrapolation factors of the word-problem cells: tested on words 8T and 16T long (far beyond
#: the trained range)
S3_FACTORS = (8, 16)


def recipe(T: int, steps: int, **kw) -> dict:
    """Training options of a word-problem / rotation run: fresh words every step, curriculum
    ``min(2, T) → T`` over ``steps // 3`` steps, warm-up ``steps // 20``, batch 32, width 32,
    lr 3e-3, clip 1.0. ``kw`` overrides any field."""
    d = dict(train_length=T, steps=steps, width=32, lr=3e-3, batch_size=32, warmup=max(1, steps // 20),
             grad_clip=1.0, fresh_words=True, curriculum_steps=steps // 3,
             curriculum_start=min(2, T), n_train=min(64, 2 ** T), n_test=256)
    d.update(kw)
    return d


def paper_batch(T: int, depth: int) -> int:
    """The batch of a ``paper`` cell of train length ``T`` and ``depth`` layers:
    :data:`PAPER_RECIPE`'s 256 (the paper grid's smaller batch) when ``T × depth`` is at most
    :data:`PAPER_BATCH_MAX_TOKENS_DEPTH`, else the recipe's 32 (one run would not fit a shard).
    The grid's batch 2048 is not used: one run at T = 128 and depth 2 is estimated at about 410 s
    of an H200 (8× the tokens of batch 256; :mod:`~seqtheory.proofs_checks.shards`), more than a
    shard. Every ``paper`` cell draws fresh words each step, so any batch is allowed by the data."""
    return PAPER_RECIPE["batch_size"] if T * depth <= PAPER_BATCH_MAX_TOKENS_DEPTH else 32


def paper_scale(ctx: Context, T: int, depth: int) -> dict:
    """Recipe overrides of the profile for a cell of train length ``T`` and ``depth`` layers:
    :data:`PAPER_RECIPE`'s width and :func:`paper_batch` in ``paper``, none in ``quick`` /
    ``full`` (width 32, batch 32). The steps are picked with each claim's train length."""
    return ctx.by_profile({}, {}, paper={"width": PAPER_RECIPE["width"],
                                         "batch_size": paper_batch(T, depth)})


def seed_configs(ctx: Context, salt: str, n: int, **kw) -> list:
    """``n`` :class:`~seqtheory.models.training.TrainConfig` (fields ``kw``) differing only in their
    seed (from ``salt``); the test set is fixed per task (data seed from the task name)."""
    from seqtheory.models.training import TrainConfig

    data_seed = ctx.numpy_seed("data:" + kw["task"]) % 2**31
    return [TrainConfig(seed=s, data_seed=data_seed, **kw) for s in seeds(ctx, salt, n)]


def wp_cfgs(ctx: Context, group: str, model: str, depth: int, T: int, steps: int,
            shuffle: bool = False) -> list:
    """The seeds of one word-problem cell (group, model, depth, train length T): both replication
    blocks (:func:`~seqtheory.proofs_checks.seed_blocks.n_block_seeds`, in seed order), the recipe,
    test words 16T long (accuracy at 2T, 8T, 16T read from the prefix accuracies).
    ``depth.exp.s3_depth`` and ``depth.exp.word_problems`` share these runs."""
    return seed_configs(ctx, f"wp:{group}:{model}:{depth}:{T}" + (":shuffled" if shuffle else ""),
                        n_block_seeds(ctx), task=group, model=model, depth=depth, shuffle_labels=shuffle,
                        **recipe(T, steps, test_length=max(S3_FACTORS) * T, n_test=128,
                                 **paper_scale(ctx, T, depth)))


def s3_scale(ctx: Context) -> tuple[int, int]:
    """(train length T, steps) of the S3 cells per profile; Table 1's D8 and S3 cells use it too."""
    return ctx.by_profile((4, 600), (8, 2000), paper=(PAPER_T, PAPER_RECIPE["steps"]))


def acc_at(result: dict, length: int) -> float:
    """Held-out sequence accuracy of a word-problem run on the first ``length`` positions."""
    pa = result["test"]["prefix_seq_acc"]
    if not 1 <= length <= len(pa):
        raise ValueError(f"length must lie in [1, {len(pa)}], got {length}")
    return float(pa[length - 1])


def validate_heldout(result: dict, factor: int = 2) -> list[str]:
    """Problems with a word-problem result's evaluation protocol (empty when sound): the test
    length must be ``factor`` × the training length, and the test data held out."""
    probs = []
    d = result.get("data", {})
    T, T2 = d.get("train_length"), d.get("test_length")
    if T is None or T2 != factor * T:
        probs.append(f"test length {T2} is not {factor}× the training length {T}")
    if result.get("test", {}).get("test_length") != T2:
        probs.append("evaluated length differs from the dataset's test length")
    if "held_out" not in d:
        probs.append("no held-out statement in the dataset metadata")
    return probs


def check_protocol(results: list[dict], factor: int = 2) -> None:
    """RuntimeError when a run's evaluation protocol is broken (:func:`validate_heldout`)."""
    for r in results:
        probs = validate_heldout(r, factor)
        if probs:
            raise RuntimeError(f"evaluation protocol broken in run {r['key'][:12]}: {probs}")

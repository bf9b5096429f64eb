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

__all__ = ["SUCCESS", "RATE_RULE", "PAPER_T", "PAPER_RECIPE", "S3_FACTORS", "recipe", "paper_width",
           "seed_configs", "wp_cfgs", "s3_scale", "acc_at", "validate_heldout", "check_protocol"]

SUCCESS = 0.9          # sequence accuracy that counts as "solved" (the paper's threshold)
#: succeeds: ≥ 80% of seeds (4/5, 3/3); fails: no seed succeeds. Stated before the runs.
RATE_RULE = SeedRule(min_rate=0.8, max_rate=0.0)
#: the train length of the paper's released sweep grid (``sweeps/paper_full.toml``; its test
#: length is 256)
PAPER_T = 128
#: the package's training budget of the ``paper`` profile's word-problem family (parity, S3, Table
#: 1, rotation, A5), float32, batch 32 (the recipe's), 5 seeds per cell: the paper's is unknown.
#: ESTIMATE from the plans, not a measurement: 165 distinct float32 runs (controls included; the
#: S3 cells are shared by s3_depth and word_problems), Σ steps × batch × train length × depth =
#: 2.3e9 token-layer steps, about 180× the measured reference (benchmarks/README_batched.md: 32
#: batched runs of S3, mamba, width 32, T = 16, batch 64, depth 2, 200 steps = 1.3e7 in 3.6 s on
#: one H200). Scaled linearly that is about 10 minutes, but width 64, words up to 128 (tested up to
#: 16T = 2048), AUSSM layers and batched groups of 5–10 runs per shape (not 32) differ from the
#: reference: the 10-minute target is unverified until measured.
PAPER_RECIPE = dict(width=64, steps=2000)
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


def paper_width(ctx: Context) -> dict:
    """Recipe overrides of the profile: :data:`PAPER_RECIPE`'s width in ``paper``, none in
    ``quick`` / ``full`` (width 32). The steps are picked with each claim's train length."""
    return ctx.by_profile({}, {}, paper={"width": PAPER_RECIPE["width"]})


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
                                 **paper_width(ctx)))


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

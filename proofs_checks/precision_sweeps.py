"""The training runs of the trained abelian claims of [DEPTH] (G. Heo et al., arXiv:2603.05573) at
the approximation floor, ``depth.cor3.6.trained`` and ``depth.thm3.2.abelian.trained``: one
ε-continuation sweep per (depth, coupling, seed), stored in the results store and trained once.

Both claims read the **deep abelian model** (:class:`~seqtheory.models.abelian_deep.DeepAbelianModel`:
k layers of commuting diagonal transitions without bias, layer i's transitions an MLP of the token
and of layer i−1's state, Proposition 3.3's coupling) on the ε-scaled A5 rotation task (left action
``h_t = exp(ε X_{x_t}) h_{t−1}``) in **precision mode** (:mod:`seqtheory.models.precision`: float64,
full-batch L-BFGS, then Levenberg–Marquardt where the profile gives it steps, ε-continuation over
the local grid :data:`LOCAL_EPS` from the largest ε down, loss divided by the constant predictor's).
Each ε point carries a convergence certificate (held-out change < 5% when the budget is doubled;
stall test: a Gauss–Newton step lowers the training loss by ≤ 2%; gradient norm; ratios to the
exact reference floors of :mod:`seqtheory.numerics.reference_floors`). An ε-continuation sweep is
one results-store record (:class:`~seqtheory.models.precision.PrecisionConfig`), so an evidence
bundle made elsewhere (a GPU session, a longer CPU run) replaces these runs without code changes.

Why the local grid: the target is a unit vector, so errors saturate at large ε and even the exact
predictors have the wrong slopes there (issue 24: the best abelian predictor 1.50, the order-2
Magnus predictor 2.47 on 0.025 … 0.8; 2.00 and 2.99 on 0.0125 … 0.1).

The claims read the sweeps through this module (``precision_sweeps.sweeps(ctx, depth)``), so a
test can stand in for the store in one place.
"""
from __future__ import annotations

from dataclasses import dataclass

from seqtheory.models.store import keyed_config
from seqtheory.theory._messages import counted

from .registry import Context
from .seed_blocks import n_block_seeds, split_blocks
from .training_runs import from_bundle, seeds, store

__all__ = ["LOCAL_EPS", "SCALES", "SWEEPS_PER_BLOCK", "scale", "depths", "n_seeds", "sweep_configs",
           "sweeps", "sweep_blocks", "SweepSet", "JOBS", "plan_sweeps", "scale_note"]

#: the local ε grid, in continuation order (largest first)
LOCAL_EPS = (0.1, 0.05, 0.025, 0.0125)

#: sizes and budgets per profile ("_deep": depths ≥ 2). quick: seconds on one CPU thread at
#: T = 6 (depth 1: 1024 words, L-BFGS 300 per budget, measured ~13 CPU-s for the 4-point sweep, 3
#: of 4 points certified; depths ≥ 2: 384 words, L-BFGS 40, not certifiable at this budget, and
#: the verdict says so). full: the scale of issue 24's measurements (T = 12; depth 1: width 8,
#: readout 32, 2048 words, L-BFGS 500; depths ≥ 2: 512 words, L-BFGS 1000 per budget; measured
#: 2026-12-02 in a full run: 146–159 CPU-s per depth-1 sweep, 167 / 243 s at depths 2 / 3, 149 s
#: for the uncoupled control). Levenberg–Marquardt is not in ``full``: one exact
#: Jacobian of this depth-2 cascade (3,635 parameters, 18,432 residuals) took 109 CPU-s and of the
#: depth-3 one (5,651 parameters) 236 CPU-s (2026-12-02, one thread, forward mode in chunks of
#: 256), so 25 steps per budget would take about 6 and 13 CPU-hours per sweep, far beyond ``full``'s
#: 90 minutes on 2 cores. A PrecisionConfig with ``lm_iters > 0`` trained elsewhere (an evidence
#: bundle from a GPU session or a long CPU run) is read without code changes.
SCALES = {
    "quick": dict(train_length=6, n_train=1024, n_test=256, width=4, hidden=16, coupling_hidden=8,
                  lbfgs_iters=300, lm_iters=0),
    "quick_deep": dict(train_length=6, n_train=384, n_test=128, width=4, hidden=16,
                       coupling_hidden=8, lbfgs_iters=40, lm_iters=0),
    "full": dict(train_length=12, n_train=2048, n_test=512, width=8, hidden=32, coupling_hidden=16,
                 lbfgs_iters=500, lm_iters=0),
    "full_deep": dict(train_length=12, n_train=512, n_test=512, width=8, hidden=32,
                      coupling_hidden=16, lbfgs_iters=1000, lm_iters=0),
}


def scale(ctx: Context, depth: int) -> dict:
    """The sizes and budgets of :data:`SCALES` of the profile at ``depth``."""
    return SCALES[ctx.by_profile("quick", "full") + ("_deep" if depth > 1 else "")]


def depths(ctx: Context) -> list[int]:
    """The depths the profile trains."""
    return ctx.by_profile([1, 2], [1, 2, 3])


#: sweeps (seeds) per replication block and depth, in every profile (a sweep is a whole
#: ε-continuation with its certificate: quick ~13 CPU-s at depth 1, full 150–245 CPU-s)
SWEEPS_PER_BLOCK = 1


def n_seeds(ctx: Context, depth: int = 1) -> int:
    """Seeds per depth: :data:`SWEEPS_PER_BLOCK` in each replication block
    (:mod:`~seqtheory.proofs_checks.seed_blocks`), so 2 at every depth and profile."""
    return n_block_seeds(ctx, SWEEPS_PER_BLOCK)


def sweep_configs(ctx: Context, depth: int, coupling: bool = True) -> list:
    """The :class:`~seqtheory.models.precision.PrecisionConfig` of each seed of a depth."""
    from seqtheory.models.precision import PrecisionConfig

    sizes = scale(ctx, depth)
    data_seed = ctx.numpy_seed("data:rotation_eps") % 2**31
    return [PrecisionConfig(eps=LOCAL_EPS, depth=depth, coupling=coupling, data_seed=data_seed,
                            seed=s, **sizes)
            for s in seeds(ctx, f"precision:{depth}:{coupling}", n_seeds(ctx, depth))]


def sweeps(ctx: Context, depth: int, coupling: bool = True) -> list[dict]:
    """The stored results of :func:`sweep_configs`, in seed order (trained here on one torch thread when absent;
    read from the evidence bundle, never trained, with ``ctx.evidence``)."""
    import torch

    from seqtheory.models.precision import stored_sweep

    cfgs = sweep_configs(ctx, depth, coupling)
    if ctx.evidence is not None:
        return from_bundle(ctx, cfgs)
    old = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        st = store(ctx)
        return [stored_sweep(c, st) for c in cfgs]
    finally:
        torch.set_num_threads(old)


def sweep_blocks(ctx: Context, depth: int, coupling: bool = True) -> dict[str, tuple[list, list]]:
    """The sweeps of a depth cut into replication blocks: ``{block: (seeds, [stored sweep, …])}``
    (:func:`~seqtheory.proofs_checks.seed_blocks.split_blocks`, seed order)."""
    res = sweeps(ctx, depth, coupling)
    seeds_ = split_blocks([c.seed for c in sweep_configs(ctx, depth, coupling)])
    return {b: (seeds_[b], rs) for b, rs in split_blocks(res).items()}


@keyed_config
@dataclass(frozen=True)
class SweepSet:
    """The sweeps of one training job (one depth and coupling, every seed): the job's store key;
    its stored result lists the sweeps' keys."""

    sweeps: tuple


#: the training jobs: entry point → (depth, coupling); one job per depth, so that a profile's
#: depths train in parallel on the CPU workers (each job trains its seeds one after the other)
JOBS = {"train_depth1": (1, True), "train_depth2": (2, True), "train_depth3": (3, True),
        "train_uncoupled": (2, False)}
#: rough CPU seconds of one sweep (quick, full) per job, for the scheduler's balance only
_JOB_COST = {1: (5.0, 160.0), 2: (6.0, 170.0), 3: (8.0, 245.0)}


def _jobs(ctx: Context, controls: bool) -> dict[str, tuple[int, bool]]:
    return {name: (k, c) for name, (k, c) in JOBS.items()
            if (c and k in depths(ctx)) or (not c and controls)}


def _train_job(ctx: Context, depth: int, coupling: bool) -> None:
    from seqtheory.models.store import default_owner

    sweeps(ctx, depth, coupling)
    st, job = store(ctx), SweepSet(tuple(sweep_configs(ctx, depth, coupling)))
    owner = default_owner()
    if st.result(job) is None and st.claim(job, owner):
        st.finish(job, owner, {"sweeps": [st.key(c) for c in job.sweeps]})


def train_depth1(ctx: Context) -> None:
    """Training job (:class:`~seqtheory.proofs_checks.training_runs.StoreJob`): the depth-1 sweeps."""
    _train_job(ctx, *JOBS["train_depth1"])


def train_depth2(ctx: Context) -> None:
    """Training job: the coupled depth-2 sweeps."""
    _train_job(ctx, *JOBS["train_depth2"])


def train_depth3(ctx: Context) -> None:
    """Training job: the coupled depth-3 sweeps."""
    _train_job(ctx, *JOBS["train_depth3"])


def train_uncoupled(ctx: Context) -> None:
    """Training job: the depth-2 sweeps with the coupling removed (control of cor3.6)."""
    _train_job(ctx, *JOBS["train_uncoupled"])


def plan_sweeps(ctx: Context, controls: bool) -> list:
    """The training plan of both claims: one :class:`~seqtheory.proofs_checks.training_runs.StoreJob`
    per depth (and for the uncoupled control with ``controls``), keyed by its :class:`SweepSet`."""
    from seqtheory.proofs_checks.training_runs import StoreJob

    return [StoreJob(f"{__name__}:{name}", SweepSet(tuple(sweep_configs(ctx, k, c))),
                     ctx.by_profile(*_JOB_COST[k]) * n_seeds(ctx, k))
            for name, (k, c) in _jobs(ctx, controls).items()]


def scale_note(ctx: Context, deep: bool = True) -> str:
    """The scale of the runs, for the verdict (``deep``: with that of depths ≥ 2)."""
    s, d = scale(ctx, 1), scale(ctx, 2)
    note = (f"scale: T = {s['train_length']}, depth 1: {counted(s['n_train'], 'training word')}, width "
            f"{s['width']}, L-BFGS {s['lbfgs_iters']} per ε, {counted(SWEEPS_PER_BLOCK, 'seed')} per "
            "block")
    if deep:
        lm = f" + LM {d['lm_iters']}" if d["lm_iters"] else ""
        note += (f"; depth ≥ 2: {counted(d['n_train'], 'word')}, width {d['width']}, L-BFGS {d['lbfgs_iters']}"
                 f"{lm} per ε, {counted(SWEEPS_PER_BLOCK, 'seed')} per block")
    return note + "; each budget run twice for the certificate"

"""Replication blocks of the trained claims (SPEC §3, "trained verdicts replicate"): a trained
verdict is decided on at least two disjoint blocks of seeds, each block by the claim's rule alone,
and stands only when every block gives it (:func:`~seqtheory.proofs_checks.registry.replicate`;
blocks that disagree give ``inconclusive``, both shown).

A claim trains ``len(BLOCKS) × per-block`` seeds of each cell from fixed salts
(:func:`~seqtheory.proofs_checks.training_runs.seeds`, whose seed ``i`` does not depend on how
many are drawn) and cuts them, in seed order, into consecutive blocks (:func:`split_blocks`):
block ``A`` holds the first seeds, block ``B`` the next ones, so a larger profile's block ``A``
holds the seeds a smaller run drew first.

Block sizes (:data:`BLOCK_SEEDS`) are a cost choice, stated here before the runs: ``quick`` has 2
seeds per block, so a rate rule of "≥ 80% of seeds" needs 2/2 in each block and the quick verdicts
are mostly ``inconclusive``; ``full`` and ``paper`` have 5 per block (4/5 succeed).
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

from .registry import Context, Verdict, replicate

__all__ = ["BLOCKS", "BLOCK_SEEDS", "block_size", "n_block_seeds", "split_blocks", "block_indices",
           "decide_blocks"]

#: the names of the replication blocks, in seed order
BLOCKS = ("A", "B")
#: seeds per block and profile
BLOCK_SEEDS = {"quick": 2, "full": 5, "paper": 5}


def block_size(ctx: Context) -> int:
    """Seeds per replication block in the profile of ``ctx`` (:data:`BLOCK_SEEDS`)."""
    return ctx.by_profile(BLOCK_SEEDS["quick"], BLOCK_SEEDS["full"], paper=BLOCK_SEEDS["paper"])


def n_block_seeds(ctx: Context, per_block: int | None = None) -> int:
    """Seeds of one cell over every block: ``len(BLOCKS) × per_block`` (default
    :func:`block_size`). ``ValueError`` for a per-block count below 1."""
    return len(BLOCKS) * _check_per_block(block_size(ctx) if per_block is None else per_block)


def _check_per_block(per: Any) -> int:
    if not isinstance(per, int) or isinstance(per, bool) or per < 1:
        raise ValueError(f"per_block must be a positive int, got {per!r}")
    return per


def split_blocks(items: Sequence[Any]) -> dict[str, list]:
    """``items`` (one per seed, in seed order) cut into the :data:`BLOCKS`, consecutive and of
    equal size: ``{"A": first half, "B": second half}``. ``ValueError`` when their number is not
    a positive multiple of the number of blocks."""
    items = list(items)
    n = len(BLOCKS)
    if not items or len(items) % n:
        raise ValueError(f"items must hold a positive multiple of {n} entries (one per seed, "
                         f"{n} blocks), got {len(items)}")
    size = len(items) // n
    return {b: items[i * size:(i + 1) * size] for i, b in enumerate(BLOCKS)}


def block_indices(per_block: int) -> dict[str, list[str]]:
    """The seed labels of each block: ``{"A": ["#0", …, "#n−1"], "B": ["#n", …, "#2n−1"]}`` for
    ``per_block = n``; ``#i`` is seed ``i`` of every cell's salted seeds (a block spans many
    cells, each with its own seeds, so the report names the index)."""
    _check_per_block(per_block)
    return {b: [f"#{j}" for j in range(i * per_block, (i + 1) * per_block)]
            for i, b in enumerate(BLOCKS)}


def decide_blocks(blocks: dict[str, tuple[Sequence[Any], Any]],
                  decide: Callable[[Any], tuple]) -> tuple[Verdict, str, dict[str, tuple]]:
    """Decide each block by ``decide`` and replicate
    (:func:`~seqtheory.proofs_checks.registry.replicate`). ``blocks[name] = (seeds, evidence)``:
    the block's seeds (or seed indices, :func:`block_indices`) and its evidence, which ``decide``
    (a pure rule returning ``(verdict, why, ...)``) reads alone. Returns ``(verdict, why,
    per_block)`` with ``per_block[name]`` the tuple ``decide`` returned. ``ValueError`` for fewer
    than two blocks, an empty block or blocks that share a seed (from ``replicate``)."""
    if not isinstance(blocks, dict):
        raise TypeError(f"blocks must be a dict name -> (seeds, evidence), got {type(blocks).__name__}")
    per = {name: decide(ev) for name, (_, ev) in blocks.items()}
    v, why = replicate({name: (seeds, per[name][0], per[name][1])
                        for name, (seeds, _) in blocks.items()})
    return v, why, per

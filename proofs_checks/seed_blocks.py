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

Two ways to cut, for the two kinds of plan. A claim that draws its own seeds per block draws
``len(BLOCKS) × per-block`` seeds per cell and cuts them with :func:`split_blocks` (equal halves).
A claim that reads runs another plan trained (the findings read the word-problem and parity runs)
labels each run by its place in its cell with :func:`seed_blocks`: the first ``⌈n/2⌉`` of a cell's
``n`` seeds are block ``"A"`` (5 seeds: 3 + 2), the same halves as :func:`split_blocks` for an even
``n``; :func:`replicated` then decides each block's rows.
"""

from __future__ import annotations

import dataclasses
import numbers
from typing import Any, Callable, Sequence

from .registry import Context, Verdict, combine_verdicts, replicate

__all__ = ["BLOCKS", "BLOCK_SEEDS", "block_size", "n_block_seeds", "split_blocks", "split_arms", "block_indices",
           "decide_blocks", "seed_blocks", "arm_blocks", "rows_by_block", "replicated", "by_parts",
           "blocks_text", "blocks_key"]

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
        raise ValueError(f"the number of items (one per seed) must be a positive multiple of the "
                         f"number of blocks, {n}; got {len(items)}")
    size = len(items) // n
    return {b: items[i * size:(i + 1) * size] for i, b in enumerate(BLOCKS)}


def split_arms(arms: dict[Any, Sequence[Any]]) -> tuple[dict[str, list[str]], dict[str, dict[Any, list]]]:
    """Each arm's items (one per seed, in seed order; an arm is a depth, a model class …) cut
    into the blocks by :func:`split_blocks`: ``(seed labels per block`` (:func:`block_indices`,
    from the first arm's block size) ``, {block: {arm: its items in the block}})``."""
    per = {arm: split_blocks(items) for arm, items in arms.items()}
    labels = block_indices(len(next(iter(per.values()))[BLOCKS[0]]))
    return labels, {b: {arm: per[arm][b] for arm in arms} for b in labels}


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
    per_block)`` with ``per_block[name]`` the tuple ``decide`` returned. A block without seeds is
    absent evidence: ``inconclusive`` ("no seeds in block B"; ``decide`` is not called on it).
    ``ValueError`` for fewer than two blocks, blocks that share a seed (from ``replicate``) or
    seed labels of different types across the blocks (``0`` in one, ``"0"`` in another: their
    disjointness would say nothing)."""
    if not isinstance(blocks, dict):
        raise TypeError(f"blocks must be a dict name -> (seeds, evidence), got {type(blocks).__name__}")
    if len(blocks) < 2:
        raise ValueError(f"decide_blocks needs at least two blocks of seeds, got {list(blocks)}")
    seeds = {name: list(s) for name, (s, _) in blocks.items()}
    kinds = {"int" if isinstance(x, numbers.Integral) else type(x).__name__
             for s in seeds.values() for x in s}
    if len(kinds) > 1:
        raise ValueError(f"seed labels must be of one type across the blocks, got "
                         f"{ {name: s for name, s in seeds.items()} !r:.120}")
    empty = [name for name, s in seeds.items() if not s]
    if empty:
        why = "; ".join(f"no seeds in block {name}" for name in empty)
        return Verdict.INCONCLUSIVE, why, {name: (Verdict.INCONCLUSIVE, f"no seeds in block {name}")
                                           for name in empty}
    per = {name: decide(ev) for name, (_, ev) in blocks.items()}
    v, why = replicate({name: (seeds, per[name][0], per[name][1])
                        for name, (seeds, _) in blocks.items()})
    return v, why, per


def seed_blocks(configs: Sequence[Any]) -> dict[str, tuple[str, str]]:
    """``(block, seed position)`` of each run key of ``configs``
    (:class:`~seqtheory.models.train.TrainConfig` of one arm, in plan order): per cell (the
    configurations equal but for their seed) the first ``⌈n/2⌉`` of its ``n`` seeds are block
    ``"A"``, the rest ``"B"``; the position reads ``"i/n"`` (1-based), the same label for the same
    place in cells of one size. Call it per arm when two arms share a cell's configuration."""
    cells: dict[str, list] = {}
    for c in configs:
        cells.setdefault(dataclasses.replace(c, seed=0).key, []).append(c)
    out = {}
    for runs in cells.values():
        n, half = len(runs), -(-len(runs) // 2)
        for i, c in enumerate(runs):
            out[c.key] = (BLOCKS[i >= half], f"{i + 1}/{n}")
    return out


def arm_blocks(arms: dict[Any, Sequence[Any]]) -> dict[str, tuple[str, str]]:
    """:func:`seed_blocks` of each arm's configurations (``{arm: [config, ...]}``), merged."""
    return {k: v for cfgs in arms.values() for k, v in seed_blocks(cfgs).items()}


def rows_by_block(rows: Sequence[dict]) -> dict[str, list[dict]]:
    """``rows`` (dicts with a ``"block"`` field) grouped by block, in :data:`BLOCKS` order (a block
    without rows is absent). ``ValueError`` naming the row for a missing or unknown block."""
    out: dict[str, list[dict]] = {b: [] for b in BLOCKS}
    for i, r in enumerate(rows):
        b = r.get("block") if isinstance(r, dict) else None
        if b not in out:
            raise ValueError(f"rows[{i}] must carry 'block' in {BLOCKS}, got {b!r}")
        out[b].append(r)
    return {b: rs for b, rs in out.items() if rs}


def replicated(decide: Callable[[list[dict]], tuple[Verdict, str, dict]],
               rows: Sequence[dict]) -> tuple[Verdict, str, dict]:
    """``decide`` (a block's rule: rows → ``(verdict, why, stats)``) on each seed block of
    ``rows`` (each row with ``"block"`` and ``"seed_pos"``, its seed's position in its cell, e.g.
    ``"2/5"``), then
    :func:`~seqtheory.proofs_checks.registry.replicate`: ``(verdict, why, {block: {"verdict",
    "why", "stats"}})`` (each block's own verdict, reason and statistics). With rows of one block
    only, ``inconclusive`` (a verdict needs two blocks)."""
    blocks = rows_by_block(rows)
    decided = {b: decide(rs) for b, rs in blocks.items()}
    stats = {b: {"verdict": d[0].value, "why": d[1], "stats": d[2]} for b, d in decided.items()}
    if len(blocks) < 2:
        only = ", ".join(f"block {b}: {d[0].value} ({d[1]})" for b, d in decided.items()) or "no rows"
        return Verdict.INCONCLUSIVE, f"one seed block only, so no verdict can replicate ({only})", stats
    v, why = replicate({b: (sorted({r["seed_pos"] for r in blocks[b]}), d[0], d[1])
                        for b, d in decided.items()})
    return v, why, stats


def blocks_text(stats: dict[str, dict]) -> str:
    """The blocks' own verdicts of a :func:`replicated` result, ``"block A: supported, block B:
    inconclusive"``."""
    return ", ".join(f"block {b}: {d['verdict']}" for b, d in stats.items())


def by_parts(rows: Sequence[dict], field: str, decide: Callable[[list[dict]], tuple[Verdict, str, dict]],
             parts: Sequence[str] | None = None) -> tuple[Verdict, str, dict]:
    """The parts of one statement (e.g. one task or group each), in one seed block: ``decide`` on
    the rows whose ``field`` is each part (``parts``, default the values present, sorted),
    combined by the weakest part (:func:`~seqtheory.proofs_checks.registry.combine_verdicts`).
    Returns ``(verdict, why, {part: stats})``."""
    names = sorted({r[field] for r in rows}) if parts is None else list(parts)
    decided = {p: decide([r for r in rows if r[field] == p]) for p in names}
    v, _ = combine_verdicts({p: (d[0], d[1]) for p, d in decided.items()})
    why = "; ".join(f"{p}: {d[0].value} ({d[1]})" for p, d in decided.items())
    if len(decided) > 1:
        why = f"weakest of {len(decided)} parts ({why})"
    return v, why, {p: d[2] for p, d in decided.items()}


def blocks_key(stats: dict[str, dict], part_text: Callable[[str, dict], str]) -> str:
    """A key figure of a :func:`replicated` result over :func:`by_parts` blocks: per block its
    verdict and ``part_text(part, stats)`` for each part."""
    return "; ".join(f"block {b} ({d['verdict']}): "
                     + ", ".join(part_text(p, st) for p, st in d["stats"].items())
                     for b, d in stats.items())

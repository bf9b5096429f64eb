"""Two disjoint blocks of training seeds, so that a trained verdict can replicate (SPEC §3,
"trained verdicts replicate": a verdict from training is decided on at least two disjoint blocks
of seeds; blocks that disagree give ``inconclusive``, with both shown, by
:func:`~seqtheory.proofs_checks.registry.replicate`).

The blocks split the seeds a profile already trains, fixed before any run: within each *cell*
(the runs of a plan that differ only in their seed, in plan order, i.e. in the order of
:func:`~seqtheory.proofs_checks.training_runs.seeds`) the first ``⌈n/2⌉`` seeds form block
``"A"`` and the others block ``"B"`` (5 seeds: 3 + 2; 3 seeds: 2 + 1). A claim's rule is applied
to each block's runs alone and the blocks' verdicts are replicated.
"""
from __future__ import annotations

import dataclasses
from typing import Any, Callable, Sequence

from .registry import Verdict, combine_verdicts, replicate

__all__ = ["BLOCKS", "seed_blocks", "arm_blocks", "rows_by_block", "replicated", "by_parts",
           "blocks_text", "blocks_key"]

#: the names of the two seed blocks
BLOCKS = ("A", "B")


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

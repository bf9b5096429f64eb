"""Checks of the evidence a decision rule reads (SPEC §3: "absence of evidence never refutes";
every rule is a pure function of its evidence).

Two kinds of bad evidence, two answers, the same in every rule:

* **absent** evidence (no rows, no pairs, no seeds, a missing arm or group) is no evidence either
  way: the rule returns ``inconclusive`` with a plain reason (``"no rows"``, ``"no seeds in
  block B"``), never a verdict decided over nothing (``all()`` over an empty list);
* **invalid** evidence (a value a real measurement cannot produce: NaN or ±inf where a number is
  required, an accuracy outside [0, 1], a negative error, more successes than seeds, a seed
  count that does not match the values, duplicated rows with conflicting values) is refused with
  a ``ValueError`` (``TypeError`` for a value that is not a number) naming the field and the row,
  by these functions.

The numbers are checked by :func:`~seqtheory.theory._checks.check_real` and
:func:`~seqtheory.theory._checks.check_int`; the names read ``"rows[3]: successes"``.
"""
from __future__ import annotations

from typing import Any, Hashable, Sequence

from seqtheory.theory._checks import check_int, check_real
from seqtheory.theory._messages import counted

__all__ = ["measured", "fraction", "count", "rate_counts", "per_seed", "per_seed_blocks", "absent_keys",
           "unique_rows"]


def measured(at: str, field: str, value: Any, minimum: float | None = None,
             maximum: float | None = None, *, above: bool = False) -> float:
    """``value`` (the ``field`` of the row ``at``) as a finite ``float`` within
    [``minimum``, ``maximum``] (``> minimum`` with ``above``): ``ValueError`` naming
    ``"{at}: {field}"`` for NaN, ±inf or a value outside, ``TypeError`` for a non-number."""
    return check_real(f"{at}: {field}" if at else field, value, minimum, maximum, above=above)


def fraction(at: str, field: str, value: Any) -> float:
    """A fraction or an accuracy in [0, 1] (:func:`measured`)."""
    return measured(at, field, value, 0, 1)


def count(at: str, field: str, value: Any, minimum: int | None = 0) -> int:
    """An ``int`` ≥ ``minimum`` (``None``: any int; not a bool, not a float): ``ValueError`` /
    ``TypeError`` naming ``"{at}: {field}"``."""
    return check_int(f"{at}: {field}" if at else field, value, minimum)


def rate_counts(at: str, successes: Any, seeds: Any) -> tuple[int, int]:
    """``(successes, seeds)`` of a row that counts its seeds: ints with ``0 ≤ successes ≤
    seeds``; ``seeds = 0`` is allowed (no evidence: the caller decides inconclusive).
    ``ValueError`` naming the row otherwise."""
    n = count(at, "seeds", seeds)
    k = count(at, "successes", successes)
    if k > n:
        raise ValueError(f"{at}: successes must be <= seeds, got successes={k}, seeds={n}")
    return k, n


def per_seed(at: str, field: str, values: Any, seeds: Sequence[Any] | None = None,
             minimum: float | None = None, maximum: float | None = None, *,
             above: bool = False) -> list[float]:
    """One measured value per seed (:func:`measured` each, named ``"{at}: {field}[i]"``, with
    ``above`` as there), as a list of floats; with ``seeds`` (the block's declared seeds),
    ``ValueError`` unless there is exactly one value per seed. An empty list is returned as it
    is (absent evidence)."""
    if not isinstance(values, (list, tuple)):
        raise TypeError(f"{at}: {field} must be a list of numbers, got {values!r:.80}")
    if seeds is not None and len(values) != len(seeds):
        raise ValueError(f"{at}: {field} holds {counted(len(values), 'value')} but the block "
                         f"declares {counted(len(seeds), 'seed')} ({list(seeds)!r:.80})")
    return [measured(at, f"{field}[{i}]", x, minimum, maximum, above=above)
            for i, x in enumerate(values)]


def unique_rows(rows: Sequence[dict], key: Sequence[str], name: str = "rows") -> list[dict]:
    """``rows`` with one row per ``key`` (the fields that name a cell): an exact repeat of a row
    is kept once; two rows of one cell with different values are a ``ValueError`` naming both
    (which one to believe is not the rule's choice)."""
    seen: dict[tuple[Hashable, ...], int] = {}
    out = []
    for i, r in enumerate(rows):
        if not isinstance(r, dict):
            raise TypeError(f"{name}[{i}] must be a dict, got {type(r).__name__}")
        missing = [k for k in key if k not in r]
        if missing:
            raise ValueError(f"{name}[{i}] lacks {counted(len(missing), 'field')}: "
                             f"{', '.join(map(str, missing))}")
        k = tuple(r[f] for f in key)
        if k in seen:
            if rows[seen[k]] != r:
                raise ValueError(f"{name}[{seen[k]}] and {name}[{i}] are the same cell "
                                 f"({dict(zip(key, k))}) with different values")
            continue
        seen[k] = i
        out.append(r)
    return out


def per_seed_blocks(blocks: Any, field: str, minimum: float | None = None,
                    maximum: float | None = None) -> None:
    """Check replication blocks ``{name: (seeds, {key: [value per seed]})}`` (a depth or an arm
    per key): every non-empty list holds one value per seed of its block, each finite within
    [``minimum``, ``maximum``] (:func:`per_seed`, named ``"block A: {field} at 2[i]"``). Not a
    dict: nothing checked here (the block splitter refuses it)."""
    if not isinstance(blocks, dict):
        return
    for name, (seeds, values) in blocks.items():
        for key, v in values.items():
            if len(v):
                per_seed(f"block {name}", f"{field} at {key}", list(v), seeds, minimum, maximum)


def absent_keys(values: dict, what: str = "depth") -> str | None:
    """Why ``values`` (``{key: [value per seed]}``) is absent evidence, or ``None``: ``"no
    depths"`` when empty, ``"no seeds at depth [2]"`` when a key has no values."""
    if not values:
        return f"no {what}s"
    missing = [k for k, v in values.items() if not len(v)]
    return f"no seeds at {what} {missing}" if missing else None

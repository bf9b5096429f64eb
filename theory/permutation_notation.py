"""Permutations as users write them: image (one-line) notation, cycle notation, sympy.

A permutation of ``0..n-1`` in **image notation** is the tuple of the images of ``0, 1, ..., n-1``
(``(1, 2, 0)`` sends 0 to 1, 1 to 2 and 2 to 0). **Cycle notation** writes the same permutation as
``"(0 1 2)"`` (a string of disjoint cycles, entries separated by spaces or commas; ``"()"`` is the
identity) or as a list of disjoint cycles ``[(0, 1, 2)]``; points not named are fixed. The two
are told apart by type only (a sequence of ints is image notation, a string or a sequence of
sequences is cycle notation), never guessed from the values. Cycles must be disjoint: a product
of overlapping cycles depends on a composition convention, so it is refused.

Source: the notations of D. S. Dummit, R. M. Foote, *Abstract Algebra*, 3rd ed., §1.3.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from numbers import Integral
from typing import Any

__all__ = ["NOTATION_HINT", "MAX_DEGREE", "as_images", "cycles_to_images"]

#: The most points a permutation may move (an image tuple is built on all of them): a cycle
#: naming a larger point, or a group of a larger degree, is refused before anything is built.
MAX_DEGREE = 100_000

#: What a permutation may look like; ends every refusal of a malformed one.
NOTATION_HINT = ("a permutation is given in image notation, the images of 0..n-1 (e.g. (1, 2, 0) "
                 "sends 0->1, 1->2, 2->0), in cycle notation as a string '(0 1 2)(3 4)' or a list "
                 "of disjoint cycles [(0, 1, 2), (3, 4)], or as a sympy Permutation")

_CYCLE = re.compile(r"\(([^()]*)\)")


def _is_int(v: Any) -> bool:
    # no int() coercion: 1.5 or True must not silently become 1 (numpy ints are Integral)
    return isinstance(v, Integral) and not isinstance(v, bool)


def _parse_cycle_string(text: str, where: str) -> list[tuple[int, ...]]:
    if _CYCLE.sub("", text).strip():
        raise ValueError(f"{where}: {text!r} is not in cycle notation; {NOTATION_HINT}")
    cycles = []
    for body in _CYCLE.findall(text):
        parts = [p for p in re.split(r"[\s,]+", body.strip()) if p]
        if not all(p.isdigit() for p in parts):
            raise ValueError(f"{where}: cycle ({body}) in {text!r} has an entry that is not a "
                             f"non-negative integer; {NOTATION_HINT}")
        cycles.append(tuple(int(p) for p in parts))
    return cycles


def cycles_to_images(cycles, where: str = "permutation") -> tuple[int, ...]:
    """The image tuple of a permutation in cycle notation (a string ``"(0 1 2)(3 4)"`` or a
    sequence of disjoint cycles ``[(0, 1, 2), (3, 4)]``), of length ``1 + the largest point
    named`` (``()`` for the identity with no point named). ``ValueError`` for a malformed string,
    a negative or repeated point (overlapping cycles), a point >= :data:`MAX_DEGREE`;
    ``TypeError`` for a non-integer entry."""
    if isinstance(cycles, str):
        cycles = _parse_cycle_string(cycles, where)
    points: list[int] = []
    images: dict[int, int] = {}
    for cyc in cycles:
        if isinstance(cyc, (str, bytes)) or not hasattr(cyc, "__iter__"):
            raise TypeError(f"{where}: cycle {cyc!r} is not a sequence of ints; {NOTATION_HINT}")
        cyc = tuple(cyc)
        if not all(_is_int(v) for v in cyc):
            raise TypeError(f"{where}: cycle {cyc!r} has an entry that is not an int; "
                            f"{NOTATION_HINT}")
        if any(v < 0 for v in cyc):
            raise ValueError(f"{where}: cycle {cyc!r} has a negative point; points are 0..n-1")
        if any(v >= MAX_DEGREE for v in cyc):
            raise ValueError(f"{where}: cycle {cyc!r} names a point >= MAX_DEGREE = "
                             f"{MAX_DEGREE:,} (its image tuple would be built on every point)")
        for a, b in zip(cyc, cyc[1:] + cyc[:1]):
            if a in images:
                raise ValueError(f"{where}: point {int(a)} appears twice in {cycles!r}; the cycles "
                                 "must be disjoint (a product of overlapping cycles depends on the "
                                 "order of composition: give its image notation instead)")
            images[int(a)] = int(b)
        points += cyc
    n = 1 + max(points, default=-1)
    return tuple(images.get(i, i) for i in range(n))


def as_images(g, where: str = "permutation") -> tuple[int, ...] | None:
    """``g`` as an image tuple when it is in cycle notation (a string, or a non-empty sequence of
    sequences) or a sympy ``Permutation`` (its ``array_form``); ``None`` when ``g`` is to be read
    in image notation (a sequence of ints, checked by the caller). Points beyond the returned
    tuple's length are fixed: the caller pads it to the degree."""
    if hasattr(g, "array_form"):
        return tuple(int(v) for v in g.array_form)
    if isinstance(g, str):
        return cycles_to_images(g, where)
    if isinstance(g, Sequence) and g and all(
            hasattr(c, "__iter__") and not isinstance(c, (str, bytes)) for c in g):
        return cycles_to_images(g, where)
    return None

"""Isomorphism of small finite groups: invariants, then an exact backtracking search.

:func:`find_isomorphism` decides exactly whether two :class:`~seqtheory.theory.groups.FiniteGroup`
objects are isomorphic and returns an explicit isomorphism (verified as a bijective homomorphism
on the full Cayley table) or ``None``:

1. invariants (:func:`invariants`): order, abelian, element-order statistics, statistics of the
   pairs (element order, centraliser order), derived and lower central series orders, centre
   order; any difference proves non-isomorphism (:func:`isomorphism_obstruction` names it);
2. a depth-first search over the images of a small generating set ``g_1..g_r`` of G: the image
   of ``g_k`` ranges over the elements of H with the same (order, centraliser order); after each
   choice the map is extended along the Cayley graph of ``<g_1..g_k>`` (right multiplication by
   generators, BFS) and the branch is cut as soon as an edge relation ``φ(x g) = φ(x) φ(g)``
   fails or two elements collide. A map respecting every generator edge is a homomorphism, so a
   complete consistent injective assignment is an isomorphism; the search is exhaustive, so
   ``None`` is a proof.

Source: D. F. Holt, B. Eick, E. A. O'Brien, *Handbook of Computational Group Theory* (2005),
§9.1 (isomorphism testing by generator images and defining relations).
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:  # pragma: no cover - for annotations only: never imported at run time
    from .groups import FiniteGroup

__all__ = ["GroupIsomorphism", "invariants", "isomorphism_obstruction", "find_isomorphism",
           "is_isomorphism_map"]


@dataclass(frozen=True)
class GroupIsomorphism:
    """An explicit isomorphism ``source -> target``: ``images[i]`` is the index in ``target`` of
    the image of ``source.elements[i]``; ``generators`` / ``generator_images`` are the element
    objects on which it was found."""

    source: "FiniteGroup"
    target: "FiniteGroup"
    images: np.ndarray
    generators: tuple
    generator_images: tuple

    def __call__(self, a):
        return self.target.elements[int(self.images[self.source.index(a)])]

    def as_dict(self) -> dict:
        """``{element of source: element of target}``."""
        tg = self.target.elements
        return {x: tg[int(i)] for x, i in zip(self.source.elements, self.images)}

    def verify(self) -> bool:
        """True iff the map is a bijection and ``φ(ab) = φ(a)φ(b)`` for all ``|G|^2`` pairs."""
        return is_isomorphism_map(self.source.cayley_table(), self.target.cayley_table(),
                                  self.images)


def is_isomorphism_map(TG: np.ndarray, TH: np.ndarray, phi: np.ndarray) -> bool:
    """True iff the index map ``phi`` (shape (n,)) is a bijection with
    ``phi[TG[i, j]] == TH[phi[i], phi[j]]`` for all i, j (full-table check)."""
    n = TG.shape[0]
    phi = np.asarray(phi)
    if TH.shape[0] != n or phi.shape != (n,) or len(np.unique(phi)) != n:
        return False
    phi = phi.astype(np.int64)
    return bool(np.array_equal(phi[TG.astype(np.int64)], TH[phi[:, None], phi[None, :]]))


#: The FiniteGroup methods this module calls (it reads groups through them only).
_GROUP_METHODS = ("cayley_table", "element_orders", "centralizer_orders", "derived_series",
                  "lower_central_series", "center", "element_order_statistics")


def _check_group(H: Any, name: str = "other") -> None:
    """``TypeError`` unless ``H`` is a group this module can read. The check is by interface, not
    ``isinstance``: :mod:`.groups` imports this module, so this module does not import it (one-way
    dependency)."""
    if not all(callable(getattr(H, m, None)) for m in _GROUP_METHODS):
        raise TypeError(f"{name} must be a FiniteGroup, got {type(H).__name__}")


def _signatures(G: "FiniteGroup") -> list[tuple[int, int]]:
    """(element order, centraliser order) of every element, in index order."""
    return list(zip(G.element_orders().tolist(), G.centralizer_orders().tolist()))


def invariants(G: "FiniteGroup") -> dict[str, Any]:
    """Isomorphism invariants of G (see the module docstring)."""
    return {
        "order": G.order,
        "abelian": G.is_abelian,
        "element_orders": G.element_order_statistics(),
        "order_centralizer_stats": dict(sorted(Counter(_signatures(G)).items())),
        "derived_series": G.derived_series().orders,
        "lower_central_series": G.lower_central_series().orders,
        "center_order": G.center().order,
    }


def isomorphism_obstruction(G: "FiniteGroup", H: "FiniteGroup") -> str | None:
    """The first invariant that differs between G and H (a proof of non-isomorphism), or
    ``None`` if all agree. ``TypeError`` if H is not a FiniteGroup."""
    _check_group(H)
    a = invariants(G)
    if G.order != H.order:
        return f"order differ: {G.order} vs {H.order}"
    b = invariants(H)
    for key in a:
        if a[key] != b[key]:
            return f"{key} differ: {a[key]} vs {b[key]}"
    return None


def _extend(TG: np.ndarray, TH: np.ndarray, eG: int, eH: int, gens: list[int],
            imgs: list[int]) -> np.ndarray | None:
    """Extend ``gens[k] -> imgs[k]`` along the Cayley graph of ``<gens>`` in G. Returns the
    partial map (``-1`` outside ``<gens>``) or ``None`` if an edge relation fails or the map is
    not injective."""
    phi = np.full(TG.shape[0], -1, dtype=np.int64)
    phi[eG] = eH
    frontier = np.array([eG])
    while frontier.size:
        nxt = []
        for g, h in zip(gens, imgs):
            tgt = TG[frontier, g]
            val = TH[phi[frontier], h]
            known = phi[tgt] >= 0
            if not np.array_equal(phi[tgt[known]], val[known]):
                return None
            new, newval = tgt[~known], val[~known]
            phi[new] = newval
            if not np.array_equal(phi[new], newval):  # a new element reached twice, differently
                return None
            nxt.append(np.unique(new))
        frontier = np.unique(np.concatenate(nxt))
    mapped = phi[phi >= 0]
    return phi if len(np.unique(mapped)) == mapped.size else None


def find_isomorphism(G: "FiniteGroup", H: "FiniteGroup") -> GroupIsomorphism | None:
    """An explicit isomorphism ``G -> H`` verified on the full table, or ``None`` if none exists
    (exact, exhaustive; fast for orders up to a few hundred). ``TypeError`` naming ``G`` or
    ``H`` for a non-group."""
    _check_group(G, "G")
    _check_group(H, "H")
    if isomorphism_obstruction(G, H) is not None:
        return None
    gens = [G.index(g) for g in G.generators]
    sig_g, sig_h = _signatures(G), _signatures(H)
    cands = [[h for h in range(H.order) if sig_h[h] == sig_g[g]] for g in gens]
    TG = G.cayley_table().astype(np.int64)
    TH = H.cayley_table().astype(np.int64)
    eG, eH = G.identity_index, H.identity_index

    def search(imgs: list[int]) -> np.ndarray | None:
        k = len(imgs)
        for h in cands[k]:
            phi = _extend(TG, TH, eG, eH, gens[:k + 1], imgs + [h])
            if phi is None:
                continue
            if k + 1 == len(gens):
                return phi  # <gens> = G and the map is injective: an isomorphism
            res = search(imgs + [h])
            if res is not None:
                return res
        return None

    phi = search([]) if gens else np.array([eH], dtype=np.int64)
    if phi is None:
        return None
    if not is_isomorphism_map(TG, TH, phi):  # pragma: no cover - guaranteed by construction
        raise AssertionError("internal error: isomorphism search returned a non-isomorphism")
    return GroupIsomorphism(G, H, phi, tuple(G.elements[g] for g in gens),
                            tuple(H.elements[int(phi[g])] for g in gens))

"""Exact finite groups on integer indices (numpy Cayley tables).

A :class:`FiniteGroup` holds a tuple of hashable *element objects* (permutation tuples,
matrix tuples, integers, pairs, ...) and its Cayley table ``T`` (numpy integer array,
``T[i, j]`` = index of ``elements[i] * elements[j]``). Every structural computation (subgroup
generation by closure, commutator subgroups, derived and lower central series, centre, normal
closure, isomorphism search in :mod:`seqtheory.theory.group_iso`) runs on the integer indices,
so groups up to a few thousand elements are fast (the derived series of S5, order 120, takes
milliseconds; orders are capped at :data:`MAX_ORDER`).

Conventions (SPEC §2)
---------------------
* **Names**: ``C_n`` cyclic of order n; ``D_{2n}`` dihedral of **order** 2n (``D8`` has order 8;
  sympy's ``DihedralGroup(4)`` is seqtheory's ``D8``); ``H3(p)`` the Heisenberg group of 3x3 unipotent
  matrices over ``Z/p`` (order p^3; ``"H3"`` means ``H3(3)``); ``S_n``, ``A_n``; ``Q8``;
  ``F21`` = ``C7:C3`` the non-abelian group of order 21 (``x -> x+1``, ``x -> 2x`` on ``Z/7``).
* **Permutations** are tuples of images of ``0..n-1``. ``multiply(p, q) = p ∘ q``: **apply q
  first**, ``(p ∘ q)(i) = p[q[i]]``. This is function composition, so permutation matrices satisfy
  ``P(p ∘ q) = P(p) @ P(q)`` (left action, as in the state update of SPEC §2). Note that sympy's
  ``p*q`` applies ``p`` first, i.e. sympy's ``p*q`` is ``multiply(q, p)`` here.
  :meth:`FiniteGroup.from_permutations` also reads generators in cycle notation (``"(0 1 2)"``,
  ``[(0, 1, 2), (3, 4)]``; :mod:`seqtheory.theory.permutation_notation`); elements are always
  image tuples.
* **Matrices**: ``multiply(A, B) = A @ B`` (matrix product, entries exact: ``int`` modulo p, or
  ``fractions.Fraction``).
* **Series** (SPEC §2): derived series ``G^(0) = G``, ``G^(i+1) = [G^(i), G^(i)]``; derived length
  = least k with ``G^(k) = 1`` (trivial group -> 0, non-solvable -> ``None``). Lower central series
  ``γ_1 = G``, ``γ_{i+1} = [G, γ_i]``; nilpotency class = least c with ``γ_{c+1} = 1`` (trivial ->
  0, non-nilpotent -> ``None``). A series that stabilises at a non-trivial term ends there and
  says so (:attr:`GroupSeries.stabilised`). Upper central series ``1 = Z_0 < Z_1 = Z(G) < ...``,
  ``Z_{i+1} = {x : [x, g] in Z_i for all g}``, as for Lie algebras. Commutator
  ``[a, b] = a^-1 b^-1 a b``.

Sources: D. S. Dummit, R. M. Foote, *Abstract Algebra*, 3rd ed., §3-6 (series, solvable and
nilpotent groups); F. W. Light's associativity test (see A. H. Clifford, G. B. Preston,
*The Algebraic Theory of Semigroups*, vol. 1, §1.2); isomorphism by backtracking on generator
images: D. F. Holt, B. Eick, E. A. O'Brien, *Handbook of Computational Group Theory*, §9.
"""
from __future__ import annotations

import math
import re
from collections import Counter
from numbers import Integral, Rational
from fractions import Fraction
from functools import cached_property
from typing import Any, Callable, Hashable, Iterable, Sequence

import numpy as np
from ._checks import check_int, check_optional_int
from .contract import as_list, check_exact, check_instance

__all__ = ["FiniteGroup", "GroupSeries", "GroupTooLargeError", "MAX_ORDER", "validate_table"]

#: Largest order a group may have by default (its Cayley table has MAX_ORDER**2 entries).
MAX_ORDER = 5040
#: Cayley tables up to this size are checked for associativity on all n^3 triples;
#: larger ones use Light's test on a generating set (n^2 * |S| triples).
_FULL_ASSOC_MAX = 256
#: How many candidate elements (largest order first) the greedy generating-set search tries
#: per step.
_GEN_POOL = 200


class GroupTooLargeError(ValueError):
    """A group whose order exceeds :data:`MAX_ORDER` (its Cayley table would have more than
    ``MAX_ORDER²`` entries)."""


def _check_order(label: str, order: int, *, exact: bool = True, argument: str = "") -> None:
    """``GroupTooLargeError`` for a named group of ``order`` above :data:`MAX_ORDER`; the message
    starts with ``argument`` (``"n = 9"``: the caller's argument that asked for it)."""
    if order > MAX_ORDER:
        size = f"order {order}, above" if exact else "order above"
        raise GroupTooLargeError(
            f"{argument + ': ' if argument else ''}{label} has {size} MAX_ORDER = {MAX_ORDER}: groups are held as Cayley "
            f"tables, which are capped at MAX_ORDER² entries, so the named groups go up to order "
            f"{MAX_ORDER} (e.g. S7, A7, C{MAX_ORDER}, D{MAX_ORDER}, H3(17)); larger permutation "
            f"groups: PermGroup (sympy's Schreier-Sims, e.g. PermGroup.named('S8'))")


def _table_dtype(n: int):
    return np.int16 if n <= np.iinfo(np.int16).max else np.int32


# ------------------------------------------------------------------------------------------------
# closure of a generating set under an element-level multiplication
# ------------------------------------------------------------------------------------------------
def _closure_table(gens: Sequence[Hashable], mul: Callable[[Any, Any], Any], identity: Hashable,
                   max_order: int, what: str = "gens",
                   advice: str = "pass a larger max_order if it is finite"
                   ) -> tuple[list, np.ndarray]:
    """Elements (identity first, BFS order over right multiplication by ``gens``) and the Cayley
    table of the group generated by ``gens``. Only ``n * |gens|`` element products are computed:
    with ``e_j = e_parent(j) * g``, column ``j`` of the table is ``R_g[T[:, parent(j)]]``.
    ``ValueError`` when the group has more than ``max_order`` elements: ``what`` names the
    caller's argument holding the generators, ``advice`` says what the caller's user can do
    (with the caller's own argument names)."""
    elements = [identity]
    index = {identity: 0}
    parent: list[tuple[int, int]] = [(-1, -1)]
    right: list[list[int]] = [[] for _ in gens]  # right[k][i] = index(e_i * g_k)
    i = 0
    while i < len(elements):
        x = elements[i]
        for k, g in enumerate(gens):
            y = mul(x, g)
            j = index.get(y)
            if j is None:
                if len(elements) >= max_order:
                    raise ValueError(
                        f"{what} generate a group of order > max_order={max_order} (infinite, or "
                        f"too large for a Cayley table); {advice}")
                j = len(elements)
                index[y] = j
                elements.append(y)
                parent.append((i, k))
            right[k].append(j)
        i += 1
    n = len(elements)
    R = np.asarray(right, dtype=np.int64).reshape(len(gens), n)
    T = np.empty((n, n), dtype=_table_dtype(n))
    T[:, 0] = np.arange(n)
    for j in range(1, n):
        p, k = parent[j]
        T[:, j] = R[k][T[:, p]]
    return elements, T


# ------------------------------------------------------------------------------------------------
# results
# ------------------------------------------------------------------------------------------------
class GroupSeries(tuple):
    """A derived, lower central or upper central series: a tuple of subgroups
    (:class:`FiniteGroup`, each with ``.order``).

    The derived and lower central series descend from the group itself; ``reaches_trivial``: the
    last term is the trivial group; ``stabilised``: the series stopped because the next term
    equals the last one, which is non-trivial (a non-solvable / non-nilpotent group). The upper
    central series ascends from the trivial subgroup (``Z_0 = 1, Z_1 = Z(G), ...``);
    ``stabilised``: it stopped below the whole group (which happens iff the group is not
    nilpotent). A repeated term is never listed twice. ``kind`` is ``"derived"``,
    ``"lower_central"`` or ``"upper_central"``.
    """

    kind: str

    def __new__(cls, terms: Iterable["FiniteGroup"], kind: str, group_order: int | None = None):
        obj = super().__new__(cls, tuple(terms))
        obj.kind = kind
        obj._group_order = group_order
        return obj

    def __reduce__(self):
        """Pickle by the constructor's arguments (a tuple subclass with a required ``kind``)."""
        return type(self), (tuple(self), self.kind, self._group_order)

    @property
    def orders(self) -> tuple[int, ...]:
        return tuple(t.order for t in self)

    @property
    def reaches_trivial(self) -> bool:
        return self[-1].order == 1

    @property
    def stabilised(self) -> bool:
        if self.kind == "upper_central":
            return self[-1].order != self._group_order
        return not self.reaches_trivial

    def __repr__(self) -> str:
        tail = " (stabilises)" if self.stabilised else ""
        return f"GroupSeries({self.kind}: {', '.join(map(str, self.orders))}{tail})"


# ------------------------------------------------------------------------------------------------
# the group
# ------------------------------------------------------------------------------------------------
class FiniteGroup:
    """A finite group given by its elements and Cayley table (see the module docstring for the
    product conventions).

    Build it with a constructor (:meth:`named`, :meth:`cyclic`, :meth:`dihedral`,
    :meth:`symmetric`, :meth:`alternating`, :meth:`quaternion`, :meth:`heisenberg`,
    :meth:`from_permutations`, :meth:`from_matrices`, :meth:`from_cayley_table`,
    :meth:`direct_product`), not directly. Subgroups (:meth:`subgroup_generated`, series terms,
    :meth:`center`) are ``FiniteGroup`` objects too, with ``parent`` and ``parent_indices`` set.

    One rule, as in ``sympy.combinatorics`` and :class:`~seqtheory.theory.lie.LieAlgebra`:
    **invariants are properties** (``G.order``, ``G.derived_length``, ``G.nilpotency_class``,
    ``G.exponent``, ``G.is_solvable``, ``G.is_nilpotent``, ``G.is_abelian``, ``G.is_perfect``;
    no parentheses), **series and substructures are methods** (``G.derived_series()``,
    ``G.lower_central_series()``, ``G.upper_central_series()``, ``G.center()``,
    ``G.commutator_subgroup()``). Writing ``G.derived_length()`` calls the returned ``int``
    (``TypeError: 'int' object is not callable``).
    """

    def __init__(self, elements: Sequence[Hashable], table: np.ndarray, *, name: str | None = None,
                 kind: str = "abstract", parent: "FiniteGroup | None" = None,
                 parent_indices: np.ndarray | None = None, _identity: int | None = None):
        self._elements = tuple(elements)
        self._T = np.array(table, copy=True)
        self._T.setflags(write=False)
        self._index = {x: i for i, x in enumerate(self._elements)}
        if len(self._index) != len(self._elements):
            raise ValueError("elements must be distinct")
        n = len(self._elements)
        if self._T.shape != (n, n):
            raise ValueError(f"table must have shape ({n}, {n}), got {self._T.shape}")
        self.name = name
        self.kind = kind
        self.parent = parent
        self.parent_indices = parent_indices
        self._e = int(_identity) if _identity is not None else int(
            np.flatnonzero((self._T == np.arange(n)[None, :]).all(axis=1))[0])

    # ---------------------------------------------------------------- basic access
    @property
    def order(self) -> int:
        return len(self._elements)

    def __len__(self) -> int:
        return self.order

    @property
    def elements(self) -> tuple:
        return self._elements

    @property
    def identity(self):
        return self._elements[self._e]

    @property
    def identity_index(self) -> int:
        return self._e

    def index(self, a) -> int:
        """Index of the element object ``a``; ``ValueError`` if ``a`` is not an element."""
        try:
            return self._index[a]
        except (KeyError, TypeError):
            raise ValueError(f"{a!r} is not an element of {self}") from None

    def __contains__(self, a) -> bool:
        try:
            return a in self._index
        except TypeError:
            return False

    def element(self, i: int):
        """The element object with index ``i`` (``0 <= i < order``; ``ValueError`` otherwise,
        ``TypeError`` for a non-int)."""
        i = check_int("i", i, 0)
        if i >= self.order:
            raise ValueError(f"i must be an element index in 0..{self.order - 1}, got {i}")
        return self._elements[i]

    def cayley_table(self) -> np.ndarray:
        """Read-only integer array ``T[i, j] = index(elements[i] * elements[j])``, shape (n, n)."""
        return self._T

    def multiply(self, a, b):
        """The product ``a * b`` of two element objects (permutations: ``a ∘ b``, apply b first;
        matrices: ``a @ b``)."""
        return self._elements[int(self._T[self.index(a), self.index(b)])]

    def product(self, word: Iterable) -> Any:
        """``w[0] * w[1] * ... * w[-1]`` (identity for the empty word)."""
        k = self._e
        for a in word:
            k = int(self._T[k, self.index(a)])
        return self._elements[k]

    @cached_property
    def _inv(self) -> np.ndarray:
        rows, cols = np.nonzero(self._T == self._e)
        inv = np.empty(self.order, dtype=np.int64)
        inv[rows] = cols
        return inv

    def inverse(self, a):
        return self._elements[int(self._inv[self.index(a)])]

    def commutator(self, a, b):
        """``[a, b] = a^-1 b^-1 a b``."""
        i, j = self.index(a), self.index(b)
        T, inv = self._T, self._inv
        return self._elements[int(T[T[inv[i], inv[j]], T[i, j]])]

    def __repr__(self) -> str:
        nm = self.name or f"{self.kind} group"
        return f"FiniteGroup({nm}, order {self.order})"

    # ---------------------------------------------------------------- element orders
    @cached_property
    def _orders(self) -> np.ndarray:
        n, e = self.order, self._e
        orders = np.zeros(n, dtype=np.int64)
        cur = np.arange(n)
        k = 1
        while (orders == 0).any():
            hit = (cur == e) & (orders == 0)
            orders[hit] = k
            cur = self._T[cur, np.arange(n)].astype(np.int64)
            k += 1
        return orders

    def element_order(self, a) -> int:
        return int(self._orders[self.index(a)])

    def element_order_statistics(self) -> dict[int, int]:
        """``{order: number of elements of that order}``, sorted by order."""
        return dict(sorted(Counter(self._orders.tolist()).items()))

    @property
    def exponent(self) -> int:
        return int(np.lcm.reduce(self._orders))

    # ---------------------------------------------------------------- subgroups (index level)
    def _generate(self, gens: Iterable[int]) -> np.ndarray:
        """Boolean mask of the subgroup generated by the index set ``gens`` (closure under right
        multiplication by the generators; finite, so inverses come for free)."""
        gens = np.unique(np.asarray(list(gens) if not isinstance(gens, np.ndarray) else gens,
                                    dtype=np.int64))
        mask = np.zeros(self.order, dtype=bool)
        mask[self._e] = True
        frontier = np.array([self._e])
        T = self._T
        while frontier.size and gens.size:
            new = T[np.ix_(frontier, gens)].ravel()
            new = np.unique(new[~mask[new]])
            mask[new] = True
            frontier = new
        return mask

    def _commutator_mask(self, A: np.ndarray, B: np.ndarray) -> np.ndarray:
        """Mask of ``[A, B]`` = the subgroup generated by ``[a, b]``, a in A, b in B (masks)."""
        a, b = np.flatnonzero(A), np.flatnonzero(B)
        T, inv = self._T, self._inv
        comms = T[T[np.ix_(inv[a], inv[b])], T[np.ix_(a, b)]]
        return self._generate(np.unique(comms))

    def _normal_closure_mask(self, S: np.ndarray) -> np.ndarray:
        mask = self._generate(np.flatnonzero(S))
        T, inv, g = self._T, self._inv, np.arange(self.order)
        while True:
            x = np.flatnonzero(mask)
            conj = T[T[np.ix_(inv[g], x)], g[:, None]]  # g^-1 x g
            new = np.unique(conj)
            if mask[new].all():
                return mask
            mask = self._generate(np.union1d(x, new))

    def _subgroup(self, mask: np.ndarray, name: str | None = None) -> "FiniteGroup":
        idx = np.flatnonzero(mask)
        if idx.size == self.order:
            return self
        relabel = np.full(self.order, -1, dtype=np.int64)
        relabel[idx] = np.arange(idx.size)
        T = relabel[self._T[np.ix_(idx, idx)]].astype(_table_dtype(idx.size))
        root = self.parent if self.parent is not None else self
        pidx = idx if self.parent is None else self.parent_indices[idx]
        return FiniteGroup([self._elements[i] for i in idx], T, name=name, kind=self.kind,
                           parent=root, parent_indices=pidx,
                           _identity=int(relabel[self._e]))

    def _mask_of(self, H: "FiniteGroup | Iterable") -> np.ndarray:
        mask = np.zeros(self.order, dtype=bool)
        elems = H.elements if isinstance(H, FiniteGroup) else H
        mask[[self.index(x) for x in elems]] = True
        return mask

    # ---------------------------------------------------------------- subgroups (public)
    def subgroup_generated(self, elems: Iterable) -> "FiniteGroup":
        """The subgroup generated by the element objects ``elems`` (the trivial subgroup for an
        empty iterable). ``ValueError`` if one of them is not an element."""
        return self._subgroup(self._generate([self.index(x) for x in elems]))

    def is_subgroup(self, elems: Iterable) -> bool:
        mask = self._mask_of(elems)
        return bool((self._generate(np.flatnonzero(mask)) == mask).all())

    def is_normal(self, H: "FiniteGroup | Iterable") -> bool:
        """True iff ``H`` (a subgroup, or a set of elements forming one) is normal in this group."""
        mask = self._mask_of(H)
        if not (self._generate(np.flatnonzero(mask)) == mask).all():
            raise ValueError("H is not a subgroup")
        return bool((self._normal_closure_mask(mask) == mask).all())

    def normal_closure(self, elems: Iterable) -> "FiniteGroup":
        return self._subgroup(self._normal_closure_mask(self._mask_of(elems)))

    def center(self) -> "FiniteGroup":
        """``Z(G) = {z : zg = gz for all g}``: the first term ``Z_1`` of
        :meth:`upper_central_series` (the trivial subgroup for a group with trivial centre)."""
        ucs = self.upper_central_series()
        return ucs[1] if len(ucs) > 1 else ucs[0]

    centre = center

    def centralizer_orders(self) -> np.ndarray:
        """``|C_G(x)|`` for every element index x (a conjugacy-class invariant)."""
        T = self._T
        return (T == T.T).sum(axis=1)

    def commutator_subgroup(self) -> "FiniteGroup":
        """``[G, G]``, the subgroup generated by all commutators."""
        full = np.ones(self.order, dtype=bool)
        return self._subgroup(self._commutator_mask(full, full))

    def cosets(self, H: "FiniteGroup", side: str = "left") -> list[tuple]:
        """Left (``gH``) or right (``Hg``) cosets of the subgroup ``H``, each a tuple of
        elements."""
        if side not in ("left", "right"):
            raise ValueError(f"side must be 'left' or 'right', got {side!r}")
        hidx = np.flatnonzero(self._mask_of(H))
        seen = np.zeros(self.order, dtype=bool)
        out = []
        for g in range(self.order):
            if seen[g]:
                continue
            c = self._T[g, hidx] if side == "left" else self._T[hidx, g]
            seen[c] = True
            out.append(tuple(self._elements[i] for i in sorted(c)))
        return out

    def quotient(self, N: "FiniteGroup") -> "FiniteGroup":
        """``G/N`` for a normal subgroup N; elements are the cosets (frozensets of elements)."""
        if not self.is_normal(N):
            raise ValueError("N is not a normal subgroup")
        nidx = np.flatnonzero(self._mask_of(N))
        label = np.full(self.order, -1, dtype=np.int64)
        reps = []
        for g in range(self.order):
            if label[g] < 0:
                label[self._T[g, nidx]] = len(reps)
                reps.append(g)
        r = np.asarray(reps)
        T = label[self._T[np.ix_(r, r)]].astype(_table_dtype(len(r)))
        elems = [frozenset(self._elements[i] for i in np.flatnonzero(label == k))
                 for k in range(len(r))]
        return FiniteGroup(elems, T, name=f"({self.name or 'G'})/N", kind="quotient")

    # ---------------------------------------------------------------- series and lengths
    def _series(self, kind: str) -> GroupSeries:
        full = np.ones(self.order, dtype=bool)
        masks = [full]
        while masks[-1].sum() > 1:
            other = masks[-1] if kind == "derived" else full
            nxt = self._commutator_mask(other, masks[-1])
            if nxt.sum() == masks[-1].sum():  # nested subgroups of equal order are equal
                break
            masks.append(nxt)
        return GroupSeries([self._subgroup(m) for m in masks], kind)

    @cached_property
    def _derived(self) -> GroupSeries:
        return self._series("derived")

    @cached_property
    def _lower_central(self) -> GroupSeries:
        return self._series("lower_central")

    def derived_series(self) -> GroupSeries:
        """``G = G^(0) > G^(1) > ...`` ending at the trivial group or where it stabilises."""
        return self._derived

    def lower_central_series(self) -> GroupSeries:
        """``G = γ_1 > γ_2 > ...`` ending at the trivial group or where it stabilises."""
        return self._lower_central

    def _central_over(self, Z: np.ndarray) -> np.ndarray:
        """Mask of ``{x : [x, g] in Z for every g}`` for a normal subgroup mask ``Z`` (the
        preimage of the centre of ``G/Z``). Since ``Z`` is normal, ``xZ`` is central in ``G/Z``
        iff it commutes with the images of a generating set, so only generators ``s`` are tried:
        ``[x, s] = x^-1 s^-1 x s``."""
        T, inv, x = self._T, self._inv, np.arange(self.order)
        out = np.ones(self.order, dtype=bool)
        for s in self._generators:
            out &= Z[T[T[inv, inv[s]], T[x, s]]]
        return out

    @cached_property
    def _upper_central(self) -> GroupSeries:
        mask = np.zeros(self.order, dtype=bool)
        mask[self._e] = True
        masks = [mask]
        while masks[-1].sum() < self.order:
            nxt = self._central_over(masks[-1])
            if nxt.sum() == masks[-1].sum():  # Z_i ⊆ Z_{i+1}: equal order means equal
                break
            masks.append(nxt)
        return GroupSeries([self._subgroup(m) for m in masks], "upper_central", self.order)

    def upper_central_series(self) -> GroupSeries:
        """``1 = Z_0 < Z_1 = Z(G) < ... ``, ``Z_{i+1} = {x : [x, g] in Z_i for all g}``, ending
        at ``G`` (iff ``G`` is nilpotent, after ``nilpotency_class`` steps) or where it stops
        growing (``stabilised``); as :meth:`LieAlgebra.upper_central_series
        <seqtheory.theory.lie.LieAlgebra.upper_central_series>`."""
        return self._upper_central

    @property
    def derived_length(self) -> int | None:
        """Least k with ``G^(k) = 1`` (trivial group -> 0); ``None`` if not solvable."""
        s = self._derived
        return len(s) - 1 if s.reaches_trivial else None

    @property
    def nilpotency_class(self) -> int | None:
        """Least c with ``γ_{c+1} = 1`` (trivial group -> 0); ``None`` if not nilpotent."""
        s = self._lower_central
        return len(s) - 1 if s.reaches_trivial else None

    @property
    def is_solvable(self) -> bool:
        """The derived series reaches the trivial group."""
        return self._derived.reaches_trivial

    @property
    def is_nilpotent(self) -> bool:
        """The lower central series reaches the trivial group."""
        return self._lower_central.reaches_trivial

    @property
    def is_abelian(self) -> bool:
        return bool((self._T == self._T.T).all())

    @property
    def is_perfect(self) -> bool:
        """``[G, G] = G`` (the trivial group is perfect)."""
        full = np.ones(self.order, dtype=bool)
        return bool(self._commutator_mask(full, full).all())

    # ---------------------------------------------------------------- generators
    @cached_property
    def _generators(self) -> tuple[int, ...]:
        """Greedy small generating set (indices): repeatedly add the element that enlarges the
        generated subgroup most (ties: larger element order, then fewer elements sharing its
        (order, centraliser) signature, then lower index); at most ``_GEN_POOL`` candidates (the
        largest element orders) are tried per step; redundant generators are then dropped."""
        sig = list(zip(self._orders.tolist(), self.centralizer_orders().tolist()))
        counts = Counter(sig)
        gens: list[int] = []
        cur = self._generate([])
        while not cur.all():
            pool = sorted(np.flatnonzero(~cur).tolist(),
                          key=lambda x: (-int(self._orders[x]), counts[sig[x]], x))
            best, best_key, best_mask = -1, None, None
            for x in pool[:_GEN_POOL]:
                m = self._generate(gens + [int(x)])
                key = (int(m.sum()), int(self._orders[x]), -counts[sig[x]], -int(x))
                if best_key is None or key > best_key:
                    best, best_key, best_mask = int(x), key, m
            gens.append(best)
            cur = best_mask
        for g in list(gens):  # drop redundant generators (e.g. a central element chosen first)
            rest = [h for h in gens if h != g]
            if self._generate(rest).all():
                gens = rest
        return tuple(gens)

    @property
    def generators(self) -> tuple:
        """A small generating set (element objects); empty for the trivial group."""
        return tuple(self._elements[i] for i in self._generators)

    def bfs_tree(self, gens: Sequence | None = None) -> list[tuple[int, int, int]]:
        """Spanning tree of the Cayley graph for right multiplication by ``gens`` (element
        objects; default :attr:`generators`): a list of ``(index, parent_index, k)`` in BFS order
        with ``elements[index] = elements[parent_index] * gens[k]``; the identity comes first
        with parent ``-1``. ``ValueError`` if ``gens`` do not generate the group."""
        gi = list(self._generators) if gens is None else [self.index(g) for g in gens]
        seen = np.zeros(self.order, dtype=bool)
        seen[self._e] = True
        out = [(self._e, -1, -1)]
        i = 0
        while i < len(out):
            x = out[i][0]
            for k, g in enumerate(gi):
                y = int(self._T[x, g])
                if not seen[y]:
                    seen[y] = True
                    out.append((y, x, k))
            i += 1
        if len(out) != self.order:
            raise ValueError(f"gens generate a subgroup of order {len(out)}, not the group "
                             f"(order {self.order})")
        return out

    # ---------------------------------------------------------------- invariants / isomorphism
    def element_orders(self) -> np.ndarray:
        """Order of every element, in index order (read-only int array)."""
        out = self._orders.copy()
        out.setflags(write=False)
        return out

    def invariants(self) -> dict[str, Any]:
        """Isomorphism invariants (see :func:`seqtheory.theory.group_iso.invariants`)."""
        from .group_iso import invariants

        return invariants(self)

    def isomorphism_obstruction(self, other: "FiniteGroup") -> str | None:
        """The first invariant that differs (a proof of non-isomorphism), or ``None``."""
        from .group_iso import isomorphism_obstruction

        return isomorphism_obstruction(self, other)

    def isomorphism(self, other: "FiniteGroup"):
        """An explicit, verified isomorphism ``self -> other`` (a
        :class:`~seqtheory.theory.group_iso.GroupIsomorphism`), or ``None`` when none exists;
        exact and exhaustive (see :func:`seqtheory.theory.group_iso.find_isomorphism`)."""
        from .group_iso import find_isomorphism

        return find_isomorphism(self, other)

    def is_isomorphic(self, other: "FiniteGroup") -> bool:
        """True iff an isomorphism exists (:meth:`isomorphism` returns it)."""
        return self.isomorphism(other) is not None

    # ---------------------------------------------------------------- constructions
    def direct_product(self, other: "FiniteGroup") -> "FiniteGroup":
        """``G x H`` with elements ``(g, h)`` and componentwise product."""
        if not isinstance(other, FiniteGroup):
            raise TypeError(f"other must be a FiniteGroup, got {type(other).__name__}")
        n, m = self.order, other.order
        _check_order(f"the direct product {self.name} x {other.name}", n * m)
        TG, TH = self._T.astype(np.int64), other._T.astype(np.int64)
        T = (TG[:, None, :, None] * m + TH[None, :, None, :]).reshape(n * m, n * m)
        elems = [(g, h) for g in self._elements for h in other._elements]
        nm = f"{self.name or 'G'}x{other.name or 'H'}"
        return FiniteGroup(elems, T.astype(_table_dtype(n * m)), name=nm, kind="product",
                           _identity=self._e * m + other._e)

    @classmethod
    def trivial(cls) -> "FiniteGroup":
        return cls([0], np.zeros((1, 1), dtype=np.int16), name="C1", kind="cyclic")

    @classmethod
    def cyclic(cls, n: int) -> "FiniteGroup":
        """``C_n``, elements ``0..n-1`` under addition mod n."""
        n = check_int("n", n, 1)
        _check_order(f"C{n}", n, argument=f"n = {n}")
        a = np.arange(n)
        T = ((a[:, None] + a[None, :]) % n).astype(_table_dtype(n))
        return cls(list(range(n)), T, name=f"C{n}", kind="cyclic", _identity=0)

    @classmethod
    def dihedral(cls, order: int) -> "FiniteGroup":
        """``D_{2n}`` of **order** ``2n`` (symmetries of a regular n-gon). Elements ``(k, f)`` stand
        for ``r^k s^f`` with ``r`` of order n, ``s`` of order 2 and ``s r s = r^-1``:
        ``(k1, f1)(k2, f2) = (k1 + (-1)^f1 k2 mod n, f1 xor f2)``."""
        order = check_int("order", order, 2)
        if order % 2:
            raise ValueError(f"dihedral order must be even (D_2n has order 2n), got {order}")
        _check_order(f"D{order}", order, argument=f"order = {order}")
        n = order // 2

        def mul(x, y):
            return ((x[0] + (y[0] if x[1] == 0 else -y[0])) % n, x[1] ^ y[1])

        gens = [(1 % n, 0), (0, 1)]
        elems, T = _closure_table(gens, mul, (0, 0), MAX_ORDER)
        return cls(elems, T, name=f"D{order}", kind="dihedral", _identity=0)

    @classmethod
    def from_permutations(cls, gens: Iterable[Sequence[int]], degree: int | None = None, *,
                          name: str | None = None, max_order: int = MAX_ORDER) -> "FiniteGroup":
        """The permutation group generated by ``gens``, closed under ``multiply(p, q) = p ∘ q``
        (apply q first). Each generator is in image notation (the images of ``0..degree-1``:
        ``(1, 2, 0)``), in cycle notation (``"(0 1 2)(3 4)"`` or ``[(0, 1, 2), (3, 4)]``,
        disjoint cycles) or a sympy ``Permutation`` (see :mod:`.permutation_notation`); elements
        are image tuples. ``degree`` defaults to the generators' length (the largest point of a
        cycle-notation or sympy generator, whose further points are fixed); an empty generator
        list needs ``degree`` and gives the trivial group. ``ValueError`` for a non-permutation
        or mismatched lengths (naming the notations accepted), or a group larger than
        ``max_order``; ``TypeError`` for a generator of another type."""
        from .permutation_notation import NOTATION_HINT, as_images

        max_order = check_int("max_order", max_order)
        degree = check_optional_int("degree", degree, 0)
        gens = as_list("gens", gens, "a sequence of permutations")
        read = []                                  # (image tuple, padded with fixed points?)
        for i, g in enumerate(gens):
            images = as_images(g, f"gens[{i}]")    # cycle notation or sympy, else None
            if images is None:
                if isinstance(g, (str, bytes)) or not hasattr(g, "__iter__") or not all(
                        isinstance(v, (Integral, np.integer)) and not isinstance(v, (bool, np.bool_))
                        for v in g):
                    # no int() coercion: 1.5 or True must not silently become 1
                    raise TypeError(f"gens: each generator must be a permutation, got {g!r}; "
                                    f"{NOTATION_HINT}")
                read.append((tuple(int(v) for v in g), False))
            else:
                read.append((images, True))
        pad = max([len(g) for g, _ in read] + [degree or 0])
        gl = [g + tuple(range(len(g), pad)) if padded else g for g, padded in read]
        given = degree is not None
        if degree is None:
            if not gl:
                raise ValueError("gens is empty: pass degree to get the trivial group")
            degree = pad
        for g in gl:
            if given and len(g) != degree:
                raise ValueError(f"degree = {degree}, but the generator {g} is a permutation of "
                                 f"0..{len(g) - 1}: degree must be the generators' length")
            if sorted(g) != list(range(degree)):
                raise ValueError(f"gens: {g} is not a permutation of 0..{degree - 1} in image "
                                 f"notation; {NOTATION_HINT}")
        ident = tuple(range(degree))
        elems, T = _closure_table(
            gl, lambda p, q: tuple(p[i] for i in q), ident, max_order,
            advice=f"the group is finite (at most {degree}! elements): pass a larger max_order "
                   "(its Cayley table has max_order² entries)")
        return cls(elems, T, name=name, kind="permutation", _identity=0)

    @classmethod
    def symmetric(cls, n: int) -> "FiniteGroup":
        """``S_n`` acting on ``0..n-1`` (generated by ``(0 1)`` and ``(0 1 ... n-1)``)."""
        n = check_int("n", n, 1)
        _check_order(f"S{n}", math.factorial(n) if n <= 8 else MAX_ORDER + 1, exact=n <= 8,
                     argument=f"n = {n}")
        gens = [] if n < 2 else [_transposition(n, 0, 1), tuple(list(range(1, n)) + [0])]
        return cls.from_permutations(gens, degree=n, name=f"S{n}")

    @classmethod
    def alternating(cls, n: int) -> "FiniteGroup":
        """``A_n`` acting on ``0..n-1`` (generated by the 3-cycles ``(0 1 k)``)."""
        n = check_int("n", n, 1)
        _check_order(f"A{n}", max(1, math.factorial(n) // 2) if n <= 9 else MAX_ORDER + 1,
                     exact=n <= 9, argument=f"n = {n}")
        gens = []
        for k in range(2, n):
            p = list(range(n))
            p[0], p[1], p[k] = 1, k, 0  # 0 -> 1 -> k -> 0
            gens.append(tuple(p))
        return cls.from_permutations(gens, degree=n, name=f"A{n}")

    @classmethod
    def quaternion(cls) -> "FiniteGroup":
        """``Q8 = {±1, ±i, ±j, ±k}``, as the 4x4 integer matrices of left multiplication on the
        basis (1, i, j, k)."""
        i = [[0, -1, 0, 0], [1, 0, 0, 0], [0, 0, 0, -1], [0, 0, 1, 0]]
        j = [[0, 0, -1, 0], [0, 0, 0, 1], [1, 0, 0, 0], [0, -1, 0, 0]]
        return cls.from_matrices([i, j], name="Q8")

    @classmethod
    def heisenberg(cls, p: int) -> "FiniteGroup":
        """``H3(p)``: 3x3 upper unitriangular matrices over ``Z/p`` (order p^3), generated by
        ``I + E12`` and ``I + E23``."""
        p = check_int("p", p, 2)
        _check_order(f"H3({p})", p ** 3 if p <= MAX_ORDER else MAX_ORDER + 1, exact=p <= MAX_ORDER,
                     argument=f"p = {p}")
        x = [[1, 1, 0], [0, 1, 0], [0, 0, 1]]
        y = [[1, 0, 0], [0, 1, 1], [0, 0, 1]]
        return cls.from_matrices([x, y], modulus=p, name=f"H3({p})")

    @classmethod
    def from_matrices(cls, mats: Iterable, modulus: int | None = None, *, name: str | None = None,
                      max_order: int = MAX_ORDER) -> "FiniteGroup":
        """The group generated by invertible square matrices with exact entries (``int``,
        ``Fraction``, sympy rationals, integer numpy arrays), under the matrix product, optionally
        modulo ``modulus``. Elements are tuples of row tuples (``int`` in ``0..modulus-1``, else
        ``Fraction``). ``TypeError`` for inexact (float) entries; ``ValueError`` for non-square or
        mismatched shapes, a singular matrix (or det not a unit mod ``modulus``), an empty list, or
        a group larger than ``max_order`` (e.g. a matrix of infinite order)."""
        max_order = check_int("max_order", max_order)
        if modulus is not None:
            modulus = check_int("modulus", modulus, 2)
        gl = [_exact_matrix(M, modulus, f"mats[{k}]")
              for k, M in enumerate(as_list("mats", mats, "a sequence of square matrices"))]
        if not gl:
            raise ValueError("mats is empty")
        d = len(gl[0])
        for k, M in enumerate(gl):
            if len(M) != d:
                raise ValueError(f"mats[{k}] has size {len(M)}, expected {d} (all must match)")
            det = _det(M)
            if (det == 0) if modulus is None else (math.gcd(int(det) % modulus, modulus) != 1):
                raise ValueError(f"mats[{k}] is singular" + ("" if modulus is None
                                                             else f" modulo {modulus}"))
        if modulus is None:
            one, zero = Fraction(1), Fraction(0)

            def mul(A, B):
                return tuple(tuple(sum((A[i][k] * B[k][j] for k in range(d)), zero)
                                   for j in range(d)) for i in range(d))
        else:
            one, zero = 1, 0

            def mul(A, B):
                return tuple(tuple(sum(A[i][k] * B[k][j] for k in range(d)) % modulus
                                   for j in range(d)) for i in range(d))
        ident = tuple(tuple(one if i == j else zero for j in range(d)) for i in range(d))
        if modulus is None:
            advice = ("a matrix of infinite order (e.g. [[1, 1], [0, 1]] over the rationals) "
                      "generates an infinite group, which no max_order holds: pass modulus=p to "
                      "work modulo a prime p; if the group is finite, pass a larger max_order")
        else:
            advice = (f"the group is finite (at most modulus^(d²) = {modulus}^{d * d} elements): "
                      "pass a larger max_order (its Cayley table has max_order² entries), or a "
                      "smaller modulus")
        elems, T = _closure_table(gl, mul, ident, max_order, "mats", advice)
        return cls(elems, T, name=name, kind="matrix", _identity=0)

    @classmethod
    def from_cayley_table(cls, table, *, name: str | None = None) -> "FiniteGroup":
        """A group from its Cayley table (elements ``0..n-1``, ``table[i][j] = i*j``), validated:
        2-D square shape, integer entries, entries in ``0..n-1`` (closure), a two-sided identity,
        Latin square, associativity, two-sided inverses. ``ValueError`` naming the failing property
        and an example (cell, or triple for associativity); ``TypeError`` for non-integer entries.
        Associativity is checked on all n^3 triples for n <= 256, else by Light's test on a
        generating set."""
        T = validate_table(table)
        return cls(list(range(T.shape[0])), T.astype(_table_dtype(T.shape[0])), name=name,
                   kind="table")

    _NAME_RE = re.compile(r"^(C|D|S|A|Q)(\d+)$")

    @classmethod
    def named(cls, name: str) -> "FiniteGroup":
        """A group by its SPEC §2 name: ``C<n>``, ``D<2n>`` (order 2n), ``S<n>``, ``A<n>``, ``Q8``,
        ``H3`` (= ``H3(3)``), ``H3(<p>)``, ``F21`` / ``C7:C3``, ``V4``, ``Klein``, ``trivial``.

        Dihedral naming is by **order** (SPEC §2): ``"D8"`` is the dihedral group of order 8
        (the symmetries of a square; sympy's ``DihedralGroup(4)``), ``"D6"`` that of order 6
        (≅ S3), and ``"D4"`` the dihedral group of order 4, which is the Klein four-group V4, not
        the symmetries of a square. The subscript form ``"D_8"`` / ``"D_{8}"`` means the same as
        ``"D8"``; ``"Dih4"`` / ``"Dih_4"`` / ``"Dih(4)"`` names the symmetries of a regular
        4-gon (order 8), the other common convention, spelled differently so that a name is
        never ambiguous. An odd ``"D<m>"`` is refused: no dihedral group has odd order.

        ``TypeError`` for a non-str name; ``ValueError`` for an unknown name;
        :class:`GroupTooLargeError` (a ``ValueError``) for a group above :data:`MAX_ORDER`."""
        check_instance("name", name, str, "a group name (str)")
        try:
            return cls._named(name)
        except GroupTooLargeError as exc:       # "n = 8: S8 has order ..." -> "name = 'S8': ..."
            raise GroupTooLargeError(f"name = {name!r}: {str(exc).split(': ', 1)[-1]}") from None

    @classmethod
    def _named(cls, name: str) -> "FiniteGroup":
        s = name.strip().replace(" ", "")
        m = re.fullmatch(r"H3(?:\((\d+)\))?", s)
        if m:
            return cls.heisenberg(int(m.group(1) or 3))
        if s in ("F21", "C7:C3", "C7⋊C3"):
            g = cls.from_permutations([tuple((x + 1) % 7 for x in range(7)),
                                       tuple((2 * x) % 7 for x in range(7))], name="F21")
            return g
        if s in ("V4", "Klein", "C2xC2"):
            g = cls.cyclic(2).direct_product(cls.cyclic(2))
            g.name = "V4"
            return g
        if s in ("trivial", "1", "C1"):
            return cls.trivial()
        m = re.fullmatch(r"Dih(?:_?(\d+)|\((\d+)\))", s)
        if m:  # Dih_n: symmetries of a regular n-gon, order 2n
            n = int(m.group(1) or m.group(2))
            if n < 1:
                raise ValueError(f"{name!r}: Dih_n needs n >= 1")
            return cls.dihedral(2 * n)
        s = re.sub(r"^D_\{?(\d+)\}?$", r"D\1", s)  # D_8, D_{8} -> D8 (order)
        m = cls._NAME_RE.fullmatch(s)
        if m and m.group(1) == "D" and int(m.group(2)) % 2:
            raise ValueError(f"{name!r}: D<m> names the dihedral group of order m (SPEC §2), and "
                             f"m must be even; the symmetries of a regular {m.group(2)}-gon are "
                             f"D{2 * int(m.group(2))} (or Dih{m.group(2)})")
        if m:
            kind, n = m.group(1), int(m.group(2))
            if kind == "C" and n >= 1:
                return cls.cyclic(n)
            if kind == "D" and n >= 2 and n % 2 == 0:
                return cls.dihedral(n)
            if kind == "S" and n >= 1:
                return cls.symmetric(n)
            if kind == "A" and n >= 1:
                return cls.alternating(n)
            if kind == "Q" and n == 8:
                return cls.quaternion()
        raise ValueError(f"unknown group name {name!r}; known: C<n>, D<2n> (order 2n), Dih<n> "
                         f"(order 2n), S<n>, A<n>, Q8, H3, H3(<p>), F21 (= C7:C3), V4, trivial")


# ------------------------------------------------------------------------------------------------
# helpers
# ------------------------------------------------------------------------------------------------

def _transposition(n: int, a: int, b: int) -> tuple[int, ...]:
    p = list(range(n))
    p[a], p[b] = b, a
    return tuple(p)


def _exact_scalar(v, argname: str) -> Fraction:
    """One matrix entry as a ``Fraction`` (:func:`~seqtheory.theory.contract.check_exact`: ints,
    Fractions, sympy / python-flint rationals, Decimal exactly; floats and irrationals refused,
    never identified with a nearby rational)."""
    if type(v).__module__.startswith("sympy") and not isinstance(v, Rational):
        raise TypeError(f"{argname}: entries must be integers or rationals, got {v}")
    return check_exact(argname, v)


def _exact_matrix(M, modulus: int | None, argname: str) -> tuple:
    if hasattr(M, "tolist") and not isinstance(M, np.ndarray):  # sympy Matrix
        M = M.tolist()
    if isinstance(M, np.ndarray):
        if M.dtype.kind == "f" or M.dtype.kind == "c":
            raise TypeError(f"{argname}: entries must be exact, got a {M.dtype} array")
        M = M.tolist()
    try:
        rows = [list(r) for r in M]
    except TypeError:
        raise TypeError(f"{argname} must be a 2-D matrix") from None
    d = len(rows)
    if d == 0 or any(len(r) != d for r in rows):
        raise ValueError(f"{argname} must be a non-empty square matrix")
    F = [[_exact_scalar(v, argname) for v in r] for r in rows]
    if modulus is None:
        return tuple(tuple(r) for r in F)
    out = []
    for r in F:
        if any(v.denominator != 1 for v in r):
            raise ValueError(f"{argname}: entries must be integers when modulus is given")
        out.append(tuple(int(v) % modulus for v in r))
    return tuple(out)


def _det(M) -> Fraction:
    """Exact determinant by fraction-free elimination (Fractions)."""
    A = [[Fraction(v) for v in r] for r in M]
    d = len(A)
    det = Fraction(1)
    for c in range(d):
        p = next((r for r in range(c, d) if A[r][c] != 0), None)
        if p is None:
            return Fraction(0)
        if p != c:
            A[c], A[p] = A[p], A[c]
            det = -det
        det *= A[c][c]
        for r in range(c + 1, d):
            f = A[r][c] / A[c][c]
            if f:
                A[r] = [a - f * b for a, b in zip(A[r], A[c])]
    return det


def validate_table(table) -> np.ndarray:
    """``table`` as a validated group Cayley table (``table[i, j]`` the index of ``e_i · e_j``):
    a non-empty square integer array (integral floats accepted) of order at most
    :data:`MAX_ORDER` whose entries satisfy the group axioms (closure, identity, Latin square,
    associativity, inverses), checked in ``O(n^2)`` memory. Returns the array; ``ValueError``
    naming the failed property, ``TypeError`` for non-integer entries."""
    try:
        arr = np.asarray(table)
    except Exception as exc:  # ragged nested lists
        raise ValueError(f"table: not a rectangular array ({exc})") from None
    if arr.dtype == object:
        raise ValueError("table: not a rectangular 2-D integer array (ragged or mixed entries)")
    if arr.ndim != 2 or arr.shape[0] != arr.shape[1] or arr.shape[0] == 0:
        raise ValueError(f"table: must be a non-empty square 2-D array, got shape {arr.shape}")
    if arr.dtype.kind == "b" or arr.dtype.kind not in "iuf":
        raise TypeError(f"table: entries must be integers, got dtype {arr.dtype}")
    if arr.dtype.kind == "f":
        if not np.isfinite(arr).all() or not (arr == np.round(arr)).all():
            raise TypeError("table: entries must be integers (found non-integral or non-finite "
                            "floats)")
    n = arr.shape[0]
    if n > MAX_ORDER:
        raise ValueError(f"table: order {n} > MAX_ORDER={MAX_ORDER}")
    # the range is checked before the cast: 1e20 or 2**64 - 1 would wrap to a wrong value
    bad = np.argwhere((arr < 0) | (arr >= n))
    if bad.size:
        i, j = bad[0]
        raise ValueError(f"table: closure fails, entry T[{i}, {j}] = {int(arr[i, j])} is not in "
                         f"0..{n - 1}")
    T = arr.astype(np.int64)
    ar = np.arange(n)
    ids = np.flatnonzero((T == ar[None, :]).all(axis=1) & (T == ar[:, None]).all(axis=0))
    if ids.size == 0:
        raise ValueError("table: identity fails, no e with T[e, x] = T[x, e] = x for all x")
    e = int(ids[0])
    for axis, what in ((1, "row"), (0, "column")):
        srt = np.sort(T, axis=axis)
        bad = np.argwhere(srt != (ar[None, :] if axis == 1 else ar[:, None]))
        if bad.size:
            k = int(bad[0][0] if axis == 1 else bad[0][1])
            line = T[k, :] if axis == 1 else T[:, k]
            vals, cnt = np.unique(line, return_counts=True)
            v = int(vals[cnt > 1][0])
            where = np.flatnonzero(line == v)[:2].tolist()
            cells = ([(k, w) for w in where] if axis == 1 else [(w, k) for w in where])
            raise ValueError(f"table: not a Latin square, {what} {k} repeats the value {v} at "
                             f"cells {cells[0]} and {cells[1]}")
    _check_associative(T)
    inv = np.argmax(T == e, axis=1)
    bad = np.flatnonzero(T[inv, ar] != e)
    if bad.size:  # pragma: no cover - implied by associativity + identity + Latin
        x = int(bad[0])
        raise ValueError(f"table: inverses fail, x={x} has right inverse {int(inv[x])} that is "
                         f"not a left inverse")
    return T


def _check_associative(T: np.ndarray) -> None:
    n = T.shape[0]
    if n <= _FULL_ASSOC_MAX:
        for a in range(n):  # (a b) c vs a (b c), one slab of n^2 per a
            lhs = T[T[a, :], :]            # lhs[b, c] = (a b) c
            rhs = T[a, T]                  # rhs[b, c] = a (b c)
            bad = np.argwhere(lhs != rhs)
            if bad.size:
                b, c = map(int, bad[0])
                _assoc_error(T, a, b, c)
        return
    # Light's test: if x(gy) = (xg)y for all x, y and all g of a generating set S of the magma,
    # the operation is associative (the 'associative' elements form a submagma).
    gens = _magma_generators(T)
    for g in gens:
        lhs = T[T[:, g], :]                # lhs[x, y] = (x g) y
        rhs = T[:, T[g, :]]                # rhs[x, y] = x (g y)
        bad = np.argwhere(lhs != rhs)
        if bad.size:
            x, y = map(int, bad[0])
            _assoc_error(T, x, g, y)


def _assoc_error(T, a, b, c):
    raise ValueError(f"table: associativity fails for the triple (a, b, c) = ({a}, {b}, {c}): "
                     f"(a*b)*c = {int(T[T[a, b], c])} but a*(b*c) = {int(T[a, T[b, c]])}")


def _magma_generators(T: np.ndarray) -> list[int]:
    """A generating set of the magma with table T (closure under all products)."""
    n = T.shape[0]
    gens: list[int] = []
    mask = np.zeros(n, dtype=bool)
    while not mask.all():
        x = int(np.flatnonzero(~mask)[0])
        gens.append(x)
        mask[x] = True
        while True:
            idx = np.flatnonzero(mask)
            new = np.unique(T[np.ix_(idx, idx)])
            if mask[new].all():
                break
            mask[new] = True
    return gens

"""Permutation groups of any order through sympy's ``PermutationGroup`` (Schreier-Sims: a base and
strong generating set, never the element list), above the Cayley-table path of
:class:`~seqtheory.theory.groups.FiniteGroup` (capped at ``MAX_ORDER = 5040``).

:class:`PermGroup` answers what :class:`FiniteGroup` answers, under the same names and the same
rule (invariants are properties, series and substructures methods; SPEC §2 series
conventions): ``order``, ``derived_series()``, ``lower_central_series()``,
``upper_central_series()`` (each a :class:`~seqtheory.theory.groups.GroupSeries` of
:class:`PermGroup` subgroups with their orders), ``center()``, ``commutator_subgroup()``,
``is_solvable``, ``is_nilpotent``, ``is_abelian``, ``is_perfect``, ``derived_length``,
``nilpotency_class``; and beyond it ``commutator(H, K)``, ``sylow_subgroup(p)``,
``abelian_invariants`` and ``composition_series()``. :func:`permutation_group` picks the
Cayley-table path up to ``MAX_ORDER`` and this one above it.

Methods. Series by normal closures (sympy ``normal_closure``, a Las Vegas algorithm whose
answer is exact): ``G^(i+1)`` the normal closure in ``G^(i)`` of the commutators of its
generators, ``γ_{i+1} = [G, γ_i]`` that of ``[s, t]`` for generators ``s`` of ``G``, ``t`` of
``γ_i``; a series stops when the order stops falling. Centre: sympy ``center``. Upper central
series: ``Z_{i+1} = {g : [g, s] ∈ Z_i for every generator s}``, searched inside
``C_G(γ_∞)`` (``γ_∞`` the last term of the lower central series; every ``Z_i`` centralises it,
since ``[γ_i, Z_i] = 1``), by listing its elements up to :data:`UPPER_ENUMERATION_CAP`, else by
sympy's backtrack ``subgroup_search``. Sylow subgroups and abelian invariants: sympy
``sylow_subgroup``, ``abelian_invariants``. Composition series: sympy's for a solvable group;
otherwise by kernels of actions (on an orbit when intransitive, on a block system when
imprimitive: the series of the image, lifted, followed by the series of the kernel), a
primitive group of degree ``n`` and order ``n!`` or ``n!/2`` being ``S_n ▷ A_n ▷ 1`` or the
simple ``A_n`` (the only subgroups of ``S_n`` of index at most 2); any other primitive
non-solvable group raises ``NotImplementedError``.

Sizes: a degree (number of points) above :data:`~seqtheory.theory.permutation_notation.MAX_DEGREE`
(10^5) is refused before any permutation is built; up to it the constructors and ``order`` answer
in well under a second, while the series grow much faster with the degree (the derived series of
``S_50`` takes about 18 s).

Conventions: permutations are image tuples of ``0..n-1`` (as :class:`FiniteGroup`; sympy's
``array_form``); the group generated is a set, the same whichever composition convention
(sympy's ``p*q`` applies ``p`` first). Named groups: ``S<n>``, ``A<n>``, ``C<n>``, ``D<2n>``
(order 2n), :meth:`PermGroup.abelian` (direct product of cyclic groups on disjoint points, as
sympy's ``AbelianGroup``), :meth:`PermGroup.rubik` (the Rubik cube group on its 48 moving
facets, generators as in GAP's manual example "Rubik's Cube"; order 43252003274489856000).

Sources: Holt, Eick, O'Brien, *Handbook of Computational Group Theory*, §4 (Schreier-Sims,
normal closure, Sylow subgroups), §7-8 (composition series via actions); Dummit-Foote §6
(series); sympy ``sympy.combinatorics.perm_groups`` and ``homomorphisms``.
"""
from __future__ import annotations

import math
from functools import cached_property
from typing import Any, Iterable, Sequence

from ._checks import check_int
from ._messages import counted
from .contract import as_list, check_instance, check_optional_int
from .groups import MAX_ORDER, FiniteGroup, GroupSeries
from .permutation_notation import MAX_DEGREE

__all__ = ["PermGroup", "permutation_group", "UPPER_ENUMERATION_CAP", "RUBIK_GENERATORS"]

#: The upper central series lists the elements of ``C_G(γ_∞)`` up to this order (else a
#: backtrack search).
UPPER_ENUMERATION_CAP = 100_000

#: The Rubik cube group's generators (the six face turns) on the facets 1..48 as in GAP's
#: manual example "Rubik's Cube" (cycle notation, 1-based; :meth:`PermGroup.rubik` shifts to 0).
RUBIK_GENERATORS = (
    "(1,3,8,6)(2,5,7,4)(9,33,25,17)(10,34,26,18)(11,35,27,19)",
    "(9,11,16,14)(10,13,15,12)(1,17,41,40)(4,20,44,37)(6,22,46,35)",
    "(17,19,24,22)(18,21,23,20)(6,25,43,16)(7,28,42,13)(8,30,41,11)",
    "(25,27,32,30)(26,29,31,28)(3,38,43,19)(5,36,45,21)(8,33,48,24)",
    "(33,35,40,38)(34,37,39,36)(3,9,46,32)(2,12,47,29)(1,14,48,27)",
    "(41,43,48,46)(42,45,47,44)(14,22,30,38)(15,23,31,39)(16,24,32,40)",
)


def _sympy_perm(images: Sequence[int]):
    from sympy.combinatorics import Permutation

    return Permutation(list(images))


class PermGroup:
    """A permutation group on ``0..degree-1`` held by sympy's ``PermutationGroup`` (module
    docstring). Build it with :meth:`from_permutations`, :meth:`named`, :meth:`symmetric`,
    :meth:`alternating`, :meth:`cyclic`, :meth:`dihedral`, :meth:`abelian`, :meth:`rubik`;
    subgroups (series terms, centre, Sylow subgroups) are ``PermGroup`` objects too.

    The constructor wraps a sympy ``PermutationGroup`` as it is (``name``: a string or None);
    anything else -- a list of permutations included, which :meth:`from_permutations` reads
    with its checks and notations -- is refused with a ``TypeError`` naming ``group`` (never an
    ``AttributeError`` on first use)."""

    def __init__(self, group, *, name: str | None = None):
        from sympy.combinatorics import PermutationGroup

        self._G = check_instance("group", group, PermutationGroup,
                                 "a sympy PermutationGroup (for permutations, use "
                                 "PermGroup.from_permutations(gens))")
        self.name = None if name is None else check_instance("name", name, str, "a string or None")

    # ---------------------------------------------------------------- construction
    @classmethod
    def from_permutations(cls, gens: Iterable, degree: int | None = None, *,
                          name: str | None = None) -> "PermGroup":
        """The group generated by ``gens`` (image tuples, cycle notation or sympy
        permutations, as :meth:`FiniteGroup.from_permutations` reads them). ``degree``
        defaults to the largest generator; an empty list needs it (the trivial group).
        ``ValueError``/``TypeError`` as there; ``ValueError`` for a degree above
        :data:`~seqtheory.theory.permutation_notation.MAX_DEGREE`."""
        from sympy.combinatorics import PermutationGroup

        from .permutation_notation import NOTATION_HINT, as_images

        degree = check_optional_int("degree", degree, 1, MAX_DEGREE)
        images = []
        for i, g in enumerate(as_list("gens", gens, "a sequence of permutations")):
            im = as_images(g, f"gens[{i}]")
            if im is None:
                if isinstance(g, (str, bytes)) or not hasattr(g, "__iter__"):
                    raise TypeError(f"gens[{i}] must be a permutation; {NOTATION_HINT}")
                im = tuple(check_int(f"gens[{i}] entry", v, 0, MAX_DEGREE - 1) for v in g)
            images.append(tuple(im))
        n = max([len(g) for g in images] + [degree or 0])
        if n > MAX_DEGREE:
            raise ValueError(f"gens: permutations of {counted(n, 'point')}, more than "
                             f"MAX_DEGREE = {MAX_DEGREE:,}")
        if n == 0:
            raise ValueError("gens is empty: pass degree to get the trivial group")
        perms = []
        for i, g in enumerate(images):
            g = g + tuple(range(len(g), n))
            if sorted(g) != list(range(n)):
                raise ValueError(f"gens[{i}] is not a permutation of 0..{n - 1}; {NOTATION_HINT}")
            perms.append(_sympy_perm(g))
        if not perms:
            perms = [_sympy_perm(range(n))]
        return cls(PermutationGroup(perms), name=name)

    @classmethod
    def symmetric(cls, n: int) -> "PermGroup":
        """``S_n`` on ``0..n-1``."""
        from sympy.combinatorics.named_groups import SymmetricGroup

        n = check_int("n", n, 1, MAX_DEGREE)
        return cls(SymmetricGroup(n), name=f"S{n}")

    @classmethod
    def alternating(cls, n: int) -> "PermGroup":
        """``A_n`` on ``0..n-1``."""
        from sympy.combinatorics.named_groups import AlternatingGroup

        n = check_int("n", n, 1, MAX_DEGREE)
        return cls(AlternatingGroup(n), name=f"A{n}")

    @classmethod
    def cyclic(cls, n: int) -> "PermGroup":
        """``C_n`` generated by the n-cycle on ``0..n-1``."""
        from sympy.combinatorics.named_groups import CyclicGroup

        n = check_int("n", n, 1, MAX_DEGREE)
        return cls(CyclicGroup(n), name=f"C{n}")

    @classmethod
    def dihedral(cls, order: int) -> "PermGroup":
        """``D_{2n}`` of **order** ``2n`` (SPEC §2) on the ``n`` vertices of the ``n``-gon
        (``n >= 3``; sympy's ``DihedralGroup(n)``)."""
        from sympy.combinatorics.named_groups import DihedralGroup

        order = check_int("order", order, 6, 2 * MAX_DEGREE)
        if order % 2:
            raise ValueError(f"dihedral order must be even (D_2n has order 2n), got {order}")
        return cls(DihedralGroup(order // 2), name=f"D{order}")

    @classmethod
    def abelian(cls, orders: Sequence[int]) -> "PermGroup":
        """``C_{m1} x C_{m2} x ...``, each factor cycling its own block of points (sympy's
        ``AbelianGroup(*orders)``; GAP's ``AbelianGroup``)."""
        from sympy.combinatorics.named_groups import AbelianGroup

        ms = [check_int(f"orders[{i}]", m, 1, MAX_DEGREE)
              for i, m in enumerate(as_list("orders", orders, "a sequence of ints"))]
        if not ms:
            raise ValueError("orders is empty")
        if sum(ms) > MAX_DEGREE:
            raise ValueError(f"orders: the product acts on {counted(sum(ms), 'point')}, more "
                             f"than MAX_DEGREE = {MAX_DEGREE:,}")
        return cls(AbelianGroup(*ms), name="x".join(f"C{m}" for m in ms))

    @classmethod
    def rubik(cls) -> "PermGroup":
        """The Rubik cube group (:data:`RUBIK_GENERATORS`, points shifted to 0..47)."""
        import re

        gens = [[tuple(int(p) - 1 for p in body.split(","))
                 for body in re.findall(r"\(([^)]*)\)", c)] for c in RUBIK_GENERATORS]
        return cls.from_permutations(gens, 48, name="Rubik")

    @classmethod
    def named(cls, name: str) -> "PermGroup":
        """``S<n>``, ``A<n>``, ``C<n>``, ``D<2n>`` (order 2n) or ``Rubik``."""
        import re

        if not isinstance(name, str):
            raise TypeError(f"name must be a str, got {type(name).__name__}")
        s = name.strip()
        if s.lower() == "rubik":
            return cls.rubik()
        m = re.fullmatch(r"([SACD])(\d+)", s)
        if not m:
            raise ValueError(f"unknown group name {name!r}; known: S<n>, A<n>, C<n>, D<2n>, Rubik")
        k, n = m.group(1), int(m.group(2))
        return {"S": cls.symmetric, "A": cls.alternating, "C": cls.cyclic,
                "D": cls.dihedral}[k](n)

    # ---------------------------------------------------------------- basic data
    @property
    def sympy_group(self):
        """The underlying ``sympy.combinatorics.PermutationGroup``."""
        return self._G

    @cached_property
    def order(self) -> int:
        return int(self._G.order())

    def __len__(self) -> int:
        return self.order

    @property
    def degree(self) -> int:
        return int(self._G.degree)

    @property
    def generators(self) -> tuple[tuple[int, ...], ...]:
        """The generators as image tuples."""
        return tuple(tuple(int(x) for x in g.array_form) for g in self._G.generators)

    def __repr__(self) -> str:
        return f"PermGroup({self.name or 'permutation group'}, order {self.order}, degree {self.degree})"

    def __reduce__(self):
        """Pickled by its generators (image tuples), degree and name: a sympy
        ``PermutationGroup`` unpickles without its internal state (its ``order()`` then raises
        ``AttributeError``); cached series are recomputed by the copy."""
        return _rebuilt, (self.generators, self.degree, self.name)

    def _sub(self, H, name: str | None = None) -> "PermGroup":
        return PermGroup(H, name=name)

    def __contains__(self, g) -> bool:
        from .permutation_notation import as_images

        im = as_images(g, "g") or tuple(g)
        im = tuple(im) + tuple(range(len(im), self.degree))
        return len(im) == self.degree and self._G.contains(_sympy_perm(im))

    def is_subgroup_of(self, other: "PermGroup") -> bool:
        return self.degree == other.degree and all(other._G.contains(g)
                                                   for g in self._G.generators)

    def is_normal_in(self, other: "PermGroup") -> bool:
        """Whether ``self`` is a normal subgroup of ``other``."""
        return self.is_subgroup_of(other) and all(
            self._G.contains(h ^ g) for g in other._G.generators for h in self._G.generators)

    # ---------------------------------------------------------------- series
    @staticmethod
    def _commutators(A: Sequence, B: Sequence) -> list:
        return [~a * ~b * a * b for a in A for b in B]

    def _closure(self, ambient, elems) -> "PermGroup":
        from sympy.combinatorics import PermutationGroup

        elems = [e for e in elems if not e.is_Identity] or [ambient.identity]
        return PermGroup(_few_generators(ambient.normal_closure(PermutationGroup(elems))))

    def commutator_subgroup(self) -> "PermGroup":
        """``[G, G]``."""
        return self._derived_terms[1] if len(self._derived_terms) > 1 else self

    @cached_property
    def _derived_terms(self) -> list["PermGroup"]:
        terms = [self]
        while terms[-1].order > 1:
            H = terms[-1]._G
            nxt = self._closure(H, self._commutators(H.generators, H.generators))
            if nxt.order == terms[-1].order:
                break
            terms.append(nxt)
        return terms

    @cached_property
    def _lower_terms(self) -> list["PermGroup"]:
        terms = [self]
        while terms[-1].order > 1:
            nxt = self._closure(self._G, self._commutators(self._G.generators,
                                                           terms[-1]._G.generators))
            if nxt.order == terms[-1].order:
                break
            terms.append(nxt)
        return terms

    def derived_series(self) -> GroupSeries:
        """``G^(0) = G, G^(i+1) = [G^(i), G^(i)]`` until 1 or until it stops falling."""
        return GroupSeries(self._derived_terms, "derived")

    def lower_central_series(self) -> GroupSeries:
        """``γ_1 = G, γ_{i+1} = [G, γ_i]`` until 1 or until it stops falling."""
        return GroupSeries(self._lower_terms, "lower_central")

    def center(self) -> "PermGroup":
        """``Z(G)`` (sympy ``center``)."""
        return self._sub(self._G.center())

    centre = center

    def upper_central_series(self) -> GroupSeries:
        """``1 = Z_0 < Z_1 = Z(G) < ...`` until it stops growing (``stabilised`` when below G;
        module docstring for the method)."""
        from sympy.combinatorics import PermutationGroup

        trivial = self._sub(PermutationGroup([self._G.identity]))
        terms = [trivial]
        Z = self.center()
        if Z.order == 1:
            return GroupSeries(terms, "upper_central", self.order)
        terms.append(Z)
        H = self._G.centralizer(self._lower_terms[-1]._G)
        gens = self._G.generators
        while terms[-1].order < self.order:
            Zi = terms[-1]._G

            def prop(g, Zi=Zi):
                return all(Zi.contains(~g * ~s * g * s) for s in gens)

            if H.order() <= UPPER_ENUMERATION_CAP:
                found = [g for g in H.generate() if prop(g)]
                nxt = PermutationGroup(found)
            else:
                nxt = H.subgroup_search(prop, init_subgroup=Zi)
            if nxt.order() == Zi.order():
                break
            terms.append(self._sub(nxt))
        return GroupSeries(terms, "upper_central", self.order)

    def commutator(self, H: "PermGroup", K: "PermGroup") -> "PermGroup":
        """``[H, K] = <[h, k] : h in H, k in K>`` for subgroups ``H``, ``K`` of ``G`` (sympy
        ``commutator``: the normal closure in ``<H, K>`` of the generators' commutators).
        Source: GAP ``CommutatorSubgroup(H, K)``."""
        for nm, X in (("H", H), ("K", K)):
            if not isinstance(X, PermGroup) or not X.is_subgroup_of(self):
                raise ValueError(f"{nm} must be a PermGroup subgroup of this group")
        return self._sub(self._G.commutator(H._G, K._G))

    # ---------------------------------------------------------------- invariants
    @property
    def derived_length(self) -> int | None:
        """Least ``k`` with ``G^(k) = 1`` (trivial group 0, not solvable ``None``)."""
        t = self._derived_terms
        return len(t) - 1 if t[-1].order == 1 else None

    @property
    def nilpotency_class(self) -> int | None:
        t = self._lower_terms
        return len(t) - 1 if t[-1].order == 1 else None

    @property
    def is_solvable(self) -> bool:
        return self.derived_length is not None

    @property
    def is_nilpotent(self) -> bool:
        return self.nilpotency_class is not None

    @property
    def is_abelian(self) -> bool:
        return bool(self._G.is_abelian)

    @property
    def is_perfect(self) -> bool:
        return self.commutator_subgroup().order == self.order

    @property
    def abelian_invariants(self) -> tuple[int, ...]:
        """The orders of the cyclic factors of ``G/G'`` in prime-power form, sorted (sympy
        ``abelian_invariants``; GAP ``AbelianInvariants``)."""
        return tuple(sorted(int(x) for x in self._G.abelian_invariants()))

    def sylow_subgroup(self, p: int) -> "PermGroup":
        """A Sylow ``p``-subgroup (order the largest power of ``p`` dividing ``|G|``): sympy
        ``sylow_subgroup``; for an abelian group the subgroup generated by the ``p``-parts of the
        generators (its unique Sylow ``p``-subgroup). ``ValueError`` unless ``p`` is a prime.
        sympy's algorithm can be slow on very large groups (the Rubik cube group: 36 s for
        ``p = 3``, more than 15 minutes for ``p = 2``)."""
        p = check_int("p", p, 2)
        if any(p % q == 0 for q in range(2, math.isqrt(p) + 1)):
            raise ValueError(f"p must be a prime, got {p}")
        if self.is_abelian:       # the p-parts of the generators generate it
            from sympy.combinatorics import PermutationGroup

            parts = []
            for g in self._G.generators:
                m = int(g.order())
                while m % p == 0:
                    m //= p
                parts.append(g ** m)
            return self._sub(PermutationGroup(parts))
        return self._sub(self._G.sylow_subgroup(p))

    # ---------------------------------------------------------------- composition series
    def composition_series(self) -> tuple["PermGroup", ...]:
        """``G = G_0 ▷ G_1 ▷ ... ▷ G_r = 1`` with every ``G_i / G_{i+1}`` simple (module
        docstring for the method). Source: GAP ``CompositionSeries``."""
        return tuple(self._sub(H) for H in _composition(self._G))


def _rebuilt(generators: tuple, degree: int, name: str | None) -> PermGroup:
    """The :class:`PermGroup` a pickle holds (:meth:`PermGroup.__reduce__`)."""
    from sympy.combinatorics import PermutationGroup

    return PermGroup(PermutationGroup([_sympy_perm(g) for g in generators] or
                                      [_sympy_perm(range(degree))]), name=name)


def _few_generators(H, tries: int = 8):
    """``H`` on a few generators (normal closures collect many): random elements (sympy's
    product replacement, its generator seeded and restored afterwards) are added until they
    generate a group of ``H``'s order, which is then ``H`` (they lie in it); ``H`` itself when
    that takes more than ``tries``."""
    from sympy.combinatorics import PermutationGroup
    from sympy.core.random import rng

    if len(H.generators) <= 4:
        return H
    state = rng.getstate()
    rng.seed(0)
    try:
        sample = []
        for _ in range(tries):
            sample.append(H.random_pr())
            K = PermutationGroup(sample)
            if K.order() == H.order():
                return K
    finally:
        rng.setstate(state)
    return H


def _composition(G) -> list:
    """A composition series of the sympy group ``G`` (a list of sympy groups, ``G`` first)."""
    from sympy.combinatorics import PermutationGroup
    from sympy.combinatorics.homomorphisms import block_homomorphism, orbit_homomorphism

    if G.order() == 1:
        return [G]
    if PermGroup(G).is_solvable:
        return list(G.composition_series())
    n = G.degree
    moved = [o for o in G.orbits() if len(o) > 1]
    if len(moved) > 1 or len(moved[0]) < n:   # intransitive: act on one moved orbit
        return _through(G, orbit_homomorphism(G, sorted(moved[0])))
    if not G.is_primitive():
        return _through(G, block_homomorphism(G, G.minimal_blocks()[0]))
    order = G.order()
    if order == math.factorial(n):         # S_n (n >= 5: not solvable)
        A = G.normal_closure(PermutationGroup([~a * ~b * a * b for a in G.generators
                                               for b in G.generators]))
        return [G, A, PermutationGroup([G.identity])]
    if order == math.factorial(n) // 2:    # A_n, simple for n >= 5
        return [G, PermutationGroup([G.identity])]
    raise NotImplementedError(f"composition series of a primitive non-solvable group of degree "
                              f"{n} and order {order} that is not alternating or symmetric: "
                              f"beyond this package (GAP's CompositionSeries)")


def _through(G, phi) -> list:
    """The series of ``G`` through the homomorphism ``phi``: the image's series lifted, then the
    kernel's (both parts composition series)."""
    K = phi.kernel()
    top = _composition(phi.image())
    lifted = [phi.invert_subgroup(H) for H in top]
    if K.order() == 1:
        return lifted
    return lifted[:-1] + _composition(K)


def permutation_group(gens: Iterable, degree: int | None = None, *, name: str | None = None):
    """The group generated by the permutations ``gens``: a :class:`FiniteGroup` (Cayley table)
    when its order is at most :data:`~seqtheory.theory.groups.MAX_ORDER`, else a
    :class:`PermGroup` (Schreier-Sims). The order is read from the stabiliser chain first.
    ``degree``: as :meth:`PermGroup.from_permutations` reads it."""
    degree = check_optional_int("degree", degree, 1, MAX_DEGREE)
    G = PermGroup.from_permutations(gens, degree, name=name)
    if G.order <= MAX_ORDER:
        return FiniteGroup.from_permutations(list(G.generators), degree=G.degree, name=name)
    return G

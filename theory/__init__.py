"""seqtheory.theory — exact mathematics: Lie algebras, finite groups, free Lie algebras,
BCH/Magnus, Hilbert projective geometry. Never imports torch.

Public names are imported lazily from their modules (``from seqtheory.theory import LieAlgebra``
loads :mod:`seqtheory.theory.lie` only).

Named Lie algebras (exact over Q, :mod:`seqtheory.theory.lie_named`): ``gl(n)``, ``sl(n)``,
``so(n)``, ``b(n)`` (upper triangular, alias ``upper_triangular``), ``n(n)`` (strictly upper
triangular, alias ``strictly_upper``), ``heisenberg(m)`` (the Heisenberg *algebra* of dimension
2m+1; the Heisenberg *group* over Z/p is ``FiniteGroup.heisenberg(p)`` / ``FiniteGroup.named("H3")``),
``diagonal(n)``.

One rule across :class:`LieAlgebra` and :class:`FiniteGroup` (as in ``sympy.combinatorics``):
invariants are properties (``L.dim``, ``L.derived_length``, ``L.nilpotency_class``,
``L.is_solvable``; ``G.order``, ``G.derived_length``), series and substructures are methods
(``L.derived_series()``, ``L.lower_central_series()``, ``L.upper_central_series()``,
``L.center()``; the same names on ``FiniteGroup``).
"""
from __future__ import annotations

from ._lazy import lazy_exports

_EXPORTS = {
    "LieAlgebra": "lie",
    "gl": "lie_named",
    "sl": "lie_named",
    "so": "lie_named",
    "b": "lie_named",
    "n": "lie_named:strictly_upper",
    "upper_triangular": "lie_named",
    "strictly_upper": "lie_named",
    "heisenberg": "lie_named",
    "diagonal": "lie_named",
    "hilbert_distance": "hilbert",
    "row_diameter": "hilbert",
    "variation_seminorm": "hilbert",
    "hilbert_change": "hilbert",
    "max_hilbert_change": "hilbert",
    "worst_case_hidden": "hilbert",
    "LieSeries": "lie",
    "Subspace": "linalg",
    "NumericalRankError": "linalg",
    "rank_decision": "linalg",
    "span": "linalg",
    "FiniteGroup": "groups",
    "GroupSeries": "groups",
    "GroupIsomorphism": "group_iso",
    "find_isomorphism": "group_iso",
    "audit_representation": "representations",
    "RepresentationAudit": "representations",
    "icosahedral_representation": "representations",
    "IcosahedralRepresentation": "representations",
    "rotation_log": "representations",
    "rotation_axis_generator": "representations",
    "lyndon_words": "free_lie",
    "witt_dimension": "free_lie",
    "free_nilpotent": "free_lie",
    "derived_ideal_lowest_degree": "free_lie",
    "derived_ideal_dimensions": "free_lie",
    "hall_basis": "free_lie",
    "lyndon_factorization": "free_lie",
    "LiePolynomial": "lie_poly",
    "bch": "bch_series",
    "bch_multi": "bch_series",
    "goldberg_coefficient": "bch_series",
    "magnus": "magnus_series",
    "magnus_lie_terms": "magnus_series",
    "magnus_discrete": "magnus_series",
    "taylor_ode_solution": "magnus_series",
}

__all__, __getattr__, __dir__ = lazy_exports(__name__, globals(), _EXPORTS)

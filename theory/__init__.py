"""seqtheory.theory — exact mathematics: Lie algebras, finite groups, free Lie algebras,
BCH/Magnus, Hilbert projective geometry. Never imports torch.

Public names are imported lazily from their modules (``from seqtheory.theory import LieAlgebra``
loads :mod:`seqtheory.theory.lie` only).
"""
from __future__ import annotations

from ._lazy import lazy_exports

_EXPORTS = {
    "LieAlgebra": "lie",
    "hilbert_distance": "hilbert",
    "row_diameter": "hilbert",
    "variation_seminorm": "hilbert",
    "hilbert_change": "hilbert",
    "max_hilbert_change": "hilbert",
    "worst_case_hidden": "hilbert",
    "LieSeries": "lie",
    "Subspace": "linalg",
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

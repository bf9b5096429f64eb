"""seqtheory.theory — exact mathematics: Lie algebras, finite groups, free Lie algebras,
BCH/Magnus, Hilbert projective geometry. Never imports torch.

Public names are imported lazily from their modules (``from seqtheory.theory import LieAlgebra``
loads :mod:`seqtheory.theory.lie` only).

Named Lie algebras (exact over Q, :mod:`seqtheory.theory.lie_named`): ``gl(n)``, ``sl(n)``,
``so(n)``, ``b(n)`` (upper triangular, alias ``upper_triangular``), ``n(n)`` (strictly upper
triangular, alias ``strictly_upper``), ``heisenberg(m)`` (the Heisenberg *algebra* of dimension
2m+1; the Heisenberg *group* over Z/p is ``FiniteGroup.heisenberg(p)`` / ``FiniteGroup.named("H3")``),
``diagonal(n)``, ``sl_affine(n)`` (``sl(n) ⋉ Q^n``).

Structure of exact Lie algebras (Q or a real number field; every exact :class:`LieAlgebra`,
whether given by matrices or by structure constants -- ``LieAlgebra.from_structure_constants``,
checked for antisymmetry and Jacobi): elements (``adjoint_matrix``, ``killing``,
``is_ad_nilpotent``, ``coordinates``; GAP ``AdjointMatrix``, ``KillingMatrix``,
``IsNilpotentElement``), the bridge ``adjoint_representation`` / ``structure_constant_algebra``,
radicals and Levi (``solvable_radical``, ``nilradical``, ``levi_decomposition``,
``kappa_perp``, ``killing_radical``, ``derivations``; GAP ``LieSolvableRadical``,
``LieNilRadical``, ``LeviMalcevDecomposition``, ``KappaPerp``, ``Derivations``), ideals
(``centraliser``, ``normaliser``, ``is_ideal``, ``quotient``, ``direct_sum_decomposition``; GAP
``LieCentralizer``, ``LieNormalizer``, ``NaturalHomomorphismByIdeal``, ``DirectSumDecomposition``)
and ``simple_lie_algebra`` (types A-D in a Chevalley basis; GAP ``SimpleLieAlgebra``).
Permutation groups of any order: ``PermGroup`` (sympy's Schreier-Sims) beside the Cayley-table
``FiniteGroup``; ``permutation_group`` picks one. Free Lie algebras beyond the Lyndon basis:
``hall_coordinates``, ``right_normed_coordinates`` (the C ``bch`` program's ``basis=2``/``1``),
``lyndon_words_with_evaluation``, ``standard_bracketing``/``standard_unbracketing`` (Sage).

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
    "sl_affine": "lie_named",
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
    "adjoint_matrix": "lie_elements",
    "adjoint_representation": "lie_elements",
    "coordinates": "lie_elements",
    "is_ad_nilpotent": "lie_elements",
    "killing": "lie_elements",
    "structure_constant_algebra": "lie_elements",
    "kappa_perp": "lie_radical",
    "killing_radical": "lie_radical",
    "solvable_radical": "lie_radical",
    "nilradical": "lie_radical",
    "levi_decomposition": "lie_radical",
    "LeviDecomposition": "lie_radical",
    "derivations": "lie_radical",
    "centraliser": "lie_ideals",
    "normaliser": "lie_ideals",
    "is_ideal": "lie_ideals",
    "quotient": "lie_ideals",
    "QuotientAlgebra": "lie_ideals",
    "direct_sum_decomposition": "lie_ideals",
    "simple_lie_algebra": "lie_chevalley",
    "ChevalleyAlgebra": "lie_chevalley",
    "cartan_matrix": "lie_chevalley",
    "root_system_size": "lie_chevalley",
    "PermGroup": "perm_groups",
    "permutation_group": "perm_groups",
    "lyndon_words_with_evaluation": "free_lie",
    "standard_bracketing": "free_lie",
    "standard_unbracketing": "free_lie",
    "hall_coordinates": "bch_bases",
    "right_normed_coordinates": "bch_bases",
    "right_normed_word": "bch_bases",
    "right_normed_basis": "bch_bases",
    "magnus": "magnus_series",
    "magnus_lie_terms": "magnus_series",
    "magnus_discrete": "magnus_series",
    "taylor_ode_solution": "magnus_series",
}

__all__, __getattr__, __dir__ = lazy_exports(__name__, globals(), _EXPORTS)

"""The nilpotent Lie algebras of dimension at most 6 of W. A. de Graaf's classification, as GAP's
LieAlgDB package lists them (``NilpotentLieAlgebra(F, [dim, k])``; ``N_{d,k}``), by their
multiplication tables (non-zero brackets ``[x_i, x_j]`` of the basis ``x_1, ..., x_d``).

Sources: W. A. de Graaf, *Classification of 6-dimensional nilpotent Lie algebras over fields of
characteristic not 2*, J. Algebra 309 (2007) 640-653; the LieAlgDB manual, Appendix
"Description of the solvable and nilpotent Lie algebras" (the tables below, typed from it):
``N_{5,k}`` (k = 1..9), ``N_{6,k}`` for k = 1..9 the direct sum of ``N_{5,k}`` and a
1-dimensional ideal, ``N_{6,10..26}``; dimensions 3 and 4 from de Graaf (2007), §3
(``L_{3,2}`` Heisenberg, ``L_{4,3}`` filiform). Four classes of dimension 6 have a parameter
``a`` (19, 21, 22, 24).
"""
from __future__ import annotations

from fractions import Fraction
from typing import Any

from ._checks import check_int

__all__ = ["nilpotent_lie_algebra", "NILPOTENT_COUNTS"]

# (dim, k): {(i, j): {l: coefficient}} with 1-based indices as printed; "a" marks the parameter
_TABLES: dict[tuple[int, int], dict] = {
    (1, 1): {}, (2, 1): {}, (3, 1): {}, (3, 2): {(1, 2): {3: 1}},
    (4, 1): {}, (4, 2): {(1, 2): {3: 1}}, (4, 3): {(1, 2): {3: 1}, (1, 3): {4: 1}},
    (5, 1): {},
    (5, 2): {(1, 2): {3: 1}},
    (5, 3): {(1, 2): {3: 1}, (1, 3): {4: 1}},
    (5, 4): {(1, 2): {5: 1}, (3, 4): {5: 1}},
    (5, 5): {(1, 2): {3: 1}, (1, 3): {5: 1}, (2, 4): {5: 1}},
    (5, 6): {(1, 2): {3: 1}, (1, 3): {4: 1}, (1, 4): {5: 1}, (2, 3): {5: 1}},
    (5, 7): {(1, 2): {3: 1}, (1, 3): {4: 1}, (1, 4): {5: 1}},
    (5, 8): {(1, 2): {4: 1}, (1, 3): {5: 1}},
    (5, 9): {(1, 2): {3: 1}, (1, 3): {4: 1}, (2, 3): {5: 1}},
    (6, 10): {(1, 2): {3: 1}, (1, 3): {6: 1}, (4, 5): {6: 1}},
    (6, 11): {(1, 2): {3: 1}, (1, 3): {4: 1}, (1, 4): {6: 1}, (2, 3): {6: 1}, (2, 5): {6: 1}},
    (6, 12): {(1, 2): {3: 1}, (1, 3): {4: 1}, (1, 4): {6: 1}, (2, 5): {6: 1}},
    (6, 13): {(1, 2): {3: 1}, (1, 3): {5: 1}, (2, 4): {5: 1}, (1, 5): {6: 1}, (3, 4): {6: 1}},
    (6, 14): {(1, 2): {3: 1}, (1, 3): {4: 1}, (1, 4): {5: 1}, (2, 3): {5: 1}, (2, 5): {6: 1},
              (3, 4): {6: -1}},
    (6, 15): {(1, 2): {3: 1}, (1, 3): {4: 1}, (1, 4): {5: 1}, (2, 3): {5: 1}, (1, 5): {6: 1},
              (2, 4): {6: 1}},
    (6, 16): {(1, 2): {3: 1}, (1, 3): {4: 1}, (1, 4): {5: 1}, (2, 5): {6: 1}, (3, 4): {6: -1}},
    (6, 17): {(1, 2): {3: 1}, (1, 3): {4: 1}, (1, 4): {5: 1}, (1, 5): {6: 1}, (2, 3): {6: 1}},
    (6, 18): {(1, 2): {3: 1}, (1, 3): {4: 1}, (1, 4): {5: 1}, (1, 5): {6: 1}},
    (6, 19): {(1, 2): {4: 1}, (1, 3): {5: 1}, (2, 4): {6: 1}, (3, 5): {6: "a"}},
    (6, 20): {(1, 2): {4: 1}, (1, 3): {5: 1}, (1, 5): {6: 1}, (2, 4): {6: 1}},
    (6, 21): {(1, 2): {3: 1}, (1, 3): {4: 1}, (2, 3): {5: 1}, (1, 4): {6: 1}, (2, 5): {6: "a"}},
    (6, 22): {(1, 2): {5: 1}, (1, 3): {6: 1}, (2, 4): {6: "a"}, (3, 4): {5: 1}},
    (6, 23): {(1, 2): {3: 1}, (1, 3): {5: 1}, (1, 4): {6: 1}, (2, 4): {5: 1}},
    (6, 24): {(1, 2): {3: 1}, (1, 3): {5: 1}, (1, 4): {6: "a"}, (2, 3): {6: 1}, (2, 4): {5: 1}},
    (6, 25): {(1, 2): {3: 1}, (1, 3): {5: 1}, (1, 4): {6: 1}},
    (6, 26): {(1, 2): {4: 1}, (1, 3): {5: 1}, (2, 3): {6: 1}},
}
for _k in range(1, 10):                  # N_{6,k} = N_{5,k} ⊕ a 1-dimensional ideal
    _TABLES[(6, _k)] = _TABLES[(5, _k)]

#: Number of classes per dimension in the tables (parametric classes counted once).
NILPOTENT_COUNTS = {d: sum(1 for (dd, _) in _TABLES if dd == d) for d in range(1, 7)}


def nilpotent_lie_algebra(dim: int, k: int, a: Any = None):
    """The nilpotent Lie algebra ``N_{dim,k}`` of de Graaf's classification (dim <= 6) as a
    structure-constant :class:`~seqtheory.theory.lie.LieAlgebra` over Q on ``x_1..x_dim``
    (index ``i - 1``). ``a``: the parameter of ``N_{6,19}``, ``N_{6,21}``, ``N_{6,22}``,
    ``N_{6,24}`` (an int or Fraction; required there, refused elsewhere). ``ValueError`` for an
    unknown ``(dim, k)``. Source: GAP ``NilpotentLieAlgebra(Rationals, [dim, k, a])``
    (LieAlgDB); de Graaf (2007)."""
    from .lie import LieAlgebra

    dim = check_int("dim", dim, 1, 6)
    k = check_int("k", k, 1)
    table = _TABLES.get((dim, k))
    if table is None:
        raise ValueError(f"no class N_{{{dim},{k}}}: dimension {dim} has classes "
                         f"1..{NILPOTENT_COUNTS[dim]}")
    parametric = any(c == "a" for row in table.values() for c in row.values())
    if parametric and a is None:
        raise ValueError(f"N_{{{dim},{k}}} has a parameter: pass a")
    if not parametric and a is not None:
        raise ValueError(f"N_{{{dim},{k}}} has no parameter; a must be None")
    if parametric and (isinstance(a, bool) or not isinstance(a, (int, Fraction))):
        raise TypeError(f"a must be an int or a Fraction, got {type(a).__name__}")
    sparse = {(i - 1, j - 1): {l - 1: (a if c == "a" else c) for l, c in row.items()}
              for (i, j), row in table.items()}
    return LieAlgebra.from_structure_constants(sparse, dim=dim)

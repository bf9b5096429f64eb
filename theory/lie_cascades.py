"""Random k-layer cascades of abelian (diagonal) layers and the Lie algebras they generate.

Model ([DEPTH] Heo et al., arXiv:2603.05573, Proposition 3.3, with *linear coupling*, SPEC §3.1):
layer ``i = 1..k`` has a state ``h_i`` of dimension ``d_i``; under input symbol ``x`` its update
generator is

    h_i' = D_i(x) h_i + sum_{j < i} C_ij(x) h_j          (linear layers)
    h_i' = D_i(x) h_i + sum_{j < i} C_ij(x) h_j + b_i(x) (affine layers)

with ``D_i(x)`` diagonal (so the generators of one layer commute: an abelian / "restricted"
layer such as a diagonal SSM) and ``C_ij(x)`` arbitrary (the coupling from the layers below).
The generator of the whole cascade is the block lower-triangular matrix ``M(x)`` with diagonal
blocks ``D_i(x)`` and below-diagonal blocks ``C_ij(x)``; an affine cascade uses the homogeneous
embedding ``[[M(x), b(x)], [0, 0]]`` (state ``(h, 1)``).

Structure (why a bound holds): block lower-triangular matrices form a Lie algebra, and taking the
diagonal blocks is a homomorphism onto a product of diagonal (abelian) algebras; so
``g' = [g, g]`` lies in the strictly block-lower part ``n_{>=1}``, and
``[n_{>=a}, n_{>=b}] ⊆ n_{>=a+b}`` gives ``g^(j) ⊆ n_{>=2^(j-1)}``, which is 0 once
``2^(j-1) >= k``. Hence, for linear coupling, derived length ``<= 1 + ceil(log2 k)`` (<= k);
an affine cascade is a linear one with an extra constant layer at the bottom (its diagonal block
is 0), so derived length ``<= 1 + ceil(log2 (k+1))`` (<= 2k). These are the structural bounds the
random instances are compared with; the paper's stated bounds are ``k`` and ``2k``.

Random instances: integer entries drawn uniformly from ``[-r, r]`` (``r = entry_range``) with a
``numpy.random.default_rng(seed)``; diagonal entries of ``D_i`` are drawn from the same range.
Everything is exact (:meth:`LieAlgebra.generated_by` over Q).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Sequence

import numpy as np

from ._checks import check_int
from .contract import check_bool
from .lie import LieAlgebra
from ._messages import shown

__all__ = ["Cascade", "random_cascade", "cascade_lie_algebra", "structural_bound",
           "affine_counterexample"]


@dataclass
class Cascade:
    """A k-layer cascade: ``generators`` (one square int64 matrix per input symbol),
    ``layer_dims``, ``affine`` flag, ``seed``, and ``commuting_layers`` (False only for the
    deliberately wrong variant whose diagonal blocks are full, non-commuting matrices)."""

    generators: list[np.ndarray]
    layer_dims: tuple[int, ...]
    affine: bool
    seed: int
    commuting_layers: bool = True
    meta: dict = field(default_factory=dict)

    @property
    def k(self) -> int:
        return len(self.layer_dims)

    @property
    def state_dim(self) -> int:
        return sum(self.layer_dims) + (1 if self.affine else 0)


def random_cascade(layer_dims: Sequence[int], n_inputs: int = 2, *, affine: bool = False,
                   seed: int = 0, entry_range: int = 3, commuting_layers: bool = True,
                   coupling: str = "all") -> Cascade:
    """A random k-layer cascade (see module doc) with ``k = len(layer_dims)`` layers and
    ``n_inputs`` input symbols.

    ``coupling``: ``"all"`` (layer i reads every layer below) or ``"adjacent"`` (only layer i-1).
    ``commuting_layers=False`` builds the *wrong* variant (full random diagonal blocks; the
    layers are then not abelian) used as a negative control.
    Raises ``ValueError`` for empty / non-positive layer sizes, ``n_inputs < 1``, a bad range.
    """
    affine = check_bool("affine", affine)
    commuting_layers = check_bool("commuting_layers", commuting_layers)
    if isinstance(layer_dims, (str, bytes)) or not hasattr(layer_dims, "__iter__"):
        raise ValueError(f"layer_dims must be a non-empty sequence of positive ints, got {shown(layer_dims)}")
    dims = tuple(layer_dims)
    if not dims or any(not _is_int(d) or d < 1 for d in dims):  # no int(): 1.5 must not be 1
        raise ValueError(f"layer_dims must be a non-empty sequence of positive ints, got {shown(layer_dims)}")
    dims = tuple(int(d) for d in dims)
    n_inputs = check_int("n_inputs", n_inputs)
    entry_range = check_int("entry_range", entry_range)
    seed = check_int("seed", seed, 0)
    if coupling not in ("all", "adjacent"):
        raise ValueError(f"coupling must be 'all' or 'adjacent', got {coupling!r}")
    rng = np.random.default_rng(seed)
    offs = np.concatenate([[0], np.cumsum(dims)])
    n = int(offs[-1])
    size = n + (1 if affine else 0)
    gens = []
    for _ in range(n_inputs):
        M = np.zeros((size, size), dtype=np.int64)
        for i, d in enumerate(dims):
            a, e = offs[i], offs[i + 1]
            if commuting_layers:
                M[a:e, a:e] = np.diag(rng.integers(-entry_range, entry_range + 1, d))
            else:
                M[a:e, a:e] = rng.integers(-entry_range, entry_range + 1, (d, d))
            below = range(i) if coupling == "all" else ([i - 1] if i else [])
            for j in below:
                M[a:e, offs[j]:offs[j + 1]] = rng.integers(-entry_range, entry_range + 1,
                                                           (d, dims[j]))
            if affine:
                M[a:e, n] = rng.integers(-entry_range, entry_range + 1, d)
        gens.append(M)
    return Cascade(gens, dims, affine, seed, commuting_layers,
                   {"n_inputs": n_inputs, "entry_range": entry_range, "coupling": coupling})


def _is_int(v) -> bool:
    return isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))


def cascade_lie_algebra(c: Cascade) -> LieAlgebra:
    """The exact Lie algebra generated by the cascade's generator matrices."""
    return LieAlgebra.generated_by(c.generators)


def structural_bound(k: int, affine: bool = False) -> int:
    """``1 + ceil(log2 k)`` (linear) or ``1 + ceil(log2 (k+1))`` (affine): the derived-length
    bound implied by block-triangularity (module doc). ``k >= 1``."""
    affine = check_bool("affine", affine)
    k = check_int("k", k)
    m = k + 1 if affine else k
    return 1 + math.ceil(math.log2(m)) if m > 1 else 1


def affine_counterexample() -> tuple[list[np.ndarray], LieAlgebra]:
    """``h -> h`` and ``h -> 2h + 1`` as affine generators ``[[1, 0], [0, 0]]`` and
    ``[[2, 1], [0, 0]]``: their linear parts (1 and 2) commute, the affine vector fields do not
    (bracket ``[[0, 1], [0, 0]]``). Returns the generators and their Lie algebra (span{E11, E12},
    derived series 2, 1, 0: derived length 2 = 2k for k = 1)."""
    g = [np.array([[1, 0], [0, 0]], dtype=np.int64), np.array([[2, 1], [0, 0]], dtype=np.int64)]
    return g, LieAlgebra.generated_by(g)

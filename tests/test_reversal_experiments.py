"""numerics/reversal_experiments.py: the reversal bound's asymptotics, growth, non-growing
families and abelian models against it ([DEPTH] Theorem 3.2, corrected to abelian models)."""
from __future__ import annotations

import numpy as np
import pytest

from seqtheory.numerics.local_error import target_generators
from seqtheory.numerics.reversal import euclidean_norm, spectral_norm
from seqtheory.numerics.reversal_experiments import (abelian_models_vs_bound,
                                                     commutator_mass_growth,
                                                     non_growing_families, reversal_asymptotics)

GENS, H0 = target_generators("so3_a5"), [1, 2, 2]


def test_norms():
    assert spectral_norm([[3, 0], [0, -4]]) == 4.0
    assert float(euclidean_norm(np.array([3, 4], dtype=object))) == 5.0


def test_asymptotics_slope_two_and_ratio_one():
    res = reversal_asymptotics(GENS, [0, 1, 0, 1, 1], H0, np.geomspace(1e-4, 1e-2, 4))
    assert abs(res["bound_fit"].slope - 2) < 0.05 and res["residual_fit"].slope > 2.9
    assert abs(res["ratio_at_min_eps"] - 1) < 1e-2
    flipped = reversal_asymptotics(GENS, [0, 1, 0, 1, 1], H0, np.geomspace(1e-4, 1e-2, 4),
                                   omega2_sign=-1)
    assert flipped["residual_fit"].slope < 2.5          # the residual keeps the ε² term


def test_growth_is_linear_in_T():
    rows, fit = commutator_mass_growth(GENS, H0, 4, 1e-4)
    assert [r["T"] for r in rows] == [2, 4, 6, 8] and abs(fit.slope - 1) < 0.1
    assert all(abs(r["ratio"] - 1) < 1e-2 for r in rows)
    with pytest.raises(ValueError, match="repeats"):
        commutator_mass_growth(GENS, H0, 1, 1e-4)


def test_non_growing_families():
    fam = non_growing_families(GENS, H0, 5)
    unobserved = [f for f in fam if f["family"].startswith("unobserved")]
    assert [f["T"] for f in unobserved] == [2, 8, 10]
    assert all(f["norm_Omega2"] > 0.1 and f["bound_eps_0.01"] < 1e-40 for f in unobserved)
    zero_area = [f for f in fam if "zero-area" in f["family"]]
    assert len(zero_area) == 2 and all(f["bound_slope_in_eps"] > 3.5 for f in zero_area)


def test_abelian_models_lie_above_the_bound():
    rows = abelian_models_vs_bound(GENS, [0, 1] * 2, H0, (1e-2, 1e-1), seed=3, n_random=2)
    assert len(rows) == 2 * 3 and all(r["above"] for r in rows)
    assert rows == abelian_models_vs_bound(GENS, [0, 1] * 2, H0, (1e-2, 1e-1), seed=3, n_random=2)

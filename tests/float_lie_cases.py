"""Shared helpers of the float Lie path tests: conditioned conjugating matrices and the
invariants compared with the exact path."""
import math

import numpy as np


def conditioned(rng, n, cond):
    """A random float n x n matrix with condition number ``cond`` (SVD with log-spaced
    singular values between 1 and 1/cond)."""
    U, _ = np.linalg.qr(rng.standard_normal((n, n)))
    V, _ = np.linalg.qr(rng.standard_normal((n, n)))
    return U @ np.diag(np.logspace(0, -math.log10(cond), n)) @ V.T


def invariants(L):
    """dim, the three series' dims, centre dim, derived length, nilpotency class, semisimple."""
    return (L.dim, tuple(L.derived_series().dims), tuple(L.lower_central_series().dims),
            tuple(L.upper_central_series().dims), L.center().dim, L.derived_length,
            L.nilpotency_class, L.is_semisimple)


def random_gens(rng, n, k, kind):
    """``k`` random integer ``n x n`` generators (entries -2..2): ``kind`` "upper" / "strict"
    (upper / strictly upper triangular), "sparse" (about 30% non-zero) or "full"; never all 0."""
    gens = []
    for _ in range(k):
        M = rng.integers(-2, 3, (n, n))
        if kind == "sparse":
            M = M * (rng.random((n, n)) < 0.3)
        gens.append(np.triu(M) if kind == "upper" else np.triu(M, 1) if kind == "strict" else M)
    if not any(g.any() for g in gens):
        gens[0][0, n - 1] = 1
    return gens

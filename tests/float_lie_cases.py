"""Shared helpers of the float Lie path tests (and of benchmarks/float_lie_refusals.py):
conditioned conjugating matrices, the stress test's random cases, and the invariants compared
with the exact path."""
import math

import numpy as np

from seqtheory.theory.lie_named import elementary as e


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


FAMILIES = {
    "n(4)": [e(4, 0, 1), e(4, 1, 2), e(4, 2, 3)],
    "n(5)": [e(5, i, i + 1) for i in range(4)],
    "heisenberg": [e(3, 0, 1), e(3, 1, 2)],
    "b(3)": [e(3, 0, 0), e(3, 1, 1), e(3, 2, 2), e(3, 0, 1), e(3, 1, 2)],
    "solvable 2x2": [np.array([[1, 2], [0, -1]]), np.array([[0, 1], [0, 3]])],
    "sl(2)": [e(2, 0, 1), e(2, 1, 0)],
    "so(3)": [np.array([[0, 1, 0], [-1, 0, 0], [0, 0, 0]]),
              np.array([[0, 0, 1], [0, 0, 0], [-1, 0, 0]])],
    "sl(3)": [e(3, 0, 1) + e(3, 1, 2), e(3, 1, 0) + e(3, 2, 1)],
}

KINDS = ["strict", "upper", "full", "sparse", "sl2", "so3", "sl3"]


def stress_case(rng, kind):
    """Integer generators of one random case: 1-3 random matrices (entries -2..2) of size
    2..4, upper / strictly upper triangular, full or sparse; or a simple algebra."""
    if kind in ("sl2", "so3", "sl3"):
        return FAMILIES[{"sl2": "sl(2)", "so3": "so(3)", "sl3": "sl(3)"}[kind]]
    n, k = int(rng.integers(2, 5)), int(rng.integers(1, 4))
    return random_gens(rng, n, k, kind)


def stress_cases(ncases, seed, max_log_cond=8.0):
    """The stress test's cases: ``(index, integer generators, log10 of the condition number,
    conjugating float matrix P)``, condition numbers 10^u with u uniform in [0, max_log_cond]
    (one seeded generator for all of them, so case ``c`` is the same whatever is done with the
    others)."""
    rng = np.random.default_rng(seed)
    for c in range(ncases):
        gens = stress_case(rng, KINDS[c % len(KINDS)])
        log_cond = rng.uniform(0.0, max_log_cond)
        P = conditioned(rng, gens[0].shape[0], 10.0 ** log_cond)
        yield c, gens, log_cond, P


def conjugate(gens, P):
    """The float conjugates ``P g P^-1`` of the generators (as the float path's users give
    them: ``P^-1`` computed in float64)."""
    Pi = np.linalg.inv(P)
    return [P @ np.asarray(g, dtype=float) @ Pi for g in gens]


# the invariants of ``invariants`` one by one: (name, the attribute of the algebra asked; None:
# the algebra itself)
QUERIES = [("dim", None), ("derived series", "derived_series"),
           ("lower central series", "lower_central_series"),
           ("upper central series", "upper_central_series"), ("centre", "center"),
           ("derived length", "derived_length"), ("nilpotency class", "nilpotency_class"),
           ("semisimple", "is_semisimple")]


def _value(x):
    return tuple(x.dims) if hasattr(x, "dims") else x.dim if hasattr(x, "space") else x


def each_invariant(mats):
    """Every invariant of ``LieAlgebra.generated_by(mats)`` ON ITS OWN (order of ``QUERIES``):
    ``(answers, reasons)``, an answer ``None`` and its reason the refusal's message where it (or
    the algebra itself) is refused (the derived length of an algebra that is not solvable is
    answered ``None`` with reason ``None``)."""
    from seqtheory.theory.float_rank import NumericalRankError
    from seqtheory.theory.lie import LieAlgebra

    try:
        F = LieAlgebra.generated_by(mats)
    except NumericalRankError as exc:
        return (None,) * len(QUERIES), (str(exc),) * len(QUERIES)
    out, why = [], []
    for _, attr in QUERIES:
        try:
            x = F if attr is None else getattr(F, attr)
            out.append(_value(x() if callable(x) else x))
            why.append(None)
        except NumericalRankError as exc:
            out.append(None)
            why.append(str(exc))
    return tuple(out), tuple(why)

"""Shared helpers of the float Lie path tests (and of benchmarks/float_lie_refusals.py):
conditioned conjugating matrices, the stress test's random cases, and the invariants compared
with the exact path."""
import math
from fractions import Fraction

import mpmath
import numpy as np
import sympy

from seqtheory.theory.float_rank import ARITHMETIC_FLOOR, MIN_GAP
from seqtheory.theory.lie import LieAlgebra, recorded_run
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


# ----------------------------------------------------------------------------- genuine values
GENUINE_CHANGE = 0.1      # a genuine value moves by less than this under the second rounding
SECOND_ROUNDING = 1e-18   # relative, 20 units of longdouble roundoff


def exact_conjugates(gens, P):
    """``P g P^-1`` exactly (a list of lists of Fractions per generator) for the binary ``P``
    (its float64 entries read as the exact rationals they are)."""
    Pq = sympy.Matrix([[sympy.Rational(Fraction(float(x))) for x in row] for row in P])
    out = []
    for g in gens:
        A = Pq * sympy.Matrix(np.asarray(g).tolist()) * Pq.inv()
        out.append([[Fraction(int(x.p), int(x.q)) for x in A.row(i)] for i in range(A.rows)])
    return out


def to_longdouble(A):
    """The Fractions ``A`` rounded to ``numpy.longdouble`` (through 30 significant digits)."""
    with mpmath.workdps(40):
        return np.array([[np.longdouble(mpmath.nstr(mpmath.mpf(x.numerator) / x.denominator, 30))
                          for x in row] for row in A])


def input_error(F, Aq):
    """The float input's relative error against the exact conjugates (Frobenius, largest over
    the generators)."""
    worst = 0.0
    for f, a in zip(F, Aq):
        num = sum((Fraction(float(f[i][j])) - a[i][j]) ** 2 for i in range(len(a))
                  for j in range(len(a)))
        den = sum(x * x for row in a for x in row)
        worst = max(worst, math.sqrt(float(num / den)) if den else 0.0)
    return worst


def genuine_and_noise(gens, P, query=None):
    """The genuine values of one query (``None``: the algebra itself; else an attribute of
    ``LieAlgebra``) on ``conjugate(gens, P)`` against the noise its rounding makes: one recorded
    run (``lie.recorded_run``) on the float input ``F``, on ``A`` (the exact conjugation,
    :func:`exact_conjugates`, rounded to longdouble) and on a second rounding of ``A`` (entries
    times ``1 + 1e-18 r``). Genuine: the values ``A``'s run keeps that the second rounding moves
    by less than a tenth of themselves (where that run's answer is not the exact path's, because
    a genuine value lies below the tolerance: every value above the arithmetic's floor that the
    second rounding moves that little); the input's noise in a decision: the largest
    ``|v_F - v_A|`` of its values (a rounding that moves one value of a decision that much can
    move the others as much: Weyl). Over the decisions both runs make alike, the one where the
    smallest genuine value is least above the noise gives ``genuine_min``, ``input_noise``,
    ``ratio`` (their quotient) and ``where`` (the decision). Returns a dict of those,
    ``intrinsic`` (``ratio < MIN_GAP``: the float input does not separate the genuine value from
    its rounding), ``aligned`` (decisions compared / made by F / by A), ``input_error``
    (:func:`input_error`), ``precise_right`` / ``float_run_right`` (whether the single runs on
    ``A`` and ``F`` answer as the exact path)."""
    F = conjugate(gens, P)
    exact = LieAlgebra.generated_by(gens)
    exact = exact if query is None else getattr(exact, query)
    exact = exact() if callable(exact) else exact
    Aq = exact_conjugates(gens, P)
    A = [to_longdouble(a) for a in Aq]
    rng = np.random.default_rng(0)
    A2 = [a * (1 + np.longdouble(SECOND_ROUNDING) * rng.uniform(-1, 1, a.shape)) for a in A]
    runs = [recorded_run(X, query) for X in (F, A, A2)]
    logs = [r[1] for r in runs]
    # where the precise run answers as the exact path, its kept values are the structure; else
    # a genuine value lies below the tolerance, and every genuine value counts
    precise_right = _same(runs[1][0], exact)
    g_min, noise, ratio, aligned, where = math.inf, 0.0, math.inf, 0, ""
    for dF, dA, dA2 in zip(*logs):
        if dF[0] != dA[0] or dF[1].shape != dA[1].shape or dA2[1].shape != dA[1].shape:
            break
        aligned += 1
        vF, vA, vA2 = dF[1], dA[1], dA2[1]
        genuine = (dA[2] if precise_right else vA > ARITHMETIC_FLOOR) \
            & (np.abs(vA2 - vA) < GENUINE_CHANGE * vA)
        moved = float(np.abs(vF - vA).max(initial=0.0))
        if not np.any(genuine):
            continue
        least = float(vA[genuine].min())
        r = least / moved if moved > 0 else math.inf
        if r < ratio or (r == ratio == math.inf and least < g_min):
            g_min, noise, ratio, where = least, moved, r, dA[0]
    return {"genuine_min": g_min, "input_noise": noise, "ratio": ratio, "where": where,
            "aligned": f"{aligned}/{len(logs[0])}/{len(logs[1])}",
            "input_error": input_error(F, Aq), "intrinsic": ratio < MIN_GAP,
            "precise_right": precise_right, "float_run_right": _same(runs[0][0], exact)}


def _same(answer, exact):
    return not isinstance(answer, Exception) and _value(answer) == _value(exact)

"""The float Lie path answers well-conditioned input, and never answers wrongly (issue 19, §3).

The float path decides every rank by the a-posteriori rule (``linalg.compare_decision_logs``):
the computation runs on the input as given and on perturbed twins, in extended precision,
and the decisions are compared value by value. The right answers come from an independent
computation: the exact path over Q on the rational originals that the float input conjugates
(the reference beside the fast path).

* the issue's three refused inputs are answered: n(5) conjugated by a matrix of condition number
  100, n(8) from float 0/1 matrices, two Gaussian generators (gl(4) by default, gl(8) slow);
* conjugated nilpotent, solvable and simple algebras: exact answers up to condition number 1e3
  (all 80 family cases at 1e3); ideals, subalgebras and bracket spaces by the same rule;
* the stress test: random integer algebras conjugated by matrices of condition number up to 1e8
  -- 280 cases in the default run, 10 000 marked slow -- no wrong answer, every invariant scored
  on its own (the dimension alone, each series alone: one wrong answer makes the case wrong),
  and every case below condition number 10 answered;
* the rule itself (a pure function), with negative controls for each way it refuses.
"""
import collections
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from seqtheory.theory.lie import LieAlgebra
from seqtheory.theory.lie_named import elementary as E
from seqtheory.theory.linalg import (MIN_GAP, TWIN_PERTURBATION, NumericalRankError,
                                     compare_decision_logs, complement_rows, raised_levels)

from float_lie_cases import (FAMILIES, KINDS, QUERIES, conditioned, conjugate, genuine_and_noise,
                             invariants, stress_case, stress_cases)


_conditioned, _invariants = conditioned, invariants


_conjugate = conjugate


def _answered(F):
    """The invariants of a float algebra, after checking what every answer must carry: the
    tolerance and a smallest gap of at least MIN_GAP on every series, and its certificate."""
    inv = _invariants(F)
    for series in (F.derived_series(), F.lower_central_series(), F.upper_central_series()):
        assert series.tol == F.tol == 1e-9
        assert series.smallest_gap >= MIN_GAP
    assert F.certificate == "a-posteriori (twin runs)"
    return inv


def _float_or_refusal(gens, P):
    try:
        return _answered(LieAlgebra.generated_by(_conjugate(gens, P)))
    except NumericalRankError as exc:
        assert isinstance(exc, ValueError) and "exact" in str(exc)
        return None


# ============================================================================ the inputs
def test_n5_conjugated_by_condition_number_100_is_answered():
    """Once refused: a singular value 3.0e-11 against the tolerance 2e-9, with a propagated
    rounding bound of 0.0044."""
    gens = [E(5, i, i + 1) for i in range(4)]
    exact = _invariants(LieAlgebra.generated_by(gens))
    assert exact == (10, (10, 6, 1, 0), (10, 6, 3, 1, 0), (0, 1, 3, 6, 10), 1, 3, 4, False)
    P = _conditioned(np.random.default_rng(0), 5, 100.0)
    assert _answered(LieAlgebra.generated_by(_conjugate(gens, P))) == exact


def test_n8_from_float_zero_one_matrices_is_answered():
    gens = [E(8, i, j) for i in range(8) for j in range(i + 1, 8)]
    exact = _invariants(LieAlgebra.generated_by(gens))
    F = LieAlgebra.generated_by([np.asarray(g, dtype=float) for g in gens])
    assert _answered(F) == exact
    assert F.dim == 28 and F.nilpotency_class == 7 and F.center().dim == 1


def _gaussian(n):
    """Two Gaussian n x n generators (seeded) as floats, and as the exact rationals they are."""
    from fractions import Fraction

    rng = np.random.default_rng(0)
    gens = [rng.standard_normal((n, n)) for _ in range(2)]
    return gens, [np.vectorize(Fraction, otypes=[object])(g) for g in gens]


def _gl(n):
    return (n * n, (n * n, n * n - 1), (n * n, n * n - 1), (0, 1), 1, None, None, False)


def test_two_gaussian_generators_give_gl4():
    floats, exact = _gaussian(4)
    assert _invariants(LieAlgebra.generated_by(exact)) == _gl(4)
    assert _answered(LieAlgebra.generated_by(floats)) == _gl(4)


@pytest.mark.slow
def test_two_gaussian_generators_give_gl8():
    """The issue's input (about 10 s: the twin runs are in extended precision)."""
    floats, _ = _gaussian(8)
    assert _answered(LieAlgebra.generated_by(floats)) == _gl(8)


def test_once_wrong_sl2_is_right_or_refused():
    """The propagated bound once dropped the genuine third direction of sl(2) conjugated at
    condition number 7.4e5 (dim 2): the component of [e, f] outside span{e, f} is 4e-12, far
    below the tolerance and far above rounding."""
    P = np.array([[float.fromhex("0x1.412e8068e0feap-1"), float.fromhex("-0x1.76dba7fd8aabbp-1")],
                  [float.fromhex("0x1.61aee83d273fcp-3"), float.fromhex("-0x1.9cc97510729c2p-3")]])
    gens = [E(2, 0, 1), E(2, 1, 0)]
    got = _float_or_refusal(gens, P)
    assert got is None or got == _invariants(LieAlgebra.generated_by(gens))


def _hex_matrix(rows):
    return np.array([[float.fromhex(x) for x in r] for r in rows])


# sl(2) conjugated by P of condition number 3.2e7 and 8.2e7: the dimension alone was once
# answered 2 (the genuine component of [e, f] outside span{e, f}, a quarter of the square of
# the angle between e and f, 2.5e-15 and 8.2e-16, was dropped: the first under the float64
# floor without moving, the second re-drawn by 30% only)
_ONCE_WRONG_DIM = [
    (_hex_matrix([["0x1.bbc32d857211ap-11", "0x1.66c5288a4d5e1p-10"],
                  ["-0x1.0d503f28b164ep-1", "-0x1.b372482f98acfp-1"]])),
    (_hex_matrix([["0x1.1804816038f2ep-1", "-0x1.7debd2a68b8f8p-3"],
                  ["0x1.8b832797a9212p-1", "-0x1.0db927d06c801p-2"]])),
]


@pytest.mark.parametrize("k", range(len(_ONCE_WRONG_DIM)))
def test_once_wrong_dimension_is_right_or_refused(k):
    gens = [E(2, 0, 1), E(2, 1, 0)]
    try:
        F = LieAlgebra.generated_by(_conjugate(gens, _ONCE_WRONG_DIM[k]))
    except NumericalRankError:
        return
    assert F.dim == 3


# Once wrong: sl(2) given by two random integer generators and conjugated at condition number
# 1e6..1e8, where ``generated_by(...).dim`` alone was answered 2 (the series then refused). The
# dropped genuine component of the bracket outside the span (1.4e-14 in the first case, 1e-4
# of the square of the smallest kept value 1.2e-5) moves by 0.6% .. 90% under the twins'
# perturbation, so the re-draw test does not tell it from rounding; a dropped value that the
# twins move by less than itself is now held WEAK_DROP_MARGIN (1e5) times below that square.
_ONCE_WRONG_DIM_1E6 = [
    ([[-1, -2], [0, 1]], [[-2, 0], [-1, 2]],
     [["0x1.ab0f4e9722946p-2", "0x1.afa2ad7b09d43p-2"],
      ["-0x1.21f7413a82246p-1", "-0x1.251290c8c6302p-1"]]),
    ([[2, -1], [0, -2]], [[2, 2], [2, -2]],
     [["0x1.bc37ea5543c53p-1", "-0x1.0b9908fba0770p-2"],
      ["0x1.9ec6d53aa6afdp-2", "-0x1.f3b91fae33653p-4"]]),
    ([[0, -2], [-1, 0]], [[-2, -1], [2, 2]],
     [["0x1.f08dcb8226725p-2", "-0x1.9fb7df447c168p-1"],
      ["0x1.553b4cb2af565p-3", "-0x1.1dae6be657c28p-2"]]),
]


@pytest.mark.parametrize("k", range(len(_ONCE_WRONG_DIM_1E6)))
def test_dimension_alone_at_condition_number_above_1e6(k):
    a, b, rows = _ONCE_WRONG_DIM_1E6[k]
    gens = [np.array(a), np.array(b)]
    assert LieAlgebra.generated_by(gens).dim == 3
    try:
        F = LieAlgebra.generated_by(_conjugate(gens, _hex_matrix(rows)))
    except NumericalRankError:
        return
    assert F.dim == 3


def test_genuine_value_above_the_tolerance_is_not_dropped_as_measured_noise():
    """Once wrong under an intermediate rule of this change (stress case 8122, seed 2026,
    condition number 3.8e6): gl(2) from two integer generators answered dim 2. The component of
    the bracket outside the span of the generators, 1.6e-9 (above the tolerance), moves by 95%
    under the twins' perturbation; a level raised above it dropped it as noise. It is 4000 times
    the square of the smallest kept value (6.3e-7): the square rule refuses."""
    gens = [np.array([[1, 2], [1, 2]]), np.array([[0, 2], [0, -2]])]
    P = _hex_matrix([["0x1.a14eb475529a1p-2", "0x1.cb41e825fc0fap-4"],
                     ["-0x1.bf649d40b6d6fp-1", "-0x1.ec5db737f5244p-3"]])
    assert LieAlgebra.generated_by(gens).dim == 4
    got = _each_invariant(gens, P)
    exact = _invariants(LieAlgebra.generated_by(gens))
    assert all(g in (REFUSED, e) for g, e in zip(got, exact)), got


# The intrinsic refusal: stress case 128 (seed 2026), three random 4 x 4 integer generators of
# gl(4) conjugated at condition number 9.8e5. The exact conjugation's genuine smallest value in
# the Lie closure is 5.0e-14; the float input's rounding (relative error 9.7e-13 against the exact
# conjugation) moves the values of that decision by 5.8e-10, ten thousand times more. No rule can
# tell that genuine value from the rounding of the float input: the single unchecked float run
# answers dim 15 (exact: 16), and the float path refuses. (Below condition number 1e4 no refusal
# of seed 2026's 10 000-case run is intrinsic, one of seed 7's is: the next test.)
_INTRINSIC = (
    [[[-1, 0, -2, -1], [1, -2, 1, 2], [2, 2, 1, 1], [-2, -1, 2, -2]],
     [[-1, -1, 1, -2], [1, 2, -1, -2], [-2, -2, 1, -2], [0, 0, 2, 0]],
     [[-1, -1, 1, -1], [2, -1, -1, 0], [-2, -2, -1, 2], [-1, 2, -2, -1]]],
    [["0x1.abe4b6a52f624p-6", "0x1.27195ed9aafe9p-2", "0x1.902a26058f356p-3",
      "-0x1.de179edb46c4ep-2"],
     ["-0x1.d6dd5d30eab90p-6", "-0x1.42b0de26de15cp-2", "-0x1.ce4d26be95ce4p-3",
      "0x1.0fc5e1408dd0dp-1"],
     ["-0x1.991ca48a9434fp-7", "-0x1.19dc05dab1cdep-3", "-0x1.7562f507e89e9p-4",
      "0x1.c17e02c2a8804p-3"],
     ["0x1.1ff45ff9066b8p-6", "0x1.8bd8793025735p-3", "0x1.0a75e08a32143p-3",
      "-0x1.3f3d1e60f7cc4p-2"]])


def test_an_intrinsic_refusal_genuine_value_below_the_input_noise():
    from seqtheory.theory.lie import recorded_run

    gens, P = [np.array(g) for g in _INTRINSIC[0]], _hex_matrix(_INTRINSIC[1])
    assert LieAlgebra.generated_by(gens).dim == 16
    info = genuine_and_noise(gens, P)
    assert info["where"] == "mats (Lie closure)"
    assert 4e-14 < info["genuine_min"] < 6e-14
    assert 4e-10 < info["input_noise"] < 8e-10
    assert info["intrinsic"] and info["ratio"] < 1e-3
    assert not info["precise_right"]          # even the exact conjugation, rounded, drops it at tol
    assert recorded_run(_conjugate(gens, P))[0].dim == 15    # the unchecked float run: wrong
    with pytest.raises(NumericalRankError):
        LieAlgebra.generated_by(_conjugate(gens, P))


def test_an_intrinsic_refusal_below_condition_number_1e4():
    """The one intrinsic refusal below 1e4 in the stress runs of seeds 2026 and 7 (seed 7, case
    7814): gl(2) from three integer generators conjugated at condition number 5.0e3. In the
    derived series, the bracket space [g, g] = sl(2) has a genuine smallest value 2.6e-8 in
    the exact conjugation, and the float input's rounding (relative error 4e-15) moves the
    values of that decision by 3.1e-9 -- only 8 times less: not separated. The derived series
    was refused (by the square rule); it is now answered, and right, by a dimension argument:
    ``[g, g]`` of 2 x 2 matrices lies in sl(2) (brackets are traceless), so a bracket space of
    dimension 3 is all of sl(2) and nothing genuine can have been dropped (its decisions are
    settled, ``float_rank.settle_decisions``)."""
    gens = [np.array([[1, 2], [-2, 1]]), np.array([[2, -1], [1, 2]]),
            np.array([[0, 1], [-2, -1]])]
    P = _hex_matrix([["0x1.5016c3d8f6940p-2", "-0x1.9be5f69b76770p-1"],
                     ["-0x1.7e8c1b186fd18p-3", "0x1.d576136b22407p-2"]])
    assert LieAlgebra.generated_by(gens).derived_series().dims == (4, 3)
    info = genuine_and_noise(gens, P, "derived_series")
    assert info["where"] == "a bracket space [a, b]"
    assert 2.3e-8 < info["genuine_min"] < 2.9e-8 and 2e-9 < info["input_noise"] < 4e-9
    assert info["intrinsic"] and info["ratio"] < 10
    F = LieAlgebra.generated_by(_conjugate(gens, P))
    assert F.dim == 4
    assert F.derived_series().dims == (4, 3) and F.derived_series().smallest_gap >= MIN_GAP


def test_recorded_run_keeps_longdouble_input_and_refuses_bad_input():
    """lie.recorded_run: one recorded run, no twins, its answer and its log (longdouble input
    accepted); bad input is a ValueError."""
    from seqtheory.theory.lie import recorded_run

    gens = [np.array([[0.0, 1.0], [0.0, 0.0]]), np.array([[0.0, 0.0], [1.0, 0.0]])]
    L, log = recorded_run(gens, "derived_series")
    assert L.dims == (3,) and log and all(len(d) in (5, 6) for d in log)
    third = np.longdouble(1) / 3
    assert recorded_run([gens[0] * third, gens[1]])[0].dim == 3
    for bad in ([], [np.zeros((2, 3))], [gens[0], np.zeros((3, 3))], [gens[0] * np.nan]):
        with pytest.raises(ValueError):
            recorded_run(bad)


# ============================================================================ families at cond <= 1e3
_FAMILIES = FAMILIES


@pytest.mark.parametrize("name", sorted(_FAMILIES))
@pytest.mark.parametrize("cond", [1.0, 10.0, 100.0, 1e3])
def test_conjugated_families_get_the_exact_answer(name, cond):
    gens = _FAMILIES[name]
    exact = _invariants(LieAlgebra.generated_by(gens))
    for seed in range(3):
        P = _conditioned(np.random.default_rng(seed), gens[0].shape[0], cond)
        assert _answered(LieAlgebra.generated_by(_conjugate(gens, P))) == exact


def test_conjugated_families_at_condition_number_1e3():
    """Every invariant on its own exact, in all 80 cases (8 families x 10 seeds). Measured: 80
    of 80; 73 before kept values were judged by their resolution against the dropped noise
    (n(5): kept values that move by 1e-7 of themselves, resolved 3e-9 against noise resolved
    4e-14, were refused by a fixed bound) and the closure bracketed its inserted vectors
    rather than its orthonormal basis (sl(2): rounding 1.5e-11 above the square of the smallest
    kept value 2.6e-6, now about 1e-16)."""
    for name, gens in sorted(_FAMILIES.items()):
        exact = _invariants(LieAlgebra.generated_by(gens))
        for seed in range(10):
            got = _each_invariant(gens, _conditioned(np.random.default_rng(seed),
                                                     gens[0].shape[0], 1e3))
            assert got == exact, (name, seed, got)


# ============================================================================ the stress test
_NAMES = ("dim", "derived series", "lower central series", "upper central series", "centre",
          "derived length", "nilpotency class", "semisimple")


REFUSED = "refused"


def _each_invariant(gens, P):
    """Every invariant of the conjugated float algebra ON ITS OWN (order of ``invariants``):
    its answer, or REFUSED where it (or the algebra itself) is refused (None is an answer:
    the derived length of an algebra that is not solvable)."""
    try:
        F = LieAlgebra.generated_by(_conjugate(gens, P))
    except NumericalRankError:
        return (REFUSED,) * len(_NAMES)
    asks = (lambda: F.dim, lambda: tuple(F.derived_series().dims),
            lambda: tuple(F.lower_central_series().dims),
            lambda: tuple(F.upper_central_series().dims), lambda: F.center().dim,
            lambda: F.derived_length, lambda: F.nilpotency_class, lambda: F.is_semisimple)
    out = []
    for ask in asks:
        try:
            out.append(ask())
        except NumericalRankError as exc:
            assert isinstance(exc, ValueError) and "exact" in str(exc)
            out.append(REFUSED)
    return tuple(out)


def _stress(ncases, seed, max_log_cond=8.0, classify_below=0):
    """``ncases`` random cases, condition numbers 10^u with u uniform in [0, max_log_cond]:
    per band ``[cases, answered, refused, wrong, refused intrinsic, refused other]`` (band b:
    condition number in [10^b, 10^(b+1))) and the wrong cases. Every invariant is scored on its
    own: a case is answered when all are, refused when any is, wrong when any answered one is
    wrong (the dimension alone, say, while the series refuse). Refused cases in the bands below
    ``classify_below`` are classified by their first refused invariant
    (``float_lie_cases.genuine_and_noise``: intrinsic when a genuine value of the exact
    conjugation is not MIN_GAP times above the noise the input's rounding makes beside it)."""
    bands = collections.defaultdict(lambda: [0, 0, 0, 0, 0, 0])
    wrong = []
    for c, gens, log_cond, P in stress_cases(ncases, seed, max_log_cond):
        exact = _invariants(LieAlgebra.generated_by(gens))
        got = _each_invariant(gens, P)
        row = bands[int(log_cond)]
        row[0] += 1
        row[2 if REFUSED in got else 1] += 1
        bad = [n for n, g, e in zip(_NAMES, got, exact) if g != REFUSED and g != e]
        if bad:
            row[3] += 1
            wrong.append((c, log_cond, bad, exact, got))
        if REFUSED in got and int(log_cond) < classify_below:
            query = QUERIES[got.index(REFUSED)][1]
            row[4 if genuine_and_noise(gens, P, query)["intrinsic"] else 5] += 1
    return dict(bands), wrong


def _report(bands):
    return "\n".join(f"cond 1e{b}..1e{b + 1}: cases {r[0]} answered {r[1]} refused {r[2]} "
                     f"(intrinsic {r[4]}, other {r[5]}) wrong {r[3]}"
                     for b, r in sorted(bands.items()))


def test_stress_no_wrong_answer():
    bands, wrong = _stress(280, seed=19)
    print(_report(bands))
    assert not wrong
    assert sum(r[0] for r in bands.values()) == 280
    assert bands[0][2] == 0          # condition number below 10: every case answered


# measured answered counts per band below condition number 1e4 (seed 2026; lower bounds)
_ANSWERED_2026 = {0: 1288, 1: 1234, 2: 1249, 3: 987}


@pytest.mark.slow
def test_stress_no_wrong_answer_10000():
    """Measured (seed 2026): 0 wrong; answered per band 1e0..1e8: 1288/1288, 1234/1238,
    1249/1280, 987/1282, 438/1164, 331/1273, 300/1254, 293/1221 since the decisions of a result
    of the largest possible dimension are settled (``float_rank.settle_decisions``: a closure
    that is the whole ambient, a bracket space that is sl(n) or ``[g, g] = g``, a containment
    in the ambient or of a bracket space in sl(n) -- no genuine direction can be missing, so
    no square rule); seed 7: 0 wrong, 1277/1277, 1193/1194, 1208/1231, 972/1228, 444/1218,
    329/1280, 335/1258, 301/1314. Before it: 1288/1288, 1227/1238,
    1205/1280, 934/1282, 434/1164, 331/1273, 300/1254, 293/1221 (before the resolution gap and
    the brackets of inserted vectors: 1288, 1230, 1168, 686, 333, 341, 305, 297); seed 7: 0
    wrong, 1277/1277 below condition number 10. 133 s on one core (the same counts after the
    split of linalg.py and lie.py).

    The refusals below condition number 1e4, classified (benchmarks/float_lie_refusals.py,
    ``float_lie_cases.genuine_and_noise``): per band 1e0..1e4, answered / refused intrinsic /
    refused other, with settled decisions: 1288/0/0, 1234/0/4, 1249/0/31, 987/4/291 (square rule
    128 re-drawn + 100 not re-drawn, resolution gap 86, gap 10 of which 4 intrinsic, others 6).
    Before settling: 1288/0/0, 1227/0/11, 1205/0/75, 934/0/348. None was intrinsic: in every
    decision of each refused case the genuine values of the exact conjugation stand at least 170
    times (median 4e7) above the noise the float input's rounding makes beside them, and a
    single unchecked float run answers all 434 right. The rules that refuse them: the square
    rule (225 for a dropped value not re-drawn, WEAK_DROP_MARGIN; 161 re-drawn, MIN_GAP), the
    resolution gap with no measured noise (42, kept values resolved 5e-10 .. 1e-7 against
    INPUT_ROUNDING), 6 others. The rule cannot tell them from what it refuses above 1e5
    (measured on seed 2026): without the square rules the bands below 1e4 answer 1238/1274/1131
    with no wrong answer, but 407 cases above 1e5 are answered wrongly (genuine components of
    about a quarter of the square of a kept value, dropped below the tolerance); 6 twins instead
    of 2 re-draw more noise but answer only 10 more below 1e4 at 2.3 times the cost; holding
    kept values MIN_GAP (not RESOLUTION_GAP) above INPUT_ROUNDING where no noise is measured
    answers 17 more but answers a near-degenerate diagonal algebra wrongly
    (test_asking_again_after_a_refusal_is_never_wrong). Why the twins do not tell the noise of
    these inputs from genuine values: the float input's own error against the exact conjugation
    (1e-15 .. 1e-13 relative at condition numbers 1e2 .. 1e4) exceeds the twins' perturbation
    (1e-15), so the noise it makes is a fixed property of the binary input that the twins move
    by less than itself, as they move a genuine value. Counting a dropped value re-drawn when
    the twins move it by half of itself (not all of it) answers 40 more below 1e4 (seed 7: 35)
    with no wrong answer over both seeds and every pinned case, but the genuine values this
    margin was made for moved by up to 90%: a margin fitted to the runs, not adopted. A
    perturbation ladder (twins also at a scale s above the input's error, a value re-drawn there
    counted as noise) was measured too, emulated to first order (a value is re-drawn at scale s
    when its resolution is at most s): it can only lift the not-re-drawn square margin, whose
    removal altogether (s infinite) answers 7/27/53 more in bands 1e1..1e4 (seed 7: 5/35/48)
    with no wrong answer; the other refusals (re-drawn noise under MIN_GAP of the square, the
    resolution gap) are untouched. The noise it would re-draw has resolutions 1e-15 .. 1e-14
    (median 2e-15, 90% 1.2e-14, some above 1e-12), the genuine dropped values of
    test_dimension_alone_at_condition_number_above_1e6 3.0e-14 and 3.2e-14: s = 1e-13 answers
    those two wrongly, and an s under 3e-14 would be a threshold placed under the known genuine
    values, not a bound. Not adopted. Seed 7 (benchmark only): 1277/0/0, 1188/0/6, 1161/0/70,
    922/1/305 (the intrinsic one is pinned:
    test_an_intrinsic_refusal_below_condition_number_1e4)."""
    bands, wrong = _stress(10_000, seed=2026, classify_below=4)
    print(_report(bands))
    assert not wrong
    assert bands[0][2] == 0
    for b, answered in _ANSWERED_2026.items():
        r = bands[b]
        assert r[1] >= answered, (b, r)
        # every refusal below 1e4 classified; intrinsic ones (a genuine value within MIN_GAP
        # of the input's rounding noise) are right to refuse (measured: 4, all in 1e3..1e4,
        # since settling answers the queries that refused first in those cases)
        assert r[4] + r[5] == r[2], (b, r)


# ============================================================================ the rule itself
def _log(*decisions):
    """A decision log: (argument, values, kept mask, level, floor) per decision (floor: the
    rounding of longdouble arithmetic, 1e-17)."""
    return [(a, np.array(v, dtype=float), np.array(k, dtype=bool), lv, 1e-17)
            for a, v, k, lv in decisions]


_BASE = _log(("closure", [1.0, 0.3, 1e-17], [True, True, False], 1e-9))


def test_rule_certifies_a_stable_decision_with_a_wide_gap():
    twin = _log(("closure", [1.0, 0.3 + 1e-16, 3e-17], [True, True, False], 1e-9))
    gap, why = compare_decision_logs(_BASE, [twin], 1e-9)
    assert why is None and gap >= MIN_GAP


def test_rule_refuses_a_kept_value_made_by_input_rounding():
    """A direction that rounding of the input created moves, relative to itself, by
    perturbation / (its input error): here 1e-6 -- far more than a signal value may."""
    base = _log(("closure", [1.0, 1e-6], [True, True], 1e-9))
    twin = _log(("closure", [1.0, 1e-6 * (1 + 1e-6)], [True, True], 1e-9))
    gap, why = compare_decision_logs(base, [twin], 1e-9)
    assert why is not None and "could have created it" in why


def test_rule_refuses_a_decision_that_changes():
    twin = _log(("closure", [1.0, 0.3, 2e-9], [True, True, True], 1e-9))
    assert "changes the decision" in compare_decision_logs(_BASE, [twin], 1e-9)[1]
    assert "decisions" in compare_decision_logs(_BASE, [_BASE + _BASE], 1e-9)[1]


def test_rule_refuses_a_genuine_value_below_the_tolerance():
    """A dropped value above level / MIN_GAP that the perturbation does not move is genuine."""
    base = _log(("closure", [1.0, 5e-10], [True, False], 1e-9))
    gap, why = compare_decision_logs(base, [base], 1e-9)
    assert "genuine" in why
    moved = _log(("closure", [1.0, 2e-10], [True, False], 1e-9))     # re-drawn: rounding
    assert compare_decision_logs(base, [moved], 1e-9)[1] is None


def test_rule_refuses_a_narrow_gap_and_noise_above_the_square():
    narrow = _log(("closure", [1.0, 2e-9, 1e-12], [True, True, False], 1e-9))
    noisy = _log(("closure", [1.0, 2e-9, 5e-10], [True, True, False], 1e-9))   # twin's noise
    assert "gap" in compare_decision_logs(narrow, [noisy], 1e-9)[1]
    square = _log(("closure", [1.0, 1e-6], [True, True], 1e-9),
                  ("bracket", [1.0, 5e-11], [True, False], 1e-9))
    square_twin = _log(("closure", [1.0, 1e-6], [True, True], 1e-9),
                       ("bracket", [1.0, 1e-11], [True, False], 1e-9))
    assert "square" in compare_decision_logs(square, [square_twin], 1e-9)[1]


def test_rule_holds_a_dropped_value_that_is_not_redrawn_to_a_wider_square_margin():
    """A dropped value that the perturbation moves by less than itself may be a genuine value
    of high sensitivity: it must be WEAK_DROP_MARGIN times below the square of the smallest kept
    value, a re-drawn one MIN_GAP times (sl(2) at condition number 3e7 dropped its genuine
    2.5e-15 with a kept 1e-7)."""
    base = _log(("closure", [1.0, 1e-6], [True, True], 1e-9),
                ("bracket", [2.5e-15], [False], 1e-9))
    twin = _log(("closure", [1.0, 1e-6], [True, True], 1e-9),
                ("bracket", [2.6e-15], [False], 1e-9))
    why = compare_decision_logs(base, [twin], 1e-9)[1]
    assert why is not None and "does not re-draw" in why
    redrawn = _log(("closure", [1.0, 1e-6], [True, True], 1e-9),
                   ("bracket", [6e-15], [False], 1e-9))        # moved by more than itself
    assert compare_decision_logs(base, [redrawn], 1e-9)[1] is None
    # re-drawn, but not MIN_GAP times below the square of the kept 1e-7
    near = [_log(("closure", [1.0, 1e-7], [True, True], 1e-9),
                 ("bracket", [d], [False], 1e-9)) for d in (2.5e-15, 6e-15)]
    assert "100 times below the square" in compare_decision_logs(near[0], [near[1]], 1e-9)[1]


def test_rule_refuses_a_kept_value_resolved_no_better_than_the_noise():
    """A kept value that an input error of the size explaining the dropped noise would move by
    its own size (resolution within RESOLUTION_GAP of the noise's) may have been created by
    the input's rounding: refused. The same value resolved far better is certified."""
    from seqtheory.theory.linalg import RESOLUTION_GAP, resolutions

    def logs(kept_change):     # dropped 1e-13, moved by 1e-15: an input rounding 1e-13 explains it
        return [_log(("closure", [1.0, 1e-2, 1e-13], [True, True, False], 1e-9)),
                _log(("closure", [1.0, 1e-2 + kept_change, 1e-13 + 1e-15], [True, True, False],
                      1e-9))]

    noise_res = float(resolutions(np.array([1e-13]), np.array([1e-15]), TWIN_PERTURBATION)[0])
    base, twin = logs(1e-2 * TWIN_PERTURBATION / (10 * noise_res))    # resolution 10x the noise
    why = compare_decision_logs(base, [twin], 1e-9)[1]
    assert why is not None and "resolution" in why
    base, twin = logs(1e-2 * TWIN_PERTURBATION / (10 * RESOLUTION_GAP * noise_res))
    assert compare_decision_logs(base, [twin], 1e-9)[1] is None


def test_resolutions_is_the_input_error_that_moves_a_value_by_itself():
    from seqtheory.theory.linalg import resolutions

    r = resolutions(np.array([1e-6, 1e-6, 0.0, 2.0]), np.array([1e-12, 0.0, 0.0, 1e-15]), 1e-15)
    assert r[0] == pytest.approx(1e-9) and r[1] == np.inf and r[2] == 0.0
    assert r[3] == pytest.approx(2.0)


def test_square_margin_for_values_not_redrawn_is_weak_drop_margin():
    """The decisions of sl(2) conjugated at condition number 1e6..1e8 whose dimension was once
    answered 2 (first case of _ONCE_WRONG_DIM_1E6): kept 1.2e-5, a genuine 1.36e-14 dropped
    and moved by 4% -- 1/10 600 of the square of the kept value; refused. The same value
    WEAK_DROP_MARGIN times below the square passes."""
    from seqtheory.theory.linalg import WEAK_DROP_MARGIN

    def logs(d, d_twin):
        return [_log(("mats", [1.0, 1.2e-5], [True, True], 1e-9),
                     ("closure", [dv, dv], [False, False], 1e-9)) for dv in (d, d_twin)]

    base, twin = logs(1.36e-14, 1.41e-14)
    why = compare_decision_logs(base, [twin], 1e-9)[1]
    assert why is not None and "does not re-draw" in why
    d = 0.9 * 1.2e-5 ** 2 / WEAK_DROP_MARGIN
    base, twin = logs(d, 1.04 * d)
    assert compare_decision_logs(base, [twin], 1e-9)[1] is None


def _settled(decision):
    return tuple(decision) + (True,)


def test_a_settled_decision_is_not_held_to_the_square_rules():
    """A decision whose result already has the largest dimension the exact computation can
    have (float_rank.settle_decisions) cannot have dropped a genuine direction: its dropped
    values are left out of the square rules (no margin, no constant: a dimension argument).
    Negative controls: the same log unsettled is refused by the square rule; a settled
    decision is still refused by every other rule (a dropped value neither re-drawn nor
    explained by input rounding, a narrow gap, a changed decision)."""
    from seqtheory.theory.float_rank import is_settled

    kept = ("mats", [1.0, 1.2e-5], [True, True], 1e-9)
    base = _log(kept, ("closure", [1.36e-14], [False], 1e-9))
    twin = _log(kept, ("closure", [1.41e-14], [False], 1e-9))    # moved by 4%: not re-drawn
    assert "does not re-draw" in compare_decision_logs(base, [twin], 1e-9)[1]
    settled = [base[0], _settled(base[1])]
    settled_twin = [twin[0], _settled(twin[1])]
    assert is_settled(settled[1]) and not is_settled(settled[0])
    gap, why = compare_decision_logs(settled, [settled_twin], 1e-9)
    assert why is None and gap >= MIN_GAP
    # re-drawn noise above the square, settled: certified; unsettled: refused
    near = [_log(("closure", [1.0, 1e-7], [True, True], 1e-9),
                 ("bracket", [d], [False], 1e-9)) for d in (2.5e-15, 6e-15)]
    assert "square" in compare_decision_logs(near[0], [near[1]], 1e-9)[1]
    assert compare_decision_logs(*[[n[0], _settled(n[1])] for n in near[:1]],
                                 [[near[1][0], _settled(near[1][1])]], 1e-9)[1] is None
    # every other rule still applies to a settled decision
    genuine = [_settled(_log(("closure", [1.0, 5e-10], [True, False], 1e-9))[0])]
    assert "genuine" in compare_decision_logs(genuine, [genuine], 1e-9)[1]
    narrow = [_settled(_log(("closure", [1.0, 2e-9, 1e-12], [True, True, False], 1e-9))[0])]
    noisy = [_settled(_log(("closure", [1.0, 2e-9, 5e-10], [True, True, False], 1e-9))[0])]
    assert "gap" in compare_decision_logs(narrow, [noisy], 1e-9)[1]
    changed = [_settled(_log(("closure", [1.0, 0.3, 2e-9], [True, True, True], 1e-9))[0])]
    assert "changes the decision" in compare_decision_logs(
        [_settled(_BASE[0])], [changed], 1e-9)[1]


def test_settle_decisions_marks_the_active_log_from_a_place_on():
    from seqtheory.theory.float_rank import (decision_count, is_settled, record_decision,
                                             recording_decisions, settle_decisions)

    assert decision_count() is None
    settle_decisions(0)                                   # not recording: no-op
    with recording_decisions() as log:
        record_decision("a", np.array([1.0]), np.array([True]), 1e-9)
        start = decision_count()
        record_decision("b", np.array([1.0, 1e-20]), np.array([True, False]), 1e-9)
        record_decision("c", np.array([1.0]), np.array([True]), 1e-9)
        settle_decisions(start)
    assert start == 1 and [is_settled(d) for d in log] == [False, True, True]
    assert all(len(d) == 6 for d in log[1:]) and log[1][0] == "b"


def test_bracket_space_bound_is_sl_n_for_matrices_and_the_algebra_for_its_own_brackets():
    from seqtheory.theory.lie_ambient import MatrixAmbient
    from seqtheory.theory.lie_closure import bracket_space_bound

    amb = MatrixAmbient(3)
    assert bracket_space_bound(amb, 9, 9, True) == 8         # [gl(3), gl(3)] = sl(3)
    assert bracket_space_bound(amb, 3, 3, True) == 3         # [g, g] inside g
    assert bracket_space_bound(amb, 3, 9, False) == 8        # inside sl(3) only
    # the exact path agrees: [gl(3), gl(3)] has dimension 8
    gl3 = LieAlgebra.generated_by([E(3, i, j) for i in range(3) for j in range(3)])
    assert gl3.dim == 9 and gl3.derived_algebra().dim == 8


# stress case 387 (seed 2026): two random 3 x 3 integer generators of gl(3), conjugated at
# condition number 822. Its derived series was refused by the square rule: input rounding
# 5.2e-16 left out of [g, g] (the trace direction), not 1e5 times below the square of the
# smallest kept value 2e-7 and not re-drawn by the twins.
_GL3_AT_822 = (
    [[[-2, -2, 1], [2, 0, 1], [0, -2, 2]], [[2, 1, 0], [-1, 0, 1], [-2, -2, 0]]],
    [["0x1.8a40e923b5bf1p-4", "-0x1.2f3068a1a731dp-1", "-0x1.cf8feb38ec25bp-2"],
     ["0x1.c5a1cb8929b57p-4", "-0x1.e2d56a3d0d371p-2", "-0x1.55195994f2ce9p-2"],
     ["-0x1.c9d0ea3856118p-5", "0x1.ecc6ebf7e2aa9p-3", "0x1.61763d0c711b9p-3"]])


def test_gl3_at_condition_number_822_is_answered_by_the_dimension_argument():
    """[gl(3), gl(3)] = sl(3) has the largest dimension a bracket space of 3 x 3 matrices can
    have (brackets are traceless): nothing genuine can have been left out, so the settled
    decisions are not held to the square rule and every invariant is answered, exactly. The
    square rule still refuses the same values where the result is not the largest possible
    (test_a_settled_decision_is_not_held_to_the_square_rules, the sl(2) cases above)."""
    from seqtheory.theory.float_rank import is_settled
    from seqtheory.theory.lie import recorded_run

    gens, P = [np.array(g) for g in _GL3_AT_822[0]], _hex_matrix(_GL3_AT_822[1])
    exact = _invariants(LieAlgebra.generated_by(gens))
    assert exact[:2] == (9, (9, 8))
    assert _answered(LieAlgebra.generated_by(_conjugate(gens, P))) == exact
    _, log = recorded_run(_conjugate(gens, P), "derived_series")
    brackets = [d for d in log if d[0] == "a bracket space [a, b]"]
    assert brackets and all(is_settled(d) for d in brackets)


@pytest.mark.parametrize("k", range(len(_ONCE_WRONG_DIM_1E6)))
def test_a_genuine_value_below_the_old_margin_is_not_settled(k):
    """The genuine components of [e, f] outside span{e, f} of sl(2) conjugated above 1e6 (down
    to 1/10 600 of the square of the smallest kept value) lie in a closure that is not the
    whole of gl(2): its decisions are not settled, the square rule still holds them, and the
    dimension is refused or right (3)."""
    from seqtheory.theory.float_rank import is_settled
    from seqtheory.theory.lie import recorded_run

    a, b, rows = _ONCE_WRONG_DIM_1E6[k]
    mats = _conjugate([np.array(a), np.array(b)], _hex_matrix(rows))
    L, log = recorded_run(mats)
    assert not any(is_settled(d) for d in log)
    try:
        assert LieAlgebra.generated_by(mats).dim == 3
    except NumericalRankError:
        pass


def test_raised_levels_lifts_a_level_above_measured_noise():
    """A kept value that the twins re-draw (noise above the tolerance) gets a level between
    it and the stable signal; a narrow gap or a value that is neither raises nothing."""
    base = _log(("closure", [1.0, 1e-2, 5e-9], [True, True, True], 1e-9))
    twin = _log(("closure", [1.0, 1e-2, 2e-7], [True, True, True], 1e-9))
    new = raised_levels(base, [twin], {})
    assert set(new) == {0} and 2e-7 * MIN_GAP <= new[0] <= 1e-2 / MIN_GAP
    assert raised_levels(base, [base], {}) is None                     # nothing re-drawn
    narrow = _log(("closure", [1.0, 1e-5, 2e-7], [True, True, True], 1e-9))
    assert raised_levels(base, [narrow], {}) is None                   # 1e-2 moved: neither
    base_n = _log(("closure", [1.0, 1e-5, 5e-9], [True, True, True], 1e-9))
    assert raised_levels(base_n, [narrow], {}) is None                 # gap 50 < MIN_GAP**2
    # levels of later decisions are dropped: those decisions are recomputed after the raise
    assert raised_levels(base, [twin], {0: 1e-9, 3: 1.0}) == {0: new[0]}


def test_a_raised_level_answers_n5_at_condition_number_1e3():
    """n(5) conjugated at 1e3 (seed 9): input noise 5e-9 in its lower central series, above
    the tolerance, was kept and broke the nesting of the series; the twins measure it and the
    runs are repeated with the level raised."""
    gens = _FAMILIES["n(5)"]
    P = _conditioned(np.random.default_rng(2), 5, 1e3)
    exact = _invariants(LieAlgebra.generated_by(gens))
    assert _answered(LieAlgebra.generated_by(_conjugate(gens, P))) == exact


@pytest.mark.parametrize("name", ["n(4)", "heisenberg", "b(3)", "sl(2)", "so(3)"])
def test_ideal_subalgebra_and_bracket_space_follow_the_twin_rule(name):
    """ideal_generated_by, subalgebra_generated_by, bracket_space of two algebras and
    is_subalgebra_of on float algebras: the exact answers at condition number 100, each
    certified by the twin runs (they once raised a TypeError from float128 rows)."""
    gens = _FAMILIES[name]
    E_ = LieAlgebra.generated_by(gens)
    for seed in range(2):
        P = _conditioned(np.random.default_rng(seed), gens[0].shape[0], 100.0)
        fg = _conjugate(gens, P)
        F = LieAlgebra.generated_by(fg)
        outs = []
        for L, g in ((E_, gens), (F, fg)):
            I, S = L.ideal_generated_by([g[0]]), L.subalgebra_generated_by([g[0], g[-1]])
            B = L.bracket_space(I)
            outs.append((I.dim, S.dim, B.dim, S.is_subalgebra_of(L), I.is_subalgebra_of(S),
                         B.is_subalgebra_of(I), B.lower_central_series().dims))
            if L is F:
                assert {I.certificate, S.certificate, B.certificate} == \
                    {"a-posteriori (twin runs)"}
        assert outs[0] == outs[1], (name, seed)


def _four(L, g):
    I, S = L.ideal_generated_by([g[0]]), L.subalgebra_generated_by([g[0], g[-1]])
    B = L.bracket_space(I)
    return (I.dim, S.dim, B.dim, S.is_subalgebra_of(L), I.is_subalgebra_of(S),
            B.is_subalgebra_of(I))


def test_four_operations_never_wrong_up_to_condition_number_1e8():
    """The operations of the test above on random conjugated integer algebras, condition
    numbers 10^u, u uniform in [0, 8]: right or refused (measured over 700 cases: 0 wrong)."""
    rng = np.random.default_rng(31)
    answered = 0
    for c in range(70):
        gens = stress_case(rng, KINDS[c % len(KINDS)])
        P = _conditioned(rng, gens[0].shape[0], 10.0 ** rng.uniform(0.0, 8.0))
        exact = _four(LieAlgebra.generated_by(gens), gens)
        fg = _conjugate(gens, P)
        try:
            got = _four(LieAlgebra.generated_by(fg), fg)
        except NumericalRankError:
            continue
        answered += 1
        assert got == exact, c
    assert answered >= 30


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 6), st.integers(0, 6), st.integers(0, 2 ** 32 - 1))
def test_complement_rows_is_an_orthonormal_complement_continuous_in_the_space(d, k, seed):
    k = min(k, d)
    rng = np.random.default_rng(seed)
    V = np.linalg.qr(rng.standard_normal((d, d)))[0][:, :k].T
    C = complement_rows(V, d)
    assert C.shape == (d - k, d)
    assert np.allclose(C @ C.T, np.eye(d - k), atol=1e-12)
    assert np.allclose(C @ V.T, 0.0, atol=1e-12)
    # a rotation of V inside its own span leaves C unchanged (it depends on the space only)
    Rk = np.linalg.qr(rng.standard_normal((k, k)))[0] if k else np.zeros((0, 0))
    assert np.allclose(complement_rows(Rk @ V, d), C, atol=1e-9)


def test_twin_perturbation_is_below_the_input_rounding_it_measures():
    """The twins perturb far less than the largest input rounding a dropped value may need
    (first-order comparison)."""
    from seqtheory.theory.linalg import INPUT_ROUNDING

    assert TWIN_PERTURBATION < INPUT_ROUNDING / MIN_GAP


def test_spanned_by_answers_and_not_closed_is_certified():
    """spanned_by on float input: a closed span is answered by the same rule; a span that is
    not closed is said so only after the twins agree (the decision behind it is certified
    like a rank)."""
    P = _conditioned(np.random.default_rng(3), 3, 100.0)
    Pi = np.linalg.inv(P)
    b3 = [E(3, 0, 0), E(3, 1, 1), E(3, 2, 2), E(3, 0, 1), E(3, 1, 2), E(3, 0, 2)]
    S = LieAlgebra.spanned_by([P @ np.asarray(g, dtype=float) @ Pi for g in b3])
    assert _answered(S) == _invariants(LieAlgebra.spanned_by(b3))
    with pytest.raises(ValueError, match="not closed") as info:
        LieAlgebra.spanned_by([P @ np.asarray(g, dtype=float) @ Pi
                               for g in (E(3, 0, 1), E(3, 1, 2))])
    assert not isinstance(info.value, NumericalRankError)


# ---------------------------------------------------------------------------------------------
# a refusal leaves nothing behind: asking again refuses again (or answers right), never reads an
# uncertified cached term (found by review: derived_algebra cached its subspace before the twin
# rule ran, so a second call returned dim 2 where the exact answer is 3)
# ---------------------------------------------------------------------------------------------
def _near_degenerate(d):
    n = len(d)
    N = sum(np.eye(n)[:, [i]] @ np.eye(n)[[i + 1], :] for i in range(n - 1))
    return [np.diag(d), N]


def _exact_of(mats):
    return LieAlgebra.generated_by([[[Fraction(float(x)) for x in row] for row in m] for m in mats])


@pytest.mark.parametrize("calls", [("derived_algebra", "derived_algebra", "derived_algebra"),
                                   ("derived_series", "lower_central_series", "derived_series"),
                                   ("lower_central_series", "derived_series", "center")])
def test_a_refused_answer_is_not_cached(calls):
    mats = _near_degenerate([0.1, 0.1 + 1e-10, 0.3])
    L, X = LieAlgebra.generated_by(mats), _exact_of(mats)
    for name in calls:
        try:
            got = getattr(L, name)()
        except NumericalRankError:
            continue
        want = getattr(X, name)()
        assert (got.dims if hasattr(got, "dims") else got.dim) == \
            (want.dims if hasattr(want, "dims") else want.dim), name


def test_asking_again_after_a_refusal_is_never_wrong():
    rng = np.random.default_rng(0)
    for t in range(12):
        n = 3 + t % 2
        d = np.round(rng.uniform(0, 1, n), 3)
        d[1] = d[0] + 10.0 ** (-rng.uniform(6, 12))
        mats = _near_degenerate(d)
        try:
            L = LieAlgebra.generated_by(mats)
        except NumericalRankError:
            continue
        X = _exact_of(mats)
        for name in ("derived_series", "lower_central_series") * 2:
            try:
                got = getattr(L, name)().dims
            except NumericalRankError:
                continue
            assert got == getattr(X, name)().dims, (t, name)


def test_a_bracket_space_that_is_not_closed_does_not_settle_its_square(monkeypatch):
    """``[X, X]`` lies in ``X`` only when ``X`` is closed; ``X = [a, b]`` need not be. Here
    ``X`` (dim 6) is not closed and ``[X, X]`` has dim 7 (exact), below sl(3)'s 8: a float
    ``[X, X]`` of dim >= 6 had been settled by the bound ``dim X`` (which the exact answer
    exceeds). Control: ``[g, g] = g`` of a closed ``g`` (the principal sl(2) in gl(3)) still
    settles."""
    import seqtheory.theory.lie as lie_mod

    a = [[[0, 0, -2], [0, 0, 0], [0, 0, -1]], [[0, 0, 0], [2, 0, 0], [0, 1, 0]]]
    b = [[[0, 0, 0], [-1, 0, 0], [0, 1, 0]]]
    X = LieAlgebra.generated_by(a).bracket_space(LieAlgebra.generated_by(b))
    assert (X.dim, X.bracket_space(X).dim) == (6, 7)      # [X, X] is not inside X
    Xf = LieAlgebra.generated_by(np.array(a, dtype=float)).bracket_space(
        LieAlgebra.generated_by(np.array(b, dtype=float)))
    calls = []
    real = lie_mod.settle_decisions
    monkeypatch.setattr(lie_mod, "settle_decisions", lambda start: (calls.append(start),
                                                                    real(start))[1])
    assert Xf.bracket_space(Xf).dim == 7
    assert not [c for c in calls if c is not None]
    g = LieAlgebra.generated_by([np.array(m, dtype=float) for m in FAMILIES["sl(3)"]])
    assert g.bracket_space(g).dim == 3 and [c for c in calls if c is not None]

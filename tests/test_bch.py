"""BCH series: SPEC oracles, Goldberg coefficients, fast vs reference solver, Heisenberg case,
associativity, symmetric and multi-factor series, evaluation, cache, bad input."""
from __future__ import annotations

import importlib
import json
from fractions import Fraction

import numpy as np
import pytest
import sympy
from hypothesis import given, settings, strategies as st
from scipy.linalg import expm, logm

from seqtheory.theory.bch_series import (bch, bch_multi, goldberg_coefficient, log_product_word_coefficient,
                                  lyndon_coordinates_two_letters)
from seqtheory.theory.lie_poly import LiePolynomial

SPEC_DEG4 = {"x": Fraction(1), "y": Fraction(1), "xy": Fraction(1, 2), "xxy": Fraction(1, 12),
             "xyy": Fraction(1, 12), "xxyy": Fraction(1, 24)}


@pytest.fixture(autouse=True)
def _cache(tmp_path, monkeypatch):
    monkeypatch.setenv("SEQTHEORY_CACHE_DIR", str(tmp_path / "cache"))


def test_spec_degree4_oracle():
    Z = bch(4)
    assert Z.lyndon_coefficients() == SPEC_DEG4
    # in the SPEC's bracket form: -(1/24)[Y,[X,[X,Y]]] and (1/12)[Y,[Y,X]]
    x, y = LiePolynomial.letter("x", "xy"), LiePolynomial.letter("y", "xy")
    spec = (x + y + x.bracket(y) * Fraction(1, 2)
            + (x.bracket(x.bracket(y)) + y.bracket(y.bracket(x))) * Fraction(1, 12)
            - y.bracket(x.bracket(x.bracket(y))) * Fraction(1, 24))
    assert Z == spec
    assert Z.word_coefficient("xxy") == Fraction(1, 12)
    assert Z.word_coefficient("xyx") == Fraction(-1, 6)


def test_spec_denominators_and_counts():
    Z = bch(10)
    d = Z.common_denominators()
    assert [d[m] for m in range(1, 9)] == [1, 2, 12, 24, 720, 1440, 30240, 120960]
    # number of non-zero coefficients per degree (classical BCH, Lyndon basis), degrees 1..8
    assert [Z.nonzero_per_degree().get(m, 0) for m in range(1, 9)] == [2, 1, 2, 1, 6, 5, 18, 17]


@settings(max_examples=120, deadline=None)
@given(st.text(alphabet="xy", min_size=1, max_size=9))
def test_goldberg_equals_dynamic_programme(w):
    assert goldberg_coefficient(w) == log_product_word_coefficient(w, [("x", 1), ("y", 1)], "xy")


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet="xy", min_size=1, max_size=10))
def test_lyndon_expansion_reproduces_word_coefficients(w):
    # the Lyndon coordinates, expanded back into words, give Goldberg's coefficient of every word
    assert bch(10).word_coefficient(w) == goldberg_coefficient(w)


def test_fast_engine_equals_reference_solver():
    for kind, N in (("classical", 11), ("symmetric", 8)):
        assert bch(N, kind, use_cache=False) == bch(N, kind, use_cache=False, method="generic")
    fast = lyndon_coordinates_two_letters(
        lambda w: log_product_word_coefficient(w, [("x", 1), ("y", 2)], "xy"), 7)
    ref = bch(7, use_cache=False).substitute(
        {"x": LiePolynomial.letter("x", "xy"), "y": LiePolynomial.letter("y", "xy") * 2}, 7)
    assert fast == ref.lyndon_coefficients()


def test_even_degrees_and_symmetric_series_from_the_odd_degrees():
    # method="fast" solves only the odd degrees of log(e^X e^Y) and derives the rest from
    # Z_even = tanh(ad_X/2) Z_odd and S = sech(ad_X/2) Z_odd; here every degree is solved
    # directly from its own word coefficients instead (Goldberg, resp. the exact DP for
    # log(e^{X/2} e^Y e^{X/2})) and must agree exactly
    assert lyndon_coordinates_two_letters(goldberg_coefficient, 13) == \
        bch(13, use_cache=False).lyndon_coefficients()
    half = Fraction(1, 2)
    sym = lyndon_coordinates_two_letters(
        lambda w: log_product_word_coefficient(w, [("x", half), ("y", 1), ("x", half)], "xy"), 11)
    assert {w: v for w, v in sym.items() if v} == bch(11, "symmetric", use_cache=False).lyndon_coefficients()


def test_symmetric_is_odd_and_low_order():
    S = bch(9, "symmetric")
    assert all(len(w) % 2 == 1 for w in S.lyndon_coefficients())  # Z(-X,-Y) = -Z(X,Y)
    c = S.lyndon_coefficients()
    # log(e^{X/2} e^Y e^{X/2}) = X + Y - (1/24)[X,[X,Y]] - (1/12)[Y,[X,Y]] + ...; [Y,[X,Y]] = -P_xyy
    assert {w: v for w, v in c.items() if len(w) <= 3} == {
        "x": 1, "y": 1, "xxy": Fraction(-1, 24), "xyy": Fraction(1, 12)}


def test_heisenberg_terminates_at_degree_2():
    X = sympy.Matrix([[0, 3, 0], [0, 0, 0], [0, 0, 0]])
    Y = sympy.Matrix([[0, 0, 0], [0, 0, -2], [0, 0, 0]])
    Z = bch(8)
    assert Z.evaluate({"x": X, "y": Y}) == X + Y + (X * Y - Y * X) / 2
    for m in range(3, 9):
        comp = Z.homogeneous_component(m)
        assert comp.evaluate({"x": X, "y": Y}) == sympy.zeros(3, 3)
    # and it really is log(e^X e^Y): exp of the result equals e^X e^Y exactly (nilpotent)
    W = X + Y + (X * Y - Y * X) / 2
    assert (W.exp() - X.exp() * Y.exp()).applyfunc(sympy.simplify) == sympy.zeros(3, 3)


def test_associativity_degree_8():
    N = 8
    Z = bch(N)
    lx, ly, lw = (LiePolynomial.letter(a, "xyw") for a in "xyw")
    Zxyw = Z.substitute({"x": lx, "y": ly}, N)  # same polynomial over the bigger alphabet
    left = Z.substitute({"x": Zxyw, "y": lw}, N)
    right = Z.substitute({"x": lx, "y": Z.substitute({"x": ly, "y": lw}, N)}, N)
    assert left == right
    assert left.degree == N


def test_multi_factor_convention():
    # log(e^{X_2} e^{X_1}) = X_1 + X_2 + ½[X_2, X_1] + ...  (letters a = X_1 < b = X_2)
    M = bch_multi(2, 6)
    assert {w: v for w, v in M.lyndon_coefficients().items() if len(w) <= 2} == {
        "a": 1, "b": 1, "ab": Fraction(-1, 2)}
    ref = bch(6).substitute({"x": LiePolynomial.letter("b", "ab"), "y": LiePolynomial.letter("a", "ab")}, 6)
    assert M == ref
    rng = np.random.default_rng(0)
    X = [0.05 * rng.standard_normal((3, 3)) for _ in range(3)]
    T = bch_multi(3, 7).evaluate(dict(zip("abc", X)))
    assert np.abs(T - logm(expm(X[2]) @ expm(X[1]) @ expm(X[0]))).max() < 1e-10


def test_numeric_evaluation_float():
    rng = np.random.default_rng(1)
    X, Y = 0.1 * rng.standard_normal((4, 4)), 0.1 * rng.standard_normal((4, 4))
    Z = bch(12)
    assert np.abs(Z.evaluate({"x": X, "y": Y}) - logm(expm(X) @ expm(Y))).max() < 1e-12


def test_cache_roundtrip_and_corruption(tmp_path):
    cache_mod = importlib.import_module("seqtheory.theory.series_cache")
    a = bch(7)
    assert not a.from_cache
    path = cache_mod.cache_path("classical_deg7")
    assert path.exists() and f".v{cache_mod.FORMAT_VERSION}." in path.name
    b = bch(7)
    assert b.from_cache and b == a
    doc = json.loads(path.read_text())
    doc["payload"][3][1] += 1  # corrupt one coefficient; checksum no longer matches
    path.write_text(json.dumps(doc))
    c = bch(7)
    assert not c.from_cache and c == a
    path.write_text("{not json")
    d = bch(7)
    assert not d.from_cache and d == a


def test_bad_input():
    with pytest.raises(ValueError):
        bch(0)
    with pytest.raises(ValueError):
        bch(3, kind="weird")
    with pytest.raises(TypeError):
        bch(2.5)
    with pytest.raises(ValueError):
        bch_multi(0, 3)
    with pytest.raises(ValueError):
        bch(3).word_coefficient("xxxxy")  # beyond the truncation degree
    with pytest.raises(ValueError):
        bch(3).evaluate({"x": np.eye(2), "y": np.eye(3)})
    with pytest.raises(ValueError):
        goldberg_coefficient("xyz", "xyz")


@pytest.mark.slow
def test_fast_engine_equals_reference_solver_degree_14():
    assert bch(14, use_cache=False) == bch(14, use_cache=False, method="generic")


@pytest.mark.slow
def test_degree_20_word_coefficients_match_goldberg():
    # exact end-to-end check of the top degrees: Lyndon coordinates -> words == Goldberg
    import random

    Z = bch(20)
    assert len(Z.lyndon_coefficients()) == sum(Z.nonzero_per_degree().values())
    rnd = random.Random(20)
    for m in (19, 20):
        for _ in range(12):
            w = "".join(rnd.choice("xy") for _ in range(m))
            assert Z.word_coefficient(w) == goldberg_coefficient(w)


# ============================================================================ adversarial review
# Regression tests for defects found by an adversarial review.

def _rewrite_with_checksum(path, doc):
    cache_mod = importlib.import_module("seqtheory.theory.series_cache")
    doc["n_terms"] = len(doc["payload"])
    doc["sha256"] = cache_mod._digest(doc["payload"])
    path.write_text(json.dumps(doc))


def test_cache_survives_malformed_but_checksummed_files(tmp_path):
    """A cache file whose top level is a JSON list raised AttributeError from inside bch();
    terms that are not words over the alphabet, zero or non-integer denominators or duplicate
    words were loaded as coefficients as long as the checksum matched."""
    cache_mod = importlib.import_module("seqtheory.theory.series_cache")
    ref = bch(5)
    path = cache_mod.cache_path("classical_deg5")
    path.write_text("[1, 2, 3]")
    assert bch(5) == ref and not bch(5, use_cache=False).from_cache
    cache_mod.save_series("classical_deg5", ref.lyndon_coefficients(), "xy", 5)
    good = json.loads(path.read_text())
    assert cache_mod.load_series("classical_deg5", "xy", 5) == ref.lyndon_coefficients()
    for corrupt in (lambda p: p.append(["xz", 1, 2]),           # letter outside the alphabet
                    lambda p: p.append(["xxxyyy", 1, 2]),       # longer than the degree
                    lambda p: p.append([p[0][0], 1, 2]),        # duplicate word
                    lambda p: p.__setitem__(0, [p[0][0], 1, 0]),    # zero denominator
                    lambda p: p.__setitem__(0, [p[0][0], 1.5, 2]),  # non-integer numerator
                    lambda p: p.__setitem__(0, [p[0][0], 1, -2])):  # negative denominator
        doc = json.loads(json.dumps(good))
        corrupt(doc["payload"])
        _rewrite_with_checksum(path, doc)
        assert cache_mod.load_series("classical_deg5", "xy", 5) is None
        z = bch(5)
        assert not z.from_cache and z == ref


def test_unwritable_cache_folder_does_not_lose_the_result(tmp_path, monkeypatch):
    """SEQTHEORY_CACHE_DIR pointing at a file made bch() crash with an OSError."""
    blocker = tmp_path / "not_a_folder"
    blocker.write_text("x")
    monkeypatch.setenv("SEQTHEORY_CACHE_DIR", str(blocker))
    with pytest.warns(RuntimeWarning, match="cache"):
        z = bch(4)
    assert z.lyndon_coefficients()["xxyy"] == Fraction(1, 24)


def test_fast_engine_degree_cap():
    """Above degree 23 the int32 pairings / int64 modular sums of the fast engine are no longer
    provably overflow-free; it now refuses instead of risking it."""
    with pytest.raises(ValueError, match="<= 23"):
        bch(24, use_cache=False)


def test_complex_matrices_keep_their_imaginary_part():
    """Complex numpy matrices were cast to float64 (imaginary part dropped, a ComplexWarning)."""
    rng = np.random.default_rng(3)
    X = 0.05 * (rng.standard_normal((3, 3)) + 1j * rng.standard_normal((3, 3)))
    Y = 0.05 * (rng.standard_normal((3, 3)) + 1j * rng.standard_normal((3, 3)))
    Z = bch(8).evaluate({"x": X, "y": Y})
    assert np.iscomplexobj(Z)
    assert np.abs(Z - logm(expm(X) @ expm(Y))).max() < 1e-9
    with pytest.raises(ValueError, match="0x0"):
        bch(3).evaluate({"x": np.zeros((0, 0)), "y": np.zeros((0, 0))})
    with pytest.raises(ValueError, match="NaN"):
        bch(3).evaluate({"x": np.array([[float("nan")]], dtype=object),
                         "y": np.array([[1]], dtype=object)})


def test_log_product_factors_are_validated():
    """Float scales were read as binary fractions and a factor 'xy' was taken as a letter."""
    with pytest.raises(TypeError, match="scale"):
        log_product_word_coefficient("xy", [("x", 0.1), ("y", 1)], "xy")
    with pytest.raises(ValueError, match="single letter"):
        log_product_word_coefficient("xy", [("xy", 1)], "xy")
    assert log_product_word_coefficient("xy", [("x", 1), ("y", 1)], "xy") == Fraction(1, 2)


def test_generic_reference_never_reads_the_fast_engines_cache(tmp_path, monkeypatch):
    """A cross-check with the defaults must solve, not read the fast engine's cached result."""
    monkeypatch.setenv("SEQTHEORY_CACHE_DIR", str(tmp_path))
    bch(6, "symmetric")                                  # fast engine, cached
    ref = bch(6, "symmetric", method="generic")
    assert not ref.from_cache
    assert ref.lyndon_coefficients() == bch(6, "symmetric").lyndon_coefficients()


def test_no_forked_class_workers_inside_a_daemonic_process(monkeypatch):
    """A multiprocessing.Pool worker may not have children: bch solves in one process there."""
    import multiprocessing

    from seqtheory.theory.bch_series import _default_workers

    monkeypatch.delenv("SEQTHEORY_BCH_WORKERS", raising=False)
    with multiprocessing.get_context("fork").Pool(1) as pool:
        assert pool.apply(_default_workers, (20,)) == 1


def test_generic_reference_refuses_degrees_it_cannot_finish():
    with pytest.raises(ValueError, match="method='generic'"):
        bch(17, method="generic")


# ============================================================================ the fast engine's paths
# The two-letter engine (straight-line programme for the pairings, int16/int32 levels, groups of
# classes, exact inverses of diagonal sub-blocks with a modular fallback, exact modular products)
# checked path by path against independent references.

from hypothesis import example  # noqa: E402

from seqtheory.theory import bch_series as _bs  # noqa: E402
from seqtheory.theory.lie_poly import pairing  # noqa: E402


@settings(max_examples=25, deadline=None)
@given(st.integers(2, 18), st.data())
@example(18, None)  # int32 levels (node lengths 16..18)
def test_pairing_programme_equals_standard_bracketing(m, data):
    # <P_l, w> from the engine's straight-line programme (int16 up to length 15, int32 beyond)
    # against lie_poly.pairing (recursion on the standard factorisation of the strings)
    eng = _bs._engine(18)
    sel = np.flatnonzero(eng.LEN == m)
    k = int(eng.KY[sel][sel.size // 2]) if data is None else data.draw(
        st.sampled_from(sorted(set(eng.KY[sel].tolist()))))
    cls = sel[eng.KY[sel] == k]
    rng = np.random.default_rng(m * 100 + k)
    cols = np.sort(rng.choice(cls.size, size=min(6, cls.size), replace=False))
    prog = eng._program(cls)
    M = eng.pairing_block(prog, cls[cols])
    assert M.dtype == (np.int16 if prog.short == prog.size else np.int32)  # nodes of length > 15
    if data is None:  # the pinned example exercises the int32 levels
        assert M.dtype == np.int32
    words = eng.decode(cls, "xy")
    for i in rng.choice(cls.size, size=min(12, cls.size), replace=False).tolist():
        for j, col in enumerate(cols.tolist()):
            assert int(M[i, j]) == pairing(words[i], words[col], "xy")


@pytest.mark.parametrize("group", [1, 5, 60, 10 ** 6])
def test_grouping_of_classes_does_not_change_the_coordinates(group):
    # any union of multidegree classes is one unitriangular system; per class (group=1), small
    # groups, the default and one system per degree all give the same coordinates
    eng = _bs._engine(12)
    ref = eng.fractions(*eng.coordinates(_bs._goldberg_internal, range(1, 13)), "xy")
    got = eng.fractions(*eng.coordinates(_bs._goldberg_internal, range(1, 13), group=group), "xy")
    assert got == ref
    odd = {w: v for w, v in bch(12, use_cache=False).lyndon_coefficients().items() if len(w) % 2}
    assert {w: v for w, v in ref.items() if len(w) % 2} == odd


def test_uncertified_inverses_fall_back_to_the_modular_loop(monkeypatch):
    # every diagonal sub-block declared uncertified: the column-by-column modular solve must give
    # the same series (degree 16: int32 levels, several blocks per class)
    ref = bch(16, use_cache=False)
    real = _bs._unitriangular_inverse
    monkeypatch.setattr(_bs, "_unitriangular_inverse", lambda T: (real(T)[0], [None] * T.shape[0]))
    assert bch(16, use_cache=False) == ref


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 12), st.integers(0, 40), st.integers(0, 2 ** 32 - 1))
@example(12, 40, 1)   # entries up to 2^40: the inverse is refused, never wrong
@example(1, 0, 0)
def test_unitriangular_inverse_is_exact_or_refused(b, bits, seed):
    rng = np.random.default_rng(seed)
    T = np.triu(rng.integers(-(2 ** bits), 2 ** bits + 1, size=(2, b, b)), 1) + np.eye(b, dtype=np.int64)
    X, xmax = _bs._unitriangular_inverse(T)
    for j in range(2):
        if xmax[j] is None:
            continue
        exact = np.array(T[j].tolist(), dtype=object).dot(np.array(X[j].tolist(), dtype=object))
        assert (exact == np.eye(b, dtype=object)).all()
        assert xmax[j] == max(abs(int(v)) for v in X[j].ravel())


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 300), st.sampled_from([1, 2 ** 10, 2 ** 20, 2 ** 36, 2 ** 40, 2 ** 62]),
       st.integers(0, 2 ** 32 - 1))
@example(300, 2 ** 62, 0)  # reduced modulo each prime first
@example(300, 2 ** 10, 0)  # whole residues
@example(300, 2 ** 20, 0)  # 16-bit halves
def test_mod_product_is_exact(s, bound, seed):
    rng = np.random.default_rng(seed)
    P = np.array(_bs._primes(3), np.int64)[:, None]
    c = rng.integers(0, P, size=(3, s))
    M = rng.integers(-bound, bound + 1, size=(s, 4), dtype=np.int64)
    got = _bs._mod_product(c, M, P, bound)
    for k in range(3):
        p = int(P[k, 0])
        for j in range(4):
            assert int(got[k, j]) == sum(int(c[k, t]) * int(M[t, j]) for t in range(s)) % p


def test_forked_workers_give_the_same_series(monkeypatch):
    ref = bch(11, "symmetric", use_cache=False)
    monkeypatch.setenv("SEQTHEORY_BCH_WORKERS", "2")
    assert bch(11, "symmetric", use_cache=False) == ref


@pytest.mark.parametrize("d, b", [(2 ** 6, 8), (3, 32), (2 ** 20, 40)])
def test_diagonal_solve_equals_the_column_loop(d, b):
    # c = r T^-1 (mod p) by the exact inverses (float products below 2^37, int64 above; (2^20, 40)
    # is refused and falls back) and by the column-by-column loop, for T = I + d (superdiagonal)
    # whose inverse has entries up to d^(b-1)
    rng = np.random.default_rng(b)
    P = np.array(_bs._primes(5), np.int64)[:, None]
    T = np.eye(b, dtype=np.int64) + np.diag(np.full(b - 1, d), 1)
    T[0, 2:] = rng.integers(-5, 6, size=b - 2)
    r = rng.integers(0, P, size=(5, b))
    eng = _bs._engine(2)
    c1, c2 = np.zeros_like(r), np.zeros_like(r)
    eng._solve_diagonal(T, r.copy(), c1, P, chunk=1 << 10)
    eng._solve_block(T, r.copy(), c2, P, chunk=1 << 10)
    assert np.array_equal(c1, c2)


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 130), st.integers(0, 2 ** 32 - 1))
@example(80, 0)    # well inside the range of three primes: returned
@example(93, 1)    # beyond it: refused (the fourth prime does not match)
@example(125, 2)   # beyond all four: refused by the size bound
def test_crt_returns_the_exact_integers_or_refuses(bits, seed):
    # A = I, D g = x: the certificate may refuse, never accept a wrong reconstruction
    rng = np.random.default_rng(seed)
    x = [int(v) << max(0, bits - 62) for v in rng.integers(-(2 ** 62), 2 ** 62, size=7)]
    x[0] = 2 ** bits - 1 if seed % 2 else -(2 ** bits - 1)
    ps = _bs._primes(4)
    c = np.array([[v % p for v in x] for p in ps], np.int64)
    got = _bs._TwoLetterEngine._crt(c, ps, (1, max(abs(v) for v in x)))
    if got is not None:
        assert got.tolist() == x
    if bits <= 90:
        assert got is not None


def test_uncertified_solves_take_more_primes(monkeypatch):
    # one prime reconstructs, the second certifies: degree-17 integers (up to 36 bits) exceed that,
    # so those groups are solved again with more primes; the series is unchanged; with too few
    # primes and no escalation the solve raises instead of returning wrong coefficients
    ref = bch(17, use_cache=False)
    real, refused = _bs._TwoLetterEngine._crt, []

    def crt(c, ps, bound):
        x = real(c, ps, bound)
        refused.append(x is None)
        return x

    monkeypatch.setattr(_bs._TwoLetterEngine, "_crt", staticmethod(crt))
    monkeypatch.setattr(_bs, "_PRIME_COUNTS", (2, 4))
    assert bch(17, use_cache=False) == ref
    assert any(refused) and not all(refused)
    monkeypatch.setattr(_bs, "_PRIME_COUNTS", (2,))
    with pytest.raises(ArithmeticError, match="not certified"):
        bch(17, use_cache=False)


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 2 ** 32 - 1), st.integers(0, 40))
@example(0, 0)
def test_decode_of_any_index_order(seed, size):
    # engine order (by length) and any other order of the indices spell the same words
    eng = _bs._engine(9)
    idx = np.random.default_rng(seed).choice(eng.CODE.size, size=size)
    everything = eng.decode(np.arange(eng.CODE.size), "ab")
    assert eng.decode(idx, "ab") == [everything[i] for i in idx.tolist()]
    assert everything[:3] == ["a", "b", "ab"]
    assert all(len(u) <= len(v) for u, v in zip(everything, everything[1:]))


def test_bch_multi_beyond_the_default_alphabet_says_to_pass_one():
    """Found by review: the message spoke of an alphabet that was never given."""
    from seqtheory.theory.bch_series import bch_multi

    with pytest.raises(ValueError, match="default has 23: pass alphabet"):
        bch_multi(30, 2)


def test_word_coefficient_of_a_non_string_names_the_argument():
    with pytest.raises(TypeError, match="word must be a str over the alphabet 'xy', got int 5"):
        bch(3).word_coefficient(5)


def test_lyndon_coefficients_give_zero_for_an_absent_lyndon_word_and_name_a_bad_key():
    """Found by a newcomer: ``bch(4).lyndon_coefficients()["xxxy"]`` was a bare KeyError for a
    Lyndon word whose coefficient is 0 (the dict holds the non-zero ones only)."""
    c = bch(4).lyndon_coefficients()
    assert c["xxxy"] == 0 and isinstance(c["xxxy"], Fraction) and "xxxy" not in c
    assert c["xy"] == Fraction(1, 2) and c["xxy"] == Fraction(1, 12)
    assert list(c) == [w for w in c if c[w] != 0]           # iteration: the non-zero ones
    with pytest.raises(KeyError, match="'yx' is not a Lyndon word over x < y"):
        c["yx"]
    with pytest.raises(KeyError, match="'xz' is not a Lyndon word"):
        c["xz"]
    with pytest.raises(KeyError, match="degree 5, beyond the truncation degree 4"):
        c["xxxxy"]
    assert c.get("xxxxy") is None and c.get("xxxy") == 0


def test_a_bch_series_says_what_it_is():
    assert repr(bch(2)) == "BCHSeries(kind='classical', truncation_degree=2: (1)*x + (1)*y + (1/2)*xy)"
    assert repr(bch(2) + bch(2)).startswith("LiePolynomial(")   # arithmetic: plain polynomials

"""BCH in the classical Hall basis and Chibrikov's right-normed basis against the published
outputs of H. Hofstätter's C program ``bch`` (its user manual, ``basis=2`` and ``basis=1``), and
Lyndon words by evaluation / standard (un)bracketing against Sage's doctests
(``sage.combinat.words.lyndon_word``). The expected strings are copied from those outputs."""
from fractions import Fraction
from math import factorial, gcd

import pytest
from hypothesis import example, given, settings, strategies as st

from seqtheory.theory import (bch, hall_coordinates, lyndon_words, lyndon_words_with_evaluation,
                              right_normed_basis, right_normed_coordinates, right_normed_word,
                              standard_bracketing, standard_unbracketing, witt_dimension)
from seqtheory.theory.bch_bases import _expand_tree, _right_normed_tree, parse_series, series_string
from seqtheory.theory.free_lie import hall_basis, mobius
from seqtheory.theory.lie_poly import LiePolynomial
from seqtheory.theory.words import lyndon_content_count

# `./bch basis=1` and `./bch basis=2` (N = 5), from the program's user manual
PUBLISHED_RIGHT_NORMED = """
+1/1*A+1/1*B-1/2*[B,A]-1/12*[A,[B,A]]+1/12*[B,[B,A]]+1/24*[B,[A,[B,A]]]+1/720*[A
,[A,[A,[B,A]]]]-1/360*[B,[A,[A,[B,A]]]]+1/120*[A,[B,[A,[B,A]]]]-1/120*[B,[B,[A,[
B,A]]]]+1/360*[A,[B,[B,[B,A]]]]-1/720*[B,[B,[B,[B,A]]]]"""
PUBLISHED_HALL = """
+1/1*A+1/1*B-1/2*[B,A]+1/12*[[B,A],A]-1/12*[[B,A],B]+1/24*[[[B,A],A],B]-1/720*[[
[[B,A],A],A],A]-1/180*[[[[B,A],A],A],B]+1/180*[[[[B,A],A],B],B]+1/720*[[[[B,A],B
],B],B]-1/120*[[[B,A],A],[B,A]]-1/360*[[[B,A],B],[B,A]]"""


def _bch_ab(degree: int) -> LiePolynomial:
    """log(e^A e^B) in the Lyndon basis over A < B (the package's bch over x < y, renamed)."""
    rename = str.maketrans("xy", "AB")
    return LiePolynomial({w.translate(rename): c
                          for w, c in bch(degree).lyndon_coefficients().items()}, "AB")


def test_bch_in_the_right_normed_basis_matches_the_bch_program():
    got = series_string(right_normed_coordinates(_bch_ab(5)), "right_normed")
    assert parse_series(got) == parse_series(PUBLISHED_RIGHT_NORMED)


def test_bch_in_the_hall_basis_matches_the_bch_program():
    got = series_string(hall_coordinates(_bch_ab(5)), "hall")
    assert parse_series(got) == parse_series(PUBLISHED_HALL)


def test_right_normed_words_of_the_published_basis():
    """The right-normed words of the Lyndon words of degree <= 5 over A < B are those of the
    brackets the program prints (degree 5: AAABA, BAABA, ABABA, BBABA, ABBBA, BBBBA)."""
    deg5 = [right_normed_word(w, "AB") for w in lyndon_words("AB", 5)]
    assert sorted(deg5) == sorted(["AAABA", "BAABA", "ABABA", "BBABA", "ABBBA", "BBBBA"])
    assert right_normed_word("AAB", "AB") == "ABA" and right_normed_word("ABB", "AB") == "BBA"
    with pytest.raises(ValueError, match="Lyndon"):
        right_normed_word("BA", "AB")


@pytest.mark.parametrize("alphabet,m", [("AB", 9), ("ABC", 6)])
def test_right_normed_and_hall_sets_are_bases(alphabet, m):
    """Per multidegree, the pairing of the basis brackets with the Lyndon words is invertible
    (so each set is a basis of the free Lie algebra, Reutenauer Thm 5.1), with Witt's count."""
    import flint

    for d in range(1, m + 1):
        words = lyndon_words(alphabet, d)
        rn = [_right_normed_tree(w) for w in right_normed_basis(alphabet, d) if len(w) == d]
        hall = [t for t in hall_basis(alphabet, d) if len(_leaves(t)) == d]
        assert len(rn) == len(hall) == len(words) == witt_dimension(len(alphabet), d)
        for trees in (rn, hall):
            M = flint.fmpq_mat([[dict(_expand_tree(t)).get(w, 0) for t in trees] for w in words])
            assert M.rank() == len(words), (alphabet, d)


def _leaves(t):
    return t if isinstance(t, str) else _leaves(t[0]) + _leaves(t[1])


@settings(max_examples=20, deadline=None)
@given(st.dictionaries(st.sampled_from(["x", "y", "xy", "xxy", "xyy", "xxxy", "xxyy", "xyyy",
                                        "xxyxy"]), st.fractions(max_denominator=7), max_size=5))
def test_coordinates_round_trip(coeffs):
    """Expanding the coordinates in either basis gives back the polynomial's word coefficients."""
    p = LiePolynomial(coeffs, "xy")
    for coords, tree in ((hall_coordinates(p), lambda k: k),
                         (right_normed_coordinates(p), _right_normed_tree)):
        total: dict[str, Fraction] = {}
        for k, c in coords.items():
            for w, a in _expand_tree(tree(k)):
                total[w] = total.get(w, Fraction(0)) + c * a
        assert {w: v for w, v in total.items() if v} == p.expand()


# ---------------------------------------------------------------- Lyndon words (Sage doctests)
def test_lyndon_words_by_evaluation_match_sage():
    ev = lyndon_words_with_evaluation
    assert ev([2, 0, 1]) == ["113"]
    assert ev([2, 0, 1, 0, 1]) == ["1135", "1153", "1315"]
    assert ev([2, 1, 1]) == ["1123", "1132", "1213"]
    assert ev([1, 2, 1]) == ["1223", "1232", "1322"]
    assert ev([3, 3]) == ["111222", "112122", "112212"]
    assert ev([4, 3]) == ["1111222", "1112122", "1112212", "1121122", "1121212"]
    assert ev([1]) == ["1"] and ev([2]) == [] and ev([3]) == [] and ev([]) == []
    assert ev([3, 1]) == ["1112"] and ev([2, 2]) == ["1122"] and ev([1, 3]) == ["1222"]
    assert ev([0, 1]) == ["2"] and ev([0, 2]) == [] and ev([0, 0, 1, 0, 1]) == ["35"]
    assert len(ev([2, 3, 2])) == 30 and len(ev([2, 2])) == 1
    assert ev([1, 1], "xy") == ["xy"]
    with pytest.raises(ValueError):
        ev([-1, 2])
    with pytest.raises(ValueError, match="alphabet"):
        ev([1, 1, 1], "xy")


def _necklace_count(e):
    """Sage's cardinality: (1/n) Σ_{d | gcd(e)} μ(d) multinomial(e/d)."""
    n, g = sum(e), 0
    for x in e:
        g = gcd(g, x)
    total = 0
    for d in range(1, g + 1):
        if g % d == 0:
            m = factorial(n // d)
            for x in e:
                m //= factorial(x // d)
            total += mobius(d) * m
    return total // n


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(0, 3), min_size=1, max_size=3))
def test_lyndon_words_by_evaluation_count_and_content(e):
    words = lyndon_words_with_evaluation(e)
    if sum(e):
        assert len(words) == _necklace_count(e)
    letters = "123456789"[:len(e)]
    assert words == sorted(set(words))
    assert all([w.count(a) for a in letters] == list(e) for w in words)
    assert set(words) == {w for w in lyndon_words(letters, sum(e))
                          if [w.count(a) for a in letters] == list(e)} if sum(e) else not words


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 5), min_size=1, max_size=4), st.integers(0, 50))
@example([6, 6], 10)                       # gcd 6: the Möbius terms d = 2, 3, 6 all count
def test_lyndon_content_count_is_sages_cardinality_capped(e, cap):
    """The count behind the refusal of a fixed-content enumeration: Sage's cardinality formula,
    or ``cap + 1`` once it exceeds ``cap``."""
    exact = _necklace_count(e) if sum(e) else 0
    assert lyndon_content_count(e, 10 ** 9) == exact
    assert lyndon_content_count(e, cap) == (exact if exact <= cap else cap + 1)


def test_lyndon_words_by_evaluation_long_words_and_refusals():
    """A word longer than Python's recursion limit (the recursion hit it at length ~1000), and
    requests that cannot finish refused before they start, naming evaluation."""
    (w,) = lyndon_words_with_evaluation([1, 1500], "ab")
    assert w == "a" + "b" * 1500
    assert lyndon_words_with_evaluation([1500, 1], "ab") == ["a" * 1500 + "b"]
    for e in ([20, 20], [10 ** 18, 3], [2 ** 63, 2 ** 63], [800, 2]):
        with pytest.raises(ValueError, match="evaluation"):
            lyndon_words_with_evaluation(e)
    with pytest.raises(TypeError, match=r"evaluation\[0\]"):
        lyndon_words_with_evaluation([1.0, 2])


def test_standard_bracketing_and_unbracketing_match_sage():
    assert [standard_bracketing(w, "123") for w in lyndon_words("123", 3)] == [
        ("1", ("1", "2")), ("1", ("1", "3")), (("1", "2"), "2"), ("1", ("2", "3")),
        (("1", "3"), "2"), (("1", "3"), "3"), ("2", ("2", "3")), (("2", "3"), "3")]
    assert standard_unbracketing(("1", ("2", "3")), "123") == "123"
    assert standard_unbracketing("1", "123") == "1"
    with pytest.raises(ValueError, match="not a standard bracketing"):
        standard_unbracketing((("1", "2"), "3"), "123")
    with pytest.raises(ValueError, match="pair"):
        standard_unbracketing(("1",), "123")
    for m in range(1, 8):
        for w in lyndon_words("xyz", m) if m < 6 else lyndon_words("xy", m):
            letters = "xyz" if m < 6 else "xy"
            assert standard_unbracketing(standard_bracketing(w, letters), letters) == w

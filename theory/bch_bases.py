"""Lie series in the classical Hall basis and in E. S. Chibrikov's right-normed basis, as the C
program ``bch`` of H. Hofstätter prints them (``basis=2`` and ``basis=1``), beside the Lyndon
basis of :mod:`.lie_poly` / :mod:`.bch_series`.

* **Hall basis**: the classical (Marshall) Hall basis of :func:`~seqtheory.theory.free_lie.hall_basis`
  (``[B, A]``, ``[[B, A], A]``, ... for ``A < B``), the basis of the program's ``basis=2``.
* **Right-normed basis** (E. S. Chibrikov, *A right normed basis for free Lie algebras and
  Lyndon-Shirshov words*, J. Algebra 302 (2006) 593-612): one right-normed bracket
  ``[w_1, [w_2, [..., w_n]]]`` per Lyndon word. :func:`right_normed_word` maps a Lyndon word
  ``w`` with least letter ``a`` to the word of its bracket: the reversed word when ``a`` occurs
  once; otherwise ``w`` is rewritten over a new alphabet of blocks (Lazard elimination of
  ``a``): with ``v`` the letters between the first two ``a``, ``w`` is cut into blocks
  ``(a v)^n a u'`` (``u'`` the shortest prefix of the following run of letters ``≠ a`` that is
  larger than ``v``; the rest of the run stays as single letters), the blocks and letters
  ordered as words; the right-normed word ``r'`` of the rewritten (Lyndon) word is expanded
  block by block, except its last block ``y = a v (a v)^n a u'``, which becomes
  ``(a v)^n a u' rev(v) a``. (The construction as implemented in Hofstätter's ``bch``;
  written here from that description.)

Coordinates (:func:`hall_coordinates`, :func:`right_normed_coordinates`): per multidegree, the
coefficients of the Lyndon words in the Lie series, ``g_w = <S, w>``, determine it (the pairing
of Lyndon words with the Lyndon basis is unitriangular, Reutenauer Thm 5.1), so the coordinates
``x`` in another basis ``{b}`` solve ``sum_b <b, w> x_b = g_w`` over the Lyndon words ``w``
(exact, python-flint). The expansions ``<b, w>`` of the basis brackets are exponential in the
degree: meant for degrees up to about 12.

Source: H. Hofstätter, the ``bch`` program (https://github.com/HaraldHofstaetter/BCH) and its
user manual; Reutenauer, *Free Lie Algebras*, §4-5; M. Hall, Proc. AMS 1 (1950) 575-581.
"""
from __future__ import annotations

import re
from fractions import Fraction
from functools import lru_cache

from ._checks import check_int
from .free_lie import bracket_string, hall_basis, lyndon_words_upto
from .lie_poly import LiePolynomial
from .words import check_alphabet, encode, is_lyndon_encoded

__all__ = ["right_normed_word", "right_normed_basis", "right_normed_string",
           "hall_coordinates", "right_normed_coordinates", "series_string", "parse_series"]


# -------------------------------------------------------------------------------------------
# Chibrikov's right-normed words
# -------------------------------------------------------------------------------------------
def _blocks(w: tuple) -> tuple[list, tuple]:
    """Rewrite the word ``w`` (least letter ``a`` occurring at least twice, ``w[0] = a``) as a
    list of tokens: each a block (a tuple of letters starting with ``a``) or a single letter
    (a 1-tuple); also returns ``v``."""
    a, n = w[0], len(w)
    second = w.index(a, 1)
    v = w[1:second]
    lav = len(v) + 1
    tokens, i, start = [], second, 0
    while i < n:
        # skip units "a v" followed by a
        while i + lav < n and w[i] == a and w[i + 1:i + lav] == v and w[i + lav] == a:
            i += lav
        i += 1                                     # past the a
        run_end = i
        while run_end < n and w[run_end] != a:
            run_end += 1
        run = w[i:run_end]
        j = next(j for j in range(1, len(run) + 1) if run[:j] > v)
        tokens.append(w[start:i + j])
        tokens += [(x,) for x in run[j:]]
        start = i = run_end
    return tokens, v


def _right_normed(w: tuple) -> tuple:
    """The right-normed word (a tuple of letters, compared as integers) of the Lyndon word
    ``w``."""
    a = min(w)
    if w.count(a) == 1:
        return tuple(reversed(w))
    tokens, _ = _blocks(w)
    alphabet = sorted(set(tokens))
    rank = {t: k for k, t in enumerate(alphabet)}
    r1 = _right_normed(tuple(rank[t] for t in tokens))
    y = alphabet[r1[-1]]
    k0 = y.index(a, 1)
    k1 = len(y) - 1 - y[::-1].index(a)
    v, avn, u = y[1:k0], y[k0:k1], y[k1 + 1:]
    head = tuple(x for t in r1[:-1] for x in alphabet[t])
    return head + avn + (a,) + u + tuple(reversed(v)) + (a,)


def right_normed_word(word: str, alphabet) -> str:
    """The word ``w_1 ... w_n`` of Chibrikov's right-normed basis element
    ``[w_1, [w_2, [..., w_n]]]`` belonging to the Lyndon word ``word`` (module docstring).
    ``right_normed_word("AAB", "AB") == "ABA"``. ``ValueError`` when ``word`` is not a Lyndon
    word over the alphabet."""
    letters = check_alphabet(alphabet)
    iw = encode(word, letters)
    if not is_lyndon_encoded(iw):
        raise ValueError(f"word must be a Lyndon word over {''.join(letters)!r}, got {word!r}")
    r = _right_normed(tuple(ord(c) - 0x100 for c in iw))
    return "".join(letters[i] for i in r)


def right_normed_basis(alphabet, m: int) -> list[str]:
    """The right-normed words of degrees 1..m, in the order of the Lyndon words (by length, then
    lexicographically) they belong to."""
    letters = check_alphabet(alphabet)
    return [right_normed_word(w, letters) for w in lyndon_words_upto(letters, check_int("m", m))]


def right_normed_string(word: str) -> str:
    """``"BABA"`` -> ``"[B,[A,[B,A]]]"`` (a letter stays itself)."""
    if len(word) == 1:
        return word
    return f"[{word[0]},{right_normed_string(word[1:])}]"


# -------------------------------------------------------------------------------------------
# expansions and coordinates
# -------------------------------------------------------------------------------------------
@lru_cache(maxsize=4096)
def _expand_tree(tree) -> tuple:
    """The associative expansion of a bracket tree (a letter or a pair) as sorted
    ``(word, coefficient)`` pairs."""
    if isinstance(tree, str):
        return ((tree, 1),)
    A, B = dict(_expand_tree(tree[0])), dict(_expand_tree(tree[1]))
    out: dict[str, int] = {}
    for u, a in A.items():
        for v, b in B.items():
            out[u + v] = out.get(u + v, 0) + a * b
            out[v + u] = out.get(v + u, 0) - a * b
    return tuple(sorted((w, c) for w, c in out.items() if c))


def _right_normed_tree(word: str):
    return word if len(word) == 1 else (word[0], _right_normed_tree(word[1:]))


def _leaves(tree) -> str:
    return tree if isinstance(tree, str) else _leaves(tree[0]) + _leaves(tree[1])


def _content(word: str) -> tuple:
    return tuple(sorted(word))


def _coordinates(poly: LiePolynomial, trees: list, keys: list) -> dict:
    """Coordinates of ``poly`` in the basis ``trees`` (labelled by ``keys``), per multidegree."""
    import flint

    letters = poly.alphabet
    by_content: dict[tuple, list[int]] = {}
    for k, t in enumerate(trees):
        by_content.setdefault(_content(_leaves(t)), []).append(k)
    lyn: dict[tuple, list[str]] = {}
    for w in lyndon_words_upto(letters, poly.degree or 1):
        lyn.setdefault(_content(w), []).append(w)
    out = {}
    for content, idx in by_content.items():
        words = lyn.get(content, [])
        if len(words) != len(idx):
            raise RuntimeError("basis and Lyndon words disagree in number for a multidegree")
        g = [poly.word_coefficient(w) for w in words]
        if not any(g):
            continue
        M = flint.fmpq_mat([[dict(_expand_tree(trees[k])).get(w, 0) for k in idx]
                            for w in words])
        rhs = flint.fmpq_mat([[flint.fmpq(x.numerator, x.denominator)] for x in g])
        x = M.solve(rhs)
        for r, k in enumerate(idx):
            c = Fraction(int(x[r, 0].p), int(x[r, 0].q))
            if c:
                out[keys[k]] = c
    return out


def hall_coordinates(poly: LiePolynomial) -> dict:
    """The coordinates of the Lie polynomial ``poly`` in the classical Hall basis of
    :func:`~seqtheory.theory.free_lie.hall_basis` (over ``poly.alphabet``, up to its degree):
    ``{tree: Fraction}`` for the non-zero ones, trees as nested tuples (render with
    :func:`~seqtheory.theory.free_lie.bracket_string`). Source: the ``bch`` program's
    ``basis=2``; Reutenauer §4.1."""
    if not isinstance(poly, LiePolynomial):
        raise TypeError(f"poly must be a LiePolynomial, got {type(poly).__name__}")
    trees = hall_basis(poly.alphabet, max(poly.degree, 1))
    return _coordinates(poly, trees, trees)


def right_normed_coordinates(poly: LiePolynomial) -> dict[str, Fraction]:
    """The coordinates of ``poly`` in Chibrikov's right-normed basis: ``{word: Fraction}``
    (the bracket ``[w_1, [w_2, [..., w_n]]]`` of each word, non-zero ones only; render with
    :func:`right_normed_string`). Source: the ``bch`` program's ``basis=1``; Chibrikov (2006)."""
    if not isinstance(poly, LiePolynomial):
        raise TypeError(f"poly must be a LiePolynomial, got {type(poly).__name__}")
    words = right_normed_basis(poly.alphabet, max(poly.degree, 1))
    return _coordinates(poly, [_right_normed_tree(w) for w in words], words)


def series_string(coords: dict, kind: str) -> str:
    """A series as the ``bch`` program prints it: ``+1/1*A+1/1*B-1/2*[B,A]...`` (``kind``:
    ``"hall"`` for trees, ``"right_normed"`` for words)."""
    if kind not in ("hall", "right_normed"):
        raise ValueError(f"kind must be 'hall' or 'right_normed', got {kind!r}")
    render = bracket_string if kind == "hall" else right_normed_string
    return "".join(f"{'+' if c > 0 else '-'}{abs(c.numerator)}/{c.denominator}*{render(k)}"
                   for k, c in coords.items())


_TERM = re.compile(r"([+-]\d+/\d+)\*([^+\-]+)")


def parse_series(text: str) -> dict[str, Fraction]:
    """``{bracket string: Fraction}`` of a series printed as by the ``bch`` program (line breaks
    ignored). ``ValueError`` for text that is not such a series."""
    s = "".join(text.split())
    terms = _TERM.findall(s)
    if "".join(f"{c}*{b}" for c, b in terms) != s:
        raise ValueError("text is not a series of terms like '+1/2*[A,B]'")
    return {b: Fraction(c) for c, b in terms}

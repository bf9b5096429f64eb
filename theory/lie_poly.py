"""Exact Lie polynomials: elements of the free Lie algebra in Lyndon-basis coordinates.

A :class:`LiePolynomial` over an ordered alphabet stores rational coordinates on the Lyndon basis
``P_w`` (standard bracketing of Lyndon words, :mod:`.free_lie`). Its image in the free associative
algebra is ``Σ c_w P_w`` expanded into words. The coordinates of a Lie element given by its word
coefficients are recovered by a unitriangular solve: ``P_l = l + Σ_{u > l} <P_l, u> u`` (Reutenauer,
*Free Lie Algebras*, Thm 5.1), so for Lyndon words ``w`` of one multidegree, in increasing order,
``c_w = <Z, w> - Σ_{l < w} c_l <P_l, w>``.

Convention: ``[A, B] = AB - BA`` (SPEC §2). Matrices for :meth:`LiePolynomial.evaluate` may be
numpy float64 arrays, numpy object arrays (exact, Fraction/int entries), sympy matrices (exact)
or mpmath matrices (arbitrary precision); all must be square and of one size.
"""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from numbers import Rational
from typing import Callable, Mapping

from .contract import check_exact, check_instance, check_int, check_optional_int, check_size
from ._messages import counted
from .words import (check_alphabet, decode, encode, is_lyndon_encoded, lyndon_count,
                    lyndon_words_encoded, standard_factorization_encoded)

__all__ = ["LyndonCoefficients", "LiePolynomial", "pairing", "lyndon_bracket", "lyndon_coordinates", "evaluate_lyndon"]


# ----------------------------------------------------------------------------------------------
# core combinatorics on internal (encoded) words
# ----------------------------------------------------------------------------------------------

@lru_cache(maxsize=None)
def _sf(l: str) -> tuple[str, str]:
    return standard_factorization_encoded(l)


@lru_cache(maxsize=1 << 20)
def _pcoef(l: str, w: str) -> int:
    """<P_l, w>: coefficient of the word w in the standard bracketing of the Lyndon word l."""
    if len(l) == 1:
        return 1 if l == w else 0
    if w < l or sorted(w) != sorted(l):
        return 0
    u, v = _sf(l)
    nu, nv = len(u), len(v)
    r = 0
    a = _pcoef(u, w[:nu])
    if a:
        r += a * _pcoef(v, w[nu:])
    b = _pcoef(v, w[:nv])
    if b:
        r -= b * _pcoef(u, w[nv:])
    return r


@lru_cache(maxsize=64)
def _classes(k: int, m: int) -> dict[str, tuple[str, ...]]:
    """Lyndon words of length m over k letters grouped by multidegree (key: sorted word)."""
    out: dict[str, list[str]] = {}
    for w in lyndon_words_encoded(k, m)[m]:
        out.setdefault("".join(sorted(w)), []).append(w)
    return {key: tuple(v) for key, v in out.items()}


def _solve_class(words: tuple[str, ...], g: Callable[[str], Rational]) -> dict[str, Fraction]:
    """Unitriangular solve on one multidegree class: coordinates c_w from word coefficients g."""
    c: dict[str, Fraction] = {}
    for w in words:
        val = Fraction(g(w))
        for l, cl in c.items():
            if cl:
                p = _pcoef(l, w)
                if p:
                    val -= cl * p
        c[w] = val
    return {w: v for w, v in c.items() if v}


def lyndon_coordinates_encoded(k: int, degrees, g: Callable[[str], Rational]) -> dict[str, Fraction]:
    """Lyndon coordinates ``{encoded Lyndon word: Fraction}`` (non-zero only) of the Lie
    element over ``k`` letters whose coefficient on an encoded word ``w`` is ``g(w)``, for the
    given degrees: the unitriangular solve of the module docstring, class by class. The engine of
    :func:`lyndon_coordinates` (and of :mod:`.bch_series`, :mod:`.magnus_series`) on encoded
    words (:mod:`.words`), without checks."""
    out: dict[str, Fraction] = {}
    for m in degrees:
        for words in _classes(k, m).values():
            out.update(_solve_class(words, g))
    return out


#: the most Lyndon coordinates (all degrees up to the one asked for) a series computes from its
#: word coefficients: ``bch_multi(2, 14)`` has 2538 (about 2.5 s), ``bch_multi(2, 16)`` 8800 (33 s)
MAX_SERIES_WORDS = 4000


def check_series_size(name: str, degree: int, n_letters: int) -> None:
    """``ValueError`` naming ``name`` (the caller's degree argument, already an int) when a series
    over ``n_letters`` letters up to ``degree`` has more than :data:`MAX_SERIES_WORDS` Lyndon
    coordinates; counted by Witt's formula before any coefficient is computed."""
    check_size(name, degree, lyndon_count(n_letters, degree, MAX_SERIES_WORDS), MAX_SERIES_WORDS,
               "MAX_SERIES_WORDS", f"Lyndon coordinates (over {counted(n_letters, 'letter')})")


def lyndon_coordinates(word_coefficient: Callable[[str], Rational] | Mapping[str, Rational],
                       alphabet, max_degree: int, min_degree: int = 1) -> dict[str, Fraction]:
    """Lyndon-basis coordinates of a Lie element from its word coefficients.

    ``word_coefficient`` maps a word (string over ``alphabet``) to its coefficient (callable or a
    dict, missing words = 0); it must be the expansion of a Lie element (else the result is the
    Lie element matching it on Lyndon words only). Coefficients must be exact rationals (int,
    Fraction, sympy/flint rationals; a float raises ``TypeError``). Returns
    ``{lyndon word: Fraction}`` (non-zero entries) for degrees ``min_degree..max_degree``.
    ``ValueError`` for degrees < 1 or a bad alphabet."""
    letters = check_alphabet(alphabet)
    max_degree = check_int("max_degree", max_degree)
    min_degree = check_int("min_degree", min_degree)
    check_series_size("max_degree", max_degree, len(letters))
    if isinstance(word_coefficient, Mapping):
        table = dict(word_coefficient)
        fn = lambda w: table.get(w, 0)  # noqa: E731
    elif callable(word_coefficient):
        fn = word_coefficient
    else:
        raise TypeError("word_coefficient must be a callable word -> coefficient or a dict")

    def g(w: str) -> Fraction:
        word = decode(w, letters)
        return as_fraction(fn(word), f"word_coefficient({word!r})")  # exact: no floats

    res = lyndon_coordinates_encoded(len(letters), range(min_degree, max_degree + 1), g)
    return {decode(w, letters): v for w, v in res.items()}


def pairing(lyndon_word: str, word: str, alphabet) -> int:
    """``<P_l, w>``: the (integer) coefficient of ``word`` in the standard bracketing of the Lyndon
    word ``l``."""
    letters = check_alphabet(alphabet)
    l, w = encode(lyndon_word, letters), encode(word, letters)
    if not is_lyndon_encoded(l):
        raise ValueError(f"lyndon_word must be a Lyndon word, got {lyndon_word!r}")
    if len(l) != len(w):
        return 0
    return _pcoef(l, w)


@lru_cache(maxsize=None)
def lyndon_bracket_encoded(k: int, a: str, b: str) -> tuple[tuple[str, int], ...]:
    """Lyndon coordinates of ``[P_a, P_b]`` for encoded Lyndon words ``a < b`` over ``k``
    letters, as ``((word, int), ...)`` (cached; :func:`lyndon_bracket` without checks)."""
    if a == b:
        return ()
    na, nb = len(a), len(b)

    def g(w: str) -> int:
        r = 0
        x = _pcoef(a, w[:na])
        if x:
            r += x * _pcoef(b, w[na:])
        y = _pcoef(b, w[:nb])
        if y:
            r -= y * _pcoef(a, w[nb:])
        return r

    key = "".join(sorted(a + b))
    words = _classes(k, na + nb).get(key, ())
    return tuple((w, int(v)) for w, v in _solve_class(words, g).items())


def lyndon_bracket(a: str, b: str, alphabet) -> dict[str, int]:
    """Lyndon coordinates of ``[P_a, P_b]`` for Lyndon words a, b (integers)."""
    letters = check_alphabet(alphabet)
    ia, ib = encode(a, letters), encode(b, letters)
    for name, w in (("a", ia), ("b", ib)):
        if not is_lyndon_encoded(w):
            raise ValueError(f"{name} must be a Lyndon word over {''.join(letters)!r}")
    return {decode(w, letters): v for w, v in lyndon_bracket_encoded(len(letters), ia, ib)}


# ----------------------------------------------------------------------------------------------
# matrix evaluation
# ----------------------------------------------------------------------------------------------

def _matrix_kind(M, name: str = "matrices"):
    """``(kind, n)`` of one matrix; errors name ``name``."""
    import numpy as np

    if isinstance(M, np.ndarray):
        if M.ndim != 2 or M.shape[0] != M.shape[1]:
            raise ValueError(f"{name} must be square 2-D arrays, got shape {M.shape}")
        if M.shape[0] == 0:
            raise ValueError(f"{name} must be at least 1x1, got a 0x0 array")
        if M.dtype == object:
            from .linalg import check_number

            for x in M.flat:
                check_number(x, name)
            return "object", M.shape[0]
        if not np.issubdtype(M.dtype, np.number):
            raise TypeError(f"{name}: matrix dtype {M.dtype} is not numeric")
        if not np.all(np.isfinite(M)):
            raise ValueError(f"{name} must be finite (NaN/inf found)")
        return "numpy", M.shape[0]
    import mpmath
    import sympy

    for kind, cls in (("mpmath", mpmath.matrix), ("sympy", sympy.MatrixBase)):
        if isinstance(M, cls):
            if M.rows != M.cols or M.rows == 0:
                raise ValueError(f"{name} must be square, got {M.rows}x{M.cols}")
            return kind, M.rows
    raise TypeError(f"{name}: unsupported matrix type {type(M).__name__} (numpy array, sympy or "
                    f"mpmath matrix)")


def _scalar(c: Fraction, kind: str):
    if kind == "numpy":
        return float(c)
    if kind == "mpmath":
        import mpmath

        return mpmath.mpf(c.numerator) / c.denominator
    if kind == "sympy":
        import sympy

        return sympy.Rational(c.numerator, c.denominator)
    return c


def check_matrices(matrices: Mapping[str, object], letters: tuple[str, ...], name: str = "matrices"):
    """``(kind, n)`` of the matrices ``{letter: matrix}`` for ``letters``: ``kind`` one of
    ``"numpy"``, ``"object"``, ``"sympy"``, ``"mpmath"``, all ``n x n``. ``ValueError`` for a
    missing letter, mixed kinds or sizes, non-square or non-finite matrices; ``TypeError`` for
    an unsupported matrix type; every message names ``name`` (the caller's argument)."""
    if not isinstance(matrices, Mapping):
        raise TypeError(f"{name} must be a dict {{letter: matrix}}")
    missing = [a for a in letters if a not in matrices]
    if missing:
        raise ValueError(f"{name}: no matrix for letters {missing}")
    kinds = {a: _matrix_kind(matrices[a], name) for a in letters}
    if len({k for k, _ in kinds.values()}) != 1:
        raise ValueError(f"{name} must all be of one type, got {sorted({k for k, _ in kinds.values()})}")
    sizes = {n for _, n in kinds.values()}
    if len(sizes) != 1:
        raise ValueError(f"{name} must all have the same size, got sizes {sorted(sizes)}")
    return next(iter(kinds.values()))


def numpy_dtype(mats) -> type:
    """complex128 when any numpy matrix is complex (so no imaginary part is dropped), else
    float64."""
    import numpy as np

    return np.complex128 if any(np.iscomplexobj(M) for M in mats) else np.float64


def _matmul(A, B, kind):
    return A @ B if kind in ("numpy", "object") else A * B


def evaluate_lyndon(coefficients: Mapping[str, Fraction], alphabet, matrices: Mapping[str, object]):
    """``Σ_w c_w P_w(X)`` for Lyndon coordinates ``coefficients`` and letter matrices ``matrices``
    (``P_w`` evaluated recursively with ``[A, B] = AB - BA``, memoised over sub-brackets).
    Returns a matrix of the input type (float64 for real numpy input, complex128 if a numpy
    matrix is complex). Raises ``ValueError`` for a missing letter, non-square / 0x0 / mismatched
    matrices or NaN/inf, ``TypeError`` for unsupported or mixed matrix types."""
    import numpy as np

    letters = check_alphabet(alphabet)
    kind, n = check_matrices(matrices, letters)
    base = {}
    dt = numpy_dtype([matrices[a] for a in letters]) if kind == "numpy" else None
    for i, a in enumerate(letters):
        M = matrices[a]
        if kind == "numpy":
            M = np.asarray(M, dtype=dt)
        base[chr(0x100 + i)] = M
    memo: dict[str, object] = dict(base)

    def P(l: str):
        r = memo.get(l)
        if r is None:
            u, v = _sf(l)
            A, B = P(u), P(v)
            r = _matmul(A, B, kind) - _matmul(B, A, kind)
            memo[l] = r
        return r

    total = base[chr(0x100)] * 0
    for w, c in coefficients.items():
        if c:
            total = total + P(encode(w, letters)) * _scalar(Fraction(c), kind)
    return total


# ----------------------------------------------------------------------------------------------
# the LiePolynomial object
# ----------------------------------------------------------------------------------------------

def as_fraction(v, name: str) -> Fraction:
    """An exact rational coefficient (:func:`~seqtheory.theory.contract.check_exact`: int,
    Fraction, sympy / python-flint rationals, Decimal) as a ``Fraction``; ``TypeError`` naming
    ``name`` for a bool, a float or a non-rational."""
    return check_exact(name, v)


class LyndonCoefficients(dict):
    """The Lyndon coordinates of a Lie polynomial, ``{Lyndon word: Fraction}``: the non-zero ones
    are the dict's items (ordered by length, then lexicographically); looking up any other Lyndon
    word over the alphabet gives ``Fraction(0)`` (the basis element ``P_w`` is absent), within
    the degree the series is known to (``max_degree``; beyond it the coefficient is unknown:
    ``KeyError``). A key that is not a Lyndon word over the alphabet is a ``KeyError`` saying so
    (``"yx"`` over ``x < y``: the basis is indexed by Lyndon words)."""

    def __init__(self, items: Mapping[str, Fraction], letters: tuple[str, ...],
                 max_degree: int | None = None) -> None:
        super().__init__(items)
        self.letters, self.max_degree = letters, max_degree

    def __missing__(self, word):
        order = " < ".join(self.letters)
        if not isinstance(word, str) or not word or any(a not in self.letters for a in word) \
                or not is_lyndon_encoded(encode(word, self.letters)):
            raise KeyError(f"{word!r} is not a Lyndon word over {order} (the coordinates are "
                           f"indexed by Lyndon words)")
        if self.max_degree is not None and len(word) > self.max_degree:
            raise KeyError(f"{word!r} has degree {len(word)}, beyond the truncation degree "
                           f"{self.max_degree}: its coefficient is not computed")
        return Fraction(0)

    def get(self, word, default=None):
        try:
            return self[word]
        except KeyError:
            return default


class LiePolynomial:
    """An element of the free Lie algebra over an ordered alphabet, in exact Lyndon coordinates.

    ``LiePolynomial({"x": 1, "y": 1, "xy": Fraction(1, 2)}, "xy")`` is ``x + y + ½[x, y]``.
    Coordinates are Fractions; keys must be Lyndon words (``ValueError`` otherwise).
    """

    __slots__ = ("_letters", "_c")

    def __init__(self, coefficients: Mapping[str, object], alphabet):
        self._letters = check_alphabet(alphabet)
        c: dict[str, Fraction] = {}
        check_instance("coefficients", coefficients, Mapping, "a dict {Lyndon word: coefficient}")
        for w, v in coefficients.items():
            iw = encode(w, self._letters)
            if not is_lyndon_encoded(iw):
                raise ValueError(f"coefficients: key {w!r} is not a Lyndon word over {''.join(self._letters)!r}")
            f = as_fraction(v, f"coefficients[{w!r}]")
            if f:
                c[w] = f
        self._c = dict(sorted(c.items(), key=lambda kv: (len(kv[0]), encode(kv[0], self._letters))))

    # -- construction ---------------------------------------------------------------------------
    @classmethod
    def from_word_coefficients(cls, word_coefficient, alphabet, max_degree: int, min_degree: int = 1):
        """The Lie polynomial whose word coefficients (degrees min..max) are given (callable or
        dict); see :func:`lyndon_coordinates`."""
        return cls(lyndon_coordinates(word_coefficient, alphabet, max_degree, min_degree), alphabet)

    @classmethod
    def letter(cls, a: str, alphabet) -> "LiePolynomial":
        return cls({a: 1}, alphabet)

    # -- access ---------------------------------------------------------------------------------
    @property
    def alphabet(self) -> tuple[str, ...]:
        return self._letters

    def lyndon_coefficients(self) -> "LyndonCoefficients":
        """``{Lyndon word: Fraction}`` of the non-zero coordinates, ordered by length then
        lexicographically (a :class:`LyndonCoefficients` dict: looking up a Lyndon word whose
        coefficient is zero gives ``Fraction(0)``, a word that is not a Lyndon word over the
        alphabet is a ``KeyError`` saying so)."""
        return LyndonCoefficients(self._c, self._letters, self._known_degree())

    def _known_degree(self) -> int | None:
        """The highest degree whose coordinates are all known (``None``: every degree)."""
        return None

    @property
    def degree(self) -> int:
        """The highest degree with a non-zero coordinate (0 for the zero polynomial)."""
        return max((len(w) for w in self._c), default=0)

    def homogeneous_component(self, m: int) -> "LiePolynomial":
        """The terms of degree ``m >= 1``."""
        m = check_int("m", m)
        return LiePolynomial({w: v for w, v in self._c.items() if len(w) == m}, self._letters)

    def truncate(self, c: int) -> "LiePolynomial":
        """Terms of degree <= c (``c >= 0``)."""
        c = check_int("c", c, 0)
        return LiePolynomial({w: v for w, v in self._c.items() if len(w) <= c}, self._letters)

    def nonzero_per_degree(self) -> dict[int, int]:
        out: dict[int, int] = {}
        for w in self._c:
            out[len(w)] = out.get(len(w), 0) + 1
        return dict(sorted(out.items()))

    def common_denominators(self) -> dict[int, int]:
        """Per degree, the lcm of the denominators of the non-zero coordinates."""
        from math import lcm

        out: dict[int, int] = {}
        for w, v in self._c.items():
            out[len(w)] = lcm(out.get(len(w), 1), v.denominator)
        return dict(sorted(out.items()))

    def word_coefficient(self, word: str) -> Fraction:
        """Coefficient of ``word`` in the associative expansion ``Σ c_l P_l``."""
        iw = encode(word, self._letters)
        if not iw:
            return Fraction(0)
        key = sorted(iw)
        total = Fraction(0)
        for w, v in self._c.items():
            if len(w) == len(iw):
                il = encode(w, self._letters)
                if sorted(il) == key:
                    p = _pcoef(il, iw)
                    if p:
                        total += v * p
        return total

    def expand(self) -> dict[str, Fraction]:
        """The associative expansion ``{word: coefficient}`` (non-zero only). Exponential in the
        degree; meant for small degrees."""
        out: dict[str, Fraction] = {}
        for w, v in self._c.items():
            for u, p in _expand_internal(encode(w, self._letters)).items():
                du = decode(u, self._letters)
                out[du] = out.get(du, Fraction(0)) + v * p
        return {u: v for u, v in out.items() if v}

    # -- algebra --------------------------------------------------------------------------------
    def _same(self, other) -> None:
        if not isinstance(other, LiePolynomial):
            raise TypeError(f"expected a LiePolynomial, got {type(other).__name__}")
        if other._letters != self._letters:
            raise ValueError(f"alphabets differ: {self._letters} vs {other._letters}")

    def __add__(self, other):
        self._same(other)
        c = dict(self._c)
        for w, v in other._c.items():
            c[w] = c.get(w, Fraction(0)) + v
        return LiePolynomial(c, self._letters)

    def __neg__(self):
        return LiePolynomial({w: -v for w, v in self._c.items()}, self._letters)

    def __sub__(self, other):
        return self + (-other)

    def __mul__(self, s):
        f = as_fraction(s, "scalar")
        return LiePolynomial({w: v * f for w, v in self._c.items()}, self._letters)

    __rmul__ = __mul__

    def __eq__(self, other):
        return isinstance(other, LiePolynomial) and other._letters == self._letters and other._c == self._c

    def __hash__(self):  # pragma: no cover - rarely used
        return hash((self._letters, tuple(self._c.items())))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self._repr_terms()})"

    def _repr_terms(self) -> str:
        terms = list(self._c.items())
        shown = " + ".join(f"({v})*{w}" for w, v in terms[:8])
        more = f" + ... ({len(terms)} terms)" if len(terms) > 8 else ""
        return f"{shown or '0'}{more}"

    def bracket(self, other: "LiePolynomial", max_degree: int | None = None) -> "LiePolynomial":
        """``[self, other]`` in Lyndon coordinates (terms above ``max_degree`` dropped)."""
        max_degree = check_optional_int("max_degree", max_degree)
        self._same(other)
        k = len(self._letters)
        out: dict[str, Fraction] = {}
        enc = {w: encode(w, self._letters) for w in set(self._c) | set(other._c)}
        for a, va in self._c.items():
            for b, vb in other._c.items():
                if max_degree is not None and len(a) + len(b) > max_degree:
                    continue
                ia, ib = enc[a], enc[b]
                if ia == ib:
                    continue
                if ia < ib:
                    terms, sign = lyndon_bracket_encoded(k, ia, ib), 1
                else:
                    terms, sign = lyndon_bracket_encoded(k, ib, ia), -1
                f = va * vb * sign
                for w, cw in terms:
                    out[w] = out.get(w, Fraction(0)) + f * cw
        return LiePolynomial({decode(w, self._letters): v for w, v in out.items()}, self._letters)

    def substitute(self, values: Mapping[str, "LiePolynomial"], max_degree: int) -> "LiePolynomial":
        """Replace each letter by a Lie polynomial (all over one common alphabet), truncating at
        ``max_degree``: ``Σ c_l P_l(values)``."""
        max_degree = check_int("max_degree", max_degree)
        check_instance("values", values, Mapping, "a dict {letter: LiePolynomial}")
        vals = dict(values)
        missing = [a for a in self._letters if a not in vals]
        if missing:
            raise ValueError(f"values: no polynomial for letters {missing}")
        target = next(iter(vals.values()))._letters
        memo: dict[str, LiePolynomial] = {}
        for i, a in enumerate(self._letters):
            if vals[a]._letters != target:
                raise ValueError("values must share one alphabet")
            memo[chr(0x100 + i)] = vals[a].truncate(max_degree)

        def P(l: str) -> LiePolynomial:
            r = memo.get(l)
            if r is None:
                u, v = _sf(l)
                r = P(u).bracket(P(v), max_degree)
                memo[l] = r
            return r

        total = LiePolynomial({}, target)
        for w, c in self._c.items():
            total = total + P(encode(w, self._letters)) * c
        return total

    def evaluate(self, *matrices):
        """Evaluate at matrices, given one per letter in alphabet order (``Z.evaluate(X, Y)`` for
        the alphabet ``"xy"``) or as one dict ``{letter: matrix}`` (``Z.evaluate({"x": X, "y":
        Y})``); numpy float64 / complex / object arrays, sympy or mpmath matrices, all square and
        of one size and type. Returns a matrix of that type (see :func:`evaluate_lyndon`).
        Raises ``TypeError`` when the number of positional matrices is not the number of
        letters, ``ValueError`` for non-square or mismatched matrices."""
        if len(matrices) == 1 and isinstance(matrices[0], Mapping):
            by_letter = matrices[0]
        elif len(matrices) == len(self._letters):
            by_letter = dict(zip(self._letters, matrices))
        else:
            raise TypeError(f"matrices: evaluate takes one matrix per letter of the alphabet "
                            f"{''.join(self._letters)!r}, in that order ({len(self._letters)}), or "
                            f"one dict {{letter: matrix}}; got {counted(len(matrices), 'argument')}")
        return evaluate_lyndon(self._c, self._letters, by_letter)


@lru_cache(maxsize=4096)
def _expand_internal(l: str) -> dict[str, int]:
    if len(l) == 1:
        return {l: 1}
    u, v = _sf(l)
    eu, ev = _expand_internal(u), _expand_internal(v)
    out: dict[str, int] = {}
    for a, x in eu.items():
        for b, y in ev.items():
            out[a + b] = out.get(a + b, 0) + x * y
            out[b + a] = out.get(b + a, 0) - x * y
    return {w: c for w, c in out.items() if c}


def log_word_coefficient(w: str, coefficient: Callable[[str], Fraction], memo: dict) -> Fraction:
    """Coefficient of the (encoded, non-empty) word ``w`` in ``log G`` for a group-like series
    ``G = 1 + Σ_u ⟨G, u⟩ u`` of the free associative algebra, exactly.

    ``coefficient(u)`` returns ``⟨G, u⟩`` for a non-empty word ``u``; values are memoised in
    ``memo`` (keyed by the subword, so one memo may serve many words of the same series). Uses
    ``log G = Σ_k (−1)^{k+1}/k (G − 1)^k`` with ``⟨(G − 1)^k, w[:j]⟩`` accumulated over the
    splittings of ``w`` (dynamic programme, O(|w|³) coefficient look-ups)."""
    n = len(w)
    total = Fraction(0)
    prev = [Fraction(0)] * (n + 1)
    prev[0] = Fraction(1)
    for k in range(1, n + 1):
        cur = [Fraction(0)] * (n + 1)
        for j in range(k, n + 1):
            acc = Fraction(0)
            for i in range(k - 1, j):
                if prev[i]:
                    key = w[i:j]
                    h = memo.get(key)
                    if h is None:
                        h = memo[key] = coefficient(key)
                    if h:
                        acc += prev[i] * h
            cur[j] = acc
        if cur[n]:
            total += Fraction((-1) ** (k + 1), k) * cur[n]
        prev = cur
    return total

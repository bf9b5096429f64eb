"""Exact Baker-Campbell-Hausdorff series in the Lyndon basis.

Conventions (SPEC §2): ``[A, B] = AB - BA``; ``Z(X, Y) = log(e^X e^Y) = X + Y + ½[X,Y] +
(1/12)([X,[X,Y]] + [Y,[Y,X]]) - (1/24)[Y,[X,[X,Y]]] + …`` with letters ``x < y`` standing for X, Y;
the *symmetric* series is ``log(e^{X/2} e^Y e^{X/2})``; the multi-factor series (discrete Magnus
expansion of a token sequence) is ``log(e^{X_T} ⋯ e^{X_1})`` -- the later factor first.

Method.
1. Word (Goldberg) coefficients. For ``log(e^x e^y)`` the coefficient of a word with runs
   ``r_1, …, r_k`` is ``∫_0^1 t^a (t-1)^b G_{r_1}(t) ⋯ G_{r_k}(t) dt`` with ``G_1 = 1``,
   ``r G_r = d/dt[t(t-1) G_{r-1}]``, ``(a, b) = (⌊k/2⌋, ⌊(k-1)/2⌋)`` for words starting with x
   and swapped for y (K. Goldberg, Duke Math. J. 23 (1956) 13-21). For any other product of
   exponentials the coefficient is computed by the exact dynamic programme
   ``<log G, w> = Σ_k (-1)^{k+1}/k Σ_{w = w_1⋯w_k} Π <G - 1, w_i>``.
2. Lyndon coordinates. ``P_l = l + Σ_{u>l} <P_l, u> u`` (Reutenauer, *Free Lie Algebras*,
   Thm 5.1), so on the Lyndon words of one multidegree the word coefficients ``g`` and the Lyndon
   coordinates ``c`` satisfy the unitriangular integer system ``g = A c``,
   ``A[w, l] = <P_l, w>`` (the approach of F. Casas and A. Murua, J. Math. Phys. 50, 033513
   (2009), arXiv:0810.2656, and H. Hofstätter, arXiv:2012.03818, appendix).
   ``A`` is block diagonal in the multidegree classes and unitriangular in lexicographic order
   as a whole, so a union of classes is one system too.
   For two letters this module has a vectorised engine. Per group of classes (one class if
   large, small ones merged), the pairings ``<P_l, w>`` are evaluated by a straight-line
   programme in the spirit of H. Hofstätter's C program: nodes ``(i, p) = <P_i, w[p:p+|i|]>``
   with ``(i, p) = (a, p)(b, p+|a|) - (b, p)(a, p+|b|)`` for ``P_i = [P_a, P_b]``, one numpy step
   per length on all words of a block at once (int16 up to length 15, int32 beyond), and
   ``l = x^k q`` read as the node ``(q, k)`` on words starting with ``x^k``. The solve is a
   blocked forward substitution modulo three 31-bit primes (``A`` is unimodular, so ``c·D`` is
   an integer vector for ``D`` the common denominator of ``g``): earlier blocks by exact float64
   products, diagonal sub-blocks by their exact integer inverses (int64, exactness certified by
   a bound, else column by column); the integers are rebuilt from two primes by Garner's CRT
   and certified by the third together with a size bound (``A x ≡ D g`` modulo all three and
   ``|A x - D g|`` below their product, so ``A x = D g``); where that fails, two more primes at a
   time are solved for (seven and still uncertified: ``ArithmeticError``). The groups
   can be solved in forked worker processes (``$SEQTHEORY_BCH_WORKERS``, default 1 =
   no fork).
3. Only the odd degrees of ``Z = log(e^X e^Y)`` are solved for. With
   ``S = log(e^{X/2} e^Y e^{X/2}) = e^{-ad_X/2} Z`` and ``S(-X,-Y) = -S(X,Y)`` (S has only odd
   degrees), ``Z_even = tanh(ad_X/2) Z_odd`` and ``S = sech(ad_X/2) Z_odd``; in the Lyndon basis
   ``ad_X P_q = P_{xq}`` for every Lyndon word ``q != x``, so both are exact sums over the
   chains ``w = x^m q`` (the even-degree relation is the one used by H. Hofstätter's C program
   ``bch``, https://github.com/HaraldHofstaetter/BCH). Timings against that program:
   ``benchmarks/README_bch.md``.

Results are cached on disk (:mod:`.series_cache`), keyed by kind and degree.
"""
from __future__ import annotations

import time
from fractions import Fraction
from functools import lru_cache
from itertools import groupby
from math import lcm
from typing import NamedTuple, Sequence

import numpy as np

from ._checks import check_int
from .contract import check_bool
from ._messages import counted
from .lie_poly import (LiePolynomial, as_fraction, check_series_size, log_word_coefficient,
                       lyndon_coordinates_encoded)
from .words import check_alphabet, decode, encode

__all__ = ["BCHSeries", "bch", "bch_multi", "goldberg_coefficient", "log_product_word_coefficient",
           "lyndon_coordinates_two_letters", "BCH_KINDS"]

BCH_KINDS = ("classical", "symmetric")


# ----------------------------------------------------------------------------------------------
# word coefficients
# ----------------------------------------------------------------------------------------------

@lru_cache(maxsize=None)
def _goldberg_G(r: int):
    import flint

    if r == 1:
        return flint.fmpq_poly([1])
    t_t1 = flint.fmpq_poly([0, -1, 1])  # t(t-1)
    return (t_t1 * _goldberg_G(r - 1)).derivative() / r


@lru_cache(maxsize=None)
def _goldberg_runs(first_is_x: bool, runs: tuple[int, ...]):
    import flint

    k = len(runs)
    a, b = (k // 2, (k - 1) // 2) if first_is_x else ((k - 1) // 2, k // 2)
    p = flint.fmpq_poly([0, 1]) ** a * flint.fmpq_poly([-1, 1]) ** b
    for r in sorted(runs):
        p = p * _goldberg_G(r)
    q = p.integral()
    return q(1) - q(0)


def goldberg_coefficient(word: str, alphabet="xy") -> Fraction:
    """Coefficient of ``word`` in ``log(e^x e^y)`` (Goldberg 1956), exact. ``alphabet`` names the
    two letters (first = X)."""
    letters = check_alphabet(alphabet)
    if len(letters) != 2:
        raise ValueError("goldberg_coefficient needs a two-letter alphabet")
    w = encode(word, letters)
    if not w:
        return Fraction(0)
    v = _goldberg_runs(w[0] == chr(0x100), tuple(len(list(g)) for _, g in groupby(w)))
    return Fraction(int(v.p), int(v.q))


def _goldberg_internal(w: str) -> Fraction:
    v = _goldberg_runs(w[0] == chr(0x100), tuple(len(list(g)) for _, g in groupby(w)))
    return Fraction(int(v.p), int(v.q))


def _product_coefficient(u: str, factors: tuple[tuple[str, Fraction], ...]) -> Fraction:
    """<Π_i exp(s_i a_i), u> (factors left to right): sum over splittings of u into runs."""
    # dp[j] = coefficient of u[:j] in the product of the factors processed so far
    n = len(u)
    dp = [Fraction(0)] * (n + 1)
    dp[0] = Fraction(1)
    for a, s in factors:
        new = list(dp)
        for i in range(n):
            if dp[i] == 0:
                continue
            term = dp[i]
            j = i
            while j < n and u[j] == a:
                j += 1
                term = term * s / (j - i)
                new[j] += term
        dp = new
    return dp[n]


def _log_product_internal(w: str, factors: tuple[tuple[str, Fraction], ...], memo: dict) -> Fraction:
    return log_word_coefficient(w, lambda u: _product_coefficient(u, factors), memo)


def log_product_word_coefficient(word: str, factors: Sequence[tuple[str, object]], alphabet) -> Fraction:
    """Coefficient of ``word`` in ``log(exp(s_1 a_1) exp(s_2 a_2) ⋯)`` for ``factors =
    [(a_1, s_1), (a_2, s_2), …]`` listed left to right (letters of ``alphabet``, exact rational
    scales: a float scale raises ``TypeError``; a malformed factor or a letter outside the
    alphabet ``ValueError``). Exact dynamic programme over splittings (see module docstring)."""
    letters = check_alphabet(alphabet)
    fs = []
    for t, f in enumerate(factors):
        if not (isinstance(f, (tuple, list)) and len(f) == 2):
            raise ValueError(f"factors[{t}] must be a pair (letter, scale), got {f!r}")
        a, sc = f
        if not isinstance(a, str) or len(a) != 1:
            raise ValueError(f"factors[{t}]: {a!r} is not a single letter of {alphabet!r}")
        fs.append((encode(a, letters), as_fraction(sc, f"factors[{t}] scale")))
    fs = tuple(fs)
    w = encode(word, letters)
    return _log_product_internal(w, fs, {}) if w else Fraction(0)


# ----------------------------------------------------------------------------------------------
# the vectorised two-letter engine
# ----------------------------------------------------------------------------------------------

def _primes(count: int) -> list[int]:
    """The ``count`` largest primes below 2^31 (flint's primality test)."""
    import flint

    out, p = [], 2 ** 31
    while len(out) < count:
        p -= 1
        if flint.fmpz(p).is_prime():
            out.append(p)
    return out


_PRIMES = None
#: primes of the multi-modular solve: the first count, then more where the certificate of
#: :meth:`_TwoLetterEngine._crt` fails (two reconstruct |x| < 2^61, the third certifies; the
#: CRT integers reach 51 bits at degree 19 and 59 bits at degree 21, the certificate's bound
#: ``n max|A| max|x| + max|D g|`` below 2^73 and 2^84, the product of three primes above 2^92),
#: then two more at a time
_PRIME_COUNTS = (3, 5, 7)
#: Largest degree of the vectorised engine. Bounds used: pairings ``|<P_l, w>| <= 2^(len l - 1)``
#: (the expansion of a bracket of length m has at most 2^(m-1) signed terms) must fit in int32;
#: the column-by-column fallback sums at most 32 products ``c * <P_l, w>`` (``c < 2^31``) in
#: int64, and the float64 products are split so that every partial sum stays below 2^53 (exact).
_FAST_MAX_DEGREE = 23
#: the dict-based reference solver is a cross-check: O(N^3) per word, hours beyond this degree
_GENERIC_MAX_DEGREE = 16
_I = np.int32  # engine integers: codes < 2^23, |<P_l, w>| <= 2^22, indices < 2^31 (degree <= 23)


class _Program(NamedTuple):
    """A straight-line programme for the pairings of a group of Lyndon words of one length
    (:meth:`_TwoLetterEngine._program`): ``size`` nodes; the letter, position and first needing
    row of each leaf node; one step ``(start, born, a1, b2, b1, a2)`` per length (node
    ``start + t`` is ``X[a1[t]] X[b2[t]] - X[b1[t]] X[a2[t]]``, first needed by row ``born[t]``,
    ascending); the root node and chain length of each basis element; the word length ``m``;
    ``short``: the nodes before it have length <= ``_INT16_LEN`` (int16 arithmetic suffices)."""
    size: int
    leaf_letter: np.ndarray
    leaf_pos: np.ndarray
    leaf_born: np.ndarray
    steps: list
    roots: np.ndarray
    chain: np.ndarray
    m: int
    short: int
    deep: np.ndarray  # the rows with chain >= 2 (ascending)
    deep_by_chain: list  # (k, the rows with chain k, ascending) for each chain length k >= 2


#: node lengths evaluated in int16: ``|<P_i, u>| <= 2^(|i| - 1) <= 2^14`` and each of its two
#: products is at most ``2^(|i| - 2)``, within int16 for ``|i| <= 15``
_INT16_LEN = 15
#: bits of the row field in the sort keys of :meth:`_TwoLetterEngine._node_levels` (node
#: ``index << 5 | position`` below 2^40 above it): a programme has fewer than 2^20 basis elements
#: (one length's Lyndon words; 364722 at length 23)
_ROW_BITS = 20


class _TwoLetterEngine:
    """Lyndon words over {0 < 1} up to length N as bit codes (engine order: by length, then
    lexicographic), their standard factorisations and chains of left factors ``x``, the
    straight-line programmes of the pairings ``<P_l, w>`` and the blocked modular solve."""

    def __init__(self, N: int):
        self.N = N
        # Lyndon words by length, ascending codes (= lexicographic order) within a length: a word
        # of length n is Lyndon iff its n-bit code is strictly below all its proper rotations
        # (candidates: x...y; each rotation test drops the failures before the next)
        lens, codes = [np.ones(2, _I)], [np.arange(2, dtype=_I)]
        for m in range(2, N + 1):
            sel = np.arange(1, 2 ** (m - 1), 2, dtype=_I)
            mask = _I((1 << m) - 1)
            for j in range(1, m):
                sel = sel[sel < (((sel << j) | (sel >> (m - j))) & mask)]
            lens.append(np.full(sel.size, m, _I))
            codes.append(sel)
        self.LEN = np.concatenate(lens)
        self.CODE = np.concatenate(codes)
        self.KY = np.bitwise_count(self.CODE).astype(_I)
        n = self.CODE.size
        self._words = None
        # standard factorisation w = (u, v): v = the longest proper suffix that is a Lyndon word;
        # words are located by their marker code (1 << length) | code
        pos = np.full(2 ** (N + 1), -1, np.int32)
        pos[(_I(1) << self.LEN) | self.CODE] = np.arange(n, dtype=np.int32)
        left = np.zeros(n, _I)
        right = np.zeros(n, _I)
        for m in range(2, N + 1):
            sel = np.nonzero(self.LEN == m)[0]
            code = self.CODE[sel]
            todo = np.ones(sel.size, bool)
            for j in range(1, m):  # suffix w[j:], longest first
                suf = (1 << (m - j)) | (code & ((1 << (m - j)) - 1))
                hit = todo & (pos[suf] >= 0)
                right[sel[hit]] = pos[suf[hit]]
                left[sel[hit]] = pos[(1 << j) | (code[hit] >> (m - j))]
                todo &= ~hit
        self.LEFT, self.RIGHT = left, right
        # chains w = x^k q of left factors x (engine index 0 is the letter x): k and q per word
        chain, root = np.zeros(n, _I), np.arange(n, dtype=_I)
        todo = np.nonzero((self.LEN > 1) & (left == 0))[0]
        while todo.size:
            chain[todo] += 1
            root[todo] = right[root[todo]]
            todo = todo[(self.LEN[root[todo]] > 1) & (left[root[todo]] == 0)]
        self.CHAIN, self.ROOT = chain, root
        self.LEN64, self.LEFT64, self.RIGHT64 = (v.astype(np.int64) for v in (self.LEN, left, right))
        # number of leading letters x of each word (its code has LEN - LEAD significant bits)
        self.LEAD = self.LEN - np.ceil(np.log2(self.CODE.astype(np.float64) + 1)).astype(_I)

    @property
    def words(self) -> list[str]:
        """The Lyndon words as internal strings (letters chr(0x100) < chr(0x101)), engine order."""
        if self._words is None:
            self._words = self.decode(np.arange(self.CODE.size), (chr(0x100), chr(0x101)))
        return self._words

    def decode(self, idx, letters) -> list[str]:
        """The words of the engine indices ``idx`` spelled with the two ``letters`` (vectorised
        per length: a unicode array of the letters' code points, read back as strings)."""
        idx = np.asarray(idx, np.int64)
        lens = self.LEN[idx]
        order = np.argsort(lens.astype(np.uint8), kind="stable")  # lengths <= 23: radix sort
        lens_s, idx_s = lens[order], idx[order]
        pts = np.array([ord(letters[0]), ord(letters[1])], np.uint32)
        words: list[str] = []
        for m in np.unique(lens_s).tolist():
            at = slice(int(lens_s.searchsorted(m)), int(lens_s.searchsorted(m, "right")))
            bits = (self.CODE[idx_s[at]][:, None] >> np.arange(m - 1, -1, -1, dtype=_I)[None, :]) & 1
            words += np.ascontiguousarray(pts[bits]).view(f"<U{m}").ravel().tolist()
        if idx.size < 2 or (lens[1:] >= lens[:-1]).all():  # already by length (engine order)
            return words
        out = np.empty(idx.size, object)
        out[order] = words
        return out.tolist()

    def fractions(self, num: np.ndarray, den: np.ndarray, letters) -> dict[str, Fraction]:
        """``{word: Fraction}`` of the non-zero coordinates (numerator and denominator arrays over
        the engine indices, as :meth:`coordinates` gives them), in engine order."""
        nz = np.flatnonzero(num != 0)
        return dict(zip(self.decode(nz, letters), map(Fraction, num[nz].tolist(), den[nz].tolist())))

    # -- pairings by a straight-line programme ------------------------------------------------
    def _program(self, cls: np.ndarray) -> _Program:
        """The straight-line programme that evaluates ``<P_l, w>`` for the Lyndon words
        ``l in cls`` (one length ``m``; one or several multidegree classes) on any words ``w`` of
        that length.

        Nodes are pairs ``(i, p)`` standing for ``<P_i, w[p : p + |i|]>``; with the standard
        factorisation ``P_i = [P_a, P_b]`` a node is ``(a, p)(b, p+|a|) - (b, p)(a, p+|b|)``, and a
        letter node is 1 where ``w`` has that letter at ``p``. Every ``l = x^k q`` with ``q`` the end
        of its chain of left factors ``x`` is evaluated as ``(q, k)``, masked by "``w`` starts with
        ``x^k``": ``ad_x^k P_q`` pairs only with words that start with ``x^k``, since a Lyndon word
        of length > 1 ends with ``y``. Nodes are generated top down from these roots, de-duplicated
        per length, and evaluated bottom up, one vectorised step per length. Within a length the
        nodes are ordered by the first basis element that needs them, so the pairings of the first
        ``e`` basis elements need only a prefix of every length (:meth:`pairing_block`)."""
        LEN = self.LEN64
        q, kb = self.ROOT[cls].astype(np.int64), self.CHAIN[cls].astype(np.int64)
        # node code: length << 40 | index << 5 | position (positions < 32, indices < 2^35)
        roots = (LEN[q] << 40) | (q << 5) | kb
        levels = self._node_levels(roots)
        codes = np.concatenate([cur for cur, _, _ in levels])  # sorted: length, index, position
        where = np.empty(codes.size, np.int64)  # code-sorted node -> evaluation row
        orders, births, start = [], [], 0
        for cur, b, _ in levels:  # evaluation order within a length: by first needing row
            order = np.argsort(b, kind="stable")
            where[start + order] = start + np.arange(cur.size)
            orders.append(order)
            births.append(b[order])
            start += cur.size
        leaves = levels[0][0][orders[0]]
        asked = np.concatenate([roots] + [kids.ravel() for _, _, kids in levels[1:]])
        found = np.searchsorted(codes, asked)
        # the evaluation reads the nodes without bounds checks: every looked-up node must exist
        if int(found.max()) >= codes.size or not np.array_equal(codes[found], asked):
            raise RuntimeError("BCH engine: a programme node is missing (internal error)")
        rows = where[found]
        steps, start, off = [], leaves.size, roots.size
        for (cur, _, kids), order, bs in zip(levels[1:], orders[1:], births[1:]):
            idx = rows[off:off + kids.size].reshape(4, cur.size)[:, order]
            steps.append((start, bs, *idx))
            start += cur.size
            off += kids.size
        short = int(np.searchsorted(codes, (_INT16_LEN + 1) << 40))  # codes sorted by length first
        return _Program(int(codes.size), (leaves >> 5) & 1, leaves & 31, births[0], steps,
                        rows[:roots.size], kb, int(LEN[cls[0]]), short, np.flatnonzero(kb >= 2),
                        [(k, np.flatnonzero(kb == k)) for k in np.unique(kb[kb >= 2]).tolist()])

    def _node_levels(self, roots: np.ndarray) -> list:
        """The nodes of a programme, top down from the ``roots`` (node codes; root ``r`` is first
        needed by row ``r``): per length, ascending, ``(codes, first needing row, children)`` with
        the codes sorted, each node once with its smallest row, and the children's codes
        ``(a, p), (b, p+|a|), (b, p), (a, p+|b|)`` as a (4, n) array (``None`` for the letters)."""
        LEN, LEFT, RIGHT = self.LEN64, self.LEFT64, self.RIGHT64
        if roots.size >= 1 << _ROW_BITS:
            raise ValueError(f"a programme has at most 2^{_ROW_BITS} basis elements, got {roots.size}")
        pending: dict[int, list] = {}  # nodes still to expand and their rows, by length
        self._bucket(pending, roots, np.arange(roots.size, dtype=np.int64))
        levels = []
        rmask = (1 << _ROW_BITS) - 1
        for top in range(self.N, 0, -1):
            if top not in pending:
                continue
            key = np.concatenate(pending.pop(top))  # sorted: by node, then by first row, so the
            key.sort()                              # group heads are minimal
            pa = key >> _ROW_BITS
            head = np.empty(pa.size, bool)
            head[0] = True
            np.not_equal(pa[1:], pa[:-1], out=head[1:])
            cur, b = pa[head] | (top << 40), key[head] & rmask
            if top == 1:
                levels.append((cur, b, None))
                break
            i, p = (cur >> 5) & 0x7FFFFFFFF, cur & 31
            a, bb = LEFT[i], RIGHT[i]
            la, lb = LEN[a], LEN[bb]
            # children (a, p), (b, p+|a|), (b, p), (a, p+|b|): the node is X[0] X[1] - X[2] X[3]
            kids = np.stack([(la << 40) | (a << 5) | p, (lb << 40) | (bb << 5) | (p + la),
                             (lb << 40) | (bb << 5) | p, (la << 40) | (a << 5) | (p + lb)])
            levels.append((cur, b, kids))
            self._bucket(pending, kids, b[None, :])
        return levels[::-1]  # ascending length; levels[0] holds the letters

    @staticmethod
    def _bucket(pending: dict, codes: np.ndarray, born: np.ndarray) -> None:
        """Append the nodes ``codes`` (any shape) first needed by the rows ``born`` (broadcast to
        it) to ``pending[length]``, as one int64 key per (node, row): ``index << 5 | position``
        (below 2^40) above the row (``_ROW_BITS``)."""
        key = (((codes & ((1 << 40) - 1)) << _ROW_BITS) | born).ravel()
        lens = (codes >> 40).astype(np.uint8).ravel()  # lengths <= 23: a stable radix sort
        order = np.argsort(lens, kind="stable")
        counts = np.bincount(lens)
        ends = np.cumsum(counts)
        key = key[order]
        for n in np.flatnonzero(counts).tolist():
            e = int(ends[n])
            pending.setdefault(n, []).append(key[e - counts[n]:e])

    def pairing_block(self, prog: _Program, cols: np.ndarray, rows: int | None = None) -> np.ndarray:
        """``M[l, j] = <P_l, w_j>`` (shape ``(rows, len(cols))``; int16 for ``prog.m <= 15``, else
        int32) for the first ``rows`` (default: all) Lyndon words ``l`` of the programme and the
        Lyndon words ``w_j`` of engine indices ``cols`` (length ``prog.m``). Exact:
        ``|<P_l, w>| <= 2^(|l| - 1)``; nodes up to length ``_INT16_LEN`` are evaluated in int16,
        longer ones in int32."""
        rows = prog.roots.size if rows is None else rows
        m = prog.m
        codes = self.CODE[cols]
        n = codes.size
        X = np.empty((prog.short, n), np.int16)
        widest = max([st[1].size for st in prog.steps], default=0)
        u, v = np.empty((widest, n), np.int16), np.empty((widest, n), np.int16)
        mul = np.multiply
        nl = int(np.searchsorted(prog.leaf_born, rows))
        bits = (codes[None, :] >> (m - 1 - prog.leaf_pos[:nl])[:, None].astype(_I)) & 1
        X[:nl] = bits == prog.leaf_letter[:nl, None]
        for s, born, a1, b2, b1, a2 in prog.steps:
            if s >= prog.short and X.dtype == np.int16:  # from here on int32 (u, v: scratch only)
                X32 = np.empty((prog.size, n), _I)
                X32[:prog.short] = X
                X, u, v = X32, np.empty((widest, n), _I), np.empty((widest, n), _I)
            k = int(born.searchsorted(rows))
            if k:  # mode="clip": no buffered copy; the programme's indices are all in range
                out, uk, vk, take = X[s:s + k], u[:k], v[:k], X.take
                mul(take(a1[:k], 0, uk, "clip"), take(b2[:k], 0, vk, "clip"), out=out)
                out -= mul(take(b1[:k], 0, uk, "clip"), take(a2[:k], 0, vk, "clip"), out=uk)
        M = X.take(prog.roots[:rows], 0, mode="clip")
        # rows l = x^k q with k >= 2 pair only with words w that start with x^k (k <= 1: with any)
        deep = prog.deep[:int(prog.deep.searchsorted(rows))]
        lead = self.LEAD[cols]
        if n < 2 or (lead[1:] <= lead[:-1]).all():
            # ascending codes of one length (the solve's blocks): the leading x's never increase
            # along the columns, so the words that start with x^k are a prefix of them
            for k, at in prog.deep_by_chain:
                cut = int(np.count_nonzero(lead >= k))
                if cut < n:
                    M[at[:int(at.searchsorted(rows))], cut:] = 0
        else:
            M[deep] *= lead[None, :] >= prog.chain[deep, None]
        return M

    # -- the solve ----------------------------------------------------------------------------
    def coordinates(self, g_fn, degrees, workers: int = 1, group: int = 384) -> tuple[np.ndarray, np.ndarray]:
        """Lyndon coordinates from word coefficients ``g_fn(internal word)``, as two object arrays
        over all engine indices: integer numerators (0 outside ``degrees``) and denominators
        (one per group of words solved together; 1 outside ``degrees``).

        The system ``g = A c`` of one degree is block diagonal in the multidegree classes
        (``<P_l, w> = 0`` unless ``l`` and ``w`` have the same multidegree) and unitriangular in
        lexicographic order as a whole, so any union of classes, in lexicographic order, can be
        solved as one system: small classes are merged into groups of about ``group`` words (one
        set-up instead of one per class), large ones are solved alone. Groups are independent;
        with ``workers > 1`` they are solved in forked worker processes (largest first), which
        share the engine copy-on-write."""
        global _PRIMES
        if _PRIMES is None or len(_PRIMES) < _PRIME_COUNTS[-1]:
            _PRIMES = _primes(_PRIME_COUNTS[-1])
        tasks = []
        for m in degrees:
            sel = np.nonzero(self.LEN == m)[0]
            ky = self.KY[sel]
            cur: list[np.ndarray] = []
            for k in range(m + 1):
                cls = sel[ky == k]
                if cur and sum(c.size for c in cur) + cls.size > group:
                    tasks.append(np.sort(np.concatenate(cur)))  # ascending = lexicographic
                    cur = []
                if cls.size:
                    cur.append(cls)
            if cur:
                tasks.append(np.sort(np.concatenate(cur)))
        tasks.sort(key=len, reverse=True)
        num = np.zeros(self.CODE.size, object)
        den = np.ones(self.CODE.size, object)
        import multiprocessing as mp

        if workers > 1 and len(tasks) > 1 and "fork" in mp.get_all_start_methods():
            _WORK["engine"], _WORK["g"] = self, g_fn
            try:
                with mp.get_context("fork").Pool(workers) as pool:
                    results = list(pool.imap_unordered(_group_task, tasks))
            finally:
                _WORK.clear()
        else:
            results = [self.group_coordinates(idx, g_fn) for idx in tasks]
        for idx, vals, D in results:
            num[idx] = vals
            den[idx] = D
        return num, den

    def group_coordinates(self, cls: np.ndarray, g_fn) -> tuple[np.ndarray, np.ndarray, int]:
        """Coordinates of the Lyndon words ``cls`` (engine indices, ascending, one length, a union
        of multidegree classes): the indices, integer numerators (object array) and their common
        denominator."""
        m = int(self.LEN[cls[0]])
        if g_fn is _goldberg_internal:
            g, inv = self._goldberg_class(cls, m)
        else:
            g, inv = [Fraction(g_fn(self.words[i])) for i in cls], np.arange(cls.size)
        D = 1
        for x in g:
            D = lcm(D, x.denominator)
        G = [x.numerator * (D // x.denominator) for x in g]
        c, done = np.zeros((0, cls.size), np.int64), 0
        for count in _PRIME_COUNTS:  # more primes only where the certificate fails
            ps = _PRIMES[done:count]
            r = np.array([[x % p for x in G] for p in ps], np.int64)[:, inv]
            cs, amax = self._solve_mod(cls, r, np.array(ps, np.int64)[:, None])
            c, done = np.vstack([c, cs]), count
            # |(A x - D g)_w| <= n max|A| max|x| + max|D g|
            x = self._crt(c, _PRIMES[:count], (cls.size * amax, max(map(abs, G), default=0)))
            if x is not None:
                return cls, x, D
        raise ArithmeticError(f"multi-modular BCH solve not certified with {done} primes "
                              f"(coefficients beyond the CRT range)")

    def _goldberg_class(self, cls: np.ndarray, m: int) -> tuple[list[Fraction], np.ndarray]:
        """Goldberg coefficients of the words ``cls`` (length m) as a list over their distinct
        (first letter, multiset of run lengths) keys, and each word's key index: the coefficient
        depends on nothing else (module docstring)."""
        n = cls.size
        bits = (self.CODE[cls][:, None] >> np.arange(m - 1, -1, -1, dtype=_I)[None, :]) & 1
        rid = np.zeros((n, m), np.int64)
        if m > 1:
            rid[:, 1:] = np.cumsum(bits[:, 1:] != bits[:, :-1], axis=1)
        rows = np.arange(n, dtype=np.int64)[:, None]
        runs = np.bincount((rows * m + rid).ravel(), minlength=n * m).reshape(n, m)
        hist = np.bincount((rows * (m + 1) + runs).ravel(), minlength=n * (m + 1)).reshape(n, m + 1)
        hist[:, 0] = bits[:, 0]  # slot 0 (count of unused run slots) replaced by the first letter
        # one int64 key per word: mixed radix, digit r = number of runs of length r (< m//r + 1)
        radix = np.cumprod([1, 2] + [m // r + 1 for r in range(1, m)], dtype=np.int64)
        ukeys, first, inv = np.unique(hist @ radix, return_index=True, return_inverse=True)
        vals = []
        for key in hist[first].tolist():
            runs_t = tuple(r for r in range(1, m + 1) for _ in range(key[r]))
            v = _goldberg_runs(key[0] == 0, runs_t)
            vals.append(Fraction(int(v.p), int(v.q)))
        return vals, inv.ravel()

    def _solve_mod(self, cls: np.ndarray, r: np.ndarray, P: np.ndarray,
                   block: int = 192) -> tuple[np.ndarray, int]:
        """Residues modulo the primes ``P`` (shape (K, 1)) of the solution ``c`` of ``g = A c``,
        ``A[w, l] = <P_l, w>`` over the Lyndon words ``cls`` of a group (one length, ascending), by
        left-looking blocked forward substitution: for each block of ``block`` words the pairings
        with all earlier basis elements are evaluated (:meth:`pairing_block`), the earlier
        coordinates are applied with one exact float64 product, and the block's own unitriangular
        part is solved by :meth:`_solve_diagonal`. Returns the residues (shape of ``r``) and
        ``max |A|`` over the group."""
        n = cls.size
        r = r.copy()  # (K, n) residues of g
        c = np.zeros_like(r)
        prog = self._program(cls)
        m = prog.m
        # int64 bound for one partial product sum: terms |c| < 2^31 times |<P_l, w>| <= 2^(m-1)
        chunk = max(1, ((1 << 62) // ((1 << 31) << max(m - 1, 0))))
        amax = 0
        for s in range(0, n, block):
            e = min(s + block, n)
            M = self.pairing_block(prog, cls[s:e], e)  # (e, e - s): M[l, w]
            mmax = _abs_max(M)  # the block's columns of A are M: A[w, l] = 0 for l > w
            amax = max(amax, mmax)
            if s:  # the earlier coordinates: r -= c[:s] M[:s] (mod p)
                r[:, s:e] = (r[:, s:e] - _mod_product(c[:, :s], M[:s], P, mmax)) % P
            self._solve_diagonal(M[s:e], r[:, s:e], c[:, s:e], P, chunk, tmax=mmax)
        return c, amax

    def _solve_diagonal(self, T: np.ndarray, r: np.ndarray, c: np.ndarray, P: np.ndarray, chunk: int,
                        sub: int = 32, tmax: int | None = None) -> None:
        """In place: ``c = r T^-1`` modulo ``P`` for one diagonal block (``T[l, w]`` unitriangular
        integer, ``max |T| <= tmax``, computed if not given), in sub-blocks of ``sub``: the earlier
        sub-blocks are applied by one exact product, and each sub-block by its exact integer
        inverse (:func:`_unitriangular_inverse`); where that inverse is not certified, by the
        column loop :meth:`_solve_block`."""
        b = T.shape[0]
        tmax = _abs_max(T) if tmax is None else tmax
        nsub = -(-b // sub)
        batch = np.zeros((nsub, sub, sub), np.int64)  # the diagonal sub-blocks, padded with I
        batch[:] = np.eye(sub, dtype=np.int64)
        for j, u in enumerate(range(0, b, sub)):
            v = min(u + sub, b)
            batch[j, :v - u, :v - u] = T[u:v, u:v]
        inv, xmax = _unitriangular_inverse(batch)
        Tf, invf = T.astype(np.float64), inv.astype(np.float64)  # converted once for the products
        for j, u in enumerate(range(0, b, sub)):
            v = min(u + sub, b)
            if u:
                r[:, u:v] = (r[:, u:v] - _mod_product(c[:, :u], Tf[:u, u:v], P, tmax)) % P
            if xmax[j] is not None:  # the float copy is exact below 2^53 (large bounds: int64)
                X = (invf if xmax[j] < 1 << 37 else inv)[j, :v - u, :v - u]
                c[:, u:v] = _mod_product(r[:, u:v], X, P, xmax[j])
            else:
                self._solve_block(T[u:v, u:v].astype(np.int64), r[:, u:v], c[:, u:v], P, chunk)

    @staticmethod
    def _solve_block(T: np.ndarray, r: np.ndarray, c: np.ndarray, P: np.ndarray, chunk: int,
                     sub: int = 32) -> None:
        """In place: ``c = T^-T r`` modulo ``P`` for one diagonal block (``T[l, w]``
        unitriangular), in sub-blocks of ``sub`` columns: earlier sub-blocks are applied by one
        product, inside a sub-block column by column without reduction (at most ``sub`` terms
        ``< 2^31 * |T|`` each, within int64 by the caller's ``chunk`` bound)."""
        b = T.shape[0]
        Pv = P[:, 0]
        for s in range(0, b, sub):
            e = min(s + sub, b)
            if s:
                for t in range(0, s, chunk):
                    u = min(t + chunk, s)
                    r[:, s:e] = (r[:, s:e] - (c[:, t:u] @ T[t:u, s:e]) % P) % P
            for j in range(s, e):
                cj = r[:, j] % Pv
                c[:, j] = cj
                if j + 1 < e:
                    r[:, j + 1:e] -= cj[:, None] * T[j, j + 1:e][None, :]

    @staticmethod
    def _crt(c: np.ndarray, ps: Sequence[int], bound: tuple[int, int]) -> np.ndarray | None:
        """The solution ``x`` of ``A x = D g`` (signed integers, object array) from its residues
        ``c`` (shape ``(K+1, n)``) modulo the primes ``ps``, or ``None`` where not certified.
        Garner's mixed-radix digits from the first K primes (vectorised) give the ``x`` with
        ``|x| < p_1⋯p_K / 2`` and ``x ≡ c_i`` (mod ``p_i``), ``i <= K``; it is accepted if also
        ``x ≡ c_{K+1}`` (mod ``p_{K+1}``) and ``a max|x| + b < p_1⋯p_{K+1}`` for ``bound = (a, b)``
        with ``|(A y - D g)_w| <= a max|y| + b`` for every integer vector ``y``. Proof: ``A c_i ≡ D g``
        (mod ``p_i``) for every prime, so ``A x - D g`` is divisible by ``p_1⋯p_{K+1}`` and smaller
        in absolute value, hence zero, and ``A`` is invertible: ``x`` is the exact solution
        whatever the true size of the coefficients (a wrong reconstruction cannot pass)."""
        ps = [int(p) for p in ps]
        K = len(ps) - 1  # reconstruct from K primes, certify with the last
        modulus = 1
        for p in ps[:K]:
            modulus *= p
        n = c.shape[1]
        digits = [c[0] % ps[0]]
        for q in range(1, K + 1):
            p = ps[q]
            acc, radix = np.zeros(n, np.int64), 1
            for i in range(q):
                acc = (acc + digits[i] * radix) % p
                radix = radix * ps[i] % p
            if q < K:
                digits.append(((c[q] - acc) % p) * pow(radix, -1, p) % p)
        # acc = (unsigned x) mod p_K, radix = modulus mod p_K
        x = digits[K - 1].astype(object)
        for q in range(K - 2, -1, -1):
            x = x * ps[q] + digits[q].astype(object)
        neg = np.asarray(x > modulus // 2, bool)
        x[neg] -= modulus
        if not np.array_equal(np.where(neg, (acc - radix) % ps[K], acc), c[K]):
            return None
        return x if bound[0] * _abs_max(x) + bound[1] < modulus * ps[K] else None


def _mod_product(c: np.ndarray, M: np.ndarray, P: np.ndarray, bound: int) -> np.ndarray:
    """``(c @ M) mod P`` (int64, shape ``(K, M.shape[1])``) for residues ``0 <= c < P < 2^31``
    (``(K, s)``, one row per prime of ``P``, shape ``(K, 1)``) and an integer matrix ``M`` (any
    dtype) with ``|M| <= bound``, exact by float64 products: the inner dimension is cut into
    chunks, and ``c`` is split into 16-bit halves where whole residues would need chunks shorter
    than 256, so that every partial sum stays below 2^53 (for ``bound >= 2^37``, ``M`` is first
    reduced modulo each prime). ``einsum``
    (single-threaded) rather than a BLAS product, whose threads would compete with the forked
    class workers."""
    K, s = c.shape
    if (1 << 16) * bound >= 1 << 53:  # reduce M modulo each prime first: then |M| < 2^31
        M = M.astype(np.int64)
        return np.vstack([_mod_product(c[k:k + 1], M % P[k, 0], P[k:k + 1], int(P[k, 0]) - 1)
                          for k in range(K)])
    Mf = M.astype(np.float64, copy=False)
    step = (1 << 53) // ((1 << 31) * max(1, bound))
    if step >= s:  # one product, every partial sum below s * 2^31 * bound <= 2^53
        prod = np.einsum("ij,jk->ik", c.astype(np.float64), Mf).astype(np.int64)
        return np.remainder(prod, P, out=prod)
    acc = np.zeros((K, M.shape[1]), np.int64)
    if step >= min(s, 256):  # whole residues: every partial sum below step * 2^31 * bound <= 2^53
        for t in range(0, s, step):
            u = min(t + step, s)
            prod = np.einsum("ij,jk->ik", c[:, t:u].astype(np.float64), Mf[t:u]).astype(np.int64)
            acc = (acc + prod % P) % P
        return acc
    step = max(1, (1 << 53) // ((1 << 16) * max(1, bound)))
    for t in range(0, s, step):
        u = min(t + step, s)
        halves = np.vstack([c[:, t:u] & 0xFFFF, c[:, t:u] >> 16]).astype(np.float64)
        prod = np.einsum("ij,jk->ik", halves, Mf[t:u]).astype(np.int64)
        acc = (acc + prod[:K] % P + (prod[K:] % P) * 65536) % P
    return acc


def _abs_max(M: np.ndarray) -> int:
    """``max |M|`` of an integer array (0 if empty), without a temporary ``|M|``."""
    return _abs_max_rows(M.reshape(1, -1))[0]


def _unitriangular_inverse(T: np.ndarray) -> tuple[np.ndarray, list[int | None]]:
    """Exact inverses of a batch of upper unitriangular integer matrices ``T`` (shape
    ``(B, b, b)``): ``(X, xmax)`` with ``X`` int64 of the same shape and ``xmax[j] = max |X[j]|``,
    or ``None`` where exactness of ``X[j]`` is not certified. Back substitution row by row in
    int64 (numpy's own integer products, no BLAS threads), all matrices of the batch at once:
    every operation is a partial sum of at most ``b`` products ``T[i, k] X[k, j]`` of entries of
    ``T`` and already final entries of the inverse, so if ``b * max|T| * max|X|`` (of the computed
    inverse) is below 2^63, induction over the operations shows that none overflowed and ``X`` is
    the exact inverse. The engine's sub-blocks of 32 pairings stay far below the bound (measured
    at degree 19: ``max|T| <= 12870``, ``max|T^-1| < 2^26``); the caller solves modulo the primes
    where it does not hold."""
    B, b, _ = T.shape
    Tn = -T.astype(np.int64)  # |T| < 2^62 is not assumed: a wrapped -T only fails the bound
    X = np.zeros_like(Tn)
    X[:] = np.eye(b, dtype=np.int64)
    for i in range(b - 2, -1, -1):  # row i of the inverse: -T[i, i+1:] X[i+1:, i+1:], in place
        np.matmul(Tn[:, i:i + 1, i + 1:], X[:, i + 1:, i + 1:], out=X[:, i:i + 1, i + 1:])
    tmax, xmax = _abs_max_rows(T.reshape(B, -1)), _abs_max_rows(X.reshape(B, -1))
    return X, [x if b * t * x < 1 << 63 else None for t, x in zip(tmax, xmax)]


def _abs_max_rows(M: np.ndarray) -> list[int]:
    """``max |M[j]|`` of each row of a 2-d integer array, as Python ints (no temporary ``|M|``)."""
    if not M.shape[1]:
        return [0] * M.shape[0]
    return [max(a, -z) for a, z in zip(M.max(1).tolist(), M.min(1).tolist())]

_WORK: dict = {}


def _group_task(idx):  # runs in a forked worker: the engine and g_fn are inherited
    idx, vals, D = _WORK["engine"].group_coordinates(idx, _WORK["g"])
    try:  # int64 travels back to the parent far faster than an object array of Python ints
        vals = vals.astype(np.int64)
    except OverflowError:
        pass
    return idx, vals, D


def _default_workers(degree: int) -> int:
    """Worker processes for the group solves: ``$SEQTHEORY_BCH_WORKERS`` if set (1: no fork),
    else 1; always 1 inside a daemonic process (a ``multiprocessing.Pool`` worker, which may not
    have children). Forking is opt-in: on the shared 2-core machine of
    ``benchmarks/README_bch.md`` two workers used about 35% more CPU than one process at degree 20
    (fork, result transfer) and gave no shorter wall time. (``degree`` is kept for callers that
    size the pool by the work.)"""
    import multiprocessing
    import os

    env = os.environ.get("SEQTHEORY_BCH_WORKERS")
    w = 1
    if env:
        try:
            w = max(1, int(env))
        except ValueError:
            raise ValueError(f"SEQTHEORY_BCH_WORKERS must be an int, got {env!r}") from None
    return 1 if multiprocessing.current_process().daemon else w


@lru_cache(maxsize=4)
def _engine(N: int) -> _TwoLetterEngine:
    return _TwoLetterEngine(N)


def lyndon_coordinates_two_letters(word_coefficient, max_degree: int, alphabet="xy") -> dict[str, Fraction]:
    """Lyndon coordinates (degrees 1..max_degree) of a Lie series in two letters from a callable
    giving its word coefficients, by the vectorised engine (see module docstring)."""
    letters = check_alphabet(alphabet)
    if len(letters) != 2:
        raise ValueError("lyndon_coordinates_two_letters needs a two-letter alphabet")
    max_degree = check_int("max_degree", max_degree)
    if max_degree > _FAST_MAX_DEGREE:
        raise ValueError(f"max_degree must be <= {_FAST_MAX_DEGREE} (integer bounds of the "
                         f"vectorised engine), got {max_degree}")
    eng = _engine(max_degree)

    def g(w: str) -> Fraction:
        word = decode(w, letters)
        return as_fraction(word_coefficient(word), f"word_coefficient({word!r})")

    return eng.fractions(*eng.coordinates(g, range(1, max_degree + 1)), letters)


# ----------------------------------------------------------------------------------------------
# public API
# ----------------------------------------------------------------------------------------------

class BCHSeries(LiePolynomial):
    """A BCH-type series truncated at a degree: a :class:`LiePolynomial` with attributes
    ``kind`` (``"classical"``, ``"symmetric"``, ``"multiT"``), ``truncation_degree``, ``timing``
    (seconds of the computation; 0 when loaded) and ``from_cache``. Arithmetic on it returns plain
    :class:`LiePolynomial` objects.

    Reading the output: ``lyndon_coefficients()`` maps a Lyndon word ``w`` to the coefficient
    of the basis element ``P_w``, the *standard bracketing* of ``w``: ``P_a = a`` for a letter,
    and ``P_w = [P_u, P_v]`` for the standard factorisation ``w = uv`` in which ``v`` is the
    longest proper suffix of ``w`` that is a Lyndon word (Reutenauer, *Free Lie Algebras*, §5.1,
    Thm 5.1). This is not the right-normed bracketing ``[a1,[a2,[…,an]]]`` in general: over
    ``x < y``, ``P_xxy = [x,[x,y]]`` is right-normed, but ``P_xyy = [[x,y],y]``,
    ``P_xxyy = [x,[[x,y],y]]`` and ``P_xxyxy = [[x,[x,y]],[x,y]]``.
    ``free_lie.bracket_string(free_lie.standard_bracketing(w, "xy"))`` prints the bracket of
    ``w``; ``evaluate(X, Y)`` evaluates the series at matrices with ``[A, B] = AB - BA``."""

    __slots__ = ("kind", "truncation_degree", "timing", "from_cache")

    def _known_degree(self) -> int:
        return self.truncation_degree

    def __repr__(self) -> str:
        return (f"BCHSeries(kind={self.kind!r}, truncation_degree={self.truncation_degree}: "
                f"{self._repr_terms()})")

    def word_coefficient(self, word: str) -> Fraction:
        """Coefficient of ``word`` (a ``str`` over the series' alphabet) in the associative
        expansion; ``TypeError`` for a non-string, ``ValueError`` beyond the truncation degree."""
        if not isinstance(word, str):
            raise TypeError(f"word must be a str over the alphabet {''.join(self._letters)!r}, "
                            f"got {type(word).__name__} {word!r}")
        if len(word) > self.truncation_degree:
            raise ValueError(f"word {word!r} is longer than the truncation degree {self.truncation_degree}")
        return super().word_coefficient(word)


def _make_series(coeffs: dict[str, Fraction], alphabet, kind: str, degree: int, timing: float,
                 from_cache: bool) -> BCHSeries:
    s = BCHSeries.__new__(BCHSeries)
    s._letters = check_alphabet(alphabet)
    s._c = coeffs  # a new dict of the caller's (not copied), validated, ordered by length then lex
    s.kind = kind
    s.truncation_degree = degree
    s.timing = timing
    s.from_cache = from_cache
    return s


def _half_angle_series(n_terms: int) -> tuple[list[Fraction], list[Fraction]]:
    """Exact Taylor coefficients ``t_k`` of ``tanh(x/2)`` and ``s_k`` of ``sech(x/2)`` for
    ``k = 0 .. n_terms-1`` (power-series division of ``sinh(x/2)``, ``1`` by ``cosh(x/2)``)."""
    from math import factorial

    ch = [Fraction(1, 2 ** k * factorial(k)) if k % 2 == 0 else Fraction(0) for k in range(n_terms)]
    sh = [Fraction(1, 2 ** k * factorial(k)) if k % 2 == 1 else Fraction(0) for k in range(n_terms)]

    def divide(num):
        q = []
        for k in range(n_terms):
            q.append(num[k] - sum((ch[j] * q[k - j] for j in range(1, k + 1)), Fraction(0)))
        return q

    return divide(sh), divide([Fraction(1)] + [Fraction(0)] * (n_terms - 1))


def _ad_x_series(eng: "_TwoLetterEngine", num: np.ndarray, den: np.ndarray, f: Sequence[Fraction],
                 degrees) -> tuple[np.ndarray, np.ndarray]:
    """Lyndon coordinates of ``Σ_m f[m] ad_x^m Z`` in the given degrees (numerator and
    denominator object arrays over the engine indices, 0 / 1 elsewhere), from those of ``Z``
    (same form). ``ad_x P_q = [x, P_q] = P_{xq}`` for every Lyndon word ``q != x`` (the standard
    factorisation of ``xq`` is ``(x, q)``), so the coefficient of ``P_w`` is ``Σ_m f[m] c[q_m]``
    over the ``m`` with ``w = x^m q_m``, ``q_m`` Lyndon: the chain of standard factorisations of
    ``w`` with left factor ``x``. Summed in integers over a common denominator per output
    degree, vectorised along the chains (object arrays of Python integers)."""
    N = eng.N
    starts = np.searchsorted(eng.LEN, np.arange(1, N + 2))  # degree d: indices starts[d-1]:starts[d]
    dd = [1] * (N + 1)  # a common denominator of Z per degree
    for d in range(1, N + 1):
        for v in set(den[starts[d - 1]:starts[d]].tolist()):
            dd[d] = lcm(dd[d], v)
    numd = num * (np.array(dd, object)[eng.LEN] // den)
    out_num = np.zeros(num.size, object)
    out_den = np.ones(num.size, object)
    for m_deg in degrees:
        terms = [(m, f[m]) for m in range(min(len(f), m_deg)) if f[m]]
        D = 1
        for m, fm in terms:
            D = lcm(D, fm.denominator * dd[m_deg - m])
        scale = {m: fm.numerator * (D // (fm.denominator * dd[m_deg - m])) for m, fm in terms}
        idx = np.arange(starts[m_deg - 1], starts[m_deg])
        acc = np.zeros(idx.size, object)
        cur, own, m = idx, np.arange(idx.size), 0
        while cur.size:
            if m in scale:
                acc[own] = acc[own] + numd[cur] * scale[m]
            keep = (eng.LEN[cur] > 1) & (eng.LEFT[cur] == 0)  # engine index 0 is the letter x
            cur, own = eng.RIGHT[cur[keep]], own[keep]
            m += 1
        out_num[idx] = acc
        out_den[idx] = D
    return out_num, out_den


def _fast_bch(degree: int, kind: str) -> tuple[np.ndarray, np.ndarray]:
    """Lyndon coordinates (numerator and denominator arrays over the engine indices, as
    :meth:`_TwoLetterEngine.coordinates` gives them) of the classical or symmetric series to
    ``degree`` by the vectorised engine. Only the odd degrees of ``Z = log(e^X e^Y)`` are solved
    for; the rest follows exactly from ``S = log(e^{X/2} e^Y e^{X/2}) = e^{-ad_X/2} Z`` and
    ``S(-X,-Y) = -S(X,Y)`` (so ``S`` has only odd degrees): the even part of the identity gives
    ``Z_even = tanh(ad_X/2) Z_odd`` and then ``S = sech(ad_X/2) Z_odd`` (the even-degree relation
    as used by H. Hofstätter's BCH program, https://github.com/HaraldHofstaetter/BCH)."""
    eng = _engine(degree)
    odd = range(1, degree + 1, 2)
    num, den = eng.coordinates(_goldberg_internal, odd, workers=_default_workers(degree))
    tanh_c, sech_c = _half_angle_series(degree)
    if kind == "symmetric":
        return _ad_x_series(eng, num, den, sech_c, odd)
    even_num, even_den = _ad_x_series(eng, num, den, tanh_c, range(2, degree + 1, 2))
    even = eng.LEN % 2 == 0
    num[even], den[even] = even_num[even], even_den[even]
    return num, den


def _symmetric_g(w: str) -> Fraction:
    return _log_product_internal(w, _SYM_FACTORS, _SYM_MEMO)


_SYM_FACTORS = ((chr(0x100), Fraction(1, 2)), (chr(0x101), Fraction(1)), (chr(0x100), Fraction(1, 2)))
_SYM_MEMO: dict = {}


def bch(degree: int, kind: str = "classical", *, use_cache: bool = True, method: str = "fast") -> BCHSeries:
    """The BCH series in the Lyndon basis over letters ``x < y``, exact, up to ``degree``.

    ``kind="classical"``: ``log(e^X e^Y)``; ``kind="symmetric"``: ``log(e^{X/2} e^Y e^{X/2})``.
    ``method="fast"`` (vectorised two-letter engine) or ``"generic"`` (dict-based reference
    solver; slow, for cross-checks, never cached). ``"fast"`` results are cached on disk unless
    ``use_cache=False``.
    ``"fast"`` solves the odd degrees of the classical series from Goldberg's closed form and
    derives its even degrees and the symmetric series exactly from them (module docstring, 3.);
    ``"generic"`` uses Goldberg's form, resp. the exact dynamic programme for the symmetric
    series (O(N^3) per word, practical to degree ~14), and solves every degree.
    ``bch(4).lyndon_coefficients() == {"x": 1, "y": 1, "xy": 1/2, "xxy": 1/12, "xyy": 1/12,
    "xxyy": 1/24}``: each key ``w`` stands for the standard bracketing ``P_w`` of the Lyndon
    word (see :class:`BCHSeries`): ``P_xyy = [[x,y],y] = [y,[y,x]]`` and ``P_xxyy = [x,[[x,y],y]]
    = -[y,[x,[x,y]]]``, so ``(1/24) P_xxyy`` is the ``-(1/24)[Y,[X,[X,Y]]]`` of the module
    docstring.
    Raises ``ValueError`` for degree < 1, degree > 23 with ``method="fast"`` (integer bounds of the
    engine), degree > 16 with ``method="generic"`` (hours of work), or an
    unknown kind/method; a cache folder that cannot be written only gives a ``RuntimeWarning``."""
    use_cache = check_bool("use_cache", use_cache)
    degree = check_int("degree", degree)
    if kind not in BCH_KINDS:
        raise ValueError(f"kind must be one of {BCH_KINDS}, got {kind!r}")
    if method not in ("fast", "generic"):
        raise ValueError(f"method must be 'fast' or 'generic', got {method!r}")
    if method == "generic" and degree > _GENERIC_MAX_DEGREE:
        raise ValueError(f"degree must be <= {_GENERIC_MAX_DEGREE} for method='generic' (the reference "
                         f"solver takes hours beyond it; use method='fast'), got {degree}")
    if method == "fast" and degree > _FAST_MAX_DEGREE:
        raise ValueError(f"degree must be <= {_FAST_MAX_DEGREE} for method='fast' (its int32 pairings "
                         f"and int64 modular sums could overflow); "
                         f"got {degree}")
    name = f"{kind}_deg{degree}"
    use_cache = use_cache and method == "fast"     # a cross-check must not read the fast result back
    if use_cache:
        from .series_cache import load_series

        hit = load_series(name, "xy", degree)
        if hit is not None:
            return _make_series(hit, "xy", kind, degree, 0.0, True)
    g = _goldberg_internal if kind == "classical" else _symmetric_g
    t0 = time.perf_counter()
    if method == "fast":
        coeffs = _engine(degree).fractions(*_fast_bch(degree, kind), "xy")
    else:
        res = lyndon_coordinates_encoded(2, range(1, degree + 1), g)
        coeffs = {decode(w, "xy"): v for w, v in
                  sorted(res.items(), key=lambda kv: (len(kv[0]), kv[0]))}
    elapsed = time.perf_counter() - t0
    if use_cache:
        import warnings

        from .series_cache import save_series

        try:
            save_series(name, coeffs, "xy", degree, {"kind": kind, "seconds": elapsed})
        except OSError as exc:  # a read-only / missing cache folder must not lose the result
            warnings.warn(f"could not write the BCH cache ({exc}); result not cached",
                          RuntimeWarning, stacklevel=2)
    return _make_series(coeffs, "xy", kind, degree, elapsed, False)


def bch_multi(n_factors: int, degree: int, alphabet: str | None = None) -> BCHSeries:
    """``log(e^{X_T} ⋯ e^{X_2} e^{X_1})`` (T = ``n_factors``; the later factor first, SPEC §2) in
    the Lyndon basis over letters ``a_1 < a_2 < … < a_T`` standing for X_1, …, X_T (default
    letters ``"abcdefgh…"``), exact up to ``degree``: the discrete Magnus expansion of a token
    sequence. ``bch_multi(2, N)`` over ``"ab"`` equals ``Z(X_2, X_1)``, e.g. the degree-2 term is
    ``½[X_2, X_1] = -½ P_ab``."""
    n_factors = check_int("n_factors", n_factors)
    degree = check_int("degree", degree)
    default = "abcdefghijklmnopqrstuvw"
    if alphabet is None and n_factors > len(default):
        raise ValueError(f"n_factors = {n_factors} needs an alphabet of "
                         f"{counted(n_factors, 'letter')}; the default has {len(default)}: pass "
                         "alphabet")
    letters = check_alphabet(alphabet if alphabet is not None else default[:n_factors])
    if len(letters) != n_factors:
        raise ValueError(f"alphabet must have n_factors = {counted(n_factors, 'letter')}, got "
                         f"{len(letters)}")
    check_series_size("degree", degree, n_factors)
    factors = tuple((chr(0x100 + i), Fraction(1)) for i in reversed(range(n_factors)))
    memo: dict = {}
    t0 = time.perf_counter()
    res = lyndon_coordinates_encoded(n_factors, range(1, degree + 1),
                           lambda w: _log_product_internal(w, factors, memo))
    coeffs = {decode(w, letters): v for w, v in sorted(res.items(), key=lambda kv: (len(kv[0]), kv[0]))}
    return _make_series(coeffs, letters, f"multi{n_factors}", degree, time.perf_counter() - t0, False)

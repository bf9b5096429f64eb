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
   For two letters this module has a vectorised engine: ``<P_l, w>`` is evaluated for whole
   batches of (basis element, word) pairs at once, recursively through the standard
   factorisation, with dense lookup tables for short words; the solve is done modulo five
   31-bit primes (``A`` is unimodular, so ``c·D`` is an integer vector for ``D`` the common
   denominator of ``g``), the integers are rebuilt from four primes by Garner's CRT and
   certified against the fifth (a mismatch raises ``ArithmeticError``). Only columns with a
   non-zero coordinate are ever formed. From degree 17 the multidegree classes are solved in
   ``min(2, cpu_count)`` forked worker processes (``$SEQTHEORY_BCH_WORKERS`` overrides; 1 = no
   fork). Timings: ``benchmarks/README_bch.md``.

Results are cached on disk (:mod:`.series_cache`), keyed by kind and degree.
"""
from __future__ import annotations

import time
from fractions import Fraction
from functools import lru_cache
from itertools import groupby
from math import lcm
from typing import Sequence

import numpy as np

from .free_lie import _check_degree, _decode, _encode, _lyndon_internal, check_alphabet
from .lie_poly import LiePolynomial, _as_fraction, _coords_internal, log_word_coefficient

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
    w = _encode(word, letters)
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
        fs.append((_encode(a, letters), _as_fraction(sc, f"factors[{t}] scale")))
    fs = tuple(fs)
    w = _encode(word, letters)
    return _log_product_internal(w, fs, {}) if w else Fraction(0)


# ----------------------------------------------------------------------------------------------
# the vectorised two-letter engine
# ----------------------------------------------------------------------------------------------

def _primes(count: int) -> list[int]:
    from sympy import prevprime

    out, p = [], 2 ** 31
    for _ in range(count):
        p = prevprime(p)
        out.append(p)
    return out


_PRIMES = None
#: Largest degree of the vectorised engine. Bounds used: pairings ``|<P_l, w>| <= 2^(len l - 1)``
#: (the expansion of a bracket of length m has at most 2^(m-1) signed terms) must fit in int32,
#: and the modular block update sums up to 384 products ``c * <P_l, w>`` with ``c < 2^31`` in
#: int64: ``384 * 2^31 * 2^(degree-1) < 2^63`` holds up to degree 23.
_FAST_MAX_DEGREE = 23
_I = np.int32  # engine integers: codes < 2^23, |<P_l, w>| <= 2^22, indices < 2^31 (degree <= 23)


class _TwoLetterEngine:
    """Lyndon words over {0 < 1} up to length N as bit codes, with lookup tables of <P_l, w>
    for short words and a batched evaluator for longer ones."""

    def __init__(self, N: int, table_max: int = 15):
        self.N = N
        words = [w for m in range(1, N + 1) for w in _lyndon_internal(2, N)[m]]
        self.words = words
        tr = {0x100: "0", 0x101: "1"}
        self.index = {w: i for i, w in enumerate(words)}
        n = len(words)
        self.LEN = np.fromiter((len(w) for w in words), _I, n)
        self.CODE = np.fromiter((int(w.translate(tr), 2) for w in words), _I, n)
        self.KY = np.fromiter((w.count(chr(0x101)) for w in words), _I, n)
        left = np.zeros(n, _I)
        right = np.zeros(n, _I)
        idx = self.index
        for i, w in enumerate(words):
            if len(w) > 1:
                j = min(range(1, len(w)), key=lambda s, w=w: w[s:])
                left[i], right[i] = idx[w[:j]], idx[w[j:]]
        self.LEFT, self.RIGHT = left, right
        self.Mt = 0
        self.OFF = np.full(n, -1, _I)
        self.TAB = np.zeros(0, _I)
        self.RANK = np.zeros(2, _I)
        self._build_tables(min(table_max, N))

    # -- lookup tables ------------------------------------------------------------------------
    def _build_tables(self, M: int) -> None:
        rank = np.zeros(2 ** (M + 1), _I)
        for n in range(1, M + 1):
            codes = np.arange(2 ** n, dtype=_I)
            pc = np.bitwise_count(codes).astype(_I)
            order = np.argsort(pc, kind="stable")
            starts = np.concatenate(([0], np.cumsum(np.bincount(pc, minlength=n + 1))[:-1]))
            r = np.empty(2 ** n, _I)
            r[order] = np.arange(2 ** n) - starts[pc[order]]
            rank[2 ** n: 2 ** (n + 1)] = r
        self.RANK = rank
        tabs = []
        offset = 0
        for n in range(1, M + 1):
            codes = np.arange(2 ** n, dtype=_I)
            pc = np.bitwise_count(codes).astype(_I)
            sel = np.nonzero(self.LEN == n)[0]
            for k in range(n + 1):
                cls = sel[self.KY[sel] == k]
                if cls.size == 0:
                    continue
                x = codes[pc == k]  # ascending = rank order
                if n == 1:
                    T = np.ones((1, 1), _I)
                else:
                    T = self._table_block(cls, x, n)
                self.OFF[cls] = offset + np.arange(cls.size) * x.size
                tabs.append(T.ravel())
                offset += T.size
            self.TAB = np.concatenate([self.TAB] + tabs)
            tabs = []
            self.Mt = n

    def _table_block(self, cls: np.ndarray, x: np.ndarray, n: int) -> np.ndarray:
        """Rows <P_l, x> for the Lyndon words ``cls`` (length n, one multidegree) and all words
        ``x`` of that multidegree, from the tables of shorter words, grouped by the shape of the
        standard factorisation."""
        T = np.zeros((cls.size, x.size), _I)
        a_all, b_all = self.LEFT[cls], self.RIGHT[cls]
        key = self.LEN[a_all] * 64 + self.KY[a_all]
        for kk in np.unique(key):
            g = np.nonzero(key == kk)[0]
            a, b = a_all[g], b_all[g]
            n1, k1 = int(self.LEN[a[0]]), int(self.KY[a[0]])
            n2, k2 = n - n1, int(self.KY[b[0]])
            pre, suf = x >> n2, x & ((1 << n2) - 1)
            v = np.nonzero(np.bitwise_count(pre) == k1)[0]
            ra = self.RANK[(1 << n1) + pre[v]]
            rb = self.RANK[(1 << n2) + suf[v]]
            T[np.ix_(g, v)] += self.TAB[self.OFF[a][:, None] + ra[None, :]] * \
                self.TAB[self.OFF[b][:, None] + rb[None, :]]
            pre, suf = x >> n1, x & ((1 << n1) - 1)
            v = np.nonzero(np.bitwise_count(pre) == k2)[0]
            rb = self.RANK[(1 << n2) + pre[v]]
            ra = self.RANK[(1 << n1) + suf[v]]
            T[np.ix_(g, v)] -= self.TAB[self.OFF[b][:, None] + rb[None, :]] * \
                self.TAB[self.OFF[a][:, None] + ra[None, :]]
        return T

    # -- batched <P_L, code> ------------------------------------------------------------------
    def _ev(self, L: np.ndarray, code: np.ndarray, check_weight: bool = True) -> np.ndarray:
        """<P_L[i], code[i]> for arrays of Lyndon indices and word codes of equal lengths.
        ``check_weight=False`` skips the multidegree test when the caller guarantees it."""
        out = np.zeros(L.size, _I)
        if L.size == 0:
            return out
        n = self.LEN[L]
        ok = code >= self.CODE[L]  # support of P_l: words >= l (Reutenauer Thm 5.1)
        if check_weight:
            ok &= np.bitwise_count(code) == self.KY[L]
        short = n <= self.Mt
        t = np.nonzero(ok & short)[0]
        if t.size:
            Lt = L[t]
            out[t] = self.TAB[self.OFF[Lt] + self.RANK[(_I(1) << n[t]) + code[t]]]
        r = np.nonzero(ok & ~short)[0]
        if r.size:
            Lr, cr = L[r], code[r]
            a, b = self.LEFT[Lr], self.RIGHT[Lr]
            n1, n2 = self.LEN[a], self.LEN[b]
            one = _I(1)
            # <P_a, w[:n1]> <P_b, w[n1:]>  -  <P_b, w[:n2]> <P_a, w[n2:]>
            res = self._pair(a, cr >> n2, b, cr & ((one << n2) - 1), n1 <= n2)
            res -= self._pair(b, cr >> n1, a, cr & ((one << n1) - 1), n2 < n1)
            out[r] = res
        return out

    def _pair(self, L1, c1, L2, c2, first_is_1) -> np.ndarray:
        """<P_L1, c1> * <P_L2, c2>, evaluating the shorter (cheaper) factor first and the other
        one only where the first is non-zero (where the first factor's multidegree matches, the
        second's does too, so its weight test is skipped)."""
        out = np.zeros(L1.size, _I)
        for sel, (La, ca, Lb, cb) in ((np.nonzero(first_is_1)[0], (L1, c1, L2, c2)),
                                      (np.nonzero(~first_is_1)[0], (L2, c2, L1, c1))):
            if sel.size == 0:
                continue
            v = self._ev(La[sel], ca[sel])
            nz = np.nonzero(v)[0]
            if nz.size:
                idx = sel[nz]
                out[idx] = v[nz] * self._ev(Lb[idx], cb[idx], check_weight=False)
        return out

    # -- the solve ----------------------------------------------------------------------------
    def coordinates(self, g_fn, degrees, workers: int = 1) -> dict[int, Fraction]:
        """Lyndon coordinates {global index: Fraction} from word coefficients g_fn(internal word).

        Multidegree classes are independent; with ``workers > 1`` they are solved in forked
        worker processes (largest first), which share the lookup tables copy-on-write."""
        global _PRIMES
        if _PRIMES is None:
            _PRIMES = _primes(5)
        tasks = []
        for m in degrees:
            sel = np.nonzero(self.LEN == m)[0]
            for k in range(m + 1):
                cls = sel[self.KY[sel] == k]  # ascending code = lexicographic order
                if cls.size:
                    tasks.append((cls.size, m, k))
        tasks.sort(reverse=True)
        out: dict[int, Fraction] = {}
        import multiprocessing as mp

        if workers > 1 and len(tasks) > 1 and "fork" in mp.get_all_start_methods():
            _WORK["engine"], _WORK["g"] = self, g_fn
            try:
                with mp.get_context("fork").Pool(workers) as pool:
                    for res in pool.imap_unordered(_class_task, [(m, k) for _, m, k in tasks]):
                        out.update(res)
            finally:
                _WORK.clear()
        else:
            for _, m, k in tasks:
                out.update(self.class_coordinates(m, k, g_fn))
        return dict(sorted(out.items()))

    def class_coordinates(self, m: int, k: int, g_fn) -> dict[int, Fraction]:
        """Coordinates of the Lyndon words of length m with k letters y (one multidegree)."""
        sel = np.nonzero(self.LEN == m)[0]
        cls = sel[self.KY[sel] == k]
        g = [Fraction(g_fn(self.words[i])) for i in cls]
        D = 1
        for x in g:
            D = lcm(D, x.denominator)
        G = [x.numerator * (D // x.denominator) for x in g]
        c = self._solve_mod(cls, G, np.array(_PRIMES, np.int64)[:, None])
        return {i: Fraction(val, D) for i, val in zip(cls.tolist(), self._crt(c)) if val}

    def _solve_mod(self, cls: np.ndarray, G: list[int], P: np.ndarray, block: int = 384) -> np.ndarray:
        n = cls.size
        r = np.array([[x % int(p) for x in G] for p in P[:, 0]], np.int64)  # (K, n)
        c = np.zeros_like(r)
        codes = self.CODE[cls]
        for s in range(0, n, block):
            e = min(s + block, n)
            # within-block lower triangle A[i, j], s <= j < i < e
            ii, jj = np.tril_indices(e - s, -1)
            vals = self._ev(cls[s + jj], codes[s + ii]) if ii.size else np.zeros(0, np.int64)
            Ablk = np.zeros((e - s, e - s), np.int64)
            Ablk[ii, jj] = vals
            for j in range(s, e):
                cj = r[:, j].copy()
                c[:, j] = cj
                if cj.any() and j + 1 < e:
                    col = Ablk[j + 1 - s:, j - s]
                    nzr = np.nonzero(col)[0]
                    if nzr.size:
                        r[:, j + 1 + nzr] = (r[:, j + 1 + nzr] - cj[:, None] * col[nzr][None, :]) % P
            if e == n:
                break
            nzc = np.nonzero(c[:, s:e].any(axis=0))[0] + s
            if nzc.size == 0:
                continue
            rows = np.arange(e, n)
            Lc = np.repeat(cls[nzc], rows.size)
            Wc = np.tile(codes[rows], nzc.size)
            A = self._ev(Lc, Wc).reshape(nzc.size, rows.size)  # A[col, row]
            upd = np.zeros((P.shape[0], rows.size), np.int64)
            for q in range(P.shape[0]):
                upd[q] = (c[q, nzc] @ A) % P[q, 0]
            r[:, e:] = (r[:, e:] - upd) % P
        return c

    @staticmethod
    def _crt(c: np.ndarray) -> list[int]:
        ps = [int(p) for p in _PRIMES]
        K = len(ps) - 1  # reconstruct from K primes, certify with the last
        modulus = 1
        for p in ps[:K]:
            modulus *= p
        out = []
        cols = c.T.tolist()
        for res in cols:
            if not any(res):
                out.append(0)
                continue
            x, m = res[0], ps[0]
            for q in range(1, K):
                p = ps[q]
                t = ((res[q] - x) * pow(m, -1, p)) % p
                x += m * t
                m *= p
            if x > modulus // 2:
                x -= modulus
            if x % ps[K] != res[K]:
                raise ArithmeticError("multi-modular BCH solve failed its certification prime; "
                                      "coefficients exceed the CRT range")
            out.append(x)
        return out


_WORK: dict = {}


def _class_task(args):  # runs in a forked worker: the engine and g_fn are inherited
    m, k = args
    return _WORK["engine"].class_coordinates(m, k, _WORK["g"])


def _default_workers(degree: int) -> int:
    """Worker processes for the class solves: ``$SEQTHEORY_BCH_WORKERS`` if set (1 disables
    forking), else ``min(2, cpu_count)`` from degree 17 on (below, one process is faster)."""
    import os

    env = os.environ.get("SEQTHEORY_BCH_WORKERS")
    if env:
        try:
            w = int(env)
        except ValueError:
            raise ValueError(f"SEQTHEORY_BCH_WORKERS must be an int, got {env!r}") from None
        return max(1, w)
    return min(2, os.cpu_count() or 1) if degree >= 17 else 1


@lru_cache(maxsize=4)
def _engine(N: int) -> _TwoLetterEngine:
    # lookup tables up to length 16 (about 200 MB of int32) pay off from degree 19 on
    return _TwoLetterEngine(N, table_max=14 if N <= 16 else (15 if N <= 18 else 16))


def lyndon_coordinates_two_letters(word_coefficient, max_degree: int, alphabet="xy") -> dict[str, Fraction]:
    """Lyndon coordinates (degrees 1..max_degree) of a Lie series in two letters from a callable
    giving its word coefficients, by the vectorised engine (see module docstring)."""
    letters = check_alphabet(alphabet)
    if len(letters) != 2:
        raise ValueError("lyndon_coordinates_two_letters needs a two-letter alphabet")
    _check_degree(max_degree, "max_degree")
    if max_degree > _FAST_MAX_DEGREE:
        raise ValueError(f"max_degree must be <= {_FAST_MAX_DEGREE} (integer bounds of the "
                         f"vectorised engine), got {max_degree}")
    eng = _engine(max_degree)

    def g(w: str) -> Fraction:
        word = _decode(w, letters)
        return _as_fraction(word_coefficient(word), f"word_coefficient({word!r})")

    res = eng.coordinates(g, range(1, max_degree + 1))
    return {_decode(eng.words[i], letters): v for i, v in sorted(res.items())}


# ----------------------------------------------------------------------------------------------
# public API
# ----------------------------------------------------------------------------------------------

class BCHSeries(LiePolynomial):
    """A BCH-type series truncated at a degree: a :class:`LiePolynomial` with attributes
    ``kind`` (``"classical"``, ``"symmetric"``, ``"multiT"``), ``truncation_degree``, ``timing``
    (seconds of the computation; 0 when loaded) and ``from_cache``. Arithmetic on it returns plain
    :class:`LiePolynomial` objects."""

    __slots__ = ("kind", "truncation_degree", "timing", "from_cache")

    def word_coefficient(self, word: str) -> Fraction:
        if len(word) > self.truncation_degree:
            raise ValueError(f"word {word!r} is longer than the truncation degree {self.truncation_degree}")
        return super().word_coefficient(word)


def _make_series(coeffs: dict[str, Fraction], alphabet, kind: str, degree: int, timing: float,
                 from_cache: bool) -> BCHSeries:
    s = BCHSeries.__new__(BCHSeries)
    s._letters = check_alphabet(alphabet)
    s._c = dict(coeffs)  # already validated / ordered by length then lex
    s.kind = kind
    s.truncation_degree = degree
    s.timing = timing
    s.from_cache = from_cache
    return s


def _symmetric_g(w: str) -> Fraction:
    return _log_product_internal(w, _SYM_FACTORS, _SYM_MEMO)


_SYM_FACTORS = ((chr(0x100), Fraction(1, 2)), (chr(0x101), Fraction(1)), (chr(0x100), Fraction(1, 2)))
_SYM_MEMO: dict = {}


def bch(degree: int, kind: str = "classical", *, use_cache: bool = True, method: str = "fast") -> BCHSeries:
    """The BCH series in the Lyndon basis over letters ``x < y``, exact, up to ``degree``.

    ``kind="classical"``: ``log(e^X e^Y)``; ``kind="symmetric"``: ``log(e^{X/2} e^Y e^{X/2})``.
    ``method="fast"`` (vectorised two-letter engine) or ``"generic"`` (dict-based reference
    solver; slow, for cross-checks). Results are cached on disk unless ``use_cache=False``.
    Word coefficients: Goldberg's closed form for the classical series (fast to degree 20);
    the exact dynamic programme for the symmetric one (O(N^3) per word, practical to degree ~14).
    ``bch(4).lyndon_coefficients() == {"x": 1, "y": 1, "xy": 1/2, "xxy": 1/12, "xyy": 1/12,
    "xxyy": 1/24}`` (``P_xxyy = [x,[[x,y],y]] = -[y,[x,[x,y]]]``).
    Raises ``ValueError`` for degree < 1, degree > 23 with ``method="fast"`` (integer bounds of the engine) or an
    unknown kind/method; a cache folder that cannot be written only gives a ``RuntimeWarning``."""
    _check_degree(degree, "degree")
    if kind not in BCH_KINDS:
        raise ValueError(f"kind must be one of {BCH_KINDS}, got {kind!r}")
    if method not in ("fast", "generic"):
        raise ValueError(f"method must be 'fast' or 'generic', got {method!r}")
    if method == "fast" and degree > _FAST_MAX_DEGREE:
        raise ValueError(f"degree must be <= {_FAST_MAX_DEGREE} for method='fast' (its int32 pairings "
                         f"and int64 modular sums could overflow); "
                         f"got {degree}")
    name = f"{kind}_deg{degree}"
    if use_cache:
        from .series_cache import load_series

        hit = load_series(name, "xy", degree)
        if hit is not None:
            return _make_series(hit, "xy", kind, degree, 0.0, True)
    g = _goldberg_internal if kind == "classical" else _symmetric_g
    t0 = time.perf_counter()
    if method == "fast":
        eng = _engine(degree)
        res = eng.coordinates(g, range(1, degree + 1), workers=_default_workers(degree))
        coeffs = {_decode(eng.words[i], "xy"): v for i, v in sorted(res.items())}
    else:
        res = _coords_internal(2, range(1, degree + 1), g)
        coeffs = {_decode(w, "xy"): v for w, v in
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
    _check_degree(n_factors, "n_factors")
    _check_degree(degree, "degree")
    letters = check_alphabet(alphabet if alphabet is not None else "abcdefghijklmnopqrstuvw"[:n_factors])
    if len(letters) != n_factors:
        raise ValueError(f"alphabet must have n_factors={n_factors} letters")
    factors = tuple((chr(0x100 + i), Fraction(1)) for i in reversed(range(n_factors)))
    memo: dict = {}
    t0 = time.perf_counter()
    res = _coords_internal(n_factors, range(1, degree + 1),
                           lambda w: _log_product_internal(w, factors, memo))
    coeffs = {_decode(w, letters): v for w, v in sorted(res.items(), key=lambda kv: (len(kv[0]), kv[0]))}
    return _make_series(coeffs, letters, f"multi{n_factors}", degree, time.perf_counter() - t0, False)

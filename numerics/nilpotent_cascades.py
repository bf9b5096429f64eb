"""Explicit k-layer abelian cascades realising the nilpotentization of a target.

Source: [DEPTH] G. Heo et al., *Why Depth Matters in Parallelizable Sequence Models: A Lie
Algebraic View*, arXiv:2603.05573, Corollary 3.6 (local error of a k-layer abelian model on a
non-solvable target) and the mechanism behind it (SPEC §3.1): a k-layer abelian model can realise
the free nilpotent group of class c on n letters when the derived length of ``N(n, c)`` is at
most k; its output then matches the target's product up to the degree-c part of the logarithm,
so its local error is ``O(ε^(c+1))``.

Construction. The free nilpotent group ``G(n, c)`` is represented faithfully by its group-like
elements in the truncated tensor algebra ``T^{≤c}(Q^n)`` (product = truncated tensor product,
``exp``/``log`` = truncated series; the group-like elements are exactly ``exp`` of the Lie
elements). Token ``x`` acts by left multiplication with ``exp(ε e_x)`` (SPEC §2: later factor on
the left). A cascade holds the group element ``g`` of the prefix in k layers:

* ``coupling="linear"``: layer m (m = 1..k) holds the level-m tensor ``S^(m)`` of ``g`` and is
  updated by ``S^(m) ← S^(m) + Σ_{j=1..m} (ε e_x)^{⊗j}/j! ⊗ S^(m−j)`` (``S^(0) = 1``), a
  translation whose amount is linear in the lower layers' states. k layers realise class
  ``c = k``.
* ``coupling="polynomial"``: take the derived series ``n = n^(0) ⊃ n^(1) ⊃ … ⊃ n^(k) = 0`` of
  ``n = N(n, c)`` (exact, graded), graded complements ``V_j`` of ``n^(j)`` in ``n^(j−1)``, and
  write ``g = exp(Z_1) exp(Z_2) ⋯ exp(Z_k)`` with ``Z_j ∈ V_j``; layer j holds the coordinates
  of ``Z_j``. With ``u_1 = exp(ε e_x)`` and, for j = 1..k,
  ``Z_j ← Z_j + π_j(log u_j)`` (``π_j``: projection onto ``V_j`` along ``n^(j)``) and
  ``u_{j+1} = exp(−Z_j^new) u_j exp(Z_j^old) ∈ N^(j)``, one has ``x·g = exp(Z_1^new) ⋯
  exp(Z_k^new) u_{k+1}`` and ``u_{k+1} = 1`` because ``n^(k) = 0``. The update of layer j is a
  translation (``N^(j−1)/N^(j)`` is abelian) by a polynomial in the token and the lower layers'
  states, so every layer's per-token maps commute. k layers realise the largest class
  ``c = c_k(n)`` with derived length of ``N(n, c)`` at most k
  (:func:`seqtheory.numerics.separation.max_class_for_depth`; e.g. ``c_2(2) = 4``,
  ``c_2(3) = 3``).

Output map: ``exp(ρ(log g))`` with ``ρ`` the linear map sending the tensor ``e_{u_1}⊗…⊗e_{u_m}``
to ``A_{u_1} ⋯ A_{u_m}``; on Lie elements it sends each Lie word to the corresponding nested
commutator of the target generators.

Arithmetic: the cascade runs exactly over the rationals (python-flint ``fmpq``) for a rational ε;
the output map and the target's product ``exp(εA_{x_T}) ⋯ exp(εA_{x_1})`` are evaluated with
mpmath at a caller-chosen precision.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import mpmath
import numpy as np
from flint import fmpq, fmpq_mat

from seqtheory.theory._checks import check_int
from seqtheory.theory._messages import counted
from seqtheory.theory.linalg import rref_pivots

from .local_error import as_mp_matrices, check_word, frobenius_mp, mp_to_object_array, path_product
from .separation import check_tensor_size, max_class_for_depth
from seqtheory.theory.contract import blamed_on, check_exact
from seqtheory.theory.mp_precision import MAX_DPS, working_dps

__all__ = ["NilpotentCascade", "CascadeLayer", "nilpotent_cascade", "free_group_element",
           "derived_series_tensor_bases", "COUPLINGS"]

COUPLINGS = ("linear", "polynomial")


# ------------------------------------------------------------------ truncated tensor algebra
# An element is a list of c+1 levels; level m is a numpy object array of n**m fmpq entries (flat
# index Σ_p u_p n^(m-1-p), leftmost letter most significant) or None for a zero level.

def _tmul(a: list, b: list, c: int) -> list:
    out: list = [None] * (c + 1)
    for i, ai in enumerate(a):
        if ai is None:
            continue
        for j in range(0, c + 1 - i):
            bj = b[j]
            if bj is None:
                continue
            term = np.outer(ai, bj).ravel()
            out[i + j] = term if out[i + j] is None else out[i + j] + term
    return out


def _tadd(a: list, b: list, sb=1) -> list:
    out = []
    for x, y in zip(a, b):
        if y is None:
            out.append(x)
        elif x is None:
            out.append(y if sb == 1 else y * sb)
        else:
            out.append(x + (y if sb == 1 else y * sb))
    return out


def _tscale(a: list, s) -> list:
    return [None if x is None else x * s for x in a]


def _one(c: int) -> list:
    return [np.array([fmpq(1)], dtype=object)] + [None] * c


def _low(a: list) -> int:
    return next((m for m, x in enumerate(a) if x is not None and any(v != 0 for v in x)), -1)


def _texp(Z: list, c: int) -> list:
    """``exp(Z)`` truncated at degree c, for ``Z`` with zero level 0."""
    low = _low(Z)
    out = _one(c)
    if low < 0:
        return out
    P = _one(c)
    j = 1
    while j * low <= c:
        P = _tscale(_tmul(P, Z, c), fmpq(1, j))
        out = _tadd(out, P)
        j += 1
    return out


def _tlog(g: list, c: int) -> list:
    """``log(g)`` truncated at degree c, for ``g`` with level 0 equal to 1."""
    Y = [None] + list(g[1:])
    low = _low(Y)
    out: list = [None] * (c + 1)
    if low < 0:
        return out
    P = Y
    j = 1
    while j * low <= c:
        out = _tadd(out, _tscale(P, fmpq((-1) ** (j + 1), j)))
        j += 1
        if j * low <= c:
            P = _tmul(P, Y, c)
    return out


def _letter_exp(n: int, c: int, x: int, eps: fmpq) -> list:
    Z: list = [None] * (c + 1)
    v = np.array([fmpq(0)] * n, dtype=object)
    v[x] = eps
    Z[1] = v
    return _texp(Z, c)


def free_group_element(word, n: int, c: int, eps) -> list:
    """The exact element ``exp(ε e_{x_T}) ⋯ exp(ε e_{x_1})`` of the free nilpotent group
    ``G(n, c)`` in ``T^{≤c}(Q^n)``, computed directly by truncated tensor products (the reference
    a cascade is checked against). Returns ``c + 1`` levels (numpy object arrays of ``fmpq``;
    level m has ``n**m`` entries, flat index with the leftmost letter most significant)."""
    n, c = _check_nc(n, c)
    w = check_word(word, n)
    e = _as_fmpq(eps)
    g = _one(c)
    for x in w:
        g = _tmul(_letter_exp(n, c, x, e), g, c)
    return _dense(g, n)


def _dense(g: list, n: int) -> list:
    return [np.array([fmpq(0)] * n ** m, dtype=object) if x is None else x
            for m, x in enumerate(g)]


# ------------------------------------------------------------------ free Lie algebra, derived series
def _bracket_vec(u: np.ndarray, v: np.ndarray) -> np.ndarray:
    return np.outer(u, v).ravel() - np.outer(v, u).ravel()


def _tree_vec(tree, n: int, letters: str) -> np.ndarray:
    if isinstance(tree, str):
        e = np.array([fmpq(0)] * n, dtype=object)
        e[letters.index(tree)] = fmpq(1)
        return e
    return _bracket_vec(_tree_vec(tree[0], n, letters), _tree_vec(tree[1], n, letters))


def _row_basis(rows: list) -> list:
    if not rows:
        return []
    M = fmpq_mat(len(rows), len(rows[0]), [x for r in rows for x in r])
    R, rank = M.rref()
    return [np.array([R[i, j] for j in range(R.ncols())], dtype=object) for i in range(rank)]


def _greedy_extension(low: list, cand: list) -> list:
    """The candidates, in order, that extend the independent rows ``low`` to a basis of
    ``span(low ∪ cand)`` (greedy: a candidate is kept iff it is independent of ``low`` and the
    kept ones). One exact rref of the matrix whose *columns* are ``low`` then ``cand``: its pivot
    columns are exactly the greedy choice."""
    if not cand:
        return []
    cols = low + cand
    M = fmpq_mat(len(cols[0]), len(cols), [v[i] for i in range(len(cols[0])) for v in cols])
    R, rank = M.rref()
    piv = rref_pivots(R, rank)
    if piv[:len(low)] != list(range(len(low))):  # pragma: no cover - low is a basis by construction
        raise AssertionError("the lower derived term is not linearly independent")
    return [cand[j - len(low)] for j in piv[len(low):]]


@lru_cache(maxsize=None, typed=True)  # typed: c=True must not be answered from c=1's entry
def derived_series_tensor_bases(n: int, c: int) -> tuple:
    """Bases of the derived series of ``N(n, c)`` in tensor coordinates, per degree.

    Returns ``D`` with ``D[j][m]`` a tuple of exact row vectors (numpy object arrays of ``fmpq``,
    length ``n**m``) spanning the degree-m component of ``n^(j)`` (``j = 0``: the Lie elements of
    degree m, from the standard bracketing of the Lyndon words, :mod:`seqtheory.theory.free_lie`);
    ``n^(j)_m`` is spanned by ``[u, v]`` for u, v in bases of ``n^(j−1)_a``, ``n^(j−1)_b``,
    ``a + b = m`` (the derived ideals are graded). The list ends with the first zero term.
    Ranks by python-flint's exact ``fmpq_mat.rref``."""
    from seqtheory.theory.free_lie import lyndon_words, standard_bracketing

    n, c = _check_nc(n, c)
    letters = "abcdefghijklmnopqrstuvwxyz"[:n]
    D0 = {m: tuple(_tree_vec(standard_bracketing(w, letters), n, letters)
                   for w in lyndon_words(letters, m)) for m in range(1, c + 1)}
    D = [D0]
    while any(D[-1][m] for m in D[-1]):
        prev = D[-1]
        nxt = {}
        for m in range(1, c + 1):
            gens = []
            for a in range(1, m // 2 + 1):
                b = m - a
                for ia, u in enumerate(prev[a]):
                    for ib, v in enumerate(prev[b]):
                        if a == b and ib <= ia:
                            continue
                        gens.append(_bracket_vec(u, v))
            nxt[m] = tuple(_row_basis(gens))
        D.append(nxt)
    return tuple(D)


@dataclass(frozen=True)
class _Block:
    """Degree-m part of a complement ``V_j`` of ``n^(j)`` in ``n^(j−1)``: basis rows, and the
    exact map from a tensor of ``n^(j−1)_m`` to its ``V_j`` coordinates along ``n^(j)``."""

    degree: int
    rows: np.ndarray        # (dim V_jm, n**m) object fmpq
    pivots: tuple           # columns P with [V; n^(j)][:, P] invertible
    coord: np.ndarray       # (len P, dim V_jm): w[P] @ coord = V-coordinates


def _complement_blocks(Dprev: dict, Dnext: dict, c: int) -> list[_Block]:
    blocks = []
    for m in range(1, c + 1):
        low = list(Dnext.get(m, ()))
        comp = _greedy_extension(low, list(Dprev[m]))
        if not comp:
            continue
        full = comp + low
        M = fmpq_mat(len(full), len(full[0]), [x for r in full for x in r])
        R, rank = M.rref()
        piv = rref_pivots(R, rank)
        sq = fmpq_mat(rank, rank, [full[i][p] for i in range(rank) for p in piv])
        inv = sq.inv()   # α · sq = w[P]  =>  α = w[P] · inv
        coord = np.array([[inv[i, j] for j in range(len(comp))] for i in range(rank)],
                         dtype=object)
        blocks.append(_Block(m, np.array(comp, dtype=object), tuple(piv), coord))
    return blocks


# ------------------------------------------------------------------ the cascade
@dataclass(frozen=True)
class CascadeLayer:
    """One abelian layer: ``index`` (1-based), ``dim`` (state dimension), ``degrees`` (the tensor
    degrees its coordinates carry) and ``reads`` (indices of the lower layers its translation
    depends on). The per-token update is ``h ← h + δ(x, lower states)``: a translation, so the
    layer's per-token maps commute."""

    index: int
    dim: int
    degrees: tuple
    reads: tuple
    coupling: str


class NilpotentCascade:
    """A k-layer abelian cascade realising ``G(n, c)`` (see the module docstring), with the output
    map ``exp(ρ(log g))`` onto the target generators ``A_x``.

    Attributes: ``depth`` (k), ``nilpotency_class`` (c), ``coupling``, ``n_letters``,
    ``layers`` (list of :class:`CascadeLayer`), ``generators`` (mpf object arrays, d×d, at the
    precision current when built; the output map re-reads the given generators at its ``dps``,
    so exact inputs stay exact to that precision)."""

    def __init__(self, generators, depth: int, coupling: str, nilpotency_class: int | None):
        self.generators = as_mp_matrices(generators, "generators")   # mpf at the current precision
        self._source = [np.asarray(G.tolist() if hasattr(G, "tolist") else G, dtype=object)
                        for G in generators]                           # re-read at each dps
        self.n_letters = len(self.generators)
        if self.n_letters < 2:
            raise ValueError("generators must hold at least 2 matrices (one letter is abelian)")
        self.depth = depth = check_int("depth", depth)
        if coupling not in COUPLINGS:
            raise ValueError(f"coupling must be one of {COUPLINGS}, got {coupling!r}")
        self.coupling = coupling
        with blamed_on("depth", depth):
            top = depth if coupling == "linear" else max_class_for_depth(self.n_letters, depth)
            _check_nc(self.n_letters, top)
        c = top if nilpotency_class is None else check_int("nilpotency_class", nilpotency_class)
        if c > top:
            raise ValueError(f"nilpotency_class {c} exceeds the class {top} that {counted(depth, 'layer')} "
                             f"with {coupling} coupling realise on {counted(self.n_letters, 'letter')}")
        self.nilpotency_class = c
        n = self.n_letters
        if coupling == "linear":
            self._blocks = None
            self.layers = [CascadeLayer(m, n ** m, (m,), tuple(range(1, m)), coupling)
                           for m in range(1, c + 1)]
            self.layers += [CascadeLayer(m, 0, (), (), coupling) for m in range(c + 1, depth + 1)]
        else:
            D = derived_series_tensor_bases(n, c)
            self._blocks = [_complement_blocks(D[j - 1], D[j] if j < len(D) else {}, c)
                            for j in range(1, len(D))]
            self._blocks += [[] for _ in range(depth - len(self._blocks))]
            self.layers = [CascadeLayer(j + 1, sum(b.rows.shape[0] for b in bl),
                                        tuple(b.degree for b in bl), tuple(range(1, j + 1)),
                                        coupling) for j, bl in enumerate(self._blocks)]

    def __repr__(self) -> str:
        return (f"NilpotentCascade(n_letters={self.n_letters}, depth={self.depth}, "
                f"coupling={self.coupling!r}, nilpotency_class={self.nilpotency_class}, "
                f"state_dims={[L.dim for L in self.layers]})")

    # -------------------------------------------------------------- layer states
    def initial_state(self) -> list[np.ndarray]:
        """Zero state of every layer (the identity element)."""
        return [np.array([fmpq(0)] * L.dim, dtype=object) for L in self.layers]

    def _lie(self, j: int, z: np.ndarray) -> list:
        Z: list = [None] * (self.nilpotency_class + 1)
        pos = 0
        for b in self._blocks[j]:
            r = b.rows.shape[0]
            Z[b.degree] = z[pos:pos + r].dot(b.rows)
            pos += r
        return Z

    def _project(self, j: int, U: list) -> np.ndarray:
        parts = []
        for b in self._blocks[j]:
            w = U[b.degree]
            if w is None:
                parts.append(np.array([fmpq(0)] * b.rows.shape[0], dtype=object))
            else:
                parts.append(w[list(b.pivots)].dot(b.coord))
        return np.concatenate(parts) if parts else np.zeros(0, dtype=object)

    def translations(self, state: list[np.ndarray], token: int, eps) -> tuple[list, list]:
        """One token: the translation ``δ_j`` of every layer and the new state. ``δ_j`` depends on
        the token and the states of the layers below j only (never on layer j's own state).
        Returns ``(deltas, new_state)``; for the polynomial coupling the residual ``u_{k+1}``
        is checked to be the identity (``AssertionError`` otherwise)."""
        x = check_word([token], self.n_letters)[0]
        e = _as_fmpq(eps)
        n, c = self.n_letters, self.nilpotency_class
        if self.coupling == "linear":
            deltas = []
            for m, L in enumerate(self.layers, start=1):
                if L.dim == 0:
                    deltas.append(np.zeros(0, dtype=object))
                    continue
                d = np.array([fmpq(0)] * n ** m, dtype=object)
                for j in range(1, m + 1):
                    lower = np.array([fmpq(1)], dtype=object) if j == m else state[m - j - 1]
                    off = x * ((n ** j - 1) // (n - 1)) * n ** (m - j)
                    d[off:off + n ** (m - j)] += lower * (e ** j / math.factorial(j))
                deltas.append(d)
            return deltas, [s + d for s, d in zip(state, deltas)]
        u = _letter_exp(n, c, x, e)
        deltas, new = [], []
        for j in range(len(self.layers)):
            if self.layers[j].dim == 0:
                deltas.append(np.zeros(0, dtype=object))
                new.append(state[j])
                continue
            d = self._project(j, _tlog(u, c))
            z_new = state[j] + d
            u = _tmul(_tmul(_texp(_tscale(self._lie(j, z_new), -1), c), u, c),
                      _texp(self._lie(j, state[j]), c), c)
            deltas.append(d)
            new.append(z_new)
        if _low(u) > 0:
            raise AssertionError("cascade residual u_{k+1} is not the identity")
        return deltas, new

    def run(self, word, eps) -> list[np.ndarray]:
        """Final layer states after ``word``, token by token (exact ``fmpq``)."""
        w = check_word(word, self.n_letters)
        z = self.initial_state()
        for x in w:
            _, z = self.translations(z, x, eps)
        return z

    def group_element(self, state: list[np.ndarray]) -> list:
        """The element ``g`` of ``G(n, c)`` that a state encodes, as dense tensor levels."""
        c, n = self.nilpotency_class, self.n_letters
        if self.coupling == "linear":
            return _dense([np.array([fmpq(1)], dtype=object)] + [
                state[m - 1] if m <= len(state) else None for m in range(1, c + 1)], n)
        g = _one(c)
        for j in range(len(self.layers)):
            if self.layers[j].dim:
                g = _tmul(g, _texp(self._lie(j, state[j]), c), c)
        return _dense(g, n)

    # -------------------------------------------------------------- output map
    def output(self, state: list[np.ndarray], dps: int = 50):
        """``exp(ρ(log g))`` (mpmath matrix, d×d) for the element ``g`` the state encodes.
        ``dps``: decimal digits of the output map, an int ≥ 15 (``ValueError``/``TypeError``)."""
        dps = _check_dps(dps)
        c = self.nilpotency_class
        L = _tlog(self.group_element(state), c)
        with working_dps(dps) as dps:
            gens = as_mp_matrices(self._source)
            words = _word_matrices(gens, c)
            d = gens[0].shape[0]
            acc = np.empty((d, d), dtype=object)
            acc[...] = mpmath.mpf(0)
            for m in range(1, c + 1):
                if L[m] is None:
                    continue
                coef = np.array([_mpf(v) for v in L[m]], dtype=object)
                acc = acc + np.tensordot(coef, words[m], axes=1)
            return mpmath.expm(mpmath.matrix(acc.tolist()))

    def simulate(self, word, eps, dps: int = 50):
        """The d×d matrix the output map produces after ``word`` when token x acts by
        ``exp(ε·A_x)``, computed layer by layer, token by token (exact cascade, mpmath output at
        ``dps`` digits). ``eps`` must be a non-negative rational (int, ``Fraction``, ``fmpq``, an
        mpmath ``mpf`` (read exactly: ``man · 2^exp``), a decimal string, or a float read
        through its decimal representation)."""
        return self.output(self.run(word, eps), dps)

    def error(self, word, eps, dps: int = 50):
        """Frobenius norm of ``simulate(word, ε) − exp(εA_{x_T}) ⋯ exp(εA_{x_1})`` (mpf)."""
        dps = _check_dps(dps)
        with working_dps(dps) as dps:
            out = mp_to_object_array(self.simulate(word, eps, dps))
            ref = path_product(self._source, word, _mpf(_as_fmpq(eps)), dps)
            return frobenius_mp(out - ref)


MIN_DPS = 15   # fewer decimal digits than a float64 would make the mpmath output meaningless


def _check_dps(dps) -> int:
    """``dps`` as an int in ``MIN_DPS..MAX_DPS`` decimal digits."""
    return check_int("dps", dps, MIN_DPS, MAX_DPS)


def nilpotent_cascade(generators, depth: int, coupling: str = "polynomial",
                      nilpotency_class: int | None = None) -> NilpotentCascade:
    """Build the explicit ``depth``-layer abelian cascade realising the nilpotentization of the
    target with generators ``A_x`` (list of n ≥ 2 square matrices of equal size; any exact or
    float entries), with ``coupling`` ``"linear"`` (class ``c = depth``) or ``"polynomial"``
    (class ``c = c_depth(n)``); ``nilpotency_class`` may lower c (a truncated model). See the
    module docstring for the construction ([DEPTH] arXiv:2603.05573, Corollary 3.6).

    Raises ``ValueError`` for an unknown coupling, a depth < 1, a class above what the depth
    realises, fewer than 2 generators or malformed matrices; ``TypeError`` for non-int
    depth/class."""
    return NilpotentCascade(generators, depth, coupling, nilpotency_class)


# ------------------------------------------------------------------ helpers
def _word_matrices(gens, c: int) -> list:
    key = (tuple(tuple(str(v) for v in G.flat) for G in gens), c, mpmath.mp.dps)
    hit = _WORD_CACHE.get(key)
    if hit is not None:
        return hit
    d = gens[0].shape[0]
    n = len(gens)
    eye = np.empty((1, d, d), dtype=object)
    eye[0] = np.array([[mpmath.mpf(int(i == j)) for j in range(d)] for i in range(d)],
                      dtype=object)
    levels = [eye]
    for m in range(1, c + 1):
        prev = levels[-1]
        cur = np.empty((n ** m, d, d), dtype=object)
        for a in range(n):
            for r in range(prev.shape[0]):
                cur[a * prev.shape[0] + r] = gens[a].dot(prev[r])
        levels.append(cur)
    _WORD_CACHE.clear()
    _WORD_CACHE[key] = levels
    return levels


_WORD_CACHE: dict = {}


def _mpf(q: fmpq):
    return mpmath.mpf(int(q.p)) / int(q.q)


def _as_fmpq(eps) -> fmpq:
    """``eps >= 0`` as an exact ``fmpq`` (:func:`~seqtheory.theory.contract.check_exact`: ints,
    Fractions, sympy / python-flint rationals, Decimal; a float or an mpmath ``mpf`` by its exact
    binary value, never by a nearby decimal); ``TypeError`` / ``ValueError`` naming ``eps``."""
    q = check_exact("eps", eps, floats=True, minimum=0)
    return fmpq(q.numerator, q.denominator)


def _check_nc(n, c) -> tuple[int, int]:
    """``(n, c)`` as ints, ``n >= 2``, ``c >= 1``, the tensor levels ``0..c`` over ``n`` letters
    within :data:`~seqtheory.numerics.separation.MAX_TENSOR_ENTRIES` coefficients."""
    n = check_int("n", n, 2)
    c = check_int("c", c)
    check_tensor_size(n, c)
    return n, c

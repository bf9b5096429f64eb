"""The k-layer abelian cascade of a solvable Lie algebra through its derived series ([DEPTH]
Theorem 3.4 in its Lie-algebraic form), built and run.

Source: [DEPTH] G. Heo et al., *Why Depth Matters in Parallelizable Sequence Models: A Lie
Algebraic View*, arXiv:2603.05573, Theorem 3.4 (a system whose generators span a solvable Lie
algebra of derived length k is simulated by k abelian layers plus a smooth output map).

Setting. A token ``x`` is an element ``X_x`` of the Lie algebra ``g`` and acts on the state by
left multiplication with ``e^{X_x}`` (SPEC §2: ``P_T = e^{X_T} ⋯ e^{X_1}``). With the derived
series ``g = g^(0) ⊃ g^(1) ⊃ ... ⊃ g^(k) = 0`` and complements ``V_i`` of ``g^(i)`` in
``g^(i-1)`` (basis rows of the RREF of ``g^(i-1)`` off the pivots of ``g^(i)``), every group
element is ``g = e^{U_1} e^{U_2} ⋯ e^{U_k}`` with ``U_i ∈ V_i`` (coordinates of the second kind
along the derived flag). Layer ``i`` holds the coordinates of ``U_i``. Under a token,
``m_0 = e^X``; layer 1 adds ``π_1(X)``; for ``i = 1..k``: ``m_i = e^{-U_i'} m_{i-1} e^{U_i} ∈
G^(i)`` and layer ``i+1`` adds ``π_{i+1}(log m_i)`` (``π_i``: projection onto ``V_i`` along
``g^(i)``); ``m_k = 1`` since ``g^(k) = 0``. So every layer is a translation of its own state
(an abelian layer: its transitions commute) by an amount that depends on the token and on the
lower layers' states only, and the output map ``(U_1, ..., U_k) -> e^{U_1} ⋯ e^{U_k}`` gives the
state of the target. A cascade with fewer layers (:meth:`DerivedCascade.output` with
``layers``) drops the top terms.

Arithmetic. A nilpotent algebra over Q runs exactly: the group is ``g`` with the BCH product
(the Lyndon-basis series of :func:`~seqtheory.theory.bch_series.bch` truncated at the
nilpotency class, exact there), ``e^U = U``. Any other exact matrix algebra over Q runs in mpmath
at ``dps`` digits (``expm``; ``logm`` of elements of ``G^(i)``, unipotent for ``i >= 1`` when
``g`` is solvable, by Lie's theorem). For a non-solvable algebra the derived series stops at
``g^(∞) ≠ 0``; the cascade of its abelian layers leaves the residual ``m_s ∈ G^(∞)`` that no
abelian layer takes (:meth:`DerivedCascade.residual`).
"""
from __future__ import annotations

from fractions import Fraction
from typing import Any, Sequence

import numpy as np

from seqtheory.theory._checks import check_int
from seqtheory.theory.contract import as_list, check_exact, check_instance
from seqtheory.theory.mp_precision import MAX_DPS, working_dps
from seqtheory.theory.field_linalg import reduce_modulo

__all__ = ["DerivedCascade", "derived_cascade", "BCHGroup", "MatrixGroup"]


def _fr(x) -> Fraction:
    return x if isinstance(x, Fraction) else Fraction(x)


class _Structure:
    """Sparse structure constants (Fractions) of an exact algebra over Q in its basis."""

    def __init__(self, L):
        if L.field != "QQ":
            raise ValueError("the derived cascade runs over Q (exact rational algebras)")
        self.d = L.dim
        sc = L.structure_constants()
        self.sc = {(i, j): [(k, _fr(sc[i, j, k])) for k in range(self.d) if sc[i, j, k]]
                   for i in range(self.d) for j in range(self.d)}

    def bracket(self, u: Sequence, v: Sequence) -> list:
        out = [0] * self.d
        for i, a in enumerate(u):
            if not a:
                continue
            for j, b in enumerate(v):
                if b:
                    for k, c in self.sc[(i, j)]:
                        out[k] += a * b * c
        return out


class BCHGroup:
    """The simply connected group of a nilpotent algebra over Q as the algebra with the BCH
    product (exact): elements are coordinate vectors (Fractions); ``exp`` and ``log`` are the
    identity."""

    exact = True

    def __init__(self, L):
        from seqtheory.theory.bch_series import bch
        from seqtheory.theory.free_lie import lyndon_words_upto, standard_factorization

        c = L.nilpotency_class
        if c is None:
            raise ValueError("BCHGroup needs a nilpotent algebra")
        self.S = _Structure(L)
        self.d = L.dim
        c = max(c, 1)
        self._words = lyndon_words_upto("xy", c)
        self._factor = {w: standard_factorization(w, "xy") for w in self._words if len(w) > 1}
        self._coeffs = [(w, v) for w, v in bch(c).lyndon_coefficients().items() if len(w) <= c]

    def identity(self) -> list:
        return [Fraction(0)] * self.d

    @staticmethod
    def scalar(x: Fraction) -> Fraction:
        return x

    @staticmethod
    def context():
        import contextlib

        return contextlib.nullcontext()

    def exp(self, u: Sequence) -> list:
        return list(u)

    def log(self, g: Sequence) -> list:
        return list(g)

    def neg(self, u: Sequence) -> list:
        return [-x for x in u]

    def mul(self, X: Sequence, Y: Sequence) -> list:
        """``log(e^X e^Y)`` (exact: BCH up to the nilpotency class)."""
        P = {"x": list(X), "y": list(Y)}
        for w in self._words:
            if len(w) > 1:
                a, b = self._factor[w]
                P[w] = self.S.bracket(P[a], P[b])
        out = [Fraction(0)] * self.d
        for w, v in self._coeffs:
            out = [o + v * p for o, p in zip(out, P[w])]
        return out

    def distance(self, g: Sequence, h: Sequence) -> float:
        return float(max((abs(a - b) for a, b in zip(g, h)), default=0))


class MatrixGroup:
    """The group of an exact matrix algebra over Q, in mpmath at ``dps`` digits: elements are
    mpmath matrices, ``exp``/``log`` are ``expm``/``logm``, coordinates of a log are read on
    pivot columns of the basis (exact inverse) and checked."""

    exact = False

    def __init__(self, L, dps: int = 50):
        import flint

        if L.ambient_kind != "matrix" or L.field != "QQ":
            raise ValueError("MatrixGroup needs an exact matrix algebra over Q")
        self.dps = check_int("dps", dps, 15, MAX_DPS)
        self.n = L.matrix_size
        self.d = L.dim
        self.basis = [np.asarray(b, dtype=object) for b in L.basis]
        rows = [[_fr(x) for x in b.ravel()] for b in self.basis]
        from seqtheory.theory.field_linalg import row_reduce
        from sympy.polys.domains import QQ

        _, piv = row_reduce([[QQ(x.numerator, x.denominator) for x in r] for r in rows],
                            self.n * self.n, QQ)
        self.piv = piv
        inv = flint.fmpq_mat([[flint.fmpq(r[p].numerator, r[p].denominator) for p in piv]
                              for r in rows]).inv()
        self._inv = [[self.scalar(Fraction(int(inv[i, j].p), int(inv[i, j].q)))
                      for j in range(len(piv))] for i in range(len(piv))]

    def context(self):
        """The working precision (every operation on the group's numbers runs inside it; the
        package's mpmath lock, :func:`~seqtheory.theory.mp_precision.working_dps`)."""
        return working_dps(self.dps)

    def scalar(self, x) -> Any:
        """A Fraction (or an mpf) as an mpf at the working precision."""
        import mpmath

        if not isinstance(x, Fraction):
            return x
        with working_dps(self.dps):
            return mpmath.mpf(x.numerator) / x.denominator

    def _matrix(self, u: Sequence):
        import mpmath

        with working_dps(self.dps):
            M = mpmath.zeros(self.n)
            for c, b in zip(u, self.basis):
                if c:
                    cm = self.scalar(c)
                    for (i, j), x in np.ndenumerate(b):
                        if x:
                            M[i, j] += cm * self.scalar(Fraction(x))
            return M

    def identity(self):
        import mpmath

        with working_dps(self.dps):
            return mpmath.eye(self.n)

    def _nilpotent(self, N) -> bool:
        """Whether ``N^n`` vanishes below the precision (then exp and log are finite sums)."""
        import mpmath

        P = N
        for _ in range(self.n - 1):
            P = P * N
        return mpmath.mnorm(P, 1) <= mpmath.mpf(10) ** (-(self.dps // 2))

    def _series(self, N, log: bool):
        """``exp(N)`` or ``log(1 + N)`` for a nilpotent ``N`` (a finite sum)."""
        import mpmath

        out, P = mpmath.zeros(self.n) if log else mpmath.eye(self.n), mpmath.eye(self.n)
        for k in range(1, self.n):
            P = P * N
            out += P * ((mpmath.mpf(-1) ** (k + 1)) / k if log else 1 / mpmath.factorial(k))
        return out

    def exp(self, u: Sequence):
        import mpmath

        with working_dps(self.dps):
            M = self._matrix(u)
            if all(not M[i, j] for i in range(self.n) for j in range(self.n) if i != j):
                return mpmath.diag([mpmath.exp(M[i, i]) for i in range(self.n)])
            return self._series(M, False) if self._nilpotent(M) else mpmath.expm(M)

    def neg(self, u: Sequence) -> list:
        return [-x for x in u]

    def mul(self, g, h):
        import mpmath

        with working_dps(self.dps):
            return g * h

    def log(self, g) -> list:
        import mpmath

        with working_dps(self.dps):
            N = g - mpmath.eye(self.n)
            Lg = self._series(N, True) if self._nilpotent(N) else mpmath.logm(g)
            v = [Lg[p // self.n, p % self.n] for p in self.piv]
            coords = [sum(v[j] * self._inv[j][i] for j in range(len(v))) for i in range(len(v))]
            recon = self._matrix(coords)
            err = max(abs(recon[i, j] - Lg[i, j]) for i in range(self.n) for j in range(self.n))
            if err > mpmath.mpf(10) ** (-(self.dps // 2)):
                raise ValueError(f"MatrixGroup.log: the logarithm leaves the algebra (error "
                                 f"{mpmath.nstr(err, 3)})")
            return coords

    def distance(self, g, h) -> float:
        import mpmath

        with working_dps(self.dps):
            return float(max(abs(g[i, j] - h[i, j]) for i in range(self.n)
                             for j in range(self.n)))


class DerivedCascade:
    """The abelian cascade through the derived series of ``algebra`` (module docstring) over the
    group ``group`` (:class:`BCHGroup` or :class:`MatrixGroup`). ``tokens``: coordinate vectors
    (Fractions) of the token elements in ``algebra.basis``. ``layer_dims``: ``dim g^(i-1) -
    dim g^(i)``; ``solvable``: the derived series reaches 0 (else the layers stop at the
    stable term ``g^(∞)``, of dimension ``stable_dim``)."""

    def __init__(self, algebra, group, tokens: Sequence[Sequence]):
        from seqtheory.theory.field_linalg import row_reduce
        from seqtheory.theory.lie_elements import coordinates
        from sympy.polys.domains import QQ

        self.algebra, self.group = algebra, group
        self.d = d = algebra.dim
        self.tokens = [[check_exact(f"tokens[{i}]", x) for x in as_list(f"tokens[{i}]", t)]
                       for i, t in enumerate(as_list("tokens", tokens, "a sequence of coordinate vectors"))]
        if any(len(t) != d for t in self.tokens):
            raise ValueError(f"every token must have {d} coordinates")
        ds = algebra.derived_series()
        self.solvable = not ds.stabilised
        self.stable_dim = 0 if self.solvable else ds[-1].dim
        terms = [[[_fr(x) for x in coordinates(algebra, b)] for b in t.basis] for t in ds]
        q = lambda r: [QQ(x.numerator, x.denominator) for x in r]     # noqa: E731
        back = lambda r: [Fraction(int(x.numerator), int(x.denominator)) for x in r]  # noqa: E731
        self.layers = []
        for prev, nxt in zip(terms, terms[1:]):
            N, Npiv = row_reduce([q(r) for r in nxt], d, QQ)
            Q, Qpiv = row_reduce([q(r) for r in nxt + prev], d, QQ)
            cols = [p for p in Qpiv if p not in set(Npiv)]
            W = [back(r) for r, p in zip(Q, Qpiv) if p in set(cols)]
            conv = lambda rows: [[group.scalar(x) for x in r] for r in rows]   # noqa: E731
            self.layers.append((conv([back(r) for r in N]), list(Npiv), cols, conv(W)))
        self.layer_dims = [len(layer[2]) for layer in self.layers]

    @property
    def depth(self) -> int:
        return len(self.layers)

    def _project(self, i: int, v: Sequence) -> list:
        N, Npiv, cols, _ = self.layers[i]
        r = reduce_modulo(list(v), N, Npiv)
        return [r[c] for c in cols]

    def _element(self, i: int, coords: Sequence) -> list:
        W = self.layers[i][3]
        out = [self.group.scalar(Fraction(0))] * self.d
        for c, w in zip(coords, W):
            if c:
                out = [o + c * x for o, x in zip(out, w)]
        return out

    def initial_state(self) -> list[list]:
        return [[self.group.scalar(Fraction(0))] * n for n in self.layer_dims]

    def step(self, state: list[list], token: int) -> tuple[list[list], Any]:
        """The states after one token (an index into ``tokens``) and the residual ``m`` left
        above the top layer (the identity for a solvable algebra)."""
        G = self.group
        token = check_int("token", token, 0, len(self.tokens) - 1)
        x = [G.scalar(a) for a in self.tokens[token]]
        m = G.exp(x)
        new = []
        for i in range(self.depth):
            inc = self._project(i, x if i == 0 else G.log(m))
            u_old = state[i]
            u_new = [a + b for a, b in zip(u_old, inc)]
            new.append(u_new)
            m = G.mul(G.mul(G.exp(G.neg(self._element(i, u_new))), m),
                      G.exp(self._element(i, u_old)))
        return new, m

    def _word(self, word: Sequence[int]) -> list[int]:
        """``word`` as token indices (each an int in ``0..len(tokens)-1``; ``TypeError`` /
        ``ValueError`` naming the position otherwise)."""
        return [check_int(f"word[{i}]", t, 0, len(self.tokens) - 1) for i, t in enumerate(word)]

    def run(self, word: Sequence[int]) -> list[list]:
        """The layer states after ``word`` (token indices, applied in order)."""
        word = self._word(word)
        with self.group.context():
            state = self.initial_state()
            for t in word:
                state, _ = self.step(state, t)
            return state

    def residual(self, word: Sequence[int]) -> float:
        """The largest distance from the identity of the residual ``m`` left above the top
        layer over the steps of ``word`` (0 for a solvable algebra; the part of the target in
        ``G^(∞)`` that no abelian layer of the cascade takes otherwise)."""
        G = self.group
        word = self._word(word)
        with G.context():
            state, worst = self.initial_state(), 0.0
            for t in word:
                state, m = self.step(state, t)
                worst = max(worst, G.distance(m, G.identity()))
            return worst

    def output(self, state: list[list], layers: int | None = None):
        """``e^{U_1} ⋯ e^{U_j}`` for the first ``layers`` layers (default all; an int in
        ``0..depth``)."""
        G = self.group
        j = self.depth if layers is None else check_int("layers", layers, 0, self.depth)
        with G.context():
            g = G.identity()
            for i in range(j):
                g = G.mul(g, G.exp(self._element(i, state[i])))
            return g

    def target(self, word: Sequence[int]):
        """``e^{X_T} ⋯ e^{X_1}`` for the tokens of ``word``."""
        G = self.group
        word = self._word(word)
        with G.context():
            g = G.identity()
            for t in word:
                g = G.mul(G.exp([G.scalar(a) for a in self.tokens[t]]), g)
            return g

    def error(self, word: Sequence[int], layers: int | None = None) -> float:
        """The distance between the output of the first ``layers`` layers and the target."""
        with self.group.context():
            return self.group.distance(self.output(self.run(word), layers), self.target(word))


def derived_cascade(algebra, tokens: Sequence[Sequence] | None = None, *, dps: int = 50
                    ) -> DerivedCascade:
    """The :class:`DerivedCascade` of an exact algebra over Q: on the BCH group (exact) when the
    algebra is nilpotent, else on its matrix group in mpmath (``dps`` digits; a matrix
    algebra). ``tokens`` default to the basis elements (unit coordinate vectors); their
    coordinates are exact numbers (:func:`~seqtheory.theory.contract.check_exact`: a float is
    refused, ``TypeError`` naming ``tokens[i]``)."""
    from seqtheory.theory.lie import LieAlgebra

    check_instance("algebra", algebra, LieAlgebra, "a LieAlgebra")
    group = BCHGroup(algebra) if algebra.is_nilpotent else MatrixGroup(algebra, dps)
    if tokens is None:
        tokens = [[Fraction(int(i == j)) for j in range(algebra.dim)] for i in range(algebra.dim)]
    return DerivedCascade(algebra, group, tokens)

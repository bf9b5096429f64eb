"""Polynomial vector fields on Q^n and the Lie algebras they generate, exactly over Q.

A polynomial vector field ``X = sum_i X_i(h) d/dh_i`` on ``Q^n`` is stored as a dict
``{(i, m): c}``: component ``i`` (0-based), monomial exponent tuple ``m`` (length n), rational
coefficient ``c`` (``Fraction``, non-zero). The Lie bracket is the commutator of derivations,

    [X, Y] = DY . X - DX . Y,   i.e.  [X, Y]_i = sum_j (X_j dY_i/dh_j - Y_j dX_i/dh_j),

so ``[X, Y] f = X(Y f) - Y(X f)``. For linear fields ``X(h) = A h``, ``Y(h) = B h`` this gives
``[X, Y](h) = (BA - AB) h = -[A, B] h``: the map ``A -> (h -> A h)`` is an anti-homomorphism,
which changes no span, dimension or derived length.

Spans are decided by exact Gaussian elimination over Q on the coefficient vectors (coordinates =
the pairs ``(i, m)``), so every rank decision is exact. Brackets and eliminations compute with
python-flint's ``fmpq`` (exact rationals, about 10x faster than ``Fraction``); fields keep and
return ``Fraction`` coefficients. The Lie algebra generated
by a set of fields is closed under brackets until no new direction appears; an algebra larger
than ``max_dim`` is reported as not finite-dimensional within the cap (never truncated silently).

Series follow SPEC §2: derived series ``g^(0) = g``, ``g^(j+1) = [g^(j), g^(j)]``; the derived
length is the least ``j`` with ``g^(j) = 0`` (0 for the zero algebra, ``None`` when the series
stabilises at a non-zero term). Used by the ``depth.prop3.3`` check of [DEPTH] (Heo et al.,
arXiv:2603.05573, Proposition 3.3): cascades whose layers are coupled polynomially.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Iterable, Mapping, Sequence
from ._messages import shown

from ._checks import check_int

__all__ = ["PolyVectorField", "VectorFieldAlgebra", "generated_algebra", "derived_series_dims",
           "derived_length_lower_bound"]

Monomial = tuple[int, ...]
_Poly = dict  # {Monomial: Fraction}


def _check_rational(c, where: str) -> Fraction:
    if isinstance(c, bool) or not isinstance(c, (int, Fraction)):
        raise TypeError(f"{where}: coefficients must be int or Fraction (exact), got "
                        f"{type(c).__name__} {shown(c)}")
    return Fraction(c)


class PolyVectorField:
    """A polynomial vector field on ``Q^n`` (see module doc).

    ``n``: dimension of the state space (positive int). ``terms``: mapping ``{(i, m): c}`` with
    ``0 <= i < n``, ``m`` a length-``n`` tuple of non-negative ints and ``c`` an int or
    ``Fraction``; zero coefficients are dropped. Raises ``ValueError`` for a bad index or
    monomial, ``TypeError`` for a non-exact coefficient."""

    __slots__ = ("n", "terms")

    def __init__(self, n: int, terms: Mapping[tuple[int, Monomial], object] = ()):
        self.n = check_int("n", n)
        clean: dict[tuple[int, Monomial], Fraction] = {}
        for key, c in dict(terms).items():
            try:
                i, m = key
            except (TypeError, ValueError):
                raise ValueError(f"terms: key {key!r} is not (component, monomial)") from None
            if isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < n:
                raise ValueError(f"terms: component {shown(i)} is not an index in [0, {n})")
            m = tuple(m)
            if len(m) != n or any(isinstance(e, bool) or not isinstance(e, int) or e < 0 for e in m):
                raise ValueError(f"terms: monomial {shown(m)} must be {n} non-negative ints")
            c = _check_rational(c, "terms")
            if c:
                clean[(i, m)] = clean.get((i, m), Fraction(0)) + c
        self.terms = {k: v for k, v in clean.items() if v}

    # ------------------------------------------------------------------ construction
    @classmethod
    def from_components(cls, components: Sequence[Mapping[Monomial, object]]) -> "PolyVectorField":
        """From one polynomial ``{monomial: coefficient}`` per component (``n = len``)."""
        return cls(len(components), {(i, m): c for i, p in enumerate(components)
                                     for m, c in dict(p).items()})

    @classmethod
    def from_sympy(cls, components: Sequence, variables: Sequence) -> "PolyVectorField":
        """From sympy expressions (polynomials with rational coefficients) in ``variables``."""
        import sympy

        if len(components) != len(variables):
            raise ValueError(f"components: {len(components)} expressions for "
                             f"{len(variables)} variables")
        polys = []
        for e in components:
            P = sympy.Poly(sympy.sympify(e), *variables)
            if not P.domain.is_QQ and not P.domain.is_ZZ:
                raise TypeError(f"components: {e} is not a polynomial over Q in {variables}")
            polys.append({tuple(int(x) for x in m): Fraction(int(c.p), int(c.q))
                          for m, c in zip(P.monoms(), (sympy.Rational(t) for t in P.coeffs()))})
        return cls.from_components(polys)

    def to_sympy(self, variables: Sequence) -> list:
        """The components as sympy expressions in ``variables``."""
        import sympy

        out = [sympy.Integer(0)] * self.n
        for (i, m), c in self.terms.items():
            out[i] += sympy.Rational(c.numerator, c.denominator) * sympy.Mul(
                *[v ** e for v, e in zip(variables, m)])
        return out

    # ------------------------------------------------------------------ algebra
    def component(self, i: int) -> _Poly:
        """The ``i``-th component polynomial ``{monomial: coefficient}`` (``0 <= i < n``)."""
        i = check_int("i", i, 0, self.n - 1)
        return {m: c for (j, m), c in self.terms.items() if j == i}

    def is_zero(self) -> bool:
        return not self.terms

    def degree(self) -> int:
        """Largest total degree of a monomial (-1 for the zero field)."""
        return max((sum(m) for _, m in self.terms), default=-1)

    def __add__(self, other: "PolyVectorField") -> "PolyVectorField":
        self._check_same(other)
        t = dict(self.terms)
        for k, c in other.terms.items():
            t[k] = t.get(k, Fraction(0)) + c
        return PolyVectorField(self.n, t)

    def scale(self, c) -> "PolyVectorField":
        c = _check_rational(c, "scale")
        return PolyVectorField(self.n, {k: c * v for k, v in self.terms.items()})

    def __neg__(self) -> "PolyVectorField":
        return self.scale(-1)

    def __sub__(self, other: "PolyVectorField") -> "PolyVectorField":
        return self + (-other)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PolyVectorField) and self.n == other.n and self.terms == other.terms

    def __hash__(self) -> int:
        return hash((self.n, frozenset(self.terms.items())))

    def __repr__(self) -> str:
        return f"PolyVectorField(n={self.n}, {len(self.terms)} terms)"

    def _check_same(self, other) -> None:
        if not isinstance(other, PolyVectorField):
            raise TypeError(f"other: expected a PolyVectorField, got {type(other).__name__}")
        if other.n != self.n:
            raise ValueError(f"other: fields on Q^{self.n} and Q^{other.n} cannot be combined")

    def apply(self, poly: _Poly) -> _Poly:
        """The derivative of the polynomial ``poly`` along this field: ``sum_j X_j dpoly/dh_j``."""
        out: dict[Monomial, Fraction] = {}
        _derivative_into(out, self.terms.items(), _partials(poly), 1)
        return {m: c for m, c in out.items() if c}

    def bracket(self, other: "PolyVectorField") -> "PolyVectorField":
        """``[self, other] = D(other) . self - D(self) . other`` (module doc)."""
        self._check_same(other)
        t: dict = {}
        mine, theirs = _to_fmpq(self.terms), _to_fmpq(other.terms)   # exact, ~10x faster
        for i, poly in _components(theirs).items():       # + self(other_i)
            _derivative_into(t, mine.items(), _partials(poly), 1, i)
        for i, poly in _components(mine).items():         # - other(self_i)
            _derivative_into(t, theirs.items(), _partials(poly), -1, i)
        return PolyVectorField._trusted(self.n, {k: _to_fraction(c) for k, c in t.items() if c})

    @classmethod
    def _trusted(cls, n: int, terms: dict) -> "PolyVectorField":
        """A field from terms already in the stored form (valid keys, non-zero ``Fraction``
        coefficients): the results of this module's own exact operations."""
        X = cls.__new__(cls)
        X.n, X.terms = n, terms
        return X


def _to_fmpq(terms: dict) -> dict:
    """A copy of ``terms`` with ``flint.fmpq`` coefficients (from ``Fraction``, ``int`` or
    ``fmpq``; exact: the module's products and eliminations run in python-flint, about 10x
    faster than ``Fraction``)."""
    import flint

    return {k: flint.fmpq(c.numerator, c.denominator) for k, c in terms.items()}


def _to_fraction(c) -> Fraction:
    """A ``flint.fmpq`` as the ``Fraction`` of the same value."""
    return Fraction(int(c.p), int(c.q))


def _components(terms: dict) -> dict[int, _Poly]:
    """``{i: component polynomial}`` of the field terms ``{(i, m): c}`` for the non-zero
    components, in one pass."""
    out: dict[int, _Poly] = {}
    for (i, m), c in terms.items():
        out.setdefault(i, {})[m] = c
    return out


def _partials(poly: _Poly) -> dict[int, list]:
    """``{j: [(m - e_j, c * m_j), ...]}``: the terms of ``dpoly/dh_j`` for every ``j`` it depends
    on (exponents as lists, to be added to the field's monomials)."""
    out: dict[int, list] = {}
    for mp, cp in poly.items():
        for j, e in enumerate(mp):
            if e:
                lowered = list(mp)
                lowered[j] -= 1
                out.setdefault(j, []).append((lowered, cp * e))
    return out


def _derivative_into(out: dict, field_terms, partials: dict[int, list], sign: int,
                     component: int | None = None) -> None:
    """``out += sign * sum_j X_j dpoly/dh_j`` for the field terms ``{(j, m): c}`` and the
    partial derivatives ``partials`` of ``poly`` (:func:`_partials`), exactly; keys are
    monomials, or ``(component, monomial)`` when ``component`` is given. Entries that cancel
    stay in ``out`` as zeros (the caller drops them)."""
    for (j, mx), cx in field_terms:
        terms = partials.get(j)
        if not terms:
            continue
        c_sign = cx if sign > 0 else -cx
        for lowered, c in terms:
            m = tuple([a + b for a, b in zip(mx, lowered)])
            key = m if component is None else (component, m)
            v = c_sign * c
            if key in out:
                out[key] += v
            else:
                out[key] = v


class _Echelon:
    """Incremental reduced row echelon form over Q of sparse coefficient vectors (exact; the rows
    hold ``flint.fmpq``, the vectors added may hold ``Fraction`` or ``fmpq``)."""

    def __init__(self) -> None:
        self.rows: dict = {}  # pivot key -> row (pivot coefficient 1, no other pivot keys)

    def reduce(self, v: dict) -> dict:
        v = _to_fmpq(v)                    # a copy, Fraction or fmpq values alike
        for p, row in self.rows.items():
            c = v.get(p)
            if c:
                _subtract_multiple(v, c, row)
        return v

    def add(self, v: dict) -> bool:
        """Add ``v``; True iff it was independent of the rows so far."""
        r = self.reduce(v)
        if not r:
            return False
        p = min(r)
        inv = 1 / r[p]
        r = {k: c * inv for k, c in r.items()}
        for q, row in self.rows.items():
            c = row.get(p)
            if c:
                _subtract_multiple(row, c, r)
        self.rows[p] = r
        return True


def _subtract_multiple(v: dict, c, row: dict) -> None:
    """``v ← v − c·row`` in place for sparse coefficient dicts (zero entries removed)."""
    for k, x in row.items():
        y = v[k] - c * x if k in v else -(c * x)
        if y:
            v[k] = y
        else:
            v.pop(k, None)


def _independent(fields: Iterable[PolyVectorField], ech: _Echelon | None = None
                 ) -> tuple[list[PolyVectorField], _Echelon]:
    ech = ech or _Echelon()
    out = [X for X in fields if ech.add(X.terms)]
    return out, ech


@dataclass
class VectorFieldAlgebra:
    """A finite-dimensional Lie algebra of polynomial vector fields: ``basis`` (linearly
    independent over Q) and ``n``. ``finite`` is False when the closure was stopped at
    ``max_dim`` (the basis then spans only a subspace and no series is computed)."""

    n: int
    basis: list[PolyVectorField]
    finite: bool = True
    max_dim: int | None = None

    @property
    def dim(self) -> int:
        return len(self.basis)

    def max_degree(self) -> int:
        return max((X.degree() for X in self.basis), default=-1)

    def derived_series(self) -> list[int]:
        """Dimensions ``dim g^(0), dim g^(1), ...`` ending at 0, or at the first repeated
        (non-zero) dimension (the series stabilises: not solvable). ``ValueError`` when the
        algebra was not closed (``finite`` False)."""
        if not self.finite:
            raise ValueError(f"the generated algebra exceeds max_dim={self.max_dim}; "
                             "no derived series of a truncation is reported")
        return derived_series_dims(self.basis)

    @property
    def derived_length(self) -> int | None:
        """Least j with ``g^(j) = 0``; ``None`` when not solvable (SPEC §2)."""
        s = self.derived_series()
        return len(s) - 1 if s[-1] == 0 else None

    def is_abelian(self) -> bool:
        return all(self.basis[a].bracket(self.basis[b]).is_zero()
                   for a in range(self.dim) for b in range(a + 1, self.dim))


def _brackets_span(basis: list[PolyVectorField]) -> list[PolyVectorField]:
    pairs = (basis[a].bracket(basis[b]) for a in range(len(basis)) for b in range(a + 1, len(basis)))
    return _independent(pairs)[0]


def derived_series_dims(basis: list[PolyVectorField]) -> list[int]:
    """Derived series dimensions of the Lie algebra with ``basis`` (which must span a Lie
    algebra; see :func:`generated_algebra`)."""
    dims, cur = [len(basis)], list(basis)
    while cur:
        nxt = _brackets_span(cur)
        if len(nxt) == len(cur):
            return dims  # g^(j+1) = g^(j) != 0: stabilises
        dims.append(len(nxt))
        cur = nxt
    return dims


def generated_algebra(generators: Sequence[PolyVectorField], max_dim: int = 200
                      ) -> VectorFieldAlgebra:
    """The Lie algebra generated by ``generators`` (exact closure under brackets).

    Raises ``ValueError`` for an empty generator list or fields on different spaces and
    ``TypeError`` for a non-field. Returns ``finite=False`` once more than ``max_dim``
    independent fields have been found."""
    gens = list(generators)
    if not gens:
        raise ValueError("generators: empty generator set")
    for X in gens:
        if not isinstance(X, PolyVectorField):
            raise TypeError(f"generators: expected PolyVectorField, got {type(X).__name__}")
        gens[0]._check_same(X)
    max_dim = check_int("max_dim", max_dim)
    basis, ech = _independent(gens)
    frontier = list(basis)
    while frontier:
        new = []
        for X in frontier:
            for Y in list(basis):
                Z = X.bracket(Y)
                if not Z.is_zero() and ech.add(Z.terms):
                    basis.append(Z)
                    new.append(Z)
                    if len(basis) > max_dim:
                        return VectorFieldAlgebra(gens[0].n, basis, finite=False, max_dim=max_dim)
        frontier = new
    return VectorFieldAlgebra(gens[0].n, basis, finite=True, max_dim=max_dim)


def derived_length_lower_bound(generators: Sequence[PolyVectorField], cap: int = 12,
                               ideal_rounds: int = 1, max_levels: int = 16
                               ) -> tuple[int, list[int]]:
    """An exact lower bound on the derived length of the (possibly infinite-dimensional) Lie
    algebra ``g`` generated by ``generators``, with its witness sizes.

    Level 0 starts from the generators; at each level the current set ``S_i ⊆ g^(i)`` is enlarged
    by ``ideal_rounds`` rounds of brackets with the generators (``g^(i)`` is an ideal of ``g``),
    reduced to at most ``cap`` linearly independent fields (lowest degree first), and
    ``S_{i+1}`` is the span of the brackets of its pairs (``⊆ g^(i+1)``). If ``S_i != 0`` then
    ``g^(i) != 0``, so the derived length is at least ``1 + max{i : S_i != 0}``; the bound is
    exact arithmetic but may be below the true value (the sets are truncated). Returns
    ``(lower bound, [|S_0|, |S_1|, ...])``."""
    gens = [X for X in generators if not X.is_zero()]
    if not gens:
        return 0, [0]
    cap, ideal_rounds, max_levels = (
        check_int(name, v, 0 if name == "ideal_rounds" else 1)
        for name, v in (("cap", cap), ("ideal_rounds", ideal_rounds), ("max_levels", max_levels)))
    sizes: list[int] = []
    S = list(gens)
    for _ in range(max_levels):
        cur = list(S)
        for _ in range(ideal_rounds):
            cur += [G.bracket(s) for G in gens for s in cur]
        S = _independent(sorted((c for c in cur if not c.is_zero()),
                                key=lambda X: (X.degree(), len(X.terms))))[0][:cap]
        sizes.append(len(S))
        if not S:
            break
        S = _brackets_span(S)
    bound = sum(1 for s in sizes if s)
    return bound, sizes

"""Finite-dimensional Lie algebras: closure, series, centre, Killing form -- exact by default.

A :class:`LieAlgebra` is a subspace of an *ambient bracket space*:

* matrices ``gl(n)`` flattened row-major to ``F^(n*n)``, with ``[A, B] = AB - BA`` (SPEC §2), or
* ``F^N`` with a bracket given by structure constants ``[e_i, e_j] = sum_k c[i][j][k] e_k``.

Subalgebras and ideals (terms of the derived, lower and upper central series, the centre) share
the ambient, so every series term is again a :class:`LieAlgebra` with ``.dim`` and ``.basis``.

Modules: the ambients and batched brackets :mod:`~seqtheory.theory.lie_ambient`, the Lie
closure and bracket insertion :mod:`~seqtheory.theory.lie_closure`, exact closure and
centraliser over Q :mod:`~seqtheory.theory.lie_exact`, centralisers in coordinates (every field)
:mod:`~seqtheory.theory.lie_centraliser`, structure-constant parsing
:mod:`~seqtheory.theory.lie_structure`, the twin runs of the float path
:mod:`~seqtheory.theory.lie_twins`; this module keeps :class:`LieAlgebra`, its series and the
glue of the twin rule.

Fields (see :mod:`seqtheory.theory.linalg`): rational input (ints, Fractions, sympy Rationals)
is computed exactly over Q (python-flint ``fmpz_mat.rref``, numpy ``int64`` with overflow guards,
Python integers beyond); algebraic input (e.g. ``sympy.sqrt(5)``) exactly over the number field it
generates (sympy ``DomainMatrix``); float input numerically with an explicit relative tolerance
``tol`` -- every candidate vector is normalised before a rank decision, so an ill-scaled basis
does not change the answer. Brackets are batched as matrix products (no per-entry Python loops on
the rational fast path).

Exact path over Q, in detail: brackets of sparse bases (e.g. matrix units) are formed by
``scipy.sparse`` integer products under a proven no-overflow bound, dense ones by BLAS in
``float64`` while every partial sum stays below 2**53 (exact), numpy ``int64`` or FLINT beyond;
zero and duplicate brackets are dropped before elimination, and rows that are already a reduced
echelon form are accepted without one. The brackets of the basis found by the closure check of
:meth:`LieAlgebra.spanned_by` are kept for ``[g, g]``. The upper central series is computed in
coordinates with sparse structure constants, one exact RREF (FLINT ``fmpz_mat.rref``) per term
(``Z_{i+1}`` is the kernel of ``x -> [e_b, x] mod Z_i``, the quotient read off the RREF of
``Z_i``), and :meth:`LieAlgebra.center` is its term ``Z_1``.

Float path, never a wrong answer: float input is read as an approximation, to a relative
accuracy far below ``tol``, of exact matrices, and the answers are those of the exact matrices --
rounding of the input (e.g. of a conjugation ``P A P^-1``) is recognised as noise, not taken as the
exact algebra of the binary fractions given (pass Fractions for that). For algebras from
:meth:`LieAlgebra.generated_by` / :meth:`LieAlgebra.spanned_by` and the algebras derived from
them, the dimension, the derived, lower and upper central series, the centre, semisimplicity,
membership, ``ideal_generated_by``, ``subalgebra_generated_by``, ``bracket_space`` of two
algebras and ``is_subalgebra_of`` are decided by the a-posteriori rule (see
:mod:`seqtheory.theory.float_rank`): the computation runs in extended precision on the input and on
:data:`~seqtheory.theory.lie_twins.TWINS` twins perturbed by :data:`~seqtheory.theory.float_rank.TWIN_PERTURBATION` relative
(arguments too: an algebra by its own twin, float data by its perturbed copy), every decision is
recorded, and the answer is returned only when
:func:`~seqtheory.theory.float_rank.compare_decision_logs` certifies every decision (same decisions
in every twin, dropped values far below the level or re-drawn by the perturbation, kept values
resolved :data:`~seqtheory.theory.float_rank.RESOLUTION_GAP` times better than the dropped noise,
dropped values far below the square of the smallest kept value, wide gaps); else
:class:`~seqtheory.theory.float_rank.NumericalRankError` (a ``ValueError``) naming the step and the
reason. While recording, brackets are formed from the vectors inserted to build an algebra
(unit generators and brackets, kept as ``inserted``), not from its orthonormal basis, whose
directions found with a small residual carry the input's rounding amplified (:func:`~seqtheory.theory.lie_closure.close`).
Where the twins measure noise among the kept values of a decision (input rounding amplified
above ``tol``), the runs are repeated with that decision's level raised between the measured
noise and the signal (:func:`~seqtheory.theory.float_rank.raised_levels`). Float algebras without
twins (e.g. from float structure constants) decide by
:func:`~seqtheory.theory.float_rank.rank_decision` with a rounding bound propagated from the input
(``EPS`` per generator, ``||[du, v] + [u, dv]|| <= 2 (|du| + |dv|)`` per bracket, Wedin's bound
per new basis vector); :attr:`LieAlgebra.certificate` says which. Before a series is returned
its invariants are checked (each term inside the previous one;
``g^(i) ⊆ γ_{i+1}``; the upper central series reaches ``g`` exactly when the lower one reaches 0,
in as many steps, with ``γ_{c+1-i} ⊆ Z_i``). Each series records ``tol`` and ``smallest_gap``; the
algebra records ``tol``, ``smallest_gap``, ``noise`` (the propagated bound on its basis) and
``certificate``. Measured (tests/test_float_lie_stress.py): conjugated nilpotent, solvable and
simple algebras get the exact answer up to condition number 1e3 (all 80 family cases at 1e3;
73 before the resolution gap and the brackets of inserted vectors); no wrong answer over 10 000
random conjugated integer algebras up to 1e8, every invariant scored on its own (the dimension
alone of sl(2) conjugated above 1e6, once wrong, now refuses or is right). Exact input (ints,
Fractions, sympy numbers) always gets the exact path, the reference beside this one.
Decisions whose result already has the largest dimension the exact computation can have (a
closure that is all of gl(n); a bracket space that is sl(n) -- brackets are traceless -- or
``[g, g] = g``; a containment in the ambient, or of a bracket space in sl(n)) are *settled*
(:func:`~seqtheory.theory.float_rank.settle_decisions`): no genuine direction can be missing, so
their dropped values are not held to the square rule. Refusals below condition number 1e4 (330
of 5 088 stress cases, seed 2026; 434 before settling) are none intrinsic: the genuine values of
the exact conjugation stand at least 170 times above the input's rounding noise, but the rule
cannot tell them from what it must refuse above 1e5 (the square rule);
:func:`recorded_run` gives one recorded run for such diagnostics
(``benchmarks/float_lie_refusals.py``).

Series conventions (SPEC §2): derived series ``g^(0) = g``, ``g^(i+1) = [g^(i), g^(i)]``; derived
length = least ``k`` with ``g^(k) = 0`` (zero algebra -> 0, non-zero abelian -> 1, not solvable ->
``None``). Lower central series ``γ_1 = g``, ``γ_{i+1} = [g, γ_i]``; nilpotency class = least
``c`` with ``γ_{c+1} = 0`` (zero -> 0, non-zero abelian -> 1, not nilpotent -> ``None``). Upper
central series ``Z_0 = 0``, ``Z_{i+1} = {x : [x, g] ⊆ Z_i}``. A series that stabilises at a
non-zero term ends there; the returned :class:`LieSeries` says so (``stabilised``).
Killing form ``K(x, y) = tr(ad x ad y)``; semisimple iff ``K`` is non-degenerate (Cartan's
criterion, characteristic 0). Source: J. E. Humphreys, *Introduction to Lie Algebras and
Representation Theory*, §3-§5; used for [DEPTH] (Heo et al., arXiv:2603.05573), §3.
"""
from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, Sequence

import numpy as np

from ._messages import counted
from .contract import as_list, check_bool
from .field_input import check_number, concat_rows, row_count, to_field_rows
from .field_linalg import domain
from .float_rank import NumericalRankError, check_tol, decision_count, is_recording, rank_decision, \
    recording_decisions, row_norms, settle_decisions, svd_noise, working_dtype
from .float_subspace import FloatSubspace
from .int_rows import as_int_rows, exact_matmul, maxabs, primitive_rows, stack_int
from .lie_ambient import MatrixAmbient, StructureAmbient, span_rows_from, span_rows_qq, \
    sparse_brackets
from .lie_centraliser import centraliser_mod, coordinate_noise
from .lie_closure import bracket_noise, bracket_space_bound, check_closed, close, \
    extend_field_rows, nonzero_brackets
from .lie_exact import centraliser_qq
from .lie_structure import check_antisymmetry, check_jacobi, field_table, integer_table, \
    is_rational_table, parse_structure
from .lie_twins import certify, twin, twin_refusals, twin_runs
from .linalg import RationalSubspace, full_subspace, subspace_rows, zero_subspace
from .matrix_input import matrix_rows
from .subspace import Subspace

__all__ = ["LieAlgebra", "LieSeries", "recorded_run"]

# ============================================================================ series container
class LieSeries(list):
    """A list of :class:`LieAlgebra` terms. ``dims``: their dimensions (a tuple). ``stabilised``: True when
    the series ended because a non-zero term repeated (it then ends at that term, listed once);
    False when it reached 0. ``name``: which series. Float path: ``tol`` (the relative
    tolerance) and ``smallest_gap`` (the smallest ratio of kept to dropped value of any rank
    decision behind the terms, at least :data:`~seqtheory.theory.float_rank.MIN_GAP`; see
    :func:`~seqtheory.theory.float_rank.compare_decision_logs` and
    :func:`~seqtheory.theory.float_rank.rank_decision`); both ``None`` on exact paths."""

    def __init__(self, terms, stabilised: bool, name: str):
        super().__init__(terms)
        self.stabilised = stabilised
        self.name = name
        self.tol = terms[0].tol if terms else None
        gaps = [t.smallest_gap for t in terms if t.smallest_gap is not None]
        self.smallest_gap = min(gaps) if gaps else None

    @property
    def dims(self) -> tuple[int, ...]:
        """The terms' dimensions, a tuple (as ``FiniteGroup`` series' ``orders``)."""
        return tuple(t.dim for t in self)

    def __repr__(self) -> str:
        end = "stabilises" if self.stabilised else "reaches 0"
        return f"LieSeries({self.name}: dims {self.dims}, {end})"


def _twin_checked(method):
    """Float path: run ``method`` on the algebra and on its perturbed twins (see
    :func:`_float_entry`) with every decision recorded, and return its result only when
    :func:`~seqtheory.theory.float_rank.compare_decision_logs` certifies the decisions (else
    :class:`~seqtheory.theory.float_rank.NumericalRankError`). The twins' results are attached to
    the result's algebras (series terms, centre), so their own series are twin-checked too.
    Arguments are twinned too (:func:`_twin_args`: an algebra by its own twin, float data by
    its perturbed twin). Exact paths, nested calls and algebras (or algebra arguments) without
    twins run ``method`` unchanged."""
    import functools

    @functools.wraps(method)
    def wrapper(self, *args, **kwargs):
        twins = self._cache.get("twins")
        if self.field != "RR" or not twins or is_recording() \
                or not all(_has_twins(a) for a in (*args, *kwargs.values())):
            return method(self, *args, **kwargs)
        algs = [self] + list(twins)
        restore = _cache_restorer(_algebras_touched(algs, (*args, *kwargs.values())))
        try:
            outs, logs = twin_runs(lambda k: method(algs[k], *_twin_args(args, k),
                                                     **dict(zip(kwargs, _twin_args(
                                                         list(kwargs.values()), k)))),
                                   _cache_restorer(algs))
            (out, exc), rest = outs[0], outs[1:]
            if exc is not None:
                raise exc
            twin_refusals(self.tol, rest)
            certify(self.tol, logs[0], logs[1:])
        except BaseException:
            # a refused (or interrupted) answer leaves nothing behind: what the runs cached is
            # uncertified, and a second call would read it without any decision to compare
            restore()
            raise
        _attach_twins(out, [r for r, _ in rest])
        return out
    return wrapper


def _cache_restorer(algebras: Sequence["LieAlgebra"]):
    """A function that puts back the caches ``algebras`` have now (what later runs cached is
    dropped)."""
    saved = [(a, dict(a._cache)) for a in algebras]

    def restore() -> None:
        for a, c in saved:
            a._cache.clear()
            a._cache.update(c)
    return restore


def _algebras_touched(algs: Sequence["LieAlgebra"], args: Sequence[Any]) -> list["LieAlgebra"]:
    """The algebras whose caches a twin-checked call may fill: the algebra and its twins, and
    every algebra argument with its twins (each once)."""
    out: list[LieAlgebra] = []
    for a in (*algs, *(x for x in args if isinstance(x, LieAlgebra))):
        for b in (a, *a._cache.get("twins", ())):
            if not any(b is c for c in out):
                out.append(b)
    return out


def _has_twins(a: Any) -> bool:
    """Whether an argument can be twinned: anything but a float algebra without twins."""
    return not isinstance(a, LieAlgebra) or a.field != "RR" or bool(a._cache.get("twins"))


def _twin_args(args: Sequence[Any], k: int) -> list:
    """The arguments of twin run ``k`` (``0``: the input's own): a float algebra is replaced by
    its twin ``k``, numeric data (a matrix, a list of matrices) by its perturbed twin
    (:func:`~seqtheory.theory.lie_twins.twin`, all of one argument's entries perturbed together); anything else is kept."""
    if k == 0:
        return list(args)
    out = []
    for a in args:
        if isinstance(a, LieAlgebra):
            out.append(a._cache["twins"][k - 1] if a.field == "RR" else a)
            continue
        try:
            arr = np.asarray(a, dtype=float)
        except (TypeError, ValueError):
            out.append(a)
            continue
        if arr.ndim == 0 or not np.all(np.isfinite(arr)):
            out.append(a)
        else:
            tw = twin(arr, k)
            out.append(list(tw) if isinstance(a, (list, tuple)) else tw)
    return out


# ============================================================================ the Lie algebra
class LieAlgebra:
    """A finite-dimensional Lie algebra inside an ambient bracket space (see module doc).

    Construct with :meth:`generated_by`, :meth:`spanned_by` or :meth:`from_structure_constants`.
    ``dim``; ``basis`` (matrices as ``n x n`` numpy arrays -- Python ints / Fractions over Q, sympy
    numbers over a number field, floats on the float path -- or coordinate vectors for a
    structure-constant algebra); ``field`` (``"QQ"``, a sympy domain, or ``"RR"``); ``tol`` (float
    path only, else ``None``).
    """

    def __init__(self, ambient, space: Subspace):
        self._ambient = ambient
        self._space = space
        self._cache: dict[str, Any] = {}

    # ------------------------------------------------------------------ construction
    @staticmethod
    def _matrices(mats: Any, name: str, tol: float | None):
        """``(rows, n, field, tol)``: the matrices read by :func:`matrix_rows` and ``tol``
        converted (:func:`~seqtheory.theory.float_rank.check_tol`; ``None`` kept)."""
        tol = None if tol is None else check_tol(tol)
        return (*matrix_rows(mats, name, tol), tol)

    @classmethod
    def _from_rows(cls, rows, n: int, field, tol: float | None):
        amb = MatrixAmbient(n)
        S = zero_subspace(n * n, field, tol if tol is not None else 1e-9)
        data = _convert(rows, field)
        return amb, S, data

    @classmethod
    def generated_by(cls, mats: Any, *, tol: float | None = None) -> "LieAlgebra":
        """The Lie closure (smallest Lie subalgebra of gl(n) containing ``mats``).

        ``mats``: non-empty sequence of ``n x n`` matrices (nested lists, numpy arrays, sympy
        Matrices) with entries int / Fraction / sympy numbers (exact), or floats (float path with
        relative tolerance ``tol``, default 1e-9; passing ``tol`` forces the float path). Float
        input is read as approximating exact matrices to a relative accuracy far below ``tol``;
        the answer is theirs, certified by the a-posteriori rule (module docstring): rounding
        of the input is noise, not structure.
        Algorithm: insert generators, then repeatedly insert the brackets of all current basis
        vectors with the newly added ones (the frontier) until nothing new appears.
        Raises ``ValueError`` for an empty set, non-square or mismatched matrices, NaN/inf;
        on the float path :class:`~seqtheory.theory.float_rank.NumericalRankError` (a
        ``ValueError``) when a rank decision is not certified (see the module docstring).
        Source: Humphreys §1-§3 (closure); the float rule: :mod:`seqtheory.theory.linalg`.
        """
        rows, n, field, tol = cls._matrices(mats, "mats", tol)
        amb, S, data = cls._from_rows(rows, n, field, tol)
        if field == "RR":
            return _float_entry(data, n, S.tol, "generated")
        S, frontier = S.extend_rows(data)
        return cls(amb, close(amb, S, frontier, "mats"))

    @classmethod
    def spanned_by(cls, mats: Any, *, tol: float | None = None) -> "LieAlgebra":
        """The span of ``mats`` (as for :meth:`generated_by`), which must be closed under the
        bracket; ``ValueError`` ("not closed under the bracket") otherwise."""
        rows, n, field, tol = cls._matrices(mats, "mats", tol)
        amb, S, data = cls._from_rows(rows, n, field, tol)
        if field == "RR":
            return _float_entry(data, n, S.tol, "spanned")
        S = S.extend_rows(data)[0]
        B = subspace_rows(S)
        if field == "QQ":
            # the brackets of the basis span [g, g] (kept for derived_algebra); their sparse
            # form gives the structure constants (kept for the upper central series)
            sb = sparse_brackets(amb, B, B, True)
            W = span_rows_from(amb, sb, B, B, True)
            if not S.contains_rows(W):
                raise ValueError("mats: the span is not closed under the bracket [A,B] = AB - BA")
            L = cls(amb, S)
            L._cache["bracket_rows"] = W
            if sb is not None:
                L._cache["basis_brackets"] = sb
            return L
        return cls(amb, check_closed(amb, S))

    @classmethod
    def from_structure_constants(cls, c: Any, *, dim: int | None = None,
                                 check: bool = True, field: Any = None) -> "LieAlgebra":
        """The Lie algebra on ``Q^N`` with ``[e_i, e_j] = sum_k c[i][j][k] e_k``.

        ``c``: dense nested ``N x N x N`` sequence (or numpy array) of rationals, or sparse dict
        ``{(i, j): {k: coeff}}`` (then ``dim`` = N is required; only non-zero brackets need be
        given, and giving only ``i < j`` is allowed -- the ``(j, i)`` entries are filled in by
        antisymmetry; if both are given they must be opposite). With ``check`` (default) the
        constants are validated exactly: ``c[i][i] = 0``, antisymmetry, and the Jacobi identity
        ``[[e_i,e_j],e_k] + [[e_j,e_k],e_i] + [[e_k,e_i],e_j] = 0``; a violation raises
        ``ValueError`` naming the offending pair / triple. Entries must be exact: rational (ints,
        Fractions, sympy Rationals) for an algebra over Q, or real algebraic sympy numbers
        (``sympy.sqrt(2)``: the algebra is then over the number field they generate, e.g.
        ``Q(sqrt 2)``, as the matrix path does); floats and other numbers raise ``TypeError``.
        ``field``: a sympy number field domain to build the algebra over (e.g. ``L.field`` of
        an algebra over ``Q(sqrt 2)`` whose structure constants happen to be rational); an
        entry outside it raises ``TypeError``. Default: Q for rational entries, else the field
        the entries generate.
        Source: GAP ``LieAlgebraByStructureConstants`` (the format), Humphreys §1 (the identities).
        """
        check = check_bool("check", check)
        N, entries = parse_structure(c, dim)
        if field is not None and field != "QQ":
            I, J, K, C, field = field_table(entries, domain(field))
            scale = 1
        elif is_rational_table(entries):
            I, J, K, C, scale = integer_table(entries)
            field = "QQ"
        elif field == "QQ":
            raise TypeError("c: an entry is irrational, but field is QQ")
        else:
            I, J, K, C, field = field_table(entries)
            scale = 1
        if check:
            check_antisymmetry(N, I, J, K, C)
            check_jacobi(N, I, J, K, C)
        amb = StructureAmbient(N, I, J, K, C, scale, field)
        return cls(amb, full_subspace(field, N))

    # ------------------------------------------------------------------ basic data
    @property
    def dim(self) -> int:
        return self._space.dim

    @property
    def field(self):
        return self._space.field

    @property
    def tol(self) -> float | None:
        return getattr(self._space, "tol", None)

    @property
    def smallest_gap(self) -> float | None:
        """Float path: the smallest gap of the rank decisions that built this algebra's basis
        (each is at least :data:`~seqtheory.theory.float_rank.MIN_GAP`; ``inf`` when no decision
        had a dropped side); ``None`` on exact paths."""
        return getattr(self._space, "smallest_gap", None)

    @property
    def noise(self) -> float | None:
        """Float path: first-order bound on the sine of the angle between the computed algebra
        and the one exact arithmetic on the same input gives; ``None`` on exact paths."""
        return getattr(self._space, "noise", None)

    @property
    def certificate(self) -> str | None:
        """Float path: how the rank decisions behind the answers are certified --
        ``"a-posteriori (twin runs)"`` for algebras from :meth:`generated_by` /
        :meth:`spanned_by` and the algebras derived from them (series terms, centres, ideals,
        subalgebras, bracket spaces: their answers are computed on the input and on perturbed
        twins and compared decision by decision,
        :func:`~seqtheory.theory.float_rank.compare_decision_logs`), else ``"propagated rounding
        bound"`` (:func:`~seqtheory.theory.float_rank.rank_decision` with a bound propagated from
        the input; float algebras without twins). ``None`` on exact paths."""
        if self.field != "RR":
            return None
        return "a-posteriori (twin runs)" if self._cache.get("twins") else \
            "propagated rounding bound"

    @property
    def space(self) -> Subspace:
        """The underlying :class:`~seqtheory.theory.linalg.Subspace` of the ambient."""
        return self._space

    @property
    def ambient_kind(self) -> str:
        return self._ambient.kind

    @property
    def matrix_size(self) -> int | None:
        return getattr(self._ambient, "n", None)

    @property
    def basis(self) -> list[Any]:
        out = []
        for r in subspace_rows(self._space):
            v = _export(r, self.field)
            out.append(v.reshape(self._ambient.n, self._ambient.n)
                       if self._ambient.kind == "matrix" else v)
        return out

    def __repr__(self) -> str:
        amb = f"gl({self._ambient.n})" if self._ambient.kind == "matrix" else f"structure constants on F^{self._ambient.N}"
        return f"LieAlgebra(dim={self.dim}, field={self.field}, ambient={amb})"

    def _sub(self, space: Subspace, inserted: list | None = None) -> "LieAlgebra":
        """The algebra of ``space`` in the same ambient; ``inserted``: the rows inserted to
        build it (float path, recorded decisions: bracketed in place of the basis rows)."""
        L = LieAlgebra(self._ambient, space)
        L._keep_inserted(inserted)
        return L

    def _keep_inserted(self, inserted: list | None) -> None:
        if inserted is not None and self.field == "RR" and is_recording():
            self._cache["inserted"] = concat_rows(list(inserted), "RR", self._ambient.N)

    def _same_ambient(self, other: "LieAlgebra") -> None:
        if not isinstance(other, LieAlgebra) or not (other._ambient == self._ambient) \
                or other.field != self.field:
            raise ValueError("the two Lie algebras do not share an ambient space and field")

    def _vec(self, u: Any, name: str):
        a = np.asarray(u.tolist() if hasattr(u, "tolist") and not isinstance(u, np.ndarray) else u,
                       dtype=object).ravel()
        if a.size != self._ambient.N:
            raise ValueError(f"{name} has {counted(a.size, 'entry', 'entries')}, the ambient "
                             f"has dimension {self._ambient.N}")
        for x in a:
            check_number(x, name)
        if self.field == "QQ":
            ints, sc = to_field_rows([list(a)], "QQ", name)
            return ints, sc[0]
        return _convert([list(a)], self.field, name), 1

    def bracket(self, u: Any, v: Any) -> Any:
        """``[u, v]`` in the ambient (matrices: ``uv - vu`` as an ``n x n`` array; structure
        constants: the coordinate vector). Exact over Q / number fields."""
        a, sa = self._vec(u, "u")
        b, sb = self._vec(v, "v")
        chunk = next(self._ambient.batches(self.field, a, b, False))
        r = chunk[0]
        if self.field == "QQ":
            den = sa * sb * self._ambient.scale
            out = np.array([Fraction(int(x), den) for x in r], dtype=object)
            out = np.array([int(x) if x.denominator == 1 else x for x in out], dtype=object)
        else:
            out = _export(r, self.field)
        return out.reshape(self._ambient.n, self._ambient.n) if self._ambient.kind == "matrix" else out

    @_twin_checked
    def contains(self, u: Any) -> bool:
        """Whether ``u`` (a matrix / coordinate vector) lies in the algebra."""
        a, _ = self._vec(u, "u")
        return self._space.contains_rows(a)

    @_twin_checked
    def is_subalgebra_of(self, other: "LieAlgebra") -> bool:
        """Whether ``self ⊆ other`` (same ambient and field, else ``ValueError``)."""
        self._same_ambient(other)
        if self.field == "RR":
            return self.dim <= other.dim and \
                other._space.contains_rows(self._inserted(), noise=self.noise)
        return self._space.is_subspace_of(other._space)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, LieAlgebra):
            return NotImplemented
        if not (other._ambient == self._ambient) or other.field != self.field:
            return False
        return self._space == other._space

    __hash__ = None  # type: ignore[assignment]

    # ------------------------------------------------------------------ bracket spaces / ideals
    @_twin_checked
    def bracket_space(self, other: "LieAlgebra") -> "LieAlgebra":
        """``[self, other]`` = span of all brackets (a subspace of the common ambient; it is a
        subalgebra / ideal in the usual situations, e.g. both ideals of a common algebra)."""
        self._same_ambient(other)
        A, B = self._inserted(), other._inserted()
        sym = other is self or self._space == other._space
        if self.field == "QQ":
            if sym and "bracket_rows" in self._cache:   # kept from the closure check
                W = self._cache["bracket_rows"]
            else:
                W = span_rows_qq(self._ambient, A, A if sym else B, sym)
            return self._sub(RationalSubspace(self._ambient.N).extend_rows(W)[0])
        S = zero_subspace(self._ambient.N, self.field, self.tol or 1e-9)
        e = bracket_noise(self._ambient, self._space, other._space)
        inserted, start = [], decision_count()
        for chunk in self._ambient.batches(self.field, A, A if sym else B, sym):
            S, add = extend_field_rows(S, chunk, e, "a bracket space [a, b]")
            inserted.append(add)
            if S.dim == self._ambient.N:
                break
        # [a, a] lies in a only when a is closed; a bracket space [a, b] need not be (only
        # [a, a] of a closed a is known to be: an ideal of a)
        closed = sym and self._cache.get("closed", True)
        if S.dim >= bracket_space_bound(self._ambient, self.dim, other.dim, closed):
            settle_decisions(start)     # as large as it can be: nothing genuine dropped
        out = self._sub(S, inserted)
        # spanned by brackets: traceless (inside sl(n)) in a matrix ambient
        out._cache["traceless"] = getattr(self._ambient, "kind", None) == "matrix"
        out._cache["closed"] = closed
        return out

    def _inserted(self):
        """The rows that span the algebra: on the float path while its decisions are recorded,
        the vectors inserted when it was built (unit generators and brackets, see
        :func:`~seqtheory.theory.lie_closure.close`), when known; else the basis rows of its subspace."""
        W = self._cache.get("inserted")
        return W if W is not None and is_recording() else subspace_rows(self._space)

    @_twin_checked
    def derived_algebra(self) -> "LieAlgebra":
        """``[g, g]``."""
        if "derived" not in self._cache:
            self._cache["derived"] = self.bracket_space(self)
        return self._cache["derived"]

    @_twin_checked
    def subalgebra_generated_by(self, elements: Sequence[Any]) -> "LieAlgebra":
        """The Lie subalgebra generated by ``elements`` (which must lie in ``self``)."""
        rows = self._elements(elements)
        S, fr = extend_field_rows(zero_subspace(self._ambient.N, self.field, self.tol or 1e-9), rows, None,
                        "elements")
        inserted = [fr]
        return self._sub(close(self._ambient, S, fr, "elements", inserted), inserted)

    @_twin_checked
    def ideal_generated_by(self, elements: Sequence[Any]) -> "LieAlgebra":
        """The ideal of ``self`` generated by ``elements``: the smallest subspace containing them
        and closed under ``[g, .]``."""
        rows = self._elements(elements)
        S, fr = extend_field_rows(zero_subspace(self._ambient.N, self.field, self.tol or 1e-9), rows, None,
                        "elements")
        G, inserted = subspace_rows(self._space), [fr]
        while row_count(fr):
            new = []
            e = bracket_noise(self._ambient, self._space, S)
            for chunk in self._ambient.batches(self.field, G, fr, False):
                S, add = extend_field_rows(S, chunk, e, "the ideal generated by elements")
                if row_count(add):
                    new.append(add)
            fr = concat_rows(new, self.field, self._ambient.N)
            inserted.append(fr)
        return self._sub(S, inserted)

    def _elements(self, elements):
        if not elements:
            raise ValueError("elements is empty")
        rows = []
        for t, e in enumerate(elements):
            a, _ = self._vec(e, f"elements[{t}]")
            if not self._space.contains_rows(a):
                raise ValueError(f"elements[{t}] is not in the Lie algebra")
            rows.append(a)
        return concat_rows(rows, self.field, self._ambient.N)

    # ------------------------------------------------------------------ series
    @_twin_checked
    def derived_series(self) -> LieSeries:
        """``g^(0) = g, g^(1) = [g, g], ...`` until 0 or until a term repeats (``stabilised``).

        Every term is checked to lie in the previous one before it is accepted (so the series is
        nested and ends); on the float path also ``g^(i) ⊆ γ_{i+1}`` against the lower central
        series. A float computation that breaks an invariant raises
        :class:`~seqtheory.theory.float_rank.NumericalRankError` instead of returning."""
        if "ds" not in self._cache:
            terms, cur = [self], self
            while cur.dim > 0:
                nxt = cur.derived_algebra()
                _check_term(nxt, cur, "derived series", len(terms))
                if nxt.dim == cur.dim:
                    break
                terms.append(nxt)
                cur = nxt
            ds = LieSeries(terms, cur.dim > 0, "derived series")
            if self.field == "RR":
                lcs = self.lower_central_series()
                for i, t in enumerate(ds):
                    _check_contained(t, lcs[min(i, len(lcs) - 1)],
                                     f"derived series term g^({i}) inside γ_{i + 1}")
            self._cache["ds"] = ds
        return self._cache["ds"]

    @_twin_checked
    def lower_central_series(self) -> LieSeries:
        """``γ_1 = g, γ_{i+1} = [g, γ_i]`` until 0 or until a term repeats (``stabilised``).
        Every term is checked to lie in the previous one (float path: else
        :class:`~seqtheory.theory.float_rank.NumericalRankError`)."""
        if "lcs" not in self._cache:
            terms, cur = [self], self
            while cur.dim > 0:
                nxt = self.derived_algebra() if cur is self else self.bracket_space(cur)
                _check_term(nxt, cur, "lower central series", len(terms) + 1)
                if nxt.dim == cur.dim:
                    break
                terms.append(nxt)
                cur = nxt
            self._cache["lcs"] = LieSeries(terms, cur.dim > 0, "lower central series")
        return self._cache["lcs"]

    @_twin_checked
    def upper_central_series(self) -> LieSeries:
        """``Z_0 = 0, Z_1 = Z(g), Z_{i+1} = {x : [x, g] ⊆ Z_i}`` until it stops growing
        (``stabilised`` is True when it stops below ``g``; it reaches ``g`` iff g is nilpotent)."""
        if "ucs" not in self._cache and self.field == "QQ":
            self._cache["ucs"] = self._upper_central_series_qq()
            ucs = self._cache["ucs"]
            self._cache.setdefault("center", ucs[1] if len(ucs) > 1 else ucs[0])
        if "ucs" not in self._cache:
            d = self.dim
            C = self._structure_coords()
            Z = zero_subspace(d, self.field, self.tol or 1e-9)
            terms = [self._sub(zero_subspace(self._ambient.N, self.field, self.tol or 1e-9))]
            while True:
                # Z_i ⊆ Z_{i+1} holds exactly; the sum enforces it on the float path too, so
                # the dimension strictly grows until the series stops (termination)
                nz = centraliser_mod(C, Z, self.field, self.tol, self.noise).sum(Z)
                if nz.dim == Z.dim:
                    break
                Z = nz
                terms.append(self._from_coords(Z))
                if Z.dim == d:
                    break
            ucs = LieSeries(terms, Z.dim < d, "upper central series")
            if self.field == "RR":
                self._check_central_series(ucs)
            self._cache["ucs"] = ucs
        return self._cache["ucs"]

    def _upper_central_series_qq(self) -> LieSeries:
        """Exact path of :meth:`upper_central_series`, in coordinates with sparse structure
        constants: ``Z_{i+1}`` is the kernel of the stacked maps ``x -> pi_i([e_b, x])``
        (``pi_i``: the quotient by ``Z_i``, as the non-pivot coordinates of the reduction modulo
        the RREF of ``Z_i``), one exact RREF per step (FLINT), its kernel read off the RREF."""
        d = self.dim
        zero = self._sub(zero_subspace(self._ambient.N, "QQ"))
        terms = [zero]
        Ck = self._ad_matrix_qq()
        Z = RationalSubspace(d)
        while Z.dim < d:
            nz = centraliser_qq(Ck, Z, d) if Ck is not None else None
            if nz is None:   # large entries: dense exact path
                nz = centraliser_mod(self._structure_coords(), Z, "QQ", None).sum(Z)
            if nz.dim == Z.dim:
                break
            if nz.dim < Z.dim:
                raise RuntimeError(f"upper central series: Z_{len(terms)} has dimension "
                                   f"{nz.dim} < {Z.dim}")
            Z = nz
            terms.append(self._from_coords(Z))
        return LieSeries(terms, Z.dim < d, "upper central series")

    def _ad_matrix_qq(self):
        """Sparse ``(d, d*d)`` integer matrix ``A[k, b*d + a] = den * c[a, b, k]`` (scipy CSR,
        ``int64``), with ``[e_a, e_b] = sum_k c[a,b,k] e_k``; ``den`` cancels in every kernel,
        so it is dropped. ``None`` when a numerator exceeds the ``int64`` range."""
        import scipy.sparse as sp

        if "ad_qq" not in self._cache:
            d = self.dim
            a, b, k, v, _den = self._structure_sparse_qq()
            self._cache["ad_qq"] = None if v.dtype != np.int64 else \
                sp.csr_matrix((v, (k, b * d + a)), shape=(d, d * d), dtype=np.int64)
        return self._cache["ad_qq"]

    def _structure_sparse_qq(self):
        """Non-zero structure constants over Q as arrays ``(a, b, k, num, den)`` with
        ``[e_a, e_b] = sum num / den e_k`` (both orders ``(a, b)`` and ``(b, a)`` listed;
        ``num`` is ``int64`` or ``object``). From sparse brackets when the ambient offers them,
        else from the dense structure constants."""
        if "sc_sparse" in self._cache:
            return self._cache["sc_sparse"]
        d = self.dim
        B = subspace_rows(self._space)
        sb = self._cache.get("basis_brackets")   # from the closure check of spanned_by
        if sb is None and d and "sc" not in self._cache:
            sb = sparse_brackets(self._ambient, B, B, True)
        if sb is not None:
            pairs, rows = sb
            piv = list(self._space.pivots)
            dv = [int(B[i, p]) for i, p in enumerate(piv)]
            D = 1
            for x in dv:
                D = D * x // math.gcd(D, x)
            mult = [D // x for x in dv]
            coo = rows[:, piv].tocoo()
            num = coo.data.astype(np.int64)
            m = np.array(mult, dtype=object)[coo.col]
            if maxabs(num) * max(mult) < 2 ** 62:
                num = num * m.astype(np.int64)
            else:
                num = as_int_rows((num.astype(object) * m)[None, :])[0]
            a, b = pairs[coo.row] // d, pairs[coo.row] % d
            k = coo.col.astype(np.int64)
            res = (np.concatenate([a, b]), np.concatenate([b, a]), np.concatenate([k, k]),
                   stack_int([num[None, :], -num[None, :]]).reshape(-1)
                   if num.dtype == np.int64 else np.concatenate([num, -num]),
                   D * self._ambient.scale)
        else:
            Ci, den = self._structure_coords()
            a, b, k = (x.astype(np.int64) for x in np.nonzero(Ci))
            num = as_int_rows(Ci[a, b, k][None, :])[0] if len(a) else np.zeros(0, np.int64)
            res = (a, b, k, num, den)
        self._cache["sc_sparse"] = res
        return res

    def _check_central_series(self, ucs: LieSeries) -> None:
        """Float path: the upper central series lies in g, reaches g exactly when the lower
        central series reaches 0, then in as many steps, with ``γ_{c+1-i} ⊆ Z_i``."""
        lcs = self.lower_central_series()
        for i, t in enumerate(ucs):
            _check_contained(t, self, f"upper central series term Z_{i} inside g")
        if lcs.stabilised != ucs.stabilised or (not lcs.stabilised and len(lcs) != len(ucs)):
            raise _invariant_error(self, f"the lower central series (dims {lcs.dims}) and the "
                                         f"upper central series (dims {ucs.dims}) disagree on "
                                         f"nilpotency or class")
        if not lcs.stabilised:
            c = len(lcs) - 1
            for i in range(c + 1):
                _check_contained(lcs[c - i], ucs[i], f"γ_{c + 1 - i} inside Z_{i}")

    @_twin_checked
    def center(self) -> "LieAlgebra":
        """The centre ``{x in g : [x, g] = 0}``. Exact path: the term ``Z_1`` of the cached upper
        central series (``Z_0 = 0`` when the series stops there), not a recomputation. Float
        path: one centraliser computation (the whole series, with its consistency checks,
        refuses more often than the centre alone needs)."""
        if "center" not in self._cache:
            if self.field == "QQ":
                self.upper_central_series()          # caches its Z_1 as the centre
            else:
                C = self._structure_coords()
                Z = centraliser_mod(C, zero_subspace(self.dim, self.field, self.tol or 1e-9), self.field,
                                     self.tol, self.noise)
                self._cache["center"] = self._from_coords(Z)
        return self._cache["center"]

    centre = center

    def from_coordinates(self, coords: Any) -> "LieAlgebra":
        """The Lie subalgebra of ``self`` spanned by the elements ``sum_i coords[r][i] basis[i]``
        (one row of ``coords`` per element, ``dim`` exact numbers each: ints, Fractions, sympy
        numbers of the algebra's field; no rows: the zero subalgebra). Exact algebras only.
        ``ValueError`` for the float path, a row of the wrong length, or a span that is not
        closed under the bracket; ``TypeError`` for entries that are not exact numbers.
        Source: GAP ``SubalgebraNC`` (a subalgebra given by a basis in coordinates)."""
        if self.field == "RR":
            raise ValueError("from_coordinates is exact: the algebra is on the float path")
        rows = [as_list(f"coords[{i}]", r, "a row of coordinates")
                for i, r in enumerate(as_list("coords", coords, "a sequence of coordinate rows"))]
        if any(len(r) != self.dim for r in rows):
            raise ValueError(f"coords: every row must have dim = {counted(self.dim, 'entry', 'entries')}")
        to_field_rows(rows, self.field, "coords")             # the entries' kinds, named
        Zc = zero_subspace(self.dim, self.field).extend(rows) if rows \
            else zero_subspace(self.dim, self.field)
        sub = self._from_coords(Zc)
        if not sub.bracket_space(sub).is_subalgebra_of(sub):
            raise ValueError("coords: the span is not closed under the bracket")
        return sub

    def _from_coords(self, Zc: Subspace) -> "LieAlgebra":
        """Subalgebra from a subspace of coordinates (w.r.t. ``basis``)."""
        B = subspace_rows(self._space)
        if Zc.dim == 0:
            return self._sub(zero_subspace(self._ambient.N, self.field, self.tol or 1e-9))
        R = subspace_rows(Zc)
        if self.field == "QQ":
            R, B = as_int_rows(R), as_int_rows(B)
            if R.dtype == np.int64 and B.dtype == np.int64 \
                    and maxabs(R) * maxabs(B) * R.shape[1] < 2 ** 62:
                import scipy.sparse as sp   # sparse product, exact under the int64 bound

                vecs = (sp.csr_matrix(R) @ sp.csr_matrix(B)).toarray()
            else:
                vecs = exact_matmul(R, B)
            vecs = primitive_rows(vecs)
            # RREF coordinates times an RREF basis are in RREF: row i has its pivot at the
            # basis pivot of the coordinate pivot, and 0 at the other rows' pivots
            piv = [self._space.pivots[p] for p in Zc.pivots]
            if vecs.shape[0] == len(piv):
                return self._sub(RationalSubspace(self._ambient.N, vecs, piv))
        else:
            vecs = np.asarray(R) @ np.asarray(B)
        S = zero_subspace(self._ambient.N, self.field, self.tol or 1e-9)
        if self.field == "RR":
            # orthonormal coordinates times an orthonormal basis: both errors add
            S = S.extend_rows(vecs, noise=Zc.noise + self.noise + svd_noise(*vecs.shape),
                              argument="a subspace given by coordinates")[0]
            S = FloatSubspace(S.ambient_dim, S.tol, S.rows, S.min_kept, S.max_dropped, S.noise,
                              min(S.smallest_gap, Zc.smallest_gap))
        else:
            S = S.extend_rows(vecs)[0]
        return self._sub(S)

    # ------------------------------------------------------------------ invariants
    @property
    def derived_length(self) -> int | None:
        """Least ``k`` with ``g^(k) = 0`` (SPEC §2): zero algebra -> 0, non-zero abelian -> 1,
        not solvable -> ``None`` (never 0)."""
        ds = self.derived_series()
        return None if ds.stabilised else len(ds) - 1

    @property
    def nilpotency_class(self) -> int | None:
        """Least ``c`` with ``γ_{c+1} = 0`` (SPEC §2): zero algebra -> 0, non-zero abelian -> 1,
        not nilpotent -> ``None``."""
        lcs = self.lower_central_series()
        return None if lcs.stabilised else len(lcs) - 1

    @property
    def is_abelian(self) -> bool:
        """``[g, g] = 0`` (the zero algebra is abelian)."""
        return self.derived_algebra().dim == 0

    @property
    def is_nilpotent(self) -> bool:
        return self.nilpotency_class is not None

    @property
    def is_solvable(self) -> bool:
        return self.derived_length is not None

    @property
    def is_perfect(self) -> bool:
        """``[g, g] = g`` (the zero algebra counts as perfect)."""
        return self.derived_algebra().dim == self.dim

    @_twin_checked
    def structure_constants(self) -> np.ndarray:
        """``c[a, b, k]`` with ``[e_a, e_b] = sum_k c[a,b,k] e_k`` for ``e = basis``; ``object``
        array of Fractions (Q), sympy numbers (number field) or a float array."""
        C = self._structure_coords()
        if self.field == "QQ":
            Ci, den = C
            return _fractions(Ci, den)
        if self.field == "RR":
            return np.asarray(C, dtype=float)
        return np.vectorize(self.field.to_sympy, otypes=[object])(C) if C.size else C

    def structure_constants_sparse(self) -> dict[tuple[int, int], dict[int, Fraction]]:
        """The non-zero structure constants as ``{(a, b): {k: c}}`` for ``a < b`` -- the sparse
        format accepted by :meth:`from_structure_constants` (with ``dim=self.dim``). Q only."""
        if self.field != "QQ":
            raise ValueError("structure_constants_sparse is available over Q only")
        Ci, den = self._structure_coords()
        out: dict[tuple[int, int], dict[int, Fraction]] = {}
        for a, b_, k in np.argwhere(Ci != 0):
            if a < b_:
                out.setdefault((int(a), int(b_)), {})[int(k)] = Fraction(int(Ci[a, b_, k]), den)
        return out

    def _structure_coords(self):
        """Structure constants in the field's internal form: Q -> (int array, common denominator);
        number field -> object array of domain elements; RR -> float array."""
        if "sc" in self._cache:
            return self._cache["sc"]
        d = self.dim
        B = subspace_rows(self._space)
        if d == 0:
            res = (np.zeros((0, 0, 0), np.int64), 1) if self.field == "QQ" else np.zeros((0, 0, 0))
            self._cache["sc"] = res
            return res
        chunks = list(self._ambient.batches(self.field, B, B, False))
        allb = np.concatenate(chunks) if self.field != "QQ" else stack_int(chunks)
        if self.field == "QQ":
            piv = list(self._space.pivots)
            dv = [int(B[i, p]) for i, p in enumerate(piv)]
            D = 1
            for x in dv:
                D = D * x // math.gcd(D, x)
            mult = np.array([D // x for x in dv], dtype=object)
            num = allb[:, piv]
            # both factors must fit int64 (an all-zero num once let a huge mult overflow)
            if num.dtype == np.int64 and max(mult) < 2 ** 62 \
                    and maxabs(num) * max(mult) < 2 ** 62:
                Ci = num * mult.astype(np.int64)
            else:
                Ci = as_int_rows(num.astype(object) * mult)
            res = (Ci.reshape(d, d, d), D * self._ambient.scale)
        elif self.field == "RR":
            # brackets of orthonormal basis vectors below their rounding bound are zero (as in
            # the closure, see extend_field_rows), so an abelian algebra gets exact zeros
            e = bracket_noise(self._ambient, self._space, self._space)
            keep = nonzero_brackets(row_norms(allb), e, self.tol, "structure constants")
            allb = np.where(keep[:, None], allb, 0.0)
            res = self._space.coordinates_rows(allb, check=False).reshape(d, d, d)
        else:
            res = np.array(self._space.coordinates_rows(allb, check=False), dtype=object).reshape(d, d, d)
        self._cache["sc"] = res
        return res

    @_twin_checked
    def killing_form(self) -> np.ndarray:
        """Gram matrix ``K[a, b] = tr(ad e_a ad e_b)`` in ``basis`` (Fractions over Q)."""
        C = self._structure_coords()
        d = self.dim
        if self.field == "QQ":
            Ci, den = C
            A1 = Ci.reshape(d, d * d)
            A2 = Ci.transpose(0, 2, 1).reshape(d, d * d)
            K = exact_matmul(as_int_rows(A1), as_int_rows(A2).T.copy()) if d else np.zeros((0, 0), np.int64)
            return _fractions(np.asarray(K), den * den)
        A1 = np.asarray(C).reshape(d, d * d)
        A2 = np.asarray(C).transpose(0, 2, 1).reshape(d, d * d)
        K = A1 @ A2.T
        if self.field == "RR":
            return K if is_recording() else np.asarray(K, dtype=float)
        return np.vectorize(self.field.to_sympy, otypes=[object])(K) if K.size else K

    @property
    @_twin_checked
    def is_semisimple(self) -> bool:
        """Cartan's criterion: the Killing form is non-degenerate (zero algebra: True).
        Float path: numerical rank of the row-normalised Killing matrix with ``tol``."""
        d = self.dim
        if d == 0:
            return True
        if self.field == "QQ":
            import flint

            Ci, den = self._structure_coords()
            A1 = as_int_rows(Ci.reshape(d, d * d))
            A2 = as_int_rows(Ci.transpose(0, 2, 1).reshape(d, d * d))
            K = exact_matmul(A1, A2.T.copy())
            M = flint.fmpz_mat(d, d, [int(x) for x in np.asarray(K).ravel().tolist()])
            return M.rank() == d
        if self.field == "RR" and "semisimple" in self._cache:
            return self._cache["semisimple"]
        K = self.killing_form()
        if self.field == "RR":
            # K is the Gram matrix in an orthonormal basis (its scale is the structure
            # constants'); decided unnormalised with its propagated rounding bound:
            # ||dK|| <= 2 ||C||_F ||dC||_F, ||dC||_F <= d dC (row normalisation would turn
            # rounding noise into full rank)
            cn = float(np.linalg.norm(np.asarray(self._structure_coords())))
            eta = 2.0 * cn * d * coordinate_noise(self.noise, d) + svd_noise(d, d) * max(cn, 1.0) ** 2
            s = np.linalg.svd(np.asarray(K, dtype=float), compute_uv=False)
            res = rank_decision(s, self.tol, eta, "the Killing form", scale=cn ** 2).rank == d
            self._cache["semisimple"] = res
            return res
        from sympy.polys.matrices import DomainMatrix

        Kd = [[self.field.from_sympy(x) for x in r] for r in K]
        return DomainMatrix(Kd, (d, d), self.field).rank() == d


# ============================================================================ helpers
def _fractions(Ci: np.ndarray, den: int) -> np.ndarray:
    """Integer array / den as an object array of Fractions (only non-zeros are converted)."""
    out = np.full(Ci.shape, Fraction(0), dtype=object)
    for idx in np.argwhere(Ci != 0):
        idx = tuple(idx)
        out[idx] = Fraction(int(Ci[idx]), den)
    return out


def _convert(rows, field, name: str = "mats"):
    if field == "QQ" and isinstance(rows, np.ndarray):
        return as_int_rows(rows)
    if field == "RR" and isinstance(rows, np.ndarray) and rows.dtype == np.float64:
        return rows   # converted and checked by matrix_rows
    if field == "QQ":
        return to_field_rows(rows, "QQ", name)[0]
    if field == "RR":
        return to_field_rows(rows, "RR", name)
    return np.array(to_field_rows(rows, field, name), dtype=object)


def _export(r, field):
    if field == "QQ":
        return np.array([int(x) for x in r], dtype=object)
    if field == "RR":
        return np.asarray(r, dtype=float)
    return np.array([field.to_sympy(x) for x in r], dtype=object)


def _float_algebra(data: np.ndarray, n: int, tol: float, kind: str) -> "LieAlgebra":
    """The float algebra of the flattened matrices ``data`` (``(k, n*n)`` float64): their Lie
    closure (``kind = "generated"``) or their span, checked closed (``"spanned"``)."""
    amb = MatrixAmbient(n)
    data = np.asarray(data).astype(working_dtype())
    S, frontier = FloatSubspace(n * n, tol).extend_rows(data, argument="mats")
    inserted = [frontier]
    S = close(amb, S, frontier, "mats", inserted) if kind == "generated" \
        else check_closed(amb, S)
    L = LieAlgebra(amb, S)
    L._keep_inserted(inserted)
    return L


def _float_entry(data: np.ndarray, n: int, tol: float, kind: str) -> "LieAlgebra":
    """Float path of :meth:`LieAlgebra.generated_by` / :meth:`LieAlgebra.spanned_by`: the
    algebra of ``data`` and of :data:`~seqtheory.theory.lie_twins.TWINS` perturbed twins (:func:`~seqtheory.theory.lie_twins.twin`), every decision
    recorded (:func:`~seqtheory.theory.lie_twins.twin_runs`); returned, with the twins attached, only when the decisions
    are certified. "Not closed under the bracket" (``spanned_by``) is an answer certified like
    the others."""
    outs, logs = twin_runs(lambda k: _float_algebra(data if k == 0 else twin(data, k), n, tol,
                                                     kind))
    (L, not_closed), twins = outs[0], outs[1:]
    if isinstance(not_closed, NumericalRankError):
        raise not_closed
    twin_refusals(tol, twins)
    certify(tol, logs[0], logs[1:])
    if not_closed is not None:
        raise not_closed
    L._cache["twins"] = [t[0] for t in twins]
    return L


def recorded_run(mats: Any, query: str | None = None, *, tol: float = 1e-9,
                 levels: dict[int, float] | None = None) -> tuple[Any, list]:
    """Diagnostics of the float path: ONE run of it -- no twins, no certificate -- on ``mats``
    (a sequence of ``n x n`` real arrays, float64 or ``numpy.longdouble``; the arithmetic is
    ``longdouble``, so a longdouble input keeps its extra precision), with every decision
    recorded (:func:`~seqtheory.theory.float_rank.recording_decisions`, ``levels`` as there).
    Builds the algebra they generate and, when ``query`` names an attribute of
    :class:`LieAlgebra` (``"derived_series"``, ``"center"``, ``"is_semisimple"``, ...), asks
    it (called when it is a method). Returns ``(answer, log)``: the algebra or the query's
    answer, or the ``ValueError`` raised; the log as
    :func:`~seqtheory.theory.float_rank.recording_decisions` yields it. Used by
    ``benchmarks/float_lie_refusals.py`` to set the decisions on the float input beside those
    on a more precise rounding of the exact matrices it approximates (the genuine values)."""
    arrs = [np.asarray(m) for m in mats]
    if not arrs or any(a.ndim != 2 or a.shape[0] != a.shape[1] or a.shape != arrs[0].shape
                       for a in arrs):
        raise ValueError("mats must be a non-empty sequence of square matrices of one size")
    n = arrs[0].shape[0]
    data = np.stack([a.astype(np.longdouble).reshape(-1) for a in arrs])
    if not np.all(np.isfinite(data)):
        raise ValueError("mats contains NaN or infinite entries")
    with recording_decisions(levels) as log:
        try:
            out: Any = _float_algebra(data, n, float(tol), "generated")
            if query is not None:
                out = getattr(out, query)
                out = out() if callable(out) else out
        except ValueError as exc:
            out = exc
    return out, log


def _attach_twins(out: Any, results: list) -> None:
    """Give the algebras of a certified result (a series' terms, an algebra) the matching
    algebras of the twins' results, so that their own answers are twin-checked too."""
    if isinstance(out, LieSeries):
        for i, term in enumerate(out):
            if all(isinstance(r, LieSeries) and len(r) == len(out) for r in results):
                term._cache.setdefault("twins", [r[i] for r in results])
    elif isinstance(out, LieAlgebra):
        out._cache.setdefault("twins", list(results))


def _invariant_error(L: "LieAlgebra", what: str) -> NumericalRankError:
    """The error for a float computation that broke a structural invariant."""
    return NumericalRankError("mats", L.smallest_gap or math.inf, L.tol or 0.0, L.noise or 0.0,
                              np.zeros(0), message=(
                                  f"the float computation broke an invariant that holds in every "
                                  f"Lie algebra: {what}; the rank decisions are not reliable at "
                                  f"relative tol {L.tol:g}. Pass exact entries (ints, Fractions, "
                                  f"sympy numbers) for the exact path"))


def _check_contained(A: "LieAlgebra", B: "LieAlgebra", what: str) -> None:
    """Float path: ``A ⊆ B`` by the gap-checked rank decision, else an invariant error. The
    decision is settled (:func:`~seqtheory.theory.float_rank.settle_decisions`: no genuine
    residual can be dropped) when ``B`` holds every vector ``A`` can have: ``B`` is the whole
    ambient, or ``B`` is ``sl(n)`` (a bracket space of matrices of dimension ``n*n - 1``) and
    ``A`` is a bracket space too (traceless)."""
    start = decision_count()
    contained = A.dim <= B.dim and B._space.contains_rows(A._inserted(), noise=A.noise)
    if B.dim == B._ambient.N or (B.dim == B._ambient.N - 1 and B._cache.get("traceless")
                                 and A._cache.get("traceless")):
        settle_decisions(start)
    if not contained:
        raise _invariant_error(A, f"{what} fails (dims {A.dim} and {B.dim})")


def _check_term(nxt: "LieAlgebra", cur: "LieAlgebra", name: str, index: int) -> None:
    """The next term of a descending series lies in the current one: dimensions on every path
    (an exact path that broke it would be a defect), containment too on the float path."""
    if nxt.dim > cur.dim:
        if nxt.field != "RR":
            raise RuntimeError(f"{name}: term {index} has dimension {nxt.dim} > {cur.dim}")
        raise _invariant_error(nxt, f"{name} term {index} (dim {nxt.dim}) is larger than the "
                                    f"previous term (dim {cur.dim})")
    if nxt.field == "RR":
        _check_contained(nxt, cur, f"{name} term {index} inside the previous term")



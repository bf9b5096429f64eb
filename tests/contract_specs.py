"""The per-name spec table of the input-contract harness: for every public name of
``seqtheory.theory``, ``.numerics``, ``.models`` and ``.proofs_checks`` (their ``__all__``), the
calls that exercise it, the kind and a valid baseline value of each argument, and an oracle for
the baseline answer where one exists (a value from the SPEC or a textbook, an exact path, sympy,
a reference recurrence). Engine and kinds: :mod:`contract_harness`.

A name whose object takes no argument of a contract kind (a constant, an enum) has a spec that
reads it (``args`` empty): the coverage test then still knows the name was looked at.
"""
from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import sympy

from contract_harness import (ANY, EITHER, REFUSE, SAME, Choice, Exact, ExactMatrix, Flag, Int, Matrices, Obj,
                              Real, RealArray, Spec, Text, TokenTensor, Word, same)

E12 = np.array([[0, 1, 0], [0, 0, 0], [0, 0, 0]])
E23 = np.array([[0, 0, 0], [0, 0, 1], [0, 0, 0]])
SL2 = [np.array([[0, 1], [0, 0]]), np.array([[0, 0], [1, 0]])]


def _theory():
    import seqtheory.theory as t
    return t


def _close(expected, rel=1e-14):
    def check(args, result):
        assert math.isclose(result, expected, rel_tol=rel), (result, expected)
    return check


def _approx(a, b, rel=1e-12) -> bool:
    """Equal up to ``rel`` (an exact input read through another, equally correct, rounding)."""
    return bool(np.allclose(np.asarray(a, dtype=float), np.asarray(b, dtype=float), rtol=rel, atol=0))


def _fractions(levels):
    """fmpq levels as nested lists of Fractions."""
    return [[Fraction(int(x.p), int(x.q)) for x in lv] for lv in levels]


def _coeffs(P) -> dict:
    """A Lie polynomial's Lyndon coordinates as a plain dict (``lyndon_coefficients()`` is a
    dict subclass that knows its alphabet)."""
    return dict(P.lyndon_coefficients())


def _eq(expected):
    def check(args, result):
        assert same(result, expected), (result, expected)
    return check


# ------------------------------------------------------------------------------------------------
# seqtheory.theory
# ------------------------------------------------------------------------------------------------
def theory_specs() -> dict[str, list[Spec]]:
    t = _theory()
    G = t.FiniteGroup
    S3 = G.named("S3")
    out: dict[str, list[Spec]] = {}

    def add(name, *specs):
        out[f"seqtheory.theory.{name}"] = list(specs)

    def dims(L):
        return L.dim, L.derived_series().dims, L.lower_central_series().dims

    for name, n, d in (("gl", 2, 4), ("sl", 2, 3), ("so", 3, 3), ("b", 3, 6), ("n", 3, 3),
                       ("upper_triangular", 3, 6), ("strictly_upper", 4, 6), ("diagonal", 3, 3)):
        add(name, Spec(f"{name}(n)", lambda n, f=getattr(t, name): f(n), {"n": (Int(1, big=REFUSE), n)},
                       oracle=lambda a, L, d=d: _eq(d)(a, L.dim)))
    add("heisenberg", Spec("heisenberg(m)", lambda m: t.heisenberg(m), {"m": (Int(1, big=REFUSE), 1)},
                           oracle=lambda a, L: _eq((3, 2))(a, (L.dim, L.nilpotency_class))))
    add("LieAlgebra",
        Spec("LieAlgebra.generated_by(mats)", lambda mats: dims(t.LieAlgebra.generated_by(mats)),
             {"mats": (Matrices(), [E12, E23])}, oracle=_eq((3, (3, 1, 0), (3, 1, 0)))),
        Spec("LieAlgebra.generated_by(mats, tol=)", lambda mats, tol: dims(t.LieAlgebra.generated_by(mats, tol=tol)),
             {"mats": (Matrices(), [E12.astype(float), E23.astype(float)]),
              "tol": (Real(0, 1, above=True, optional=True), 1e-9)}, oracle=_eq((3, (3, 1, 0), (3, 1, 0)))),
        Spec("LieAlgebra.spanned_by(mats)", lambda mats: dims(t.LieAlgebra.spanned_by(mats)),
             {"mats": (Matrices(), SL2 + [np.array([[1, 0], [0, -1]])])}, oracle=_eq((3, (3,), (3,)))),
        Spec("LieAlgebra.from_structure_constants(c, dim=, check=)",
             lambda c, dim, check: t.LieAlgebra.from_structure_constants(c, dim=dim, check=check).dim,
             {"c": (Obj("structure constants"), {(0, 1): {2: 1}, (1, 0): {2: -1}}),
              "dim": (Int(1, big=REFUSE, optional=True), 3), "check": (Flag(), True)}, oracle=_eq(3)))
    add("LieSeries", Spec("LieAlgebra.derived_series() -> LieSeries",
                          lambda mats: t.LieAlgebra.generated_by(mats).derived_series().dims,
                          {"mats": (Matrices(), SL2)}, oracle=_eq((3,))))
    add("Subspace",
        Spec("span(floats).contains(v)", lambda v: t.span([[1.0, 0, 0], [0, 1.0, 0]]).contains(v),
             {"v": (RealArray(low=REFUSE, empty=REFUSE), [1.0, 1.0, 0.0])}, oracle=_eq(True)),
        Spec("span(exact).contains_all(vectors)", lambda vectors: t.span([[1, 0, 0], [0, 1, 0]])
             .contains_all(vectors), {"vectors": (ExactMatrix(), [[1, 2, 0], [3, 0, 0], [0, 0, 0]])},
             oracle=_eq(True)))
    add("span",
        Spec("span(vectors)", lambda vectors: t.span(vectors).dim,
             {"vectors": (RealArray(low=REFUSE, empty=ANY), [[1.0, 2.0, 0.0], [2.0, 4.0, 0.0], [0.0, 0.0, 1.0]])},
             oracle=_eq(2)),
        Spec("span(vectors, tol=, ambient_dim=)", lambda tol, ambient_dim: t.span(
            [[1.0, 0.0], [0.0, 1.0]], tol=tol, ambient_dim=ambient_dim).dim,
             {"tol": (Real(0, 1, above=True), 1e-9), "ambient_dim": (Int(1, optional=True), 2)}, oracle=_eq(2)))
    add("rank_decision", Spec("rank_decision(s, tol, noise, argument)",
                              lambda s, tol, noise: t.rank_decision(s, tol, noise, "s").rank,
                              {"s": (RealArray(low=SAME, empty=ANY), [3.0, 1.0, 1e-17]),
                               "tol": (Real(0, 1, above=True), 1e-9), "noise": (Real(0), 1e-15)},
                              oracle=_eq(2)))
    add("NumericalRankError", Spec("NumericalRankError(...)", lambda gap, tol, noise: str(
        t.NumericalRankError("x", gap, tol, noise, np.array([1.0, 1e-3]))),
        {"gap": (Real(0, finite=False), 2.0), "tol": (Real(0), 1e-9), "noise": (Real(0), 1e-15)}))
    add("FiniteGroup",
        Spec("FiniteGroup.cyclic(n)", lambda n: G.cyclic(n).order, {"n": (Int(1), 6)}, oracle=_eq(6)),
        Spec("FiniteGroup.dihedral(order)", lambda order: G.dihedral(order).order, {"order": (Int(2), 8)},
             oracle=_eq(8)),
        Spec("FiniteGroup.symmetric(n)", lambda n: G.symmetric(n).derived_series().orders,
             {"n": (Int(1), 4)}, oracle=_eq((24, 12, 4, 1))),
        Spec("FiniteGroup.alternating(n)", lambda n: G.alternating(n).order, {"n": (Int(1), 4)}, oracle=_eq(12)),
        Spec("FiniteGroup.heisenberg(p)", lambda p: G.heisenberg(p).order, {"p": (Int(2), 3)}, oracle=_eq(27)),
        Spec("FiniteGroup.named(name)", lambda name: G.named(name).order, {"name": (Text(), "D8")}, oracle=_eq(8)),
        Spec("FiniteGroup.element(i)", lambda i: S3.element(i), {"i": (Int(0, 5), 3)}),
        Spec("FiniteGroup.from_permutations(gens, degree)", lambda gens, degree: G.from_permutations(
            gens, degree).order, {"gens": (Obj("permutations"), [[1, 2, 0], [1, 0, 2]]),
                                  "degree": (Int(1, optional=True), 3)}, oracle=_eq(6)),
        Spec("FiniteGroup.from_matrices(mats, modulus)", lambda mats, modulus: G.from_matrices(
            mats, modulus).order, {"mats": (Matrices(), [np.array([[1, 1], [0, 1]])]),
                                   "modulus": (Int(2, optional=True), 5)}, oracle=_eq(5)),
        Spec("FiniteGroup.from_permutations(max_order=)", lambda max_order: G.from_permutations(
            [[1, 2, 3, 0]], max_order=max_order).order, {"max_order": (Int(1), 100)}, oracle=_eq(4)))
    add("GroupSeries", Spec("FiniteGroup.derived_series() -> GroupSeries",
                            lambda name: G.named(name).derived_series().orders,
                            {"name": (Text(), "S4")}, oracle=_eq((24, 12, 4, 1))))
    add("GroupIsomorphism", Spec("find_isomorphism(...) -> GroupIsomorphism",
                                 lambda G1: t.find_isomorphism(G1, G.named("D8")) is not None,
                                 {"G1": (Obj("FiniteGroup"), G.heisenberg(2))}, oracle=_eq(True)))
    add("find_isomorphism", Spec("find_isomorphism(G, H)", lambda G1, H: t.find_isomorphism(G1, H) is None,
                                 {"G1": (Obj("FiniteGroup"), G.named("C4")), "H": (Obj("FiniteGroup"), G.named("V4"))},
                                 oracle=_eq(True)))
    rep = t.icosahedral_representation()
    add("IcosahedralRepresentation", Spec("icosahedral_representation().group", lambda: rep.group.order,
                                          {}, oracle=_eq(60)))
    add("icosahedral_representation", Spec("icosahedral_representation()", lambda: len(
        t.icosahedral_representation().matrices), {}, oracle=_eq(60)))
    C2 = G.cyclic(2)
    sign = {C2.element(0): np.eye(1), C2.element(1): -np.eye(1)}
    add("audit_representation",
        Spec("audit_representation(group, mapping, tol)", lambda group, tol: t.audit_representation(
            group, sign, tol).is_homomorphism, {"group": (Obj("FiniteGroup"), C2),
                                                "tol": (Real(0, optional=True), 1e-9)},
             oracle=_eq(True)))
    add("RepresentationAudit", Spec("audit_representation(...) -> RepresentationAudit",
                                    lambda: t.audit_representation(C2, sign).n_respected, {}, oracle=_eq(4)))
    half = [[0, -1, 0], [1, 0, 0], [0, 0, 1]]                   # a quarter turn about z
    add("rotation_log", Spec("rotation_log(R)", lambda R: t.rotation_log(R)[0],
                             {"R": (ExactMatrix(), half)},
                             oracle=_eq(sympy.pi / 2)))
    add("rotation_axis_generator", Spec("rotation_axis_generator(R)", lambda R: t.rotation_axis_generator(R),
                                        {"R": (ExactMatrix(), half)}))
    add("lyndon_words", Spec("lyndon_words(alphabet, m)", lambda alphabet, m: t.lyndon_words(alphabet, m),
                             {"alphabet": (Text(), "xy"), "m": (Int(1), 4)},
                             oracle=_eq(["xxxy", "xxyy", "xyyy"])))
    add("hall_basis", Spec("hall_basis(alphabet, m)", lambda alphabet, m: len(t.hall_basis(alphabet, m)),
                           {"alphabet": (Text(), "xy"), "m": (Int(1), 5)}, oracle=_eq(2 + 1 + 2 + 3 + 6)))
    add("lyndon_factorization", Spec("lyndon_factorization(word, alphabet)", lambda word, alphabet:
                                     t.lyndon_factorization(word, alphabet),
                                     {"word": (Text(), "yxxy"), "alphabet": (Text(), "xy")},
                                     oracle=_eq(["y", "xxy"])))
    add("witt_dimension", Spec("witt_dimension(n, m)", lambda n, m: t.witt_dimension(n, m),
                               {"n": (Int(1), 2), "m": (Int(1), 10)}, oracle=_eq(99)),
        Spec("witt_dimension(n) with big n", lambda n: t.witt_dimension(n, 4),
             {"n": (Int(1), 10 ** 6)}, oracle=_eq((10 ** 24 - 10 ** 12) // 4)))
    add("free_nilpotent", Spec("free_nilpotent(n, c)", lambda n, c: t.free_nilpotent(n, c).dim,
                               {"n": (Int(1), 2), "c": (Int(1), 3)}, oracle=_eq(5)))
    add("derived_ideal_dimensions", Spec("derived_ideal_dimensions(n, k, max_degree)",
                                         lambda n, k, max_degree: t.derived_ideal_dimensions(n, k, max_degree),
                                         {"n": (Int(1), 2), "k": (Int(0), 1), "max_degree": (Int(1), 4)},
                                         oracle=_eq({1: 0, 2: 1, 3: 2, 4: 3})))
    add("derived_ideal_lowest_degree", Spec("derived_ideal_lowest_degree(n, k, max_degree)",
                                            lambda n, k, max_degree: t.derived_ideal_lowest_degree(n, k, max_degree),
                                            {"n": (Int(1), 2), "k": (Int(0), 2), "max_degree": (Int(1), 6)},
                                            oracle=_eq(5)))
    add("LiePolynomial",
        Spec("LiePolynomial(coefficients, alphabet)", lambda coefficients: _coeffs(t.LiePolynomial(
            coefficients, "xy")), {"coefficients": (Obj("coefficients"), {"xy": Fraction(1, 2)})},
            oracle=_eq({"xy": Fraction(1, 2)})),
        Spec("LiePolynomial.truncate(c)", lambda c: _coeffs(t.bch(4).truncate(c)),
             {"c": (Int(0), 2)}, oracle=_eq({"x": 1, "y": 1, "xy": Fraction(1, 2)})),
        Spec("LiePolynomial.homogeneous_component(m)", lambda m: _coeffs(t.bch(4).homogeneous_component(m)), {"m": (Int(1), 2)}, oracle=_eq({"xy": Fraction(1, 2)})),
        Spec("LiePolynomial.evaluate(matrices)", lambda matrices: t.bch(2).evaluate(
            *(list(matrices) if isinstance(matrices, (list, np.ndarray)) else [matrices])), {"matrices": (Matrices(low=SAME, complex_ok=True, forms=EITHER),
                                                      [E12, E23])}))
    add("bch", Spec("bch(degree)", lambda degree: _coeffs(t.bch(degree)),
                    {"degree": (Int(1), 3)},
                    oracle=_eq({"x": 1, "y": 1, "xy": Fraction(1, 2), "xxy": Fraction(1, 12),
                                "xyy": Fraction(1, 12)})),
        Spec("bch(degree, kind, method=)", lambda kind, method: len(t.bch(4, kind, method=method)
                                                                     .lyndon_coefficients()),
             {"kind": (Choice(("classical",)), "classical"), "method": (Choice(("fast", "generic")), "fast")}))
    add("bch_multi", Spec("bch_multi(n_factors, degree)", lambda n_factors, degree: t.bch_multi(
        n_factors, degree).truncate(2).lyndon_coefficients(), {"n_factors": (Int(1), 2), "degree": (Int(1), 2)}))
    add("goldberg_coefficient", Spec("goldberg_coefficient(word)", lambda word: t.goldberg_coefficient(word),
                                     {"word": (Text(), "xy")}, oracle=_eq(Fraction(1, 2))))
    P, Q = sympy.Matrix([[0, 1], [0, 0]]), sympy.Matrix([[0, 0], [1, 0]])
    add("magnus",
        Spec("magnus(A, order, t=) exact", lambda order, t_: t.magnus([P, Q], order, t=t_).terms[-1],
             {"order": (Int(1), 2), "t_": (Exact(), Fraction(2, 3))},
             oracle=lambda a, r: _eq((Fraction(2, 3) ** 3 / 12) * sympy.Matrix([[-1, 0], [0, 1]]))(a, r)),
        Spec("magnus(A, t=) float", lambda A, t_: t.magnus(A, 2, t=t_).terms[1],
             {"A": (Matrices(low=SAME, complex_ok=True, forms=EITHER), [np.array([[0.0, 1.0], [0.0, 0.0]]),
                                                          np.array([[0.0, 0.0], [1.0, 0.0]])]),
              "t_": (Real(0), 0.5)}),
        Spec("magnus(callable, nodes=)", lambda nodes, convention: t.magnus(
            lambda s: np.array([[0.0, 1.0], [s, 0.0]]), 2, t=1, nodes=nodes, convention=convention).terms[0],
             {"nodes": (Int(4), 8), "convention": (Choice(("AY", "YA")), "AY")}))
    add("magnus_lie_terms", Spec("magnus_lie_terms(n_coeffs, order)", lambda n_coeffs, order: [
        _coeffs(P) for P in t.magnus_lie_terms(n_coeffs, order)],
        {"n_coeffs": (Int(1), 2), "order": (Int(1), 2)},
        oracle=_eq([{"A": 1, "B": Fraction(1, 2)}, {"AB": Fraction(-1, 12)}])))
    add("magnus_discrete", Spec("magnus_discrete(X, degree)", lambda X, degree: t.magnus_discrete(X, degree),
                                {"X": (Matrices(low=SAME, complex_ok=True, forms=EITHER), [E12, E23]),
                                 "degree": (Int(1), 2)}))
    add("taylor_ode_solution", Spec("taylor_ode_solution(A, t, dps=)", lambda A, t_, dps: t.taylor_ode_solution(
        A, t_, dps=dps), {"A": (Matrices(low=SAME), [np.array([[0, 1], [-1, 0]])]), "t_": (Real(0), 0.5),
                          "dps": (Int(1, big=REFUSE), 20)}, heavy=True))
    S = np.array([[0.0, 1.0], [1.0, 0.0], [0.5, 0.5]])
    add("row_diameter", Spec("row_diameter(S, block_rows=, memory_bytes=)", lambda S, block_rows, memory_bytes:
                             t.row_diameter(S, block_rows=block_rows, memory_bytes=memory_bytes),
                             {"S": (RealArray(low=SAME), S), "block_rows": (Int(1, optional=True), 2),
                              "memory_bytes": (Int(1), 1 << 20)}, oracle=_eq((math.sqrt(2), (0, 1)))))
    add("variation_seminorm", Spec("variation_seminorm(x, axis)", lambda x, axis: t.variation_seminorm(x, axis),
                                   {"x": (RealArray(low=SAME), [0.5, -1.0, 2.0]), "axis": (Int(None), -1)},
                                   oracle=_eq(3.0)))
    add("hilbert_distance", Spec("hilbert_distance(x, y, space=)", lambda x, y, space: t.hilbert_distance(
        x, y, space=space), {"x": (RealArray(low=SAME), [0.25, 0.75]), "y": (RealArray(low=SAME), [0.5, 0.5]),
                             "space": (Choice(("prob", "logits")), "prob")},
        oracle=lambda a, r: _close(math.log(3))(a, r)))
    add("hilbert_change", Spec("hilbert_change(S, h)", lambda S, h: t.hilbert_change(S, h),
                               {"S": (RealArray(low=SAME), S), "h": (RealArray(low=SAME), [1.0, -1.0])},
                               oracle=_eq(2.0)))
    add("max_hilbert_change", Spec("max_hilbert_change(S, ball, radius)", lambda S, ball, radius:
                                   t.max_hilbert_change(S, ball, radius),
                                   {"S": (RealArray(low=SAME), S), "ball": (Choice(("l2", "linf", "rms")), "l2"),
                                    "radius": (Real(0), 2.0)},
                                   oracle=_eq(2 * math.sqrt(2))))
    add("worst_case_hidden", Spec("worst_case_hidden(S, radius)", lambda S, radius: t.worst_case_hidden(S, radius),
                                  {"S": (RealArray(low=SAME), S), "radius": (Real(0), 1.0)}))
    _lie_structure_specs(t, add)
    _free_lie_basis_specs(t, add)
    _perm_group_specs(t, add)
    return out


H, E = [[1, 0], [0, -1]], [[0, 1], [0, 0]]                   # h, e of sl(2)


def _lie_structure_specs(t, add) -> None:
    """Exact Lie algebras: elements, radicals, ideals, quotients, Chevalley bases (GAP's values;
    tests/test_lie_structure*.py and tests/test_gap_*.py compare them with GAP itself)."""
    sl2, gl2, b2, aff = t.sl(2), t.gl(2), t.b(2), t.sl_affine(2)
    alg = Obj("LieAlgebra")
    add("sl_affine", Spec("sl_affine(n)", lambda n: t.sl_affine(n).dim, {"n": (Int(2, big=REFUSE), 2)},
                          oracle=_eq(5)))
    add("coordinates", Spec("coordinates(L, x)", lambda L, x: t.coordinates(L, x),
                            {"L": (alg, sl2), "x": (ExactMatrix(), H)},
                            oracle=lambda a, r: _eq(np.array(H, dtype=object))(a, sum(
                                c * np.asarray(b, dtype=object) for c, b in zip(r, sl2.basis)))))
    add("adjoint_matrix", Spec("adjoint_matrix(L, x)", lambda L, x: t.adjoint_matrix(L, x),
                               {"L": (alg, sl2), "x": (ExactMatrix(), H)},
                               oracle=lambda a, r: _eq([-2, 0, 2])(a, sorted(
                                   int(v) for v in sympy.Matrix(r).eigenvals(multiple=True)))))
    add("killing", Spec("killing(L, x, y)", lambda L, x, y: t.killing(L, x, y),
                        {"L": (alg, sl2), "x": (ExactMatrix(), H), "y": (ExactMatrix(), H)},
                        oracle=_eq(8)))                        # κ(h, h) = 8 on sl(2) (Humphreys §5.1)
    add("is_ad_nilpotent", Spec("is_ad_nilpotent(L, x)", lambda L, x: t.is_ad_nilpotent(L, x),
                                {"L": (alg, sl2), "x": (ExactMatrix(), E)}, oracle=_eq(True)))
    add("adjoint_representation", Spec("adjoint_representation(L)", lambda L: t.adjoint_representation(L).dim,
                                       {"L": (alg, sl2)}, oracle=_eq(3)))
    add("structure_constant_algebra", Spec("structure_constant_algebra(L)", lambda L: dims3(
        t.structure_constant_algebra(L)), {"L": (alg, b2)}, oracle=_eq((3, (3, 1, 0)))))
    add("kappa_perp", Spec("kappa_perp(L, U)", lambda L, U: t.kappa_perp(L, U).dim,
                           {"L": (alg, b2), "U": (alg, b2)}, oracle=_eq(2)))
    add("killing_radical", Spec("killing_radical(L)", lambda L: t.killing_radical(L).dim,
                                {"L": (alg, b2)}, oracle=_eq(2)))
    add("solvable_radical", Spec("solvable_radical(L)", lambda L: t.solvable_radical(L).dim,
                                 {"L": (alg, aff)}, oracle=_eq(2)))
    add("nilradical", Spec("nilradical(L)", lambda L: t.nilradical(L).dim, {"L": (alg, b2)}, oracle=_eq(2)))
    add("levi_decomposition", Spec("levi_decomposition(L)", lambda L: _levi_dims(t.levi_decomposition(L)),
                                   {"L": (alg, aff)}, oracle=_eq((2, 3))))
    add("LeviDecomposition", Spec("levi_decomposition(...) -> LeviDecomposition", lambda: _levi_dims(
        t.levi_decomposition(sl2)), {}, oracle=_eq((0, 3))))
    add("derivations", Spec("derivations(L)", lambda L: t.derivations(L).dim,
                            {"L": (alg, t.heisenberg(1))}, oracle=_eq(6)))
    add("centraliser", Spec("centraliser(L, S)", lambda L, S: t.centraliser(L, S).dim,
                            {"L": (alg, gl2), "S": (alg, gl2)}, oracle=_eq(1)))
    add("normaliser", Spec("normaliser(L, S)", lambda L, S: t.normaliser(L, S).dim,
                           {"L": (alg, gl2), "S": (alg, b2)}, oracle=_eq(3)))
    add("is_ideal", Spec("is_ideal(L, I)", lambda L, I: t.is_ideal(L, I),
                         {"L": (alg, gl2), "I": (alg, sl2)}, oracle=_eq(True)))
    add("quotient", Spec("quotient(L, I)", lambda L, I: t.quotient(L, I).algebra.dim,
                         {"L": (alg, gl2), "I": (alg, sl2)}, oracle=_eq(1)))
    Q = t.quotient(gl2, sl2)
    add("QuotientAlgebra",
        Spec("quotient(L, I).project(x)", lambda x: Q.project(x), {"x": (ExactMatrix(), [[1, 0], [0, 1]])},
             oracle=lambda a, r: _eq(Q.project([[1, 0], [0, 1]]))(a, r)),
        Spec("quotient(L, I).lift(y)", lambda y: Q.project(Q.lift(y)), {"y": (ExactMatrix(), [[3]])},
             oracle=_eq(np.array([Fraction(3)], dtype=object))))
    add("direct_sum_decomposition", Spec("direct_sum_decomposition(L)", lambda L: sorted(
        I.dim for I in t.direct_sum_decomposition(L)), {"L": (alg, gl2)}, oracle=_eq([1, 3])))
    kind = Choice(("A", "B", "C", "D"))
    add("simple_lie_algebra", Spec("simple_lie_algebra(kind, rank)", lambda kind, rank: t.simple_lie_algebra(
        kind, rank).algebra.dim, {"kind": (kind, "B"), "rank": (Int(2, big=REFUSE), 2)}, oracle=_eq(10)))
    add("ChevalleyAlgebra", Spec("simple_lie_algebra(...) -> ChevalleyAlgebra", lambda: t.simple_lie_algebra(
        "B", 2).n_roots, {}, oracle=_eq(8)))
    add("cartan_matrix", Spec("cartan_matrix(kind, rank)", lambda kind, rank: t.cartan_matrix(kind, rank),
                              {"kind": (kind, "A"), "rank": (Int(1, big=REFUSE), 2)},
                              oracle=_eq([[2, -1], [-1, 2]])))
    add("root_system_size", Spec("root_system_size(kind, rank)", lambda kind, rank: t.root_system_size(kind, rank),
                                 {"kind": (kind, "D"), "rank": (Int(4), 4)}, oracle=_eq(24)),
        Spec("root_system_size(kind, rank) with a huge rank", lambda rank: t.root_system_size("A", rank),
             {"rank": (Int(1), 10 ** 15)}, oracle=_eq(10 ** 15 * (10 ** 15 + 1))))


def dims3(L):
    """``(dim, derived series dims)`` of a Lie algebra."""
    return L.dim, L.derived_series().dims


def _levi_dims(d) -> tuple[int, int]:
    return d.radical.dim, d.levi.dim


def _free_lie_basis_specs(t, add) -> None:
    """Bases of the free Lie algebra beyond Lyndon's (the bch program's basis=1/2; Sage)."""
    poly = Obj("LiePolynomial")
    add("hall_coordinates", Spec("hall_coordinates(poly)", lambda poly: t.hall_coordinates(poly),
                                 {"poly": (poly, t.bch(3))},
                                 oracle=_eq({"x": 1, "y": 1, ("y", "x"): Fraction(-1, 2),
                                             (("y", "x"), "x"): Fraction(1, 12),
                                             (("y", "x"), "y"): Fraction(-1, 12)})))
    add("right_normed_coordinates", Spec("right_normed_coordinates(poly)", lambda poly:
                                         t.right_normed_coordinates(poly), {"poly": (poly, t.bch(3))},
                                         oracle=_eq({"x": 1, "y": 1, "yx": Fraction(-1, 2),
                                                     "xyx": Fraction(-1, 12), "yyx": Fraction(1, 12)})))
    add("right_normed_word", Spec("right_normed_word(word, alphabet)", lambda word, alphabet:
                                  t.right_normed_word(word, alphabet),
                                  {"word": (Text(), "AAB"), "alphabet": (Text(), "AB")}, oracle=_eq("ABA")))
    add("right_normed_basis", Spec("right_normed_basis(alphabet, m)", lambda alphabet, m:
                                   t.right_normed_basis(alphabet, m),
                                   {"alphabet": (Text(), "xy"), "m": (Int(1), 4)},
                                   oracle=_eq(["x", "y", "yx", "xyx", "yyx", "xxyx", "yxyx", "yyyx"])))
    add("lyndon_words_with_evaluation", Spec("lyndon_words_with_evaluation(evaluation, alphabet)",
                                             lambda evaluation, alphabet: t.lyndon_words_with_evaluation(
                                                 evaluation, alphabet),
                                             {"evaluation": (Obj("evaluation"), [2, 1, 1]),
                                              "alphabet": (Obj("alphabet", optional=True), "xyz")},
                                             oracle=_eq(["xxyz", "xxzy", "xyxz"])))
    add("standard_bracketing", Spec("standard_bracketing(word, alphabet)", lambda word, alphabet:
                                    t.standard_bracketing(word, alphabet),
                                    {"word": (Text(), "xxy"), "alphabet": (Text(), "xy")},
                                    oracle=_eq(("x", ("x", "y")))))
    add("standard_unbracketing", Spec("standard_unbracketing(tree, alphabet)", lambda tree, alphabet:
                                      t.standard_unbracketing(tree, alphabet),
                                      {"tree": (Obj("tree"), ("a", ("a", "b"))), "alphabet": (Text(), "ab")},
                                      oracle=_eq("aab")))


def _perm_group_specs(t, add) -> None:
    """Permutation groups of any order (sympy's Schreier-Sims)."""
    P = t.PermGroup
    add("PermGroup",
        Spec("PermGroup.from_permutations(gens, degree)", lambda gens, degree: P.from_permutations(
            gens, degree).order, {"gens": (Obj("permutations"), [[1, 2, 0], [1, 0, 2]]),
                                  "degree": (Int(1, optional=True), 4)}, oracle=_eq(6)),
        Spec("PermGroup(group)", lambda group: P(group).order,
             {"group": (Obj("a sympy PermutationGroup"), P.symmetric(3).sympy_group)}, oracle=_eq(6)),
        Spec("PermGroup.symmetric(n)", lambda n: P.symmetric(n).order, {"n": (Int(1), 8)},
             oracle=_eq(40320)),
        Spec("PermGroup.alternating(n)", lambda n: P.alternating(n).order, {"n": (Int(1), 5)}, oracle=_eq(60)),
        Spec("PermGroup.cyclic(n)", lambda n: P.cyclic(n).order, {"n": (Int(1), 7)}, oracle=_eq(7)),
        Spec("PermGroup.dihedral(order)", lambda order: P.dihedral(order).order, {"order": (Int(6), 10)},
             oracle=_eq(10)),
        Spec("PermGroup.abelian(orders)", lambda orders: P.abelian(orders).order,
             {"orders": (Obj("orders"), [2, 3])}, oracle=_eq(6)),
        Spec("PermGroup.named(name)", lambda name: P.named(name).derived_series().orders,
             {"name": (Text(), "S4")}, oracle=_eq((24, 12, 4, 1))),
        Spec("PermGroup.sylow_subgroup(p)", lambda p: P.symmetric(4).sylow_subgroup(p).order,
             {"p": (Int(2), 2)}, oracle=_eq(8)))
    add("permutation_group", Spec("permutation_group(gens, degree)", lambda gens, degree: t.permutation_group(
        gens, degree).order, {"gens": (Obj("permutations"), [[1, 2, 0], [1, 0, 2]]),
                              "degree": (Int(1, optional=True), 3)}, oracle=_eq(6)))


def all_specs() -> dict[str, list[Spec]]:
    """Every spec, keyed by the public name's full dotted path."""
    return {**theory_specs(), **numerics_specs(), **models_specs(), **proofs_checks_specs()}


# ------------------------------------------------------------------------------------------------
# seqtheory.numerics
# ------------------------------------------------------------------------------------------------
def numerics_specs() -> dict[str, list[Spec]]:
    import seqtheory.numerics as nm
    from seqtheory.theory import FiniteGroup

    out: dict[str, list[Spec]] = {}

    def add(name, *specs):
        out[f"seqtheory.numerics.{name}"] = list(specs)

    S3 = FiniteGroup.named("S3")
    sl2 = [np.array([[0, 1], [0, 0]]), np.array([[0, 0], [1, 0]])]
    G = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, -1.0]])
    h0 = [1.0, 0.0]
    third = Fraction(1, 3)
    alpha, beta = [[Fraction(1, 2)], [Fraction(1, 4)]], [[1], [2]]

    add("GroupCascade", Spec("cascade_for_group(S3).run(words)", lambda words: nm.cascade_for_group(S3).run(words),
                             {"words": (Word(6, batch=True), [1, 2, 3, 4])},
                             oracle=lambda a, r: _eq(nm.prefix_products(S3.cayley_table(), [a["words"]]))(a, r)))
    add("cascade_for_group", Spec("cascade_for_group(group, convention)", lambda group, convention:
                                  nm.cascade_for_group(group, convention).depth,
                                  {"group": (Obj("FiniteGroup"), S3), "convention": (Choice(("left", "right")), "left")},
                                  oracle=_eq(2)))
    series = [[S3.index(g) for g in H.elements] for H in S3.derived_series()]
    add("build_cascade", Spec("build_cascade(table, series)", lambda table, series: nm.build_cascade(
        table, series).depth, {"table": (Obj("Cayley table"), S3.cayley_table()),
                               "series": (Obj("normal series"), series)}, oracle=_eq(2)))
    add("prefix_products", Spec("prefix_products(table, words, convention)", lambda words, convention:
                                nm.prefix_products(S3.cayley_table(), words, convention),
                                {"words": (Word(6, batch=True), [1, 2, 3]),
                                 "convention": (Choice(("left", "right")), "left")},
                                oracle=_eq(np.array([[1, 4, 2]]))))
    add("agl13_coordinates", Spec("agl13_coordinates(group)", lambda group: nm.agl13_coordinates(group).shape,
                                  {"group": (Obj("FiniteGroup"), S3)}, oracle=_eq((6, 2))))
    coords = nm.agl13_coordinates(S3)
    add("agl_layer_states", Spec("agl_layer_states(coords, words, bias)", lambda words, bias:
                                 nm.agl_layer_states(coords, [words], bias),
                                 {"words": (Word(6), [1, 2]), "bias": (Flag(), True)}))
    add("two_layer_cascade_states", Spec("two_layer_cascade_states(n, T, layers)", lambda n, T, layers:
                                         nm.two_layer_cascade_states(n, T, layers)["distinct_states"],
                                         {"n": (Int(1), 2), "T": (Int(1), 3), "layers": (Int(1, 2), 2)},
                                         oracle=_eq(14)))
    add("least_separating_class", Spec("least_separating_class(n, T)", lambda n, T: nm.least_separating_class(n, T),
                                       {"n": (Int(1), 2), "T": (Int(0), 4)}, oracle=_eq(3)))
    add("least_depth_for_length", Spec("least_depth_for_length(n, T)", lambda n, T: nm.least_depth_for_length(n, T),
                                       {"n": (Int(1), 2), "T": (Int(0), 4)}, oracle=_eq((3, 2))))
    add("max_class_for_depth", Spec("max_class_for_depth(n, k)", lambda n, k: nm.max_class_for_depth(n, k),
                                    {"n": (Int(1), 2), "k": (Int(0), 2)}, oracle=_eq(4)))
    add("least_depth_for_class", Spec("least_depth_for_class(n, c)", lambda n, c: nm.least_depth_for_class(n, c),
                                      {"n": (Int(2), 2), "c": (Int(0), 3)}, oracle=_eq(2)))
    add("colliding_pair", Spec("colliding_pair(n, T, c)", lambda n, T, c: nm.colliding_pair(n, T, c),
                               {"n": (Int(1), 2), "T": (Int(0), 4), "c": (Int(0), 2)},
                               oracle=_eq(((0, 1, 1, 0), (1, 0, 0, 1)))))
    add("word_signature_levels", Spec("word_signature_levels(word, n, c)", lambda word, n, c:
                                      nm.word_signature_levels(word, n, c),
                                      {"word": (Word(2), [0, 1, 1]), "n": (Int(1), 2), "c": (Int(0), 2)},
                                      oracle=_eq([np.array([1]), np.array([1, 2]), np.array([1, 0, 4, 4])])))
    add("zero_area_words", Spec("zero_area_words(T, n, limit)", lambda T, n, limit: nm.zero_area_words(T, n, limit),
                                {"T": (Int(1), 8), "n": (Int(1), 2), "limit": (Int(1), 3)},
                                oracle=_eq([(0, 1, 1, 0, 1, 0, 0, 1), (1, 0, 0, 1, 0, 1, 1, 0)])))
    add("fit_loglog_slope", Spec("fit_loglog_slope(eps, err, confidence)", lambda eps, err, confidence:
                                 nm.fit_loglog_slope(eps, err, confidence).slope,
                                 {"eps": (RealArray(low=SAME), [0.1, 0.2, 0.4]),
                                  "err": (RealArray(low=SAME), [0.01, 0.04, 0.16]),
                                  "confidence": (Real(0, 1, above=True), 0.95)}, oracle=lambda a, r: _close(2.0, 1e-12)(a, r),
                                 same=_approx))
    add("SlopeFit", Spec("fit_loglog_slope(...).contains(value)", lambda value: nm.fit_loglog_slope(
        [0.1, 0.2, 0.4], [0.01, 0.04, 0.16]).contains(value, 1e-9), {"value": (Real(), 2.0)}, oracle=_eq(True)))
    add("choose_eps_grid", Spec("choose_eps_grid(err_fn, expected_order, eps_max=, n=)",
                                lambda expected_order, eps_max, n: nm.choose_eps_grid(
                                    lambda e: e ** 2, expected_order, eps_max=eps_max, n=n),
                                {"expected_order": (Real(0, above=True), 2.0), "eps_max": (Real(0, above=True), 0.1),
                                 "n": (Int(3), 4)}, same=_approx))
    add("log_series_coefficients", Spec("log_series_coefficients(gens, word, degree, dps)",
                                        lambda gens, word, degree, dps: nm.log_series_coefficients(gens, word, degree, dps),
                                        {"gens": (Matrices(low=SAME), sl2), "word": (Word(2), [0, 1]),
                                         "degree": (Int(1), 2), "dps": (Int(1, big=REFUSE), 20)}))
    add("truncation_error", Spec("truncation_error(gens, word, c, eps, dps=)", lambda gens, word, c, eps, dps:
                                 nm.truncation_error(gens, word, c, eps, dps=dps),
                                 {"gens": (Matrices(low=SAME), sl2), "word": (Word(2), [0, 1]), "c": (Int(1), 2),
                                  "eps": (Real(0), 0.1), "dps": (Int(1, big=REFUSE), 20)}))
    add("local_error_scan", Spec("local_error_scan(gens, word, c, n_points)", lambda c, n_points:
                                 nm.local_error_scan(sl2, [0, 1, 0], c, n_points).slope,
                                 {"c": (Int(1), 2), "n_points": (Int(3), 3)}, heavy=True))
    add("target_generators", Spec("target_generators(name, seed, size, n_letters)", lambda name, seed, size, n_letters:
                                  nm.target_generators(name, seed, size, n_letters),
                                  {"name": (Choice(("gl_random", "sl2")), "gl_random"), "seed": (Int(0), 1),
                                   "size": (Int(1), 3), "n_letters": (Int(1), 2)}))
    add("omega2", Spec("omega2(gens, word, dps)", lambda gens, word: nm.omega2(gens, word, 20),
                       {"gens": (Matrices(low=SAME), sl2), "word": (Word(2), [0, 1])},
                       oracle=lambda a, r: _eq(np.array([[-0.5, 0.0], [0.0, 0.5]]))(a, r.astype(float))))
    rot_diag = [np.array([[0, 1], [-1, 0]]), np.array([[1, 0], [0, -1]])]
    add("stack_output_map", Spec("stack_output_map(Ys)", lambda Ys: np.array(nm.stack_output_map(Ys), dtype=float),
                                 {"Ys": (Matrices(low=SAME), sl2)},
                                 oracle=lambda a, r: _eq(np.array([[1.0, 1.0], [1.0, 2.0]]))(a, r)))
    add("stack_error_scan", Spec("stack_error_scan(gens, word, eps_grid)", lambda gens, word:
                                 [row["ratio"] for row in nm.stack_error_scan(gens, word, [0.1, 0.01], 30)],
                                 {"gens": (Matrices(low=SAME), rot_diag), "word": (Word(2), [0, 1, 1])},
                                 oracle=lambda a, r: bool(0 < r[1] < r[0] / 5)))   # error O(ε³)
    add("reversal_bound", Spec("reversal_bound(gens, word, h0, eps, dps)", lambda gens, h0, eps:
                               nm.reversal_bound(gens, [0, 1], h0, eps, 20),
                               {"gens": (Matrices(low=SAME), sl2), "h0": (RealArray(low=SAME, optional=True), h0),
                                "eps": (Real(0), 0.1)}),
        Spec("reversal_bound(gens, word, None, eps): every unit initial state", lambda eps:
             nm.reversal_bound(sl2, [0, 1], None, eps, 20), {"eps": (Real(0), 0.1)},
             oracle=lambda a, r: _eq(True)(a, r >= nm.reversal_bound(sl2, [0, 1], h0, a["eps"], 20))))
    add("reversal_scan", Spec("reversal_scan(gens, word, h0, eps_grid, omega2_sign=)", lambda eps_grid, omega2_sign:
                              [p.ratio for p in nm.reversal_scan(sl2, [0, 1], h0, eps_grid, 20, omega2_sign)],
                              {"eps_grid": (RealArray(low=SAME), [0.1, 0.05]), "omega2_sign": (Choice((1, -1)), 1)}))
    add("abelian_model_error", Spec("abelian_model_error(gens, word, h0, eps)", lambda word, eps:
                                    nm.abelian_model_error(sl2, word, h0, eps, dps=20),
                                    {"word": (Word(2), [0, 1]), "eps": (Real(0), 0.1)}))
    add("nilpotent_cascade", Spec("nilpotent_cascade(generators, depth, coupling)", lambda generators, depth, coupling:
                                  nm.nilpotent_cascade(generators, depth, coupling).nilpotency_class,
                                  {"generators": (Matrices(low=SAME), sl2), "depth": (Int(1), 2),
                                   "coupling": (Choice(("polynomial", "linear")), "polynomial")}, oracle=_eq(4)))
    add("NilpotentCascade", Spec("NilpotentCascade.error(word, eps, dps)", lambda word, eps, dps:
                                 nm.nilpotent_cascade(sl2, 2).error(word, eps, dps),
                                 {"word": (Word(2), [0, 1]), "eps": (Exact(floats=True), third),
                                  "dps": (Int(15, big=REFUSE), 20)}))
    add("free_group_element", Spec("free_group_element(word, n, c, eps)", lambda word, n, c, eps:
                                   nm.free_group_element(word, n, c, eps),
                                   {"word": (Word(2), [0, 1]), "n": (Int(1), 2), "c": (Int(1), 2),
                                    "eps": (Exact(floats=True), Fraction(1, 2))},
                                   oracle=lambda a, r: _eq([[1], [Fraction(1, 2)] * 2, [Fraction(1, 8), 0, Fraction(1, 4),
                                                                              Fraction(1, 8)]])(a, _fractions(r)),
                                   same=lambda a, b: same(_fractions(a), _fractions(b))))
    add("affine_diagonal_final_state", Spec("affine_diagonal_final_state(decay, inject, word)", lambda decay, inject, word:
                                            nm.affine_diagonal_final_state(decay, inject, word),
                                            {"decay": (RealArray(low=SAME, complex_ok=True), [[0.5], [0.25]]),
                                             "inject": (RealArray(low=SAME, complex_ok=True), [[1.0], [2.0]]),
                                             "word": (Word(2), [0, 1])}, oracle=_eq(np.array([2.25 + 0j]))))
    add("affine_target_state", Spec("affine_target_state(alpha, beta, word, h0)", lambda alpha, beta, word, h0:
                                    nm.affine_target_state(alpha, beta, word, h0),
                                    {"alpha": (ExactMatrix(), alpha), "beta": (ExactMatrix(), beta),
                                     "word": (Word(2), [0, 1]), "h0": (Obj("initial state"), [1])},
                                    oracle=_eq([Fraction(19, 8)])))
    add("restricted_layer_state", Spec("restricted_layer_state(decay, bias, word, h0)", lambda decay, bias, word, h0:
                                       nm.restricted_layer_state(decay, bias, word, h0),
                                       {"decay": (ExactMatrix(), alpha), "bias": (ExactMatrix(), beta),
                                        "word": (Word(2), [0, 1]), "h0": (Obj("initial state"), [1])},
                                       oracle=_eq([Fraction(19, 8)])))
    add("restricted_vs_target_table", Spec("restricted_vs_target_table(alpha, beta, h0, max_len, dps)",
                                           lambda max_len, dps: len(nm.restricted_vs_target_table(alpha, beta, [1], max_len, dps)),
                                           {"max_len": (Int(1), 2), "dps": (Int(1, big=REFUSE), 20)}, oracle=_eq(6)))
    add("rownorm_update", Spec("rownorm_update(G, eta, eps=, centre=)", lambda G, eta, eps, centre:
                               nm.rownorm_update(G, eta, eps=eps, centre=centre),
                               {"G": (RealArray(low=SAME), G), "eta": (Real(0, above=True), 1.0),
                                "eps": (Real(0), 0.0), "centre": (Flag(), True)}))
    add("rownorm_ratio", Spec("rownorm_ratio(G, eta, rtol)", lambda G, eta: round(nm.rownorm_ratio(G, eta)["ratio"], 6),
                              {"G": (RealArray(low=SAME), G), "eta": (Real(0, above=True), 1.0)}, heavy=True))
    add("steepest_descent_diameter", Spec("steepest_descent_diameter(G, eta)", lambda G, eta: round(
        nm.steepest_descent_diameter(G, eta).value, 6), {"G": (RealArray(low=SAME), G),
                                                         "eta": (Real(0, above=True), 1.0)}, heavy=True))
    add("min_tension", Spec("min_tension(G, rtol=)", lambda G, rtol: round(nm.min_tension(G, rtol=rtol).value, 6),
                            {"G": (RealArray(low=SAME), G), "rtol": (Real(0), 1e-9)}, heavy=True))
    add("covering_radius_descent", Spec("covering_radius_descent(G, eta)", lambda G, eta: round(
        nm.covering_radius_descent(G, eta).value, 6), {"G": (RealArray(low=SAME), G),
                                                       "eta": (Real(0, above=True), 1.0)}, heavy=True))
    add("max_min_separation", Spec("max_min_separation(V, d, starts=, seed=, maxiter=)", lambda V, d, starts, seed, maxiter:
                                   round(nm.max_min_separation(V, d, starts=starts, seed=seed, maxiter=maxiter).ratio, 9),
                                   {"V": (Int(2), 4), "d": (Int(1), 2), "starts": (Int(1), 2), "seed": (Int(0), 0),
                                    "maxiter": (Int(1), 50)}))
    return out


# ------------------------------------------------------------------------------------------------
# seqtheory.models
# ------------------------------------------------------------------------------------------------


def _tiny_train_config(**kw):
    import seqtheory.models as m

    fields = dict(task="S3", model="gla", depth=1, width=8, n_heads=2, d_state=4, train_length=4,
                  n_train=32, n_test=16, steps=2, batch_size=8, warmup=0, checkpoint_every=1000,
                  log_every=1000)
    fields.update(kw)
    return m.TrainConfig(**fields)


def _trained(result: dict) -> tuple:
    """What a training run answers (its numbers; not where they came from)."""
    return result["final_loss"], result["test"]


def _under_default_dtype(dtype, fn):
    import torch

    old = torch.get_default_dtype()
    torch.set_default_dtype(dtype)
    try:
        return fn()
    finally:
        torch.set_default_dtype(old)


def _batch0_parallel_equals_recurrent():
    """Every model in parallel mode on a batch of 0 words: the empty result the recurrent
    (reference) mode gives."""
    import torch
    import seqtheory.models as m

    tokens = torch.zeros((0, 4), dtype=torch.long)
    out = {}
    for name in m.MODEL_NAMES:
        with torch.random.fork_rng(devices=[]):    # the spec's own draws leave the caller's RNG
            torch.manual_seed(0)
            model = m.SequenceModel(m.ModelConfig(name=name, vocab_size=3, n_out=3, width=8, n_heads=2,
                                                  d_state=4))
        out[name] = tuple(model(tokens, mode="parallel").shape), tuple(model(tokens, mode="recurrent").shape)
    return out


def _mixed_dtype_chunked_scan():
    """The chunked scan on float64 x with float32 b, c, log_mag: the reference's answer on the
    inputs promoted to float64 (``torch.result_type``), within float64 rounding."""
    import torch
    from seqtheory.models.layers_diagonal import scalar_decay_scan_chunked, scalar_decay_scan_reference

    g = torch.Generator().manual_seed(0)
    B, T, H, P, N = 2, 5, 2, 3, 4
    x = torch.randn(B, T, H, P, generator=g, dtype=torch.float64)
    b, c = torch.randn(B, T, H, N, generator=g), torch.randn(B, T, H, N, generator=g)
    lm = -torch.rand(B, T, H, generator=g)
    ref = scalar_decay_scan_reference(x, b.double(), c.double(), lm.double())
    got = scalar_decay_scan_chunked(x, b, c, lm)
    return got.dtype == torch.float64 and bool(torch.allclose(got, ref, rtol=1e-10, atol=1e-12))


def models_specs() -> dict[str, list[Spec]]:
    import tempfile

    import torch
    import seqtheory.models as m
    from seqtheory.models.tasks import RotationSpec, WordProblemSpec
    from seqtheory.theory import FiniteGroup

    out: dict[str, list[Spec]] = {}

    def add(name, *specs):
        out[f"seqtheory.models.{name}"] = list(specs)

    torch.manual_seed(0)
    mc = m.ModelConfig(name="gla", vocab_size=3, n_out=3, width=8, n_heads=2, d_state=4)
    model = m.SequenceModel(mc)
    tokens = torch.tensor([[0, 1, 2, 1]])
    store = m.ResultsStore(tempfile.mkdtemp(prefix="seqtheory-contract-"))
    add("MODEL_NAMES", Spec("MODEL_NAMES", lambda: "gla" in m.MODEL_NAMES, {}, oracle=_eq(True)))
    add("ModelConfig", Spec("ModelConfig(name, vocab_size, n_out, width=)", lambda vocab_size, width:
                            m.ModelConfig(name="gla", vocab_size=vocab_size, n_out=3, width=width, n_heads=2),
                            {"vocab_size": (Int(1), 3), "width": (Int(1), 8)}))
    add("SequenceModel",
        Spec("SequenceModel(cfg)(tokens, mode)", lambda tokens, mode: model(tokens, mode=mode).detach(),
             {"tokens": (TokenTensor(3), tokens), "mode": (Choice(("parallel", "recurrent")), "parallel")},
             same=lambda a, b: bool(torch.allclose(a, b, rtol=1e-5, atol=1e-6))),
        Spec("SequenceModel(cfg) parallel mode on a batch of 0 (every model)", _batch0_parallel_equals_recurrent,
             {}, oracle=lambda a, r: _eq({k: (v[1], v[1]) for k, v in r.items()})(a, r)),
        Spec("scalar_decay_scan_chunked with float64 x and float32 b, c, log_mag", _mixed_dtype_chunked_scan,
             {}, oracle=_eq(True)))
    add("TrainConfig", Spec("TrainConfig(task, model, depth=, lr=, steps=)", lambda depth, lr, steps:
                            _tiny_train_config(depth=depth, lr=lr, steps=steps),
                            {"depth": (Int(1), 1), "lr": (Real(0, above=True), 3e-3), "steps": (Int(1), 2)}))
    add("train",
        Spec("train(cfg, store=, threads=, lease_s=)", lambda threads, lease_s: _trained(
            m.train(_tiny_train_config(), store=store, threads=threads, lease_s=lease_s)),
             {"threads": (Int(1, optional=True), 1), "lease_s": (Real(0, above=True), 120.0)}, heavy=True),
        Spec("train(cfg) under torch's float64 default dtype: the run of its configuration",
             lambda: _trained(_under_default_dtype(torch.float64, lambda: m.train(_tiny_train_config(seed=5))))
             == _trained(m.train(_tiny_train_config(seed=5))), {}, oracle=_eq(True), heavy=True))
    add("ResultsStore", Spec("ResultsStore(root, busy_timeout_s)", lambda busy_timeout_s: m.ResultsStore(
        tempfile.mkdtemp(prefix="seqtheory-contract-"), busy_timeout_s)._busy_ms,
        {"busy_timeout_s": (Real(0, m.ResultsStore.__init__.__globals__["MAX_BUSY_TIMEOUT_S"], above=True), 2.0)},
        oracle=_eq(2000)))
    add("RowNorm", Spec("RowNorm(params, lr, beta, eps, centre, weight_decay)", lambda lr, beta, eps, centre:
                        m.RowNorm([torch.nn.Parameter(torch.ones(3, 2))], lr=lr, beta=beta, eps=eps, centre=centre)
                        .defaults, {"lr": (Real(0), 1e-3), "beta": (Real(0, 1, below=True), 0.9),
                                    "eps": (Real(0, above=True), 1e-8), "centre": (Flag(), True)}))
    add("make_word_problem", Spec("make_word_problem(WordProblemSpec(group, train_length, n_train, n_test, seed))",
                                  lambda train_length, n_train, seed: m.make_word_problem(WordProblemSpec(
                                      group="S3", train_length=train_length, n_train=n_train, n_test=4, seed=seed)).train_tokens,
                                  {"train_length": (Int(1), 3), "n_train": (Int(1), 8), "seed": (Int(0), 0)}))
    add("make_rotation_task", Spec("make_rotation_task(RotationSpec(train_length, n_train, eps, seed))",
                                   lambda train_length, n_train, seed: m.make_rotation_task(RotationSpec(
                                       train_length=train_length, n_train=n_train, n_test=4, seed=seed)).train_tokens,
                                   {"train_length": (Int(1), 3), "n_train": (Int(1), 8), "seed": (Int(0), 0)}))
    C2 = FiniteGroup.cyclic(2)
    sign = {C2.element(0): np.eye(1), C2.element(1): -np.eye(1)}
    add("audit_representation", Spec("models.audit_representation(group, mapping, tol)", lambda tol:
                                     m.audit_representation(C2, sign, tol).is_homomorphism,
                                     {"tol": (Real(0, optional=True), 1e-9)}, oracle=_eq(True)))
    torch.manual_seed(0)
    aussm = m.SequenceModel(m.ModelConfig(name="aussm", vocab_size=6, n_out=6, width=8, n_heads=2, d_state=4))
    add("inspect", Spec("inspect(model, group=, modulus_floor=, n_letters=, seed=)", lambda modulus_floor, n_letters, seed:
                        m.inspect(aussm, group="S3", modulus_floor=modulus_floor, n_letters=n_letters,
                                  seed=seed, lie=False).predicted_horizon,
                        {"modulus_floor": (Real(0, 1, above=True), 0.5), "n_letters": (Int(1), 24),
                         "seed": (Int(0), 0)}, heavy=True))
    add("Inspection", Spec("inspect(...) -> Inspection", lambda: m.inspect(aussm, group="S3", n_letters=24,
                                                                              lie=False).group_order, {}, oracle=_eq(6)))
    return out


# ------------------------------------------------------------------------------------------------
# seqtheory.proofs_checks
# ------------------------------------------------------------------------------------------------
def proofs_checks_specs() -> dict[str, list[Spec]]:
    import seqtheory.proofs_checks as pc

    out: dict[str, list[Spec]] = {}

    def add(name, *specs):
        out[f"seqtheory.proofs_checks.{name}"] = list(specs)

    add("AUDIT", Spec("AUDIT(location)", lambda location: pc.AUDIT(location).location,
                      {"location": (Text(), "Table 1")}, oracle=_eq("Table 1")))
    add("DEPTH", Spec("DEPTH(location, version)", lambda location, version: pc.DEPTH(location, version).version,
                      {"location": (Text(), "Thm 3.2"), "version": (Choice(("v1", "v2")), "v1")}, oracle=_eq("v1")))
    add("HEAD", Spec("HEAD(location, version)", lambda location, version: pc.HEAD(location, version).arxiv,
                     {"location": (Text(), "Eq. 3"), "version": (Choice(("v1", "v2")), "v2")}))
    add("TEXTBOOK", Spec("TEXTBOOK(reference, location)", lambda reference, location: pc.TEXTBOOK(
        reference, location).reference, {"reference": (Text(), "Reutenauer"), "location": (Text(), "§5")},
        oracle=_eq("Reutenauer")))
    add("Source", Spec("Source(paper, arxiv, version, location)", lambda paper: pc.Source(
        paper, "2603.05573", "v1", "Thm 1").paper, {"paper": (Text(), "DEPTH")}, oracle=_eq("DEPTH")))
    add("Context", Spec("Context(seed, profile)", lambda seed, profile: pc.Context(seed=seed, profile=profile).seed,
                        {"seed": (Int(0), 3), "profile": (Choice(("quick", "full")), "quick")}, oracle=_eq(3)))
    add("Verdict", Spec("Verdict(value)", lambda value: pc.Verdict(value), {"value": (Choice(tuple(
        v.value for v in pc.Verdict)), "supported")}, oracle=_eq(pc.Verdict.SUPPORTED)))
    add("Outcome", Spec("Outcome(verdict, key_figure)", lambda verdict: pc.Outcome(verdict, "slope 2.0").verdict,
                        {"verdict": (Obj("Verdict"), pc.Verdict.SUPPORTED)}, oracle=_eq(pc.Verdict.SUPPORTED)))
    add("ControlOutcome", Spec("ControlOutcome(rejected, variant, reason)", lambda rejected: pc.ControlOutcome(
        rejected, "wrong sign", "refuted").rejected, {"rejected": (Flag(), True)}, oracle=_eq(True)))
    add("get_claim", Spec("get_claim(id_or_alias)", lambda id_or_alias: pc.get_claim(id_or_alias).id,
                          {"id_or_alias": (Text(), "depth.cor3.6")}, oracle=_eq("depth.cor3.6")))
    add("all_claims", Spec("all_claims()", lambda: len(pc.all_claims()) > 10, {}, oracle=_eq(True)))
    add("load_all", Spec("load_all()", lambda: "depth.cor3.6" in pc.load_all(), {}, oracle=_eq(True)))
    add("Claim", Spec("get_claim(...) -> Claim", lambda: pc.get_claim("depth.cor3.6").source.arxiv, {},
                      oracle=_eq("2603.05573")))
    add("claim", Spec("claim(id, ..., claim_version=, uses_training=)", lambda claim_version, uses_training:
                      _registered(pc, claim_version, uses_training),
                      {"claim_version": (Int(1), 2), "uses_training": (Flag(), False)}, oracle=_eq((2, False))))
    return out


def _registered(pc, claim_version, uses_training=False):
    """Register a throw-away claim in the registry for the call only (the registry is restored)."""
    from unittest import mock

    from seqtheory.proofs_checks import registry

    with mock.patch.dict(registry.REGISTRY):
        c = pc.claim("contract.test_claim", title="t", source=pc.TEXTBOOK("r"), statement="s",
                     claim_version=claim_version, uses_training=uses_training)(lambda ctx: None)
        return c.claim_version, c.uses_training

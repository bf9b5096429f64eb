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
                              Real, RealArray, Spec, Text, Word, same)

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
             {"mats": (Matrices(), [E12, E23])}, oracle=_eq((3, [3, 1, 0], [3, 1, 0]))),
        Spec("LieAlgebra.generated_by(mats, tol=)", lambda mats, tol: dims(t.LieAlgebra.generated_by(mats, tol=tol)),
             {"mats": (Matrices(), [E12.astype(float), E23.astype(float)]),
              "tol": (Real(0, 1, above=True, optional=True), 1e-9)}, oracle=_eq((3, [3, 1, 0], [3, 1, 0]))),
        Spec("LieAlgebra.spanned_by(mats)", lambda mats: dims(t.LieAlgebra.spanned_by(mats)),
             {"mats": (Matrices(), SL2 + [np.array([[1, 0], [0, -1]])])}, oracle=_eq((3, [3], [3]))),
        Spec("LieAlgebra.from_structure_constants(c, dim=)",
             lambda c, dim: t.LieAlgebra.from_structure_constants(c, dim=dim).dim,
             {"c": (Obj("structure constants"), {(0, 1): {2: 1}, (1, 0): {2: -1}}),
              "dim": (Int(1, big=REFUSE, optional=True), 3)}, oracle=_eq(3)))
    add("LieSeries", Spec("LieAlgebra.derived_series() -> LieSeries",
                          lambda mats: t.LieAlgebra.generated_by(mats).derived_series().dims,
                          {"mats": (Matrices(), SL2)}, oracle=_eq([3])))
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
        {"gap": (Real(0), 2.0), "tol": (Real(0), 1e-9), "noise": (Real(0), 1e-15)}))
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
        Spec("LiePolynomial(coefficients, alphabet)", lambda coefficients: t.LiePolynomial(
            coefficients, "xy").lyndon_coefficients(), {"coefficients": (Obj("coefficients"), {"xy": Fraction(1, 2)})},
            oracle=_eq({"xy": Fraction(1, 2)})),
        Spec("LiePolynomial.truncate(c)", lambda c: t.bch(4).truncate(c).lyndon_coefficients(),
             {"c": (Int(0), 2)}, oracle=_eq({"x": 1, "y": 1, "xy": Fraction(1, 2)})),
        Spec("LiePolynomial.homogeneous_component(m)", lambda m: t.bch(4).homogeneous_component(m)
             .lyndon_coefficients(), {"m": (Int(1), 2)}, oracle=_eq({"xy": Fraction(1, 2)})),
        Spec("LiePolynomial.evaluate(matrices)", lambda matrices: t.bch(2).evaluate(
            *(list(matrices) if isinstance(matrices, (list, np.ndarray)) else [matrices])), {"matrices": (Matrices(low=SAME, complex_ok=True, forms=EITHER),
                                                      [E12, E23])}))
    add("bch", Spec("bch(degree)", lambda degree: t.bch(degree).lyndon_coefficients(),
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
        P.lyndon_coefficients() for P in t.magnus_lie_terms(n_coeffs, order)],
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
    return out


def all_specs() -> dict[str, list[Spec]]:
    """Every spec, keyed by the public name's full dotted path."""
    return {**theory_specs()}

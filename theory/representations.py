"""Matrix representations of finite groups: the homomorphism audit, and the faithful icosahedral
(rotation) representation of A5 over Q(sqrt 5).

Convention: a representation ``ρ`` of a :class:`~seqtheory.theory.groups.FiniteGroup` satisfies
``ρ(a * b) = ρ(a) @ ρ(b)`` with the group product of :meth:`FiniteGroup.multiply` (for
permutations ``a * b = a ∘ b``, apply b first), i.e. matrices act on the left like the state
update ``h_t = M(x_t) h_{t-1}`` of SPEC §2.

Sources: J.-P. Serre, *Linear Representations of Finite Groups*, §1; the rotation group of the
icosahedron is A5 with presentation ``<a, b | a^5 = b^2 = (ab)^3 = 1>`` (H. S. M. Coxeter,
*Regular Polytopes*, §3.6 / Coxeter-Moser, *Generators and Relations for Discrete Groups*, §6.4).
Used by the rotation task of [DEPTH] (Heo et al., arXiv:2603.05573, §5, 'A5 rotations').
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Any, Mapping

import numpy as np

from .groups import FiniteGroup
from .contract import check_exact_sympy, check_instance, check_real

__all__ = ["RepresentationAudit", "audit_representation", "IcosahedralRepresentation",
           "icosahedral_representation", "rotation_log", "rotation_axis_generator",
           "PAPER_ROTATION_GENERATORS", "paper_rotation_matrices", "PaperRotationMap",
           "paper_rotation_map", "matrix_order", "matrix_group_order"]


# ------------------------------------------------------------------------------------------------
# the audit
# ------------------------------------------------------------------------------------------------
@dataclass
class RepresentationAudit:
    """Result of :func:`audit_representation`.

    ``fraction_respected``: exact fraction (``Fraction``) of the ``|G|^2`` pairs (a, b) with
    ``ρ(ab) = ρ(a) ρ(b)``; ``n_distinct``: number of distinct matrices among the ``|G|`` images;
    ``kernel_order``: number of elements mapped to the identity matrix; ``is_faithful``: a
    homomorphism with ``n_distinct == |G|``; ``failing_example``: the first failing pair
    ``{"a", "b", "ab", "error"}`` (or ``None``); ``exact``: exact arithmetic was used (else float
    with tolerance ``tol``, and ``max_error`` the largest entrywise discrepancy).
    """

    order: int
    dim: int
    exact: bool
    tol: float | None
    n_pairs: int
    n_respected: int
    fraction_respected: Fraction
    n_distinct: int
    kernel_order: int
    is_homomorphism: bool
    identity_maps_to_identity: bool
    is_faithful: bool
    failing_example: dict | None = None
    max_error: float | None = None
    domain: str = ""

    def as_dict(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in self.__dataclass_fields__}


def _images(group: FiniteGroup, mapping) -> list:
    """Images in group index order from a dict / callable / sequence."""
    if isinstance(mapping, Mapping):
        extra = [k for k in mapping if k not in group]
        if extra:
            raise ValueError(f"mapping: key {extra[0]!r} is not an element of the group")
        missing = [x for x in group.elements if x not in mapping]
        if missing:
            raise ValueError(f"mapping: no image for the group element {missing[0]!r} "
                             f"({len(missing)} missing)")
        return [mapping[x] for x in group.elements]
    if callable(mapping):
        return [mapping(x) for x in group.elements]
    if isinstance(mapping, np.ndarray) and mapping.ndim == 3 or isinstance(mapping, (list, tuple)):
        if len(mapping) != group.order:
            raise ValueError(f"mapping: a sequence must have one matrix per element in group index "
                             f"order ({group.order}), got {len(mapping)}")
        return list(mapping)
    raise TypeError("mapping must be a dict element->matrix, a callable, or a sequence of matrices "
                    f"in group index order; got {type(mapping).__name__}")


def _is_exact_matrix(M) -> bool:
    import sympy

    if isinstance(M, sympy.MatrixBase):
        return True
    if isinstance(M, np.ndarray):
        return M.dtype.kind in "iu" or (M.dtype == object and all(
            isinstance(v, (int, Fraction, sympy.Basic)) for v in M.ravel()))
    if isinstance(M, (list, tuple)):
        try:
            return all(isinstance(v, (int, Fraction, sympy.Basic)) and not isinstance(v, bool)
                       for r in M for v in r)
        except TypeError:
            return False
    return False


def audit_representation(group: FiniteGroup, mapping, tol: float | None = None
                         ) -> RepresentationAudit:
    """Audit a claimed representation ``ρ: group -> GL_d`` on the WHOLE Cayley table.

    ``mapping``: dict ``{element: matrix}`` (every element exactly once), a callable, or a sequence
    of matrices in group index order. Matrices are d x d, either all exact (sympy ``Matrix``,
    nested lists / object arrays of ``int``/``Fraction``/sympy numbers, integer numpy arrays) —
    then every comparison is exact over the smallest field sympy constructs for the entries
    (e.g. ``QQ<sqrt(5)>``) — or float numpy arrays, compared entrywise with tolerance
    ``tol`` (default ``1e-9 * max(1, max|entry|)^2``, reported in the result).
    Convention: ``ρ(a*b) == ρ(a) @ ρ(b)`` with :meth:`FiniteGroup.multiply`.

    Raises ``ValueError`` for a missing/extra element, non-square or mismatched matrices, NaN/inf
    entries or a negative ``tol``; ``TypeError`` for an unsupported mapping.
    """
    check_instance("group", group, FiniteGroup, "a FiniteGroup")
    if tol is not None:
        tol = check_real("tol", tol, 0)
    imgs = _images(group, mapping)
    exact = all(_is_exact_matrix(M) for M in imgs)
    if exact:
        return _audit_exact(group, imgs)
    return _audit_float(group, imgs, tol)


def _audit_exact(group: FiniteGroup, imgs: list) -> RepresentationAudit:
    """Exact audit. Entries are put in the smallest number field ``K = QQ(θ)`` sympy constructs
    for them; every matrix is written ``M = (1/D) Σ_k N_k θ^k`` with integer matrices ``N_k``, and
    ``ρ(a)ρ(b) = ρ(ab)`` is checked for all pairs at once with Python-integer (object) arrays,
    reducing powers of θ by its minimal polynomial."""
    import sympy
    from sympy.polys.constructor import construct_domain

    mats = []
    for k, M in enumerate(imgs):
        M = sympy.Matrix(M.tolist() if isinstance(M, np.ndarray) else M)
        if not M.is_square or (mats and M.shape != mats[0].shape) or M.rows == 0:
            raise ValueError(f"mapping: image of {group.elements[k]!r} has shape {M.shape}; all "
                             f"images must be square of the same size")
        mats.append(M.applyfunc(lambda v: sympy.Rational(v.numerator, v.denominator)
                                if isinstance(v, Fraction) else sympy.sympify(v)))
    d, n = mats[0].rows, group.order
    entries = [v for M in mats for v in M]
    if any(v.has(sympy.nan, sympy.oo, -sympy.oo, sympy.zoo) for v in entries):
        raise ValueError("mapping: matrices contain NaN or infinite entries")
    K, elts = construct_domain(entries, extension=True)
    if K.is_ZZ or K.is_QQ:
        deg, minpoly = 1, [Fraction(1), Fraction(0)]  # θ = 0 placeholder: θ^1 never occurs
        coeffs = [[_frac(K.to_sympy(x))] for x in elts]
    elif K.is_AlgebraicField:
        minpoly = [_frac(K.dom.to_sympy(c)) for c in K.mod.to_list()]  # highest degree first
        deg = len(minpoly) - 1
        coeffs = []
        for x in elts:
            c = [_frac(K.dom.to_sympy(v)) for v in x.to_list()][::-1]  # lowest degree first
            coeffs.append(c + [Fraction(0)] * (deg - len(c)))
    else:  # pragma: no cover - entries outside any number field sympy can construct
        raise ValueError(f"mapping: cannot decide equality exactly over the domain {K}")
    # θ^s = Σ_m red[s][m] θ^m for s = 0 .. 2deg-2 (monic minimal polynomial)
    lead = minpoly[0]
    low = [-c / lead for c in minpoly[1:]][::-1]  # θ^deg = Σ_m low[m] θ^m
    red = [[Fraction(int(m == s)) for m in range(deg)] for s in range(deg)]
    for s in range(deg, 2 * deg - 1):
        prev = red[-1]
        nxt = [Fraction(0)] + prev[:-1]
        red.append([nxt[m] + prev[-1] * low[m] for m in range(deg)])
    D = _lcm(c.denominator for cs in coeffs for c in cs)
    L = _lcm(c.denominator for r in red for c in r)
    N = np.empty((n, deg, d, d), dtype=object)
    for idx, cs in enumerate(coeffs):
        k, rem = divmod(idx, d * d)
        i, j = divmod(rem, d)
        for m in range(deg):
            N[k, m, i, j] = int(cs[m] * D)
    T = group.cayley_table().astype(np.int64)
    lhs = np.zeros((deg, n, n, d, d), dtype=object)
    for s in range(2 * deg - 1):
        P = sum((N[:, k][:, None] @ N[:, s - k][None, :]
                 for k in range(max(0, s - deg + 1), min(s, deg - 1) + 1)))
        for m in range(deg):
            r = int(red[s][m] * L)
            if r:
                lhs[m] += P * r
    rhs = N[T] * (L * D)  # (n, n, deg, d, d)
    good = np.ones((n, n), dtype=bool)
    for m in range(deg):
        good &= (lhs[m] == rhs[:, :, m]).all(axis=(2, 3))
    bad = np.argwhere(~good)
    fail = tuple(map(int, bad[0])) if bad.size else None
    keys = {tuple(N[k].ravel().tolist()) for k in range(n)}
    eye = np.zeros((deg, d, d), dtype=object)
    eye[...] = 0
    eye[0] = np.eye(d, dtype=np.int64).astype(object) * D
    at_id = np.array([(N[k] == eye).all() for k in range(n)])
    return _result(group, d, True, None, int(good.sum()), fail, len(keys), int(at_id.sum()),
                   bool(at_id[group.identity_index]), None, str(K))


def _frac(v) -> Fraction:
    return Fraction(int(v.p), int(v.q))


def _lcm(vals) -> int:
    import math

    out = 1
    for v in vals:
        out = math.lcm(out, int(v))
    return out


def _audit_float(group: FiniteGroup, imgs: list, tol: float | None) -> RepresentationAudit:
    for M in imgs:
        a = np.asarray(M) if not isinstance(M, np.ndarray) else M
        if a.dtype.kind in "bcUS" or (a.dtype == object and any(
                isinstance(v, (bool, np.bool_, complex, str)) for v in a.ravel())):
            raise TypeError(f"mapping: matrix entries must be real numbers, got dtype {a.dtype} "
                            "(booleans, complex numbers and strings are not accepted)")
    try:
        A = np.stack([np.asarray(M, dtype=np.float64) for M in imgs])
    except (ValueError, TypeError) as exc:
        raise ValueError(f"mapping: images must be square matrices of one size ({exc})") from None
    if A.ndim != 3 or A.shape[1] != A.shape[2] or A.shape[1] == 0:
        raise ValueError(f"mapping: images must be square matrices of one size, got {A.shape[1:]}")
    if not np.isfinite(A).all():
        raise ValueError("mapping: matrices contain NaN or infinite entries")
    n, d = A.shape[0], A.shape[1]
    scale = max(1.0, float(np.abs(A).max()))
    tol = 1e-9 * scale ** 2 if tol is None else float(tol)
    T = group.cayley_table().astype(np.int64)
    prod = np.einsum("iab,jbc->ijac", A, A)
    err = np.abs(prod - A[T]).max(axis=(2, 3))
    good = err <= tol
    bad = np.argwhere(~good)
    fail = tuple(map(int, bad[0])) if bad.size else None
    reps: list[int] = []  # greedy clustering: a matrix is new if no earlier representative is close
    for k in range(n):
        if not reps or np.abs(A[reps] - A[k]).max(axis=(1, 2)).min() > tol:
            reps.append(k)
    eye = np.eye(d)
    at_id = np.abs(A - eye).max(axis=(1, 2)) <= tol
    return _result(group, d, False, tol, int(good.sum()), fail, len(reps), int(at_id.sum()),
                   bool(at_id[group.identity_index]), float(err.max()), "float64",
                   err_at=float(err[fail]) if fail else None)


def _result(group, d, exact, tol, ok, fail, n_distinct, kernel, id_ok, max_err, domain,
            err_at=None) -> RepresentationAudit:
    n = group.order
    is_hom = ok == n * n
    ex = None
    if fail is not None:
        i, j = fail
        ex = {"a": group.elements[i], "b": group.elements[j],
              "ab": group.elements[int(group.cayley_table()[i, j])], "error": err_at}
    return RepresentationAudit(order=n, dim=d, exact=exact, tol=tol, n_pairs=n * n, n_respected=ok,
                               fraction_respected=Fraction(ok, n * n), n_distinct=n_distinct,
                               kernel_order=kernel, is_homomorphism=is_hom,
                               identity_maps_to_identity=bool(id_ok),
                               is_faithful=bool(is_hom and n_distinct == n), failing_example=ex,
                               max_error=max_err, domain=domain)


# ------------------------------------------------------------------------------------------------
# rotations
# ------------------------------------------------------------------------------------------------
def _exact_rotation_matrix(R):
    """``R`` as a 3x3 sympy matrix of exact numbers (:func:`~seqtheory.theory.contract.check_exact_sympy`
    per entry: ints, Fractions, sympy numbers such as ``sqrt(5)``, Decimal); ``TypeError`` naming
    ``R`` for floats (the exact path never reads a float as a nearby exact number), ``ValueError``
    for another shape."""
    import sympy

    rows = R.tolist() if hasattr(R, "tolist") else R          # numpy array, sympy Matrix
    try:
        rows = [list(r) for r in rows]
    except TypeError:
        raise TypeError(f"R must be a 3x3 matrix of exact numbers, got {type(R).__name__}") from None
    if len(rows) != 3 or any(len(r) != 3 for r in rows):
        raise ValueError(f"R must be 3x3, got rows of lengths {[len(r) for r in rows]}")
    return sympy.Matrix([[check_exact_sympy("R", x) for x in r] for r in rows])


def rotation_log(R) -> tuple[Any, Any, Any]:
    """Exact axis-angle logarithm of a 3x3 rotation matrix ``R`` (sympy, exact entries).

    Returns ``(angle, axis, L)`` with ``angle`` in ``[0, π]``, ``axis`` a unit sympy column vector
    (``None`` for the identity) and ``L = angle * [axis]_x`` the skew-symmetric matrix in so(3) with
    ``expm(L) = R`` (Rodrigues). For ``angle = π`` the logarithm is not unique (``±L``); the axis
    is then chosen with its first non-zero coordinate positive. ``ValueError`` if ``R`` is not a
    rotation (``RᵀR ≠ I`` or ``det R ≠ 1``).
    """
    import sympy

    R = _exact_rotation_matrix(R)
    if (sympy.simplify(R.T * R - sympy.eye(3)) != sympy.zeros(3, 3)
            or sympy.simplify(R.det() - 1) != 0):
        raise ValueError("R is not a rotation (R^T R != I or det R != 1)")
    c = sympy.radsimp((R.trace() - 1) / 2)      # exact: never a nearby number guessed
    angle = sympy.acos(c)
    if sympy.simplify(c - 1) == 0:
        return sympy.Integer(0), None, sympy.zeros(3, 3)
    if sympy.simplify(c + 1) == 0:
        S = (R + sympy.eye(3)) / 2  # = w w^T
        k = max(range(3), key=lambda i: float(S[i, i]))
        w = S[:, k] / sympy.sqrt(S[k, k])
        first = next(v for v in w if sympy.simplify(v) != 0)
        if first.is_negative:                   # exact sign (float() of a tiny entry is 0.0)
            w = -w
        w = w.applyfunc(sympy.radsimp)
    else:
        s = sympy.sqrt(1 - c ** 2)
        w = sympy.Matrix([R[2, 1] - R[1, 2], R[0, 2] - R[2, 0], R[1, 0] - R[0, 1]]) / (2 * s)
        w = w.applyfunc(lambda v: sympy.radsimp(sympy.simplify(v)))
    L = angle * sympy.Matrix([[0, -w[2], w[1]], [w[2], 0, -w[0]], [-w[1], w[0], 0]])
    return angle, w, L


def rotation_axis_generator(R) -> Any:
    """A skew-symmetric matrix ``K`` that is a **positive multiple** of ``log R`` (see
    :func:`rotation_log`) with entries in the field generated by the entries of ``R`` (no square
    roots or π): ``K = [v]_x`` with ``v = vee(R - Rᵀ) = 2 sin θ · axis`` for ``0 < θ < π``, and
    ``v`` = the largest column of ``R + I`` (``= 2 axis axisᵀ``, sign as in :func:`rotation_log`)
    for a half-turn. Spans and Lie algebras generated by such matrices equal those generated by
    the logarithms (each generator is only rescaled). ``ValueError`` for the identity or a
    non-rotation."""
    import sympy

    theta, w, L = rotation_log(R)
    if w is None:
        raise ValueError("R is the identity: log R = 0 has no axis")
    R = _exact_rotation_matrix(R)
    if sympy.simplify(theta - sympy.pi) == 0:
        S = R + sympy.eye(3)
        k = max(range(3), key=lambda i: float(S[i, i]))
        v = S[:, k]
        if float(v.dot(w)) < 0:
            v = -v
    else:
        v = sympy.Matrix([R[2, 1] - R[1, 2], R[0, 2] - R[2, 0], R[1, 0] - R[0, 1]])
    v = v.applyfunc(lambda t: sympy.radsimp(sympy.expand(t)))
    return sympy.Matrix([[0, -v[2], v[1]], [v[2], 0, -v[0]], [-v[1], v[0], 0]])


@dataclass
class IcosahedralRepresentation:
    """The faithful rotation representation of A5 (see :func:`icosahedral_representation`).

    ``group``: ``FiniteGroup.named("A5")`` (permutations of 0..4, ``a*b = a∘b``).
    ``generators``: ``(a, b)`` with ``a`` of order 5, ``b`` of order 2, ``ab`` of order 3.
    ``generator_matrices``: their exact rotation matrices ``(X, Y)`` (sympy, entries in Q(√5)).
    ``matrices``: ``{element: sympy.Matrix}`` for all 60 elements (exact).
    ``float_matrices``: float64 array (60, 3, 3) in ``group.elements`` order.
    ``so3_generators`` / ``so3_generators_float``: ``log X``, ``log Y`` (exact sympy / float64),
    skew-symmetric, with ``expm(log X) = X``; their entries involve π and nested square roots.
    ``so3_field_generators``: positive multiples of ``log X``, ``log Y`` with entries in Q(√5)
    (:func:`rotation_axis_generator`), for exact span / Lie-algebra computations (they generate
    the same Lie algebra, so(3)). ``angles`` (2π/5, π) and unit ``axes``.
    ``audit``: the exact :class:`RepresentationAudit` on the full 60x60 table;
    ``all_rotations``: every image satisfies ``MᵀM = I`` and ``det M = 1`` exactly.
    """

    group: FiniteGroup
    generators: tuple
    generator_matrices: tuple
    matrices: dict
    float_matrices: np.ndarray
    so3_generators: tuple
    so3_generators_float: tuple
    so3_field_generators: tuple
    angles: tuple
    axes: tuple
    audit: RepresentationAudit
    all_rotations: bool
    notes: str = field(default="")

    def float_mapping(self) -> dict:
        """``{element: float64 (3, 3) array}``."""
        return {x: self.float_matrices[i] for i, x in enumerate(self.group.elements)}


def _icosahedral_X():
    """Rotation by 2π/5 about the icosahedron vertex (0, 1, φ): ``R = cI + s[u]_x + (1-c)uuᵀ``
    with ``c = cos 2π/5 = (√5-1)/4``, ``s·u = (0, 1, φ)/2`` and ``uuᵀ = vvᵀ/(φ+2)``."""
    import sympy

    r5 = sympy.sqrt(5)
    phi = (1 + r5) / 2
    v = sympy.Matrix([0, 1, phi])
    c = (r5 - 1) / 4
    su = v / 2
    cross = sympy.Matrix([[0, -su[2], su[1]], [su[2], 0, -su[0]], [-su[1], su[0], 0]])
    R = c * sympy.eye(3) + cross + (1 - c) * (v * v.T) / (phi + 2)
    return R.applyfunc(lambda t: sympy.radsimp(sympy.expand(t)))


def _to_sympy(M, K):
    import sympy

    return sympy.Matrix(M.to_Matrix()).applyfunc(sympy.expand)


@lru_cache(maxsize=1)
def icosahedral_representation() -> IcosahedralRepresentation:
    """The faithful 3-dimensional rotation representation of A5, exact over Q(√5).

    Construction: ``X`` = rotation by 2π/5 about the vertex ``(0, 1, φ)`` of the icosahedron with
    vertices the cyclic permutations of ``(0, ±1, ±φ)``; ``Y`` = the first rotation of order 2 (in
    BFS order of the rotation group generated by ``X`` and the half-turn ``diag(-1, -1, 1)``) with
    ``XY`` of order 3. In A5, ``a = (0 1 2 3 4)`` (``a = (1, 2, 3, 4, 0)``) and ``b`` = the first
    involution with ``ab`` of order 3. Since both pairs satisfy ``a^5 = b^2 = (ab)^3 = 1``, which
    presents A5, ``a -> X``, ``b -> Y`` extends to a homomorphism; it is built along the BFS tree
    of words in ``(a, b)`` and then *audited* exactly on the full 60x60 Cayley table (not assumed).
    Exact arithmetic: sympy ``DomainMatrix`` over ``QQ<sqrt(5)>``. Cached.
    """
    import sympy
    from sympy.polys.constructor import construct_domain
    from sympy.polys.matrices import DomainMatrix

    G = FiniteGroup.named("A5")
    a = (1, 2, 3, 4, 0)
    b = next(x for x in G.elements
             if G.element_order(x) == 2 and G.element_order(G.multiply(a, x)) == 3)

    X = _icosahedral_X()
    Z = sympy.diag(-1, -1, 1)
    entries = list(X) + list(Z)
    K, elts = construct_domain(entries, extension=True)
    DX = DomainMatrix([elts[0:3], elts[3:6], elts[6:9]], (3, 3), K)
    DZ = DomainMatrix([elts[9:12], elts[12:15], elts[15:18]], (3, 3), K)
    key = lambda M: tuple(tuple(r) for r in M.to_list())  # noqa: E731
    I3 = DomainMatrix.eye(3, K).to_dense()

    # the rotation group generated by X and Z (BFS closure, exact)
    rot = [I3]
    seen = {key(I3)}
    i = 0
    while i < len(rot):
        for g in (DX, DZ):
            M = rot[i] * g
            if key(M) not in seen:
                seen.add(key(M))
                rot.append(M)
        i += 1
        if len(rot) > 60:
            raise AssertionError("icosahedral closure exceeded 60 elements")

    def order(M):
        k, P = 1, M
        while P != I3:
            P, k = P * M, k + 1
        return k

    DY = next(M for M in rot if order(M) == 2 and order(DX * M) == 3)

    images: list = [None] * G.order
    gens_m = (DX, DY)
    for idx, parent, k in G.bfs_tree([a, b]):
        images[idx] = I3 if parent < 0 else images[parent] * gens_m[k]

    exact_maps = {x: _to_sympy(images[i], K) for i, x in enumerate(G.elements)}
    audit = audit_representation(G, exact_maps)
    all_rot = all(M.transpose() * M == I3 and M.det() == K.one for M in images)
    floats = np.array([[[float(sympy.N(v, 30)) for v in row] for row in M.tolist()]
                       for M in (exact_maps[x] for x in G.elements)], dtype=np.float64)
    Xs, Ys = _to_sympy(DX, K), _to_sympy(DY, K)
    logs = [rotation_log(M) for M in (Xs, Ys)]
    so3 = tuple(L for _, _, L in logs)
    so3_f = tuple(np.array(L.evalf(30).tolist(), dtype=np.float64) for L in so3)
    return IcosahedralRepresentation(
        group=G, generators=(a, b), generator_matrices=(Xs, Ys), matrices=exact_maps,
        float_matrices=floats, so3_generators=so3, so3_generators_float=so3_f,
        so3_field_generators=tuple(rotation_axis_generator(M) for M in (Xs, Ys)),
        angles=tuple(t for t, _, _ in logs), axes=tuple(w for _, w, _ in logs), audit=audit,
        all_rotations=bool(all_rot),
        notes=(f"|closure(X, diag(-1,-1,1))| = {len(rot)}; log Y (a half-turn) is defined up to "
               "sign; the positive-first-coordinate axis is used"))


# ------------------------------------------------------------------------------------------------
# the A5 rotation map of the released code of [DEPTH]
# ------------------------------------------------------------------------------------------------
#: Generators of A5 used by the released code of [DEPTH] (Heo et al., arXiv:2603.05573) for its
#: A5 rotation data, as 0-based image lists: ``a`` (a 3-cycle) and ``b`` (a 5-cycle).
PAPER_ROTATION_GENERATORS = ((1, 2, 0, 3, 4), (1, 2, 3, 4, 0))


def paper_rotation_matrices() -> tuple:
    """The matrices the released code of [DEPTH] assigns to ``a`` and ``b`` (exact sympy, entries
    in Q(√5)): ``A = [[0,0,1],[1,0,0],[0,1,0]]`` (cyclic permutation matrix, order 3) and the
    golden-ratio rotation ``B = [[(√5-1)/4, -(√5+1)/4, 1/2], [(√5+1)/4, 1/2, (√5-1)/4],
    [-1/2, (√5-1)/4, (√5+1)/4]]``."""
    import sympy

    r5, half = sympy.sqrt(5), sympy.Rational(1, 2)
    A = sympy.Matrix([[0, 0, 1], [1, 0, 0], [0, 1, 0]])
    B = sympy.Matrix([[(r5 - 1) / 4, -(r5 + 1) / 4, half],
                      [(r5 + 1) / 4, half, (r5 - 1) / 4],
                      [-half, (r5 - 1) / 4, (r5 + 1) / 4]])
    return A, B


@dataclass
class PaperRotationMap:
    """The BFS map of :func:`paper_rotation_map`. ``composition``: how ``x·g`` multiplies
    permutations (``"x∘g"``: apply g first; ``"g∘x"``: apply x first). ``group``: the group whose
    product is ``x·g`` (A5 itself, or its opposite group on indices 0..59 in ``A5.elements``
    order), so that :func:`audit_representation` tests ``M(x·y) = M(x) M(y)`` in the released
    code's own product. ``images``: one exact matrix per element of ``group``, in index order."""

    composition: str
    group: FiniteGroup
    images: list
    bfs_order: list


def paper_rotation_map(composition: str = "x∘g", matrices: tuple | None = None
                       ) -> PaperRotationMap:
    """The released code's A5 rotation map, rebuilt exactly: breadth-first search over A5 from
    the identity (matrix I) with generators ``(a, b)`` = :data:`PAPER_ROTATION_GENERATORS` in that
    order; an element ``x`` reached first is expanded to ``x·g`` with matrix ``M(x) M(g)``,
    ``M(a) = A``, ``M(b) = B`` (:func:`paper_rotation_matrices`; ``matrices``: other exact 3x3
    images ``(A, B)`` of ``a`` and ``b``, the same BFS). Whether the result is a homomorphism is
    *not* assumed (audit it with :func:`audit_representation` on ``.group``). ``ValueError`` for
    an unknown ``composition`` or ``matrices`` not a pair."""
    import sympy

    if composition not in ("x∘g", "g∘x"):
        raise ValueError(f"composition must be 'x∘g' or 'g∘x', got {composition!r}")
    if matrices is not None and len(matrices) != 2:
        raise ValueError(f"matrices must be the pair (A, B) of images of a and b, got a "
                         f"sequence of length {len(matrices)}")
    G = FiniteGroup.named("A5")
    gens = tuple(zip(PAPER_ROTATION_GENERATORS, matrices or paper_rotation_matrices()))

    def step(x, g):
        return G.multiply(x, g) if composition == "x∘g" else G.multiply(g, x)

    images = {G.identity: sympy.eye(3)}
    queue, order = [G.identity], [G.identity]
    while queue:
        x = queue.pop(0)
        for g, M in gens:
            y = step(x, g)
            if y not in images:
                images[y] = _canonical(images[x] * M)
                queue.append(y)
                order.append(y)
    if composition == "x∘g":
        group = G
    else:
        T = np.array(G.cayley_table(), dtype=np.int64)
        group = FiniteGroup.from_cayley_table(T.T, name="A5 (opposite product)")
    return PaperRotationMap(composition, group, [images[x] for x in G.elements],
                            [G.index(x) for x in order])


def _canonical(M):
    """``M`` with every entry expanded and radicals simplified (a canonical form over Q(√5))."""
    import sympy

    return M.applyfunc(lambda t: sympy.radsimp(sympy.expand(t)))


def matrix_order(M, limit: int = 60) -> int | None:
    """Order of an exact square sympy matrix ``M`` (entries in Q(√5)): the least ``k ≥ 1`` with
    ``M^k = I``, ``None`` above ``limit``."""
    import sympy

    P, k = M, 1
    while _canonical(P - sympy.eye(M.rows)) != sympy.zeros(M.rows, M.cols):
        P, k = _canonical(P * M), k + 1
        if k > limit:
            return None
    return k


def matrix_group_order(mats: tuple, limit: int = 120) -> int | None:
    """Order of the group generated by exact square sympy matrices ``mats`` (invertible, entries
    in Q(√5)), by breadth-first closure under right multiplication; ``None`` above ``limit``."""
    import sympy

    start = sympy.eye(mats[0].rows)
    seen, queue = {tuple(start)}, [start]
    while queue:
        X = queue.pop(0)
        for M in mats:
            Y = _canonical(X * M)
            if tuple(Y) not in seen:
                seen.add(tuple(Y))
                queue.append(Y)
                if len(seen) > limit:
                    return None
    return len(seen)

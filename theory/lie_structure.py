"""Structure constants of a Lie algebra on ``K^N`` (``K = Q``, or the real number field the
entries generate, e.g. ``Q(sqrt 2)``): parsing (dense ``N x N x N`` or sparse
``{(i, j): {k: c}}``), the table of non-zero entries (over Q: integers with a common
denominator; over a number field: sympy domain elements), and the exact checks of antisymmetry
and the Jacobi identity (:meth:`~seqtheory.theory.lie.LieAlgebra.from_structure_constants`).

Errors: ``ValueError`` for a wrong shape, an index out of range, a missing ``dim`` for sparse
input, a violation of antisymmetry or of the Jacobi identity (naming the pair / triple);
``TypeError`` for floats, booleans, strings, non-real or transcendental entries. Source:
Humphreys, §1; GAP ``LieAlgebraByStructureConstants`` (which checks neither identity).
"""
from __future__ import annotations

import math
from fractions import Fraction
from numbers import Integral, Rational

import numpy as np

from .contract import check_exact_sympy, check_int
from .int_rows import as_int_rows

__all__ = ["parse_structure", "integer_table", "field_table", "is_rational_table",
           "check_antisymmetry", "check_jacobi"]


def _to_fraction(x, where: str):
    """``x`` as a ``Fraction`` when rational, else as a sympy number (a real algebraic number;
    the field is decided once all entries are read). Entries are read by
    :func:`~seqtheory.theory.contract.check_exact_sympy`: ints, Fractions, Decimals and exact
    sympy numbers; a float, a bool, a string (never parsed) or a complex number is a
    ``TypeError`` naming ``where``."""
    if isinstance(x, (bool, np.bool_)):
        raise TypeError(f"{where}: booleans are not numbers")
    if isinstance(x, (Integral, np.integer)):
        return Fraction(int(x))
    if isinstance(x, Rational):
        return Fraction(x.numerator, x.denominator)
    if isinstance(x, (float, np.floating, complex)):
        raise TypeError(f"{where}: {x!r} is a float; structure constants must be exact "
                        f"(rationals, or sympy algebraic numbers such as sympy.sqrt(2))")
    s = check_exact_sympy(where, x)
    if s.is_Rational:
        return Fraction(int(s.p), int(s.q))
    if s.is_real is not True or not s.is_algebraic:        # (check_exact_sympy: no floats)
        raise TypeError(f"{where}: {x!r} is neither rational nor a real algebraic number")
    return s


#: the largest dimension of a Lie algebra given by structure constants (its basis is held as a
#: dense N x N integer array: 4096² int64 entries are 134 MB)
MAX_STRUCTURE_DIM = 4096


def parse_structure(c, dim):
    """-> (N, dict {(i,j,k): Fraction}) of non-zero entries; ``TypeError`` / ``ValueError``
    naming ``c`` or ``dim`` for a bad argument (``dim`` at most :data:`MAX_STRUCTURE_DIM`)."""
    entries: dict[tuple[int, int, int], Fraction] = {}
    if isinstance(c, dict):
        if dim is None:
            raise ValueError("c is sparse (dict); pass dim = N (a non-negative int)")
        N = check_int("dim", dim, 0, MAX_STRUCTURE_DIM)
        given = {}
        for key, row in c.items():
            if not (isinstance(key, tuple) and len(key) == 2):
                raise ValueError(f"c: key {key!r} must be a pair (i, j)")
            i, j = key
            for t in (i, j):
                if isinstance(t, bool) or not isinstance(t, (int, np.integer)) or not 0 <= t < N:
                    raise ValueError(f"c: index {t!r} in key {key!r} out of range 0..{N - 1} "
                                     f"(dim = {N})")
            if not isinstance(row, dict):
                raise ValueError(f"c[{key!r}] must be a dict {{k: coeff}}")
            vec = {}
            for k, x in row.items():
                if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or not 0 <= k < N:
                    raise ValueError(f"c[{key!r}]: index {k!r} out of range 0..{N - 1} (dim = {N})")
                f = _to_fraction(x, f"c[{key!r}][{k}]")
                if f:
                    vec[int(k)] = f
            given[(int(i), int(j))] = vec
        for (i, j), vec in given.items():
            if i == j and vec:
                raise ValueError(f"c: [e_{i}, e_{i}] must be 0, got {vec}")
            for k, f in vec.items():
                entries[(i, j, k)] = f
            if (j, i) not in given:
                for k, f in vec.items():
                    entries[(j, i, k)] = -f
        return N, entries
    if isinstance(c, (str, bytes)) or not hasattr(c, "__len__"):
        raise TypeError(f"c must be a dict {{(i, j): {{k: coeff}}}} or an N x N x N nested "
                        f"sequence, got {type(c).__name__}")
    if dim is not None:
        raise ValueError("dim is only used with sparse (dict) structure constants c")
    arr = np.asarray(c, dtype=object) if not isinstance(c, np.ndarray) else c
    if arr.ndim != 3 or not (arr.shape[0] == arr.shape[1] == arr.shape[2]):
        raise ValueError(f"c must be an N x N x N nested sequence, got shape {arr.shape}")
    N = check_int("c's size N", arr.shape[0], 0, MAX_STRUCTURE_DIM)
    if arr.dtype.kind in "fc":
        raise TypeError("c: float array; structure constants must be exact rationals")
    if arr.dtype.kind in "bUS":
        raise TypeError(f"c: {arr.dtype} array; structure constants must be exact rationals")
    for i, j, k in np.argwhere(arr != 0):
        f = _to_fraction(arr[i, j, k], f"c[{i}][{j}][{k}]")
        if f:
            entries[(int(i), int(j), int(k))] = f
    return N, entries


def is_rational_table(entries) -> bool:
    """Whether every parsed entry is rational (the Q path)."""
    return all(isinstance(f, Fraction) for f in entries.values())


def field_table(entries, field=None):
    """The table of a number-field algebra: ``(I, J, K, C, field)`` with ``C`` an object array of
    elements of ``field`` (a sympy number field domain; default: the real number field the
    entries generate, sympy ``construct_domain`` with ``extension=True``). ``TypeError`` for an
    entry outside a given ``field``."""
    import sympy

    keys = sorted(entries)
    vals = [sympy.Rational(f.numerator, f.denominator) if isinstance(f, Fraction) else f
            for f in (entries[k] for k in keys)]
    if field is not None:
        K = field
        try:
            elems = [K.from_sympy(sympy.sympify(v)) for v in vals]
        except (sympy.CoercionFailed, ValueError) as exc:
            raise TypeError(f"c: an entry does not lie in the field {K} ({exc})") from None
    else:
        K, elems = sympy.construct_domain(vals, extension=True) if vals \
            else (sympy.QQ, [])
        if not K.is_Field:
            K = K.get_field()
            elems = [K.convert(e) for e in elems]
    C = np.empty(len(keys), dtype=object)
    C[:] = elems
    I = np.array([k[0] for k in keys], np.int64)
    J = np.array([k[1] for k in keys], np.int64)
    Kk = np.array([k[2] for k in keys], np.int64)
    return I, J, Kk, C, K


def integer_table(entries):
    if not entries:
        z = np.zeros(0, np.int64)
        return z, z, z, z, 1
    D = 1
    for f in entries.values():
        D = D * f.denominator // math.gcd(D, f.denominator)
    keys = sorted(entries)
    I = np.array([k[0] for k in keys], np.int64)
    J = np.array([k[1] for k in keys], np.int64)
    K = np.array([k[2] for k in keys], np.int64)
    C = as_int_rows(np.array([[int(entries[k] * D) for k in keys]], dtype=object))[0]
    return I, J, K, C, D


def _exact(c):
    """A table entry as an exact Python value (an int over Q, the domain element otherwise)."""
    return int(c) if isinstance(c, (Integral, np.integer)) else c


def check_antisymmetry(N, I, J, K, C):
    d = {(int(i), int(j), int(k)): _exact(c) for i, j, k, c in zip(I, J, K, C)}
    for (i, j, k), v in d.items():
        if i == j:
            raise ValueError(f"c violates antisymmetry: [e_{i}, e_{i}] has coefficient {v} on e_{k}")
        other = d.get((j, i, k))
        if (other + v) if other is not None else v:   # c_jik != -c_ijk
            raise ValueError(f"c violates antisymmetry: c[{i}][{j}][{k}] != -c[{j}][{i}][{k}]")


def check_jacobi(N, I, J, K, C):
    """Exact Jacobi check: sum over cyclic rotations of (i,j,k) of c_ijl c_lkm must vanish."""
    if len(C) == 0:
        return
    # T[(i,j),(k,m)] = sum_l c_ijl c_lkm: join entries (i,j,l) with (l,k,m)
    by_first: dict[int, list[tuple[int, int, int]]] = {}
    for l, k, m, c in zip(I.tolist(), J.tolist(), K.tolist(), [_exact(x) for x in C]):
        by_first.setdefault(l, []).append((k, m, c))
    acc: dict[tuple[int, int, int, int], object] = {}
    for i, j, l, c in zip(I.tolist(), J.tolist(), K.tolist(), [_exact(x) for x in C]):
        for k, m, c2 in by_first.get(l, ()):
            a, b, e = i, j, k
            rot = min((a, b, e), (b, e, a), (e, a, b))
            key = rot + (m,)
            acc[key] = acc[key] + c * c2 if key in acc else c * c2
    for (i, j, k, m), v in sorted(acc.items()):
        if v:
            raise ValueError(f"c violates the Jacobi identity for the triple (e_{i}, e_{j}, e_{k}): "
                             f"the coefficient of e_{m} in the cyclic sum is non-zero")

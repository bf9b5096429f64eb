"""Lie closure and the insertion of bracket rows, on every field
(:class:`~seqtheory.theory.lie.LieAlgebra`): :func:`close` (frontier insertion; over Q
:func:`~seqtheory.theory.lie_exact.close_qq`), :func:`extend_field_rows` (rows of brackets into
a subspace; on the float path with their rounding bound, :func:`bracket_noise`, and the
zero-bracket rule :func:`nonzero_brackets`), :func:`check_closed` (a float span closed under the
bracket).

Errors: :class:`~seqtheory.theory.float_rank.NumericalRankError` when a float decision is not
certified; ``ValueError`` for a span that is not closed. Source: Humphreys, §1.
"""
from __future__ import annotations

import math

import numpy as np

from .field_input import concat_rows, row_count
from .float_rank import (EPS, MIN_GAP, NumericalRankError, decision_count, decision_level,
                         is_recording, record_decision, row_norms, settle_decisions,
                         working_dtype)
from .float_subspace import FloatSubspace
from .int_rows import as_int_rows
from .lie_exact import close_qq
from .linalg import subspace_rows
from .subspace import Subspace

__all__ = ["close", "extend_field_rows", "bracket_noise", "nonzero_brackets", "check_closed",
           "bracket_space_bound"]


def bracket_noise(amb, U: Subspace, V: Subspace) -> float:
    """Float path: absolute rounding bound of ``[u, v]`` for unit rows ``u`` of ``U`` and ``v``
    of ``V`` (first order): ``||[du, v] + [u, dv]|| <= 2 (noise_U + noise_V)`` for the error in
    the rows, plus ``(2n + 2) EPS`` for forming ``uv - vu`` (|fl(uv) - uv| <= n EPS |u||v|).
    Exact fields: 0."""
    if U.field != "RR":
        return 0.0
    return math.hypot(U.noise, V.noise) * 2.0 + (2 * getattr(amb, "n", 1) + 2) * EPS


def bracket_space_bound(amb, dim_a: int, dim_b: int, same: bool) -> int:
    """The largest dimension of a bracket space ``[a, b]`` in the ambient ``amb`` (``same``:
    ``b`` is ``a``): every bracket of matrices is traceless (``tr(xy - yx) = 0``), so ``[a, b]``
    lies in ``sl(n)``, of dimension ``n*n - 1``; ``[a, a]`` lies in the Lie algebra ``a``
    (closed under the bracket). A bracket space of that dimension is all of the space that
    contains it: the float path settles its decisions
    (:func:`~seqtheory.theory.float_rank.settle_decisions`).
    Source: Humphreys, §1.2 (sl(n) = [gl(n), gl(n)]), §1.1 (subalgebras)."""
    bound = amb.N - 1 if getattr(amb, "kind", None) == "matrix" else amb.N
    return min(bound, dim_a) if same else bound


def extend_field_rows(S: Subspace, chunk, e: float | None, argument: str):
    """Insert the rows ``chunk`` into ``S``; returns ``(new_subspace, added_rows)``.

    Float path: ``e`` is the absolute rounding bound of every row (brackets of unit rows); a row
    of norm ``<= e`` cannot be told from 0 and is dropped, the others carry the relative noise
    ``e / norm`` into the rank decision (``e = None``: rows are float input, with input
    rounding). Exact fields insert everything (zero rows are dropped exactly)."""
    field = S.field
    if field == "RR":
        chunk = np.asarray(chunk, dtype=working_dtype()).reshape(-1, S.ambient_dim)
        if e is None:
            return S.extend_rows(chunk, argument=argument)
        norms = row_norms(chunk)
        keep = nonzero_brackets(norms, e, S.tol, argument)
        return S.extend_rows(chunk[keep], noise=e / norms[keep], argument=argument)
    if field == "QQ":
        return S.extend_rows(chunk)
    return S.extend_rows([list(r) for r in chunk if any(x != field.zero for x in r)])


def nonzero_brackets(norms: np.ndarray, e: float, tol: float, argument: str) -> np.ndarray:
    """Float path: which brackets of unit vectors are non-zero (norm ``> tol``; while recording,
    above the level of :func:`~seqtheory.theory.float_rank.decision_level`). A bracket is
    zero only when its norm is explained by rounding (``<= e``) and :data:`MIN_GAP` times below
    ``tol`` -- the rule for dropped values of :func:`~seqtheory.theory.float_rank.rank_decision`; a norm in between is a
    genuine value that the tolerance would cut: :class:`NumericalRankError`. (A non-zero
    bracket within ``MIN_GAP`` times ``e`` is accepted only if it already lies in the subspace,
    see ``FloatSubspace.extend_rows``.)"""
    if is_recording():
        level = decision_level(tol)
        nonzero = norms > level
        record_decision(argument, norms, nonzero, level)
        return nonzero
    nonzero = norms > tol
    unsure = ~nonzero & (norms > min(e, tol / MIN_GAP))
    if np.any(unsure):
        i = int(np.argmax(unsure))
        raise NumericalRankError(argument, 0.0, tol, e, np.array([norms[i]]), message=(
            f"a bracket of unit basis vectors has norm {norms[i]:.3g}: not above the tolerance "
            f"{tol:g}, but not certified zero either (it must lie within the propagated rounding "
            f"bound {e:.3g} and {MIN_GAP:g} times below the tolerance); it may be a genuine "
            f"value, so whether it vanishes is not determined at working precision. Pass exact "
            f"entries (ints, Fractions, sympy numbers) for the exact path"))
    return nonzero


def check_closed(amb, S: FloatSubspace) -> FloatSubspace:
    """Float path of :meth:`LieAlgebra.spanned_by`: ``S`` unchanged when every bracket of its
    basis lies in it, else ``ValueError``."""
    B = subspace_rows(S)
    e = bracket_noise(amb, S, S)
    for chunk in amb.batches("RR", B, B, True):
        if extend_field_rows(S, chunk, e, "mats (closure check)")[0].dim != S.dim:
            raise ValueError("mats: the span is not closed under the bracket [A,B] = AB - BA")
    return S


def close(amb, S: Subspace, frontier, argument: str, inserted: list | None = None) -> Subspace:
    """Lie closure by frontier insertion: every pair of inserted vectors is bracketed once.

    Over Q the bracketed vectors are the inserted vectors themselves (brackets of generators,
    small integers), not the RREF rows (whose entries can be large); the RREF is formed once at
    the end. While the float path records its decisions (twin runs) the same holds: the
    inserted vectors are the kept candidates (unit generators and brackets,
    ``FloatSubspace.extend_rows``), not the orthonormal basis, whose direction found with a
    small residual ``sigma`` carries the input's rounding amplified by ``1 / sigma`` into
    every bracket with it (conjugated sl(2) at condition number 1e3: dropped rounding 1.5e-11
    from the orthonormal basis, about 1e-16 from the inserted vectors)."""
    field = S.field
    if field == "QQ":
        return close_qq(amb, as_int_rows(frontier))
    frontier = np.asarray(frontier) if not isinstance(frontier, np.ndarray) else frontier
    W = frontier if field == "RR" and is_recording() else None
    start = decision_count()
    while row_count(frontier):
        allb = subspace_rows(S) if W is None else W
        e = bracket_noise(amb, S, S)
        new = []
        for chunk in amb.batches(field, allb, frontier, False):
            S, add = extend_field_rows(S, chunk, e, f"{argument} (Lie closure)")
            if row_count(add):
                new.append(add)
            if S.dim == amb.N:
                break
        frontier = concat_rows(new, field, amb.N)
        if W is not None:
            W = np.concatenate([W, frontier])
            if inserted is not None:
                inserted.append(frontier)
    if S.dim == amb.N:
        # the closure is the whole ambient: no genuine direction can be missing from it
        settle_decisions(start)
    return S

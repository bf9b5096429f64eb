"""Subspaces of ``R^N`` on the float path: :class:`FloatSubspace` keeps an orthonormal basis; every
candidate vector is normalised to unit Euclidean norm before a rank decision
(:mod:`seqtheory.theory.float_rank`). The smallest kept and largest dropped relative singular
values are recorded (``min_kept``, ``max_dropped``), and so is the smallest gap
(``smallest_gap``), so a report can show the margin of every decision.

Float path scaling: rows are divided by their largest absolute entry before any norm is taken,
so entries anywhere in the float64 range (1e-300 .. 1e300) give the same decisions; membership
(``contains``), coordinates and intersections use the same singular-value rule as ``extend``.

Errors: ``ValueError`` for a bad ``tol``, vectors of the wrong length, incompatible subspaces;
:class:`~seqtheory.theory.float_rank.NumericalRankError` when a decision has no wide gap.
Source: Golub & Van Loan, *Matrix Computations*, §5.2 (Gram-Schmidt), §5.4 (SVD).
"""
from __future__ import annotations

import math
from typing import Any, Sequence

import numpy as np

from .float_rank import (ARITHMETIC_FLOOR, EPS, MIN_GAP, NumericalRankError, RankDecision,
                         check_tol, decide, decision_level, input_noise, is_recording,
                         normalise_rows, rank_decision, record_decision, row_norms, svd_noise,
                         working_dtype)
from .subspace import Subspace

__all__ = ["FloatSubspace"]


def _float_rows(cand: Any, N: int) -> np.ndarray:
    """``cand`` as a float ``(k, N)`` array (also for ``N = 0``, where ``reshape(-1, 0)`` is
    ambiguous)."""
    a = np.asarray(cand, dtype=working_dtype())
    if N == 0:
        return np.zeros((a.shape[0] if a.ndim == 2 else 0, 0))
    return a.reshape(-1, N)


class FloatSubspace(Subspace):
    """A subspace of ``R^N`` with an orthonormal basis ``rows`` (float64, ``(dim, N)``).

    Rank decisions: candidates are normalised to unit norm, stacked with ``rows``, and decided by
    :func:`rank_decision` (relative tolerance ``tol``; a gap of at least :data:`MIN_GAP` between
    kept singular values and both the dropped ones and the rounding bound, else
    :class:`NumericalRankError`). Candidates may carry a rounding bound per row (``noise``,
    relative to the row's norm; default: the rounding of float input); candidates are inserted in
    order of increasing noise, so one noisy row does not blur the decisions on clean ones.

    Recorded: ``noise`` -- a first-order bound on the sine of the angle between the computed
    subspace and the one an exact computation on the same input would give (Wedin's sin-theta
    bound over all insertions); ``smallest_gap`` -- the smallest gap of every decision so far;
    ``min_kept`` / ``max_dropped`` -- the smallest kept and largest dropped relative singular
    values over all decisions so far.
    """

    field = "RR"

    def __init__(self, ambient_dim: int, tol: float = 1e-9, rows: np.ndarray | None = None,
                 min_kept: float = math.inf, max_dropped: float = 0.0, noise: float = 0.0,
                 smallest_gap: float = math.inf):
        tol = check_tol(tol)
        self.ambient_dim = int(ambient_dim)
        self.tol = float(tol)
        self.rows = rows if rows is not None else np.zeros((0, self.ambient_dim))
        self.min_kept, self.max_dropped = min_kept, max_dropped
        self.noise, self.smallest_gap = float(noise), float(smallest_gap)

    @property
    def dim(self) -> int:
        return self.rows.shape[0]

    @property
    def basis(self) -> list[np.ndarray]:
        return list(self.rows)

    def _check_compatible(self, other):
        super()._check_compatible(other)
        if other.tol != self.tol:
            raise ValueError(f"subspaces have different tolerances ({self.tol}, {other.tol})")

    def _with(self, rows=None, decision: RankDecision | None = None, noise: float | None = None):
        mk, md, gap = self.min_kept, self.max_dropped, self.smallest_gap
        if decision is not None:
            if decision.rank:
                mk = min(mk, decision.min_kept)
            md = max(md, decision.max_dropped)
            gap = min(gap, decision.gap)
        return FloatSubspace(self.ambient_dim, self.tol, self.rows if rows is None else rows,
                             mk, md, self.noise if noise is None else noise, gap)

    def _candidates(self, cand, noise):
        cand = _float_rows(cand, self.ambient_dim)
        nu = np.broadcast_to(np.asarray(input_noise(self.ambient_dim) if noise is None else noise,
                                        dtype=float), (cand.shape[0],))
        if cand.shape[0] == 0:
            return cand, nu
        keep = row_norms(cand) > 0
        return normalise_rows(cand[keep]), np.asarray(nu[keep], dtype=float)

    def extend_rows(self, cand: np.ndarray, noise: Any = None,
                    argument: str = "vectors") -> tuple["FloatSubspace", np.ndarray]:
        """Insert the rows ``cand`` (any scale; zero rows are ignored). ``noise``: rounding bound
        per row relative to its norm (scalar or one per row; default: float input rounding).
        Returns ``(new_subspace, new_rows)``: the orthonormal rows added, or, while
        :func:`recording_decisions` is active, the kept rows of ``cand`` scaled to unit norm
        (they span the same directions modulo ``self``, and their brackets do not carry the
        rounding that orthogonalisation amplifies in a direction with a small residual). Raises
        :class:`NumericalRankError` naming ``argument`` when a decision has no wide gap."""
        cand, nu = self._candidates(cand, noise)
        if cand.shape[0] == 0 or self.dim == self.ambient_dim:
            return self, np.zeros((0, self.ambient_dim))
        if is_recording():   # one recorded decision, continuous in the input (twin runs)
            return self._insert_in_order(cand, nu, argument)
        blurred = nu > 1.0 / MIN_GAP
        order = np.argsort(nu, kind="stable")
        order = order[~blurred[order]]
        band = np.floor(np.log10(np.maximum(nu[order], 1e-300)))
        cur, added = self, []
        for b in np.unique(band):
            idx = order[band == b]
            cur, new = cur._insert(cand[idx], nu[idx], argument)
            if new.shape[0]:
                added.append(new)
            if cur.dim == self.ambient_dim:
                break
        if np.any(blurred) and cur.dim < self.ambient_dim:
            cur = cur._absorb(cand[blurred], nu[blurred], argument)
        return cur, (np.concatenate(added) if added else np.zeros((0, self.ambient_dim)))

    def _absorb(self, cand: np.ndarray, nu: np.ndarray, argument: str) -> "FloatSubspace":
        """Rows whose own rounding bound exceeds ``1 / MIN_GAP`` can never open a new direction
        with a wide gap; each must lie in the subspace (relative residual within its rounding
        bound and ``<= tol / MIN_GAP``, the rule for dropped values in :func:`rank_decision`),
        else :class:`NumericalRankError`."""
        resid = cand - (cand @ self.rows.T) @ self.rows if self.dim else cand
        r = row_norms(resid)
        slack = nu + math.sqrt(2.0) * self.noise + svd_noise(*cand.shape)
        bad = r > np.minimum(self.tol / MIN_GAP, slack)
        if np.any(bad):
            i = int(np.argmax(np.where(bad, r + slack, -1.0)))
            raise NumericalRankError(argument, 0.0, self.tol, float(slack[i]),
                                     np.array([r[i]]), message=(
                                         f"a vector known only to relative accuracy {nu[i]:.3g} "
                                         f"(its norm is within {MIN_GAP:g} times its rounding "
                                         f"bound) has a component {r[i]:.3g} outside the span; "
                                         f"whether it lies in the span is not determined at "
                                         f"working precision (relative tol {self.tol:g}). Pass "
                                         f"exact entries (ints, Fractions, sympy numbers) for the "
                                         f"exact path"))
        md = max(self.max_dropped, float(r.max(initial=0.0)))
        return FloatSubspace(self.ambient_dim, self.tol, self.rows, self.min_kept, md, self.noise,
                             self.smallest_gap)

    def _insert_in_order(self, cand: np.ndarray, nu: np.ndarray, argument: str):
        """Recorded insertion (:func:`recording_decisions`) of the unit rows ``cand``, in order:
        each row's residual after projection onto the span so far (modified Gram-Schmidt, twice)
        is its recorded value, kept as a new direction when it exceeds ``tol``. The basis is a
        continuous function of the input while the decisions stay the same (an SVD basis is
        not: it turns freely inside a cluster of equal singular values), so twin runs on a
        perturbed input can be compared value by value. The ``noise`` attribute is propagated
        as by :meth:`_insert` (``nu``: the rows' rounding bounds), for the operations that
        still decide by the propagated bound."""
        R = cand - (cand @ self.rows.T) @ self.rows if self.dim else cand.copy()
        R = R - (R @ self.rows.T) @ self.rows if self.dim else R
        vals = np.linalg.norm(R, axis=1).astype(float)
        level = decision_level(self.tol)
        kept = np.zeros(R.shape[0], dtype=bool)
        # a row at or below the level now stays there (projection only shrinks it): its value is this
        # residual (an upper bound of its residual at its turn); only the others are processed
        act = np.flatnonzero(vals > level)
        room = self.ambient_dim - self.dim
        Q = np.zeros((0, self.ambient_dim), dtype=R.dtype)     # the new directions
        full_at = None
        for b0 in range(0, act.size, 64):   # blocks: project on the new directions at once
            if Q.shape[0] == room:
                full_at = int(act[b0])
                break
            blk = R[act[b0:b0 + 64]]
            for _ in range(2):
                blk = blk - (blk @ Q.T) @ Q if Q.shape[0] else blk
            for t in range(blk.shape[0]):
                if Q.shape[0] == room:
                    full_at = int(act[b0 + t])
                    break
                nrm = np.linalg.norm(blk[t])
                vals[act[b0 + t]] = nrm
                if nrm <= level:
                    continue
                q = blk[t] / nrm
                for _ in range(2):
                    q = q - (self.rows @ q) @ self.rows if self.dim else q
                    q = q - (Q @ q) @ Q if Q.shape[0] else q
                q = q / np.linalg.norm(q)
                kept[act[b0 + t]] = True
                Q = np.concatenate([Q, q[None, :]])
                blk[t + 1:] -= np.outer(blk[t + 1:] @ q, q)
            if full_at is not None:
                break
        if Q.shape[0] == room and room:
            # rows after the span became the whole ambient lie in it by dimension: value 0
            # (their residuals are rounding only and cannot hide a genuine value)
            last = int(np.flatnonzero(kept)[-1]) + 1
            vals[last:] = 0.0
        new = list(Q)
        # rows computed in float64 (e.g. from a float64 SVD) carry its rounding: up to MIN_GAP
        # units of float64 roundoff, as their own bound ``nu`` says, is rounding
        floor = max(ARITHMETIC_FLOOR, min(float(nu.max(initial=0.0)), MIN_GAP * EPS))
        record_decision(argument, vals, kept, level, floor)
        newr = np.array(new) if new else np.zeros((0, self.ambient_dim))
        mk = float(vals[kept].min()) if new else math.inf
        md = float(vals[~kept].max(initial=0.0))
        gap = mk / md if new and md > 0 else math.inf
        noise = self.noise
        if new:
            eta = math.sqrt(self.noise ** 2 + float(np.sum(nu ** 2))) \
                + svd_noise(self.dim + cand.shape[0], self.ambient_dim)
            noise = max(noise, eta / mk if mk > 2 * eta else 1.0, input_noise(self.ambient_dim))
        out = FloatSubspace(self.ambient_dim, self.tol, np.concatenate([self.rows, newr]),
                            min(self.min_kept, mk), max(self.max_dropped, md), noise,
                            min(self.smallest_gap, gap))
        return out, cand[kept]

    def _insert(self, cand: np.ndarray, nu: np.ndarray, argument: str):
        """One rank decision on ``[rows; cand]`` (unit rows with noise ``nu``)."""
        stack = np.concatenate([self.rows, cand])
        s = np.linalg.svd(stack, compute_uv=False)
        eta = math.sqrt(self.noise ** 2 + float(np.sum(nu ** 2))) \
            + svd_noise(*stack.shape) * float(s[0])
        d = rank_decision(s, self.tol, eta, argument)
        k = d.rank - self.dim
        if k <= 0:
            return self._with(decision=d), np.zeros((0, self.ambient_dim))
        resid = cand - (cand @ self.rows.T) @ self.rows if self.dim else cand
        _, _, vt = np.linalg.svd(resid, full_matrices=False)
        newr = vt[:k]
        newr = newr - (newr @ self.rows.T) @ self.rows if self.dim else newr
        q, _ = np.linalg.qr(newr.T)
        newr = q.T[:k]
        sigma = float(s[d.rank - 1])
        theta = eta / sigma if sigma > 2 * eta else 1.0          # Wedin: sin(angle) <= ||E|| / gap
        noise = max(self.noise, theta, input_noise(self.ambient_dim))
        return self._with(np.concatenate([self.rows, newr]), d, noise), newr

    def contains_rows(self, cand: np.ndarray, noise: Any = None) -> bool:
        """Whether every row of ``cand`` lies in the subspace: by the same rank decision as
        :meth:`extend_rows` (so ``contains(v)`` is True exactly when ``extend([v])`` keeps the
        dimension; :class:`NumericalRankError` when that decision has no wide gap)."""
        cand = _float_rows(cand, self.ambient_dim)
        if cand.shape[0] == 0:
            return True
        return self.extend_rows(cand, noise)[0].dim == self.dim

    def is_subspace_of(self, other: "Subspace") -> bool:
        self._check_compatible(other)
        return other.contains_rows(self.rows, noise=self.noise)

    def sum(self, other: "Subspace") -> "FloatSubspace":
        """The sum ``self + other`` (``other``'s rows carry its ``noise``)."""
        self._check_compatible(other)
        out = self.extend_rows(other.rows, noise=other.noise)[0]
        return FloatSubspace(out.ambient_dim, out.tol, out.rows, out.min_kept, out.max_dropped,
                             out.noise, min(out.smallest_gap, other.smallest_gap))

    def coordinates_rows(self, cand: np.ndarray, check: bool = True) -> np.ndarray:
        """Coordinates (float64, ``(k, dim)``) of the rows ``cand`` in the orthonormal basis.
        With ``check`` a ``ValueError`` is raised unless :meth:`contains_rows` accepts them."""
        cand = _float_rows(cand, self.ambient_dim)
        if check and not self.contains_rows(cand):
            raise ValueError(f"vector is not in the subspace (relative tol {self.tol})")
        return cand @ self.rows.T

    def coordinates(self, v: Sequence[Any]) -> np.ndarray:
        """Coordinates of ``v`` in ``basis`` (float64); ``ValueError`` if ``v`` is not in it."""
        return self.coordinates_rows(self._convert([v]))[0]

    def intersection(self, other: "FloatSubspace") -> "FloatSubspace":
        """``self ∩ other``: the directions of ``other`` whose principal angle with ``self`` has
        sine ``<= max(tol, noise)`` (the sines are the singular values of the component of
        ``other``'s orthonormal basis orthogonal to ``self``; computed directly, not as
        ``1 - cos``, so the decision matches the rank decisions of :meth:`sum`), with the same
        gap rule (:class:`NumericalRankError` when no wide gap separates the common directions
        from the others)."""
        self._check_compatible(other)
        if self.dim == 0 or other.dim == 0:
            return FloatSubspace(self.ambient_dim, self.tol)
        B = other.rows
        R = B - (B @ self.rows.T) @ self.rows        # (k, N), k <= N
        u, sines, _ = np.linalg.svd(R, full_matrices=True)
        sines = np.concatenate([sines, np.zeros(B.shape[0] - sines.size)])
        eta = math.sqrt(2.0) * (self.noise + other.noise) + svd_noise(*B.shape)
        d = decide(sines, self.tol, eta, self.tol, "intersection")
        common = u[:, sines <= d.level].T @ B
        sep = float(sines[d.rank - 1]) if d.rank else 1.0
        theta = eta / sep if sep > 2 * eta else 1.0
        out = FloatSubspace(self.ambient_dim, self.tol)
        return out.extend_rows(common, noise=max(self.noise, other.noise, theta),
                               argument="intersection")[0]

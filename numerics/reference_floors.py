"""Exact reference predictors of a linear-action sequence task ``h_t = M(x_t) h_{t−1}`` (left
action): the best order-free (abelian) predictor and the Magnus predictors of orders 1 and 2. A
trained model's error is reported as a ratio to these floors.

* :func:`best_abelian_prediction` — at every position ``t``, the mean of ``M(x_{σ(t)}) ⋯ M(x_{σ(1)}) h_0``
  over all ``t!`` orderings ``σ`` of the prefix's letters. For uniform i.i.d. letters every ordering of
  a multiset is equally likely, so this is the conditional mean of the target given the multiset of
  letters: the least-squares optimum over **every** predictor whose output depends on the multiset
  only (every abelian / order-free model, [DEPTH] arXiv:2603.05573 Theorem 3.2, abelian form). Exact
  up to float64 rounding, by the recursion ``m(S) = (1/|S|) Σ_{j∈S} M(x_j) m(S∖{j})`` over subsets
  ``S`` of positions (the last-applied letter is uniform over ``S``): ``T·2^{T−1}`` matrix–vector
  products per word, so ``T ≤ 16``.
* :func:`magnus_prediction` — ``exp(Ω_1 + … + Ω_order) h_0`` with, for ``M(a) = exp(ε X_a)``,
  ``Ω_1 = ε Σ_{s≤t} X_{x_s}`` (order 1: an abelian predictor) and
  ``Ω_2 = ½ ε² Σ_{r<s≤t} [X_{x_s}, X_{x_r}]`` (the second term of the Baker–Campbell–Hausdorff /
  Magnus series of the left product ``e^{εX_T} ⋯ e^{εX_1}``; what two coupled abelian layers can
  realise, [DEPTH] Proposition 3.3 / Corollary 3.6). Their errors are ``Θ(ε²)`` and ``Θ(ε³)``.

Shapes: ``matrices`` / ``generators`` ``(n_tokens, d, d)``, ``h0`` ``(d,)``, ``tokens`` int ``(N, T)``;
predictions float64 ``(N, T, d)``. ``ValueError`` names a bad argument. No torch here.
"""
from __future__ import annotations

import numpy as np
from scipy.linalg import expm

from seqtheory.theory._checks import check_real

__all__ = ["best_abelian_prediction", "magnus_prediction", "constant_prediction", "rms_error",
           "MAX_ABELIAN_LENGTH"]

#: longest word of :func:`best_abelian_prediction` (2^T subsets per word)
MAX_ABELIAN_LENGTH = 16


def _check(mats: np.ndarray, h0: np.ndarray, tokens: np.ndarray, what: str):
    mats = np.asarray(mats, dtype=np.float64)
    h0 = np.asarray(h0, dtype=np.float64)
    tokens = np.asarray(tokens)
    if mats.ndim != 3 or mats.shape[1] != mats.shape[2]:
        raise ValueError(f"{what} must have shape (n_tokens, d, d), got {mats.shape}")
    if h0.shape != (mats.shape[1],):
        raise ValueError(f"h0 must have shape ({mats.shape[1]},), got {h0.shape}")
    if tokens.ndim != 2 or not np.issubdtype(tokens.dtype, np.integer):
        raise ValueError(f"tokens must be an integer array of shape (N, T), got {tokens.dtype} {tokens.shape}")
    if tokens.size and (tokens.min() < 0 or tokens.max() >= len(mats)):
        raise ValueError(f"tokens must lie in [0, {len(mats)})")
    return mats, h0, tokens


def best_abelian_prediction(matrices, h0, tokens) -> np.ndarray:
    """The mean over orderings of each prefix's letters of ``M(x_σ(t)) ⋯ M(x_σ(1)) h0``
    (see the module docstring), ``(N, T, d)``. ``ValueError`` when ``T > MAX_ABELIAN_LENGTH``."""
    M, h0, tokens = _check(matrices, h0, tokens, "matrices")
    N, T = tokens.shape
    if T > MAX_ABELIAN_LENGTH:
        raise ValueError(f"tokens of length {T} > {MAX_ABELIAN_LENGTH}: 2^T subsets per word")
    size = np.array([bin(s).count("1") for s in range(2 ** T)])
    m = np.zeros((2 ** T, N, len(h0)))
    m[0] = h0
    Mx = M[tokens]                                                   # (N, T, d, d)
    for k in range(1, T + 1):
        layer = np.flatnonzero(size == k)
        for j in range(T):
            S = layer[(layer >> j) & 1 == 1]
            m[S] += np.einsum("nab,snb->sna", Mx[:, j], m[S ^ (1 << j)]) / k
    prefixes = (1 << np.arange(1, T + 1)) - 1
    return m[prefixes].transpose(1, 0, 2).copy()


def magnus_prediction(generators, h0, tokens, eps: float, order: int) -> np.ndarray:
    """``exp(Ω_1 + … + Ω_order) h0`` at every position, ``order`` ∈ {1, 2}, for transitions
    ``exp(eps · generators[a])`` (see the module docstring), ``(N, T, d)``."""
    X, h0, tokens = _check(generators, h0, tokens, "generators")
    if order not in (1, 2):
        raise ValueError(f"order must be 1 or 2, got {order!r}")
    eps = check_real("eps", eps, 0, above=True)
    Xs = eps * X[tokens]                                             # (N, T, d, d)
    omega = np.cumsum(Xs, axis=1)
    if order == 2:
        before = omega - Xs                                          # Σ_{r<s} X_r
        comm = Xs @ before - before @ Xs
        omega = omega + 0.5 * np.cumsum(comm, axis=1)
    return np.einsum("ntab,b->nta", expm(omega), h0)


def constant_prediction(train_targets) -> np.ndarray:
    """The constant predictor: the mean training target at each position, ``(T, d)`` from
    ``train_targets (N, T, d)``."""
    y = np.asarray(train_targets, dtype=np.float64)
    if y.ndim != 3:
        raise ValueError(f"train_targets must have shape (N, T, d), got {y.shape}")
    return y.mean(axis=0)


def rms_error(prediction, targets) -> float:
    """Root mean square of ``prediction − targets`` over words, positions and coordinates (the
    square root of the mean per-position MSE); shapes must broadcast to ``targets (N, T, d)``."""
    p, y = np.asarray(prediction, dtype=np.float64), np.asarray(targets, dtype=np.float64)
    if y.ndim != 3:
        raise ValueError(f"targets must have shape (N, T, d), got {y.shape}")
    try:
        diff = np.broadcast_to(p, y.shape) - y
    except ValueError:
        raise ValueError(f"prediction of shape {p.shape} does not broadcast to targets {y.shape}") from None
    return float(np.sqrt(np.mean(diff ** 2)))

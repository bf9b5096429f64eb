"""Seeded gradient streams through an optimizer, with the row diameter of every applied step: the
experiment of the claim ``head.ema_rownorm_bound`` of [HEAD] (A. Somasundaram et al.,
arXiv:2608.22253v2, projected RowNorm in practice: EMA of the gradients and ``ε`` in the
normalisation; the section number is unknown).

Streams of head gradients (``(T, V, d)`` float64) of several kinds (:data:`STREAM_KINDS`) and
learning-rate schedules (:data:`LR_SCHEDULES`) are fed to an optimizer on a float64 parameter
(:func:`run_stream`), and the applied update ``S_t = U_t − U_{t−1}`` is measured by its row
diameter ``D(S_t)`` (:func:`seqtheory.theory.hilbert.row_diameter`) relative to ``γ_t``. The
optimizers: the package's :class:`~seqtheory.models.optim.RowNorm` (:func:`rownorm_factory`) and,
as a wrong variant, the same EMA step without row normalisation (:func:`momentum_factory`).
"""
from __future__ import annotations

import numpy as np

from seqtheory.theory.hilbert import row_diameter

__all__ = ["STREAM_KINDS", "LR_SCHEDULES", "gradient_stream", "lr_schedule", "run_stream",
           "rownorm_factory", "momentum_factory", "stream_evidence"]

#: the kinds of :func:`gradient_stream`
STREAM_KINDS = ("gaussian", "cross_entropy", "below_eps", "antipodal")
#: the schedules of :func:`lr_schedule`
LR_SCHEDULES = ("constant", "warmup_cosine", "random")


def gradient_stream(rng: np.random.Generator, kind: str, V: int, d: int, T: int) -> np.ndarray:
    """A ``(T, V, d)`` float64 stream of head gradients of the given ``kind``:
    ``"gaussian"`` (per-step scale log-uniform in [1e-6, 1e3], a persistent mean row added so the
    EMA is uncentred), ``"cross_entropy"`` (Σ over 4 positions of ``(p − e_y)hᵀ`` for a random
    head),
    ``"below_eps"`` (entries of size 1e-12, far below ``ε``; some rows exactly zero) or
    ``"antipodal"`` (rows 0 and 1 equal to ``±v`` with ``‖v‖`` ≈ 1e3, the rest zero: the case
    where ``D(S_t)/γ_t`` approaches 2). Raises ``ValueError`` for an unknown kind or ``V < 2``."""
    if kind not in STREAM_KINDS:
        raise ValueError(f"kind must be one of {STREAM_KINDS}, got {kind!r}")
    if V < 2 or d < 1 or T < 1:
        raise ValueError(f"need V ≥ 2, d ≥ 1, T ≥ 1, got V={V}, d={d}, T={T}")
    if kind == "gaussian":
        mean = rng.normal(size=d)
        scales = 10.0 ** rng.uniform(-6, 3, size=(T, 1, 1))
        return scales * (rng.normal(size=(T, V, d)) + mean)
    if kind == "cross_entropy":
        U = rng.normal(size=(V, d)) * 2
        out = np.zeros((T, V, d))
        for t in range(T):
            for _ in range(4):
                h = rng.normal(size=d)
                z = U @ h
                p = np.exp(z - z.max())
                p /= p.sum()
                p[rng.integers(V)] -= 1.0
                out[t] += np.outer(p, h)
        return out
    if kind == "below_eps":
        out = rng.normal(size=(T, V, d)) * 1e-12
        out[:, rng.integers(V)] = 0.0
        return out
    out = np.zeros((T, V, d))
    v = rng.normal(size=d)
    v *= 1e3 / np.linalg.norm(v)
    out[:, 0], out[:, 1] = v, -v
    return out


def lr_schedule(rng: np.random.Generator, kind: str, T: int) -> np.ndarray:
    """Learning rates ``γ_1..γ_T`` in [1e-3, 1]: ``"constant"``, ``"warmup_cosine"`` (linear warm-up
    over T/4 steps, cosine decay to 10 % of the peak) or ``"random"`` (log-uniform per step)."""
    peak = float(10.0 ** rng.uniform(-2, 0))
    t = np.arange(1, T + 1)
    if kind == "constant":
        return np.full(T, peak)
    if kind == "warmup_cosine":
        w = max(1, T // 4)
        cos = 0.1 + 0.9 * 0.5 * (1 + np.cos(np.pi * np.clip(t - w, 0, None) / max(1, T - w)))
        return np.maximum(peak * np.minimum(t / w, 1.0) * cos, 1e-3)
    if kind == "random":
        return 10.0 ** rng.uniform(-3, 0, size=T)
    raise ValueError(f"schedule must be one of {LR_SCHEDULES}, got {kind!r}")


def run_stream(make_optimizer, grads: np.ndarray, lrs: np.ndarray, U0: np.ndarray) -> dict:
    """Feed ``grads[t]`` to the optimizer built by ``make_optimizer([param])`` with learning rate
    ``lrs[t]`` at step t (set on every param group, as a scheduler does) and measure the applied
    update ``S_t = U_t − U_{t−1}``. Returns ``ratios`` = ``D(S_t)/γ_t`` per step and the float64
    rounding scale ``ulp_ratio`` = ``2⁻⁵² · max|U| / min γ`` of that measurement."""
    import torch

    p = torch.nn.Parameter(torch.tensor(U0, dtype=torch.float64))
    opt = make_optimizer([p])
    ratios, umax = [], float(np.abs(U0).max())
    for G, lr in zip(grads, lrs):
        for group in opt.param_groups:
            group["lr"] = float(lr)
        old = p.detach().clone()
        p.grad = torch.tensor(G, dtype=torch.float64)
        opt.step()
        S = (p.detach() - old).numpy()
        ratios.append(row_diameter(S)[0] / float(lr))
        umax = max(umax, float(p.detach().abs().max()))
    return {"ratios": ratios, "ulp_ratio": 2.0 ** -52 * umax / float(np.min(lrs))}


def rownorm_factory(beta: float, eps: float):
    """``make_optimizer`` for the package's RowNorm (centring on, no weight decay)."""
    from .optim import RowNorm

    return lambda params: RowNorm(params, lr=1.0, beta=beta, eps=eps, centre=True,
                                  weight_decay=0.0)


def momentum_factory(beta: float, eps: float):
    """``make_optimizer`` for the same EMA step without row normalisation: torch SGD with
    momentum ``β`` and dampening ``1 − β`` (``m ← βm + (1−β)g``, step ``−γ m``); ``eps`` unused."""
    import torch

    return lambda params: torch.optim.SGD(params, lr=1.0, momentum=beta, dampening=1.0 - beta)


def stream_evidence(seed: int, factory, n_streams: int, T: int) -> dict:
    """Run ``factory(β, ε)`` over ``n_streams`` streams of ``T`` steps drawn from
    ``numpy.random.default_rng(seed)`` (every kind × schedule in turn, random V, d,
    β ∈ [0, 0.999], ε ∈ [1e-12, 1e-4]) and collect ``max D(S_t)/γ_t``. Returns
    ``{"max_ratio", "max_ulp_ratio", "rows"}`` (one row per stream: ``"kind", "schedule", "V",
    "d", "beta", "eps", "T", "max_D_over_gamma", "ulp_ratio"``)."""
    rng = np.random.default_rng(seed)
    rows = []
    for k in range(n_streams):
        kind, sched = STREAM_KINDS[k % len(STREAM_KINDS)], LR_SCHEDULES[(k // len(STREAM_KINDS)) % len(LR_SCHEDULES)]
        V, d = int(rng.integers(2, 13)), int(rng.integers(1, 7))
        beta = float(rng.choice([0.0, 0.9, 0.95, 0.999, rng.uniform(0, 0.999)]))
        eps = float(10.0 ** rng.uniform(-12, -4))
        r = run_stream(factory(beta, eps), gradient_stream(rng, kind, V, d, T),
                       lr_schedule(rng, sched, T), rng.normal(size=(V, d)) * 0.1)
        rows.append({"kind": kind, "schedule": sched, "V": V, "d": d, "beta": beta, "eps": eps,
                     "T": T, "max_D_over_gamma": max(r["ratios"]), "ulp_ratio": r["ulp_ratio"]})
    return {"max_ratio": max(r["max_D_over_gamma"] for r in rows),
            "max_ulp_ratio": max(r["ulp_ratio"] for r in rows), "rows": rows}

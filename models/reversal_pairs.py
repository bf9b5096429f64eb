"""Trained precision-mode models on held-out words and their reversals: the pair error against the
time-reversal bound.

Source: [DEPTH] G. Heo et al., arXiv:2603.05573, Theorem 3.2 in its abelian form
(:mod:`seqtheory.numerics.reversal`): an order-free model gives a word ``x`` and its reversal
``x̄`` the same output, so by the triangle inequality its pair error ``(e_x + e_x̄)/2`` is at least
the bound ``½‖(Φ_x − Φ_x̄)h0‖``. For the ε-continuation sweeps of :mod:`.precision` (their stored
results), per (ε, seed): the bound, the trained model's pair error at the last position, the class
gap ``max ‖f(x) − f(x̄)‖`` (0 for an order-free model) and the pair ratio of the trained model and
of the exact best abelian predictor (:func:`seqtheory.numerics.reference_floors.best_abelian_prediction`).
Float64; outputs ``(N, d)`` arrays.
"""
from __future__ import annotations

import numpy as np

__all__ = ["PAIR_RTOL", "pair_rows", "pair_stats"]

#: relative tolerance of "a pair lies above the bound"
PAIR_RTOL = 1e-9


def pair_rows(results: list[dict]) -> list[dict]:
    """Per (ε, seed) of the sweeps ``results``: on the held-out words ``x`` (training length) and
    their reversals ``x̄``, the bound ``b = ½‖(Φ_x − Φ_x̄)h0‖``, the trained model's pair error
    ``(e_x + e_x̄)/2`` at the last position, the class gap ``max ‖f(x) − f(x̄)‖``, and the pair
    ratio (error / bound) of the trained model and of the exact best abelian predictor."""
    from seqtheory.numerics.reference_floors import best_abelian_prediction

    from .precision import PrecisionConfig, sweep_predictor, sweep_task

    rows = []
    for res in results:
        cfg = PrecisionConfig(**{k: tuple(v) if isinstance(v, list) else v for k, v in res["config"].items()})
        for p in res["points"]:
            data = sweep_task(cfg, p["eps"])
            x = data.test_tokens
            xr = x[:, ::-1].copy()
            yx, yr = data.propagate(x)[:, -1], data.propagate(xr)[:, -1]
            f = sweep_predictor(cfg, p["theta"])
            fx, fr = f(x)[:, -1], f(xr)[:, -1]
            best = best_abelian_prediction(data.matrices, data.h0, x)[:, -1]
            rows.append({"eps": p["eps"], "seed": cfg.seed, "depth": cfg.depth,
                         "certified": p["certificate"]["certified"],
                         "class_gap": float(np.abs(fx - fr).max()),
                         **pair_stats(yx, yr, fx, fr, best)})
    return rows


def pair_stats(yx, yr, fx, fr, best, rtol: float = PAIR_RTOL) -> dict[str, float]:
    """Pair statistics from the targets ``yx``, ``yr`` (``(N, d)``, word and reversal), the model's
    outputs ``fx``, ``fr`` and the exact best abelian prediction ``best`` (the same for both);
    a pair lies above the bound when its error is ≥ bound·(1 − ``rtol``) − 1e-15. Returns
    ``{"n_pairs", "frac_pairs_above", "worst_ratio", "mean_ratio", "best_abelian_mean_ratio",
    "mean_bound", "mean_pair_error"}`` (ratios over the pairs with a bound above 1e-14; NaN when
    there is none)."""
    bound = 0.5 * np.linalg.norm(yx - yr, axis=1)
    pair = 0.5 * (np.linalg.norm(fx - yx, axis=1) + np.linalg.norm(fr - yr, axis=1))
    ideal = 0.5 * (np.linalg.norm(best - yx, axis=1) + np.linalg.norm(best - yr, axis=1))
    pos = bound > 1e-14
    ratio, iratio = pair[pos] / bound[pos], ideal[pos] / bound[pos]
    above = pair >= bound * (1 - rtol) - 1e-15
    return {"n_pairs": int(len(bound)), "frac_pairs_above": float(above.mean()),
            "worst_ratio": float(ratio.min()) if ratio.size else float("nan"),
            "mean_ratio": float(ratio.mean()) if ratio.size else float("nan"),
            "best_abelian_mean_ratio": float(iratio.mean()) if iratio.size else float("nan"),
            "mean_bound": float(bound.mean()), "mean_pair_error": float(pair.mean())}

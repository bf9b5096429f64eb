"""Precision training: full-batch float64 optimisation to a model class's approximation floor, with
a convergence certificate stored with each run.

Optimisers (on a flat parameter vector ``θ``, float64 by default):

* :func:`lbfgs` — full-batch L-BFGS with the strong-Wolfe line search, history 100
  (``torch.optim.LBFGS``; Nocedal & Wright, *Numerical Optimization*, 2nd ed., Alg. 7.5 and §3.5);
* :func:`levenberg_marquardt` — damped Gauss–Newton on a residual ``r(θ)`` (``m`` entries): the
  exact Jacobian by forward-mode differentiation (``torch.func.jvp`` under ``vmap``, in chunks of
  parameters), ``A = JᵀJ`` by one matrix product, the step solving ``(A + λ D) δ = −Jᵀr`` by
  Cholesky with Marquardt's scaling ``D = diag(A)`` (kept at its running maximum, Moré 1978, and
  floored at :data:`MARQUARDT_FLOOR` × its largest entry, so that directions the residual barely
  sees take bounded steps), and
  Nielsen's damping update (gain ratio ``ρ`` of actual to predicted decrease; accepted:
  ``λ ← λ·max(1/3, 1 − (2ρ − 1)³)``, ``ν ← 2``; rejected: ``λ ← λν``, ``ν ← 2ν``; Madsen, Nielsen &
  Tingleff, *Methods for non-linear least squares problems*, 2004, §3.2).

Runs (:class:`PrecisionConfig`, one **ε-continuation sweep**): a
:class:`~seqtheory.models.abelian_deep.DeepAbelianModel` on the ε-scaled A5 rotation task
(:mod:`.tasks`, left action ``h_t = M(x_t) h_{t−1}``), a fixed training set, the loss the MSE divided
by the constant predictor's (the mean training target per position), trained at each ε of
``cfg.eps`` in the order given, each ε starting from the previous solution. Per ε a budget (``lbfgs_iters``
L-BFGS iterations, then ``lm_iters`` accepted Levenberg–Marquardt steps) is run, the held-out RMS
error recorded, and the same budget run again (the budget doubled).

Convergence certificate (:func:`certificate`), per ε: ``doubling`` — the held-out RMS error changes
by less than :data:`DOUBLING_TOL` (5%) when the budget is doubled; ``stationary`` (the stall test) —
a truncated Gauss–Newton step from the final parameters (:func:`gauss_newton_probe`: CGLS on
``J δ ≈ −r``, matrix-free, then halving the step) lowers the training loss by at most
:data:`STALL_GAIN` (2%) of itself: a first-order optimiser that stalls on a plateau (issue 24: L-BFGS
at ~1e-3 relative error, which Levenberg–Marquardt then lowered 10–1000×) fails it; the test is
scale-free in ε. Reported beside: the final gradient norm and the ratio of the held-out error to
the exact reference floors (:mod:`seqtheory.numerics.reference_floors`). A point is *certified*
when both checks pass; ``failed`` names those that did not.
"""
from __future__ import annotations

import math
import time
from dataclasses import asdict, dataclass
from typing import Callable, Sequence

import numpy as np
import torch

from seqtheory.theory._messages import shown

from ._checks import check_bool_fields, check_int, check_int_fields, check_real
from .store import keyed_config

__all__ = ["PrecisionConfig", "lbfgs", "levenberg_marquardt", "jacobian", "certificate",
           "run_sweep", "stored_sweep", "fit_points", "reference_errors", "sweep_model", "sweep_predictor", "sweep_task", "DOUBLING_TOL", "STALL_GAIN", "gauss_newton_probe", "PRECISION_REVISION"]

#: the held-out error may change by less than this fraction when the budget is doubled
DOUBLING_TOL = 0.05
#: stall test: a Gauss–Newton step may lower the training loss by at most this fraction of it
STALL_GAIN = 0.02
#: Marquardt's scaling diag(JᵀJ) is floored at this fraction of its largest entry
MARQUARDT_FLOOR = 1e-6
#: revision of this module's training code (part of every configuration's store key)
PRECISION_REVISION = 1
_DTYPES = {"fp64": torch.float64, "fp32": torch.float32}


# ------------------------------------------------------------------------------------------------
# optimisers on a flat parameter vector
# ------------------------------------------------------------------------------------------------
def lbfgs(loss: Callable[[torch.Tensor], torch.Tensor], theta: torch.Tensor, max_iter: int,
          history_size: int = 100) -> tuple[torch.Tensor, list[float]]:
    """Minimise the scalar ``loss(θ)`` from ``theta`` (1-D tensor) by full-batch L-BFGS with the
    strong-Wolfe line search, at most ``max_iter`` iterations (``1.25·max_iter`` evaluations).
    Returns ``(θ, losses)``: the final parameters and the loss at every evaluation."""
    max_iter = check_int("max_iter", max_iter, 0)
    p = theta.detach().clone().requires_grad_(True)
    losses: list[float] = []
    if max_iter == 0:
        return p.detach(), losses
    opt = torch.optim.LBFGS([p], lr=1.0, max_iter=max_iter, history_size=history_size,
                            line_search_fn="strong_wolfe", tolerance_grad=0.0, tolerance_change=0.0)

    def closure():
        opt.zero_grad()
        v = loss(p)
        v.backward()
        losses.append(float(v.detach()))
        return v

    opt.step(closure)
    return p.detach(), losses


def jacobian(residual: Callable[[torch.Tensor], torch.Tensor], theta: torch.Tensor,
             chunk_size: int | None = 256) -> tuple[torch.Tensor, torch.Tensor]:
    """``(r(θ), J)``: the residual ``(m,)`` and its exact Jacobian ``(m, P)`` by forward-mode
    differentiation (one ``jvp`` per parameter, vectorised in chunks of ``chunk_size``)."""
    basis = torch.eye(theta.numel(), dtype=theta.dtype, device=theta.device)
    jt = torch.func.vmap(lambda v: torch.func.jvp(residual, (theta,), (v,))[1],
                         chunk_size=chunk_size)(basis)
    return residual(theta).detach(), jt.T


def levenberg_marquardt(residual: Callable[[torch.Tensor], torch.Tensor], theta: torch.Tensor,
                        max_iter: int, lam: float = 1e-3, chunk_size: int | None = 256,
                        max_rejects: int = 30) -> tuple[torch.Tensor, list[dict], float]:
    """Minimise ``‖r(θ)‖²`` by damped Gauss–Newton (see the module docstring): at most
    ``max_iter`` accepted steps (one Jacobian each); stops early after ``max_rejects`` consecutive
    rejected steps or when the step is below rounding. Returns ``(θ, history, λ)``; ``history``:
    one dict per accepted step with ``loss`` (‖r‖² after it), ``grad_norm`` (‖2Jᵀr‖ before it),
    ``lam``."""
    max_iter = check_int("max_iter", max_iter, 0)
    lam = check_real("lam", lam, 0, above=True)
    theta = theta.detach().clone()
    history: list[dict] = []
    D = torch.zeros(theta.numel(), dtype=theta.dtype, device=theta.device)
    nu = 2.0
    for _ in range(max_iter):
        r, J = jacobian(residual, theta, chunk_size)
        F, A, g = float(r @ r), J.T @ J, J.T @ r
        D = torch.maximum(D, torch.diagonal(A))
        # directions the residual barely sees (diag(A) ≈ 0) would take unbounded steps under pure
        # Marquardt scaling: floor the scaling at MARQUARDT_FLOOR × its largest entry
        Dp = torch.clamp(D, min=MARQUARDT_FLOOR * float(D.max())) if float(D.max()) > 0 else torch.ones_like(D)
        for _rej in range(max_rejects):
            L, info = torch.linalg.cholesky_ex(A + lam * torch.diag(Dp))
            if int(info) != 0:
                lam, nu = lam * nu, 2 * nu
                continue
            delta = -torch.cholesky_solve(g[:, None], L)[:, 0]
            # predicted decrease F − ‖r + Jδ‖² = −2δᵀg − δᵀAδ = δᵀAδ + 2λ δᵀDδ (as (A + λD)δ = −g):
            # the second form is a sum of non-negative terms, free of cancellation
            pred = float(delta @ (A @ delta) + 2 * lam * delta @ (Dp * delta))
            r_new = residual(theta + delta).detach()
            F_new = float(r_new @ r_new)
            rho = (F - F_new) / pred if pred > 0 else -1.0
            if rho > 0 and math.isfinite(F_new):
                theta = theta + delta
                lam *= max(1 / 3, 1 - (2 * rho - 1) ** 3)
                nu = 2.0
                history.append({"loss": F_new, "grad_norm": float(2 * g.norm()), "lam": lam})
                break
            lam, nu = lam * nu, 2 * nu
        else:
            break
        if float(delta.norm()) <= 1e-15 * (float(theta.norm()) + 1e-15):
            break
    return theta, history, lam


def gauss_newton_probe(residual: Callable[[torch.Tensor], torch.Tensor], theta: torch.Tensor,
                       cg_iters: int = 40, halvings: int = 10) -> float:
    """The stall test's probe: the largest relative decrease ``(F − F(θ + t δ)) / F`` of
    ``F = ‖r‖²`` over ``t = 1, ½, …, 2^−halvings``, where ``δ`` is ``cg_iters`` steps of CGLS on the
    Gauss–Newton system ``J δ ≈ −r`` (matrix-free: Jacobian–vector products by ``torch.func.jvp``,
    transposed ones by ``torch.func.vjp``; Hestenes & Stiefel's CG on the normal equations). 0 when
    no such step lowers ``F``."""
    cg_iters = check_int("cg_iters", cg_iters, 1)
    theta = theta.detach()
    r, vjp_fn = torch.func.vjp(residual, theta)
    r = r.detach()
    F = float(r @ r)
    if F == 0:
        return 0.0
    b = -r
    s = vjp_fn(b)[0]
    p, gamma = s.clone(), float(s @ s)
    x = torch.zeros_like(theta)
    for _ in range(cg_iters):
        if gamma <= 1e-300:
            break
        q = torch.func.jvp(residual, (theta,), (p,))[1].detach()
        qq = float(q @ q)
        if qq <= 0:
            break
        alpha = gamma / qq
        x, b = x + alpha * p, b - alpha * q
        s = vjp_fn(b)[0]
        gamma_new = float(s @ s)
        p, gamma = s + (gamma_new / gamma) * p, gamma_new
    best = 0.0
    with torch.no_grad():
        for j in range(halvings + 1):
            rn = residual(theta + 2.0 ** -j * x)
            best = max(best, (F - float(rn @ rn)) / F)
    return best


# ------------------------------------------------------------------------------------------------
# the convergence certificate
# ------------------------------------------------------------------------------------------------
def certificate(heldout_budget: float, heldout_doubled: float, gn_gain: float, grad_norm: float,
                floors: dict[str, float] | None = None) -> dict:
    """The certificate of one trained point (see the module docstring): ``heldout_budget`` /
    ``heldout_doubled`` the held-out RMS errors after the budget and after twice it, ``gn_gain``
    the relative training-loss decrease a Gauss–Newton step still finds
    (:func:`gauss_newton_probe`), ``grad_norm`` the final gradient norm of the normalised loss,
    ``floors`` the exact reference errors (name → RMS error) the held-out error is divided by.
    Returns a dict with ``certified`` (bool), ``failed`` (names of the failed checks),
    ``doubling_change``, ``stationary``, ``gn_gain``, ``grad_norm`` and ``floor_ratio``
    (name → ratio). ``ValueError`` for a negative input."""
    heldout_budget, heldout_doubled, gn_gain, grad_norm = (   # a diverged fit (inf, NaN) is not certified
        check_real(name, v, 0, finite=False) for name, v in (
            ("heldout_budget", heldout_budget), ("heldout_doubled", heldout_doubled),
            ("gn_gain", gn_gain), ("grad_norm", grad_norm)))
    finite = all(math.isfinite(v) for v in (heldout_budget, heldout_doubled, gn_gain, grad_norm))
    change = abs(heldout_doubled - heldout_budget) / heldout_doubled if heldout_doubled > 0 else 0.0
    checks = {"doubling": finite and change < DOUBLING_TOL, "stationary": finite and gn_gain <= STALL_GAIN}
    return {"certified": all(checks.values()), "failed": [k for k, ok in checks.items() if not ok],
            "doubling_change": change, "stationary": checks["stationary"], "gn_gain": gn_gain,
            "grad_norm": grad_norm, "doubling_tol": DOUBLING_TOL, "stall_gain": STALL_GAIN,
            "floor_ratio": {k: heldout_doubled / v for k, v in (floors or {}).items() if v > 0}}


# ------------------------------------------------------------------------------------------------
# one ε-continuation sweep of the deep abelian model on the ε-scaled rotation task
# ------------------------------------------------------------------------------------------------
@keyed_config
@dataclass(frozen=True)
class PrecisionConfig:
    """One ε-continuation sweep (hashed by the results store). ``eps``: positive ε in the order
    trained (largest first, as a continuation). Model: ``depth``, ``coupling``, ``width``,
    ``hidden``, ``coupling_hidden`` of :class:`~seqtheory.models.abelian_deep.DeepAbelianModel`.
    Task: ``train_length`` (held-out words have the same length), ``n_train``, ``n_test``,
    ``data_seed``. ``seed``: the initialisation. Budget per ε: ``lbfgs_iters`` then ``lm_iters``
    (doubled for the certificate). ``precision``: ``"fp64"`` (or ``"fp32"``)."""

    eps: tuple[float, ...]
    depth: int = 1
    coupling: bool = True
    width: int = 8
    hidden: int = 32
    coupling_hidden: int = 16
    train_length: int = 12
    n_train: int = 2048
    n_test: int = 512
    data_seed: int = 0
    seed: int = 0
    lbfgs_iters: int = 200
    lm_iters: int = 0
    lm_chunk: int = 256
    precision: str = "fp64"
    revision: int = PRECISION_REVISION

    def __post_init__(self) -> None:
        if not isinstance(self.eps, tuple) or not self.eps:
            raise ValueError(f"eps must be a non-empty tuple of positive finite numbers, got "
                             f"{shown(self.eps)}")
        object.__setattr__(self, "eps", tuple(check_real(f"eps[{i}]", e, 0, above=True)
                                              for i, e in enumerate(self.eps)))
        check_int_fields(self, ("depth", "width", "hidden", "coupling_hidden", "train_length",
                                "n_train", "n_test", "lm_chunk"))
        check_int_fields(self, ("data_seed", "seed", "lbfgs_iters", "lm_iters"), 0)
        if self.lbfgs_iters + self.lm_iters == 0:
            raise ValueError("lbfgs_iters + lm_iters must be positive (the budget per ε)")
        check_bool_fields(self, ("coupling",))
        if self.precision not in _DTYPES:
            raise ValueError(f"precision must be one of {tuple(_DTYPES)}, got {self.precision!r}")


def sweep_task(cfg: PrecisionConfig, eps: float):
    """The rotation task of a sweep at ``eps`` (:class:`~.tasks.RotationData`; held-out words of
    the training length)."""
    from .tasks import RotationSpec, make_rotation_task

    return make_rotation_task(RotationSpec(train_length=cfg.train_length, n_train=cfg.n_train,
                                           n_test=cfg.n_test, test_length=cfg.train_length, eps=eps,
                                           seed=cfg.data_seed))


def reference_errors(data) -> dict[str, float]:
    """Held-out RMS errors of the exact references of a rotation task ``data`` (left action):
    ``abelian`` (the best order-free predictor), ``magnus2`` (order-2 Magnus) and ``constant``."""
    from seqtheory.numerics.reference_floors import (best_abelian_prediction, constant_prediction,
                                                     magnus_prediction, rms_error)
    from .tasks import rotation_log

    eps = float(data.spec.eps)
    X = np.stack([rotation_log(m) for m in data.matrices]) / eps
    x, y = data.test_tokens, data.test_targets
    return {"abelian": rms_error(best_abelian_prediction(data.matrices, data.h0, x), y),
            "magnus2": rms_error(magnus_prediction(X, data.h0, x, eps, 2), y),
            "constant": rms_error(constant_prediction(data.train_targets), y)}


class _Problem:
    """The residual / loss of a model on a fixed training set as functions of flat parameters."""

    def __init__(self, model, tokens, targets, dtype):
        self.model = model
        self.names = [n for n, _ in model.named_parameters()]
        self.shapes = [p.shape for _, p in model.named_parameters()]
        self.x = torch.as_tensor(tokens)
        self.y = torch.as_tensor(targets, dtype=dtype)
        base = float(((self.y - self.y.mean(dim=0)) ** 2).sum())
        self.scale = 1.0 / math.sqrt(base) if base > 0 else 1.0   # ‖r‖² = MSE / constant predictor's

    def unflatten(self, theta):
        out, i = {}, 0
        for n, s in zip(self.names, self.shapes):
            k = math.prod(s)
            out[n] = theta[i:i + k].view(s)
            i += k
        return out

    def predict(self, theta, tokens):
        return torch.func.functional_call(self.model, self.unflatten(theta), (torch.as_tensor(tokens),))

    def residual(self, theta):
        return ((self.predict(theta, self.x) - self.y) * self.scale).reshape(-1)

    def loss(self, theta):
        r = self.residual(theta)
        return r @ r


def _grad_norm(problem: _Problem, theta) -> float:
    t = theta.detach().clone().requires_grad_(True)
    (g,) = torch.autograd.grad(problem.loss(t), t)
    return float(g.norm())


def _rms(problem, theta, tokens, targets) -> float:
    with torch.no_grad():
        p = problem.predict(theta, tokens).double().numpy()
    return float(np.sqrt(np.mean((p - targets) ** 2)))


def _budget(cfg: PrecisionConfig, problem: _Problem, theta) -> tuple[torch.Tensor, dict]:
    theta, losses = lbfgs(problem.loss, theta, cfg.lbfgs_iters)
    lm_hist: list[dict] = []
    if cfg.lm_iters:
        theta, lm_hist, _ = levenberg_marquardt(problem.residual, theta, cfg.lm_iters,
                                                chunk_size=cfg.lm_chunk)
    return theta, {"lbfgs_evals": len(losses), "lm_steps": len(lm_hist),
                   "loss": lm_hist[-1]["loss"] if lm_hist else (losses[-1] if losses else None)}


def sweep_model(cfg: PrecisionConfig):
    """A freshly initialised :class:`~seqtheory.models.abelian_deep.DeepAbelianModel` of ``cfg``
    (60 tokens, 3 outputs) in its precision."""
    from .abelian_deep import DeepAbelianModel

    return DeepAbelianModel(60, 3, depth=cfg.depth, width=cfg.width, hidden=cfg.hidden,
                            coupling_hidden=cfg.coupling_hidden,
                            coupling=cfg.coupling).to(_DTYPES[cfg.precision])


def sweep_predictor(cfg: PrecisionConfig, theta: Sequence[float]) -> Callable[[np.ndarray], np.ndarray]:
    """The trained model of a sweep point as a function ``tokens (N, T) -> outputs (N, T, 3)``
    (numpy float64), from its flat parameters ``theta`` (a point's ``"theta"``)."""
    model = sweep_model(cfg)
    t = torch.as_tensor(np.asarray(theta, dtype=np.float64), dtype=_DTYPES[cfg.precision])
    n = sum(p.numel() for p in model.parameters())
    if t.ndim != 1 or t.numel() != n:
        raise ValueError(f"theta must hold the model's {n} parameters, got shape {tuple(t.shape)}")
    problem = _Problem(model, np.zeros((1, 1), dtype=np.int64), np.zeros((1, 1, 3)), t.dtype)

    def predict(tokens: np.ndarray) -> np.ndarray:
        with torch.no_grad():
            return problem.predict(t, np.asarray(tokens, dtype=np.int64)).double().numpy()

    return predict


def run_sweep(cfg: PrecisionConfig, on_progress: Callable[[dict], None] | None = None) -> dict:
    """Train the sweep ``cfg`` (see the module docstring) and return its result: ``points`` (one
    per ε: ``eps``, ``heldout_rms``, ``train_rms``, ``heldout_rms_budget`` (before the doubling),
    ``loss``, ``references`` (exact floors), ``certificate``, ``seconds``, ``theta`` (the flat
    parameters, for :func:`sweep_predictor`)), ``parameters``,
    ``config``. ``on_progress(point)`` after each ε."""
    from .recipe import seed_all

    dtype = _DTYPES[cfg.precision]
    seed_all(cfg.seed)
    model = sweep_model(cfg)
    theta = torch.cat([p.detach().reshape(-1) for p in model.parameters()])
    points = []
    for eps in cfg.eps:
        t0 = time.process_time()
        data = sweep_task(cfg, eps)
        problem = _Problem(model, data.train_tokens, data.train_targets, dtype)
        theta, first = _budget(cfg, problem, theta)
        held_budget = _rms(problem, theta, data.test_tokens, data.test_targets)
        theta, second = _budget(cfg, problem, theta)
        held = _rms(problem, theta, data.test_tokens, data.test_targets)
        loss = float(problem.loss(theta).detach())
        gain = gauss_newton_probe(problem.residual, theta)
        refs = reference_errors(data)
        point = {"eps": eps, "heldout_rms": held, "heldout_rms_budget": held_budget,
                 "train_rms": _rms(problem, theta, data.train_tokens, data.train_targets),
                 "loss": loss, "references": refs,
                 "certificate": certificate(held_budget, held, gain, _grad_norm(problem, theta), refs),
                 "budget": [first, second], "seconds": time.process_time() - t0,
                 "theta": theta.tolist()}
        points.append(point)
        if on_progress is not None:
            on_progress(point)
    return {"config": asdict(cfg), "parameters": int(theta.numel()), "points": points,
            "torch": torch.__version__}


def stored_sweep(cfg: PrecisionConfig, store, owner: str | None = None) -> dict:
    """The result of ``cfg`` from the results ``store`` (:class:`~.store.ResultsStore`), run with
    :func:`run_sweep` and stored when absent (:meth:`~.store.ResultsStore.compute_once`: when
    another live worker is computing it, this waits for that worker's result).
    With ``threads``-free callers the torch thread count is left as set by the caller."""
    return store.compute_once(cfg, lambda: run_sweep(cfg), owner=owner)


def fit_points(points: Sequence[dict]) -> dict:
    """Log-log slope (95% CI) of the held-out RMS error against ε over ``points`` (at least 3)."""
    from seqtheory.numerics.fits import fit_loglog_slope

    pts = sorted(points, key=lambda p: p["eps"])
    f = fit_loglog_slope([p["eps"] for p in pts], [p["heldout_rms"] for p in pts])
    return {"slope": f.slope, "ci_low": f.ci_low, "ci_high": f.ci_high, "n": len(pts)}

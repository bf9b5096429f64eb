"""models.precision: L-BFGS and Levenberg–Marquardt on problems with known solutions, the
convergence certificate on synthetic histories, and a tiny ε-continuation sweep through the store."""
import math

import numpy as np
import pytest
import torch

from seqtheory.models import precision
from seqtheory.models.precision import (PrecisionConfig, certificate, jacobian, lbfgs,
                                        levenberg_marquardt, run_sweep, stored_sweep)
from seqtheory.models.store import ResultsStore


def test_lm_solves_linear_least_squares_to_machine_precision():
    g = torch.Generator().manual_seed(0)
    A = torch.randn(40, 6, generator=g, dtype=torch.float64)
    b = torch.randn(40, generator=g, dtype=torch.float64)
    theta, hist, _ = levenberg_marquardt(lambda t: A @ t - b, torch.zeros(6, dtype=torch.float64), 50)
    want = torch.linalg.lstsq(A, b[:, None]).solution[:, 0]
    torch.testing.assert_close(theta, want, rtol=1e-12, atol=1e-12)
    assert len(hist) < 50                                  # stops once the step is below rounding


def test_lm_on_rosenbrock_residuals():
    res = lambda t: torch.stack([10 * (t[1] - t[0] ** 2), 1 - t[0]])   # noqa: E731
    theta, hist, _ = levenberg_marquardt(res, torch.tensor([-1.2, 1.0], dtype=torch.float64), 200)
    torch.testing.assert_close(theta, torch.ones(2, dtype=torch.float64), rtol=0, atol=1e-10)
    assert hist[-1]["loss"] < 1e-20
    assert all(b["loss"] <= a["loss"] for a, b in zip(hist, hist[1:]))   # accepted steps decrease


def test_jacobian_is_exact():
    W = torch.randn(5, 3, dtype=torch.float64, generator=torch.Generator().manual_seed(1))
    theta = torch.tensor([0.3, -0.2, 0.5], dtype=torch.float64)
    r, J = jacobian(lambda t: torch.tanh(W @ t), theta, chunk_size=2)
    torch.testing.assert_close(J, (1 - torch.tanh(W @ theta) ** 2)[:, None] * W)
    assert r.shape == (5,)


def test_lbfgs_minimises_a_quadratic():
    H = torch.diag(torch.tensor([1.0, 10.0, 100.0], dtype=torch.float64))
    c = torch.tensor([1.0, -2.0, 3.0], dtype=torch.float64)
    theta, losses = lbfgs(lambda t: 0.5 * t @ H @ t - c @ t, torch.zeros(3, dtype=torch.float64), 30)
    torch.testing.assert_close(theta, torch.linalg.solve(H, c), rtol=1e-10, atol=1e-10)
    assert losses[-1] <= losses[0]


@pytest.mark.parametrize("args,certified,failed", [
    ((1.00e-3, 1.02e-3, 1e-4, 1e-7), True, []),
    ((1.00e-3, 1.30e-3, 1e-4, 1e-7), False, ["doubling"]),                     # still moving
    ((1.00e-3, 1.00e-3, 0.5, 4e-5), False, ["stationary"]),                    # stalled on a plateau
    ((1.00e-3, 2.00e-3, 0.9, 1e-3), False, ["doubling", "stationary"]),
    ((1.00e-3, float("nan"), 1e-4, 1e-7), False, ["doubling", "stationary"]),
])
def test_certificate_fires_on_synthetic_histories(args, certified, failed):
    c = certificate(*args, floors={"abelian": 5e-4})
    assert c["certified"] is certified and c["failed"] == failed
    if math.isfinite(args[1]):
        assert c["floor_ratio"]["abelian"] == pytest.approx(args[1] / 5e-4)


def test_gauss_newton_probe_sees_a_plateau_and_a_minimum():
    # Rosenbrock residuals: far from the minimum a Gauss–Newton step still gains; at it, nothing
    res = lambda t: torch.stack([10 * (t[1] - t[0] ** 2), 1 - t[0]])   # noqa: E731
    assert precision.gauss_newton_probe(res, torch.tensor([-1.2, 1.0], dtype=torch.float64)) > precision.STALL_GAIN
    at_min = torch.tensor([1.0, 1.0], dtype=torch.float64) + 1e-9
    assert precision.gauss_newton_probe(res, at_min) < 1e-6 or res(at_min).norm() < 1e-7
    # a linear least-squares problem at its solution: no step lowers the loss
    g = torch.Generator().manual_seed(0)
    A = torch.randn(30, 4, generator=g, dtype=torch.float64)
    b = torch.randn(30, generator=g, dtype=torch.float64)
    x = torch.linalg.lstsq(A, b[:, None]).solution[:, 0]
    assert precision.gauss_newton_probe(lambda t: A @ t - b, x) < 1e-10
    assert precision.gauss_newton_probe(lambda t: A @ t - b, torch.zeros(4, dtype=torch.float64)) > 0.1


def test_certificate_bad_input():
    with pytest.raises(ValueError, match="grad_norm"):
        certificate(1.0, 1.0, 1.0, -1.0)


def test_config_checks():
    with pytest.raises(ValueError, match="eps"):
        PrecisionConfig(eps=(0.1, -0.05))
    with pytest.raises(ValueError, match="eps"):
        PrecisionConfig(eps=[0.1])
    with pytest.raises(ValueError, match="budget"):
        PrecisionConfig(eps=(0.1,), lbfgs_iters=0, lm_iters=0)
    with pytest.raises(ValueError, match="precision"):
        PrecisionConfig(eps=(0.1,), precision="bf16")
    # a flag is a bool, as in TrainConfig (1 or "False" would key the run apart)
    for bad in (1, "False", None):
        with pytest.raises(TypeError, match="coupling must be True or False"):
            PrecisionConfig(eps=(0.1,), coupling=bad)
    assert PrecisionConfig(eps=(0.1,), coupling=np.bool_(False)).coupling is False


TINY = PrecisionConfig(eps=(0.1, 0.05), depth=2, width=2, hidden=4, coupling_hidden=3,
                       train_length=3, n_train=48, n_test=16, lbfgs_iters=8, lm_iters=2, lm_chunk=64)


def test_tiny_sweep_is_stored_with_its_certificates(tmp_path, monkeypatch):
    torch.set_num_threads(1)
    st = ResultsStore(tmp_path)
    res = stored_sweep(TINY, st)
    assert [p["eps"] for p in res["points"]] == [0.1, 0.05]
    for p in res["points"]:
        c = p["certificate"]
        assert set(c["floor_ratio"]) == {"abelian", "magnus2", "constant"}
        assert c["certified"] == (not c["failed"])
        assert p["heldout_rms"] == pytest.approx(c["floor_ratio"]["abelian"] * p["references"]["abelian"])
        assert p["references"]["magnus2"] < p["references"]["abelian"] < p["references"]["constant"]
    assert [p["budget"][0]["lm_steps"] for p in res["points"]] == [2, 2]
    monkeypatch.setattr(precision, "run_sweep", lambda cfg: pytest.fail("retrained a stored sweep"))
    assert stored_sweep(TINY, st)["points"] == res["points"]


def test_sweep_is_reproducible():
    torch.set_num_threads(1)
    cfg = PrecisionConfig(eps=(0.1,), depth=1, width=2, hidden=4, train_length=3, n_train=32,
                          n_test=8, lbfgs_iters=5)
    a, b = run_sweep(cfg), run_sweep(cfg)
    assert a["points"][0]["heldout_rms"] == b["points"][0]["heldout_rms"]
    assert np.isfinite(a["points"][0]["loss"])


def test_sweep_predictor_reproduces_the_heldout_error():
    torch.set_num_threads(1)
    cfg = PrecisionConfig(eps=(0.1,), depth=2, width=2, hidden=4, coupling_hidden=3, train_length=3,
                          n_train=32, n_test=8, lbfgs_iters=4)
    point = run_sweep(cfg)["points"][0]
    data = precision.sweep_task(cfg, 0.1)
    assert data.test_tokens.shape == (8, 3)
    pred = precision.sweep_predictor(cfg, point["theta"])(data.test_tokens)
    assert np.sqrt(np.mean((pred - data.test_targets) ** 2)) == pytest.approx(point["heldout_rms"], rel=1e-12)
    with pytest.raises(ValueError, match="theta"):
        precision.sweep_predictor(cfg, point["theta"][:-1])

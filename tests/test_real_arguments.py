"""Real number arguments (rates, tolerances, scales, times) take any real number, numpy scalars
included, and refuse anything else with a message that names the argument and what is
expected (issue 19: ``TrainConfig(lr=np.float32(3e-3))`` was refused as "not a finite positive
number")."""
from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from seqtheory.models.store import config_key
from seqtheory.models.train import TrainConfig
from seqtheory.theory._checks import RealArgumentTypeError, check_real

NUMPY_REALS = (np.float16, np.float32, np.float64, np.int8, np.int32, np.int64, np.uint16)


@settings(max_examples=80, deadline=None)
@given(st.floats(1.0, 100.0), st.sampled_from(NUMPY_REALS))
@example(3e-3, np.float32)
def test_a_numpy_scalar_is_the_number_it_holds(x, dtype):
    v = dtype(x)
    assert check_real("x", v, 0, above=True) == float(v)
    assert type(check_real("x", v)) is float


@pytest.mark.parametrize("bad", [True, np.bool_(False), "0.1", None, [0.1], np.zeros(1),
                                 1 + 0j])
def test_a_non_number_is_refused_saying_what_is_expected(bad):
    with pytest.raises(RealArgumentTypeError, match=r"^lr must be a finite real number > 0 "
                                                    r"\(int, float or a numpy scalar\), got"):
        check_real("lr", bad, 0, above=True)
    assert issubclass(RealArgumentTypeError, TypeError) and \
        issubclass(RealArgumentTypeError, ValueError)


@pytest.mark.parametrize("value, bounds, ok", [
    (0, dict(minimum=0), True), (0, dict(minimum=0, above=True), False),
    (1, dict(maximum=1), True), (1, dict(maximum=1, below=True), False),
    (float("nan"), {}, False), (float("inf"), {}, False), (10 ** 400, {}, False),
    (float("nan"), dict(minimum=0, finite=False), True),
    (float("inf"), dict(minimum=0, finite=False), True),
    (-float("inf"), dict(minimum=0, finite=False), False),
    (Fraction(1, 3), dict(minimum=0), True), (np.float32(-0.5), dict(minimum=0), False),
])
def test_bounds(value, bounds, ok):
    if ok:
        check_real("x", value, **bounds)
    else:
        with pytest.raises(ValueError, match="^x must be a"):
            check_real("x", value, **bounds)


@pytest.mark.parametrize("field", ["lr", "grad_clip", "weight_decay"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16, np.int64])
def test_train_config_takes_numpy_scalars_as_plain_numbers(field, dtype):
    v = dtype(2)
    cfg = TrainConfig(task="C2", model="gla", **{field: v})
    assert type(getattr(cfg, field)) in (int, float) and getattr(cfg, field) == 2
    assert cfg == TrainConfig(task="C2", model="gla", **{field: v.item()})
    assert config_key(cfg) == config_key(TrainConfig(task="C2", model="gla", **{field: 2.0}))


def test_train_config_float32_learning_rate_is_its_float_value():
    cfg = TrainConfig(task="C2", model="gla", lr=np.float32(3e-3))
    assert cfg.lr == float(np.float32(3e-3)) and type(cfg.lr) is float
    eps = TrainConfig(task="rotation_eps", model="gla", eps=np.float32(0.25))
    assert eps.eps == 0.25 and type(eps.eps) is float
    ints = TrainConfig(task="C2", model="gla", depth=np.int64(2), seed=np.int32(3))
    assert (type(ints.depth), type(ints.seed)) == (int, int)


@pytest.mark.parametrize("kw, match", [
    (dict(lr="0.1"), "lr must be a finite real number > 0 (int, float or a numpy scalar), got str"),
    (dict(lr=0), "lr must be a finite real number > 0, got 0"),
    (dict(weight_decay=-1), "weight_decay must be a finite real number >= 0, got -1"),
    (dict(grad_clip=np.float32("nan")), "grad_clip must be a finite real number > 0, got nan"),
    (dict(task="rotation_eps", eps=np.float64(-1)), "eps must be a finite real number > 0"),
    (dict(eps=0.5), "eps is only for task 'rotation_eps'"),
])
def test_train_config_refusals_say_what_is_expected(kw, match):
    with pytest.raises(ValueError) as info:
        TrainConfig(**{"task": "C2", "model": "gla", **kw})
    assert match in str(info.value)


def _public_float_arguments():
    """Every public argument that takes a real number and was checked by type (the kind)."""
    from seqtheory.numerics import head_oracles as ho
    from seqtheory.numerics.reference_floors import magnus_prediction

    G = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    gens, h0, tok = np.zeros((2, 2, 2)), np.ones(2), np.zeros((1, 3), dtype=int)
    return {
        "eps (magnus_prediction)": lambda v: magnus_prediction(gens, h0, tok, v, 1),
        "eps (row_normalise)": lambda v: ho.row_normalise(G, eps=v),
        "eta (rownorm_update)": lambda v: ho.rownorm_update(G, v),
        "rtol (numerical_rank)": lambda v: ho.numerical_rank(G, rtol=v),
        "data_scale (numerical_rank)": lambda v: ho.numerical_rank(G, data_scale=v),
    }


@pytest.mark.parametrize("name", sorted(_public_float_arguments()))
def test_public_real_arguments_take_numpy_scalars_and_refuse_strings(name):
    call = _public_float_arguments()[name]
    arg = name.split()[0]
    plain = call(0.5)
    for v in (np.float32(0.5), np.float64(0.5), Fraction(1, 2)):
        assert np.array_equal(np.asarray(call(v)), np.asarray(plain))
    with pytest.raises(TypeError, match=f"^{arg} must be a finite real number"):
        call("0.5")
    with pytest.raises(TypeError, match=f"^{arg} must be a finite real number"):
        call(True)


def test_the_training_entry_points_check_their_times(tmp_path):
    from seqtheory.models.store import ResultsStore
    from seqtheory.models.train import train

    cfg = TrainConfig(task="C2", model="gla", steps=1)
    for kw, match in ((dict(lease_s=0), "lease_s must be a finite real number > 0"),
                      (dict(lease_s="60"), "lease_s must be a finite real number > 0"),
                      (dict(wait_s=-1.0), "wait_s must be a finite real number >= 0")):
        with pytest.raises(ValueError, match=match):
            train(cfg, **kw)
    with pytest.raises(ValueError, match="busy_timeout_s must be a finite real number > 0"):
        ResultsStore(tmp_path / "s", busy_timeout_s=float("nan"))
    assert not (tmp_path / "s").exists()
    assert ResultsStore(tmp_path / "s", busy_timeout_s=np.float32(5))._busy == 5.0


def test_numpy_scalars_in_the_other_configurations():
    from seqtheory.models.precision import PrecisionConfig, certificate
    from seqtheory.proofs_checks.training_runs import StoreJob

    pc = PrecisionConfig(eps=(np.float32(0.5), 1))
    assert pc.eps == (0.5, 1.0) and all(type(e) is float for e in pc.eps)
    with pytest.raises(ValueError, match=r"eps\[0\] must be a finite real number > 0"):
        PrecisionConfig(eps=(0.0,))
    cert = certificate(np.float32(1.0), np.float64(1.0), np.float32(0.0), 0.0, {})
    assert "certified" in cert
    assert not certificate(float("nan"), 1.0, 0.0, 0.0, {})["certified"]
    with pytest.raises(ValueError, match="heldout_budget must be a real number >= 0"):
        certificate(-1.0, 1.0, 0.0, 0.0, {})
    StoreJob("a.b:c", None, np.float32(1.5))
    with pytest.raises(ValueError, match="cpu_seconds must be a finite real number >= 0"):
        StoreJob("a.b:c", None, "1")


def test_lm_config_takes_numpy_scalars_and_refuses_non_numbers():
    from seqtheory.models.lm import LMConfig

    cfg = LMConfig(backbone_lr=np.float32(0.5), rownorm_beta=np.float64(0.9))
    assert (type(cfg.backbone_lr), type(cfg.rownorm_beta)) == (float, float)
    for kw, match in ((dict(backbone_lr="3e-3"), "backbone_lr must be a finite real number > 0"),
                      (dict(rownorm_beta=1.0), r"rownorm_beta must be a finite real number >= 0 "
                                               r"and < 1"),
                      (dict(adamw_weight_decay=-0.1), "adamw_weight_decay must be a finite")):
        with pytest.raises(ValueError, match=match):
            LMConfig(**kw)


def test_head_width_equal_to_d_model_is_another_model_and_another_run():
    """head_width=None has no up-projection; head_width=d_model adds a d_model x d_model one and
    a GELU: not an alias of the default, so its own key."""
    from seqtheory.models.lm import DecoderLM, LMConfig

    a, b = LMConfig(), LMConfig(head_width=LMConfig().d_model)
    assert a.width == b.width and config_key(a) != config_key(b)
    n = [sum(p.numel() for p in DecoderLM(16, c).parameters()) for c in (a, b)]
    assert n[1] == n[0] + a.d_model ** 2

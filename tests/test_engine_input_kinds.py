"""Issue 33, kinds 6, 7 and 12, in the training engine and the scans: a keyed run does not depend
on torch's global state (and leaves it as it was), a batch of 0 gives an empty result in every
parallel form as in the references, and scan arguments of mixed float32/float64 precision are
promoted (references and chunked forms alike), with a TypeError naming an argument of another
kind. Run against main at 760aeba, every test here failed there except those pinning what
already held (``T = 0``, the number of threads)."""
from __future__ import annotations

import random

import numpy as np
import pytest
import torch

from seqtheory.models.batched import train_batched
from seqtheory.models.layers_delta import delta_rule_chunked, delta_rule_reference
from seqtheory.models.layers_diagonal import (gla_scan_chunked, gla_scan_reference,
                                              scalar_decay_scan_chunked,
                                              scalar_decay_scan_reference)
from seqtheory.models.model import MODEL_NAMES, ModelConfig, SequenceModel
from seqtheory.models.train import TrainConfig, train

CFG = TrainConfig(task="S3", model="mamba", depth=1, width=16, n_heads=2, d_state=4,
                  train_length=6, n_train=64, n_test=16, steps=6, batch_size=8, log_every=2,
                  warmup=2, precision="fp32")


def _same_result(a: dict, b: dict) -> None:
    assert a["curve"] == b["curve"] and a["test"] == b["test"] and a["final_loss"] == b["final_loss"]


# ------------------------------------------------------------------------------------------------
# kind 6: global torch state never leaks into a keyed run
# ------------------------------------------------------------------------------------------------
@pytest.fixture
def default_dtype_float64():
    old = torch.get_default_dtype()
    torch.set_default_dtype(torch.float64)
    yield
    torch.set_default_dtype(old)


@pytest.mark.parametrize("engine", ["train", "batched"])
def test_default_dtype_does_not_change_a_float32_run(engine, request):
    run = (lambda c: train(c, device="cpu")) if engine == "train" else \
        (lambda c: train_batched([c], device="cpu")[0])
    plain = run(CFG)
    request.getfixturevalue("default_dtype_float64")
    _same_result(plain, run(CFG))
    assert torch.get_default_dtype() == torch.float64          # the caller's setting is kept


def test_default_dtype_does_not_change_a_head_run(default_dtype_float64):
    from seqtheory.models.lm import quick_config, train_run
    from seqtheory.models.lm_stacked import train_stacked
    from seqtheory.models.text import TextData

    data = TextData.from_corpus(b"abcdefghij" * 200, level="char", val_fraction=0.2)
    cfg = quick_config(steps=4, warmup=1, eval_windows=2, panel_windows=1, seq_len=8, batch_size=2)
    results = []
    for dtype in (torch.float32, torch.float64):
        torch.set_default_dtype(dtype)
        results.append([train_run(data, cfg, "rownorm", 0.05, 0),
                        train_stacked(data, cfg, [("rownorm", 0.05, 0), ("adamw", 0.01, 1)])[0]])
    for a, b in zip(*results):
        a.pop("seconds"), b.pop("seconds")
        assert a == b


def test_caller_state_does_not_change_a_run_and_is_restored():
    plain = train(CFG, device="cpu")
    torch.manual_seed(123)
    np.random.seed(5)
    random.seed(7)
    states = (torch.get_rng_state(), np.random.get_state()[1].copy(), random.getstate())
    threads, precision = torch.get_num_threads(), torch.get_float32_matmul_precision()
    torch.set_float32_matmul_precision("medium")
    try:
        with torch.no_grad(), torch.autocast("cpu", dtype=torch.bfloat16):
            inside = train(CFG, device="cpu", threads=1)
        assert torch.get_float32_matmul_precision() == "medium"
    finally:
        torch.set_float32_matmul_precision(precision)
    _same_result(plain, inside)
    assert torch.equal(torch.get_rng_state(), states[0])
    assert np.array_equal(np.random.get_state()[1], states[1]) and random.getstate() == states[2]
    assert torch.get_num_threads() == threads


def test_the_number_of_threads_does_not_change_a_run():
    _same_result(train(CFG, device="cpu", threads=1), train(CFG, device="cpu", threads=2))


def test_a_failing_run_restores_the_state_too():
    old = torch.get_default_dtype()
    torch.manual_seed(999)
    state = torch.get_rng_state()

    class Boom(Exception):
        pass

    def stop(info):
        raise Boom

    with pytest.raises(Boom):
        train(CFG, device="cpu", on_progress=stop)
    assert torch.get_default_dtype() == old and torch.equal(torch.get_rng_state(), state)


# ------------------------------------------------------------------------------------------------
# kind 7: a batch of 0
# ------------------------------------------------------------------------------------------------
def _scalar_args(B, T, kind, H=2, P=3, N=4):
    z = lambda *s: torch.zeros(*s)           # noqa: E731
    args = dict(x=z(B, T, H, P), b=z(B, T, H, N), c=z(B, T, H, N), log_mag=z(B, T, H))
    if kind == "signed":
        args["parity"] = z(B, T, H)
    if kind == "complex":
        args.update(phase=z(B, T, H), c=torch.zeros(B, T, H, N, dtype=torch.complex64),
                    state0=torch.zeros(H, P, N, dtype=torch.complex64))
    return args


@pytest.mark.parametrize("B,T", [(0, 5), (2, 0), (0, 0)])
@pytest.mark.parametrize("kind", ["positive", "signed", "complex"])
def test_empty_scalar_decay_scan_is_empty_like_the_reference(B, T, kind):
    args = _scalar_args(B, T, kind)
    ref = scalar_decay_scan_reference(**args)
    out = scalar_decay_scan_chunked(**args, chunk=4)
    assert out.shape == ref.shape == (B, T, 2, 3) and out.dtype == ref.dtype
    if kind == "complex":
        assert ref.is_complex()
        real = scalar_decay_scan_chunked(**args, chunk=4, real_part=True)
        assert real.shape == (B, T, 2, 3) and not real.is_complex()


@pytest.mark.parametrize("B,T", [(0, 5), (2, 0)])
def test_empty_gla_and_delta_are_empty_like_the_references(B, T):
    q = torch.zeros(B, T, 2, 3)
    for ref, out in ((gla_scan_reference(q, q, q, q), gla_scan_chunked(q, q, q, q, chunk=4)),
                     (delta_rule_reference(q, q, q, q[..., 0]), delta_rule_chunked(q, q, q, q[..., 0], chunk=4))):
        assert out.shape == ref.shape == (B, T, 2, 3) and out.dtype == ref.dtype


@pytest.mark.parametrize("name", MODEL_NAMES)
def test_every_model_takes_a_batch_of_zero_in_both_modes(name):
    m = SequenceModel(ModelConfig(name, vocab_size=5, n_out=3, width=8, n_heads=2, d_state=4))
    tokens = torch.zeros(0, 7, dtype=torch.long)
    for mode in ("parallel", "recurrent"):
        assert m(tokens, mode=mode).shape == (0, 7, 3)


# ------------------------------------------------------------------------------------------------
# kind 12: mixed float32 / float64 arguments
# ------------------------------------------------------------------------------------------------
def _mixed_cases():
    g = torch.Generator().manual_seed(0)
    r = lambda *s: torch.randn(*s, generator=g)              # noqa: E731
    B, T, H, P, N = 2, 9, 2, 3, 4
    scalar = dict(x=r(B, T, H, P), b=r(B, T, H, N), c=r(B, T, H, N), log_mag=-r(B, T, H).abs(),
                  parity=(r(B, T, H) > 0).float())
    phase = dict(x=r(B, T, H, P), b=r(B, T, H, N), c=torch.complex(r(B, T, H, N), r(B, T, H, N)),
                 log_mag=-r(B, T, H).abs(), phase=r(B, T, H),
                 state0=torch.complex(r(H, P, N), r(H, P, N)))
    gla = dict(q=r(B, T, H, N), k=r(B, T, H, N), v=r(B, T, H, P), log_alpha=-r(B, T, H, N).abs())
    delta = dict(q=r(B, T, H, N), k=torch.nn.functional.normalize(r(B, T, H, N), dim=-1),
                 v=r(B, T, H, P), beta=torch.rand(B, T, H, generator=g))
    return [("scalar", scalar_decay_scan_reference, scalar_decay_scan_chunked, scalar),
            ("phase", scalar_decay_scan_reference, scalar_decay_scan_chunked, phase),
            ("gla", gla_scan_reference, gla_scan_chunked, gla),
            ("delta", delta_rule_reference, delta_rule_chunked, delta)]


CASES = [(fam, ref, chk, args, name) for fam, ref, chk, args in _mixed_cases() for name in args]


def _wide(t):
    return t.to(torch.complex128 if t.is_complex() else torch.float64)


@pytest.mark.parametrize("fam,ref,chk,args,name", CASES,
                         ids=[f"{c[0]}-{c[4]}" for c in CASES])
def test_one_float64_argument_promotes_the_scan(fam, ref, chk, args, name):
    mixed = dict(args, **{name: _wide(args[name])})
    wide = {n: _wide(t) for n, t in args.items()}
    want = ref(**wide)
    for fn in (ref, lambda **a: chk(**a, chunk=4)):
        out = fn(**mixed)
        assert out.dtype == want.dtype                              # float64 / complex128
        assert (out - want).abs().max().item() < 1e-10


@pytest.mark.parametrize("fn", [scalar_decay_scan_reference, scalar_decay_scan_chunked])
def test_a_non_floating_or_misplaced_complex_argument_is_named(fn):
    args = _mixed_cases()[0][3]
    with pytest.raises(TypeError, match="^x must be a floating tensor"):
        fn(**dict(args, x=args["x"].long()))
    with pytest.raises(TypeError, match="^log_mag must be a real tensor"):
        fn(**dict(args, log_mag=args["log_mag"].to(torch.complex64)), phase=args["parity"])
    with pytest.raises(TypeError, match="^b must be a torch.Tensor"):
        fn(**dict(args, b=args["b"].numpy()))
    for g in (gla_scan_reference, gla_scan_chunked):
        q = torch.zeros(1, 2, 1, 2)
        with pytest.raises(TypeError, match="^v must be a real tensor"):
            g(q, q, q.to(torch.complex64), q)

"""Kind: a non-finite value flows backwards in time (issue 19 §2).

Every parallel (chunked or masked) form, given a NaN or ±inf at step ``p``, must give the outputs
of steps ``< p`` of the same inputs without step ``p`` and later: the step-by-step reference on
the prefix (forward), and the same gradients (backward). From ``p`` on the output is NaN.
The inputs before the fix gave NaN at every step of ``p``'s chunk (``0 · NaN`` in the masked
products).
Checked for each scan function and input kind, and for every layer family of
:data:`~seqtheory.models.model.MODEL_NAMES` through its mixer."""
from __future__ import annotations

import pytest
import torch
from hypothesis import example, given, settings, strategies as st

from seqtheory.models.layers_delta import delta_rule_chunked, delta_rule_reference
from seqtheory.models.layers_diagonal import (gla_scan_chunked, gla_scan_reference,
                                              scalar_decay_scan_chunked, scalar_decay_scan_reference)
from seqtheory.models.model import MODEL_NAMES, ModelConfig, make_mixer

T, TOL = 21, 1e-10
BAD = [float("nan"), float("inf"), float("-inf")]
SET = settings(max_examples=30, deadline=None)


def _rand(*shape, seed):
    return torch.randn(*shape, generator=torch.Generator().manual_seed(seed), dtype=torch.float64)


def _inputs(family: str, seed: int) -> dict:
    B, H = 2, 3
    if family in ("decay", "signed", "complex"):
        d = {"x": _rand(B, T, H, 4, seed=seed), "b": _rand(B, T, H, 5, seed=seed + 1),
             "c": _rand(B, T, H, 5, seed=seed + 2), "log_mag": -_rand(B, T, H, seed=seed + 3).abs()}
        if family == "signed":
            d["parity"] = (_rand(B, T, H, seed=seed + 4) > 0).double()
        if family == "complex":
            d["phase"] = _rand(B, T, H, seed=seed + 4) * 3
        return d
    if family == "gla":
        return {"q": _rand(B, T, H, 4, seed=seed), "k": _rand(B, T, H, 4, seed=seed + 1),
                "v": _rand(B, T, H, 5, seed=seed + 2), "log_alpha": -_rand(B, T, H, 4, seed=seed + 3).abs()}
    norm = torch.nn.functional.normalize
    return {"q": norm(_rand(B, T, H, 4, seed=seed), dim=-1), "k": norm(_rand(B, T, H, 4, seed=seed + 1), dim=-1),
            "v": _rand(B, T, H, 5, seed=seed + 2), "beta": 2 * torch.sigmoid(_rand(B, T, H, seed=seed + 3))}


def _run(family: str, d: dict, chunked: bool, chunk: int = 8, **kw):
    if family in ("decay", "signed", "complex"):
        f = scalar_decay_scan_chunked if chunked else scalar_decay_scan_reference
        extra = {"chunk": chunk, **kw} if chunked else {}
        return f(d["x"], d["b"], d["c"], d["log_mag"], d.get("parity"), d.get("phase"), **extra)
    if family == "gla":
        if chunked:
            return gla_scan_chunked(d["q"], d["k"], d["v"], d["log_alpha"], chunk=chunk, **kw)
        return gla_scan_reference(d["q"], d["k"], d["v"], d["log_alpha"])
    if chunked:
        return delta_rule_chunked(d["q"], d["k"], d["v"], d["beta"], chunk=chunk)
    return delta_rule_reference(d["q"], d["k"], d["v"], d["beta"])


FAMILIES = {"decay": ["x", "b", "c", "log_mag"], "signed": ["x", "b", "parity", "log_mag"],
            "complex": ["x", "b", "c", "phase"], "gla": ["q", "k", "v", "log_alpha"],
            "delta": ["q", "k", "v", "beta"]}
CASES = [(f, name) for f, names in FAMILIES.items() for name in names]


def _check_scan(family, name, p, bad, chunk, seed=0, **kw):
    d = _inputs(family, seed)
    if name in ("log_mag", "log_alpha") and bad == float("-inf"):
        bad = float("nan")                       # -inf is a valid log gate (a = 0)
    d[name] = d[name].clone()
    d[name][1, p, 0, ...] = bad                  # batch element 1, head 0
    leaves = {k: v.clone().requires_grad_(k != "parity") for k, v in d.items()}
    out = _run(family, leaves, True, chunk, **kw)
    prefix = {k: v[:, :p].detach().clone().requires_grad_(k != "parity") for k, v in d.items()}
    ref = _run(family, prefix, False)
    assert (out[:, :p] - ref).abs().max().item() < TOL if p else True
    assert torch.isfinite(out[:, :p]).all()
    assert torch.isfinite(out[0]).all()          # the other batch element is untouched
    if name not in ("c", "q"):                   # carried: step p and later are NaN in that head
        assert torch.isnan(out[1, p:, 0]).all()
    else:                                        # read only: step p alone
        assert torch.isnan(out[1, p, 0]).all() and torch.isfinite(out[1, p + 1:]).all()
    if p == 0:
        return
    real = lambda y: torch.view_as_real(y) if y.is_complex() else y  # noqa: E731
    real(out[:, :p]).sum().backward()
    real(ref).sum().backward()
    for k in d:
        if k == "parity":
            continue
        g, g_ref = leaves[k].grad[:, :p], prefix[k].grad
        assert torch.isfinite(g).all(), f"gradient of {k} before step {p} not finite"
        assert (g - g_ref).abs().max().item() < TOL


@pytest.mark.parametrize("family,name", CASES)
@pytest.mark.parametrize("bad", BAD, ids=["nan", "inf", "-inf"])
@pytest.mark.parametrize("p", [0, 5, 8, 20])
def test_scan_outputs_before_a_bad_input_equal_the_reference(family, name, bad, p):
    _check_scan(family, name, p, bad, chunk=8)


@SET
@given(st.sampled_from(CASES), st.integers(0, T - 1), st.sampled_from(BAD), st.sampled_from([1, 3, 8, 16, 64]))
@example(("decay", "x"), 5, float("nan"), 32)        # the example
def test_scan_any_position_and_chunk(case, p, bad, chunk):
    _check_scan(*case, p, bad, chunk)


@pytest.mark.parametrize("bad", BAD, ids=["nan", "inf", "-inf"])
def test_gla_pairwise_path(bad):
    """Saturated gates take the pairwise (segment-sum) path of ``gla_scan_chunked``."""
    d = _inputs("gla", 3)
    d["log_alpha"] = d["log_alpha"] * 60
    assert (gla_scan_chunked(d["q"], d["k"], d["v"], d["log_alpha"], chunk=16) -
            gla_scan_reference(d["q"], d["k"], d["v"], d["log_alpha"])).abs().max() < 1e-8
    for name in FAMILIES["gla"]:
        _check_scan("gla", name, 6, bad, chunk=16, seed=3)


def test_log_gate_minus_inf_is_a_valid_gate():
    d = _inputs("decay", 1)
    d["log_mag"][:, 4] = float("-inf")
    out, ref = _run("decay", d, True), _run("decay", d, False)
    assert torch.isfinite(out).all() and (out - ref).abs().max().item() < TOL


def _mixer(name):
    torch.manual_seed(0)
    cfg = ModelConfig(name=name, vocab_size=4, n_out=3, width=16, depth=1, n_heads=2)
    return make_mixer(cfg).double()


@pytest.mark.parametrize("name", MODEL_NAMES)
@pytest.mark.parametrize("bad", BAD, ids=["nan", "inf", "-inf"])
@pytest.mark.parametrize("p", [0, 5, 13])
def test_every_layer_family(name, bad, p):
    m = _mixer(name)
    x = _rand(2, T, 16, seed=7)
    x[1, p, 3] = bad
    xs = x.clone().requires_grad_(True)
    out = m(xs, mode="parallel")
    assert torch.isfinite(out[0]).all() and torch.isfinite(out[1, :p]).all()
    assert not torch.isfinite(out[1, p]).any()
    if p == 0:
        return
    pre = x[:, :p].clone().requires_grad_(True)
    modes = ("parallel", "recurrent") if name != "transformer" else ("parallel",)
    for mode in modes:
        ref = m(pre, mode=mode)
        assert (out[:, :p] - ref).abs().max().item() < TOL
    m.zero_grad()
    out[:, :p].sum().backward()
    grads = {k: v.grad.clone() for k, v in m.named_parameters()}
    m.zero_grad()
    m(pre, mode="parallel").sum().backward()
    assert torch.isfinite(xs.grad[:, :p]).all()
    assert (xs.grad[:, :p] - pre.grad).abs().max().item() < TOL
    if name == "transformer":
        return
    # parameter gradients sum over all steps (0·NaN in the projections' backward at step p, in
    # either form): equal to the recurrent form's wherever that one is finite
    m.zero_grad()
    m(x.clone(), mode="recurrent")[:, :p].sum().backward()
    compared = 0
    for k, v in m.named_parameters():
        fin = torch.isfinite(v.grad)
        compared += int(fin.sum())
        if fin.any():
            assert (grads[k][fin] - v.grad[fin]).abs().max().item() < TOL, k
    assert compared > 0


@pytest.mark.parametrize("bad", BAD, ids=["nan", "inf", "-inf"])
def test_decoder_lm_block(bad):
    """The language model's attention blocks ([HEAD] experiments) share causal_attention."""
    from seqtheory.models.lm import DecoderLM, LMConfig
    torch.manual_seed(0)
    lm = DecoderLM(50, LMConfig(d_model=16, n_heads=2, n_layers=1, seq_len=T)).double()
    block = lm.blocks[0]
    x = _rand(2, T, 16, seed=3)
    x[1, 6, 2] = bad
    out = block(x)
    assert torch.isfinite(out[0]).all() and torch.isfinite(out[1, :6]).all()
    assert (out[:, :6] - block(x[:, :6])).abs().max().item() < TOL

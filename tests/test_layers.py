"""Layer forms agree (float64, 1e-10) and every model is causal (seqtheory.models layers)."""
import pytest
import torch

from seqtheory.models.layers_delta import delta_rule_chunked, delta_rule_reference
from seqtheory.models.layers_diagonal import (gla_scan_chunked, gla_scan_reference,
                                              scalar_decay_scan_chunked,
                                              scalar_decay_scan_reference)
from seqtheory.models.model import MODEL_NAMES, RECURRENT_MODELS, ModelConfig, SequenceModel

LENGTHS = (1, 5, 16, 37)   # 37: not a multiple of the chunk sizes used (8, 16, 32)
TOL = 1e-10


def _gen(seed):
    return torch.Generator().manual_seed(seed)


@pytest.mark.parametrize("T", LENGTHS)
@pytest.mark.parametrize("kind", ["positive", "signed", "complex"])
def test_scalar_decay_scan_chunked_matches_reference(T, kind):
    g = _gen(T)
    B, H, P, N = 2, 3, 4, 5
    x, b, c = (torch.randn(B, T, H, d, generator=g, dtype=torch.float64) for d in (P, N, N))
    log_mag = -torch.rand(B, T, H, generator=g, dtype=torch.float64) * 3
    parity = (torch.rand(B, T, H, generator=g) < 0.5).double() if kind == "signed" else None
    phase = torch.randn(B, T, H, generator=g, dtype=torch.float64) * 3 if kind == "complex" else None
    if kind == "complex":
        log_mag = torch.zeros_like(log_mag)
        c = torch.complex(c, torch.randn_like(c))
    ref = scalar_decay_scan_reference(x, b, c, log_mag, parity, phase)
    for chunk in (1, 8, 16):
        out = scalar_decay_scan_chunked(x, b, c, log_mag, parity, phase, chunk=chunk)
        assert (out - ref).abs().max().item() < TOL


@pytest.mark.parametrize("kind", ["positive", "signed", "complex"])
@pytest.mark.parametrize("batched", [False, True])
def test_scan_with_start_state_matches_reference(kind, batched):
    g = _gen(50)
    B, T, H, P, N = 2, 21, 3, 4, 5
    x, b, c = (torch.randn(B, T, H, d, generator=g, dtype=torch.float64) for d in (P, N, N))
    log_mag = -torch.rand(B, T, H, generator=g, dtype=torch.float64)
    parity = (torch.rand(B, T, H, generator=g) < 0.5).double() if kind == "signed" else None
    phase = torch.randn(B, T, H, generator=g, dtype=torch.float64) * 3 if kind == "complex" else None
    shape = (B, H, P, N) if batched else (H, P, N)
    s0 = torch.randn(shape, generator=g, dtype=torch.float64)
    if kind == "complex":
        log_mag = torch.zeros_like(log_mag)
        c = torch.complex(c, torch.randn_like(c))
        s0 = torch.complex(s0, torch.randn_like(s0))
    ref = scalar_decay_scan_reference(x, b, c, log_mag, parity, phase, state0=s0)
    zero = scalar_decay_scan_reference(x, b, c, log_mag, parity, phase)
    assert (ref - zero).abs().max().item() > 1e-3                 # the start state is visible
    for chunk in (1, 8, 16, 64):
        out = scalar_decay_scan_chunked(x, b, c, log_mag, parity, phase, chunk=chunk, state0=s0)
        assert (out - ref).abs().max().item() < TOL


@pytest.mark.parametrize("kind", ["positive", "signed", "complex", "complex_x"])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_real_part_is_the_real_part_bit_for_bit(kind, dtype):
    """``real_part=True`` gives exactly ``y.real`` and exactly its gradients (the AUSSM layer reads
    only ``Re y``; its imaginary part is then neither computed nor differentiated)."""
    g = _gen(7)
    B, T, H, P, N = 2, 19, 3, 4, 5
    x, b, c = (torch.randn(B, T, H, d, generator=g, dtype=dtype) for d in (P, N, N))
    log_mag = -torch.rand(B, T, H, generator=g, dtype=dtype)
    parity = (torch.rand(B, T, H, generator=g) < 0.5).to(dtype) if kind == "signed" else None
    phase = torch.randn(B, T, H, generator=g, dtype=dtype) * 3 if kind.startswith("complex") else None
    s0 = None
    if phase is not None:
        log_mag = torch.zeros_like(log_mag)
        c = torch.complex(c, torch.randn_like(c))
        s0 = torch.complex(*(torch.randn(H, P, N, generator=g, dtype=dtype) for _ in range(2)))
    if kind == "complex_x":                                   # complex input: the complex path
        x = torch.complex(x, torch.randn_like(x))
    leaves = [t.clone().requires_grad_() for t in (x, b, c)]
    grads = []
    for real_part in (False, True):
        for t in leaves:
            t.grad = None
        y = scalar_decay_scan_chunked(*leaves, log_mag, parity, phase, chunk=8, state0=s0,
                                      real_part=real_part)
        y = y.real if not real_part and y.is_complex() else y
        assert not y.is_complex()
        (y * torch.linspace(-1, 1, y.numel(), dtype=y.dtype).reshape(y.shape)).sum().backward()
        grads.append((y.detach(), [t.grad.clone() for t in leaves]))
    (y0, g0), (y1, g1) = grads
    assert torch.equal(y0, y1)
    assert all(torch.equal(a, b) for a, b in zip(g0, g1))
    with pytest.raises(TypeError, match="real_part"):
        scalar_decay_scan_chunked(x, b, c, log_mag, parity, phase, real_part=1)


@pytest.mark.parametrize("scan", [scalar_decay_scan_reference, scalar_decay_scan_chunked])
@pytest.mark.parametrize("which", ["x", "b", "c", "state0"])
def test_complex_input_without_phase_is_a_type_error_naming_it(scan, which):
    """Real transitions (no ``phase``) take real inputs: a complex one is refused by name, not a
    dtype mismatch deep in torch."""
    g = _gen(3)
    B, T, H, P, N = 1, 5, 2, 3, 4
    args = {"x": torch.randn(B, T, H, P, generator=g, dtype=torch.float64),
            "b": torch.randn(B, T, H, N, generator=g, dtype=torch.float64),
            "c": torch.randn(B, T, H, N, generator=g, dtype=torch.float64),
            "state0": torch.randn(H, P, N, generator=g, dtype=torch.float64)}
    args[which] = torch.complex(args[which], torch.zeros_like(args[which]))
    log_mag = -torch.rand(B, T, H, generator=g, dtype=torch.float64)
    with pytest.raises(TypeError, match=f"^{which} is complex"):
        scan(args["x"], args["b"], args["c"], log_mag, state0=args["state0"])


def test_aussm_start_state_zero_equals_no_start_state():
    from seqtheory.models.layers_diagonal import AUSSMMixer
    torch.manual_seed(0)
    m = AUSSMMixer(16, 2, 4).double()
    x = torch.randn(2, 9, 16, dtype=torch.float64)
    with torch.no_grad():
        m.state0_re.zero_()
        m.state0_im.zero_()
    off = AUSSMMixer(16, 2, 4, learned_state0=False).double()
    off.load_state_dict({k: v for k, v in m.state_dict().items() if "state0" not in k})
    for mode in ("parallel", "recurrent"):
        assert (m(x, mode=mode) - off(x, mode=mode)).abs().max().item() < TOL


def test_signed_scan_really_flips_sign():
    # a = -1 at every step with x = b = c = 1: y alternates 1, 0, 1, 0 (guards the parity logic)
    T = 6
    one = torch.ones(1, T, 1, 1, dtype=torch.float64)
    y = scalar_decay_scan_chunked(one, one, one, torch.zeros(1, T, 1, dtype=torch.float64),
                                  parity=torch.ones(1, T, 1, dtype=torch.float64), chunk=4)
    assert y.flatten().tolist() == [1.0, 0.0, 1.0, 0.0, 1.0, 0.0]


@pytest.mark.parametrize("T", LENGTHS)
def test_gla_chunked_matches_reference(T):
    g = _gen(100 + T)
    q, k, v = (torch.randn(2, T, 3, 4, generator=g, dtype=torch.float64) for _ in range(3))
    la = -torch.rand(2, T, 3, 4, generator=g, dtype=torch.float64) * 2
    ref = gla_scan_reference(q, k, v, la)
    for chunk in (1, 8, 16):
        assert (gla_scan_chunked(q, k, v, la, chunk=chunk) - ref).abs().max().item() < TOL


@pytest.mark.parametrize("T", LENGTHS)
def test_delta_rule_chunked_matches_reference(T):
    g = _gen(200 + T)
    q, k = (torch.nn.functional.normalize(torch.randn(2, T, 3, 4, generator=g, dtype=torch.float64), dim=-1)
            for _ in range(2))
    v = torch.randn(2, T, 3, 5, generator=g, dtype=torch.float64)
    beta = 2 * torch.rand(2, T, 3, generator=g, dtype=torch.float64)    # (0, 2): negative eigenvalues
    ref = delta_rule_reference(q, k, v, beta)
    for chunk in (1, 8, 16):
        assert (delta_rule_chunked(q, k, v, beta, chunk=chunk) - ref).abs().max().item() < TOL


@pytest.mark.parametrize("name", RECURRENT_MODELS)
def test_model_parallel_equals_recurrent(name):
    torch.manual_seed(0)
    m = SequenceModel(ModelConfig(name, vocab_size=7, n_out=5, depth=2, width=16, n_heads=2,
                                  d_state=4)).double()
    for T in (3, 37):
        x = torch.randint(0, 7, (2, T))
        assert (m(x, mode="parallel") - m(x, mode="recurrent")).abs().max().item() < TOL


@pytest.mark.parametrize("name", MODEL_NAMES)
def test_causality(name):
    """The output at position t does not change when inputs after t change."""
    torch.manual_seed(1)
    m = SequenceModel(ModelConfig(name, vocab_size=6, n_out=4, depth=2, width=16, n_heads=2,
                                  d_state=4)).double()
    x = torch.randint(0, 6, (3, 20))
    y = x.clone()
    t = 9
    y[:, t + 1:] = (y[:, t + 1:] + 1) % 6
    a, b = m(x), m(y)
    assert (a[:, :t + 1] - b[:, :t + 1]).abs().max().item() < 1e-12
    assert (a[:, t + 1:] - b[:, t + 1:]).abs().max().item() > 1e-6   # the change is visible later


def test_signed_transitions_in_range():
    from seqtheory.models.layers_diagonal import MambaMixer
    torch.manual_seed(0)
    for signed in (False, True):
        m = MambaMixer(16, 2, 4, signed=signed).double()
        raw = torch.randn(4, 50, 2, dtype=torch.float64)  # moderate steps: no rounding to ±1
        log_mag, parity, _ = m.transitions(raw)
        a = torch.exp(log_mag) * (1 - 2 * parity if parity is not None else 1)
        lo = -1 if signed else 0
        assert (a > lo).all() and (a < 1).all()
        if signed:
            assert (a < 0).any()


def test_bad_inputs():
    m = SequenceModel(ModelConfig("mamba", 5, 3, width=16, n_heads=2))
    with pytest.raises(ValueError, match="tokens"):
        m(torch.tensor([[0, 5]]))
    with pytest.raises(TypeError, match="tokens"):
        m(torch.zeros(1, 3))
    with pytest.raises(ValueError, match="mode"):
        m(torch.tensor([[0, 1]]), mode="fast")
    with pytest.raises(ValueError, match="model name"):
        ModelConfig("lstm", 5, 3)
    with pytest.raises(ValueError, match="divisible"):
        ModelConfig("gla", 5, 3, width=10, n_heads=4)


def test_complex_inputs_use_the_complex_fallback():
    g = _gen(7)
    B, T, H, P, N = 1, 21, 2, 3, 4
    x = torch.complex(*(torch.randn(B, T, H, P, generator=g, dtype=torch.float64) for _ in range(2)))
    b, c = (torch.randn(B, T, H, N, generator=g, dtype=torch.float64) for _ in range(2))
    lm = -torch.rand(B, T, H, generator=g, dtype=torch.float64)
    ph = torch.randn(B, T, H, generator=g, dtype=torch.float64)
    ref = scalar_decay_scan_reference(x, b, c, lm, phase=ph)
    assert (scalar_decay_scan_chunked(x, b, c, lm, phase=ph, chunk=8) - ref).abs().max().item() < TOL

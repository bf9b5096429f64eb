"""The deep abelian model (models.abelian_deep): its class property (layer 1 is order-free, every
layer's transitions commute and carry no bias), the coupling (depth 2 is not order-free; without
coupling it is), depth 1 = models.abelian, bad input."""
import numpy as np
import pytest
import torch
from hypothesis import example, given, settings
from hypothesis import strategies as st

from seqtheory.models.abelian import AbelianStateModel
from seqtheory.models.abelian_deep import DeepAbelianModel

V = 7


def _model(depth=2, coupling=True, seed=0):
    torch.manual_seed(seed)
    m = DeepAbelianModel(V, 3, depth=depth, width=4, hidden=8, coupling_hidden=6, coupling=coupling)
    return m.double()


words = st.lists(st.integers(0, V - 1), min_size=2, max_size=9)


@settings(max_examples=25, deadline=None)
@given(words, st.randoms(use_true_random=False))
@example([0, 1, 2, 3], None)
def test_layer1_state_depends_on_the_multiset_only(word, rnd):
    perm = list(reversed(word)) if rnd is None else rnd.sample(word, len(word))
    m = _model(depth=3)
    x = torch.tensor([word, perm])
    h1 = m.layer_states(x)[0][:, -1]
    torch.testing.assert_close(h1[0], h1[1], rtol=1e-12, atol=1e-14)


@settings(max_examples=20, deadline=None)
@given(words, st.integers(0, 2**16))
def test_state_is_the_product_of_transitions_in_any_order(word, seed):
    # diagonal, no bias: h_T = (λ_T ⋯ λ_1) ⊙ h_0, and the factors may be applied in any order
    m = _model(depth=3)
    x = torch.tensor([word])
    states = m.layer_states(x)
    order = np.random.default_rng(seed).permutation(len(word))
    h0s = [m.h0] + [layer.h0 for layer in m.layers]
    for (logmod, phase), y, h0 in zip(m.log_transitions(x), states, h0s):
        lam = torch.polar(torch.exp(logmod[0]), phase[0])          # (T, width)
        h = torch.complex(h0[0], h0[1])
        for t in order:
            h = lam[t] * h
        torch.testing.assert_close(torch.cat([h.real, h.imag]), y[0, -1], rtol=1e-11, atol=1e-13)


def test_parallel_scan_equals_the_recurrence():
    m = _model(depth=3)
    x = torch.randint(0, V, (4, 10), generator=torch.Generator().manual_seed(1))
    torch.testing.assert_close(m(x), m(x, mode="recurrent"), rtol=1e-11, atol=1e-13)


def test_coupling_makes_depth_two_order_dependent_and_its_removal_does_not():
    x = torch.tensor([[0, 1, 2, 3, 4], [4, 3, 2, 1, 0]])
    coupled, free = _model(coupling=True), _model(coupling=False)
    assert (coupled(x)[0, -1] - coupled(x)[1, -1]).abs().max() > 1e-6
    torch.testing.assert_close(free(x)[0, -1], free(x)[1, -1], rtol=1e-12, atol=1e-14)


def test_depth_one_equals_the_one_layer_abelian_model():
    torch.manual_seed(3)
    ab = AbelianStateModel(V, 3, width=4, hidden=8).double()
    deep = DeepAbelianModel(V, 3, depth=1, width=4, hidden=8).double()
    deep.load_state_dict(ab.state_dict())
    x = torch.randint(0, V, (5, 8), generator=torch.Generator().manual_seed(2))
    torch.testing.assert_close(deep(x), ab(x), rtol=0, atol=0)


def test_float64_and_gradients():
    m = _model()
    out = m(torch.tensor([[1, 2, 3]]))
    assert out.dtype == torch.float64 and out.shape == (1, 3, 3)
    out.sum().backward()
    assert all(p.grad is not None for p in m.parameters())


@pytest.mark.parametrize("kw,exc", [({"depth": 0}, ValueError), ({"width": 1.5}, ValueError),
                                    ({"coupling": 1}, TypeError)])
def test_bad_arguments(kw, exc):
    with pytest.raises(exc):
        DeepAbelianModel(V, 3, **kw)


@pytest.mark.parametrize("x,exc", [(torch.tensor([[0.5]]), TypeError), (torch.tensor([1, 2]), ValueError),
                                   (torch.tensor([[V]]), ValueError)])
def test_bad_tokens(x, exc):
    with pytest.raises(exc, match="tokens"):
        _model()(x)
    with pytest.raises(ValueError, match="mode"):
        _model().layer_states(torch.tensor([[0]]), mode="fast")

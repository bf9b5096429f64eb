"""Training steps skip the layers' non-finite checks only where that changes nothing
(models/nonfinite.py ``unchecked``, models/recipe.py ``checked_if_nonfinite``)."""
from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F

from seqtheory.models.model import MODEL_NAMES, ModelConfig, SequenceModel
from seqtheory.models.nonfinite import finite_stand_ins, is_checked, poison_after, unchecked
from seqtheory.models.recipe import checked_if_nonfinite


def _model(name: str, dtype=torch.float32) -> SequenceModel:
    torch.manual_seed(0)
    cfg = ModelConfig(name=name, vocab_size=5, n_out=3, depth=2, width=16, n_heads=2, d_state=4)
    return SequenceModel(cfg).to(dtype)


def _step(model: SequenceModel, x: torch.Tensor, y: torch.Tensor):
    """``(outputs, loss, gradients)`` of one forward/backward pass."""
    model.zero_grad(set_to_none=True)
    out = model(x)
    loss = F.cross_entropy(out.reshape(-1, out.shape[-1]), y.reshape(-1))
    loss.backward()
    return out.detach(), loss.detach(), [p.grad.clone() for p in model.parameters()]


@pytest.mark.parametrize("name", MODEL_NAMES)
def test_unchecked_layers_compute_exactly_the_checked_values(name):
    model = _model(name)
    g = torch.Generator().manual_seed(1)
    x, y = torch.randint(0, 5, (3, 40), generator=g), torch.randint(0, 3, (3, 40), generator=g)
    out, loss, grads = _step(model, x, y)
    with unchecked():
        out_u, loss_u, grads_u = _step(model, x, y)
    assert torch.equal(out, out_u) and torch.equal(loss, loss_u)
    assert all(torch.equal(a, b) for a, b in zip(grads, grads_u))


def _poisoned_model():
    model = _model("mamba", torch.float64)
    with torch.no_grad():
        model.embed.weight[4] = float("nan")        # token 4 gives a non-finite layer input
    x = torch.tensor([[0, 1, 2, 3, 1, 2, 4, 0, 1, 2, 3, 0]])
    return model, x


def test_a_nonfinite_step_is_recomputed_checked():
    model, x = _poisoned_model()
    checked = model(x).detach()
    assert torch.isfinite(checked[0, :6]).all() and torch.isnan(checked[0, 6:]).all()
    with unchecked():
        spread = model(x).detach()
    assert torch.isnan(spread[0, :6]).any()         # unchecked, NaN reaches earlier steps

    def forward():
        out = model(x)
        return out, out.sum()

    out, loss = checked_if_nonfinite(forward)
    torch.testing.assert_close(out.detach(), checked, rtol=0, atol=0, equal_nan=True)
    assert torch.isnan(loss) and is_checked()


def test_a_finite_step_runs_unchecked_once():
    calls = []

    def forward():
        calls.append(is_checked())
        t = torch.ones(2)
        return t, t.sum()

    out, loss = checked_if_nonfinite(forward)
    assert calls == [False] and float(loss) == 2.0 and is_checked()


def test_unchecked_nests_and_restores_on_error():
    t = torch.tensor([[[1.0, float("nan")]]]).reshape(1, 2, 1)
    with pytest.raises(RuntimeError):
        with unchecked():
            with unchecked():
                assert not is_checked()
            assert not is_checked()
            (s,), _, _, poisoned = finite_stand_ins((t,))
            assert poisoned is None and torch.equal(s.isnan(), t.isnan())
            assert poison_after(t, None) is t
            raise RuntimeError("leave the block")
    assert is_checked()
    (s,), _, _, poisoned = finite_stand_ins((t,))
    assert poisoned.tolist() == [[[False], [True]]] and not s.isnan().any()

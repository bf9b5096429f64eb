"""Planted mechanisms the inspector (models/inspector.py) must recover or call "cannot tell", never
"absent" (SPEC §3.4; issue 32 §3): a sign character under a common phase offset of 0.2–0.3π, a
two-channel relative-phase code and a product code that decode the sign at every one of 100 000
positions, a three-channel code (not searched: "cannot tell"), a perfect group ("none exists"),
and token collisions (the positive certificate that layer 1 does not separate two tokens)."""
from __future__ import annotations

import math

import numpy as np
import pytest
import torch
from hypothesis import example, given, settings
from hypothesis import strategies as st

from seqtheory.models import inspect
from seqtheory.models.abelian import AbelianStateModel
from seqtheory.models.inspector import remove_common_offset, token_collisions
from seqtheory.theory.groups import FiniteGroup

from test_inspect import _aussm_with_phases

N_DECODE = 100_000          # positions at which each planted code must decode the sign


def _sign(group: str) -> np.ndarray:
    """0/1 per element: the sign of S3 (odd = order 2), or for D8 the character with kernel the
    rotations C4 (a character of C2 × C2 = D8/D8′)."""
    G = FiniteGroup.named(group)
    if group == "S3":
        return np.array([int(G.element_order(g) == 2) for g in G.elements])
    N = G.subgroup_generated([next(g for g in G.elements if G.element_order(g) == 4)])
    return np.array([int(g not in N.elements) for g in G.elements])


def _abelian_model(phases: np.ndarray) -> AbelianStateModel:
    """The abelian model with transitions exp(iθ) per token and channel, |λ| = 1."""
    V, C = phases.shape
    m = AbelianStateModel(V, V, width=C)
    with torch.no_grad():
        m.log_decay.fill_(-1000.0)
        m.phase.copy_(torch.as_tensor(phases, dtype=torch.float32))
    return m


def _model_phases(m: AbelianStateModel) -> np.ndarray:
    """The phases the model actually holds (float32), in float64."""
    return m.phase.detach().double().numpy()


def _word_signs(sign: np.ndarray, n: int, seed: int = 7) -> tuple[np.ndarray, np.ndarray]:
    """A random word of ``n`` letters of the group and the parity of its odd letters per prefix
    (the sign of the prefix product: a character is a homomorphism)."""
    word = np.random.default_rng(seed).integers(0, len(sign), n)
    return word, np.cumsum(sign[word]) % 2


def _decodes(angle: np.ndarray, parity: np.ndarray) -> bool:
    """Every prefix's sign read off an accumulated angle: nearest of 0 and π."""
    return bool(np.all((np.abs(np.angle(np.exp(1j * angle))) > math.pi / 2) == parity.astype(bool)))


@pytest.mark.parametrize("offset_over_pi", [0.2, 0.25, 0.3])
def test_sign_under_a_common_offset_is_recovered(offset_over_pi):
    G = FiniteGroup.named("S3")
    sign = _sign("S3")
    rng = np.random.default_rng(1)
    phases = np.column_stack([rng.uniform(-np.pi, np.pi, 6), np.pi * sign + offset_over_pi * np.pi,
                              rng.uniform(-np.pi, np.pi, 6)])
    m = _abelian_model(phases)
    theta = _model_phases(m)[:, 1]
    word, parity = _word_signs(sign, N_DECODE)
    n = np.arange(1, N_DECODE + 1)
    assert _decodes(np.cumsum(theta[word]) - n * offset_over_pi * np.pi, parity)   # a position-aware readout
    layer = inspect(m, group=G).layers[0]
    ch = layer.channels[1]
    assert not ch.nontrivial_character                    # the per-channel test alone misses it
    assert layer.character_status == "found"
    (c,) = [c for c in layer.characters if c.channels == (1,)]
    assert c.kind == "offset" and c.root_index == tuple(3 * int(s) for s in sign)
    assert c.offset == pytest.approx(offset_over_pi * np.pi, abs=1e-6)
    A3 = tuple(sorted(G.index(g) for g in G.commutator_subgroup().elements))
    assert c.kernel == A3 and c.kernel_contains_next and c.quantised
    assert max(map(abs, c.phase_error)) < 1e-6
    assert "up to a common offset 0." in c.describe()


def test_d8_character_under_an_offset_is_recovered_in_a_restricted_layer():
    sign = _sign("D8")
    theta = np.column_stack([np.pi * sign + 0.27 * np.pi, np.full(8, 0.5)])
    layer = inspect(_aussm_with_phases(theta), group="D8").layers[0]
    assert layer.layer_class == "restricted" and layer.character_status == "found"
    (c,) = layer.characters
    assert c.kind == "offset" and c.channels == (0,) and c.image_order == 2
    assert c.root_index == tuple(2 * int(s) for s in sign) and c.kernel_contains_next


@pytest.mark.parametrize("kind", ["relative", "product"])
def test_two_channel_codes_are_recovered(kind):
    sign = _sign("S3")
    rng = np.random.default_rng(5)
    r = rng.uniform(-np.pi, np.pi, 6)
    b = r if kind == "relative" else 0.3 - r           # a − b = π·sign, or a + b = π·sign + 0.3
    phases = np.column_stack([rng.uniform(-np.pi, np.pi, 6), r + np.pi * sign, b])
    m = _abelian_model(phases)
    th = _model_phases(m)
    word, parity = _word_signs(sign, N_DECODE, seed=11)
    code = th[:, 1] - th[:, 2] if kind == "relative" else th[:, 1] + th[:, 2] - 0.3
    assert _decodes(np.cumsum(code[word]), parity)      # λ_a·conj(λ_b) or λ_a·λ_b, every position
    layer = inspect(m, group="S3").layers[0]
    assert not any(c.channels in ((1,), (2,)) for c in layer.characters)   # neither channel alone
    (c,) = [c for c in layer.characters if c.channels == (1, 2)]
    assert c.kind == kind and c.root_index == tuple(3 * int(s) for s in sign) and c.kernel_contains_next
    assert layer.characters == (c,) and ("−" if kind == "relative" else "+") in c.describe()
    ins = inspect(m, group="S3")
    assert ins.predicted_horizon is not None and "channels 1" in ins.prediction_note


def test_a_three_channel_code_is_reported_as_cannot_tell_never_absent():
    sign = _sign("S3")
    rng = np.random.default_rng(9)
    r, q = rng.uniform(-np.pi, np.pi, (2, 6))
    m = _abelian_model(np.column_stack([r + np.pi * sign, q, -r - q]))
    th = _model_phases(m)
    word, parity = _word_signs(sign, N_DECODE, seed=3)
    assert _decodes(np.cumsum(th.sum(axis=1)[word]), parity)      # λ_a λ_b λ_c carries the sign
    ins = inspect(m, group="S3")
    layer = ins.layers[0]
    assert layer.characters == () and layer.character_status == "cannot tell"
    assert "no evidence of absence" in layer.character_note()
    assert ins.predicted_horizon is None and "cannot tell" in ins.prediction_note
    assert ins.to_dict()["layers"][0]["character_status"] == "cannot tell"


def test_a_perfect_group_has_no_character_to_find():
    layer = inspect(_abelian_model(np.zeros((60, 2))), group="A5").layers[0]
    assert layer.perfect and layer.characters == () and layer.character_status == "none exists"


def test_random_phases_rarely_give_a_character():
    """The search (32 offset channels, 496 pairs × 2) on 40 layers of uniformly random phases: a
    chance hit is rare (measured: 1 of 40 S3 layers, 0 of 40 D8 layers at this seed)."""
    hits = {}
    for group, V in (("S3", 6), ("D8", 8)):
        hits[group] = sum(bool(inspect(_abelian_model(np.random.default_rng(s).uniform(-np.pi, np.pi, (V, 32))),
                                       group=group).layers[0].characters) for s in range(40))
    assert hits["S3"] <= 2 and hits["D8"] <= 2, hits


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["S3", "D8"]), st.floats(-math.pi, math.pi, allow_nan=False),
       st.lists(st.floats(-0.05, 0.05, allow_nan=False), min_size=8, max_size=8))
@example("S3", 0.25 * math.pi, [0.0] * 8)
@example("D8", -math.pi / 4, [0.0] * 8)            # an offset on the boundary between two roots
def test_remove_common_offset_recovers_the_character_and_the_offset(group, phi, noise):
    sign = _sign(group)
    G = FiniteGroup.named(group)
    e = G.exponent
    k_true = (e // 2) * sign
    theta = phi + 2 * np.pi * k_true / e + np.asarray(noise[:len(sign)])
    off, k, delta = remove_common_offset(theta, e, G.identity_index)
    assert tuple(k) == tuple(k_true)
    back = off + 2 * np.pi * k / e + delta
    assert np.allclose(np.exp(1j * back), np.exp(1j * theta), atol=1e-9)
    assert abs(np.angle(np.exp(1j * (off - phi - noise[G.identity_index])))) <= 0.1 + 1e-9


def test_remove_common_offset_input_checks():
    with pytest.raises(ValueError, match="finite"):
        remove_common_offset([np.nan, 0.0], 2)
    with pytest.raises(ValueError, match="identity"):
        remove_common_offset([0.0, 1.0], 2, identity=2)
    with pytest.raises(ValueError, match="exponent"):
        remove_common_offset([0.0, 1.0], 0)


def test_token_collisions_certify_tokens_layer_one_cannot_separate():
    sign = _sign("S3")
    even, odd = int(np.flatnonzero(sign == 0)[1]), int(np.flatnonzero(sign == 1)[0])
    phases = np.random.default_rng(2).uniform(-np.pi, np.pi, (6, 4))
    phases[odd] = phases[even]                         # an odd and an even token, one layer map
    layer = inspect(_abelian_model(phases), group="S3").layers[0]
    assert layer.token_collisions == (tuple(sorted((even, odd))),)
    lam = np.exp(1j * np.random.default_rng(4).uniform(-np.pi, np.pi, (6, 4)))
    assert token_collisions(lam, None) == ()
    bias = np.ones((6, 4, 2))
    bias[3] += 1e-3                                    # same λ for 0 and 3, other bias: apart
    lam[3] = lam[0]
    assert token_collisions(lam, bias) == ()
    bias[3] = bias[0] * (1 + 1e-9)
    assert token_collisions(lam, bias) == ((0, 3),)

"""The inspector (models/inspector.py): known phases recovered exactly, a trained parity run shows
the sign character on its signed layer, bad input named."""
from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
import torch
from hypothesis import example, given
from hypothesis import strategies as st

from seqtheory.models import inspect
from seqtheory.models.abelian import AbelianStateModel
from seqtheory.models.inspector import (affine_omega2_norm, character_table_test, nearest_roots,
                                        predicted_horizon, resolve_run)
from seqtheory.models.model import ModelConfig, SequenceModel
from seqtheory.models.store import ResultsStore
from seqtheory.models.train import TrainConfig, train
from seqtheory.numerics.reversal import omega2
from seqtheory.proofs_checks.trained_recipe import recipe
from seqtheory.theory.groups import FiniteGroup

DELTA = 0.04 * math.pi          # a known per-letter phase error: n·δ crosses π/2 at n = 12.5


def _sign(G: FiniteGroup) -> list[int]:
    """1 on the odd permutations of S3 (the elements of order 2), 0 else: the sign character."""
    return [int(G.element_order(g) == 2) for g in G.elements]


def _abelian_model(phases: np.ndarray) -> AbelianStateModel:
    """The abelian model with transitions exp(iθ) (modulus exactly 1 in float64)."""
    V, C = phases.shape
    m = AbelianStateModel(V, V, width=C)
    with torch.no_grad():
        m.log_decay.fill_(-1000.0)                   # softplus = 0 in float64: |λ| = 1
        m.phase.copy_(torch.as_tensor(phases, dtype=torch.float32))
    return m


def test_synthetic_sign_character_recovered_exactly():
    G = FiniteGroup.named("S3")
    sign = np.array(_sign(G))
    phases = np.stack([np.pi * sign + DELTA,       # sign character + known δ
                       np.full(6, np.pi),           # a letter counter: not a homomorphism
                       np.zeros(6)], axis=1)        # trivial
    res = inspect(_abelian_model(phases), group="S3")
    assert res.family == "abelian" and res.exponent == 6 and res.derived_series_orders == (6, 3, 1)
    (layer,) = res.layers
    assert layer.layer_class == "abelian" and layer.lie == ()
    ch, counter, triv = layer.channels
    assert ch.root_index == tuple(3 * s for s in sign)
    assert ch.hom_fraction == 1 and ch.image_order == 2 and ch.nontrivial_character
    A3 = tuple(sorted(G.index(g) for g in G.commutator_subgroup().elements))
    assert ch.kernel == A3 and ch.kernel_contains_next is True
    assert np.allclose(ch.phase_error, DELTA, atol=1e-6) and ch.quantised
    assert ch.horizon == 12 and res.predicted_horizon == 12
    assert counter.hom_fraction == Fraction(0) and counter.kernel is None
    assert not counter.is_homomorphism and layer.n_non_homomorphism == 1
    assert triv.is_homomorphism and triv.image_order == 1 and not triv.nontrivial_character
    assert layer.n_nontrivial == 1


def test_exact_roots_unit_modulus_have_no_crossing():
    G = FiniteGroup.named("S3")
    model = _abelian_model(np.zeros((6, 1))).double()     # float64: π is held to rounding
    with torch.no_grad():
        model.phase.copy_(torch.as_tensor(np.pi * np.array(_sign(G), dtype=float)[:, None]))
    res = inspect(model, group=G)
    c = res.layers[0].channels[0]
    assert c.nontrivial_character and c.horizon is None and c.horizon_unbounded
    assert res.predicted_horizon is None and res.predicted_unbounded


def test_d8_quotient_characters_and_non_normal_coset_map():
    G = FiniteGroup.named("D8")
    e = G.exponent
    rot = [g for g in G.elements if G.element_order(g) == 4]
    N = G.subgroup_generated(rot[:1])               # the rotations C4 ⊇ G′, normal of index 2
    in_N = np.array([g in N.elements for g in G.elements])
    refl = next(g for g in G.elements if G.element_order(g) == 2 and g not in N.elements)
    K = G.subgroup_generated([refl])                 # order 2, not normal
    in_K = np.array([g in K.elements for g in G.elements])
    assert not G.is_normal(K)
    phases = np.stack([np.where(in_N, 0.0, np.pi), np.where(in_K, 0.0, np.pi)], axis=1)
    res = inspect(_abelian_model(phases), group=G)
    good, bad = res.layers[0].channels
    assert good.root_index == tuple(int(v) for v in np.where(in_N, 0, e // 2))
    assert good.nontrivial_character and good.kernel == tuple(np.flatnonzero(in_N))
    assert good.kernel_contains_next                 # G′ ⊆ C4
    assert bad.hom_fraction < 1 and bad.kernel is None


def _aussm_with_phases(theta: np.ndarray) -> SequenceModel:
    """A one-layer AUSSM whose head h has the phase theta[token, h] on every token: one-hot
    embeddings (RMSNorm makes them √width·e_token) and phase rows of in_proj set to match."""
    V, H = theta.shape
    width = 8
    m = SequenceModel(ModelConfig(name="aussm", vocab_size=V, n_out=V, depth=1, width=width,
                                  n_heads=H, d_state=2))
    mix = m.blocks[0].mixer
    with torch.no_grad():
        m.embed.weight.copy_(torch.eye(V, width))
        rows = slice(mix.in_proj.out_features - H, mix.in_proj.out_features)
        mix.in_proj.weight[rows] = 0.0
        mix.in_proj.bias[rows] = 0.0
        mix.in_proj.weight[rows, :V] = torch.as_tensor(theta.T / math.sqrt(width), dtype=torch.float32)
    return m


def _wrap_pi(a):
    return np.angle(np.exp(1j * np.asarray(a)))


def test_synthetic_aussm_layer_recovers_phases_and_lie_algebra():
    G = FiniteGroup.named("S3")
    sign = np.array(_sign(G))
    theta = np.stack([np.pi * sign - DELTA, 2 * np.pi * np.arange(6) / 6], axis=1)
    res = inspect(_aussm_with_phases(theta), group="S3")
    layer = res.layers[0]
    assert layer.layer_class == "restricted" and len(layer.channels) == 2
    sgn, other = layer.channels
    scale = 1 / math.sqrt(8 * (1 / 8 + 1e-6))       # RMSNorm's eps 1e-6 shrinks √8·e_token
    assert np.allclose(sgn.phase, _wrap_pi(scale * theta[:, 0]), atol=1e-6)
    assert np.allclose(sgn.phase_error, _wrap_pi(scale * theta[:, 0] - np.pi * sign), atol=1e-6)
    assert np.allclose(sgn.modulus, 1.0)
    assert sgn.root_index == tuple(3 * s for s in sign) and sgn.nontrivial_character
    assert sgn.horizon == 12 and res.predicted_horizon == 12
    assert other.root_index == tuple(range(6)) and not other.is_homomorphism
    for lie in layer.lie:
        assert lie.tol == res.lie_tol and (lie.error is not None or lie.derived_length in (1, 2))


@given(st.lists(st.floats(-10, 10, allow_nan=False), min_size=1, max_size=12),
       st.sampled_from([1, 2, 3, 4, 6, 12, 60]))
@example([math.pi / 6], 12)                           # a tie between two roots
def test_nearest_roots_identity(theta, e):
    k, order, delta = nearest_roots(theta, e)
    assert np.all(np.abs(delta) <= np.pi / e + 1e-12)
    back = np.angle(np.exp(1j * (2 * np.pi * k / e + delta)))
    assert np.allclose(np.exp(1j * back), np.exp(1j * np.array(theta)), atol=1e-9)
    assert all(e % o == 0 and (kk * o) % e == 0 for kk, o in zip(k, order))


@given(st.lists(st.floats(-0.3, 0.3, allow_nan=False), min_size=1, max_size=8),
       st.floats(0.5, 1.0), st.integers(2, 6))
@example([DELTA] * 6, 1.0, 2)
@example([2.225073858507203e-309], 1.0, 2)             # a crossing beyond 2^53 letters
@example([0.0], 0.9999999999999999, 2)                 # a modulus crossing near 6e15 letters
def test_predicted_horizon_is_the_last_length_inside_the_margin(delta, r, m):
    mod = np.full(len(delta), r)
    h = predicted_horizon(delta, mod, m)
    d = np.asarray(delta)
    mean, sd = abs(d.mean()), d.std()

    def inside(n):
        return n * mean + math.sqrt(n) * sd < math.pi / m and n * math.log(r) > math.log(0.5)

    if h is None:
        assert inside(2 ** 53)
    else:
        assert (h == 0 or inside(h)) and not inside(h + 1)


def test_character_table_test_counts_products_exactly():
    C4 = FiniteGroup.cyclic(4).cayley_table()
    assert character_table_test(C4, [0, 1, 2, 3], 4) == (Fraction(1), 4, (0,))
    assert character_table_test(C4, [0, 2, 0, 2], 4) == (Fraction(1), 2, (0, 2))
    frac, _, _ = character_table_test(C4, [0, 1, 0, 0], 4)
    # χ(ab) = χ(a) + χ(b) fails exactly on the pairs with one or two factors = 1 whose sum differs
    assert frac == Fraction(sum((v[(a + b) % 4] - v[a] - v[b]) % 4 == 0
                                for v in [[0, 1, 0, 0]] for a in range(4) for b in range(4)), 16)
    with pytest.raises(ValueError, match="table"):
        character_table_test(C4, [0, 1], 4)


def test_affine_omega2_matches_the_magnus_term():
    rng = np.random.default_rng(3)
    ll = rng.normal(size=3) + 1j * rng.normal(size=3)
    c = rng.normal(size=(3, 2)) + 1j * rng.normal(size=(3, 2))
    word = [0, 2, 1, 1, 0, 2]
    mats = []
    for lx, cx in zip(ll, c):
        top = np.hstack([np.block([[lx.real * np.eye(2), -lx.imag * np.eye(2)],
                                   [lx.imag * np.eye(2), lx.real * np.eye(2)]]),
                         np.concatenate([cx.real, cx.imag])[:, None]])
        mats.append(np.vstack([top, np.zeros((1, 5))]))
    ref = np.array(omega2(mats, word), dtype=float)
    assert affine_omega2_norm(ll, c, word) == pytest.approx(np.linalg.norm(ref), rel=1e-12)


# ------------------------------------------------------------------------------------------------
# a trained parity run (the parity claim's recipe at tiny size) and bad input
# ------------------------------------------------------------------------------------------------
def parity_config() -> TrainConfig:
    """The parity claim's recipe (finding.parity_negative_eigenvalues: signed Mamba, one layer, T = 8) at tiny size:
    width 16, 300 steps, 128 held-out words of length 2T."""
    return TrainConfig(task="C2", model="signed_mamba", depth=1, seed=1,
                       **recipe(8, 300, width=16, n_test=128))


@pytest.fixture(scope="module")
def parity_store(tmp_path_factory):
    root = tmp_path_factory.mktemp("inspect-store")
    st = ResultsStore(root)
    train(parity_config(), store=st, device="cpu", threads=1)
    return root


def test_trained_parity_run_shows_the_sign_character(parity_store):
    cfg = parity_config()
    res = inspect(cfg.key[:8], results=parity_store)
    rec = ResultsStore(parity_store).get(cfg)
    assert res.run_key == cfg.key and res.measured_horizon == rec.result["test"]["max_len_90"]
    assert rec.result["test"]["seq_acc"] >= 0.9                       # the run learned parity
    (layer,) = res.layers
    signs = [c for c in layer.channels if c.root_index == (0, 1) and c.is_homomorphism]
    assert signs, [c.root_index for c in layer.channels]
    assert all(abs(d) < 1e-12 for c in signs for d in c.phase_error)   # real λ: exact phases
    assert res.predicted_horizon is not None and layer.lie


def test_bad_input_is_named(parity_store, tmp_path):
    st = ResultsStore(parity_store)
    key = parity_config().key
    wrong = ("0" if key[0] != "0" else "1") + key[1:12]
    with pytest.raises(ValueError, match="nearest keys: " + key[:12]):
        inspect(wrong, store=st)
    with pytest.raises(ValueError, match="non-empty"):
        resolve_run(st, " ")
    rot = TrainConfig(task="rotation_a5", model="signed_mamba", steps=1)
    assert st.claim(rot, "me")
    st.finish(rot, "me", {"test": {}})
    with pytest.raises(ValueError, match="not a word problem"):
        inspect(rot.key, store=st)
    tf = TrainConfig(task="S3", model="transformer", steps=1)
    assert st.claim(tf, "me")
    st.finish(tf, "me", {"test": {}})
    with pytest.raises(ValueError, match="supports"):
        inspect(tf.key[:10], store=st)
    fake = type("Fake", (), {"root": "fake", "runs": lambda self: [
        type("R", (), {"key": k, "status": "finished", "result": {}})() for k in ("ab12", "ab34")]})()
    with pytest.raises(ValueError, match="ambiguous: 2 keys"):
        resolve_run(fake, "AB")
    with pytest.raises(ValueError, match="holds no results store"):
        inspect(key[:8], results=tmp_path)
    with pytest.raises(ValueError, match="supports"):
        inspect(SequenceModel(ModelConfig(name="deltanet", vocab_size=6, n_out=6, width=8, n_heads=2)),
                group="S3")
    with pytest.raises(ValueError, match="group is required"):
        inspect(_abelian_model(np.zeros((6, 1))))
    with pytest.raises(ValueError, match="order 2 but the model has 6"):
        inspect(_abelian_model(np.zeros((6, 1))), group="C2")
    with pytest.raises(ValueError, match="phase_tol"):
        inspect(_abelian_model(np.zeros((6, 1))), group="S3", phase_tol=-1.0)
    with pytest.raises(TypeError, match="SequenceModel"):
        inspect(3.0, group="S3")

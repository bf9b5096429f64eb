"""Word-problem and rotation datasets: conventions, held-out splits, uniqueness, seeds."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from seqtheory.models.tasks import (DEFAULT_CONVENTION, RotationSpec, WordProblemSpec,
                                    make_rotation_task, make_word_problem, prefix_products,
                                    rotation_exp, rotation_log, so3_basis)
from seqtheory.theory.groups import FiniteGroup

S3 = FiniteGroup.named("S3")


def test_default_convention_is_left_and_stated():
    d = make_word_problem(WordProblemSpec("S3", train_length=4, n_train=50, n_test=20))
    assert DEFAULT_CONVENTION == "left" and d.metadata["convention"] == "left"
    assert "x_t * g_{t-1}" in d.metadata["convention_rule"]
    assert "none" in d.metadata["bos"]


def test_left_and_right_prefix_products_by_hand():
    G = S3
    rng = np.random.default_rng(0)
    w = rng.integers(0, 6, size=(5, 7))
    T, e = G.cayley_table(), G.identity_index
    L, R = prefix_products(T, w, e, "left"), prefix_products(T, w, e, "right")
    for n in range(5):
        gl = gr = G.identity
        for t in range(7):
            x = G.elements[w[n, t]]
            gl, gr = G.multiply(x, gl), G.multiply(gr, x)
            assert G.elements[L[n, t]] == gl and G.elements[R[n, t]] == gr
    assert (L != R).any()               # S3 is non-abelian: the conventions really differ


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(["S3", "D8", "Q8", "A4"]), st.lists(st.integers(0, 1000), min_size=1, max_size=12))
def test_right_on_word_equals_left_on_reversed_word(name, raw):
    G = FiniteGroup.named(name)
    w = np.array([[r % G.order for r in raw]])
    T, e = G.cayley_table(), G.identity_index
    assert prefix_products(T, w, e, "right")[0, -1] == prefix_products(T, w[:, ::-1], e, "left")[0, -1]


def test_splits_unique_held_out_and_deterministic():
    spec = WordProblemSpec("C2", train_length=8, n_train=200, n_test=100, seed=3)
    d = make_word_problem(spec)
    assert d.train_tokens.shape == (200, 8) and d.test_tokens.shape == (100, 16)
    assert len({r.tobytes() for r in d.train_tokens}) == 200
    assert len({r.tobytes() for r in d.test_tokens}) == 100
    train = {r.tobytes() for r in d.train_tokens}
    assert not any(r[:8].tobytes() in train for r in d.test_tokens)      # held out, prefixes too
    d2 = make_word_problem(spec)
    assert (d2.train_tokens == d.train_tokens).all() and (d2.test_labels == d.test_labels).all()
    d3 = make_word_problem(WordProblemSpec("C2", train_length=8, n_train=200, n_test=100, seed=4))
    assert (d3.train_tokens != d.train_tokens).any()
    # parity labels by hand
    assert (d.train_labels[:, -1] == d.train_tokens.sum(1) % 2).all() or \
        (d.train_labels[:, -1] == 1 - d.train_tokens.sum(1) % 2).all()


def test_impossible_request_raises():
    with pytest.raises(ValueError, match="distinct"):
        make_word_problem(WordProblemSpec("C2", train_length=3, n_train=9, n_test=1))
    with pytest.raises(ValueError, match="convention"):
        WordProblemSpec("S3", convention="middle")
    with pytest.raises(ValueError, match="unknown group"):
        make_word_problem(WordProblemSpec("Z7x", train_length=2, n_train=2, n_test=2))


def test_long_test_words_count_their_budget_exactly():
    # 6 ** 2048 overflows a float: S3 tested at 16T for T = 128 (the paper profile's length)
    d = make_word_problem(WordProblemSpec("S3", train_length=128, n_train=8, n_test=4,
                                          test_length=2048))
    assert d.test_tokens.shape == (4, 2048) and d.train_tokens.shape == (8, 128)
    with pytest.raises(ValueError, match="at most 4 available"):   # 2 ** 2 words of length 2
        make_word_problem(WordProblemSpec("C2", train_length=2, n_train=5, n_test=1))


def test_bos_policy():
    d = make_word_problem(WordProblemSpec("S3", train_length=4, n_train=20, n_test=5, bos=True))
    assert (d.train_tokens[:, 0] == 6).all() and (d.train_labels[:, 0] == S3.identity_index).all()
    assert d.vocab_size == 7 and d.n_classes == 6


def test_shuffled_labels_control_breaks_the_function():
    d = make_word_problem(WordProblemSpec("S3", train_length=6, n_train=300, n_test=10))
    s = d.with_shuffled_labels(0)
    assert (s.train_tokens == d.train_tokens).all() and (s.train_labels != d.train_labels).any()
    assert "shuffled" in s.metadata["labels"]


def test_rotation_log_exp_roundtrip():
    rng = np.random.default_rng(1)
    for _ in range(20):
        X = np.tensordot(rng.normal(size=3), so3_basis(), axes=1)
        R = rotation_exp(X)
        assert np.abs(rotation_exp(rotation_log(R)) - R).max() < 1e-10
    R = np.diag([-1.0, -1.0, 1.0])                       # angle π: axis chosen deterministically
    assert np.abs(rotation_exp(rotation_log(R)) - R).max() < 1e-12
    with pytest.raises(ValueError, match="rotation"):
        rotation_log(np.diag([1.0, 1.0, -1.0]))


def test_rotation_task_faithful_and_propagated():
    d = make_rotation_task(RotationSpec(train_length=5, n_train=40, n_test=10, start=(1, 1, 0)))
    assert d.metadata["audit"]["exact"]["is_homomorphism"]
    assert d.metadata["audit"]["exact"]["n_distinct"] == 60
    assert np.allclose(d.h0, np.array([1, 1, 0]) / np.sqrt(2))
    w = d.train_tokens[0]
    assert np.allclose(d.train_targets[0, -1], d.final_map(w) @ d.h0)
    assert np.allclose(np.linalg.norm(d.test_targets, axis=-1), 1.0)
    e = make_rotation_task(RotationSpec(train_length=5, n_train=40, n_test=10, eps=0.1))
    # exp(ε log R) -> identity as ε -> 0, and ε = 1 recovers R
    assert np.abs(e.matrices - np.eye(3)).max() < 0.1 * np.pi + 1e-12
    one = make_rotation_task(RotationSpec(train_length=3, n_train=5, n_test=2, eps=1.0))
    assert np.abs(one.matrices - d.matrices).max() < 1e-9
    with pytest.raises(ValueError, match="start"):
        RotationSpec(start=(0, 0, 0))
    with pytest.raises(ValueError, match="eps"):
        RotationSpec(eps=-0.1)


def test_audit_representation_reexport():
    from seqtheory.models import tasks
    from seqtheory.theory import representations
    assert tasks.audit_representation is representations.audit_representation


def test_specs_refuse_bool_seed():
    from seqtheory.models.tasks import WordProblemSpec
    with pytest.raises(ValueError, match="seed must be an int"):
        WordProblemSpec(group="C2", train_length=4, seed=True)

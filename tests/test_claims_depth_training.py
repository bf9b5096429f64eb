"""Claims of proofs_checks/claims/depth_training.py: the decision rules on synthetic evidence
(fast, default run), the cheap controls, and the trained checks in the quick profile (slow)."""
import numpy as np
import pytest
from controls import control_through_rule

from seqtheory.proofs_checks.claims import depth_training as dt
from seqtheory.proofs_checks.registry import Context, Verdict, get_claim

_S, _I, _R = Verdict.SUPPORTED, Verdict.INCONCLUSIVE, Verdict.REFUTED


def _ctx(tmp_path):
    return Context(seed=0, out_dir=tmp_path, results_dir=tmp_path / "results")


# ------------------------------------------------------------------ audit.task_identity
def test_task_identity_confirmed_and_h3_over_z2_detected(tmp_path):
    c = get_claim("audit.task_identity")
    out = c.check(_ctx(tmp_path))
    assert out.verdict == Verdict.CONFIRMED
    assert all(r["isomorphic_to_claimed"] for r in out.tables["identity"])
    ctl = control_through_rule(c, _ctx(tmp_path))
    assert ctl.rejected and "D8" in ctl.reason


def test_identity_rule():
    ok = {"task": "S3", "isomorphic_to_claimed": True}
    assert dt.identity_decide([ok])[0] == Verdict.CONFIRMED
    assert dt.identity_decide([ok, {"task": "H3", "isomorphic_to_claimed": False}])[0] == _R


def test_table_from_data_rejects_inconsistent_data():
    tok = np.array([[0, 1], [0, 1]])
    lab = np.array([[0, 1], [0, 0]])        # same word, two different products
    with pytest.raises(ValueError, match="contradict"):
        dt.table_from_data(tok, lab, 2, 0)
    with pytest.raises(ValueError, match="not observed"):
        dt.table_from_data(np.array([[1]]), np.array([[1]]), 2, 0)


# ------------------------------------------------------------------ decision rules
def test_parity_rule_counts():
    good = {"signed": [1.0, 1.0, 1.0, 1.0, 0.48], "positive": [0.0, 0.01, 0.0, 0.0, 0.0]}
    v, why, rates = dt.parity_decide(good)
    assert v == _S and rates["signed"]["successes"] == 4
    lo, hi = rates["signed"]["wilson95"]
    assert 0 < lo < 0.8 < hi < 1
    assert dt.parity_decide(dict(good, signed=[1.0, 1.0, 1.0, 0.5, 0.48]))[0] == _I   # 3/5
    assert dt.parity_decide(dict(good, positive=[1.0, 0.0, 0.0, 0.0, 0.0]))[0] == _I  # 1/5 positive
    assert dt.parity_decide(dict(good, positive=[1.0] * 5))[0] == _R
    assert dt.parity_decide({"signed": [0.995] * 3, "positive": [0.2] * 3})[0] == _S  # 3/3


def test_s3_rule():
    ev = {"abelian L=1": {"8T": [0.0, 0.0, 0.0]}, "aussm L=1": {"8T": [0.3, 0.5, 0.1]},
          "aussm L=2": {"8T": [0.95, 0.99, 0.92]}}
    assert dt.s3_decide(ev)[0] == _S
    assert dt.s3_decide(dict(ev, **{"aussm L=1": {"8T": [0.3, 0.95, 0.1]}}))[0] == _I
    assert dt.s3_decide(dict(ev, **{"aussm L=1": {"8T": [0.93, 0.95, 0.91]}}))[0] == _R
    assert dt.s3_decide(dict(ev, **{"aussm L=2": {"8T": [0.95, 0.5, 0.92]}}))[0] == _I
    assert dt.s3_decide(dict(ev, **{"abelian L=1": {"8T": [0.0, 0.95, 0.0]}}))[0] == _R


def _row(g, L, T, k, n=3):
    return {"group": g, "model": "aussm", "depth": L, "train_length": T, "successes": k, "seeds": n}


def test_word_problem_pattern_rule():
    quick = [_row("D8", 1, 4, 0), _row("D8", 2, 4, 3), _row("S3", 1, 4, 0), _row("S3", 2, 4, 3)]
    v, parts = dt.wp_pattern(quick)
    assert v == _S and parts["C"].startswith("not run") and parts["D"].startswith("not run")
    assert dt.wp_pattern(quick[:3] + [_row("S3", 2, 4, 1)])[0] == _I           # B not met
    assert dt.wp_pattern(quick[:2] + [_row("S3", 1, 4, 3), quick[3]])[0] == _R  # A violated
    assert dt.wp_pattern(quick[:2] + [_row("S3", 1, 4, 1), quick[3]])[0] == _I  # A not clean
    full = quick + [_row("S4", 2, 6, 0), _row("S4", 3, 6, 3),
                    _row("A5", 1, 2, 0), _row("A5", 2, 2, 3), _row("A5", 3, 2, 3),
                    _row("A5", 1, 4, 0), _row("A5", 2, 4, 0), _row("A5", 3, 4, 3)]
    assert dt.wp_pattern(full)[0] == _S
    flat_a5 = [r for r in full if not (r["group"] == "A5" and r["train_length"] == 4)] + \
        [_row("A5", 2, 4, 3)]
    assert dt.wp_pattern(flat_a5)[0] == _I                                      # A5 depth does not grow
    assert dt.wp_pattern(full[:4] + [_row("S4", 2, 6, 3), _row("S4", 3, 6, 3)])[0] == _I


def test_rotation_rule_is_per_seed():
    assert dt.mse_decreasing({1: [1.0, 1.1, 0.9], 2: [0.5, 0.6, 0.4]})[0] == _S
    assert dt.mse_decreasing({1: [0.2, 0.2, 0.2], 2: [0.5, 0.4, 0.6]})[0] == _R
    assert dt.mse_decreasing({1: [1.0, 1.0, 1.0], 2: [0.5, 1.0, 1.2]})[0] == _I
    same = [0.3, 0.2, 0.25]
    assert dt.mse_decreasing({1: same, 2: same})[0] == _I
    assert dt.mse_decreasing({1: [1.0, 1.1, 0.9], 2: [0.5, 0.6, 0.4]}, baseline=1.0)[0] == _S
    v, why = dt.mse_decreasing({1: [0.33, 0.34], 2: [0.32, 0.33]}, baseline=0.333)
    assert v == _I and "constant predictor" in why


def test_prop37_rule_monotone_growth():
    assert dt.prop37_decide({1: [3, 3, 4], 2: [6, 7, 6], 3: [10, 9, 12]})[0] == _S
    assert dt.prop37_decide({1: [10, 9, 12], 2: [6, 7, 6], 3: [3, 3, 4]})[0] == _R
    assert dt.prop37_decide({1: [3, 6, 4], 2: [4, 3, 6]})[0] == _I
    assert dt.prop37_decide({1: [4, 4, 4], 2: [4, 4, 4]})[0] == _I


def test_validate_heldout_detects_wrong_length():
    good = {"data": {"train_length": 8, "test_length": 16, "held_out": "yes"}, "test": {"test_length": 16}}
    assert dt.validate_heldout(good) == []
    bad = {"data": {"train_length": 8, "test_length": 8, "held_out": "yes"}, "test": {"test_length": 8}}
    assert dt.validate_heldout(bad)
    assert dt.validate_heldout(dict(good, data=dict(good["data"], test_length=32),
                                    test={"test_length": 32}), 4) == []


def test_thm32_alias_and_seeds_from_salts():
    assert get_claim("depth.thm3.2.trained") is get_claim("depth.thm3.2.abelian.trained")
    ctx = Context(seed=0)
    a = dt._parity_cfgs(ctx, "signed_mamba")
    assert len(a) == dt.PARITY_SEEDS and len({c.seed for c in a}) == dt.PARITY_SEEDS
    assert [c.seed for c in a] == [c.seed for c in dt._parity_cfgs(ctx, "signed_mamba")]
    assert len(dt._s3_cfgs(ctx, "aussm", 2)) >= 3
    assert len(dt._s3_cfgs(Context(seed=0, profile="full"), "aussm", 2)) >= 5


# ------------------------------------------------------------------ parity control (token task)
def test_token_task_labels_are_the_tokens_with_the_parity_split():
    from seqtheory.models.tasks import WordProblemSpec, make_token_task, make_word_problem
    from seqtheory.models.train import TrainConfig, build_task

    spec = WordProblemSpec(group="C2", train_length=8, n_train=64, n_test=64, seed=3)
    tok, wp = make_token_task(spec), make_word_problem(spec)
    assert np.array_equal(tok.train_tokens, wp.train_tokens)         # the words of parity
    assert np.array_equal(tok.test_tokens, wp.test_tokens)
    assert np.array_equal(tok.train_labels, tok.train_tokens)
    assert np.array_equal(tok.test_labels, tok.test_tokens)
    assert np.array_equal(tok.label(wp.test_tokens), wp.test_tokens)
    assert not np.array_equal(wp.test_labels, wp.test_tokens)        # parity's labels differ
    with pytest.raises(ValueError, match="letters"):
        tok.label(np.array([[0, 2]]))
    cfg = dt._token_cfgs(Context(seed=0), "mamba")[0]
    assert cfg.task == "C2.token" and cfg.steps == dt.PARITY_CONTROL_STEPS
    assert isinstance(build_task(cfg), type(tok))
    with pytest.raises(ValueError, match="task must be"):
        TrainConfig(task="C2.tokens", model="mamba")


def test_parity_control_plan_uses_both_arms_on_the_token_task():
    ctx = Context(seed=0)
    plan = dt._parity_plan(ctx, True)
    ctl = [c for c in plan if c.task == "C2.token"]
    assert {c.model for c in ctl} == {"signed_mamba", "mamba"}
    assert len(ctl) == 2 * dt.PARITY_SEEDS
    assert all(c.task == "C2" for c in dt._parity_plan(ctx, False))


def test_parity_rule_refutes_when_both_arms_succeed():
    """The control's expected evidence: both arms solve a task that needs no memory."""
    v, why, _ = dt.parity_decide({"signed": [1.0] * 5, "positive": [1.0] * 5})
    assert v == _R and "not needed" in why


# ------------------------------------------------------------------ trained, quick profile
TRAINED = ["depth.exp.parity", "depth.exp.s3_depth", "depth.exp.word_problems", "depth.exp.rotation",
           "depth.prop3.7.trained"]
# quick-profile verdicts allowed (seed 0): parity must decide; the others may be inconclusive at
# the quick scale (they say why), none may be refuted (depth.thm3.2.abelian.trained and
# depth.cor3.6.trained: tests/test_claims_depth_trained_abelian.py)
EXPECTED = {"depth.exp.parity": {_S}}


@pytest.mark.slow
@pytest.mark.parametrize("cid", TRAINED)
def test_trained_claims_quick(cid, tmp_path_factory):
    root = tmp_path_factory.getbasetemp() / "depth_training_store"
    ctx = Context(seed=0, out_dir=root, results_dir=root / "results")
    c = get_claim(cid)
    assert c.uses_training
    out = c.check(ctx)
    assert out.verdict in EXPECTED.get(cid, {_S, _I}), (cid, out.verdict, out.key_figure)
    assert out.figures
    ctl = control_through_rule(c, ctx)
    assert ctl.rejected, ctl.reason
    # a second run reads the store instead of retraining (no new run, no new training step)
    from seqtheory.models.store import ResultsStore
    st = ResultsStore(root / "results")
    before = {r.key: r.updated for r in st.runs()}
    assert c.check(ctx).key_figure == out.key_figure
    assert {r.key: r.updated for r in st.runs()} == before

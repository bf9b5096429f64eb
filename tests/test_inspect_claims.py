"""The inspector's claims (proofs_checks/claims/depth_phase_horizon.py, depth_abelian_tower.py) and
the shared reading of runs (proofs_checks/run_inspection.py): decision rules on synthetic
evidence that must pass and must fail, the controls' wrong variants through the rules, and the
plans (runs the profile already trains)."""
from __future__ import annotations

import math
import os

import numpy as np
import pytest

from seqtheory.proofs_checks import run_inspection as ri
from seqtheory.proofs_checks.claims import depth_abelian_tower as at
from seqtheory.proofs_checks.claims import depth_phase_horizon as ph
from seqtheory.proofs_checks.registry import Context, Verdict, get_claim, recording_decisions
from seqtheory.theory.groups import FiniteGroup


def _rows(pred, meas, test_length=64):
    return [{"predicted": p, "unbounded": False, "measured": m, "test_length": test_length}
            for p, m in zip(pred, meas)]


def test_horizon_rule_supports_a_prediction_that_ranks_and_scales():
    pred = [4, 6, 9, 12, 15, 20, 25, 30]
    v, why, stats = ph.horizon_decide(_rows(pred, [p + 1 for p in pred]))
    assert v is Verdict.SUPPORTED and stats["within_factor_share"] == 1.0, why
    assert stats["spearman_rho"] == pytest.approx(1.0)


def test_horizon_rule_refutes_an_inverted_prediction_and_waits_for_enough_runs():
    pred = [4, 6, 9, 12, 15, 20, 25, 30]
    v, why, _ = ph.horizon_decide(_rows(pred, list(reversed(pred))))
    assert v is Verdict.REFUTED, why
    v, why, stats = ph.horizon_decide(_rows(pred[:5], pred[:5]))
    assert v is Verdict.INCONCLUSIVE and "only 5" in why
    censored = _rows(pred, [64] * len(pred))           # every run perfect up to the test length
    v, why, stats = ph.horizon_decide(censored)
    assert v is Verdict.INCONCLUSIVE and stats["skipped"]["censored measurement (= test length)"] == 8
    with pytest.raises(ValueError, match="lacks"):
        ph.horizon_decide([{"predicted": 1}])


def test_horizon_rule_refines_a_prediction_that_ranks_but_misses_the_value():
    pred = [4, 6, 9, 12, 15, 20, 25, 30]
    v, why, stats = ph.horizon_decide(_rows(pred, [3 * p + 2 for p in pred]))   # (m+1) = 3 (p+1)
    assert v is Verdict.REFINED and stats["within_factor_share"] == 0.0, why
    assert stats["geometric_mean_ratio"] == pytest.approx(3.0) and "3 × (predicted + 1)" in why
    # one run within the factor out of 8 is still refined; 4 of 8 within is supported
    meas = [3 * p + 2 for p in pred[:7]] + [pred[7]]
    assert ph.horizon_decide(_rows(pred, meas))[0] is Verdict.REFINED
    meas = [p + 1 for p in pred[:4]] + [3 * p + 2 for p in pred[4:]]
    assert ph.horizon_decide(_rows(pred, meas))[0] is Verdict.SUPPORTED


def test_horizon_control_permutation_breaks_the_association():
    pred = [4, 6, 9, 12, 15, 20, 25, 30]
    rows = _rows(pred, [p + 1 for p in pred])
    with recording_decisions() as decided:
        v, why, _ = ph.horizon_decide(ph.permuted_predictions(rows, seed=12345))
    assert tuple(decided.verdicts_of("depth.exp.phase_horizon")) == (v,)
    assert v not in (Verdict.SUPPORTED, Verdict.REFINED), why
    p = ph.derangement(9, 3)
    assert sorted(p) == list(range(9)) and all(i != j for i, j in enumerate(p))


def _run(group: str, maps, acc=1.0):
    return {"group": group, "acc_at_T": acc, "exponent": FiniteGroup.named(group).exponent,
            "maps": maps}


def _sign_map() -> list[int]:
    G = FiniteGroup.named("S3")
    return [3 * int(G.element_order(g) == 2) for g in G.elements]


def _d8_map() -> list[int]:
    """A non-trivial character of D8 (rotations C4 ↦ 0, reflections ↦ 2 in Z/4)."""
    G = FiniteGroup.named("D8")
    N = G.subgroup_generated([next(g for g in G.elements if G.element_order(g) == 4)])
    return [0 if g in N.elements else 2 for g in G.elements]


def test_tower_rule_supports_characters_through_the_abelianisation_and_rejects_wrong_quotients():
    counter = [1] * 6                                  # a letter counter: not a homomorphism
    runs = [_run("S3", [_sign_map(), counter]) for _ in range(4)] + [_run("D8", [_d8_map()])]
    blocks = {g: at.quotient_blocks(g) for g in at.TOWER_GROUPS}
    v, why, stats = at.tower_decide(runs, blocks)
    assert v is Verdict.SUPPORTED and stats["non_homomorphism_channels"] == 4, why
    # the rate in the words of every trained claim (proofs_checks.rates.rate_text)
    assert why.startswith("5/5 [0.57, 1.00] of the fitted seeds (Wilson 95%) carry a non-trivial")
    for kind in ("non_normal", "trivial"):
        wrong = {g: at.quotient_blocks(g, kind) for g in at.TOWER_GROUPS}
        v, why, _ = at.tower_decide(runs, wrong)
        assert v is Verdict.REFUTED, (kind, why)      # no character is constant on those blocks


def test_tower_rule_counts_fitted_seeds_only():
    blocks = {g: at.quotient_blocks(g) for g in at.TOWER_GROUPS}
    unfit = [_run("S3", [_sign_map()], acc=0.5) for _ in range(5)]
    v, why, _ = at.tower_decide(unfit, blocks)
    assert v is Verdict.INCONCLUSIVE and "no run" in why
    few = [_run("S3", [[0] * 6]) for _ in range(3)]    # trivial characters, 3 fitted seeds
    v, why, _ = at.tower_decide(few, blocks)
    assert v is Verdict.INCONCLUSIVE and "refuting" in why


def test_tower_rule_refutes_when_the_interval_lies_below_the_stated_share():
    blocks = {g: at.quotient_blocks(g) for g in at.TOWER_GROUPS}
    trivial = [0] * 6
    two_of_eight = [_run("S3", [_sign_map()]) for _ in range(2)] + \
        [_run("S3", [trivial]) for _ in range(6)]
    v, why, stats = at.tower_decide(two_of_eight, blocks)
    assert v is Verdict.REFUTED and stats["rate"]["wilson95"][1] < 0.8, why   # [0.07, 0.59]
    six_of_eight = [_run("S3", [_sign_map()]) for _ in range(6)] + \
        [_run("S3", [trivial]) for _ in range(2)]
    v, why, stats = at.tower_decide(six_of_eight, blocks)           # 6/8 [0.41, 0.93]
    assert v is Verdict.INCONCLUSIVE and stats["rate"]["wilson95"][1] >= 0.8, why


def test_quotient_blocks():
    assert at.quotient_blocks("S3") == [[0, 2, 5], [1, 3, 4]]            # cosets of A3
    assert at.quotient_blocks("S3", "trivial") == [list(range(6))]
    G = FiniteGroup.named("S3")
    H = [G.element(i) for i in at.quotient_blocks("S3", "non_normal")[0]]
    assert len(H) == 2 and not G.is_normal(H)
    with pytest.raises(ValueError, match="kind"):
        at.quotient_blocks("S3", "other")
    with pytest.raises(ValueError, match="non-normal"):
        at.quotient_blocks("C2", "non_normal")


def test_plans_reuse_the_source_claims_runs():
    ctx = Context(seed=0, profile="quick")
    source = {c.key for cid in ri.SOURCE_CLAIMS for c in get_claim(cid).plan(ctx, False)}
    horizon = get_claim("depth.exp.phase_horizon").plan(ctx, True)
    tower = get_claim("depth.exp.abelian_tower").plan(ctx, True)
    assert horizon and {c.key for c in horizon} <= source
    assert len({c.key for c in horizon}) == len(horizon)
    assert tower and {c.key for c in tower} <= {c.key for c in horizon}
    assert all(c.depth == 2 and c.task in ("S3", "D8") and c.model == "aussm" for c in tower)
    assert not any(c.is_rotation or c.shuffle_labels for c in horizon)
    assert math.isclose(ph.FACTOR, 2.0) and np.isclose(ph.WITHIN_SHARE, 0.5)


def test_inspection_pictures_and_character_rows():
    """The notebook's pictures (proofs_checks/inspect_figures.py) on a synthetic sign character."""
    import matplotlib.pyplot as plt
    import torch

    from seqtheory.models import inspect
    from seqtheory.models.abelian import AbelianStateModel
    from seqtheory.proofs_checks.inspect_figures import character_rows, horizon_figure, unit_circle_figure

    G = FiniteGroup.named("S3")
    m = AbelianStateModel(6, 6, width=2)
    with torch.no_grad():
        m.log_decay.fill_(-1000.0)
        m.phase[:, 0] = torch.tensor([np.pi * (G.element_order(g) == 2) for g in G.elements])
        m.phase[:, 1] = 0.0
    ins = inspect(m, group=G)
    rows = character_rows(ins)
    assert rows[0]["map"].startswith("coset of G′") and [rows[0][str(i)] for i in range(6)] == [0, 1, 0, 1, 1, 0]
    assert [rows[1][str(i)] for i in range(6)] == [0, 3, 0, 3, 3, 0] and rows[1]["homomorphism"] == "yes"
    fig = unit_circle_figure(ins)
    assert len(fig.axes) == 1 and len(fig.axes[0].collections) == 3       # roots + 2 channels
    plt.close(fig)
    fig = horizon_figure([dict(r, task="S3") for r in _rows([3, 5, None], [2, 64, 7])])
    assert fig.axes[0].get_xscale() == "log" and "2 runs" in fig.axes[0].get_title()
    plt.close(fig)


# ------------------------------------------------------------------------------------------------
# the inspector's summary in the evidence of depth.exp.parity, s3_depth and word_problems
# ------------------------------------------------------------------------------------------------
def _tiny(task: str, model: str, seed: int = 1):
    from seqtheory.models.train import TrainConfig

    return TrainConfig(task=task, model=model, depth=1, seed=seed, train_length=8, steps=8,
                       width=8, n_heads=2, d_state=4, batch_size=4, n_train=16, n_test=8,
                       fresh_words=True, curriculum_steps=2, curriculum_start=2)


def test_inspector_summary_rows_on_tiny_stored_runs(tmp_path):
    """Two tiny runs trained into a fresh store: a diagonal one (signed Mamba, parity) is read
    by the inspector, a transformer is not (and its row says so)."""
    from seqtheory.models.inspector import inspect
    from seqtheory.models.store import ResultsStore
    from seqtheory.models.train import load_model, train

    ctx = Context(seed=0, profile="quick", results_dir=tmp_path)
    cfgs = [_tiny("C2", "signed_mamba"), _tiny("S3", "transformer")]
    st = ResultsStore(tmp_path)
    for c in cfgs:                                           # stored before the summary reads them
        train(c, store=st, device="cpu", threads=1)
    rows = ri.inspector_summary(ctx, cfgs)
    assert [tuple(r) for r in rows] == [ri.SUMMARY_FIELDS] * 2
    seen, skipped = rows
    assert seen["inspected"] and not skipped["inspected"]
    assert seen["key"] == cfgs[0].key[:12] and (seen["task"], seen["model"], seen["depth"]) == ("C2", "signed_mamba", 1)
    assert "transformer" in skipped["prediction_note"] and skipped["channel"] is None
    assert skipped["measured"] is not None                  # the run's own measurement is kept
    ins = inspect(load_model(cfgs[0], st), group="C2", run_result=st.result(cfgs[0]), lie=False)
    ch = ins.layers[0].channels[seen["channel"]]
    assert seen["max_abs_delta_over_pi"] == pytest.approx(max(map(abs, ch.phase_error)) / math.pi)
    assert seen["predicted"] == ins.predicted_horizon and seen["measured"] == ins.measured_horizon
    assert seen["homomorphism"] in ("yes", "yes, trivial") or seen["homomorphism"].startswith("no (")
    toks = sorted(int(t) for part in seen["classes"].split(" | ") for t in part.split(": ")[1].split())
    assert toks == [0, 1]                                    # every token in one class
    note = ri.inspector_note(rows)
    assert "1/1" in note or "0/1" in note
    assert "1 run not inspected" in note


def test_a_stored_run_is_inspected_once_until_its_checkpoint_changes(tmp_path, monkeypatch):
    """The phase-horizon check, its control and the source claims' tables read the same runs:
    the inspection of a stored run is made once per process, and made again when its checkpoint
    (or its stored result, or the store) differs."""
    import seqtheory.models.training as mt
    from seqtheory.models.store import ResultsStore

    st = ResultsStore(tmp_path)
    cfg = _tiny("C2", "signed_mamba")
    mt.train(cfg, store=st, device="cpu", threads=1)
    loads = []
    real_load = mt.load_model
    monkeypatch.setattr(mt, "load_model", lambda c, s, **kw: loads.append(c.key) or real_load(c, s, **kw))
    r = st.result(cfg)
    first = ri._inspect_run(st, cfg, r)
    assert ri._inspect_run(st, cfg, r) is first and len(loads) == 1
    ck = st.checkpoint_path(cfg)
    ck.write_bytes(ck.read_bytes())                       # the same weights, a new file
    os.utime(ck, ns=(ck.stat().st_atime_ns, ck.stat().st_mtime_ns + 10**9))
    again = ri._inspect_run(st, cfg, r)
    assert len(loads) == 2 and again is not first and again == first
    ri._inspect_run(st, cfg, dict(r, final_loss=-1.0))    # another stored result: read again
    assert len(loads) == 3


def test_inspector_note_counts_characters_and_predictions():
    base = dict.fromkeys(ri.SUMMARY_FIELDS)
    rows = [dict(base, inspected=True, homomorphism="yes", factors_through_abelianisation="yes",
                 max_abs_delta_over_pi=d, predicted=p, unbounded=False, measured=m)
            for d, p, m in [(0.01, 10, 12), (0.03, 20, 18), (0.02, None, 5)]]
    rows[2].update(homomorphism="no (5/6 of products)", factors_through_abelianisation=None)
    note = ri.inspector_note(rows)
    assert "in 2/3 runs (2 factoring through G/G′)" in note and "0.02·π" in note
    assert "finite in 2 (median 15 letters vs measured max_len_90 median 15)" in note
    assert "none in 1" in note and "not inspected" not in note
    assert "1 run, none could be inspected" in ri.inspector_note([dict(base, inspected=False)])


@pytest.mark.parametrize("cid", ri.SOURCE_CLAIMS)
def test_source_claims_carry_the_inspector_table(cid, monkeypatch, tmp_path):
    """The three claims, their training replaced by fake results and freshly initialised models,
    put the inspector's rows in table 'inspector' and its sentence in the notes."""
    import torch

    import seqtheory.models.training as mt
    from seqtheory.proofs_checks import training_runs as tr

    from test_training_runs import _fake_result

    def fake_load_model(cfg, store, device="cpu"):
        torch.manual_seed(0)
        return mt.build_model(cfg, mt.task_shape(cfg))

    monkeypatch.setattr(tr, "train_all", lambda ctx, configs, **kw: {})
    monkeypatch.setattr(mt, "train", lambda cfg, **kw: _fake_result(cfg))
    monkeypatch.setattr(mt, "load_model", fake_load_model)
    out = get_claim(cid).check(Context(seed=0, profile="quick", results_dir=tmp_path))
    rows = out.tables["inspector"]
    assert rows and all(tuple(r) == ri.SUMMARY_FIELDS and r["inspected"] for r in rows)
    assert len({r["key"] for r in rows}) == len(rows)
    assert "inspector (layer 1" in out.notes


def test_horizon_rule_p_value_is_exact_at_small_n():
    # n = 6 at rho = 0.771 (sum d^2 = 8): scipy's t approximation gives p = 0.036, the exact
    # permutation p is 52/720 = 0.051 -> not significant, so neither supported nor refined
    rho, p = ph.spearman_one_sided([0, 1, 2, 3, 4, 5], [2, 1, 0, 3, 4, 5])
    assert rho == pytest.approx(27 / 35) and p == pytest.approx(37 / 720)
    pred = [4, 6, 9, 12, 15, 20]
    meas = [3 * p + 2 for p in (pred[2], pred[1], pred[0], *pred[3:])]
    v, why, stats = ph.horizon_decide(_rows(pred, meas))
    assert v is Verdict.INCONCLUSIVE and stats["p_one_sided"] > ph.ALPHA, why
    # one swap of neighbours (rho = 0.829) has exact p = 21/720 < 0.05: refined
    meas = [3 * p + 2 for p in (pred[1], pred[0], *pred[2:])]
    assert ph.horizon_decide(_rows(pred, meas))[0] is Verdict.REFINED
    # ties: midranks, p from the pairings of the tied ranks
    rho, p = ph.spearman_one_sided([1, 1, 2, 3, 4, 5, 6], [1, 2, 2, 3, 5, 4, 6])
    assert 0 < p < 0.05 and rho > 0.8


@pytest.mark.parametrize("field, value, exc", [
    ("predicted", -1, ValueError),            # was ZeroDivisionError in the factor test
    ("predicted", -3, ValueError),            # was refined with a NaN geometric mean
    ("predicted", float("nan"), TypeError),   # was inconclusive with rho = nan
    ("predicted", True, TypeError),
    ("measured", float("nan"), TypeError),    # was silently counted as censored
    ("measured", -5, ValueError),
    ("test_length", 0, ValueError),
    ("unbounded", "no", TypeError)])
def test_horizon_rule_rejects_bad_rows(field, value, exc):
    pred = [4, 6, 9, 12, 15, 20, 25, 30]
    rows = _rows(pred, [3 * p + 2 for p in pred], test_length=128)
    rows[0][field] = value
    with pytest.raises(exc, match=r"rows\[0\]"):
        ph.horizon_decide(rows)


def test_horizon_rule_rejects_an_unbounded_row_with_a_finite_prediction():
    pred = [4, 6, 9, 12, 15, 20, 25, 30]
    rows = _rows(pred, [p + 1 for p in pred])
    rows[1]["unbounded"] = True            # was both used and counted as skipped
    with pytest.raises(ValueError, match=r"rows\[1\] is unbounded"):
        ph.horizon_decide(rows)


def test_tower_scale_text_names_every_family():
    from types import SimpleNamespace as NS
    cfgs = [NS(model=m, train_length=T, steps=600, width=32) for m, T in (("aussm", 4), ("gla", 8))]
    text = at._scale_text(cfgs)
    assert "aussm/gla run" in text and "training length 4/8" in text, text   # named aussm only before
    assert at._scale_text([]) == "no runs"


@pytest.mark.parametrize("k, n, verdict", [
    (0, 5, Verdict.REFUTED), (1, 5, Verdict.REFUTED), (2, 5, Verdict.REFUTED),    # upper 0.43 .. 0.77
    (3, 5, Verdict.INCONCLUSIVE), (4, 5, Verdict.SUPPORTED),                       # 3/5: upper 0.88
    (0, 4, Verdict.INCONCLUSIVE),                                                  # < MIN_FITTED_REFUTE
    (5, 10, Verdict.REFUTED), (6, 10, Verdict.INCONCLUSIVE), (8, 10, Verdict.SUPPORTED)])
def test_tower_rule_boundaries_as_the_docstring_states(k, n, verdict):
    blocks = {g: at.quotient_blocks(g) for g in at.TOWER_GROUPS}
    runs = [_run("S3", [_sign_map()]) for _ in range(k)] + [_run("S3", [[0] * 6]) for _ in range(n - k)]
    v, why, _ = at.tower_decide(runs, blocks)
    assert v is verdict, why


@pytest.mark.parametrize("change, match", [
    ({"group": "A4"}, r"runs\[0\]\['group'\] = 'A4' has no blocks"),     # was KeyError
    ({"maps": None}, r"runs\[0\] lacks 'maps'"),                           # was KeyError
    ({"acc_at_T": float("nan")}, r"acc_at_T"),                             # was "no run fits"
    ({"acc_at_T": 1.5}, r"acc_at_T")])
def test_tower_rule_rejects_bad_runs(change, match):
    blocks = {g: at.quotient_blocks(g) for g in at.TOWER_GROUPS}
    run = {**_run("S3", [_sign_map()]), **change}
    run = {k: v for k, v in run.items() if v is not None}
    with pytest.raises(ValueError, match=match):
        at.tower_decide([run], blocks)

"""The inspector's claims (proofs_checks/claims/finding_phase_horizon.py, finding_abelian_tower.py) and
the shared reading of runs (proofs_checks/run_inspection.py): decision rules on synthetic
evidence that must pass and must fail, the controls' wrong variants through the rules, and the
plans (runs the profile already trains)."""
from __future__ import annotations

import math
import os

import numpy as np
import pytest

from seqtheory.proofs_checks import run_inspection as ri
from seqtheory.proofs_checks.claims import finding_abelian_tower as at
from seqtheory.proofs_checks.claims import finding_phase_horizon as ph
from seqtheory.proofs_checks.registry import Context, Verdict, get_claim, recording_decisions
from seqtheory.theory.groups import FiniteGroup


def _rows(pred, meas, test_length=64, task="S3", blocks=("A", "B")):
    """Horizon rows, alternating between the seed blocks (seed index = position)."""
    return [{"task": task, "predicted": p, "unbounded": False, "measured": m, "test_length": test_length,
             "layer_class": "restricted", "block": blocks[i % len(blocks)], "seed_pos": i}
            for i, (p, m) in enumerate(zip(pred, meas))]


PRED = [4, 6, 9, 12, 15, 20, 25, 30]


def test_horizon_rule_supports_predictions_within_the_factor_in_both_blocks():
    v, why, stats = ph.horizon_decide(_rows(PRED, [p + 1 for p in PRED]))
    assert v is Verdict.SUPPORTED, why
    assert stats["A"]["stats"]["S3"]["within"]["successes"] == 4 and stats["B"]["verdict"] == "supported"
    assert "supported in each of 2 disjoint seed blocks" in why


def test_horizon_rule_refutes_predictions_far_off_and_waits_for_enough_runs():
    v, why, _ = ph.horizon_decide(_rows(PRED, [3 * p + 2 for p in PRED]))    # (m+1) = 3 (p+1)
    assert v is Verdict.REFUTED, why
    v, why, _ = ph.horizon_decide(_rows(PRED[:4], [3 * p + 2 for p in PRED[:4]]))   # 2 usable per block
    assert v is Verdict.INCONCLUSIVE and "needs ≥ 3" in why
    with pytest.raises(ValueError, match="lacks"):
        ph.horizon_decide([{"predicted": 1}])


def test_horizon_rule_decides_per_task_not_pooled():
    """A task whose measurements miss its predictions refutes, whatever the other tasks do (the
    pooled rank test hid D8, where the largest prediction had the smallest measurement)."""
    good = _rows(PRED, [p + 1 for p in PRED], task="S3")
    d8 = _rows([5, 8, 12, 18, 27, 40], [60, 41, 30, 20, 10, 4], task="D8")
    v, why, stats = ph.horizon_decide(good + d8)
    assert v is Verdict.REFUTED and "D8" in why, why
    assert stats["A"]["stats"]["S3"]["within"]["rate"] == 1.0
    assert stats["A"]["stats"]["D8"]["within"]["successes"] <= 1


def test_horizon_rule_uses_censored_runs_only_when_they_decide():
    censored = _rows(PRED, [64] * len(PRED))           # every run perfect up to the test length
    v, why, stats = ph.horizon_decide(censored)
    # every prediction 4..30 is more than 2× below the test length: certain misses
    assert stats["A"]["stats"]["S3"]["usable"] + stats["B"]["stats"]["S3"]["usable"] == 8
    assert v is Verdict.REFUTED, why
    reach = _rows([40, 50, 60, 70, 80, 90], [64] * 6)
    v, why, stats = ph.horizon_decide(reach)
    assert v is Verdict.INCONCLUSIVE and stats["A"]["stats"]["S3"]["usable"] == 0, why


def test_horizon_rule_never_counts_runs_without_a_prediction():
    rows = _rows([None] * 8, [3] * 8)
    v, why, stats = ph.horizon_decide(rows)
    assert v is Verdict.INCONCLUSIVE and stats["A"]["stats"]["S3"]["skipped"][
        "no prediction (no layer-1 character read)"] == 4, why


def test_horizon_rule_needs_both_blocks_to_agree():
    rows = _rows(PRED, [p + 1 for p in PRED[:4]] + [3 * p + 2 for p in PRED[4:]], blocks=("A",) * 4 + ("B",) * 4)
    for i, r in enumerate(rows):
        r["block"], r["seed_pos"] = ("A" if i < 4 else "B"), i
    v, why, stats = ph.horizon_decide(rows)
    assert v is Verdict.INCONCLUSIVE and "disagree" in why, why
    assert (stats["A"]["verdict"], stats["B"]["verdict"]) == ("supported", "refuted")
    v, why, _ = ph.horizon_decide(_rows(PRED, [p + 1 for p in PRED], blocks=("A",)))
    assert v is Verdict.INCONCLUSIVE and "one seed block" in why


def test_horizon_control_permutation_breaks_the_association():
    pred = [4, 9, 15, 30, 60, 120, 240, 480]
    rows = _rows(pred, [p + 1 for p in pred], test_length=4096)
    with recording_decisions() as decided:
        v, why, _ = ph.horizon_decide(ph.permuted_predictions(rows, seed=12345))
    assert tuple(decided.verdicts_of("finding.phase_horizon")) == (v,)
    assert v is not Verdict.SUPPORTED, why
    p = ph.derangement(9, 3)
    assert sorted(p) == list(range(9)) and all(i != j for i, j in enumerate(p))


def _run(group: str, maps, acc=1.0, collisions=(), block="A", seed_pos=0):
    return {"group": group, "acc_at_T": acc, "exponent": FiniteGroup.named(group).exponent,
            "maps": maps, "collisions": [list(c) for c in collisions], "block": block,
            "seed_pos": seed_pos}


def _sign_map() -> list[int]:
    G = FiniteGroup.named("S3")
    return [3 * int(G.element_order(g) == 2) for g in G.elements]


def _d8_map() -> list[int]:
    """A non-trivial character of D8 (rotations C4 ↦ 0, reflections ↦ 2 in Z/4)."""
    G = FiniteGroup.named("D8")
    N = G.subgroup_generated([next(g for g in G.elements if G.element_order(g) == 4)])
    return [0 if g in N.elements else 2 for g in G.elements]


COSETS = {g: at.quotient_blocks(g) for g in at.TOWER_GROUPS}
ACROSS = {"S3": (0, 1), "D8": tuple(b[0] for b in at.quotient_blocks("D8")[:2])}   # different cosets of G′


def _both(runs_of):
    """Runs of both groups in both seed blocks: ``runs_of(group, block)`` → runs."""
    out = []
    for g in at.TOWER_GROUPS:
        for b in ("A", "B"):
            out += [dict(r, seed_pos=(0 if b == "A" else 10) + i) for i, r in enumerate(runs_of(g, b))]
    return out


def _char(g):
    return _sign_map() if g == "S3" else _d8_map()


def test_tower_rule_supports_characters_through_the_abelianisation_and_rejects_wrong_quotients():
    counter = {"S3": [1] * 6, "D8": [1] * 8}                  # letter counters: not homomorphisms
    runs = _both(lambda g, b: [_run(g, [_char(g), counter[g]], block=b) for _ in range(3)])
    v, why, stats = at.tower_decide(runs, COSETS)
    assert v is Verdict.SUPPORTED, why
    assert stats["A"]["stats"]["S3"]["carrying"]["successes"] == 3
    for kind in ("non_normal", "trivial"):
        wrong = {g: at.quotient_blocks(g, kind) for g in at.TOWER_GROUPS}
        v, why, _ = at.tower_decide(runs, wrong)
        assert v is Verdict.INCONCLUSIVE, (kind, why)   # no character constant on those blocks


def test_no_character_found_never_refutes():
    """Issue 32 §3: 'no layer-1 channel is a homomorphism' is absence of evidence. Ten fitted
    seeds per group and block where the inspector finds nothing: inconclusive (the old rule
    refuted)."""
    runs = _both(lambda g, b: [_run(g, [], block=b) for _ in range(10)])
    v, why, stats = at.tower_decide(runs, COSETS)
    assert v is Verdict.INCONCLUSIVE, why
    assert stats["A"]["stats"]["S3"]["certified_absent"] == 0 and "10 cannot tell" in why


def test_token_collisions_across_cosets_refute_and_within_a_coset_do_not():
    runs = _both(lambda g, b: [_run(g, [], collisions=[ACROSS[g]], block=b) for _ in range(3)])
    v, why, stats = at.tower_decide(runs, COSETS)
    assert v is Verdict.REFUTED and stats["B"]["stats"]["D8"]["certified_absent"] == 3, why
    within = {"S3": (0, 2), "D8": tuple(at.quotient_blocks("D8")[0][:2])}      # same coset of G′
    runs = _both(lambda g, b: [_run(g, [], collisions=[within[g]], block=b) for _ in range(3)])
    assert at.tower_decide(runs, COSETS)[0] is Verdict.INCONCLUSIVE


@pytest.mark.parametrize("carry, absent, n, verdict", [
    (3, 0, 3, Verdict.SUPPORTED), (2, 0, 3, Verdict.INCONCLUSIVE), (0, 3, 3, Verdict.REFUTED),
    (0, 2, 3, Verdict.REFUTED), (1, 1, 3, Verdict.INCONCLUSIVE),          # not absent 1/3: upper 0.79
    (0, 2, 2, Verdict.INCONCLUSIVE),                                       # < MIN_FITTED_REFUTE
    (0, 2, 4, Verdict.INCONCLUSIVE), (0, 3, 4, Verdict.REFUTED), (4, 0, 5, Verdict.SUPPORTED),
    (0, 3, 5, Verdict.REFUTED), (2, 2, 5, Verdict.INCONCLUSIVE), (0, 4, 6, Verdict.REFUTED)])
def test_tower_rule_boundaries_as_the_docstring_states(carry, absent, n, verdict):
    def runs(g, b):
        return ([_run(g, [_char(g)], block=b) for _ in range(carry)]
                + [_run(g, [], collisions=[ACROSS[g]], block=b) for _ in range(absent)]
                + [_run(g, [], block=b) for _ in range(n - carry - absent)])
    v, why, _ = at.tower_decide(_both(runs), COSETS)
    assert v is verdict, why


def test_tower_rule_counts_fitted_seeds_only_and_each_group_is_a_part():
    unfit = _both(lambda g, b: [_run(g, [_char(g)], acc=0.5, block=b) for _ in range(5)])
    v, why, _ = at.tower_decide(unfit, COSETS)
    assert v is Verdict.INCONCLUSIVE and "no run" in why
    s3_only = _both(lambda g, b: [_run(g, [_char(g)], acc=1.0 if g == "S3" else 0.5, block=b)
                                  for _ in range(3)])
    v, why, _ = at.tower_decide(s3_only, COSETS)
    assert v is Verdict.INCONCLUSIVE and "D8: inconclusive (no run" in why and "S3: supported" in why, why


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
    horizon = get_claim("finding.phase_horizon").plan(ctx, True)
    tower = get_claim("finding.abelian_tower").plan(ctx, True)
    assert horizon and {c.key for c in horizon} <= source
    assert len({c.key for c in horizon}) == len(horizon)
    assert tower and {c.key for c in tower} <= {c.key for c in horizon}
    assert all(c.depth == 2 and c.task in ("S3", "D8") and c.model == "aussm" for c in tower)
    assert not any(c.is_rotation or c.shuffle_labels for c in horizon)
    assert math.isclose(ph.FACTOR, 2.0) and np.isclose(ph.HORIZON_RULE.min_rate, 0.8)
    assert not any(c.task == "A5" for c in horizon)              # A5 has no character to read


def test_seed_blocks_split_each_cell_three_and_two():
    from seqtheory.proofs_checks.seed_blocks import seed_blocks

    ctx = Context(seed=0, profile="quick")
    plan = get_claim("finding.phase_horizon").plan(ctx, False)
    blocks = seed_blocks(plan)
    parity = [c for c in plan if c.task == "C2" and c.model == "signed_mamba"]
    assert [blocks[c.key] for c in parity] == [("A", "1/5"), ("A", "2/5"), ("A", "3/5"), ("B", "4/5"),
                                               ("B", "5/5")]
    s3 = [c for c in plan if c.task == "S3" and c.model == "aussm" and c.depth == 2]
    assert [blocks[c.key][0] for c in s3] == ["A", "A", "B", "B"]   # 2 + 2 seeds (seed_blocks.BLOCK_SEEDS)


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
# the inspector's summary in the evidence of finding.parity_negative_eigenvalues, s3_depth and word_problems
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
    assert "transformer" in skipped["prediction_note"] and skipped["character"] is None
    assert skipped["measured"] is not None                  # the run's own measurement is kept
    ins = inspect(load_model(cfgs[0], st), group="C2", run_result=st.result(cfgs[0]), lie=False)
    layer = ins.layers[0]
    assert seen["character_status"] == layer.character_status != "absent"
    shown = [c for c in layer.characters if c.describe() == seen["character"]] or \
        [c for c in layer.channels if seen["character"].startswith(f"channel {c.channel} (closest")]
    assert seen["max_abs_delta_over_pi"] == pytest.approx(max(map(abs, shown[0].phase_error)) / math.pi)
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
                 character_status="found", max_abs_delta_over_pi=d, predicted=p, unbounded=False,
                 measured=m)
            for d, p, m in [(0.01, 10, 12), (0.03, 20, 18), (0.2, None, 5)]]
    rows[2].update(homomorphism="no (5/6 of products)", factors_through_abelianisation=None,
                   character_status="cannot tell")
    note = ri.inspector_note(rows)
    assert "read in 2/3 runs (2 factoring through G/G′), cannot tell in 1" in note
    assert "characters read 0.02·π" in note
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


def test_spearman_p_value_is_exact_at_small_n():
    # n = 6 at rho = 0.771 (sum d^2 = 8): scipy's t approximation gives p = 0.036, the exact
    # permutation p is 37/720 = 0.051 (descriptive statistic of the per-task table)
    rho, p = ph.spearman_one_sided([0, 1, 2, 3, 4, 5], [2, 1, 0, 3, 4, 5])
    assert rho == pytest.approx(27 / 35) and p == pytest.approx(37 / 720)
    rho, p = ph.spearman_one_sided([1, 1, 2, 3, 4, 5, 6], [1, 2, 2, 3, 5, 4, 6])
    assert 0 < p < 0.05 and rho > 0.8
    table = ph._task_summary(_rows(PRED, [p + 1 for p in PRED]))
    assert table[0]["spearman rho"] == 1.0 and table[0]["usable"] == 8


@pytest.mark.parametrize("field, value, exc", [
    ("predicted", -1, ValueError),            # was ZeroDivisionError in the factor test
    ("predicted", -3, ValueError),            # was refined with a NaN geometric mean
    ("predicted", float("nan"), TypeError),   # was inconclusive with rho = nan
    ("predicted", True, TypeError),
    ("measured", float("nan"), TypeError),    # was silently counted as censored
    ("measured", -5, ValueError),
    ("test_length", 0, ValueError),
    ("unbounded", "no", TypeError),
    ("task", 3, TypeError)])
def test_horizon_rule_rejects_bad_rows(field, value, exc):
    rows = _rows(PRED, [3 * p + 2 for p in PRED], test_length=128)
    rows[0][field] = value
    with pytest.raises(exc, match=r"rows\[0\]"):
        ph.horizon_decide(rows)


def test_horizon_rule_rejects_an_unbounded_row_with_a_finite_prediction():
    rows = _rows(PRED, [p + 1 for p in PRED])
    rows[1]["unbounded"] = True            # was both used and counted as skipped
    with pytest.raises(ValueError, match=r"rows\[1\] is unbounded"):
        ph.horizon_decide(rows)
    rows = _rows(PRED, [p + 1 for p in PRED])
    rows[2]["block"] = "C"
    with pytest.raises(ValueError, match=r"rows\[2\] must carry 'block'"):
        ph.horizon_decide(rows)


def test_tower_scale_text_names_every_family():
    from types import SimpleNamespace as NS
    cfgs = [NS(model=m, train_length=T, steps=600, width=32) for m, T in (("aussm", 4), ("gla", 8))]
    text = at._scale_text(cfgs)
    assert "aussm/gla run" in text and "training length 4/8" in text, text   # named aussm only before
    assert at._scale_text([]) == "no runs"


@pytest.mark.parametrize("change, match", [
    ({"group": "A4"}, r"runs\[0\]\['group'\] = 'A4' has no blocks"),     # was KeyError
    ({"maps": None}, r"runs\[0\] lacks 'maps'"),                           # was KeyError
    ({"collisions": None}, r"runs\[0\] lacks 'collisions'"),
    ({"block": "C"}, r"must carry 'block'"),
    ({"acc_at_T": float("nan")}, r"acc_at_T"),                             # was "no run fits"
    ({"acc_at_T": 1.5}, r"acc_at_T")])
def test_tower_rule_rejects_bad_runs(change, match):
    run = {**_run("S3", [_sign_map()]), **change}
    run = {k: v for k, v in run.items() if v is not None}
    with pytest.raises(ValueError, match=match):
        at.tower_decide([run], COSETS)

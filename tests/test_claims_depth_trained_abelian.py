"""depth.cor3.6.trained and depth.thm3.2.abelian.trained (proofs_checks/claims/depth_cor36_trained.py,
depth_thm32_abelian_trained.py; runs in proofs_checks/precision_sweeps.py, pairs in
models/reversal_pairs.py):
every branch of the rules on synthetic evidence, the evidence builders, and both checks with their
controls end to end at a tiny scale (the quick profile's own scale runs in the slow test)."""
import numpy as np
import pytest
from controls import control_through_rule

from seqtheory.models import precision
from seqtheory.models import reversal_pairs
from seqtheory.proofs_checks import precision_sweeps as ps
from seqtheory.proofs_checks.claims import depth_cor36_trained as cor36
from seqtheory.proofs_checks.claims import depth_thm32_abelian_trained as thm32
from seqtheory.proofs_checks.registry import Context, Verdict, get_claim

_S, _I, _R, _F = Verdict.SUPPORTED, Verdict.INCONCLUSIVE, Verdict.REFUTED, Verdict.REFINED
_C = Verdict.CONFIRMED


def _ev(slope, lo, hi, n_cert=4, failed=("doubling",), ratio_abelian=1.05, ratio_magnus2=1.1):
    pts = [{"eps": e, "certified": i < n_cert, "failed": [] if i < n_cert else list(failed),
            "ratio_abelian": ratio_abelian, "ratio_magnus2": ratio_magnus2}
           for i, e in enumerate(ps.LOCAL_EPS)]
    fit = {"slope": slope, "ci_low": lo, "ci_high": hi, "n": n_cert} if n_cert >= cor36.MIN_POINTS else None
    return {"points": pts, "fit": fit}


def _both(ev_a, ev_b=None):
    return {"A": ([0], ev_a), "B": ([1], ev_a if ev_b is None else ev_b)}


def _cor(ev_a, ev_b=None):
    return cor36.cor36_decide(_both(ev_a, ev_b))


def test_cor36_rule_every_branch():
    assert _cor({1: _ev(2.0, 1.98, 2.02), 2: _ev(3.1, 2.9, 3.3)})[0] == _S
    # an upper bound: a steep, curved fit (wide CI above p − 0.2) is support, not failure
    assert _cor({1: _ev(2.0, 1.9, 2.1), 2: _ev(4.37, 3.05, 5.69)})[0] == _S
    # a certified depth-2 fit with slope 2 at the built reference (order-2 Magnus) contradicts k+1
    v, why, _ = _cor({1: _ev(2, 1.9, 2.1), 2: _ev(2.0, 1.9, 2.1)})
    assert v == _R and "k = 2" in why and "built" in why
    # uncertified: inconclusive, naming the certificate checks that failed
    v, why, _ = _cor({1: _ev(2, 1.9, 2.1), 2: _ev(3, 2, 4, n_cert=2, failed=("stationary",))})
    assert v == _I and "k=2: 2 of 4" in why and "stationary" in why
    # a certified fit whose CI straddles p − 0.2: undecided
    v, why, _ = _cor({1: _ev(2, 1.9, 2.1), 2: _ev(2.9, 2.5, 3.3)})
    assert v == _I and "k+1 = 3 undecided" in why
    # depth 3 contradicts 2^(k−1)+1 = 5 while k+1 = 4 is met: no built depth-3 reference, so no
    # counted contradiction (formerly refined): inconclusive, naming the missing reference
    v, why, _ = _cor({1: _ev(2, 1.9, 2.1), 2: _ev(3, 2.9, 3.1), 3: _ev(4.2, 4.0, 4.4)})
    assert v == _I and "no built depth-3 reference" in why


def test_cor36_refutes_only_at_the_built_reference():
    # issue 32: certified depth-1 evidence (at the abelian floor) labelled as depth 2 sits far
    # above the order-2 Magnus error a built 2-layer cascade reaches: absence, not refutation
    stuck = _ev(2.0, 1.95, 2.05, ratio_abelian=1.05, ratio_magnus2=40.0)
    v, why, detail = _cor({1: _ev(2.0, 1.95, 2.05), 2: stuck})
    assert v == _I and "cannot refute" in why and "40.00" in why
    assert detail["A"][2]["status"]["k+1"][2] == "contradicted"        # contradicted, not counted
    # the same fit at the built reference (1.2×) refutes
    assert _cor({1: _ev(2.0, 1.95, 2.05), 2: _ev(2.0, 1.95, 2.05, ratio_magnus2=1.2)})[0] == _R
    # depth 1 at the exact best abelian floor falling like ε refutes k+1 = 2
    assert _cor({1: _ev(1.0, 0.9, 1.1, ratio_abelian=1.0)})[0] == _R
    # … but not when the trained error is 3× the floor
    assert _cor({1: _ev(1.0, 0.9, 1.1, ratio_abelian=3.0)})[0] == _I
    # no built reference at depth 3: a depth-3 contradiction can never count
    assert cor36.reference_reach(3, _ev(4, 3.9, 4.1))[0] is False


def test_cor36_blocks_replicate():
    good = {1: _ev(2.0, 1.95, 2.05), 2: _ev(3.0, 2.9, 3.1)}
    bad = {1: _ev(1.0, 0.9, 1.1, ratio_abelian=1.0), 2: _ev(3.0, 2.9, 3.1)}
    v, why, per = _cor(good, bad)
    assert v == _I and "disagree" in why and per["A"][0] == _S and per["B"][0] == _R


def test_cor36_candidates_include_the_built_exponent():
    assert [cor36.CANDIDATES["c_k(60)+1 (class-maximal cascade)"](k) for k in (1, 2, 3)] == [2, 4, 8]
    assert [cor36.CANDIDATES["k+1"](k) for k in (1, 2)] == [cor36.CANDIDATES["2^(k-1)+1"](k) for k in (1, 2)]


def _row(**kw):
    r = {"eps": 0.1, "seed": 1, "n_pairs": 10, "frac_pairs_above": 1.0, "worst_ratio": 1.01,
         "class_gap": 0.0}
    r.update(kw)
    return r


def test_thm32_rule_every_branch():
    v, why, _ = thm32.thm32_decide(_both([_row(), _row(eps=0.05)]))
    assert v == _C and "triangle inequality" in why
    v, why, _ = thm32.thm32_decide(_both([_row(), _row(frac_pairs_above=0.9, worst_ratio=0.3)]))
    assert v == _R and "below the bound" in why
    v, why, _ = thm32.thm32_decide(_both([_row(class_gap=1e-3)]))
    assert v == _I and "not order-free" in why and "does not cover" in why
    # the doubled bound: not given by the argument; decided on the pairs
    v, why, _ = thm32.thm32_decide(_both([_row(worst_ratio=1.3)]), factor=2.0)
    assert v == _R and "2× the bound" in why
    assert thm32.thm32_decide(_both([_row(worst_ratio=2.5)]), factor=2.0)[0] == _S
    with pytest.raises(ValueError, match="factor"):
        thm32.thm32_decide(_both([_row()]), factor=0.5)
    # blocks that disagree
    v, why, _ = thm32.thm32_decide(_both([_row()], [_row(class_gap=1e-3)]))
    assert v == _I and "disagree" in why


def test_pair_stats():
    yx, yr = np.array([[1.0, 0, 0], [0, 1, 0]]), np.array([[0.0, 1, 0], [0, 1, 0]])
    best = 0.5 * (yx + yr)                           # the midpoint attains the bound exactly
    s = reversal_pairs.pair_stats(yx, yr, best, best, best)
    assert s["frac_pairs_above"] == 1 and s["best_abelian_mean_ratio"] == pytest.approx(1.0)
    assert s["n_pairs"] == 2 and s["mean_bound"] == pytest.approx(np.sqrt(2) / 4)
    s = reversal_pairs.pair_stats(yx, yr, yx, yr, best)         # the exact simulator: zero error, below
    assert s["frac_pairs_above"] == 0.5 and s["worst_ratio"] == 0


def _sweep(errs, certified):
    pts = [{"eps": e, "heldout_rms": err, "train_rms": err, "references": {},
            "certificate": precision.certificate(err, err if c else 2 * err, 1e-4 if c else 0.5, 1e-7,
                                                 {"abelian": err / 1.1})}
           for e, err, c in zip(ps.LOCAL_EPS, errs, certified)]
    return {"points": pts}


def test_depth_evidence_fits_only_certified_points():
    a = _sweep([1e-2, 2.5e-3, 6.25e-4, 1.6e-4], [True, True, True, False])
    b = _sweep([2e-2, 2e-3, 7e-4, 1e-4], [True, False, True, False])
    ev = cor36.depth_evidence([a, b])
    assert [p["certified"] for p in ev["points"]] == [True, True, True, False]
    assert ev["points"][0]["heldout_rms"] == 1e-2                 # best over the certified seeds
    assert ev["points"][3]["failed"] == ["doubling", "stationary"]
    assert ev["fit"]["n"] == 3 and ev["fit"]["slope"] == pytest.approx(2.0)
    assert cor36.depth_evidence([_sweep([1, 1, 1, 1], [True, True, False, False])])["fit"] is None


TINY = dict(train_length=3, n_train=32, n_test=16, width=2, hidden=4, coupling_hidden=3,
            lbfgs_iters=4, lm_iters=0)


@pytest.fixture
def tiny(monkeypatch, tmp_path):
    monkeypatch.setitem(ps.SCALES, "quick", TINY)
    monkeypatch.setitem(ps.SCALES, "quick_deep", TINY)
    return Context(seed=0, out_dir=tmp_path, results_dir=tmp_path / "results")


def test_both_claims_and_controls_end_to_end_at_a_tiny_scale(tiny, monkeypatch):
    for name in ("train_depth1", "train_depth2", "train_uncoupled"):   # the plan's training jobs
        getattr(ps, name)(tiny)
    from seqtheory.proofs_checks.training_runs import store
    st = store(tiny)
    plan = ps.plan_sweeps(tiny, True)
    assert len(plan) == 3 and all(st.result(j.config) is not None for j in plan)
    assert all(len(j.config.sweeps) == 2 for j in plan)              # one sweep per seed block
    monkeypatch.setattr(precision, "run_sweep", lambda cfg: pytest.fail("retrained a stored sweep"))
    cor = get_claim("depth.cor3.6.trained")
    cor_out = cor.check(tiny)
    assert cor_out.verdict in (_S, _I, _R, _F) and cor_out.figures and "T = 3" in cor_out.key_figure
    assert {r["depth"] for r in cor_out.tables["error_vs_eps"]} == {1, 2}
    ctl = control_through_rule(cor, tiny)
    assert ctl.rejected and "(a) refuted" in ctl.reason     # the exact floor read at ε²: slope ~1
    thm = get_claim("depth.thm3.2.abelian.trained")
    out = thm.check(tiny)
    assert out.verdict == _C and max(r["class_gap"] for r in out.tables["reversal"]) < thm32.CLASS_TOL
    assert all(r["best_abelian_mean_ratio"] >= 1 for r in out.tables["reversal"])
    ctl = control_through_rule(thm, tiny)
    assert ctl.rejected, ctl.reason
    # an evidence bundle of the store answers both checks without training
    from seqtheory.proofs_checks import evidence
    evidence.pack(tiny.results_dir, tiny.out_dir / "bundle", profile="quick", seed=0)
    from_bundle = Context(seed=0, out_dir=tiny.out_dir / "b", evidence=tiny.out_dir / "bundle")
    assert thm.check(from_bundle).key_figure == out.key_figure
    assert cor.check(from_bundle).key_figure == cor_out.key_figure


@pytest.mark.slow
def test_quick_profile(tmp_path):
    ctx = Context(seed=0, out_dir=tmp_path, results_dir=tmp_path / "results")
    out = get_claim("depth.cor3.6.trained").check(ctx)
    # quick cannot certify at its budget: it must say so, never decide from uncertified points
    assert out.verdict != _R
    if out.verdict == _I:
        assert "certified" in out.notes or "contradicts" in out.notes
    assert get_claim("depth.thm3.2.abelian.trained").check(ctx).verdict == _C
    for cid in ("depth.cor3.6.trained", "depth.thm3.2.abelian.trained"):
        assert control_through_rule(get_claim(cid), ctx).rejected


def test_thm32_trained_alias():
    assert get_claim("depth.thm3.2.trained") is get_claim("depth.thm3.2.abelian.trained")

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


def _ev(slope, lo, hi, n_cert=4, failed=("doubling",)):
    pts = [{"eps": e, "certified": i < n_cert, "failed": [] if i < n_cert else list(failed)}
           for i, e in enumerate(ps.LOCAL_EPS)]
    fit = {"slope": slope, "ci_low": lo, "ci_high": hi, "n": n_cert} if n_cert >= cor36.MIN_POINTS else None
    return {"points": pts, "fit": fit}


def test_cor36_rule_every_branch():
    assert cor36.cor36_decide({1: _ev(2.0, 1.98, 2.02), 2: _ev(3.1, 2.9, 3.3)})[0] == _S
    # an upper bound: a steep, curved fit (wide CI above p − 0.2) is support, not failure
    assert cor36.cor36_decide({1: _ev(2.0, 1.9, 2.1), 2: _ev(4.37, 3.05, 5.69)})[0] == _S
    # depth 3 meets k+1 = 4 but falls slower than 2^(k−1)+1 = 5: the simplified form holds
    v, why, status = cor36.cor36_decide({1: _ev(2, 1.9, 2.1), 2: _ev(3, 2.9, 3.1), 3: _ev(4.2, 4.0, 4.4)})
    assert v == _F and "k = [3]" in why and status["k+1"][3] == "met"
    # a certified depth-2 fit with slope 2 contradicts k+1 = 3
    v, why, _ = cor36.cor36_decide({1: _ev(2, 1.9, 2.1), 2: _ev(2.0, 1.9, 2.1)})
    assert v == _R and "k = [2]" in why
    # uncertified: inconclusive, naming the certificate checks that failed
    v, why, _ = cor36.cor36_decide({1: _ev(2, 1.9, 2.1), 2: _ev(3, 2, 4, n_cert=2, failed=("stationary",))})
    assert v == _I and "k=2: 2 of 4" in why and "stationary" in why
    # a certified fit whose CI straddles p − 0.2: undecided
    v, why, _ = cor36.cor36_decide({1: _ev(2, 1.9, 2.1), 2: _ev(2.9, 2.5, 3.3)})
    assert v == _I and "k+1 = 3 undecided" in why
    # depth 3 contradicts 2^(k−1)+1 = 5 while k+1 = 4 is undecided: inconclusive, saying both
    v, why, _ = cor36.cor36_decide({1: _ev(2, 1.9, 2.1), 2: _ev(3, 2.9, 3.1), 3: _ev(4.0, 3.5, 4.5)})
    assert v == _I and "2^(k-1)+1 = 5 contradicted" in why and "k+1 = 4 undecided" in why


def _row(**kw):
    r = {"eps": 0.1, "seed": 1, "n_pairs": 10, "frac_pairs_above": 1.0, "worst_ratio": 1.01,
         "class_gap": 0.0}
    r.update(kw)
    return r


def test_thm32_rule_every_branch():
    assert thm32.thm32_decide([_row(), _row(eps=0.05)])[0] == _S
    v, why = thm32.thm32_decide([_row(), _row(frac_pairs_above=0.9, worst_ratio=0.3)])
    assert v == _R and "below the bound" in why
    v, why = thm32.thm32_decide([_row(class_gap=1e-3)])
    assert v == _I and "not order-free" in why


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
    monkeypatch.setattr(precision, "run_sweep", lambda cfg: pytest.fail("retrained a stored sweep"))
    cor = get_claim("depth.cor3.6.trained")
    cor_out = cor.check(tiny)
    assert cor_out.verdict in (_S, _I, _R, _F) and cor_out.figures and "T = 3" in cor_out.key_figure
    assert {r["depth"] for r in cor_out.tables["error_vs_eps"]} == {1, 2}
    ctl = control_through_rule(cor, tiny)
    assert ctl.rejected and "(a) refuted" in ctl.reason          # the constant predictor: slope ~1
    thm = get_claim("depth.thm3.2.abelian.trained")
    out = thm.check(tiny)
    assert out.verdict == _S and max(r["class_gap"] for r in out.tables["reversal"]) < thm32.CLASS_TOL
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
    assert get_claim("depth.thm3.2.abelian.trained").check(ctx).verdict == _S
    for cid in ("depth.cor3.6.trained", "depth.thm3.2.abelian.trained"):
        assert control_through_rule(get_claim(cid), ctx).rejected


def test_thm32_trained_alias():
    assert get_claim("depth.thm3.2.trained") is get_claim("depth.thm3.2.abelian.trained")

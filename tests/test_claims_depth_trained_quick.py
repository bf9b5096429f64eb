"""The trained word-problem claims of [DEPTH] (finding_parity, depth_s3_trained,
depth_word_problems, depth_rotation, depth_prop37_trained) run in the quick profile (slow): each
check decides, its control is rejected through its rule, and a second run reads the store."""
import pytest
from controls import control_through_rule

from seqtheory.proofs_checks.registry import Context, Verdict, get_claim

_S, _I = Verdict.SUPPORTED, Verdict.INCONCLUSIVE

TRAINED = ["finding.parity_negative_eigenvalues", "depth.exp.s3_depth", "depth.exp.word_problems", "depth.exp.rotation",
           "depth.prop3.7.trained"]
# quick-profile verdicts allowed (seed 0): parity must decide; the others may be inconclusive at
# the quick scale (they say why), none may be refuted (depth.thm3.2.abelian.trained and
# depth.cor3.6.trained: tests/test_claims_depth_trained_abelian.py)
EXPECTED = {"finding.parity_negative_eigenvalues": {_S}}


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

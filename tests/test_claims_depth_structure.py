"""Run the claims depth.lemma3.1 and depth.prop3.3 (quick profile) and their negative controls."""
from seqtheory.proofs_checks.registry import Context, Verdict, get_claim


def test_lemma31(tmp_path):
    c = get_claim("depth.lemma3.1")
    ctx = Context(seed=0, out_dir=tmp_path)
    o = c.check(ctx)
    assert o.verdict == Verdict.REFINED
    assert o.evidence["gap_invisible_all_orders"] and o.evidence["criteria_consistent"]
    gap = [r for r in o.tables["separation"] if r["pair"] == "diag(1,0),E12" and r["h0"] == "e1"][0]
    assert gap["n_separating_pairs"] == 0 and gap["commutator_on_h0_zero"]
    ctl = c.negative_control(ctx)
    assert ctl.rejected, ctl.reason


def test_prop33(tmp_path):
    c = get_claim("depth.prop3.3")
    ctx = Context(seed=0, out_dir=tmp_path)
    o = c.check(ctx)
    assert o.verdict == Verdict.REFINED
    assert not o.evidence["violations_linear"] and not o.evidence["violations_affine"]
    assert o.evidence["affine_counterexample"]["derived_length"] == 2
    assert o.figures and (tmp_path / o.figures[0]).exists()
    ctl = c.negative_control(ctx)
    assert ctl.rejected, ctl.reason


def test_prop33_reproducible(tmp_path):
    c = get_claim("depth.prop3.3")
    a = c.check(Context(seed=3, out_dir=tmp_path / "a"))
    b = c.check(Context(seed=3, out_dir=tmp_path / "b"))
    assert a.tables["instances"] == b.tables["instances"]

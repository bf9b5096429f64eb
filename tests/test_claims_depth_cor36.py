"""depth.cor3.6 on built k-layer abelian cascades: verdict, decision rule on synthetic evidence,
negative control through the rule."""
from __future__ import annotations

from controls import control_through_rule

from seqtheory.proofs_checks.claims.depth_cor36 import cor36_decide
from seqtheory.proofs_checks.registry import Context, Verdict, get_claim


def _row(target, k, coupling, c, slope, half=0.01):
    return {"target": target, "k": k, "coupling": coupling, "class_c": c, "slope": slope,
            "ci": [slope - half, slope + half]}


def test_rule_on_synthetic_evidence():
    good = [_row("t", 1, "polynomial", 1, 2.0), _row("t", 2, "polynomial", 4, 5.0),
            _row("t", 2, "linear", 2, 3.0), _row("t", 3, "linear", 3, 4.0)]
    assert cor36_decide(good)[0] is Verdict.REFINED            # 5 > 3: holds, not tight
    tight = [_row("t", 1, "polynomial", 1, 2.0), _row("t", 2, "polynomial", 2, 3.0)]
    assert cor36_decide(tight)[0] is Verdict.SUPPORTED
    short = [_row("t", 3, "polynomial", 3, 4.0)]                  # best 4 < 2^2+1
    assert cor36_decide(short)[0] is Verdict.INCONCLUSIVE
    off = [_row("t", 2, "polynomial", 4, 3.5)]                    # slope is not its class + 1
    assert cor36_decide(off)[0] is Verdict.INCONCLUSIVE
    assert cor36_decide([_row("t", 3, "linear", 3, 4.0)])[0] is Verdict.INCONCLUSIVE  # not judged


def test_claim_quick_and_control(tmp_path):
    c = get_claim("depth.cor3.6")
    ctx = Context(seed=0, out_dir=tmp_path)
    out = c.check(ctx)
    assert out.verdict is Verdict.REFINED, out.evidence
    rows = {(r["target"][:5], r["coupling"], r["k"]): r for r in out.tables["built_models"]}
    assert rows[("so(3)", "polynomial", 2)]["class_c"] == 4
    assert abs(rows[("so(3)", "polynomial", 2)]["slope"] - 5) < 0.1
    assert abs(rows[("so(3)", "linear", 3)]["slope"] - 4) < 0.1
    assert rows[("rando", "polynomial", 2)]["class_c"] == 3
    assert out.evidence["all_group_elements_exact"] and out.evidence["all_layers_translations"]
    for f in out.figures:
        assert (tmp_path / f).exists()
    ctl = control_through_rule(c, ctx)
    assert ctl.rejected, ctl.reason

"""depth.error_falls_with_depth (proofs_checks/claims/depth_error_depth.py): built depth-k abelian
cascades at a fixed ε, quick profile; the rule on synthetic evidence; the control through it."""
from __future__ import annotations

import pytest
from controls import control_through_rule

from seqtheory.proofs_checks.claims.depth_error_depth import error_depth_decide
from seqtheory.proofs_checks.registry import Context, Verdict, get_claim


def _rows(errors, target="T", coupling="linear", ok=True):
    return [{"target": target, "coupling": coupling, "depth": k, "error": e,
             "exact_group_element": ok, "translations": True}
            for k, e in enumerate(errors, start=1)]


def test_rule_on_synthetic_evidence():
    assert error_depth_decide(_rows([1e-3, 1e-5, 1e-7]))[0] is Verdict.SUPPORTED
    assert error_depth_decide(_rows([1e-3, 1e-3]))[0] is Verdict.REFUTED           # flat
    assert error_depth_decide(_rows([1e-3, 2e-3]))[0] is Verdict.REFUTED           # rises
    assert error_depth_decide(_rows([1e-3, 0.9e-3]))[0] is Verdict.INCONCLUSIVE    # slow
    assert error_depth_decide(_rows([1e-3]))[0] is Verdict.INCONCLUSIVE             # one depth
    assert error_depth_decide(_rows([1e-3, 1e-5], ok=False))[0] is Verdict.INCONCLUSIVE
    # groups are judged apart: one flat pair refutes
    mixed = _rows([1e-3, 1e-6]) + _rows([1e-3, 1e-3], coupling="polynomial")
    assert error_depth_decide(mixed)[0] is Verdict.REFUTED
    with pytest.raises(ValueError, match="finite"):
        error_depth_decide(_rows([float("inf"), 1.0]))


def test_claim_quick_and_control(tmp_path):
    c = get_claim("depth.error_falls_with_depth")
    assert c.source.paper == "DEPTH" and "exponentially" in c.source.location
    ctx = Context(seed=0, out_dir=tmp_path)
    out = c.check(ctx)
    assert out.verdict is Verdict.SUPPORTED, out.evidence
    errs = {(r["target"], r["coupling"], r["depth"]): r["error"] for r in out.tables["errors"]}
    so3 = "so(3), A5 rotation generators"
    # linear coupling realises class k: the error at ε = 1/64 falls by roughly ε per layer
    assert errs[(so3, "linear", 2)] < errs[(so3, "linear", 1)] / 10
    # polynomial depth 2 realises class 4 = linear depth 4's class
    assert errs[(so3, "polynomial", 2)] < errs[(so3, "linear", 3)]
    ctl = control_through_rule(c, ctx)
    assert ctl.rejected, ctl.reason
    assert ctl.evidence == {"reversed input": "refuted", "top layer dropped": "refuted"}

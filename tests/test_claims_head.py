"""The [HEAD] claims: quick profile, expected verdicts, negative controls rejected."""
from __future__ import annotations

import pytest

from controls import control_through_rule

from seqtheory.proofs_checks.registry import Context, Verdict, get_claim

EXPECTED = {
    "head.hilbert_softmax": Verdict.CONFIRMED,
    "head.diameter_identity": Verdict.SUPPORTED,
    "head.ce_control": Verdict.SUPPORTED,
    "head.backward_bound": Verdict.SUPPORTED,
    "head.tv_bound": Verdict.SUPPORTED,
    "head.min_tension_duality": Verdict.SUPPORTED,
    "head.rownorm_oracle": Verdict.SUPPORTED,
    "head.rownorm_ratio": Verdict.SUPPORTED,
    # decided by the exact part (Gram certificate, every d); the optimisation is reported
    "head.equidistance_limit": Verdict.CONFIRMED,
}


@pytest.mark.parametrize("cid", sorted(EXPECTED))
def test_claim_verdict_and_control(cid, tmp_path):
    c = get_claim(cid)
    ctx = Context(seed=0, out_dir=tmp_path)
    out = c.check(ctx)
    assert out.verdict is EXPECTED[cid], out.key_figure
    ctl = control_through_rule(c, ctx)
    assert ctl.rejected, ctl.reason
    for f in out.figures:
        assert (tmp_path / f).exists()


def test_the_v1_update_is_computed_as_an_object():
    out = get_claim("head.equidistance_limit").check(Context(seed=0))
    rows = out.tables["the v1 update S (max-min row separation, D(S) ≤ η = 1)"]
    for r in rows:
        assert abs(r["D(S)"] - 1) < 1e-12 and r["max |1ᵀS|"] < 1e-12
        assert r["min/max"] <= r["bound"] + 1e-9
        assert (r["min/max"] > 1 - 1e-12) == (r["V"] <= r["d"] + 1)
    pentagon = next(r for r in rows if (r["V"], r["d"]) == (5, 2))
    assert abs(pentagon["min/max"] - 2 / (1 + 5 ** 0.5)) < 1e-6          # 1/φ (Bateman–Erdős)
    assert len(out.tables["rows of S at (V, d) = (5, 2)"]) == 5


def test_sources_and_versions():
    assert get_claim("head.equidistance_limit").source.version == "v1"
    for cid in ("head.rownorm_oracle", "head.rownorm_ratio"):
        assert get_claim(cid).source.version == "v2"
        assert get_claim(cid).source.arxiv == "2608.22253"


def test_extra_wrong_variants_are_rejected_by_the_same_logic():
    """Wrong variants beyond the registered controls, through the claims' own checking functions."""
    import math

    import numpy as np

    from seqtheory.proofs_checks.claims import head_ce_control as ce
    from seqtheory.proofs_checks.claims import head_diameter_identity as di
    from seqtheory.proofs_checks.claims import head_equidistance as eq
    from seqtheory.proofs_checks.claims import head_hilbert_softmax as hs
    from seqtheory.theory.hilbert import row_diameter

    ctx = Context(seed=0)
    # Hilbert distance claimed as 2‖z − z′‖_var
    assert hs._hilbert_softmax_errors(lambda d: 2 * float(np.ptp(d)), 30, 1)["max_rel_err"] > 1e-12
    # diameter identity: wrong scaling √d·H·D and ½H·D
    for f in (lambda S, H: H * row_diameter(S)[0] * math.sqrt(S.shape[1]),
              lambda S, H: 0.5 * H * row_diameter(S)[0]):
        assert di._diameter_identity_check(f, ctx, 12)["sup_rel_err"] > 1e-9
    # cross-entropy control with constant 0.9 < 1
    assert ce._ce_ratios(0.9, ctx, 50)["max_ratio"] > 1 + 1e-12
    # equidistance limit d+2
    r = eq._equidistance_check(lambda d: d + 2, ctx, 3, [(3, 2)])
    assert eq.equidistance_decide(r["exact"], r["optimisation"],
                                 r["gram_certificate"]["holds"])[0] is Verdict.REFUTED


def test_min_tension_control_is_a_feasible_wrong_statement():
    """The control's variant (dual constant ½) is rejected on the numbers: both programs are
    solved on every instance and the rule sees a relative gap, not an infeasible flow problem."""
    import math

    from controls import control_through_rule

    out = control_through_rule(get_claim("head.min_tension_duality"), Context(seed=0))
    assert out.rejected and out.reason.startswith("refuted") and "gap" in out.reason
    assert all(math.isfinite(r["primal"]) and math.isfinite(r["tension"])
               for r in out.evidence["rows"])
    assert out.evidence["max_rel_gap"] == pytest.approx(0.5, abs=1e-6)


def test_rownorm_ratio_control_rejects_a_violation_from_each_side():
    """The control's variants: one not tight (not supported), one violated below the lower bound
    and one above 1 (both refuted by the same rule)."""
    ctl = get_claim("head.rownorm_ratio").negative_control(Context(seed=0))
    rows = {r["expected"]: r for r in ctl.evidence["variants"]}
    assert ctl.rejected, ctl.reason
    verdicts = [r["verdict"] for r in ctl.evidence["variants"]]
    assert verdicts[1:] == ["refuted", "refuted"], verdicts
    assert verdicts[0] != "supported"
    assert ctl.evidence["variants"][1]["max_violation_below"] > 0.1      # simplex k ≥ 2 below 1
    assert ctl.evidence["variants"][2]["max_violation_above"] > 0.4      # oversized step: 2×ratio
    assert rows["not supported"]["max_violation_below"] == 0

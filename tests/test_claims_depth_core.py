"""Run the depth_core claims (quick profile): expected verdicts, figures, rejected controls."""
from __future__ import annotations

import pytest

from seqtheory.proofs_checks.registry import Context, Verdict, get_claim

EXPECTED = {
    "depth.thm3.2": Verdict.REFINED,     # holds with ‖Ω2 h0‖, fails with ‖Ω2‖ (unobserved h0)
    "depth.thm3.4": Verdict.CONFIRMED,   # exact cascades, k = derived length
    "depth.cor3.6": Verdict.REFINED,     # stated exponents hold as bounds, tight one is c_k(n)+1
    "depth.prop3.7": Verdict.REFINED,    # ⌈log2 T⌉+1 holds, tight only at T = 1, 2
    "depth.cor3.8": Verdict.REFINED,     # O(n^T/T) holds, needed state far smaller
}


@pytest.mark.parametrize("cid", sorted(EXPECTED))
def test_claim_quick(cid, tmp_path):
    c = get_claim(cid)
    assert c.source.paper == "DEPTH" and c.source.arxiv == "2603.05573"
    ctx = Context(seed=0, out_dir=tmp_path)
    out = c.check(ctx)
    assert out.verdict == EXPECTED[cid], (out.key_figure, out.evidence)
    for f in out.figures:
        assert (tmp_path / f).exists()
    ctl = c.negative_control(ctx)
    assert ctl.rejected, ctl.reason


def test_cor36_table_compares_three_exponents(tmp_path):
    out = get_claim("depth.cor3.6").check(Context(seed=0, out_dir=tmp_path))
    rows = [r for r in out.tables["exponents"] if r["target"].startswith("so(3)")]
    assert [r["tight_c+1"] for r in rows] == [2, 5, 10, 21]
    assert [r["stated_k+1"] for r in rows] == [2, 3, 4, 5]
    assert [r["stated_v1_2^(k-1)+1"] for r in rows] == [2, 3, 5, 9]
    assert all(abs(r["measured_slope"] - r["tight_c+1"]) < 0.1 for r in rows)


def test_prop37_table(tmp_path):
    out = get_claim("depth.prop3.7").check(Context(seed=0, out_dir=tmp_path))
    n2 = {r["T"]: r for r in out.tables["least_depth"] if r["n"] == 2}
    assert [n2[T]["c*(T)"] for T in range(1, 9)] == [1, 2, 2, 3, 3, 3, 4, 4]
    assert out.evidence["bound_holds"]["ceil(log2 T)"] is False  # fails at T = 1, 2

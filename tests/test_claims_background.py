"""Every background claim (quick profile): expected verdict, and its negative control is rejected."""
from __future__ import annotations

import pytest

from seqtheory.proofs_checks.registry import Context, Verdict, get_claim

EXPECTED = {
    "bch.lyndon_coefficients": Verdict.CONFIRMED,
    "bch.truncation_order": Verdict.SUPPORTED,
    "magnus.terms": Verdict.CONFIRMED,
    "magnus.truncation_order": Verdict.SUPPORTED,
    "free_lie.witt_dimensions": Verdict.CONFIRMED,
    "free_lie.free_nilpotent_series": Verdict.CONFIRMED,
}


@pytest.fixture(autouse=True)
def _cache(tmp_path, monkeypatch):
    monkeypatch.setenv("SEQTHEORY_CACHE_DIR", str(tmp_path / "cache"))


@pytest.mark.parametrize("cid", sorted(EXPECTED))
def test_claim_quick(cid, tmp_path):
    c = get_claim(cid)
    ctx = Context(seed=0, out_dir=tmp_path)
    out = c.check(ctx)
    assert out.verdict == EXPECTED[cid], out.key_figure
    assert out.key_figure
    ctl = c.negative_control(ctx)
    assert ctl.rejected, ctl.reason
    for f in out.figures:
        assert (tmp_path / f).exists()

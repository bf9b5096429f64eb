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


def test_magnus_rule_needs_the_residual_to_be_the_first_omitted_term():
    from seqtheory.proofs_checks.claims.background import magnus_residuals_ok

    base = {"AY": 5e-26, "AY_next": 6e-29, "AY_tail": 5e-26, "YA": 5e-26, "YA_next": 6e-29,
            "YA_tail": 5e-26, "discrete": 1e-36}
    assert magnus_residuals_ok(base)[0]
    # a residual 3x the omitted term (e.g. a wrong coefficient of that size) is rejected although
    # it is far below any absolute tolerance like 1e-25
    assert not magnus_residuals_ok({**base, "AY": 1.5e-25})[0]
    # a series that does not converge further when Ω_{N+1} is added is rejected
    assert not magnus_residuals_ok({**base, "YA_next": 4e-26})[0]
    assert not magnus_residuals_ok({**base, "discrete": 1e-20})[0]

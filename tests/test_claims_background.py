"""Every background claim (quick profile; proofs_checks/claims/background_*.py): expected verdict,
and its negative control is rejected; the decision rules on synthetic evidence."""
from __future__ import annotations

import pytest

from seqtheory.proofs_checks.claims import background_bch_lyndon as bch_lyndon
from seqtheory.proofs_checks.claims import background_bch_truncation as bch_truncation
from seqtheory.proofs_checks.claims import background_free_nilpotent as free_nilpotent
from seqtheory.proofs_checks.claims import background_magnus_terms as magnus_terms
from seqtheory.proofs_checks.claims import background_magnus_truncation as magnus_truncation
from seqtheory.proofs_checks.claims import background_witt as witt
from seqtheory.proofs_checks.registry import Context, Verdict, get_claim

from controls import control_through_rule

EXPECTED = {
    "bch.lyndon_coefficients": Verdict.CONFIRMED,
    "bch.truncation_order": Verdict.SUPPORTED,
    "magnus.terms": Verdict.CONFIRMED,
    "magnus.truncation_order": Verdict.SUPPORTED,
    # the named values are exact (confirmed part); the identity for every (n, m) is checked on
    # finitely many pairs (supported part)
    "free_lie.witt_dimensions": Verdict.SUPPORTED,
    # a statement for every (n, c), checked exactly on finitely many (n, c)
    "free_lie.free_nilpotent_series": Verdict.SUPPORTED,
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
    ctl = control_through_rule(c, ctx)
    assert ctl.rejected, ctl.reason
    for f in out.figures:
        assert (tmp_path / f).exists()


def test_magnus_rule_needs_the_residual_to_be_the_first_omitted_term():
    base = {"AY": 5e-26, "AY_next": 6e-29, "AY_tail": 5e-26, "YA": 5e-26, "YA_next": 6e-29,
            "YA_tail": 5e-26, "discrete": 1e-36}
    assert magnus_terms.magnus_residuals_ok(base)[0]
    # a residual 3x the omitted term (e.g. a wrong coefficient of that size) is rejected although
    # it is far below any absolute tolerance like 1e-25
    assert not magnus_terms.magnus_residuals_ok({**base, "AY": 1.5e-25})[0]
    # a series that does not converge further when Ω_{N+1} is added is rejected
    assert not magnus_terms.magnus_residuals_ok({**base, "YA_next": 4e-26})[0]
    assert not magnus_terms.magnus_residuals_ok({**base, "discrete": 1e-20})[0]


def test_bch_lyndon_rule_on_synthetic_evidence():
    good = {"degree4_ok": True, "denominators_ok": True}
    assert bch_lyndon.bch_lyndon_decide(good, [1e-40, 3e-30])[0] is Verdict.CONFIRMED
    assert bch_lyndon.bch_lyndon_decide(good, [1e-40, 1e-20])[0] is Verdict.REFUTED
    assert bch_lyndon.bch_lyndon_decide({**good, "degree4_ok": False}, [1e-40])[0] is Verdict.REFUTED
    assert bch_lyndon.bch_lyndon_decide({**good, "denominators_ok": False}, [1e-40])[0] is Verdict.REFUTED


def _slope_row(c, slope, ok):
    """A fitted slope with CI ± 0.02 around it (``ok`` documents the expectation only: the rule
    computes containment from the fit)."""
    return {"c": c, "expected": c + 1, "slope": slope, "ci_low": slope - 0.02,
            "ci_high": slope + 0.02, "pass": ok}


@pytest.mark.parametrize("decide", [bch_truncation.bch_truncation_decide,
                                    magnus_truncation.magnus_truncation_decide])
def test_truncation_rules_on_synthetic_evidence(decide):
    assert decide([_slope_row(1, 2.0, True), _slope_row(2, 3.01, True)])[0] is Verdict.SUPPORTED
    verdict, why = decide([_slope_row(1, 2.0, True), _slope_row(2, 2.0, False)])
    assert verdict is Verdict.REFUTED and "2.0" in why
    assert decide([])[0] is Verdict.INCONCLUSIVE
    # the rule reads the fit, not a stored pass flag
    assert decide([{**_slope_row(2, 2.0, False), "pass": True}])[0] is Verdict.REFUTED
    assert decide([_slope_row(2, 2.96, True)])[0] is Verdict.SUPPORTED     # within ± 0.05


def test_magnus_terms_rule_on_synthetic_evidence():
    num = {"AY": 5e-26, "AY_next": 6e-29, "AY_tail": 5e-26, "YA": 5e-26, "YA_next": 6e-29,
           "YA_tail": 5e-26, "discrete": 1e-36, "quadrature_vs_exact": 1e-15}
    ok = {"AY": True, "YA": True}
    kernels = {f"{c}: Ω{m}": {"equal": True, "words": 1} for c in ("AY", "YA") for m in range(1, 5)}
    decide = magnus_terms.magnus_terms_decide
    assert decide(ok, kernels, num)[0] is Verdict.CONFIRMED
    assert decide({**ok, "YA": False}, kernels, num)[0] is Verdict.REFUTED
    assert decide(ok, kernels, {**num, "quadrature_vs_exact": 1e-9})[0] is Verdict.REFUTED
    assert decide(ok, kernels, {**num, "AY": 1.5e-25})[0] is Verdict.REFUTED
    # a general integrand that differs refutes; one not compared leaves the general terms to the
    # numerical guards: supported, not confirmed
    v, why = decide(ok, {**kernels, "YA: Ω4": {"equal": False, "words": 24}}, num)
    assert v is Verdict.REFUTED and "differ: YA: Ω4" in why
    v, why = decide(ok, {k: x for k, x in kernels.items() if k != "AY: Ω3"}, num)
    assert v is Verdict.SUPPORTED and "not compared exactly: AY: Ω3" in why


def test_magnus_kernels_certify_the_general_terms_and_the_control_breaks_them():
    cert = magnus_terms.kernel_certificate()
    assert len(cert) == 8 and all(v["equal"] for v in cert.values())
    assert [cert[f"AY: Ω{m}"]["words"] for m in range(1, 5)] == [1, 2, 6, 24]
    swapped = magnus_terms.kernel_certificate(swap_convention=True)
    # odd terms agree between the conventions, even ones change sign
    assert {k for k, v in swapped.items() if not v["equal"]} == {"AY: Ω2", "AY: Ω4", "YA: Ω2", "YA: Ω4"}


def test_witt_rule_on_synthetic_evidence():
    rows = [{"n": 2, "m": 1, "lyndon_words": 2, "witt": 2}, {"n": 2, "m": 2, "lyndon_words": 1, "witt": 1}]
    v, why = witt.witt_decide(rows, witt.SPEC_WITT2, 111013, True)
    assert v is Verdict.SUPPORTED
    assert "the named values (exact): confirmed" in why and "every (n, m): supported" in why
    assert witt.witt_decide([], witt.SPEC_WITT2, 111013, True)[0] is Verdict.INCONCLUSIVE
    assert witt.witt_decide([{**rows[0], "witt": 3}], witt.SPEC_WITT2, 111013, True)[0] is Verdict.REFUTED
    assert witt.witt_decide(rows, witt.SPEC_WITT2, 111012, True)[0] is Verdict.REFUTED
    assert witt.witt_decide(rows, witt.SPEC_WITT2, 111013, False)[0] is Verdict.REFUTED


def test_free_nilpotent_rule_on_synthetic_evidence():
    row = {"n": 2, "c": 3, "dim": 5, "witt_sum": 5, "derived_series": [5, 1, 0],
           "graded": [5, 1, 0], "nilpotency_class": 3}
    assert free_nilpotent.free_nilpotent_decide([row])[0] is Verdict.SUPPORTED
    assert free_nilpotent.free_nilpotent_decide([{**row, "derived_series": [5, 2, 0]}])[0] is Verdict.REFUTED
    assert free_nilpotent.free_nilpotent_decide([{**row, "nilpotency_class": 2}])[0] is Verdict.REFUTED
    assert free_nilpotent.free_nilpotent_decide([])[0] is Verdict.INCONCLUSIVE
    assert free_nilpotent.free_nilpotent_decide([{**row, "dim": 6}])[0] is Verdict.REFUTED

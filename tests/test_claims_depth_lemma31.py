"""depth.lemma3.1 (proofs_checks/claims/depth_lemma31.py), quick profile: the verdict, the negative
control through the claim's decision rule, the restricted reading's evidence, and the rule on
synthetic evidence (the experiments: tests/test_orbit_module.py, tests/test_affine_readout.py)."""
import pytest

from seqtheory.proofs_checks.claims import depth_lemma31 as l31
from seqtheory.proofs_checks.registry import Context, Verdict, get_claim

from controls import control_through_rule


def test_lemma31(tmp_path):
    c = get_claim("depth.lemma3.1")
    ctx = Context(seed=0, out_dir=tmp_path)
    o = c.check(ctx)
    # one verdict per reading, combined by the weakest reading
    assert o.evidence["reading_verdicts"] == {"abelian reading": "refined",
                                              "restricted reading": "refuted"}
    assert o.verdict == Verdict.REFUTED
    assert "weakest part" in o.evidence["decision"] and "weakest part" in o.notes
    ab = o.evidence["abelian reading"]
    assert ab["gap_invisible_all_orders"] and ab["criteria_consistent"]
    gap = [r for r in o.tables["abelian reading: separation"]
           if r["pair"] == "diag(1,0),E12" and r["h0"] == "e1"][0]
    assert gap["n_separating_pairs"] == 0 and gap["commutator_on_h0_zero"]
    re = o.evidence["restricted reading"]
    assert re["linear_parts_commute"] and not re["system_commutes"]
    assert re["prefixes"] == sum(6 ** t for t in range(1, 5)) and re["mismatches"] == 0
    assert re["step_failures"] == 0 and re["readout_failures"] == 0 and re["initial_ok"]
    assert "diag(s, s, 1, 1, 1)" in o.notes and "permutation matrix" in o.notes
    ctl = control_through_rule(c, ctx)
    assert ctl.rejected, ctl.reason
    assert ctl.evidence["verdicts"] == {
        "restricted layer without bias": {"abelian reading": "refined",
                                          "restricted reading": "inconclusive"},
        "commuting targets": {"abelian reading": "inconclusive"},
        "diag(1,0),E12 from e1 only": {"abelian reading": "refuted"}}


def test_restricted_evidence_names_the_system_and_the_layer():
    ev = l31.restricted_s3_evidence(2)
    assert ev["system"] == l31.S3_SYSTEM and ev["layer"] == l31.S3_LAYER
    assert ev["prefixes"] == 6 + 36 and ev["mismatches"] == 0
    assert l31.restricted_s3_evidence(2, bias=False)["layer"].endswith("(bias dropped)")


def _row(pair, h0, abelian, n_sep, restricted_abelian=None):
    return {"pair": pair, "h0": h0, "algebra_abelian": abelian, "n_separating_pairs": n_sep,
            "restricted_algebra_abelian": (n_sep == 0) if restricted_abelian is None
            else restricted_abelian}


def _ab(rows, identifies=True):
    return {"rows": rows, "abelian_identifies_reorderings": identifies}


_RESTRICTED_OK = {"linear_parts_commute": True, "system_commutes": False, "max_len": 4,
                  "prefixes": 1554, "mismatches": 0, "first_wrong_word": "",
                  "step_transitions": 36, "step_failures": 0, "initial_ok": True,
                  "readout_pairs": 36, "readout_failures": 0}


def test_lemma31_rule_on_synthetic_evidence():
    decide = l31.lemma31_decide
    # abelian reading alone: finitely many instances are supported, never confirmed
    assert decide(_ab([_row("A", "e1", False, 2), _row("A", "e2", False, 1)]), None)[0] \
        is Verdict.SUPPORTED
    assert decide(_ab([_row("A", "e1", False, 2), _row("A", "e2", False, 0)]), None)[0] \
        is Verdict.REFINED
    assert decide(_ab([_row("A", "e1", False, 0)]), None)[0] is Verdict.REFUTED
    assert decide(_ab([_row("A", "e1", True, 0)]), None)[0] is Verdict.INCONCLUSIVE
    assert decide(_ab([_row("A", "e1", False, 2)], False), None)[0] is Verdict.INCONCLUSIVE
    # the word search and the all-order criterion disagree
    assert decide(_ab([_row("A", "e1", False, 2, True)]), None)[0] is Verdict.INCONCLUSIVE
    # restricted reading: refuted only with the exact words and the inductive certificate
    refined = _ab([_row("A", "e1", False, 2), _row("A", "e2", False, 0)])
    v, per, why = decide(refined, _RESTRICTED_OK)
    assert v is Verdict.REFUTED and per == {"abelian reading": Verdict.REFINED,
                                            "restricted reading": Verdict.REFUTED}
    for bad in (dict(mismatches=3), dict(step_failures=1), dict(readout_failures=2),
                dict(initial_ok=False), dict(linear_parts_commute=False),
                dict(system_commutes=True), dict(prefixes=0)):
        v, per, _ = decide(refined, {**_RESTRICTED_OK, **bad})
        assert per["restricted reading"] is Verdict.INCONCLUSIVE, bad
        assert v is Verdict.INCONCLUSIVE, bad          # the weakest reading decides
    with pytest.raises(ValueError, match="mismatches"):
        decide(None, {**_RESTRICTED_OK, "mismatches": -1})
    with pytest.raises(ValueError, match="at least one reading"):
        decide(None, None)

"""depth.lemma3.1 (proofs_checks/claims/depth_lemma31.py), quick profile: the verdict under the
paper's reading, the other readings beside it, the negative control through the claim's decision
rule, and the rule on synthetic evidence (the experiments: tests/test_order_blind.py,
tests/test_orbit_module.py, tests/test_affine_readout.py)."""
import pytest

from seqtheory.proofs_checks.claims import depth_lemma31 as l31
from seqtheory.proofs_checks.registry import Context, Verdict, get_claim

from controls import control_through_rule


def test_lemma31(tmp_path):
    c = get_claim("depth.lemma3.1")
    assert c.premise is not None and "linear readout" in c.premise.text
    ctx = Context(seed=0, out_dir=tmp_path)
    o = c.check(ctx)
    # the paper's reading decides; the other readings are reported beside it, never combined
    assert o.verdict == Verdict.CONFIRMED
    assert "weakest" not in o.evidence["decision"]
    assert {r.name: r.outcome for r in o.readings} == {
        "fixed initial state h0, abelian layers (no bias)": Verdict.REFINED,
        "periodic output map (multiplies a stored h0; not a linear P)": Verdict.INCONCLUSIVE}  # S3: no flow
    assert o.readings[1].finding == "finding.s3_one_restricted_layer"
    paper = o.evidence["paper reading"]
    assert paper["identity_holds"] and paper["order_blind"]
    rows = {r["target"]: r for r in paper["targets"]}
    s3 = rows["S3 permutation action (3x3 permutation matrices)"]
    assert not s3["flow"] and "-1" in s3["determinants"]
    assert s3["lower_bound"] == pytest.approx(3 ** 0.5 / 2, abs=1e-12)   # ½‖C − C⁻¹‖₂ = √3/2
    assert rows["sl2 flows exp(E12), exp(E21)"]["lower_bound"] == pytest.approx(0.5, abs=1e-12)
    ab = o.evidence["fixed initial state (abelian layers)"]
    assert ab["gap_invisible_all_orders"] and ab["criteria_consistent"]
    gap = [r for r in o.tables["fixed initial state: separation"]
           if r["pair"] == "diag(1,0),E12" and r["h0"] == "e1"][0]
    assert gap["n_separating_pairs"] == 0 and gap["commutator_on_h0_zero"]
    re = o.evidence["periodic readout (finding.s3_one_restricted_layer)"]
    assert re["linear_parts_commute"] and not re["system_commutes"]
    assert re["prefixes"] == sum(6 ** t for t in range(1, 5)) and re["mismatches"] == 0
    assert re["step_failures"] == 0 and re["readout_failures"] == 0 and re["initial_ok"]
    assert re["linear_readout"]["mse_exact"] == "2/3"      # best affine readout: RMS √(2/3)
    assert "diag(s, s, 1, 1, 1)" in o.notes and "determinant −1" in o.notes
    ctl = control_through_rule(c, ctx)
    assert ctl.rejected, ctl.reason
    assert ctl.evidence["verdicts"] == {"linear parts need not commute": "inconclusive",
                                        "commuting targets": "inconclusive",
                                        "S3 alone (not a flow)": "inconclusive"}
    assert ctl.evidence["readings"] == {"diag(1,0),E12 from e1 only": "refuted",
                                        "periodic layer without bias": "inconclusive"}


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
                  "target_determinants": [1],
                  "prefixes": 1554, "mismatches": 0, "first_wrong_word": "",
                  "step_transitions": 36, "step_failures": 0, "initial_ok": True,
                  "readout_pairs": 36, "readout_failures": 0}


_TARGET = {"target": "T", "flow": True, "determinants": "1", "witness": "a·b / b·a",
           "difference": "[1]", "lower_bound": 0.5}
_PAPER = {"identity_holds": True, "order_blind": True, "targets": [_TARGET],
          "linear_readout_constructions": []}
_MADE = {"name": "S3", "restricted": True, "linear_readout": True, "every_initial_state": True,
         "exact": True, "target_nonabelian": True}


def test_lemma31_rule_on_synthetic_evidence():
    decide = l31.lemma31_decide
    assert decide(_PAPER)[0] is Verdict.CONFIRMED and decide(_PAPER)[2] == []
    # a construction with a linear readout refutes; with the identity verified it contradicts
    assert decide({**_PAPER, "order_blind": False, "linear_readout_constructions": [_MADE]})[0] \
        is Verdict.REFUTED
    assert decide({**_PAPER, "linear_readout_constructions": [_MADE]})[0] is Verdict.INCONCLUSIVE
    # a periodic (not linear) readout is no construction of the paper's reading
    assert decide({**_PAPER, "linear_readout_constructions": [
        dict(_MADE, linear_readout=False)]})[0] is Verdict.CONFIRMED
    for bad in ({"identity_holds": False}, {"order_blind": False},
                {"targets": [dict(_TARGET, witness="", lower_bound=0.0)]},
                {"targets": [dict(_TARGET, flow=False)]}):
        assert decide({**_PAPER, **bad})[0] is Verdict.INCONCLUSIVE, bad
    with pytest.raises(TypeError, match="order_blind"):
        decide({**_PAPER, "order_blind": 1})


def test_lemma31_readings_never_enter_the_verdict():
    decide = l31.lemma31_decide
    refined = _ab([_row("A", "e1", False, 2), _row("A", "e2", False, 0)])
    v, _, readings = decide(_PAPER, refined, _RESTRICTED_OK)
    assert v is Verdict.CONFIRMED
    assert [r.outcome for r in readings] == [Verdict.REFINED, Verdict.REFUTED]
    # the package's S3 witness is not a flow: that reading decides nothing
    s3 = l31.lemma31_decide(_PAPER, refined, l31.restricted_s3_evidence(2))[2][1]
    assert s3.outcome is Verdict.INCONCLUSIVE and "not" in s3.why and "flow" in s3.why
    v, _, readings = decide({**_PAPER, "identity_holds": False}, refined, _RESTRICTED_OK)
    assert v is Verdict.INCONCLUSIVE and readings[1].outcome is Verdict.REFUTED


def test_fixed_state_reading_on_synthetic_evidence():
    def reading(rows, identifies=True):
        return l31.lemma31_decide(_PAPER, _ab(rows, identifies))[2][0].outcome

    # finitely many instances are supported, never confirmed
    assert reading([_row("A", "e1", False, 2), _row("A", "e2", False, 1)]) is Verdict.SUPPORTED
    assert reading([_row("A", "e1", False, 2), _row("A", "e2", False, 0)]) is Verdict.REFINED
    assert reading([_row("A", "e1", False, 0)]) is Verdict.REFUTED
    assert reading([_row("A", "e1", True, 0)]) is Verdict.INCONCLUSIVE
    assert reading([_row("A", "e1", False, 2)], False) is Verdict.INCONCLUSIVE
    # the word search and the all-order criterion disagree
    assert reading([_row("A", "e1", False, 2, True)]) is Verdict.INCONCLUSIVE


def test_periodic_reading_on_synthetic_evidence():
    def reading(ev):
        return l31.lemma31_decide(_PAPER, None, ev)[2][0].outcome

    # refuted (under that reading) only with the exact words and the inductive certificate
    assert reading(_RESTRICTED_OK) is Verdict.REFUTED
    for bad in (dict(mismatches=3), dict(step_failures=1), dict(readout_failures=2),
                dict(initial_ok=False), dict(linear_parts_commute=False),
                dict(system_commutes=True), dict(prefixes=0),
                dict(target_determinants=[-1, 1])):    # a discrete witness (S3's transpositions)
        assert reading({**_RESTRICTED_OK, **bad}) is Verdict.INCONCLUSIVE, bad
    with pytest.raises(ValueError, match="mismatches"):
        reading({**_RESTRICTED_OK, "mismatches": -1})

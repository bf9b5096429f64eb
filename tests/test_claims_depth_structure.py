"""Claims depth.lemma3.1 and depth.prop3.3 (quick profile): verdicts, negative controls through
the claims' decision rules, and the rules on synthetic evidence."""
import pytest

from seqtheory.proofs_checks.claims import depth_structure as ds
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


def test_restricted_layer_reproduces_the_permutation_action_exactly():
    # by hand, independent of the layer code: the readout weight is the indicator of the
    # reduced state, and the permutation matrices multiply as the group does
    from fractions import Fraction

    from seqtheory.theory.groups import FiniteGroup

    for (s, c) in [(1, 0), (-1, 2)]:
        for sigma in (1, -1):
            for z in range(-7, 8):
                want = int(sigma == s and (z - c) % 3 == 0)
                assert ds.readout_weight((s, c), sigma, z) == Fraction(want)
    G = FiniteGroup.named("S3")
    P = {g: ds.permutation_matrix(g) for g in G.elements}
    for g in G.elements:
        for h in G.elements:
            prod = [[sum(P[g][i][k] * P[h][k][j] for k in range(3)) for j in range(3)]
                    for i in range(3)]
            assert tuple(map(tuple, prod)) == P[G.multiply(g, h)]
    ev = ds.restricted_s3_evidence(3, bias=False)
    assert ev["mismatches"] > 0 and ev["step_failures"] > 0


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
    decide = ds.lemma31_decide
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


def test_prop33(tmp_path):
    c = get_claim("depth.prop3.3")
    ctx = Context(seed=0, out_dir=tmp_path)
    o = c.check(ctx)
    cv = o.evidence["class_verdicts"]
    # universal bounds checked on finitely many instances: supported in every class, never
    # confirmed; attainment is reported, not a verdict
    assert set(cv.values()) == {"supported"}
    assert o.evidence["maxima"]["abelian x linear"] == [1, 2, 3, 3]
    assert o.evidence["maxima"]["abelian x polynomial"] == [1, 2, 3, 4]
    assert o.evidence["maxima"]["restricted x polynomial"] == [2, 4, 6]
    # the ladder cascade (linear part depending on the previous state) reaches 2k exactly:
    # lower bound by nested brackets, upper bound by the symbolic shape certificate
    ladder = [r for r in o.tables["instances"] if r["instance"].startswith("explicit ladder")]
    assert [(r["k"], r["lower"], r["upper"]) for r in ladder] == [(2, 4, 4), (3, 6, 6)]
    assert o.verdict is Verdict.SUPPORTED
    # the notes are generated from the evidence: no class said to attain a bound it does not
    assert "never exceeded" in o.notes and "weakest part" in o.notes
    assert "not attained at k = [4] (largest found {4: 3})" in o.notes
    assert "every stated bound is attained" not in o.notes
    assert "4..4 (2k = 4) at k = 2, 6..6 (2k = 6) at k = 3" in o.notes
    aff = o.evidence["affine_pair"]
    assert aff["bracket"] == "-1" and aff["derived_series"] == [2, 1, 0]
    assert o.figures and (tmp_path / o.figures[0]).exists()
    ctl = control_through_rule(c, ctx)
    assert ctl.rejected, ctl.reason
    assert set(ctl.evidence.values()) == {"refuted"} and len(ctl.evidence) == 3


def _summary(cls, layer, per_k):
    return {"class": cls, "layer": layer,
            "per_k": {k: {"bound": k if layer == "abelian" else 2 * k, "max": m,
                          "attained": m == (k if layer == "abelian" else 2 * k), "instances": 3,
                          "exceeding": e, "decided": 1, "undecided": u}
                      for k, (m, e, u) in per_k.items()}}


def test_prop33_rule_on_synthetic_evidence():
    decide = ds.prop33_decide
    ab_ok = _summary("abelian x polynomial", "abelian", {1: (1, 0, 0), 2: (2, 0, 0)})
    ab_short = _summary("abelian x linear", "abelian", {1: (1, 0, 0), 4: (3, 0, 0)})
    re_ok = _summary("restricted x polynomial", "restricted", {1: (2, 0, 0), 2: (4, 0, 0)})
    re_short = _summary("restricted x linear", "restricted", {1: (2, 0, 0), 2: (3, 0, 0)})
    re_open = _summary("restricted x polynomial", "restricted", {1: (2, 0, 0), 2: (3, 0, 1)})
    v, per, why = decide([ab_ok, ab_short, re_ok, re_short])
    # finitely many instances of a universal bound: supported, whether attained or not
    assert v is Verdict.SUPPORTED and set(per.values()) == {Verdict.SUPPORTED}
    assert "abelian x linear: supported (never exceeded on 6 instances at k = [1, 4]; " \
           "attained at k = [1]; not attained at k = [4] (largest found {4: 3}))" in why
    assert decide([ab_ok, re_short])[0] is Verdict.SUPPORTED
    assert decide([ab_ok, re_short, re_open])[0] is Verdict.INCONCLUSIVE
    bad = _summary("abelian x linear", "abelian", {2: (3, 1, 0)})
    v, per, why = decide([ab_ok, re_ok, bad])
    assert v is Verdict.REFUTED and per["abelian x linear"] is Verdict.REFUTED and "k = [2]" in why


def test_prop33_reproducible(tmp_path):
    c = get_claim("depth.prop3.3")
    a = c.check(Context(seed=3, out_dir=tmp_path / "a"))
    b = c.check(Context(seed=3, out_dir=tmp_path / "b"))
    assert a.tables["instances"] == b.tables["instances"]


def _bracketed(k, lower, upper, exact=False):
    return {"class": "restricted x polynomial", "k": k, "lower": lower, "upper": upper,
            "exact": exact, "not_solvable": False, "derived_length": lower if exact else None}


def test_prop33_certified_upper_bound_at_the_bound_decides_the_instance():
    # full profile, k = 3: two state-dependent instances bracketed 5 <= dl <= 6 = 2k cannot
    # exceed the bound; one with no certificate (upper None) or a weaker one (upper 7) can
    attained = _bracketed(3, 6, 6, exact=True)
    s = ds._class_summary([attained, _bracketed(3, 5, 6), _bracketed(3, 5, 6)], "restricted x polynomial",
                          "restricted")
    assert s["per_k"][3]["undecided"] == 0
    assert ds._class_verdict(s)[0] is Verdict.SUPPORTED
    for upper in (None, 7):
        s = ds._class_summary([attained, _bracketed(3, 5, upper)], "restricted x polynomial", "restricted")
        assert s["per_k"][3]["undecided"] == 1
        assert ds._class_verdict(s)[0] is Verdict.INCONCLUSIVE

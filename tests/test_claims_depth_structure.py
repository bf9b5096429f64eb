"""Claims depth.lemma3.1 and depth.prop3.3 (quick profile): verdicts, negative controls through
the claims' decision rules, and the rules on synthetic evidence."""
from seqtheory.proofs_checks.claims import depth_structure as ds
from seqtheory.proofs_checks.registry import Context, Verdict, get_claim

from controls import control_through_rule


def test_lemma31(tmp_path):
    c = get_claim("depth.lemma3.1")
    ctx = Context(seed=0, out_dir=tmp_path)
    o = c.check(ctx)
    assert o.verdict == Verdict.REFINED
    assert o.evidence["gap_invisible_all_orders"] and o.evidence["criteria_consistent"]
    gap = [r for r in o.tables["separation"] if r["pair"] == "diag(1,0),E12" and r["h0"] == "e1"][0]
    assert gap["n_separating_pairs"] == 0 and gap["commutator_on_h0_zero"]
    ctl = control_through_rule(c, ctx)
    assert ctl.rejected, ctl.reason
    assert ctl.evidence["verdicts"] == {"commuting targets": "inconclusive",
                                        "diag(1,0),E12 from e1 only": "refuted"}


def _row(pair, h0, abelian, n_sep, restricted_abelian=None):
    return {"pair": pair, "h0": h0, "algebra_abelian": abelian, "n_separating_pairs": n_sep,
            "restricted_algebra_abelian": (n_sep == 0) if restricted_abelian is None
            else restricted_abelian}


def test_lemma31_rule_on_synthetic_evidence():
    decide = ds.lemma31_decide
    assert decide([_row("A", "e1", False, 2), _row("A", "e2", False, 1)], True)[0] is Verdict.CONFIRMED
    assert decide([_row("A", "e1", False, 2), _row("A", "e2", False, 0)], True)[0] is Verdict.REFINED
    assert decide([_row("A", "e1", False, 0)], True)[0] is Verdict.REFUTED
    assert decide([_row("A", "e1", True, 0)], True)[0] is Verdict.INCONCLUSIVE
    assert decide([_row("A", "e1", False, 2)], False)[0] is Verdict.INCONCLUSIVE
    # the word search and the all-order criterion disagree
    assert decide([_row("A", "e1", False, 2, True)], True)[0] is Verdict.INCONCLUSIVE


def test_prop33(tmp_path):
    c = get_claim("depth.prop3.3")
    ctx = Context(seed=0, out_dir=tmp_path)
    o = c.check(ctx)
    cv = o.evidence["class_verdicts"]
    assert cv["abelian x polynomial"] == "confirmed"       # bound k attained, k = 1..4
    assert cv["abelian x linear"] == "refined"             # 1 + ceil(log2 k) < k at k = 4
    assert o.evidence["maxima"]["abelian x linear"] == [1, 2, 3, 3]
    assert o.evidence["maxima"]["abelian x polynomial"] == [1, 2, 3, 4]
    assert cv["restricted x linear"] == "refined"
    # the ladder cascade (linear part depending on the previous state) reaches 2k exactly:
    # lower bound by nested brackets, upper bound by the symbolic shape certificate
    assert cv["restricted x polynomial"] == "confirmed"
    assert o.evidence["maxima"]["restricted x polynomial"] == [2, 4, 6]
    ladder = [r for r in o.tables["instances"] if r["instance"].startswith("explicit ladder")]
    assert [(r["k"], r["lower"], r["upper"]) for r in ladder] == [(2, 4, 4), (3, 6, 6)]
    assert o.verdict is Verdict.CONFIRMED
    aff = o.evidence["affine_pair"]
    assert aff["bracket"] == "-1" and aff["derived_series"] == [2, 1, 0]
    assert o.figures and (tmp_path / o.figures[0]).exists()
    ctl = control_through_rule(c, ctx)
    assert ctl.rejected, ctl.reason
    assert set(ctl.evidence.values()) == {"refuted"} and len(ctl.evidence) == 3


def _summary(cls, layer, per_k):
    return {"class": cls, "layer": layer,
            "per_k": {k: {"bound": k if layer == "abelian" else 2 * k, "max": m,
                          "attained": m == (k if layer == "abelian" else 2 * k),
                          "exceeding": e, "decided": 1, "undecided": u}
                      for k, (m, e, u) in per_k.items()}}


def test_prop33_rule_on_synthetic_evidence():
    decide = ds.prop33_decide
    ab_ok = _summary("abelian x polynomial", "abelian", {1: (1, 0, 0), 2: (2, 0, 0)})
    ab_short = _summary("abelian x linear", "abelian", {1: (1, 0, 0), 4: (3, 0, 0)})
    re_ok = _summary("restricted x polynomial", "restricted", {1: (2, 0, 0), 2: (4, 0, 0)})
    re_short = _summary("restricted x linear", "restricted", {1: (2, 0, 0), 2: (3, 0, 0)})
    re_open = _summary("restricted x polynomial", "restricted", {1: (2, 0, 0), 2: (3, 0, 1)})
    v, per, _ = decide([ab_ok, ab_short, re_ok, re_short])
    assert v is Verdict.CONFIRMED and per["abelian x linear"] is Verdict.REFINED
    assert decide([ab_ok, re_short])[0] is Verdict.REFINED
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
    assert ds._class_verdict(s)[0] is Verdict.CONFIRMED
    for upper in (None, 7):
        s = ds._class_summary([attained, _bracketed(3, 5, upper)], "restricted x polynomial", "restricted")
        assert s["per_k"][3]["undecided"] == 1
        assert ds._class_verdict(s)[0] is Verdict.INCONCLUSIVE

"""depth.prop3.3 (proofs_checks/claims/depth_prop33.py), quick profile: the verdict, the negative
control through the claim's decision rule, reproducibility, and the rule on synthetic evidence."""
from seqtheory.proofs_checks.claims import depth_prop33 as p33
from seqtheory.proofs_checks.registry import Context, Verdict, get_claim

from controls import control_through_rule


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
    decide = p33.prop33_decide
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
    s = p33._class_summary([attained, _bracketed(3, 5, 6), _bracketed(3, 5, 6)],
                           "restricted x polynomial", "restricted")
    assert s["per_k"][3]["undecided"] == 0
    assert p33._class_verdict(s)[0] is Verdict.SUPPORTED
    for upper in (None, 7):
        s = p33._class_summary([attained, _bracketed(3, 5, upper)], "restricted x polynomial",
                               "restricted")
        assert s["per_k"][3]["undecided"] == 1
        assert p33._class_verdict(s)[0] is Verdict.INCONCLUSIVE

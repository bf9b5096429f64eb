"""Run the central depth claims (claims/depth_thm34.py, depth_prop37.py, depth_cor38.py) in the
quick profile: expected verdicts, figures, rejected controls."""
from __future__ import annotations

import pytest
from controls import control_through_rule

from seqtheory.proofs_checks.registry import Context, Verdict, get_claim

EXPECTED = {
    "depth.thm3.4": Verdict.SUPPORTED,   # exact cascades on 9 groups (finite-group form)
    "depth.prop3.7": Verdict.REFINED,    # ⌈log2 T⌉+1 holds; least depth is 2 (T ≥ 2)
    "depth.cor3.8": Verdict.REFINED,     # O(n^T/T) as Lie coordinates, not as a faithful rep
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
    ctl = control_through_rule(c, ctx)
    assert ctl.rejected, ctl.reason


def test_prop37_table(tmp_path):
    out = get_claim("depth.prop3.7").check(Context(seed=0, out_dir=tmp_path))
    n2 = {r["T"]: r for r in out.tables["least_depth"] if r["n"] == 2}
    assert [n2[T]["c*(T)"] for T in range(1, 9)] == [1, 2, 2, 3, 3, 3, 4, 4]
    assert out.evidence["bound_holds"]["ceil(log2 T)"] is False  # fails at T = 1, 2


def test_prop37_decision_rejects_too_small_bounds(tmp_path):
    from seqtheory.proofs_checks.claims.depth_prop37 import prop37_decision

    out = get_claim("depth.prop3.7").check(Context(seed=0, out_dir=tmp_path))
    rows = out.tables["least_depth"]
    assert all(r["least_depth"] == (1 if r["T"] == 1 else 2) for r in rows)
    assert prop37_decision(rows, "ceil(log2 T)+1") is Verdict.REFINED
    assert prop37_decision(rows, "ceil(log2 T)") is Verdict.REFUTED      # fails at T = 1, 2
    wrong = [{**r, "zero": 1} for r in rows]                              # "one layer always"
    assert prop37_decision(wrong, "zero") is Verdict.REFUTED


def test_thm34_induction_certificate(tmp_path):
    out = get_claim("depth.thm3.4").check(Context(seed=0, out_dir=tmp_path))
    rows = out.tables["cascades"]
    assert all(r["all_lengths_by_induction"] and r["state_tuples"] == r["order"] for r in rows)


def test_thm34_rule_on_synthetic_evidence():
    from seqtheory.proofs_checks.claims.depth_thm34 import thm34_decide

    row = {"group": "S3", "all_words_ok": True, "random_ok": True, "right_convention_ok": True,
           "all_lengths_by_induction": True, "layers": 2, "derived_length": 2}
    assert thm34_decide([row], True)[0] is Verdict.SUPPORTED
    assert thm34_decide([], True)[0] is Verdict.INCONCLUSIVE
    assert thm34_decide([dict(row, layers=3)], True)[0] is Verdict.INCONCLUSIVE
    assert thm34_decide([dict(row, random_ok=False)], True)[0] is Verdict.INCONCLUSIVE
    assert thm34_decide([row], False)[0] is Verdict.INCONCLUSIVE


def test_prop37_rule_on_synthetic_evidence():
    from seqtheory.proofs_checks.claims.depth_prop37 import prop37_decision

    rows = [{"T": T, "lower_depth": 1 if T == 1 else 2, "least_depth": 1 if T == 1 else 2,
             "bound": b} for T, b in ((1, 1), (2, 2), (4, 3))]
    assert prop37_decision(rows, "bound") is Verdict.REFINED
    # tight at every T computed: finitely many T of a bound for every T -> supported
    assert prop37_decision([dict(r, bound=2) for r in rows[1:]], "bound") is Verdict.SUPPORTED
    assert prop37_decision([dict(rows[1], bound=1)], "bound") is Verdict.REFUTED
    assert prop37_decision([dict(rows[1], least_depth=3, bound=2)], "bound") is Verdict.INCONCLUSIVE


def _construction(name, role, reading, n, size, T=range(2, 21)):
    return {"construction": name, "role": role, "reading": reading, "n": n, "T": list(T),
            "size": [size(n, t) for t in T]}


def test_cor38_rule_on_synthetic_evidence():
    """Every branch of the rule on synthetic state sizes: n^T/T (bounded ratio), n^T (ratio ~ T),
    n^T·T (ratio ~ T²) and a broken Witt count."""
    from seqtheory.proofs_checks.claims.depth_cor38 import cor38_decide

    small = lambda n, t: 3 * n ** t // t + 1          # noqa: E731  O(n^T/T)
    big = lambda n, t: n ** t                          # noqa: E731  order n^T
    faster = lambda n, t: n ** t * t                   # noqa: E731  n^T·T
    lie = "Lie-algebra coordinates"
    rep = "faithful matrix representation"

    def ev(lie_size, rep_size):
        return {"witt_equals_lyndon": True, "cumulative_to_20_n2": 111013, "constructions": [
            _construction("lie", "paper", lie, 2, lie_size),
            _construction("rep", "paper", rep, 2, rep_size),
            _construction("pkg", "package", rep, 2, faster)]}   # never the basis

    assert cor38_decide(ev(small, small))[0] is Verdict.SUPPORTED
    assert cor38_decide(ev(small, big))[0] is Verdict.REFINED
    assert cor38_decide(ev(big, big))[0] is Verdict.REFUTED
    assert cor38_decide(ev(faster, small))[0] is Verdict.REFUTED
    assert cor38_decide(dict(ev(small, small), witt_equals_lyndon=False))[0] is Verdict.INCONCLUSIVE
    assert cor38_decide(dict(ev(small, small), cumulative_to_20_n2=111012))[0] \
        is Verdict.INCONCLUSIVE
    table = cor38_decide(ev(small, big))[2]
    assert {r["construction"]: r["sub_verdict"] for r in table} == {
        "lie": "supported", "rep": "refuted", "pkg": "refuted"}


def test_cor38_measures_the_papers_construction_and_the_packages(tmp_path):
    out = get_claim("depth.cor3.8").check(Context(seed=0, out_dir=tmp_path))
    rows = {(r["construction"], r["n"]): r for r in out.tables["growth_exponents"]}
    for n in (2, 3):
        assert rows[("paper, Lie coordinates dim N(n,T)", n)]["class"] == "O(n^T/T)"
        assert rows[("paper, faithful rep Σ_(m≤T) n^m", n)]["class"] == "not O(n^T/T)"
        assert abs(rows[("paper, faithful rep Σ_(m≤T) n^m", n)]["beta"] - 1) < 1e-3
        assert rows[("package, faithful rep at class c*(T)", n)]["role"] == "package"
    assert "holds when the state counts Lie-algebra coordinates" in out.evidence["decision"]


def test_thm34_says_it_is_the_finite_group_form(tmp_path):
    """The verdict must not read as the Lie-algebraic theorem: statement, evidence and notes name
    the finite-group form and what the Lie-algebraic form would add."""
    c = get_claim("depth.thm3.4")
    assert "finite-group (discrete) form" in c.statement
    assert "Not a check of the Lie-algebraic form" in c.statement
    out = c.check(Context(seed=0, out_dir=tmp_path))
    assert out.evidence["form_checked"] == "finite groups (discrete form)"
    assert "continuous time" in out.notes and "not a verdict on the Lie-algebraic" in out.notes
    assert len(out.evidence["groups"]) == 9

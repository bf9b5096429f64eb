"""Run the central depth claims (claims/depth_thm34.py, depth_prop37.py, depth_cor38.py) in the
quick profile: expected verdicts, figures, rejected controls."""
from __future__ import annotations

import pytest
from controls import control_through_rule

from seqtheory.proofs_checks.registry import Context, Verdict, get_claim

EXPECTED = {
    "depth.thm3.4": Verdict.SUPPORTED,   # 9 groups (finite-group form), 6 + 2 Lie algebras
    "depth.prop3.7": Verdict.REFINED,    # ⌈log2 T⌉+1 holds; least depth 2 (lookup readout)
    "depth.cor3.8": Verdict.REFINED,     # certified for every T, under the Lie-coordinate reading (unsourced)
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
    assert prop37_decision(rows, "ceil(log2 T)+1")[0] is Verdict.REFINED
    assert prop37_decision(rows, "ceil(log2 T)")[0] is Verdict.REFUTED      # fails at T = 1, 2
    wrong = [{**r, "zero": 1} for r in rows]                                 # "one layer always"
    assert prop37_decision(wrong, "zero")[0] is Verdict.REFUTED


def test_prop37_says_what_depth_2_needs(tmp_path):
    """The least depth 2 rests on a lookup output map and, beyond the free-nilpotent
    construction's reach, on exponentially precise states: measured, not quoted."""
    out = get_claim("depth.prop3.7").check(Context(seed=0, out_dir=tmp_path))
    summ = out.evidence["two_layer_cascade_summary"]
    assert summ[2]["cascade_bits_at_T"] == 11 * 10 + 1 and summ[3]["cascade_bits_at_T"] == 49 * 6 + 1
    assert summ[2]["float64_max_T"] == 8 and summ[3]["float64_max_T"] == 4
    assert summ[2]["T3"] == 12 and summ[3]["T3"] == 7
    assert "lookup output map" in out.key_figure and "bits" in out.key_figure
    assert [r.outcome for r in out.readings] == [Verdict.INCONCLUSIVE]


def test_thm34_induction_certificate(tmp_path):
    out = get_claim("depth.thm3.4").check(Context(seed=0, out_dir=tmp_path))
    rows = out.tables["cascades"]
    assert all(r["all_lengths_by_induction"] and r["state_tuples"] == r["order"] for r in rows)


def test_thm34_rule_on_synthetic_evidence():
    from seqtheory.proofs_checks.claims.depth_thm34 import thm34_finite_decide

    row = {"group": "S3", "all_words_ok": True, "random_ok": True, "right_convention_ok": True,
           "all_lengths_by_induction": True, "layers": 2, "derived_length": 2}
    assert thm34_finite_decide([row], True)[0] is Verdict.SUPPORTED
    assert thm34_finite_decide([], True)[0] is Verdict.INCONCLUSIVE
    assert thm34_finite_decide([dict(row, layers=3)], True)[0] is Verdict.INCONCLUSIVE
    assert thm34_finite_decide([dict(row, random_ok=False)], True)[0] is Verdict.INCONCLUSIVE
    assert thm34_finite_decide([row], False)[0] is Verdict.INCONCLUSIVE
    # a proven lower bound above the derived length refutes "k layers suffice"
    assert thm34_finite_decide([dict(row, certified_min_layers=3)], True)[0] is Verdict.REFUTED
    assert "finite-group proxy" in thm34_finite_decide([row], True)[1]


_LIE_SOLVABLE = {"algebra": "N(6,14)", "solvable": True, "derived_length": 3, "layers": 3,
                 "exact": True, "tracked": True}
_LIE_NON = {"algebra": "gl(2)", "solvable": False, "levi_dim": 3, "levi_semisimple": True,
            "reached": False}


def test_thm34_lie_rule_refutes_supports_and_abstains():
    """The Lie part's rule on synthetic evidence: an exact miss of derived-length-many layers, or
    a non-solvable algebra reached, refutes; both kinds tracked / left supports; missing kinds,
    a float miss, a wrong depth or no Levi factor abstain."""
    from seqtheory.proofs_checks.claims.depth_thm34_lie import thm34_lie_decide

    ok = [_LIE_SOLVABLE, _LIE_NON]
    assert thm34_lie_decide(ok)[0] is Verdict.SUPPORTED
    assert thm34_lie_decide([dict(_LIE_SOLVABLE, tracked=False), _LIE_NON])[0] is Verdict.REFUTED
    assert thm34_lie_decide([_LIE_SOLVABLE, dict(_LIE_NON, reached=True)])[0] is Verdict.REFUTED
    float_miss = dict(_LIE_SOLVABLE, algebra="b(3)", exact=False, tracked=False)
    assert thm34_lie_decide(ok + [float_miss])[0] is Verdict.INCONCLUSIVE
    assert thm34_lie_decide([dict(_LIE_SOLVABLE, layers=2, tracked=False), _LIE_NON])[0] \
        is Verdict.INCONCLUSIVE
    assert thm34_lie_decide([_LIE_SOLVABLE])[0] is Verdict.INCONCLUSIVE
    assert thm34_lie_decide([_LIE_NON])[0] is Verdict.INCONCLUSIVE
    assert thm34_lie_decide([dict(_LIE_SOLVABLE, exact=False), _LIE_NON])[0] \
        is Verdict.INCONCLUSIVE
    assert thm34_lie_decide([_LIE_SOLVABLE, dict(_LIE_NON, levi_dim=0)])[0] \
        is Verdict.INCONCLUSIVE


def test_thm34_parts_combine_by_the_weakest():
    from seqtheory.proofs_checks.claims.depth_thm34 import thm34_decide

    row = {"group": "S3", "all_words_ok": True, "random_ok": True, "right_convention_ok": True,
           "all_lengths_by_induction": True, "layers": 2, "derived_length": 2}
    ok = [_LIE_SOLVABLE, _LIE_NON]
    v, why = thm34_decide([row], True, ok)
    assert v is Verdict.SUPPORTED and "finite-group form" in why and "Lie-algebraic form" in why
    assert thm34_decide([row], True, [dict(_LIE_SOLVABLE, tracked=False), _LIE_NON])[0] \
        is Verdict.REFUTED
    assert thm34_decide([dict(row, layers=3)], True, ok)[0] is Verdict.INCONCLUSIVE


def test_prop37_rule_on_synthetic_evidence():
    from seqtheory.proofs_checks.claims.depth_prop37 import prop37_decision

    rows = [{"T": T, "lower_depth": 1 if T == 1 else 2, "least_depth": 1 if T == 1 else 2,
             "bound": b} for T, b in ((1, 1), (2, 2), (4, 3))]
    assert prop37_decision(rows, "bound")[0] is Verdict.REFINED
    # tight at every T computed: finitely many T of a bound for every T -> supported
    assert prop37_decision([dict(r, bound=2) for r in rows[1:]], "bound")[0] is Verdict.SUPPORTED
    assert prop37_decision([dict(rows[1], bound=1)], "bound")[0] is Verdict.REFUTED
    assert prop37_decision([dict(rows[1], least_depth=3, bound=2)], "bound")[0] \
        is Verdict.INCONCLUSIVE
    # the linear-readout reading is reported, never combined into the verdict
    v, _, readings = prop37_decision(rows, "bound")
    assert v is Verdict.REFINED and readings[0].outcome is Verdict.INCONCLUSIVE


def _construction(name, role, reading, n, size, T=range(2, 21)):
    return {"construction": name, "role": role, "reading": reading, "n": n, "T": list(T),
            "size": [size(n, t) for t in T]}


_CERT = {"steps": {"ratio_step": True, "geometric_sum": True},
         "witt_rows": [{"holds": True, "counts_primitive_words": True}],
         "bound_rows": [{"holds": True}]}


def test_cor38_rule_on_synthetic_evidence():
    """Every branch of the rule on synthetic state sizes: n^T/T (bounded ratio), n^T (ratio ~ T),
    n^T·T (ratio ~ T²), with and without the exact certificate, and a broken Witt count."""
    from seqtheory.proofs_checks.claims.depth_cor38 import cor38_decide

    small = lambda n, t: 3 * n ** t // t + 1          # noqa: E731  O(n^T/T)
    big = lambda n, t: n ** t                          # noqa: E731  order n^T
    faster = lambda n, t: n ** t * t                   # noqa: E731  n^T·T
    tiny = lambda n, t: t                              # noqa: E731  far below

    def ev(lie_size, up=big, lo=tiny, cert=None, built=True, source="a source"):
        return {"witt_equals_lyndon": True, "cumulative_to_20_n2": 111013, "reading_source": source,
                "certificate": cert, "lie_coordinates_realised": built, "constructions": [
                    _construction("lie", "paper", "Lie-algebra coordinates", 2, lie_size),
                    _construction("up", "reading", "faithful representation, upper bound", 2, up),
                    _construction("lo", "reading", "faithful representation, lower bound", 2, lo),
                    _construction("pkg", "package", "faithful", 2, faster)]}   # never the basis

    assert cor38_decide(ev(small, cert=_CERT))[0] is Verdict.CONFIRMED
    assert cor38_decide(ev(small))[0] is Verdict.SUPPORTED
    # the reading unsourced (as today: SPEC §3.1): at most refined, the reading named
    v, why = cor38_decide(ev(small, cert=_CERT, source=""))[:2]
    assert v is Verdict.REFINED and "Lie-coordinate reading" in why
    assert cor38_decide(ev(small, source=""))[0] is Verdict.REFINED
    assert cor38_decide(ev(big, source=""))[0] is Verdict.REFUTED
    assert cor38_decide(ev(small, cert=_CERT, built=False))[0] is Verdict.SUPPORTED
    for broken in ({"steps": {"ratio_step": False, "geometric_sum": True}},
                   {"witt_rows": [{"holds": False, "counts_primitive_words": None}]},
                   {"witt_rows": [{"holds": True, "counts_primitive_words": False}]},
                   {"bound_rows": [{"holds": False}]}):
        assert cor38_decide(ev(small, cert={**_CERT, **broken}))[0] is Verdict.SUPPORTED, broken
    assert cor38_decide(ev(big))[0] is Verdict.REFUTED
    assert cor38_decide(ev(faster))[0] is Verdict.REFUTED
    assert cor38_decide(ev(big, cert=_CERT))[0] is Verdict.INCONCLUSIVE      # contradiction
    assert cor38_decide(dict(ev(small), witt_equals_lyndon=False))[0] is Verdict.INCONCLUSIVE
    assert cor38_decide(dict(ev(small), cumulative_to_20_n2=111012))[0] is Verdict.INCONCLUSIVE
    # the faithful-representation reading: decided by its bracket, never in the verdict
    reading = lambda e: cor38_decide(e)[3][0].outcome                        # noqa: E731
    assert reading(ev(small, cert=_CERT)) is Verdict.INCONCLUSIVE
    assert reading(ev(small, up=small)) is Verdict.SUPPORTED
    assert reading(ev(small, lo=big)) is Verdict.REFUTED
    table = cor38_decide(ev(small))[2]
    assert {r["construction"]: r["sub_verdict"] for r in table} == {
        "lie": "supported", "up": "refuted", "lo": "supported", "pkg": "refuted"}


def test_cor38_certificate_and_the_faithful_representation_bracket(tmp_path):
    out = get_claim("depth.cor3.8").check(Context(seed=0, out_dir=tmp_path))
    rows = {(r["construction"], r["n"]): r for r in out.tables["growth_exponents"]}
    for n in (2, 3):
        assert rows[("paper, Lie coordinates dim N(n,T)", n)]["class"] == "O(n^T/T)"
        assert rows[("faithful rep of N(n,T), upper: Σ_(m≤T) n^m", n)]["class"] == "not O(n^T/T)"
        assert abs(rows[("faithful rep of N(n,T), upper: Σ_(m≤T) n^m", n)]["beta"] - 1) < 1e-3
        assert rows[("package, faithful rep at class c*(T)", n)]["role"] == "package"
    assert all(r["holds"] for r in out.tables["certificate: dim N(n,T) ≤ (n/(n-1))² n^T/T"])
    assert all(r["equal"] for r in out.tables["built cascades: state = Lie coordinates"])
    assert [r.outcome for r in out.readings] == [Verdict.INCONCLUSIVE]
    assert "certificate for every T" in out.evidence["decision"]


def test_thm34_names_its_two_parts_and_what_they_leave_out(tmp_path):
    """The verdict names what each part covers: the statement and the evidence name the
    finite-group and the Lie-algebraic forms, each part has its own verdict in the report, and
    the notes say what neither covers (continuous inputs, every solvable Lie algebra)."""
    c = get_claim("depth.thm3.4")
    assert "finite-group (discrete) form" in c.statement and "Lie-algebraic form" in c.statement
    out = c.check(Context(seed=0, out_dir=tmp_path))
    assert len(out.evidence["forms_checked"]) == 2
    assert [p["part"] for p in out.tables["parts"]] == out.evidence["forms_checked"]
    assert all(p["verdict"] == "supported" for p in out.tables["parts"])
    assert "continuous inputs" in out.notes and "every solvable Lie algebra" in out.notes
    assert len(out.evidence["groups"]) == 9
    lie = {r["algebra"]: r for r in out.tables["lie_cascades"]}
    assert lie["N(6,14)"]["layers"] == lie["N(6,14)"]["derived_length"] == 3
    assert lie["N(6,14)"]["max_error"] == 0.0 and lie["N(6,14)"]["fewer_layers_error"] > 0
    assert lie["gl(2)"]["levi_dim"] == 3 and not lie["gl(2)"]["reached"]



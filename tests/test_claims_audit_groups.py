"""Claims audit.task_groups, audit.representation and audit.paper_rotation_task
(proofs_checks/claims/audit_*.py): quick profile verdicts, negative controls, and the checking
logic on wrong inputs."""
from __future__ import annotations

import numpy as np
import pytest

from seqtheory.proofs_checks.claims import audit_paper_rotation_task as apr
from seqtheory.proofs_checks.claims import audit_representation as arep
from seqtheory.proofs_checks.claims import audit_task_groups as atg
from seqtheory.proofs_checks.registry import Context, Verdict, get_claim
from seqtheory.theory.groups import FiniteGroup

from controls import control_through_rule


@pytest.fixture
def ctx(tmp_path):
    return Context(seed=0, out_dir=tmp_path)


def test_task_groups_confirmed(ctx, tmp_path):
    c = get_claim("audit.task_groups")
    out = c.check(ctx)
    assert out.verdict is Verdict.CONFIRMED
    assert out.evidence["failures"] == []
    rows = {r["group"]: r for r in out.tables["task_groups"]}
    assert [rows[n]["derived_length"] for n in atg.TASK_GROUPS] == [1, 1, 2, 2, 2, 3, None]
    assert rows["A5"]["perfect"] and rows["A5"]["derived_series"] == "60 (stabilises)"
    assert rows["S4"]["derived_series"] == "24-12-4-1"
    assert all(r["identified_with_reference"] for r in rows.values())
    h2 = out.evidence["heisenberg_mod_2"]
    assert h2["isomorphic"] and h2["verified"] and h2["pairs_respected"] == 64
    assert not h2["H3(3) isomorphic to D8"]
    assert out.figures and all((tmp_path / f).exists() for f in out.figures)


@pytest.mark.parametrize("seed", [0, 1, 7])
def test_task_groups_control_rejected(tmp_path, seed):
    co = control_through_rule(get_claim("audit.task_groups"), Context(seed=seed, out_dir=tmp_path))
    assert co.rejected, co.reason
    assert co.evidence["caught_swap"] and co.evidence["caught_q8"]
    # Q8 fools the series/class comparison alone: only the identification catches it
    assert co.evidence["q8_matches_d8_oracle_invariants"]


def test_task_groups_decision_rule_on_synthetic_evidence():
    assert atg.task_groups_decide([], list(atg.TASK_GROUPS))[0] is Verdict.CONFIRMED
    verdict, why = atg.task_groups_decide(["D8: derived_length = 3, oracle 2"], ["D8"])
    assert verdict is Verdict.REFUTED and "D8" in why
    # no failure among the groups checked, but not every named group checked: no certificate
    verdict, why = atg.task_groups_decide([], ["C2", "D8"])
    assert verdict is Verdict.INCONCLUSIVE and "C3" in why


def test_evaluation_flags_wrong_oracle(monkeypatch):
    """The verdict follows the comparison: a wrong oracle value is reported as a failure."""
    bad = dict(atg.ORACLES)
    bad["S4"] = {**bad["S4"], "derived_series": (24, 12, 1)}
    monkeypatch.setattr(atg, "ORACLES", bad)
    res = atg.evaluate_task_groups(
        {"S4": np.array(FiniteGroup.named("S4").cayley_table())})
    assert res["failures"] and "derived_series" in res["failures"][0]
    out = get_claim("audit.task_groups").check(Context(seed=0))
    assert out.verdict is Verdict.REFUTED


def test_evaluation_catches_relabelled_wrong_group():
    """A genuine group passed off as another (S3's table labelled 'C3'):
    identification and oracle comparison both fail."""
    res = atg.evaluate_task_groups({"C3": np.array(FiniteGroup.named("S3").cayley_table())})
    assert any("not isomorphic" in f for f in res["failures"])
    assert not res["rows"][0]["matches_oracle"]


def test_representation_confirmed_and_control(ctx):
    c = get_claim("audit.representation")
    out = c.check(ctx)
    assert out.verdict is Verdict.CONFIRMED
    ex = out.evidence["exact_audit"]
    assert ex["n_distinct"] == 60 and ex["n_respected"] == 3600 and ex["is_faithful"]
    assert out.evidence["all_rotations"]
    co = control_through_rule(c, ctx)
    assert co.rejected, co.reason
    assert 0 < co.evidence["fraction_respected"] < 1


def _intercalate_swap(T: np.ndarray, identity: int) -> np.ndarray:
    """Swap a 2x2 Latin subsquare (intercalate) away from the identity: the table stays a Latin
    square with identity, so only the associativity test can catch it."""
    import itertools

    N = len(T)
    for i, j in itertools.combinations(range(N), 2):
        for k, l in itertools.combinations(range(N), 2):
            if T[i, k] == T[j, l] and T[i, l] == T[j, k] and identity not in (i, j, k, l):
                B = T.copy()
                B[i, k], B[i, l], B[j, k], B[j, l] = T[i, l], T[i, k], T[j, l], T[j, k]
                return B
    raise AssertionError("no intercalate")  # pragma: no cover


@pytest.mark.parametrize("name", ["D8", "S4"])
def test_latin_but_not_associative_table_is_refused(name):
    G = FiniteGroup.named(name)
    B = _intercalate_swap(np.array(G.cayley_table()), G.identity_index)
    assert all(len(set(r)) == len(B) for r in B) and all(len(set(c)) == len(B) for c in B.T)
    fails = atg.evaluate_task_groups({name: B})["failures"]
    assert fails and "associativity" in fails[0]


def test_wrong_group_and_relabelled_group():
    T = np.array(FiniteGroup.named("S3").cayley_table())
    p = np.random.default_rng(1).permutation(6)
    inv = np.argsort(p)
    assert atg.evaluate_task_groups({"S3": p[T[inv][:, inv]]})["failures"] == []  # isomorphic copy
    fails = atg.evaluate_task_groups({"S3": np.array(FiniteGroup.cyclic(6).cayley_table())})["failures"]
    assert any("not isomorphic" in f for f in fails)


def test_transposed_rotation_images_are_not_a_representation():
    """g -> M(g)ᵀ = M(g⁻¹) is an anti-homomorphism (A5 is not abelian): must be refused."""
    from seqtheory.theory.representations import icosahedral_representation

    rep = icosahedral_representation()
    ev = arep.evaluate_representation(rep.group, {g: M.T for g, M in rep.matrices.items()})
    assert not ev["ok"] and not ev["audit"].is_homomorphism


def _rep_summary(**kw):
    base = {"order": 60, "n_distinct": 60, "n_respected": 3600, "n_pairs": 3600,
            "identity_maps_to_identity": True, "all_rotations": True, "group_perfect": True}
    return {**base, **kw}


def test_representation_rule_on_synthetic_evidence():
    assert arep.representation_decide(_rep_summary(), True)[0] is Verdict.CONFIRMED
    for bad in (dict(n_respected=3599), dict(n_distinct=30), dict(all_rotations=False),
                dict(identity_maps_to_identity=False), dict(group_perfect=False)):
        assert arep.representation_decide(_rep_summary(**bad), True)[0] is Verdict.REFUTED, bad
    assert arep.representation_decide(_rep_summary(), False)[0] is Verdict.REFUTED


def test_paper_rotation_task_refuted_exactly(ctx):
    c = get_claim("audit.paper_rotation_task")
    out = c.check(ctx)
    assert out.verdict is Verdict.REFUTED
    rows = {r["map"]: r for r in out.evidence["rows"]}
    for name in ("released, x·g = x∘g", "released, x·g = g∘x"):
        assert rows[name]["n_distinct"] == 30 and rows[name]["n_respected"] == 769
        assert not rows[name]["is_homomorphism"]
    ref = rows["package (faithful icosahedral)"]
    assert ref["n_distinct"] == 60 and ref["n_respected"] == 3600
    o = out.evidence["element_and_matrix_orders"]
    assert (o["a"], o["b"], o["a∘b"]) == (3, 5, 5) and (o["A"], o["B"], o["AB"]) == (3, 5, 2)
    assert out.evidence["order_of_group_generated_by_A_B"] == 60
    co = control_through_rule(c, ctx)
    assert co.rejected, co.reason


def _rot_row(name, hom, distinct=60, order=60):
    return {"map": name, "order": order, "n_distinct": distinct, "is_homomorphism": hom,
            "n_respected": 3600 if hom else 100, "n_pairs": 3600}


def test_paper_rotation_rule_on_synthetic_evidence():
    ref = _rot_row("ref", True)
    decide = apr.paper_rotation_decide
    assert decide([ref, _rot_row("x", False, 30), _rot_row("y", False, 30)], ["x", "y"], "ref")[0] \
        is Verdict.REFUTED
    assert decide([ref, _rot_row("x", False, 30), _rot_row("y", True)], ["x", "y"], "ref")[0] \
        is Verdict.CONFIRMED
    # the audit machinery fails on the reference: nothing can be concluded
    assert decide([_rot_row("ref", False), _rot_row("x", False)], ["x"], "ref")[0] \
        is Verdict.INCONCLUSIVE
    assert decide([_rot_row("ref", True, 30), _rot_row("x", False)], ["x"], "ref")[0] \
        is Verdict.INCONCLUSIVE


def test_paper_rotation_map_construction():
    from seqtheory.theory.representations import paper_rotation_map, paper_rotation_matrices

    A, B = paper_rotation_matrices()
    import sympy

    assert (B.T * B).applyfunc(sympy.simplify) == sympy.eye(3) and sympy.simplify(B.det()) == 1
    m = paper_rotation_map()
    assert len(m.images) == 60 and len(m.bfs_order) == 60
    assert m.images[m.group.identity_index] == sympy.eye(3)
    with pytest.raises(ValueError, match="composition"):
        paper_rotation_map("left")
    with pytest.raises(ValueError, match="pair"):
        paper_rotation_map(matrices=(A,))
    # the same BFS from images that satisfy A5's relations is a representation
    from seqtheory.theory.representations import audit_representation, icosahedral_representation

    rep = icosahedral_representation()
    a, b = (1, 2, 0, 3, 4), (1, 2, 3, 4, 0)
    faithful = paper_rotation_map(matrices=(rep.matrices[a], rep.matrices[b]))
    assert audit_representation(faithful.group, faithful.images).is_homomorphism

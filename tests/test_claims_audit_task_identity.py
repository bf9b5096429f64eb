"""audit.task_identity (proofs_checks/claims/audit_task_identity.py): the check and its control,
the decision rule on synthetic rows, and the table recovery on bad data."""
import numpy as np
import pytest
from controls import control_through_rule

from seqtheory.proofs_checks.claims import audit_task_identity as ati
from seqtheory.proofs_checks.registry import Context, Verdict, get_claim


def _ctx(tmp_path):
    return Context(seed=0, out_dir=tmp_path, results_dir=tmp_path / "results")


def test_task_identity_confirmed_and_h3_over_z2_detected(tmp_path):
    c = get_claim("audit.task_identity")
    out = c.check(_ctx(tmp_path))
    assert out.verdict == Verdict.CONFIRMED
    assert all(r["isomorphic_to_claimed"] for r in out.tables["identity"])
    ctl = control_through_rule(c, _ctx(tmp_path))
    assert ctl.rejected and "D8" in ctl.reason


def test_identity_rule():
    ok = {"task": "S3", "isomorphic_to_claimed": True}
    assert ati.identity_decide([ok], ["S3"])[0] == Verdict.CONFIRMED
    bad = {"task": "H3", "isomorphic_to_claimed": False}
    assert ati.identity_decide([ok, bad], ["S3", "H3"])[0] == Verdict.REFUTED
    # a named task not recovered, or none at all: nothing can be said of it
    assert ati.identity_decide([ok], ["S3", "A5"])[0] == Verdict.INCONCLUSIVE
    assert ati.identity_decide([], [])[0] == Verdict.INCONCLUSIVE


def test_table_from_data_rejects_inconsistent_data():
    tok = np.array([[0, 1], [0, 1]])
    lab = np.array([[0, 1], [0, 0]])        # same word, two different products
    with pytest.raises(ValueError, match="contradict"):
        ati.table_from_data(tok, lab, 2, 0)
    with pytest.raises(ValueError, match="not observed"):
        ati.table_from_data(np.array([[1]]), np.array([[1]]), 2, 0)

"""depth.exp.s3_depth (proofs_checks/claims/depth_s3_trained.py): the decision rule on synthetic
evidence and the seeds per profile."""
from seqtheory.proofs_checks.claims import depth_s3_trained as st
from seqtheory.proofs_checks.registry import Context, Verdict

_S, _I, _R = Verdict.SUPPORTED, Verdict.INCONCLUSIVE, Verdict.REFUTED


def test_s3_rule():
    ev = {"abelian L=1": {"8T": [0.0, 0.0, 0.0]}, "aussm L=1": {"8T": [0.3, 0.5, 0.1]},
          "aussm L=2": {"8T": [0.95, 0.99, 0.92]}}
    assert st.s3_decide(ev)[0] == _S
    assert st.s3_decide(dict(ev, **{"aussm L=1": {"8T": [0.3, 0.95, 0.1]}}))[0] == _I
    assert st.s3_decide(dict(ev, **{"aussm L=1": {"8T": [0.93, 0.95, 0.91]}}))[0] == _R
    assert st.s3_decide(dict(ev, **{"aussm L=2": {"8T": [0.95, 0.5, 0.92]}}))[0] == _I
    assert st.s3_decide(dict(ev, **{"abelian L=1": {"8T": [0.0, 0.95, 0.0]}}))[0] == _R


def test_s3_cells_have_the_profiles_seeds():
    assert len(st.s3_cfgs(Context(seed=0), "aussm", 2)) >= 3
    assert len(st.s3_cfgs(Context(seed=0, profile="full"), "aussm", 2)) >= 5

"""depth.exp.s3_depth (proofs_checks/claims/depth_s3_trained.py): the decision rule on synthetic
evidence (the paper's protocol, 2T; the readings at 8T and for the purely abelian layer; seed
blocks) and the seeds per profile."""
from seqtheory.proofs_checks.claims import depth_s3_trained as st
from seqtheory.proofs_checks.registry import Context, Verdict

_S, _I, _R = Verdict.SUPPORTED, Verdict.INCONCLUSIVE, Verdict.REFUTED


def _ev(one, two, abelian=(0.0, 0.0), at="2T"):
    return {"abelian L=1": {at: list(abelian)}, "aussm L=1": {at: list(one)},
            "aussm L=2": {at: list(two)}}


def _both(a, b=None):
    return {"A": ([0, 1], a), "B": ([2, 3], a if b is None else b)}


def test_s3_rule_decides_the_restricted_class_at_2T():
    good = _ev((0.3, 0.1), (0.95, 0.99))
    assert st.s3_decide(_both(good))[0] == _S
    assert st.s3_decide(_both(_ev((0.3, 0.95), (0.95, 0.99))))[0] == _I      # one layer in 1/2
    assert st.s3_decide(_both(_ev((0.93, 0.95), (0.95, 0.99))))[0] == _R     # one layer solves it
    # two layers that do not train: inconclusive, never against "two suffice"
    v, why, _ = st.s3_decide(_both(_ev((0.0, 0.0), (0.2, 0.1))))
    assert v == _I and "did not train" in why
    # the purely abelian arm is beside the verdict, not in it
    assert st.s3_decide(_both(_ev((0.3, 0.1), (0.95, 0.99), abelian=(0.95, 0.97))))[0] == _S
    # blocks that disagree
    v, why, _ = st.s3_decide(_both(good, _ev((0.0, 0.0), (0.2, 0.1))))
    assert v == _I and "disagree" in why


def test_s3_readings_abelian_and_beyond_the_protocol():
    ev = _ev((0.3, 0.1), (0.95, 0.99), abelian=(0.95, 0.97))
    ev = {arm: dict(v, **{"8T": [0.0, 0.0]}) for arm, v in ev.items()}
    v_ab, why, _ = st.s3_decide(_both(ev), arms=st.ABELIAN)
    assert v_ab == _R and "purely abelian" in why
    readings = st.s3_readings(_both(ev))
    assert [r.outcome for r in readings] == [_R, _I]
    assert "8T" in readings[1].name and "abelian" in readings[0].name


def test_s3_cells_have_both_blocks_of_seeds():
    assert len(st.s3_cfgs(Context(seed=0), "aussm", 2)) == 4
    assert len(st.s3_cfgs(Context(seed=0, profile="full"), "aussm", 2)) == 10
    seeds = [c.seed for c in st.s3_cfgs(Context(seed=0, profile="full"), "aussm", 2)]
    assert len(set(seeds)) == 10

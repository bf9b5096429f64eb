"""finding.deep_models_hard_to_train (proofs_checks/claims/finding_deep_training.py) and the seed
blocks of proofs_checks/seed_blocks.py: the rule on synthetic evidence, the plan (the reference
arm is finding.parity_negative_eigenvalues' signed runs), the control's variant."""
import pytest

from seqtheory.proofs_checks.claims import finding_deep_training as dt
from seqtheory.proofs_checks.claims import finding_parity as fp
from seqtheory.proofs_checks.registry import Context, Verdict, get_claim
from seqtheory.proofs_checks.seed_blocks import replicated, rows_by_block

_S, _I, _R = Verdict.SUPPORTED, Verdict.INCONCLUSIVE, Verdict.REFUTED


def _rows(reference, deep, cell="C2"):
    return [{"cell": cell, "role": role, "depth": 1 if role == "reference" else 8, "acc_at_T": a,
             "block": "A" if i < 3 else "B", "seed_pos": i}
            for role, accs in (("reference", reference), ("deep", deep)) for i, a in enumerate(accs)]


def test_deep_rule():
    v, why, stats = dt.deep_decide(_rows([1.0] * 5, [0.3] * 5))
    assert v == _S and "only the deep model fails" in why, why
    v, why, _ = dt.deep_decide(_rows([1.0] * 5, [0.95] * 5))
    assert v == _R and "trains at this scale" in why
    assert dt.deep_decide(_rows([0.2] * 5, [0.2] * 5))[0] == _I        # the task is hard for both
    assert dt.deep_decide(_rows([1.0] * 5, [1.0, 0.2, 0.2, 0.2, 0.2]))[0] == _I   # 1/3 deep fit in A
    v, why, _ = dt.deep_decide(_rows([1.0] * 5, [0.2, 0.2, 0.2, 1.0, 1.0]))        # A: hard, B: trains
    assert v == _I and "disagree" in why
    both = _rows([1.0] * 5, [0.2] * 5) + _rows([1.0] * 5, [1.0] * 5, cell="other")
    assert dt.deep_decide(both)[0] == _R                                # cells are parts


def test_deep_rule_rejects_bad_rows():
    rows = _rows([1.0] * 5, [0.2] * 5)
    with pytest.raises(ValueError, match="both roles"):
        dt.deep_decide([r for r in rows if r["role"] == "deep"])
    with pytest.raises(ValueError, match="role"):
        dt.deep_decide([dict(rows[0], role="middle")] + rows[1:])
    with pytest.raises(ValueError, match="lacks 'cell'"):
        dt.deep_decide([{k: v for k, v in rows[0].items() if k != "cell"}] + rows[1:])
    with pytest.raises(ValueError, match="acc_at_T"):
        dt.deep_decide([dict(rows[0], acc_at_T=2.0)] + rows[1:])


def test_deep_plan_reuses_the_parity_runs_and_the_control_is_one_layer():
    ctx = Context(seed=0, profile="quick")
    arms = dt.deep_arms(ctx)
    ref = fp.parity_cfgs(ctx, "signed_mamba")
    assert [c.key for c in arms["reference"]] == [c.key for c in ref]
    assert all(c.depth == 8 for c in arms["deep"]) and len(arms["deep"]) == fp.PARITY_SEEDS
    same = {"task", "model", "width", "train_length", "steps", "lr", "batch_size", "data_seed"}
    assert all(getattr(d, f) == getattr(ref[0], f) for d in arms["deep"] for f in same)
    ctl = dt.deep_arms(ctx, control=True)["deep"]
    assert all(c.depth == 1 for c in ctl) and not {c.seed for c in ctl} & {c.seed for c in ref}
    untrained = dt.untrained_deep_arms(ctx)["deep"]    # control (b): the deep runs stopped at once
    assert all(c.depth == 8 and c.steps == 1 for c in untrained)
    assert [c.seed for c in untrained] == [c.seed for c in arms["deep"]]
    plan = get_claim("finding.deep_models_hard_to_train").plan(ctx, True)
    assert len(plan) == 4 * fp.PARITY_SEEDS and len({c.key for c in plan}) == len(plan)


def test_replicated_needs_two_blocks():
    def decide(rows):
        return (_S if all(r["ok"] for r in rows) else _R), "because", {"n": len(rows)}
    rows = [{"ok": True, "block": b, "seed_pos": i} for i, b in enumerate("AABB")]
    v, why, stats = replicated(decide, rows)
    assert v == _S and stats["A"] == {"verdict": "supported", "why": "because", "stats": {"n": 2}}
    v, why, _ = replicated(decide, rows[:2])
    assert v == _I and "one seed block" in why
    with pytest.raises(ValueError, match="block"):
        rows_by_block([{"block": "Z"}])
    with pytest.raises(ValueError, match="disjoint"):
        replicated(decide, [{"ok": True, "block": b, "seed_pos": 0} for b in "AB"])

"""Rule-power cases (tests/test_rule_power.py) for the package's trained findings:
finding.abelian_tower, finding.phase_horizon, finding.parity_negative_eigenvalues and
finding.deep_models_hard_to_train. Each case builds synthetic evidence in two seed blocks (A and
B, as :mod:`seqtheory.proofs_checks.seed_blocks` splits a profile's seeds) and calls the claim's
registered rule."""
from __future__ import annotations

from seqtheory.proofs_checks.claims import finding_abelian_tower as at
from seqtheory.proofs_checks.claims import finding_deep_training as dt
from seqtheory.proofs_checks.claims import finding_parity as fp
from seqtheory.proofs_checks.claims import finding_phase_horizon as ph
from seqtheory.theory.groups import FiniteGroup


def _blocked(rows_of_block):
    """Rows for blocks A (3 seeds) and B (2 seeds): ``rows_of_block(block, seed_pos)`` → rows."""
    return [r for b, idx in (("A", range(3)), ("B", range(3, 5))) for i in idx
            for r in rows_of_block(b, i)]


# ------------------------------------------------------------------------------------------------
# finding.abelian_tower: the sign of S3 and a character of D8 found, or token collisions across
# the cosets of G′ (the positive certificate that layer 1 does not read G/G′)
# ------------------------------------------------------------------------------------------------
def _character(group: str) -> list[int]:
    G = FiniteGroup.named(group)
    if group == "S3":
        return [3 * int(G.element_order(g) == 2) for g in G.elements]
    N = G.subgroup_generated([next(g for g in G.elements if G.element_order(g) == 4)])
    return [0 if g in N.elements else 2 for g in G.elements]


def _cross_coset_pair(group: str) -> list[int]:
    a, b = at.quotient_blocks(group)[:2]
    return [a[0], b[0]]


def _tower_runs(carry: bool) -> list[dict]:
    def rows(block, i):
        return [{"group": g, "acc_at_T": 1.0, "exponent": FiniteGroup.named(g).exponent,
                 "maps": [_character(g)] if carry else [],
                 "collisions": [] if carry else [_cross_coset_pair(g)],
                 "block": block, "seed_pos": i} for g in at.TOWER_GROUPS]
    # block B gets one more seed per group so that both blocks hold ≥ MIN_FITTED_REFUTE fitted
    return _blocked(rows) + rows("B", 5)


def _tower(carry: bool):
    return at.tower_decide(_tower_runs(carry), {g: at.quotient_blocks(g) for g in at.TOWER_GROUPS})


# ------------------------------------------------------------------------------------------------
# finding.phase_horizon: predictions within a factor 2 of the measurement, or 10× off
# ------------------------------------------------------------------------------------------------
def _horizon(ratio: float):
    def rows(block, i):
        return [{"task": t, "predicted": p, "unbounded": False,
                 "measured": int(round(ratio * (p + 1))) - 1, "test_length": 1024,
                 "layer_class": "restricted", "block": block, "seed_pos": i}
                for t, p in (("S3", 10 + i), ("D8", 20 + 2 * i))]
    return ph.horizon_decide(_blocked(rows) + rows("B", 5))


# ------------------------------------------------------------------------------------------------
# finding.parity_negative_eigenvalues and finding.deep_models_hard_to_train
# ------------------------------------------------------------------------------------------------
def _parity(signed: float, positive: float):
    return fp.parity_decide(_blocked(lambda b, i: [
        {"arm": "signed", "seq_acc": signed, "block": b, "seed_pos": i},
        {"arm": "positive", "seq_acc": positive, "block": b, "seed_pos": i}]))


def _deep(reference: float, deep: float):
    return dt.deep_decide(_blocked(lambda b, i: [
        {"cell": "C2", "role": "reference", "depth": 1, "acc_at_T": reference, "block": b, "seed_pos": i},
        {"cell": "C2", "role": "deep", "depth": 8, "acc_at_T": deep, "block": b, "seed_pos": i}]))


CASES = {
    "finding.abelian_tower": {"refute": lambda: _tower(carry=False),
                              "support": lambda: _tower(carry=True)},
    "finding.phase_horizon": {"refute": lambda: _horizon(10.0), "support": lambda: _horizon(1.2)},
    "finding.parity_negative_eigenvalues": {"refute": lambda: _parity(1.0, 1.0),
                                            "support": lambda: _parity(1.0, 0.1)},
    "finding.deep_models_hard_to_train": {"refute": lambda: _deep(1.0, 1.0),
                                          "support": lambda: _deep(1.0, 0.2)},
}

"""proofs_checks/seed_blocks.py: replication blocks of the trained claims (SPEC §3, "trained
verdicts replicate")."""
import pytest

from seqtheory.proofs_checks import seed_blocks as sb
from seqtheory.proofs_checks.registry import Context, Verdict


def test_block_sizes_per_profile():
    assert sb.block_size(Context(profile="quick")) == sb.BLOCK_SEEDS["quick"] == 2
    assert sb.n_block_seeds(Context(profile="full")) == 2 * sb.BLOCK_SEEDS["full"]
    assert sb.n_block_seeds(Context(profile="quick"), 1) == 2
    with pytest.raises(ValueError, match="per_block"):
        sb.n_block_seeds(Context(), 0)


def test_split_blocks_is_consecutive_and_refuses_uneven_counts():
    assert sb.split_blocks([10, 11, 12, 13]) == {"A": [10, 11], "B": [12, 13]}
    for bad in ([], [1, 2, 3]):
        with pytest.raises(ValueError, match="multiple of the number of blocks, 2"):
            sb.split_blocks(bad)
    assert sb.block_indices(2) == {"A": ["#0", "#1"], "B": ["#2", "#3"]}


def test_split_arms_cuts_every_arm_into_the_same_blocks():
    labels, per = sb.split_arms({1: [10, 11, 12, 13], 2: [20, 21, 22, 23]})
    assert labels == {"A": ["#0", "#1"], "B": ["#2", "#3"]}
    assert per == {"A": {1: [10, 11], 2: [20, 21]}, "B": {1: [12, 13], 2: [22, 23]}}
    with pytest.raises(ValueError, match="multiple of the number of blocks"):
        sb.split_arms({1: [10, 11, 12]})


def test_decide_blocks_replicates():
    rule = lambda x: (Verdict.SUPPORTED if x > 0 else Verdict.REFUTED, f"x = {x}")
    v, why, per = sb.decide_blocks({"A": ([0], 1), "B": ([1], 2)}, rule)
    assert v is Verdict.SUPPORTED and per["B"] == (Verdict.SUPPORTED, "x = 2")
    v, why, _ = sb.decide_blocks({"A": ([0], 1), "B": ([1], -1)}, rule)
    assert v is Verdict.INCONCLUSIVE and "disagree" in why and "x = -1" in why
    with pytest.raises(ValueError, match="disjoint"):
        sb.decide_blocks({"A": ([0], 1), "B": ([0], 1)}, rule)
    with pytest.raises(ValueError, match="two blocks"):
        sb.decide_blocks({"A": ([0], 1)}, rule)
    with pytest.raises(TypeError, match="blocks"):
        sb.decide_blocks([1, 2], rule)

"""The ``paper`` profile's scales (proofs_checks/trained_recipe.py and the claim modules that use
it): the plan sizes of every trained claim per profile (quick and full pinned as they were before
the paper profile existed), the word-problem family at the paper's lengths, and
``Context.by_profile``."""
import pytest

from seqtheory.models.train import build_task
from seqtheory.proofs_checks import trained_recipe as recipe
from seqtheory.proofs_checks.claims import finding_parity, depth_word_problems
from seqtheory.proofs_checks.registry import Context, Verdict, all_claims, get_claim, load_all

load_all()

#: len(claim.plan(ctx, True)) per profile (controls included, a run listed once per request); the
#: word-problem family trains two replication blocks of seeds per cell (seed_blocks.py: 2 + 2 in
#: quick, 5 + 5 in full and paper) and the paper profile the other Table 1 families; the findings
#: inspect those runs
PLAN_SIZES = {
    "depth.cor3.6.trained": {"quick": 3, "full": 4, "paper": 4},
    "finding.abelian_tower": {"quick": 8, "full": 40, "paper": 100},
    "finding.parity_negative_eigenvalues": {"quick": 20, "full": 20, "paper": 20},
    "finding.phase_horizon": {"quick": 30, "full": 120, "paper": 240},   # A5 (no character) left out
    "finding.deep_models_hard_to_train": {"quick": 20, "full": 20, "paper": 20},
    "depth.exp.rotation": {"quick": 12, "full": 40, "paper": 50},
    "depth.exp.s3_depth": {"quick": 16, "full": 40, "paper": 40},
    "depth.exp.word_problems": {"quick": 32, "full": 220, "paper": 420},
    "depth.prop3.7.trained": {"quick": 8, "full": 40, "paper": 40},
    "depth.thm3.2.abelian.trained": {"quick": 3, "full": 4, "paper": 4},
    # one job per seed block (two blocks: trained verdicts replicate); the width law reads the
    # width sweep's two jobs
    "head.exp.rownorm_vs_adamw": {"quick": 2, "full": 2, "paper": 2},
    "head.exp.rownorm_vs_adamw.width": {"quick": 2, "full": 2, "paper": 2},
    "finding.head_width_law": {"quick": 2, "full": 2, "paper": 2},
}
PAPER = Context(seed=0, profile="paper")
FAMILY = ("finding.parity_negative_eigenvalues", "depth.exp.s3_depth", "depth.exp.word_problems",
          "depth.exp.rotation", "depth.prop3.7.trained")


def _plan(claim_id: str, ctx: Context = PAPER, controls: bool = True) -> list:
    return get_claim(claim_id).plan(ctx, controls)


def _test_length(cfg) -> int:
    return cfg.test_length or 2 * cfg.train_length


def test_every_trained_claim_has_its_plan_size_pinned():
    assert sorted(c.id for c in all_claims() if c.uses_training) == sorted(PLAN_SIZES)


@pytest.mark.parametrize("profile", ["quick", "full", "paper"])
@pytest.mark.parametrize("claim_id", sorted(PLAN_SIZES))
def test_plan_sizes(claim_id, profile):
    assert len(_plan(claim_id, Context(seed=0, profile=profile))) == PLAN_SIZES[claim_id][profile]


@pytest.mark.parametrize("claim_id", ("depth.cor3.6.trained", "depth.thm3.2.abelian.trained"))
def test_claims_of_unknown_paper_scale_run_as_in_full(claim_id):
    from seqtheory.models.store import config_key

    full = Context(seed=0, profile="full")
    assert [config_key(j.config) for j in _plan(claim_id)] == [config_key(j.config) for j in _plan(claim_id, full)]


def test_word_problem_family_trains_at_the_papers_lengths():
    # the parity control's runs (task C2.token: no memory) are cheap by design, at T = 8
    parity = [c for c in _plan("finding.parity_negative_eigenvalues") if c.task == "C2"]
    assert len(parity) == 2 * finding_parity.PARITY_SEEDS
    assert {c.train_length for c in parity} == {recipe.PAPER_T}
    assert all(_test_length(c) == 2 * recipe.PAPER_T for c in parity)
    wp = [c for c in _plan("depth.exp.word_problems") if c.task in ("D8", "S3", "S4")]
    assert wp and {c.train_length for c in wp} <= {64, 128}
    assert all(_test_length(c) >= 2 * c.train_length for c in wp)
    for cid in FAMILY:
        cfgs = [c for c in _plan(cid) if not c.task.endswith(".token")]
        assert {c.width for c in cfgs} == {recipe.PAPER_RECIPE["width"]}, cid
        assert {c.steps for c in cfgs} == {recipe.PAPER_RECIPE["steps"]}, cid
        assert {c.precision for c in cfgs} == {"fp32"}, cid


def test_word_problem_cells_of_the_paper_profile():
    cells = {(c.task, c.train_length, c.depth) for c in _plan("depth.exp.word_problems", controls=False)}
    want = ({(g, t, L) for g in ("D8", "S3") for t in (64, 128) for L in (1, 2)}
            | {("S4", 128, L) for L in (2, 3)}
            | {("A5", t, L) for t in (64, 128) for L in (1, 2, 4, 8)})
    assert cells == want
    assert {c.model for c in _plan("depth.exp.word_problems")} == set(depth_word_problems.TABLE1_FAMILIES)
    assert {c.model for c in _plan("depth.exp.word_problems") if c.task in ("S4", "A5")} == {"aussm"}


@pytest.mark.parametrize("claim_id", FAMILY)
def test_paper_cells_have_their_seeds(claim_id):
    """Parity: 5 seeds; the claims of [DEPTH]: two replication blocks of 5 (seed_blocks.py)."""
    from seqtheory.proofs_checks.seed_blocks import BLOCKS, BLOCK_SEEDS

    by_cell: dict = {}
    for c in _plan(claim_id, controls=False):
        cell = (c.task, c.model, c.depth, c.train_length, c.shuffle_labels)
        by_cell.setdefault(cell, set()).add(c.seed)
    n = 5 if claim_id.startswith("finding.") else len(BLOCKS) * BLOCK_SEEDS["paper"]
    assert by_cell and {len(s) for s in by_cell.values()} == {n}


def test_paper_configs_build_valid_held_out_data():
    """Every distinct task of the family's paper runs builds (TrainConfig validated itself on
    construction): test words at the configured length, word problems held out at T."""
    tasks = {}
    for cid in FAMILY:
        for c in _plan(cid):
            tasks.setdefault((c.task, c.train_length, c.test_length, c.data_seed), c)
    for c in tasks.values():
        d = build_task(c)
        assert d.test_tokens.shape[1] == _test_length(c) >= 2 * c.train_length
        if c.task != "rotation_a5":
            train = {w.tobytes() for w in d.train_tokens}
            assert not any(w[:c.train_length].tobytes() in train for w in d.test_tokens)


def test_table1_rule_decides_on_the_paper_depths():
    """Part D with depths 1, 2, 4, 8: A5 needs 2 at T = 64 and 4 at T = 128 → grows; the other
    parts as in Table 1."""
    def row(g, T, L, ok):
        return {"group": g, "model": "aussm", "depth": L, "train_length": T,
                "successes": 5 if ok else 0, "seeds": 5}

    rows = [row(g, t, L, L == 2) for g in ("D8", "S3") for t in (64, 128) for L in (1, 2)]
    rows += [row("S4", 128, 2, False), row("S4", 128, 3, True)]
    rows += [row("A5", t, L, L >= need) for t, need in ((64, 2), (128, 4)) for L in (1, 2, 4, 8)]
    verdict, parts = depth_word_problems.wp_pattern(rows)
    assert verdict == Verdict.SUPPORTED and "depth 2 at T=64, 4 at T=128" in parts["D"]
    flat = [r for r in rows if r["group"] != "A5"] + [
        row("A5", t, L, L >= 4) for t in (64, 128) for L in (1, 2, 4, 8)]
    assert depth_word_problems.wp_pattern(flat)[0] == Verdict.INCONCLUSIVE


def test_by_profile():
    assert PAPER.by_profile(1, 2) == 2
    assert PAPER.by_profile(1, 2, 3) == 3
    assert Context(profile="quick").by_profile(1, 2, 3) == 1
    assert Context(profile="full").by_profile(1, 2, 3) == 2
    with pytest.raises(ValueError, match="profile"):
        Context(profile="gpu")

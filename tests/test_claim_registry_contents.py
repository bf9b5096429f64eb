"""Every registered claim is well formed: stable ids, sources, a negative control."""
from __future__ import annotations

import re

import pytest

from seqtheory.proofs_checks.registry import all_claims, get_claim

# Claim ids are cited by users: an id listed here may never disappear (a renamed claim keeps the
# old id as an alias). Add new ids here when they are registered.
STABLE_IDS = [
    "audit.fig2_training_accuracy",
    "audit.max_seq_len_counts_bos",
    "audit.max_seq_len_mixed_lengths",
    "audit.paper_rotation_task",
    "audit.representation",
    "audit.rotation_start_orbit",
    "audit.task_groups",
    "audit.task_identity",
    "bch.lyndon_coefficients",
    "bch.truncation_order",
    "depth.cor3.6",
    "depth.cor3.6.trained",
    "depth.cor3.8",
    "depth.error_falls_with_depth",
    "finding.abelian_tower",
    "finding.deep_models_hard_to_train",
    "finding.parity_negative_eigenvalues",
    "finding.head_width_law",
    "finding.phase_horizon",
    "depth.exp.rotation",
    "depth.exp.s3_depth",
    "depth.exp.word_problems",
    "depth.lemma3.1",
    "depth.prop3.3",
    "depth.prop3.7",
    "depth.prop3.7.trained",
    "finding.s3_one_restricted_layer",
    "depth.thm3.2",
    "depth.thm3.2.abelian",
    "depth.thm3.2.abelian.trained",
    "depth.thm3.2.trained",
    "depth.thm3.4",
    "free_lie.free_nilpotent_series",
    "free_lie.witt_dimensions",
    "head.backward_bound",
    "head.backward_bound_u_dependence",
    "head.backward_change_bound",
    "head.ce_control",
    "head.diameter_identity",
    "head.ema_rownorm_bound",
    "head.equidistance_limit",
    "head.exp.rownorm_vs_adamw",
    "head.exp.rownorm_vs_adamw.width",
    "head.hilbert_softmax",
    "head.min_tension_duality",
    "head.rownorm_oracle",
    "head.rownorm_ratio",
    "head.spectral_norm_mismatch",
    "head.tv_bound",
    "magnus.terms",
    "magnus.truncation_order",
]


@pytest.mark.parametrize("cid", STABLE_IDS)
def test_stable_ids_resolve(cid):
    assert get_claim(cid)


@pytest.mark.parametrize("c", all_claims(), ids=lambda c: c.id)
def test_claim_is_well_formed(c):
    assert re.fullmatch(r"[a-z0-9_]+(\.[a-z0-9_.]+)+", c.id), c.id
    assert c.negative_control is not None, f"{c.id} has no negative control"
    assert c.statement and c.title
    if c.source.paper in ("DEPTH", "HEAD"):
        assert c.source.arxiv in ("2603.05573", "2608.22253") and c.source.location
        assert c.source.version in ("v1", "v2")

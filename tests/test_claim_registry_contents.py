"""Every registered claim is well formed: stable ids, sources, a negative control."""
from __future__ import annotations

import re

import pytest

from seqtheory.proofs_checks.registry import all_claims, get_claim

# Claim ids are cited by users: an id listed here may never disappear (a renamed claim keeps the
# old id as an alias). Add new ids here when they are registered.
STABLE_IDS = [
    "audit.representation",
    "audit.task_groups",
    "depth.lemma3.1",
    "depth.prop3.3",
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

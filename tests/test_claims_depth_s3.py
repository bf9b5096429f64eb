"""finding.s3_one_restricted_layer: S3 ≅ AGL(1,3) tracked by one restricted layer."""
from __future__ import annotations

import numpy as np
import pytest
from controls import control_through_rule

from seqtheory.numerics.affine_layer import (agl13_coordinates, agl13_table, agl_decode,
                                             agl_layer_states, agl_step_certificate)
from seqtheory.numerics.group_cascades import prefix_products
from seqtheory.proofs_checks.claims.finding_s3_one_layer import s3_decide
from seqtheory.proofs_checks.registry import Context, Verdict, get_claim
from seqtheory.theory.groups import FiniteGroup


def test_agl13_is_s3():
    A = FiniteGroup.from_cayley_table(agl13_table())
    assert A.is_isomorphic(FiniteGroup.named("S3")) and not A.is_abelian
    with pytest.raises(ValueError, match="S3"):
        agl13_coordinates(FiniteGroup.named("C6"))


def test_step_certificate_checks_every_transition():
    G = FiniteGroup.named("S3")
    co = agl13_coordinates(G)
    cert = agl_step_certificate(G, co)
    assert cert == {"transitions": 36, "failures": [], "initial_ok": True}
    swapped = co.copy()
    swapped[[1, 2]] = swapped[[2, 1]]            # two elements' coordinates exchanged
    assert agl_step_certificate(G, swapped)["failures"]
    with pytest.raises(ValueError, match="one row per element"):
        agl_step_certificate(G, co[:5])


def test_layer_tracks_long_words_and_bias_matters():
    G = FiniteGroup.named("S3")
    co = agl13_coordinates(G)
    W = np.random.default_rng(3).integers(0, 6, (8, 500))
    truth = prefix_products(G.cayley_table(), W, "left")
    assert np.array_equal(agl_decode(co, *agl_layer_states(co, W)), truth)
    assert not np.array_equal(agl_decode(co, *agl_layer_states(co, W, bias=False)), truth)
    with pytest.raises(ValueError, match="words"):
        agl_layer_states(co, np.array([0, 1]))


def test_rule_on_synthetic_evidence():
    ev = {"linear_parts_commute": True, "exhaustive_mismatches": 0, "random_mismatches": 0,
          "exhaustive_prefixes": 10, "random_prefixes": 10, "step_transitions": 36,
          "step_failures": 0, "initial_ok": True}
    assert s3_decide(ev)[0] is Verdict.CONFIRMED
    # exact on the words checked, but no certificate for "every length": supported only
    assert s3_decide(dict(ev, step_failures=2))[0] is Verdict.SUPPORTED
    assert s3_decide(dict(ev, initial_ok=False))[0] is Verdict.SUPPORTED
    assert s3_decide(dict(ev, random_mismatches=1))[0] is Verdict.REFUTED
    assert s3_decide(dict(ev, linear_parts_commute=False))[0] is Verdict.INCONCLUSIVE


def test_claim_quick_and_control():
    c = get_claim("finding.s3_one_restricted_layer")
    ctx = Context(seed=0)
    out = c.check(ctx)
    assert out.verdict is Verdict.CONFIRMED, out.evidence
    assert out.evidence["exhaustive_prefixes"] == 6 ** 7 * 7
    assert out.evidence["affine_maps_commute"] is False and out.evidence["group_abelian"] is False
    assert out.evidence["step_transitions"] == 36 and out.evidence["step_failures"] == 0
    ctl = control_through_rule(c, ctx)
    assert ctl.rejected, ctl.reason

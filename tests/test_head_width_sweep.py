"""head.exp.rownorm_vs_adamw.width (proofs_checks/claims/head_width.py) and the word vocabulary
(models/tokenizer.py): the tokenizer, the decision rule on synthetic evidence (every branch), the
control through the rule, and a tiny end-to-end sweep through the results store."""
from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from seqtheory.models.tokenizer import WordVocab, pieces
from seqtheory.proofs_checks import head_width_sweep as hws
from seqtheory.proofs_checks.claims import head_width as hw
from seqtheory.proofs_checks.registry import Context, Verdict, get_claim

TEXT = b"def f(x):\n    return x + 1\n\ndef g(y):\n    return f(y) * 22\n" * 3


# ------------------------------------------------------------------ tokenizer
def test_vocab_is_deterministic_and_ranked():
    v = WordVocab.fit(TEXT, 300)
    assert v == WordVocab.fit(TEXT, 300)
    counts = [pieces(TEXT).count(w) for w in v.words]
    assert counts == sorted(counts, reverse=True) and min(counts) >= 2
    assert all(len(w) >= 2 for w in v.words) and len(set(v.words)) == len(v.words)
    assert WordVocab.fit(TEXT, 257).size == 257           # capped: one word
    assert v.encode(b"def") == [256 + v.words.index(b"def")]
    assert v.encode(b"zzz") == list(b"zzz")               # unseen word: byte fallback


@given(st.binary(max_size=200))
@example(b"\xff\x00 \n\n  def_x9 12ab")
@settings(max_examples=60, deadline=None)
def test_round_trip_and_pieces_cover_the_bytes(data):
    assert b"".join(pieces(data)) == data
    v = WordVocab.fit(TEXT, 400)
    ids = v.encode(data)
    assert all(0 <= i < v.size for i in ids) and v.decode(ids) == data


def test_tokenizer_bad_input():
    with pytest.raises(ValueError, match="vocab_size"):
        WordVocab.fit(TEXT, 256)
    with pytest.raises(TypeError, match="data"):
        pieces("text")
    with pytest.raises(ValueError, match="token id"):
        WordVocab.fit(TEXT, 300).decode([10_000])


def test_word_level_text_data_fits_on_the_training_split():
    from seqtheory.models.text import TextData

    d = TextData.from_corpus(TEXT * 20, level="word", vocab_size=300)
    assert d.level == "word" and 257 <= d.vocab_size <= 300
    assert int(d.train.max()) < d.vocab_size and int(d.val.max()) < d.vocab_size


# ------------------------------------------------------------------ decision rule
def _pt(d, rd, rh, frac=1.0, converged=True):
    return {"d": d, "ratio_diameter": sum(rd) / len(rd), "ratio_hilbert_rms": sum(rh) / len(rh),
            "ratio_diameter_per_seed": rd, "ratio_hilbert_rms_per_seed": rh,
            "interval_diameter": hws.seed_interval(rd), "interval_hilbert_rms": hws.seed_interval(rh),
            "frac_steps_rownorm_smaller": frac, "val_loss_diff": 0.01, "converged": converged}


def _ev(points, exponent=0.5):
    ev = {"points": points, "scale": {"backbone": "1 layer(s) of width 64", "vocab_size": 2048,
                                      "steps": 300, "tokens": 76_800, "seeds": 3}}
    ev["fit_diameter"] = ev["fit_hilbert_rms"] = {"exponent": exponent, "ci": [exponent - 0.05, exponent + 0.05], "n": 9}
    return ev


def _paper(scale=1.0, hscale=1.0):
    return [_pt(d, [D * scale * f for f in (0.97, 1.0, 1.03)], [H * hscale * f for f in (0.97, 1.0, 1.03)])
            for d, (D, H) in sorted(hw.PAPER_RATIOS.items())]


def test_rule_supported_refuted_inconclusive_at_paper_widths():
    v = hw.width_verdict
    assert v(_ev(_paper()))[0] is Verdict.SUPPORTED
    assert v(_ev(_paper(scale=1.2, hscale=1.2)))[0] is Verdict.SUPPORTED    # within 25%
    # a shape the common factor cannot explain: D and Hilbert RMS off by different factors
    verdict, why, parts = v(_ev(_paper(scale=0.6, hscale=1.0)))
    assert verdict is Verdict.INCONCLUSIVE and "neither" in why and "V = 2048" in why
    assert parts["per_width"][512] == "inconclusive" and parts["direct"][512] == "inconclusive"
    # ... or off by more than REFUTE_FACTOR even after it: refuted
    verdict, why, parts = v(_ev(_paper(scale=0.1, hscale=1.0)))
    assert verdict is Verdict.REFUTED and "common factor" in why
    assert parts["with_common_factor"] == {512: "refuted", 768: "refuted", 1024: "refuted"}
    # exponent far from 0.5 keeps matching paper points from support, and from refined
    assert v(_ev(_paper(), exponent=1.0))[0] is Verdict.INCONCLUSIVE
    assert v(_ev(_paper(scale=0.5, hscale=0.5), exponent=1.0))[0] is Verdict.INCONCLUSIVE


def test_rule_refined_by_one_common_factor():
    """The paper's six ratios at one recipe factor r (the unknown lr ratio): refined, with r and
    its seed interval reported; a factor that differs between widths is not one recipe factor."""
    v = hw.width_verdict
    for scale in (0.5, 0.1, 3.0):
        verdict, why, parts = v(_ev(_paper(scale=scale, hscale=scale)))
        assert verdict is Verdict.REFINED, (scale, why)
        assert parts["common_factor"] == pytest.approx(1 / scale)
        lo, hi = parts["common_factor_interval"]
        assert lo < 1 / scale < hi
        assert f"r = {1 / scale:.2f}" in why and "released lrs are unknown" in why
        assert set(parts["with_common_factor"].values()) == {"refined"}
    pts = _paper(scale=0.5, hscale=0.5)
    assert v(_ev(pts[:1]))[0] is Verdict.INCONCLUSIVE          # one paper width: too little
    assert v(_ev(pts[:2]))[0] is Verdict.REFINED
    # width-dependent factors 0.5, 0.5, 0.3: the spread exceeds MATCH_TOL around their mean
    bent = pts[:2] + _paper(scale=0.3, hscale=0.3)[2:]
    verdict, _, parts = v(_ev(bent))
    assert verdict is Verdict.INCONCLUSIVE and "inconclusive" in parts["with_common_factor"].values()
    # RowNorm not smaller at every measurement still refutes, whatever the factor
    bad = pts[:2] + [dict(pts[2], frac_steps_rownorm_smaller=0.9)]
    assert v(_ev(bad))[0] is Verdict.REFUTED
    assert hw.common_factor(pts) == pytest.approx(2.0)


def test_rule_direction_convergence_and_no_paper_width():
    v = hw.width_verdict
    small = [_pt(d, [x * math.sqrt(d) for x in (0.5, 0.55, 0.6)], [2.0, 2.1, 2.2]) for d in (64, 128)]
    verdict, why, _ = v(_ev(small))
    assert verdict is Verdict.INCONCLUSIVE and "no paper width" in why
    rev = small + [_pt(256, [0.5, 0.6, 0.7], [0.5, 0.6, 0.8], frac=0.0)]
    assert v(_ev(rev))[0] is Verdict.REFUTED
    # final ratios > 1 but RowNorm not smaller at every recorded measurement: its own test fails
    verdict, why, parts = v(_ev(small + [_pt(256, [9, 9, 9], [3, 3, 3], frac=0.9)]))
    assert verdict is Verdict.REFUTED and "d=256 (90% of them)" in why
    assert parts["every_measurement"] == {64: True, 128: True, 256: False}
    assert v(_ev([_pt(64, [5, 5, 5.1], [2, 2, 2.1], converged=False)]))[0] is Verdict.INCONCLUSIVE


def test_paper_point_verdict_branches():
    assert hw.paper_point_verdict(40.0, (30.0, 50.0), 45.1) is Verdict.SUPPORTED
    assert hw.paper_point_verdict(10.0, (9.0, 11.0), 45.1) is Verdict.REFUTED
    assert hw.paper_point_verdict(30.0, (28.0, 32.0), 45.1) is Verdict.INCONCLUSIVE


@given(st.lists(st.floats(0.01, 100.0), min_size=2, max_size=6), st.floats(0.1, 10.0))
@settings(max_examples=50, deadline=None)
def test_seed_interval_brackets_the_geometric_mean_and_scales(values, c):
    lo, hi = hws.seed_interval(values)
    g = math.exp(sum(math.log(v) for v in values) / len(values))
    assert lo <= g * (1 + 1e-12) and g <= hi * (1 + 1e-12)
    lo2, hi2 = hws.seed_interval([c * v for v in values])
    assert lo2 == pytest.approx(c * lo, rel=1e-9) and hi2 == pytest.approx(c * hi, rel=1e-9)


def test_seed_interval_and_lr_rule():
    lo, hi = hws.seed_interval([2.0, 2.0, 2.0])
    assert lo == pytest.approx(2.0) and hi == pytest.approx(2.0)
    lo, hi = hws.seed_interval([1.0, 2.0, 4.0])
    assert lo < 2.0 < hi
    for bad in ([1.0], [1.0, -2.0], [1.0, float("nan")]):
        with pytest.raises(ValueError, match="positive"):
            hws.seed_interval(bad)
    assert hws.head_lr(64) == pytest.approx(hws.LR_REF) and hws.head_lr(256) == pytest.approx(hws.LR_REF / 2)
    with pytest.raises(ValueError, match="d must"):
        hws.head_lr(0)


# ------------------------------------------------------------------ end to end through the store
def test_tiny_sweep_through_the_store_and_control(tmp_path, monkeypatch):
    from controls import control_through_rule

    from seqtheory.models.store import ResultsStore

    ctx = Context(seed=0, out_dir=tmp_path, results_dir=tmp_path / "results")
    tiny = hws.sweep_config(ctx, widths=(8, 16), steps=12, warmup=2, vocab_size=300,
                           max_bytes=30_000, seq_len=16, eval_windows=4, record_points=3,
                           d_model=16, n_heads=2)
    for module in (hw, hws):      # the claim's plan and the sweep's stored result read it
        monkeypatch.setattr(module, "sweep_config", lambda ctx, widths=None, **kw: tiny)
    c = get_claim("head.exp.rownorm_vs_adamw.width")
    out = c.check(ctx)
    assert [r["d"] for r in out.tables["widths"]] == [8, 16]
    assert out.evidence["decision"]["fit_diameter"]["n"] == 6
    # RowNorm's practical update keeps D(S_t) ≤ 2·lr_t ([HEAD], SPEC head.ema_rownorm_bound)
    assert all(0 < r["RN_D/(2ηf)"] <= 1 + 1e-5 for r in out.tables["widths"])
    assert "Final-step geometry" in out.notes
    assert all(len(r["recorded_steps"]) == 3
               for p in hws.stored_sweep(ctx)["points"] for a in p["runs"].values() for r in a)
    st_ = ResultsStore(tmp_path / "results")
    before = {r.key: r.updated for r in st_.runs()}
    assert len(before) == 3                                  # two widths + the sweep
    assert c.check(ctx).key_figure == out.key_figure         # read back, not retrained
    assert {r.key: r.updated for r in st_.runs()} == before
    assert control_through_rule(c, ctx).rejected
    assert c.plan(ctx, False)[0].config == tiny


# ------------------------------------------------------------------ attacks on the rule (negative controls)
def test_flat_ratios_with_a_wide_exponent_ci_are_not_refined():
    """Ratios flat in d whose wide exponent CI merely meets [0.4, 0.6]: one common factor
    brings the paper's values within 25% (their spread is only 1.32×), but nothing grows."""
    flat = [_pt(d, [25 * f for f in (0.97, 1.0, 1.03)], [6.5 * f for f in (0.97, 1.0, 1.03)])
            for d in sorted(hw.PAPER_RATIOS)]
    ev = _ev(flat, exponent=0.0)
    ev["fit_diameter"] = {"exponent": 0.0, "ci": [-0.6, 0.6], "n": 9}
    verdict, _, parts = hw.width_verdict(ev)
    assert verdict is Verdict.INCONCLUSIVE and not parts["exponent_consistent"]
    verdict, why, _ = hw.width_verdict(_ev(_paper(scale=0.5, hscale=0.5)))
    assert verdict is Verdict.REFINED and "consistent with √d" in why


def test_a_duplicated_paper_width_is_rejected():
    """One width listed twice must not count as two paper widths nor hide the other's verdict."""
    pts = _paper(scale=0.5, hscale=0.5)
    for dup in ([pts[0], pts[0]], [_paper(scale=0.1, hscale=0.1)[0], pts[0], pts[1]]):
        with pytest.raises(ValueError, match="one point per head width"):
            hw.width_verdict(_ev(dup))


def test_an_uninformative_seed_interval_supports_nothing():
    """Two wildly different seeds: the interval contains every paper value, the means are 5×
    off; neither direct support nor overall support may follow."""
    noisy = [_pt(d, [D / 10, D * 10], [H / 10, H * 10]) for d, (D, H) in sorted(hw.PAPER_RATIOS.items())]
    verdict, _, parts = hw.width_verdict(_ev(noisy))
    assert verdict is not Verdict.SUPPORTED and set(parts["direct"].values()) == {"inconclusive"}
    assert hw.paper_point_verdict(45.0, (1.0, 1000.0), 45.1) is Verdict.INCONCLUSIVE
    assert hw.paper_point_verdict(45.0, (40.0, 50.0), 45.1) is Verdict.SUPPORTED


@pytest.mark.parametrize("key,value", [("ratio_diameter", 0.0), ("ratio_diameter", math.inf),
                                       ("ratio_hilbert_rms", -3.0), ("ratio_diameter", math.nan),
                                       ("interval_diameter", (math.nan, math.nan)),
                                       ("ratio_hilbert_rms_per_seed", [6.0, 0.0, 6.1]),
                                       ("frac_steps_rownorm_smaller", math.nan)])
def test_non_positive_or_non_finite_evidence_is_a_clear_error(key, value):
    """A head that did not move gives a ratio 0 or inf: a ValueError naming the width and the
    key, never a ZeroDivisionError, a math domain error, or a NaN interval read as refined."""
    pts = _paper(scale=0.5, hscale=0.5)
    pts[0] = dict(pts[0], **{key: value})
    with pytest.raises(ValueError, match=f"d = 512: .*{key.removesuffix('_per_seed')}"):
        hw.width_verdict(_ev(pts))
    with pytest.raises(ValueError, match="one point per head width"):
        hw.width_verdict(_ev([]))


def test_refined_text_claims_only_what_the_rule_checked():
    """Only the diameter exponent is tested against 0.5 (the paper's own Hilbert RMS ratios grow
    like d^0.33), so the text must not say 'the ratios' grow like √d; a single seed gives no
    interval of r (never printed as 'None') and shows no growth across the paper widths."""
    ev = _ev(_paper(scale=0.5, hscale=0.5))
    ev["fit_hilbert_rms"] = {"exponent": 0.26, "ci": [0.22, 0.30], "n": 9}
    verdict, why, _ = hw.width_verdict(ev)
    assert verdict is Verdict.REFINED and "the ratios grow" not in why
    assert "the diameter ratio grows with d at an exponent consistent with √d" in why
    one = [dict(p, ratio_diameter_per_seed=[p["ratio_diameter"]],
                ratio_hilbert_rms_per_seed=[p["ratio_hilbert_rms"]]) for p in _paper(0.5, 0.5)]
    verdict, why, parts = hw.width_verdict(_ev(one))
    assert parts["common_factor_interval"] is None and "None" not in why
    assert verdict is Verdict.INCONCLUSIVE and parts["grows_at_paper_widths"] is False


def test_ratios_flat_across_the_paper_widths_are_not_refined():
    """√d growth at d = 64…256, then flat at 512…1024: the sweep's exponent (0.38 [0.33, 0.44])
    meets [0.4, 0.6] and one factor brings the paper's values within 18%, yet nothing grows
    where the paper measured."""
    D = {64: 8, 128: 11.3, 256: 16, 512: 22, 768: 22, 1024: 22}
    H = {64: 3, 128: 4.2, 256: 5.9, 512: 6.2, 768: 6.2, 1024: 6.2}
    sp = (0.93, 1.0, 1.07)
    pts = [_pt(d, [D[d] * f for f in sp], [H[d] * f for f in sp[::-1]]) for d in D]
    ev = _ev(pts)
    ev["fit_diameter"] = hws.fit_exponent(list(D), [p["ratio_diameter_per_seed"] for p in pts])
    assert ev["fit_diameter"]["ci"][0] <= 0.4 <= ev["fit_diameter"]["ci"][1]
    verdict, _, parts = hw.width_verdict(ev)
    assert verdict is Verdict.INCONCLUSIVE and parts["grows_at_paper_widths"] is False
    assert max(parts["deviations"]) <= 1 + hw.MATCH_TOL
    verdict, _, parts = hw.width_verdict(_ev(_paper(scale=0.5, hscale=0.5)))
    assert verdict is Verdict.REFINED and parts["grows_at_paper_widths"] is True


def test_exact_and_numpy_ratios_give_the_same_verdict_and_non_numbers_a_type_error():
    """Evidence values are read as real numbers (Fraction, numpy scalars), not only Python
    floats; a value that is not a number is a TypeError naming the width and key."""
    from fractions import Fraction

    pts = _paper(scale=0.5, hscale=0.5)
    exact = [dict(p, ratio_diameter=Fraction(p["ratio_diameter"]),
                  ratio_hilbert_rms=np.float32(p["ratio_hilbert_rms"]),
                  ratio_diameter_per_seed=[Fraction(x) for x in p["ratio_diameter_per_seed"]])
             for p in pts]
    v, why, _ = hw.width_verdict(_ev(exact))
    assert v is Verdict.REFINED and v is hw.width_verdict(_ev(pts))[0]
    for bad in ("45", None, True):
        with pytest.raises(TypeError, match="d = 512: ratio_diameter"):
            hw.width_verdict(_ev([dict(pts[0], ratio_diameter=bad)] + pts[1:]))
    with pytest.raises(TypeError, match="d = 512: interval_diameter must be a list"):
        hw.width_verdict(_ev([dict(pts[0], interval_diameter=None)] + pts[1:]))

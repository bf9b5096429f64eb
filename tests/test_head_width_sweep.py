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


def _ev(points, seeds=(1, 2, 3)):
    """One seed block's evidence."""
    return {"points": points, "seeds": list(seeds),
            "scale": {"backbone": "1 layer(s) of width 64", "vocab_size": 2048, "steps": 300,
                      "tokens": 76_800, "seeds": 3}}


def _both(points_a, points_b=None):
    """Two disjoint seed blocks (the same points in both unless ``points_b`` is given)."""
    return {"blocks": {"A": _ev(points_a), "B": _ev(points_b if points_b is not None else points_a,
                                                     seeds=(4, 5, 6))}}


def _paper(scale=1.0, hscale=1.0):
    return [_pt(d, [D * scale * f for f in (0.97, 1.0, 1.03)], [H * hscale * f for f in (0.97, 1.0, 1.03)])
            for d, (D, H) in sorted(hw.PAPER_RATIOS.items())]


def test_rule_supported_refuted_inconclusive_at_paper_widths():
    v = hw.width_verdict
    assert v(_both(_paper()))[0] is Verdict.SUPPORTED
    assert v(_both(_paper(scale=1.2, hscale=1.2)))[0] is Verdict.SUPPORTED    # within 25%
    # the paper ÷ measured of the published-lr prediction (1.60 / 1.57 / 1.49): inside the
    # refute factor 2, outside the 25% match: inconclusive, with no factor fitted
    verdict, why, parts = v(_both(_paper(scale=1 / 1.6, hscale=1 / 1.6)))
    assert verdict is Verdict.INCONCLUSIVE and "neither" in why and "V = 2048" in why
    assert parts["blocks"]["A"]["per_width"][512] == "inconclusive"
    assert parts["blocks"]["A"]["paper_over_measured"][512][0] == pytest.approx(1.6, rel=1e-9)
    # off by more than REFUTE_FACTOR: refuted (no common factor rescues it any more)
    verdict, why, parts = v(_both(_paper(scale=0.1, hscale=0.1)))
    assert verdict is Verdict.REFUTED and "published learning rates" in why
    assert parts["blocks"]["B"]["per_width"] == {512: "refuted", 768: "refuted", 1024: "refuted"}
    # a factor 2 off in both statistics at every width (the old rule's "refined"): refuted now
    assert v(_both(_paper(scale=0.45, hscale=0.45)))[0] is Verdict.REFUTED


def test_rule_replicates_on_two_seed_blocks():
    """A verdict stands only when both blocks give it; blocks must be disjoint and two."""
    v = hw.width_verdict
    verdict, why, _ = v(_both(_paper(), _paper(scale=0.1, hscale=0.1)))
    assert verdict is Verdict.INCONCLUSIVE and "does not replicate" in why
    assert "block A (seeds 1–3): supported" in why and "block B (seeds 4–6): refuted" in why
    with pytest.raises(ValueError, match="two blocks"):
        v({"blocks": {"A": _ev(_paper())}})
    with pytest.raises(ValueError, match="disjoint"):
        v({"blocks": {"A": _ev(_paper()), "B": _ev(_paper(), seeds=(3, 4, 5))}})


def test_rule_direction_convergence_and_no_paper_width():
    v = hw.width_verdict
    small = [_pt(d, [x * math.sqrt(d) for x in (0.5, 0.55, 0.6)], [2.0, 2.1, 2.2]) for d in (64, 128)]
    verdict, why, _ = v(_both(small))
    assert verdict is Verdict.INCONCLUSIVE and "no paper width" in why
    # RowNorm not smaller below the paper's widths: reported, never a refutation (the statement
    # is made at d = 512 / 768 / 1024)
    rev = small + [_pt(256, [0.5, 0.6, 0.7], [0.5, 0.6, 0.8], frac=0.0)]
    verdict, why, parts = v(_both(rev))
    assert verdict is Verdict.INCONCLUSIVE and "not evidence against it" in why
    assert parts["blocks"]["A"]["below_paper_widths_not_smaller"] == {256: 0.0}
    # at a paper width: final ratios > 1 but RowNorm not smaller at every recorded measurement
    verdict, why, parts = v(_both(small + [_pt(512, [9, 9, 9], [3, 3, 3], frac=0.9)]))
    assert verdict is Verdict.REFUTED and "d=512 (90% of them)" in why
    assert parts["blocks"]["A"]["every_measurement"] == {64: True, 128: True, 512: False}
    assert v(_both([_pt(64, [5, 5, 5.1], [2, 2, 2.1], converged=False)]))[0] is Verdict.INCONCLUSIVE


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
    # the published head lrs at the paper's widths, their ratio 1.25 and 1/d scaling elsewhere
    assert hws.head_lrs(512) == (4.0e-3, 3.2e-3) and hws.head_lrs(768) == (2.667e-3, 2.133e-3)
    assert hws.head_lrs(1024) == (2.0e-3, 1.6e-3)
    for d in (32, 64, 256, 512, 768, 1024):
        a, r = hws.head_lrs(d)
        assert a / r == pytest.approx(1.25, rel=5e-4) and a * d == pytest.approx(2.048, rel=5e-4)
    with pytest.raises(ValueError, match="d must"):
        hws.head_lrs(0)


def test_seed_blocks_are_disjoint_and_extend_the_old_seeds():
    from seqtheory.proofs_checks.training_runs import seeds

    ctx = Context(seed=3)
    a, b = hws.block_seeds(ctx, "A"), hws.block_seeds(ctx, "B")
    assert len(a) == len(b) == hws.SEEDS_PER_BLOCK and not set(a) & set(b)
    assert list(a) == seeds(ctx, "head.width", 3)           # block A: the seeds used before
    assert hws.sweep_config(ctx, "B").points[0].seeds == b
    with pytest.raises(ValueError, match="block"):
        hws.block_seeds(ctx, "C")


# ------------------------------------------------------------------ end to end through the store
def test_tiny_sweep_through_the_store_and_control(tmp_path, monkeypatch):
    from controls import control_through_rule

    from seqtheory.models.store import ResultsStore

    ctx = Context(seed=0, out_dir=tmp_path, results_dir=tmp_path / "results")
    real = hws.sweep_config

    def tiny(ctx, block="A", widths=None, **kw):
        return real(ctx, block, widths=(8, 16), steps=12, warmup=2, vocab_size=300,
                    max_bytes=30_000, seq_len=16, eval_windows=4, record_points=3, d_model=16,
                    n_heads=2)

    monkeypatch.setattr(hws, "sweep_config", tiny)   # the plans and the stored sweeps read it
    c = get_claim("head.exp.rownorm_vs_adamw.width")
    out = c.check(ctx)
    rows = out.tables["widths, seed block A"]
    assert [r["d"] for r in rows] == [8, 16] and [r["d"] for r in out.tables["widths, seed block B"]] == [8, 16]
    assert rows[0]["lr_AdamW"] == pytest.approx(2.048 / 8) and rows[0]["lr_RowNorm"] == pytest.approx(2.048 / 8 / 1.25)
    # RowNorm's practical update keeps D(S_t) ≤ 2·lr_t ([HEAD], SPEC head.ema_rownorm_bound)
    assert all(0 < r["c_R = RN D/(2ηf)"] <= 1 + 1e-5 for r in rows)
    assert "Step geometry" in out.notes and "1.25" in out.notes
    assert all(len(r["recorded_steps"]) == 3
               for p in hws.stored_sweep(ctx)["points"] for a in p["runs"].values() for r in a)
    st_ = ResultsStore(tmp_path / "results")
    before = {r.key: r.updated for r in st_.runs()}
    assert len(before) == 6                                  # two widths + the sweep, per block
    assert c.check(ctx).key_figure == out.key_figure         # read back, not retrained
    assert {r.key: r.updated for r in st_.runs()} == before
    assert control_through_rule(c, ctx).rejected
    assert [j.config for j in c.plan(ctx, False)] == [tiny(ctx, "A"), tiny(ctx, "B")]
    law = get_claim("finding.head_width_law")
    assert [j.config for j in law.plan(ctx, False)] == [j.config for j in c.plan(ctx, False)]
    out = law.check(ctx)                                     # reads the same sweeps
    assert {r.key: r.updated for r in st_.runs()} == before
    assert "block A: D ratio ∝ d^" in out.key_figure
    assert control_through_rule(law, ctx).rejected


# ------------------------------------------------------------------ attacks on the rule (negative controls)
def test_a_duplicated_paper_width_is_rejected():
    """One width listed twice must not count as two paper widths nor hide the other's verdict."""
    pts = _paper(scale=0.5, hscale=0.5)
    for dup in ([pts[0], pts[0]], [_paper(scale=0.1, hscale=0.1)[0], pts[0], pts[1]]):
        with pytest.raises(ValueError, match="one point per head width"):
            hw.width_verdict(_both(dup))


def test_an_uninformative_seed_interval_supports_nothing():
    """Two wildly different seeds: the interval contains every paper value, the means are 5×
    off; neither direct support nor overall support may follow."""
    noisy = [_pt(d, [D / 10, D * 10], [H / 10, H * 10]) for d, (D, H) in sorted(hw.PAPER_RATIOS.items())]
    verdict, _, parts = hw.width_verdict(_both(noisy))
    assert verdict is not Verdict.SUPPORTED
    assert set(parts["blocks"]["A"]["per_width"].values()) == {"inconclusive"}
    assert hw.paper_point_verdict(45.0, (1.0, 1000.0), 45.1) is Verdict.INCONCLUSIVE
    assert hw.paper_point_verdict(45.0, (40.0, 50.0), 45.1) is Verdict.SUPPORTED


@pytest.mark.parametrize("key,value", [("ratio_diameter", 0.0), ("ratio_diameter", math.inf),
                                       ("ratio_hilbert_rms", -3.0), ("ratio_diameter", math.nan),
                                       ("interval_diameter", (math.nan, math.nan)),
                                       ("ratio_hilbert_rms_per_seed", [6.0, 0.0, 6.1]),
                                       ("frac_steps_rownorm_smaller", math.nan)])
def test_non_positive_or_non_finite_evidence_is_a_clear_error(key, value):
    """A head that did not move gives a ratio 0 or inf: a ValueError naming the width and the
    key, never a ZeroDivisionError, a math domain error, or a NaN interval read as a verdict."""
    pts = _paper(scale=0.5, hscale=0.5)
    pts[0] = dict(pts[0], **{key: value})
    with pytest.raises(ValueError, match=f"d = 512: .*{key.removesuffix('_per_seed')}"):
        hw.width_verdict(_both(pts))
    with pytest.raises(ValueError, match="one point per head width"):
        hw.width_verdict(_both([]))


def test_exact_and_numpy_ratios_give_the_same_verdict_and_non_numbers_a_type_error():
    """Evidence values are read as real numbers (Fraction, numpy scalars), not only Python
    floats; a value that is not a number is a TypeError naming the width and key."""
    from fractions import Fraction

    pts = _paper(scale=0.9, hscale=0.9)
    exact = [dict(p, ratio_diameter=Fraction(p["ratio_diameter"]),
                  ratio_hilbert_rms=np.float32(p["ratio_hilbert_rms"]),
                  ratio_diameter_per_seed=[Fraction(x) for x in p["ratio_diameter_per_seed"]])
             for p in pts]
    v, why, _ = hw.width_verdict(_both(exact))
    assert v is Verdict.SUPPORTED and v is hw.width_verdict(_both(pts))[0]
    for bad in ("45", None, True):
        with pytest.raises(TypeError, match="d = 512: ratio_diameter"):
            hw.width_verdict(_both([dict(pts[0], ratio_diameter=bad)] + pts[1:]))
    with pytest.raises(TypeError, match="d = 512: interval_diameter must be a list"):
        hw.width_verdict(_both([dict(pts[0], interval_diameter=None)] + pts[1:]))


# ------------------------------------------------------------------ finding.head_width_law
def _law(lo, hi, converged=True, seeds=(1, 2, 3)):
    pts = [{"d": d, "converged": converged} for d in (64, 256, 1024)]
    return {"points": pts, "seeds": list(seeds),
            "fit_diameter": {"exponent": (lo + hi) / 2, "ci": [lo, hi], "n": 9}}


def test_width_law_rule_supports_refutes_and_replicates():
    from seqtheory.proofs_checks.claims import finding_head_width_law as fl

    def v(a, b):
        return fl.width_law_decide({"blocks": {"A": a, "B": _law(*b, seeds=(4, 5, 6))}})[0]

    assert v(_law(0.45, 0.52), (0.47, 0.55)) is Verdict.SUPPORTED
    assert v(_law(-0.05, 0.05), (0.0, 0.1)) is Verdict.REFUTED          # flat in d
    assert v(_law(0.8, 1.0), (0.75, 0.95)) is Verdict.REFUTED           # linear in d
    assert v(_law(0.3, 0.55), (0.45, 0.5)) is Verdict.INCONCLUSIVE      # block A straddles
    assert v(_law(0.45, 0.52), (0.0, 0.1)) is Verdict.INCONCLUSIVE      # blocks disagree
    assert v(_law(0.45, 0.52, converged=False), (0.45, 0.5)) is Verdict.INCONCLUSIVE
    with pytest.raises(ValueError, match="lo ≤ hi"):
        v(_law(0.6, 0.4), (0.45, 0.5))

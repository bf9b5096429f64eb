"""Trained-model check of [HEAD] (A. Somasundaram et al., arXiv:2608.22253) at the paper's head
widths: ``head.exp.rownorm_vs_adamw.width`` (SPEC §3.2), a sweep of the head's width ``d`` with a
shallow backbone.

[HEAD] reports final-step ratios (AdamW / RowNorm) of the head's row diameter 45.1 / 54.3 / 59.5×
and of the Hilbert RMS 12.1 / 13.6 / 15.2× at d = 512 / 768 / 1024 (190M / 380M / 640M models).
The sweep scales the head only: a one-layer backbone of width 64 (Muon on its hidden matrices)
feeds a Muon-trained up-projection to width d (GELU, RMSNorm) and the V×d head, on a word
vocabulary of a few thousand ids of Python stdlib sources (:mod:`seqtheory.models.tokenizer`).

**Learning rates: the published ones** (:mod:`seqtheory.proofs_checks.head_width_sweep`): AdamW
4.0 / 2.667 / 2.0e-3 and RowNorm 3.2 / 2.133 / 1.6e-3 at the paper's widths, the same ratio 1.25
and 1/d scaling at the others. No factor is fitted to the paper's ratios. The recorded steps
exclude weight decay, as the paper's diagnostics do.

**Step geometry.** The diameter ratio decomposes exactly as (η_A / η_R)·√d·c_A / c_R with
RowNorm's c_R = D / (2 η_R f) and AdamW's c_A = D / (2 η_A f √d) (f: the schedule's final
factor); the paper's own table gives c_R = 0.995 / 0.994 / 0.995 and c_A = 1.585 / 1.558 /
1.480 (f = 0.1). The report shows the measured c_A, c_R beside these: at the published lr ratio a
mismatch of the diameter ratio is a mismatch of c_A / c_R.

The √d growth of the ratio in d is the package's hypothesis, not the paper's statement:
``finding.head_width_law`` (:mod:`seqtheory.proofs_checks.claims.finding_head_width_law`).

Each width of each seed block is one results-store record (resumable); each block's sweep is one
record over them.
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from seqtheory.theory._messages import counted
from seqtheory.proofs_checks.evidence_checks import fraction, measured, per_seed
from seqtheory.proofs_checks.figures import new_figure, save_figure
from seqtheory.proofs_checks.head_width_sweep import (BLOCKS, PUBLISHED_LR_RATIO,
                                                      adamw_both_arms_evidence, block_evidence,
                                                      head_lrs, width_plan)
from seqtheory.proofs_checks.registry import (HEAD, Context, ControlOutcome, Outcome, Verdict,
                                              claim, replicate)

#: the paper's final-step ratios (diameter, Hilbert RMS) by head width d
PAPER_RATIOS = {512: (45.1, 12.1), 768: (54.3, 13.6), 1024: (59.5, 15.2)}
#: the paper's final-step geometry (c_R = RowNorm's D/(2ηf), c_A = AdamW's D/(2ηf√d)), f = 0.1
PAPER_STEP_GEOMETRY = {512: (0.995, 1.585), 768: (0.994, 1.558), 1024: (0.995, 1.480)}
PAPER_SCALE = "190M / 380M / 640M-parameter models, V ≈ 50k"
#: a measured mean ratio within this relative tolerance of the paper's value matches it
MATCH_TOL = 0.25
#: refuted when the seed interval excludes the paper's value by more than this factor
REFUTE_FACTOR = 2.0
#: the two statistics, in the order of PAPER_RATIOS' pairs
STATISTICS = ("diameter", "hilbert_rms")


def paper_point_verdict(value: float, interval, paper: float) -> Verdict:
    """One statistic at a paper width: supported when ``paper`` lies in the seed ``interval`` or
    ``value`` is within ``MATCH_TOL`` (relative, on the log scale) of it, and the interval lies
    within ``REFUTE_FACTOR`` of it on both sides (an interval too wide to exclude a
    ``REFUTE_FACTOR`` miss supports nothing); refuted when the interval excludes it by more than
    ``REFUTE_FACTOR``; else inconclusive."""
    lo, hi = interval
    informative = paper <= lo * REFUTE_FACTOR and hi <= paper * REFUTE_FACTOR
    if informative and (lo <= paper <= hi or abs(math.log(value / paper)) <= math.log1p(MATCH_TOL)):
        return Verdict.SUPPORTED
    if hi * REFUTE_FACTOR < paper or lo > paper * REFUTE_FACTOR:
        return Verdict.REFUTED
    return Verdict.INCONCLUSIVE


def _rounded(interval) -> list[float]:
    return [float(f"{x:.3g}") for x in interval]


def _geometry(p: dict) -> tuple[float, float]:
    """``(c_R, c_A)`` of one width: the seed means of the final-step step geometry."""
    g = p["step_geometry"]
    return (float(np.mean(g["rownorm_D_over_2lr"])), float(np.mean(g["adamw_D_over_2lr_sqrt_d"])))


def _scale_text(sc: dict) -> str:
    return (f"at a {sc['backbone']} backbone, V = {sc['vocab_size']}, {sc['steps']} steps "
            f"({sc['tokens']:,} training tokens), {counted(sc['seeds'], 'seed')} per block; the "
            f"paper: {PAPER_SCALE}")


#: what evidence would decide the claim when it is inconclusive (report.md shows it)
DECIDED_BY = ("converged runs at two or more of the paper's widths (512, 768, 1024: the full "
              "profile): the ratios' growth in d and their distance to the paper's values at "
              'those widths decide it; widths below 512 alone cannot')


@claim("head.exp.rownorm_vs_adamw.width", title="RowNorm vs AdamW head: the ratios across head widths",
       decided_by=DECIDED_BY,
       source=HEAD("experiments: RowNorm vs AdamW head"), uses_training=True, claim_version=2,
       statement="The final-step row-diameter ratio AdamW/RowNorm is 45.1 / 54.3 / 59.5× and the "
                 "Hilbert RMS ratio 12.1 / 13.6 / 15.2× at head width d = 512 / 768 / 1024, with "
                 "the published head learning rates (AdamW 4.0 / 2.667 / 2.0e-3, RowNorm 3.2 / "
                 "2.133 / 1.6e-3), and RowNorm's steps are smaller at every recorded measurement")
def rownorm_vs_adamw_width(ctx: Context) -> Outcome:
    blocks = block_evidence(ctx)
    verdict, why, parts = width_verdict({"blocks": blocks})
    figs = save_figure(_figure(blocks), ctx, "head_width_sweep")
    tables = {f"widths, seed block {b}": _table(ev, parts["blocks"][b]) for b, ev in blocks.items()}
    return Outcome(verdict, _key_figure(blocks),
                   evidence={"decision": {"blocks": blocks}, "parts": parts, "paper": PAPER_RATIOS,
                             "paper_step_geometry": PAPER_STEP_GEOMETRY,
                             "lrs": {d: head_lrs(d) for d in
                                     [p["d"] for p in blocks[BLOCKS[0]]["points"]]}},
                   tables=tables, figures=figs,
                   notes=f"{why}. Released recipes (head AdamW betas (0.9, 0.999), eps 1e-10, "
                         "weight decay 0.1; head RowNorm β 0.95, eps 1e-8, no weight decay; Muon "
                         "on the hidden matrices) at the published peak head learning rates "
                         "(AdamW 4.0 / 2.667 / 2.0e-3, RowNorm 3.2 / 2.133 / 1.6e-3 at d = 512 / "
                         f"768 / 1024; ratio {PUBLISHED_LR_RATIO:g} and η·d constant at the other "
                         "widths); no factor fitted to the paper's ratios. The recorded steps "
                         "exclude weight decay, as the paper's diagnostics do. Step geometry: "
                         "D ratio = 1.25·√d·c_A / c_R exactly, with c_R = RowNorm's D/(2ηf) and "
                         "c_A = AdamW's D/(2ηf√d) (paper: c_R 0.995 / 0.994 / 0.995, c_A 1.585 / "
                         "1.558 / 1.480); the tables give the measured ones. Intervals: 95% "
                         "Student-t over the block's seeds of the log per-seed ratios. The √d "
                         "growth in d is the package's finding.head_width_law, not this claim")


def _key_figure(blocks: dict[str, dict]) -> str:
    """Per block: at the paper's widths the ratios beside the paper's and the step geometry
    (c_A, c_R) beside the paper's; without a paper width, the ratios at every width."""
    out = []
    for b, ev in blocks.items():
        at = [p for p in ev["points"] if p["d"] in PAPER_RATIOS]
        if not at:
            out.append(f"block {b}: " + ", ".join(
                f"d={p['d']}: D {p['ratio_diameter']:.1f}× / H {p['ratio_hilbert_rms']:.1f}×"
                for p in ev["points"]) + " (no paper width)")
            continue
        rows = []
        for p in at:
            (pd, ph), (pc_r, pc_a), (c_r, c_a) = (PAPER_RATIOS[p["d"]], PAPER_STEP_GEOMETRY[p["d"]],
                                                  _geometry(p))
            rows.append(f"d={p['d']}: D {p['ratio_diameter']:.1f}× (paper {pd}×, ÷ "
                        f"{pd / p['ratio_diameter']:.2f}), H {p['ratio_hilbert_rms']:.1f}× (paper "
                        f"{ph}×, ÷ {ph / p['ratio_hilbert_rms']:.2f}), c_A {c_a:.3f} (paper "
                        f"{pc_a}), c_R {c_r:.3f} (paper {pc_r})")
        out.append(f"block {b}: " + "; ".join(rows))
    return " | ".join(out)


def _table(ev: dict, parts: dict) -> list[dict]:
    rows = []
    for p in ev["points"]:
        c_r, c_a = _geometry(p)
        paper = PAPER_RATIOS.get(p["d"], ("—", "—"))
        paper_c_r, paper_c_a = PAPER_STEP_GEOMETRY.get(p["d"], ("—", "—"))
        rows.append({"d": p["d"], "lr_AdamW": p["lr_adamw"], "lr_RowNorm": p["lr_rownorm"],
                     "D_ratio": p["ratio_diameter"], "D_interval": _rounded(p["interval_diameter"]),
                     "paper_D": paper[0],
                     "paper_D/measured": (paper[0] / p["ratio_diameter"] if p["d"] in PAPER_RATIOS
                                          else "—"),
                     "H_ratio": p["ratio_hilbert_rms"],
                     "H_interval": _rounded(p["interval_hilbert_rms"]), "paper_H": paper[1],
                     "c_R = RN D/(2ηf)": c_r, "paper_c_R": paper_c_r,
                     "c_A = AdamW D/(2ηf√d)": c_a, "paper_c_A": paper_c_a,
                     "rownorm_smaller_every_measurement": p["frac_steps_rownorm_smaller"] == 1.0,
                     "val_loss_diff": p["val_loss_diff"],
                     "verdict_at_d": parts["per_width"].get(p["d"], "no paper value")})
    return rows


@rownorm_vs_adamw_width.decision_rule
def width_verdict(ev: dict) -> tuple[Verdict, str, dict]:
    """Evidence: ``{"blocks": {name: block evidence}}``, two or more disjoint seed blocks, each
    with ``seeds``, ``points`` (per width: mean and per-seed ratios, seed intervals, the fraction
    of recorded steps at which RowNorm is smaller, ``converged``) and ``scale``.

    Each block is decided alone (:func:`block_width_verdict`); the verdict stands when every
    block gives it, else it is inconclusive with both blocks shown (``registry.replicate``).
    Returns ``(verdict, why, {"blocks": {name: parts}})``. ``ValueError`` for fewer than two
    blocks, blocks that share a seed, or bad points (:func:`block_width_verdict`)."""
    blocks = ev["blocks"]
    decided = {name: block_width_verdict(bev) for name, bev in blocks.items()}
    verdict, why = replicate({name: (blocks[name]["seeds"], v, w)
                              for name, (v, w, _) in decided.items()})
    return verdict, why, {"blocks": {name: parts for name, (_, _, parts) in decided.items()}}


def block_width_verdict(ev: dict) -> tuple[Verdict, str, dict]:
    """The verdict of one seed block, at the published learning rates (no fitted factor):

    * inconclusive when a run did not converge;
    * refuted when RowNorm is not smaller at every recorded measurement at a paper width (a
      counterexample to the statement's last part, which the paper states at its widths); at
      another width that is reported (``parts["below_paper_widths_not_smaller"]``), never a
      refutation (a smaller model's steps cannot refute a statement made at the paper's scale);
    * per paper width, each statistic compared directly with the paper's value
      (:func:`paper_point_verdict`: within ``MATCH_TOL`` supports, a seed interval more than
      ``REFUTE_FACTOR`` away refutes); a width is supported when both statistics are, refuted
      when one is;
    * overall: refuted when a paper width is refuted, supported when every paper width run is
      supported, else inconclusive (also when no paper width was run).

    Returns ``(verdict, why, parts)``. ``ValueError`` when a head width appears twice in
    ``points``, or a ratio, per-seed ratio or interval end is not a positive finite number (a
    head that did not move gives 0 or inf)."""
    pts = _checked_points(ev["points"])
    sc = _scale_text(ev["scale"])
    parts: dict[str, Any] = {"per_width": {}, "every_measurement": {}, "paper_over_measured": {}}
    for p in pts:
        parts["every_measurement"][p["d"]] = p["frac_steps_rownorm_smaller"] == 1.0
    paper_pts = [p for p in pts if p["d"] in PAPER_RATIOS]
    for p in paper_pts:
        vs = [paper_point_verdict(p[f"ratio_{k}"], p[f"interval_{k}"], paper)
              for k, paper in zip(STATISTICS, PAPER_RATIOS[p["d"]])]
        parts["per_width"][p["d"]] = (
            Verdict.SUPPORTED if all(v is Verdict.SUPPORTED for v in vs) else
            Verdict.REFUTED if Verdict.REFUTED in vs else Verdict.INCONCLUSIVE).value
        parts["paper_over_measured"][p["d"]] = [PAPER_RATIOS[p["d"]][j] / p[f"ratio_{k}"]
                                                for j, k in enumerate(STATISTICS)]
    if not all(p["converged"] for p in pts):
        bad = [p["d"] for p in pts if not p["converged"]]
        return Verdict.INCONCLUSIVE, f"training did not converge at d = {bad} {sc}", parts
    fails = {p["d"]: p["frac_steps_rownorm_smaller"] for p in paper_pts
             if not parts["every_measurement"][p["d"]]}
    if fails:
        at = ", ".join(f"d={d} ({f:.0%} of them)" for d, f in fails.items())
        return (Verdict.REFUTED, f"RowNorm is not smaller at every recorded measurement at a paper "
                                 f"width: smaller on both statistics at {at} {sc}", parts)
    below = {p["d"]: p["frac_steps_rownorm_smaller"] for p in pts
             if p["d"] not in PAPER_RATIOS and not parts["every_measurement"][p["d"]]}
    parts["below_paper_widths_not_smaller"] = below
    measured = "; ".join(
        f"d={p['d']}: D {p['ratio_diameter']:.1f}× [{p['interval_diameter'][0]:.3g}, "
        f"{p['interval_diameter'][1]:.3g}] (paper {PAPER_RATIOS[p['d']][0]}×, paper ÷ measured "
        f"{parts['paper_over_measured'][p['d']][0]:.2f}), Hilbert RMS {p['ratio_hilbert_rms']:.1f}× "
        f"(paper {PAPER_RATIOS[p['d']][1]}×, ÷ {parts['paper_over_measured'][p['d']][1]:.2f})"
        for p in paper_pts)
    at_paper = list(parts["per_width"].values())
    if not at_paper:
        seen = ("RowNorm smaller at every width and recorded measurement" if not below else
                "RowNorm not smaller at every recorded measurement at " + ", ".join(
                    f"d={d} ({f:.0%} of them)" for d, f in below.items()) + " (below the paper's "
                "widths: not evidence against it)")
        return (Verdict.INCONCLUSIVE, f"{seen}; no paper width (512/768/1024) was run {sc}", parts)
    if Verdict.REFUTED.value in at_paper:
        return (Verdict.REFUTED, f"a seed interval lies more than {REFUTE_FACTOR:g}× from the "
                                 f"paper's value at the published learning rates: {measured} "
                                 f"{sc}", parts)
    if all(v == Verdict.SUPPORTED.value for v in at_paper):
        return (Verdict.SUPPORTED, f"the ratios match the paper's within {MATCH_TOL:.0%} at the "
                                   f"published learning rates: {measured} {sc}", parts)
    return (Verdict.INCONCLUSIVE, f"at the published learning rates the ratios neither match the "
                                  f"paper's within {MATCH_TOL:.0%} nor lie more than "
                                  f"{REFUTE_FACTOR:g}× from them: {measured} {sc}", parts)


def _checked_points(pts: list[dict]) -> list[dict]:
    """``pts`` with every ratio, interval end and the fraction as a Python ``float``, checked
    by :mod:`~seqtheory.proofs_checks.evidence_checks` (any real number; ``TypeError`` for a
    value that is not one): ``ValueError`` unless ``pts`` is non-empty, one point per head
    width, with positive finite ratios (means, per seed, interval ends) and a fraction in
    [0, 1]."""
    widths = [p.get("d") for p in pts]
    if not pts or len(set(widths)) != len(widths):
        raise ValueError(f"ev['points'] must have one point per head width d, got d = {widths}")
    out = []
    for p in pts:
        at, q = f"ev['points'] at d = {p['d']}", dict(p)
        for k in STATISTICS:
            q[f"ratio_{k}"] = measured(at, f"ratio_{k}", p.get(f"ratio_{k}"), 0, above=True)
            for key in (f"ratio_{k}_per_seed", f"interval_{k}"):
                q[key] = per_seed(at, key, p.get(key), None, 0, above=True)
        q["frac_steps_rownorm_smaller"] = fraction(at, "frac_steps_rownorm_smaller",
                                                   p.get("frac_steps_rownorm_smaller"))
        out.append(q)
    return out


@rownorm_vs_adamw_width.control
def _width_control(ctx: Context) -> ControlOutcome:
    # AdamW in both arms at every width (seed s against seed s+1): the direction must fail
    blocks = adamw_both_arms_evidence(ctx)
    verdict, why, parts = width_verdict({"blocks": blocks})
    every = [ok for p in parts["blocks"].values() for ok in p["every_measurement"].values()]
    return ControlOutcome(verdict not in (Verdict.SUPPORTED, Verdict.REFINED) and not all(every),
                          "AdamW head in both arms at every width (seeds paired s ↔ s+1)",
                          f"verdict {verdict.value}: {why}", {"decision": {"blocks": blocks}})


def _figure(blocks: dict[str, dict]):
    fig, ax = new_figure(1, 2, figsize=(10, 3.6))
    for j, (a, k, name) in enumerate(((ax[0], "diameter", "row diameter D(S_T)"),
                                      (ax[1], "hilbert_rms", "Hilbert RMS"))):
        for i, (b, ev) in enumerate(blocks.items()):
            ws = np.array([p["d"] for p in ev["points"]], dtype=float) * (1.03 ** i)
            m = np.array([p[f"ratio_{k}"] for p in ev["points"]])
            iv = np.array([p[f"interval_{k}"] for p in ev["points"]])
            a.errorbar(ws, m, yerr=[m - iv[:, 0], iv[:, 1] - m], fmt=("o-", "s--")[i % 2],
                       color=f"C{3 + i}", capsize=3, ms=4,
                       label=f"block {b} (mean, 95% seed interval)")
        pw = sorted(PAPER_RATIOS)
        a.plot(pw, [PAPER_RATIOS[d][j] for d in pw], "s", color="k",
               label="[HEAD] (190M–640M models)")
        a.set_xscale("log")
        a.set_yscale("log")
        a.set_xlabel("head width d")
        a.set_title(f"AdamW / RowNorm final-step {name}\n(published lrs, ratio "
                    f"{PUBLISHED_LR_RATIO:g})", fontsize=9)
        a.legend(fontsize=7)
    return fig


@rownorm_vs_adamw_width.training_plan
def _width_plan(ctx: Context, controls: bool) -> list:
    return width_plan(ctx)

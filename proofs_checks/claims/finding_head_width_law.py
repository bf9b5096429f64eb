"""The package's width law for the RowNorm-vs-AdamW head comparison of [HEAD] (A. Somasundaram et
al., arXiv:2608.22253): ``finding.head_width_law``.

Hypothesis (the package's, not the paper's): RowNorm's step is normalised per row, so its
final-step row diameter is about ``2 η_R f`` whatever the head width d, while AdamW's update has d
entries of about ``η_A f`` each, so its diameter is about ``2 η_A f √d · c_A`` with ``c_A`` not
depending on d. At a fixed ratio of the two heads' learning rates the final-step diameter ratio
AdamW / RowNorm then grows like ``√d``: its exponent in d is 0.5. (The paper's own ratios divided
by √d are 1.99, 1.96, 1.86 at d = 512 / 768 / 1024.)

Evidence: the head-width sweep of ``head.exp.rownorm_vs_adamw.width`` at the published learning
rates (ratio 1.25 at every width; :mod:`seqtheory.proofs_checks.head_width_sweep`), two disjoint
seed blocks. Rule (:func:`width_law_decide`, pure): per block, the 95% CI of the exponent of the
diameter ratio in d (OLS of log ratio on log d over every (width, seed) pair) decides —
supported when it lies inside ``[0.5 − EXPONENT_TOL, 0.5 + EXPONENT_TOL]``, refuted when it lies
wholly outside that band, else inconclusive (also when a run did not converge or fewer than two
widths were run); the blocks must agree (``registry.replicate``). Control: AdamW in both arms
(seed s against s+1), a ratio flat in d, must not be supported.
"""
from __future__ import annotations

import numpy as np

from seqtheory.proofs_checks.head_width_sweep import (adamw_both_arms_evidence, block_evidence,
                                                      width_plan)
from seqtheory.proofs_checks.registry import (FINDING, Context, ControlOutcome, Outcome, Verdict,
                                              claim, replicate)
from seqtheory.theory._messages import counted

#: the hypothesised exponent of the diameter ratio in d, and the half-width of its band
EXPONENT, EXPONENT_TOL = 0.5, 0.1


def _fit_text(fit: dict | None, name: str) -> str:
    if not fit:
        return f"{name}: no fit"
    return f"{name} ∝ d^{fit['exponent']:.2f} [{fit['ci'][0]:.2f}, {fit['ci'][1]:.2f}]"


#: what evidence would decide the finding when it is inconclusive (report.md shows it)
DECIDED_BY = ("a width sweep over at least three head widths whose diameter-ratio exponent has a "
              "seed interval narrow enough to fall inside or outside 0.5 ± 0.1 in both seed "
              "blocks; the full profile's sweep (d = 64 … 1024) gives one; the quick profile's "
              "three small widths (d = 32, 64, 128) give one only when both blocks' intervals "
              "fall on the same side")


@claim("finding.head_width_law", title="The AdamW/RowNorm head diameter ratio grows like √d",
       decided_by=DECIDED_BY,
       source=FINDING("seqtheory (this package): a hypothesis about the head optimizers' step "
                      "geometry", "after [HEAD] (arXiv:2608.22253) experiments: RowNorm vs AdamW "
                      "head; SPEC §3.2"),
       uses_training=True,
       statement=("at a fixed ratio of the two heads' learning rates, the final-step row-diameter "
                  "ratio AdamW / RowNorm grows like √d in the head width d (exponent 0.5 ± 0.1): "
                  "RowNorm's final step has diameter about 2ηf at every width, AdamW's about "
                  "2ηf√d times a constant"))
def head_width_law(ctx: Context) -> Outcome:
    blocks = block_evidence(ctx)
    verdict, why, parts = width_law_decide({"blocks": blocks})
    rows = []
    for b, ev in blocks.items():
        for p in ev["points"]:
            g = p["step_geometry"]
            rows.append({"block": b, "d": p["d"], "D_ratio": p["ratio_diameter"],
                         "D_ratio/√d": p["ratio_diameter"] / np.sqrt(p["d"]),
                         "c_R = RN D/(2ηf)": float(np.mean(g["rownorm_D_over_2lr"])),
                         "c_A = AdamW D/(2ηf√d)": float(np.mean(g["adamw_D_over_2lr_sqrt_d"]))})
    key = "; ".join(f"block {b}: {_fit_text(ev.get('fit_diameter'), 'D ratio')}, "
                    f"{_fit_text(ev.get('fit_hilbert_rms'), 'Hilbert RMS ratio')}"
                    for b, ev in blocks.items())
    return Outcome(verdict, key + " (95% CI; hypothesis 0.5)",
                   evidence={"decision": {"blocks": blocks}, "parts": parts,
                             "exponent": EXPONENT, "exponent_tol": EXPONENT_TOL},
                   tables={"ratio and step geometry by width": rows},
                   notes=f"{why}. The package's hypothesis, not a claim of [HEAD]: the paper "
                         "states the ratios at three widths (head.exp.rownorm_vs_adamw.width), "
                         "not a law in d. Only the diameter exponent is tested (the paper's own "
                         "Hilbert RMS ratios grow like about d^0.33); the Hilbert RMS exponent "
                         "is shown beside it. The sweep runs at the published learning rates "
                         "(ratio 1.25 at every width), so the law is tested at a fixed lr ratio")


@head_width_law.decision_rule
def width_law_decide(ev: dict) -> tuple[Verdict, str, dict]:
    """Evidence: ``{"blocks": {name: block evidence}}`` (two or more disjoint seed blocks; each
    with ``seeds``, ``points`` (per width: ``d``, ``converged``) and ``fit_diameter``
    (``{"exponent", "ci": [lo, hi], "n"}``, absent with one width)). Each block alone: inconclusive
    when a run did not converge or there is no fit; supported when the CI lies inside
    ``[EXPONENT − EXPONENT_TOL, EXPONENT + EXPONENT_TOL]``; refuted when it lies wholly outside
    that band; else inconclusive. The verdict stands when every block gives it, else
    inconclusive (``registry.replicate``). Returns ``(verdict, why, {"blocks": {name:
    {"verdict", "ci"}}})``; ``ValueError`` for a CI that is not two finite numbers lo ≤ hi,
    fewer than two blocks or blocks sharing a seed."""
    blocks = ev["blocks"]
    decided = {name: _block_law(bev) for name, bev in blocks.items()}
    verdict, why = replicate({name: (blocks[name]["seeds"], v, w)
                              for name, (v, w) in decided.items()})
    parts = {"blocks": {name: {"verdict": v.value,
                               "ci": (blocks[name].get("fit_diameter") or {}).get("ci")}
                        for name, (v, _) in decided.items()}}
    return verdict, why, parts


def _block_law(ev: dict) -> tuple[Verdict, str]:
    """One seed block's verdict (:func:`width_law_decide`)."""
    from seqtheory.theory._checks import check_real

    lo_band, hi_band = EXPONENT - EXPONENT_TOL, EXPONENT + EXPONENT_TOL
    widths = [p["d"] for p in ev["points"]]
    if not all(p["converged"] for p in ev["points"]):
        return Verdict.INCONCLUSIVE, (f"training did not converge at d = "
                                      f"{[p['d'] for p in ev['points'] if not p['converged']]}")
    fit = ev.get("fit_diameter")
    if not fit or len(set(widths)) < 2:
        return Verdict.INCONCLUSIVE, f"no exponent fit: widths {widths}"
    lo, hi = (check_real(f"fit_diameter ci[{i}]", x) for i, x in enumerate(fit["ci"]))
    if not lo <= hi:
        raise ValueError(f"fit_diameter ci must be [lo, hi] with lo ≤ hi, got {fit['ci']!r}")
    text = (f"diameter ratio ∝ d^{fit['exponent']:.2f}, 95% CI [{lo:.2f}, {hi:.2f}] over "
            f"{counted(fit['n'], '(width, seed) pair')} at d = {', '.join(map(str, widths))}")
    if lo_band <= lo and hi <= hi_band:
        return Verdict.SUPPORTED, f"{text}: inside [{lo_band:g}, {hi_band:g}]"
    if hi < lo_band or lo > hi_band:
        return Verdict.REFUTED, f"{text}: wholly outside [{lo_band:g}, {hi_band:g}]"
    return Verdict.INCONCLUSIVE, f"{text}: neither inside nor wholly outside [{lo_band:g}, {hi_band:g}]"


@head_width_law.control
def _width_law_control(ctx: Context) -> ControlOutcome:
    # AdamW in both arms at every width (seed s against seed s+1): a ratio flat in d
    blocks = adamw_both_arms_evidence(ctx)
    verdict, why, _ = width_law_decide({"blocks": blocks})
    return ControlOutcome(verdict is not Verdict.SUPPORTED,
                          "AdamW head in both arms at every width (seeds paired s ↔ s+1)",
                          f"verdict {verdict.value}: {why}", {"decision": {"blocks": blocks}})


@head_width_law.training_plan
def _width_law_plan(ctx: Context, controls: bool) -> list:
    return width_plan(ctx)

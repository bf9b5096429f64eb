"""Rule-power cases (tests/test_rule_power.py) of the [HEAD] claims (``head.*``) and of the
package's width law ``finding.head_width_law``: for each, synthetic evidence its registered
decision rule must refute and evidence it must support or confirm. Each case calls
``get_claim(id).decision`` with the thresholds the check itself passes."""
from __future__ import annotations

from seqtheory.proofs_checks.claims import head_backward_full as hbf
from seqtheory.proofs_checks.claims import head_diameter_identity as hdi
from seqtheory.proofs_checks.claims import head_ema_rownorm as hema
from seqtheory.proofs_checks.claims import head_hilbert_softmax as hhs
from seqtheory.proofs_checks.claims import head_rownorm_oracle as hro
from seqtheory.proofs_checks.claims import head_width as hw
from seqtheory.proofs_checks.head_evidence import SOLVER_TOL
from seqtheory.proofs_checks.head_width_sweep import seed_interval
from seqtheory.proofs_checks.registry import get_claim


def _rule(cid: str):
    return get_claim(cid).decision


# ---------------------------------------------------------------- bounds and identities
def _di_errors(err: float) -> dict:
    return dict.fromkeys(hdi._DI_KEYS, err)


_TRAINED_OK = {"adamw": {"identity_err_max": 1e-14, "bound_ok": True}}
_U_CANDIDATES = [{"candidate": "D(S)", "bound": 1.0, "change": 2.0}]


def _backward_change(worst: float):
    return {f: worst for f in hbf.FORMS}, {f: 1 - hbf._TIGHT_TOL / 10 for f in hbf.FORMS}


def _equidistance(claimed: int):
    exact = [{"d": d, "max_equidistant_points": d + 1, "claimed": claimed + d,
              "simplex_exact": True} for d in (1, 2, 3)]
    opt = [{"V": 4, "d": 2, "best_ratio": 0.7071, "bound": 0.8165, "equidistant": False,
            "claimed_equidistant": False}]
    return exact, opt, True


def _spectral(zero: bool = True) -> list[dict]:
    return [{"V": V, "a": [1, 2], "output_change_zero": zero, "rows_equal": True, "gram_rank": 1,
             "op_norm_sq": 5 * V, "stated_op_norm_sq": 5 * V} for V in (2, 3, 5)]


CASES = {
    "head.hilbert_softmax": {
        "refute": lambda: _rule("head.hilbert_softmax")(True, 10 * hhs._TOL_ID),
        "support": lambda: _rule("head.hilbert_softmax")(True, hhs._TOL_ID / 1000),
    },
    "head.diameter_identity": {
        "refute": lambda: _rule("head.diameter_identity")(_di_errors(0.3), _TRAINED_OK),
        "support": lambda: _rule("head.diameter_identity")(_di_errors(hdi._TOL_DI / 1000),
                                                           _TRAINED_OK),
    },
    "head.ce_control": {
        "refute": lambda: _rule("head.ce_control")(1.05, [0.99]),
        "support": lambda: _rule("head.ce_control")(0.97, [0.999]),
    },
    "head.backward_bound": {
        "refute": lambda: _rule("head.backward_bound")(1.2, 1.0),
        "support": lambda: _rule("head.backward_bound")(0.8, 1.0),
    },
    "head.tv_bound": {
        "refute": lambda: _rule("head.tv_bound")(1.01, [1.0, 1.0]),
        "support": lambda: _rule("head.tv_bound")(0.99, [1.0, 1.0]),
    },
    "head.min_tension_duality": {
        "refute": lambda: _rule("head.min_tension_duality")(
            [{"primal": -2.0, "claimed_dual": -1.0}]),
        "support": lambda: _rule("head.min_tension_duality")(
            [{"primal": -2.0, "claimed_dual": -2.0 + SOLVER_TOL},
             {"primal": -0.5, "claimed_dual": -0.5}]),
    },
    "head.rownorm_oracle": {
        "refute": lambda: _rule("head.rownorm_oracle")(
            {**dict.fromkeys(hro._RN_KEYS, 0.0), "diameter_excess": 0.5}),
        "support": lambda: _rule("head.rownorm_oracle")(dict.fromkeys(hro._RN_KEYS, 0.0)),
    },
    "head.rownorm_ratio": {
        "refute": lambda: _rule("head.rownorm_ratio")(
            {"max_violation_below": 0.05, "max_violation_above": 0.0,
             "simplex_tightness_err": 1e-9}),
        "support": lambda: _rule("head.rownorm_ratio")(
            {"max_violation_below": 0.0, "max_violation_above": 0.0,
             "simplex_tightness_err": SOLVER_TOL / 10}),
    },
    "head.equidistance_limit": {
        # the claimed limit d (not d+1) disagrees with the exact maximum
        "refute": lambda: _rule("head.equidistance_limit")(*_equidistance(0)),
        "support": lambda: _rule("head.equidistance_limit")(*_equidistance(1)),
    },
    "head.spectral_norm_mismatch": {
        "refute": lambda: _rule("head.spectral_norm_mismatch")(_spectral(zero=False)),
        "support": lambda: _rule("head.spectral_norm_mismatch")(_spectral()),
    },
    "head.ema_rownorm_bound": {
        "refute": lambda: _rule("head.ema_rownorm_bound")(2.3, hema.STATED_CONSTANT, 1e-12),
        "support": lambda: _rule("head.ema_rownorm_bound")(1.999, hema.STATED_CONSTANT, 1e-12),
    },
    "head.backward_bound_u_dependence": {
        # a U-free bound proven for every head, and no growth along the family
        "refute": lambda: _rule("head.backward_bound_u_dependence")(
            False, _U_CANDIDATES, 0.9, ["D(S) (a proven bound)"]),
        "support": lambda: _rule("head.backward_bound_u_dependence")(
            True, _U_CANDIDATES, 0.94, []),
    },
    "head.backward_change_bound": {
        "refute": lambda: _rule("head.backward_change_bound")(*_backward_change(1 + 10 * hbf._TOL)),
        "support": lambda: _rule("head.backward_change_bound")(*_backward_change(0.9999)),
    },
}


# ---------------------------------------------------------------- trained experiments
def _exp_block(ratio_d: float, ratio_h: float, seeds, params: int = 100_000) -> dict:
    rd, rh = [ratio_d * f for f in (0.95, 1.0, 1.05)], [ratio_h * f for f in (0.95, 1.0, 1.05)]
    return {"seeds": list(seeds), "ratio_diameter": sum(rd) / 3, "ratio_diameter_per_seed": rd,
            "ratio_hilbert_rms": sum(rh) / 3, "ratio_hilbert_rms_per_seed": rh,
            "val_loss_diff": 0.01, "converged": True, "parameters": params}


def _exp(ratio_d: float, ratio_h: float) -> dict:
    return {"blocks": {"A": _exp_block(ratio_d, ratio_h, (1, 2, 3)),
                       "B": _exp_block(ratio_d, ratio_h, (4, 5, 6))}}


def _width_point(d: int, D: float, H: float) -> dict:
    rd, rh = [D * f for f in (0.97, 1.0, 1.03)], [H * f for f in (0.97, 1.0, 1.03)]
    return {"d": d, "ratio_diameter": sum(rd) / 3, "ratio_hilbert_rms": sum(rh) / 3,
            "ratio_diameter_per_seed": rd, "ratio_hilbert_rms_per_seed": rh,
            "interval_diameter": seed_interval(rd), "interval_hilbert_rms": seed_interval(rh),
            "frac_steps_rownorm_smaller": 1.0, "val_loss_diff": 0.01, "converged": True}


def _width(scale: float) -> dict:
    """Both seed blocks measure the paper's six ratios times ``scale``."""
    pts = [_width_point(d, D * scale, H * scale) for d, (D, H) in sorted(hw.PAPER_RATIOS.items())]
    scale_info = {"backbone": "1 layer of width 64", "vocab_size": 2048, "steps": 300,
                  "tokens": 76_800, "seeds": 3}
    return {"blocks": {"A": {"points": pts, "seeds": [1, 2, 3], "scale": scale_info},
                       "B": {"points": pts, "seeds": [4, 5, 6], "scale": scale_info}}}


def _law(lo: float, hi: float) -> dict:
    def block(seeds):
        return {"points": [{"d": d, "converged": True} for d in (64, 256, 1024)],
                "seeds": list(seeds),
                "fit_diameter": {"exponent": (lo + hi) / 2, "ci": [lo, hi], "n": 9}}
    return {"blocks": {"A": block((1, 2, 3)), "B": block((4, 5, 6))}}


CASES.update({
    "head.exp.rownorm_vs_adamw": {
        # RowNorm's final steps larger than AdamW's in every seed of both blocks
        "refute": lambda: _rule("head.exp.rownorm_vs_adamw")(_exp(0.5, 0.6)),
        "support": lambda: _rule("head.exp.rownorm_vs_adamw")(_exp(50.0, 13.0)),
    },
    "head.exp.rownorm_vs_adamw.width": {
        # a tenth of the paper's ratios in both blocks: far outside the refute factor 2
        "refute": lambda: _rule("head.exp.rownorm_vs_adamw.width")(_width(0.1)),
        "support": lambda: _rule("head.exp.rownorm_vs_adamw.width")(_width(1.1)),
    },
    "finding.head_width_law": {
        "refute": lambda: _rule("finding.head_width_law")(_law(-0.05, 0.08)),
        "support": lambda: _rule("finding.head_width_law")(_law(0.46, 0.55)),
    },
})

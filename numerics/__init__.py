"""seqtheory.numerics — floating-point and arbitrary-precision experiments: error-scaling fits,
cascades, optimisation oracles. Imports :mod:`seqtheory.theory`; never imports torch.

Public names are imported lazily from their modules.
"""
from __future__ import annotations

from seqtheory.theory._lazy import lazy_exports

_EXPORTS = {
    "max_min_separation": "equidistance",
    "steepest_descent_diameter": "head_oracles",
    "min_tension": "head_oracles",
    "rownorm_update": "head_oracles",
    "covering_radius_descent": "head_oracles",
    "rownorm_ratio": "head_oracles",
    "fit_loglog_slope": "fits",
    "choose_eps_grid": "fits",
    "SlopeFit": "fits",
    "least_separating_class": "separation",
    "max_class_for_depth": "separation",
    "build_cascade": "group_cascades",
    "cascade_for_group": "group_cascades",
    "prefix_products": "group_cascades",
    "GroupCascade": "group_cascades",
    "log_series_coefficients": "local_error",
    "truncation_error": "local_error",
    "local_error_scan": "local_error",
    "target_generators": "local_error",
    "reversal_bound": "reversal",
    "reversal_scan": "reversal",
    "omega2": "reversal",
    "abelian_model_error": "reversal",
    "zero_area_words": "reversal",
    "affine_diagonal_final_state": "reversal",
    "colliding_pair": "separation",
    "least_depth_for_class": "separation",
    "least_depth_for_length": "separation",
    "word_signature_levels": "separation",
    "nilpotent_cascade": "nilpotent_cascades",
    "NilpotentCascade": "nilpotent_cascades",
    "free_group_element": "nilpotent_cascades",
    "restricted_layer_state": "restricted",
    "affine_target_state": "restricted",
    "restricted_vs_target_table": "restricted",
    "stack_output_map": "restricted_stack",
    "stack_error_scan": "restricted_stack",
    "agl13_coordinates": "affine_layer",
    "agl_layer_states": "affine_layer",
    "two_layer_cascade_states": "two_layer_cascade",
}

#: submodules renamed so that no submodule shares a public function's name (old paths still import)
_MOVED = {"nilpotent_cascade": "nilpotent_cascades"}

__all__, __getattr__, __dir__ = lazy_exports(__name__, globals(), _EXPORTS, _MOVED)

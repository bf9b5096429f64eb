"""Every bool flag of the public theory / numerics functions goes through
:func:`seqtheory.theory.contract.check_bool`: a string, an int or None never stands for a flag
(``""``, ``0`` and ``None`` once switched a check off silently; ``"False"`` switched it on).
The flag is checked before any other argument is read, so the other arguments are dummies."""
from __future__ import annotations

import importlib
import inspect

import pytest

FLAGS = [("seqtheory.theory.bch_series", "bch", "use_cache"),
         ("seqtheory.theory.lie_cascades", "random_cascade", "affine"),
         ("seqtheory.theory.lie_cascades", "random_cascade", "commuting_layers"),
         ("seqtheory.theory.lie_cascades", "structural_bound", "affine"),
         ("seqtheory.theory.polynomial_cascades", "random_polynomial_cascade",
          "state_dependent_linear"),
         ("seqtheory.numerics.affine_readout", "agl_permutation_action", "bias"),
         ("seqtheory.numerics.cascade_derived_lengths", "instance_row", "finite"),
         ("seqtheory.numerics.cascade_derived_lengths", "linear_cascade_row", "affine"),
         ("seqtheory.numerics.cascade_derived_lengths", "linear_cascade_row", "commuting"),
         ("seqtheory.numerics.cascade_derived_lengths", "polynomial_cascade_row", "sdl"),
         ("seqtheory.numerics.cascade_local_error", "cascade_scan", "reverse_input"),
         ("seqtheory.numerics.cascade_local_error", "cascade_scan", "drop_top_layer"),
         ("seqtheory.numerics.cascade_local_error", "cascade_error_at", "reverse_input"),
         ("seqtheory.numerics.cascade_local_error", "cascade_error_at", "drop_top_layer"),
         ("seqtheory.numerics.head_backward", "backward_change", "frozen_probabilities"),
         ("seqtheory.numerics.order_blind", "restricted_pair_identity", "commuting"),
         ("seqtheory.numerics.released_metric", "released_prefix_accuracies", "bos"),
         ("seqtheory.numerics.series_truncation", "bch_truncation_slopes", "flip_degree2"),
         ("seqtheory.numerics.series_truncation", "magnus_truncation_slopes", "flip2"),
         ("seqtheory.numerics.series_truncation", "magnus_truncation_slopes", "swap"),
         ("seqtheory.numerics.series_truncation", "magnus_residuals", "swap_convention"),
         ("seqtheory.numerics.series_truncation", "magnus_residuals", "odefun")]


@pytest.mark.parametrize("module, func, flag", FLAGS)
@pytest.mark.parametrize("value", ["False", "", 0, 1, None])
def test_flag_refuses_a_non_bool(module, func, flag, value):
    f = getattr(importlib.import_module(module), func)
    params = inspect.signature(f).parameters
    args = {p: True if v.annotation in (bool, "bool") else None for p, v in params.items()
            if v.default is inspect.Parameter.empty and p != flag}
    with pytest.raises(TypeError, match=f"^{flag} must be True or False"):
        f(**args, **{flag: value})

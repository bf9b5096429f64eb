"""Where the released code of [DEPTH] (Heo et al., arXiv:2603.05573) lives: the source the audits
of its definitions cite (``audit.max_seq_len_counts_bos``, ``audit.max_seq_len_mixed_lengths``,
``audit.rotation_start_orbit``; SPEC §3.1, dataset audits), and the longest training length of its
Figure 2, and the premise every audit built on re-implemented released code states
(:func:`reimplemented`).
"""
from __future__ import annotations

from .registry import Premise

__all__ = ["RELEASED_CODE", "MAX_TRAIN_LENGTH", "reimplemented"]

#: Where the released definitions live (repository, commit, files and functions).
RELEASED_CODE = ("github.com/kazuki-irie/lie-algebra-state-tracking @ 62e3b48: "
                 "state_tracking/src/main.py (get_dataset: TemplateProcessing '[BOS] $A' on "
                 "input and target; pad_collate; max_prefix_at_threshold), "
                 "state_tracking/src/utils.py (cumulative_sequence_accuracies), "
                 "state_tracking/src/main_regression.py (a5_generators, "
                 "build_group_representation_from_table, GroupV0Dataset._sample_v0, "
                 "target loop vv = M_t vv)")
MAX_TRAIN_LENGTH = 128     # [DEPTH] Figure 2: models trained on lengths up to 128


def reimplemented(what: str, where: str) -> Premise:
    """The premise of an audit built on the released code of [DEPTH] re-implemented in the
    package (SPEC §3, a sourced premise is stated, never confirmed): that ``what`` (the released
    definitions audited) is reproduced by ``where`` (the package's re-implementation). The audit
    checks the re-implementation exactly; that it matches the released code is read from the
    released source, not checked by running it. ``ValueError`` for an empty ``what`` or
    ``where``."""
    for name, v in (("what", what), ("where", where)):
        if not isinstance(v, str) or not v.strip():
            raise ValueError(f"{name} must be a non-empty string, got {v!r}")
    return Premise(text=(f"{where} reproduces {what} of the released [DEPTH] code, read from its "
                         "source; the package does not run the released code, so the audit "
                         "covers the re-implementation"),
                   source=f"released code of [DEPTH] (arXiv:2603.05573), {RELEASED_CODE}")

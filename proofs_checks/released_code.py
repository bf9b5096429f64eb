"""Where the released code of [DEPTH] (Heo et al., arXiv:2603.05573) lives: the source the audits
of its definitions cite (``audit.max_seq_len_counts_bos``, ``audit.max_seq_len_mixed_lengths``,
``audit.rotation_start_orbit``; SPEC §3.1, dataset audits), and the longest training length of its
Figure 2.
"""
from __future__ import annotations

__all__ = ["RELEASED_CODE", "MAX_TRAIN_LENGTH"]

#: Where the released definitions live (repository, commit, files and functions).
RELEASED_CODE = ("github.com/kazuki-irie/lie-algebra-state-tracking @ 62e3b48: "
                 "state_tracking/src/main.py (get_dataset: TemplateProcessing '[BOS] $A' on "
                 "input and target; pad_collate; max_prefix_at_threshold), "
                 "state_tracking/src/utils.py (cumulative_sequence_accuracies), "
                 "state_tracking/src/main_regression.py (a5_generators, "
                 "build_group_representation_from_table, GroupV0Dataset._sample_v0, "
                 "target loop vv = M_t vv)")
MAX_TRAIN_LENGTH = 128     # [DEPTH] Figure 2: models trained on lengths up to 128

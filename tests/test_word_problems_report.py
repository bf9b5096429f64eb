"""depth.exp.word_problems reads without the source: its key figure names the parts of the
pattern it decides, its notes define them, and its table holds formatted numbers, no raw dict."""
from __future__ import annotations

from seqtheory.proofs_checks.claims import depth_word_problems as wp


def _row(g, L, T, k, n=3):
    return {"group": g, "model": "aussm", "depth": L, "train_length": T, "successes": k, "seeds": n}


def test_key_figure_names_the_parts_and_the_cells_plainly():
    rows = [_row("D8", 1, 4, 0), _row("D8", 2, 4, 3), _row("S3", 1, 4, 0), _row("S3", 2, 4, 3),
            _row("A5", 1, 2, 0), _row("A5", 2, 2, 3), _row("A5", 1, 4, 0), _row("A5", 2, 4, 0)]
    _, parts = wp.wp_pattern(rows)
    text = wp.wp_parts_text(parts)
    assert text.startswith("(A) depth 1 fails: holds on D8 T=4, S3 T=4")
    assert "(B) depth 2 solves D8, S3: holds on D8 T=4, S3 T=4" in text
    assert "(D) A5 needs more depth at larger T: not met: least succeeding depth 2 at T=2, " \
           "no depth run at T=4" in text
    assert "[(" not in text and "('" not in text
    assert set(parts) <= set(wp.WP_PARTS)


def test_table_row_is_formatted():
    r = dict(_row("D8", 2, 4, 2), steps=300, seq_acc=[0.98, 1.0, 0.5])
    row = wp.wp_table_row(r)
    assert row["seeds solving (acc. at 2T ≥ 0.9)"] == "2/3"
    assert row["rate [Wilson 95%]"] == "0.67 [0.21, 0.94]"
    assert row["cell"] == "undecided" and row["acc. at 2T per seed"] == "0.980, 1.000, 0.500"
    assert not any(isinstance(v, (dict, list)) for v in row.values())

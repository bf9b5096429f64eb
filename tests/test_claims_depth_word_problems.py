"""depth.exp.word_problems (proofs_checks/claims/depth_word_problems.py): the Table 1 pattern
rule on synthetic rows (the report's wording: tests/test_word_problems_report.py)."""
from seqtheory.proofs_checks.claims import depth_word_problems as wp
from seqtheory.proofs_checks.registry import Verdict

_S, _I, _R = Verdict.SUPPORTED, Verdict.INCONCLUSIVE, Verdict.REFUTED


def _row(g, L, T, k, n=3):
    return {"group": g, "model": "aussm", "depth": L, "train_length": T, "successes": k, "seeds": n}


def test_word_problem_pattern_rule():
    quick = [_row("D8", 1, 4, 0), _row("D8", 2, 4, 3), _row("S3", 1, 4, 0), _row("S3", 2, 4, 3)]
    v, parts = wp.wp_pattern(quick)
    assert v == _S and parts["C"].startswith("not run") and parts["D"].startswith("not run")
    assert wp.wp_pattern(quick[:3] + [_row("S3", 2, 4, 1)])[0] == _I           # B not met
    assert wp.wp_pattern(quick[:2] + [_row("S3", 1, 4, 3), quick[3]])[0] == _R  # A violated
    assert wp.wp_pattern(quick[:2] + [_row("S3", 1, 4, 1), quick[3]])[0] == _I  # A not clean
    full = quick + [_row("S4", 2, 6, 0), _row("S4", 3, 6, 3),
                    _row("A5", 1, 2, 0), _row("A5", 2, 2, 3), _row("A5", 3, 2, 3),
                    _row("A5", 1, 4, 0), _row("A5", 2, 4, 0), _row("A5", 3, 4, 3)]
    assert wp.wp_pattern(full)[0] == _S
    flat_a5 = [r for r in full if not (r["group"] == "A5" and r["train_length"] == 4)] + \
        [_row("A5", 2, 4, 3)]
    assert wp.wp_pattern(flat_a5)[0] == _I                                      # A5 depth does not grow
    assert wp.wp_pattern(full[:4] + [_row("S4", 2, 6, 3), _row("S4", 3, 6, 3)])[0] == _I


def test_control_cells_are_the_longest_d8_s3_cells():
    from seqtheory.proofs_checks.registry import Context

    ctx = Context(seed=0, profile="full")
    cells = wp.wp_control_cells(ctx)
    assert {c[0] for c in cells} == {"D8", "S3"} and len({c[3] for c in cells}) == 1
    assert cells[0][3] == max(c[3] for c in wp.wp_plan(ctx) if c[0] in ("D8", "S3"))

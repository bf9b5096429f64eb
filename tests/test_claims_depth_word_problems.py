"""depth.exp.word_problems (proofs_checks/claims/depth_word_problems.py): the Table 1 pattern
rule on synthetic rows, per family and seed block (the report's wording:
tests/test_word_problems_report.py)."""
from seqtheory.proofs_checks.claims import depth_word_problems as wp
from seqtheory.proofs_checks.registry import Context, Verdict

_S, _I, _R = Verdict.SUPPORTED, Verdict.INCONCLUSIVE, Verdict.REFUTED


def _row(g, L, T, k, n=3, m="aussm"):
    return {"group": g, "model": m, "depth": L, "train_length": T, "successes": k, "seeds": n}


def test_word_problem_pattern_rule():
    quick = [_row("D8", 1, 4, 0), _row("D8", 2, 4, 3), _row("S3", 1, 4, 0), _row("S3", 2, 4, 3)]
    v, parts = wp.wp_pattern(quick)
    assert v == _S and parts["C"].startswith("not run") and parts["D"].startswith("not run")
    v, parts = wp.wp_pattern(quick[:3] + [_row("S3", 2, 4, 1)])                 # B not met
    assert v == _I and "did not train" in parts["B"]
    assert wp.wp_pattern(quick[:2] + [_row("S3", 1, 4, 3), quick[3]])[0] == _R  # A violated
    assert wp.wp_pattern(quick[:2] + [_row("S3", 1, 4, 1), quick[3]])[0] == _I  # A not clean
    full = quick + [_row("S4", 2, 6, 0), _row("S4", 3, 6, 3),
                    _row("A5", 1, 2, 0), _row("A5", 2, 2, 3), _row("A5", 3, 2, 3),
                    _row("A5", 1, 4, 0), _row("A5", 2, 4, 0), _row("A5", 3, 4, 3)]
    assert wp.wp_pattern(full)[0] == _S
    flat_a5 = [r for r in full if not (r["group"] == "A5" and r["train_length"] == 4)] + \
        [_row("A5", 2, 4, 3)]
    assert wp.wp_pattern(flat_a5)[0] == _I                                      # A5 depth does not grow
    # depth 2 solving S4 is positive evidence against "S4 needs 3"
    v, parts = wp.wp_pattern(full[:4] + [_row("S4", 2, 6, 3), _row("S4", 3, 6, 3)])
    assert v == _R and "S4" in parts["C"]
    # depth 3 not training on S4 is not evidence against it
    assert wp.wp_pattern(full[:4] + [_row("S4", 2, 6, 0), _row("S4", 3, 6, 0)])[0] == _I


def _fam(model, ok=True):
    return [_row(g, L, 4, 2 if (L == 2 and ok) else 0, n=2, m=model) for g in ("D8", "S3") for L in (1, 2)]


def _both(a, b=None):
    return {"A": ([0, 1], a), "B": ([2, 3], a if b is None else b)}


def test_families_are_parts_and_a_family_not_run_is_inconclusive():
    every = [r for f in wp.VERDICT_FAMILIES for r in _fam(f)]
    v, why, per = wp.wp_decide(_both(every))
    assert v == _S
    v, why, per = wp.wp_decide(_both(_fam("aussm")))                   # the quick profile's cells
    assert v == _I and "not run at this scale" in why
    assert per["A"][2]["aussm"][0] == _S and per["A"][2]["gla"][0] == _I
    # a family whose depth-2 models do not train: inconclusive, not refuted
    rows = [r for f in wp.VERDICT_FAMILIES for r in _fam(f, ok=f != "mamba")]
    assert wp.wp_decide(_both(rows))[0] == _I
    # the readings' families are never in the verdict
    assert wp.wp_decide(_both(every + [_row("S3", 1, 4, 2, n=2, m="deltaproduct")]))[0] == _S
    assert wp.wp_decide(_both([_row("S3", 1, 4, 2, n=2, m="deltaproduct"), _row("S3", 2, 4, 2, n=2, m="deltaproduct")]),
                        families=("deltaproduct",))[0] == _R


def test_table1_families_are_registered():
    from seqtheory.models.names import MODEL_NAMES

    assert set(wp.TABLE1_FAMILIES) <= set(MODEL_NAMES)
    assert set(wp.VERDICT_FAMILIES) | set(wp.READING_FAMILIES) == set(wp.TABLE1_FAMILIES)
    assert {c[1] for c in wp.wp_plan(Context(seed=0))} == {"aussm"}
    assert {c[1] for c in wp.wp_plan(Context(seed=0, profile="full"))} == {"aussm"}
    assert {c[1] for c in wp.wp_plan(Context(seed=0, profile="paper"))} == set(wp.TABLE1_FAMILIES)


def test_control_cells_are_the_longest_d8_s3_cells():
    ctx = Context(seed=0, profile="full")
    cells = wp.wp_control_cells(ctx)
    assert {c[0] for c in cells} == {"D8", "S3"} and len({c[3] for c in cells}) == 1
    assert {c[1] for c in cells} == {"aussm"}
    assert cells[0][3] == max(c[3] for c in wp.wp_plan(ctx) if c[0] in ("D8", "S3"))

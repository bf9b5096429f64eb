"""What a newcomer reads: the verdict words from one source (SPEC §3) in the README, report.md,
the terminal and the notebooks; a glossary for every table column; values in words, never as
Python reprs; an 80-column closing table; the inconclusive claims with what would decide them;
the three versions of a citation; the changelog; ``seqtheory runs``; one report folder per
profile; the README's generated blocks equal to the generator's output (issue 36)."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from seqtheory.proofs_checks import glossary
from seqtheory.proofs_checks.cli import main
from seqtheory.proofs_checks.plain_text import RAW_CONTAINER, plain
from seqtheory.proofs_checks.registry import ControlOutcome, Outcome, Verdict

from test_cli import temp_claims  # noqa: F401  (fixture)

REPO = Path(__file__).resolve().parent.parent
SNAPSHOT = REPO / "docs" / "readme_report.json"


# --------------------------------------------------------------------------- one set of words
def _spec_verdict_rows() -> dict[str, str]:
    text = (REPO / "docs" / "SPEC.md").read_text(encoding="utf-8")
    return dict(re.findall(r"^\| `(\w+)` \| (.+) \|$", text, re.M))


def test_the_verdict_words_are_those_of_spec_section_3():
    """Each meaning opens with the SPEC §3 table's definition (the SPEC's imperative "say why" /
    "give the figure" becomes what the report does)."""
    spec = _spec_verdict_rows()
    assert list(glossary.VERDICT_MEANINGS) == list(spec)
    for verdict, meaning in glossary.VERDICT_MEANINGS.items():
        head = spec[verdict].split(" (")[0].split("; say why")[0]
        assert meaning.startswith(head), verdict


def test_report_readme_and_notebooks_render_the_same_definitions(tmp_path, temp_claims):
    temp_claims("test.fd_words", lambda ctx: Outcome(Verdict.SUPPORTED, "k"))
    assert main(["verify", "--only", "test.fd_words", "--out", str(tmp_path),
                 "--no-progress"]) == 0
    md = (tmp_path / "report.md").read_text()
    assert glossary.verdict_table() in md and glossary.control_table() in md
    assert glossary.EXIT_STATUS in md
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert glossary.verdict_table() in readme and glossary.control_table() in readme
    make = (REPO / "notebooks" / "make_notebooks.py").read_text(encoding="utf-8")
    assert "verdicts_in_one_paragraph()" in make          # the notebooks' cell is generated
    nb = json.loads((REPO / "notebooks" / "01_lie_structure_and_task_groups.ipynb").read_text())
    cells = ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown"]
    assert any(glossary.verdicts_in_one_paragraph() in c for c in cells)


def test_every_column_of_the_readme_report_has_a_glossary_entry():
    """The committed snapshot (the README's report) lists its tables' columns; report.md ends
    with their glossary, and a term without an entry reads "not defined" there."""
    snap = json.loads(SNAPSHOT.read_text(encoding="utf-8"))
    assert len(snap["table_columns"]) > 100
    assert glossary.undefined_terms(snap["table_columns"]) == []
    rows = glossary.glossary_rows(["slope", "no such column"])
    assert rows[0] == {"term": "`no such column`",
                       "meaning": "not defined (a gap of proofs_checks/glossary.py)"}


def test_the_inspect_columns_are_defined():
    from seqtheory.proofs_checks.cmd_inspect import COLUMNS

    assert glossary.undefined_terms(COLUMNS) == []
    assert {"ctx/π", "⊇next", "gn_gain", "fitted seeds"} <= set(glossary.TERMS)


# --------------------------------------------------------------------------- values in words
@pytest.mark.parametrize("value, text", [
    ({"no prediction": 15, "censored": 5}, "no prediction: 15, censored: 5"),
    ([(0.1, 1877093675), (0.05, 1877093675)], "(0.1, 1877093675), (0.05, 1877093675)"),
    ({"a": (1, 2, 0), "error": None}, "a: (1, 2, 0); error: none"),
    ([1.23456789, float("nan")], "1.235, n/a"),
    ({"1": 1, "2": 3}, "1: 1, 2: 3"),
    ("text", "text"), (True, "True"), (None, "none"), ({}, "none"),
])
def test_plain_writes_containers_in_words(value, text):
    assert plain(value) == text
    assert not RAW_CONTAINER.search(plain(value))


def test_the_raw_container_pattern_finds_python_reprs():
    for raw in ("skipped: {'no prediction': 15}", "[('diag(1,0),E12', 'e1')]", "x {'a': 1}",
                "differ: {1: 1, 2: 5}", "not the named group: ['H3']"):
        assert RAW_CONTAINER.search(raw), raw
    assert not RAW_CONTAINER.search("orbit sizes 60 and 60; [2.0, 3.0] (CI)")


def test_report_md_tables_and_evidence_show_no_python_repr(tmp_path, temp_claims):
    temp_claims("test.fd_plain", lambda ctx: Outcome(
        Verdict.SUPPORTED, "k", evidence={"orders": {"1": 1, "2": 3}, "pairs": [(0.1, 7)]},
        tables={"t": [{"element_orders": {"1": 1, "2": 3}, "failing_example": {"a": (1, 0)}}]}))
    assert main(["verify", "--only", "test.fd_plain", "--out", str(tmp_path),
                 "--no-progress"]) == 0
    md = (tmp_path / "report.md").read_text()
    section = md.split("### test.fd_plain")[1].split("\n## ")[0]
    assert not RAW_CONTAINER.search(section), section
    assert "| 1: 1, 2: 3 | a: (1, 0) |" in section and "- `pairs`: (0.1, 7)" in section


# --------------------------------------------------------------------------- the closing table
def _record(cid, verdict, key_figure, paper="DEPTH"):
    return {"id": cid, "verdict": verdict, "key_figure": key_figure, "control": None,
            "control_error": None, "source": {"paper": paper}}


def test_the_closing_table_reads_at_80_columns_and_never_cuts_a_word():
    from seqtheory.proofs_checks.terminal import claim_lines

    long = ("k=1: slope 1.97 [1.94, 2.00] on 4 certified points, held-out/best-abelian "
            "1.05–1.10; k=2: 0/4 points certified, no fit (uncertified slope 1.72, not used), "
            "held-out/best-abelian 1.38–2.39 (scale: T = 6, depth 1: 1024 training words)")
    recs = [_record("depth.cor3.6.trained", "inconclusive", long),
            _record("finding.parity_negative_eigenvalues", "supported", "signed 5/5", "finding")]
    lines = claim_lines(recs, 80)
    assert all(len(ln) <= 80 for ln in lines), lines
    words = set(long.split()) | {"signed", "5/5"}
    assert lines[5] == "" and re.fullmatch(r"  finding\.parity_negative_eigenvalues +supported",
                                           lines[7]), lines
    for ln in lines[3:5] + lines[-1:]:                      # the key-figure lines
        for w in ln.split():
            assert w in words or w == "…", (w, ln)          # whole words only
    assert lines[1] == "[DEPTH] claims (arXiv:2603.05573)"
    assert re.fullmatch(r"  depth\.cor3\.6\.trained +inconclusive", lines[2])
    assert lines[4].endswith("…") and len(lines) == 9       # two key-figure lines at most


def test_summary_leaves_the_claim_table_out(tmp_path, capsys, temp_claims):
    temp_claims("test.fd_sum", lambda ctx: Outcome(Verdict.CONFIRMED, "a key figure"))
    assert main(["verify", "--only", "test.fd_sum", "--out", str(tmp_path), "--no-progress",
                 "--summary"]) == 0
    out = capsys.readouterr().out
    assert "a key figure" not in out and "this run: 1 claim: 1 confirmed" in out


# --------------------------------------------------------------------------- report sections
def test_an_inconclusive_claim_says_what_it_lacks_and_what_would_decide_it(tmp_path,
                                                                           temp_claims):
    temp_claims("test.fd_open", lambda ctx: Outcome(Verdict.INCONCLUSIVE, "0/3 seeds trained"),
                decided_by="a depth-1 model that solves the task")
    assert main(["verify", "--only", "test.fd_open", "--out", str(tmp_path),
                 "--no-progress"]) == 0
    md = (tmp_path / "report.md").read_text()
    section = md.split("## Inconclusive claims")[1].split("\n## ")[0]
    assert ("| [`test.fd_open`](#testfd_open) | 0/3 seeds trained | a depth-1 model that "
            "solves the task |") in section
    assert "What would decide it: a depth-1 model that solves the task" in md
    doc = json.loads((tmp_path / "report.json").read_text())
    assert doc["claims"][0]["decided_by"] == "a depth-1 model that solves the task"


def test_every_trained_claim_says_what_would_decide_it():
    from seqtheory.proofs_checks.registry import all_claims

    assert [c.id for c in all_claims() if c.uses_training and not c.decided_by
            and c.id != "depth.thm3.2.abelian.trained"] == []


def test_a_claim_section_names_its_three_versions():
    from seqtheory.proofs_checks.report_markdown import version_line

    rec = {"claim_version": 2, "source": {"arxiv": "2603.05573", "version": "v1",
                                          "location": "Theorem 3.2"},
           "rule": {"version": "abc123", "recorded": "2026-12-04", "change": "first",
                    "seed_status": "not applicable"}}
    assert version_line(rec) == ("Versions: claim version 2; statement from arXiv:2603.05573v1 "
                                 "(paper version v1), Theorem 3.2; decision rule version "
                                 "`abc123` (recorded 2026-12-04: first).")


def test_reproduce_shows_the_fresh_store_cost_of_a_trained_claim():
    from seqtheory.proofs_checks.report_markdown import reproduce_line

    rec = {"reproduce": "seqtheory verify --only x --seed 0", "seconds": 1.4,
           "training": {"runs": 10, "seconds": 22.4}}
    assert reproduce_line(rec) == (
        "Reproduce: `seqtheory verify --only x --seed 0` — the check took 1.4 s; from a fresh "
        "results store it first trains its 10 runs (22.4 s of training wall time when they were "
        "trained); a store that holds them is read back.")


def test_training_cost_is_the_union_of_the_runs_store_intervals(tmp_path):
    from seqtheory.models.store import ResultsStore
    from seqtheory.proofs_checks import training_runs as tr
    from seqtheory.proofs_checks.registry import Context
    from test_store_waiting import Job

    ctx = Context(seed=0, results_dir=tmp_path)
    st = ResultsStore(tmp_path)
    jobs = [tr.StoreJob("m:f", Job(n), 1.0) for n in "abc"]
    for j in jobs:
        st.claim(j.config, "me")
        st.finish(j.config, "me", {})
    import sqlite3

    con = sqlite3.connect(tmp_path / "results.sqlite")  # intervals [0, 10], [5, 12], [20, 21]
    with con:
        for (a, b), j in zip(((0, 10), (5, 12), (20, 21)), jobs):
            con.execute("UPDATE runs SET created=?, updated=? WHERE key=?", (a, b, st.key(j.config)))
    con.close()
    assert tr.training_cost(ctx, jobs) == {"runs": 3, "seconds": 13.0}
    st.claim(Job("d"), "me")
    assert tr.training_cost(ctx, [*jobs, tr.StoreJob("m:f", Job("d"), 1.0)]) == \
        {"runs": 4, "seconds": None}                      # one still training: unknown


def test_training_cost_counts_each_model_of_a_head_experiment(tmp_path):
    """A head experiment trains two heads per seed: its record counts 2 x seeds runs (the
    report's reproduce line said 2 runs where 12 models trained)."""
    from seqtheory.proofs_checks import training_runs as tr
    from seqtheory.proofs_checks.claims.head_training import _experiment_config
    from seqtheory.proofs_checks.registry import Context

    ctx = Context(seed=0, results_dir=tmp_path)
    jobs = [tr.StoreJob("m:f", _experiment_config(ctx, b), 1.0) for b in ("A", "B")]
    n = sum(len(j.config.seeds) for j in jobs)
    assert n >= 2 and tr.training_cost(ctx, jobs) == {"runs": 2 * n, "seconds": None}


# --------------------------------------------------------------------------- cite, changelog
def test_cite_names_each_version_and_gives_bibtex(tmp_path, capsys):
    fast = "free_lie.witt_dimensions"
    assert main(["verify", "--only", fast, "--out", str(tmp_path), "--no-progress"]) == 0
    capsys.readouterr()
    assert main(["cite", fast, "--report", str(tmp_path)]) == 0
    line = capsys.readouterr().out
    assert re.search(r"claim `free_lie\.witt_dimensions` \(claim version 1; statement: .*; rule "
                     r"version [0-9a-f]{12}\), seqtheory \S+ \(commit \S+\), verdict: supported",
                     line), line
    rec = json.loads((tmp_path / "report.json").read_text())["claims"][0]
    assert f"; key figure: {rec['key_figure'][:60]}" in line          # the figure a citer quotes
    from seqtheory.proofs_checks.cmd_cite import KEY_FIGURE_CHARS, _cut
    long = "word " * 200
    assert len(_cut(long)) < KEY_FIGURE_CHARS + 40 and _cut(long).endswith("(the rest in report.md)")
    assert main(["cite", fast, "--report", str(tmp_path), "--bibtex"]) == 0
    bib = capsys.readouterr().out
    assert bib.startswith("@misc{seqtheory:free_lie.witt_dimensions,\n  title = {seqtheory "
                          "check of claim free\\_lie.witt\\_dimensions (claim version 1)")
    assert "note = {Verdict: supported" in bib and bib.rstrip().endswith("}")
    assert "Reproduce: seqtheory verify --only free\\_lie.witt\\_dimensions --seed 0}" in bib
    assert bib.count("{") == bib.count("}")


def test_paper_claims_cite_the_paper_version():
    from seqtheory.proofs_checks.cmd_cite import citation_line
    from seqtheory.proofs_checks.registry import get_claim

    line = citation_line(get_claim("depth.thm3.2"), {
        "verdict": "refuted", "rule_version": "r", "seqtheory_version": "0.1.0",
        "commit": "0123456789abcdef", "origin": "o"})
    assert f"claim version {get_claim('depth.thm3.2').claim_version}; statement: " in line and \
        "arXiv:2603.05573v1 = paper version v1, Theorem 3.2; rule version r)" in line


def test_the_changelog_records_every_claim_version():
    from seqtheory.proofs_checks.cmd_changelog import (changelog_markdown,
                                                       claim_version_problems,
                                                       load_claim_versions)
    from seqtheory.proofs_checks.registry import all_claims
    from seqtheory.proofs_checks.rule_versions import load_ledger

    claims, versions = all_claims(), load_claim_versions()
    assert claim_version_problems(claims, versions) == []
    text = changelog_markdown(claims, versions, load_ledger())
    assert all(f"### {c.id}\n" in text for c in claims)
    for c in claims:
        if c.claim_version > 1:
            latest = versions[c.id][-1]
            assert (f"- claim version {c.claim_version} (current)\n  - claim version {c.claim_version} "
                    f"({latest['recorded']}):") in text, c.id
    bumped = [c for c in claims if c.claim_version > 1]
    assert claim_version_problems(bumped, {}) == [
        f"{c.id}: version {c.claim_version} has no recorded change" for c in bumped]


# --------------------------------------------------------------------------- runs, folders
def test_runs_lists_key_claim_task_model_status_and_metric(tmp_path, capsys):
    from seqtheory.models.store import ResultsStore
    from seqtheory.proofs_checks.cmd_runs import run_row

    assert main(["runs", "--results", str(tmp_path / "none")]) == 0
    assert "no results store at" in capsys.readouterr().out
    st = ResultsStore(tmp_path)
    from seqtheory.models.train import TrainConfig

    cfg = TrainConfig(task="C2", model="gla", steps=2, n_train=8, n_test=8, train_length=4)
    st.claim(cfg, "me")
    st.finish(cfg, "me", {"test": {"seq_acc": 0.5, "test_length": 8, "max_len_90": 3}})
    assert run_row(st.get(cfg), []) == {"key": st.key(cfg)[:12], "status": "finished",
                                        "claim": "-", "task": "C2", "model": "gla L=1",
                                        "metric": "acc@8 0.50, 90% to length 3"}
    assert main(["runs", "--results", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"1 run in {tmp_path}\n{st.key(cfg)[:12]} finished C2, gla L=1: "
                          "acc@8 0.50, 90% to length 3\n    claim: -")


def test_each_profile_has_its_own_default_report_folder(tmp_path, monkeypatch, temp_claims):
    from seqtheory.proofs_checks.cli import default_out

    assert default_out("quick") == "seqtheory-report"
    assert default_out("full") == "seqtheory-report-full"
    monkeypatch.chdir(tmp_path)
    temp_claims("test.fd_prof", lambda ctx: Outcome(Verdict.CONFIRMED, ctx.profile))
    assert main(["verify", "--only", "test.fd_prof", "--no-progress"]) == 0
    # the advice the notebooks print works next to a quick report
    assert main(["verify", "--only", "test.fd_prof", "--profile", "full", "--no-progress"]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["seqtheory-report",
                                                          "seqtheory-report-full"]
    assert json.loads((tmp_path / "seqtheory-report-full" / "report.json").read_text()
                      )["claims"][0]["key_figure"] == "full"


def test_the_report_folder_keeps_registry_order_after_a_partial_run(tmp_path, temp_claims):
    for cid in ("test.fd_order_a", "test.fd_order_b", "test.fd_order_c"):
        temp_claims(cid, lambda ctx: Outcome(Verdict.CONFIRMED, "k"),
                    lambda ctx: ControlOutcome(True, "w", "r"))
    assert main(["verify", "--only", "test.fd_order_*", "--out", str(tmp_path),
                 "--no-progress"]) == 0
    before = (tmp_path / "report.md").read_text()
    assert main(["verify", "--only", "test.fd_order_b", "--out", str(tmp_path),
                 "--no-progress"]) == 0
    after = (tmp_path / "report.md").read_text()
    heads = [ln for ln in after.splitlines() if ln.startswith("### test.fd_order")]
    assert heads == [ln for ln in before.splitlines() if ln.startswith("### test.fd_order")]
    assert heads == ["### test.fd_order_a", "### test.fd_order_b", "### test.fd_order_c"]


def test_a_seed_rule_says_fails_in_words():
    from seqtheory.proofs_checks.rates import SeedRule

    assert SeedRule().describe() == ("succeeds: ≥ 80% of seeds (e.g. 4/5, 3/3); fails: no seed "
                                     "succeeds")                   # was "fails: ≤ 0% of seeds"
    assert SeedRule(0.8, 0.2).describe().endswith("fails: at most 20% of seeds succeed")

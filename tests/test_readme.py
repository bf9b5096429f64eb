"""README.md's first screen as a newcomer reads it (issue 36): the two commands, each in a fresh
environment of its own, with the torch pin explained and PyTorch's CPU-index form for other
machines; ``.ci/run`` running the README's test command; the generated blocks (expected output,
findings per paper, verdict tables) equal to what the generator makes of the committed report
snapshot; no dated timing notes (they live in benchmarks/TIMINGS.md, linked once)."""
from __future__ import annotations

import json
import re
from pathlib import Path

from seqtheory.proofs_checks import readme_table

REPO = Path(__file__).resolve().parent.parent
README = (REPO / "README.md").read_text(encoding="utf-8")
SNAPSHOT = json.loads((REPO / "docs" / "readme_report.json").read_text(encoding="utf-8"))


def _first_code_block() -> list[str]:
    block = re.search(r"```bash\n(.*?)```", README, re.S)
    assert block, "the README has no bash block"
    return block.group(1).splitlines()


def test_the_two_commands_each_make_a_fresh_environment_of_their_own():
    comment1, verify, comment2, tests = _first_code_block()
    assert comment1.startswith("# 1.") and comment2.startswith("# 2.")
    venvs = [re.match(r"python3 -m venv (\S+) && \. \1/bin/activate && pip install "
                      r"torch==2\.13\.0 && pip install ", cmd) for cmd in (verify, tests)]
    assert all(venvs) and venvs[0].group(1) != venvs[1].group(1), (verify, tests)
    assert verify.endswith("seqtheory verify") and tests.endswith("python -m pytest")


def test_ci_runs_the_readmes_test_command_after_the_pinned_torch():
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    tests = _first_code_block()[3]
    assert ci.rstrip().splitlines()[-1] == tests
    assert "pip install torch==2.13.0 && pip install" in tests


def test_the_torch_pin_and_the_cpu_index_are_explained():
    head = README.split("## ")[0]
    assert "pip install torch==2.13.0 --index-url https://download.pytorch.org/whl/cpu" in head
    assert "CUDA build" in head and "nvidia-*" in head


def test_the_generated_blocks_are_the_generators_output_for_the_snapshot():
    """Regenerate with ``python -m seqtheory.proofs_checks.readme_table REPORT --write``."""
    assert readme_table.current_blocks(README) == readme_table.blocks(SNAPSHOT)
    assert readme_table.replace_blocks(README, readme_table.blocks(SNAPSHOT)) == README


def test_the_expected_output_is_what_verify_prints():
    from seqtheory.proofs_checks.tally import tally_line

    block = readme_table.current_blocks(README)["expected"]
    plain = [dict(c, control=None, control_error=None) for c in SNAPSHOT["claims"]]
    assert f"this run: {tally_line(plain)}\n" in block
    assert SNAPSHOT["profile"] == "quick"                  # command 1 runs the quick profile


def test_the_findings_name_every_refuted_refined_and_inconclusive_paper_claim():
    block = readme_table.current_blocks(README)["findings"]
    for c in SNAPSHOT["claims"]:
        if c["source"]["paper"] in ("DEPTH", "HEAD") and c["verdict"] in (
                "refuted", "refined", "inconclusive"):
            assert f"| `{c['id']}` |" in block, c["id"]


def test_no_dated_timing_notes_and_one_link_to_them():
    assert README.count("benchmarks/TIMINGS.md") == 2      # the link: its text and its target
    assert README.count("](benchmarks/TIMINGS.md)") == 1
    assert not re.search(r"\b\d+ min \d+ s\b|\b\d+(\.\d+)? s wall\b|\bloop \d", README)
    assert not re.search(r"\b20\d\d-\d\d-\d\d\b", README)  # no dated notes


def test_replace_blocks_names_a_missing_block():
    import pytest

    with pytest.raises(ValueError, match=r"no generated block \['findings'\]"):
        readme_table.replace_blocks("no blocks here", {"findings": "x"})

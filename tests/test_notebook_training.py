"""The notebook that trains (``train_claims`` in its first cells: the trained claims of [DEPTH])
executes top to bottom without errors. A file of its own, so that pytest-xdist (``--dist
loadfile``) runs it on one worker while the other notebooks run on another; the harness and
the assertions are those of ``tests/test_notebooks.py``."""
from __future__ import annotations

import pytest

# (test_notebooks skips this module too when a notebook package is missing)
from test_notebooks import GROUPS, check_executed, executed  # noqa: E402,F401  (the fixture)


# first in the file: pytest-xdist queues the next file behind a worker once it has 2 tests
# of this one left to run; executing the notebooks first keeps the third test pending meanwhile
@pytest.mark.parametrize("name", GROUPS["notebooks-training"])
def test_training_notebook_executes(name, executed):
    res = executed(name)
    print(f"{name}: executed in {res['seconds']:.1f} s")
    check_executed(res)


def test_the_training_notebooks_are_the_ones_expected():
    assert GROUPS["notebooks-training"] == ["05_training_depth_vs_theory.ipynb", "07_inspect.ipynb"]

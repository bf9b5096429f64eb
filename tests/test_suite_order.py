"""The order in which the suite hands its files to the pytest-xdist workers (``LONG_FILES`` in
``tests/conftest.py``): the long files exist and are collected first, longest first, and
``pyproject.toml`` keeps that order (``--no-loadscope-reorder``)."""
from __future__ import annotations

import tomllib
from pathlib import Path

from conftest import LONG_FILES, REPO


def test_the_long_files_exist():
    names = {p.name for p in (REPO / "tests").glob("test_*.py")}
    assert sorted(set(LONG_FILES) - names) == [], "a renamed or removed file is still listed"
    assert len(set(LONG_FILES)) == len(LONG_FILES)


def test_the_collected_files_begin_with_the_long_files_in_order(request):
    files = list(dict.fromkeys(item.path.name for item in request.session.items))
    listed = [f for f in files if f in LONG_FILES]
    assert files[:len(listed)] == listed                 # the long files come first ...
    assert listed == [f for f in LONG_FILES if f in listed]  # ... in LONG_FILES's order


def test_xdist_hands_out_files_in_collection_order():
    addopts = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["pytest"][
        "ini_options"]["addopts"]
    assert "--dist loadfile" in addopts and "--no-loadscope-reorder" in addopts

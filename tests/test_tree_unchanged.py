"""The snapshot behind the session check of ``conftest.py`` sees new, removed and changed paths."""
from __future__ import annotations

import os

from conftest import tree_changes, tree_snapshot


def test_tree_snapshot_names_what_appeared_changed_or_went(tmp_path):
    (tmp_path / "keep.txt").write_text("a")
    (tmp_path / "gone.txt").write_text("b")
    (tmp_path / "__pycache__").mkdir()
    before = tree_snapshot(tmp_path)
    (tmp_path / "gone.txt").unlink()
    (tmp_path / "seqtheory-report" / "word_problems").mkdir(parents=True)
    (tmp_path / "keep.txt").write_text("longer")
    os.utime(tmp_path / "keep.txt", ns=(0, 0))
    (tmp_path / "__pycache__" / "x.pyc").write_bytes(b"")  # a tool cache: not watched
    assert tree_changes(before, tree_snapshot(tmp_path)) == [
        "new: seqtheory-report", "new: seqtheory-report/word_problems", "removed: gone.txt",
        "changed: keep.txt"]
    assert tree_changes(before, before) == []

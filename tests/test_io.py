"""Atomic writes and the cache folder."""
from __future__ import annotations

import os

import pytest

from seqtheory.theory._io import atomic_write_bytes, atomic_write_text, cache_dir


def test_atomic_write_replaces_and_leaves_no_temp_files(tmp_path):
    p = tmp_path / "sub" / "f.txt"
    atomic_write_text(p, "one")
    atomic_write_text(p, "two")
    assert p.read_text() == "two"
    assert sorted(os.listdir(p.parent)) == ["f.txt"]


def test_atomic_write_keeps_old_file_when_interrupted(tmp_path, monkeypatch):
    p = tmp_path / "f.bin"
    atomic_write_bytes(p, b"old")

    def boom(*a, **k):
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(KeyboardInterrupt):
        atomic_write_bytes(p, b"new")
    assert p.read_bytes() == b"old"
    assert sorted(os.listdir(tmp_path)) == ["f.bin"]


def test_atomic_write_type_errors(tmp_path):
    with pytest.raises(TypeError, match="data must be bytes"):
        atomic_write_bytes(tmp_path / "x", "text")
    with pytest.raises(TypeError, match="text must be str"):
        atomic_write_text(tmp_path / "x", b"bytes")


def test_cache_dir_honours_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("SEQTHEORY_CACHE_DIR", str(tmp_path / "c"))
    d = cache_dir("bch")
    assert d == tmp_path / "c" / "bch" and d.is_dir()


def test_atomic_write_uses_umask_permissions(tmp_path):
    old = os.umask(0o022)
    try:
        p = atomic_write_text(tmp_path / "f.txt", "x")
    finally:
        os.umask(old)
    assert (p.stat().st_mode & 0o777) == 0o644


def test_ensure_dir_creates_and_refuses_files(tmp_path):
    from seqtheory.theory._io import ensure_dir

    assert ensure_dir(tmp_path / "a" / "b", "--out").is_dir()
    f = tmp_path / "f"
    f.write_text("x")
    with pytest.raises(ValueError, match=r"--out '.*f' exists and is not a folder"):
        ensure_dir(f, "--out")
    with pytest.raises(ValueError, match="cannot be created"):
        ensure_dir(f / "sub", "--out")
    assert f.read_text() == "x"

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


@pytest.mark.parametrize("code", ["ENOSPC", "EROFS", "EACCES", "EIO"])
def test_atomic_write_files_is_all_or_nothing_and_names_the_target(tmp_path, monkeypatch, code):
    import errno

    from seqtheory.theory._io import atomic_write_files, os_error_line

    num = getattr(errno, code)

    a, b = tmp_path / "a.json", tmp_path / "b.md"
    atomic_write_files({a: b"a1", b: b"b1"})
    calls = []

    def fsync(fd):  # the second file's data does not reach the disk
        calls.append(fd)
        if len(calls) == 2:
            raise OSError(num, os.strerror(num))

    monkeypatch.setattr(os, "fsync", fsync)
    with pytest.raises(OSError) as ei:
        atomic_write_files({a: b"a2", b: b"b2"})
    assert ei.value.filename == str(b) and ei.value.errno == num
    assert os_error_line(ei.value) == f"{str(b)!r}: {os.strerror(num)} (errno {code})"
    assert (a.read_bytes(), b.read_bytes()) == (b"a1", b"b1")     # neither file changed
    assert sorted(os.listdir(tmp_path)) == ["a.json", "b.md"]     # no temporary file left
    with pytest.raises(TypeError, match="data must be bytes"):
        atomic_write_files({a: "text"})


def test_folder_lock_waits_then_times_out_naming_the_holder(tmp_path):
    import subprocess
    import sys

    from seqtheory.theory._io import FolderLockTimeout, folder_lock

    holder = subprocess.Popen([sys.executable, "-c", (
        "import sys, time; from seqtheory.theory._io import folder_lock\n"
        f"with folder_lock({str(tmp_path)!r}):\n"
        "    print('held', flush=True); time.sleep(30)")], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        waits = []
        held = rf"held by another process \(pid {holder.pid}\)"
        with pytest.raises(FolderLockTimeout, match=held):
            with folder_lock(tmp_path, timeout_s=0.3, on_wait=waits.append):
                pass
        assert waits == [f"another process (pid {holder.pid})"]
    finally:
        holder.kill()
        holder.wait()
    with folder_lock(tmp_path, timeout_s=5):  # released when its holder died
        pass


def test_folder_lock_leaves_no_file_and_still_excludes_under_contention(tmp_path):
    """The lock file exists only while held (an empty lock file once stayed after every
    ``verify``); removing it must not let two holders in at once: eight threads of two
    processes' worth of contention each increment a shared counter file inside the lock."""
    import threading

    from seqtheory.theory._io import folder_lock

    with folder_lock(tmp_path, "x.lock") as path:
        assert path.is_file()
    assert list(tmp_path.iterdir()) == []
    counter, inside, overlaps = tmp_path / "n", [0], []
    counter.write_text("0")

    def work():
        for _ in range(40):
            with folder_lock(tmp_path, "x.lock", poll_s=0.001):
                inside[0] += 1
                overlaps.append(inside[0])
                counter.write_text(str(int(counter.read_text()) + 1))
                inside[0] -= 1

    threads = [threading.Thread(target=work) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert int(counter.read_text()) == 320 and max(overlaps) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["n"]


def test_check_dir_creates_nothing(tmp_path):
    from seqtheory.theory._io import check_dir

    assert check_dir(tmp_path / "a" / "b", "--out") == tmp_path / "a" / "b"
    assert sorted(os.listdir(tmp_path)) == []
    (tmp_path / "f").write_text("x")
    with pytest.raises(ValueError, match="--out .* exists and is not a folder"):
        check_dir(tmp_path / "f", "--out")
    with pytest.raises(ValueError, match="cannot be created: .* is not a folder"):
        check_dir(tmp_path / "f" / "sub", "--out")

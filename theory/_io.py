"""Atomic file writes and the on-disk cache folder (shared by every layer of seqtheory).

Every file seqtheory writes (reports, cached series, checkpoints) goes through
:func:`atomic_write_bytes`: the data is written to a temporary file in the same folder, flushed
and fsynced, then moved over the target with :func:`os.replace`, so an interrupted run leaves
either the old file or the new one, never a truncated one. A failed write (disk full, read-only
file system, no permission) raises ``OSError`` whose ``filename`` is the target
(:func:`os_error_line` words it in one line).

Writers that read, merge and replace a file shared by several processes hold
:func:`folder_lock` (an exclusive ``flock`` on a lock file in the folder) meanwhile.
"""
from __future__ import annotations

import contextlib
import errno
import os
import tempfile
import time
from pathlib import Path
from typing import Callable, Iterable, Iterator

__all__ = ["atomic_write_bytes", "atomic_write_files", "atomic_write_text", "cache_dir", "cache_path",
           "ensure_dir", "check_dir", "check_entries", "current_umask", "folder_lock", "os_error_line",
           "FolderLockTimeout"]


def atomic_write_bytes(path: str | os.PathLike, data: bytes) -> Path:
    """Write ``data`` to ``path`` atomically (parent folders are created). Returns the path."""
    return atomic_write_files({path: data})[0]


def atomic_write_files(files: dict[str | os.PathLike, bytes]) -> list[Path]:
    """Write several files so that a failure leaves them all as they were: each one's data goes
    to a temporary file beside it (flushed, fsynced) and only when every one is written are they
    moved over their targets (:func:`os.replace`). Returns the paths in order. ``TypeError`` for
    data that is not bytes; ``OSError`` naming the target for a failed write."""
    for data in files.values():
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise TypeError(f"data must be bytes, got {type(data).__name__}")
    temps: list[tuple[str, Path]] = []
    try:
        for path, data in files.items():
            temps.append((_write_temp(Path(path), data), Path(path)))
        for tmp, path in temps:
            _named(path, os.replace, tmp, path)
    except BaseException:
        for tmp, _ in temps:
            try:
                os.unlink(tmp)
            except FileNotFoundError:
                pass
        raise
    return [path for _, path in temps]


def _named(path: Path, fn, *args):
    """``fn(*args)``, an ``OSError`` re-raised naming ``path`` (not a temporary file)."""
    try:
        return fn(*args)
    except OSError as exc:
        raise OSError(exc.errno, exc.strerror or str(exc), str(path)) from None


def _write_temp(path: Path, data: bytes) -> str:
    """``data`` in a new fsynced temporary file beside ``path`` (folders created); its name."""
    _named(path, path.parent.mkdir, 0o777, True, True)
    fd, tmp = _named(path, tempfile.mkstemp, ".tmp", f".{path.name}.", str(path.parent))
    try:
        try:
            os.fchmod(fd, 0o666 & ~current_umask())  # mkstemp makes 0600: the usual permissions
            view = memoryview(data)
            while view:  # unbuffered: a failed write is reported once, by the call that failed
                view = view[_named(path, os.write, fd, view):]
            _named(path, os.fsync, fd)
        finally:
            os.close(fd)
    except BaseException:
        os.unlink(tmp)
        raise
    return tmp


def current_umask() -> int:
    """The process's file-mode creation mask (read without changing it)."""
    mask = os.umask(0)
    os.umask(mask)
    return mask


_umask = current_umask  # the former name (tests and older callers)


def os_error_line(exc: OSError, path: str | os.PathLike | None = None) -> str:
    """One line naming the path and the cause of ``exc``: ``'/r/x.json': No space left on device
    (errno ENOSPC)``. ``path`` is used when the error names no file (``exc.filename``)."""
    where = exc.filename if exc.filename is not None else path
    cause = exc.strerror or str(exc) or type(exc).__name__
    code = errno.errorcode.get(exc.errno or 0)
    return (f"{str(where)!r}: " if where is not None else "") + cause + \
        (f" (errno {code})" if code else "")


def atomic_write_text(path: str | os.PathLike, text: str, encoding: str = "utf-8") -> Path:
    """Write ``text`` to ``path`` atomically (see :func:`atomic_write_bytes`)."""
    if not isinstance(text, str):
        raise TypeError(f"text must be str, got {type(text).__name__}")
    return atomic_write_bytes(path, text.encode(encoding))


def check_dir(path: str | os.PathLike, what: str = "folder") -> Path:
    """Check, creating nothing, that :func:`ensure_dir` would succeed: ``path`` is a writable
    folder, or does not exist and its nearest existing parent is a writable folder. Raises
    ``ValueError`` naming ``what`` and the problem; returns ``Path(path)``."""
    p = Path(path)
    if p.exists() and not p.is_dir():
        raise ValueError(f"{what} {str(p)!r} exists and is not a folder")
    if p.is_dir():
        if not os.access(p, os.W_OK | os.X_OK):
            raise ValueError(f"{what} {str(p)!r} is not writable")
        return p
    parent = p.absolute().parent
    while not parent.exists():
        parent = parent.parent
    if not parent.is_dir():
        raise ValueError(f"{what} {str(p)!r} cannot be created: {str(parent)!r} is not a folder")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise ValueError(f"{what} {str(p)!r} cannot be created: {str(parent)!r} is not writable")
    return p


def check_entries(folder: str | os.PathLike, what: str, files: Iterable[str] = (),
                  folders: Iterable[str] = ()) -> None:
    """Check, creating nothing, that a command can write the entries it will write in
    ``folder``: each name in ``files`` is absent or a regular file it may read and write (a
    lock, a file replaced atomically), each name in ``folders`` absent or a writable folder.
    Nothing to check when ``folder`` does not exist yet. Raises ``ValueError`` naming ``what``
    and the entry, so that the command can refuse before it writes anything."""
    root = Path(folder)
    if not root.is_dir():
        return
    for name in files:
        p = root / name
        if p.is_symlink() or p.exists():
            if not p.is_file():
                raise ValueError(f"{what}: {str(p)!r} exists and is not a file (move it aside)")
            if not os.access(p, os.R_OK | os.W_OK):
                raise ValueError(f"{what}: {str(p)!r} is not readable and writable")
    for name in folders:
        p = root / name
        if p.exists() and not p.is_dir():
            raise ValueError(f"{what}: {str(p)!r} exists and is not a folder (move it aside)")
        if p.is_dir() and not os.access(p, os.W_OK | os.X_OK):
            raise ValueError(f"{what}: {str(p)!r} is not writable")


def ensure_dir(path: str | os.PathLike, what: str = "folder") -> Path:
    """Create the folder ``path`` (and its parents) if needed and check that it is writable.

    ``what`` names the folder in the error (``"--out"``, ``"results folder"``). Raises
    ``ValueError`` when ``path`` exists but is not a folder, cannot be created, or is not
    writable. Returns ``Path(path)``.
    """
    p = Path(path)
    if p.exists() and not p.is_dir():
        raise ValueError(f"{what} {str(p)!r} exists and is not a folder")
    try:
        p.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ValueError(f"{what} {str(p)!r} cannot be created: {exc.strerror or exc}") from None
    if not os.access(p, os.W_OK | os.X_OK):
        raise ValueError(f"{what} {str(p)!r} is not writable")
    return p


class FolderLockTimeout(TimeoutError):
    """:func:`folder_lock` waited ``timeout_s`` and another process still holds the lock."""


@contextlib.contextmanager
def folder_lock(folder: str | os.PathLike, name: str = ".seqtheory.lock", *,
                timeout_s: float | None = None, on_wait: Callable[[str], None] | None = None,
                poll_s: float = 0.1) -> Iterator[Path]:
    """Hold an exclusive lock on the file ``folder/name`` (``fcntl.flock``) for the ``with``
    block; the file is created for the block and removed when it ends (a process killed while
    holding it leaves the file, which the next holder takes and removes). The lock is the OS's:
    it is released when the block ends or the process dies (never left stale). A process that
    locked a file another holder has removed since retries on the file now at that path, so two
    holders never hold two different files at once. When another process holds it, ``on_wait``
    is called once with the holder's description (pid and command, written into the lock file),
    and the call waits: without a limit (``timeout_s`` None) or ``timeout_s`` seconds, then
    raises :class:`FolderLockTimeout`. ``folder`` must exist. Yields the lock file's path."""
    import fcntl

    path = Path(folder) / name
    waited, t0 = False, time.monotonic()
    while True:
        fd = _named(path, os.open, path, os.O_RDWR | os.O_CREAT, 0o666 & ~current_umask())
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            if not waited and on_wait is not None:
                on_wait(_lock_holder(path))
            waited = True
            if timeout_s is not None and time.monotonic() - t0 >= timeout_s:
                raise FolderLockTimeout(
                    f"{str(path)!r} is still held by {_lock_holder(path)} after "
                    f"{timeout_s:g} s") from None
            time.sleep(poll_s)
            continue
        if _same_file(fd, path):
            break
        os.close(fd)                        # removed by its last holder: lock the new one
    try:
        with contextlib.suppress(OSError):  # the holder's note is a courtesy (disk full: none)
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"pid {os.getpid()}\n".encode(), 0)
        yield path
    finally:
        with contextlib.suppress(OSError):
            path.unlink()                   # while locked: a waiter then retries on a new file
        fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)


def _same_file(fd: int, path: Path) -> bool:
    """Whether the open file ``fd`` is still the file at ``path``."""
    try:
        st = os.stat(path)
    except OSError:
        return False
    own = os.fstat(fd)
    return (st.st_dev, st.st_ino) == (own.st_dev, own.st_ino)


def _lock_holder(path: Path) -> str:
    try:
        text = path.read_text().strip()
    except OSError:
        text = ""
    return f"another process ({text})" if text else "another process"


def cache_path(*parts: str) -> Path:
    """The seqtheory cache folder (``$SEQTHEORY_CACHE_DIR``, else ``$XDG_CACHE_HOME/seqtheory``,
    else ``~/.cache/seqtheory``), joined with ``parts``; nothing is created."""
    root = os.environ.get("SEQTHEORY_CACHE_DIR")
    if root:
        base = Path(root)
    else:
        base = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "seqtheory"
    return base.joinpath(*parts)


def cache_dir(*parts: str) -> Path:
    """:func:`cache_path`, created."""
    d = cache_path(*parts)
    d.mkdir(parents=True, exist_ok=True)
    return d

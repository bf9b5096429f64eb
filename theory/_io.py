"""Atomic file writes and the on-disk cache folder (shared by every layer of seqtheory).

Every file seqtheory writes (reports, cached series, checkpoints) goes through
:func:`atomic_write_bytes`: the data is written to a temporary file in the same folder, flushed
and fsynced, then moved over the target with :func:`os.replace`, so an interrupted run leaves
either the old file or the new one, never a truncated one.
"""
from __future__ import annotations

import os
import tempfile
from pathlib import Path

__all__ = ["atomic_write_bytes", "atomic_write_text", "cache_dir", "ensure_dir"]


def atomic_write_bytes(path: str | os.PathLike, data: bytes) -> Path:
    """Write ``data`` to ``path`` atomically (parent folders are created). Returns the path."""
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise TypeError(f"data must be bytes, got {type(data).__name__}")
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes 0600; give the usual permissions
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    return path


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def atomic_write_text(path: str | os.PathLike, text: str, encoding: str = "utf-8") -> Path:
    """Write ``text`` to ``path`` atomically (see :func:`atomic_write_bytes`)."""
    if not isinstance(text, str):
        raise TypeError(f"text must be str, got {type(text).__name__}")
    return atomic_write_bytes(path, text.encode(encoding))


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


def cache_dir(*parts: str) -> Path:
    """The seqtheory cache folder (``$SEQTHEORY_CACHE_DIR``, else ``$XDG_CACHE_HOME/seqtheory``,
    else ``~/.cache/seqtheory``), joined with ``parts`` and created."""
    root = os.environ.get("SEQTHEORY_CACHE_DIR")
    if root:
        base = Path(root)
    else:
        base = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "seqtheory"
    d = base.joinpath(*parts)
    d.mkdir(parents=True, exist_ok=True)
    return d

"""SIGTERM as Ctrl-C: one handler for every process of the package that must stop cleanly.

A ``kill`` (or a scheduler's stop) sends SIGTERM, whose default ends the process at once: a
training run would keep its lease until it expired, a report being merged would not be written.
:func:`sigterm_as_interrupt` makes SIGTERM raise ``KeyboardInterrupt`` in the main thread, so
the code that already handles Ctrl-C (giving leases back, writing the claims finished so far)
handles both. Standard library only (the command line imports it before torch).
"""
from __future__ import annotations

import signal
import threading
from typing import Any

__all__ = ["sigterm_as_interrupt", "restore_sigterm"]


def _raise_interrupt(signum, frame) -> None:
    raise KeyboardInterrupt


def sigterm_as_interrupt() -> Any:
    """Make SIGTERM raise ``KeyboardInterrupt`` in this process. Returns the previous handler
    (for :func:`restore_sigterm`), or ``None`` when called outside the main thread, where
    signal handlers cannot be set and nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        return None
    return signal.signal(signal.SIGTERM, _raise_interrupt)


def restore_sigterm(previous: Any) -> None:
    """Put back the handler :func:`sigterm_as_interrupt` returned (nothing for ``None``)."""
    if previous is not None:
        signal.signal(signal.SIGTERM, previous)

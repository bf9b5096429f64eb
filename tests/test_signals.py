"""theory._signals: SIGTERM ends a process the way Ctrl-C does (the command line and the local
sweep workers share this one handler)."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading

from seqtheory.theory._signals import restore_sigterm, sigterm_as_interrupt

_CHILD = """
import os, signal, time
from seqtheory.theory._signals import sigterm_as_interrupt, restore_sigterm
prev = sigterm_as_interrupt()
try:
    os.kill(os.getpid(), signal.SIGTERM)
    time.sleep(5)
    print("not interrupted")
except KeyboardInterrupt:
    print("interrupted")
restore_sigterm(prev)
print("restored" if signal.getsignal(signal.SIGTERM) is prev else "not restored")
"""


def test_sigterm_raises_keyboard_interrupt_and_is_restored():
    out = subprocess.run([sys.executable, "-c", _CHILD], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["interrupted", "restored"]


def test_outside_the_main_thread_nothing_changes():
    before = signal.getsignal(signal.SIGTERM)
    got = []
    t = threading.Thread(target=lambda: got.append(sigterm_as_interrupt()))
    t.start()
    t.join()
    assert got == [None] and signal.getsignal(signal.SIGTERM) is before
    restore_sigterm(None)   # a None previous handler changes nothing
    assert signal.getsignal(signal.SIGTERM) is before


def test_a_killed_process_without_the_handler_just_dies():
    """The control: without the handler SIGTERM ends the process with no Python exception."""
    child = _CHILD.replace("prev = sigterm_as_interrupt()", "prev = signal.getsignal(signal.SIGTERM)")
    out = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True, timeout=60)
    assert out.returncode == -signal.SIGTERM and "interrupted" not in out.stdout
    assert os.name == "posix"

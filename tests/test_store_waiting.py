"""One worker computes a stored result, the others wait for it: ``ResultsStore.compute_once``
and ``wait_or_claim`` (precision sweeps and head experiments go through them), the lease kept
alive while a long computation runs, and training workers that stop with the process that
started them (a killed ``seqtheory verify`` once left two orphaned workers holding precision
sweeps for their 24-hour lease, and the next run's checks crashed with "held by another
worker")."""
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from dataclasses import dataclass

import pytest

from seqtheory.models.store import ResultsStore, RunHeldError


@dataclass(frozen=True)
class Job:
    name: str


def _never():
    raise AssertionError("compute() ran although another worker was computing the result")


def test_a_second_worker_waits_for_the_first_and_reads_its_result(tmp_path):
    st, job, got = ResultsStore(tmp_path), Job("a"), {}
    started = threading.Event()

    def slow():
        started.set()
        time.sleep(1.5)                 # longer than the lease: the lease must be renewed
        return {"v": 1}

    t = threading.Thread(target=lambda: got.setdefault("first", st.compute_once(
        job, slow, owner="first", lease_s=0.4)))
    t.start()
    started.wait(5)
    second = ResultsStore(tmp_path).compute_once(job, _never, owner="second", lease_s=0.4)
    t.join()
    assert second == got["first"] == {"v": 1}
    assert st.get(job).owner == "first" and st.get(job).status == "finished"


def test_a_holder_that_stops_renewing_loses_the_run_when_its_lease_ends(tmp_path):
    st, job = ResultsStore(tmp_path), Job("b")
    assert st.claim(job, "dead", lease_s=0.3)          # a killed worker: no renewals
    t0 = time.monotonic()
    assert st.compute_once(job, lambda: {"v": 2}, owner="alive") == {"v": 2}
    assert time.monotonic() - t0 >= 0.25
    assert st.get(job).owner == "alive"


def test_a_bounded_wait_ends_with_run_held_error(tmp_path):
    st, job = ResultsStore(tmp_path), Job("c")
    assert st.claim(job, "other", lease_s=60)
    with pytest.raises(RunHeldError, match="held by another worker"):
        st.compute_once(job, _never, owner="me", wait_s=0.2)
    assert st.wait_or_claim(job, "other") is None       # the holder itself claims again at once


def test_a_failed_computation_is_marked_and_an_interrupted_one_given_back(tmp_path):
    st, job = ResultsStore(tmp_path), Job("d")

    def boom():
        raise ValueError("boom")

    with pytest.raises(ValueError, match="boom"):
        st.compute_once(job, boom, owner="me")
    assert st.get(job).status == "failed" and "boom" in st.get(job).error

    def interrupted():
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        st.compute_once(job, interrupted, owner="me")
    assert st.claim(job, "next", lease_s=60)            # given back: claimable at once
    assert st.result(job) is None


def test_a_finished_result_is_returned_without_computing(tmp_path):
    st, job = ResultsStore(tmp_path), Job("e")
    assert st.compute_once(job, lambda: {"v": 5}) == {"v": 5}
    assert st.compute_once(job, _never) == {"v": 5}
    assert st.wait_or_claim(job, "anyone") == {"v": 5}


_PARENT = textwrap.dedent('''
    import subprocess, sys, time
    child = subprocess.Popen([sys.executable, "-c",
        "import time\\n"
        "from seqtheory.proofs_checks.training_runs import exit_with_parent\\n"
        "exit_with_parent(0.05)\\n"
        "time.sleep(60)\\n"], stderr=subprocess.DEVNULL)
    print(child.pid, flush=True)
    time.sleep(60)
''')


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] != "Z"
    except FileNotFoundError:
        return False


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="reads /proc to see the child")
def test_a_training_worker_stops_when_its_parent_is_killed(tmp_path):
    parent = subprocess.Popen([sys.executable, "-c", _PARENT], stdout=subprocess.PIPE, text=True)
    child = int(parent.stdout.readline())
    time.sleep(0.5)
    assert _alive(child)
    parent.send_signal(signal.SIGKILL)                 # the verify process dies without cleanup
    parent.wait()
    t0 = time.monotonic()
    while _alive(child) and time.monotonic() - t0 < 10:
        time.sleep(0.05)
    assert not _alive(child), "the worker outlived its parent"

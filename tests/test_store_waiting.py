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


def test_a_lease_of_a_dead_process_on_this_host_is_taken_over_at_once(tmp_path):
    """A killed ``seqtheory verify`` (kill -9) leaves leases that once held the next run for up
    to 2 minutes: a lease whose owner is a dead process of this host is reclaimed at once."""
    import socket

    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()                                          # its pid now names no process
    st, job = ResultsStore(tmp_path), Job("dead-pid")
    assert st.claim(job, f"{socket.gethostname()}:{proc.pid}:deadbeef", lease_s=3600)
    t0 = time.monotonic()
    assert st.compute_once(job, lambda: {"v": 3}, owner="alive", wait_s=5) == {"v": 3}
    assert time.monotonic() - t0 < 2


def test_a_live_owner_or_one_on_another_host_keeps_its_lease(tmp_path):
    import socket

    from seqtheory.models.store import owner_gone

    assert not owner_gone(f"{socket.gethostname()}:{os.getpid()}:x", time.time())   # this one
    assert not owner_gone(f"{socket.gethostname()}:{os.getppid()}:x", time.time())  # alive
    assert not owner_gone(f"another-host-{os.getpid()}:1:x", time.time())
    assert not owner_gone("worker-7", time.time()) and not owner_gone(None, time.time())
    # a live pid of a process that started after the lease's last renewal is not the owner
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        assert owner_gone(f"{socket.gethostname()}:{child.pid}:x", time.time() - 3600)
        assert not owner_gone(f"{socket.gethostname()}:{child.pid}:x", time.time() + 3600)
    finally:
        child.kill()
        child.wait()


def test_a_wait_on_a_live_lease_says_whose_it_is_and_for_how_long(tmp_path):
    st, job, notes = ResultsStore(tmp_path), Job("held"), []
    assert st.claim(job, "host-b:4242:cafe", lease_s=60)
    with pytest.raises(RunHeldError, match=r"held by host-b:4242:cafe \(lease renewed \d+ s ago, "
                                           r"ends in (59|60) s unless renewed\)"):
        st.wait_or_claim(job, "me", wait_s=0.3, poll_s=0.1, on_wait=notes.append)
    assert len(notes) == 1
    assert notes[0].startswith(f"waiting for run {st.key_of(job)[:12]} is held by host-b:4242:cafe")
    assert "waiting at most 0 s more" in notes[0]


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


# ------------------------------------------------------------------ bad results and arguments
def test_a_result_that_is_not_a_dict_is_refused_and_the_run_stays_computable(tmp_path):
    """Found by review: ``lambda: None`` was stored as a finished run whose result() is None, and
    the next caller waited for ever."""
    st, job = ResultsStore(tmp_path), Job("f")
    for bad in (None, [1, 2], "x"):
        with pytest.raises(TypeError, match="must return a dict"):
            st.compute_once(job, lambda: bad, owner="me")
        assert st.get(job).status == "failed"
    assert st.compute_once(job, lambda: {"v": 1}, owner="other", wait_s=0) == {"v": 1}


def test_a_result_json_cannot_hold_marks_the_run_failed_not_held(tmp_path):
    st, job = ResultsStore(tmp_path), Job("g")
    with pytest.raises(TypeError):
        st.compute_once(job, lambda: {"x": {1, 2}}, owner="me", lease_s=60)
    assert st.get(job).status == "failed" and "JSON" in st.get(job).error
    assert st.compute_once(job, lambda: {"x": 1}, owner="other", wait_s=0) == {"x": 1}


def test_a_nested_call_on_the_same_configuration_is_refused_not_a_deadlock(tmp_path):
    st, job = ResultsStore(tmp_path), Job("h")
    with pytest.raises(RuntimeError, match="already being computed by this thread"):
        st.compute_once(job, lambda: {"v": st.compute_once(job, lambda: {"z": 1})})
    assert st.get(job).status == "failed"
    assert st.compute_once(job, lambda: {"v": st.compute_once(Job("i"), lambda: {"z": 1})}) == \
        {"v": {"z": 1}}                                  # another configuration nests fine


@pytest.mark.parametrize("kw", [dict(lease_s=0), dict(lease_s=-1), dict(lease_s=float("nan")),
                                dict(lease_s=float("inf")), dict(lease_s="60"), dict(wait_s=-1),
                                dict(wait_s=float("nan")), dict(wait_s=None)])
def test_lease_and_wait_arguments_are_checked(tmp_path, kw):
    st = ResultsStore(tmp_path)
    name = next(iter(kw))
    with pytest.raises((ValueError, TypeError), match=name):
        st.compute_once(Job("j"), _never, **kw)
    assert st.get(Job("j")) is None                      # nothing claimed


@pytest.mark.parametrize("poll_s", [0, -1, float("nan"), "2"])
def test_poll_interval_is_checked(tmp_path, poll_s):
    with pytest.raises((ValueError, TypeError), match="poll_s"):
        ResultsStore(tmp_path).wait_or_claim(Job("k"), "me", poll_s=poll_s)

"""Session settings of the test suite.

The suite writes nothing into the working tree, nor into the user's seqtheory cache (a fresh
``$SEQTHEORY_CACHE_DIR`` per session, :func:`_session_cache`): every test writes under its ``tmp_path``; the
hypothesis example database is kept in memory (no ``.hypothesis/`` folder; under ``CI`` the
examples are derandomized), and
:func:`_working_tree_is_unchanged` fails the session, naming the paths, when a file or folder
appeared, disappeared or changed in the repository or the current folder. Tool caches
(``.pytest_cache``, ``__pycache__``) and environments (``.venv``, ``.venv-*`` of the README's
commands, ``.git``) are not watched.
"""
from __future__ import annotations

import os
from pathlib import Path

# One torch/OpenMP thread per test process, set before anything imports torch (torch reads the
# variable once, at import). ``-n auto`` already runs one xdist worker per core; each worker's
# default of one thread per core oversubscribes the machine, and OpenMP's spinning threads then
# cost 3-4x the CPU time of the same tests on one thread (measured: the phase-horizon plan test
# took 52 s of CPU with 2 threads per worker on 2 cores, 14 s with one). Subprocesses the tests
# start (the CLI, training workers) inherit it. A value the caller set is kept.
os.environ.setdefault("OMP_NUM_THREADS", "1")

import pytest  # noqa: E402
from hypothesis import settings
from hypothesis.database import InMemoryExampleDatabase

# No deadline: tests are not timed (performance lives in benchmarks/), and a loaded 2-core CI
# machine would turn a slow example into a failure. Under CI (the CI environment variable set)
# the examples are derandomized, so that CI runs the same examples every time and a failure
# there reproduces with ``CI=true python -m pytest``; a developer's run keeps drawing new ones.
settings.register_profile("seqtheory", database=InMemoryExampleDatabase(), deadline=None)
settings.register_profile("seqtheory-ci", parent=settings.get_profile("seqtheory"),
                          derandomize=True)
settings.load_profile("seqtheory-ci" if os.environ.get("CI") else "seqtheory")

REPO = Path(__file__).resolve().parent.parent
_NOT_WATCHED = {".git", ".venv", "venv", "__pycache__", ".pytest_cache", ".hypothesis",
                ".benchmarks", ".ipynb_checkpoints", "build", "dist"}


def tree_snapshot(root: Path) -> dict[str, tuple]:
    """``{relative path: (kind, size, mtime_ns)}`` of every file and folder under ``root``,
    without the tool caches and environments of ``_NOT_WATCHED`` and ``*.egg-info``."""
    snap: dict[str, tuple] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in _NOT_WATCHED
                             and not d.endswith(".egg-info") and not d.startswith(".venv"))
        for name in dirnames + filenames:
            p = Path(dirpath) / name
            try:
                st = p.lstat()
            except FileNotFoundError:
                continue
            is_dir = name in dirnames
            snap[str(p.relative_to(root))] = ("dir", 0, 0) if is_dir else \
                ("file", st.st_size, st.st_mtime_ns)
    return snap


def tree_changes(before: dict[str, tuple], after: dict[str, tuple]) -> list[str]:
    """``"new: x"``, ``"removed: x"``, ``"changed: x"`` lines between two snapshots."""
    return ([f"new: {p}" for p in sorted(after.keys() - before.keys())]
            + [f"removed: {p}" for p in sorted(before.keys() - after.keys())]
            + [f"changed: {p}" for p in sorted(before.keys() & after.keys())
               if before[p] != after[p]])


@pytest.fixture(scope="session", autouse=True)
def _session_cache(tmp_path_factory):
    """The seqtheory cache (BCH series, results stores) of this test session (of this xdist
    worker): a fresh folder, so that no test depends on, or writes into, the user's cache.
    Subprocesses the tests start inherit it."""
    old = os.environ.get("SEQTHEORY_CACHE_DIR")
    os.environ["SEQTHEORY_CACHE_DIR"] = str(tmp_path_factory.mktemp("seqtheory-cache"))
    yield
    if old is None:
        os.environ.pop("SEQTHEORY_CACHE_DIR", None)
    else:
        os.environ["SEQTHEORY_CACHE_DIR"] = old


@pytest.fixture(scope="session", autouse=True)
def _ray_temp_dir():
    """Ray's session folders (logs, sockets; about 30 MB per local instance) go to a short
    temporary folder of this test session (``RAY_TMPDIR``: Ray's sockets need a path of at most
    107 bytes, so not ``tmp_path``), removed at the end, instead of staying in ``/tmp/ray``.
    Subprocesses the tests start inherit it."""
    import shutil
    import tempfile

    old = os.environ.get("RAY_TMPDIR")
    folder = tempfile.mkdtemp(prefix="st-ray-")
    os.environ["RAY_TMPDIR"] = folder
    yield
    if old is None:
        os.environ.pop("RAY_TMPDIR", None)
    else:
        os.environ["RAY_TMPDIR"] = old
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="session", autouse=True)
def _working_tree_is_unchanged():
    roots = {REPO, Path.cwd().resolve()}
    before = {r: tree_snapshot(r) for r in roots}
    yield
    problems = [f"{r}: {line}" for r in sorted(roots)
                for line in tree_changes(before[r], tree_snapshot(r))]
    assert not problems, ("the test suite wrote into the working tree (tests must write under "
                          "tmp_path):\n  " + "\n  ".join(problems))


#: The test files that take longest (wall seconds on an idle 2-core machine, 2026-12-01), longest
#: first; they are collected first. ``--dist loadfile`` hands whole files to the xdist workers in
#: collection order (``--no-loadscope-reorder`` in ``pyproject.toml``; xdist's default order, most
#: tests first, started the longest file, 3 tests, among the last, so that it ended the run alone):
#: long files first, the many short ones then fill whichever worker is free.
LONG_FILES = ("test_notebook_training.py", "test_sweep_ray_cluster.py", "test_notebooks.py",
              "test_sweep_ray.py", "test_training_runs.py", "test_sweep.py", "test_batched.py",
              "test_report_safety.py", "test_claims_depth_prop33.py", "test_float_lie_stress.py",
              "test_contract_harness.py", "test_gap_structure.py")


def pytest_collection_modifyitems(items):
    """The files of ``LONG_FILES`` first, in its order; the order of the other files, and of the
    tests within each file, is kept (a stable sort)."""
    rank = {name: i for i, name in enumerate(LONG_FILES)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))

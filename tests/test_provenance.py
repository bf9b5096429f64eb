"""Provenance (issue 35 §2): the package names its own source commit, never the repository of the
current folder; an installed copy without git history or stamp says "unknown", one built from a
checkout carries the commit it was built from (``setup.py``'s ``build_py`` stamp)."""
from __future__ import annotations

import importlib
import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import seqtheory
from seqtheory.proofs_checks import environment
from seqtheory.proofs_checks.environment import STAMP_NAME, git_commit, source_tree_commit

CHECKOUT = Path(__file__).resolve().parent.parent
PARTS = {"": "seqtheory", "theory": "seqtheory.theory", "numerics": "seqtheory.numerics",
         "models": "seqtheory.models", "proofs_checks": "seqtheory.proofs_checks"}


def _git_repo(path: Path) -> str:
    path.mkdir(parents=True, exist_ok=True)
    for args in (["init", "-q"], ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q",
                                  "--allow-empty", "-m", "other"]):
        subprocess.run(["git", *args], cwd=path, check=True, capture_output=True)
    return subprocess.run(["git", "rev-parse", "HEAD"], cwd=path, check=True, capture_output=True,
                          text=True).stdout.strip()


def _needs_git():
    if shutil.which("git") is None:
        pytest.skip("git is not installed")


def test_the_package_names_its_own_commit_not_the_current_folders(tmp_path, monkeypatch):
    _needs_git()
    expected = source_tree_commit(Path(__file__))       # the checkout these tests belong to
    if expected is None:
        pytest.skip("the tests do not run from a git checkout")
    other = _git_repo(tmp_path / "other")
    monkeypatch.chdir(tmp_path / "other")
    got = git_commit()
    assert got == expected and not got.startswith(other)


def _installed_copy(site: Path) -> None:
    """The package as an install lays it out (``site/seqtheory/...``), copied from the imported
    package's files, without a stamp."""
    for sub, name in PARTS.items():
        src = Path(importlib.import_module(name).__file__).parent
        shutil.copytree(src, site / "seqtheory" / sub, dirs_exist_ok=True,
                        ignore=shutil.ignore_patterns("__pycache__", STAMP_NAME, "*.pyc"))


def _commit_seen_by(site: Path, cwd: Path) -> str:
    code = ("import seqtheory, sys; from seqtheory.proofs_checks.environment import git_commit; "
            f"assert seqtheory.__file__.startswith({str(site)!r}), seqtheory.__file__; "
            "print(git_commit())")
    env = dict(os.environ, PYTHONPATH=str(site))
    out = subprocess.run([sys.executable, "-c", code], cwd=cwd, env=env, capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def test_an_installed_copy_says_unknown_or_its_stamp(tmp_path):
    _needs_git()
    repo = tmp_path / "repo"
    other = _git_repo(repo)
    site = repo / "venv" / "site-packages"          # installed inside another repository
    _installed_copy(site)
    assert _commit_seen_by(site, repo) == "unknown"
    stamp = site / "seqtheory" / STAMP_NAME
    stamp.write_text("0123456789abcdef0123456789abcdef01234567\n")
    assert _commit_seen_by(site, repo) == "0123456789abcdef0123456789abcdef01234567"
    stamp.write_text(other[:7] + " (not a commit)\n")
    assert _commit_seen_by(site, repo) == "unknown"


def _setup_module(path: Path):
    spec = importlib.util.spec_from_file_location("_seqtheory_setup", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_build_from_a_checkout_stamps_its_commit_and_one_from_an_archive_does_not(tmp_path):
    _needs_git()
    if not (CHECKOUT / "setup.py").is_file() or source_tree_commit(CHECKOUT / "setup.py") is None:
        pytest.skip("the tests do not run from a git checkout")
    build = tmp_path / "build"
    commit = _setup_module(CHECKOUT / "setup.py").stamp_source_commit(build)
    assert commit == source_tree_commit(CHECKOUT / "setup.py")
    assert (build / "seqtheory" / STAMP_NAME).read_text().strip() == commit
    archive = tmp_path / "archive"                   # the sources without their git history
    (archive / "proofs_checks").mkdir(parents=True)
    shutil.copy(CHECKOUT / "setup.py", archive)
    shutil.copy(Path(environment.__file__), archive / "proofs_checks" / "environment.py")
    assert _setup_module(archive / "setup.py").stamp_source_commit(tmp_path / "b2") is None
    assert not (tmp_path / "b2").exists()


def test_a_stamp_beside_the_package_is_read(tmp_path, monkeypatch):
    pkg = tmp_path / "seqtheory"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    monkeypatch.setattr(seqtheory, "__file__", str(pkg / "__init__.py"))
    assert environment.stamped_commit() is None
    (pkg / STAMP_NAME).write_text("a" * 40 + "-dirty\n")
    assert environment.stamped_commit() == "a" * 40 + "-dirty"

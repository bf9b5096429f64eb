"""What a report records about the run: package versions, git commit, device, precision.

The commit is the package's own source commit (:func:`git_commit`), never that of the
repository around the current folder: read from the package's source tree when its files are
tracked by a git work tree (a checkout, an editable install), else from the stamp written into
the package when it was built from a checkout (``setup.py``'s ``build_py``: the file
:data:`STAMP_NAME` beside ``seqtheory/__init__.py``), else ``"unknown"`` (e.g. installed from an
archive of the sources, which has no git history).
"""
from __future__ import annotations

import importlib.metadata as md
import platform
import re
import subprocess
from pathlib import Path

__all__ = ["package_version", "git_commit", "source_tree_commit", "stamped_commit", "STAMP_NAME",
           "environment_info"]

_PACKAGES = ("seqtheory", "numpy", "scipy", "sympy", "mpmath", "python-flint", "torch",
             "cvxpy", "clarabel", "matplotlib", "hypothesis")
#: the file, in the built package ``seqtheory``, that holds the commit it was built from
STAMP_NAME = "_source_commit.txt"
_COMMIT = re.compile(r"[0-9a-f]{40,64}(-dirty)?")


def package_version() -> str:
    """The installed version of seqtheory (``"0+unknown"`` when run from an uninstalled tree)."""
    try:
        return md.version("seqtheory")
    except md.PackageNotFoundError:
        return "0+unknown"


def git_commit() -> str:
    """The source commit of this package (with ``-dirty`` if its work tree has uncommitted
    changes to tracked files), or ``"unknown"``: :func:`source_tree_commit` of this file, else
    :func:`stamped_commit`. The repository around the current folder is never consulted (a
    package installed into a virtual environment inside some repository is not that
    repository's code)."""
    return source_tree_commit(Path(__file__)) or stamped_commit() or "unknown"


def _git(args: list[str], where: Path) -> str | None:
    try:
        out = subprocess.run(["git", *args], cwd=where, capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() if out.returncode == 0 else None


def source_tree_commit(path: str | Path) -> str | None:
    """The ``HEAD`` commit (``-dirty`` appended when tracked files differ from it) of the git
    work tree that *tracks* the file ``path``; ``None`` when no work tree tracks it (an
    installed copy, also one inside another repository), or git is unavailable."""
    path = Path(path).resolve()
    if _git(["ls-files", "--error-unmatch", "--", path.name], path.parent) is None:
        return None
    sha = _git(["rev-parse", "HEAD"], path.parent)
    if not sha:
        return None
    dirty = _git(["status", "--porcelain", "--untracked-files=no"], path.parent)
    return sha + ("-dirty" if dirty else "")


def stamped_commit() -> str | None:
    """The commit stamped into the installed package at build time (:data:`STAMP_NAME` in the
    ``seqtheory`` package folder), or ``None`` when there is none (or it is not a commit)."""
    import seqtheory

    try:
        text = (Path(seqtheory.__file__).parent / STAMP_NAME).read_text().strip()
    except OSError:
        return None
    return text if _COMMIT.fullmatch(text) else None


def environment_info(device: str = "cpu") -> dict:
    """Versions of Python and the scientific stack, platform, device and git commit."""
    versions = {"python": platform.python_version()}
    for name in _PACKAGES:
        try:
            versions[name] = md.version(name)
        except md.PackageNotFoundError:
            versions[name] = None
    info = {"versions": versions, "platform": platform.platform(), "machine": platform.machine(),
            "device": device, "git_commit": git_commit()}
    if device.startswith("cuda"):
        try:
            import torch

            info["device_name"] = torch.cuda.get_device_name(0)
        except Exception as exc:  # report, never crash on a probe
            info["device_name"] = f"unavailable ({exc})"
    return info

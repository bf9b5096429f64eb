"""What a report records about the run: package versions, git commit, device, precision."""
from __future__ import annotations

import importlib.metadata as md
import platform
import subprocess
from pathlib import Path

__all__ = ["package_version", "git_commit", "environment_info"]

_PACKAGES = ("seqtheory", "numpy", "scipy", "sympy", "mpmath", "python-flint", "torch",
             "cvxpy", "clarabel", "matplotlib", "hypothesis")


def package_version() -> str:
    """The installed version of seqtheory (``"0+unknown"`` when run from an uninstalled tree)."""
    try:
        return md.version("seqtheory")
    except md.PackageNotFoundError:
        return "0+unknown"


def git_commit() -> str:
    """The git commit of the source tree (with ``-dirty`` if modified), or ``"unknown"``.

    Looks at the folder of this file first (a source checkout / editable install), then the
    current folder.
    """
    for where in (Path(__file__).resolve().parent, Path.cwd()):
        try:
            sha = subprocess.run(["git", "rev-parse", "HEAD"], cwd=where, capture_output=True,
                                 text=True, timeout=10)
            if sha.returncode != 0:
                continue
            dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"],
                                   cwd=where, capture_output=True, text=True, timeout=10)
            return sha.stdout.strip() + ("-dirty" if dirty.stdout.strip() else "")
        except (OSError, subprocess.SubprocessError):
            continue
    return "unknown"


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

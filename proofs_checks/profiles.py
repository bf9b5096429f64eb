"""The run profiles of ``seqtheory verify``: the one place their names are listed.

* ``quick``: seconds per claim on a CPU (the default; the test suite and CI use it);
* ``full``: the complete tables for a 2-core CPU (31 min 40 s with ``--controls`` from a fresh
  store, 61 CPU-minutes, measured 2026-12-02 on the 2-core development machine; README "Time");
* ``paper``: the trained claims at the training lengths of [DEPTH]'s released sweep grid (train
  length 128, test length 256; see ``sweeps/paper_full.toml``) on a CUDA GPU
  (``--device cuda``), or read back from an evidence bundle made on one (``--evidence DIR``,
  :mod:`seqtheory.proofs_checks.evidence`). The paper's training budget (steps, batch, width per
  cell) is unknown; the budget used is the package's choice, stated in each claim's notes. Claims
  without training, and trained claims whose paper scale is unknown, run as in ``full``.

The command line's ``--profile`` choices and the report schema read :data:`PROFILES`; a claim
picks its scale with :meth:`~seqtheory.proofs_checks.registry.Context.by_profile`.
"""
from __future__ import annotations

from typing import Any, TypeVar

__all__ = ["PROFILES", "PROFILE_HELP", "GPU_PROFILES", "check_profile", "pick"]

PROFILES: tuple[str, ...] = ("quick", "full", "paper")

#: profiles that train only on a CUDA GPU (on a CPU they read an evidence bundle)
GPU_PROFILES: tuple[str, ...] = ("paper",)

PROFILE_HELP = {"quick": "seconds per claim on a CPU",
                "full": "the complete tables (about 32 minutes on 2 CPU cores)",
                "paper": "the paper's training lengths: trains with --device cuda, or reads an "
                         "evidence bundle (--evidence DIR)"}

T = TypeVar("T")


def check_profile(profile: Any) -> None:
    """``ValueError`` naming the profiles when ``profile`` is not one of :data:`PROFILES`."""
    if profile not in PROFILES:
        raise ValueError(f"profile must be one of {PROFILES}, got {profile!r}")


def pick(profile: str, quick: T, full: T, paper: Any = None) -> T:
    """The value of ``profile``: ``quick``, ``full``, or ``paper`` (``full`` when ``paper`` is
    None). ``ValueError`` for an unknown profile."""
    check_profile(profile)
    if profile == "quick":
        return quick
    if profile == "paper" and paper is not None:
        return paper
    return full

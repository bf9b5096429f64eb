"""The run profiles of ``seqtheory verify``: the one place their names are listed.

``quick``: seconds per claim on a CPU; ``full``: the complete tables. The command line's
``--profile`` choices and the report schema both read :data:`PROFILES`.
"""
from __future__ import annotations

__all__ = ["PROFILES", "PROFILE_HELP"]

PROFILES: tuple[str, ...] = ("quick", "full")

PROFILE_HELP = {"quick": "seconds per claim on a CPU", "full": "the complete tables"}

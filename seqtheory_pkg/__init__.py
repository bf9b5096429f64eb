"""seqtheory: a verification suite for theoretical claims about parallelizable sequence models.

Sub-packages: :mod:`seqtheory.theory` (exact mathematics), :mod:`seqtheory.numerics`
(floating-point and arbitrary-precision experiments), :mod:`seqtheory.models` (PyTorch) and
:mod:`seqtheory.proofs_checks` (the claim registry and the ``seqtheory`` command line).
Importing this package imports none of them (and never torch).
"""
from __future__ import annotations

import importlib.metadata as _md

__all__ = ["__version__"]

try:
    __version__: str = _md.version("seqtheory")
except _md.PackageNotFoundError:  # an uninstalled source tree
    __version__ = "0+unknown"

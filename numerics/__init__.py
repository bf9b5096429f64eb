"""seqtheory.numerics — floating-point and arbitrary-precision experiments: error-scaling fits,
cascades, optimisation oracles. Imports :mod:`seqtheory.theory`; never imports torch.

Public names are imported lazily from their modules.
"""
from __future__ import annotations

import importlib

_EXPORTS = {
    "least_separating_class": "separation",
    "max_class_for_depth": "separation",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str):
    mod = _EXPORTS.get(name)
    if mod is None:
        raise AttributeError(f"module 'seqtheory.numerics' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{mod}"), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_EXPORTS))

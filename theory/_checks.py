"""The integer and real number checks under their first import path: they live in
:mod:`seqtheory.theory.contract` (the input contract of the whole public API), which this module
re-exports so that ``from seqtheory.theory._checks import check_int`` keeps working."""
from __future__ import annotations

from .contract import (IntArgumentTypeError, RealArgumentTypeError, check_int,  # noqa: F401
                       check_optional_int, check_real)

__all__ = ["IntArgumentTypeError", "RealArgumentTypeError", "check_int", "check_optional_int",
           "check_real"]

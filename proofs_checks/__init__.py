"""The claim registry, the checks, the report writer and the command line of seqtheory.

Nothing imports this package; it imports :mod:`seqtheory.theory`, :mod:`seqtheory.numerics` and
:mod:`seqtheory.models`.
"""
from .registry import (AUDIT, DEPTH, HEAD, TEXTBOOK, Claim, Context, ControlOutcome, Outcome,
                       Source, Verdict, all_claims, claim, get_claim, load_all)

__all__ = ["AUDIT", "DEPTH", "HEAD", "TEXTBOOK", "Claim", "Context", "ControlOutcome", "Outcome",
           "Source", "Verdict", "all_claims", "claim", "get_claim", "load_all"]

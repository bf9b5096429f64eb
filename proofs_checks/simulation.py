"""The paper's definition of simulation, as a sourced premise of the [DEPTH] claims that use it.

SPEC §3.1 (sourced from reviews of [DEPTH] G. Heo et al., arXiv:2603.05573; the exact formula was
not found): a model simulates a target when a projection matrix P maps the model's state to the
target's state, and the simulation error takes the infimum over P. So the readout is linear and,
unless a statement says otherwise, the target's initial state is arbitrary. Claims decided under
this reading carry :data:`SIMULATION_PREMISE`; other readings (a fixed initial state, a nonlinear
or periodic readout) are reported beside their verdicts as
:class:`~seqtheory.proofs_checks.registry.Reading` rows, never in them (SPEC §3).
"""
from __future__ import annotations

from .registry import Premise

__all__ = ["SIMULATION_PREMISE", "PAPER_READING"]

#: The reading under which the [DEPTH] simulation claims are decided, in a few words.
PAPER_READING = "linear readout P, every initial state"

SIMULATION_PREMISE = Premise(
    text=("[DEPTH]'s simulation: a model simulates a target when a projection matrix P (a linear "
          "readout) maps the model's state to the target's state, the error being the infimum "
          "over P; unless a statement says otherwise, every initial state of the target"),
    source="SPEC §3.1, from reviews of [DEPTH] (arXiv:2603.05573); the exact formula was not found")

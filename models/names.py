"""The names a training run may use: the sequence-model families and the training precisions.

Torch-free on purpose: the command line (``seqtheory train --help``) offers these as choices
without importing torch. :mod:`seqtheory.models.model` and :mod:`seqtheory.models.training`
re-export them.
"""
from __future__ import annotations

__all__ = ["MODEL_NAMES", "RECURRENT_MODELS", "PRECISIONS"]

#: The mixer families of :class:`~seqtheory.models.model.SequenceModel` (see that module's table).
MODEL_NAMES = ("transformer", "mamba", "signed_mamba", "aussm", "gla", "deltanet", "deltaproduct")
#: The recurrent families: every family but the transformer.
RECURRENT_MODELS = MODEL_NAMES[1:]
#: Training precisions of :class:`~seqtheory.models.training.TrainConfig`.
PRECISIONS = ("fp32", "bf16", "fp64")

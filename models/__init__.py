"""seqtheory.models — PyTorch: sequence models, tasks (word problems, rotations, text), training,
the results store, sweeps and LM-head optimizers. Public names are imported lazily."""
from __future__ import annotations

from seqtheory.theory._lazy import lazy_exports

_EXPORTS = {
    "SequenceModel": "model",
    "ModelConfig": "model",
    "MODEL_NAMES": "names",
    "TrainConfig": "train",
    "train": "train",
    "ResultsStore": "store",
    "make_word_problem": "tasks",
    "make_rotation_task": "tasks",
    "audit_representation": "tasks",
    "RowNorm": "optim",
    "inspect": "inspector",
    "Inspection": "inspector",
}

__all__, __getattr__, __dir__ = lazy_exports(__name__, globals(), _EXPORTS)

"""seqtheory.models — PyTorch: sequence models, tasks (word problems, rotations, text), training,
the results store, sweeps and LM-head optimizers. Public names are imported lazily."""
from __future__ import annotations

from seqtheory.theory._lazy import lazy_exports

_EXPORTS = {
    "SequenceModel": "model",
    "ModelConfig": "model",
    "MODEL_NAMES": "names",
    "TrainConfig": "training",
    "train": "training",
    "ResultsStore": "store",
    "make_word_problem": "tasks",
    "make_rotation_task": "tasks",
    "audit_representation": "tasks",
    "RowNorm": "optim",
    "inspect": "inspector",
    "Inspection": "inspector",
}

#: submodules renamed so that no submodule shares a public function's name (old paths still import)
_MOVED = {"train": "training"}

__all__, __getattr__, __dir__ = lazy_exports(__name__, globals(), _EXPORTS, _MOVED)

"""The training engine of an earlier commit, importable beside the current one (for benchmarks
only: the package holds one engine).

:func:`load_engine` reads ``models/``, ``theory/``, ``numerics/`` and the top-level package of
commit ``commit`` from this repository's git history (``git archive``), writes them under a
temporary folder as one package named ``seqtheory_<commit>`` (every ``seqtheory.`` import
rewritten to it, so the old code imports only old code) and imports it. The benchmark then
times the old and the new engine in one process, alternately, on the same configurations.
Needs ``git`` and a checkout whose history holds ``commit``; ``RuntimeError`` otherwise.
"""
from __future__ import annotations

import atexit
import importlib
import io
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

__all__ = ["BASELINE_COMMIT", "load_engine"]

#: main when issue 35 was filed: the engine the benchmark compares against
BASELINE_COMMIT = "760aeba"
_PARTS = {"seqtheory_pkg": "", "theory": "theory", "numerics": "numerics", "models": "models"}
_IMPORT = re.compile(r"\bseqtheory(?=[.\s])")


def _archive(commit: str, root: Path) -> tarfile.TarFile:
    try:
        out = subprocess.run(["git", "archive", "--format=tar", commit, *_PARTS], cwd=root,
                             capture_output=True, timeout=60, check=True).stdout
    except (OSError, subprocess.SubprocessError) as exc:
        raise RuntimeError(f"cannot read commit {commit} from the git history of {root}: {exc}") from None
    return tarfile.open(fileobj=io.BytesIO(out))


def load_engine(commit: str = BASELINE_COMMIT):
    """The package ``seqtheory_<commit>`` (its ``models``, ``theory``, ``numerics``) as of
    ``commit``, imported from a temporary copy; e.g. ``load_engine().models.batched.train_batched``.
    Loaded once per process and commit."""
    name = f"seqtheory_{commit}"
    if name in sys.modules:
        return _with_models(sys.modules[name])
    tmp = Path(tempfile.mkdtemp(prefix="seqtheory-frozen-"))
    atexit.register(shutil.rmtree, tmp, ignore_errors=True)
    pkg = tmp / name
    with _archive(commit, Path(__file__).resolve().parent.parent) as tar:
        for member in tar.getmembers():
            if not (member.isfile() and member.name.endswith(".py")):
                continue
            top, _, rest = member.name.partition("/")
            dest = pkg / _PARTS[top] / rest
            dest.parent.mkdir(parents=True, exist_ok=True)
            text = tar.extractfile(member).read().decode()
            dest.write_text(_IMPORT.sub(name, text))
    sys.path.insert(0, str(tmp))
    try:
        return _with_models(importlib.import_module(name))
    finally:
        sys.path.remove(str(tmp))


def _with_models(pkg):
    for sub in ("models.batched", "models.train", "models.model"):
        importlib.import_module(f"{pkg.__name__}.{sub}")
    return pkg

"""Test helper: GAP as a peer oracle (Debian ``gap-core``, ``gap-libs``, ``gap-smallgrp``,
installed by ``.ci/run``). :func:`require_gap` skips the calling test module when GAP is absent,
except under CI (the ``CI`` environment variable set), where its absence is a failure;
:func:`run_gap` runs one script whose ``out`` stream gets one JSON object per line."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

GAP = shutil.which("gap")


def random_matrix(rng: np.random.Generator, n: int, kind: str) -> np.ndarray:
    """An ``n x n`` integer matrix with entries in -2..2 drawn from ``rng``: ``"full"``,
    ``"upper"`` (triangular), ``"strict"`` (strictly upper), ``"sparse"`` (each entry kept with
    probability 0.3) or ``"block"`` (a full leading 2x2 block, upper triangular below it: a
    Levi factor sl2 in the algebras it generates)."""
    M = rng.integers(-2, 3, (n, n))
    if kind == "upper":
        M = np.triu(M)
    elif kind == "strict":
        M = np.triu(M, 1)
    elif kind == "sparse":
        M = M * (rng.random((n, n)) < 0.3)
    elif kind == "block":
        M[2:, :2] = 0
        M[2:, 2:] = np.triu(M[2:, 2:])
    return M


def require_gap() -> str:
    """The path of the ``gap`` executable; skips the module (fails it under CI) without one."""
    if GAP is None:
        if os.environ.get("CI"):
            pytest.fail("GAP is not installed but CI is set: .ci/run must install gap-core and "
                        "gap-libs (the GAP oracle tests may not be skipped in CI)",
                        pytrace=False)
        pytest.skip("GAP is not installed (apt-get install gap-core gap-libs); the GAP "
                    "peer-oracle tests are skipped", allow_module_level=True)
    return GAP


def run_gap(body: str, tmp: Path, *, packages: bool = True) -> list[dict]:
    """Run one GAP script whose ``out`` stream gets one JSON object per line; parse them.
    ``packages=False`` starts GAP without autoloading packages (``-A``: the core library only,
    about 2.5 s less start-up; SmallGroups then needs ``LoadPackage``)."""
    result = tmp / "gap_out.jsonl"
    script = tmp / "oracle.g"
    script.write_text(f'out := OutputTextFile("{result}", false);;\n'
                      f"SetPrintFormattingStatus(out, false);;\n{body}\nCloseStream(out);;\nQUIT;\n")
    proc = subprocess.run([require_gap(), "-q", "-b", "-o", "2g", *([] if packages else ["-A"]),
                           str(script)],
                          capture_output=True, text=True, timeout=600, stdin=subprocess.DEVNULL)
    said = proc.stdout + proc.stderr
    if "Error," in said:          # GAP reports a script error and carries on with exit code 0
        raise RuntimeError(f"the GAP script failed: {said[-2000:]}")
    if proc.returncode != 0 or not result.exists():
        msg = f"GAP failed (exit {proc.returncode}): {(proc.stderr or proc.stdout)[-2000:]}"
        if os.environ.get("CI"):
            raise RuntimeError(msg)
        pytest.skip(f"{msg} (is gap-smallgrp installed?)")
    return [json.loads(line) for line in result.read_text().splitlines() if line.strip()]

"""The claim-family notebooks of ``notebooks/``: they execute top to bottom without errors (no cell
error, no crashed claim, no negative control left unrejected), the committed copies carry their
outputs, code cells hold library calls only (no function/class definitions, no loops), the
committed notebooks are what ``notebooks/make_notebooks.py`` generates, and every registered
claim is shown in exactly one notebook.

The notebooks are executed once per session in two groups (the notebooks that train, executed by
``tests/test_notebook_training.py`` one after the other, in name order, each training on every
core; and the others, whose kernels run concurrently, at most one per CPU core; each kernel runs
one claim at a time), in a temporary copy of ``notebooks/`` with nbclient and the
``python3`` kernel, which jupyter_client starts with the interpreter running pytest.
"""
from __future__ import annotations

import ast
import asyncio
import importlib
import importlib.util
import os
import re
import shutil
import time
from pathlib import Path

import pytest


class _LazyModule:
    """A module imported at its first attribute access. ``nbformat`` imports ``jsonschema``, whose
    import builds 39 grammars when ``rfc3987-syntax`` is installed (the Jupyter stack installs it):
    about 2 s of CPU. Every pytest-xdist worker collects this file; only the one that runs its
    tests pays for the import."""

    def __init__(self, name: str) -> None:
        self._name = name

    def __getattr__(self, attr: str):
        if attr.startswith("__") and attr.endswith("__"):   # pytest's collection probes
            raise AttributeError(attr)                       # (__test__, __bases__) import nothing
        return getattr(importlib.import_module(self._name), attr)


def _installed(name: str) -> bool:
    """Whether ``name`` can be imported, found without importing it; a finder that refuses it
    (raises ImportError) makes it missing, as for ``pytest.importorskip``."""
    try:
        return importlib.util.find_spec(name) is not None
    except ImportError:
        return False


_MISSING = [m for m in ("nbformat", "nbclient", "ipykernel") if not _installed(m)]
if _MISSING:
    pytest.skip(f"the notebook tests need {', '.join(_MISSING)}", allow_module_level=True)
nbformat, nbclient = _LazyModule("nbformat"), _LazyModule("nbclient")

NB_DIR = Path(__file__).resolve().parent.parent / "notebooks"
NOTEBOOKS = sorted(p.name for p in NB_DIR.glob("*.ipynb"))
KERNEL_NAME = "python3"
CELL_TIMEOUT_S = 1800  # as notebooks/make_notebooks.py (its training cell)

SHOW_CLAIM = re.compile(r"""show_claim\(\s*["']([^"']+)["']""")
LOGIC_AT_LINE_START = re.compile(r"^\s*(def|class|for|while|async\s+def|async\s+for)\b", re.M)
CRASH_MARKERS = ("**Verdict: CRASHED**", "NOT rejected — the check is broken",
                 "Negative control **crashed")


def _code_cells(nb) -> list:
    return [c for c in nb.cells if c.cell_type == "code"]


def _output_text(cell) -> str:
    parts = []
    for o in cell.get("outputs", []):
        if o.output_type == "stream":
            parts.append(o.text)
        elif o.output_type in ("display_data", "execute_result"):
            parts.extend(str(v) for k, v in o.data.items() if k.startswith("text/"))
        elif o.output_type == "error":
            parts.append(f"{o.ename}: {o.evalue}")
    return "\n".join(parts)


def _load_generator():
    spec = importlib.util.spec_from_file_location("make_notebooks", NB_DIR / "make_notebooks.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_pytest_collection_does_not_import_the_lazy_modules():
    """pytest asks every module global for ``__test__`` and ``__bases__`` while collecting; the
    lazy modules answer without importing (else every worker imports nbformat at collection)."""
    lazy = _LazyModule("seqtheory_no_such_module")           # importing it would raise
    assert getattr(lazy, "__test__", False) is False
    assert not hasattr(lazy, "__bases__")
    with pytest.raises(ModuleNotFoundError):
        lazy.read


def test_there_are_notebooks():
    assert len(NOTEBOOKS) >= 6, NOTEBOOKS


# ------------------------------------------------------------------------------------------------
# cheap checks on the committed notebooks
# ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", NOTEBOOKS)
def test_committed_notebook_has_outputs(name):
    nb = nbformat.read(NB_DIR / name, as_version=4)
    nbformat.validate(nb)
    cells = _code_cells(nb)
    assert cells, "no code cells"
    assert all(c.execution_count is not None for c in cells), "committed without executing"
    assert [c.execution_count for c in cells] == list(range(1, len(cells) + 1)), \
        "cells were not executed top to bottom in one run"
    shown = [c for c in cells if SHOW_CLAIM.search(c.source)]
    assert shown, "the notebook shows no claim"
    for c in shown:
        text = _output_text(c)
        assert "**Verdict:" in text, f"no verdict displayed for {c.source!r}"
        assert "Negative control" in text, f"no negative control displayed for {c.source!r}"
        for marker in CRASH_MARKERS:
            assert marker not in text, f"{c.source!r}: {marker}"
    assert not any(o.output_type == "error" for c in cells for o in c.outputs)


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_code_cells_hold_no_logic(name):
    """The notebooks call library code only: no definitions, no loops, no comprehensions."""
    nb = nbformat.read(NB_DIR / name, as_version=4)
    banned = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.For, ast.AsyncFor,
              ast.While, ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
    for c in _code_cells(nb):
        m = LOGIC_AT_LINE_START.search(c.source)
        assert m is None, f"{m.group(1)!r} at line start in cell {c.source!r}"
        found = [type(n).__name__ for n in ast.walk(ast.parse(c.source)) if isinstance(n, banned)]
        assert not found, f"{found} in cell {c.source!r}"


def test_logic_checker_catches_logic():
    """The two checks above are not vacuous: they flag each kind of logic."""
    for src in ("def f(x):\n    return x", "class A:\n    pass", "for i in range(3):\n    print(i)",
                "  while True:\n    break"):
        assert LOGIC_AT_LINE_START.search(src), src
    assert LOGIC_AT_LINE_START.search("show_claim('x')\nx = [i for i in y]") is None  # comprehension
    tree = ast.parse("x = [i for i in y]")
    assert any(isinstance(n, ast.ListComp) for n in ast.walk(tree))


def test_committed_notebooks_match_generator():
    """The committed notebooks are the generator's: same cells, same sources, same order (edit
    ``make_notebooks.py`` and regenerate rather than editing a notebook by hand)."""
    gen = _load_generator()
    assert sorted(gen.NOTEBOOKS) == NOTEBOOKS
    for name, cells in gen.NOTEBOOKS.items():
        nb = nbformat.read(NB_DIR / name, as_version=4)
        assert [(c.cell_type, c.source) for c in nb.cells] == list(cells), name


def test_every_claim_is_shown_in_exactly_one_notebook():
    from seqtheory.proofs_checks.registry import all_claims

    shown: dict[str, list[str]] = {}
    for name in NOTEBOOKS:
        nb = nbformat.read(NB_DIR / name, as_version=4)
        for c in _code_cells(nb):
            for cid in SHOW_CLAIM.findall(c.source):
                shown.setdefault(cid, []).append(name)
    registered = {c.id for c in all_claims()}
    assert sorted(set(shown) - registered) == [], "notebooks show unregistered claims"
    assert sorted(registered - set(shown)) == [], "registered claims missing from the notebooks"
    assert {cid: where for cid, where in shown.items() if len(where) > 1} == {}


# ------------------------------------------------------------------------------------------------
# execution
# ------------------------------------------------------------------------------------------------
async def _run_one(path: Path, sem: asyncio.Semaphore) -> dict:
    tmpdir = path.parent / f"tmp-{path.stem}"
    tmpdir.mkdir()
    async with sem:
        nb = nbformat.read(path, as_version=4)
        for c in _code_cells(nb):
            c.outputs, c.execution_count = [], None
        t0 = time.perf_counter()
        client = nbclient.NotebookClient(nb, timeout=CELL_TIMEOUT_S, kernel_name=KERNEL_NAME,
                                         record_timing=False,
                                         resources={"metadata": {"path": str(path.parent)}})
        # the claims' temporary folders go under the test's own temporary folder; the notebooks of
        # one session share a fresh cache (and so a results store) there
        try:
            await client.async_execute(env={**os.environ, "TMPDIR": str(tmpdir),
                                            "SEQTHEORY_CACHE_DIR": str(path.parent / "cache")})
            error = None
        except Exception as exc:  # CellExecutionError, DeadKernelError, CellTimeoutError
            error = f"{type(exc).__name__}: {exc}"
        return {"nb": nb, "error": error, "seconds": time.perf_counter() - t0}


async def _run_all(paths: list[Path], workers: int) -> dict[str, dict]:
    sem = asyncio.Semaphore(workers)
    results = await asyncio.gather(*(_run_one(p, sem) for p in paths))
    return {p.name: r for p, r in zip(paths, results)}


def _trains(name: str) -> bool:
    return "train_claims(" in (NB_DIR / name).read_text()


#: two execution groups, each executed once per session: the notebook that trains (the longest,
#: executed by tests/test_notebook_training.py, a file of its own so that pytest-xdist's
#: ``--dist loadfile`` runs it on another worker) and the others
GROUPS = {"notebooks-training": [n for n in NOTEBOOKS if _trains(n)],
          "notebooks": [n for n in NOTEBOOKS if not _trains(n)]}
_EXECUTED: dict[str, dict[str, dict]] = {}


@pytest.fixture(scope="session")
def executed(tmp_path_factory):
    """``executed(name)``: the executed copy of notebook ``name``; its group is executed (once
    per session; the training notebooks one at a time, the others' kernels concurrently, at most
    one per CPU core) when first asked for."""
    def get(name: str) -> dict:
        group = next(g for g, names in GROUPS.items() if name in names)
        if group not in _EXECUTED:
            work = tmp_path_factory.mktemp(group)
            for n in GROUPS[group]:
                shutil.copy(NB_DIR / n, work / n)
            # a notebook that trains uses every core itself (its training pool), and the later
            # training notebooks read the runs the first one stored: one at a time, so that no
            # two pools split one batched group between them and train it run by run
            workers = 1 if group == "notebooks-training" else \
                max(1, min(len(GROUPS[group]), os.cpu_count() or 1))
            _EXECUTED[group] = asyncio.run(_run_all([work / n for n in GROUPS[group]], workers))
        return _EXECUTED[group][name]
    return get


def check_executed(res: dict) -> None:
    """The assertions on one executed notebook (no error, every cell run, no crashed claim or
    unrejected control, a verdict for every claim shown)."""
    assert res["error"] is None, res["error"]
    cells = _code_cells(res["nb"])
    assert all(c.execution_count is not None for c in cells)
    for c in cells:
        assert not any(o.output_type == "error" for o in c.outputs), c.source
        text = _output_text(c)
        for marker in CRASH_MARKERS:
            assert marker not in text, f"{c.source!r}: {marker}"
    shown = [c for c in cells if SHOW_CLAIM.search(c.source)]
    assert all("**Verdict:" in _output_text(c) for c in shown)


@pytest.mark.parametrize("name", GROUPS["notebooks"])
def test_notebook_executes(name, executed):
    res = executed(name)
    print(f"{name}: executed in {res['seconds']:.1f} s")
    check_executed(res)


def test_harness_reports_a_failing_cell(tmp_path):
    """The execution harness is not vacuous: a notebook whose cell raises comes back with the
    error (and the cells after it are not run)."""
    from nbformat.v4 import new_code_cell, new_notebook

    path = tmp_path / "broken.ipynb"
    nbformat.write(new_notebook(cells=[new_code_cell("x = 1"), new_code_cell("1 / 0"),
                                       new_code_cell("y = 2")]), path)
    res = asyncio.run(_run_all([path], 1))["broken.ipynb"]
    assert res["error"] is not None and "ZeroDivisionError" in res["error"]
    assert [c.execution_count for c in res["nb"].cells] == [1, 2, None]

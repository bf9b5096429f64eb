"""The public import paths named in the issues and the README keep working, in any import order."""
from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

import seqtheory.models as models
import seqtheory.numerics as numerics
import seqtheory.theory as theory


@pytest.mark.parametrize("name", theory.__all__)
def test_theory_exports_resolve(name):
    assert getattr(theory, name) is not None


@pytest.mark.parametrize("name", numerics.__all__)
def test_numerics_exports_resolve(name):
    assert getattr(numerics, name) is not None


@pytest.mark.parametrize("name", models.__all__)
def test_models_exports_resolve(name):
    assert getattr(models, name) is not None


def test_bch_and_magnus_are_functions_even_after_submodule_imports():
    # Importing every theory module first must not shadow the exported functions.
    code = ("import pkgutil, importlib, seqtheory.theory as t\n"
            "[importlib.import_module('seqtheory.theory.' + m.name) for m in pkgutil.iter_modules(t.__path__)]\n"
            "from seqtheory.theory import bch, magnus, lyndon_words, witt_dimension, free_nilpotent\n"
            "assert callable(bch) and callable(magnus), (bch, magnus)\n"
            "assert bch(degree=2).lyndon_coefficients()['xy'] == __import__('fractions').Fraction(1, 2)\n")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_theory_and_numerics_never_import_torch():
    code = ("import sys, pkgutil, importlib\n"
            "for pkg in ('seqtheory.theory', 'seqtheory.numerics'):\n"
            "    p = importlib.import_module(pkg)\n"
            "    [importlib.import_module(pkg + '.' + m.name) for m in pkgutil.iter_modules(p.__path__)]\n"
            "assert 'torch' not in sys.modules, 'theory/numerics imported torch'\n")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_named_lie_algebras_are_exported_with_their_invariants():
    from seqtheory.theory import b, gl, heisenberg, n, sl, so, strictly_upper
    from seqtheory.theory.lie_named import strictly_upper as su

    assert n is su is strictly_upper
    assert [gl(2).dim, sl(2).dim, so(3).dim, b(3).dim, n(3).dim, heisenberg().dim] == \
        [4, 3, 3, 6, 3, 3]
    assert sl(2).is_perfect and so(3).is_perfect
    assert b(4).derived_length == 3 and n(4).derived_length == 2 and n(4).nilpotency_class == 3
    assert heisenberg().nilpotency_class == 2


def test_top_level_package_has_a_version_and_imports_no_subpackage():
    code = ("import sys, importlib.metadata as md, seqtheory\n"
            "assert seqtheory.__version__ == md.version('seqtheory'), seqtheory.__version__\n"
            "assert not [m for m in sys.modules if m.startswith('seqtheory.')], sys.modules\n"
            "assert 'torch' not in sys.modules\n")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_readme_python_examples_run():
    """Every ```python block of README.md runs as shown."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    blocks = [(f.name, b) for f in (root / "README.md",)
              if f.is_file() for b in re.findall(r"```python\n(.*?)```", f.read_text(), re.S)]
    assert blocks, "no Python example in the README"
    for name, block in blocks:
        exec(compile(block, f"{name} example", "exec"), {})


def test_one_version_in_pyproject_citation_and_package():
    import re
    import tomllib
    from pathlib import Path

    import seqtheory

    root = Path(__file__).resolve().parents[1]
    project = tomllib.loads((root / "pyproject.toml").read_text())["project"]["version"]
    cff = re.search(r"^version:\s*(\S+)", (root / "CITATION.cff").read_text(), re.M).group(1)
    assert project == cff == seqtheory.__version__

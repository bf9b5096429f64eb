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

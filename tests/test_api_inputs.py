"""The Python API as a user meets it: error messages print plain numbers, the Hilbert-geometry
functions read exact numbers, ``dir()`` of a package lists its public API only."""
from __future__ import annotations

import subprocess
import sys
from fractions import Fraction

import flint
import mpmath
import numpy as np
import pytest
import sympy
from hypothesis import example, given, settings, strategies as st

from seqtheory.theory._messages import shown
from seqtheory.theory.hilbert import hilbert_distance, row_diameter, variation_seminorm


@pytest.mark.parametrize("value, text", [
    (np.float64(0.0), "0.0"), (np.int64(3), "3"), (np.float32(1.5), "1.5"),
    ((np.float64(1.0),), "(1.0,)"), ([np.int16(1), np.float64(2.5)], "[1, 2.5]"),
    (np.array([[1.0, 2.0]]), "[[1.0, 2.0]]"), ({"eta": np.float64(-1.0)}, "{'eta': -1.0}"),
    (Fraction(1, 3), "1/3"), (mpmath.mpf("0.5"), "0.5"), ("log", "'log'"), (None, "None"),
    (0.001, "0.001"),
])
def test_shown_prints_plain_numbers(value, text):
    assert shown(value) == text


def _message(fn, *args, **kw) -> str:
    with pytest.raises((TypeError, ValueError)) as err:
        fn(*args, **kw)
    return str(err.value)


def test_error_messages_print_plain_numbers():
    from seqtheory.numerics.fits import fit_loglog_slope
    from seqtheory.numerics.head_oracles import rownorm_update
    from seqtheory.numerics.nilpotent_cascade import nilpotent_cascade

    msgs = [
        _message(hilbert_distance, np.array([0.0, 1.0]), np.array([0.5, 0.5])),
        _message(fit_loglog_slope, [np.float64(0.0), 1.0, 2.0], [1.0, 2.0, 3.0]),
        _message(rownorm_update, np.eye(3), np.float64(-1.0)),
        _message(nilpotent_cascade([[[0, 1], [0, 0]], [[0, 0], [1, 0]]], 2).simulate, [0, 1],
                 np.float64(-0.5)),
    ]
    for m in msgs:
        assert "np." not in m and "float64(" not in m, m
    assert "min entry 0.0" in msgs[0] and "got 0.0" in msgs[1] and "-1.0" in msgs[2]


_rational = st.fractions(min_value=-10**6, max_value=10**6, max_denominator=10**6)


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 6).flatmap(lambda v: st.integers(1, 4).flatmap(
    lambda d: st.lists(st.lists(_rational, min_size=d, max_size=d), min_size=v, max_size=v))))
@example([[Fraction(1, 3), Fraction(0)], [Fraction(0), Fraction(1)]])
@example([[Fraction(10**6), Fraction(1, 10**6)], [Fraction(10**6), Fraction(0)]])
def test_row_diameter_reads_exact_numbers_as_their_nearest_floats(rows):
    as_float = np.array([[float(x) for x in r] for r in rows])
    want = row_diameter(as_float)
    assert row_diameter(rows) == want                                    # Fractions
    assert row_diameter(sympy.Matrix(rows)) == want                     # sympy Rationals
    assert row_diameter([[flint.fmpq(x.numerator, x.denominator) for x in r] for r in rows]) == want
    assert variation_seminorm(rows[0]) == variation_seminorm(as_float[0])


def test_row_diameter_mixed_exact_inputs_and_refusals():
    assert row_diameter([[1, Fraction(1, 2)], [sympy.Integer(0), mpmath.mpf(2)]]) == \
        row_diameter(np.array([[1.0, 0.5], [0.0, 2.0]]))
    assert row_diameter([[sympy.sqrt(2), 0], [0, 0]])[0] == pytest.approx(2 ** 0.5, rel=1e-15)
    assert "entry x (Symbol) is not a real number" in _message(
        row_diameter, [[sympy.Symbol("x"), 0], [0, 1]])
    assert "beyond the float64 range" in _message(row_diameter, [[10**400, 0], [0, 1]])
    assert "not a real number" in _message(row_diameter, [[None, 0], [0, 1]])


@pytest.mark.parametrize("package", ["seqtheory.theory", "seqtheory.numerics", "seqtheory.models"])
def test_dir_of_a_package_is_its_public_api(package):
    code = (f"import importlib\nm = importlib.import_module({package!r})\nbefore = dir(m)\n"
            f"getattr(m, m.__all__[0])\n"                      # loads a submodule
            f"assert before == dir(m) == sorted(m.__all__), (before, dir(m))\n"
            f"assert not [n for n in dir(m) if n.startswith('_')]\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr

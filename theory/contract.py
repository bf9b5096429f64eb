"""The input contract of the public API of seqtheory: what each kind of argument accepts, what it
is converted to, and the error a caller gets otherwise. Every public function of
:mod:`seqtheory.theory`, :mod:`seqtheory.numerics`, :mod:`seqtheory.models` and
:mod:`seqtheory.proofs_checks` converts each argument once, here, keeps the converted value and
computes only with it (the check and the conversion are the same call, as ``operator.index`` and
``np.asarray(x, dtype=...)`` are in numpy and the standard library). Errors are ``TypeError``
(the kind is wrong) or ``ValueError`` (the value is), and always name the argument.

=============  =========================  ====================================================
kind           helper                     accepts -> returns; refuses
=============  =========================  ====================================================
integer        :func:`check_int`          anything ``operator.index`` takes (``int``, numpy
                                          integers, sympy ``Integer``, python-flint ``fmpz``)
                                          -> Python ``int`` (exact: never a fixed-width numpy
                                          integer in the arithmetic); a ``bool`` / ``np.bool_``,
                                          float, ``Fraction``, string: :class:`IntArgumentTypeError`;
                                          out of ``[minimum, maximum]``: ``ValueError``
size           :func:`check_size`         an integer whose work grows with it, bounded by a
                                          documented constant; refused *before* any work starts
real           :func:`check_real`         ``int``, ``float``, ``Fraction`` / sympy ``Rational``,
                                          ``Decimal``, ``mpmath.mpf``, numpy integer and floating
                                          scalars (``float16`` / ``float32`` promoted exactly)
                                          -> Python ``float`` (an exact value rounded once);
                                          bool, complex (``complex``, numpy complex, ``mpc``),
                                          string: :class:`RealArgumentTypeError`; NaN/inf or out
                                          of bounds: ``ValueError``
exact          :func:`check_exact`        ``int``-likes, ``Fraction``, sympy ``Rational``,
                                          python-flint ``fmpq`` / ``fmpz``, finite ``Decimal``
                                          (its decimal value, exactly) -> ``Fraction``; binary
                                          floats (``float``, numpy floats, ``mpf``) are refused
                                          (``TypeError``: an exact path never guesses the nearby
                                          rational a float stands for) unless the path documents
                                          ``floats=True``: then the float's exact binary value;
                                          :func:`check_exact_sympy` also keeps exact sympy
                                          numbers (``sqrt(5)``) for sympy paths
float64 data   :func:`check_float64`      arrays, tensors and scalars whose float dtype is
                                          ``float64`` (or integer / exact); ``float16``,
                                          ``bfloat16``, ``float32`` (and ``complex64``) are
                                          refused on paths whose tolerances assume float64
                                          rounding (rank decisions: ``LieAlgebra``, ``span``);
                                          the other float paths promote them exactly (stated in
                                          their docstrings)
real arrays    :func:`real_array`         numpy arrays of any real dtype, nested sequences, sympy
                                          matrices of real numbers -> finite ``float64`` array;
                                          complex, bool, strings, NaN/inf refused
complex arrays :func:`complex_array`      where complex input is documented: numbers of any
                                          kind -> finite ``complex128``; strings (never parsed
                                          by ``complex()``), bools, NaN/inf refused
magnitudes     :func:`check_positive`     a positive finite number of any real type, kept in its
                                          own arithmetic (fits of errors that may lie beyond the
                                          float range)
integer        :func:`check_int_sequence` a sequence or 1-D array of integers -> ``list[int]``
sequences                                 (words), each entry by :func:`check_int`
flags          :func:`check_bool`         ``bool`` / ``np.bool_`` -> ``bool``; ``1``, ``"False"``
                                          refused
objects        :func:`check_instance`,    an argument of a stated type (a group, a store, a
               :func:`as_list`            config) or a sequence: refused by name, never an
                                          ``AttributeError`` deep inside
=============  =========================  ====================================================

A bound that a helper enforces in its own terms is reported in the caller's with
:func:`blamed_on` (``k = 70: ...``).

Tensors (:mod:`seqtheory.models`): a layer's inputs follow the reference recurrence's dtype
promotion (``torch.result_type``), keep their device, accept a batch of 0 (an empty result of the
right shape) and non-contiguous views. Matrices for Lie algebras are read by
:func:`seqtheory.theory.matrix_input.matrix_rows`, which applies the entry rules above.

mpmath: arbitrary-precision work runs inside :func:`seqtheory.theory.mp_precision.working_dps`
(a process-wide lock around ``mpmath.workdps``), so two threads never share a precision and the
caller's ``mpmath.mp`` is left as it was.
"""
from __future__ import annotations

import contextlib
import math
import operator
import sys
from decimal import Decimal
from fractions import Fraction
from numbers import Rational, Real
from typing import Any

from ._messages import counted, shown

# numpy is imported by the array helpers only (the command line's help reads the claim registry,
# which checks its arguments here, and imports no numerical library): a value of a numpy type
# cannot exist before numpy is imported, so the scalar checks look at sys.modules.


def _np():
    import numpy

    return numpy


def _numpy_type(value: Any, *names: str) -> bool:
    """``value`` is a numpy scalar whose type is one of ``names`` (``"bool"``) or a subclass of
    the abstract numpy types named (``"floating"``, ``"complexfloating"``, ``"integer"``)."""
    np = sys.modules.get("numpy")
    return np is not None and isinstance(value, np.generic) and any(
        isinstance(value, getattr(np, n, ())) for n in names)

__all__ = ["IntArgumentTypeError", "RealArgumentTypeError", "check_int", "check_optional_int",
           "check_size", "check_real", "check_exact", "check_exact_sympy", "low_precision_dtype",
           "FLOAT64_RANK_WHY", "check_float64", "real_array", "check_instance", "as_list",
           "check_int_sequence", "blamed_on", "complex_array", "check_bool", "is_positive_real",
           "check_positive"]


class IntArgumentTypeError(TypeError, ValueError):
    """An integer argument that is not an integer (a float, a bool, a string, ...)."""


class RealArgumentTypeError(TypeError, ValueError):
    """A real number argument that is not a real number (a bool, a complex number, a string, an
    array, ...)."""


# ----------------------------------------------------------------------------- integers and sizes
def _range(minimum: int | None, maximum: int | None) -> str:
    if maximum is None:
        return f">= {minimum}"
    if minimum is None:
        return f"<= {maximum}"
    return f"in {minimum}..{maximum}"


def _is_bool(value: Any) -> bool:
    return isinstance(value, bool) or _numpy_type(value, "bool_")


def check_int(name: str, value: Any, minimum: int | None = 1, maximum: int | None = None) -> int:
    """``value`` as a Python ``int`` if ``operator.index`` takes it (not a bool) and it lies in
    ``[minimum, maximum]`` (``None``: unbounded on that side). Raises
    :class:`IntArgumentTypeError` (a ``TypeError``) for a non-integer and ``ValueError`` for an
    integer out of range, each naming ``name``."""
    if _is_bool(value):
        raise IntArgumentTypeError(f"{name} must be an int, got bool {value!r}")
    try:
        v = operator.index(value)
    except TypeError:
        raise IntArgumentTypeError(f"{name} must be an int, got {type(value).__name__} "
                                   f"{shown(value)}") from None
    if (minimum is not None and v < minimum) or (maximum is not None and v > maximum):
        raise ValueError(f"{name} must be {_range(minimum, maximum)}, got {v}")
    return v


def check_optional_int(name: str, value: Any, minimum: int | None = 1,
                       maximum: int | None = None) -> int | None:
    """:func:`check_int`, with ``None`` passed through."""
    return None if value is None else check_int(name, value, minimum, maximum)


def check_size(name: str, value: Any, count: int, bound: int, bound_name: str, what: str) -> None:
    """``ValueError`` naming ``name`` when a request would produce ``count`` > ``bound`` items
    (``what``, e.g. ``"Lyndon words"``): the caller computes ``count`` (or a lower bound of it,
    or any number above ``bound`` once it knows the count exceeds it) from the converted
    ``value`` before any work starts, so a request that cannot finish is refused at once, with
    the documented constant ``bound_name`` in the message."""
    if count > bound:
        raise ValueError(f"{name} = {shown(value)} asks for more than {bound_name} = {bound:,} "
                         f"{what}: refused before starting (beyond the reach of this "
                         f"computation)")


# ----------------------------------------------------------------------------- objects and sequences
def check_bool(name: str, value: Any) -> bool:
    """``value`` as a Python ``bool`` if it is one (or a numpy bool); ``TypeError`` naming
    ``name`` otherwise, so that ``1`` or ``"False"`` (truthy) never stand for a flag."""
    if _is_bool(value):
        return bool(value)
    raise TypeError(f"{name} must be True or False, got {type(value).__name__} {shown(value)}")


def check_instance(name: str, value: Any, types: type | tuple[type, ...], what: str) -> Any:
    """``value`` itself if it is an instance of ``types``; ``TypeError`` naming ``name`` and
    ``what`` it must be otherwise (never an ``AttributeError`` deep inside the computation)."""
    if not isinstance(value, types):
        raise TypeError(f"{name} must be {what}, got {type(value).__name__} {shown(value)}")
    return value


def check_int_sequence(name: str, value: Any, minimum: int | None = None,
                       maximum: int | None = None, *, min_len: int = 0) -> list[int]:
    """``value`` (a sequence or 1-D array of integers) as a list of Python ints in
    ``[minimum, maximum]``, at least ``min_len`` long; each entry by :func:`check_int` (named
    ``name[i]``), so floats, bools and nested sequences are refused, not rounded."""
    out = [check_int(f"{name}[{i}]", x, minimum, maximum)
           for i, x in enumerate(as_list(name, value, "a sequence of ints"))]
    if len(out) < min_len:
        raise ValueError(f"{name} must be non-empty" if min_len == 1 else
                         f"{name} must have at least {counted(min_len, 'entry', 'entries')}, "
                         f"got {len(out)}")
    return out


def as_list(name: str, value: Any, what: str = "a sequence") -> list:
    """``list(value)`` for an iterable that is not a string, bytes, mapping or scalar;
    ``TypeError`` naming ``name`` otherwise."""
    if isinstance(value, (str, bytes, dict)) or not hasattr(value, "__iter__") \
            or getattr(value, "ndim", 1) == 0:
        raise TypeError(f"{name} must be {what}, got {type(value).__name__} {shown(value)}")
    return list(value)


@contextlib.contextmanager
def blamed_on(name: str, value: Any):
    """Re-raise a ``ValueError`` of the block as one that starts with ``name = value:`` -- the
    caller's argument that asked for the work refused inside (a helper's bound named in the
    helper's terms becomes an error about the caller's argument)."""
    try:
        yield
    except ValueError as exc:
        raise ValueError(f"{name} = {shown(value)}: {exc}") from exc


# ----------------------------------------------------------------------------- real numbers
def _is_complex(value: Any) -> bool:
    if isinstance(value, complex) or _numpy_type(value, "complexfloating"):
        return True
    return type(value).__module__.startswith("mpmath") and type(value).__name__ == "mpc"


def check_real(name: str, value: Any, minimum: float | None = None, maximum: float | None = None,
               *, above: bool = False, below: bool = False, finite: bool = True) -> float:
    """``value`` as a Python ``float`` if it is a real number (``int``, ``float``, ``Fraction`` or
    another ``numbers.Real``: numpy integer and floating scalars, ``mpmath.mpf``, sympy real
    numbers; ``Decimal``; python-flint ``fmpz`` / ``fmpq``; not a bool) ``>= minimum`` (``> minimum`` with ``above``) and
    ``<= maximum`` (``< maximum`` with ``below``); ``None``: unbounded on that side; with
    ``finite`` (the default), NaN and ±inf are refused, else they pass. An exact value is
    rounded once to the nearest float; an integer beyond the float range is ``±inf`` (refused
    when ``finite``). Raises :class:`RealArgumentTypeError` (a ``TypeError``) for a non-number
    or a complex number and ``ValueError`` otherwise, each naming ``name`` and what is
    expected."""
    lo = None if minimum is None else f"{'>' if above else '>='} {_bound(minimum)}"
    hi = None if maximum is None else f"{'<' if below else '<='} {_bound(maximum)}"
    bounds = " and ".join(b for b in (lo, hi) if b)
    expected = f"a {'finite ' if finite else ''}real number{' ' + bounds if bounds else ''}"
    exact = _flint_exact(value)
    if exact is not None:
        value = exact
    if _is_bool(value) or not isinstance(value, (Real, Decimal)) or _is_complex(value):
        what = "complex" if _is_complex(value) else type(value).__name__
        raise RealArgumentTypeError(f"{name} must be {expected} (int, float or a numpy scalar), "
                                    f"got {what} {shown(value)}")
    v = _to_float(value)
    if (finite and not math.isfinite(v)) or (not math.isnan(v) and (
            (minimum is not None and (v <= minimum if above else v < minimum)) or
            (maximum is not None and (v >= maximum if below else v > maximum)))):
        raise ValueError(f"{name} must be {expected}, got {shown(value)}")
    return v


def _bound(x: float) -> str:
    """A bound for a message: short (``:g``) when that loses nothing, else in full."""
    short = f"{x:g}"
    return short if float(short) == x else repr(float(x))


def _to_float(value: Any) -> float:
    """The nearest float of a real number (an exact rational rounded once, correctly)."""
    try:
        if isinstance(value, Rational) and not (isinstance(value, int) or _numpy_type(value, "integer")):
            return int(value.numerator) / int(value.denominator)
        return float(value)
    except OverflowError:                 # an int or a rational beyond a float
        return math.inf if value > 0 else -math.inf


def is_positive_real(value: Any) -> bool:
    """Whether ``value`` is a positive finite real number (float, int, Fraction, Decimal, numpy
    or mpmath real), decided exactly for exact numbers (no conversion to float, which would turn
    a tiny Fraction into 0 and a huge int into an OverflowError); booleans, strings and complex
    numbers are not numbers here (False)."""
    if _is_bool(value) or isinstance(value, (str, bytes)) or _is_complex(value):
        return False
    if isinstance(value, Rational):
        return value > 0
    if isinstance(value, Decimal):
        return value.is_finite() and value > 0
    if type(value).__module__.startswith("mpmath"):
        import mpmath

        return bool(value > 0 and mpmath.isfinite(value))
    try:
        f = float(value)
    except (TypeError, ValueError, OverflowError):
        return False
    return f > 0 and math.isfinite(f)


def check_positive(name: str, value: Any, message: str | None = None) -> Any:
    """``value`` itself when :func:`is_positive_real` (kept in its own arithmetic: the kind of
    the magnitudes of :mod:`seqtheory.numerics.fits`, where an exact or extended-range number
    must not be rounded to a float); ``ValueError`` otherwise, with ``message`` (its ``{value}``
    filled in, only then) or one naming ``name``."""
    if not is_positive_real(value):
        text = message or "{name} must be a positive finite number, got {value}"
        raise ValueError(text.format(name=name, value=shown(value)))
    return value


# ----------------------------------------------------------------------------- exact numbers
def _flint_exact(value: Any) -> Fraction | None:
    if type(value).__module__.split(".")[0] != "flint":
        return None
    name = type(value).__name__
    if name == "fmpz":
        return Fraction(int(value))
    if name == "fmpq":
        return Fraction(int(value.p), int(value.q))
    return None


def check_exact(name: str, value: Any, *, floats: bool = False, minimum: Any = None,
                above: bool = False) -> Fraction:
    """``value`` as an exact ``Fraction``: integers (anything ``operator.index`` takes, not a
    bool), ``Fraction`` and other ``numbers.Rational`` (sympy ``Rational``), python-flint
    ``fmpz`` / ``fmpq``, a finite ``Decimal`` (its decimal value). A binary float (``float``,
    numpy floating, ``mpmath.mpf``, sympy ``Float``) is refused with a ``TypeError`` naming
    ``name`` -- an exact computation never reads 0.1 as 1/10 nor as the binary fraction it
    holds -- unless ``floats`` is true (documented by the caller): then its exact binary value.
    ``TypeError`` for anything else (complex, strings, symbols, irrationals), ``ValueError``
    for NaN/inf or a value below ``minimum`` (at or below it with ``above``), compared exactly."""
    q = _exact_value(name, value, floats)
    if minimum is not None and (q <= minimum if above else q < minimum):
        raise ValueError(f"{name} must be {'>' if above else '>='} {minimum}, got {shown(value)}")
    return q


def _exact_value(name: str, value: Any, floats: bool) -> Fraction:
    if _is_bool(value) or _is_complex(value) or isinstance(value, (str, bytes)):
        raise TypeError(f"{name} must be {_exact_kinds(floats)}, got "
                        f"{'complex' if _is_complex(value) else type(value).__name__} {shown(value)}")
    if isinstance(value, Fraction):
        return value
    if isinstance(value, Rational):
        return Fraction(int(value.numerator), int(value.denominator))
    if hasattr(value, "__index__") and not (isinstance(value, float) or _numpy_type(value, "floating")):
        with contextlib.suppress(TypeError):       # a float tensor has __index__ and refuses it
            return Fraction(operator.index(value))
    exact = _flint_exact(value)
    if exact is not None:
        return exact
    if isinstance(value, Decimal):
        if not value.is_finite():
            raise ValueError(f"{name} must be finite, got {value}")
        return Fraction(value)
    if isinstance(value, Real):                       # binary floats: float, numpy, mpf, sympy Float
        f = _binary_fraction(value)
        if f is None:
            raise ValueError(f"{name} must be finite, got {shown(value)}")
        if not floats:
            raise TypeError(f"{name} must be exact (int, Fraction, sympy Rational, Decimal), got "
                            f"the {type(value).__name__} {shown(value)}: a float is not read as "
                            f"a nearby rational; pass Fraction(...) (or Fraction(x) for the "
                            f"float's exact binary value)")
        return f
    raise TypeError(f"{name} must be {_exact_kinds(floats)}, got {type(value).__name__} "
                    f"{shown(value)}")


def _exact_kinds(floats: bool) -> str:
    """What :func:`check_exact` accepts, for its messages (floats named only where accepted)."""
    return ("a real number (int, float, Fraction, Decimal, sympy Rational)" if floats else
            "an exact number (int, Fraction, sympy Rational, Decimal)")


def check_exact_sympy(name: str, value: Any):
    """``value`` as an exact sympy number: a sympy number expression without floats
    (``Rational``, ``sqrt(5)``, ``pi``) is kept as it is; anything else goes through
    :func:`check_exact` (so a float is refused) and becomes a sympy ``Rational``."""
    import sympy

    if isinstance(value, sympy.Basic):
        if value.is_number and not value.has(sympy.Float):
            if value.is_real is False:
                raise TypeError(f"{name} must be real, got the complex number {value}")
            return value
        if value.free_symbols:
            raise TypeError(f"{name} must be a number, got the expression {value}")
    q = check_exact(name, value)
    return sympy.Rational(q.numerator, q.denominator)


def _binary_fraction(value: Any) -> Fraction | None:
    """The exact value of a finite binary float (Python, numpy, mpmath, sympy), else ``None``."""
    if type(value).__module__.startswith("mpmath"):
        import mpmath

        if not mpmath.isfinite(value):
            return None
        sign, man, exp, _ = value._mpf_            # (-1)^sign · man · 2^exp, man >= 0
        f = Fraction(int(man)) * Fraction(2) ** int(exp)
        return -f if sign else f
    if type(value).__module__.startswith("sympy"):
        import sympy

        if not value.is_finite:
            return None
        r = sympy.Rational(value)                      # a sympy Float's exact binary value
        return Fraction(int(r.p), int(r.q))
    f = float(value)
    return Fraction(f) if math.isfinite(f) else None


# ----------------------------------------------------------------------------- float64 data
_LOW_PRECISION = {"float16", "bfloat16", "float32", "complex64", "half", "float", "cfloat",
                  "complex32", "chalf", "float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz",
                  "float8_e5m2fnuz"}


def low_precision_dtype(value: Any) -> str | None:
    """The name of ``value``'s float dtype when it is narrower than float64 (a numpy array or
    scalar of ``float16`` / ``float32`` / ``complex64`` / ml_dtypes ``bfloat16``; a torch tensor
    of ``float16`` / ``bfloat16`` / ``float32``), else ``None``. Duck-typed: imports no torch."""
    dtype = getattr(value, "dtype", None)
    if dtype is None:
        return None
    text = str(dtype)
    name = text.removeprefix("torch.")
    if text.startswith("torch."):
        return name if name in _LOW_PRECISION else None
    np = _np()
    try:
        dt = np.dtype(dtype)
    except TypeError:
        return None
    if dt.name == "bfloat16" or dt.name.startswith("float8"):
        return dt.name
    if dt.kind in "fc" and dt.itemsize < (8 if dt.kind == "f" else 16):
        return dt.name
    return None


#: why the float paths of subspaces and Lie algebras refuse floats narrower than float64
FLOAT64_RANK_WHY = "the float path's rank decisions assume float64 rounding of the input"


def check_float64(name: str, value: Any, *, why: str = FLOAT64_RANK_WHY) -> None:
    """``TypeError`` naming ``name`` when ``value`` (an array, a tensor or a scalar; a list is
    not searched: its entries are checked one by one by the caller's reader) holds floats
    narrower than float64 (``float16``, ``bfloat16``, ``float32``): its values carry 11, 8 or 24
    bits, and a path whose decisions assume float64 rounding (``why``) would read that error as
    signal."""
    low = low_precision_dtype(value)
    if low is not None:
        raise TypeError(f"{name} holds {low} values, but {why}: a {low} value carries only "
                        f"{_BITS.get(low, 'a few')} significant bits, so its rounding error "
                        f"would be read as signal. Pass float64 data (e.g. "
                        f".astype(numpy.float64) when the {low} values are exact) or exact "
                        f"entries")


_BITS = {"float16": 11, "half": 11, "bfloat16": 8, "float32": 24, "float": 24, "complex64": 24,
         "cfloat": 24, "complex32": 11, "chalf": 11}


def real_array(x: Any, name: str, ndim: int | None = None, min_ndim: int = 0) -> Any:
    """``x`` as a finite float64 array (the float paths' input; narrower floats are promoted
    exactly); ``TypeError`` naming ``name`` for non-numeric, boolean or complex input,
    ``ValueError`` for NaN/inf or the wrong number of dimensions.

    ``x``: a numpy array of any real dtype, or nested lists / tuples / a sympy matrix of real
    numbers: ints, Fractions, sympy and python-flint rationals (rounded to the nearest float64),
    floats, ``Decimal``, mpmath ``mpf``, sympy real constants (``sqrt(2)``)."""
    np = _np()
    try:
        a = np.asarray(x)
    except Exception as exc:  # pragma: no cover - exotic objects
        raise TypeError(f"{name} must be array-like of real numbers: {exc}") from None
    if a.dtype == object:
        a = np.vectorize(lambda v: _real_entry(v, name), otypes=[np.float64])(a) \
            if a.size else a.astype(np.float64)
    if a.dtype.kind == "c":
        raise TypeError(f"{name} must be real, got a complex array")
    if not np.issubdtype(a.dtype, np.number) or a.dtype == np.bool_:
        raise TypeError(f"{name} must hold real numbers, got dtype {a.dtype}")
    a = a.astype(np.float64, copy=False)
    if ndim is not None and a.ndim != ndim:
        raise ValueError(f"{name} must be {ndim}-D, got shape {a.shape}")
    if a.ndim < min_ndim:
        raise ValueError(f"{name} must have at least {counted(min_ndim, 'dimension')}, "
                         f"got shape {a.shape}")
    if not np.all(np.isfinite(a)):
        raise ValueError(f"{name} contains NaN or inf")
    return a


def complex_array(x: Any, name: str) -> Any:
    """``x`` as a finite complex128 array (real input promoted exactly): the numeric paths that
    document complex input. ``TypeError`` naming ``name`` for strings, bools and other
    non-numbers (``complex("1+2j")`` is not read), ``ValueError`` for NaN/inf."""
    if x is None or isinstance(x, (str, bytes)):
        raise TypeError(f"{name} must be an array of numbers, got {type(x).__name__}")
    np = _np()
    a = np.asarray(x.tolist() if type(x).__module__.startswith("torch") else x)
    if a.dtype == object:
        a = np.vectorize(lambda v: _complex_entry(v, name), otypes=[np.complex128])(a) \
            if a.size else a.astype(np.complex128)
    if a.dtype.kind not in "iufc":
        raise TypeError(f"{name} must hold numbers, got dtype {a.dtype}")
    a = a.astype(np.complex128)
    if not np.all(np.isfinite(a)):
        raise ValueError(f"{name} contains NaN or inf")
    return a


def _complex_entry(v: Any, name: str) -> complex:
    if _is_complex(v):
        return complex(v)
    return complex(_real_entry(v, name))


def _real_entry(v: Any, name: str) -> float:
    """One entry of an object array as the nearest float64; ``TypeError`` naming ``name`` for a
    non-real, ``ValueError`` for a finite number beyond the float64 range."""
    if _is_bool(v) or isinstance(v, (str, bytes)) or _is_complex(v):
        raise TypeError(f"{name}: entry {shown(v)} is not a real number")
    exact = _flint_exact(v)
    if exact is not None:
        v = exact
    if isinstance(v, (Real, Decimal)):
        f = _to_float(v)
    elif type(v).__module__.startswith("sympy") and getattr(v, "is_real", False) \
            and not getattr(v, "free_symbols", True):
        f = float(v)
    else:
        raise TypeError(f"{name}: entry {shown(v)} ({type(v).__name__}) is not a real number")
    if math.isinf(f) and not _is_infinite(v):
        raise ValueError(f"{name}: entry {type(v).__name__} beyond the float64 range "
                         "(≈ 1.8e308); rescale it")
    return f


def _is_infinite(v: Any) -> bool:
    """``v`` is itself ±inf (not a finite number beyond the float range)."""
    if isinstance(v, float) or _numpy_type(v, "floating"):
        return math.isinf(v)
    if isinstance(v, Decimal):
        return v.is_infinite()
    if type(v).__module__.startswith("mpmath"):
        import mpmath

        return bool(mpmath.isinf(v))
    return bool(getattr(v, "is_infinite", False))

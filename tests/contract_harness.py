"""The engine of the input-contract harness (tests/test_contract_harness.py): argument kinds,
the variants of each kind a caller may pass, and the check of one call.

A *spec* names a public callable, the arguments it takes (each with a :class:`Kind` and a valid
baseline value) and how two results compare. For one argument at a time, a *variant* replaces
the baseline by another value of a stated expectation:

* ``SAME``: a value the contract accepts for the same argument (``np.int8(3)`` for ``3``, a
  tuple for a list, a non-contiguous view for an array); the call must give the result of the
  call with the variant's *canonical* value (``3``): the oracle is the function itself on the
  value the contract converts to;
* ``EITHER``: a value the contract converts on some paths and refuses on others (a float32
  array: promoted exactly on float paths, refused where float64 rounding is assumed); the call
  must give the canonical result or a ``TypeError`` / ``ValueError`` naming the argument;
* ``REFUSE``: a value the contract refuses (a bool for an int, a complex number where a real is
  meant, NaN, a string, an integer out of range): a ``TypeError`` / ``ValueError`` whose message
  names the argument (as a word: ``n`` in ``"n must be >= 1"``, ``mats`` in ``"mats[0] ..."``);
* ``ANY``: a value that may be answered or refused (a huge integer, an empty input): either a
  result or a ``TypeError`` / ``ValueError`` naming the argument.

Every call must also return within :data:`CALL_LIMIT_S` seconds (a hang fails), raise no other
exception, emit no ``ComplexWarning`` (an imaginary part dropped), and leave the process's
global state as it found it (torch's default dtype and RNG, numpy's global RNG and error state,
Python's ``random``, mpmath's precision, the warnings filters, the decimal context).
"""
from __future__ import annotations

import contextlib
import dataclasses
import decimal
import math
import random
import re
import signal
import warnings
from decimal import Decimal
from fractions import Fraction
from typing import Any, Callable

import flint
import mpmath
import numpy as np
import sympy
from hypothesis import strategies as st

# third-party modules that add warnings filters when first imported: imported here, so that the
# first call of a spec that imports them does not read as a call changing the filters
import scipy.linalg  # noqa: E402,F401
import scipy.optimize  # noqa: E402,F401
import scipy.stats  # noqa: E402,F401  (imported for its warnings filters)
import numpy.polynomial  # noqa: E402,F401

SAME, EITHER, REFUSE, ANY = "same", "same or refused", "refused", "answered or refused"

#: the longest one call may take (a request the contract cannot finish must be refused at once)
CALL_LIMIT_S = 20.0

HUGE_INTS = (2 ** 31, 2 ** 63, 2 ** 64 + 1, 10 ** 30, 2 ** 200)
_INT_DTYPES = (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64)


@dataclasses.dataclass(frozen=True)
class Variant:
    """One way of passing an argument: ``make(base)`` gives ``(value, canonical)`` (canonical:
    the value the contract converts ``value`` to, for ``SAME`` / ``EITHER``); ``draw(base)`` a
    hypothesis strategy of such pairs (``None``: ``make`` only)."""

    label: str
    expect: str
    make: Callable[[Any], tuple[Any, Any]]
    draw: Callable[[Any], Any] | None = None


def _fixed(value) -> Callable[[Any], tuple[Any, Any]]:
    return lambda base: (value, None)


class Kind:
    """An argument kind: its variants for a baseline value."""

    def variants(self, base: Any) -> list[Variant]:
        raise NotImplementedError


@dataclasses.dataclass(frozen=True)
class Int(Kind):
    """An integer argument in ``[lo, hi]``; ``big``: what a huge integer gets (``ANY``: answered
    within the time limit or refused; ``REFUSE``: refused)."""

    lo: int | None = 1
    hi: int | None = None
    big: str = ANY
    optional: bool = False

    def variants(self, base):
        def numpy_int(b):
            fits = [t for t in _INT_DTYPES if np.iinfo(t).min <= b <= np.iinfo(t).max]
            return st.sampled_from(fits).map(lambda t: (t(b), b))

        out = [Variant("numpy integer", SAME, lambda b: (np.int64(b), b), numpy_int),
               Variant("0-d integer array", SAME, lambda b: (np.array(b), b)),
               Variant("sympy Integer", SAME, lambda b: (sympy.Integer(b), b)),
               Variant("python-flint fmpz", SAME, lambda b: (flint.fmpz(b), b)),
               Variant("bool", REFUSE, _fixed(True), lambda b: st.sampled_from(
                   [(True, None), (False, None), (np.bool_(True), None)])),
               Variant("float", REFUSE, lambda b: (float(b), None), lambda b: st.sampled_from(
                   [(float(b), None), (np.float64(b), None), (np.float32(b), None)])),
               Variant("Fraction", REFUSE, lambda b: (Fraction(b), None)),
               Variant("Decimal", REFUSE, lambda b: (Decimal(b), None)),
               Variant("complex", REFUSE, lambda b: (complex(b), None)),
               Variant("string", REFUSE, lambda b: (str(b), None)),
               Variant("1-d array", REFUSE, lambda b: (np.array([b]), None))]
        if not self.optional:
            out.append(Variant("None", REFUSE, _fixed(None)))
        if self.lo is not None:
            out.append(Variant("below the range", REFUSE, lambda b: (self.lo - 1, None),
                               lambda b: st.integers(-10 ** 30, self.lo - 1).map(lambda v: (v, None))))
        if self.hi is not None:
            out.append(Variant("above the range", REFUSE, lambda b: (self.hi + 1, None),
                               lambda b: st.integers(self.hi + 1, 10 ** 30).map(lambda v: (v, None))))
        else:
            out.append(Variant("huge integer", self.big, lambda b: (2 ** 63, 2 ** 63),
                               lambda b: st.sampled_from(HUGE_INTS).map(lambda v: (v, v))))
            out.append(Variant("huge numpy integer", self.big,
                               lambda b: (np.uint64(2 ** 64 - 1), 2 ** 64 - 1)))
        return out


@dataclasses.dataclass(frozen=True)
class Real(Kind):
    """A real number argument (converted to float64); ``lo`` / ``hi`` bounds with ``above`` /
    ``below`` strict; ``finite``: NaN/inf refused; ``exact_only``: floats refused (an exact
    path), then the canonical value is a ``Fraction``."""

    lo: float | None = None
    hi: float | None = None
    above: bool = False
    finite: bool = True
    optional: bool = False
    below: bool = False

    def variants(self, base):
        def promoted(t):
            return lambda b: (t(b), float(t(b)))

        out = [Variant("numpy float64", SAME, lambda b: (np.float64(b), float(b))),
               Variant("numpy float32", SAME, promoted(np.float32), lambda b: st.sampled_from(
                   [np.float16, np.float32, np.longdouble]).map(lambda t: (t(b), float(t(b))))),
               Variant("Fraction", SAME, lambda b: (Fraction(b), float(Fraction(b)))),
               Variant("Decimal", SAME, lambda b: (Decimal(b), float(Decimal(b)))),
               Variant("mpf", SAME, lambda b: (mpmath.mpf(b), float(mpmath.mpf(b)))),
               Variant("bool", REFUSE, _fixed(True)),
               Variant("complex", REFUSE, lambda b: (complex(b, 1), None), lambda b: st.sampled_from(
                   [(complex(b, 1), None), (np.complex128(b), None), (mpmath.mpc(b, 1), None)])),
               Variant("string", REFUSE, lambda b: (str(b), None)),
               Variant("1-d array", REFUSE, lambda b: (np.array([b, b]), None))]
        if not self.optional:
            out.append(Variant("None", REFUSE, _fixed(None)))
        if self.finite:
            out.append(Variant("NaN or inf", REFUSE, _fixed(math.nan), lambda b: st.sampled_from(
                [(math.nan, None), (math.inf, None), (-math.inf, None), (np.float64("nan"), None),
                 (mpmath.mpf("inf"), None), (Decimal("NaN"), None)])))
        if self.lo is not None:
            low = self.lo if self.above else self.lo - 1
            out.append(Variant("below the range", REFUSE, lambda b: (low, None)))
        if self.hi is not None:
            out.append(Variant("above the range", REFUSE,
                               lambda b: (self.hi if self.below else self.hi * 2 + 1, None)))
        return out


@dataclasses.dataclass(frozen=True)
class Exact(Kind):
    """An exact number argument (an exact path): Fractions, ints, sympy Rationals, fmpq and
    Decimal convert exactly; binary floats are refused."""

    lo: Fraction | None = None
    floats: bool = False

    def variants(self, base):
        q = Fraction(base)
        f = float(q) + 2.0 ** -40
        flt = (SAME, lambda b: (f, Fraction(f))) if self.floats else (REFUSE, lambda b: (f, None))
        return [Variant("int or Fraction", SAME, lambda b: (Fraction(b), Fraction(b))),
                Variant("sympy Rational", SAME, lambda b: (sympy.Rational(q.numerator, q.denominator), q)),
                Variant("python-flint fmpq", SAME, lambda b: (flint.fmpq(q.numerator, q.denominator), q)),
                Variant("Decimal", SAME, lambda b: (Decimal(q.numerator) / Decimal(q.denominator), q)
                        if q.denominator in (1, 2, 4, 5, 8, 10) else (Decimal(q.numerator), Fraction(q.numerator))),
                Variant("float", *flt, lambda b: st.sampled_from(
                    [(f, Fraction(f) if self.floats else None),
                     (np.float64(f), Fraction(f) if self.floats else None),
                     (mpmath.mpf(f), Fraction(f) if self.floats else None)])),
                Variant("bool", REFUSE, _fixed(True)),
                Variant("complex", REFUSE, lambda b: (complex(float(q), 1), None)),
                Variant("string", REFUSE, lambda b: (str(q), None)),
                Variant("NaN", REFUSE, _fixed(Decimal("NaN")))]


@dataclasses.dataclass(frozen=True)
class RealArray(Kind):
    """A real array argument (float64 numerics): ``low``: what float16/32 arrays get (``SAME``:
    promoted exactly; ``EITHER``: promoted or refused; ``REFUSE``); ``empty``: what an array
    with a zero-length axis gets; ``complex_ok``: complex arrays are a documented input;
    ``optional``: ``None`` is a documented value."""

    low: str = EITHER
    empty: str = ANY
    complex_ok: bool = False
    torch_ok: bool = True
    optional: bool = False

    def variants(self, base):
        a = np.asarray(base, dtype=np.float64)

        def low_dtype(b):
            return st.sampled_from([np.float16, np.float32]).map(
                lambda t: (np.asarray(b, dtype=np.float64).astype(t),
                           np.asarray(b, dtype=np.float64).astype(t).astype(np.float64)))

        def noncontig(b):
            x = np.asarray(b, dtype=np.float64)
            big = np.zeros(x.shape + (2,))
            big[..., 0] = x
            return big[..., 0], x

        out = [Variant("nested lists", SAME, lambda b: (np.asarray(b, dtype=np.float64).tolist(),
                                                        np.asarray(b, dtype=np.float64))),
               Variant("non-contiguous view", SAME, noncontig),
               Variant("Fraction entries", SAME, lambda b: (
                   np.vectorize(Fraction, otypes=[object])(np.asarray(b, dtype=np.float64)),
                   np.asarray(b, dtype=np.float64))),
               Variant("float32 / float16 array", self.low,
                       lambda b: (a.astype(np.float32), a.astype(np.float32).astype(np.float64)),
                       low_dtype),
               Variant("NaN / inf entry", REFUSE, lambda b: (_poisoned(a, math.nan), None),
                       lambda b: st.sampled_from([math.nan, math.inf, -math.inf]).map(
                           lambda v: (_poisoned(a, v), None))),
               Variant("bool array", REFUSE, lambda b: (a != 0, None)),
               Variant("string", REFUSE, _fixed("array"))]
        if not self.optional:
            out.append(Variant("None", REFUSE, _fixed(None)))
        if not self.complex_ok:
            out.append(Variant("complex array", REFUSE, lambda b: (a + 1j, None)))
        if a.ndim >= 1:
            out.append(Variant("zero-length", self.empty, lambda b: (np.zeros((0,) + a.shape[1:]), None)))
        if self.torch_ok:
            out.append(Variant("torch float64 tensor", EITHER, lambda b: (_tensor(a), a)))
        return out


def _decimal(x) -> Decimal:
    """An exact rational with a terminating decimal expansion as that ``Decimal``."""
    q = Fraction(x)
    with decimal.localcontext() as ctx:
        ctx.prec = 100
        d = Decimal(q.numerator) / Decimal(q.denominator)
    assert Fraction(d) == q, f"{q} has no terminating decimal"
    return d


def _poisoned(a: np.ndarray, v: float) -> np.ndarray:
    out = np.array(a, dtype=np.float64, copy=True)
    out.flat[0] = v
    return out


def _tensor(a):
    import torch

    return torch.tensor(np.asarray(a))


@dataclasses.dataclass(frozen=True)
class Matrices(Kind):
    """A sequence of square matrices (Lie algebras, series evaluation): exact entries stay exact;
    ``low``: what float16/32 arrays get; ``exact``: the baseline is exact (ints), so floats are
    another path (not compared)."""

    low: str = REFUSE
    complex_ok: bool = False
    forms: str = SAME

    def variants(self, base):
        ms = [np.asarray(m) for m in base]
        exact = all(m.dtype.kind in "iu" for m in ms)

        def as_float(m):
            return np.asarray(m, dtype=np.float64)

        low_tensor = REFUSE if self.low == REFUSE else EITHER
        out = [Variant("tuples", self.forms, lambda b: (tuple(tuple(map(tuple, m.tolist())) for m in ms), base)),
               Variant("numpy int dtypes", SAME, lambda b: ([m.astype(np.int16) for m in ms], base),
                       lambda b: st.sampled_from([np.int8, np.int16, np.int32, np.int64]).map(
                           lambda t: ([m.astype(t) for m in ms], base)))
               if exact else
               Variant("float lists", self.forms, lambda b: ([m.tolist() for m in ms], base)),
               Variant("one 3-D array", SAME, lambda b: (np.stack(ms), base)),
               Variant("non-contiguous", SAME, lambda b: ([np.asfortranarray(m)[:, :] for m in ms], base)),
               Variant("float32 / float16", self.low, lambda b: ([as_float(m).astype(np.float32) for m in ms],
                                                                 [as_float(m).astype(np.float32).astype(np.float64) for m in ms])),
               Variant("torch bfloat16", low_tensor, lambda b: ([_tensor(as_float(m)).bfloat16() for m in ms],
                                                               [_tensor(as_float(m)).bfloat16().double().numpy() for m in ms])),
               Variant("NaN entry", REFUSE, lambda b: ([_poisoned(ms[0], math.nan)] + ms[1:], None)),
               Variant("bool entries", REFUSE, lambda b: ([m != 0 for m in ms], None)),
               Variant("string entries", REFUSE, lambda b: ([m.astype(str) for m in ms], None)),
               Variant("empty sequence", REFUSE, _fixed([])),
               Variant("not square", REFUSE, lambda b: ([m[:-1] for m in ms], None)),
               Variant("None", REFUSE, _fixed(None))]
        if exact:
            out.append(Variant("object Fractions", SAME, lambda b: (
                [np.vectorize(Fraction, otypes=[object])(m) for m in ms], base)))
        if not self.complex_ok:
            out.append(Variant("complex entries", REFUSE, lambda b: ([m + 1j for m in ms], None)))
        return out


@dataclasses.dataclass(frozen=True)
class ExactMatrix(Kind):
    """One matrix of exact entries (an exact path): ints, Fractions, sympy numbers, Decimal
    convert exactly; floats (and float arrays) are refused."""

    def variants(self, base):
        rows = [list(r) for r in base]
        return [Variant("Fractions", SAME, lambda b: ([[Fraction(x) for x in r] for r in rows], rows)),
                Variant("sympy Matrix", SAME, lambda b: (sympy.Matrix(rows), rows)),
                Variant("numpy int array", SAME, lambda b: (np.array(rows, dtype=np.int32), rows))
                if all(Fraction(x).denominator == 1 for r in rows for x in r) else
                Variant("numpy object array", SAME, lambda b: (np.array(rows, dtype=object), rows)),
                Variant("Decimal entries", SAME, lambda b: ([[_decimal(x) for x in r] for r in rows], rows)),
                Variant("float entries", REFUSE, lambda b: (np.array(rows, dtype=np.float64), None)),
                Variant("float16 array", REFUSE, lambda b: (np.array(rows, dtype=np.float16), None)),
                Variant("mpf entries", REFUSE, lambda b: ([[mpmath.mpf(float(x)) for x in r] for r in rows], None)),
                Variant("complex entries", REFUSE, lambda b: ([[complex(x) for x in r] for r in rows], None)),
                Variant("wrong shape", REFUSE, lambda b: ([r[:-1] for r in rows], None)),
                Variant("None", REFUSE, _fixed(None))]


@dataclasses.dataclass(frozen=True)
class Word(Kind):
    """A word: a sequence of letter indices in ``0..n-1`` (``n``: the number of letters)."""

    n: int
    empty: str = ANY
    batch: bool = False

    def variants(self, base):
        w = list(base)
        return [Variant("tuple", SAME, lambda b: (tuple(w), w)),
                Variant("numpy array", SAME, lambda b: (np.array(w, dtype=np.int64), w),
                        lambda b: st.sampled_from([np.int8, np.int32, np.int64, np.uint8]).map(
                            lambda t: (np.array(w, dtype=t), w))),
                Variant("numpy integers in a list", SAME, lambda b: ([np.int32(x) for x in w], w)),
                Variant("letter out of range", REFUSE, lambda b: (w[:-1] + [self.n], None),
                        lambda b: st.sampled_from([self.n, -1, 2 ** 63, 10 ** 30]).map(
                            lambda v: (w[:-1] + [v], None))),
                Variant("float letters", REFUSE, lambda b: ([float(x) for x in w], None)),
                Variant("bool letters", REFUSE, lambda b: ([True] * len(w), None)),
                Variant("string", REFUSE, _fixed("0101")),
                Variant("2-D array", ANY if self.batch else REFUSE, lambda b: (np.array([w, w]), None)),
                Variant("empty", self.empty, _fixed([])),
                Variant("None", REFUSE, _fixed(None))]


@dataclasses.dataclass(frozen=True)
class TokenTensor(Kind):
    """A ``(B, T)`` tensor of token ids in ``0..vocab-1`` (a model's input; the baseline is an
    int64 tensor)."""

    vocab: int

    def variants(self, base):
        import torch

        t = torch.as_tensor(base, dtype=torch.long)

        def strided(b):
            wide = torch.zeros(t.shape[0], 2 * t.shape[1], dtype=torch.long)
            wide[:, ::2] = t
            return wide[:, ::2], t

        return [Variant("int32 tensor", SAME, lambda b: (t.int(), t)),
                Variant("non-contiguous view", SAME, strided),
                Variant("numpy array", EITHER, lambda b: (t.numpy(), t)),
                Variant("nested lists", EITHER, lambda b: (t.tolist(), t)),
                Variant("float tensor", REFUSE, lambda b: (t.float(), None)),
                Variant("bool tensor", REFUSE, lambda b: (t > 0, None)),
                Variant("token out of range", REFUSE, lambda b: (torch.full_like(t, self.vocab), None),
                        lambda b: st.sampled_from([self.vocab, -1, 2 ** 40]).map(
                            lambda v: (torch.full_like(t, v), None))),
                Variant("1-D tensor", REFUSE, lambda b: (t[0], None)),
                Variant("batch 0", ANY, lambda b: (t[:0], None)),
                Variant("string", REFUSE, _fixed("0121")),
                Variant("None", REFUSE, _fixed(None))]


@dataclasses.dataclass(frozen=True)
class Choice(Kind):
    """A string option among ``options``."""

    options: tuple

    def variants(self, base):
        return [Variant("unknown option", REFUSE, _fixed("no-such-option")),
                Variant("wrong type", REFUSE, _fixed(3)),
                Variant("None", REFUSE, _fixed(None))] + \
               [Variant(f"option {o!r}", ANY, _fixed(o)) for o in self.options if o != base][:2]


@dataclasses.dataclass(frozen=True)
class Flag(Kind):
    """A bool flag: another type is refused (``1`` or ``"False"`` must not stand for a flag)."""

    def variants(self, base):
        return [Variant("numpy bool", SAME, lambda b: (np.bool_(b), b)),
                Variant("int", REFUSE, lambda b: (int(b), None)),
                Variant("string", REFUSE, lambda b: (str(b), None))]


@dataclasses.dataclass(frozen=True)
class Obj(Kind):
    """An object argument of a stated type (a group, a model, a specification): a value of
    another type is refused, never an ``AttributeError`` deep inside."""

    what: str = "object"
    optional: bool = False

    def variants(self, base):
        out = [Variant("an int", REFUSE, _fixed(3)), Variant("a string", REFUSE, _fixed("x"))]
        if not self.optional:
            out.append(Variant("None", REFUSE, _fixed(None)))
        return out


@dataclasses.dataclass(frozen=True)
class Text(Kind):
    """A string argument (a name, an alphabet, a word): another type is refused."""

    def variants(self, base):
        return [Variant("an int", REFUSE, _fixed(3)), Variant("bytes", REFUSE, lambda b: (str(b).encode(), None)),
                Variant("None", REFUSE, _fixed(None))]


# ------------------------------------------------------------------------------------------------
# specs
# ------------------------------------------------------------------------------------------------
@dataclasses.dataclass
class Spec:
    """How to call a public name: ``call(**args)`` with ``args`` = ``{name: (Kind, baseline)}``;
    ``same(a, b)`` compares two results; ``oracle(args, result)`` asserts the baseline result
    is right (a reference value, an exact path, sympy); ``label`` names the call."""

    label: str
    call: Callable[..., Any]
    args: dict[str, tuple[Kind, Any]]
    oracle: Callable[[dict, Any], None] | None = None
    same: Callable[[Any, Any], bool] | None = None
    heavy: bool = False
    xfail: str | None = None


def same(a: Any, b: Any) -> bool:
    """Structural equality of two results (NaN equals NaN; arrays, tensors, mpmath matrices,
    dataclasses and objects compared by value)."""
    if a is b:
        return True
    if type(a) is not type(b) and not (isinstance(a, (int, float, Fraction)) and isinstance(b, (int, float, Fraction))):
        if not (isinstance(a, np.ndarray) or isinstance(b, np.ndarray)):
            return False
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        a, b = np.asarray(a), np.asarray(b)
        if a.shape != b.shape:
            return False
        if a.dtype == object or b.dtype == object:
            return all(same(x, y) for x, y in zip(a.flat, b.flat))
        return bool(np.array_equal(a, b, equal_nan=a.dtype.kind in "fc"))
    mod = type(a).__module__.split(".")[0]
    if mod == "torch":
        import torch

        return a.shape == b.shape and a.dtype == b.dtype and bool(torch.equal(a, b))
    if isinstance(a, float):
        return a == b or (math.isnan(a) and math.isnan(b))
    if isinstance(a, mpmath.matrix):
        return a.rows == b.rows and a.cols == b.cols and all(same(a[i, j], b[i, j])
                                                             for i in range(a.rows) for j in range(a.cols))
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b)) and \
            same(getattr(a, "__dict__", None), getattr(b, "__dict__", None))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if hasattr(a, "cayley_table") and hasattr(a, "elements"):        # FiniteGroup
        return list(a.elements) == list(b.elements) and same(a.cayley_table(), b.cayley_table())
    if dataclasses.is_dataclass(a):
        return all(same(getattr(a, f.name), getattr(b, f.name)) for f in dataclasses.fields(a))
    if type(a).__eq__ is not object.__eq__:
        return bool(a == b)
    if hasattr(a, "__dict__"):
        return same({k: v for k, v in vars(a).items() if not k.startswith("_")},
                    {k: v for k, v in vars(b).items() if not k.startswith("_")})
    return a == b


# ------------------------------------------------------------------------------------------------
# one call
# ------------------------------------------------------------------------------------------------
class Hang(BaseException):
    """A call ran past :data:`CALL_LIMIT_S` (a BaseException, so no ``except Exception`` in the
    code under test swallows it)."""


@contextlib.contextmanager
def time_limit(seconds: float):
    """Raise :class:`Hang` in the main thread after ``seconds`` (SIGALRM)."""
    def on_alarm(signum, frame):
        raise Hang(f"no answer within {seconds:g} s")

    old = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def global_state() -> dict[str, Any]:
    """The process-wide state a call must leave unchanged."""
    import sys

    state = {"numpy RNG": _np_rng_state(), "numpy error state": np.geterr(),
             "random": random.getstate(), "mpmath precision": (mpmath.mp.prec, mpmath.mp.pretty),
             "warnings filters": list(warnings.filters), "decimal context": _decimal_state()}
    torch = sys.modules.get("torch")
    if torch is not None:
        state["torch default dtype"] = torch.get_default_dtype()
        state["torch RNG"] = bytes(torch.get_rng_state().numpy())
    return state


def _np_rng_state():
    s = np.random.get_state()
    return (s[0], s[1].tobytes(), *s[2:])


def _decimal_state():
    c = decimal.getcontext()
    return (c.prec, c.rounding, c.Emin, c.Emax, c.capitals, c.clamp, tuple(sorted(
        (k.__name__, v) for k, v in c.traps.items())))


def names_argument(message: str, names: tuple[str, ...]) -> bool:
    """``message`` names one of ``names`` as a word (``n`` in ``"n must be >= 1"``, ``mats`` in
    ``"mats[0] holds ..."``, ``busy_timeout_s`` in ``"busy_timeout_s must be ..."``)."""
    return any(re.search(rf"(?<![A-Za-z0-9_]){re.escape(n)}(?![A-Za-z0-9_])", message) for n in names)


@dataclasses.dataclass
class Outcome:
    """What one call did: ``result`` or ``error``; the state keys it changed; the warnings it
    emitted."""

    result: Any = None
    error: BaseException | None = None
    changed: tuple[str, ...] = ()
    warned: tuple[str, ...] = ()


def run_call(fn: Callable[[], Any], limit_s: float = CALL_LIMIT_S) -> Outcome:
    """Call ``fn()`` under the time limit, recording its result or error, the global state it
    changed (restored afterwards, so that one faulty call does not spoil the next), and the
    ComplexWarnings it emitted."""
    before = global_state()
    out = Outcome()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", np.exceptions.ComplexWarning)
        inner_before = list(warnings.filters)
        try:
            with time_limit(limit_s):
                out.result = fn()
        except Hang as exc:
            out.error = exc
        except Exception as exc:           # noqa: BLE001 - classified by the caller
            out.error = exc
        inner_after = list(warnings.filters)
    after = global_state()
    after["warnings filters"] = before["warnings filters"] if inner_after == inner_before \
        else ["changed inside the call"]
    out.changed = tuple(k for k in before if not _state_equal(before[k], after.get(k)))
    out.warned = tuple(str(w.message) for w in caught
                       if issubclass(w.category, np.exceptions.ComplexWarning))
    _restore(before)
    return out


def _state_equal(a, b) -> bool:
    if isinstance(a, dict):
        return a == b
    return same(a, b) if not isinstance(a, (list, tuple)) else repr(a) == repr(b)


def _restore(state: dict[str, Any]) -> None:
    import sys

    np.random.set_state((state["numpy RNG"][0], np.frombuffer(state["numpy RNG"][1], dtype=np.uint32),
                         *state["numpy RNG"][2:]))
    np.seterr(**state["numpy error state"])
    random.setstate(state["random"])
    mpmath.mp.prec, mpmath.mp.pretty = state["mpmath precision"]
    torch = sys.modules.get("torch")
    if torch is not None and "torch default dtype" in state:
        torch.set_default_dtype(state["torch default dtype"])
        torch.set_rng_state(torch.tensor(np.frombuffer(state["torch RNG"], dtype=np.uint8)))


def judge(outcome: Outcome, expect: str, arg: tuple[str, ...], canonical: Outcome | None,
          compare: Callable[[Any, Any], bool]) -> str | None:
    """``None`` when ``outcome`` meets ``expect`` for the argument names ``arg``, else what went
    wrong. ``canonical``: the outcome of the call with the canonical value (``SAME`` /
    ``EITHER``)."""
    if outcome.changed:
        return f"changed global state: {', '.join(outcome.changed)}"
    if outcome.warned:
        return f"ComplexWarning (an imaginary part dropped): {outcome.warned[0]}"
    err = outcome.error
    if isinstance(err, Hang):
        return f"hang: {err}"
    if err is not None and not isinstance(err, (TypeError, ValueError)):
        return f"{type(err).__name__} (not a TypeError/ValueError): {err}"
    if err is not None:
        canonical_refused = canonical is not None and isinstance(canonical.error, (TypeError, ValueError))
        if expect == SAME and not canonical_refused:    # (np.float16(1e-9) is 0.0: both refused)
            return f"refused a value the contract accepts: {type(err).__name__}: {err}"
        if not names_argument(str(err), arg):
            return f"{type(err).__name__} does not name {' / '.join(arg)}: {err}"
        return None
    if expect == REFUSE:
        return f"accepted a value the contract refuses (result {_short(outcome.result)})"
    if expect in (SAME, EITHER):
        assert canonical is not None
        if canonical.error is not None:
            return f"the canonical call failed: {type(canonical.error).__name__}: {canonical.error}"
        if not compare(outcome.result, canonical.result):
            return (f"a different answer than for the canonical value: {_short(outcome.result)} "
                    f"vs {_short(canonical.result)}")
    return None


def _short(x: Any) -> str:
    text = repr(x)
    return text if len(text) <= 200 else text[:200] + "..."

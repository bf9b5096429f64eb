"""No public function takes a numeric argument past the contract (issue 33 §2): an AST scan of
every public callable of ``seqtheory.theory``, ``.numerics``, ``.models`` and ``.proofs_checks``
(their ``__all__``; for a class, its constructor / ``__post_init__`` and public methods) finds
each parameter annotated as a number (``int``, ``float``, ``Real``, ``Fraction``, or defaulting
to an int / float) and requires that the function hands it to a contract helper
(:mod:`seqtheory.theory.contract`, or a reader built on it), directly, through a loop over
``(name, value)`` pairs, or through a package function that does so for the matching parameter
(followed three calls deep). A parameter that does not is a bypass; the few that are meant are
in :data:`ALLOWED`, each with its reason, and an entry that no longer bypasses fails too (the
list stays true).
"""
from __future__ import annotations

import ast
import dataclasses
import importlib
import inspect
import re
import textwrap

import pytest

PACKAGES = ("seqtheory.theory", "seqtheory.numerics", "seqtheory.models", "seqtheory.proofs_checks")
CONTRACT_MODULE = "seqtheory.theory.contract"

#: readers that check a kind through the contract without the value appearing as their own
#: parameter (a dataclass field named by a string, a value read from an attribute)
READERS = {"check_int_fields", "check_real_field", "check_bool_fields", "working_dps",
           "check_tol", "matrix_rows", "as_array", "as_rows", "as_2d", "as_mp_matrices", "to_mpf",
           "check_word", "check_series_size", "check_word_count", "check_tensor_size",
           "check_lease_times", "_check_params", "_check_nc", "_check_dps", "_check_axis",
           "_radius", "_eta", "_check_lr", "_check_length", "_check_t", "check_profile",
           "_check_start"}

_NUMERIC = re.compile(r"\b(int|float|Real|Fraction|Rational|Number)\b")

#: (callable, parameter) pairs that take a number without the contract, and why
_RESULT_RECORD = ("a result record the package builds from values it has already checked (its "
                  "fields are answers, not inputs: the function that returns it takes the inputs "
                  "through the contract)")
ALLOWED = {
    ("seqtheory.models.inspector.Inspection", "*"): _RESULT_RECORD + ": inspect()",
    ("seqtheory.numerics.fits.SlopeFit", "*"): _RESULT_RECORD + ": fit_loglog_slope()",
    ("seqtheory.theory.representations.RepresentationAudit", "*"): _RESULT_RECORD + ": audit_representation()",
    ("seqtheory.numerics.group_cascades.GroupCascade", "*"): _RESULT_RECORD + ": build_cascade(), which "
                                                           "validates the table and the series",
    ("seqtheory.theory.lie_chevalley.ChevalleyAlgebra", "*"): _RESULT_RECORD + ": simple_lie_algebra(), "
                                                            "which checks kind and rank",
    ("seqtheory.theory.lie_ideals.QuotientAlgebra", "*"): _RESULT_RECORD + ": quotient() (its methods "
                                                        "project / lift read their elements through "
                                                        "the algebra's field)",
}


def _public_callables():
    """``{qualified name: callable}`` of the public functions, constructors and methods."""
    out = {}
    for p in PACKAGES:
        pkg = importlib.import_module(p)
        for name in pkg.__all__:
            obj = getattr(pkg, name)
            if inspect.isclass(obj):
                qual = f"{obj.__module__}.{obj.__qualname__}"
                for meth in ("__init__", "__post_init__"):
                    f = vars(obj).get(meth)
                    generated = dataclasses.is_dataclass(obj) and meth == "__init__"
                    if inspect.isfunction(f) and not generated:     # a dataclass checks in __post_init__
                        out[f"{qual}.{meth}"] = f
                if dataclasses.is_dataclass(obj) and "__post_init__" not in vars(obj):
                    out[f"{qual}.__post_init__"] = _no_post_init(obj)
                for m, v in vars(obj).items():
                    f = v.__func__ if isinstance(v, (classmethod, staticmethod)) else v
                    if not m.startswith("_") and inspect.isfunction(f):
                        out[f"{qual}.{m}"] = f
            elif inspect.isfunction(obj):
                out[f"{obj.__module__}.{obj.__qualname__}"] = obj
    return out


def _no_post_init(cls):
    """A stand-in ``__post_init__`` (checks nothing) for a dataclass that has none, so that its
    numeric fields are found unchecked."""
    def __post_init__(self):
        return None

    __post_init__.__qualname__ = f"{cls.__qualname__}.__post_init__"
    __post_init__.__module__ = cls.__module__
    __post_init__._dataclass = cls
    return __post_init__


def _numeric_params(fn) -> list[str]:
    """Parameters annotated as numbers or defaulting to an int / float (not a bool); for a
    dataclass ``__post_init__``, its numeric fields."""
    sig = inspect.signature(fn)
    out = [p.name for p in sig.parameters.values()
           if p.name not in ("self", "cls") and not p.name.startswith("_")   # private: the package's own
           and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
           and ((isinstance(p.annotation, str) and _NUMERIC.search(p.annotation))
                or (type(p.default) in (int, float)))]
    if fn.__name__ == "__post_init__":
        cls = getattr(fn, "_dataclass", None) or fn.__globals__.get(fn.__qualname__.split(".")[0])
        if cls is not None and dataclasses.is_dataclass(cls):
            out += [f.name for f in dataclasses.fields(cls)
                    if (isinstance(f.type, str) and _NUMERIC.search(f.type) and "Callable" not in f.type)
                    or type(f.default) in (int, float)]
    return out


def _tree(fn):
    try:
        src = textwrap.dedent(inspect.getsource(fn))
    except (OSError, TypeError):
        return None
    return ast.parse(src).body[0]


def _call_name(call: ast.Call) -> str | None:
    f = call.func
    return f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None


def _mentions(node, param: str) -> bool:
    """``param`` appears in ``node`` as a name, as ``self.param``, or as the string ``"param"``."""
    for n in ast.walk(node):
        if isinstance(n, ast.Name) and n.id == param:
            return True
        if isinstance(n, ast.Attribute) and n.attr == param and isinstance(n.value, ast.Name) \
                and n.value.id == "self":
            return True
        if isinstance(n, ast.Constant) and n.value == param:
            return True
    return False


def _resolve(fn, name: str):
    """The object ``name`` stands for in ``fn``'s module (or its class), else None."""
    obj = fn.__globals__.get(name)
    if obj is None:
        cls = fn.__globals__.get(fn.__qualname__.split(".")[0])
        obj = getattr(cls, name, None) if inspect.isclass(cls) else None
    return obj


def _is_contract(fn, name: str) -> bool:
    obj = _resolve(fn, name)
    return name in READERS or getattr(obj, "__module__", "") == CONTRACT_MODULE


def _checks(fn, param: str, depth: int = 3) -> bool:
    """Whether ``fn`` hands ``param`` to the contract (see the module docstring)."""
    tree = _tree(fn)
    if tree is None:
        return False
    loops = [n for n in ast.walk(tree) if isinstance(n, (ast.For, ast.comprehension))]
    for call in (n for n in ast.walk(tree) if isinstance(n, ast.Call)):
        name = _call_name(call)
        if name is None:
            continue
        if _is_contract(fn, name):
            if any(_mentions(a, param) for a in list(call.args) + [k.value for k in call.keywords]):
                return True
            # check_int(name, v) inside ``for name, v in (("n", n), ...)``
            if any(_mentions(loop.iter, param) and any(c is call for c in ast.walk(loop))
                   for loop in loops if hasattr(loop, "iter")):
                return True
            for comp in (n for n in ast.walk(tree) if isinstance(n, (ast.GeneratorExp, ast.ListComp))):
                if any(c is call for c in ast.walk(comp.elt)) and any(
                        _mentions(g.iter, param) for g in comp.generators):
                    return True
        elif depth > 0:
            target = _resolve(fn, name)
            target = getattr(target, "__init__", target) if inspect.isclass(target) else target
            if not (inspect.isfunction(target) and target.__module__.startswith("seqtheory")):
                continue
            params = [p for p in inspect.signature(target).parameters if p not in ("self", "cls")]
            for i, a in enumerate(call.args):
                if isinstance(a, ast.Name) and a.id == param and i < len(params) \
                        and _checks(target, params[i], depth - 1):
                    return True
            for k in call.keywords:
                if isinstance(k.value, ast.Name) and k.value.id == param and k.arg \
                        and _checks(target, k.arg, depth - 1):
                    return True
    return False


def _bypasses() -> set[tuple[str, str]]:
    out = set()
    for qual, fn in _public_callables().items():
        owner = qual.rsplit(".", 1)[0] if qual.endswith(("__init__", "__post_init__")) else qual
        if (owner, "*") in ALLOWED:
            out.add((owner, "*"))
            continue
        for p in _numeric_params(fn):
            if not _checks(fn, p):
                out.add((owner, p))
    return out


def test_no_public_function_bypasses_the_contract():
    found = _bypasses()
    new = sorted(found - ALLOWED.keys())
    stale = sorted(ALLOWED.keys() - found)
    assert not new, ("public functions taking a number past the contract (hand it to a "
                     f"seqtheory.theory.contract helper, or add a justified ALLOWED entry): {new}")
    assert not stale, f"ALLOWED entries that no longer bypass the contract (remove them): {stale}"


def test_the_scan_finds_a_bypass():
    """The scan is not vacuous: a function that computes with an unchecked int is found, the same
    function with ``check_int`` is not, nor one that delegates to it."""
    import linecache

    src = textwrap.dedent('''
        from seqtheory.theory.contract import check_int
        def bad(n: int):
            return n * 2
        def good(n: int):
            n = check_int("n", n)
            return n * 2
        def delegates(m: int = 3):
            return good(m)
        def looped(a: int, b: float):
            for name, v in (("a", a), ("b", b)):
                check_int(name, v)
    ''')
    path = "<contract-bypass-fixture>"
    linecache.cache[path] = (len(src), None, src.splitlines(True), path)
    code = compile(src, path, "exec")
    ns2: dict = {"__name__": "seqtheory.test_fixture"}
    exec(code, ns2)
    assert _numeric_params(ns2["bad"]) == ["n"]
    assert not _checks(ns2["bad"], "n")
    assert _checks(ns2["good"], "n")
    assert _checks(ns2["delegates"], "m")
    assert _checks(ns2["looped"], "a") and _checks(ns2["looped"], "b")


@pytest.mark.parametrize("qual", ["seqtheory.theory.free_lie.witt_dimension",
                                  "seqtheory.numerics.separation.least_separating_class"])
def test_known_checked_functions_pass(qual):
    mod, name = qual.rsplit(".", 1)
    fn = getattr(importlib.import_module(mod), name)
    assert all(_checks(fn, p) for p in _numeric_params(fn)), _numeric_params(fn)

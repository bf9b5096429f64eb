"""Advice a user can follow: an error message that says "pass X" names an argument the function
raising it takes (or an option of the command), and says what to do (issue 19:
``FiniteGroup.named("S8")`` advised ``max_order``, which ``named`` does not take;
``from_matrices`` of a matrix of infinite order advised a larger ``max_order``, which no value
satisfies, and called its ``mats`` "gens")."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from seqtheory.theory.groups import FiniteGroup

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("theory", "numerics", "models", "proofs_checks")
ADVICE = re.compile(r"\bpass (?:a (?:larger|smaller) )?(--[a-z][a-z-]*|[a-z_][a-z_0-9]*)=?")
#: advice given on behalf of a caller, with the reason it names a real argument there
ON_BEHALF = {("theory/free_lie.py", "alphabet"):
             "given only when the caller takes alphabet= (takes_alphabet=True)"}
#: "pass ints / Fractions": advice on the kind of value, not an argument name
VALUE_KINDS = {"ints", "floats", "fractions", "strings", "numbers"}


def _strings(node: ast.AST):
    """The string constants of ``node`` that are not docstrings (message text)."""
    docs = {id(s.value) for s in ast.walk(node)
            if isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant)}
    for sub in ast.walk(node):
        if isinstance(sub, ast.Constant) and isinstance(sub.value, str) and id(sub) not in docs:
            yield sub.value


def _advice_sites():
    """``(file, function, its parameters, argument advised)`` for every "pass X" in a string
    inside a function of the package."""
    for pkg in PACKAGES:
        for path in sorted((ROOT / pkg).rglob("*.py")):
            tree = ast.parse(path.read_text())
            for fn in ast.walk(tree):
                if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    continue
                a = fn.args
                params = {p.arg for p in a.posonlyargs + a.args + a.kwonlyargs}
                for text in _strings(fn):
                    for m in ADVICE.finditer(text):
                        yield str(path.relative_to(ROOT)), fn.name, params, m.group(1)


def _cli_options() -> set[str]:
    from seqtheory.proofs_checks.cli import build_parser

    parser, options = build_parser(), set()
    stack = [parser]
    while stack:
        p = stack.pop()
        for act in p._actions:
            options.update(o for o in act.option_strings if o.startswith("--"))
            if getattr(act, "choices", None) and isinstance(act.choices, dict):
                stack.extend(c for c in act.choices.values() if hasattr(c, "_actions"))
    return options


def test_every_pass_advice_names_a_real_argument():
    sites = list(_advice_sites())
    assert len(sites) >= 5                      # the scan sees the messages (not vacuous)
    options = _cli_options()
    bad = []
    for file, fn, params, arg in sites:
        if arg.startswith("--"):
            ok = arg in options
        else:
            ok = arg in params or (file, arg) in ON_BEHALF or arg in VALUE_KINDS
        if not ok:
            bad.append(f"{file}:{fn} advises {arg!r}")
    assert not bad, bad


def test_the_scan_would_catch_advice_naming_a_missing_argument():
    src = 'def named(name):\n    raise ValueError("too large; pass a larger max_order")\n'
    fn = ast.parse(src).body[0]
    (text,) = [t for t in _strings(fn) if "pass" in t]
    assert ADVICE.search(text).group(1) == "max_order" and "max_order" not in {
        p.arg for p in fn.args.args}


def test_a_matrix_of_infinite_order_is_advised_to_take_a_modulus():
    with pytest.raises(ValueError) as info:
        FiniteGroup.from_matrices([[[1, 1], [0, 1]]], max_order=50)
    msg = str(info.value)
    assert msg.startswith("mats generate a group of order > max_order=50")
    assert "pass modulus=p" in msg and "no max_order holds" in msg
    # the advice works: modulo 7 the same matrix generates C7
    assert FiniteGroup.from_matrices([[[1, 1], [0, 1]]], modulus=7).order == 7


def test_a_finite_matrix_group_above_max_order_is_advised_a_larger_max_order():
    with pytest.raises(ValueError) as info:
        FiniteGroup.from_matrices([[[1, 1], [0, 1]], [[0, 1], [1, 0]]], modulus=7, max_order=20)
    msg = str(info.value)
    assert "pass a larger max_order" in msg and "7^4" in msg
    g = FiniteGroup.from_matrices([[[1, 1], [0, 1]], [[0, 1], [1, 0]]], modulus=7,
                                  max_order=7 ** 4)
    assert g.order <= 7 ** 4


def test_a_permutation_group_above_max_order_is_advised_a_larger_max_order():
    with pytest.raises(ValueError, match=r"^gens generate .*at most 6! elements\): pass a "
                                         r"larger max_order"):
        FiniteGroup.from_permutations([(1, 2, 3, 4, 5, 0), (1, 0, 2, 3, 4, 5)], max_order=100)
    assert FiniteGroup.from_permutations([(1, 2, 3, 4, 5, 0), (1, 0, 2, 3, 4, 5)],
                                         max_order=720).order == 720

"""The import structure of seqtheory.theory, read from the source with ``ast``: no import cycle
between its modules (an import inside a function counts; one under ``if TYPE_CHECKING:`` does
not, as it never runs), and no module imports another module's underscored names (a module whose
own name starts with ``_``, such as ``_arrays``, is a package-private helper: its public names
are the shared API)."""
from __future__ import annotations

import ast
from pathlib import Path

import seqtheory.theory

THEORY = Path(seqtheory.theory.__file__).parent


def _runtime_imports(tree: ast.AST):
    """The ``ImportFrom`` nodes of ``tree`` outside ``if TYPE_CHECKING:`` blocks."""
    def walk(node):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                yield from (n for c in child.orelse for n in walk_node(c))
                continue
            yield from walk_node(child)

    def walk_node(node):
        if isinstance(node, ast.ImportFrom):
            yield node
        yield from walk(node)

    return walk(tree)


def _imports() -> dict[str, list[tuple[str, list[str]]]]:
    """``{module: [(imported theory module, names), ...]}`` for every module of theory/."""
    out = {}
    for path in sorted(THEORY.glob("*.py")):
        edges = []
        for node in _runtime_imports(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names]
            if node.level == 1 and node.module:
                edges.append((node.module.split(".")[0], names))
            elif node.level == 1:                                  # from . import lie
                edges += [(n, []) for n in names]
            elif node.module and node.module.startswith("seqtheory.theory."):
                edges.append((node.module.split(".")[2], names))
        out[path.stem] = edges
    return out


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle of ``graph`` (as a path that returns to its start), or None."""
    state: dict[str, int] = {}                    # 1: on the current path, 2: done
    path: list[str] = []

    def visit(m: str) -> list[str] | None:
        state[m] = 1
        path.append(m)
        for d in sorted(graph.get(m, ())):
            if state.get(d) == 1:
                return path[path.index(d):] + [d]
            if d not in state and (found := visit(d)):
                return found
        path.pop()
        state[m] = 2
        return None

    for m in sorted(graph):
        if m not in state and (found := visit(m)):
            return found
    return None


def test_the_parser_sees_the_imports():
    imports = _imports()
    assert ("words", ["check_alphabet", "decode", "encode", "is_lyndon_encoded", "lyndon_count",
                      "lyndon_words_encoded", "standard_factorization_encoded"]) in imports["lie_poly"]
    assert "group_iso" in {m for m, _ in imports["groups"]}
    assert "groups" not in {m for m, _ in imports["group_iso"]}      # its TYPE_CHECKING import
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None


def test_theory_has_no_import_cycle():
    graph = {m: {d for d, _ in edges if d != "__init__"} for m, edges in _imports().items()}
    assert _cycle(graph) is None, f"import cycle in seqtheory.theory: {' -> '.join(_cycle(graph))}"


def test_no_theory_module_imports_another_modules_underscored_names():
    reaching = [f"{m} imports {n} from {d}" for m, edges in _imports().items()
                for d, names in edges for n in names
                if n.startswith("_") and not d.startswith("_")]
    assert reaching == []

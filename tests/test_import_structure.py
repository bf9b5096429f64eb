"""The import structure of seqtheory's four packages, read from the source with ``ast``: no
import circle between the modules of a package (an import inside a function counts; one under
``if TYPE_CHECKING:`` does not, as it never runs: annotation-only imports are excepted), the
layers import one way (``theory`` <- ``numerics`` <- ``models`` <- ``proofs_checks``), and no
theory module imports another module's underscored names (a module whose own name starts with
``_``, such as ``_arrays``, is a package-private helper: its public names are the shared API).

Named circles this guards against: ``models.lm`` <-> ``models.lm_stacked`` (the experiment that
uses both is ``models.lm_experiment``) and the evidence-bundle layer importing claim modules to
know the stored configuration classes (they register themselves with
``models.store.keyed_config`` instead)."""
from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

import seqtheory.theory

ROOT = Path(seqtheory.theory.__file__).parent.parent
PACKAGES = ("theory", "numerics", "models", "proofs_checks")   # the layers, lowest first


def _runtime_imports(tree: ast.AST):
    """The ``Import`` / ``ImportFrom`` nodes of ``tree`` outside ``if TYPE_CHECKING:`` blocks."""
    def walk(node):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                yield from (n for c in child.orelse for n in walk_node(c))
                continue
            yield from walk_node(child)

    def walk_node(node):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        yield from walk(node)

    return walk(tree)


def _module_files() -> dict[str, Path]:
    """``{dotted module name inside seqtheory: file}`` (``models.lm``; a package by its
    ``__init__``: ``proofs_checks.claims``)."""
    out = {}
    for pkg in PACKAGES:
        for path in sorted((ROOT / pkg).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join(parts)] = path
    return out


def _edges(name: str, path: Path, known: set[str]) -> list[tuple[str, list[str]]]:
    """``[(imported seqtheory module, names), ...]`` of one module; ``from . import x`` and
    ``from .pkg import x`` count as imports of the submodule ``x`` when it is one."""
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    edges = []
    for node in _runtime_imports(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [(a.name.removeprefix("seqtheory."), []) for a in node.names]
        else:
            names = [a.name for a in node.names]
            if node.level:
                base = package[:len(package) - node.level + 1]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = (node.module or "").removeprefix("seqtheory.")
            targets = [(mod, names)] + [(f"{mod}.{n}", []) for n in names]
        edges += [(t, names) for t, names in targets if t in known and t != name]
    return edges


@functools.lru_cache(maxsize=None)
def _imports() -> dict[str, list[tuple[str, list[str]]]]:
    """``{module: [(imported seqtheory module, names), ...]}`` for every module of the packages."""
    files = _module_files()
    return {name: _edges(name, path, set(files)) for name, path in files.items()}


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


def _package_graph(pkg: str) -> dict[str, set[str]]:
    """The import graph between the modules of one package (its ``__init__`` left out: the
    packages import their public names lazily)."""
    return {m: {d for d, _ in edges if d.split(".")[0] == pkg and d != pkg}
            for m, edges in _imports().items() if m.split(".")[0] == pkg and m != pkg}


def test_the_parser_sees_the_imports():
    imports = _imports()
    assert ("theory.words", ["check_alphabet", "decode", "encode", "is_lyndon_encoded",
                             "lyndon_count", "lyndon_words_encoded",
                             "standard_factorization_encoded"]) \
        in imports["theory.lie_poly"]
    assert "theory.group_iso" in {m for m, _ in imports["theory.groups"]}
    assert "theory.groups" not in {m for m, _ in imports["theory.group_iso"]}  # TYPE_CHECKING
    assert "models.lm" in {m for m, _ in imports["models.lm_stacked"]}
    assert "proofs_checks.registry" in {m for m, _ in imports["proofs_checks.evidence"]}
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None


@pytest.mark.parametrize("pkg", PACKAGES)
def test_no_import_circle_inside_a_package(pkg):
    graph = _package_graph(pkg)
    found = _cycle(graph)
    assert found is None, f"import circle in seqtheory.{pkg}: {' -> '.join(found)}"


def test_layers_import_one_way():
    rank = {p: i for i, p in enumerate(PACKAGES)}
    upward = [f"{m} imports {d}" for m, edges in _imports().items() for d, _ in edges
              if rank[d.split(".")[0]] > rank[m.split(".")[0]]]
    assert upward == []


def test_the_evidence_bundle_layer_imports_no_claim_module():
    """Configuration classes register themselves (``models.store.keyed_config``); the bundle
    layer finds them through the registry, never by importing a claim module."""
    claims = [d for d, _ in _imports()["proofs_checks.evidence"]
              if d.startswith("proofs_checks.claims")]
    assert claims == []


def test_no_theory_module_imports_another_modules_underscored_names():
    reaching = [f"{m} imports {n} from {d}" for m, edges in _imports().items()
                if m.startswith("theory.") for d, names in edges for n in names
                if d.startswith("theory.") and n.startswith("_")
                and not d.split(".")[-1].startswith("_")]
    assert reaching == []

"""Lazy public exports for a package ``__init__`` (PEP 562 module ``__getattr__``), in which a
public name always wins over a submodule, and modules that moved keep their old import path."""
from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import sys
from types import ModuleType
from typing import Any, Callable


def lazy_exports(package: str, namespace: dict[str, Any], exports: dict[str, str],
                 moved: dict[str, str] | None = None
                 ) -> tuple[list[str], Callable[[str], Any], Callable[[], list[str]]]:
    """``(__all__, __getattr__, __dir__)`` for ``package`` whose public ``name`` lives in the
    submodule ``exports[name]`` (``"module"``: under the same name; ``"module:attr"``: the
    submodule's ``attr``, for a short public alias); a resolved name is cached in ``namespace``
    (the package globals). ``dir(package)`` lists the public names only (not the submodules
    loaded so far, nor the package's own helpers).

    An exported name always wins over a submodule of the same name: Python's import system sets
    ``package.<sub>`` to the submodule whenever ``package.<sub>`` is imported, which would turn
    ``from package import name`` into the module; the package's module object refuses that
    assignment for an exported name (:func:`_guard_exports`). ``moved`` maps a submodule's old
    name to its new one (``{"train": "training"}``): ``import package.train`` and
    ``from package.train import X`` (and pickles that name the old path) keep working and give
    the new module (:class:`_MovedModules`)."""

    def __getattr__(name: str) -> Any:
        where = exports.get(name)
        if where is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        mod, _, attr = where.partition(":")
        value = getattr(importlib.import_module(f"{package}.{mod}"), attr or name)
        namespace[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted(exports)

    _guard_exports(sys.modules[package], frozenset(exports))
    for old, new in (moved or {}).items():
        _MOVED.moved[f"{package}.{old}"] = f"{package}.{new}"
    return sorted(exports), __getattr__, __dir__


def _guard_exports(module: ModuleType, exported: frozenset[str]) -> None:
    """Make ``module`` refuse a submodule assigned to one of its ``exported`` names."""

    def __setattr__(self, name: str, value: Any) -> None:
        if name in exported and isinstance(value, ModuleType):
            return                       # the import system's `package.sub = module`: the export wins
        ModuleType.__setattr__(self, name, value)

    module.__class__ = type("LazyPackage", (ModuleType,), {"__setattr__": __setattr__,
                                                           "__module__": __name__})


class _MovedModules(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds an old module path (``moved``: old full name -> new full name) and loads it as the
    new module itself (one module object under both names)."""

    def __init__(self) -> None:
        self.moved: dict[str, str] = {}

    def find_spec(self, fullname: str, path: Any = None, target: Any = None):
        if fullname not in self.moved:
            return None
        return importlib.util.spec_from_loader(fullname, self)

    def create_module(self, spec) -> ModuleType:
        return importlib.import_module(self.moved[spec.name])

    def exec_module(self, module: ModuleType) -> None:
        """Nothing to run: the new module is already imported."""


_MOVED = _MovedModules()
sys.meta_path.append(_MOVED)

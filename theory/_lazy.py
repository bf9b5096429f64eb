"""Lazy public exports for a package ``__init__`` (PEP 562 module ``__getattr__``)."""
from __future__ import annotations

import importlib
from typing import Any, Callable


def lazy_exports(package: str, namespace: dict[str, Any], exports: dict[str, str]
                 ) -> tuple[list[str], Callable[[str], Any], Callable[[], list[str]]]:
    """``(__all__, __getattr__, __dir__)`` for ``package`` whose public ``name`` lives in the
    submodule ``exports[name]`` (``"module"``: under the same name; ``"module:attr"``: the
    submodule's ``attr``, for a short public alias); a resolved name is cached in ``namespace``
    (the package globals). An exported name always wins over a submodule of the same name.
    ``dir(package)`` lists the public names only (not the submodules loaded so far, nor the
    package's own helpers)."""

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

    return sorted(exports), __getattr__, __dir__

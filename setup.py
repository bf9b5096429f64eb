"""Build hook of seqtheory (the project is configured in pyproject.toml): ``build_py`` also writes
the source commit into the built package (``seqtheory/_source_commit.txt``), so that an installed
package names the commit it was built from (``seqtheory.proofs_checks.environment.git_commit``).
Built from an archive of the sources (no git history), nothing is written: the package says
"unknown". Editable installs read their source tree instead and get no stamp."""
from __future__ import annotations

import importlib.util
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent


def _environment():
    """``proofs_checks/environment.py`` loaded from its file (the package is not installed yet)."""
    spec = importlib.util.spec_from_file_location("_seqtheory_environment",
                                                  ROOT / "proofs_checks" / "environment.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def stamp_source_commit(build_lib: str | Path) -> str | None:
    """Write the commit of this source tree into ``build_lib/seqtheory``; returns it, or ``None``
    (nothing written) when the tree is not a git checkout."""
    env = _environment()
    commit = env.source_tree_commit(ROOT / "setup.py")
    if commit:
        target = Path(build_lib) / "seqtheory" / env.STAMP_NAME
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(commit + "\n")
    return commit


class BuildPyWithCommit(build_py):
    def run(self):
        super().run()
        if not getattr(self, "editable_mode", False):
            stamp_source_commit(self.build_lib)


if __name__ == "__main__":
    setup(cmdclass={"build_py": BuildPyWithCommit})

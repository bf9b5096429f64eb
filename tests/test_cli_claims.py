"""``seqtheory claims`` (ids never wrapped, --ids, --json) and the command line's lazy imports:
``seqtheory --help`` builds its parser without torch, matplotlib, sympy or numpy; ``claims``
without torch or matplotlib (checked through ``sys.modules`` in a fresh interpreter)."""
from __future__ import annotations

import json
import os
import subprocess
import sys

from seqtheory.proofs_checks.cmd_claims import claim_listing
from seqtheory.proofs_checks.registry import all_claims


def _cli(*args: str, columns: int = 80) -> str:
    env = dict(os.environ, COLUMNS=str(columns))
    done = subprocess.run([sys.executable, "-m", "seqtheory.proofs_checks.cli", *args],
                          capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_claims_at_80_columns_never_wraps_an_id():
    out = _cli("claims", columns=80)
    lines = out.splitlines()
    ids = [c.id for c in all_claims()]
    assert [ln for ln in lines if ln in ids] == ids            # each id whole, on its own line
    assert max(len(ln) for ln in lines) <= 80                  # the rest is wrapped at 80
    assert sum(len(c.statement.split()) for c in all_claims()) <= len(out.split())


def test_listing_keeps_an_id_longer_than_the_width_whole():
    c = all_claims()[0]
    text = claim_listing([c], 40)
    assert c.id in text.splitlines()
    assert all(len(ln) <= 40 or ln == c.id for ln in text.splitlines())


def test_claims_ids_one_a_line():
    assert _cli("claims", "--ids").splitlines() == [c.id for c in all_claims()]


def test_claims_json_holds_every_claim():
    doc = json.loads(_cli("claims", "--json"))
    claims = all_claims()
    assert [d["id"] for d in doc] == [c.id for c in claims]
    for d, c in zip(doc, claims):
        assert d["statement"] == c.statement and d["aliases"] == list(c.aliases)
        assert d["source"]["paper"] == c.source.paper and d["source"]["arxiv"] == c.source.arxiv
        assert d["uses_training"] is c.uses_training


_HEAVY_FOR_HELP = ("torch", "matplotlib", "sympy", "numpy", "scipy", "cvxpy", "flint", "rich")


def _loaded_after(code: str, modules: tuple[str, ...]) -> list[str]:
    probe = (f"import sys\n{code}\n"
             f"print('loaded:' + ','.join(m for m in {modules!r} if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    last = done.stdout.splitlines()[-1]
    assert last.startswith("loaded:"), done.stdout
    return [m for m in last.removeprefix("loaded:").split(",") if m]


def test_help_imports_no_heavy_library():
    code = ("from seqtheory.proofs_checks.cli import build_parser\n"
            "build_parser().format_help()\n"
            "for a in build_parser()._subparsers._group_actions[0].choices.values(): a.format_help()")
    assert _loaded_after(code, _HEAVY_FOR_HELP) == []


def test_claims_imports_neither_torch_nor_matplotlib():
    code = ("import io, contextlib\nfrom seqtheory.proofs_checks.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()): main(['claims'])")
    assert _loaded_after(code, ("torch", "matplotlib", "cvxpy", "scipy")) == []


def test_only_patterns_match_aliases_too():
    """Found by review: 'depth.thm3.2.t*' matched nothing, then suggested the alias
    depth.thm3.2.trained that it should have matched."""
    from seqtheory.proofs_checks.cli import select_claims
    from seqtheory.proofs_checks.registry import get_claim, load_all

    load_all()
    target = get_claim("depth.thm3.2.trained")
    assert [c.id for c in select_claims(["depth.thm3.2.t*"])] == [target.id]

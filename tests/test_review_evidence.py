"""Review of evidence bundles (rv-ev): problems found, each pinned by a test."""
from __future__ import annotations

import json
import os
import sqlite3
import stat

import pytest

from seqtheory.models.store import ResultsStore
from seqtheory.models.train import train
from seqtheory.proofs_checks import evidence as ev
from seqtheory.proofs_checks import training_runs as tr
from seqtheory.proofs_checks.cli import main
from seqtheory.proofs_checks.registry import Context, get_claim, load_all
from seqtheory.proofs_checks.report import build_report
from seqtheory.proofs_checks.runner import run_claim
from seqtheory.theory._io import _umask
from test_evidence import _cfg  # the same tiny run configuration


@pytest.fixture(scope="module")
def store_dir(tmp_path_factory):
    root = tmp_path_factory.mktemp("store")
    train(_cfg(seed=1), store=ResultsStore(root), device="cpu", threads=1)
    return root


@pytest.fixture()
def bundle(store_dir, tmp_path):
    ev.pack(store_dir, tmp_path / "bundle", profile="quick", seed=0)
    return tmp_path / "bundle"


def _snapshot(root):
    return {str(p.relative_to(root)): (p.stat().st_mtime_ns, p.read_bytes() if p.is_file() else None)
            for p in sorted(root.rglob("*"))}


def test_a_read_only_bundle_can_be_read(bundle, monkeypatch):
    """A bundle shipped on read-only media (or a read-only checkout) must be readable: reading
    needs no write access and changes nothing in the bundle."""
    real_access = os.access

    def no_write_in_bundle(path, mode, *a, **k):            # root ignores chmod: simulate it
        if mode & os.W_OK and str(os.path.abspath(path)).startswith(str(bundle)):
            return False
        return real_access(path, mode, *a, **k)

    before = _snapshot(bundle)
    monkeypatch.setattr(os, "access", no_write_in_bundle)
    got = tr.run_many(Context(seed=0, evidence=bundle), [_cfg(seed=1)])
    assert got[0]["config"]["seed"] == 1
    assert _snapshot(bundle) == before                        # not one byte or file changed


def test_the_bundle_database_is_one_self_contained_file(bundle):
    """evidence.py says the packed database is in rollback-journal mode ("one self-contained
    file"); a WAL-mode header makes every reader need a writable folder for -wal/-shm."""
    with open(ev.bundle_store_dir(bundle) / "results.sqlite", "rb") as f:
        header = f.read(20)
    assert header[18:20] == b"\x01\x01"                      # 1 = legacy (DELETE), 2 = WAL


def test_a_bundle_store_never_takes_a_run(bundle):
    st = tr.store(Context(seed=0, evidence=bundle))
    with pytest.raises((sqlite3.OperationalError, ValueError, PermissionError)):
        st.claim(_cfg(seed=5), "me")
    assert ResultsStore(ev.bundle_store_dir(bundle)).get(_cfg(seed=5)) is None


def test_bundle_checkpoints_are_not_unpickled_as_code(bundle):
    """A bundle comes from another machine: its checkpoints are loaded with torch's
    weights_only loader, so a crafted .pt file cannot run code on the reading machine."""
    import torch

    class Boom:
        def __reduce__(self):
            return (os.system, ("echo pwned > " + str(bundle.parent / "pwned"),))

    st = ResultsStore(bundle.parent / "scratch")
    p = tr.store(Context(seed=0, evidence=bundle)).checkpoint_path(_cfg(seed=1))
    torch.save({"model": {}, "step": 1, "x": Boom()}, p)
    with pytest.raises(ValueError):
        tr.store(Context(seed=0, evidence=bundle)).load_checkpoint(_cfg(seed=1))
    assert not (bundle.parent / "pwned").exists()
    del st


def test_a_bundle_with_a_corrupt_database_is_refused_up_front(bundle, tmp_path, capsys):
    (ev.bundle_store_dir(bundle) / "results.sqlite").write_bytes(b"not a database" * 100)
    with pytest.raises(ValueError, match="bundle"):
        ev.load_provenance(bundle)
    assert main(["verify", "--only", "finding.parity_negative_eigenvalues", "--evidence", str(bundle), "--out",
                 str(tmp_path / "rep"), "--no-progress"]) == 2


def test_the_bundle_folder_is_readable_by_others(bundle):
    """mkdtemp makes 0700 folders; the bundle is meant to be shared (committed, copied)."""
    assert stat.S_IMODE(bundle.stat().st_mode) & 0o055 == 0o055 & ~_umask()


def test_cite_names_the_bundle_of_an_evidence_report(bundle, tmp_path, capsys):
    load_all()
    prov = dict(ev.load_provenance(bundle), path=str(bundle))
    c = get_claim("finding.parity_negative_eigenvalues")
    r = run_claim(get_claim("depth.lemma3.1"), Context(seed=0))     # cheap; relabelled below
    rep = build_report([r], seed=0, profile="quick", device="cpu", controls=False, evidence=prov)
    from seqtheory.proofs_checks.rule_versions import rule_status

    rep["claims"][0].update(id=c.id, aliases=list(c.aliases), claim_version=c.claim_version,
                            rule=rule_status(c, 0, "quick"))   # cite wants the current rule
    (tmp_path / "report.json").write_text(json.dumps(rep))
    assert main(["cite", c.id, "--report", str(tmp_path / "report.json")]) == 0
    assert "evidence bundle made on" in capsys.readouterr().out

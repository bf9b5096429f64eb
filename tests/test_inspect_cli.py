"""`seqtheory inspect` (proofs_checks/cmd_inspect.py) on a results store and on an evidence bundle."""
from __future__ import annotations

import json

import pytest

from seqtheory.models.store import ResultsStore
from seqtheory.models.train import train
from seqtheory.proofs_checks.cli import main
from seqtheory.proofs_checks.evidence import pack
from test_inspect import parity_config as _cfg  # noqa: E402  (the same tiny parity run)


@pytest.fixture(scope="module")
def store_dir(tmp_path_factory):
    root = tmp_path_factory.mktemp("inspect-cli")
    train(_cfg(), store=ResultsStore(root), device="cpu", threads=1)
    return root


def test_inspect_prints_the_layers_and_the_horizons(store_dir, capsys):
    assert main(["inspect", _cfg().key[:8], "--results", str(store_dir)]) == 0
    out = capsys.readouterr().out
    assert f"run {_cfg().key[:12]} (C2, signed_mamba, depth 1)" in out
    assert "layer 1 (restricted" in out and "0:0 1:1" in out          # the sign character
    assert "predicted horizon:" in out and "measured longest length" in out
    assert "exact:" in out and "numerical:" in out


def test_inspect_json_and_evidence_bundle(store_dir, tmp_path, capsys):
    bundle = tmp_path / "bundle"
    pack(store_dir, bundle, profile="quick", seed=0)
    assert main(["inspect", _cfg().key[:10], "--results", str(bundle), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["run_key"] == _cfg().key and doc["family"] == "signed_mamba"
    assert any(c["root_index"] == [0, 1] and c["hom_fraction"] == "1/1"
               for c in doc["layers"][0]["channels"])
    assert str(bundle / "results") in doc["source"]


def test_inspect_bad_input(store_dir, tmp_path, capsys):
    assert main(["inspect", "ffff", "--results", str(store_dir)]) == 2
    assert "no run key starts with it" in capsys.readouterr().err
    assert main(["inspect", "ab", "--results", str(tmp_path)]) == 2
    assert "holds no results store" in capsys.readouterr().err


def test_inspect_a_stored_job_that_is_not_a_training_run(tmp_path, capsys):
    """Found by review: a stored LM experiment gave "TrainConfig.__init__() got an unexpected
    keyword argument 'adam_betas'"."""
    from seqtheory.models.lm import LMConfig

    st = ResultsStore(tmp_path)
    cfg = LMConfig()
    st.compute_once(cfg, lambda: {"done": True})
    assert main(["inspect", st.key(cfg)[:8], "--results", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "not a training run" in err and "Traceback" not in err

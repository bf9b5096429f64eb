"""Results store: key stability, the claim protocol, atomic checkpoints, WAL concurrency."""
import dataclasses
import multiprocessing as mp
import sqlite3

import pytest

from seqtheory.models.store import ResultsStore, canonical_json, config_key


@dataclasses.dataclass(frozen=True)
class Cfg:
    a: int = 1
    b: float = 0.5
    c: tuple = (1, 2)
    d: str | None = None


def test_key_is_stable_and_canonical():
    # pinned value: changing the hashing scheme silently would orphan every stored run
    assert canonical_json(Cfg()) == '{"a":1,"b":0.5,"c":[1,2],"d":null}'
    k = config_key(Cfg())
    assert k == config_key(Cfg()) and len(k) == 64
    assert k != config_key(Cfg(b=0.5000001)) and k != config_key(Cfg(c=(2, 1)))

    @dataclasses.dataclass(frozen=True)
    class Other:
        a: int = 1
        b: float = 0.5
        c: tuple = (1, 2)
        d: str | None = None

    assert config_key(Other()) != k          # the type name is part of the key


def test_key_rejects_bad_configs():
    with pytest.raises(TypeError, match="dataclass"):
        config_key({"a": 1})
    with pytest.raises(ValueError):
        config_key(Cfg(b=float("nan")))


def test_claim_protocol(tmp_path):
    st = ResultsStore(tmp_path)
    cfg = Cfg()
    assert st.claim(cfg, "w1")
    assert not st.claim(cfg, "w2")                  # held by a live owner
    assert st.claim(cfg, "w1")                      # re-entrant for the same owner
    st.heartbeat(cfg, "w1", step=5)
    with pytest.raises(RuntimeError):
        st.heartbeat(cfg, "w2", step=5)
    st.finish(cfg, "w1", {"x": 1.5})
    assert st.result(cfg) == {"x": 1.5}
    assert not st.claim(cfg, "w1") and not st.claim(cfg, "w2")   # a finished run is never reclaimed
    with pytest.raises(RuntimeError):
        st.finish(cfg, "w2", {"x": 2})


def test_expired_lease_and_failed_runs_can_be_taken_over(tmp_path):
    st = ResultsStore(tmp_path)
    c1, c2 = Cfg(a=1), Cfg(a=2)
    assert st.claim(c1, "w1", lease_s=-1.0)         # already expired: a killed worker
    assert st.claim(c1, "w2")
    assert st.claim(c2, "w1")
    st.fail(c2, "w1", "boom")
    assert st.get(c2).status == "failed" and st.get(c2).error == "boom"
    assert st.claim(c2, "w2")


def test_checkpoint_roundtrip_and_wal(tmp_path):
    import torch
    st = ResultsStore(tmp_path)
    cfg = Cfg()
    assert st.load_checkpoint(cfg) is None
    st.save_checkpoint(cfg, {"w": torch.arange(3)})
    assert st.load_checkpoint(cfg)["w"].tolist() == [0, 1, 2]
    assert not list(st.checkpoint_path(cfg).parent.glob(".*.tmp"))      # no temp file left
    mode = sqlite3.connect(st.path).execute("PRAGMA journal_mode").fetchone()[0]
    assert mode == "wal"
    st.log_metrics(cfg, 10, {"loss": 1.0})
    st.log_metrics(cfg, 10, {"loss": 0.5})
    assert st.metrics(cfg) == [{"loss": 0.5, "step": 10}]


def _worker(args):
    root, owner = args
    st = ResultsStore(root)
    won = []
    for i in range(20):
        if st.claim(Cfg(a=i), owner, lease_s=600):
            st.finish(Cfg(a=i), owner, {"by": owner})
            won.append(i)
    return won


def test_concurrent_claims_are_exclusive(tmp_path):
    ResultsStore(tmp_path)
    with mp.get_context("spawn").Pool(3) as pool:
        results = pool.map(_worker, [(str(tmp_path), f"w{j}") for j in range(3)])
    allwon = sorted(i for r in results for i in r)
    assert allwon == list(range(20))                # each run trained exactly once


def test_unusable_store_locations_raise_value_errors(tmp_path):
    f = tmp_path / "afile"
    f.write_text("x")
    with pytest.raises(ValueError, match="exists and is not a folder"):
        ResultsStore(f)
    for name, data in (("garbage", b"\x00not sqlite" * 300), ("truncated", None)):
        d = tmp_path / name
        d.mkdir()
        if data is None:  # a real store cut short
            ResultsStore(d).claim(Cfg(), "w")
            raw = (d / "results.sqlite").read_bytes()
            for p in d.glob("results.sqlite-*"):
                p.unlink()
            data = raw[:1000]
        (d / "results.sqlite").write_bytes(data)
        with pytest.raises(ValueError, match="cannot be opened as an SQLite database"):
            ResultsStore(d)
    other = tmp_path / "other"
    other.mkdir()
    con = sqlite3.connect(other / "results.sqlite")
    con.execute("CREATE TABLE runs (a INTEGER)")
    con.commit()
    con.close()
    with pytest.raises(ValueError, match="not a seqtheory results store"):
        ResultsStore(other)
    (tmp_path / "dirdb" / "results.sqlite").mkdir(parents=True)
    with pytest.raises(ValueError, match="is not a file"):
        ResultsStore(tmp_path / "dirdb")


def test_damaged_checkpoint_is_a_clear_error(tmp_path):
    import torch

    st = ResultsStore(tmp_path)
    for data in (b"garbage\n", b"\x00" * 100):
        st.checkpoint_path(Cfg()).write_bytes(data)
        with pytest.raises(ValueError, match="cannot be read .*delete it"):
            st.load_checkpoint(Cfg())
    torch.save([1, 2], st.checkpoint_path(Cfg()))
    with pytest.raises(ValueError, match="not a checkpoint dict"):
        st.load_checkpoint(Cfg())
    with pytest.raises(TypeError, match="state must be a dict"):
        st.save_checkpoint(Cfg(), [1, 2])

"""Results store: the points and heartbeats of runs trained together go in one transaction."""
import dataclasses
import time

import pytest

from seqtheory.models.store import ResultsStore


@dataclasses.dataclass(frozen=True)
class Run:
    seed: int


def test_log_metrics_many_records_every_point_once_per_step(tmp_path):
    st = ResultsStore(tmp_path / "s")
    runs = [Run(1), Run(2)]
    st.log_metrics_many([(runs[0], 25, {"loss": 1.0}), (runs[1], 25, {"loss": 2.0})])
    st.log_metrics_many([(runs[0], 50, {"loss": 0.5}), (runs[1], 25, {"loss": 3.0})])
    st.log_metrics(runs[1], 50, {"loss": 0.25})
    assert st.metrics(runs[0]) == [{"loss": 1.0, "step": 25}, {"loss": 0.5, "step": 50}]
    assert st.metrics(runs[1]) == [{"loss": 3.0, "step": 25}, {"loss": 0.25, "step": 50}]


def test_heartbeat_many_extends_every_lease_or_none(tmp_path):
    st = ResultsStore(tmp_path / "s")
    runs = [Run(1), Run(2), Run(3)]
    for r in runs[:2]:
        assert st.claim(r, "me", lease_s=5.0)
    before = [st.get(r).lease_until for r in runs[:2]]
    st.heartbeat_many(runs[:2], "me", 7, lease_s=600.0)
    recs = [st.get(r) for r in runs[:2]]
    assert all(r.step == 7 and r.lease_until > time.time() + 500 for r in recs)
    assert all(r.lease_until > b for r, b in zip(recs, before))
    with pytest.raises(RuntimeError, match="not held by me"):
        st.heartbeat_many([runs[0], runs[2]], "me", 9, lease_s=900.0)   # run 3 was never claimed
    assert st.get(runs[0]).step == 7                                       # rolled back
    with pytest.raises(RuntimeError, match="not held by you"):
        st.heartbeat(runs[0], "you", 9)

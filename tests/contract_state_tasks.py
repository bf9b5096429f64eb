"""Work that tests/test_contract_state.py hands to other processes (a module of its own, so that a
spawned worker can import the functions it is sent)."""
from __future__ import annotations

import pickle


def group_summary(blob: bytes) -> tuple:
    """A pickled FiniteGroup, read back in this process: its order, series and table."""
    G = pickle.loads(blob)
    return (G.order, G.derived_series().orders, G.lower_central_series().orders,
            G.cayley_table().tobytes())


def lie_summary(blob: bytes) -> tuple:
    """A pickled LieAlgebra, read back in this process: its dimension and series."""
    L = pickle.loads(blob)
    return L.dim, L.field, L.derived_series().dims, L.lower_central_series().dims


def claim_and_finish(root: str, fields: dict, owner: str) -> bool:
    """Open the results store at ``root`` in this process, claim the run of ``fields`` (a tiny
    TrainConfig) for ``owner`` and finish it with a result naming the owner; True when the claim
    was won."""
    from seqtheory.models import ResultsStore, TrainConfig

    store = ResultsStore(root)
    cfg = TrainConfig(**fields)
    if not store.claim(cfg, owner):
        return False
    store.finish(cfg, owner, {"owner": owner})
    return True


def model_output(blob: bytes, tokens: list) -> list:
    """A pickled SequenceModel, run in this process on ``tokens`` (both modes)."""
    import torch

    model = pickle.loads(blob)
    x = torch.tensor(tokens)
    with torch.no_grad():
        return [model(x, mode=m).tolist() for m in ("parallel", "recurrent")]


def mp_state_after_taylor(dps: int) -> tuple:
    """A high-precision computation in this process: its answer and mpmath's precision after."""
    import mpmath

    from seqtheory.theory import taylor_ode_solution

    before = mpmath.mp.dps
    Y = taylor_ode_solution([[[0, 1], [-1, 0]], [[1, 0], [0, -1]]], 1, dps=dps)
    return str(Y), before, mpmath.mp.dps

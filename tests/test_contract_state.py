"""The stateful objects of the public API across process and thread boundaries (issue 33 §3,
second part): everything public pickles and unpickles to an equal object (kind 8: a tuple
subclass with a required ``kind``, an exception with required arguments, a group whose cached
series hold such tuples); ``ResultsStore``, ``LieAlgebra``, ``FiniteGroup`` and a trained model
give the same answers when two threads use them at once and when two other processes read them;
and no public exception class is left out (a new one without a pickling case fails here)."""
from __future__ import annotations

import concurrent.futures as cf
import importlib
import inspect
import multiprocessing
import pickle
import pkgutil
import threading

import mpmath
import numpy as np
import pytest

import contract_state_tasks as tasks
from contract_harness import same

PACKAGES = ("seqtheory.theory", "seqtheory.numerics", "seqtheory.models", "seqtheory.proofs_checks")
GEN_F = [np.array([[0.0, 1.0], [0.0, 0.0]]), np.array([[0.0, 0.0], [1.0, 0.0]])]


# ------------------------------------------------------------------------------------------------
# fixtures: one trained tiny model in a store, one pool of two spawned processes
# ------------------------------------------------------------------------------------------------
def _tiny(**kw):
    import sys

    specs = sys.modules.get("contract_specs") or importlib.import_module("contract_specs")
    return specs._tiny_train_config(**kw)


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    from seqtheory.models import ResultsStore, train
    from seqtheory.models.training import load_model

    store = ResultsStore(tmp_path_factory.mktemp("contract-store"))
    cfg = _tiny(seed=3)
    train(cfg, store=store)
    return store, cfg, load_model(cfg, store)


@pytest.fixture(scope="module")
def pool():
    with cf.ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn")) as ex:
        yield ex


def _groups():
    from seqtheory.theory import FiniteGroup

    G = FiniteGroup.named("S4")
    G.derived_series(), G.lower_central_series(), G.upper_central_series(), G.center()
    return G


def _lies():
    from seqtheory.theory import LieAlgebra, heisenberg

    H = heisenberg()
    H.derived_series(), H.center(), H.upper_central_series()
    F = LieAlgebra.generated_by(GEN_F)
    F.derived_series()
    return H, F


# ------------------------------------------------------------------------------------------------
# pickling every public kind of object
# ------------------------------------------------------------------------------------------------
def _public_objects():
    import seqtheory.numerics as nm
    import seqtheory.proofs_checks as pc
    import seqtheory.theory as t

    C2 = t.FiniteGroup.cyclic(2)
    return {
        "FiniteGroup (series cached)": lambda: _groups(),
        "GroupSeries": lambda: t.FiniteGroup.named("S3").derived_series(),
        "GroupIsomorphism": lambda: t.find_isomorphism(t.FiniteGroup.heisenberg(2), t.FiniteGroup.named("D8")),
        "LieAlgebra (exact, series cached)": lambda: _lies()[0],
        "LieAlgebra (float)": lambda: _lies()[1],
        "LieSeries": lambda: t.heisenberg().lower_central_series(),
        "LiePolynomial / BCHSeries": lambda: t.bch(4),
        "Subspace": lambda: t.span([[1, 2], [2, 4]]),
        "RepresentationAudit": lambda: t.audit_representation(C2, {C2.element(0): np.eye(1),
                                                                    C2.element(1): -np.eye(1)}),
        "IcosahedralRepresentation": t.icosahedral_representation,
        "MagnusResult": lambda: t.magnus([np.eye(2)], 2),
        "SlopeFit": lambda: nm.fit_loglog_slope([0.1, 0.2, 0.4], [1.0, 2.0, 4.0]),
        "GroupCascade": lambda: nm.cascade_for_group(t.FiniteGroup.named("S3")),
        "NilpotentCascade": lambda: nm.nilpotent_cascade(nm.target_generators("sl2"), 2),
        "Source / Context / Outcome / ControlOutcome / Verdict": lambda: (
            pc.DEPTH("Thm 3.2"), pc.Context(seed=1), pc.Outcome(pc.Verdict.SUPPORTED, "k"),
            pc.ControlOutcome(True, "v", "r")),
        "Claim": lambda: pc.get_claim("depth.cor3.6").source,
        "PermGroup (series cached)": lambda: _perm_group(),
        "ChevalleyAlgebra": lambda: t.simple_lie_algebra("B", 2),
        "QuotientAlgebra": lambda: t.quotient(t.gl(2), t.sl(2)),
        "LeviDecomposition": lambda: t.levi_decomposition(t.sl_affine(2)),
        "LieAlgebra (structure constants)": lambda: t.structure_constant_algebra(t.b(2)),
        "LyndonCoefficients": lambda: t.bch(3).lyndon_coefficients(),
    }


def _perm_group():
    """S4 as a :class:`PermGroup` with its series computed (a sympy ``PermutationGroup``
    unpickles without its internal state)."""
    from seqtheory.theory import PermGroup

    G = PermGroup.named("S4")
    G.derived_series(), G.lower_central_series(), G.center()
    return G


def _summary(obj):
    """What an object answers, for comparing it with its unpickled copy."""
    from seqtheory.theory import (ChevalleyAlgebra, FiniteGroup, LeviDecomposition, LieAlgebra,
                                  PermGroup, QuotientAlgebra)
    from seqtheory.theory.lie_poly import LyndonCoefficients

    if isinstance(obj, PermGroup):
        return (obj.order, obj.degree, obj.name, obj.generators, obj.derived_series().orders,
                obj.lower_central_series().orders, obj.center().order)
    if isinstance(obj, ChevalleyAlgebra):
        return (obj.kind, obj.rank, _summary(obj.algebra), obj.positive_roots, obj.cartan,
                [m.tolist() for m in obj.matrices])
    if isinstance(obj, QuotientAlgebra):
        return (_summary(obj.algebra), obj.representatives, obj.matrix.tolist(),
                list(obj.project([[1, 0], [0, 1]])), obj.lift([1]).tolist())
    if isinstance(obj, LeviDecomposition):
        return _summary(obj.radical), _summary(obj.levi)
    if isinstance(obj, LyndonCoefficients):
        return dict(obj), obj.letters, obj.max_degree
    if isinstance(obj, FiniteGroup):
        return (obj.order, obj.derived_series().orders, obj.lower_central_series().orders,
                obj.cayley_table().tobytes(), [str(e) for e in obj.elements])
    if isinstance(obj, LieAlgebra):
        return obj.dim, obj.field, obj.derived_series().dims, obj.lower_central_series().dims
    if isinstance(obj, tuple) and type(obj) is not tuple:          # GroupSeries
        return type(obj).__name__, obj.kind, [_summary(x) for x in obj]
    if isinstance(obj, tuple):
        return [_summary(x) for x in obj]
    return obj


@pytest.mark.parametrize("name", sorted(_public_objects()))
def test_every_public_object_pickles(name):
    obj = _public_objects()[name]()
    back = pickle.loads(pickle.dumps(obj))
    assert type(back) is type(obj)
    assert same(_summary(back), _summary(obj)), name


def _exception_classes() -> list[type]:
    """Every exception class defined in the four packages (their modules walked)."""
    found = {}
    for p in PACKAGES:
        pkg = importlib.import_module(p)
        for m in pkgutil.walk_packages(pkg.__path__, p + "."):
            mod = importlib.import_module(m.name)
            for obj in vars(mod).values():
                if inspect.isclass(obj) and issubclass(obj, BaseException) \
                        and obj.__module__ == mod.__name__:
                    found[f"{obj.__module__}.{obj.__qualname__}"] = obj
    return [found[k] for k in sorted(found)]


#: the arguments an exception class needs (by qualified name); one message otherwise
_EXCEPTION_ARGS = {
    "NumericalRankError": ("mats", 3.0, 1e-9, 1e-15, np.array([1.0, 1e-3])),
}


def test_every_public_exception_pickles():
    """Kind 8: ``NumericalRankError`` (required arguments) did not unpickle. Every exception class
    of the package round-trips with its message and attributes."""
    classes = _exception_classes()
    assert len(classes) >= 8, classes
    for cls in classes:
        args = _EXCEPTION_ARGS.get(cls.__qualname__, ("the message",))
        exc = cls(*args)
        back = pickle.loads(pickle.dumps(exc))
        assert type(back) is cls and str(back) == str(exc), cls
        assert same({k: v for k, v in vars(back).items()}, {k: v for k, v in vars(exc).items()}), cls


# ------------------------------------------------------------------------------------------------
# two threads at once
# ------------------------------------------------------------------------------------------------
def _in_two_threads(fn):
    """``fn()`` in two threads started together; both results."""
    barrier = threading.Barrier(2)
    out, errors = [None, None], []

    def run(i):
        try:
            barrier.wait()
            out[i] = fn()
        except BaseException as exc:        # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(2)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(120)
    assert not errors, errors
    return out


def test_two_threads_compute_what_one_does(trained):
    """FiniteGroup, LieAlgebra (exact and float), a high-precision ODE solution (kind 2: the
    threads shared mpmath's precision) and a trained model, each used by two threads at once:
    the answers of one thread, and mpmath's precision as it was."""
    from seqtheory.theory import FiniteGroup, LieAlgebra, taylor_ode_solution
    import torch

    _, _, model = trained
    tokens = torch.tensor([[0, 1, 2, 3, 4, 5, 1, 2]])
    works = {
        "group": lambda: _summary(FiniteGroup.named("S4")),
        "lie exact": lambda: _summary(LieAlgebra.generated_by([np.array([[0, 1], [0, 0]]),
                                                               np.array([[0, 0], [1, 0]])])),
        "lie float": lambda: _summary(LieAlgebra.generated_by(GEN_F)),
        "taylor dps 80": lambda: str(taylor_ode_solution([[[0, 1], [-1, 0]], [[1, 0], [0, -1]]], 1, dps=80)),
        "taylor dps 20": lambda: str(taylor_ode_solution([[[0, 1], [-1, 0]], [[1, 0], [0, -1]]], 1, dps=20)),
        "model": lambda: model(tokens).detach().tolist(),
    }
    dps = mpmath.mp.dps
    for name, fn in works.items():
        alone = fn()
        a, b = _in_two_threads(fn)
        assert a == alone and b == alone, name
    assert mpmath.mp.dps == dps


def test_two_threads_write_one_store(tmp_path):
    """Two threads claim the same run of one ResultsStore: exactly one wins; each then finishes a
    run of its own, and both results are there."""
    from seqtheory.models import ResultsStore

    store = ResultsStore(tmp_path / "store")
    cfg = _tiny(seed=11)
    wins = _in_two_threads(lambda: store.claim(cfg, threading.current_thread().name))
    assert sorted(wins) == [False, True]
    names = iter(["a", "b"])
    lock = threading.Lock()

    def own_run():
        with lock:
            who = next(names)
        c = _tiny(seed=20 if who == "a" else 21)
        assert store.claim(c, who)
        store.finish(c, who, {"owner": who})
        return who

    assert sorted(_in_two_threads(own_run)) == ["a", "b"]
    assert {store.result(_tiny(seed=s))["owner"] for s in (20, 21)} == {"a", "b"}


# ------------------------------------------------------------------------------------------------
# two other processes
# ------------------------------------------------------------------------------------------------
def test_two_processes_read_the_same_objects(pool, trained):
    """A FiniteGroup and LieAlgebras with cached series and a trained model, pickled and read in
    two spawned processes: the answers of this process; a high-precision computation there leaves
    that process's mpmath precision as it found it."""
    _, _, model = trained
    G = _groups()
    H, F = _lies()
    tokens = [[0, 1, 2, 3, 4, 5, 1, 2]]
    import torch

    with torch.no_grad():
        want_model = [model(torch.tensor(tokens), mode=m).tolist() for m in ("parallel", "recurrent")]
    jobs = {
        "group": (tasks.group_summary, pickle.dumps(G), _summary(G)[:4]),
        "lie exact": (tasks.lie_summary, pickle.dumps(H), _summary(H)),
        "lie float": (tasks.lie_summary, pickle.dumps(F), _summary(F)),
        "model": (tasks.model_output, pickle.dumps(model), want_model),
    }
    futures = {(name, i): pool.submit(fn, blob, tokens) if name == "model" else pool.submit(fn, blob)
               for name, (fn, blob, _) in jobs.items() for i in range(2)}
    for (name, _), fut in futures.items():
        got = fut.result(timeout=300)
        want = jobs[name][2]
        if name == "model":
            assert np.allclose(got, want, rtol=1e-6, atol=1e-7), name
        else:
            assert same(list(got) if isinstance(got, tuple) else got,
                        list(want) if isinstance(want, tuple) else want), name
    text, before, after = pool.submit(tasks.mp_state_after_taylor, 80).result(timeout=300)
    assert before == after == 15 and text.startswith("[")


def test_two_processes_share_one_store(pool, tmp_path):
    """Two spawned processes claim the same run of one store: exactly one wins; then each finishes
    a run of its own, and this process reads both results."""
    from seqtheory.models import ResultsStore
    import dataclasses

    root = str(tmp_path / "store")
    ResultsStore(root)
    same_run = dataclasses.asdict(_tiny(seed=31))
    wins = [f.result(timeout=300) for f in
            [pool.submit(tasks.claim_and_finish, root, same_run, owner) for owner in ("p1", "p2")]]
    assert sorted(wins) == [False, True]
    own = [pool.submit(tasks.claim_and_finish, root, dataclasses.asdict(_tiny(seed=s)), f"q{s}")
           for s in (40, 41)]
    assert all(f.result(timeout=300) for f in own)
    store = ResultsStore(root)
    assert {store.result(_tiny(seed=s))["owner"] for s in (40, 41)} == {"q40", "q41"}

"""The failure kinds of issue 33, one test each (kinds 6, 7 and 12 are the training engine's: their
cases are in tests/test_contract_harness.py and tests/test_run_state.py, tests/test_scan_inputs.py). Each test failed
before its kind was fixed; the harness (tests/test_contract_harness.py) holds the whole public
API to the same contract."""
from __future__ import annotations

import pickle
import shutil
import sqlite3
import subprocess
import sys
import threading
import time
from decimal import Decimal, localcontext
from fractions import Fraction

import mpmath
import numpy as np
import pytest
import sympy
from hypothesis import example, given, settings, strategies as st

_INT_DTYPES = [np.int32, np.int64, np.uint32, np.uint64]


# ------------------------------------------------------------------ kind 1: fixed-width integers
@settings(max_examples=30, deadline=None)
@given(st.integers(2, 2 ** 31 - 1), st.integers(1, 6), st.sampled_from(_INT_DTYPES))
@example(10 ** 6, 4, np.int64)          # 500940801301724160 (wrapped) instead of about 2.5e23
@example(2 ** 40, 2, np.int64)          # negative
def test_numpy_integers_compute_exactly(n, m, dtype):
    from seqtheory.theory import witt_dimension

    got = witt_dimension(dtype(n), dtype(m))
    assert got == (sum(_mobius(d) * n ** (m // d) for d in range(1, m + 1) if m % d == 0) // m)
    assert type(got) is int


def _mobius(d: int) -> int:
    return int(sympy.mobius(d))


def test_a_numpy_degree_keeps_the_series_exact():
    from seqtheory.theory import bch, free_nilpotent, magnus_lie_terms

    assert bch(np.int8(5)).lyndon_coefficients() == bch(5).lyndon_coefficients()
    assert free_nilpotent(np.uint8(2), np.int16(4)).dim == free_nilpotent(2, 4).dim == 8
    assert [P.lyndon_coefficients() for P in magnus_lie_terms(np.int64(2), np.int32(3))] == \
        [P.lyndon_coefficients() for P in magnus_lie_terms(2, 3)]


# ------------------------------------------------------------------ kind 2: mpmath precision
def test_two_threads_keep_their_own_precision():
    """taylor_ode_solution at dps 20 and 80 in four threads at once: each answer equals the one
    computed alone, and mpmath's precision is as before (it was left at 97; answers were off by
    1e-38)."""
    from seqtheory.theory import taylor_ode_solution

    A = [[[0, 1], [-1, 0]], [[1, 0], [0, -1]]]
    alone = {d: taylor_ode_solution(A, 1, dps=d) for d in (20, 80)}
    dps_before, bad = mpmath.mp.dps, []
    barrier = threading.Barrier(4)

    def run(d):
        barrier.wait()
        for _ in range(3):
            Y = taylor_ode_solution(A, 1, dps=d)
            if Y != alone[d] or any(Y[i, j] != alone[d][i, j] for i in range(2) for j in range(2)):
                bad.append(d)

    threads = [threading.Thread(target=run, args=(d,)) for d in (20, 80, 20, 80)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not bad and mpmath.mp.dps == dps_before


# ------------------------------------------------------------------ kind 3: numerical identification
def test_rotation_log_of_an_exact_rotation_near_pi():
    """A rational rotation by π − 2e-9 about z: the angle is that of the matrix (nsimplify read
    the trace at ~15 digits and returned π)."""
    from seqtheory.theory import rotation_log

    s = 10 ** 9                                    # tan(θ/2) = s: θ = π − 2/s + O(s^-3)
    c, sn = Fraction(1 - s * s, 1 + s * s), Fraction(2 * s, 1 + s * s)
    R = [[c, -sn, 0], [sn, c, 0], [0, 0, 1]]
    angle, axis, L = rotation_log(R)
    assert angle != sympy.pi
    assert float(sympy.pi - angle) == pytest.approx(2e-9, rel=1e-6)
    assert list(axis) == [0, 0, 1]


def test_exact_paths_never_read_a_nearby_number():
    from seqtheory.theory import FiniteGroup, magnus

    P, Q = sympy.Matrix([[0, 1], [0, 0]]), sympy.Matrix([[0, 0], [1, 0]])
    with localcontext() as ctx:
        ctx.prec = 40
        t = Decimal(1) / Decimal(3) + Decimal("1e-20")
    omega1 = magnus([P, Q], 1, t=t).terms[0]
    assert omega1[0, 1] == sympy.Rational(*Fraction(t).as_integer_ratio()) != sympy.Rational(1, 3)
    with pytest.raises(TypeError, match=r"\bt must be exact"):
        magnus([P, Q], 1, t=mpmath.mpf(1) / 3)                 # was read as 1/3
    with pytest.raises(TypeError, match=r"mats\[0\]"):
        FiniteGroup.from_matrices([[[mpmath.mpf(1) / 3, 0], [0, 1]]])
    G = FiniteGroup.from_matrices([[[Decimal("-1"), 0], [0, Decimal("1")]]])
    assert G.order == 2


# ------------------------------------------------------------------ kind 4: half precision
def _conjugated_heisenberg():
    E12, E23 = np.zeros((3, 3)), np.zeros((3, 3))
    E12[0, 1] = E23[1, 2] = 1.0
    rng = np.random.default_rng(0)
    P = np.eye(3) + 0.3 * rng.standard_normal((3, 3))
    Pi = np.linalg.inv(P)
    return [P @ E12 @ Pi, P @ E23 @ Pi]


@pytest.mark.parametrize("low", ["float16", "float32", "bfloat16"])
def test_low_precision_input_is_refused_by_the_float_lie_path(low):
    """float16 gave dim 8 (not nilpotent), bfloat16 dim 9; exact: dim 3, class 2."""
    import torch

    from seqtheory.theory import LieAlgebra, span

    g = _conjugated_heisenberg()
    L = LieAlgebra.generated_by(g)
    assert (L.dim, L.nilpotency_class) == (3, 2)
    low_g = [torch.tensor(m).bfloat16() for m in g] if low == "bfloat16" else \
        [m.astype(low) for m in g]
    with pytest.raises(TypeError, match=rf"mats\[0\] holds {low} values"):
        LieAlgebra.generated_by(low_g)
    with pytest.raises(TypeError, match=rf"vectors holds {low} values"):
        span(low_g[0])


# ------------------------------------------------------------------ kind 5: complex norms
def test_truncation_error_past_the_branch_cut_is_a_norm():
    """ε ≥ 1.05 takes logm past its branch cut: the error was −0.1899j (√Σx·x of complex
    entries); a norm is real and non-negative, and equals numpy's of the same matrix."""
    from seqtheory.numerics import truncation_error

    gens = [np.array([[0.0, -3.0], [3.0, 0.0]]), np.array([[0.0, 1.0], [1.0, 0.0]])]
    for eps in (1.05, 1.5):
        e = truncation_error(gens, [0, 1, 0], 2, eps, dps=30)
        assert isinstance(e, mpmath.mpf) and e >= 0
    from seqtheory.numerics.local_error import frobenius_mp

    M = np.array([[1j, 2.0], [3.0, -4j]], dtype=object)
    assert float(frobenius_mp(M)) == pytest.approx(np.linalg.norm(M.astype(complex)))


# ------------------------------------------------------------------ kind 8: pickling
def test_groups_series_and_rank_errors_pickle():
    from seqtheory.theory import FiniteGroup, NumericalRankError

    G = FiniteGroup.named("S4")
    series = G.derived_series()
    G.lower_central_series(), G.upper_central_series()
    back = pickle.loads(pickle.dumps(series))
    assert back.kind == series.kind and back.orders == (24, 12, 4, 1)
    H = pickle.loads(pickle.dumps(G))
    assert H.derived_series().orders == (24, 12, 4, 1)
    assert np.array_equal(H.cayley_table(), G.cayley_table())
    e = NumericalRankError("mats", 3.0, 1e-9, 1e-15, np.array([1.0, 1e-3]))
    f = pickle.loads(pickle.dumps(e))
    assert str(f) == str(e) and (f.argument, f.gap, f.tol) == ("mats", 3.0, 1e-9)


# ------------------------------------------------------------------ kind 9: lazy exports
@pytest.mark.parametrize("code", [
    "import seqtheory.models.train\nfrom seqtheory.models import train\n"
    "assert callable(train) and train.__name__ == 'train', train\n"
    "from seqtheory.models.train import TrainConfig\n"
    "import seqtheory.models.training as mt\nassert mt.TrainConfig is TrainConfig\n",
    "import seqtheory.numerics as n\nn.NilpotentCascade\n"
    "assert callable(n.nilpotent_cascade) and n.nilpotent_cascade.__name__ == 'nilpotent_cascade'\n"
    "import seqtheory.numerics.nilpotent_cascade\nfrom seqtheory.numerics import nilpotent_cascade\n"
    "assert nilpotent_cascade.__name__ == 'nilpotent_cascade'\n"
    "from seqtheory.numerics.nilpotent_cascade import NilpotentCascade as A\n"
    "from seqtheory.numerics.nilpotent_cascades import NilpotentCascade as B\nassert A is B\n",
])
def test_a_submodule_import_never_shadows_a_public_function(code):
    """``from seqtheory.models import train`` gave the module once ``seqtheory.models.train`` was
    imported; ``numerics.nilpotent_cascade`` became the module after any ``NilpotentCascade``
    access. The old module paths still import (one module under both names)."""
    subprocess.run([sys.executable, "-c", code], check=True, timeout=300)


def test_no_public_name_is_also_a_submodule_name():
    import importlib
    import pkgutil

    for p in ("seqtheory.theory", "seqtheory.numerics", "seqtheory.models", "seqtheory.proofs_checks"):
        pkg = importlib.import_module(p)
        clash = set(pkg.__all__) & {m.name for m in pkgutil.iter_modules(pkg.__path__)}
        assert not clash, (p, clash)


# ------------------------------------------------------------------ kind 10: busy timeout
def test_busy_timeout_is_never_stored_as_zero(tmp_path):
    """30 days was stored as 0 ms (SQLite's busy timeout is a 32-bit millisecond count): a write
    meeting a lock failed at once. Above the limit: refused, naming it; below 1 ms: 1 ms."""
    from seqtheory.models import ResultsStore
    from seqtheory.models.store import MAX_BUSY_TIMEOUT_S

    with pytest.raises(ValueError, match=r"busy_timeout_s must be .* <= 2147483\.647"):
        ResultsStore(tmp_path / "a", busy_timeout_s=30 * 86400)
    for seconds, ms in ((2.0, 2000), (1e-6, 1), (MAX_BUSY_TIMEOUT_S, 2 ** 31 - 1)):
        store = ResultsStore(tmp_path / f"s{ms}", busy_timeout_s=seconds)
        with store._connect() as con:
            assert con.execute("PRAGMA busy_timeout").fetchone()[0] == ms


# ------------------------------------------------------------------ kind 11: unbounded enumeration
@pytest.mark.parametrize("call", [
    lambda: __import__("seqtheory.theory", fromlist=["x"]).lyndon_words("xy", 34),
    lambda: __import__("seqtheory.theory", fromlist=["x"]).lyndon_words("xyz", 10 ** 30),
    lambda: __import__("seqtheory.theory", fromlist=["x"]).hall_basis("xy", 40),
    lambda: __import__("seqtheory.theory", fromlist=["x"]).witt_dimension(2, 10 ** 30),
])
def test_an_enumeration_it_cannot_finish_is_refused_at_once(call):
    """lyndon_words("xy", 34) (5.05e8 words) ran on; every such request is refused before it
    starts, naming the bound."""
    t0 = time.process_time()
    with pytest.raises(ValueError, match=r"MAX_LYNDON_WORDS|MAX_WITT_BITS"):
        call()
    assert time.process_time() - t0 < 1.0


def test_one_letter_and_the_largest_allowed_requests_are_answered():
    from seqtheory.theory import lyndon_words, witt_dimension
    from seqtheory.theory.free_lie import MAX_LYNDON_WORDS, lyndon_words_upto
    from seqtheory.theory.words import lyndon_count

    assert lyndon_words("x", 10 ** 18) == [] and witt_dimension(1, 10 ** 30) == 0
    assert lyndon_count(2, 22, MAX_LYNDON_WORDS) <= MAX_LYNDON_WORDS
    assert len(lyndon_words_upto("xy", 20)) == 111013       # SPEC §3.3


# ------------------------------------------------------------------ kind 13: a full disk
def _full_disk_script(root: str) -> str:
    return f"""
import os, sys
from seqtheory.models.store import ResultsStore
root = {root!r}
ResultsStore(os.path.join(root, "old"))
f = open(os.path.join(root, "fill"), "wb", buffering=0)
try:
    while True:
        f.write(b"\\0" * 4096)
except OSError:
    pass
for name in ("old", "new"):
    try:
        ResultsStore(os.path.join(root, name))
        print(name, "opened")
    except OSError as e:
        print(name, "OSError", e.errno, e)
    except ValueError as e:
        print(name, "ValueError", e)
"""


def test_a_full_disk_is_not_read_as_a_corrupt_store(tmp_path):
    """On a full file system the store said "cannot be opened as an SQLite database (disk I/O
    error); move it aside to start a new store": advice that discards a healthy store. It says
    the disk is full (a real 256 kB tmpfs in a private mount namespace, where one can be made)."""
    unshare = shutil.which("unshare")
    if unshare is None or subprocess.run([unshare, "-rm", "true"], capture_output=True).returncode:
        pytest.skip("no private mount namespace here (unshare -rm): the simulated case below runs")
    mnt = tmp_path / "mnt"
    mnt.mkdir()
    script = tmp_path / "full.py"
    script.write_text(_full_disk_script(str(mnt)))
    cmd = f"mount -t tmpfs -o size=256k tmpfs {mnt} && {sys.executable} {script}"
    out = subprocess.run([unshare, "-rm", "sh", "-c", cmd], capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert len(lines) == 2 and all(" OSError 28 " in line and "full" in line for line in lines), lines
    assert "move it aside" not in out.stdout


def test_the_store_classifies_sqlite_errors(tmp_path, monkeypatch):
    """SQLITE_FULL and an I/O error on a full file system say the disk is full (OSError ENOSPC);
    another I/O error is an OSError(EIO) that keeps the store; only a file that is not a
    database is to be moved aside."""
    import errno

    from seqtheory.models import store as st

    def failing(name, free):
        exc = sqlite3.OperationalError("disk I/O error" if "IOERR" in name else "database or disk is full")
        exc.sqlite_errorname = name
        monkeypatch.setattr(st, "_free_bytes", lambda path: free)
        return st._open_error(exc, tmp_path / "results.sqlite")

    full = failing("SQLITE_FULL", 10 ** 9)
    assert isinstance(full, OSError) and full.errno == errno.ENOSPC and "full" in str(full)
    io_full = failing("SQLITE_IOERR_WRITE", 0)
    assert isinstance(io_full, OSError) and io_full.errno == errno.ENOSPC
    io = failing("SQLITE_IOERR_READ", 10 ** 9)
    assert isinstance(io, OSError) and io.errno == errno.EIO and "keep it" in str(io)
    for e in (full, io_full, io):
        assert "move it aside" not in str(e)
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "results.sqlite").write_bytes(b"not a database" * 100)
    with pytest.raises(ValueError, match="move it aside"):
        st.ResultsStore(tmp_path / "bad")

"""The input-contract harness (issue 33 §3): every public name of ``seqtheory.theory``,
``.numerics``, ``.models`` and ``.proofs_checks`` has a spec (tests/contract_specs.py), and every
spec's arguments are passed in every kind the contract (:mod:`seqtheory.theory.contract`) speaks
of. A call must give the right answer (the baseline against its oracle; an accepted variant the
answer of the value the contract converts it to) or a ``TypeError`` / ``ValueError`` naming the
argument; never another exception, a hang, a dropped imaginary part, or changed global state.
Engine: tests/contract_harness.py.

Three parts: the coverage test (a public name without a spec fails, naming it: a name added on
another branch shows up at merge time); the kind sweep (one case per spec, argument and variant:
every kind is passed once, deterministically); hypothesis draws (several arguments varied at once,
values drawn within each kind; a few examples per spec here, more under ``-m slow``).
The stateful objects (pickling, threads, processes) are in tests/test_contract_state.py.
"""
from __future__ import annotations

import importlib

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from contract_harness import ANY, EITHER, REFUSE, SAME, judge, run_call, same
from contract_specs import all_specs

PACKAGES = ("seqtheory.theory", "seqtheory.numerics", "seqtheory.models", "seqtheory.proofs_checks")
SPECS = all_specs()
FLAT = [(name, spec) for name, specs in SPECS.items() for spec in specs]


def public_names() -> list[str]:
    return [f"{p}.{n}" for p in PACKAGES for n in importlib.import_module(p).__all__]


def test_every_public_name_has_a_spec():
    """A public name without a spec (e.g. added on another branch) fails here, by name; a spec
    of a name that is no longer public fails too."""
    names = set(public_names())
    missing = sorted(names - SPECS.keys())
    stale = sorted(SPECS.keys() - names)
    assert not missing, f"public names without a contract spec (tests/contract_specs.py): {missing}"
    assert not stale, f"specs of names that are not public: {stale}"
    assert all(SPECS[n] for n in names), [n for n in names if not SPECS[n]]


# ------------------------------------------------------------------------------------------------
# baselines and their oracles
# ------------------------------------------------------------------------------------------------
_BASE: dict[str, object] = {}


def _baseline_args(spec) -> dict:
    return {k: base for k, (_, base) in spec.args.items()}


def _baseline(spec):
    if spec.label not in _BASE:
        _BASE[spec.label] = run_call(lambda: spec.call(**_baseline_args(spec)))
    return _BASE[spec.label]


def _xfail(spec, key):
    reason = (spec.xfail or {}).get(key) if isinstance(spec.xfail, dict) else spec.xfail
    return [pytest.mark.xfail(strict=True, reason=reason)] if reason else []


@pytest.mark.parametrize("name,spec", [pytest.param(n, s, id=s.label, marks=_xfail(s, "baseline"))
                                       for n, s in FLAT])
def test_baseline_is_right(name, spec):
    out = _baseline(spec)
    assert out.error is None, f"{spec.label}: {type(out.error).__name__}: {out.error}"
    assert not out.changed, f"{spec.label} changed global state: {out.changed}"
    if spec.oracle is not None:
        spec.oracle(_baseline_args(spec), out.result)


# ------------------------------------------------------------------------------------------------
# the kind sweep
# ------------------------------------------------------------------------------------------------
def _cases():
    for name, spec in FLAT:
        for arg, (kind, base) in spec.args.items():
            for v in kind.variants(base):
                yield pytest.param(spec, arg, v, id=f"{spec.label}-{arg}-{v.label}",
                                   marks=_xfail(spec, (arg, v.label)))


def _compare(spec):
    return spec.same or same


def _canonical(spec, changes: dict):
    """The outcome of the spec's call with ``changes`` (canonical values) over its baseline."""
    args = _baseline_args(spec)
    if all(same(v, args[k]) for k, v in changes.items()):
        return _baseline(spec)
    args.update(changes)
    return run_call(lambda: spec.call(**args))


@pytest.mark.parametrize("spec,arg,variant", list(_cases()))
def test_every_kind_of_every_argument(spec, arg, variant):
    base = spec.args[arg][1]
    value, canonical = variant.make(base)
    args = _baseline_args(spec)
    args[arg] = value
    out = run_call(lambda: spec.call(**args))
    canon = _canonical(spec, {arg: canonical}) if variant.expect in (SAME, EITHER) else None
    problem = judge(out, variant.expect, (_display(arg),), canon, _compare(spec))
    assert problem is None, f"{spec.label}, {arg} = {variant.label} ({variant.expect}): {problem}"


def _display(arg: str) -> str:
    """The parameter name an error should use (``t_`` in a spec stands for ``t``; ``G1`` for ``G``)."""
    return {"t_": "t", "G1": "G"}.get(arg, arg)


# ------------------------------------------------------------------------------------------------
# hypothesis: several arguments at once, values drawn within each kind
# ------------------------------------------------------------------------------------------------
def _draw_args(data, spec):
    """For each argument: the baseline, or a variant drawn from its kind; returns the values,
    the canonical values, and the names of the arguments drawn per expectation."""
    values, canon, drawn = {}, {}, {SAME: [], EITHER: [], REFUSE: [], ANY: []}
    known = spec.xfail if isinstance(spec.xfail, dict) else {}
    for arg, (kind, base) in spec.args.items():
        vs = [v for v in kind.variants(base) if (arg, v.label) not in known]   # marked in the sweep
        pick = data.draw(st.sampled_from([None] + vs), label=f"{arg} variant")
        if pick is None:
            values[arg] = canon[arg] = base
            continue
        pair = data.draw(pick.draw(base), label=f"{arg} value") if pick.draw else pick.make(base)
        values[arg], canon[arg] = pair
        drawn[pick.expect].append(arg)
    return values, canon, drawn


@pytest.mark.parametrize("name,spec", [pytest.param(n, s, id=s.label) for n, s in FLAT if s.args])
@settings(max_examples=4, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_drawn_arguments(name, spec, data):
    if isinstance(spec.xfail, str):
        pytest.skip(f"{spec.xfail}: the baseline case marks it")
    values, canon, drawn = _draw_args(data, spec)
    out = run_call(lambda: spec.call(**values))
    if drawn[REFUSE]:                   # a refusal may name any argument that may be refused
        # (an accepted kind too: np.float16(1e-8) is the value 0.0, which a bound may refuse)
        expect, named = REFUSE, drawn[REFUSE] + drawn[ANY] + drawn[EITHER] + drawn[SAME]
    elif drawn[ANY] or drawn[EITHER]:
        expect, named = (ANY if drawn[ANY] else EITHER), drawn[ANY] + drawn[EITHER] + drawn[SAME]
    else:
        expect, named = SAME, list(spec.args)
    canonical = None
    if expect in (SAME, EITHER) and not drawn[ANY]:
        canonical = _canonical(spec, {k: canon[k] for k in drawn[SAME] + drawn[EITHER]})
    elif expect == EITHER:
        expect = ANY
    problem = judge(out, expect, tuple(map(_display, named)), canonical, _compare(spec))
    assert problem is None, f"{spec.label}, drawn {drawn}: {problem}"


@pytest.mark.slow
@pytest.mark.parametrize("name,spec", [pytest.param(n, s, id=s.label) for n, s in FLAT if s.args])
@settings(max_examples=60, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_drawn_arguments_full(name, spec, data):
    test_drawn_arguments.hypothesis.inner_test(name, spec, data)

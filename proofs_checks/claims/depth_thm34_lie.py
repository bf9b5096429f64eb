"""[DEPTH] (Heo et al., arXiv:2603.05573), Theorem 3.4 in its Lie-algebraic form: the evidence and
the decision rule of that part of claim ``depth.thm3.4`` (registered in :mod:`.depth_thm34`).

Statement checked: a Lie algebra of derived length k is simulated by k abelian layers plus a
smooth output map, and for a non-solvable algebra its Levi factor is what no finite abelian
cascade reaches. Experiment, on structure-constant and matrix inputs over Q: for each solvable
algebra the k-layer cascade through the derived series
(:mod:`seqtheory.numerics.lie_derived_cascade`: layer i a translation of the coordinates of the
abelian quotient ``g^(i-1)/g^(i)`` driven by the token and the lower layers; output map
``e^{U_1} ⋯ e^{U_k}``) is run on every word of length <= 2 over the basis elements (tokens
act by ``e^X``, left action) and on random longer words, against the target
``e^{X_T} ⋯ e^{X_1}``: exactly (BCH group, nilpotent algebras of de Graaf's classification and
``n(4)``) or in mpmath at :data:`DPS` digits (``b(n)``, tolerance :data:`TOL`). For each
non-solvable algebra: the Levi decomposition (exact), the derived series (it stops at a
non-zero perfect ideal), and the residual that the cascade of its abelian layers leaves in
``G^(∞)`` (which contains the Levi factor). Rule: :func:`thm34_lie_decide`.

What the part does not cover: inputs are piecewise constant (tokens held for unit time), not
arbitrary continuous controls; finitely many algebras (a universal statement: at most
``supported``); the states are group elements in the simply connected group (exact coordinates
or 50-digit floats), not a trained model.
"""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from itertools import product
from typing import Any

import numpy as np

from seqtheory.numerics.lie_derived_cascade import derived_cascade
from seqtheory.theory._messages import counted

from ..registry import Verdict

#: mpmath digits of the non-nilpotent runs, and the agreement they must reach.
DPS = 50
TOL = 1e-30


def _algebras(quick: bool) -> list[tuple[str, Any]]:
    from seqtheory.theory import b, gl, sl, sl_affine, strictly_upper
    from seqtheory.theory.lie_classification import nilpotent_lie_algebra as N

    solvable = [("N(3,2) Heisenberg", N(3, 2)), ("N(4,3)", N(4, 3)), ("N(5,6)", N(5, 6)),
                ("N(6,14)", N(6, 14)), ("b(2)", b(2)), ("b(3)", b(3))]
    nonsolvable = [("gl(2)", gl(2)), ("sl(2) ⋉ Q^2", sl_affine(2))]
    if not quick:
        solvable += [(f"N(5,{k})", N(5, k)) for k in (2, 3, 4, 5, 7, 8, 9)]
        solvable += [(f"N(6,{k})", N(6, k, 1 if k in (19, 21, 22, 24) else None))
                     for k in range(10, 27) if k != 14]
        solvable += [("n(4)", strictly_upper(4))]
        nonsolvable += [("sl(2)", sl(2)), ("gl(3)", gl(3))]
    return solvable + nonsolvable


def _words(d: int, exact: bool, seed: int, quick: bool) -> list[tuple[int, ...]]:
    """Every word of length <= 2 over ``d`` tokens and random longer ones."""
    words = [w for m in (1, 2) for w in product(range(d), repeat=m)]
    rng = np.random.default_rng(seed)
    count, length = ((4, 8) if quick else (12, 16)) if exact else ((2, 5) if quick else (6, 8))
    words += [tuple(int(t) for t in rng.integers(0, d, length)) for _ in range(count)]
    return words


def lie_row(name: str, L, seed: int, quick: bool, target=None) -> dict:
    """The evidence of one algebra (module docstring). ``target``: another algebra of the same
    dimension whose products the cascade of ``L`` is compared with (the control's wrong
    target), else ``L`` itself."""
    from seqtheory.theory import levi_decomposition

    exact = L.is_nilpotent
    scale = Fraction(1) if exact else Fraction(1, 2)
    tokens = [[scale * int(i == j) for j in range(L.dim)] for i in range(L.dim)]
    C = derived_cascade(L, tokens, dps=DPS)
    T = C if target is None else derived_cascade(target, tokens, dps=DPS)
    words = _words(L.dim, exact, seed, quick)
    ds = L.derived_series()
    row = {"algebra": name, "dim": L.dim, "derived_series": ds.dims, "solvable": C.solvable,
           "derived_length": L.derived_length, "layers": C.depth, "layer_dims": C.layer_dims,
           "exact": exact, "arithmetic": "exact (BCH group)" if exact else f"mpmath {DPS} digits",
           "words": len(words)}
    if C.solvable:
        err = max(C.group.distance(C.output(C.run(w)), T.target(w)) for w in words)
        fewer = max((C.group.distance(C.output(C.run(w), C.depth - 1), T.target(w))
                     for w in words), default=0.0)
        row.update(max_error=err, tracked=(err == 0.0) if exact else err <= TOL,
                   fewer_layers_error=fewer)
    else:
        D = levi_decomposition(L)
        res = max(C.residual(w) for w in words)
        row.update(levi_dim=D.levi.dim, levi_semisimple=D.levi.is_semisimple,
                   radical_dim=D.radical.dim, stable_dim=C.stable_dim, max_residual=res,
                   reached=res <= TOL)
    return row


@lru_cache(maxsize=4)
def lie_rows(seed: int, quick: bool) -> tuple[dict, ...]:
    """The rows of every algebra of the profile (cached: pure in ``seed`` and ``quick``)."""
    return tuple(lie_row(name, L, seed, quick) for name, L in _algebras(quick))


def thm34_lie_decide(rows: list[dict]) -> tuple[Verdict, str]:
    """Decision rule of the Lie-algebraic part of ``depth.thm3.4`` (pure; called by the claim's
    registered rule). ``rows``: per algebra, ``solvable``; for a solvable one
    ``derived_length``, ``layers``, ``exact``, ``tracked`` (the k-layer cascade reproduced the
    target on every word: exactly, or within :data:`TOL`); for a non-solvable one
    ``levi_dim``, ``levi_semisimple`` and ``reached`` (the residual above the abelian layers
    vanished on every word).

    ``refuted`` when an exact run contradicts the statement: a solvable algebra whose cascade of
    ``layers == derived_length`` abelian layers through the derived series misses the target,
    or a non-solvable algebra reached by its finite abelian cascade. ``inconclusive`` without
    an exact solvable instance or without a non-solvable one, or when a run does not decide
    (a float run beyond the tolerance, a cascade whose depth is not the derived length, a
    non-solvable algebra without a semisimple Levi factor). Otherwise ``supported``:
    finitely many algebras of a statement about every Lie algebra (never ``confirmed``)."""
    solv = [r for r in rows if r["solvable"]]
    non = [r for r in rows if not r["solvable"]]
    missed = [r["algebra"] for r in solv if r["exact"] and r["layers"] == r["derived_length"]
              and not r["tracked"]]
    reached = [r["algebra"] for r in non if r["reached"]]
    if missed or reached:
        return Verdict.REFUTED, "; ".join(
            [f"the cascade of derived-length-many abelian layers misses the target exactly for "
             f"{', '.join(missed)}"] * bool(missed)
            + [f"a finite abelian cascade reached the non-solvable {', '.join(reached)}"]
            * bool(reached))
    undecided = [r["algebra"] for r in solv if not (r["tracked"]
                                                    and r["layers"] == r["derived_length"])]
    no_levi = [r["algebra"] for r in non if not (r["levi_dim"] > 0 and r["levi_semisimple"])]
    if not any(r["exact"] for r in solv) or not non or undecided or no_levi:
        return Verdict.INCONCLUSIVE, (
            f"Lie-algebraic form undecided: {counted(sum(r['exact'] for r in solv), 'exact solvable instance')}, "
            f"{counted(len(non), 'non-solvable instance')}"
            + (f"; not tracked by derived-length-many layers: {', '.join(undecided)}" if undecided else "")
            + (f"; no semisimple Levi factor: {', '.join(no_levi)}" if no_levi else ""))
    ks = sorted({r["derived_length"] for r in solv})
    return Verdict.SUPPORTED, (
        f"Lie-algebraic form on {counted(len(solv), 'solvable algebra')} (derived lengths "
        f"{ks}; {sum(r['exact'] for r in solv)} exact, the others within {TOL:g}): each "
        f"tracked on every word by the k-layer abelian cascade through its derived series; "
        f"{counted(len(non), 'non-solvable algebra')} ("
        + ", ".join(f"{r['algebra']}: Levi factor of dim {r['levi_dim']}" for r in non)
        + ") keep a residual in G^(∞) that no abelian layer takes. Finitely many instances "
          "of a statement about every Lie algebra: supported")

"""seqtheory inspect: what a stored diagonal model learned, in the terms of [DEPTH] (arXiv:2603.05573).

Example: seqtheory inspect 3fa2c1d9 --results results   (a run key or a unique key prefix)

Per layer and channel: the learned transition phases per token (in units of π), the phase error δ to
the nearest root of unity of an order dividing the group's exponent, the learned character (tokens
grouped by that root; tested exactly on the Cayley table), whether its kernel contains the next term
of the derived series, the characters read per layer (one channel, one channel up to a common phase
offset, or the phase difference / sum of two channels; "cannot tell" when none is read, never
"absent"), layer 1's token collisions, and the predicted horizon (where the accumulated phase error or the modulus
decay crosses the decision margin π/m) against the run's measured 90% length. --results may name a
results store or an evidence bundle (read-only). Never trains. See seqtheory.models.inspector.
"""
from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

from seqtheory.theory._messages import counted

from .cli_types import add_results_option
from .glossary import TERMS

__all__ = ["register", "run", "open_store", "render", "MAX_TOKENS_SHOWN", "COLUMNS"]

#: per-token phases are printed for groups up to this order (larger ones: --json)
MAX_TOKENS_SHOWN = 12


def register(subparsers) -> None:
    """Add the ``inspect`` subcommand to the CLI's subparsers."""
    p = subparsers.add_parser("inspect", help="what a stored diagonal model learned (characters, "
                                              "phase errors, predicted horizon)",
                              description=__doc__,
                              formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("run", metavar="RUN", help="run key or unique key prefix in the results store")
    add_results_option(p, "results store folder, or an evidence bundle folder")
    p.add_argument("--json", action="store_true", help="print the inspection as JSON")
    p.add_argument("--phase-tol", type=float, default=None,
                   help="tolerance (radians) of a quantised phase (default π/(2·exponent))")
    p.set_defaults(fn=run)


def open_store(folder: str):
    """The results store in ``folder``: an evidence bundle's read-only store when ``folder`` is a
    bundle (it holds ``provenance.json``), else the results store there. ``ValueError`` when the
    folder holds neither."""
    from seqtheory.models.store import ResultsStore, holds_store

    from .evidence import bundle_store, load_provenance

    root = Path(folder)
    if (root / "provenance.json").is_file():
        load_provenance(root)
        return bundle_store(root)
    if not holds_store(root):
        raise ValueError(f"--results {folder!r} holds no results store (results.sqlite) and is no "
                         "evidence bundle")
    return ResultsStore(root)


def run(args: argparse.Namespace) -> int:
    from seqtheory.models.inspector import inspect

    try:
        st = open_store(args.results)
        res = inspect(args.run, store=st, phase_tol=args.phase_tol)
    except (ValueError, TypeError) as exc:
        print(f"seqtheory inspect: error: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(res.to_dict(), indent=1))
    else:
        print("\n".join(render(res)))
    return 0


def _pi(x: float) -> str:
    return f"{x / math.pi:+.3f}"


def _horizon(n, unbounded: bool) -> str:
    return "∞ (no crossing)" if unbounded else ("–" if n is None else str(n))


def render(res) -> list[str]:
    """Readable lines of an :class:`~seqtheory.models.inspector.Inspection`."""
    lines = [f"{res.source}",
             f"group {res.group}: order {res.group_order}, exponent {res.exponent}, derived series "
             f"orders {' > '.join(map(str, res.derived_series_orders))}; tokens "
             + ", ".join(f"{i}={lab}" for i, lab in enumerate(res.element_labels))]
    meas = "unknown (model in memory)" if res.measured_horizon is None else (
        f"{res.measured_horizon}" + (" (censored: = test length)" if res.measured_censored else "")
        + f"  [train length {res.train_length}, test length {res.test_length}]")
    lines += [f"predicted horizon: {_horizon(res.predicted_horizon, res.predicted_unbounded)} "
              f"({res.prediction_note})",
              f"measured longest length with ≥ 90% held-out sequence accuracy: {meas}",
              f"exact: {res.exact}",
              f"numerical: {res.numerical}; phase tol {res.phase_tol / math.pi:.4f}π, modulus "
              f"floor {res.modulus_floor}, Lie tol {res.lie_tol:g}",
              "phases in units of π per token; δ = phase − nearest root of unity; character = "
              "tokens grouped by root index k ∈ Z/exponent"]
    for L in res.layers:
        ctx = "transitions are token functions" if L.token_function else (
            "per-token means over random contexts (spread in the 'ctx' column)")
        lines += ["", f"layer {L.index} ({L.layer_class}; character tested on G^({L.index - 1}) of order "
                      f"{L.subgroup_order}, kernel ⊇ G^({L.index}) of order {L.next_order}?; {ctx}): "
                      f"{counted(L.n_nontrivial, 'channel')} with an exact non-trivial homomorphic "
                      f"character, "
                      f"{counted(L.n_non_homomorphism, 'non-homomorphism channel')} of "
                      f"{len(L.channels)}"]
        pw = 7 * len(L.channels[0].phase) if len(L.channels[0].phase) <= MAX_TOKENS_SHOWN else 16
        lines.append(f"  {'ch':>3}  {'phases/π':<{pw}} {'max|δ|/π':>8} {'min|λ|':>7} {'ctx/π':>6}  "
                     f"{'character k: tokens':<28} {'hom':>7} {'⊇next':>5} {'horizon':>8}")
        for c in L.channels:
            classes = " ".join(f"{k}:{','.join(map(str, toks))}" for k, toks in c.classes)
            classes = classes if len(classes) <= 28 else f"{len(c.classes)} classes (--json)"
            hom = f"{c.hom_fraction.numerator}/{c.hom_fraction.denominator}" if c.hom_fraction != 1 else "yes"
            nxt = {True: "yes", False: "no", None: "–"}[c.kernel_contains_next]
            phases = (" ".join(_pi(p) for p in c.phase) if len(c.phase) <= MAX_TOKENS_SHOWN
                      else f"({len(c.phase)} tokens: --json)")
            lines.append(f"  {c.channel:>3}  {phases:<{pw}} "
                         f"{max(map(abs, c.phase_error)) / math.pi:>8.4f} {min(c.modulus):>7.4f} "
                         f"{max(c.context_spread) / math.pi:>6.3f}  {classes:<28} {hom:>7} {nxt:>5} "
                         f"{_horizon(c.horizon, c.horizon_unbounded):>8}")
        lines.append(f"  characters of G^({L.index - 1}) (one channel, up to a common offset, or a pair "
                     f"of channels): {L.character_note()}")
        for c in L.characters:
            lines.append(f"    {c.kind:>8}: {c.describe()}; k per token {' '.join(map(str, c.root_index))}; "
                         f"max|δ|/π {max(map(abs, c.phase_error)) / math.pi:.4f}; kernel ⊇ G^({L.index}): "
                         f"{'yes' if c.kernel_contains_next else 'no'}; horizon "
                         f"{_horizon(c.horizon, c.horizon_unbounded)}")
        if L.token_function:
            pairs = ", ".join(f"{g}={h}" for g, h in L.token_collisions) or "none"
            lines.append(f"  token collisions (tokens with one layer map, which layer {L.index} cannot "
                         f"tell apart): {pairs}")
        if L.lie:
            lines.append(f"  Lie algebra of the affine generators (float path, tol {L.lie[0].tol:g}): "
                         "ch: dim / derived length / mean ‖Ω2‖_F on 4 words")
            lines.append("   " + "; ".join(
                f"{x.channel}: {'undecided' if x.dim is None else x.dim} / "
                f"{'–' if x.derived_length is None else x.derived_length} / {x.omega2:.3g}"
                for x in L.lie))
    return lines + ["", "columns:"] + [f"  {t}: {TERMS[t]}" for t in COLUMNS]


#: the columns of the per-channel table (defined in :data:`~seqtheory.proofs_checks.glossary.TERMS`)
COLUMNS = ("ch", "phases/π", "max|δ|/π", "min|λ|", "ctx/π", "character k: tokens", "hom", "⊇next",
           "horizon")

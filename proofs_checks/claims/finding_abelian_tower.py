"""[DEPTH] (G. Heo et al., arXiv:2603.05573), Theorem 3.4's construction read in trained models: a
depth-k abelian model solves a group of derived length k through the tower of abelian quotients of
its derived series, so layer 1 of a depth-2 model reads ``G/G′``.

Claim ``finding.abelian_tower`` (the package's hypothesis, not the paper's): in the depth-2 AUSSM
runs on S3 and D8 that fit the training length (held-out sequence accuracy ≥ :data:`FIT` at T;
runs of the word-problem plan, read by the inspector of
:mod:`seqtheory.proofs_checks.run_inspection`), layer 1 carries a non-trivial character of G
(a homomorphism into Z/e, exact on the Cayley table) constant on every coset of ``G′``, in at
least 80% of the fitted seeds, for each group. The inspector reads a character in one channel,
in one channel up to a common phase offset, or in the phase difference or sum of two channels
(:mod:`seqtheory.models.inspector`). Every homomorphism into an abelian group is constant on the
cosets of ``G′``; the coset test is kept because the control feeds the rule wrong quotients.

**Absence is not evidence** (SPEC §3, §3.4). The inspector can show a character is present; when
it finds none it cannot tell (a code over three or more channels, in the moduli, in the input
biases or read non-linearly escapes it), so a seed without a character found never counts against
the hypothesis. The only negative evidence is **positive**: a *token collision across cosets*,
two tokens in different cosets of ``G′`` whose layer-1 maps (every channel's transition and input
bias) coincide (``LayerReport.token_collisions``). Then substituting one for the other before the
last position changes the prefix's image in ``G/G′`` but not layer 1's state or output there, so
no function of layer 1 reads ``G/G′``: that seed certainly does not carry it.

Rule (:func:`tower_decide`, pure), per group and per seed block
(:mod:`seqtheory.proofs_checks.seed_blocks`: the first ⌈n/2⌉ seeds of each cell are block A, the
rest block B): supported when the seeds carrying a character are ≥ 80% of the fitted seeds
(:data:`TOWER_RULE`; a seed where the inspector cannot tell counts as not carrying); refuted when,
over at least :data:`MIN_FITTED_REFUTE` fitted seeds, the Wilson 95% interval of the share of
seeds *not certified absent* lies wholly below 80% (at least 2 of 3, 3 of 4, 3 of 5 or 4 of 6
fitted seeds with a collision across cosets); else inconclusive. The groups are parts of the statement (weakest part
decides, :func:`~seqtheory.proofs_checks.registry.combine_verdicts`); the two blocks must agree
(:func:`~seqtheory.proofs_checks.registry.replicate`), else inconclusive with both shown.
(Until 2026-12-04 the rule refuted from seeds where no single channel was a character: absence
of evidence; changed after seed 0 of the quick profile and seeds 0, 1, 5 of the full one were
seen.) Control: the rule given wrong quotients (the left cosets of a non-normal subgroup of
order 2, and the trivial quotient) must not support.
"""
from __future__ import annotations

from typing import Any

from seqtheory.theory._messages import counted
from seqtheory.proofs_checks.rates import SeedRule, rate_text, success_rate
from seqtheory.proofs_checks.registry import FINDING, Context, ControlOutcome, Outcome, Verdict, claim
from seqtheory.proofs_checks.run_inspection import inspections, source_configs
from seqtheory.proofs_checks.seed_blocks import blocks_key, by_parts, replicated, seed_blocks

FIT = 0.9               # held-out sequence accuracy at T that counts as fitting the training length
TOWER_RULE = SeedRule(min_rate=0.8, max_rate=0.0)   # only min_rate is read (refuting: Wilson)
MIN_FITTED_REFUTE = 3   # fitted seeds of a group and block needed before certified absences refute
TOWER_GROUPS = ("S3", "D8")


def _tower_configs(ctx: Context) -> list:
    return [c for c in source_configs(ctx) if c.task in TOWER_GROUPS and c.depth == 2]


def quotient_blocks(group: str, kind: str = "abelianisation") -> list[list[int]]:
    """Element indices of the blocks of a partition of the group ``group``: ``"abelianisation"``
    (cosets of ``G′``), ``"non_normal"`` (left cosets of a non-normal subgroup of order 2; a wrong
    quotient) or ``"trivial"`` (one block). ``ValueError`` for another kind or a group without a
    non-normal subgroup of order 2."""
    from seqtheory.theory.groups import FiniteGroup

    G = FiniteGroup.named(group)
    if kind == "trivial":
        return [list(range(G.order))]
    if kind == "abelianisation":
        H = G.commutator_subgroup()
    elif kind == "non_normal":
        H = next((K for g in G.elements if G.element_order(g) == 2
                  for K in [G.subgroup_generated([g])] if not G.is_normal(K)), None)
        if H is None:
            raise ValueError(f"group {group!r} has no non-normal subgroup of order 2")
    else:
        raise ValueError(f"kind must be 'abelianisation', 'non_normal' or 'trivial', got {kind!r}")
    return [sorted(G.index(x) for x in c) for c in G.cosets(H)]


def _tower_runs(ctx: Context, configs: list) -> list[dict]:
    """The rule's evidence per run: group, seed block and index, accuracy at T, and from the
    inspector's layer 1 the root-index maps of every character read (``maps``, with their
    ``kinds``), its status and its token collisions."""
    block = seed_blocks(configs)
    out = []
    for r, ins in inspections(ctx, configs):
        T = r["config"]["train_length"]
        layer = ins.layers[0]
        b, i = block[r["key"]]
        out.append({"key": r["key"][:12], "group": r["config"]["task"], "seed": r["config"]["seed"],
                    "block": b, "seed_pos": i, "train_length": T,
                    "acc_at_T": float(r["test"]["prefix_seq_acc"][T - 1]),
                    "layer_class": layer.layer_class, "exponent": ins.exponent,
                    "status": layer.character_status,
                    "kinds": [c.kind for c in layer.characters],
                    "maps": [list(c.root_index) for c in layer.characters],
                    "collisions": [list(p) for p in layer.token_collisions]})
    return out


_FIELDS = ("group", "acc_at_T", "exponent", "maps", "collisions", "block", "seed_pos")


def _check_run(i: int, r: dict, cosets: dict) -> None:
    """``ValueError`` (``TypeError`` for a non-number ``acc_at_T``) naming the run and field: the
    fields of :func:`tower_decide`, a group with cosets, ``acc_at_T`` a number in [0, 1]."""
    from seqtheory.theory._checks import check_real

    for f in _FIELDS:
        if f not in r:
            raise ValueError(f"runs[{i}] lacks {f!r}")
    if r["group"] not in cosets:
        raise ValueError(f"runs[{i}]['group'] = {r['group']!r} has no blocks (given: {sorted(cosets)})")
    check_real(f"runs[{i}]['acc_at_T']", r["acc_at_T"], 0, 1)


def _carries(r: dict, table, part: dict[int, int]) -> bool:
    """Some map of ``r`` is a non-trivial homomorphism (exact, Cayley table) constant on every
    block of the partition (``part``: element → block)."""
    from seqtheory.models.inspector import character_table_test

    for m in r["maps"]:
        frac, order, _ = character_table_test(table, m, r["exponent"])
        if frac == 1 and order > 1 and len({(part[g], m[g]) for g in part}) == len(set(part.values())):
            return True
    return False


def _certified_absent(r: dict, part: dict[int, int]) -> bool:
    """Two tokens of different blocks have one layer-1 map (a token collision across blocks)."""
    return any(part[g] != part[h] for g, h in r["collisions"])


def _tower_group(runs: list[dict], table, part: dict[int, int]) -> tuple[Verdict, str, dict]:
    fitted = [r for r in runs if r["acc_at_T"] >= FIT]
    stats: dict[str, Any] = {"runs": len(runs), "fitted": len(fitted)}
    if not fitted:
        return Verdict.INCONCLUSIVE, f"no run of {len(runs)} fits the training length (acc ≥ {FIT} at T)", stats
    carry = success_rate(_carries(r, table, part) for r in fitted)
    absent = sum(_certified_absent(r, part) for r in fitted)
    maybe = success_rate(not _certified_absent(r, part) for r in fitted)
    stats.update(carrying=carry, certified_absent=absent, not_certified_absent=maybe)
    desc = (f"{rate_text(carry)} of the fitted seeds carry a layer-1 character constant on the "
            f"quotient's blocks, {absent} certified not to (token collision across blocks), "
            f"{len(fitted) - carry['successes'] - absent} cannot tell")
    if TOWER_RULE.succeeds(carry):
        return Verdict.SUPPORTED, desc, stats
    if len(fitted) >= MIN_FITTED_REFUTE and maybe["wilson95"][1] < TOWER_RULE.min_rate:
        return Verdict.REFUTED, desc + (f" (seeds not certified absent: {rate_text(maybe)}, below "
                                        f"{TOWER_RULE.min_rate:.0%})"), stats
    return Verdict.INCONCLUSIVE, desc + (f" (supporting needs ≥ {TOWER_RULE.required(len(fitted))} "
                                         f"carrying; refuting needs certified absences putting the "
                                         f"Wilson interval of the rest below {TOWER_RULE.min_rate:.0%} "
                                         f"over ≥ {MIN_FITTED_REFUTE} fitted)"), stats


#: what evidence would decide the claim when it is inconclusive (report.md shows it)
DECIDED_BY = ('fitted depth-2 runs (that fit the training length) in both seed blocks, read by the '
              'inspector: layer-1 characters that factor through G/G′ found in at least 80% of '
              'them support it; token collisions across the cosets of G′ in most of them refute '
              'it; "cannot tell" counts for neither (absence is not evidence)')


def _tower_block(runs: list[dict], cosets: dict[str, list[list[int]]]) -> tuple[Verdict, str, dict]:
    """One seed block: each group of ``cosets`` decided on its runs, combined by the weakest part."""
    from seqtheory.theory.groups import FiniteGroup

    def group(rs: list[dict]) -> tuple[Verdict, str, dict]:
        g = rs[0]["group"] if rs else None
        if g is None:
            return Verdict.INCONCLUSIVE, "no run", {"runs": 0, "fitted": 0}
        part = {x: b for b, block in enumerate(cosets[g]) for x in block}
        return _tower_group(rs, FiniteGroup.named(g).cayley_table(), part)
    return by_parts(runs, "group", group, sorted(cosets))


def tower_decide(runs: list[dict], cosets: dict[str, list[list[int]]]) -> tuple[Verdict, str, dict]:
    """Decision rule of ``finding.abelian_tower`` (pure; module docstring). ``runs``: dicts with
    ``group``, ``acc_at_T``, ``exponent``, ``maps`` (per character the inspector read in layer 1,
    the root index of every element), ``collisions`` (pairs of element indices whose layer-1 maps
    coincide), ``block`` and ``seed_pos`` (:mod:`~seqtheory.proofs_checks.seed_blocks`);
    ``cosets[group]``: the partition of the group's elements the characters must be constant on
    (the cosets of ``G′`` for the claim); every group of ``cosets`` is a part. Returns ``(verdict,
    why, stats per block and group)``; ``ValueError`` for a run lacking a field, of a group without
    blocks, with ``acc_at_T`` not in [0, 1] (``TypeError`` when it is not a number) or an unknown
    block."""
    for i, r in enumerate(runs):
        _check_run(i, r, cosets)
    return replicated(lambda rs: _tower_block(rs, cosets), runs)


@claim(id="finding.abelian_tower", title="Layer 1 of a trained depth-2 model reads G/G′",
       decided_by=DECIDED_BY,
       source=FINDING("seqtheory (this package): a hypothesis about what training finds",
                      "after [DEPTH] Theorem 3.4 (depth-k cascade through the derived series); "
                      "SPEC §3.4"),
       aliases=("depth.exp.abelian_tower",), uses_training=True, claim_version=2,
       statement=("in trained depth-2 restricted (AUSSM) models that fit S3 and D8 at the training "
                  "length, layer 1 carries a non-trivial character that factors through the "
                  "abelianisation G/G′ (for S3 the sign) in at least 80% of the seeds, for each "
                  "group, replicated on two disjoint seed blocks"))
def abelian_tower(ctx: Context) -> Outcome:
    configs = _tower_configs(ctx)
    runs = _tower_runs(ctx, configs)
    cosets = {g: quotient_blocks(g) for g in TOWER_GROUPS}
    verdict, why, stats = tower_decide(runs, cosets)
    scale = _scale_text(configs)
    classes = ", ".join(sorted({r["layer_class"] for r in runs})) or "no runs"
    return Outcome(verdict, _tower_key(stats), evidence={"stats": stats, "quotient_blocks": cosets,
                                           "rule": _tower_rule_text(), "scale": scale},
                   tables={"runs": [{**{k: v for k, v in r.items() if k not in ("maps", "collisions", "kinds")},
                                     "characters": ", ".join(r["kinds"]) or "–",
                                     "token collisions": len(r["collisions"])} for r in runs]},
                   notes=(f"{why}. Scale: {scale}. The verdict is about what training finds at this "
                          "scale, not about Theorem 3.4's construction (an existence statement, "
                          f"checked exactly by depth.thm3.4). Layer class of the runs: {classes} "
                          "(AUSSM: complex unit-modulus diagonal transitions plus an input bias, "
                          "restricted). Characters: per channel, per channel up to a common phase "
                          "offset, and per pair of channels (phase difference or sum), each rounded "
                          "to the nearest root of unity of an order dividing the group's exponent "
                          "(numerical), then tested exactly on the Cayley table. A seed where the "
                          "inspector finds no character is 'cannot tell', never evidence against "
                          "the hypothesis; only a token collision across cosets of G′ (two tokens of "
                          "different G/G′ images with one layer-1 map) certifies absence."))


def _tower_key(stats: dict[str, dict]) -> str:
    """Per seed block and group: fitted seeds carrying a character / fitted, certified absences."""
    def group(g: str, st: dict) -> str:
        if not st["fitted"]:
            return f"{g} 0 of {st['runs']} fitted"
        return (f"{g} {st['carrying']['successes']}/{st['fitted']} fitted carry"
                + (f", {st['certified_absent']} certified absent" if st["certified_absent"] else ""))
    return blocks_key(stats, group)


def _scale_text(configs: list) -> str:
    """The scale of the runs: families, depth, width, training lengths and steps."""
    if not configs:
        return "no runs"
    Ts = sorted({c.train_length for c in configs})
    steps = sorted({c.steps for c in configs})
    widths = sorted({c.width for c in configs})
    models = "/".join(sorted({c.model for c in configs}))
    return (f"{counted(len(configs), 'depth-2 ' + models + ' run')} on "
            f"{', '.join(TOWER_GROUPS)}, width "
            f"{'/'.join(map(str, widths))}, training length {'/'.join(map(str, Ts))}, "
            f"{'/'.join(map(str, steps))} steps")


def _tower_rule_text() -> str:
    return (f"per group and seed block: supported when ≥ {TOWER_RULE.min_rate:.0%} of the fitted "
            f"seeds carry a character; refuted when seeds certified absent (token collision across "
            f"cosets of G′) put the Wilson 95% interval of the others wholly below "
            f"{TOWER_RULE.min_rate:.0%} over ≥ {counted(MIN_FITTED_REFUTE, 'fitted seed')}; groups "
            "combined by the weakest part; the two seed blocks must agree")


tower_decide = abelian_tower.decision_rule(tower_decide)


@abelian_tower.control
def _abelian_tower_control(ctx: Context) -> ControlOutcome:
    runs = _tower_runs(ctx, _tower_configs(ctx))
    reasons, ok = [], True
    for kind in ("non_normal", "trivial"):
        v, why, _ = tower_decide(runs, {g: quotient_blocks(g, kind) for g in TOWER_GROUPS})
        ok &= v != Verdict.SUPPORTED
        reasons.append(f"{kind}: {v.value} ({why})")
    return ControlOutcome(rejected=ok, variant="wrong quotients: left cosets of a non-normal "
                                               "subgroup of order 2; the trivial quotient",
                          reason=" | ".join(reasons))


@abelian_tower.training_plan
def _abelian_tower_plan(ctx: Context, controls: bool) -> list:
    return _tower_configs(ctx)

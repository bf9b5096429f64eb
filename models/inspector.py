"""What a trained diagonal model learned, in the terms of [DEPTH] (G. Heo et al., "Why Depth Matters
in Parallelizable Sequence Models: A Lie Algebraic View", arXiv:2603.05573, §3 and Table 1).

:func:`inspect` reads the per-token transitions of every layer of a diagonal model (``mamba``,
``signed_mamba``, ``aussm``, ``gla`` layers of :class:`~seqtheory.models.model.SequenceModel`, or the
purely abelian :class:`~seqtheory.models.abelian.AbelianStateModel`) on the word problem of a finite
group ``G`` (token ``g`` = group element of index ``g``) and returns an :class:`Inspection`. It
never trains.

Per layer ``ℓ`` (1-based), token ``g`` and channel ``c`` (a channel is one scalar transition: a head
of ``mamba`` / ``signed_mamba`` / ``aussm``, a key channel of a ``gla`` head, a state channel of the
abelian model):

* ``λ = |λ| e^{iθ}`` (modulus, phase in radians in ``(−π, π]``) and the modulus deficit ``1 − |λ|``.
  Layer 1's transition is a function of the token alone (embedding → norm → layer); at deeper layers
  it depends on the context, so it is collected over seeded uniform random words and summarised per
  token by the circular mean of ``λ/|λ|`` and the geometric mean of ``|λ|``, with the largest phase
  deviation from that mean (``context_spread``) reported.
* The nearest root of unity ``e^{2πik/e}`` with ``e = exp(G)`` the exponent (the roots of every order
  dividing ``e``), its order ``e / gcd(k, e)`` and the phase error ``δ = θ − 2πk/e`` (wrapped to
  ``(−π, π]``).
* The **learned character** ``χ_c : H → Z/e``, ``h ↦ k_h``, on ``H = G^(ℓ−1)``, the ``(ℓ−1)``-th term
  of the derived series (``G`` itself for layer 1; the tower of abelian quotients of the depth
  construction, Theorem 3.4). Its fibres are the phase classes of the tokens. It is tested EXACTLY on
  the Cayley table of ``H``: the fraction (a :class:`~fractions.Fraction`) of the ``|H|²`` products
  with ``χ(ab) = χ(a) + χ(b) mod e``; when it is a homomorphism, its kernel and whether the kernel
  contains ``G^(ℓ)`` (for layer 1: ``G′``, i.e. ``χ`` factors through the abelianisation ``G/G′``).
  ``quantised``: every token's ``|δ| ≤ phase_tol`` (the tolerance that groups the phases; numerical).
* The layer's **characters** (:class:`CharacterReport`): every non-trivial homomorphism ``H → Z/e``
  the inspector reads from the phases, of four kinds: ``"channel"`` (one channel's phases, as
  above), ``"offset"`` (one channel up to a common phase offset ``φ``: ``θ_h = φ + 2πχ(h)/e``;
  ``φ`` from the e-th-power circular mean ``arg Σ_h e^{ieθ_h}/e``, shifted so the identity maps
  to 0; the state is ``χ(word)·e^{inφ}``, decoded by a readout that knows the position ``n``),
  ``"relative"`` and ``"product"`` (the phase difference ``θ_a − θ_b`` or sum ``θ_a + θ_b`` of two
  channels, each up to a common offset: ``λ_a·conj(λ_b)`` or ``λ_a·λ_b`` carries the character,
  while neither channel alone does). The last three kinds are searched (every channel, every
  pair), so they also require ``quantised`` (every ``|δ| ≤ phase_tol``); they are looked for only
  among channels that carry no character on their own. **What the inspector can and cannot say**
  (``LayerReport.character_status``): ``"found"`` when it reads a character; ``"none exists"``
  when ``H`` is perfect (``H′ = H``: no non-trivial character at all, e.g. A5); otherwise
  ``"cannot tell"``, never "absent": a code spread over three or more channels, carried by the
  moduli or the input biases, or read non-linearly escapes these tests.
* **Token collisions** (layer 1, ``LayerReport.token_collisions``): pairs of tokens whose layer
  maps (every channel's ``λ`` and, for restricted layers, input bias) coincide within
  :data:`COLLISION_RTOL` (relative, numerical). Two such tokens are interchangeable for layer 1:
  substituting one for the other anywhere before the last position leaves the layer's state, and
  so its output there, unchanged. This is the positive certificate the inspector can give that
  layer 1 does **not** separate two elements (e.g. of different cosets of ``G′``).
* The **predicted horizon** (layer 1 only, where the transitions are token functions). For a channel
  whose character has image of order ``m > 1`` the readout tells the ``m`` classes apart by the
  nearest ``m``-th root of unity, so its **decision margin is π/m** (half the angle between adjacent
  ``m``-th roots). On uniform random words the accumulated phase error after ``n`` letters has mean
  ``n·δ̄`` and standard deviation ``√n·σ`` (``δ̄``, ``σ``: mean and population standard deviation of
  ``δ`` over the letters of ``G``); the phase crossing is the least ``n`` with
  ``n·|δ̄| + √n·σ ≥ π/m``. The modulus crossing is the least ``n`` with ``r^n ≤ modulus_floor``
  (``r`` the geometric mean of ``|λ|`` over the letters; ``modulus_floor`` = 0.5 by default: the
  readout's own noise floor is unknown, so the amplitude halving is the stated convention). The
  channel's horizon is (the earlier crossing) − 1, the longest length it still decodes; ``None``
  when neither crossing exists (exact roots and ``|λ| = 1``). A character of another kind gets its
  horizon the same way from its own ``δ`` (after the offset) and moduli (for a pair, the product
  ``|λ_a||λ_b|``). The model's predicted horizon is the largest horizon of a layer-1 character of
  any kind (the readout may use the best one); ``None`` with a reason when none is found. A stored run's measured
  horizon is its ``max_len_90`` (the longest ``ℓ`` with ≥ 90% of held-out sequences correct on their
  first ``ℓ`` positions; censored when it equals the test length).
* For restricted layers (input bias: ``mamba``, ``signed_mamba``, ``aussm``, ``gla``), layer 1: per
  channel the Lie algebra generated by the logarithms of the token's affine maps ``(A_x, b_x)``,
  ``G_x = [[log λ_x · I, b_x log λ_x/(λ_x − 1)], [0, 0]]`` (complex entries realified; the bias
  vectors written in an orthonormal basis of their span), through the float Lie path
  (:meth:`seqtheory.theory.lie.LieAlgebra.generated_by` with ``lie_tol``): its dimension and derived
  length; and the commutator mass ``‖Ω2‖_F`` (``Ω2 = ½ Σ_{i>j} [G_{x_i}, G_{x_j}]``, SPEC §2) on a few
  seeded random words of the train length. The abelian model has no bias: its layer is abelian.

Exact vs numerical: homomorphism fractions, kernels, image orders and the kernel ⊇ ``G^(ℓ)`` tests are
exact computations on the Cayley table given the rounding of each phase to its nearest root;
phases, moduli, ``δ``, horizons and Lie dimensions are numerical (float64 from the model's
parameters), with ``phase_tol`` and ``lie_tol`` stated in the result.

A stored run is named by its key or a unique key prefix in a results store (``store``: a
:class:`~seqtheory.models.store.ResultsStore`, e.g. the read-only store of an evidence bundle,
:func:`seqtheory.proofs_checks.evidence.bundle_store`; or ``results``: a results folder).
"""
from __future__ import annotations

import dataclasses
import difflib
import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from seqtheory.theory._messages import counted

from ._checks import check_int, check_optional_int, check_real

__all__ = ["inspect", "Inspection", "LayerReport", "ChannelReport", "CharacterReport", "LieReport",
           "SUPPORTED_FAMILIES", "CHARACTER_KINDS", "COLLISION_RTOL", "nearest_roots",
           "remove_common_offset", "character_table_test", "predicted_horizon",
           "affine_omega2_norm", "resolve_run"]

#: model families with diagonal (commuting) transitions that :func:`inspect` reads
SUPPORTED_FAMILIES = ("mamba", "signed_mamba", "aussm", "gla", "abelian")
#: families whose layers carry an input bias (restricted, [DEPTH] §3); ``abelian`` has none
RESTRICTED_FAMILIES = ("mamba", "signed_mamba", "aussm", "gla")
#: lengths beyond this (2^53, where float64 stops counting letters) count as no crossing
MAX_LENGTH = 2 ** 53
#: the kinds of character :func:`inspect` reads from a layer's phases (module docstring)
CHARACTER_KINDS = ("channel", "offset", "relative", "product")
#: two tokens' layer maps coincide when every λ and bias entry agrees within this relative
#: tolerance (float32 parameters read in float64: distinct inputs differ far above it)
COLLISION_RTOL = 1e-6


# ------------------------------------------------------------------------------------------------
# results
# ------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class ChannelReport:
    """One channel of one layer. Per-token tuples are indexed by the element index of ``H``'s
    elements in ``G``'s order (``tokens``). ``hom_fraction`` is exact; phases in radians."""

    channel: int
    tokens: tuple[int, ...]
    modulus: tuple[float, ...]
    phase: tuple[float, ...]
    context_spread: tuple[float, ...]
    root_index: tuple[int, ...]        # k_h in Z/e
    root_order: tuple[int, ...]
    phase_error: tuple[float, ...]     # δ_h (radians)
    quantised: bool
    image_order: int                   # order of χ(H) ≤ Z/e
    classes: tuple[tuple[int, tuple[int, ...]], ...]   # (k, element indices with χ = k)
    hom_fraction: Fraction
    kernel: tuple[int, ...] | None
    kernel_contains_next: bool | None
    horizon: int | None = None
    horizon_unbounded: bool = False

    @property
    def deficit(self) -> tuple[float, ...]:
        return tuple(1.0 - r for r in self.modulus)

    @property
    def is_homomorphism(self) -> bool:
        return self.hom_fraction == 1

    @property
    def nontrivial_character(self) -> bool:
        """A homomorphism with image of order > 1 (exact)."""
        return self.is_homomorphism and self.image_order > 1


@dataclass(frozen=True)
class CharacterReport:
    """A non-trivial character ``χ : H → Z/e`` read from a layer's phases (module docstring):
    ``kind`` one of :data:`CHARACTER_KINDS`, ``channels`` the channel(s) it is read from (one, or
    ``(a, b)`` for ``"relative"`` = ``θ_a − θ_b`` and ``"product"`` = ``θ_a + θ_b``), ``offset`` the
    common phase removed (radians; 0 for ``"channel"``), per token of ``H`` (``tokens``, in G's
    indices) the root index ``k = χ(h)``, the phase error ``δ`` after the offset and the modulus
    (a pair: ``|λ_a||λ_b|``). Exact on the Cayley table of ``H`` (a homomorphism, ``image_order``
    > 1, ``kernel``, whether it contains the next derived term); numerical: ``offset``, ``δ``,
    ``horizon`` (layer 1 only)."""

    kind: str
    channels: tuple[int, ...]
    offset: float
    tokens: tuple[int, ...]
    root_index: tuple[int, ...]
    phase_error: tuple[float, ...]
    modulus: tuple[float, ...]
    quantised: bool
    image_order: int
    kernel: tuple[int, ...]
    kernel_contains_next: bool
    horizon: int | None = None
    horizon_unbounded: bool = False

    def describe(self) -> str:
        """``"channel 3"``, ``"channel 3 up to a common offset 0.250π"``, ``"channels 1 − 4"``
        (relative) or ``"channels 1 + 4"`` (product; with the offset when not 0)."""
        off = (f" up to a common offset {self.offset / math.pi:.3f}π"
               if self.kind != "channel" and round(self.offset / math.pi, 3) != 0 else "")
        if len(self.channels) == 1:
            return f"channel {self.channels[0]}{off}"
        a, b = self.channels
        return f"channels {a} {'−' if self.kind == 'relative' else '+'} {b}{off}"


@dataclass(frozen=True)
class LieReport:
    """Lie algebra of one channel's affine generators (float path): ``dim``, ``derived_length``
    (None when undecided or not solvable), ``tol``, ``omega2`` (mean ``‖Ω2‖_F`` over ``words``),
    ``error`` (the float path's message when it could not decide)."""

    channel: int
    bias_rank: int
    dim: int | None
    derived_length: int | None
    tol: float
    omega2: float
    error: str | None = None


@dataclass(frozen=True)
class LayerReport:
    """One layer: ``index`` (1-based), ``layer_class`` (``"restricted"`` | ``"abelian"``), the
    derived-series term ``H = G^(index−1)`` it is tested on (``subgroup_order``) and the next term
    (``next_order``), ``channels`` and (layer 1 of a restricted family) ``lie``."""

    index: int
    layer_class: str
    subgroup_order: int
    next_order: int
    token_function: bool
    channels: tuple[ChannelReport, ...]
    lie: tuple[LieReport, ...] = ()
    characters: tuple[CharacterReport, ...] = ()
    token_collisions: tuple[tuple[int, int], ...] = ()

    @property
    def n_nontrivial(self) -> int:
        """Channels that carry a non-trivial character on their own, exactly (kind ``"channel"``)."""
        return sum(c.nontrivial_character for c in self.channels)

    @property
    def perfect(self) -> bool:
        """``H = H′``: ``H`` has no non-trivial character (exact)."""
        return self.next_order == self.subgroup_order

    @property
    def character_status(self) -> str:
        """``"found"`` (a character of some kind is read), ``"none exists"`` (``H`` is perfect)
        or ``"cannot tell"`` (none read; a code the tests do not cover may be present). Never
        "absent"."""
        return "found" if self.characters else ("none exists" if self.perfect else "cannot tell")

    def character_note(self) -> str:
        """One sentence on :attr:`character_status`."""
        if self.characters:
            kinds = sorted({c.kind for c in self.characters}, key=CHARACTER_KINDS.index)
            return (f"found {counted(len(self.characters), 'character')} ({', '.join(kinds)}): "
                    + "; ".join(c.describe() for c in self.characters[:4])
                    + ("; …" if len(self.characters) > 4 else ""))
        if self.perfect:
            return "none exists: the tested subgroup is perfect (no non-trivial character)"
        return ("cannot tell: no channel (exactly or up to a common phase offset) and no pair of "
                "channels (phase difference or sum) carries a non-trivial character within the "
                "phase tolerance; a code over three or more channels, in the moduli or the biases, "
                "or read non-linearly is not tested, so this is no evidence of absence")

    @property
    def n_non_homomorphism(self) -> int:
        return sum(not c.is_homomorphism for c in self.channels)


@dataclass(frozen=True)
class Inspection:
    """The result of :func:`inspect` (see the module docstring). ``to_dict()`` gives plain JSON
    types (Fractions as ``"p/q"`` strings)."""

    family: str
    group: str
    group_order: int
    exponent: int
    derived_series_orders: tuple[int, ...]
    element_labels: tuple[str, ...]
    source: str
    phase_tol: float
    modulus_floor: float
    lie_tol: float
    layers: tuple[LayerReport, ...]
    predicted_horizon: int | None
    predicted_unbounded: bool
    prediction_note: str
    measured_horizon: int | None = None
    train_length: int | None = None
    test_length: int | None = None
    run_key: str | None = None
    exact: str = ("homomorphism fractions, kernels, image orders and kernel ⊇ derived-term tests "
                  "(Cayley table, given each phase's nearest root)")
    numerical: str = ("phases, moduli, phase errors δ, horizons (float64), Lie dimensions "
                      "(float path with lie_tol)")

    @property
    def measured_censored(self) -> bool:
        """The measured horizon reached the test length (the run may extrapolate further)."""
        return self.measured_horizon is not None and self.measured_horizon == self.test_length

    def to_dict(self) -> dict[str, Any]:
        def conv(o):
            if isinstance(o, Fraction):
                return f"{o.numerator}/{o.denominator}"
            if dataclasses.is_dataclass(o) and not isinstance(o, type):
                d = {f.name: conv(getattr(o, f.name)) for f in dataclasses.fields(o)}
                for prop in ("deficit", "is_homomorphism", "nontrivial_character", "n_nontrivial",
                             "n_non_homomorphism", "measured_censored", "perfect",
                             "character_status"):
                    if hasattr(type(o), prop):
                        d[prop] = conv(getattr(o, prop))
                return d
            if isinstance(o, (list, tuple)):
                return [conv(v) for v in o]
            if isinstance(o, float) and not math.isfinite(o):
                return None
            return o

        return conv(self)


# ------------------------------------------------------------------------------------------------
# pure pieces: roots, characters, horizons, commutator mass
# ------------------------------------------------------------------------------------------------
def _wrap(a: np.ndarray) -> np.ndarray:
    """Angles wrapped to ``(−π, π]``."""
    w = np.remainder(np.asarray(a, dtype=np.float64) + np.pi, 2 * np.pi) - np.pi
    return np.where(w == -np.pi, np.pi, w)


def nearest_roots(phase, exponent: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For phases ``θ`` (radians, any shape): ``(k, order, δ)`` with ``e^{2πik/e}`` the nearest
    ``e``-th root of unity (``e = exponent``; these are the roots of every order dividing ``e``),
    ``order = e / gcd(k, e)`` and ``δ = θ − 2πk/e`` wrapped to ``(−π, π]``. ``ValueError`` for an
    exponent < 1 or non-finite phases."""
    exponent = check_int("exponent", exponent)
    th = np.asarray(phase, dtype=np.float64)
    if not np.all(np.isfinite(th)):
        raise ValueError("phase must be finite")
    e = int(exponent)
    k = np.remainder(np.rint(th * e / (2 * np.pi)), e).astype(np.int64)
    delta = _wrap(th - 2 * np.pi * k / e)
    order = e // np.gcd(k, e)
    return k, order, delta


def character_table_test(table: np.ndarray, values, exponent: int) -> tuple[Fraction, int, tuple[int, ...]]:
    """Exact test of the map ``a ↦ values[a] ∈ Z/e`` on a Cayley table (``table[a, b]`` = index of
    ``ab``, indices ``0..n−1``): ``(fraction of the n² products with values[ab] ≡ values[a] +
    values[b] mod e, order of the subgroup of Z/e the values generate, elements with value 0)``."""
    T = np.asarray(table)
    v = np.asarray(values, dtype=np.int64) % exponent
    n = len(v)
    if T.shape != (n, n):
        raise ValueError(f"table must be ({n}, {n}) for {n} values, got {T.shape}")
    ok = int(np.count_nonzero(v[T] == (v[:, None] + v[None, :]) % exponent))
    g = math.gcd(exponent, *map(int, v))
    return Fraction(ok, n * n), exponent // g, tuple(int(i) for i in np.flatnonzero(v == 0))


def remove_common_offset(phase, exponent: int, identity: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Phase maps read up to a common offset: for ``θ`` of shape ``(n, ...)`` (axis 0 the ``n``
    elements of a group, ``identity`` the position of its identity), ``(φ, k, δ)`` with
    ``θ_h = φ + 2πk_h/e + δ_h``, ``k_identity = 0`` and ``δ`` wrapped to ``(−π, π]``
    (``e = exponent``). ``φ`` (shape ``(...)``) is the e-th-power circular mean
    ``arg(Σ_h e^{ieθ_h})/e`` (exact when every ``θ_h − φ`` is an e-th root's angle; it averages the
    errors otherwise), shifted by the root nearest the identity's so that ``k_identity = 0`` (a
    character sends the identity to 0). ``ValueError`` for an exponent < 1, non-finite phases or
    an identity position out of range."""
    exponent = check_int("exponent", exponent, 1)
    th = np.asarray(phase, dtype=np.float64)
    if th.ndim < 1 or not np.all(np.isfinite(th)):
        raise ValueError("phase must be a finite array with the group elements on axis 0")
    identity = check_int("identity", identity, 0)
    if identity >= th.shape[0]:
        raise ValueError(f"identity must index axis 0 (length {th.shape[0]}), got {identity}")
    e = int(exponent)
    phi = np.angle(np.exp(1j * e * th).sum(axis=0)) / e
    k, _, _ = nearest_roots(th - phi, e)
    phi = _wrap(phi + 2 * np.pi * k[identity] / e)
    k, _, delta = nearest_roots(th - phi, e)
    return phi, k, delta


def _homomorphic_columns(table: np.ndarray, k: np.ndarray, e: int) -> np.ndarray:
    """For root indices ``k`` of shape ``(n, M)`` (``M`` candidate maps on the group of the
    Cayley table ``table``): which columns are homomorphisms into ``Z/e`` (exact), shape ``(M,)``."""
    return np.all(k[table] == (k[:, None, :] + k[None, :, :]) % e, axis=(0, 1))


def predicted_horizon(delta, modulus, image_order: int, modulus_floor: float = 0.5) -> int | None:
    """Longest length a channel still decodes (module docstring): least ``n ≥ 1`` with
    ``n·|δ̄| + √n·σ ≥ π/m`` or ``r^n ≤ modulus_floor``, minus one; ``None`` when neither happens
    within :data:`MAX_LENGTH` letters. ``delta``, ``modulus``: per letter (uniform words); ``m = image_order ≥ 2``."""
    image_order = check_int("image_order", image_order, 2)
    if not 0 < modulus_floor < 1:
        raise ValueError(f"modulus_floor must lie in (0, 1), got {modulus_floor!r}")
    d = np.asarray(delta, dtype=np.float64)
    r = np.asarray(modulus, dtype=np.float64)
    if d.size == 0 or d.shape != r.shape or np.any(r <= 0):
        raise ValueError("delta and modulus must be non-empty, of equal shape, moduli > 0")
    margin = math.pi / int(image_order)
    mean, sd = abs(float(d.mean())), float(d.std())
    crossings = []
    if mean > 0 or sd > 0:
        # √n at the crossing: the positive root of mean·s² + sd·s − margin, in the stable form
        s = 2 * margin / (sd + math.sqrt(sd * sd + 4 * mean * margin))
        n = max(1, math.ceil(min(s * s, 2.0 * MAX_LENGTH)))

        def crossed(k: int) -> bool:
            return k * mean + math.sqrt(k) * sd >= margin

        for _ in range(4):                     # correct the float rounding of s² (±1 at most)
            if n > 1 and crossed(n - 1):
                n -= 1
            elif not crossed(n):
                n += 1
        crossings.append(n)
    log_r, log_floor = float(np.log(r).mean()), math.log(modulus_floor)
    if log_r < 0:                              # r^n ≤ floor  ⇔  n·log r ≤ log floor
        n = max(1, math.ceil(min(log_floor / log_r, 2.0 * MAX_LENGTH)))
        for _ in range(4):                     # correct the float rounding of the quotient
            if n > 1 and (n - 1) * log_r <= log_floor:
                n -= 1
            elif n * log_r > log_floor:
                n += 1
        crossings.append(n)
    crossings = [n for n in crossings if n <= MAX_LENGTH]
    return min(crossings) - 1 if crossings else None


def affine_omega2_norm(log_lam: np.ndarray, coef: np.ndarray, word) -> float:
    """``‖Ω2‖_F`` of a word for generators ``G_x = [[ℓ_x I, c_x], [0, 0]]`` (``ℓ = log_lam[x]``
    complex scalar, ``c = coef[x]`` complex vector): ``Ω2 = [[0, ω], [0, 0]]`` with
    ``ω = ½ Σ_{i>j} (ℓ_{x_i} c_{x_j} − ℓ_{x_j} c_{x_i})`` (realified, ``‖Ω2‖_F = ‖ω‖₂``)."""
    ll = np.asarray(log_lam, dtype=np.complex128)
    cc = np.asarray(coef, dtype=np.complex128)
    w = np.asarray(word, dtype=np.int64)
    pl = np.concatenate([[0], np.cumsum(ll[w])[:-1]])
    pc = np.concatenate([np.zeros((1, cc.shape[1])), np.cumsum(cc[w], axis=0)[:-1]])
    omega = 0.5 * (ll[w][:, None] * pc - pl[:, None] * cc[w]).sum(axis=0)
    return float(np.linalg.norm(omega))


def _realify_scalar(z: complex, r: int) -> np.ndarray:
    I = np.eye(r)
    return np.block([[z.real * I, -z.imag * I], [z.imag * I, z.real * I]])


def _affine_generators(lam: np.ndarray, bias: np.ndarray, tol: float):
    """``(log λ, coefficients, rank)`` of the generators of one channel: bias rows projected on
    an orthonormal basis of their span (relative singular-value tolerance ``tol``)."""
    lam = lam.astype(np.complex128)
    ll = np.log(lam)
    if bias.size == 0 or not np.any(bias):
        coords = np.zeros((len(lam), 0))
    else:
        _, s, vt = np.linalg.svd(bias, full_matrices=False)
        rank = int(np.count_nonzero(s > tol * s[0]))
        coords = bias @ vt[:rank].T
    near_one = np.abs(lam - 1) < 1e-12
    scale = np.where(near_one, 1.0, ll / np.where(near_one, 1.0, lam - 1))
    return ll, coords * scale[:, None], coords.shape[1]


def _lie_of_channel(channel: int, lam, bias, tol: float, words) -> LieReport:
    from seqtheory.theory.lie import LieAlgebra

    ll, coef, r = _affine_generators(lam, bias, tol)
    real = bool(np.all(np.abs(ll.imag) < 1e-15)) and bool(np.all(np.abs(coef.imag) < 1e-15))
    mats = []
    for lx, cx in zip(ll, coef):
        if real:
            top = np.hstack([lx.real * np.eye(r), cx.real[:, None]])
            size = r
        else:
            top = np.hstack([_realify_scalar(complex(lx), r), np.concatenate([cx.real, cx.imag])[:, None]])
            size = 2 * r
        mats.append(np.vstack([top, np.zeros((1, size + 1))]))
    om = float(np.mean([affine_omega2_norm(ll, coef, w) for w in words])) if len(words) else 0.0
    try:
        alg = LieAlgebra.generated_by(mats, tol=tol)
        return LieReport(channel, r, alg.dim, alg.derived_length, tol, om)
    except ValueError as exc:          # NumericalRankError: the float path could not decide
        return LieReport(channel, r, None, None, tol, om, error=str(exc))


# ------------------------------------------------------------------------------------------------
# reading transitions out of a model
# ------------------------------------------------------------------------------------------------
def _family(model) -> str:
    from .abelian import AbelianStateModel
    from .model import SequenceModel

    if isinstance(model, AbelianStateModel):
        return "abelian"
    if isinstance(model, SequenceModel):
        if model.cfg.name not in SUPPORTED_FAMILIES:
            raise ValueError(f"model family {model.cfg.name!r} has no diagonal transitions; the "
                             f"inspector supports {SUPPORTED_FAMILIES}")
        return model.cfg.name
    raise TypeError(f"model must be a SequenceModel or AbelianStateModel, got {type(model).__name__}")


def _mixer_affine(mixer, family: str, x):
    """Per-position transitions ``λ (…, C)`` (complex) and input biases ``(…, C, R)`` of one
    diagonal mixer on its input ``x (…, width)`` (the layer's own projections)."""
    import torch
    import torch.nn.functional as F

    from .layers_diagonal import GATE_FLOOR

    lead = x.shape[:-1]
    if family == "gla":
        H, D = mixer.n_heads, mixer.head_dim
        _, k, v, _ = mixer.qkvg(x).chunk(4, dim=-1)
        log_alpha = (F.logsigmoid(mixer.gate(x)) / mixer.tau).clamp_min(GATE_FLOOR)
        lam = torch.exp(log_alpha).to(torch.complex128)
        k, v = k.reshape(*lead, H, D), v.reshape(*lead, H, D)
        bias = (k[..., :, None] * v[..., None, :]).reshape(*lead, H * D, D)
        return lam, bias
    H, N, P, w = mixer.n_heads, mixer.d_state, mixer.head_dim, mixer.width
    proj = mixer.in_proj(x)
    if family == "aussm":
        xin, _, bb, _, _, theta = torch.split(proj, [w, w, H * N, H * N, H * N, H], dim=-1)
        lam = torch.exp(1j * theta.to(torch.float64))
        u = xin.reshape(*lead, H, P)
    else:
        xin, _, bb, _ = torch.split(proj[..., :-H], [w, w, H * N, H * N], dim=-1)
        log_mag, parity, dt = mixer.transitions(proj[..., -H:])
        lam = torch.exp(log_mag.to(torch.float64))
        if parity is not None:
            lam = lam * (1.0 - 2.0 * parity.to(torch.float64))
        lam = lam.to(torch.complex128)
        u = xin.reshape(*lead, H, P) * dt[..., None]
    bias = (u[..., :, None] * bb.reshape(*lead, H, N)[..., None, :]).reshape(*lead, H, P * N)
    return lam, bias


def _layer_transitions(model, family: str, words: np.ndarray) -> list[tuple[np.ndarray, np.ndarray | None]]:
    """``[(λ (N, T, C) complex128, bias (N, T, C, R) float64 or None), ...]`` per layer."""
    import torch
    import torch.nn.functional as F

    tokens = torch.as_tensor(words, dtype=torch.long)
    with torch.no_grad():
        if family == "abelian":
            lam = torch.exp(torch.complex(-F.softplus(model.log_decay.double()), model.phase.double()))
            return [(lam[tokens].numpy(), None)]
        captured: list = []
        hooks = [blk.mixer.register_forward_pre_hook(lambda m, args: captured.append(args[0]))
                 for blk in model.blocks]
        was_training = model.training
        try:
            model.eval()
            model(tokens)
        finally:
            for h in hooks:
                h.remove()
            model.train(was_training)
        out = []
        for blk, x in zip(model.blocks, captured):
            lam, bias = _mixer_affine(blk.mixer, family, x)
            out.append((lam.numpy(), bias.double().numpy()))
        return out


def _per_token(lam: np.ndarray, words: np.ndarray, tokens) -> tuple[np.ndarray, ...]:
    """Per token: (geometric-mean modulus, circular-mean phase, largest phase deviation), each
    ``(len(tokens), C)``."""
    mods, phs, spr = [], [], []
    for t in tokens:
        sel = lam[words == t]                                  # (occurrences, C)
        if len(sel) == 0:
            raise ValueError(f"token {t} does not occur in the sample words")
        r = np.abs(sel)
        mean_dir = np.angle((sel / np.where(r > 0, r, 1)).mean(axis=0))
        mods.append(np.exp(np.log(np.maximum(r, np.finfo(float).tiny)).mean(axis=0)))
        phs.append(mean_dir)
        spr.append(np.abs(_wrap(np.angle(sel) - mean_dir)).max(axis=0))
    return np.array(mods), np.array(phs), np.array(spr)


# ------------------------------------------------------------------------------------------------
# stored runs
# ------------------------------------------------------------------------------------------------
def resolve_run(store, run: str):
    """The :class:`~seqtheory.models.store.RunRecord` of the finished run named by a key or a
    unique key prefix in ``store``. ``ValueError`` for an empty name, an unknown key (the nearest
    keys suggested), an ambiguous prefix (the candidates named) or an unfinished run."""
    if not isinstance(run, str) or not run.strip():
        raise ValueError(f"run must be a non-empty run key or key prefix, got {run!r}")
    run = run.strip().lower()
    records = store.runs()
    hits = [r for r in records if r.key.startswith(run)]
    if not hits:
        keys = [r.key for r in records]
        near = difflib.get_close_matches(run, [k[:len(run)] for k in keys], n=3, cutoff=0.5)
        sugg = [k[:12] for k in keys if k[:len(run)] in near][:3]
        hint = f"; nearest keys: {', '.join(sugg)}" if sugg else (
            f"; the store holds {counted(len(keys), 'run')}" if keys else "; the store holds no run")
        raise ValueError(f"run {run!r}: no run key starts with it in {store.root}{hint}")
    if len(hits) > 1:
        raise ValueError(f"run {run!r} is ambiguous: {counted(len(hits), 'key')} start with it "
                         f"({', '.join(r.key[:12] for r in hits[:5])}); give more characters")
    rec = hits[0]
    if rec.status != "finished" or rec.result is None:
        raise ValueError(f"run {rec.key[:12]} is {rec.status}, not finished: nothing to inspect")
    return rec


def _train_config(d: dict):
    """The TrainConfig of a stored run's config dict; ``ValueError`` for a stored job of another
    kind (a precision sweep, a head experiment: no diagonal model to inspect)."""
    import dataclasses

    from .training import TrainConfig

    names = {f.name for f in dataclasses.fields(TrainConfig)}
    if not isinstance(d, dict) or not {"task", "model"} <= set(d) or set(d) - names:
        extra = sorted(set(d) - names) if isinstance(d, dict) else []
        raise ValueError("the run is not a training run of `seqtheory train` (its configuration "
                         f"has the fields {', '.join(extra[:4]) or 'of another kind'}…): a "
                         "precision sweep, head experiment or sweep job has no trained diagonal "
                         "model to inspect")
    return TrainConfig.from_dict(d)


def _load_run(run: str, store, results):
    from .store import ResultsStore, holds_store
    from .training import load_model

    if store is None:
        if results is None:
            raise ValueError("a stored run needs store= (a ResultsStore) or results= (a results folder)")
        if not holds_store(results):
            raise ValueError(f"results {str(results)!r} holds no results store (results.sqlite)")
        store = ResultsStore(results)
    rec = resolve_run(store, run)
    cfg = _train_config(rec.config)
    if cfg.is_rotation:
        raise ValueError(f"run {rec.key[:12]} is the task {cfg.task!r}, not a word problem over a "
                         "finite group: the inspector needs a group task")
    if cfg.model not in SUPPORTED_FAMILIES:
        raise ValueError(f"run {rec.key[:12]}: model family {cfg.model!r} has no diagonal "
                         f"transitions; the inspector supports {SUPPORTED_FAMILIES}")
    return load_model(cfg, store), cfg, rec, store


# ------------------------------------------------------------------------------------------------
# the inspector
# ------------------------------------------------------------------------------------------------
def _check_params(phase_tol, modulus_floor, lie_tol, n_letters, context_length, seed) -> tuple:
    """The parameters of :func:`inspect`, converted (:mod:`seqtheory.theory.contract`)."""
    reals = [None if v is None and name == "phase_tol" else
             check_real(name, v, lo, hi, above=True, below=True)
             for name, v, lo, hi in (("phase_tol", phase_tol, 0.0, math.pi),
                                     ("modulus_floor", modulus_floor, 0.0, 1.0),
                                     ("lie_tol", lie_tol, 0.0, 1.0))]
    return (*reals, check_int("n_letters", n_letters, 1, MAX_LETTERS),
            check_optional_int("context_length", context_length, 1, MAX_LETTERS),
            check_int("seed", seed, 0))


#: the most letters (and the longest context) :func:`inspect` feeds the model
MAX_LETTERS = 2 ** 20


def _channel(c: int, k, order, delta, mods, phs, spr, H_idx, sub_table, next_idx, e: int,
             phase_tol: float, modulus_floor: float, layer: int) -> ChannelReport:
    frac, m, kern = character_table_test(sub_table, k, e)
    kern_el = tuple(H_idx[i] for i in kern) if frac == 1 else None
    contains = set(next_idx) <= set(kern_el) if kern_el is not None else None
    classes = tuple((int(v), tuple(int(H_idx[i]) for i in np.flatnonzero(k == v)))
                    for v in sorted(set(map(int, k))))
    horizon, unbounded = None, False
    if layer == 1 and frac == 1 and m > 1:
        horizon = predicted_horizon(delta, mods, m, modulus_floor)
        unbounded = horizon is None
    return ChannelReport(
        channel=c, tokens=tuple(int(i) for i in H_idx), modulus=tuple(map(float, mods)),
        phase=tuple(map(float, phs)), context_spread=tuple(map(float, spr)),
        root_index=tuple(map(int, k)), root_order=tuple(map(int, order)),
        phase_error=tuple(map(float, delta)), quantised=bool(np.all(np.abs(delta) <= phase_tol)),
        image_order=m, classes=classes, hom_fraction=frac, kernel=kern_el,
        kernel_contains_next=contains, horizon=horizon, horizon_unbounded=unbounded)


def _channel_character(c: ChannelReport, modulus) -> CharacterReport:
    return CharacterReport(kind="channel", channels=(c.channel,), offset=0.0, tokens=c.tokens,
                           root_index=c.root_index, phase_error=c.phase_error,
                           modulus=tuple(map(float, modulus)), quantised=c.quantised,
                           image_order=c.image_order, kernel=c.kernel,
                           kernel_contains_next=bool(c.kernel_contains_next), horizon=c.horizon,
                           horizon_unbounded=c.horizon_unbounded)


def _searched_characters(kind: str, psi: np.ndarray, mods: np.ndarray, members: list[tuple[int, ...]],
                         sub: dict, e: int, phase_tol: float, modulus_floor: float,
                         layer: int) -> list[CharacterReport]:
    """The columns of ``psi`` (``(|H|, M)`` candidate phase maps, ``mods`` their moduli) that are
    non-trivial homomorphisms up to a common offset with every ``|δ| ≤ phase_tol``."""
    if psi.shape[1] == 0:
        return []
    phi, k, delta = remove_common_offset(psi, e, sub["identity"])
    ok = np.all(np.abs(delta) <= phase_tol, axis=0) & np.any(k != 0, axis=0)
    idx = np.flatnonzero(ok)
    idx = idx[_homomorphic_columns(sub["table"], k[:, idx], e)]
    out = []
    for m in idx:
        km = k[:, m]
        order = e // math.gcd(e, *map(int, km))
        kernel = tuple(sub["H_idx"][i] for i in np.flatnonzero(km == 0))
        horizon = predicted_horizon(delta[:, m], mods[:, m], order, modulus_floor) if layer == 1 else None
        out.append(CharacterReport(
            kind=kind, channels=members[m], offset=float(phi[m]), tokens=tuple(sub["H_idx"]),
            root_index=tuple(map(int, km)), phase_error=tuple(map(float, delta[:, m])),
            modulus=tuple(map(float, mods[:, m])), quantised=True, image_order=order, kernel=kernel,
            kernel_contains_next=set(sub["next_idx"]) <= set(kernel), horizon=horizon,
            horizon_unbounded=layer == 1 and horizon is None))
    return out


def _layer_characters(chans, phs: np.ndarray, mods: np.ndarray, sub: dict, e: int, phase_tol: float,
                      modulus_floor: float, layer: int) -> tuple[CharacterReport, ...]:
    """Every character of the layer (module docstring): exact channels, then channels up to a
    common offset, then pairs (difference, sum) of the channels that carry none alone."""
    found = [_channel_character(c, mods[:, c.channel]) for c in chans if c.nontrivial_character]
    if sub["perfect"]:
        return tuple(found)
    rest = [c.channel for c in chans if not c.nontrivial_character]
    found += _searched_characters("offset", phs[:, rest], mods[:, rest], [(c,) for c in rest], sub, e,
                                  phase_tol, modulus_floor, layer)
    carried = {ch for f in found for ch in f.channels}
    rest = [c for c in rest if c not in carried]
    a, b = np.triu_indices(len(rest), 1)
    ra, rb = np.asarray(rest, dtype=np.int64)[a], np.asarray(rest, dtype=np.int64)[b]
    pairs = [(int(i), int(j)) for i, j in zip(ra, rb)]
    for kind, sign in (("relative", -1.0), ("product", 1.0)):
        found += _searched_characters(kind, phs[:, ra] + sign * phs[:, rb], mods[:, ra] * mods[:, rb],
                                      pairs, sub, e, phase_tol, modulus_floor, layer)
    return tuple(found)


def token_collisions(lam: np.ndarray, bias: np.ndarray | None, rtol: float = COLLISION_RTOL) -> tuple[tuple[int, int], ...]:
    """Pairs ``(g, h)``, ``g < h``, of tokens whose layer maps coincide: ``lam`` ``(V, C)`` complex
    per-token transitions, ``bias`` ``(V, C, R)`` per-token input biases or None (abelian layer);
    every entry agrees within ``rtol`` × the largest entry of its kind (at least 1). Numerical."""
    lam = np.asarray(lam, dtype=np.complex128)
    V = lam.shape[0]
    parts = [lam.reshape(V, -1)]
    if bias is not None:
        parts.append(np.asarray(bias).reshape(V, -1))
    close = np.ones((V, V), dtype=bool)
    for x in parts:
        scale = rtol * max(1.0, float(np.max(np.abs(x))) if x.size else 1.0)
        close &= np.max(np.abs(x[:, None, :] - x[None, :, :]), axis=-1, initial=0.0) <= scale
    return tuple((int(g), int(h)) for g, h in zip(*np.nonzero(np.triu(close, 1))))


def inspect(target, *, group=None, store=None, results=None, phase_tol: float | None = None,
            modulus_floor: float = 0.5, lie_tol: float = 1e-6, n_letters: int = 1024,
            context_length: int | None = None, seed: int = 0, lie: bool = True,
            run_result: dict | None = None) -> Inspection:
    """Inspect a diagonal model (module docstring); never trains.

    ``target``: a :class:`~seqtheory.models.model.SequenceModel` (families
    :data:`SUPPORTED_FAMILIES`) or :class:`~seqtheory.models.abelian.AbelianStateModel` in memory
    (then ``group`` is required: a :class:`~seqtheory.theory.groups.FiniteGroup` or a name for
    ``FiniteGroup.named``, with ``|G|`` = the model's vocabulary), or a run key / unique key prefix
    of a finished word-problem run in ``store`` (a ResultsStore; an evidence bundle's read-only
    store works) or in the results folder ``results``. ``phase_tol``: radians, default ``π/(2e)``
    (half the largest possible δ); ``modulus_floor`` in (0, 1); ``lie_tol``: relative tolerance
    of the float Lie path and of the bias-span rank; seeded (``seed``) uniform random words of
    length ``context_length`` (default the run's train length, else 8), about ``n_letters``
    letters in all, give the transitions at deeper layers. ``lie=False`` skips the Lie algebras (``LayerReport.lie`` empty).
    ``run_result``: with a model in memory, the stored result dict of the run it was loaded from
    (:func:`seqtheory.models.training.load_model`); gives the measured horizon and the lengths.

    Raises ``ValueError`` for an unknown / ambiguous / unfinished run (nearest keys suggested), a
    family without diagonal transitions (the supported ones listed), a non-group task, a group
    whose order is not the vocabulary size, or bad parameters; ``TypeError`` for a target that is
    neither a model nor a string."""
    from seqtheory.theory.groups import FiniteGroup

    phase_tol, modulus_floor, lie_tol, n_letters, context_length, seed = _check_params(
        phase_tol, modulus_floor, lie_tol, n_letters, context_length, seed)
    if run_result is not None and not (isinstance(run_result, dict) and "config" in run_result
                                       and "test" in run_result and "key" in run_result):
        raise ValueError("run_result must be a stored run's result dict (with config, key, test)")
    if isinstance(target, str):
        model, cfg, rec, store = _load_run(target, store, results)
        G, run_result = FiniteGroup.named(cfg.task), rec.result
        source = f"run {rec.key[:12]} ({cfg.task}, {cfg.model}, depth {cfg.depth}) in {store.root}"
    else:
        _family(target)
        if group is None:
            raise ValueError("group is required for a model in memory (a FiniteGroup or a group name)")
        G = group if isinstance(group, FiniteGroup) else FiniteGroup.named(group)
        model, source = target, "model in memory"
        if run_result is not None:
            c = run_result["config"]
            source = (f"run {run_result['key'][:12]} ({c.get('task')}, {c.get('model')}, depth "
                      f"{c.get('depth')}), model given")
    family = _family(model)
    run_cfg = run_result["config"] if run_result is not None else {}
    V = model.vocab_size if family == "abelian" else model.cfg.vocab_size
    if V != G.order:
        raise ValueError(f"group {G.name or G} has order {G.order} but the model has {V} tokens "
                         "(the word problem's tokens are the group elements)")
    e = G.exponent
    phase_tol = math.pi / (2 * e) if phase_tol is None else float(phase_tol)
    T = context_length or run_cfg.get("train_length") or 8
    rng = np.random.default_rng([seed, G.order, T])
    words = rng.integers(0, V, (max(-(-n_letters // T), -(-V // T)), T))
    words.flat[:V] = np.arange(V)                             # every token occurs
    layers_raw = _layer_transitions(model, family, words)
    series = list(G.derived_series())
    table = G.cayley_table()
    layers = []
    for li, (lam, bias) in enumerate(layers_raw, start=1):
        Hs = series[min(li - 1, len(series) - 1)]
        nxt = series[min(li, len(series) - 1)]
        H_idx = [G.index(h) for h in Hs.elements]
        next_idx = [G.index(h) for h in nxt.elements]
        pos = {g: i for i, g in enumerate(H_idx)}
        sub_table = np.vectorize(pos.__getitem__)(table[np.ix_(H_idx, H_idx)])
        mods, phs, spr = _per_token(lam, words, H_idx)
        k, order, delta = nearest_roots(phs, e)
        chans = tuple(_channel(c, k[:, c], order[:, c], delta[:, c], mods[:, c], phs[:, c], spr[:, c],
                               H_idx, sub_table, next_idx, e, phase_tol, modulus_floor, li)
                      for c in range(lam.shape[-1]))
        sub = {"table": sub_table, "H_idx": H_idx, "next_idx": next_idx, "identity": pos[G.identity_index],
               "perfect": nxt.order == Hs.order}
        chars = _layer_characters(chans, phs, mods, sub, e, phase_tol, modulus_floor, li)
        lies, collisions = (), ()
        if li == 1:
            idx = np.arange(V)
            lam_tok = np.stack([lam[words == t].mean(axis=0) for t in idx])       # (V, C)
            bias_tok = None if bias is None else np.stack([bias[words == t].mean(axis=0) for t in idx])
            collisions = token_collisions(lam_tok, bias_tok)
            if lie and family in RESTRICTED_FAMILIES:
                wr = np.random.default_rng([seed, 1]).integers(0, V, (4, T))
                lies = tuple(_lie_of_channel(c, lam_tok[:, c], bias_tok[:, c], lie_tol, wr)
                             for c in range(lam.shape[-1]))
        layers.append(LayerReport(li, "restricted" if family in RESTRICTED_FAMILIES else "abelian",
                                  Hs.order, nxt.order, li == 1, chans, lies, chars, collisions))
    pred, unbounded, note = _model_prediction(layers[0])
    test = run_result["test"] if run_result is not None else {}
    return Inspection(
        family=family, group=G.name or str(G), group_order=G.order, exponent=e,
        derived_series_orders=tuple(t.order for t in series),
        element_labels=tuple(str(x) for x in G.elements), source=source, phase_tol=phase_tol,
        modulus_floor=float(modulus_floor), lie_tol=float(lie_tol), layers=tuple(layers),
        predicted_horizon=pred, predicted_unbounded=unbounded, prediction_note=note,
        measured_horizon=test.get("max_len_90"), train_length=run_cfg.get("train_length"),
        test_length=test.get("test_length"),
        run_key=run_result["key"] if run_result is not None else None)


def _model_prediction(layer: LayerReport) -> tuple[int | None, bool, str]:
    chars = layer.characters
    if not chars:
        return None, False, f"no layer-1 character read ({layer.character_note()})"
    if any(c.horizon_unbounded for c in chars):
        return None, True, "a layer-1 character has exact roots and |λ| = 1: no crossing"
    best = max(chars, key=lambda c: c.horizon)
    return best.horizon, False, (f"largest horizon over {counted(len(chars), 'layer-1 character')} "
                                 f"({best.describe()})")

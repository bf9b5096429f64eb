"""One restricted layer tracking S3 exactly: S3 ≅ AGL(1, 3).

Source: [DEPTH] G. Heo et al., arXiv:2603.05573, experiments on S3 (S3 has derived length 2 and is
reported to need two abelian layers) and SPEC §3.1 (``depth.exp.s3_depth``): Mamba / AUSSM layers
are *restricted* (commuting linear parts, free bias), and one restricted layer with a periodic
output map tracks S3 at every length.

Construction. AGL(1, 3) is the group of affine maps ``u ↦ s·u + c`` of Z/3 (``s ∈ {1, −1}``,
``c ∈ Z/3``), order 6, non-abelian, hence ≅ S3; its product is composition,
``(s1, c1)·(s2, c2) = (s1 s2, s1 c2 + c1)``. The layer holds a real state ``(σ, z)`` starting at
``(1, 0)`` and token ``(s, c)`` acts by ``σ ← s·σ``, ``z ← s·z + c``: linear part ``diag(s, s)``
(all tokens' linear parts commute), bias ``(0, c)``. After a word the state is the affine map
``u ↦ σu + z`` of the prefix product in the ``left`` convention (``g_t = x_t · g_{t−1}``, SPEC §2),
so the output ``(σ, z mod 3)`` is the prefix product exactly, at every length (|z| ≤ 2T stays an
exact float integer for T < 2^51).
"""
from __future__ import annotations

import numpy as np

from seqtheory.theory.contract import check_bool, check_instance

__all__ = ["agl13_table", "agl13_coordinates", "agl_layer_states", "agl_decode",
           "agl_step_certificate"]

_ELEMENTS = tuple((s, c) for s in (1, -1) for c in range(3))


def agl13_table() -> np.ndarray:
    """Cayley table of AGL(1, 3) on the elements ``(s, c)`` in the order
    ``(1,0), (1,1), (1,2), (−1,0), (−1,1), (−1,2)``, product = composition (apply the right
    factor first)."""
    idx = {e: i for i, e in enumerate(_ELEMENTS)}
    T = np.empty((6, 6), dtype=np.int64)
    for i, (s1, c1) in enumerate(_ELEMENTS):
        for j, (s2, c2) in enumerate(_ELEMENTS):
            T[i, j] = idx[(s1 * s2, (s1 * c2 + c1) % 3)]
    return T


def agl13_coordinates(group) -> np.ndarray:
    """``(s, c)`` of every element of ``group`` (a :class:`seqtheory.theory.groups.FiniteGroup`
    isomorphic to S3), under an explicit isomorphism onto AGL(1, 3) verified on the full Cayley
    table. Returns an int array (order, 2). ``ValueError`` if the group is not ≅ S3."""
    from seqtheory.theory.groups import FiniteGroup

    check_instance("group", group, FiniteGroup, "a FiniteGroup")
    agl = FiniteGroup.from_cayley_table(agl13_table(), name="AGL(1,3)")
    iso = group.isomorphism(agl)
    if iso is None or not iso.verify():
        raise ValueError(f"group must be isomorphic to S3 = AGL(1,3), got order {group.order}")
    return np.array([_ELEMENTS[int(i)] for i in iso.images], dtype=np.int64)


def agl_layer_states(coords, words, bias: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """Run the restricted layer ``σ ← s·σ``, ``z ← s·z + c`` (``bias=False``: ``z ← s·z``, a
    purely abelian layer) on a batch of words of element indices (B, T); ``coords`` from
    :func:`agl13_coordinates`. Returns the float64 states ``(σ, z)``, each (B, T), after every
    prefix."""
    bias = check_bool("bias", bias)
    C = np.asarray(coords)
    W = np.asarray(words)
    if W.ndim != 2 or not np.issubdtype(W.dtype, np.integer):
        raise ValueError(f"words must be a (B, T) integer array, got shape {W.shape}")
    if C.ndim != 2 or C.shape[1] != 2 or (W.size and (W.min() < 0 or W.max() >= C.shape[0])):
        raise ValueError("coords must be (order, 2) and words must index it")
    s = C[W, 0].astype(np.float64)
    c = C[W, 1].astype(np.float64) if bias else np.zeros(W.shape)
    sig = np.ones(W.shape[0])
    z = np.zeros(W.shape[0])
    out_s, out_z = np.empty(W.shape), np.empty(W.shape)
    for t in range(W.shape[1]):
        sig = s[:, t] * sig
        z = s[:, t] * z + c[:, t]
        out_s[:, t], out_z[:, t] = sig, z
    return out_s, out_z


def agl_decode(coords, sigma: np.ndarray, z: np.ndarray) -> np.ndarray:
    """Output map: ``(σ, z mod 3)`` → element index (int array, shape of ``sigma``)."""
    C = np.asarray(coords)
    lookup = {(int(s), int(c)): i for i, (s, c) in enumerate(C)}
    key_s = np.rint(sigma).astype(np.int64)
    key_c = np.mod(np.rint(z).astype(np.int64), 3)
    table = np.full((3, 3), -1, dtype=np.int64)
    for (s, c), i in lookup.items():
        table[s + 1, c] = i
    return table[key_s + 1, key_c]


def agl_step_certificate(group, coords) -> dict:
    """The induction behind "exact at every length", checked exactly on integers: the initial
    state ``(1, 0)`` is the identity's coordinates, and for every element ``g`` (as the reduced
    state ``(σ, z mod 3)`` = its coordinates) and every token ``x = (s, c)`` the layer's update
    ``(s·σ, s·z + c)``, reduced mod 3, is the coordinates of ``x · g`` (``left`` convention).
    Since ``(s·z + c) mod 3`` depends on ``z`` only through ``z mod 3``, the state after any word
    reduces to the prefix product's coordinates, at every length. ``group``: a
    :class:`~seqtheory.theory.groups.FiniteGroup`; ``coords``: :func:`agl13_coordinates` of it.
    Returns ``{"transitions": int, "failures": [(g, x) indices], "initial_ok": bool}``."""
    C = [(int(s), int(c)) for s, c in np.asarray(coords)]
    if len(C) != group.order:
        raise ValueError(f"coords must have one row per element ({group.order}), got {len(C)}")
    index = {e: i for i, e in enumerate(C)}
    failures = []
    for g, (sig, z) in enumerate(C):
        for x, (s, c) in enumerate(C):
            xg = group.index(group.multiply(group.elements[x], group.elements[g]))
            if index.get((s * sig, (s * z + c) % 3)) != xg:
                failures.append((g, x))
    return {"transitions": len(C) ** 2, "failures": failures,
            "initial_ok": index.get((1, 0)) == group.index(group.identity)}

"""Cascades of abelian layers tracking the word problem of a solvable finite group.

Source: [DEPTH] G. Heo et al., arXiv:2603.05573, Theorem 3.4 (a system of derived length k is
simulated by k abelian layers), made constructive for finite groups in the Krohn–Rhodes /
wreath-product way: for a normal series ``G = H_0 ▷ H_1 ▷ … ▷ H_k = 1`` with abelian factors
(the derived series, so ``k`` = derived length), write the prefix product as

    P_t = s_0(q^0_t) · s_1(q^1_t) ⋯ s_{k-1}(q^{k-1}_t),

where ``q^i_t ∈ Q_i = H_i / H_{i+1}`` and ``s_i`` is a transversal (section) of ``Q_i`` in ``H_i``.
Layer ``i`` reads a token ``y^i_t ∈ H_i`` (``y^0_t = x_t``) and runs the *abelian* word problem
``q^i_t = [y^i_t] · q^i_{t-1}`` in ``Q_i`` — decomposed as a product of cyclic counters
``Z/m_1 × … × Z/m_r``, i.e. complex-diagonal unit-modulus transitions ``diag(ω_j^{e_j})`` with
``ω_j = exp(2πi/m_j)``. The next layer's token is

    y^{i+1}_t = s_i(q^i_t)^{-1} · y^i_t · s_i(q^i_{t-1})  ∈ H_{i+1},

computable from the layer's token and its *current* state (``q^i_{t-1} = [y^i_t]^{-1} q^i_t``),
so every layer's input depends on the token and the states of the layers below only. Then
``r^i_t = s_i(q^i_t)^{-1} r^{i-1}_t`` obeys ``r^i_t = y^{i+1}_t r^i_{t-1}`` (left action), and
``r^{k-1}_t ∈ H_k = 1`` closes the recursion.

Convention (SPEC §2): ``left`` prefix products ``g_t = x_t · g_{t-1}`` (default); ``right``
(``g_t = g_{t-1} · x_t``) is the left word problem of the opposite group (transposed table).
Elements are the integer indices of a Cayley table ``T[i, j] = index(e_i · e_j)``.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field

import numpy as np

from seqtheory.theory._checks import check_int
from seqtheory.theory.contract import as_list, check_instance
from seqtheory.theory._messages import counted

__all__ = [
    "AbelianLayer",
    "GroupCascade",
    "build_cascade",
    "cascade_for_group",
    "prefix_products",
    "cyclic_decomposition",
    "all_words",
]


def _check_table(table) -> np.ndarray:
    """A validated group Cayley table as int64 (``TypeError`` for non-integer dtypes; the group
    axioms are checked by :func:`seqtheory.theory.groups` in ``O(n^2)`` memory: closure,
    identity, Latin square, associativity, inverses -- ``ValueError`` naming the failure)."""
    from seqtheory.theory.groups import validate_table

    T = np.asarray(table)
    if T.dtype != object and T.ndim == 2 and T.size and not np.issubdtype(T.dtype, np.integer):
        raise TypeError(f"table must hold integer element indices, got dtype {T.dtype}")
    return validate_table(T).astype(np.int64)


def _identity(T: np.ndarray) -> int:
    N = T.shape[0]
    ids = [e for e in range(N) if np.array_equal(T[e], np.arange(N))]
    if len(ids) != 1 or not np.array_equal(T[:, ids[0]], np.arange(N)):
        raise ValueError("table has no two-sided identity element")
    return ids[0]


def cyclic_decomposition(qmul: np.ndarray, identity: int) -> tuple[list[int], list[int]]:
    """Generators ``g_1..g_r`` and orders ``m_1..m_r`` of an abelian group (multiplication table
    ``qmul``) such that ``(e_1..e_r) ↦ g_1^{e_1} ⋯ g_r^{e_r}`` is an isomorphism
    ``Z/m_1 × … × Z/m_r → Q``. Depth-first search (exact; intended for small groups), largest
    orders first. Raises ``ValueError`` when ``qmul`` is not commutative."""
    qmul = np.asarray(qmul)
    if not np.array_equal(qmul, qmul.T):
        raise ValueError("qmul is not commutative: the quotient is not abelian")
    Nq = qmul.shape[0]
    identity = check_int("identity", identity, 0, Nq - 1)

    def powers(g: int) -> list[int]:
        out, x = [identity], g
        while x != identity:
            out.append(x)
            x = int(qmul[x, g])
        return out

    cyc = {g: powers(g) for g in range(Nq)}
    cands = sorted((g for g in range(Nq) if g != identity), key=lambda g: -len(cyc[g]))

    def search(H: set[int], gens: list[int]) -> list[int] | None:
        if len(H) == Nq:
            return gens
        for g in cands:
            if g in H:
                continue
            P = cyc[g]
            if any(p in H for p in P[1:]):
                continue
            newH = {int(qmul[h, p]) for h in H for p in P}
            if len(newH) != len(H) * len(P):
                continue
            res = search(newH, gens + [g])
            if res is not None:
                return res
        return None

    gens = search({identity}, [])
    assert gens is not None  # every finite abelian group is a product of cyclic groups
    return gens, [len(cyc[g]) for g in gens]


@dataclass
class AbelianLayer:
    """One abelian layer: the quotient ``Q = H_i / H_{i+1}`` as cyclic counters.

    ``coset_of[g]`` (g ∈ H_i, else −1) is the coset id; ``section[q]`` the transversal element
    of coset ``q``; ``orders`` the cyclic factors ``m_j``; ``coords[q]`` the exponent vector of
    coset ``q``; ``coord_to_coset`` the inverse map (indexed by the mixed-radix code);
    ``next_token[y, q]`` the next layer's token given the token ``y ∈ H_i`` and the *current*
    state ``q``.
    """

    coset_of: np.ndarray
    section: np.ndarray
    orders: list[int]
    coords: np.ndarray
    coord_to_coset: np.ndarray
    next_token: np.ndarray
    subgroup_order: int
    quotient_order: int

    @property
    def state_dim(self) -> int:
        """Number of complex-diagonal state coordinates (one per cyclic counter)."""
        return len(self.orders)

    def code(self, coords: np.ndarray) -> np.ndarray:
        """Mixed-radix code of exponent vectors (last axis) -> flat index into coord_to_coset."""
        code = np.zeros(coords.shape[:-1], dtype=np.int64)
        for j, m in enumerate(self.orders):
            code = code * m + coords[..., j]
        return code


@dataclass
class GroupCascade:
    """A k-layer cascade of abelian layers tracking prefix products of a finite group."""

    table: np.ndarray
    identity: int
    layers: list[AbelianLayer]
    convention: str = "left"
    series_orders: list[int] = field(default_factory=list)

    @property
    def depth(self) -> int:
        return len(self.layers)

    @property
    def state_dim(self) -> int:
        """Total number of complex-diagonal state coordinates over all layers."""
        return sum(L.state_dim for L in self.layers)

    def run(self, words, mode: str = "exact") -> np.ndarray:
        """Prefix products (element indices) of a batch of words, as decoded by the cascade.

        ``words``: int array ``(B, T)`` of element indices. ``mode="exact"``: integer counters
        ``mod m`` (cumulative sums); ``mode="float"``: complex unit-modulus phases multiplied by a
        cumulative product (the parallel-scan form of a diagonal layer), decoded by rounding the
        angle. Returns an int array ``(B, T)``.
        """
        if mode not in ("exact", "float"):
            raise ValueError(f"mode must be 'exact' or 'float', got {mode!r}")
        W = _check_words(words, self.table.shape[0])
        tokens = W
        decoded = np.full(W.shape, self.identity, dtype=np.int64)
        first = True
        for L in self.layers:
            cos = L.coset_of[tokens]
            if np.any(cos < 0):
                raise RuntimeError("a layer token left its subgroup: the series is not valid")
            inc = L.coords[cos]  # (B, T, r)
            state = np.empty_like(inc)
            for j, m in enumerate(L.orders):
                if mode == "exact":
                    state[..., j] = np.cumsum(inc[..., j], axis=1) % m
                else:
                    phase = np.exp(2j * np.pi * inc[..., j] / m)
                    z = np.cumprod(phase, axis=1)
                    state[..., j] = np.rint(np.angle(z) * m / (2 * np.pi)).astype(np.int64) % m
            q = L.coord_to_coset[L.code(state)]
            rep = L.section[q]
            decoded = rep if first else self.table[decoded, rep]
            first = False
            tokens = L.next_token[tokens, q]
        return decoded

    def truncated(self, n_layers: int) -> "GroupCascade":
        """The same cascade with only its first ``n_layers`` layers (a negative control: the
        missing layers' states are taken to be the identity)."""
        n_layers = check_int("n_layers", n_layers, 0, len(self.layers))
        return GroupCascade(self.table, self.identity, self.layers[:n_layers], self.convention,
                            self.series_orders)


def _check_words(words, N: int) -> np.ndarray:
    W = np.asarray(words)
    if W.ndim == 1:
        W = W[None, :]
    if W.ndim != 2:
        raise ValueError(f"words must be a (B, T) array, got shape {W.shape}")
    if W.size and not np.issubdtype(W.dtype, np.integer):
        raise TypeError(f"words must hold integer element indices, got dtype {W.dtype}")
    W = W.astype(np.int64)
    if W.size and (W.min() < 0 or W.max() >= N):
        raise ValueError(f"words must hold element indices in [0, {N})")
    return W


def prefix_products(table, words, convention: str = "left") -> np.ndarray:
    """True prefix products of a batch of words (``(B, T)`` element indices; a 1-D word is one
    batch row). Returns an int64 array of the same shape.

    ``left``: ``g_t = x_t · g_{t-1}``; ``right``: ``g_t = g_{t-1} · x_t`` (SPEC §2). ``table``
    is validated as a group table (``ValueError``/``TypeError`` as :func:`build_cascade`)."""
    T = _check_table(table)
    W = _check_words(words, T.shape[0])
    if convention not in ("left", "right"):
        raise ValueError(f"convention must be 'left' or 'right', got {convention!r}")
    out = np.empty_like(W)
    if W.shape[1] == 0:
        return out
    g = W[:, 0].copy()
    out[:, 0] = g
    for t in range(1, W.shape[1]):
        g = T[W[:, t], g] if convention == "left" else T[g, W[:, t]]
        out[:, t] = g
    return out


def _layer(T: np.ndarray, identity: int, H: np.ndarray, K: np.ndarray) -> AbelianLayer:
    N = T.shape[0]
    inH = np.zeros(N, dtype=bool)
    inH[H] = True
    inK = np.zeros(N, dtype=bool)
    inK[K] = True
    if not inK[identity] or not inH[K].all():
        raise ValueError("series is not decreasing: H_{i+1} must be a subgroup of H_i")
    # closure and normality of K in H
    if not inK[T[np.ix_(K, K)]].all():
        raise ValueError("series term is not closed under multiplication")
    inv = np.argmax(T == identity, axis=1)
    for h in H:
        if not inK[T[T[h, K], inv[h]]].all():
            raise ValueError("series term H_{i+1} is not normal in H_i")
    coset_of = np.full(N, -1, dtype=np.int64)
    section: list[int] = []
    # identity coset first, section(identity coset) = identity
    for g in [identity] + [int(h) for h in H if h != identity]:
        if coset_of[g] >= 0:
            continue
        coset_of[T[g, K]] = len(section)
        section.append(g)
    section_arr = np.asarray(section, dtype=np.int64)
    Nq = len(section)
    qmul = coset_of[T[np.ix_(section_arr, section_arr)]]
    # well-defined quotient multiplication (follows from normality; checked on all pairs)
    if not np.array_equal(coset_of[T[np.ix_(H, H)]], qmul[np.ix_(coset_of[H], coset_of[H])]):
        raise ValueError("quotient multiplication is not well defined")  # pragma: no cover
    if not np.array_equal(qmul, qmul.T):
        raise ValueError("factor H_i / H_{i+1} is not abelian: no abelian layer can track it")
    gens, orders = cyclic_decomposition(qmul, 0)
    # exponent vectors of every coset, and the inverse map
    coords = np.zeros((Nq, len(gens)), dtype=np.int64)
    coord_to_coset = np.full(int(np.prod(orders)) if orders else 1, -1, dtype=np.int64)
    for exps in itertools.product(*[range(m) for m in orders]):
        q = 0
        for g, e in zip(gens, exps):
            for _ in range(e):
                q = int(qmul[q, g])
        coords[q] = exps
        code = 0
        for e, m in zip(exps, orders):
            code = code * m + e
        coord_to_coset[code] = q
    if np.any(coord_to_coset < 0):  # pragma: no cover - cyclic_decomposition guarantees this
        raise AssertionError("cyclic decomposition is not a bijection")
    # next-layer token given token y in H and current state q: s(q)^{-1} y s(q_prev)
    qinv = np.argmax(qmul == 0, axis=1)
    next_token = np.full((N, Nq), -1, dtype=np.int64)
    for y in H:
        cy = coset_of[y]
        for q in range(Nq):
            q_prev = qmul[qinv[cy], q]
            y2 = T[inv[section_arr[q]], T[y, section_arr[q_prev]]]
            if not inK[y2]:
                raise ValueError("next-layer token left H_{i+1}")  # pragma: no cover
            next_token[y, q] = y2
    return AbelianLayer(coset_of, section_arr, list(orders), coords, coord_to_coset, next_token,
                        len(K), Nq)


def build_cascade(table, series, convention: str = "left") -> GroupCascade:
    """Build the abelian cascade of a group from a normal series with abelian factors.

    ``table``: Cayley table ``T[i, j] = index(e_i e_j)`` (validated: Latin square, associative,
    identity; else ``ValueError``). ``series``: list of index collections
    ``H_0 = G ⊇ H_1 ⊇ … ⊇ H_k = {e}``, each normal in the previous with abelian quotient (else
    ``ValueError`` naming the failure; a non-solvable group has no such series). ``convention``:
    ``"left"`` (default) or ``"right"``. Returns a :class:`GroupCascade` with ``k`` layers.
    [DEPTH] arXiv:2603.05573, Theorem 3.4.
    """
    if convention not in ("left", "right"):
        raise ValueError(f"convention must be 'left' or 'right', got {convention!r}")
    T = _check_table(table)
    if convention == "right":
        T = np.ascontiguousarray(T.T)
    e = _identity(T)
    N = T.shape[0]
    Hs = []
    for t, H in enumerate(as_list("series", series, "a list of index collections")):
        h = np.asarray(list(H))
        if h.size and (h.dtype.kind not in "iu"):
            raise TypeError(f"series[{t}] must hold integer element indices, got dtype {h.dtype}")
        if h.size == 0 or h.min() < 0 or h.max() >= N:
            raise ValueError(f"series[{t}] must be a non-empty set of element indices in [0, {N})")
        Hs.append(np.unique(h.astype(np.int64)))
    if not Hs or len(Hs[0]) != N:
        raise ValueError("series must start with the whole group")
    if len(Hs[-1]) != 1 or Hs[-1][0] != e:
        raise ValueError("series must end with the trivial subgroup {e} (the group must be "
                         "solvable; a perfect group such as A5 has no abelian cascade)")
    layers = [_layer(T, e, Hs[i], Hs[i + 1]) for i in range(len(Hs) - 1)]
    return GroupCascade(T, e, layers, convention, [len(H) for H in Hs])


def cascade_for_group(group, convention: str = "left") -> GroupCascade:
    """The derived-series cascade of a :class:`seqtheory.theory.groups.FiniteGroup`: ``k`` =
    derived length layers. Raises ``ValueError`` for a non-solvable group (e.g. A5, perfect),
    ``TypeError`` for a ``group`` that is not a FiniteGroup."""
    from seqtheory.theory.groups import FiniteGroup

    check_instance("group", group, FiniteGroup, "a FiniteGroup")
    if group.derived_length is None:
        raise ValueError(f"group of order {group.order} is not solvable (its derived series "
                         "stabilises at a non-trivial perfect subgroup): no abelian cascade exists")
    series = [_subgroup_indices(group, H) for H in group.derived_series()]
    if len(series[-1]) != 1:
        raise ValueError("derived series does not reach the trivial group")  # pragma: no cover
    return build_cascade(group.cayley_table(), series, convention)


def _subgroup_indices(group, H) -> list[int]:
    return sorted(group.index(h) for h in H.elements)


def all_words(N: int, T: int) -> np.ndarray:
    """All ``N**T`` words of length ``T`` over ``N`` tokens, as an int array ``(N**T, T)``
    (lexicographic order, first letter most significant). ``ValueError`` for ``N < 1``,
    ``T < 0`` or more than ``10**8`` entries; ``TypeError`` for non-ints."""
    N, T = check_int("N", N), check_int("T", T, 0)
    if N ** T * max(T, 1) > 10 ** 8:
        raise ValueError(f"N**T * T = {N}**{T} * {T} = {counted(N ** T * T, 'entry', 'entries')} are too many to "
                         f"enumerate (at most 10**8)")
    if T == 0:
        return np.zeros((1, 0), dtype=np.int64)
    grids = np.indices((N,) * T).reshape(T, -1).T
    return np.ascontiguousarray(grids, dtype=np.int64)

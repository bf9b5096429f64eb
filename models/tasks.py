"""Tasks: group word problems and the continuous A5 rotation task of [DEPTH] (arXiv:2603.05573, §4).

Word problems (SPEC §2)
-----------------------
A task is a finite group ``G`` (:class:`seqtheory.theory.groups.FiniteGroup`); tokens are element
**indices** ``0 … |G|−1`` (``G.elements[i]``), and the label at position ``t`` is the index of the
prefix product. Two conventions:

* ``left`` (**the default of this module**, the state-tracking convention of SPEC §2):
  ``g_t = x_t · g_{t−1}``, i.e. ``g_t = x_t ⋯ x_1``;
* ``right`` (public word-problem datasets): ``g_t = g_{t−1} · x_t``, i.e. ``g_t = x_1 ⋯ x_t``.

``right`` on a word equals ``left`` on the reversed word (the full products agree; pinned by
tests). ``g_0`` is the identity. Every dataset states its convention in ``metadata``.

**BOS policy**: ``bos=False`` (default): no start token; position ``t`` (0-based) carries token
``x_{t+1}`` and label ``g_{t+1}``. ``bos=True``: a dedicated start token with id ``|G|`` (vocabulary
``|G|+1``) is prepended, its label is the identity.

**Splits**: training words of length ``T``, test words of length ``2T`` (default), all drawn
uniformly at random without repetition from deterministic seeds (numpy ``SeedSequence``); a test
word never has a training word as its length-``T`` prefix (so no test sequence, nor its prefix,
is seen in training). ``ValueError`` when the requested number of distinct words does not exist.

Rotation task
-------------
Tokens are the 60 elements of A5 acting on ``R^3`` through the faithful icosahedral representation
``R`` (:func:`seqtheory.theory.representations.icosahedral_representation`, audited with
:func:`audit_representation`); ``h_0`` is a unit start vector and the regression target is
``h_t = M(x_t) h_{t−1}`` (left action) at every position, scored by per-position MSE.
``eps=None``: ``M(a) = R(a)``. ``eps=ε > 0``: ``M(a) = exp(ε X_a)`` with ``X_a = log R(a)`` (principal
rotation logarithm; for the rotations by π an axis is chosen deterministically) — the ε-scaled
task of [DEPTH] Theorem 3.2 / Corollary 3.6. ``generator="so3"`` instead uses 3 tokens acting by
``exp(ε L_i)``, ``L_i`` the standard basis of so(3).
"""
from __future__ import annotations

import functools
import importlib
from dataclasses import asdict, dataclass, field, replace
from typing import Any

import numpy as np

from seqtheory.theory._messages import counted, shown
from seqtheory.theory.groups import FiniteGroup
from ._checks import check_int, check_int_fields, check_real_field
from seqtheory.theory.contract import check_size

__all__ = [
    "TASK_GROUPS", "DEFAULT_CONVENTION", "prefix_products", "WordProblemSpec", "WordProblemData",
    "make_word_problem", "RotationSpec", "RotationData", "make_rotation_task", "rotation_log",
    "rotation_exp", "so3_basis", "audit_representation", "task_names",
    "TOKEN_TASK_SUFFIX", "TokenLabelData", "make_token_task", "ROTATION_TASKS",
    "canonical_task_name", "resolved_test_length",
]

TASK_GROUPS = ("C2", "C3", "D8", "H3", "S3", "S4", "A5")
DEFAULT_CONVENTION = "left"
CONVENTIONS = ("left", "right")


def __getattr__(name: str):
    # lazy re-export: seqtheory.models.tasks.audit_representation(group, mapping)
    if name == "audit_representation":
        return importlib.import_module("seqtheory.theory.representations").audit_representation
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


ROTATION_TASKS = ("rotation_a5", "rotation_eps")


def task_names() -> tuple[str, ...]:
    """Task names accepted by the training CLI: the group names of SPEC §2 plus the rotations."""
    return TASK_GROUPS + ROTATION_TASKS


def resolved_test_length(train_length: int, test_length: int | None = None) -> int:
    """The test length of a task: ``test_length``, or ``2 * train_length`` when it is ``None``
    (the default of every task of this module: test words twice as long as training words)."""
    return test_length if test_length is not None else 2 * train_length


@functools.lru_cache(maxsize=512)
def canonical_task_name(task: str) -> str:
    """The one spelling of a task name among the names that build the same task.

    A group name is replaced by the name of the group :meth:`FiniteGroup.named` builds from it
    (``"Dih4"`` / ``"D_8"`` → ``"D8"``, ``"Klein"`` → ``"V4"``, ``"trivial"`` → ``"C1"``,
    ``"C7:C3"`` → ``"F21"``, ``"C02"`` → ``"C2"``), or by its spelling in :data:`TASK_GROUPS`
    where that differs (``"H3(3)"`` → ``"H3"``, the name the claims and the command line use, so
    that their runs keep their keys). ``named`` builds the group of either name by the same
    construction, so its elements, their order (the token indices) and the Cayley table are
    identical (tests/test_store_keys.py). Names of isomorphic groups built differently (``"S3"``
    and ``"D6"``: other element orders, other token indices) stay apart: they are different
    tasks. The ``".token"`` suffix is kept; rotation task names and names that are no group name
    are returned unchanged."""
    if task in ROTATION_TASKS:
        return task
    base = task.removesuffix(TOKEN_TASK_SUFFIX)
    try:
        name = FiniteGroup.named(base).name
    except (TypeError, ValueError):   # not a group name (or too large): keyed as spelled
        return task
    return _task_group_spelling().get(name, name) + task[len(base):]


@functools.lru_cache(maxsize=1)
def _task_group_spelling() -> dict[str, str]:
    """``{group's own name: its spelling in TASK_GROUPS}`` where the two differ (``H3(3)``)."""
    return {FiniteGroup.named(n).name: n for n in TASK_GROUPS if FiniteGroup.named(n).name != n}


def _check_convention(convention: str) -> str:
    if convention not in CONVENTIONS:
        raise ValueError(f"convention must be 'left' or 'right', got {convention!r}")
    return convention


def prefix_products(table: np.ndarray, words: np.ndarray, identity: int,
                    convention: str = DEFAULT_CONVENTION) -> np.ndarray:
    """Prefix products of integer words under a Cayley table.

    ``table (n, n)`` int with ``table[i, j]`` = index of ``e_i · e_j``; ``words (N, T)`` ints in
    ``[0, n)``; ``identity`` the identity index. Returns ``(N, T)`` int64: ``left``:
    ``g_t = x_t · g_{t−1}``; ``right``: ``g_t = g_{t−1} · x_t`` (``g_0`` = identity).
    """
    _check_convention(convention)
    table = np.asarray(table)
    words = np.asarray(words)
    n = table.shape[0]
    if table.ndim != 2 or table.shape != (n, n):
        raise ValueError(f"table must be square, got shape {table.shape}")
    if words.ndim != 2:
        raise ValueError(f"words must have shape (N, T), got {words.shape}")
    if words.size and (words.min() < 0 or words.max() >= n):
        raise ValueError(f"words must contain indices in [0, {n})")
    identity = check_int("identity", identity, 0, n - 1)
    out = np.empty(words.shape, dtype=np.int64)
    g = np.full(words.shape[0], identity, dtype=np.int64)
    for t in range(words.shape[1]):
        g = table[words[:, t], g] if convention == "left" else table[g, words[:, t]]
        out[:, t] = g
    return out


#: the most tokens a dataset holds (``n_train · train_length + n_test · test_length``: int64
#: arrays of 256 MB); a larger specification is refused before anything is drawn
MAX_TOKENS = 2 ** 25


def check_token_count(n_train: int, train_length: int, n_test: int, test_length: int) -> None:
    """``ValueError`` naming the fields when a dataset would hold more than :data:`MAX_TOKENS`."""
    check_size("n_train, train_length, n_test", (n_train, train_length, n_test),
               n_train * train_length + n_test * test_length, MAX_TOKENS, "MAX_TOKENS", "tokens")


def _capped_pow(n: int, e: int, cap: int) -> int:
    """``n**e``, or ``cap + 1`` when that exceeds ``cap`` (decided from bit lengths first: a huge
    power is never computed)."""
    if n <= 1:
        return n
    if (n.bit_length() - 1) * e > cap.bit_length() + 1:
        return cap + 1
    return min(n ** e, cap + 1)


def _unique_words(rng: np.random.Generator, n_letters: int, length: int, count: int,
                  forbidden: set[bytes] | None = None, forbid_prefix: int | None = None,
                  what: str = "words", name: str = "n_train") -> np.ndarray:
    """``count`` distinct uniform random words (int64 ``(count, length)``); when ``forbidden`` is
    given, no word's first ``forbid_prefix`` letters are in it. ``ValueError`` naming ``name``
    (the count's field) when fewer than ``count`` words exist."""
    # exact integers, capped: n_letters ** length overflows a float for long words (6 ** 2048)
    if forbidden:
        nf = len(forbidden)
        budget = (_capped_pow(n_letters, length - forbid_prefix, count)
                  * (_capped_pow(n_letters, forbid_prefix, count + nf) - nf))
    else:
        budget = _capped_pow(n_letters, length, count)
    if count > budget:
        raise ValueError(f"{name} = {count}: cannot draw {count} distinct {what} of length {length} "
                         f"over {counted(n_letters, 'letter')} (at most {int(budget)} available)")
    seen: set[bytes] = set()
    rows: list[np.ndarray] = []
    for _ in range(1000):
        need = count - len(rows)
        if need == 0:
            break
        cand = rng.integers(0, n_letters, size=(max(2 * need, 16), length), dtype=np.int64)
        for w in cand:
            key = w.tobytes()
            if key in seen:
                continue
            if forbidden is not None and w[:forbid_prefix].tobytes() in forbidden:
                continue
            seen.add(key)
            rows.append(w)
            if len(rows) == count:
                break
    if len(rows) < count:
        raise ValueError(f"could not draw {count} distinct {what}; reduce the count")
    return np.stack(rows) if rows else np.zeros((0, length), dtype=np.int64)


@dataclass(frozen=True)
class WordProblemSpec:
    """A word-problem dataset. ``group``: a SPEC §2 name (``"S3"``, ``"H3"``, ``"H3(2)"`` …);
    ``test_length`` defaults to ``2 * train_length``."""

    group: str
    train_length: int = 16
    n_train: int = 4096
    n_test: int = 512
    test_length: int | None = None
    convention: str = DEFAULT_CONVENTION
    bos: bool = False
    seed: int = 0

    def __post_init__(self) -> None:
        if not isinstance(self.group, str):
            raise TypeError(f"group must be a group name (str), got {type(self.group).__name__}")
        _check_convention(self.convention)
        check_int_fields(self, ("train_length", "n_train", "n_test"))
        if self.test_length is not None and self.test_length < self.train_length:
            raise ValueError(f"test_length ({self.test_length}) must be >= train_length "
                             f"({self.train_length})")
        check_int_fields(self, ("seed",), 0)
        check_token_count(self.n_train, self.train_length, self.n_test, self.test_len)

    @property
    def test_len(self) -> int:
        return resolved_test_length(self.train_length, self.test_length)


@dataclass
class WordProblemData:
    """Arrays of a word-problem dataset (int64): ``train_tokens/labels (n_train, T)``,
    ``test_tokens/labels (n_test, 2T)`` (one more column each with BOS), plus ``metadata``."""

    spec: WordProblemSpec
    group: FiniteGroup
    train_tokens: np.ndarray
    train_labels: np.ndarray
    test_tokens: np.ndarray
    test_labels: np.ndarray
    metadata: dict[str, Any] = field(default_factory=dict)

    @property
    def vocab_size(self) -> int:
        return self.group.order + (1 if self.spec.bos else 0)

    @property
    def n_classes(self) -> int:
        return self.group.order

    def label(self, words: np.ndarray) -> np.ndarray:
        """Prefix-product labels ``(N, T)`` int64 of integer words ``(N, T)`` (no BOS) under the
        dataset's group and convention; ``ValueError`` for letters outside ``[0, |G|)``."""
        words = np.asarray(words)
        if words.ndim != 2 or not np.issubdtype(words.dtype, np.integer):
            raise ValueError(f"words must be an integer array of shape (N, T), got {words.dtype} "
                             f"{words.shape}")
        if words.size and (words.min() < 0 or words.max() >= self.group.order):
            raise ValueError(f"words must have letters in [0, {self.group.order})")
        return prefix_products(self.group.cayley_table(), words, self.group.identity_index,
                               self.spec.convention)

    def with_shuffled_labels(self, seed: int = 0) -> "WordProblemData":
        """Negative-control copy: the training label sequences are permuted across sequences, so
        labels are no longer a function of the tokens (test data unchanged)."""
        perm = np.random.default_rng(check_int("seed", seed, 0)).permutation(len(self.train_labels))
        md = dict(self.metadata, labels="shuffled across training sequences (negative control)")
        return replace(self, train_labels=self.train_labels[perm].copy(), metadata=md)


def make_word_problem(spec: WordProblemSpec, group: FiniteGroup | None = None) -> WordProblemData:
    """Build the dataset of ``spec`` (``group`` overrides ``FiniteGroup.named(spec.group)``)."""
    G = group if group is not None else FiniteGroup.named(spec.group)
    n, T, T2 = G.order, spec.train_length, spec.test_len
    ss = np.random.SeedSequence([spec.seed, n, T, T2, spec.n_train, spec.n_test])
    rng_train, rng_test = (np.random.default_rng(s) for s in ss.spawn(2))
    train = _unique_words(rng_train, n, T, spec.n_train, what="training words")
    forbidden = {w.tobytes() for w in train}
    test = _unique_words(rng_test, n, T2, spec.n_test, name="n_test", forbidden=forbidden, forbid_prefix=T,
                         what="test words")
    table, e = G.cayley_table(), G.identity_index
    ytr = prefix_products(table, train, e, spec.convention)
    yte = prefix_products(table, test, e, spec.convention)
    if spec.bos:
        bos = n

        def add(tok, lab):
            return (np.concatenate([np.full((len(tok), 1), bos), tok], 1),
                    np.concatenate([np.full((len(lab), 1), e), lab], 1))

        train, ytr = add(train, ytr)
        test, yte = add(test, yte)
    md = {
        "task": "word_problem", "group": spec.group, "group_order": n,
        "convention": spec.convention,
        "convention_rule": "g_t = x_t * g_{t-1}" if spec.convention == "left" else "g_t = g_{t-1} * x_t",
        "bos": (f"token {n} prepended, label = identity" if spec.bos else
                "none: position t carries x_{t+1} and label g_{t+1}; g_0 = identity"),
        "train_length": T, "test_length": T2, "n_train": spec.n_train, "n_test": spec.n_test,
        "seed": spec.seed, "held_out": "test words of length 2T whose length-T prefix is no training word",
        "spec": asdict(spec),
    }
    return WordProblemData(spec, G, train, ytr, test, yte, md)


# --------------------------------------------------------------------------- rotations
def so3_basis() -> np.ndarray:
    """The standard basis ``L_x, L_y, L_z`` of so(3) (``(L_i)_{jk} = −ε_{ijk}``), float64 ``(3, 3, 3)``."""
    L = np.zeros((3, 3, 3))
    L[0, 2, 1], L[0, 1, 2] = 1.0, -1.0
    L[1, 0, 2], L[1, 2, 0] = 1.0, -1.0
    L[2, 1, 0], L[2, 0, 1] = 1.0, -1.0
    return L


def rotation_log(R: np.ndarray) -> np.ndarray:
    """Float64 principal logarithm ``X = θ [n]_× ∈ so(3)`` (``θ ∈ [0, π]``) of a rotation matrix
    ``R (3, 3)``; the exact sympy version is :func:`seqtheory.theory.representations.rotation_log`.

    The angle and axis come from the unit quaternion of ``R`` (scipy's
    ``Rotation.from_matrix(R).as_rotvec()``: Shepperd's method picks the largest quaternion
    component, and the angle is ``2·atan2(‖v‖, w)``), which stays accurate to a few ulps for every
    angle, including angles within 1e-12 of π, where ``(R − Rᵀ)/(2 sin θ)`` loses all its digits.
    For ``θ < π`` the principal logarithm is unique. At ``θ = π`` both ``π[n]_×`` and ``−π[n]_×``
    are logarithms: when the skew part ``(R − Rᵀ)/2 = sin θ [n]_×`` is at the rounding level of
    the entries (``max|·| ≤ 4·2⁻⁵²``, i.e. ``π − θ ≲ 1e-15``), ``R`` does not determine the sign of
    the axis, and the convention applies: the axis is the normalised largest column of
    ``R + I = 2 n nᵀ`` with its first entry of modulus > 1e-9 positive.

    Raises ``ValueError`` naming ``R`` when it is not a finite 3×3 rotation matrix
    (``RᵀR ≠ I`` or ``det R ≠ 1`` beyond 1e-9).
    """
    from scipy.spatial.transform import Rotation

    R = np.asarray(R, dtype=float)
    if R.shape != (3, 3) or not np.isfinite(R).all():
        raise ValueError(f"R must be a finite 3x3 matrix, got shape {R.shape}")
    if np.abs(R.T @ R - np.eye(3)).max() > 1e-9 or abs(np.linalg.det(R) - 1) > 1e-9:
        raise ValueError("R must be a rotation matrix (orthogonal, det 1)")
    skew = 0.5 * np.array([R[2, 1] - R[1, 2], R[0, 2] - R[2, 0], R[1, 0] - R[0, 1]])
    sign_tol = 4 * np.finfo(np.float64).eps          # 4·2⁻⁵²: the rounding level of R's entries
    if np.abs(skew).max() <= sign_tol and np.trace(R) < 1.0:          # θ = π up to rounding
        P = R + np.eye(3)                                             # = 2 n nᵀ
        axis = P[:, int(np.argmax(np.diag(P)))]
        axis = axis / np.linalg.norm(axis)
        axis = axis * np.sign(axis[np.flatnonzero(np.abs(axis) > 1e-9)[0]])
        return np.pi * np.tensordot(axis, so3_basis(), axes=1)
    return np.tensordot(Rotation.from_matrix(R).as_rotvec(), so3_basis(), axes=1)


def rotation_exp(X: np.ndarray) -> np.ndarray:
    """``exp(X)`` of ``X ∈ so(3)`` by Rodrigues' formula (float64 ``(3, 3)``)."""
    X = np.asarray(X, dtype=float)
    th = np.sqrt(0.5 * np.sum(X * X))
    if th < 1e-15:
        return np.eye(3) + X
    return np.eye(3) + np.sin(th) / th * X + (1 - np.cos(th)) / th ** 2 * (X @ X)


#: ``"<group>.token"`` names the token-label task of a group (:func:`make_token_task`).
TOKEN_TASK_SUFFIX = ".token"


@dataclass
class TokenLabelData(WordProblemData):
    """The words of a word problem labelled by their own tokens: ``y_t = x_t``. The label needs no
    memory, so any sequence model with a token-wise path solves it (no eigenvalue condition):
    a negative control for claims about what memory a word problem needs (e.g. parity needs
    negative eigenvalues, [DEPTH] arXiv:2603.05573 experiments). Arrays as in
    :class:`WordProblemData`."""

    def label(self, words: np.ndarray) -> np.ndarray:
        """``words`` itself (int64 copy), validated as in :meth:`WordProblemData.label`."""
        super().label(words)
        return np.asarray(words, dtype=np.int64).copy()


def make_token_task(spec: WordProblemSpec) -> TokenLabelData:
    """The words of :func:`make_word_problem` (same splits, same held-out rule), labelled by
    their tokens (:class:`TokenLabelData`). ``spec.group`` is the group name (without
    :data:`TOKEN_TASK_SUFFIX`); ``spec.bos`` is not supported (``ValueError``)."""
    if spec.bos:
        raise ValueError("make_token_task: bos=True is not supported")
    d = make_word_problem(spec)
    md = dict(d.metadata, task="token_labels", labels="y_t = x_t (the token itself; no memory)")
    return TokenLabelData(d.spec, d.group, d.train_tokens, d.train_tokens.astype(np.int64),
                          d.test_tokens, d.test_tokens.astype(np.int64), md)


@dataclass(frozen=True)
class RotationSpec:
    """The A5 rotation task. ``eps=None``: exact icosahedral rotations; ``eps > 0``: ``exp(ε X_a)``.
    ``generator``: ``"log"`` (60 tokens, ``X_a = log R(a)``) or ``"so3"`` (3 tokens, ``X_i = L_i``;
    needs ``eps``). ``start``: the start vector (normalised; ValueError if zero)."""

    train_length: int = 16
    n_train: int = 4096
    n_test: int = 512
    test_length: int | None = None
    eps: float | None = None
    generator: str = "log"
    start: tuple[float, float, float] = (0.0, 0.0, 1.0)
    convention: str = DEFAULT_CONVENTION
    seed: int = 0

    def __post_init__(self) -> None:
        _check_convention(self.convention)
        check_int_fields(self, ("train_length", "n_train", "n_test"))
        check_int_fields(self, ("test_length",), self.train_length, optional=True)
        check_int_fields(self, ("seed",), 0)
        check_token_count(self.n_train, self.train_length, self.n_test,
                          resolved_test_length(self.train_length, self.test_length))
        if self.eps is not None:
            check_real_field(self, "eps", 0, above=True)
        if self.generator not in ("log", "so3"):
            raise ValueError(f"generator must be 'log' or 'so3', got {self.generator!r}")
        if self.generator == "so3" and self.eps is None:
            raise ValueError("generator 'so3' needs eps")
        s = np.asarray(self.start, dtype=float)
        if s.shape != (3,) or not np.isfinite(s).all() or np.linalg.norm(s) == 0:
            raise ValueError(f"start must be a non-zero finite 3-vector, got {shown(self.start)}")

    @property
    def test_len(self) -> int:
        return resolved_test_length(self.train_length, self.test_length)


@dataclass
class RotationData:
    """Arrays of a rotation task: tokens int64 ``(N, T)``, targets float64 ``(N, T, 3)``;
    ``matrices (n_tokens, 3, 3)`` the maps ``M(a)``; ``h0`` the unit start vector."""

    spec: RotationSpec
    matrices: np.ndarray
    h0: np.ndarray
    train_tokens: np.ndarray
    train_targets: np.ndarray
    test_tokens: np.ndarray
    test_targets: np.ndarray
    metadata: dict[str, Any] = field(default_factory=dict)

    @property
    def vocab_size(self) -> int:
        return len(self.matrices)

    def propagate(self, tokens: np.ndarray) -> np.ndarray:
        """Targets of int tokens ``(N, T)``: ``left``: ``h_t = M(x_t) h_{t−1}``; ``right``:
        ``h_t = M(x_1) ⋯ M(x_t) h_0``. Returns ``(N, T, 3)`` float64."""
        return _propagate(self.matrices, self.h0, tokens, self.spec.convention)

    def final_map(self, word: np.ndarray) -> np.ndarray:
        """``Φ_x = M(x_T) ⋯ M(x_1)`` (left) of one word, ``(3, 3)``."""
        P = np.eye(3)
        for a in word:
            P = self.matrices[a] @ P if self.spec.convention == "left" else P @ self.matrices[a]
        return P


def _propagate(M: np.ndarray, h0: np.ndarray, tokens: np.ndarray, convention: str) -> np.ndarray:
    N, T = tokens.shape
    out = np.empty((N, T, 3))
    if convention == "left":
        h = np.broadcast_to(h0, (N, 3)).copy()
        for t in range(T):
            h = np.einsum("nij,nj->ni", M[tokens[:, t]], h)
            out[:, t] = h
        return out
    # right convention: h_t = (M(x_1) ⋯ M(x_t)) h0 — product accumulated on the right
    P = np.broadcast_to(np.eye(3), (N, 3, 3)).copy()
    for t in range(T):
        P = P @ M[tokens[:, t]]
        out[:, t] = P @ h0
    return out


def _icosahedral():
    rep = importlib.import_module("seqtheory.theory.representations")
    return rep


@functools.lru_cache(maxsize=1)
def _audited_icosahedral() -> tuple[np.ndarray, dict[str, Any]]:
    """(float64 matrices ``(60, 3, 3)``, audit) of the icosahedral representation, audited once
    per process (exactly and in float64); ``RuntimeError`` if it is not a faithful homomorphism."""
    rep = _icosahedral()
    ico = rep.icosahedral_representation()
    G, R = _ico_group_and_matrices(ico)
    audit = {"exact": _audit_dict(ico.audit),
             "float64": _audit_dict(rep.audit_representation(G, ico.float_mapping()))}
    for a in audit.values():
        if not a.get("is_homomorphism") or a.get("n_distinct") != G.order:
            raise RuntimeError(f"icosahedral representation failed its audit: {audit}")
    R.setflags(write=False)
    return R, audit


def make_rotation_task(spec: RotationSpec) -> RotationData:
    """Build the rotation task of ``spec`` (audits the icosahedral representation first, once per
    process, and raises ``RuntimeError`` if it is not a faithful homomorphism)."""
    audit: dict[str, Any] = {}
    if spec.generator == "log":
        R, audit = _audited_icosahedral()
        audit = {k: dict(v) for k, v in audit.items()}
        M = R.copy() if spec.eps is None else np.stack([rotation_exp(spec.eps * rotation_log(r)) for r in R])
    else:
        M = np.stack([rotation_exp(spec.eps * L) for L in so3_basis()])
    h0 = np.asarray(spec.start, dtype=float)
    h0 = h0 / np.linalg.norm(h0)
    n, T, T2 = len(M), spec.train_length, spec.test_len
    ss = np.random.SeedSequence([spec.seed, n, T, T2, spec.n_train, spec.n_test, 7])
    rng_train, rng_test = (np.random.default_rng(s) for s in ss.spawn(2))
    train = _unique_words(rng_train, n, T, spec.n_train, what="training words")
    test = _unique_words(rng_test, n, T2, spec.n_test, name="n_test", forbidden={w.tobytes() for w in train},
                         forbid_prefix=T, what="test words")
    md = {"task": "rotation", "group": "A5" if spec.generator == "log" else "SO(3)",
          "representation": "icosahedral (faithful)" if spec.generator == "log" else "so(3) basis",
          "eps": spec.eps, "generator": spec.generator, "start": h0.tolist(),
          "convention": spec.convention, "train_length": T, "test_length": T2,
          "n_train": spec.n_train, "n_test": spec.n_test, "seed": spec.seed, "audit": audit,
          "spec": asdict(spec)}
    return RotationData(spec, M, h0, train, _propagate(M, h0, train, spec.convention), test,
                        _propagate(M, h0, test, spec.convention), md)


def _ico_group_and_matrices(ico) -> tuple[FiniteGroup, np.ndarray]:
    """(A5 group, float64 matrices (60, 3, 3) in ``group.elements`` order) of the
    :class:`~seqtheory.theory.representations.IcosahedralRepresentation`."""
    return ico.group, np.asarray(ico.float_matrices, dtype=np.float64)


def _audit_dict(res) -> dict[str, Any]:
    if isinstance(res, dict):
        d = res
    elif hasattr(res, "as_dict"):
        d = res.as_dict()
    elif hasattr(res, "__dataclass_fields__"):
        d = asdict(res)
    else:
        d = {k: getattr(res, k) for k in ("fraction_respected", "n_distinct", "is_homomorphism")
             if hasattr(res, k)}
    return {k: (float(v) if k == "fraction_respected" else v) for k, v in d.items()
            if k in ("fraction_respected", "n_distinct", "is_homomorphism", "is_faithful")}

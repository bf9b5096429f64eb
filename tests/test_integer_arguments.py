"""Kind: size and budget arguments (issue 19 §2). Every public integer argument (sizes, blocks,
budgets, counts, degrees, seeds) is checked by :func:`seqtheory.theory._checks.check_int`: a
``TypeError`` for a non-integer or a bool, a ``ValueError`` out of range, each naming the
argument; memory budgets hold whatever the input (ties included) or the function says it cannot."""
from __future__ import annotations

import tracemalloc
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import example, given, settings, strategies as st

from seqtheory.theory._checks import IntArgumentTypeError, check_int
from seqtheory.theory.hilbert import max_l1_row_difference, row_diameter

SET = settings(max_examples=40, deadline=None)


# ------------------------------------------------------------------------------- the helper
@SET
@given(st.integers(-10**30, 10**30), st.integers(-5, 5), st.one_of(st.none(), st.integers(-5, 10)))
def test_check_int_accepts_exactly_the_range(v, lo, hi):
    inside = v >= lo and (hi is None or v <= hi)
    if inside:
        assert check_int("k", v, lo, hi) == v and type(check_int("k", np.int64(lo), lo, hi)) is int
    else:
        with pytest.raises(ValueError, match="^k must be"):
            check_int("k", v, lo, hi)


@pytest.mark.parametrize("bad", [1.0, 2.5, True, False, "3", None, np.float64(2.0), [1]])
def test_check_int_refuses_non_integers(bad):
    with pytest.raises(TypeError, match="^n must be an int") as ei:
        check_int("n", bad)
    assert isinstance(ei.value, IntArgumentTypeError) and isinstance(ei.value, ValueError)


# ------------------------------------------------------------------------------- block sizes
def _brute_l1(S):
    V = len(S)
    return max(np.abs(S[i] - S[j]).sum() for i in range(V) for j in range(i + 1, V))


@pytest.mark.parametrize("f", [row_diameter, max_l1_row_difference])
@pytest.mark.parametrize("bad,exc", [(-1, ValueError), (0, ValueError), (1.5, TypeError),
                                     (True, TypeError), ("4", TypeError)])
def test_block_rows_refused_naming_it(f, bad, exc):
    S = np.array([[0.0, 0.0], [3.0, 4.0], [1.0, -2.0]])
    with pytest.raises(exc, match="block_rows"):
        f(S, block_rows=bad)


@SET
@given(st.integers(2, 9), st.integers(1, 12), st.integers(0, 2**31))
@example(3, 1, 0)
def test_max_l1_row_difference_any_block(V, block, seed):
    S = np.random.default_rng(seed).integers(-4, 5, size=(V, 3)).astype(float)
    best, (i, j) = max_l1_row_difference(S, block_rows=block)
    assert i < j and best == _brute_l1(S) == np.abs(S[i] - S[j]).sum()


@pytest.mark.parametrize("f", [row_diameter, max_l1_row_difference])
@pytest.mark.parametrize("bad,exc", [(0, ValueError), (-5, ValueError), (1e9, TypeError)])
def test_memory_bytes_refused_naming_it(f, bad, exc):
    with pytest.raises(exc, match="memory_bytes"):
        f(np.eye(3), memory_bytes=bad)


@pytest.mark.parametrize("f", [row_diameter, max_l1_row_difference])
def test_too_small_budget_says_so(f):
    with pytest.raises(ValueError, match="memory_bytes = 10000 is too small.*needs at least"):
        f(np.zeros((500, 8)), memory_bytes=10_000)
    with pytest.raises(ValueError, match="with block_rows = 400"):
        f(np.zeros((500, 8)), block_rows=400, memory_bytes=2**20)


@pytest.mark.parametrize("f", [row_diameter, max_l1_row_difference])
def test_memory_budget_holds_with_many_tied_pairs(f):
    """Half the rows at one point, half at another: V²/4 pairs tie for the diameter (each is a
    candidate for the direct recomputation). Before the fix the candidates were collected over
    all blocks first (191 MiB here for a 4 MiB budget)."""
    V, budget = 3000, 4 * 2**20
    S = np.zeros((V, 2))
    S[V // 2:] = 1.0
    tracemalloc.start()
    try:
        best, (i, j) = f(S, memory_bytes=budget)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak <= budget, f"peak {peak / 2**20:.1f} MiB above the 4 MiB budget"
    assert best == pytest.approx(np.sqrt(2.0) if f is row_diameter else 2.0, rel=1e-15)
    assert i < V // 2 <= j


# ------------------------------------------------------------------------------- every public one
def _api_cases():
    """``(label, call(value) for the argument under test, argument name, least valid value)``:
    every public integer argument of theory/, numerics/ and models/ with valid other arguments
    (theory/lie.py and theory/linalg.py are covered by their own tests)."""
    import importlib

    import torch

    def mod(name):
        return importlib.import_module(f"seqtheory.{name}")

    abelian, batched, recipe, tasks, text, train = (mod(f"models.{m}") for m in (
        "abelian", "batched", "recipe", "tasks", "text", "train"))
    from seqtheory.models.layers_attention import CausalSelfAttention
    from seqtheory.models.layers_delta import DeltaProductMixer
    from seqtheory.models.layers_diagonal import AUSSMMixer, GLAMixer, MambaMixer
    from seqtheory.models.lm import DecoderLM, LMConfig
    (equidistance, fits, group_cascades, head_oracles, local_error, nilpotent_cascade, restricted,
     reversal, separation) = (mod(f"numerics.{m}") for m in (
        "equidistance", "fits", "group_cascades", "head_oracles", "local_error",
        "nilpotent_cascade", "restricted", "reversal", "separation"))
    (bch_series, free_lie, hilbert, lie_cascades, lie_named, lie_poly, magnus_series,
     polynomial_cascades, series_cache, vector_fields) = (mod(f"theory.{m}") for m in (
        "bch_series", "free_lie", "hilbert", "lie_cascades", "lie_named", "lie_poly",
        "magnus_series", "polynomial_cascades", "series_cache", "vector_fields"))
    from seqtheory.theory.groups import FiniteGroup
    from seqtheory.theory.lie_poly import LiePolynomial

    C3 = FiniteGroup.cyclic(3)
    gens2 = [np.array([[0, 1], [0, 0]], dtype=object), np.array([[0, 0], [1, 0]], dtype=object)]
    word = [0, 1]
    S = np.eye(3)
    cfg = train.TrainConfig(task="C2", model="gla", steps=2)
    text_data = text.TextData.from_corpus(b"abcdefghij" * 20)
    vf = vector_fields.PolyVectorField(2, {(0, (0, 0)): 1})
    cas = polynomial_cascades.derived_length_k_cascade(1)
    nc = nilpotent_cascade.nilpotent_cascade(gens2, 2)
    gc = group_cascades.cascade_for_group(FiniteGroup.symmetric(3))
    zero = lambda w: 0  # noqa: E731
    c = []

    def add(label, call, name, least=1):
        c.append((label, call, name, least))

    # theory
    add("bch", lambda v: bch_series.bch(v), "degree")
    add("bch_multi", lambda v: bch_series.bch_multi(v, 2), "n_factors")
    add("bch_multi", lambda v: bch_series.bch_multi(2, v), "degree")
    add("lyndon_coordinates_two_letters", lambda v: bch_series.lyndon_coordinates_two_letters(zero, v), "max_degree")
    for f in ("lyndon_words", "lyndon_words_upto", "hall_basis"):
        add(f, lambda v, f=f: getattr(free_lie, f)("xy", v), "m")
    add("lyndon_basis", lambda v: free_lie.lyndon_basis("xy", v), "c")
    add("mobius", lambda v: free_lie.mobius(v), "d")
    for f in ("witt_dimension", "witt_dimensions", "free_nilpotent_structure_constants", "free_nilpotent"):
        add(f, lambda v, f=f: getattr(free_lie, f)(v, 2), "n")
        add(f, lambda v, f=f: getattr(free_lie, f)(2, v), "m" if f == "witt_dimension" else "c")
    for f in ("derived_ideal_dimensions", "derived_ideal_lowest_degree"):
        add(f, lambda v, f=f: getattr(free_lie, f)(v, 1, 3), "n")
        add(f, lambda v, f=f: getattr(free_lie, f)(2, v, 3), "k", 0)
        add(f, lambda v, f=f: getattr(free_lie, f)(2, 1, v), "max_degree")
    add("FiniteGroup.element", lambda v: C3.element(v), "i", 0)
    add("FiniteGroup.cyclic", lambda v: FiniteGroup.cyclic(v), "n")
    add("FiniteGroup.dihedral", lambda v: FiniteGroup.dihedral(v), "order", 2)
    add("FiniteGroup.symmetric", lambda v: FiniteGroup.symmetric(v), "n")
    add("FiniteGroup.alternating", lambda v: FiniteGroup.alternating(v), "n")
    add("FiniteGroup.heisenberg", lambda v: FiniteGroup.heisenberg(v), "p", 2)
    add("FiniteGroup.from_permutations", lambda v: FiniteGroup.from_permutations([[1, 0]], v), "degree", 0)
    add("FiniteGroup.from_permutations", lambda v: FiniteGroup.from_permutations([[1, 0]], max_order=v), "max_order")
    add("FiniteGroup.from_matrices", lambda v: FiniteGroup.from_matrices([[[1]]], v), "modulus", 2)
    add("FiniteGroup.from_matrices", lambda v: FiniteGroup.from_matrices([[[1]]], max_order=v), "max_order")
    add("equidistant_gram", lambda v: hilbert.equidistant_gram(v), "V", 2)
    add("max_equidistant_points", lambda v: hilbert.max_equidistant_points(v), "d")
    add("max_equidistant_points", lambda v: hilbert.max_equidistant_points(2, search_limit=v), "search_limit", 2)
    add("jung_radius", lambda v: hilbert.jung_radius(v), "d")
    for f in ("simplex_ratio_bound", "rankin_ratio_bound", "separation_ratio_bound"):
        add(f, lambda v, f=f: getattr(hilbert, f)(v, 2), "V", 2)
        add(f, lambda v, f=f: getattr(hilbert, f)(3, v), "d")
    for f in ("row_diameter", "max_l1_row_difference"):
        add(f, lambda v, f=f: getattr(hilbert, f)(S, block_rows=v), "block_rows")
        add(f, lambda v, f=f: getattr(hilbert, f)(S, memory_bytes=v), "memory_bytes")
    add("random_cascade", lambda v: lie_cascades.random_cascade([1, 1], v), "n_inputs")
    add("random_cascade", lambda v: lie_cascades.random_cascade([1, 1], seed=v), "seed", 0)
    add("random_cascade", lambda v: lie_cascades.random_cascade([1, 1], entry_range=v), "entry_range")
    add("structural_bound", lambda v: lie_cascades.structural_bound(v), "k", 0)
    for f in ("gl", "sl", "so", "b", "upper_triangular", "strictly_upper", "n_upper", "diagonal"):
        add(f, lambda v, f=f: getattr(lie_named, f)(v), "n")
    add("heisenberg", lambda v: lie_named.heisenberg(v), "m")
    add("elementary", lambda v: lie_named.elementary(v, 0, 0), "n")
    add("elementary", lambda v: lie_named.elementary(2, v, 0), "i", 0)
    add("elementary", lambda v: lie_named.elementary(2, 0, v), "j", 0)
    add("lyndon_coordinates", lambda v: lie_poly.lyndon_coordinates(zero, "xy", v), "max_degree")
    add("lyndon_coordinates", lambda v: lie_poly.lyndon_coordinates(zero, "xy", 3, v), "min_degree")
    add("from_word_coefficients", lambda v: LiePolynomial.from_word_coefficients(zero, "xy", v), "max_degree")
    add("magnus_lie_terms", lambda v: magnus_series.magnus_lie_terms(v, 2), "n_coeffs")
    add("magnus_lie_terms", lambda v: magnus_series.magnus_lie_terms(1, v), "order")
    add("magnus", lambda v: magnus_series.magnus([np.eye(2)], v), "order")
    add("magnus", lambda v: magnus_series.magnus(lambda t: np.eye(2), 2, nodes=v), "nodes")
    add("magnus_discrete", lambda v: magnus_series.magnus_discrete([np.eye(2)], v), "degree")
    for n in ("dps", "max_terms"):
        add("taylor_ode_solution", lambda v, n=n: magnus_series.taylor_ode_solution([[[1]]], **{n: v}), n)
    add("derived_length_k_cascade", lambda v: polynomial_cascades.derived_length_k_cascade(v), "k")
    add("restricted_ladder_cascade", lambda v: polynomial_cascades.restricted_ladder_cascade(v), "k")
    add("restricted_shape_certificate", lambda v: polynomial_cascades.restricted_shape_certificate(v), "k")
    add("random_polynomial_cascade", lambda v: polynomial_cascades.random_polynomial_cascade(v), "k")
    for n, least in (("n_inputs", 1), ("degree", 0), ("seed", 0), ("entry_range", 1)):
        add("random_polynomial_cascade",
            lambda v, n=n: polynomial_cascades.random_polynomial_cascade(1, **{n: v}), n, least)
    add("PolynomialCascade.lie_algebra", lambda v: cas.lie_algebra(v), "max_dim")
    add("load_series", lambda v: series_cache.load_series("bch", "xy", v), "degree")
    add("PolyVectorField", lambda v: vector_fields.PolyVectorField(v), "n")
    add("PolyVectorField.component", lambda v: vf.component(v), "i", 0)
    add("generated_algebra", lambda v: vector_fields.generated_algebra([vf], v), "max_dim")
    for n, least in (("cap", 1), ("ideal_rounds", 0), ("max_levels", 1)):
        add("derived_length_lower_bound",
            lambda v, n=n: vector_fields.derived_length_lower_bound([vf], **{n: v}), n, least)
    # numerics
    add("max_min_separation", lambda v: equidistance.max_min_separation(v, 2), "V", 2)
    add("max_min_separation", lambda v: equidistance.max_min_separation(3, v), "d")
    for n, least in (("starts", 1), ("seed", 0), ("maxiter", 1)):
        add("max_min_separation", lambda v, n=n: equidistance.max_min_separation(3, 2, **{n: v}), n, least)
    add("choose_eps_grid", lambda v: fits.choose_eps_grid(lambda e: e, 1, n=v), "n", 3)
    add("GroupCascade.truncated", lambda v: gc.truncated(v), "n_layers", 0)
    add("all_words", lambda v: group_cascades.all_words(v, 2), "N")
    add("all_words", lambda v: group_cascades.all_words(2, v), "T", 0)
    add("pair_difference_matrix", lambda v: head_oracles.pair_difference_matrix(v), "V", 2)
    add("rownorm_ratio_bound", lambda v: head_oracles.rownorm_ratio_bound(v), "k")
    add("regular_simplex_gradient", lambda v: head_oracles.regular_simplex_gradient(v), "k")
    add("log_series_coefficients", lambda v: local_error.log_series_coefficients(gens2, word, v), "degree")
    for f, args in (("log_series_coefficients", (gens2, word, 2)), ("path_product", (gens2, word, 0.1)),
                    ("truncation_error", (gens2, word, 1, 0.1))):
        add(f, lambda v, f=f, args=args: getattr(local_error, f)(*args, dps=v), "dps")
    add("truncation_error", lambda v: local_error.truncation_error(gens2, word, v, 0.1), "c")
    add("local_error_scan", lambda v: local_error.local_error_scan(gens2, word, v), "c")
    add("local_error_scan", lambda v: local_error.local_error_scan(gens2, word, 1, n_points=v), "n_points", 3)
    add("local_error_scan", lambda v: local_error.local_error_scan(gens2, word, 1, dps=v), "dps")
    for n, least in (("seed", 0), ("size", 1), ("n_letters", 1)):
        add("target_generators", lambda v, n=n: local_error.target_generators("gl_random", **{n: v}), n, least)
    coeffs = local_error.log_series_coefficients(gens2, word, 3)
    add("default_eps_grid", lambda v: local_error.default_eps_grid(coeffs, v), "c")
    add("default_eps_grid", lambda v: local_error.default_eps_grid(coeffs, 1, v), "n_points", 3)
    add("nilpotent_cascade", lambda v: nilpotent_cascade.nilpotent_cascade(gens2, v), "depth")
    add("nilpotent_cascade", lambda v: nilpotent_cascade.nilpotent_cascade(gens2, 2, nilpotency_class=v),
        "nilpotency_class")
    for f in ("simulate", "error"):
        add(f"NilpotentCascade.{f}", lambda v, f=f: getattr(nc, f)(word, 0.1, dps=v), "dps")
    add("free_group_element", lambda v: nilpotent_cascade.free_group_element(word, v, 2, 0.1), "n", 2)
    add("free_group_element", lambda v: nilpotent_cascade.free_group_element(word, 2, v, 0.1), "c")
    add("derived_series_tensor_bases", lambda v: nilpotent_cascade.derived_series_tensor_bases(v, 2), "n", 2)
    add("derived_series_tensor_bases", lambda v: nilpotent_cascade.derived_series_tensor_bases(2, v), "c")
    al, be = [[Fraction(1, 2)], [2]], [[1], [0]]           # two letters, d = 1
    add("affine_generators", lambda v: restricted.affine_generators(al, be, dps=v), "dps")
    add("restricted_vs_target_table", lambda v: restricted.restricted_vs_target_table(al, be, [1], v), "max_len")
    add("restricted_vs_target_table", lambda v: restricted.restricted_vs_target_table(al, be, [1], 2, dps=v), "dps")
    add("order_free_best_errors", lambda v: restricted.order_free_best_errors(al, be, [1], v), "max_len")
    for f, args in (("omega1", (gens2, word)), ("omega2", (gens2, word)),
                    ("reversal_bound", (gens2, word, [1, 0], 0.1)),
                    ("reversal_scan", (gens2, word, [1, 0], [0.1])),
                    ("abelian_model_error", (gens2, word, [1, 0], 0.1))):
        add(f, lambda v, f=f, args=args: getattr(reversal, f)(*args, dps=v), "dps")
    add("zero_area_words", lambda v: reversal.zero_area_words(v), "T", 1)
    add("zero_area_words", lambda v: reversal.zero_area_words(4, v), "n")
    add("zero_area_words", lambda v: reversal.zero_area_words(4, 2, v), "limit")
    for f, args, names in (("word_signature_levels", (word,), (("n", 1), ("c", 0))),
                           ("all_word_signatures", (), (("n", 1), ("T", 0), ("c", 0))),
                           ("colliding_pair", (), (("n", 1), ("T", 0), ("c", 0))),
                           ("least_separating_class", (), (("n", 1), ("T", 0))),
                           ("max_class_for_depth", (), (("n", 1), ("k", 0))),
                           ("least_depth_for_class", (), (("n", 2), ("c", 0))),
                           ("least_depth_for_length", (), (("n", 2), ("T", 0))),
                           ("derived_ideal_lowest_degree_fast", (), (("n", 1), ("k", 0)))):
        base = {n: max(least, 2) for n, least in names}
        for n, least in names:
            add(f, lambda v, f=f, args=args, base=base, n=n:
                getattr(separation, f)(*args, **{**base, n: v}), n, least)
    # models
    for n in ("vocab_size", "n_out", "width", "hidden"):
        add("AbelianStateModel", lambda v, n=n: abelian.AbelianStateModel(**{"vocab_size": 3, "n_out": 2, n: v}), n)
    for cls, names in ((MambaMixer, ("width", "n_heads", "d_state", "chunk")),
                       (AUSSMMixer, ("width", "n_heads", "d_state", "chunk")),
                       (GLAMixer, ("width", "n_heads", "chunk")),
                       (DeltaProductMixer, ("width", "n_heads", "n_householder", "chunk")),
                       (CausalSelfAttention, ("width", "n_heads"))):
        for n in names:
            add(cls.__name__, lambda v, cls=cls, n=n: cls(**{"width": 8, "n_heads": 2, n: v}), n)
    add("train_many", lambda v: batched.train_many([cfg], max_group=v), "max_group")
    add("train_batched", lambda v: batched.train_batched([cfg], threads=v), "threads")
    add("train", lambda v: train.train(cfg, threads=v), "threads")
    C3T = C3.cayley_table()
    add("prefix_products", lambda v: tasks.prefix_products(C3T, np.array([[0, 1]]), v), "identity", 0)
    add("cyclic_decomposition", lambda v: group_cascades.cyclic_decomposition(C3T, v), "identity", 0)
    add("seed_all", lambda v: recipe.seed_all(v), "seed", 0)
    add("lr_factor", lambda v: recipe.lr_factor(cfg, v), "step", 0)
    add("length_at_step", lambda v: train.length_at_step(cfg, v), "step", 0)
    add("load_corpus", lambda v: text.load_corpus(max_bytes=v), "max_bytes")
    add("TextData.batch", lambda v: text_data.batch("train", v, 4, torch.Generator()), "batch_size")
    add("TextData.batch", lambda v: text_data.batch("train", 2, v, torch.Generator()), "seq_len")
    add("TextData.fixed_windows", lambda v: text_data.fixed_windows("train", v, 4), "n")
    add("TextData.fixed_windows", lambda v: text_data.fixed_windows("train", 2, v), "seq_len")
    add("DecoderLM", lambda v: DecoderLM(v, LMConfig()), "vocab_size")
    for n in ("d_model", "n_layers", "n_heads", "seq_len", "batch_size", "steps"):
        add("LMConfig", lambda v, n=n: LMConfig(**{n: v}), n)
    for n, least in (("seed", 0), ("train_length", 1), ("n_train", 1), ("n_test", 1)):
        add("WordProblemSpec", lambda v, n=n: tasks.WordProblemSpec(group="C2", **{n: v}), n, least)
        add("RotationSpec", lambda v, n=n: tasks.RotationSpec(**{n: v}), n, least)
    for n, least in (("depth", 1), ("width", 1), ("steps", 1), ("seed", 0), ("batch_size", 1)):
        add("TrainConfig", lambda v, n=n: train.TrainConfig(task="C2", model="gla", **{n: v}), n, least)
    return c


_CASES = None


def _cases():
    global _CASES
    if _CASES is None:
        _CASES = _api_cases()
    return _CASES


N_CASES = 206      # the table's length (cases are built lazily, not at collection)


def test_case_table_size():
    assert len(_cases()) == N_CASES


@pytest.mark.parametrize("k", range(N_CASES))
def test_public_integer_argument_checked(k):
    label, call, name, least = _cases()[k]
    for bad in (1.5, True, "2"):
        with pytest.raises(TypeError, match=rf"\b{name} must be an int"):
            call(bad)
    with pytest.raises(ValueError, match=rf"\b{name} must be"):
        call(least - 1)


@pytest.mark.parametrize("big", [2 ** 70, 10 ** 400])
def test_huge_integers_are_taken_exactly(big):
    """Bounds in closed form take a size of any magnitude (int / int is correctly rounded; a
    float conversion of 10**400 overflowed), and indices beyond the table are refused."""
    import math

    from seqtheory.models.tasks import prefix_products
    from seqtheory.numerics.head_oracles import rownorm_ratio_bound
    from seqtheory.theory.groups import FiniteGroup
    from seqtheory.theory.hilbert import jung_radius, separation_ratio_bound, simplex_ratio_bound
    assert jung_radius(big) == pytest.approx(math.sqrt(0.5))
    assert simplex_ratio_bound(big, 3) == pytest.approx(math.sqrt(3 / 4))
    assert separation_ratio_bound(big, 3) == pytest.approx(math.sqrt(3 / 4))
    assert rownorm_ratio_bound(big) == pytest.approx(math.sqrt(0.5))
    with pytest.raises(ValueError, match=r"identity must be in 0\.\.2"):
        prefix_products(FiniteGroup.cyclic(3).cayley_table(), np.array([[0, 1]]), big)


def test_derived_series_beyond_reach_says_so_quickly():
    """c_k(n) for a huge k recursed until RecursionError (or ran for hours); the exact derived
    series now refuses bases of more than MAX_BASIS Lyndon words up front."""
    import time

    from seqtheory.numerics.separation import least_depth_for_class, max_class_for_depth
    from seqtheory.theory.free_lie import MAX_BASIS, derived_ideal_dimensions
    t0 = time.perf_counter()
    for call in (lambda: max_class_for_depth(2, 2 ** 70), lambda: least_depth_for_class(2, 2 ** 70),
                 lambda: derived_ideal_dimensions(2, 1, 10 ** 6)):
        with pytest.raises(ValueError, match=f"more than {MAX_BASIS} Lyndon words"):
            call()
    assert time.perf_counter() - t0 < 10
    assert max_class_for_depth(2, 4) == 20                     # still reached

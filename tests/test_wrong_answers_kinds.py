"""Wrong answers and unclear errors, by kind (issue 19 §2): exact numbers through floats, big
integers in numpy, advice a user cannot follow, and statistics that cannot be computed.
(Cancellation in reference series, non-finite values in parallel scans and integer arguments
have files of their own.)"""
from __future__ import annotations

import math
from decimal import Decimal
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from hypothesis import example, given, settings, strategies as st

from seqtheory.numerics.fits import choose_eps_grid, fit_loglog_slope

SET = settings(max_examples=40, deadline=None)


# ------------------------------------------------------------------ exact numbers through floats
_MAKE = {"Fraction": lambda e: Fraction(10) ** e, "int": lambda e: 10 ** abs(e),
         "mpf": lambda e: mpmath.mpf(10) ** e, "Decimal": lambda e: Decimal(10) ** e}


@SET
@given(st.integers(-2000, 2000), st.integers(1, 4), st.sampled_from(sorted(_MAKE)))
@example(-400, 2, "Fraction")          # every value below 1e-308: once refused as "not positive"
@example(400, 2, "int")                # values above 1e308: once an OverflowError
def test_fit_loglog_slope_takes_any_positive_exact_number(k, p, kind):
    """err = 3 ε^p on ε = 10^k, 10^(k+1), 10^(k+3), 10^(k+4): the slope is p whatever the range."""
    sign = -1 if (kind != "int" and k < 0) else 1
    eps = [_MAKE[kind](k + sign * d) for d in (0, 1, 3, 4)]
    err = [3 * x ** p for x in eps]
    fit = fit_loglog_slope(eps, err)
    assert fit.slope == pytest.approx(p, abs=1e-9)
    assert fit.contains(p, min_halfwidth=1e-9)


@pytest.mark.parametrize("bad", [Fraction(0), Fraction(-1, 10**400), 0, -(10**400), Decimal("NaN"),
                                 Decimal("-Infinity"), mpmath.mpf(0), float("nan"), True])
def test_fit_loglog_slope_refuses_non_positive(bad):
    with pytest.raises(ValueError, match="positive and finite"):
        fit_loglog_slope([1, 2, 3], [1, 2, bad])


def test_choose_eps_grid_with_exact_arguments():
    grid = choose_eps_grid(lambda e: Fraction(e) ** 3, 3, eps_max=Fraction(1, 10), margin=Fraction(10**6),
                           floor=Fraction(1, 10**400))
    assert len(grid) == 8 and grid[0] == pytest.approx(0.1)


def test_taylor_t_checked_exactly():
    from seqtheory.theory.magnus_series import taylor_ode_solution
    with pytest.raises(ValueError, match="t must be"):
        taylor_ode_solution([[[1]]], t=Fraction(-1, 10**400))
    with pytest.raises(ArithmeticError, match="max_dps"):          # huge t: refused, no OverflowError
        taylor_ode_solution([[[1]]], t=10**400)


# ------------------------------------------------------------------ big integers in numpy
@pytest.mark.parametrize("q", [31, 61, 89, 127])
def test_from_matrices_with_a_modulus_beyond_int64(q):
    """p = 2^q − 1 (Mersenne primes; q ≥ 89 is beyond int64): 2 has multiplicative order q mod p,
    so diag(2, 1) generates C_q. ``np.gcd`` raised OverflowError for p > 2^63 before."""
    from seqtheory.theory.groups import FiniteGroup
    p = 2 ** q - 1
    G = FiniteGroup.from_matrices([[[2, 0], [0, 1]]], modulus=p)
    assert G.order == q and G.is_abelian
    if q * q <= 5040:
        assert FiniteGroup.from_matrices([[[2, 0], [0, 1]], [[1, 0], [0, 2]]], modulus=p).order == q * q
    with pytest.raises(ValueError, match="singular modulo"):
        FiniteGroup.from_matrices([[[p + 1, 0], [0, p]]], modulus=p)
    with pytest.raises(ValueError, match="pass a larger max_order"):    # C_p: beyond max_order
        FiniteGroup.from_matrices([[[1, 1], [0, 1]]], modulus=p)


def test_object_arrays_of_big_integers():
    from seqtheory.theory.groups import FiniteGroup
    big = np.array([[2 ** 70 + 1, 0], [0, 1]], dtype=object)
    assert FiniteGroup.from_matrices([big], modulus=2 ** 70).order == 1


# ------------------------------------------------------------------ advice a user cannot follow
def _advised_arguments(message: str) -> set[str]:
    """Argument names an error message tells the user to pass or change."""
    import re
    found = set(re.findall(r"pass (?:a larger |a smaller )?(\w+)=?", message))
    found |= set(re.findall(r"raise (\w+)", message))
    return {f for f in found if f not in {"the", "an", "a", "it"}}


def _refusals():
    from seqtheory.theory.free_lie import derived_ideal_dimensions, free_nilpotent, \
        free_nilpotent_structure_constants
    from seqtheory.theory.groups import FiniteGroup
    from seqtheory.theory.magnus_series import taylor_ode_solution
    G = FiniteGroup
    return [(G.named, ("S8",)), (G.named, ("A8",)), (G.named, ("D6000",)), (G.named, ("H3(19)",)),
            (G.named, ("Dih3000",)), (G.named, ("C6000",)), (G.symmetric, (9,)), (G.alternating, (10,)),
            (G.dihedral, (5042,)), (G.heisenberg, (18,)), (G.cyclic, (5041,)),
            (G.from_permutations, ([[1, 2, 3, 4, 5, 6, 7, 0], [1, 0, 2, 3, 4, 5, 6, 7]],)),
            (G.from_matrices, ([[[1, 1], [0, 1]]],)),
            (free_nilpotent, (30, 2)), (free_nilpotent_structure_constants, (30, 2)),
            (derived_ideal_dimensions, (30, 1, 2)),
            (taylor_ode_solution, ([[[-100]]], 1, "AY", 50, 10000, 60))]


@pytest.mark.parametrize("k", range(17))
def test_every_advice_names_an_argument_of_the_function_refusing(k):
    import inspect
    f, args = _refusals()[k]
    with pytest.raises((ValueError, ArithmeticError)) as ei:
        f(*args)
    params = set(inspect.signature(f).parameters)
    assert _advised_arguments(str(ei.value)) <= params, str(ei.value)


@pytest.mark.parametrize("name,order", [("S8", 40320), ("A8", 20160), ("H3(19)", 6859), ("D6000", 6000)])
def test_too_large_named_group_says_so(name, order):
    from seqtheory.models.train import TrainConfig
    from seqtheory.theory.groups import FiniteGroup, GroupTooLargeError
    with pytest.raises(GroupTooLargeError, match=f"order {order}, above MAX_ORDER = 5040") as ei:
        FiniteGroup.named(name)
    assert "max_order" not in str(ei.value)
    with pytest.raises(ValueError) as ei:
        TrainConfig(task=name, model="gla")
    assert "must be a group name" not in str(ei.value) and f"order {order}" in str(ei.value)


# ------------------------------------------------------------------ a key figure never shows nan
@pytest.mark.parametrize("v", [float("nan"), None, "nan", np.float32("nan"), np.float64("nan"),
                               mpmath.mpf("nan")])
def test_format_stat_says_n_a_with_the_reason(v):
    from seqtheory.proofs_checks.report import format_stat
    assert format_stat(v, ".2f") == "n/a"
    assert format_stat(v, ".2f", "no runs") == "n/a (no runs)"


@pytest.mark.parametrize("v,spec,text", [(0.123456, ".2f", "0.12"), (1e-13, ".3g", "1e-13"),
                                         (float("inf"), ".2f", "inf"), (3, "d", "3"),
                                         (Fraction(1, 3), "", "1/3")])
def test_format_stat_formats_numbers(v, spec, text):
    from seqtheory.proofs_checks.report import format_stat
    assert format_stat(v, spec) == text


def test_prop37_key_figure_when_tau_cannot_be_computed():
    """Every run at the same length: Kendall τ is undefined; the key figure printed "Kendall τ
    nan (one-sided p 1.000)" while the evidence said n/a."""
    from seqtheory.proofs_checks.claims import depth_prop37_trained as dt
    verdict, why, stats = dt.decide_block({1: [4, 4, 4], 2: [4, 4, 4]}, 3)
    text = dt.prop37_key_statistic(stats)
    assert "nan" not in text and "1.000" not in text
    assert text == f"Kendall τ n/a ({dt.NO_TAU})"
    assert all(math.isnan(stats[k]) for k in ("tau", "p_greater", "p_less"))   # no fake p = 1
    _, _, stats = dt.decide_block({1: [3, 3, 4], 2: [6, 7, 6], 3: [10, 9, 12]}, 3)
    assert dt.prop37_key_statistic(stats).startswith("Kendall τ 0.") and "one-sided p 0.0" in \
        dt.prop37_key_statistic(stats)


def test_thm32_worst_ratio_when_no_pair_has_a_ratio():
    from seqtheory.proofs_checks.claims import depth_thm32_abelian_trained as dta
    rows = [{"worst_ratio": float("nan"), "eps": e} for e in (0.1, 0.2)]
    assert dta.worst_ratio_text(rows) == "worst pair error/bound n/a (every bound is below 1e-12)"
    rows.append({"worst_ratio": 1.25, "eps": 0.3})
    assert dta.worst_ratio_text(rows) == "worst pair error/bound 1.250 (ε = 0.3)"


def test_report_record_never_shows_a_bare_nan():
    from seqtheory.proofs_checks.registry import Outcome, Verdict, get_claim
    from seqtheory.proofs_checks.report import claim_record
    from seqtheory.proofs_checks.runner import ClaimResult
    o = Outcome(Verdict.INCONCLUSIVE, "Kendall τ nan (one-sided p NaN); nanoseconds", notes="τ = nan.")
    rec = claim_record(ClaimResult(get_claim("depth.prop3.7.trained"), o, None, 0.1), 0, "quick")
    assert rec["key_figure"] == "Kendall τ n/a (one-sided p n/a); nanoseconds"
    assert rec["notes"] == "τ = n/a."

"""Named Lie algebras: dimensions and the invariants of SPEC §4 (n up to 8)."""
import math

import pytest

from seqtheory.theory.lie_named import b, diagonal, gl, heisenberg, sl, so, strictly_upper


@pytest.mark.parametrize("n", range(2, 6))
def test_dimensions(n):
    assert gl(n).dim == n * n and sl(n).dim == n * n - 1 and so(n).dim == n * (n - 1) // 2
    assert b(n).dim == n * (n + 1) // 2 and diagonal(n).dim == n


@pytest.mark.parametrize("m", [1, 2, 3])
def test_heisenberg_general(m):
    H = heisenberg(m)
    assert H.dim == 2 * m + 1 and H.nilpotency_class == 2 and H.center().dim == 1


@pytest.mark.parametrize("n", [2, 3, 4])
def test_semisimple_and_perfect(n):
    assert sl(n).is_semisimple and sl(n).is_perfect
    assert not gl(n).is_semisimple and gl(n).derived_series().dims == (n * n, n * n - 1)
    if n >= 3:
        assert so(n).is_perfect and so(n).is_semisimple
    else:
        assert so(2).is_abelian


def test_bad_sizes():
    for f in (gl, sl, so, b, strictly_upper, diagonal, heisenberg):
        with pytest.raises(ValueError):
            f(0)
    with pytest.raises(ValueError):
        sl(1)


@pytest.mark.parametrize("n", range(2, 9))
def test_b_derived_series_dims_decrease_to_zero(n):
    ds = b(n).derived_series()
    assert not ds.stabilised and ds.dims[-1] == 0
    assert len(ds) - 1 == math.ceil(math.log2(n)) + 1

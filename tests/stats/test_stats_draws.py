"""fill_uniform_indices: exact uniform indices from 32-bit halves, rejected halves redrawn."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ranklens.stats.draws import MAX_N, fill_uniform_indices


def _draw(n: int, size: int, seed: int = 0) -> np.ndarray:
    generator = np.random.Generator(np.random.SFC64(seed))
    return fill_uniform_indices(generator, n, np.empty(size, dtype=np.uint32)).copy()


@pytest.mark.parametrize("n", [2, 3, 7, 1000])
def test_every_index_equally_likely(n: int) -> None:
    size = 200_000
    counts = np.bincount(_draw(n, size), minlength=n)
    assert counts.size == n  # nothing at or above n
    expected = size / n
    chi_square = float(((counts - expected) ** 2 / expected).sum())
    # 99.9% quantile of chi-square with n - 1 degrees of freedom, Wilson-Hilferty
    dof = n - 1
    bound = dof * (1 - 2 / (9 * dof) + 3.09 * np.sqrt(2 / (9 * dof))) ** 3
    assert chi_square < bound


def test_rejected_halves_are_redrawn_not_wrapped() -> None:
    # n = 3 * 2**30: k = 1, so every half >= 3 * 2**30 (a quarter of them) is rejected.
    # Wrapping or clipping them would pile a quarter of the draws onto the lowest or highest
    # third; redrawing keeps the three thirds equal.
    n = 3 << 30
    indices = _draw(n, 300_000).astype(np.int64)
    assert indices.max() < n
    thirds = np.bincount(indices // (1 << 30), minlength=3)
    assert thirds.size == 3
    np.testing.assert_allclose(thirds / indices.size, [1 / 3] * 3, atol=0.005)


def test_same_generator_state_gives_the_same_indices() -> None:
    np.testing.assert_array_equal(_draw(7000, 5000, seed=4), _draw(7000, 5000, seed=4))
    assert not np.array_equal(_draw(7000, 5000, seed=4), _draw(7000, 5000, seed=5))


def test_edges() -> None:
    assert _draw(1, 10).tolist() == [0] * 10
    assert _draw(MAX_N, 1000).max() > 1 << 31  # the full 32-bit range is reachable
    assert _draw(5, 0).size == 0
    assert _draw(5, 1)[0] < 5  # odd sizes use half of the last raw word
    for bad in (0, MAX_N + 1):
        with pytest.raises(ValueError, match="n must be"):
            _draw(bad, 3)


@settings(max_examples=200, deadline=None)
@given(n=st.integers(1, MAX_N), size=st.integers(0, 3000), seed=st.integers(0, 2**32))
def test_indices_stay_in_range_for_any_n(n: int, size: int, seed: int) -> None:
    indices = _draw(n, size, seed)
    assert indices.size == size
    assert size == 0 or int(indices.max()) < n

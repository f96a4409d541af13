"""Random sign patterns drawn over the distinct values (issue 50): the same distribution as a
sign per query, checked against exact enumeration; the level and coverage where most
differences tie or take few values; the ends of a comparison drawn once."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ranklens.stats import permutation, permutation_test, sign_flip_interval
from ranklens.stats.permutation import _exact_count, exact_sums, random_column_sums, random_sums
from ranklens.stats.sign_flip import pattern_ends, sign_flip_test
from ranklens.stats.tolerance import SUM_TIES

PATTERNS = 4000
tied_values = st.lists(st.sampled_from([0.0, 0.0, 0.0, 0.1, -0.1, 0.2, 0.35, -0.5, 0.7]),
                       min_size=13, max_size=17)


def _ks(sample: np.ndarray, population: np.ndarray) -> float:
    """Largest gap between the empirical CDF of ``sample`` and that of ``population``
    (rounded to 1e-9: sums added up in another order differ in their last bits)."""
    sample, population = np.round(sample, 9), np.round(population, 9)
    points = np.unique(np.concatenate((sample, population)))
    drawn = np.searchsorted(np.sort(sample), points, side="right") / sample.size
    exact = np.searchsorted(np.sort(population), points, side="right") / population.size
    return float(np.abs(drawn - exact).max())


@pytest.mark.parametrize("heavy", [2, 64])
@settings(max_examples=15, deadline=None)
@given(values=tied_values, seed=st.integers(0, 2**32 - 1))
def test_grouped_draw_has_the_distribution_of_a_sign_per_query(
        values: list[float], seed: int, heavy: int) -> None:
    """The drawn (sum, sum of signs) pairs against all 2^n patterns: the sums' and a mix of
    both's CDF within Kolmogorov's 0.1% band (1.95 / sqrt(4000) = .031), and the p-value
    within 4.5 Monte Carlo sd of the exact one. ``heavy`` = 2 draws every repeated value as
    a binomial count, 64 (the default) gives each a bit of the lookup table."""
    d = np.array(values)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(permutation, "_HEAVY", heavy)
        sums, signs = random_sums(d, PATTERNS, seed, with_signs=True)
        drawn_p = permutation_test(d, n_permutations=PATTERNS, seed=seed)
    assert signs is not None
    all_sums, all_signs = exact_sums(d), exact_sums(np.ones(d.size))
    assert _ks(sums, all_sums) <= 0.031
    assert _ks(sums + 0.23 * signs, all_sums + 0.23 * all_signs) <= 0.031
    scale = float(np.abs(d).sum())
    if scale:
        extreme, total = _exact_count(d, abs(float(d.sum())) - SUM_TIES * scale)
        exact_p = extreme / total
        sd = np.sqrt(exact_p * (1 - exact_p) / PATTERNS)
        assert abs(drawn_p - exact_p) <= 4.5 * sd + 2 / PATTERNS


def test_ties_are_drawn_as_binomial_counts_not_as_bits() -> None:
    """700,000 differences of which 70% are 0 and the rest one of 21 steps of 0.1 (P@10):
    about 22 binomial counts a pattern; the sums' spread is sqrt(sum d^2) as it must be."""
    rng = np.random.default_rng(50)
    d = rng.integers(-10, 11, 700_000) / 10
    d[rng.random(d.size) < 0.7] = 0.0
    sums, signs = random_sums(d, 2000, 1, with_signs=True)
    assert signs is not None
    assert np.std(sums) == pytest.approx(np.sqrt(np.sum(d**2)), rel=0.05)
    assert np.std(signs) == pytest.approx(np.sqrt(d.size), rel=0.05)
    assert np.all((signs + d.size) % 2 == 0)  # kept minus flipped of 700,000 queries


def test_the_sums_do_not_depend_on_the_order_of_the_queries_or_on_the_signs_column() -> None:
    rng = np.random.default_rng(7)
    d = np.round(rng.normal(0.02, 0.1, 500), 2)
    d[rng.random(500) < 0.6] = 0.0
    alone, _ = random_sums(d, 1000, 3)
    shuffled, _ = random_sums(rng.permutation(d), 1000, 3, with_signs=True)
    assert np.array_equal(alone, shuffled)
    mirrored, _ = random_sums(-d, 1000, 3)
    assert np.array_equal(mirrored, -alone)
    # two columns share one pattern a query: the sums of a and of a + d give those of d
    a = rng.uniform(0.2, 0.8, 500)
    pair = random_column_sums(np.column_stack((a, a + d)), 1000, 3)[0]
    assert np.std(pair[:, 1] - pair[:, 0]) == pytest.approx(np.sqrt(np.sum(d**2)), rel=0.1)
    assert np.corrcoef(pair[:, 0], pair[:, 1])[0, 1] > 0.9


def _zero_inflated(rng: np.random.Generator, n: int, centre: float) -> np.ndarray:
    """``centre`` plus symmetric steps of 0.1 where 70% of queries do not move: symmetric
    about ``centre``, most values tied (over 64 repeats: binomial counts)."""
    steps = rng.choice([-0.2, -0.1, 0.1, 0.2], n)
    steps[rng.random(n) < 0.7] = 0.0
    return centre + steps


def test_level_and_coverage_on_tied_and_discrete_differences() -> None:
    """400 samples of 300 queries, 1,000 patterns each: the permutation test's rejections
    under H0 and the sign-flip interval's misses at a mean of 0.03 stay within 2.3 binomial
    sd (.0109) of 5% or below it (the test is exact for symmetric differences)."""
    rng = np.random.default_rng(2026)
    rejected = missed = 0
    samples = 400
    for rep in range(samples):
        rejected += permutation_test(_zero_inflated(rng, 300, 0.0), n_permutations=1000,
                                     seed=rep) <= 0.05
        interval = sign_flip_interval(_zero_inflated(rng, 300, 0.03), n_permutations=1000,
                                      seed=rep)
        missed += not interval.low <= 0.03 <= interval.high
    assert 0.02 <= rejected / samples <= 0.075
    assert 0.02 <= missed / samples <= 0.075


def test_interval_and_p_are_one_test_on_tied_differences() -> None:
    rng = np.random.default_rng(5)
    for rep in range(40):
        d = _zero_inflated(rng, 400, 0.012 * (rep % 4))
        interval, p, _ = sign_flip_test(d, n_permutations=500, seed=rep)
        assert p == permutation_test(d, n_permutations=500, seed=rep)
        assert (interval.low > 0 or interval.high < 0) == (p <= 0.05)


def test_a_comparison_s_pattern_ends_are_drawn_once() -> None:
    d = _zero_inflated(np.random.default_rng(9), 600, 0.01)
    first = pattern_ends(d, n_permutations=700, seed=4)
    again = pattern_ends(d.copy(), n_permutations=700, seed=4)
    assert again[0] is first[0] and again[1] is first[1]
    assert not first[0].flags.writeable
    other = pattern_ends(d, n_permutations=700, seed=np.random.SeedSequence(4))
    assert other[0] is not first[0]
    assert not np.array_equal(pattern_ends(d, n_permutations=700, seed=5)[0], first[0])

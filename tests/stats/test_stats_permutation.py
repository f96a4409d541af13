"""permutation_test: exactness, ties, determinism and the level under H0."""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ranklens.stats import InsufficientSampleError, chunking, permutation_test


def _brute_force_p(deltas: list[float]) -> float:
    """Share of all 2^n sign patterns with |sum| >= |observed sum|, in exact decimals.

    The values are taken as the decimals they print as (0.1 is one tenth), the numbers a
    user means: a pattern that ties mathematically must count as a tie.
    """
    exact = [Fraction(repr(value)) for value in deltas]
    observed = abs(sum(exact))
    patterns = list(itertools.product((1, -1), repeat=len(exact)))
    extreme = sum(
        1
        for signs in patterns
        if abs(sum(s * v for s, v in zip(signs, exact, strict=True))) >= observed
    )
    return extreme / len(patterns)


def test_p_is_never_zero_and_smallest_is_one_over_m_plus_one() -> None:
    deltas = np.linspace(0.05, 0.5, 60)  # every difference favours B
    assert permutation_test(deltas) == 1 / 10_001
    assert permutation_test(deltas, n_permutations=99) == 1 / 100


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.integers(-5, 5).map(lambda k: k / 10), min_size=2, max_size=8).filter(
        lambda v: any(v)
    )
)
def test_small_n_is_enumerated_exactly(deltas: list[float]) -> None:
    # 2^n <= n_permutations: every sign pattern is enumerated; values in tenths make many
    # flipped sums tie with the observed one up to rounding
    assert permutation_test(deltas) == pytest.approx(_brute_force_p(deltas), abs=1e-15)


def test_exact_p_does_not_depend_on_the_seed() -> None:
    deltas = [0.1, 0.2, 0.3, -0.05, 0.15, 0.0, 0.25]
    expected = _brute_force_p(deltas)
    assert permutation_test(deltas, seed=1) == permutation_test(deltas, seed=2) == expected


def test_ties_up_to_rounding_count_as_extreme() -> None:
    # 0.1 + 0.2 - 0.3 is 5.6e-17 in floating point; the observed sum of this sample is that
    # rounding residue, and every pattern is at least as extreme
    assert permutation_test([0.1, 0.2, -0.3]) == 1.0
    assert permutation_test([0.1, 0.2, 0.3]) == 2 / 8


@pytest.mark.parametrize("scale", [1e-13, 1e-7, 1e5])
def test_tie_tolerance_is_relative_to_the_scale(scale: float) -> None:
    rng = np.random.default_rng(3)
    deltas = np.round(rng.normal(0.02, 0.1, 40), 2)  # rounded: many exact ties among flips
    reference = permutation_test(deltas)
    assert 0.0 < reference < 0.5
    assert permutation_test(deltas * scale) == pytest.approx(reference, rel=1e-12)


def test_monte_carlo_p_agrees_with_exhaustive_enumeration() -> None:
    rng = np.random.default_rng(11)
    deltas = rng.normal(0.05, 0.2, 16)  # 65,536 patterns > 10,000 permutations: sampled
    signs = 1 - 2 * ((np.arange(2**16)[:, None] >> np.arange(16)) & 1)
    exact = float(np.mean(np.abs(signs @ deltas) >= abs(deltas.sum()) - 1e-12))
    sampled = permutation_test(deltas, n_permutations=20_000, seed=5)
    standard_error = np.sqrt(exact * (1 - exact) / 20_000)
    assert abs(sampled - exact) < 4 * standard_error


def test_same_seed_same_p_and_seed_sequence_is_accepted() -> None:
    rng = np.random.default_rng(0)
    deltas = rng.normal(0.01, 0.1, 300)
    assert permutation_test(deltas, seed=7) == permutation_test(deltas, seed=7)
    sequence = np.random.SeedSequence(42).spawn(3)[1]
    first = permutation_test(deltas, seed=sequence)
    assert permutation_test(deltas, seed=sequence) == first  # the sequence was not consumed
    assert len({permutation_test(deltas, seed=s) for s in range(5)}) > 1


def test_threads_do_not_change_the_numbers(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(1)
    deltas = rng.normal(0.004, 0.1, 3000)
    monkeypatch.setattr(chunking, "PARALLEL_MIN_DRAWS", 10**18)
    serial = permutation_test(deltas, n_permutations=5000, seed=3)
    monkeypatch.setattr(chunking, "PARALLEL_MIN_DRAWS", 0)
    assert permutation_test(deltas, n_permutations=5000, seed=3) == serial


def test_all_zero_differences_give_p_one() -> None:
    assert permutation_test(np.zeros(50)) == 1.0


def test_too_few_differences_is_insufficient_sample() -> None:
    with pytest.raises(InsufficientSampleError):
        permutation_test([0.3])
    with pytest.raises(ValueError, match="n_permutations"):
        permutation_test([0.3, 0.1], n_permutations=0)


def test_type_one_error_holds_the_nominal_level_on_a_symmetric_null() -> None:
    # symmetric null: Laplace differences with ties at zero, like real metric deltas
    rng = np.random.default_rng(2026)
    n_datasets = 2000
    p_values = np.array(
        [
            permutation_test(np.round(rng.laplace(0.0, 0.1, 30), 2), n_permutations=999, seed=seed)
            for seed in range(n_datasets)
        ]
    )
    for alpha in (0.05, 0.1, 0.2):
        rate = float(np.mean(p_values <= alpha))
        monte_carlo_error = np.sqrt(alpha * (1 - alpha) / n_datasets)
        assert abs(rate - alpha) < 3 * monte_carlo_error, (alpha, rate)


def test_exact_enumeration_beyond_sixteen_values_is_complete() -> None:
    # 2^20 patterns, enumerated as 16 + 4 values: must equal a direct enumeration
    deltas = np.round(np.random.default_rng(12).normal(0.01, 0.1, 20), 2)
    signs = 1 - 2 * ((np.arange(2**20)[:, None] >> np.arange(20)) & 1)
    direct = float(np.mean(np.abs(signs @ deltas) >= abs(deltas.sum()) - 1e-9))
    assert permutation_test(deltas, n_permutations=2**20) == direct


@settings(max_examples=40, deadline=None)
@given(st.lists(st.floats(-1.0, 1.0, allow_subnormal=False), min_size=14, max_size=80))
def test_p_is_in_range_and_symmetric_in_the_sign_of_all_differences(deltas: list[float]) -> None:
    p = permutation_test(deltas, n_permutations=500, seed=2)
    assert 1 / 501 <= p <= 1.0
    assert permutation_test([-d for d in deltas], n_permutations=500, seed=2) == p

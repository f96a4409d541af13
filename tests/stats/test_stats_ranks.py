"""Rank intervals and tiers (`ranklens.stats.ranks`): the rules, a worked board, the letters'
defining property on any separation pattern, and the simultaneous coverage by simulation."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ranklens.stats.ranks import (
    leaderboard,
    letter_display,
    maximal_groups,
    rank_intervals,
    separated_pairs,
    tier_groups,
    tier_letter,
)


def test_a_worked_board_of_four_runs():
    """Means 0.40, 0.38, 0.30, 0.29; only the two top runs are separated from the two bottom
    ones. Ranks: the top two can be 1st or 2nd, the bottom two 3rd or 4th; tiers a, a, b, b."""
    means = np.array([0.40, 0.38, 0.30, 0.29])
    separated = separated_pairs(4, [(0, 2), (0, 3), (1, 2), (1, 3), (0, 1), (2, 3)],
                                [0.001, 0.001, 0.01, 0.02, 0.4, 0.7], 0.05)
    low, high = rank_intervals(means, separated)
    assert low.tolist() == [1, 1, 3, 3] and high.tolist() == [2, 2, 4, 4]
    assert letter_display(means, separated) == ("a", "a", "b", "b")


def test_overlapping_tiers_give_two_letters():
    """A middle run not told apart from either end, the ends separated: ab in the middle."""
    means = np.array([0.5, 0.4, 0.3])
    separated = separated_pairs(3, [(0, 1), (0, 2), (1, 2)], [0.3, 0.01, 0.2], 0.05)
    assert letter_display(means, separated) == ("a", "ab", "b")
    low, high = rank_intervals(means, separated)
    assert low.tolist() == [1, 1, 2] and high.tolist() == [2, 3, 3]


def test_the_letters_run_past_the_alphabet():
    assert [tier_letter(k) for k in (0, 25, 26, 51, 52, 53, 727, 728)] == [
        "a", "z", "A", "Z", "aa", "ab", "zz", "aaa"]
    assert len({tier_letter(k) for k in range(5_000)}) == 5_000


def test_long_runs_of_tiers_are_written_as_ranges_on_a_big_board():
    """A chain of 60 runs, each separated only from runs more than four places away: 56
    tiers, so the board needs two-letter names; every run's tiers become a legible list
    with ranges instead of a string of letters that would run together."""
    n = 60
    means = np.linspace(1.0, 0.0, n)
    separated = np.abs(np.subtract.outer(np.arange(n), np.arange(n))) > 4
    letters = letter_display(means, separated)
    groups = tier_groups(means, separated)
    assert max(max(g) for g in groups) + 1 == 56
    assert letters[0] == "a" and letters[2] == "a, b, c" and letters[4] == "a–e"
    assert letters[30] == "A–E" and letters[59] == "ad"
    assert letters[54] == "Y–ac"  # Y, Z, aa, ab, ac
    board = leaderboard(np.random.default_rng(0).normal(size=(30, 4)), n_permutations=200)
    assert board.n_tiers == len({t for text in board.tiers for t in text}) >= 1


@settings(max_examples=150, deadline=None)
@given(st.integers(min_value=1, max_value=9).flatmap(
    lambda n: st.tuples(st.just(n), st.lists(st.booleans(), min_size=n * (n - 1) // 2,
                                             max_size=n * (n - 1) // 2),
                        st.lists(st.floats(0, 1), min_size=n, max_size=n))))
def test_two_runs_share_a_letter_exactly_when_they_are_not_separated(case):
    """On any pattern of separations (not only those an order of means gives)."""
    n, flags, means = case
    pairs = list(itertools.combinations(range(n), 2))
    separated = separated_pairs(n, pairs, [0.0 if f else 1.0 for f in flags], 0.05)
    groups = tier_groups(np.array(means), separated)
    for i, j in pairs:
        assert bool(set(groups[i]) & set(groups[j])) == (not separated[i, j]), (i, j, groups)
    assert all(groups) and all(letter_display(np.array(means), separated))
    low, high = rank_intervals(np.array(means), separated)
    order = np.argsort(-np.array(means), kind="stable")
    point = np.empty(n, dtype=int)
    point[order] = np.arange(1, n + 1)
    # the observed order's ranks (ties aside) lie in the intervals
    distinct = len(set(means)) == n
    assert (low <= high).all() and (not distinct or ((low <= point) & (point <= high)).all())


@settings(max_examples=120, deadline=None)
@given(st.integers(min_value=1, max_value=10).flatmap(
    lambda n: st.tuples(st.just(n), st.lists(st.booleans(), min_size=n * (n - 1) // 2,
                                             max_size=n * (n - 1) // 2))))
def test_the_tiers_are_every_maximal_group_not_told_apart(case):
    """Against brute force over every subset: the groups found are exactly the maximal sets
    of runs no two of which are separated, each once."""
    n, flags = case
    pairs = list(itertools.combinations(range(n), 2))
    separated = separated_pairs(n, pairs, [0.0 if f else 1.0 for f in flags], 0.05)
    together = [mask for mask in range(1, 1 << n)
                if not any(mask >> i & 1 and mask >> j & 1 and separated[i, j]
                           for i, j in pairs)]
    maximal = {mask for mask in together
               if not any(other != mask and other & mask == mask for other in together)}
    found = maximal_groups(~separated)
    assert found is not None and len(found) == len(set(found))
    assert set(found) == maximal


def test_the_board_of_clearly_different_runs_is_an_order():
    rng = np.random.default_rng(4)
    values = rng.normal(0, 0.05, (300, 1)) + np.array([0.1, 0.3, 0.5, 0.7]) + \
        rng.normal(0, 0.02, (300, 4))
    board = leaderboard(values, ["w", "x", "y", "z"], n_permutations=2000)
    assert board.order == (3, 2, 1, 0)
    assert board.rank_low == board.rank_high == (4, 3, 2, 1)
    assert board.tiers == ("d", "c", "b", "a")


def _true_ranks(means: np.ndarray) -> np.ndarray:
    return 1 + (means[None, :] > means[:, None]).sum(axis=1)


@pytest.mark.slow
def test_rank_intervals_cover_every_true_rank_at_once_and_hold_the_fwer():
    """12 runs, three groups of tied true means (0, 0.01, 0.03) and checkpoint-like
    correlation (runs share a query effect and half of each other's noise), 120 queries,
    skewed per-query noise: every true rank inside its interval in >= 95% of worlds
    (Monte Carlo error about .015 at 200 worlds), and no false separation beyond alpha."""
    rng = np.random.default_rng(2026)
    truth = np.repeat([0.0, 0.01, 0.03], 4)
    worlds, covered, false_found = 200, 0, 0
    for _ in range(worlds):
        query = rng.normal(0.4, 0.15, (120, 1))
        shared = rng.exponential(0.05, (120, 1)) - 0.05
        noise = 0.5 * (rng.exponential(0.05, (120, 12)) - 0.05) + 0.5 * shared
        values = query + truth + noise
        board = leaderboard(values, n_permutations=1000, seed=int(rng.integers(1 << 31)))
        ranks = _true_ranks(truth)
        covered += bool(((np.array(board.rank_low) <= ranks) &
                         (ranks <= np.array(board.rank_high))).all())
        tied = truth[:, None] == truth[None, :]
        false_found += bool((board.separated & tied).any())
    assert covered / worlds >= 0.95 - 0.015, covered / worlds
    assert false_found / worlds <= 0.05 + 0.015, false_found / worlds

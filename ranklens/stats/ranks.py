"""A leaderboard that says which differences are real: rank intervals and tiers of many runs.

Ranking 50 runs by their mean metric prints 50 ranks, most of which the queries cannot tell
apart. This module answers "where could each run really stand, and which runs are not told
apart", with the chance of any wrong statement at most alpha for the whole board:

- every pair of runs is tested at once by `family_test` (``family="all-pairs"``: the
  step-down maximum of |t| over sign flips of whole queries, the randomized Tukey HSD of IR
  papers in the form that holds when runs are near copies of each other);
- a run's **rank interval** counts the runs it is separated from: its best rank is 1 + the
  runs found better, its worst the number of runs minus those found worse (Mogstad, Romano,
  Shaikh & Wilhelm, *Inference for ranks*, 2024: simultaneous pairwise decisions give rank
  confidence sets that hold for all runs together). Rank 1 is the highest mean;
- **tiers** are the maximal groups of runs no two of which are separated, each named by a
  letter (the compact letter display, Piepho 2004): two runs share a letter exactly when
  they are not told apart.

It does not say how large a difference is (each pair's interval does), and a rank interval
is about the mean over this population of queries, not about any one query. numpy only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ranklens.stats.family import FamilyTest, family_test
from ranklens.stats.results import Seed

MAX_TIERS = 5_000
"""Past this many tiers the letters are not drawn (the separations are far from an order)."""


@dataclass(frozen=True)
class Leaderboard:
    """Runs ranked by their mean, with simultaneous rank intervals and tiers.

    Every field but ``family`` and ``n_tiers`` is in the runs' given order.
    ``rank_low``/``rank_high`` bound where each run's true mean ranks among all runs' (1 =
    highest), all intervals holding together with probability at least ``1 - alpha`` (ties
    among true means: a run's rank is 1 + the runs truly above it). ``tiers`` are each run's
    letters (`letter_display`; "" when not drawn, see `MAX_TIERS`), ``n_tiers`` how many
    tiers there are (0 when not drawn). ``order`` lists the runs from the highest mean down.
    """

    names: tuple[str, ...]
    means: tuple[float, ...]
    rank_low: tuple[int, ...]
    rank_high: tuple[int, ...]
    tiers: tuple[str, ...]
    order: tuple[int, ...]
    alpha: float
    family: FamilyTest
    n_tiers: int = 0

    @property
    def separated(self) -> npt.NDArray[np.bool_]:
        """(runs x runs) True where the pair's difference is found at ``alpha``."""
        return separated_pairs(len(self.names), self.family.pairs, self.family.adjusted,
                               self.alpha)


def leaderboard(
    values: npt.ArrayLike,
    names: Sequence[str] | None = None,
    *,
    alpha: float = 0.05,
    n_permutations: int = 10_000,
    seed: Seed = 0,
) -> Leaderboard:
    """Rank intervals and tiers of the runs whose per-query values are the columns of
    ``values`` (queries x runs, paired on the same queries: see `pair_runs`).

    The family is every pair of runs, tested by step-down max-t over ``n_permutations`` sign
    flips of whole queries (`family_test`); its family-wise error is at most ``alpha``, and so
    is the chance that any rank interval or tier statement is wrong.
    """
    if not 0.0 < alpha < 1.0:
        raise ValueError(f"alpha must be in (0, 1), got {alpha}")
    matrix = np.asarray(values, dtype=np.float64)
    test = family_test(matrix, family="all-pairs", n_permutations=n_permutations, seed=seed)
    n_runs = matrix.shape[1]
    labels = tuple(names) if names is not None else tuple(f"run {i + 1}" for i in range(n_runs))
    if len(labels) != n_runs:
        raise ValueError(f"{len(labels)} names for {n_runs} runs")
    means = matrix.mean(axis=0)
    separated = separated_pairs(n_runs, test.pairs, test.adjusted, alpha)
    low, high = rank_intervals(means, separated)
    groups = tier_groups(means, separated)
    n_tiers = 0 if groups is None else 1 + max((max(g) for g in groups if g), default=-1)
    return Leaderboard(labels, tuple(float(m) for m in means), tuple(low.tolist()),
                       tuple(high.tolist()), tier_letters(groups, n_runs),
                       tuple(int(i) for i in _by_mean(means)), alpha, test, n_tiers)


def separated_pairs(n_runs: int, pairs: Sequence[tuple[int, int]], adjusted: Sequence[float],
                    alpha: float) -> npt.NDArray[np.bool_]:
    """Symmetric (runs x runs) matrix: True where the pair's adjusted p is at most alpha."""
    separated = np.zeros((n_runs, n_runs), dtype=bool)
    for (i, j), p in zip(pairs, adjusted, strict=True):
        if p <= alpha:
            separated[i, j] = separated[j, i] = True
    return separated


def rank_intervals(means: npt.ArrayLike, separated: npt.NDArray[np.bool_]
                   ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Each run's best and worst rank (1 = highest mean) given which pairs are separated.

    Best: 1 + the runs separated from it with a higher mean; worst: the number of runs minus
    those separated from it with a lower mean. When every separation is right in direction,
    each interval holds the run's true rank (1 + the runs whose true mean is higher).
    """
    m = np.asarray(means, dtype=np.float64)
    above = separated & (m[:, None] > m[None, :])  # above[i, j]: i found above j
    low = 1 + above.sum(axis=0)
    high = len(m) - above.sum(axis=1)
    return low.astype(np.int64), high.astype(np.int64)


def letter_display(means: npt.ArrayLike, separated: npt.NDArray[np.bool_]) -> tuple[str, ...]:
    """The compact letter display: each run's tiers as letters, two runs sharing one exactly
    when they are not separated. ``"a"`` goes to the tier of the highest mean, then ``"b"``,
    ... (`tier_groups` gives the tier numbers themselves).

    A small board prints as papers do (``a``, ``ab``, ``b``). When a run sits in four or more
    consecutive tiers, or the board needs more than 52 letters, every run's tiers are written
    as a list, runs of four or more consecutive tiers as a range (``a–r, t``; ``A–Z, aa–bc``):
    a 200-run board stays legible and two-letter names cannot run together. All ``""`` when
    more than `MAX_TIERS` tiers would be needed.
    """
    return tier_letters(tier_groups(means, separated), len(np.asarray(means)))


def tier_letters(groups: Sequence[Sequence[int]] | None, n_runs: int) -> tuple[str, ...]:
    """`letter_display`'s text of each run's tier numbers (``groups``, from `tier_groups`);
    all ``""`` for None (too many tiers)."""
    if groups is None:
        return ("",) * n_runs
    parts = [_tier_parts(numbers) for numbers in groups]
    compact = all(len(part) == 1 for run in parts for part in run)
    return tuple(("" if compact else ", ").join(run) for run in parts)


def tier_groups(means: npt.ArrayLike, separated: npt.NDArray[np.bool_]
                ) -> list[list[int]] | None:
    """Each run's tier numbers (0 is ``a``), ascending; None past `MAX_TIERS` tiers.

    The tiers are the maximal groups of runs no two of which are separated (the maximal
    cliques of the "not told apart" graph, what Piepho's insert-and-absorb (2004) arrives
    at), found by Bron-Kerbosch with pivoting: its work follows the number of tiers, so a
    200-run board takes milliseconds where insert-and-absorb took seconds. Tiers are
    numbered in the order of their best run, then their next best, ...
    """
    m = np.asarray(means, dtype=np.float64)
    n = len(m)
    if n == 0:
        return []
    tiers = maximal_groups(~np.asarray(separated, dtype=bool))
    if tiers is None:
        return None
    members = [[r for r in range(n) if t >> r & 1] for t in tiers]
    rank_of = np.empty(n, dtype=np.int64)
    rank_of[_by_mean(m)] = np.arange(n)
    keys = [sorted(rank_of[runs].tolist()) for runs in members]
    named = [members[k] for k in sorted(range(len(members)), key=keys.__getitem__)]
    groups: list[list[int]] = [[] for _ in range(n)]
    for number, runs in enumerate(named):
        for run in runs:
            groups[run].append(number)
    return groups


def _tier_parts(numbers: Sequence[int]) -> list[str]:
    """Tier numbers as names, four or more consecutive ones as one range ``first–last``."""
    parts: list[str] = []
    start = 0
    while start < len(numbers):
        stop = start
        while stop + 1 < len(numbers) and numbers[stop + 1] == numbers[stop] + 1:
            stop += 1
        if stop - start >= 3:
            parts.append(f"{tier_letter(numbers[start])}–{tier_letter(numbers[stop])}")
        else:
            parts += [tier_letter(k) for k in numbers[start:stop + 1]]
        start = stop + 1
    return parts


def maximal_groups(together: npt.NDArray[np.bool_]) -> list[int] | None:
    """The maximal groups of runs that are pairwise ``together`` (a symmetric matrix; the
    diagonal is ignored), each a bit set (bit r: run r); None past `MAX_TIERS` groups.

    Bron-Kerbosch with Tomita's pivot (the neighbour-richest run of the candidates and the
    excluded), on Python ints as bit sets.
    """
    n = len(together)
    neighbours = [sum(1 << c for c in np.flatnonzero(together[r]).tolist() if c != r)
                  for r in range(n)]
    found: list[int] = []

    def extend(group: int, candidates: int, excluded: int) -> bool:
        if not candidates and not excluded:
            found.append(group)
            return len(found) <= MAX_TIERS
        pool = candidates | excluded
        pivot = max(_bits(pool), key=lambda u: (candidates & neighbours[u]).bit_count())
        for run in _bits(candidates & ~neighbours[pivot]):
            bit = 1 << run
            if not extend(group | bit, candidates & neighbours[run],
                          excluded & neighbours[run]):
                return False
            candidates &= ~bit
            excluded |= bit
        return True

    return found if extend(0, (1 << n) - 1, 0) else None


def _bits(mask: int) -> list[int]:
    """The positions of the set bits of ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def tier_letter(number: int) -> str:
    """``a`` … ``z``, then ``A`` … ``Z``, then two lower-case letters (``aa`` … ``zz``), then
    three (``aaa`` …): a distinct name for every number."""
    alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
    if number < len(alphabet):
        return alphabet[number]
    rest, width = number - len(alphabet), 2
    while rest >= 26 ** width:
        rest -= 26 ** width
        width += 1
    letters = []
    for _ in range(width):
        rest, digit = divmod(rest, 26)
        letters.append(alphabet[digit])
    return "".join(reversed(letters))


def _by_mean(means: npt.NDArray[np.float64]) -> npt.NDArray[np.intp]:
    """Runs from the highest mean down (ties in the given order)."""
    return np.argsort(-means, kind="stable")


__all__ = ["MAX_TIERS", "Leaderboard", "leaderboard", "letter_display", "maximal_groups",
           "rank_intervals", "separated_pairs", "tier_groups", "tier_letter",
           "tier_letters"]

"""Several runs at once: candidates against a baseline with the family-wise error held.

A ranker rarely has one candidate. Testing five candidates against a baseline at alpha = .05
each finds "a winner" far more often than 5% of the time when none is better; the p-values of
the family must be adjusted together. This module answers "which candidates differ from the
baseline (or from each other), with the chance of any false finding at most alpha":

- `pair_runs` lines up the per-query values of all runs on one set of queries (the
  missing-query policy applies to every run, and the counts are per run);
- `family_test` adjusts the p-values of the family: the randomized step-down maximum of the
  pairs' t statistics (``"max-t"``, default), or Holm on each pair's own sign-flip p-value
  (``"holm"``, the simple alternative, valid under any dependence but blind to it) on each
  pair's own p, `compare`'s default (skew-guarded) test. Max-t keeps the sign flips alone: its
  randomization is joint over the pairs, and Hall's correction has no joint form; where the
  pairs' own p-values are given it is never below them.

The randomization of ``max-t`` flips the sign of every pair's difference on a query at once,
query by query: "for this query it makes no difference which run of each pair is which" for
all pairs of the family together. For one pair that is exactly `permutation_test`. For many
pairs the flipped sums keep the covariance of the pairs (they share the baseline, they share
queries), so the maximum's distribution knows how correlated the tests are: that is where it
beats Holm, which must assume the worst. Each pair is studentized (its t statistic, not its
mean difference), so a candidate that changes few queries is judged on its own noise, not on
that of a candidate that changes many.

Why not permute the runs themselves within each query (Carterette's randomized Tukey HSD):
that tests "all runs are exchangeable", which fails whenever one candidate is a near copy of
the baseline and another is a different system with the same mean, the everyday case. There,
with four near copies and one different run, none better, its family-wise error came out at
0.16 for a nominal 0.05 (300 simulated collections of 200 queries); the sign flips held 0.05
to 0.06 on the same data (tests/stats/test_stats_family.py reproduces both).

numpy only; it knows nothing of metrics, files or segments.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal, get_args

import numpy as np
import numpy.typing as npt

from ranklens.data import QueryId
from ranklens.stats.chunking import block_generators, chunk_sizes, offsets, run_blocks
from ranklens.stats.errors import InsufficientSampleError, SmallSampleWarning
from ranklens.stats.multiple import holm
from ranklens.stats.notes import Note, emit
from ranklens.stats.pairing import (
    MIN_QUERIES,
    Side,
    align,
    as_arrays,
    check_finite_values,
    check_missing,
    examples,
)
from ranklens.stats.permutation import permutation_test
from ranklens.stats.results import Seed
from ranklens.stats.skew_guard import guard_p_value
from ranklens.stats.tolerance import SUM_TIES, no_difference_tolerance, snap, snap_columns

Family = Literal["baseline", "all-pairs"]
"""``"baseline"``: each candidate against run 0 (many-to-one); ``"all-pairs"``: every pair."""

FAMILIES: tuple[Family, ...] = get_args(Family)

FamilyMethod = Literal["max-t", "holm"]
"""How a family's p are adjusted: step-down max-t over sign flips, or Holm on each p."""

FAMILY_METHODS: tuple[FamilyMethod, ...] = get_args(FamilyMethod)

_FAMILY_STREAM = 7  # purpose tag of the family test's random streams, see block_generators
_DRAWS_PER_BLOCK = 1 << 20  # signs per block: 8 MB of float64 at a time

Matrix = npt.NDArray[np.float64]


@dataclass(frozen=True)
class AlignedRuns:
    """Per-query values of several runs on one set of queries, and what the pairing did.

    ``values`` has one row per query of ``queries`` and one column per run (run 0 is the
    baseline). ``missing[i]`` counts the queries of the comparison that run ``i`` has no value
    for: left out of every comparison (``"drop"``) or scored 0 (``"zero"``). ``notes`` are what
    the pairing had to say (`pair_runs` also warns them).
    """

    queries: tuple[QueryId, ...]
    values: Matrix
    missing: tuple[int, ...]
    policy: str
    notes: tuple[Note, ...] = ()
    query_ids: npt.NDArray[np.object_] | None = field(default=None, repr=False, compare=False)
    """``queries`` as the sorted array the pairing made (None when built by hand)."""


@dataclass(frozen=True)
class FamilyTest:
    """Adjusted p-values of one family of paired comparisons among runs on the same queries.

    ``pairs[c] = (i, j)`` is comparison ``c``: run ``j`` against run ``i`` (difference j - i).
    ``deltas`` are the mean differences, ``adjusted`` the family-wise adjusted p-values, both
    in ``pairs`` order. ``method`` is ``"max-t"`` or ``"holm"``, ``family`` ``"baseline"`` or
    ``"all-pairs"``; ``exact`` says every sign pattern of the queries was enumerated (then
    ``n_permutations`` is how many there are). A comparison is a finding at alpha when its
    adjusted p is at most alpha; the chance of one or more false findings in the family is
    then at most alpha.
    """

    pairs: tuple[tuple[int, int], ...]
    deltas: tuple[float, ...]
    adjusted: tuple[float, ...]
    method: str
    family: str
    n_queries: int
    n_permutations: int
    exact: bool
    seed: Seed


def comparison_pairs(n_runs: int, family: str = "baseline", *, baselines: int = 1
                     ) -> tuple[tuple[int, int], ...]:
    """The comparisons of a family of ``n_runs`` runs, the first ``baselines`` runs being the
    baselines (run 0 alone by default).

    ``"baseline"``: each candidate against each baseline, (0, k), (0, k + 1), ..., then
    (1, k), ... for ``k`` baselines; ``"all-pairs"``: every (i, j) with i < j, in
    lexicographic order (so the baseline's pairs come first; one baseline only).
    """
    if family not in FAMILIES:
        raise ValueError(f"family must be one of {FAMILIES}, got {family!r}")
    if n_runs < 2:
        raise ValueError(f"a family needs at least 2 runs, got {n_runs}")
    if not 1 <= baselines < n_runs:
        raise ValueError(f"baselines must be from 1 to {n_runs - 1} (one candidate at least), "
                         f"got {baselines}")
    if baselines > 1 and family != "baseline":
        raise ValueError("several baselines go with family='baseline' (every pair already "
                         "holds each candidate against each baseline)")
    if family == "baseline":
        return tuple((b, j) for b in range(baselines) for j in range(baselines, n_runs))
    return tuple((i, j) for i in range(n_runs) for j in range(i + 1, n_runs))


def pair_runs(
    per_query: Sequence[Side],
    *,
    names: Sequence[str] | None = None,
    missing: str = "drop",
    min_queries: int = MIN_QUERIES,
    stacklevel: int = 2,
) -> AlignedRuns:
    """The values of every run on the queries they are compared on, as one matrix.

    Queries are paired across **all** runs, so that every candidate is compared with the
    baseline on the same queries and the family's tests see one sample. ``missing`` applies
    to every run: ``"drop"`` compares the queries every run has (and warns with the count
    per run), ``"zero"`` compares the queries any run has and scores 0 where a run lacks one
    (trec_eval -c), ``"error"`` raises ValueError naming the runs and a few queries.
    ``names`` name the runs in messages (default "run 0", "run 1", ...). NaN or infinite
    values raise ValueError; no query at all is `InsufficientSampleError`; fewer than
    ``min_queries`` warns `SmallSampleWarning`. Runs are `MetricResult`s (paired on their
    sorted arrays) or mappings.
    """
    aligned = pair_runs_quietly(per_query, names=names, missing=missing,
                                min_queries=min_queries)
    emit(aligned.notes, stacklevel + 1)
    if not aligned.queries:
        raise InsufficientSampleError(0, 1)
    return aligned


def pair_runs_quietly(
    per_query: Sequence[Side],
    *,
    names: Sequence[str] | None = None,
    missing: str = "drop",
    min_queries: int = MIN_QUERIES,
) -> AlignedRuns:
    """`pair_runs` without warnings: what it would warn is in ``notes``, and ``queries`` may
    be empty (the caller decides; `pair_runs` raises `InsufficientSampleError`)."""
    check_missing(missing)
    if len(per_query) < 2:
        raise ValueError(f"pairing needs at least 2 runs, got {len(per_query)}")
    labels = list(names) if names is not None else [f"run {i}" for i in range(len(per_query))]
    if len(labels) != len(per_query):
        raise ValueError(f"{len(labels)} names for {len(per_query)} runs")
    sides = [as_arrays(values) for values in per_query]
    for (ids, values), label in zip(sides, labels, strict=True):
        check_finite_values(ids, values, label)
    aligned = align([ids for ids, _ in sides], [values for _, values in sides],
                    union=missing == "zero")
    lacking = aligned.lacking
    if any(gone.size for gone in lacking) and missing == "error":
        parts = [f"{label} lacks {gone.size} ({examples(gone)})"
                 for label, gone in zip(labels, lacking, strict=True) if gone.size]
        raise ValueError(
            "a paired comparison needs every query in every run: " + "; ".join(parts)
            + " (missing='drop' compares the queries all runs have, missing='zero' scores 0 "
            "where a run lacks one)")
    notes: list[Note] = []
    n = int(aligned.queries.size)
    if any(gone.size for gone in lacking) and missing == "drop":
        parts = [f"{gone.size} missing from {label}"
                 for label, gone in zip(labels, lacking, strict=True) if gone.size]
        notes.append(Note(
            f"dropped {aligned.n_union - n} queries that not every run has ("
            + ", ".join(parts) + "): queries are paired across all runs; missing='zero' "
            "scores a missing query 0 (trec_eval -c), missing='error' refuses"))
    if 0 < n < min_queries:
        notes.append(Note(
            f"comparison on {n} paired queries: the intervals will be wide and the "
            f"p-values unstable; {min_queries} or more are recommended (see the MDE calculator)",
            SmallSampleWarning))
    matrix = np.column_stack(aligned.values) if n else np.empty((0, len(sides)))
    return AlignedRuns(tuple(aligned.queries.tolist()), matrix,
                       tuple(gone.size for gone in lacking), missing, tuple(notes),
                       aligned.queries)


def _validated(values: object) -> Matrix:
    matrix = np.asarray(values, dtype=np.float64)
    if matrix.ndim != 2 or matrix.shape[1] < 2:
        raise ValueError(f"values must be a (queries x runs) matrix with at least 2 runs, "
                         f"got shape {matrix.shape}")
    if matrix.shape[0] < 2:
        raise InsufficientSampleError(matrix.shape[0], 2)
    if not np.isfinite(matrix).all():
        raise ValueError("values must be finite: NaN or infinite per-query values")
    return matrix


def _abs_t(sums: Matrix, squares: npt.NDArray[np.float64], n: int) -> Matrix:
    """|t| of the mean difference for flipped sums ``sums`` (patterns x pairs), in place.

    For differences d with sum S and sum of squares Q (Q does not change under sign flips),
    t^2 = S^2 (n - 1) / (n Q - S^2): increasing in |S|, infinite when every |d| is the same
    and every sign agrees (no spread). A pair whose differences are all 0 has t = 0.
    """
    magnitude = np.abs(sums, out=sums)
    room = n * squares - magnitude * magnitude
    with np.errstate(divide="ignore", invalid="ignore"):
        t = magnitude * np.sqrt((n - 1) / np.maximum(room, 0.0))
    t[:, squares == 0.0] = 0.0
    return np.nan_to_num(t, nan=0.0, copy=False, posinf=np.inf)


def _step_down_counts(t: Matrix, order: npt.NDArray[np.intp],
                      thresholds: npt.NDArray[np.float64]) -> npt.NDArray[np.int64]:
    """For each step i of the step-down (pairs in ``order``, most significant first), how many
    patterns have a max of t over the pairs not yet rejected (order[i:]) at its threshold."""
    ordered = t[:, order]
    successive = np.maximum.accumulate(ordered[:, ::-1], axis=1)[:, ::-1]
    return np.count_nonzero(successive >= thresholds[order][None, :], axis=0).astype(np.int64)


def _signs_of(patterns: npt.NDArray[np.uint64], n: int) -> Matrix:
    bits = (patterns[:, None] >> np.arange(n, dtype=np.uint64)[None, :]) & np.uint64(1)
    return 1.0 - 2.0 * bits.astype(np.float64)


@dataclass(frozen=True)
class _PairSums:
    """What the sign-flip sums of a family's pairs need, without a (queries x pairs) matrix.

    A pattern of signs s flips every pair's difference on a query together, so the flipped
    sum of pair (i, j) is s @ (x_j - x_i) = (s @ X)[j] - (s @ X)[i]: one product with the
    runs' matrix X (queries x runs) gives every pair's sum, which is what makes all pairs of
    hundreds of runs affordable. The pairs whose snapped differences are not exactly x_j - x_i
    (float noise set to 0, `ranklens.stats.tolerance.snap`), or whose differences are so small
    beside the values that the subtraction's rounding could tie-break a count, are summed
    from their own differences (``direct``) instead.
    """

    runs: Matrix  # queries x runs
    first: npt.NDArray[np.intp]  # i of each pair
    second: npt.NDArray[np.intp]  # j of each pair
    squares: npt.NDArray[np.float64]  # sum of squared snapped differences (sign-invariant)
    scale: npt.NDArray[np.float64]  # sum of |snapped differences|
    observed: npt.NDArray[np.float64]  # |sum of snapped differences|
    direct: npt.NDArray[np.intp]  # pairs summed from their own differences
    direct_differences: Matrix  # queries x len(direct)

    @property
    def n_pairs(self) -> int:
        return len(self.first)

    def flipped(self, signs: Matrix) -> Matrix:
        """Every pair's sum of differences under each row of ``signs`` (patterns x pairs)."""
        by_run = signs @ self.runs
        sums = np.take(by_run, self.second, axis=1)
        sums -= np.take(by_run, self.first, axis=1)
        if len(self.direct):
            sums[:, self.direct] = signs @ self.direct_differences
        return sums


_PAIRS_AT_ONCE = 1 << 22  # differences (queries x pairs) made at a time: 32 MB of float64
_ROUNDING_ROOM = 1e-4  # see _pair_sums: differences this small beside the values go direct


def _pair_sums(matrix: Matrix, pairs: Sequence[tuple[int, int]]) -> tuple[_PairSums, Matrix]:
    """The family's `_PairSums` and each pair's mean snapped difference."""
    n = matrix.shape[0]
    first = np.array([i for i, _ in pairs], dtype=np.intp)
    second = np.array([j for _, j in pairs], dtype=np.intp)
    largest = np.max(np.abs(matrix), axis=0)
    magnitude = np.abs(matrix).sum(axis=0)
    squares = np.empty(len(pairs))
    scale = np.empty(len(pairs))
    sums = np.empty(len(pairs))
    direct: list[int] = []
    direct_columns: list[Matrix] = []
    step = max(1, _PAIRS_AT_ONCE // max(n, 1))
    for start in range(0, len(pairs), step):
        stop = min(len(pairs), start + step)
        i, j = first[start:stop], second[start:stop]
        raw = matrix[:, j] - matrix[:, i]
        snapped = snap_columns(raw, np.maximum(largest[i], largest[j]))
        squares[start:stop] = np.einsum("qp,qp->p", snapped, snapped)
        scale[start:stop] = np.abs(snapped).sum(axis=0)
        sums[start:stop] = snapped.sum(axis=0)
        changed = np.any(snapped != raw, axis=0)
        tiny = scale[start:stop] < _ROUNDING_ROOM * (magnitude[i] + magnitude[j])
        for column in np.flatnonzero((changed | tiny) & (squares[start:stop] > 0.0)):
            direct.append(start + int(column))
            direct_columns.append(snapped[:, column])
    direct_differences = (np.column_stack(direct_columns) if direct_columns
                          else np.empty((n, 0)))
    pair_sums = _PairSums(matrix, first, second, squares, scale, np.abs(sums),
                          np.array(direct, dtype=np.intp), direct_differences)
    return pair_sums, sums / n


def _max_t(pair_sums: _PairSums, n: int, n_permutations: int, seed: Seed
           ) -> tuple[npt.NDArray[np.float64], int, bool]:
    """Step-down max-t adjusted p-values of a family's pairs (`_PairSums`) on ``n`` queries,
    the number of sign patterns used, and whether they were all of them."""
    n_pairs = pair_sums.n_pairs
    squares, observed = pair_sums.squares, pair_sums.observed
    observed_t = _abs_t(observed[None, :].copy(), squares, n)[0]
    # "at least as extreme" forgives rounding relative to each pair's scale (as
    # permutation_test does); applied to |S| before the monotone map to t
    shrunk = np.maximum(observed - SUM_TIES * pair_sums.scale, 0.0)
    thresholds = _abs_t(shrunk[None, :].copy(), squares, n)[0]
    thresholds[squares == 0.0] = 0.0
    order = np.argsort(-observed_t, kind="stable")
    # rows of one product at a time, so that a family of 20,000 pairs holds a few
    # (rows x pairs) matrices of about 32 MB, whatever the block's size
    rows_at_once = max(1, _PAIRS_AT_ONCE // max(n_pairs, 1))

    def counted(signs: Matrix) -> npt.NDArray[np.int64]:
        counts = np.zeros(n_pairs, dtype=np.int64)
        for start in range(0, len(signs), rows_at_once):
            t = _abs_t(pair_sums.flipped(signs[start:start + rows_at_once]), squares, n)
            counts += _step_down_counts(t, order, thresholds)
        return counts

    exact = n < 63 and 2**n <= n_permutations
    if exact:
        total = 2**n
        counts = np.zeros(n_pairs, dtype=np.int64)
        step = max(1, _DRAWS_PER_BLOCK // n)
        for start in range(0, total, step):
            patterns = np.arange(start, min(total, start + step), dtype=np.uint64)
            counts += counted(_signs_of(patterns, n))
        p_sorted = counts / total
    else:
        sizes = chunk_sizes(n_permutations, n, draws_per_block=_DRAWS_PER_BLOCK)
        spans = list(offsets(sizes))
        generators = block_generators(seed, _FAMILY_STREAM, len(sizes))
        block_counts = np.zeros((len(sizes), n_pairs), dtype=np.int64)

        def work(block: int) -> None:
            start, stop = spans[block]
            rows = stop - start
            words = generators[block].bit_generator.random_raw(-(-rows * n // 64))
            bits = np.unpackbits(words.view(np.uint8), bitorder="little")[: rows * n]
            signs = 1.0 - 2.0 * bits.reshape(rows, n).astype(np.float64)
            block_counts[block] = counted(signs)

        run_blocks(work, len(sizes), n_permutations * n * max(1, n_pairs))
        # the observed pattern belongs to the reference set: p is never 0
        p_sorted = (block_counts.sum(axis=0) + 1) / (n_permutations + 1)
        total = n_permutations
    monotone = np.minimum(np.maximum.accumulate(p_sorted), 1.0)
    adjusted = np.empty(n_pairs, dtype=np.float64)
    adjusted[order] = monotone
    return adjusted, total, exact


def _at_least(adjusted: npt.NDArray[np.float64], own: npt.NDArray[np.float64]
              ) -> npt.NDArray[np.float64]:
    """``adjusted`` raised to at least ``own``, still monotone in the step-down order."""
    order = np.argsort(adjusted, kind="stable")
    raised = np.maximum.accumulate(np.maximum(adjusted, own)[order])
    result = np.empty_like(adjusted)
    result[order] = np.minimum(raised, 1.0)
    return result


def family_test(
    values: Matrix | Sequence[Sequence[float]],
    *,
    family: str = "baseline",
    method: str = "max-t",
    n_permutations: int = 10_000,
    seed: Seed = 0,
    p_values: Sequence[float] | None = None,
    baselines: int = 1,
) -> FamilyTest:
    """Family-wise adjusted p-values of paired comparisons among runs on the same queries.

    ``values`` is a (queries x runs) matrix, run 0 the baseline (see `pair_runs`). The family
    is each candidate against the baseline (``family="baseline"``; against each of the first
    ``baselines`` runs, one family, when there are several) or every pair of runs
    (``"all-pairs"``, the Tukey setting). ``method``:

    - ``"max-t"`` (default): randomized step-down maximum of |t| (Westfall & Young). Each
      random pattern flips the signs of all pairs' differences on a query together; the
      adjusted p of the k-th most significant pair is the share of patterns whose largest
      |t| among the pairs not yet rejected reaches its |t|, made monotone. The observed
      pattern counts, so p >= 1 / (n_permutations + 1); when ``2^n`` patterns are no more
      than ``n_permutations`` they are all enumerated and the p-values are exact.
    - ``"holm"``: Holm's step-down on each pair's own p-value, `compare`'s default test (the
      skew-guarded p: the larger of the `permutation_test` p and
      `ranklens.stats.skew_guard.guard_p_value`); ``p_values`` in ``pairs`` order when the
      caller has them, else computed with ``seed``.

    With ``p_values`` given, no max-t adjusted p comes out below its pair's own p (from other
    random draws, an adjusted p could otherwise land a hair under it); raising a p-value
    keeps the error rate held.

    A family of one pair is no family: its adjusted p is its own (skew-guarded) p. Each
    pair's per-query differences within float noise are 0 first
    (`ranklens.stats.tolerance.snap`), as `compare` makes them.

    It controls the chance of any false finding when no run differs from the others in mean
    (and, step-down, when only some do); it does not say how large the differences are
    (that is each pair's interval), nor anything about metrics or segments not in ``values``.
    """
    if method not in FAMILY_METHODS:
        raise ValueError(f"method must be one of {FAMILY_METHODS}, got {method!r}")
    if n_permutations < 1:
        raise ValueError(f"n_permutations must be >= 1, got {n_permutations}")
    matrix = _validated(values)
    pairs = comparison_pairs(matrix.shape[1], family, baselines=baselines)
    n = matrix.shape[0]
    # float noise is no difference, exactly as `compare` decides it for the same two runs
    pair_sums, means = _pair_sums(matrix, pairs)
    deltas = tuple(float(d) for d in means)
    exact = n < 63 and 2**n <= n_permutations
    used = 2**n if exact else n_permutations
    if p_values is not None and len(p_values) != len(pairs):
        raise ValueError(f"{len(p_values)} p-values for {len(pairs)} pairs")
    if len(pairs) == 1 or method == "holm":
        own = (list(p_values) if p_values is not None else
               [_own_p(_snapped(matrix, i, j), n_permutations, seed) for i, j in pairs])
        adjusted = tuple(own) if len(pairs) == 1 else holm(own)
    else:
        result, used, exact = _max_t(pair_sums, n, n_permutations, seed)
        if p_values is not None:
            result = _at_least(result, np.asarray(p_values, dtype=np.float64))
        adjusted = tuple(float(p) for p in result)
    return FamilyTest(pairs=pairs, deltas=deltas, adjusted=tuple(float(p) for p in adjusted),
                      method=method, family=family, n_queries=n, n_permutations=used,
                      exact=exact, seed=seed)


def _own_p(deltas: npt.NDArray[np.float64], n_permutations: int, seed: Seed) -> float:
    """A pair's own p-value, `compare`'s default test to the bit: the larger of the sign-flip
    p (`permutation_test`, these ``n_permutations`` and ``seed``) and the skew guard's
    (`ranklens.stats.skew_guard.guard_p_value`)."""
    return max(permutation_test(deltas, n_permutations=n_permutations, seed=seed),
               guard_p_value(deltas))


def _snapped(matrix: Matrix, i: int, j: int) -> npt.NDArray[np.float64]:
    """Run j's per-query differences from run i, float noise set to 0 as `compare` does."""
    return snap(matrix[:, j] - matrix[:, i],
                no_difference_tolerance(matrix[:, i], matrix[:, j]))[0]


def family_size(n_runs: int, family: str) -> int:
    """How many comparisons a family of ``n_runs`` runs holds."""
    k = n_runs - 1
    return k if family == "baseline" else math.comb(n_runs, 2)

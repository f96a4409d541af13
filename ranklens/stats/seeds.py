"""Systems trained with several seeds: is B better than A, or was it a lucky seed?

Every paired interval of `compare` treats one run as the system: it answers "are these two
trained models different on this population of queries". A neural ranker trained again with
another seed gives another run, and the spread between such runs can be as large as the
difference claimed (Bouthillier et al., "Accounting for variance in machine learning
benchmarks", MLSys 2021). `compare_seeds` gives both answers, named for what they answer:

- ``these_runs``: the per-query mean over each system's seeds, compared by `compare` (every
  statistic of a comparison; it says nothing about a retrained model);
- ``new_run``: the difference of expected metric over seeds and queries, with an interval
  that counts the query and the seed variation (`ranklens.stats.random_effects`), and its
  p-value for "no difference".

Beside them: the variance components (query, seed, query x seed) and each seed of B compared
with A's mean, so a reader sees whether one seed carries the result.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

import numpy as np

from ranklens.data import MetricResult, QueryId
from ranklens.stats.chunking import seed_sequence
from ranklens.stats.compare import compare_with_notes
from ranklens.stats.errors import InsufficientSampleError
from ranklens.stats.interval import DEFAULT_INTERVAL, IntervalMethod
from ranklens.stats.multiple import adjusted_p_values
from ranklens.stats.notes import Note, emitted
from ranklens.stats.options import PairedOptions
from ranklens.stats.pairing import MIN_QUERIES, check_finite, examples
from ranklens.stats.random_effects import (
    NewRunEstimate,
    VarianceComponents,
    new_run_estimate,
    variance_components,
)
from ranklens.stats.results import ComparisonResult, Seed

_PER_SEED_STREAM = 31  # purpose tag of the per-seed comparisons' random streams


@dataclass(frozen=True)
class DroppedQuery:
    """A query left out because some runs did not score it; ``missing_from`` names them."""

    query: QueryId
    missing_from: tuple[str, ...]

    @property
    def reason(self) -> str:
        return f"not scored by {', '.join(self.missing_from)}"


@dataclass(frozen=True)
class SeedComparison:
    """Both answers for systems given as several runs (module docstring).

    ``new_run`` is None when neither system has two runs: the seed variance cannot be
    measured and only ``these_runs`` answers (``notes`` says so). ``per_seed`` holds each run
    of B against the per-query mean of A's runs, in the order given. ``dropped`` lists the
    queries some run did not score, left out of everything; ``notes`` are sentences a report
    shows as they are.
    """

    metric: str
    these_runs: ComparisonResult
    new_run: NewRunEstimate | None
    components: VarianceComponents
    per_seed: tuple[ComparisonResult, ...]
    n_seeds_a: int
    n_seeds_b: int
    dropped: tuple[DroppedQuery, ...] = ()
    notes: tuple[str, ...] = ()

    @property
    def answers_disagree(self) -> bool:
        """These runs differ significantly but a new run may not (or the reverse)."""
        return self.new_run is not None and (
            self.these_runs.significant != self.new_run.significant)


def compare_seeds(
    results_a: Sequence[MetricResult],
    results_b: Sequence[MetricResult],
    *,
    alpha: float = 0.05,
    n_resamples: int = 10_000,
    n_permutations: int = 10_000,
    seed: Seed = 0,
    interval: str = DEFAULT_INTERVAL,
    min_queries: int = MIN_QUERIES,
) -> SeedComparison:
    """Is B's recipe better than A's, for these trained runs and for a new training run?

    ``results_a``/``results_b`` hold one `MetricResult` per seed (run) of each system, all of
    one metric. Every run must be scored on the same queries: a query missing from any run is
    left out of every number, with a `UserWarning` and the list in ``dropped`` (with which
    runs lacked it).

    ``these_runs`` is `compare` of the per-query means over each system's runs, with the given
    options and ``seed`` (so it equals `compare` on those means). ``new_run`` is the
    random-effects difference of `ranklens.stats.random_effects` (generalized pivots,
    `ranklens.stats.seed_interval`; why not a two-level bootstrap is said there). A system
    with one run is
    taken as deterministic (no seed variance); when neither has two runs, ``new_run`` is None.
    ``per_seed`` compares each run of B with A's per-query mean, each on its own random stream
    of ``seed``. What it warns (the dropped queries, a small sample), `compare_seeds_with_notes`
    returns as notes.
    """
    options = PairedOptions(alpha=alpha, n_resamples=n_resamples, n_permutations=n_permutations,
                            seed=seed, interval=cast(IntervalMethod, interval),  # checked
                            min_queries=min_queries)
    return emitted(compare_seeds_with_notes(results_a, results_b, options))


def compare_seeds_with_notes(
    results_a: Sequence[MetricResult],
    results_b: Sequence[MetricResult],
    options: PairedOptions | None = None,
) -> tuple[SeedComparison, tuple[Note, ...]]:
    """`compare_seeds` with ``options`` (default `PairedOptions()`; its ``missing`` is taken
    as "drop", as `compare_seeds` has it: every number is on the queries all runs scored), and
    what it would warn returned as notes: the queries some run did not score, then what the
    comparison of ``these_runs`` says. The per-seed comparisons' notes are the same sample's
    and are not repeated.
    """
    options = dataclasses.replace(options or PairedOptions(), missing="drop")
    if not results_a or not results_b:
        raise ValueError(
            f"each system needs at least one run, got {len(results_a)} for A and "
            f"{len(results_b)} for B"
        )
    metrics = {result.metric for result in (*results_a, *results_b)}
    if len(metrics) > 1:
        raise ValueError(f"all runs must be of one metric, got {sorted(metrics)}")
    metric = metrics.pop()
    labels_a = _labels(results_a, "A")
    labels_b = _labels(results_b, "B")
    queries, dropped = _common_queries([*results_a, *results_b], [*labels_a, *labels_b])
    if len(queries) < 2:
        raise InsufficientSampleError(len(queries), 2, unit="queries scored by every run")
    matrix_a = _matrix(results_a, queries)
    matrix_b = _matrix(results_b, queries)
    means = [MetricResult.from_arrays(metric, queries, m.mean(axis=1), run=f"mean of {side}")
             for m, side in ((matrix_a, "A"), (matrix_b, "B"))]
    these_runs, compared = compare_with_notes(means[0], means[1], options)
    root = seed_sequence(options.seed)
    per_seed = tuple(
        compare_with_notes(
            means[0], MetricResult.from_arrays(metric, queries, matrix_b[:, k]),
            options.seeded(np.random.SeedSequence(root.entropy, spawn_key=(
                *root.spawn_key, _PER_SEED_STREAM, k), pool_size=root.pool_size)))[0]
        for k in range(matrix_b.shape[1])
    )
    notes = _notes(len(results_a), len(results_b), dropped)
    single = len(results_a) == 1 and len(results_b) == 1
    return SeedComparison(
        metric=metric, these_runs=these_runs,
        new_run=None if single else new_run_estimate(matrix_a, matrix_b, alpha=options.alpha,
                                                     seed=options.seed),
        components=variance_components(matrix_a, matrix_b), per_seed=per_seed,
        n_seeds_a=len(results_a), n_seeds_b=len(results_b), dropped=dropped, notes=notes,
    ), (*_dropped_notes(dropped), *compared)


def new_run_family(
    comparisons: Sequence[SeedComparison], *, method: str = "holm"
) -> tuple[float | None, ...]:
    """Family-wise adjusted p-values of the new-run answers of several candidates.

    For candidates with seeds against one baseline with seeds (a leaderboard): Holm by
    default, valid under any dependence (they share the baseline's runs); "bh" and "by" as
    `ranklens.stats.adjusted_p_values` name them. None where a comparison has no new-run
    answer (one run per system), left out of the family.
    """
    positions = [i for i, c in enumerate(comparisons) if c.new_run is not None]
    adjusted = adjusted_p_values(
        [comparisons[i].new_run.p_value for i in positions], method)  # type: ignore[union-attr]
    out: list[float | None] = [None] * len(comparisons)
    for i, value in zip(positions, adjusted, strict=True):
        out[i] = value
    return tuple(out)


def _labels(results: Sequence[MetricResult], side: str) -> list[str]:
    return [result.run or f"{side} seed {k + 1}" for k, result in enumerate(results)]


def _common_queries(
    results: Sequence[MetricResult], labels: Sequence[str]
) -> tuple[tuple[QueryId, ...], tuple[DroppedQuery, ...]]:
    """Queries every run scored, sorted; the others with the runs that lack them."""
    for result, label in zip(results, labels, strict=True):
        check_finite(result.per_query, label)
    sets = [set(result.query_ids.tolist()) for result in results]
    common = set.intersection(*sets)
    dropped = tuple(
        DroppedQuery(query, tuple(label for label, s in zip(labels, sets, strict=True)
                                  if query not in s))
        for query in sorted(set.union(*sets) - common)
    )
    return tuple(sorted(common)), dropped


def _dropped_notes(dropped: tuple[DroppedQuery, ...]) -> tuple[Note, ...]:
    """What `compare_seeds` warns about the queries some run did not score."""
    if not dropped:
        return ()
    return (Note(f"dropped {len(dropped)} queries not scored by every run "
                 f"({examples([d.query for d in dropped])}; e.g. {dropped[0].reason}): every "
                 "seed of a system must be scored on the same queries", UserWarning),)


def _matrix(results: Sequence[MetricResult], queries: tuple[QueryId, ...]) -> np.ndarray:
    """(queries x runs) values, rows in ``queries`` order (each result's ids are sorted)."""
    wanted = np.array(queries, dtype=object)
    columns = []
    for result in results:
        positions = np.searchsorted(result.query_ids, wanted)
        columns.append(result.values[positions])
    return np.column_stack(columns)


def _notes(n_a: int, n_b: int, dropped: tuple[DroppedQuery, ...]) -> tuple[str, ...]:
    notes = []
    if n_a == 1 and n_b == 1:
        notes.append(
            "one run per system: the seed variance cannot be measured, so only the answer for "
            "these trained runs is given; train each system with two or more seeds (three or "
            "more recommended) to ask whether a new training run of B beats A"
        )
    else:
        for side, count in (("A", n_a), ("B", n_b)):
            if count == 1:
                notes.append(
                    f"{side} has one run: it is taken as deterministic (no seed variance); if "
                    f"{side} is trained with seeds too, the new-run interval is too narrow"
                )
    if dropped:
        notes.append(
            f"{len(dropped)} queries were left out because some runs did not score them "
            f"({examples([d.query for d in dropped])})"
        )
    return tuple(notes)

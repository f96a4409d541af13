"""Several candidates against one baseline: each candidate's comparison, and the family's.

``compare_runs`` answers "how does each candidate do against the baseline, overall and per
segment, and which differences survive the number of candidates?". Queries are paired across
all runs (``ranklens.stats.pair_runs``), so every candidate is measured on the same queries;
then each candidate gets exactly the two-run comparison (``compare_metrics``: interval,
permutation p, t-test, W/T/L, segments with q-values) and, per metric, the family's adjusted
p-values (``ranklens.stats.family_test``): each candidate against the baseline, or every pair
of runs. A candidate's overall row carries its family-adjusted p as ``q_value``, so
``significant`` and every sentence about it decide by the family.

q-values of segments are adjusted per candidate across its segments (``q_family="segments"``,
as for two runs) or across the segments of all candidates (``"candidates-segments"``).

Run ``i`` has the input role ``run_role(i)`` (run_a is the baseline, run_b, run_c, ... the
candidates) and the per-query key ``run_key(i)`` ("a", "b", "c", ...).
"""

from __future__ import annotations

import string
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal, get_args

import numpy as np

from ranklens.compare.segments import (
    MetricComparison,
    SegmentOptions,
    compare_metrics,
    segment_seed,
)
from ranklens.data import MetricResult
from ranklens.stats import (
    FAMILIES,
    FAMILY_METHODS,
    ComparisonResult,
    Family,
    FamilyMethod,
    InsufficientSampleError,
    adjust,
    comparison_pairs,
    family_test,
)
from ranklens.stats.compare import compare_with_notes
from ranklens.stats.family import pair_runs_quietly

MAX_RUNS = len(string.ascii_lowercase)
"""A baseline and up to 25 candidates: run roles are run_a ... run_z."""

QFamily = Literal["segments", "candidates-segments"]
"""Which segment rows share q-values: each candidate's own, or those of every candidate."""

Q_FAMILIES: tuple[QFamily, ...] = get_args(QFamily)
FAMILY_WORDS = {"baseline": "each candidate against the baseline",
                "all-pairs": "every pair of runs"}
METHOD_WORDS = {"max-t": "step-down max-t over sign flips of whole queries",
                "holm": "Holm on each pair's own p"}


def run_key(index: int) -> str:
    """The per-query key of run ``index``: "a" for the baseline, "b", "c", ... after it."""
    if not 0 <= index < MAX_RUNS:
        raise ValueError(f"at most {MAX_RUNS} runs (a baseline and {MAX_RUNS - 1} candidates), "
                         f"got run number {index + 1}")
    return string.ascii_lowercase[index]


def run_role(index: int) -> str:
    """The input role of run ``index``: run_a (baseline), run_b, run_c, ..."""
    return f"run_{run_key(index)}"


@dataclass(frozen=True)
class FamilyOptions:
    """How several candidates are compared with a baseline: each candidate's two-run
    ``segments`` options, which comparisons form the ``family``, how their p are adjusted
    (``method``) and which segment rows share q-values (``q_family``).

    Raises ``ValueError`` for a choice not among `FAMILIES`, `FAMILY_METHODS`, `Q_FAMILIES`.
    """

    segments: SegmentOptions = field(default_factory=SegmentOptions)
    family: Family = "baseline"
    method: FamilyMethod = "max-t"
    q_family: QFamily = "segments"

    def __post_init__(self) -> None:
        for name, value, choices in (("family", self.family, FAMILIES),
                                     ("family_method", self.method, FAMILY_METHODS),
                                     ("q_family", self.q_family, Q_FAMILIES)):
            if value not in choices:
                raise ValueError(f"{name} must be one of {choices}, got {value!r}")


@dataclass(frozen=True)
class PairRow:
    """One comparison of the family: run ``b`` against run ``a`` (indices into the run names),
    its full two-run result on the paired queries and its family-wise adjusted p."""

    a: int
    b: int
    result: ComparisonResult
    adjusted_p: float


@dataclass(frozen=True)
class FamilyComparison:
    """The family of one metric: which comparisons were adjusted together, how, on what.

    ``family`` is "baseline" (each candidate against run 0) or "all-pairs"; ``method``
    "max-t" or "holm". ``missing[i]`` counts the queries run ``i`` lacks among those any run
    has: left out of every comparison (``policy`` "drop") or scored 0 ("zero").
    ``n_permutations`` sign patterns were used (all of them when ``exact``).
    """

    metric: str
    family: str
    method: str
    pairs: tuple[PairRow, ...]
    n_queries: int
    missing: tuple[int, ...]
    policy: str
    n_permutations: int
    exact: bool

    def pair(self, a: int, b: int) -> PairRow:
        for row in self.pairs:
            if (row.a, row.b) == (a, b):
                return row
        raise KeyError(f"no comparison of run {b} against run {a} in this family")

    def describe(self, n_runs: int) -> str:
        """The family in words: "5 comparisons, each candidate against the baseline"."""
        size = len(self.pairs)
        how = METHOD_WORDS.get(self.method, self.method)
        count = (f"{self.n_permutations:,} sign patterns, all of them" if self.exact else
                 f"{self.n_permutations:,} random sign patterns")
        what = FAMILY_WORDS.get(self.family, self.family)
        runs = f"{n_runs} runs"
        return (f"{size} comparison{'s' if size != 1 else ''} ({what}, {runs}); {how}"
                + (f", {count}" if self.method == "max-t" else ""))


def family_phrase(family: str, n_runs: int) -> str:
    """What an adjusted p is adjusted for, in a few words: "for 5 candidates"."""
    if family == "all-pairs":
        return f"for all {n_runs * (n_runs - 1) // 2} pairs of {n_runs} runs"
    return f"for {n_runs - 1} candidates"


def _aligned(results: Sequence[Mapping[str, MetricResult]], names: Sequence[str],
             metric: str, missing: str, min_queries: int
             ) -> tuple[list[MetricResult], tuple[int, ...], list[str]]:
    aligned = pair_runs_quietly([r[metric] for r in results], names=names, missing=missing,
                                min_queries=min_queries)
    if not aligned.queries:
        raise InsufficientSampleError(0, 1)
    ids = aligned.query_ids if aligned.query_ids is not None else aligned.queries
    per_run = [MetricResult.from_arrays(metric, ids, aligned.values[:, i], run=names[i])
               for i in range(len(results))]
    return per_run, aligned.missing, [f"{metric}: {note.text}" for note in aligned.notes]


def compare_runs(
    results: Sequence[Mapping[str, MetricResult]],
    names: Sequence[str],
    segments: Mapping[str, str] | None = None,
    options: FamilyOptions | None = None,
) -> tuple[tuple[MetricComparison, ...], tuple[FamilyComparison, ...],
           dict[str, list[MetricResult]], tuple[str, ...]]:
    """Each candidate (``results[1:]``) against the baseline (``results[0]``), and the family.

    ``results[i]`` maps a metric to run ``i``'s per-query values; every run has every metric.
    Answers the comparisons (candidate by candidate, metric by metric, ``candidate`` set),
    one `FamilyComparison` per metric, the aligned per-query values per metric (what was
    compared) and the warnings in words.

    Each candidate's numbers are those of ``compare_metrics`` on the aligned values with the
    same ``seed``: a candidate compared alone with the baseline on the same queries gets the
    same interval and p. Its overall ``q_value`` is then replaced by the family-adjusted p.
    Pairs of candidates (``family="all-pairs"``) get an overall comparison on a stream of
    their own (the seed and the two run keys).
    """
    options = options or FamilyOptions()
    statistics = options.segments.statistics
    if len(results) < 3:
        raise ValueError("compare_runs is for a baseline and two or more candidates; "
                         "compare_metrics compares two runs")
    if len(results) > MAX_RUNS:
        run_key(len(results) - 1)  # raises, in words
    if len(set(names)) != len(names):
        raise ValueError(f"every run needs its own name; got {list(names)}")
    metrics = list(results[0])
    messages: list[str] = []
    aligned: dict[str, list[MetricResult]] = {}
    missing_counts: dict[str, tuple[int, ...]] = {}
    for metric in metrics:
        aligned[metric], missing_counts[metric], caught = _aligned(
            results, names, metric, statistics.missing, statistics.min_queries)
        messages += caught
    by_candidate: dict[int, tuple[MetricComparison, ...]] = {}
    for j in range(1, len(results)):
        found = compare_metrics({m: aligned[m][0] for m in metrics},
                                {m: aligned[m][j] for m in metrics}, segments,
                                options.segments)
        if segments is None and len(metrics) > 1:
            # the family adjusts each overall row; metrics are not adjusted among themselves
            found = tuple(replace(c, overall=replace(c.overall, q_value=None)) for c in found)
        by_candidate[j] = tuple(replace(c, candidate=j) for c in found)
        messages += [w for c in found for w in c.warnings if w not in messages]
    if segments is not None and options.q_family == "candidates-segments":
        by_candidate = _adjust_across_candidates(by_candidate, metrics,
                                                 options.segments.adjust_method)

    families = []
    n_runs = len(results)
    for position, metric in enumerate(metrics):
        own = {j: by_candidate[j][position].overall for j in by_candidate}
        family_row = _family(metric, aligned[metric], own, options,
                             missing=missing_counts[metric])
        families.append(family_row)
        phrase = family_phrase(options.family, n_runs)
        for j in by_candidate:
            adjusted = family_row.pair(0, j).adjusted_p
            comparisons = list(by_candidate[j])
            comparisons[position] = replace(
                comparisons[position],
                overall=replace(comparisons[position].overall, q_value=adjusted),
                overall_family=phrase)
            by_candidate[j] = tuple(comparisons)
    ordered = tuple(c for j in sorted(by_candidate) for c in by_candidate[j])
    return ordered, tuple(families), aligned, tuple(dict.fromkeys(messages))


def _adjust_across_candidates(by_candidate: dict[int, tuple[MetricComparison, ...]],
                              metrics: list[str], method: str
                              ) -> dict[int, tuple[MetricComparison, ...]]:
    """q-values of every candidate's segments of a metric adjusted as one family."""
    updated = {j: list(found) for j, found in by_candidate.items()}
    for position in range(len(metrics)):
        places = [(j, k) for j in sorted(updated)
                  for k, row in enumerate(updated[j][position].segments)
                  if row.result is not None]
        results = [updated[j][position].segments[k].result for j, k in places]
        adjusted = adjust([r for r in results if r is not None], method=method)
        rows = {j: list(updated[j][position].segments) for j in updated}
        for (j, k), result in zip(places, adjusted, strict=True):
            rows[j][k] = replace(rows[j][k], result=result, fcr=None)  # not this family's
        for j in updated:
            updated[j][position] = replace(updated[j][position], segments=tuple(rows[j]),
                                           family="candidates-segments", fcr=None)
    return {j: tuple(found) for j, found in updated.items()}


def _family(metric: str, aligned: list[MetricResult], own: dict[int, ComparisonResult],
            options: FamilyOptions, *, missing: tuple[int, ...]) -> FamilyComparison:
    # the aligned results share their queries, and hold their values sorted by query id
    matrix = np.column_stack([run.values for run in aligned])
    statistics = options.segments.statistics
    results: dict[tuple[int, int], ComparisonResult] = {(0, j): r for j, r in own.items()}
    if options.family == "all-pairs":
        for i in range(1, len(aligned)):
            for j in range(i + 1, len(aligned)):
                stream = segment_seed(statistics.seed, f"pair {run_key(i)} {run_key(j)}")
                # the notes are left out: the candidates' rows carry them
                results[(i, j)], _ = compare_with_notes(aligned[i], aligned[j],
                                                        statistics.seeded(stream))
    pairs = comparison_pairs(len(aligned), options.family)
    test = family_test(matrix, family=options.family, method=options.method,
                       n_permutations=statistics.n_permutations, seed=statistics.seed,
                       p_values=[results[p].p_value for p in pairs])
    rows = tuple(PairRow(i, j, results[(i, j)], p)
                 for (i, j), p in zip(test.pairs, test.adjusted, strict=True))
    return FamilyComparison(metric, options.family, options.method, rows, test.n_queries,
                            missing, statistics.missing, test.n_permutations, test.exact)

"""Pairing per-query values of runs: which queries enter a paired comparison, and how.

`align` is the one pairing of ranklens, on sorted query-id arrays: two runs (`pair`), many
runs (`ranklens.stats.family.pair_runs`) and gold against proxy (`ranklens.stats.ppi`) use it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, get_args

import numpy as np
import numpy.typing as npt

from ranklens.data import MetricResult, QueryId
from ranklens.stats.errors import InsufficientSampleError, SmallSampleWarning
from ranklens.stats.notes import Note, emit

Deltas = npt.NDArray[np.float64]

MIN_QUERIES = 20
"""Below this the interval is so wide that it says little; a warning, not an error."""

MissingPolicy = Literal["drop", "zero", "error"]
"""A query measured in one run only: left out, scored 0 (trec_eval -c) or refused."""

MISSING_POLICIES: tuple[MissingPolicy, ...] = get_args(MissingPolicy)
_EXAMPLES = 3



IdArray = npt.NDArray[np.object_]
Side = Mapping[QueryId, float] | MetricResult
"""What a pairing takes for one run: a `MetricResult` (its sorted arrays are used as they are)
or a plain mapping ``{query_id: value}``."""


def examples(queries: Sequence[QueryId] | IdArray) -> str:
    """The first few query ids as a warning shows them: ``'q1', 'q2', 'q3', ...``."""
    shown = ", ".join(repr(query) for query in list(queries[:_EXAMPLES]))
    return f"{shown}, ..." if len(queries) > _EXAMPLES else shown


def as_arrays(side: Side) -> tuple[IdArray, Deltas]:
    """Sorted unique query ids and their values, aligned (a `MetricResult` as it stores them)."""
    if isinstance(side, MetricResult):
        return side.query_ids, side.values
    ids = sorted(side)
    values = np.fromiter((side[q] for q in ids), np.float64, len(ids))
    return np.array(ids, dtype=object), values


@dataclass(frozen=True)
class Alignment:
    """Several runs' values lined up on one sorted set of query ids.

    ``queries`` are the ids compared (every run's, or those all runs have); ``values[i]`` is
    run ``i``'s values on them (0 where run ``i`` lacks the query); ``rows[i]`` the position of
    each query in run ``i``'s arrays (-1 where it lacks it); ``lacking[i]`` the ids, among all
    runs' ids, that run ``i`` does not have (sorted); ``n_union`` how many ids all runs have
    together.
    """

    queries: IdArray
    values: tuple[Deltas, ...]
    rows: tuple[npt.NDArray[np.intp], ...]
    lacking: tuple[IdArray, ...]
    n_union: int


def align(ids: Sequence[IdArray], values: Sequence[Deltas], *, union: bool) -> Alignment:
    """Line up runs given as sorted unique id arrays with their values (no policy, no words).

    ``union`` keeps every query any run has; otherwise only those every run has. Runs with the
    same ids (the usual case) cost one vectorised comparison and no copy; otherwise one stable
    sort of all ids (a merge of the sorted arrays) says, for each run, where each query sits,
    with no Python loop per query.
    """
    first = ids[0]
    if all(other is first or (other.size == first.size and bool((other == first).all()))
           for other in ids[1:]):
        everywhere = np.arange(first.size, dtype=np.intp)
        return Alignment(first, tuple(values), tuple(everywhere for _ in ids),
                         tuple(first[:0] for _ in ids), int(first.size))
    union_ids, inverse = _union(np.concatenate(ids))
    rows = np.full((len(ids), union_ids.size), -1, dtype=np.intp)
    start = 0
    for run, run_ids in enumerate(ids):
        rows[run, inverse[start:start + run_ids.size]] = np.arange(run_ids.size)
        start += run_ids.size
    present = rows >= 0
    kept = np.ones(union_ids.size, dtype=bool) if union else present.all(axis=0)
    kept_rows = tuple(rows[run, kept] for run in range(len(ids)))
    aligned = []
    for run_rows, run_values in zip(kept_rows, values, strict=True):
        column = np.zeros(run_rows.size, dtype=np.float64)
        hit = run_rows >= 0
        column[hit] = run_values[run_rows[hit]]
        aligned.append(column)
    return Alignment(union_ids[kept], tuple(aligned), kept_rows,
                     tuple(union_ids[~present[run]] for run in range(len(ids))),
                     int(union_ids.size))


def _union(ids: IdArray) -> tuple[IdArray, npt.NDArray[np.intp]]:
    """The distinct ids, sorted, and for each input id its position among them.

    ``numpy.unique`` would quicksort the object array, which on a concatenation of sorted
    arrays takes tens of seconds for a million ids; the stable sort (timsort for objects)
    merges the sorted runs in linear time.
    """
    order = np.argsort(ids, kind="stable")
    ordered = ids[order]
    starts = np.ones(ordered.size, dtype=bool)
    starts[1:] = ordered[1:] != ordered[:-1]
    inverse = np.empty(ordered.size, dtype=np.intp)
    inverse[order] = np.cumsum(starts) - 1
    return ordered[starts], inverse


def check_finite_values(ids: IdArray, values: Deltas, side: str) -> None:
    """Raise ValueError naming the queries whose value is NaN or infinite (see `check_finite`)."""
    bad = ~np.isfinite(values)
    if bad.any():
        bad_ids, bad_values = ids[bad], values[bad]
        shown = ", ".join(f"{query!r}={value}" for query, value in
                          zip(bad_ids[:5].tolist(), bad_values[:5].tolist(), strict=True))
        more = f" and {bad_ids.size - 5} more" if bad_ids.size > 5 else ""
        raise ValueError(
            f"{side} has NaN or infinite values on {bad_ids.size} queries: {shown}{more}; "
            "per-query metric values must be finite numbers"
        )


def check_finite(per_query: Side, side: str) -> None:
    """Raise ValueError naming the queries whose value is NaN or infinite.

    A NaN difference would otherwise make every sign flip compare False against it and
    report a "highly significant" p-value next to a NaN interval.
    """
    check_finite_values(*as_arrays(per_query), side)


def check_missing(missing: str) -> None:
    """Raise ValueError unless ``missing`` is one of `MISSING_POLICIES`."""
    if missing not in MISSING_POLICIES:
        raise ValueError(f"missing must be one of {MISSING_POLICIES}, got {missing!r}")


@dataclass(frozen=True)
class Paired:
    """Values of both runs on the queries that enter the comparison, in ``queries`` order.

    ``only_a``/``only_b`` are the (sorted) ids measured in one run only; ``notes`` what the
    pairing has to say (dropped queries, too few of them), returned rather than warned.
    """

    queries: IdArray
    a: npt.NDArray[np.float64]
    b: npt.NDArray[np.float64]
    only_a: IdArray
    only_b: IdArray
    notes: tuple[Note, ...] = ()

    @property
    def deltas(self) -> Deltas:
        return self.b - self.a


def pair_quietly(
    side_a: Side,
    side_b: Side,
    *,
    missing: str = "drop",
    min_queries: int = MIN_QUERIES,
) -> Paired:
    """`pair` without warnings: what it would warn is in ``notes``, and ``queries`` may be
    empty (`pair` raises `InsufficientSampleError` then; the caller of this one decides)."""
    check_missing(missing)
    ids_a, values_a = as_arrays(side_a)
    ids_b, values_b = as_arrays(side_b)
    check_finite_values(ids_a, values_a, "run A")
    check_finite_values(ids_b, values_b, "run B")
    aligned = align((ids_a, ids_b), (values_a, values_b), union=missing == "zero")
    only_a, only_b = aligned.lacking[1], aligned.lacking[0]
    notes: list[Note] = []
    if (only_a.size or only_b.size) and missing == "error":
        raise ValueError(
            f"{only_a.size} queries only in run A ({examples(only_a) or 'none'}) and "
            f"{only_b.size} only in run B ({examples(only_b) or 'none'}); "
            "a paired comparison needs every query in both runs "
            "(missing='drop' compares the common ones, missing='zero' scores 0 where missing)"
        )
    if (only_a.size or only_b.size) and missing == "drop":
        notes.append(Note(
            f"dropped {only_a.size} queries only in run A ({examples(only_a) or 'none'}) and "
            f"{only_b.size} only in run B ({examples(only_b) or 'none'}): a paired test needs "
            "pairs; missing='zero' scores a missing query 0 (trec_eval -c), "
            "missing='error' refuses"))
    n = int(aligned.queries.size)
    if 0 < n < min_queries:
        notes.append(Note(
            f"comparison on {n} paired queries: the interval will be wide and the "
            f"p-value unstable; {min_queries} or more are recommended (see the MDE calculator)",
            SmallSampleWarning))
    return Paired(aligned.queries, aligned.values[0], aligned.values[1], only_a, only_b,
                  tuple(notes))


def pair(
    per_query_a: Side,
    per_query_b: Side,
    *,
    missing: str = "drop",
    min_queries: int = MIN_QUERIES,
    stacklevel: int = 2,
) -> Paired:
    """Values of A and B on the compared queries; warnings and errors as in `paired_deltas`.

    Takes `MetricResult`s (paired on their sorted arrays, no Python object per query) or
    mappings.
    """
    paired = pair_quietly(per_query_a, per_query_b, missing=missing, min_queries=min_queries)
    emit(paired.notes, stacklevel + 1)
    if not paired.queries.size:
        raise InsufficientSampleError(0, 2)
    return paired


def paired_deltas(
    per_query_a: Mapping[QueryId, float],
    per_query_b: Mapping[QueryId, float],
    *,
    min_queries: int = MIN_QUERIES,
    missing: str = "drop",
) -> tuple[tuple[QueryId, ...], Deltas]:
    """Queries measured in both runs, sorted, and their per-query differences ``b - a``.

    A paired test needs pairs, so a query present in only one run is handled as ``missing``
    says: ``"drop"`` (default) leaves it out and warns with the counts and a few ids of each
    side; ``"zero"`` scores it 0 in the run that lacks it (trec_eval -c); ``"error"`` raises
    ValueError. NaN or infinite values raise ValueError naming the queries. With no query to
    compare at all there is nothing to compare — that is `InsufficientSampleError`. With
    fewer than ``min_queries`` the numbers are computable but unreliable, so they are
    produced with a `SmallSampleWarning`.
    """
    paired = pair(per_query_a, per_query_b, missing=missing, min_queries=min_queries)
    return tuple(paired.queries.tolist()), paired.deltas


def as_deltas(deltas: object) -> Deltas:
    """Validated one-dimensional, finite, non-empty float64 array of differences."""
    values = np.asarray(deltas, dtype=np.float64)
    if values.ndim != 1:
        raise ValueError(f"deltas must be one-dimensional, got shape {values.shape}")
    if values.size == 0:
        raise ValueError("deltas must not be empty")
    finite = np.isfinite(values)
    if not finite.all():
        positions = np.flatnonzero(~finite)
        raise ValueError(
            f"deltas must be finite: {positions.size} NaN or infinite values, at positions "
            f"{positions[:5].tolist()}"
        )
    return values


def sample_sd(values: Deltas) -> float:
    """Sample standard deviation (ddof 1); exactly 0 when every value is the same.

    numpy's two-pass formula leaves a residue of a few ulps for identical values whose
    mean does not round back to them; a test statistic divided by it would be huge, not
    the "no spread" case it is.
    """
    if values.size < 2 or bool(np.all(values == values[0])):
        return 0.0
    return float(values.std(ddof=1))

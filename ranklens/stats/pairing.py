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
    same ids (the usual case) cost one vectorised comparison and no copy; the common queries of
    two runs that differ in some are found by guessing each id's place in the other run and
    checking it in order (`_partners`); otherwise one stable sort of all ids (a merge of the
    sorted arrays) says, for each run, where each query sits, with no Python loop per query.
    """
    first = ids[0]
    if all(other is first or _same(other, first) for other in ids[1:]):
        everywhere = np.arange(first.size, dtype=np.intp)
        return Alignment(first, tuple(values), tuple(everywhere for _ in ids),
                         tuple(first[:0] for _ in ids), int(first.size))
    if len(ids) == 2 and not union:
        partners = _partners(ids[0], ids[1])
        if partners is not None:
            found = partners >= 0
            paired = np.flatnonzero(found)
            rows_b = partners[paired]
            in_b = np.zeros(ids[1].size, dtype=bool)
            in_b[rows_b] = True
            return Alignment(ids[0][found], (values[0][paired], values[1][rows_b]),
                             (paired, rows_b), (ids[1][~in_b], ids[0][~found]),
                             int(ids[0].size + ids[1].size - paired.size))
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


def _same(ids: IdArray, other: IdArray) -> bool:
    """Whether two sorted id arrays are equal: every 1024th id first, then all of them."""
    return ids.size == other.size and bool((ids[::1024] == other[::1024]).all()) and bool(
        (ids == other).all())


_BLOCK = 32
"""Every how many ids of A the place in B is looked up, to guess the others' places."""


def _partners(ids_a: IdArray, ids_b: IdArray) -> npt.NDArray[np.intp] | None:
    """For each id of ``ids_a``, its position in ``ids_b`` (-1 where B lacks it); both sorted
    and unique. None when the two share too little for this to pay (`align` merges then).

    numpy compares Python strings one call at a time, tens of nanoseconds each in order and
    several hundred when they lie scattered in memory, so a binary search of every id
    (``searchsorted``: 20 scattered comparisons an id for a million) or a merge
    (``intersect1d``, a sort of both) costs more than the whole comparison's statistics.
    Runs of one collection pair most queries in long stretches where B's position is A's plus
    a constant, so the positions are guessed and checked in order: every ``_BLOCK ** 2``-th
    id of A is placed in B exactly, each other id is guessed at the offset of the look-up
    before it (stretches of one offset compared slice against slice), then of the one after
    it. Where many are left, the same again with a look-up every `_BLOCK` ids (placed from
    the first ones' offsets, `_insertion_near`). The few left at the end (the unpaired ids,
    and those between two gaps of one block) are placed exactly from the offset of their
    nearest paired neighbour. A position is given only where the ids are equal, and -1 only
    where the exact place of the id in B holds another, so the answer is the merge's.
    """
    n_a, n_b = ids_a.size, ids_b.size
    if n_a == 0 or n_b == 0:
        return np.full(n_a, -1, dtype=np.intp)
    positions = np.arange(n_a, dtype=np.intp)
    step = _BLOCK * _BLOCK
    starts = positions[::step]
    found = _insertion(ids_a[starts], ids_b, np.zeros(starts.size, dtype=np.intp),
                       np.full(starts.size, n_b, dtype=np.intp))
    offsets = np.repeat(found - starts, step)[:n_a]
    partners = _first_guess(ids_a, ids_b, starts, found - starts)
    left = _guess(ids_a, ids_b, np.flatnonzero(partners < 0), starts, found, step, partners)
    if left.size > n_a // 16:  # the offset changes often: look up every _BLOCK ids
        fine = positions[::_BLOCK]
        found = _insertion_near(ids_a[fine], ids_b, offsets[fine] + fine)
        if np.count_nonzero(np.diff(found - fine)) > fine.size // 2:
            return None  # it changes in most blocks: the merge of `align` is cheaper
        offsets = np.repeat(found - fine, _BLOCK)[:n_a]
        left = _guess(ids_a, ids_b, left, fine, found, _BLOCK, partners, offsets)
        if left.size > n_a // 4:  # mostly unpaired: the merge is cheaper
            return None
    if left.size:
        before = np.maximum.accumulate(np.where(partners >= 0, positions, -1))[left]
        guess = np.where(before >= 0, partners[np.maximum(before, 0)] - before,
                         offsets[left]) + left
        place = _insertion_near(ids_a[left], ids_b, guess)
        inside = place < n_b
        rows, place = left[inside], place[inside]
        hit = ids_b[place] == ids_a[rows]
        partners[rows[hit]] = place[hit]
    return partners


def _first_guess(ids_a: IdArray, ids_b: IdArray, starts: npt.NDArray[np.intp],
                 offsets: npt.NDArray[np.intp]) -> npt.NDArray[np.intp]:
    """Each id's partner at the offset of the look-up before it (-1 where the id there is
    another), ``offsets`` being B's position minus A's at the look-ups ``starts``. Each
    stretch of one offset is compared slice against slice: one vectorised comparison, in
    memory order, with no copy of the ids (a Python step per stretch, one per thousand ids at
    most)."""
    n_a, n_b = ids_a.size, ids_b.size
    changes = np.flatnonzero(np.diff(offsets)) + 1
    partners = np.full(n_a, -1, dtype=np.intp)
    first = np.concatenate(([0], changes))
    bounds = np.append(starts[first], n_a)
    for k, offset in enumerate(offsets[first].tolist()):
        low, high = max(int(bounds[k]), -offset), min(int(bounds[k + 1]), n_b - offset)
        if low < high:
            hit = np.flatnonzero(ids_a[low:high] == ids_b[low + offset:high + offset]) + low
            partners[hit] = hit + offset
    return partners


def _guess(ids_a: IdArray, ids_b: IdArray, rows: npt.NDArray[np.intp],
           starts: npt.NDArray[np.intp], found: npt.NDArray[np.intp], step: int,
           partners: npt.NDArray[np.intp], offsets: npt.NDArray[np.intp] | None = None
           ) -> npt.NDArray[np.intp]:
    """Check ``rows`` of A at the offset of the look-up before them (unless ``offsets`` is
    None: done already), then of the one after; set ``partners`` where the ids are equal and
    answer the rows still without one."""
    n_a, n_b = ids_a.size, ids_b.size
    block = rows // step
    if offsets is not None:
        rows = _hits(ids_a, ids_b, rows, offsets[rows] + rows, partners)
        block = rows // step
    following = np.append(found[1:], n_b) - np.append(starts[1:], n_a)  # B's end at the end
    return _hits(ids_a, ids_b, rows, following[block] + rows, partners)


def _hits(ids_a: IdArray, ids_b: IdArray, rows: npt.NDArray[np.intp],
          guess: npt.NDArray[np.intp], partners: npt.NDArray[np.intp]) -> npt.NDArray[np.intp]:
    """Set ``partners[rows]`` to ``guess`` where the ids are equal; the other rows."""
    np.clip(guess, 0, ids_b.size - 1, out=guess)
    hit = ids_b[guess] == ids_a[rows]
    partners[rows[hit]] = guess[hit]
    return rows[~hit]


def _insertion_near(needles: IdArray, ids_b: IdArray, guess: npt.NDArray[np.intp]
                    ) -> npt.NDArray[np.intp]:
    """Where each of ``needles`` goes in ``ids_b`` (the first position whose id is not
    smaller), searched outwards from ``guess``: steps of 1, 2, 4, ... until the place is
    bracketed, then a binary search of the bracket. A guess ``c`` positions off costs about
    2 log2(c) + 1 comparisons, all near the guess in memory."""
    n_b = ids_b.size
    place = np.clip(guess, 0, n_b)
    low, high = place.copy(), place.copy()  # the place is in [low, high]
    up = np.flatnonzero(place < n_b)
    up = up[ids_b[place[up]] < needles[up]]  # further right than the guess
    low[up] = place[up] + 1
    high[up] = n_b
    down = np.flatnonzero(place > 0)
    down = down[ids_b[place[down] - 1] >= needles[down]]  # further left
    high[down] = place[down] - 1
    low[down] = 0
    step = 1
    while up.size or down.size:
        probe = place[up] + step
        inside = probe < n_b
        above = np.zeros(up.size, dtype=bool)
        above[inside] = ids_b[probe[inside]] >= needles[up[inside]]
        bracketed = above | ~inside
        high[up[above]] = probe[above]
        low[up[~bracketed]] = probe[~bracketed] + 1
        up = up[~bracketed]
        probe = place[down] - 1 - step
        inside = probe >= 0
        below = np.zeros(down.size, dtype=bool)
        below[inside] = ids_b[probe[inside]] < needles[down[inside]]
        bracketed = below | ~inside
        low[down[below]] = probe[below] + 1
        high[down[~bracketed]] = probe[~bracketed]
        down = down[~bracketed]
        step *= 2
    searched = np.flatnonzero(low < high)
    place[searched] = _insertion(needles[searched], ids_b, low[searched], high[searched])
    done = low == high
    place[done] = low[done]
    return place


def _insertion(needles: IdArray, ids_b: IdArray, low: npt.NDArray[np.intp],
               high: npt.NDArray[np.intp]) -> npt.NDArray[np.intp]:
    """Where each of ``needles`` goes in ``ids_b``, searched in ``ids_b[low:high]`` (per
    needle): a binary search of all needles at once, one vectorised comparison a step
    (numpy's ``searchsorted`` on objects is several times slower a needle)."""
    low, high = low.copy(), high.copy()
    active = np.flatnonzero(low < high)
    while active.size:
        middle = (low[active] + high[active]) // 2
        below = ids_b[middle] < needles[active]
        low[active[below]] = middle[below] + 1
        high[active[~below]] = middle[~below]
        active = active[low[active] < high[active]]
    return low


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

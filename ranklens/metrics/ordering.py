"""trec_eval's order of documents within a query, computed once and only as far as needed.

trec_eval sorts each query's documents by score descending and breaks ties by document id
descending, comparing the ids' bytes (``strcmp``); the rank column of a TREC run plays no part.
``order="rank"`` sorts by the rank column ascending instead, ties again by document id
descending.

Sorting 7M rows by string is the expensive part of evaluation, and most of it is not needed:

1. Rows are grouped by query and sorted by the numeric key only (no sort at all when the run
   is already in that order, as producers usually write it).
2. Only the first ``depth`` rows of each query are kept (the deepest cutoff any requested metric
   reads), plus the rest of a tie group that straddles the cutoff, since which of its documents
   fall inside is decided by their ids.
3. Inside a tie group the order of documents only matters when they carry different labels
   (grade, judged or not): only such groups are sorted by document id.

This module knows nothing of metrics; it answers "in which order does trec_eval see the rows".
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, get_args

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ranklens.data import Run
from ranklens.metrics.arrow import arrow_indices, integers

Order = Literal["score", "rank"]
"""How a run's documents are ordered: by score (ties by doc id, as trec_eval) or by its rank
column."""

ORDERS: tuple[Order, ...] = get_args(Order)


@dataclass(frozen=True)
class BlockOrder:
    """A run's rows as one block per query, each block sorted by ``keys`` descending.

    ``rows[i]`` is the run row at sorted position ``i`` (``None`` when the run already is in
    this order); block ``b`` spans sorted positions ``starts[b]:starts[b + 1]`` and holds the
    rows of run query code ``query_codes[b]``. Ties are not resolved yet.
    """

    rows: np.ndarray | None
    starts: np.ndarray
    query_codes: np.ndarray
    keys: np.ndarray

    @property
    def lengths(self) -> np.ndarray:
        return np.diff(self.starts)

    def run_rows(self, positions: np.ndarray) -> np.ndarray:
        """Run row indices of sorted positions."""
        return positions if self.rows is None else self.rows[positions]


def ordering_keys(run: Run, order: str = "score") -> np.ndarray:
    """The numeric key trec_eval sorts by, descending: the score, or minus the rank.

    Raises ``ValueError`` for an unknown ``order``, a missing rank column or NaN scores (which
    have no place in a descending order).
    """
    if order == "score":
        keys = np.asarray(run.scores, dtype=np.float64)
        if np.isnan(keys).any():
            raise ValueError(f"run {run.name!r} has NaN scores; cannot order its documents")
        return keys
    if order == "rank":
        if run.ranks is None:
            raise ValueError(f"run {run.name!r} has no rank column; use order='score'")
        return -np.asarray(run.ranks, dtype=np.float64)
    raise ValueError(f"order must be one of {ORDERS}, not {order!r}")


def sort_blocks(query_codes: np.ndarray, keys: np.ndarray,
                counts: np.ndarray | None = None) -> BlockOrder:
    """Group rows by query and sort each group by ``keys`` descending (ties unresolved).

    When the rows already come grouped by query and non-increasing within each query (checked
    in one vectorised pass), no sort happens; otherwise one numeric ``lexsort``. ``counts``:
    the rows of each query code, when the caller has them.
    """
    n = len(query_codes)
    if n == 0:
        empty = np.empty(0, dtype=np.int64)
        return BlockOrder(None, np.zeros(1, dtype=np.int64), empty.astype(np.int32), keys)
    same_query = query_codes[1:] == query_codes[:-1]
    block_starts = np.flatnonzero(~same_query) + 1
    n_distinct = np.count_nonzero(np.bincount(query_codes) if counts is None else counts)
    in_order = len(block_starts) + 1 == n_distinct and not np.any(
        (keys[1:] > keys[:-1]) & same_query
    )
    if in_order:
        rows = None
        sorted_queries, sorted_keys = query_codes, keys
    else:
        rows = _by_query_then_key(query_codes, keys)
        sorted_queries, sorted_keys = query_codes[rows], keys[rows]
        block_starts = np.flatnonzero(sorted_queries[1:] != sorted_queries[:-1]) + 1
    starts = np.concatenate(([0], block_starts, [n])).astype(np.int64)
    return BlockOrder(rows, starts, sorted_queries[starts[:-1]], sorted_keys)


def run_blocks(run: Run, keys: np.ndarray, counts: np.ndarray | None = None) -> BlockOrder:
    """`sort_blocks` of ``run``'s rows by ``keys`` (``ordering_keys(run, ...)``), kept with
    the run while it is asked for the same ``keys`` array: a shuffled run is sorted once for
    its scores, its tie counts and its checks instead of once for each (kept: 20 bytes a row,
    the sorted rows, keys and query codes; nothing for a run already in order, whose keys are
    its own). The arrays sorted here are read-only."""
    held = run._memo.get("blocks")
    if held is not None and held[0] is keys:
        blocks: BlockOrder = held[1]
        return blocks
    blocks = sort_blocks(run.query_codes, keys, counts)
    if blocks.rows is not None:
        for array in (blocks.rows, blocks.starts, blocks.query_codes, blocks.keys):
            array.flags.writeable = False
    run._memo["blocks"] = (keys, blocks)
    return blocks


def _by_query_then_key(query_codes: np.ndarray, keys: np.ndarray) -> np.ndarray:
    """The rows ordered by query code, then ``keys`` descending, then row: what
    ``np.lexsort((-keys, query_codes))`` answers, in two stable sorts (keys, then codes) that
    cost about half as much on a shuffled run (the codes' sort is a radix sort when they fit
    16 bits, as the queries of most runs do)."""
    rows = np.argsort(-keys, kind="stable")
    codes = query_codes[rows]
    if len(codes) and int(codes.min()) >= 0 and int(codes.max()) < 1 << 16:
        codes = codes.astype(np.uint16)
    return rows[np.argsort(codes, kind="stable")]


def tie_group_starts(keys: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """Sorted positions where a tie group (same block, same key) begins, plus an end sentinel."""
    return np.flatnonzero(_new_groups(keys, starts))


def _new_groups(keys: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """Mask of the sorted positions where a tie group begins, and one more entry (``True``,
    where a group after the last would begin)."""
    n = len(keys)
    new_group = np.empty(n + 1, dtype=bool)
    new_group[0] = new_group[n] = True
    if n:
        np.not_equal(keys[1:], keys[:-1], out=new_group[1:n])
        inner = starts[1:-1]
        new_group[inner[inner < n]] = True  # empty blocks may start at n
    return new_group


def expand_ranges(starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """Concatenation of ``range(s, s + l)`` for each pair, without a Python loop."""
    lengths = lengths.astype(np.int64)
    total = int(lengths.sum())
    if total == 0:
        return np.empty(0, dtype=np.int64)
    offsets = np.repeat(starts.astype(np.int64) - np.cumsum(lengths) + lengths, lengths)
    return offsets + np.arange(total, dtype=np.int64)


def of_block(values: np.ndarray, starts: np.ndarray) -> Callable[[np.ndarray], np.ndarray]:
    """A function from positions to ``values[b]``, ``b`` the block holding each position
    (block ``b`` spans ``starts[b]:starts[b + 1]``): a block's value for a few positions
    without one entry per position (``np.repeat``)."""
    return lambda at: values[np.searchsorted(starts, at, side="right") - 1]


def tie_ends(keys: np.ndarray, positions: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """For each of ``positions``, where its tie group ends: the first later position of its
    block (``keys`` descending up to ``ends``) with a lower key, or the block's end. A binary
    search of every block at once (about log2 of the longest block steps), not a look at
    every row."""
    value = keys[positions]
    lo, hi = positions.astype(np.int64), ends.astype(np.int64)  # keys[lo] ties; hi does not
    while True:
        open_ = np.flatnonzero(hi - lo > 1)
        if not len(open_):
            return hi
        mid = (lo[open_] + hi[open_]) // 2
        lower = keys[mid] < value[open_]
        hi[open_[lower]] = mid[lower]
        lo[open_[~lower]] = mid[~lower]


def top_positions(order: BlockOrder, depth: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Sorted positions of the rows to keep, and their block boundaries.

    Keeps the first ``depth[b]`` rows of block ``b`` (all of them when ``depth[b]`` is at least
    the block's length, none when it is 0) plus every row tied with the last one kept.
    """
    lengths = order.lengths
    keep = np.minimum(np.asarray(depth, dtype=np.int64), lengths)
    cut = np.flatnonzero((keep > 0) & (keep < lengths))
    if len(cut):
        last_kept = order.starts[cut] + keep[cut] - 1
        keep[cut] = tie_ends(order.keys, last_kept, order.starts[cut + 1]) - order.starts[cut]
    if np.array_equal(keep, lengths):
        positions = np.arange(int(order.starts[-1]), dtype=np.int64)
    else:
        positions = expand_ranges(order.starts[:-1], keep)
    return positions, np.concatenate(([0], np.cumsum(keep))).astype(np.int64)


def tie_break_permutation(
    keys: np.ndarray,
    starts: np.ndarray,
    labels: np.ndarray,
    doc_ids: Callable[[np.ndarray], pa.Array],
) -> np.ndarray | None:
    """Permutation that puts tied rows in trec_eval's order (document id descending, bytes).

    ``keys``/``starts`` describe selected rows in block order; ``labels`` is what a metric can
    see of a row (e.g. its grade). Only tie groups holding more than one distinct label are
    sorted, since reordering equal labels changes no metric. ``doc_ids(rows)`` returns the
    document ids of those rows. Returns ``None`` when nothing moves.
    """
    moves = tie_break_moves(keys, starts, labels, doc_ids)
    if moves is None:
        return None
    permutation = np.arange(len(keys), dtype=np.int64)
    permutation[moves[0]] = moves[1]
    return permutation


def tie_break_moves(
    keys: np.ndarray,
    starts: np.ndarray,
    labels: np.ndarray,
    doc_ids: Callable[[np.ndarray], pa.Array],
) -> tuple[np.ndarray, np.ndarray] | None:
    """``tie_break_permutation`` as the rows that move: (positions, the row each takes), so
    that ``values[positions] = values[taken]`` puts ``values`` in trec_eval's order."""
    if len(keys) < 2:
        return None
    new_group = _new_groups(keys, starts)
    # a tie group is mixed when two neighbours inside it carry different labels
    differ = labels[1:] != labels[:-1]
    differ &= ~new_group[1:-1]
    inside = np.flatnonzero(differ) + 1
    if not len(inside):
        return None
    group_starts = np.flatnonzero(new_group)
    group = np.searchsorted(group_starts, inside, side="right") - 1
    group = group[np.concatenate(([True], group[1:] != group[:-1]))]  # ascending: once each
    mixed_starts = group_starts[group]
    mixed_sizes = group_starts[group + 1] - mixed_starts
    rows = expand_ranges(mixed_starts, mixed_sizes)
    group = np.repeat(np.arange(len(mixed_starts)), mixed_sizes)
    table = pa.table({"group": arrow_indices(group), "doc": doc_ids(rows)})
    sorted_idx = integers(pc.sort_indices(
        table, sort_keys=[("group", "ascending"), ("doc", "descending")]
    ))
    return rows, rows[sorted_idx]

"""Score ties at the cutoff: which queries' top k is decided by document ids, not by scores.

trec_eval orders equal scores by document id (descending), so when a group of equal scores
crosses the cutoff k, which of its documents count is decided by their names: renaming
documents changes nDCG@k. ``cutoff_ties(run, k)`` answers, for all queries at once, "in which
queries does rank k fall inside a tie group, and which group": the group's score, its first
and last rank, and how many of its documents are inside the cutoff. ``tie_marks`` marks the
groups of one ranking for display. The expected value over the orders of a tie group is
``evaluate(..., ties="average")`` (``tie_average``); this module measures, it does not score.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ranklens.data import Run
from ranklens.metrics.arrow import take
from ranklens.metrics.ordering import ordering_keys, run_blocks, tie_group_starts

if TYPE_CHECKING:
    import pandas as pd

TREC_EVAL_TIE_RULE = "trec_eval puts equal scores in document-id order, descending"


@dataclass(frozen=True)
class CutoffTies:
    """The tie groups that cross rank ``cutoff`` in ``run``, one per affected query.

    ``query_ids`` etc. are aligned arrays over the affected queries (query id order);
    ``n_queries`` counts the queries looked at (the run's, or those asked for).
    """

    run: str
    cutoff: int
    n_queries: int
    query_ids: np.ndarray
    score: np.ndarray
    first_rank: np.ndarray
    last_rank: np.ndarray

    @property
    def n_crossing(self) -> int:
        return len(self.query_ids)

    @property
    def share(self) -> float:
        """Share of the queries looked at whose cutoff falls inside a tie group."""
        return self.n_crossing / self.n_queries if self.n_queries else 0.0

    @property
    def inside(self) -> np.ndarray:
        """Per crossing group, how many of its documents are ranked within the cutoff."""
        return self.cutoff - self.first_rank + 1

    @property
    def size(self) -> np.ndarray:
        return self.last_rank - self.first_rank + 1

    def describe(self) -> str:
        """One sentence for a report: how many queries, and the rule that decided them."""
        if not self.n_crossing:
            return f"{self.run}: no tie group crosses rank {self.cutoff}."
        return (f"{self.run}: in {self.n_crossing:,} of {self.n_queries:,} queries "
                f"({100 * self.share:.1f}%) a group of equal scores crosses rank "
                f"{self.cutoff}, so their ids decide which of its documents count "
                f"({TREC_EVAL_TIE_RULE}).")

    def to_frame(self) -> pd.DataFrame:
        import pandas as pd

        return pd.DataFrame({"query_id": self.query_ids, "score": self.score,
                             "first_rank": self.first_rank, "last_rank": self.last_rank,
                             "inside": self.inside, "size": self.size})


def cutoff_ties(run: Run, cutoff: int, *, order: str = "score",
                query_ids: Collection[str] | None = None) -> CutoffTies:
    """The tie groups of ``run`` that rank ``cutoff`` (1-based) falls inside, for all queries
    (or only ``query_ids``, e.g. the evaluated ones) at once."""
    if cutoff < 1:
        raise ValueError(f"the cutoff must be a positive integer, not {cutoff}")
    keys = ordering_keys(run, order)
    blocks = run_blocks(run, keys)
    ids = take(run.queries, blocks.query_codes).to_numpy(zero_copy_only=False).astype(object)
    looked_at = np.ones(len(ids), dtype=bool)
    if query_ids is not None:
        looked_at = np.isin(ids, np.asarray(list(map(str, query_ids)), dtype=object))
    lengths = blocks.lengths
    candidates = np.flatnonzero(looked_at & (lengths > cutoff))
    last_in = blocks.starts[candidates] + cutoff - 1
    crossing = blocks.keys[last_in] == blocks.keys[last_in + 1]
    chosen, last_in = candidates[crossing], last_in[crossing]
    group_starts = tie_group_starts(blocks.keys, blocks.starts)
    group = np.searchsorted(group_starts, last_in, side="right") - 1
    first = group_starts[group] - blocks.starts[chosen] + 1
    last = group_starts[group + 1] - blocks.starts[chosen]
    order_ids = np.argsort(ids[chosen], kind="stable")
    return CutoffTies(run.name, cutoff, int(looked_at.sum()), ids[chosen][order_ids],
                      blocks.keys[last_in][order_ids], first[order_ids], last[order_ids])


def has_ties(run: Run, order: str = "score") -> bool:
    """Whether two documents of one query share their ranking key (the score, or the rank
    with ``order="rank"``). Without, every tie rule orders the run alike, so
    ``evaluate(..., ties="average")`` scores it exactly as trec_eval does. One pass over the
    run grouped by query (a sort only when its rows are not in that order already)."""
    if len(run) < 2:
        return False
    blocks = run_blocks(run, ordering_keys(run, order))
    same = blocks.keys[1:] == blocks.keys[:-1]
    boundaries = blocks.starts[1:-1]
    same[boundaries[(boundaries > 0) & (boundaries < len(run))] - 1] = False  # across queries
    return bool(same.any())


def tie_marks(scores: np.ndarray, cutoff: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """For one ranking's scores (in rank order): the tie group number of each rank (0 for a
    score that ties with no other) and whether its group crosses ``cutoff``."""
    scores = np.asarray(scores, dtype=np.float64)
    n = len(scores)
    if not n:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=bool)
    new = np.r_[True, scores[1:] != scores[:-1]]
    number = np.cumsum(new)
    sizes = np.bincount(number)
    tied = sizes[number] > 1
    marks = np.where(tied, np.cumsum(new & tied), 0)
    crosses = np.zeros(n, dtype=bool)
    if cutoff is not None and 0 < cutoff < n and scores[cutoff - 1] == scores[cutoff]:
        crosses = number == number[cutoff - 1]
    return marks.astype(np.int64), crosses


__all__ = ["TREC_EVAL_TIE_RULE", "CutoffTies", "cutoff_ties", "tie_marks"]

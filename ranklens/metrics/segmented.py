"""Running sums inside each query's block of rows, for metrics that look back along a ranking.

Rows arrive grouped by query (``RankedLabels``: one contiguous block per query, in rank order).
``exclusive_running_sum`` answers "how much of ``values`` came before this row in its own
query", for all queries at once; bpref (non-relevant documents ranked above) and ERR (the
probability that the user is still looking) are built on it.
"""

from __future__ import annotations

import numpy as np


def block_starts(query: np.ndarray) -> np.ndarray:
    """Mask of the rows that open a new query block (``query`` is grouped)."""
    if not len(query):
        return np.empty(0, dtype=bool)
    return np.r_[True, query[1:] != query[:-1]]


def exclusive_running_sum(values: np.ndarray, query: np.ndarray) -> np.ndarray:
    """Per row, the sum of ``values`` over the earlier rows of the same query block.

    Integer inputs give exact integer sums. For floats, each block's total is taken out at the
    block's last row before the global ``cumsum`` (the carry into the next block is then 0 up
    to rounding, which is removed too), so the running value stays of the size of one block's
    sum and rounding does not grow with the number of queries.
    """
    if not len(values):
        return np.zeros(0, dtype=values.dtype)
    starts = np.flatnonzero(block_starts(query))
    adjusted = values.copy()
    if len(starts) > 1:
        block_totals = np.add.reduceat(values, starts)
        adjusted[starts[1:] - 1] -= block_totals[:-1]
    running = np.cumsum(adjusted) - adjusted  # sum before each row, ~0 at each block start
    drift = running[starts]  # exactly 0 for integers; rounding residue for floats
    lengths = np.diff(np.r_[starts, len(values)])
    return running - np.repeat(drift, lengths)

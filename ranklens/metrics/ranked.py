"""A run's evaluated rows in trec_eval order, with the label of each: the input of every metric.

Each metric family is a function of a ``RankedLabels`` (and its ``MetricSpec``) returning one
value per evaluated query, computed with segment reductions over all queries at once.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ranklens.metrics.judgements import Judgements


@dataclass(frozen=True)
class RankedLabels:
    """Rows in rank order, one contiguous block per evaluated query.

    ``query`` is the dense query index of each row, ``position`` its 0-based rank within the
    query and ``labels`` its grade (``NOT_JUDGED`` when its document has no judgement). Only
    the top of each ranking may be present: as deep as the metrics asked for need.
    ``tie_group`` numbers the groups of rows with equal scores (contiguous, in rank order) when
    a tie-averaged metric asked for them (``tie_average``), else it is None.
    """

    query: np.ndarray
    position: np.ndarray
    labels: np.ndarray
    judgements: Judgements
    tie_group: np.ndarray | None = None

    @property
    def n_queries(self) -> int:
        return self.judgements.n_queries

    def relevant(self, level: int) -> np.ndarray:
        """Rows whose document is judged with grade >= ``level`` (``level`` >= 1)."""
        return self.labels >= level

    def judged(self) -> np.ndarray:
        """Rows whose document has a grade >= 0 (a negative grade is "not judged", as in
        trec_eval; ``NOT_JUDGED`` is negative too)."""
        return self.labels >= 0

    def count(self, rows: np.ndarray, weights: np.ndarray | None = None) -> np.ndarray:
        """Per-query sum of ``weights`` (or count) over the rows selected by mask ``rows``."""
        w = None if weights is None else weights[rows]
        return np.bincount(self.query[rows], weights=w, minlength=self.n_queries).astype(
            np.float64
        )

    def top(self, cutoff: int | None) -> np.ndarray:
        """Mask of rows ranked within the first ``cutoff`` (all rows when ``None``)."""
        if cutoff is None:
            return np.ones(len(self.position), dtype=bool)
        return self.position < cutoff


def safe_divide(numerator: np.ndarray, denominator: np.ndarray) -> np.ndarray:
    """``numerator / denominator`` with 0 where the denominator is 0 (trec_eval's convention)."""
    out = np.zeros(len(numerator), dtype=np.float64)
    np.divide(numerator, denominator, out=out, where=denominator > 0)
    return out

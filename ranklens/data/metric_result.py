"""The seam between metrics and statistics: one number per query for one metric."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:  # pandas stays out of the import graph of ranklens.stats
    import pandas as pd

QueryId = str


@dataclass(frozen=True)
class MetricResult:
    """Per-query values of one metric for one run.

    ``metric`` is the canonical display name (``"nDCG@10"``); ``per_query`` maps a query id
    (always a string) to the metric's value on that query. It answers "what did this run score
    on each query", not "is it better than another run" (that is ``ranklens.stats``).
    """

    metric: str
    per_query: Mapping[QueryId, float]
    run: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        # freeze the mapping so a shared result cannot be edited behind a report's back
        object.__setattr__(self, "per_query", MappingProxyType(dict(self.per_query)))

    def __len__(self) -> int:
        return len(self.per_query)

    @property
    def n_queries(self) -> int:
        return len(self.per_query)

    @property
    def mean(self) -> float:
        """Mean over the queries present (NaN when there are none)."""
        if not self.per_query:
            return float("nan")
        return float(np.fromiter(self.per_query.values(), dtype=np.float64).mean())

    def values(self, queries: list[QueryId] | tuple[QueryId, ...] | None = None) -> np.ndarray:
        """Values as a float64 array, in the order of ``queries`` (default: sorted ids)."""
        order = sorted(self.per_query) if queries is None else queries
        return np.fromiter((self.per_query[q] for q in order), dtype=np.float64, count=len(order))

    def to_frame(self) -> pd.DataFrame:
        """A two-column pandas view: ``query_id`` (str) and the metric's value."""
        import pandas as pd

        queries = sorted(self.per_query)
        return pd.DataFrame(
            {"query_id": pd.Series(queries, dtype=object), self.metric: self.values(queries)}
        )

"""The seam between metrics and statistics: one number per query for one metric."""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:  # pandas stays out of the import graph of ranklens.stats
    import pandas as pd

QueryId = str


class MetricResult:
    """Per-query values of one metric for one run.

    ``metric`` is the canonical display name (``"nDCG@10"``). The values live in two aligned
    arrays sorted by query id: ``query_ids`` (strings, unique) and ``values`` (float64);
    ``per_query`` is the same as a read-only mapping ``{query_id: value}``. It answers "what
    did this run score on each query", not "is it better than another run" (that is
    ``ranklens.stats``).

    Build it from a mapping (``MetricResult(metric, {query: value})``) or, without a Python
    object per query, from arrays (`from_arrays`). It is immutable: the arrays are read-only,
    so a shared result cannot be edited behind a report's back.
    """

    __slots__ = ("__dict__", "metric", "query_ids", "run", "values")

    metric: str
    query_ids: npt.NDArray[np.object_]
    values: npt.NDArray[np.float64]
    run: str

    def __init__(self, metric: str, per_query: Mapping[QueryId, float], run: str = "") -> None:
        ids = sorted(per_query)
        values = np.fromiter((per_query[q] for q in ids), dtype=np.float64, count=len(ids))
        self._set(metric, np.array(ids, dtype=object), values, run)

    @classmethod
    def from_arrays(cls, metric: str, query_ids: Sequence[QueryId] | np.ndarray,
                    values: Sequence[float] | np.ndarray, *, run: str = "") -> MetricResult:
        """A result from aligned arrays of query ids and values (any order; ids unique).

        Raises ValueError when the lengths differ or an id repeats.
        """
        ids = np.asarray(query_ids, dtype=object)
        numbers = np.asarray(values, dtype=np.float64)
        if ids.shape != numbers.shape or ids.ndim != 1:
            raise ValueError(f"query_ids and values must be aligned 1-d arrays, got shapes "
                             f"{ids.shape} and {numbers.shape}")
        # ids already strictly increasing (a pairing's output) need no sort: one comparison
        if ids.size > 1 and not bool((ids[1:] > ids[:-1]).all()):
            order = np.argsort(ids, kind="stable")
            ids, numbers = ids[order], numbers[order]
            repeated = ids[1:] == ids[:-1]
            if repeated.any():
                raise ValueError(f"query id {ids[1:][repeated][0]!r} appears more than once")
        else:
            ids, numbers = ids.copy(), numbers.copy()
        result = cls.__new__(cls)
        result._set(metric, ids, numbers, run)
        return result

    def _set(self, metric: str, ids: np.ndarray, values: np.ndarray, run: str) -> None:
        ids.flags.writeable = False
        values.flags.writeable = False
        object.__setattr__(self, "metric", metric)
        object.__setattr__(self, "query_ids", ids)
        object.__setattr__(self, "values", values)
        object.__setattr__(self, "run", run)

    def __reduce__(self) -> tuple[Any, ...]:  # copy, deepcopy and pickle rebuild through here
        return (_rebuild, (self.metric, self.query_ids, self.values, self.run))

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"MetricResult is immutable: cannot set {name!r}")

    @functools.cached_property
    def per_query(self) -> Mapping[QueryId, float]:
        """``{query_id: value}``, read-only, in query-id order."""
        return MappingProxyType(dict(zip(self.query_ids.tolist(), self.values.tolist(),
                                         strict=True)))

    def __eq__(self, other: object) -> bool:
        """Same metric, same queries, same values (the run's name does not count)."""
        if not isinstance(other, MetricResult):
            return NotImplemented
        return (self.metric == other.metric
                and np.array_equal(self.query_ids, other.query_ids)
                and np.array_equal(self.values, other.values))

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (f"MetricResult(metric={self.metric!r}, n_queries={self.n_queries}, "
                f"run={self.run!r})")

    def __len__(self) -> int:
        return int(self.query_ids.size)

    @property
    def n_queries(self) -> int:
        return int(self.query_ids.size)

    @property
    def mean(self) -> float:
        """Mean over the queries present (NaN when there are none)."""
        if self.values.size == 0:
            return float("nan")
        return float(self.values.mean())

    def restrict(self, mask: np.ndarray) -> MetricResult:
        """The result on the queries where the boolean ``mask`` (aligned with ``query_ids``)
        is true."""
        result = type(self).__new__(type(self))
        result._set(self.metric, self.query_ids[mask], self.values[mask], self.run)
        return result

    def to_frame(self) -> pd.DataFrame:
        """A two-column pandas view: ``query_id`` (str) and the metric's value."""
        import pandas as pd

        return pd.DataFrame({"query_id": pd.Series(self.query_ids, dtype=object),
                             self.metric: np.array(self.values)})


def _rebuild(metric: str, query_ids: np.ndarray, values: np.ndarray, run: str) -> MetricResult:
    result = MetricResult.__new__(MetricResult)
    result._set(metric, np.array(query_ids, dtype=object), np.array(values, dtype=np.float64), run)
    return result

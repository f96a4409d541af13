"""The typed data that flows between layers.

- ``Run``, ``Qrels`` (``ranklens.data.tables``): rankings and judgements as columnar tables,
  ids dictionary-encoded (pyarrow)
- ``MetricResult`` (``ranklens.data.metric_result``): one number per query for one metric, the
  seam between metrics and statistics (numpy only)

``ranklens.stats`` needs only ``MetricResult``; ``Run`` and ``Qrels`` load on first use so that
importing the statistics does not import pyarrow.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ranklens.data.metric_result import MetricResult, QueryId

if TYPE_CHECKING:
    from ranklens.data.tables import Qrels, Run, duplicate_rows, encode_ids

__all__ = ["MetricResult", "Qrels", "QueryId", "Run", "duplicate_rows", "encode_ids"]


def __getattr__(name: str) -> Any:
    if name in {"Run", "Qrels", "duplicate_rows", "encode_ids"}:
        from ranklens.data import tables

        return getattr(tables, name)
    raise AttributeError(f"module 'ranklens.data' has no attribute {name!r}")

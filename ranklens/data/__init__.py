"""The typed data that flows between layers.

- ``Run``, ``Qrels`` (``ranklens.data.tables``): rankings and judgements as columnar tables,
  ids dictionary-encoded (pyarrow)
- ``MetricResult`` (``ranklens.data.metric_result``): one number per query for one metric, the
  seam between metrics and statistics (numpy only)

``ranklens.stats`` needs only ``MetricResult``; ``Run`` and ``Qrels`` load on first use so that
importing the statistics does not import pyarrow.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ranklens._lazy import lazy_names
from ranklens.data.metric_result import MetricResult, QueryId

if TYPE_CHECKING:
    from ranklens.data.tables import Qrels, Run, duplicate_rows, encode_ids

__all__ = ["MetricResult", "Qrels", "QueryId", "Run", "duplicate_rows", "encode_ids"]


__getattr__, __dir__ = lazy_names(__name__, globals(), {
    name: ".tables" for name in ("Qrels", "Run", "duplicate_rows", "encode_ids")})

"""Every setting of the PPI page, resolved, and its plain-JSON form (share links, HTML files).

``PPISettings`` answers "which correction did the page compute": the metric, alpha and how the
runs order their documents. ``to_dict`` writes the form share links and the HTML file store;
``from_dict`` reads it back, old links included.

It does not hold the gold-budget planner's choice: that is the viewer's, not the analysis's
(``ranklens.ppi.html`` adds it to the file's settings), nor the input files.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ranklens import page_settings as check
from ranklens.metrics import ordering as metric_orders

PAGE = "PPI"
ORDERS = metric_orders.ORDERS
"""How the runs order their documents: by score (ties by doc id, as trec_eval) or by the rank
column."""
OLD_ORDER = "score"
"""The document order of links written before the page stored it (the only order then)."""


@dataclass(frozen=True)
class PPISettings:
    """Every setting of a PPI++ analysis, written out (no default left implicit).

    ``metric`` is the canonical metric name (the analysis's), ``alpha`` the significance level
    of the intervals, ``order`` one of `ORDERS`. Raises ``ValueError`` for a value the page
    cannot analyse with, naming the setting.
    """

    metric: str
    alpha: float
    order: str
    # the segment column of the judge check per segment (issue 32); None: no segments
    segment_column: str | None = None

    def __post_init__(self) -> None:
        check.text(PAGE, "metric", self.metric)
        check.number(PAGE, "alpha", self.alpha, above=0.0, below=1.0)
        check.one_of(PAGE, "order", self.order, ORDERS)
        if self.segment_column is not None:
            check.text(PAGE, "segment_column", self.segment_column)

    def to_dict(self) -> dict[str, Any]:
        """Every setting as plain JSON: what links and the HTML file store (the segment
        column only when there is one, so links without segments read as before)."""
        data = dataclasses.asdict(self)
        if self.segment_column is None:
            del data["segment_column"]
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, written_by: str = "this") -> PPISettings:
        """Settings back from `to_dict`'s form, and from links written before it.

        Links written before the page stored the document order get ``"score"``
        (`OLD_ORDER`), the only order then. Raises ``ValueError`` naming the settings this
        version does not know (``written_by`` says which ranklens wrote them: applying only
        the known ones would give other numbers than the writer saw), the settings missing,
        or a value the page cannot analyse with.
        """
        check.refuse_unknown(data, _KEYS, written_by=written_by)
        check.require(data, ("metric", "alpha"), page=PAGE, written_by=written_by)
        return cls(metric=data["metric"], alpha=data["alpha"],
                   order=data.get("order", OLD_ORDER),
                   segment_column=data.get("segment_column"))


_KEYS = tuple(f.name for f in dataclasses.fields(PPISettings))

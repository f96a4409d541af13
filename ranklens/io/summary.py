"""What a read produced: counts, the columns used, and every row set aside with its reason."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType


@dataclass(frozen=True)
class SetAside:
    """Rows the reader did not use, why, and where the first few of them are (1-based lines)."""

    reason: str
    rows: int
    lines: tuple[int, ...] = ()


@dataclass(frozen=True)
class ReadSummary:
    """The account of one read, for display next to the result.

    ``rows`` counts the rows in the result; ``set_aside`` lists every row that was read but not
    used, so ``rows + rows_set_aside`` is every data row in the source. ``documents`` is ``None``
    where documents do not apply (per-query tables, segment maps). ``notes`` say what the reader
    tolerated (extra trailing fields, mixed whitespace, comment lines) without changing any
    value. ``run_tag`` is the tag of a TREC run's last data line (what trec_eval prints as
    ``runid``); ``None`` for other inputs.
    """

    source: str
    format: str
    rows: int
    queries: int
    documents: int | None = None
    compressed: bool = False
    columns: Mapping[str, str] = field(default_factory=dict)
    set_aside: tuple[SetAside, ...] = ()
    notes: tuple[str, ...] = ()
    run_tag: str | None = None
    id_samples: Mapping[str, Mapping[str, tuple[str, ...]]] = field(default_factory=dict)
    """Where a table has several columns that could hold an id (``docid`` and ``docno``): per
    role, each such column (the one read first) with a sample of its distinct values, for
    ``ranklens.io.id_columns`` to choose by the judgements. Not part of a report."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "columns", MappingProxyType(dict(self.columns)))

    @property
    def rows_set_aside(self) -> int:
        return sum(item.rows for item in self.set_aside)

    def describe(self) -> str:
        """One human-readable paragraph: what was read and what was set aside."""
        kind = f"{self.format}, gzip" if self.compressed else self.format
        parts = [f"{self.source} ({kind}): {self.rows:,} rows"]
        if self.queries or self.documents is None:  # a documents file has no queries
            parts[0] += f", {self.queries:,} queries"
        if self.documents is not None:
            parts[0] += f", {self.documents:,} documents"
        for item in self.set_aside:
            where = f" (lines {', '.join(map(str, item.lines))}...)" if item.lines else ""
            parts.append(f"{item.rows:,} rows set aside: {item.reason}{where}")
        parts.extend(self.notes)
        return "; ".join(parts) + "."

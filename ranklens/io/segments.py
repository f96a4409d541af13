"""Segment maps: query id -> segment, from a segment file or the extra columns of any table.

Answers "which segment is each query in", for every segment column the file has; the caller
picks one. It does not compare anything per segment (that is ``ranklens.compare.segments``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import NamedTuple, Unpack

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ranklens.io.build import arrow_indices, check_ids, ids_unified, to_numpy
from ranklens.io.columns import ALIASES, IGNORED, normalise
from ranklens.io.detect import sniff
from ranklens.io.errors import InputError
from ranklens.io.locate import Locator
from ranklens.io.runs import as_input_errors
from ranklens.io.source import ReadOptions, Source, load, read_options
from ranklens.io.summary import ReadSummary, SetAside
from ranklens.io.tables import id_column, read_table

_NOT_SEGMENTS = frozenset(
    alias for role in ("doc_id", "score", "rank", "relevance", "metric", "value")
    for alias in ALIASES[role]) | set(IGNORED)


@dataclass(frozen=True)
class SegmentMap:
    """Query id -> segment label for the chosen ``column``; every column's map in ``by_column``.

    Queries with no value in a column are absent from that column's map.
    """

    column: str
    by_column: Mapping[str, Mapping[str, str]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        frozen = {name: MappingProxyType(dict(mapping)) for name, mapping in self.by_column.items()}
        object.__setattr__(self, "by_column", MappingProxyType(frozen))

    @property
    def columns(self) -> tuple[str, ...]:
        """Every segment column the source offered, in file order."""
        return tuple(self.by_column)

    @property
    def mapping(self) -> Mapping[str, str]:
        return self.by_column[self.column]

    def segments(self) -> list[str]:
        """Distinct segment labels of the chosen column, sorted."""
        return sorted(set(self.mapping.values()))

    def choose(self, column: str) -> SegmentMap:
        """The same map with another column chosen."""
        if column not in self.by_column:
            raise KeyError(f"no segment column {column!r}; columns: {', '.join(self.columns)}")
        return SegmentMap(column, self.by_column)


class SegmentsRead(NamedTuple):
    segments: SegmentMap
    summary: ReadSummary


def read_segments(
    source: Source,
    *,
    column: str | None = None,
    **options: Unpack[ReadOptions],
) -> SegmentsRead:
    """Read query -> segment maps from a table with a query id column and segment column(s).

    Every column that is not a query id, document id, score, rank, relevance or metric value
    is a segment column; ``column`` picks the one to use (default: the first). A query may
    repeat (a run table with a segment column) as long as its segment does not change; a
    query with two different segments is an ``InputError``. Rows with no segment in the
    chosen column are set aside and counted. ``name``, ``format``, ``columns`` and
    ``max_bytes`` are the readers' `ReadOptions`.
    """
    name, format, columns, max_bytes = read_options(options, "read_segments")
    loaded = load(source, name=name, max_bytes=max_bytes)
    with as_input_errors(loaded.name):
        detected = sniff(loaded, format)
        if detected.format in ("trec-run", "trec-qrels", "trec_eval", "unknown"):
            raise InputError(loaded.name, "has no header naming a query id column and segment "
                             "column(s)", line=1 if detected.format == "unknown" else None,
                             hint="use a CSV/TSV with a header such as 'query_id<TAB>segment'")
        table = read_table(loaded, detected, roles=("query_id",), explicit=columns,
                           what="segment map", others=True)
        candidates = [name_ for name_ in table.other if normalise(name_) not in _NOT_SEGMENTS]
        if not candidates:
            raise InputError(loaded.name, "has no segment column (columns: "
                             f"{', '.join(table.all_names)})",
                             hint="add a column with the segment of each query")
        chosen = column if column is not None else candidates[0]
        if chosen not in candidates:
            raise InputError(loaded.name, f"has no segment column {chosen!r}",
                             hint=f"pick one of: {', '.join(candidates)}")
        queries = ids_unified(id_column(loaded.name, table.columns["query_id"], "query id",
                                          table.locate))
        check_ids(loaded.name, queries, "query id", table.locate)
        by_column: dict[str, dict[str, str]] = {}
        set_aside: list[SetAside] = []
        notes: list[str] = []
        for candidate in candidates:
            mapping, missing, repeated = _one_column(
                loaded.name, candidate, queries.codes, queries.values, table.other[candidate],
                table.locate)
            by_column[candidate] = mapping
            if candidate == chosen:
                if len(missing):
                    lines = tuple(table.locate(missing[:3])) if table.locate.unit == "line" \
                        else ()
                    set_aside.append(SetAside(f"no segment in column {chosen!r}",
                                              len(missing), lines))
                if repeated:
                    notes.append(f"{repeated:,} repeated row(s) of a query with the same "
                                 "segment, counted once")
        if len(candidates) > 1:
            notes.append(f"segment column {chosen!r} chosen of {', '.join(candidates)}")
        summary = ReadSummary(
            loaded.name, detected.format, table.rows - sum(s.rows for s in set_aside),
            len(by_column[chosen]), None, compressed=loaded.compressed,
            columns={"query_id": table.names["query_id"], "segment": chosen},
            set_aside=tuple(set_aside), notes=tuple(notes))
        return SegmentsRead(SegmentMap(chosen, by_column), summary)


def _one_column(name: str, column_name: str, codes: np.ndarray, queries: pa.Array,
                column: pa.ChunkedArray, locate: Locator
                ) -> tuple[dict[str, str], np.ndarray, int]:
    """The map of one column, the rows without a segment, and the repeats collapsed."""
    text = pc.cast(column, pa.string())
    absent = to_numpy(pc.fill_null(pc.equal(pc.utf8_trim_whitespace(text), ""), True),
                      np.bool_)
    rows = np.flatnonzero(~absent)
    if not len(rows):
        return {}, np.flatnonzero(absent), 0
    labels = ids_unified(pc.utf8_trim_whitespace(text).take(arrow_indices(rows)))
    pairs = codes[rows].astype(np.int64) * max(len(labels.values), 1) + labels.codes
    unique_pairs, first = np.unique(pairs, return_index=True)
    pair_queries = unique_pairs // max(len(labels.values), 1)
    clash = np.flatnonzero(pair_queries[1:] == pair_queries[:-1])
    if len(clash):
        code = int(pair_queries[clash[0]])
        mine = rows[codes[rows] == code]
        seen = labels.values.take(arrow_indices(labels.codes[codes[rows] == code]))
        distinct = sorted(set(seen.to_pylist()))
        places = ", ".join(map(str, locate(mine[:5])))
        raise InputError(
            name, f"query {queries[code].as_py()!r} has segments {distinct} in column "
            f"{column_name!r} ({locate.unit}s {places})",
            hint="give each query one segment per column")
    keep = np.sort(first)
    query_ids = queries.take(arrow_indices(codes[rows][keep])).to_pylist()
    segment_labels = labels.values.take(arrow_indices(labels.codes[keep])).to_pylist()
    mapping = dict(zip(query_ids, segment_labels, strict=True))
    return mapping, np.flatnonzero(absent), len(rows) - len(keep)

"""Query texts: ``read_queries`` reads the text of each query id, for display beside the id.

Formats, detected from the content (``format=`` overrides):

- ``tsv`` without a header: ``id<TAB>text`` per line (MS MARCO, TREC Deep Learning);
- ``trec-topics``: TREC topic files, SGML ``<top>`` or XML ``<topic>`` (``ranklens.io.topics``);
  the title is the text, the description is kept beside it;
- ``jsonl``: BEIR ``queries.jsonl`` (``{"_id": ..., "text": ...}``) or any JSON Lines;
- ``csv``/``tsv`` with a header, ``parquet``: columns found by alias (``text_columns``) or
  ``columns={"query_id": ..., "text": ...}``.

gzip is read anywhere (by its magic bytes). Strictness as in the other readers: what cannot be
read is an ``InputError`` naming the file, the line and the fix; a repeated id keeps its first
text and the others are counted and set aside with their lines; a query without text is set
aside. ``queries_in_runs=`` (the query ids of the runs) adds the count of ids in no run and of
run queries without a text to the summary. It does not score or compare anything.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import NamedTuple, Unpack

import pyarrow as pa
import pyarrow.compute as pc

from ranklens.io.build import ids_unified
from ranklens.io.columns import normalise
from ranklens.io.detect import BOM, Sniff, non_utf8_error, sniff
from ranklens.io.errors import InputError
from ranklens.io.runs import as_input_errors
from ranklens.io.shared_queries import example_ids
from ranklens.io.source import Loaded, ReadOptions, Source, load, read_options
from ranklens.io.summary import ReadSummary, SetAside
from ranklens.io.tables import id_column, read_table
from ranklens.io.text_columns import QUERY_ALIASES, all_aliases, is_text_header
from ranklens.io.topics import TOPIC_FORMAT, looks_like_topics, parse_topics

QUERY_FORMATS = ("auto", TOPIC_FORMAT, "tsv", "csv", "jsonl", "parquet")
_SHOWN_LINES = 3


@dataclass(frozen=True)
class QueryTexts(Mapping[str, str]):
    """Query id -> query text (read-only mapping), with TREC descriptions where given."""

    texts: Mapping[str, str]
    descriptions: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "texts", MappingProxyType(dict(self.texts)))
        object.__setattr__(self, "descriptions", MappingProxyType(
            {key: value for key, value in self.descriptions.items() if value}))

    def __getitem__(self, query_id: str) -> str:
        return self.texts[query_id]

    def __iter__(self) -> Iterator[str]:
        return iter(self.texts)

    def __len__(self) -> int:
        return len(self.texts)

    def search(self, words: str) -> list[str]:
        """Ids whose id or text contains every blank-separated word of ``words`` (case
        ignored), in file order: the query picker's text search."""
        needles = words.casefold().split()
        return [query for query, text in self.texts.items()
                if all(needle in f"{query} {text}".casefold() for needle in needles)]

    def coverage(self, query_ids: Collection[str]) -> QueryCoverage:
        """Which of this file's ids are in no run, and which run queries have no text."""
        wanted = set(map(str, query_ids))
        return QueryCoverage(tuple(q for q in self.texts if q not in wanted),
                             tuple(sorted(wanted.difference(self.texts))))


class QueryCoverage(NamedTuple):
    in_no_run: tuple[str, ...]
    without_text: tuple[str, ...]

    def notes(self) -> list[str]:
        notes = []
        if self.in_no_run:
            notes.append(f"{len(self.in_no_run):,} queries of the file are in no run "
                         f"({example_ids(self.in_no_run)})")
        if self.without_text:
            notes.append(f"{len(self.without_text):,} queries of the runs have no text in the "
                         f"file ({example_ids(self.without_text)})")
        return notes


class QueriesRead(NamedTuple):
    """The query texts and the account of their reading."""

    queries: QueryTexts
    summary: ReadSummary


class _Rows(NamedTuple):
    ids: list[str]
    texts: list[str]
    descriptions: list[str]
    lines: list[int]  # 1-based line of each row (row number for Parquet)
    unit: str
    columns: dict[str, str]
    format: str
    notes: list[str]


def read_queries(
    source: Source,
    *,
    queries_in_runs: Collection[str] | None = None,
    **options: Unpack[ReadOptions],
) -> QueriesRead:
    """Read query id -> text from a queries file (path, bytes or upload).

    Raises ``InputError`` for anything it cannot read whole. Repeated ids (the first text is
    kept) and queries without text are set aside and counted in the summary, with lines.
    ``name``, ``format`` (one of `QUERY_FORMATS`), ``columns`` and ``max_bytes`` are the
    readers' `ReadOptions`.
    """
    name, format, columns, max_bytes = read_options(options, "read_queries")
    if format not in QUERY_FORMATS:
        raise InputError(name or str(source), f"unknown queries format {format!r}",
                         hint=f"use one of {', '.join(QUERY_FORMATS)}")
    loaded = load(source, name=name, max_bytes=max_bytes)
    with as_input_errors(loaded.name):
        rows = _read_rows(loaded, format, columns)
        texts, descriptions, set_aside = _collect(loaded.name, rows)
        notes: list[str] = []
        queries = QueryTexts(texts, descriptions)
        if queries_in_runs is not None:
            notes += queries.coverage(queries_in_runs).notes()
        summary = ReadSummary(loaded.name, rows.format, len(texts), len(texts), None,
                              compressed=loaded.compressed, columns=rows.columns,
                              set_aside=tuple(set_aside), notes=tuple(rows.notes + notes))
        return QueriesRead(queries, summary)


def _read_rows(loaded: Loaded, format: str, columns: Mapping[str, str] | None) -> _Rows:
    if format == "parquet" or loaded.head.startswith(b"PAR1"):
        return _table_rows(loaded, Sniff("parquet"), columns)
    detected = sniff(loaded, "auto" if format == TOPIC_FORMAT else format)
    head = loaded.head.decode("utf-8", errors="replace")
    if format == TOPIC_FORMAT or (format == "auto" and looks_like_topics(head)):
        return _topic_rows(loaded)
    if detected.format == "jsonl":
        return _table_rows(loaded, detected, columns)
    first = detected.first_line
    tab = "\t" in first
    fields = first.split("\t") if tab else first.split(",")
    names = tuple(f.strip().strip('"').strip() for f in fields)
    if tab and detected.header is not None and \
            not any(normalise(name) in all_aliases(QUERY_ALIASES) for name in names):
        # sniff's guess (text above numbers) is not enough here: a query's text may be a number
        detected = Sniff("unknown", first_line=first)
    if detected.header is None and is_text_header(fields, QUERY_ALIASES, "query_id"):
        detected = Sniff("tsv" if tab else "csv", "\t" if tab else ",", names, len(fields),
                         first)
    if (detected.header is not None and detected.format in ("csv", "tsv")) or format == "csv":
        return _table_rows(loaded, detected, columns)
    if tab or format == "tsv":
        return _tsv_rows(loaded)
    raise InputError(
        loaded.name, f"is not a recognised queries format (first line: {first[:60]!r})",
        hint="write 'id<TAB>text' per line (MS MARCO), a TREC topic file, BEIR queries.jsonl, "
             "or a CSV/TSV with a header naming the query id and text columns")


def _text(loaded: Loaded) -> str:
    raw = bytes(loaded.read_all()).removeprefix(BOM)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as bad:
        raise non_utf8_error(loaded.name, raw, bad.start) from None


def _tsv_rows(loaded: Loaded) -> _Rows:
    """``id<TAB>text`` lines without a header; blank lines skipped."""
    ids, texts, lines = [], [], []
    for number, line in enumerate(_text(loaded).splitlines(), start=1):
        if not line.strip():
            continue
        parts = line.split("\t")
        if len(parts) != 2:
            what = "no tab after the query id" if len(parts) == 1 else \
                f"{len(parts)} tab-separated fields, expected 2"
            raise InputError(loaded.name, f"has {what}", line=number,
                             hint="write one query per line as 'id<TAB>text' (a tab inside "
                                  "the text must be replaced by a space)")
        query = parts[0].strip()
        if not query:
            raise InputError(loaded.name, "query id is empty", line=number,
                             hint="every line needs a query id before the tab")
        ids.append(query)
        texts.append(parts[1].strip())
        lines.append(number)
    if not ids:
        raise InputError(loaded.name, "has no query line", hint="choose a file with data in it")
    return _Rows(ids, texts, [""] * len(ids), lines, "line",
                 {"query_id": "field 1", "text": "field 2"}, "tsv",
                 ["no header: read as 'id<TAB>text' (MS MARCO queries)"])


def _topic_rows(loaded: Loaded) -> _Rows:
    topics = parse_topics(loaded.name, _text(loaded))
    return _Rows([t.id for t in topics], [t.title for t in topics],
                 [t.description for t in topics], [t.line for t in topics], "line",
                 {"query_id": "<num>", "text": "<title>", "description": "<desc>"},
                 TOPIC_FORMAT, [])


def _table_rows(loaded: Loaded, detected: Sniff, columns: Mapping[str, str] | None) -> _Rows:
    table = read_table(loaded, detected, roles=("query_id", "text"),
                       optional=("description",), explicit=columns, what="queries file",
                       aliases=QUERY_ALIASES)
    ids = ids_unified(id_column(loaded.name, table.columns["query_id"], "query id",
                                table.locate))
    query_ids = ids.values.take(pa.array(ids.codes)).to_pylist()
    texts = _strings(table.columns["text"])
    described = table.columns.get("description")
    descriptions = _strings(described) if described is not None else [""] * len(texts)
    empty = [row for row, query in enumerate(query_ids) if not query.strip()]
    if empty:
        raise InputError(loaded.name, "query id is empty",
                         **{table.locate.unit: table.locate(empty[:1])[0]},
                         hint="every row needs a query id")
    lines = table.locate(list(range(len(texts)))) if len(texts) else []
    ignored = [column for column in table.all_names if column not in table.names.values()]
    notes = [f"column(s) not used: {', '.join(ignored)}"] if ignored else []
    return _Rows([q.strip() for q in query_ids], texts, descriptions, lines, table.locate.unit,
                 dict(table.names), detected.format, notes)


def _strings(column: pa.ChunkedArray) -> list[str]:
    text = pc.cast(column, pa.string()) if not pa.types.is_string(column.type) else column
    return [" ".join(value.split()) if value is not None else ""
            for value in text.to_pylist()]


def _collect(name: str, rows: _Rows) -> tuple[dict[str, str], dict[str, str], list[SetAside]]:
    """The first text of every id; repeats and empty texts counted, with their lines."""
    texts: dict[str, str] = {}
    descriptions: dict[str, str] = {}
    repeated_same: list[int] = []
    repeated_other: list[int] = []
    empty: list[int] = []
    for query, text, description, line in zip(rows.ids, rows.texts, rows.descriptions,
                                              rows.lines, strict=True):
        if not text:
            empty.append(line)
        elif query in texts:
            (repeated_same if texts[query] == text else repeated_other).append(line)
        else:
            texts[query] = text
            descriptions[query] = description
    where = "" if rows.unit == "line" else " (rows)"
    set_aside = []
    if empty:
        set_aside.append(SetAside(f"no query text{where}", len(empty),
                                  tuple(empty[:_SHOWN_LINES])))
    if repeated_other:
        set_aside.append(SetAside(f"query id repeated with another text; the first text is "
                                  f"kept{where}", len(repeated_other),
                                  tuple(repeated_other[:_SHOWN_LINES])))
    if repeated_same:
        set_aside.append(SetAside(f"query id repeated with the same text{where}",
                                  len(repeated_same), tuple(repeated_same[:_SHOWN_LINES])))
    if not texts:
        raise InputError(name, "no query has a text", hint="fill in the query texts")
    return texts, descriptions, set_aside


__all__ = ["QUERY_FORMATS", "QueriesRead", "QueryCoverage", "QueryTexts", "read_queries"]

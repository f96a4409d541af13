"""Files in, typed tables out: runs, judgements, per-query metric tables and segment maps.

- ``read_run(source, *, name, format, columns, max_bytes, unique_docs, keep_ranks)``
  -> ``RunRead(run, summary)``
- ``read_qrels(source, *, name, format, columns, max_bytes, grades)``
  -> ``QrelsRead(qrels, summary)`` (fractional grades kept, refused or truncated: ``grades``)
- ``read_per_query(source, *, name, format, columns, run, metrics, max_bytes)``
  -> ``PerQueryRead(metrics: dict[str, MetricResult], summary)``
- ``read_segments(source, *, name, format, column, columns, max_bytes)``
  -> ``SegmentsRead(segments: SegmentMap, summary)``
- ``read_queries(source, *, name, format, columns, max_bytes, queries_in_runs)``
  -> ``QueriesRead(queries: QueryTexts, summary)`` (MS MARCO TSV, TREC topics, BEIR JSONL, ...)
- ``read_documents(source, *, name, format, columns)`` -> ``DocumentCollection``, indexed in
  one streaming pass; ``.lookup(ids)`` -> ``{id: Document(id, title, text, url)}``

``source`` is a path, bytes or an upload (anything with ``getvalue()`` or ``read()``). The
format is detected from the content (TREC run/qrels, trec_eval -q output, CSV/TSV with a
header, Parquet, JSONL; gzip by its magic bytes); ``format=`` overrides. Anything that cannot
be read whole is an ``InputError`` naming the source, the line, the problem and the fix.
``name``, ``format``, ``columns`` and ``max_bytes`` are every reader's keywords, declared once as
``ReadOptions``. ``InputFile`` is the one input-file type (role, name, bytes, sha256 computed
once).
"""

from typing import TYPE_CHECKING

from ranklens._lazy import lazy_names
from ranklens.io.errors import InputError

if TYPE_CHECKING:
    from ranklens.io.detect import FORMATS
    from ranklens.io.doc_text import Document
    from ranklens.io.documents import DocumentCollection, read_documents
    from ranklens.io.input_file import InputFile, sha256_hex
    from ranklens.io.judge_confidence import read_judge_confidence
    from ranklens.io.per_query import PerQueryRead, read_per_query
    from ranklens.io.queries import QueriesRead, QueryTexts, read_queries
    from ranklens.io.runs import QrelsRead, RunRead, read_qrels, read_run
    from ranklens.io.segments import SegmentMap, SegmentsRead, read_segments
    from ranklens.io.source import ReadOptions
    from ranklens.io.summary import ReadSummary, SetAside

# each name loads its module on first use: reading a TREC run should not import the
# per-query and segment readers (and pandas behind them)
_HOMES = {
    "FORMATS": ".detect", "InputFile": ".input_file", "sha256_hex": ".input_file",
    "PerQueryRead": ".per_query", "read_per_query": ".per_query", "QrelsRead": ".runs",
    "RunRead": ".runs", "read_qrels": ".runs", "read_run": ".runs", "SegmentMap": ".segments",
    "SegmentsRead": ".segments", "read_segments": ".segments", "ReadSummary": ".summary",
    "SetAside": ".summary", "Document": ".doc_text", "DocumentCollection": ".documents",
    "read_documents": ".documents", "QueriesRead": ".queries", "QueryTexts": ".queries",
    "read_queries": ".queries", "ReadOptions": ".source",
    "read_judge_confidence": ".judge_confidence",
}
__getattr__, __dir__ = lazy_names(__name__, globals(), _HOMES)


__all__ = [
    "FORMATS",
    "Document",
    "DocumentCollection",
    "InputError",
    "InputFile",
    "PerQueryRead",
    "QrelsRead",
    "QueriesRead",
    "QueryTexts",
    "ReadOptions",
    "ReadSummary",
    "RunRead",
    "SegmentMap",
    "SegmentsRead",
    "SetAside",
    "read_documents",
    "read_judge_confidence",
    "read_per_query",
    "read_qrels",
    "read_queries",
    "read_run",
    "read_segments",
    "sha256_hex",
]

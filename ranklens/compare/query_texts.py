"""Query and document texts beside a comparison: read once, kept bounded in a report, and the
part of a collection a share link keeps.

``read_texts(queries, documents)`` reads an optional queries file (``ranklens.io.read_queries``)
and indexes an optional documents file (``ranklens.io.read_documents``: one streaming pass,
never the collection in memory). ``with_texts(report, texts, runs)`` puts the text of each
query the report compares into it (cut to `QUERY_TEXT_CHARS` characters: the JSON stays
bounded), lists the queries file among its inputs and says in its warnings how many of the
runs' queries have no text. ``shared_documents`` picks the documents a viewer of a link can
open (each run's top `SHARED_DEPTH` of every query, texts cut to `SHARED_TEXT_CHARS`, at most
`SHARED_BYTES` in all) as a small BEIR ``corpus.jsonl.gz``. Nothing here scores or compares.
"""

from __future__ import annotations

import dataclasses
import gzip
import json
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ranklens import io
from ranklens.compare.assemble import input_record
from ranklens.compare.rankings import ranking
from ranklens.compare.report import Report
from ranklens.data import Run
from ranklens.io import Document, DocumentCollection, InputFile, QueryTexts

DOCS_ENV = "RANKLENS_DOCS"
"""A documents collection on the app's server (a path), for collections larger than the upload
limit; set by ``ranklens app --docs PATH``."""
QUERIES_ROLE = "queries"
DOCUMENTS_ROLE = "documents"
TEXT_ROLES = (QUERIES_ROLE, DOCUMENTS_ROLE)
QUERY_TEXT_CHARS = 300
"""A query text kept in a report (JSON, HTML, share link) is cut to this many characters."""
SHARED_DEPTH = 10
SHARED_TEXT_CHARS = 2_000
SHARED_BYTES = 4 * 2**20
"""A share link keeps the documents of each run's top 10 of every query, each text cut to
2,000 characters, at most 4 MiB of them (uncompressed JSON Lines); queries beyond the bound
(the largest |B - A| first are kept) show ids only."""


@dataclass(frozen=True)
class Texts:
    """The texts given with a comparison: query texts and an indexed documents collection
    (either may be None), the files they came from (uploads: what a share link stores; a
    server-side collection is no file of the comparison) and their reading summaries."""

    queries: QueryTexts | None = None
    documents: DocumentCollection | None = None
    files: tuple[InputFile, ...] = ()
    summaries: Mapping[str, io.ReadSummary] = field(default_factory=dict)

    def query_text(self, query_id: str) -> str:
        """The text of ``query_id`` ("" when there is none)."""
        return "" if self.queries is None else self.queries.get(query_id, "")

    def lookup(self, doc_ids: Iterable[str]) -> dict[str, Document]:
        """The documents of ``doc_ids`` the collection holds (empty without one)."""
        return {} if self.documents is None else self.documents.lookup(doc_ids)


def read_texts(queries: InputFile | str | Path | None = None,
               documents: InputFile | str | Path | DocumentCollection | None = None, *,
               query_ids: Iterable[str] | None = None) -> Texts:
    """Read a queries file and index a documents file (a path is streamed, never read whole;
    an already indexed collection is used as it is). ``query_ids`` (the runs' queries) adds
    to the queries' summary how many ids are in no run and how many run queries lack a text.
    ``InputError`` naming the file, the line and the fix for a file that cannot be read."""
    files: list[InputFile] = []
    summaries: dict[str, io.ReadSummary] = {}
    texts = None
    if queries is not None:
        file = _as_file(QUERIES_ROLE, queries)
        read = io.read_queries(file.data, name=file.name,
                               queries_in_runs=None if query_ids is None else list(query_ids))
        texts, summaries[QUERIES_ROLE] = read.queries, read.summary
        files.append(file)
    collection = None
    if isinstance(documents, DocumentCollection):
        collection = documents
    elif isinstance(documents, InputFile):
        collection = io.read_documents(documents.data, name=documents.name)
        files.append(documents)
    elif documents is not None:
        collection = io.read_documents(os.fspath(documents), name=Path(documents).name)
    if collection is not None:
        summaries[DOCUMENTS_ROLE] = collection.summary
    return Texts(texts, collection, tuple(files), summaries)


def _as_file(role: str, given: InputFile | str | Path) -> InputFile:
    if isinstance(given, InputFile):
        return given if given.role == role else InputFile.with_digest(
            role, given.name, given.data, given.sha256)
    return InputFile.from_path(role, given)


def run_queries(runs: Sequence[Run | None]) -> list[str]:
    """Every query id any of ``runs`` ranks, in first-seen order."""
    seen: dict[str, None] = {}
    for run in runs:
        if run is not None:
            seen.update(dict.fromkeys(run.queries.to_pylist()))
    return list(seen)


def short(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters at most, an ellipsis marking the cut."""
    return text if len(text) <= limit else text[:limit - 1].rstrip() + "\u2026"


def with_texts(report: Report, texts: Texts) -> Report:
    """``report`` with the text of every query it compares (cut to `QUERY_TEXT_CHARS`), the
    queries file among its inputs and, when some compared queries have no text, a warning
    saying how many. The same report when no queries file was given."""
    if texts.queries is None:
        return report
    compared: dict[str, None] = {}
    for values in report.per_query.values():
        for per_run in values.values():
            compared.update(dict.fromkeys(per_run))
    kept = {q: short(texts.queries[q], QUERY_TEXT_CHARS) for q in compared if q in texts.queries}
    file = next(f for f in texts.files if f.role == QUERIES_ROLE)
    record = input_record(file, texts.summaries.get(QUERIES_ROLE))
    missing = len(compared) - len(kept)
    warnings = report.warnings
    if missing:
        warnings = (*warnings, f"{missing:,} of the {len(compared):,} compared queries have no "
                    f"text in {file.name}: they are shown by id only.")
    inputs = (*(r for r in report.inputs if r.role != QUERIES_ROLE), record)
    return dataclasses.replace(report, query_texts=kept, inputs=inputs, warnings=warnings)


def shared_documents(texts: Texts, runs: Sequence[Run], query_order: Sequence[str], *,
                     order: str = "score", depth: int = SHARED_DEPTH,
                     text_chars: int = SHARED_TEXT_CHARS,
                     max_bytes: int = SHARED_BYTES) -> InputFile | None:
    """The documents a viewer of a share link can open, as a BEIR ``corpus.jsonl.gz`` input
    (role ``documents``): for each query of ``query_order`` in turn (the page passes the
    largest |B - A| first), the top ``depth`` of every run, texts cut to ``text_chars``, until
    ``max_bytes`` of JSON Lines. None without a collection."""
    if texts.documents is None:
        return None
    lines: list[bytes] = []
    seen: set[str] = set()
    size = 0
    for query in query_order:
        wanted = [doc for run in runs for doc, _ in ranking(run, query, order=order)[:depth]
                  if doc not in seen]
        found = texts.documents.lookup(wanted)
        batch = [json.dumps({"_id": d.id, "title": d.title,
                             "text": short(d.text, text_chars)}, ensure_ascii=False)
                 .encode("utf-8") + b"\n" for d in found.values()]
        grown = size + sum(map(len, batch))
        if grown > max_bytes:
            break
        lines.extend(batch)
        seen.update(found)
        size = grown
    if not lines:
        return None
    data = gzip.compress(b"".join(lines), compresslevel=6, mtime=0)
    return InputFile(DOCUMENTS_ROLE, "shared-documents.jsonl.gz", data)


__all__ = ["DOCS_ENV", "DOCUMENTS_ROLE", "QUERIES_ROLE", "QUERY_TEXT_CHARS", "SHARED_BYTES",
           "SHARED_DEPTH", "SHARED_TEXT_CHARS", "TEXT_ROLES", "Texts", "read_texts", "run_queries",
           "shared_documents", "short", "with_texts"]

"""The Compare page's query and document texts: where they come from and what they add.

Sources, in order: the files of a shared link; the optional uploads (a queries file, a
documents file); the bundled demo's ``queries.tsv`` and ``documents.jsonl.gz``; and, for
documents, a server-side collection set by whoever runs the app (``RANKLENS_DOCS`` or
``ranklens app --docs PATH``): indexed once per server process in one streaming pass (16 bytes
a document), each lookup reading only the documents shown, so collections larger than the
upload limit work. The texts are read once per digest (the app cache); the report gains the
texts, the tie sentence and the moves through ``ranklens.compare.drilldown`` (cached too).
Nothing here computes a statistic.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import streamlit as st

from ranklens.app import markup
from ranklens.app import state as app_state
from ranklens.compare.analysis import CompareSettings, LoadedInputs
from ranklens.compare.drilldown import with_drilldown
from ranklens.compare.query_texts import (
    DOCS_ENV,
    DOCUMENTS_ROLE,
    QUERIES_ROLE,
    SHARED_BYTES,
    SHARED_DEPTH,
    SHARED_TEXT_CHARS,
    TEXT_ROLES,
    Texts,
    read_texts,
    run_queries,
    shared_documents,
)
from ranklens.compare.report import Report
from ranklens.io import DocumentCollection, InputError, InputFile, read_documents

QUERIES_HELP = ("Query texts, shown beside the ids: TSV id<TAB>text (MS MARCO, TREC DL), TREC "
                "topic files, BEIR queries.jsonl, or a CSV/TSV/Parquet/JSONL table with an id "
                "and a text column; gzip too.")
DOCUMENTS_HELP = ("Document texts, shown in the rankings: TSV id<TAB>text or "
                  "id<TAB>url<TAB>title<TAB>body (MS MARCO), BEIR corpus.jsonl, or a table "
                  "with id, title and text; gzip too. Only the documents shown are read.")


def uploaders() -> dict[str, Any]:
    """Inside the uploads form: the two optional text files, by role."""
    server = os.environ.get(DOCS_ENV)
    documents_help = DOCUMENTS_HELP + (
        f" Without one, this server's collection ({Path(server).name}) is used." if server
        else "")
    return {
        QUERIES_ROLE: st.file_uploader("Queries (optional)", key="upload_queries",
                                       help=QUERIES_HELP),
        DOCUMENTS_ROLE: st.file_uploader("Documents (optional)", key="upload_documents",
                                         help=documents_help),
    }


def demo_files() -> dict[str, InputFile]:
    """The demo's query and document texts by role (read and hashed once per process)."""
    return dict(_demo_files())


@st.cache_resource(show_spinner=False)
def _demo_files() -> dict[str, InputFile]:
    from ranklens import demo

    files = {role: InputFile.from_path(role, path) for role, path in demo.text_paths().items()}
    for file in files.values():
        _ = file.sha256
    return files


def split_files(files: dict[str, InputFile]) -> tuple[dict[str, InputFile], dict[str, InputFile]]:
    """The comparison's files and the text files, apart (the texts change no number)."""
    texts = {role: files[role] for role in TEXT_ROLES if role in files}
    return {role: f for role, f in files.items() if role not in TEXT_ROLES}, texts


@st.cache_resource(show_spinner="Indexing the server's documents collection (one pass)…")
def _server_collection(path: str) -> DocumentCollection:
    return read_documents(path, name=Path(path).name)


def server_collection() -> DocumentCollection | None:
    """The server-side collection of ``RANKLENS_DOCS`` (indexed once per process), or None."""
    path = os.environ.get(DOCS_ENV)
    return _server_collection(path) if path else None


def loaded_texts(files: Mapping[str, InputFile], inputs: LoadedInputs, *,
                 server: bool = True) -> Texts | None:
    """The texts of ``files`` (the server collection for documents when none is given and
    ``server``), read once per digest; None when there are none. A file that cannot be read
    is said in words and left out: the comparison does not depend on it."""
    documents: InputFile | DocumentCollection | None = files.get(DOCUMENTS_ROLE)
    try:
        if documents is None and server:
            documents = server_collection()
    except InputError as error:
        st.error(f"**The server's documents collection cannot be read.** "
                 f"{markup.text(error)} Tell whoever runs this app.", icon=":material/error:")
        documents = None
    queries = files.get(QUERIES_ROLE)
    if queries is None and documents is None:
        return None
    key = ("texts", app_state.input_key(files.values()),
           id(documents) if isinstance(documents, DocumentCollection) else None)
    def read() -> Texts:
        for upload in (queries, documents):  # uploads: no bomb reaches the readers
            if isinstance(upload, InputFile):
                upload.check_limits(app_state.upload_limit_bytes())
        return read_texts(queries, documents, query_ids=run_queries(inputs.runs))

    try:
        return app_state.once(key, read)
    except InputError as error:
        st.error(f"**This text file cannot be read.** {markup.text(error)}",
                 icon=":material/error:")
        st.caption("The comparison below is shown without texts. Replace the file in the "
                   "sidebar and press **Compare** again.")
        return None


def drilldown_report(report: Report, inputs: LoadedInputs, settings: CompareSettings,
                     texts: Texts | None) -> Report:
    """``report`` with the texts, the tie sentence and the moves (computed once per inputs,
    settings and texts)."""
    text_key = () if texts is None else (app_state.input_key(texts.files), len(texts.summaries))
    key = ("drilldown", (app_state.input_key(inputs.files), repr(settings), text_key))
    return app_state.once(key, lambda: with_drilldown(report, inputs, settings, texts))


def share_files(texts: Texts | None, inputs: LoadedInputs, report: Report
                ) -> tuple[InputFile, ...]:
    """What a share link keeps of the texts: the queries file as given and, of the documents,
    those a viewer can open (each run's top 10 of every query, largest |B − A| first, each
    text cut to 2,000 characters, 4 MiB at most)."""
    if texts is None:
        return ()
    kept = [f for f in texts.files if f.role == QUERIES_ROLE]
    runs = [run for run in inputs.runs if run is not None]
    if texts.documents is not None and runs and report.metrics:
        metric = report.metrics[0]
        values = report.per_query.get(metric, {})
        a, b = values.get("a", {}), values.get("b", {})
        order = sorted(a, key=lambda q: (-abs(b.get(q, 0.0) - a[q]), q))
        key = ("shared-documents", app_state.input_key(texts.files),
               app_state.input_key(inputs.files), metric)
        (documents,) = app_state.once(key, lambda: (shared_documents(  # the cache keeps no None
            texts, runs, order, order=str(report.params.get("order", "score"))),))
        if documents:
            kept.append(documents)
    return tuple(kept)


SHARE_NOTE = (f"A share link keeps the queries file and, of the documents, each run's top "
              f"{SHARED_DEPTH} of every query (texts cut to {SHARED_TEXT_CHARS:,} characters, "
              f"{SHARED_BYTES // 2**20} MiB at most).")

__all__ = ["DOCS_ENV", "SHARE_NOTE", "demo_files", "drilldown_report", "loaded_texts",
           "server_collection", "share_files", "split_files", "uploaders"]

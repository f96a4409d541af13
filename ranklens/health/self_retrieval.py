"""Self-retrieval: documents whose id is the query's own id.

In collections whose queries are documents too (BEIR's ArguAna and Quora), a run retrieves the
query itself, usually at rank 1, and the judgements never mark it relevant: the run loses a
top slot on every such query (allenai/ir_datasets#219). BEIR drops these documents before
scoring. Answers "how many rows and queries of this run retrieve themselves, how many at the
top", and builds the run without them for the option that drops them (off by default).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ranklens.data import Run
from ranklens.health.result import HealthCheck
from ranklens.metrics.arrow import take

TITLE = "Self-retrieval"
EXAMPLES = 3


@dataclass(frozen=True)
class SelfRetrieval:
    """Rows of a run whose document id equals the query id, the queries they are in, how many
    of them are the query's top document, and a few query ids that do it."""

    rows: int
    queries: int
    at_top: int
    examples: tuple[str, ...] = ()


def self_hits(run: Run) -> np.ndarray:
    """Boolean mask of ``run``'s rows whose document id is the row's query id."""
    mask = np.zeros(len(run), dtype=bool)
    if not len(run):
        return mask
    # dictionary entries that are some query's id: only ids as long as a query id can be one
    # (a length test over the offsets, then a lookup of those few against the queries)
    lengths = _lengths(run.docs)
    maybe = np.flatnonzero(np.isin(lengths, np.unique(_lengths(run.queries))))
    if not len(maybe):
        return mask
    found = pc.is_in(take(run.docs, maybe), value_set=run.queries)
    entries = maybe[_true(found)]
    if not len(entries):
        return mask
    rows = np.flatnonzero(np.isin(run.doc_codes, entries))
    same = pc.equal(pc.cast(take(run.docs, run.doc_codes[rows]), pa.string()),
                    pc.cast(take(run.queries, run.query_codes[rows]), pa.string()))
    mask[rows[_true(same)]] = True
    return mask


def _lengths(ids: pa.Array) -> np.ndarray:
    """Byte length of each id, from the string offsets (no copy of the text)."""
    width = np.int64 if pa.types.is_large_string(ids.type) else np.int32
    offsets = np.frombuffer(ids.buffers()[1], dtype=width, count=len(ids) + 1,
                            offset=ids.offset * np.dtype(width).itemsize)
    return np.diff(offsets)


def _true(flags: pa.Array) -> np.ndarray:
    """Positions where a boolean arrow array is true (nulls count as false)."""
    return np.asarray(pc.indices_nonzero(pc.fill_null(flags, False)).to_pylist(),
                      dtype=np.int64)


def self_retrieval(run: Run) -> SelfRetrieval:
    """Count ``run``'s self-retrieved rows; "at the top" is the query's highest score."""
    mask = self_hits(run)
    rows = np.flatnonzero(mask)
    if not len(rows):
        return SelfRetrieval(0, 0, 0)
    best = np.full(len(run.queries), -np.inf)
    np.maximum.at(best, run.query_codes, run.scores)
    at_top = int(np.count_nonzero(run.scores[rows] >= best[run.query_codes[rows]]))
    codes = np.unique(run.query_codes[rows])
    examples = tuple(take(run.queries, codes[:EXAMPLES]).to_pylist())
    return SelfRetrieval(len(rows), len(codes), at_top, examples)


def without_self_retrieval(run: Run) -> Run:
    """``run`` without the rows whose document is the query itself (as BEIR scores)."""
    keep = ~self_hits(run)
    if keep.all():
        return run
    return Run(run.query_codes[keep], run.queries, run.doc_codes[keep], run.docs,
               scores=run.scores[keep], ranks=None if run.ranks is None else run.ranks[keep],
               name=run.name)


def self_retrieval_check(index: int, name: str, found: SelfRetrieval,
                         dropped: bool) -> HealthCheck:
    """The check of run ``index``: a warning when it retrieves queries as their own documents
    and they were kept; passed (saying what changed) when they were dropped."""
    numbers = {"rows": found.rows, "queries": found.queries, "at_top": found.at_top}
    examples = tuple(f"query {q} retrieves document {q}" for q in found.examples)
    if not found.rows:
        return HealthCheck("self-retrieval", TITLE, "passed",
                           f"{name} retrieves no query as its own document.", "", name,
                           (index,), numbers)
    queries = f"{found.queries:,} quer{'y' if found.queries == 1 else 'ies'}"
    counted = (f"{name} retrieves the query itself as a document on {queries} "
               f"({found.rows:,} row{'' if found.rows == 1 else 's'}, {found.at_top:,} at the "
               "top)")
    if dropped:
        return HealthCheck(
            "self-retrieval", TITLE, "passed",
            f"{counted}: dropped before scoring, as BEIR does, so the documents ranked under "
            f"them move up one place and those {queries} score without them.",
            "", name, (index,), numbers, examples)
    return HealthCheck(
        "self-retrieval", TITLE, "warning",
        f"{counted}. The judgements do not mark them relevant, so each costs the run a slot "
        "it filled with the query.",
        "If the collection holds the queries themselves (BEIR's ArguAna, Quora), drop them "
        "before scoring as BEIR does: --drop-self-retrieval (CLI), "
        "drop_self_retrieval=True (library) or \"Drop self-retrieved documents\" (page).",
        name, (index,), numbers, examples)

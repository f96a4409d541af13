"""Scoring a stream of Arrow batches that hold whole queries, with the local engine's kernels.

This is the code that runs inside Spark's Python workers (``mapInArrow``), but it knows
nothing of Spark: it takes an iterator of ``pyarrow.RecordBatch`` whose rows are grouped by
query (run rows and qrels rows of one query next to each other, as ``repartition`` +
``sortWithinPartitions`` deliver them) and yields one row per (run, query) with the query's
status and metric values.

Batches are gathered until at least ``chunk_rows`` rows are buffered; every query that is
complete by then is scored at once by ``ranklens.metrics.score_queries`` (one call for
thousands of queries, no Python call per query), and the rows of the last query, which may
continue in the next batch, are carried over. Memory is therefore bounded by ``chunk_rows``
plus the largest query, never by the partition or the run.

Input columns: ``query_id`` (string), ``doc_id`` (string), ``value`` (double: the score of
a run row, the grade of a qrels row) and ``side`` (int: 0 for qrels, ``r + 1`` for run ``r``).

Bad rows are refused with a ``ValueError`` whose text says what is wrong in words and carries
a machine-readable tag (``problem_tag``) that the driver turns into an ``InputError`` naming
the file and example rows.
"""

from __future__ import annotations

import base64
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ranklens.data.tables import Qrels, Run, duplicate_rows
from ranklens.errors import RanklensError
from ranklens.metrics.arrow import arrow_indices, integers, take
from ranklens.metrics.evaluate import EMPTY_RANKING, score_queries
from ranklens.metrics.names import MetricSpec

QRELS_SIDE = 0
STATUSES = ("scored", "ignored", "missing")
"""``scored``: in the run and judged; ``ignored``: in the run, not judged (never scored, as
trec_eval); ``missing``: judged, not in the run (0 with ``missing="zero"``, else no value)."""
_TAG = re.compile(r"\[ranklens-problem:([A-Za-z0-9+/=]+)\]")


class ScoringProblem(RanklensError, ValueError):
    """A bad row met by a Spark worker; its text carries the tag ``problem_of`` reads, because
    Spark hands the driver the worker's error as text, not as this class."""


@dataclass(frozen=True)
class ScoringPlan:
    """What to compute on each chunk: metrics, how many runs, names for messages, policy.

    ``sources[0]`` names the qrels and ``sources[r + 1]`` run ``r`` (file paths or table
    names, used in error messages). ``missing`` is ``"drop"`` or ``"zero"`` (a missing query
    then scores what an empty ranking scores, as ``evaluate`` gives it); ``judged_only`` is
    trec_eval's ``-J``.
    """

    specs: tuple[MetricSpec, ...]
    sources: tuple[str, ...]
    missing: str = "drop"
    chunk_rows: int = 1 << 18
    judged_only: bool = False

    @property
    def n_runs(self) -> int:
        return len(self.sources) - 1

    @property
    def metric_names(self) -> tuple[str, ...]:
        return tuple(spec.name for spec in self.specs)

    def output_schema(self) -> pa.Schema:
        """Arrow schema of the scored rows (the Spark schema is derived from it)."""
        fields = [pa.field("run", pa.int32(), nullable=False),
                  pa.field("query_id", pa.string(), nullable=False),
                  pa.field("status", pa.string(), nullable=False),
                  pa.field("rows", pa.int64(), nullable=False),
                  pa.field("judged", pa.int64(), nullable=False)]
        fields += [pa.field(name, pa.float64()) for name in self.metric_names]
        return pa.schema(fields)


def score_batches(batches: Iterator[pa.RecordBatch], plan: ScoringPlan
                  ) -> Iterator[pa.RecordBatch]:
    """Score every query in ``batches`` (grouped by query), ``chunk_rows`` rows at a time."""
    buffered: list[pa.RecordBatch] = []
    rows = 0
    for batch in batches:
        if not batch.num_rows:
            continue
        buffered.append(batch)
        rows += batch.num_rows
        if rows < plan.chunk_rows:
            continue
        table = pa.Table.from_batches(buffered)
        last = table.column("query_id")[-1]
        cut = pc.index(table.column("query_id"), last).as_py()  # the last query's first row
        if cut == 0:  # one query fills the buffer: wait for its end
            continue
        yield from score_chunk(table.slice(0, cut), plan)
        buffered = table.slice(cut).to_batches()
        rows = table.num_rows - cut
    if buffered:
        yield from score_chunk(pa.Table.from_batches(buffered), plan)


def score_chunk(table: pa.Table, plan: ScoringPlan) -> list[pa.RecordBatch]:
    """Scored rows for every query of ``table`` (whole queries only): a batch per run."""
    queries = _strings(table.column("query_id"))
    sides = np.asarray(integers(_single(table.column("side"))), dtype=np.int64)
    values_column = _single(table.column("value"))
    docs = _strings(table.column("doc_id"))
    encoded = pc.dictionary_encode(queries)
    query_codes = np.asarray(integers(encoded.indices), dtype=np.int32)
    query_ids = encoded.dictionary
    n_queries = len(query_ids)
    values = _check_values(values_column, docs, query_codes, query_ids, sides, plan)

    on_qrels = sides == QRELS_SIDE
    judged = np.bincount(query_codes[on_qrels], minlength=n_queries)
    qrels_docs, qrels_doc_ids = _encode(take(docs, np.flatnonzero(on_qrels)))
    qrels = Qrels(query_codes[on_qrels], query_ids, qrels_docs, qrels_doc_ids,
                  relevance=values[on_qrels].astype(np.int64), name=plan.sources[0])
    _check_unique(qrels, QRELS_SIDE, plan)
    parts = []
    for r in range(plan.n_runs):
        mine = sides == r + 1
        ranked = np.bincount(query_codes[mine], minlength=n_queries)
        present = (ranked > 0) | (judged > 0)
        if not present.any():
            continue
        run_docs, run_doc_ids = _encode(take(docs, np.flatnonzero(mine)))
        run = Run(query_codes[mine], query_ids, run_docs, run_doc_ids, scores=values[mine],
                  name=plan.sources[r + 1])
        _check_unique(run, r + 1, plan)
        status = np.where(ranked == 0, 2, np.where(judged == 0, 1, 0))
        metrics = _metric_columns(run, qrels, status, plan)
        rows_of = np.flatnonzero(present)
        parts.append(pa.RecordBatch.from_arrays(
            [arrow_indices(np.full(len(rows_of), r, dtype=np.int32)),
             take(query_ids, rows_of),
             take(pa.array(STATUSES), status[rows_of]),
             arrow_indices(ranked[rows_of].astype(np.int64)),
             arrow_indices(judged[rows_of].astype(np.int64)),
             *(_doubles(column[rows_of]) for column in metrics)],
            schema=plan.output_schema()))
    return parts


def _metric_columns(run: Run, qrels: Qrels, status: np.ndarray, plan: ScoringPlan
                    ) -> list[np.ndarray]:
    """One float64 column per metric over all chunk queries: NaN where there is no value."""
    n_queries = len(status)
    scored = status == 0
    columns = []
    for spec in plan.specs:
        column = np.full(n_queries, np.nan)
        if plan.missing == "zero":
            column[status == 2] = EMPTY_RANKING.get(spec.family, 0.0)
        columns.append(column)
    if scored.any():
        scores = score_queries(run, qrels, list(plan.specs), judged_only=plan.judged_only)
        rows = np.flatnonzero(scored)  # the join lists evaluated queries in code order
        for column, spec in zip(columns, plan.specs, strict=True):
            column[rows] = scores.values[spec.name]
    return columns


def _doubles(values: np.ndarray) -> pa.Array:
    """float64 arrow array with nulls where ``values`` is NaN (no value, not a number)."""
    missing = np.isnan(values)
    validity = pa.py_buffer(np.packbits(~missing, bitorder="little")) if missing.any() else None
    return pa.Array.from_buffers(pa.float64(), len(values),
                                 [validity, pa.py_buffer(np.ascontiguousarray(values))],
                                 null_count=int(missing.sum()))


def _single(column: pa.ChunkedArray) -> pa.Array:
    return column.combine_chunks() if column.num_chunks != 1 else column.chunk(0)


def _strings(column: pa.ChunkedArray) -> pa.Array:
    array = _single(column)
    if not pa.types.is_string(array.type):
        array = pc.cast(array, pa.string())
    return array


def _encode(values: pa.Array) -> tuple[np.ndarray, pa.Array]:
    encoded = pc.dictionary_encode(values)
    return np.asarray(integers(encoded.indices), dtype=np.int32), encoded.dictionary


# ---- checks ---------------------------------------------------------------------------------

def _check_values(values: pa.Array, docs: pa.Array, query_codes: np.ndarray,
                  query_ids: pa.Array, sides: np.ndarray, plan: ScoringPlan) -> np.ndarray:
    """Scores and grades as float64; a missing id or value, a non-finite score or a fractional
    grade (the Spark engine reads integer grades only) raises."""
    for what, column in (("query id", None), ("document id", docs), ("value", values)):
        if column is not None and column.null_count:
            row = int(np.flatnonzero(np.asarray(pc.is_null(column)))[0])
            side = int(sides[row])
            kind = "document id" if what == "document id" else (
                "score" if side != QRELS_SIDE else "relevance")
            raise_problem(plan, side, "missing", query_ids[int(query_codes[row])].as_py(),
                          None if what == "document id" else docs[row].as_py(), kind)
    numbers = np.asarray(values.to_numpy(zero_copy_only=False), dtype=np.float64)
    bad = np.flatnonzero(~np.isfinite(numbers))
    if len(bad):
        row = int(bad[0])
        raise_problem(plan, int(sides[row]), "not_finite",
                      query_ids[int(query_codes[row])].as_py(), docs[row].as_py(),
                      "score", value=float(numbers[row]))
    grades = numbers[sides == QRELS_SIDE]
    fractional = np.flatnonzero(grades != np.round(grades))
    if len(fractional):  # never truncated: refused, naming the row
        row = int(np.flatnonzero(sides == QRELS_SIDE)[fractional[0]])
        raise_problem(plan, QRELS_SIDE, "fractional", query_ids[int(query_codes[row])].as_py(),
                      docs[row].as_py(), "relevance", value=float(numbers[row]))
    return numbers


def _check_unique(table: Run | Qrels, side: int, plan: ScoringPlan) -> None:
    repeated = duplicate_rows(table.query_codes, table.doc_codes, len(table.docs))
    if len(repeated):
        row = int(repeated[0])
        raise_problem(plan, side, "duplicate",
                      table.queries[int(table.query_codes[row])].as_py(),
                      table.docs[int(table.doc_codes[row])].as_py(), "document")


# ---- problems: words for people, a tag for the driver ------------------------------------------

def raise_problem(plan: ScoringPlan, side: int, kind: str, query: str | None,
                  doc: str | None, what: str, *, value: float | None = None) -> None:
    """Raise the ``ScoringProblem`` (a ``ValueError``) for a bad row: readable text plus a tag
    that ``problem_of`` reads."""
    source = plan.sources[side]
    where = f"query {query!r}" + (f", document {doc!r}" if doc is not None else "")
    if kind == "duplicate":
        text = f"{source}: query {query!r} lists document {doc!r} more than once"
    elif kind == "not_finite":
        text = f"{source}: {where}: score {value!r} is not a finite number"
    elif kind == "fractional":
        text = f"{source}: {where}: relevance {value!r} is fractional"
    else:
        text = f"{source}: {where}: {what} is missing or not a valid value"
    payload = {"side": side, "kind": kind, "query": query, "doc": doc, "what": what,
               "value": None if value is None else repr(value), "source": source}
    tag = base64.b64encode(json.dumps(payload).encode()).decode()
    raise ScoringProblem(f"{text} [ranklens-problem:{tag}]")


def problem_of(error: BaseException) -> dict[str, Any] | None:
    """The problem a worker raised with ``raise_problem``, read from any error's text."""
    match = _TAG.search(str(error))
    if match is None:
        return None
    found: dict[str, Any] = json.loads(base64.b64decode(match.group(1)))
    return found

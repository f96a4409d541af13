"""Typed, columnar tables of rankings (``Run``) and judgements (``Qrels``).

Ids are strings, always (``"007"`` stays ``"007"``). In ``Run`` and ``Qrels`` they are stored
dictionary-encoded: a row holds an int32 code into a table of unique ids. A 7M-row run then
costs 4 bytes a row per id column instead of a Python object each, and every metric groups and
joins on integers.

One exception, for speed: in a ``Run`` read by ``ranklens.io.read_run`` the document ids are
not deduplicated (a TREC run's ``run.docs`` holds one string per row, a table's the reader's
per-block dictionaries), so ``run.docs`` may hold the same id more than once. Equal codes still
mean equal ids; equal ids need not mean equal codes, so match run documents by id
(``pc.index_in(run.docs, qrels.docs)``, or the keys of ``ranklens.data.id_keys``) rather than
by code across queries. ``ranklens.io`` has already checked that no (query, document) pair
repeats; ``read_run(..., unique_docs=True)`` gives one entry per id. Queries and ``Qrels``
documents are always unique.

These types say nothing about where the data came from (that is ``ranklens.io``) or what it
scores (that is ``ranklens.metrics``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ranklens.data.grades import grade_array, is_fractional

if TYPE_CHECKING:
    import pandas as pd


def encode_ids(values: Any) -> tuple[np.ndarray, pa.Array]:
    """Dictionary-encode ids: (int32 code per row, arrow string array of unique ids).

    Accepts a Python sequence, a numpy array, a pandas Series or an arrow (chunked) array.
    Non-string values are converted to their string form; nulls are an error.
    """
    if isinstance(values, pa.ChunkedArray):
        values = values.combine_chunks()
    elif not isinstance(values, pa.Array):
        values = pa.array(values, from_pandas=True)
    if values.null_count:
        raise ValueError(f"{values.null_count} ids are missing (null)")
    if pa.types.is_dictionary(values.type) and not pa.types.is_string(values.type.value_type):
        values = values.dictionary_decode()
    if not pa.types.is_dictionary(values.type):
        if not pa.types.is_string(values.type):
            values = pc.cast(values, pa.string())
        values = pc.dictionary_encode(values)
    dictionary = values.dictionary
    if pa.types.is_large_string(dictionary.type):
        dictionary = pc.cast(dictionary, pa.string())
    codes = values.indices.to_numpy(zero_copy_only=False).astype(np.int32, copy=False)
    return codes, dictionary


def duplicate_rows(query_codes: np.ndarray, doc_codes: np.ndarray, n_docs: int) -> np.ndarray:
    """Row indices of every (query, doc) pair after its first occurrence, in row order.

    Compares codes: equal codes mean equal ids. Callers that can rule out repeats more
    cheaply (every document code used once) check that first; this always sorts.
    """
    key = query_codes.astype(np.int64) * max(n_docs, 1) + doc_codes
    order = np.argsort(key, kind="stable")
    repeated = np.flatnonzero(key[order][1:] == key[order][:-1]) + 1
    return np.sort(order[repeated])


# codes counted at once by count_codes: a chunk's int64 copy stays in the CPU's cache
_COUNT_CHUNK = 1 << 16


def count_codes(codes: np.ndarray, size: int) -> np.ndarray:
    """How many times each of ``0..size-1`` occurs in ``codes`` (``np.bincount`` with
    ``minlength=size``). Codes in runs, each code in one run (a run file's queries), are
    counted by the runs' lengths; others chunk by chunk when the codes are many and the
    counts few: bincount copies its input to int64 first, and a fresh 56 MB copy of 7M codes
    costs more in page faults than the count."""
    n = len(codes)
    if n <= _COUNT_CHUNK or size > _COUNT_CHUNK // 4:
        return np.bincount(codes, minlength=size)
    changes = codes[1:] != codes[:-1]
    if np.count_nonzero(changes) < size:  # few runs of equal codes: one a code (a run file)?
        starts = np.flatnonzero(changes) + 1
        firsts = codes[np.concatenate(([0], starts))]
        ordered = np.sort(firsts)
        if not np.any(ordered[1:] == ordered[:-1]):
            counts = np.zeros(max(size, int(ordered[-1]) + 1), dtype=np.int64)
            counts[firsts] = np.diff(np.concatenate(([0], starts, [n])))
            return counts
    del changes
    counts = np.zeros(max(size, int(codes.max()) + 1), dtype=np.int64)
    for a in range(0, n, _COUNT_CHUNK):
        chunk = np.bincount(codes[a:a + _COUNT_CHUNK])
        counts[:len(chunk)] += chunk
    return counts


@dataclass(frozen=True, eq=False)
class _IdTable:
    query_codes: np.ndarray
    queries: pa.Array
    doc_codes: np.ndarray
    docs: pa.Array
    name: str = field(default="", kw_only=True)
    # values derived from the columns once (``ranklens.data.id_keys.row_keys``); the columns
    # are not to be changed in place
    _memo: dict[str, Any] = field(default_factory=dict, init=False, repr=False, compare=False)

    def __len__(self) -> int:
        return len(self.query_codes)

    def __getstate__(self) -> dict[str, Any]:
        """Pickled without what ``_memo`` derived (it is made again on use)."""
        return {**self.__dict__, "_memo": {}}

    def rows_per_query(self) -> np.ndarray:
        """Rows of each query code (``len(queries)`` counts, 0 for a code no row uses),
        counted once per table."""
        if "rows_per_query" not in self._memo:
            self._memo["rows_per_query"] = count_codes(self.query_codes, len(self.queries))
        counts: np.ndarray = self._memo["rows_per_query"]
        return counts

    @property
    def n_queries(self) -> int:
        """Distinct queries (ids that occur in at least one row)."""
        return int(np.unique(self.query_codes).size) if len(self.query_codes) else 0

    @property
    def n_docs(self) -> int:
        """Distinct document ids that occur in at least one row (by id, not by code)."""
        if not len(self.doc_codes):
            return 0
        present = np.unique(self.doc_codes)
        return int(pc.count_distinct(self.docs.take(pa.array(present))).as_py())

    def query_ids(self) -> list[str]:
        """Sorted ids of the queries that occur in the table."""
        present = np.unique(self.query_codes)
        return sorted(self.queries.take(pa.array(present)).to_pylist())

    def _nested(self, values: np.ndarray) -> dict[str, dict[str, Any]]:
        """``{query_id: {doc_id: value}}`` of one value per row (a score, a relevance)."""
        out: dict[str, dict[str, Any]] = {}
        queries = self.queries.to_pylist()
        docs = self.docs.to_pylist()
        for q, d, v in zip(self.query_codes.tolist(), self.doc_codes.tolist(), values.tolist(),
                           strict=True):
            out.setdefault(queries[q], {})[docs[d]] = v
        return out

    def _id_columns(self) -> dict[str, pa.Array]:
        return {
            "query_id": pa.DictionaryArray.from_arrays(pa.array(self.query_codes), self.queries),
            "doc_id": pa.DictionaryArray.from_arrays(pa.array(self.doc_codes), self.docs),
        }


@dataclass(frozen=True, eq=False)
class Run(_IdTable):
    """A ranking: one row per (query, document) with the system's score.

    ``ranks`` keeps the rank column of a TREC run when there was one; metrics ignore it unless
    asked to order by rank. Ordering within a query is the metric's business, not the table's.
    """

    scores: np.ndarray = field(default_factory=lambda: np.empty(0))
    ranks: np.ndarray | None = None

    @classmethod
    def from_columns(
        cls,
        query_ids: Any,
        doc_ids: Any,
        scores: Any,
        ranks: Any = None,
        *,
        name: str = "run",
    ) -> Run:
        """Build from parallel columns (lists, numpy, pandas or arrow)."""
        query_codes, queries = encode_ids(query_ids)
        doc_codes, docs = encode_ids(doc_ids)
        score_array = np.asarray(scores, dtype=np.float64)
        rank_array = None if ranks is None else np.asarray(ranks, dtype=np.int64)
        if not len(query_codes) == len(doc_codes) == len(score_array):
            raise ValueError("query_ids, doc_ids and scores must have the same length")
        return cls(query_codes, queries, doc_codes, docs, scores=score_array, ranks=rank_array,
                   name=name)

    @classmethod
    def from_dict(cls, run: Mapping[str, Mapping[str, float]], *, name: str = "run") -> Run:
        """Build from ``{query_id: {doc_id: score}}`` (the pytrec_eval shape)."""
        rows = [(q, d, s) for q, docs in run.items() for d, s in docs.items()]
        q, d, s = (list(column) for column in zip(*rows, strict=True)) if rows else ([], [], [])
        return cls.from_columns(q, d, s, name=name)

    @classmethod
    def from_frame(cls, frame: pd.DataFrame, *, name: str = "run") -> Run:
        """Build from a frame with ``query_id``, ``doc_id``, ``score`` (and optional ``rank``)."""
        ranks = frame["rank"] if "rank" in frame.columns else None
        return cls.from_columns(frame["query_id"], frame["doc_id"], frame["score"], ranks,
                                name=name)

    def to_arrow(self) -> pa.Table:
        columns: dict[str, Any] = {**self._id_columns(), "score": pa.array(self.scores)}
        if self.ranks is not None:
            columns["rank"] = pa.array(self.ranks)
        return pa.table(columns)

    def to_frame(self) -> pd.DataFrame:
        """A pandas view with string ids (categoricals) for display and tests."""
        return self.to_arrow().to_pandas()

    def to_dict(self) -> dict[str, dict[str, float]]:
        """``{query_id: {doc_id: score}}``, the shape pytrec_eval takes."""
        return self._nested(self.scores)


@dataclass(frozen=True, eq=False)
class Qrels(_IdTable):
    """Relevance judgements: one row per judged (query, document) with its grade.

    Grades may be negative (trec_eval treats them as non-relevant). ``relevance`` is int64 when
    every grade is whole and float64 when one is fractional (``fractional``; an LLM judge's
    0.73): how each metric reads a fractional grade is ``ranklens.data.grades``.
    """

    relevance: np.ndarray = field(default_factory=lambda: np.empty(0, dtype=np.int64))

    @classmethod
    def from_columns(cls, query_ids: Any, doc_ids: Any, relevance: Any, *,
                     name: str = "qrels") -> Qrels:
        query_codes, queries = encode_ids(query_ids)
        doc_codes, docs = encode_ids(doc_ids)
        rel = grade_array(np.asarray(relevance))
        if not len(query_codes) == len(doc_codes) == len(rel):
            raise ValueError("query_ids, doc_ids and relevance must have the same length")
        return cls(query_codes, queries, doc_codes, docs, relevance=rel, name=name)

    @classmethod
    def from_dict(cls, qrels: Mapping[str, Mapping[str, float]], *, name: str = "qrels"
                  ) -> Qrels:
        """Build from ``{query_id: {doc_id: grade}}`` (the pytrec_eval shape; fractional
        grades kept, ``ranklens.data.grades``)."""
        rows = [(q, d, r) for q, docs in qrels.items() for d, r in docs.items()]
        q, d, r = (list(column) for column in zip(*rows, strict=True)) if rows else ([], [], [])
        return cls.from_columns(q, d, np.asarray(r), name=name)

    @classmethod
    def from_frame(cls, frame: pd.DataFrame, *, name: str = "qrels") -> Qrels:
        return cls.from_columns(frame["query_id"], frame["doc_id"], frame["relevance"], name=name)

    @property
    def fractional(self) -> bool:
        """True when a grade is not whole (``relevance`` is then float64)."""
        return is_fractional(self.relevance)

    def to_arrow(self) -> pa.Table:
        return pa.table({**self._id_columns(), "relevance": pa.array(self.relevance)})

    def to_frame(self) -> pd.DataFrame:
        return self.to_arrow().to_pandas()

    def to_dict(self) -> dict[str, dict[str, Any]]:
        """``{query_id: {doc_id: relevance}}``, the shape pytrec_eval takes (int grades, or
        float ones when ``fractional``)."""
        return self._nested(self.relevance)

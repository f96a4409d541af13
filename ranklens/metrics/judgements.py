"""The qrels side of evaluation: which queries are scored, and what each document is worth.

A run and its qrels carry separate id dictionaries. Queries are matched by id once
(``QueryJoin``); documents are matched by id only for the rows a metric reads
(``Judgements.grades``), with integer keys after that.

trec_eval semantics kept here:

- a query is evaluated when it has rows in the run and judgements in the qrels; queries only in
  the run are ignored; queries only in the qrels are "missing" (scored 0 only on request, like
  ``trec_eval -c``);
- a document absent from the query's qrels is unjudged and counts as non-relevant;
- grades are int64, or float64 when the qrels hold a fractional grade (an LLM judge's 0.73);
  every metric reads them by the rule of ``ranklens.data.grades``;
- a negative grade counts as non-relevant (trec_eval reads it as "in the pool, not judged") and
  adds nothing to the ideal ranking; for Judged@k / Unjudged@k it is unjudged, as in trec_eval.
  Where every grade of a query is <= -2 trec_eval itself crashes; ranklens scores such a query
  0 (nothing relevant).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pyarrow.compute as pc

from ranklens.data import Qrels, Run, duplicate_rows
from ranklens.data.id_keys import is_identity, matching_candidates, pair_keys, row_keys
from ranklens.metrics.arrow import codes_in, take, view_bool

NOT_JUDGED = np.iinfo(np.int64).min  # label of a row whose document has no judgement
# (-2^63: exact as a float64 too, so float labels of fractional grades compare equal to it)


def check_duplicates(table: Run | Qrels, kind: str) -> None:
    """Raise ``ValueError`` naming the first (query, document) pair that occurs twice.

    Compares document codes: equal codes always mean equal ids (``ranklens.data``), so
    every pair reported is a real repeat. A run read by ``ranklens.io`` may hold one id under
    several codes (per-block dictionaries); the reader has checked those runs by id already.
    When every document code occurs once (one pass) there can be no duplicate.
    """
    doc_codes = table.doc_codes
    if not len(doc_codes):
        return
    if len(doc_codes) == len(table.docs):  # every code once <=> every entry hit
        if is_identity(doc_codes):  # one id per row, in row order (a TREC run read): cheap
            return
        seen = np.zeros(len(table.docs), dtype=bool)
        seen[doc_codes] = True
        if seen.all():
            return
    counts = np.bincount(doc_codes, minlength=len(table.docs))
    if counts.max() <= 1:
        return
    candidates = np.flatnonzero(counts[doc_codes] > 1)
    repeated = duplicate_rows(table.query_codes[candidates], doc_codes[candidates],
                              len(table.docs))
    if len(repeated):
        row = int(candidates[repeated[0]])
        query = table.queries[int(table.query_codes[row])].as_py()
        doc = table.docs[int(doc_codes[row])].as_py()
        raise ValueError(f"{kind} {table.name!r} lists document {doc!r} twice for query "
                         f"{query!r} (row {row}); each (query, document) must occur once")


@dataclass(frozen=True)
class QueryJoin:
    """Which queries get a score, in a dense index ``0..n-1`` shared by run and qrels.

    ``index_of_run_code[c]`` is the dense index of run query code ``c`` (-1 if not evaluated);
    ``index_of_qrels_code`` likewise for qrels query codes. ``query_ids`` are the evaluated
    ids in dense order; ``ignored`` (run only) and ``missing`` (qrels only) are ids.
    """

    query_ids: list[str]
    index_of_run_code: np.ndarray
    index_of_qrels_code: np.ndarray
    ignored: list[str]
    missing: list[str]

    @classmethod
    def of(cls, run: Run, qrels: Qrels) -> QueryJoin:
        run_present = run.rows_per_query() > 0
        qrels_present = qrels.rows_per_query() > 0
        run_code_of_qrels = codes_in(qrels.queries, run.queries)
        run_code_of_qrels[~qrels_present] = -1
        matched = run_code_of_qrels >= 0
        matched[matched] = run_present[run_code_of_qrels[matched]]
        evaluated_qrels_codes = np.flatnonzero(matched)
        index_of_qrels_code = np.full(len(qrels.queries), -1, dtype=np.int64)
        index_of_qrels_code[evaluated_qrels_codes] = np.arange(len(evaluated_qrels_codes))
        index_of_run_code = np.full(len(run.queries), -1, dtype=np.int64)
        index_of_run_code[run_code_of_qrels[evaluated_qrels_codes]] = np.arange(
            len(evaluated_qrels_codes)
        )
        ignored = np.flatnonzero(run_present & (index_of_run_code < 0))
        missing = np.flatnonzero(qrels_present & ~matched)
        return cls(
            query_ids=take(qrels.queries, evaluated_qrels_codes).to_pylist(),
            index_of_run_code=index_of_run_code,
            index_of_qrels_code=index_of_qrels_code,
            ignored=take(run.queries, ignored).to_pylist(),
            missing=take(qrels.queries, missing).to_pylist(),
        )

    @property
    def n_queries(self) -> int:
        return len(self.query_ids)


class Judgements:
    """The judgements of the evaluated queries, ready for lookups and ideal rankings."""

    def __init__(self, qrels: Qrels, join: QueryJoin) -> None:
        self.qrels = qrels
        self.n_queries = join.n_queries
        query = join.index_of_qrels_code[qrels.query_codes]
        keep = query >= 0
        self.query = query[keep]
        self.doc_codes = qrels.doc_codes[keep].astype(np.int64)
        # int64, or float64 for fractional grades (``ranklens.data.grades``): labels follow
        self.grades = qrels.relevance[keep].astype(
            np.float64 if qrels.fractional else np.int64)
        self._join = join
        self._by_code: tuple[np.ndarray, np.ndarray] | None = None
        self._num_relevant: dict[int, np.ndarray] = {}
        self._keys_of_pairs: np.ndarray | None = None

    def num_relevant(self, level: int = 1) -> np.ndarray:
        """Per evaluated query, the number of judged documents with grade >= ``level``."""
        if level not in self._num_relevant:
            self._num_relevant[level] = np.bincount(
                self.query[self.grades >= level], minlength=self.n_queries
            )
        return self._num_relevant[level]

    def ideal(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The ideal ranking of every query: (query, 0-based position, grade) of each
        positive-graded judged document, best grade first (retrieved or not)."""
        positive = self.grades > 0
        query, grades = self.query[positive], self.grades[positive]
        by_rank = np.lexsort((-grades, query))
        query, grades = query[by_rank], grades[by_rank]
        starts = np.flatnonzero(np.r_[True, query[1:] != query[:-1]])
        lengths = np.diff(np.r_[starts, len(query)])
        position = np.arange(len(query)) - np.repeat(starts, lengths)
        return query, position, grades

    def grades_of(self, query: np.ndarray, qrels_doc_codes: np.ndarray) -> np.ndarray:
        """Grade of each (evaluated query index, qrels doc code) pair; ``NOT_JUDGED`` if none."""
        labels = np.full(len(query), NOT_JUDGED, dtype=self.grades.dtype)
        known = np.flatnonzero(qrels_doc_codes >= 0)
        if self._by_code is None:  # (query, doc code) of each judged row, sorted
            keys = self.query * max(len(self.qrels.docs), 1) + self.doc_codes
            by_key = np.argsort(keys, kind="stable")
            self._by_code = keys[by_key], self.grades[by_key]
        sorted_keys, sorted_grades = self._by_code
        if len(known) and len(sorted_keys):
            keys = query[known] * max(len(self.qrels.docs), 1) + qrels_doc_codes[known]
            at = np.minimum(np.searchsorted(sorted_keys, keys), len(sorted_keys) - 1)
            hit = sorted_keys[at] == keys
            labels[known[hit]] = sorted_grades[at[hit]]
        return labels

    def labels_of_rows(self, run: Run, rows: np.ndarray | None,
                       query: np.ndarray | Callable[[np.ndarray], np.ndarray], *,
                       absent: int = NOT_JUDGED, negative: int | None = None,
                       compact: bool = False) -> np.ndarray:
        """Grade of run rows ``rows`` (``None``: every row, in order) whose dense query index
        is ``query``: ``absent`` for a document the qrels do not judge, ``negative`` (when
        given) for a negative grade. With ``compact``, in the smallest integer type that
        holds them all (int8 for most qrels: 7M labels in 7 MB rather than 56).

        ``query`` is one index per row, or a function giving the indices of some positions
        of ``rows`` (only the rows whose document the qrels may judge are asked for: a caller
        with 7M rows need not spell out 7M indices).

        Documents are matched by id: the (query, document) pairs of the rows and of the qrels
        are paired by their 64-bit keys (``ranklens.data.id_keys``, one sort; the run's are
        kept from its reading) and each pair is confirmed on the strings; by a hash of the
        qrels' ids if two qrels keys collide.
        """
        query_of = query if callable(query) else query.__getitem__
        n = len(run) if rows is None else len(rows)

        def doc_codes(at: np.ndarray | None = None) -> np.ndarray:
            """The document codes of positions ``at`` of ``rows`` (all of them: ``None``)."""
            picked = rows if at is None else at if rows is None else rows[at]
            return run.doc_codes if picked is None else run.doc_codes[picked]

        try:
            hit, mate = matching_candidates(row_keys(run, rows), self._pair_keys())
        except ValueError:  # two qrels pairs share a key: match by a hash of the strings
            grades = self._labels_by_hash(run, doc_codes(), query_of(np.arange(n)))
            hit = np.flatnonzero(grades != NOT_JUDGED)
            found = grades[hit]
        else:
            same = self.query[mate] == query_of(hit)  # confirmed: the same query,
            hit, mate = hit[same], mate[same]
            if len(hit):  # the same document id
                same = view_bool(pc.equal(take(run.docs, doc_codes(hit)),
                                          take(self.qrels.docs, self.doc_codes[mate])))
                hit, mate = hit[same], mate[same]
            found = self.grades[mate]
        if negative is not None:
            found = np.where(found < 0, negative, found)
        dtype = self.grades.dtype
        if compact and dtype.kind == "i":
            low, high = (min(absent, int(found.min())), max(absent, int(found.max()))) \
                if len(found) else (absent, absent)
            dtype = next(np.dtype(t) for t in (np.int8, np.int16, np.int32, np.int64)
                         if np.iinfo(t).min <= low and high <= np.iinfo(t).max)
        labels = np.full(n, absent, dtype=dtype)
        labels[hit] = found
        return labels

    def _pair_keys(self) -> np.ndarray:
        """The keys of the judged (query, document) pairs, the query by its run code (as the
        run's ``row_keys`` have it)."""
        if self._keys_of_pairs is None:
            index = self._join.index_of_run_code
            run_code = np.full(self.n_queries, -1, dtype=np.int64)
            answered = np.flatnonzero(index >= 0)
            run_code[index[answered]] = answered
            self._keys_of_pairs = pair_keys(run_code[self.query], self.qrels.docs,
                                            self.doc_codes)
        return self._keys_of_pairs

    def _labels_by_hash(self, run: Run, doc_codes: np.ndarray, query: np.ndarray) -> np.ndarray:
        if len(run.docs) <= len(doc_codes):
            qrels_codes = codes_in(run.docs, self.qrels.docs)[doc_codes]
        else:
            qrels_codes = codes_in(take(run.docs, doc_codes), self.qrels.docs)
        return self.grades_of(query, qrels_codes)

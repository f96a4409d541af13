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

from dataclasses import dataclass

import numpy as np
import pyarrow.compute as pc

from ranklens.data import Qrels, Run, duplicate_rows
from ranklens.data.id_keys import matching_candidates, string_keys
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
        run_present = np.bincount(run.query_codes, minlength=len(run.queries)) > 0
        qrels_present = np.bincount(qrels.query_codes, minlength=len(qrels.queries)) > 0
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
        keys = self.query * max(len(qrels.docs), 1) + self.doc_codes
        by_key = np.argsort(keys, kind="stable")
        self._keys = keys[by_key]
        self._key_grades = self.grades[by_key]
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
        if len(known) and len(self._keys):
            keys = query[known] * max(len(self.qrels.docs), 1) + qrels_doc_codes[known]
            at = np.minimum(np.searchsorted(self._keys, keys), len(self._keys) - 1)
            hit = self._keys[at] == keys
            labels[known[hit]] = self._key_grades[at[hit]]
        return labels

    def labels_of_rows(self, run: Run, rows: np.ndarray, query: np.ndarray, *,
                       absent: int = NOT_JUDGED, negative: int | None = None) -> np.ndarray:
        """Grade of run rows ``rows`` whose dense query index is ``query``: ``absent`` for a
        document the qrels do not judge, ``negative`` (when given) for a negative grade.

        Documents are matched by id: the (query, document) pairs of the rows and of the qrels
        are paired by their 64-bit keys (``ranklens.data.id_keys``, one sort) and each pair is
        confirmed on the strings; by a hash of the qrels' ids if two qrels keys collide.
        """
        doc_codes = run.doc_codes[rows]
        if len(run.docs) <= len(rows):
            run_keys = string_keys(run.docs, salt=query, codes=doc_codes)
        else:
            run_keys = string_keys(take(run.docs, doc_codes), salt=query)
        try:
            match = matching_candidates(run_keys, self._pair_keys())
        except ValueError:  # two qrels pairs share a key: match by a hash of the strings
            grades = self._labels_by_hash(run, doc_codes, query)
            hit = np.flatnonzero(grades != NOT_JUDGED)
            found = grades[hit]
        else:
            hit = np.flatnonzero(match >= 0)
            hit = hit[self.query[match[hit]] == query[hit]]  # confirmed: same query,
            if len(hit):  # same document id
                hit = hit[view_bool(pc.equal(take(run.docs, doc_codes[hit]),
                                             take(self.qrels.docs, self.doc_codes[match[hit]])))]
            found = self.grades[match[hit]]
        if negative is not None:
            found = np.where(found < 0, negative, found)
        labels = np.full(len(rows), absent, dtype=self.grades.dtype)
        labels[hit] = found
        return labels

    def _pair_keys(self) -> np.ndarray:
        if self._keys_of_pairs is None:
            self._keys_of_pairs = string_keys(self.qrels.docs, salt=self.query,
                                              codes=self.doc_codes)
        return self._keys_of_pairs

    def _labels_by_hash(self, run: Run, doc_codes: np.ndarray, query: np.ndarray) -> np.ndarray:
        if len(run.docs) <= len(doc_codes):
            qrels_codes = codes_in(run.docs, self.qrels.docs)[doc_codes]
        else:
            qrels_codes = codes_in(take(run.docs, doc_codes), self.qrels.docs)
        return self.grades_of(query, qrels_codes)

"""What trec_eval 10.0 sees of each query before any measure: its ``res_rels``, for all queries.

For every query of the qrels (trec_eval evaluates the qrels' queries, in query-id byte order),
the run's documents in trec_eval's order (score descending, ties by document id descending),
cut at ``-M``, each labelled with its grade, ``NONPOOL`` (-1: not in the qrels) or
``UNJUDGED`` (-2: in the qrels with a negative grade); under ``-J`` only the documents with a
grade >= 0 stay, in the same order. Under ``-c`` a judged query the run does not answer gets
trec_eval 10.0's placeholder ranking: one document, ``PLACEHOLDER_DOCNO``, score 1.0 (judged
like any other document, so a qrels line for that id counts).

Only the top ``depth`` ranks of each ranking are labelled (what the requested measures read);
``num_ret`` is always the whole ranking's length. Only the documents the qrels know keep a row
(with their 0-based rank ``position``): a ``NONPOOL`` document counts in no measure except by
its rank, which the gaps between positions give, so a 7M-row run with 90 judgements a query is
scored on about a tenth of its rows. No Python loop runs per query or per row.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np
import pyarrow as pa

from ranklens.data import Qrels, Run
from ranklens.errors import RanklensError
from ranklens.metrics.arrow import codes_in, take, texts
from ranklens.metrics.judgements import Judgements, QueryJoin, check_duplicates
from ranklens.metrics.ordering import (
    expand_ranges,
    of_block,
    ordering_keys,
    run_blocks,
    tie_break_moves,
    top_positions,
)

NONPOOL = -1  # trec_eval's RELVALUE_NONPOOL: the document has no qrels line for the query
UNJUDGED = -2  # trec_eval's RELVALUE_UNJUDGED: in the qrels with a negative grade
PLACEHOLDER_DOCNO = "ceci_nest_pas_un_docno"  # trec_eval 10.0's ranking for a missing query
FULL = np.iinfo(np.int64).max


class MissingQueries(RanklensError, ValueError):
    """Judged queries the run does not answer, without ``-c``: trec_eval 10.0 stops (exit 4)."""

    def __init__(self, missing: list[str]) -> None:
        self.missing = missing
        super().__init__(f"result qid {missing[0]!r} not found in qrels")


@dataclass(frozen=True)
class TrecRanking:
    """Labelled rows (grouped by query, rank order) and per-query counts, as trec_eval has them.

    ``query_ids`` are the qrels' queries in byte order (the dense index of every array);
    ``starts`` bound each query's rows. A row is a ranked document the qrels judge (its grade,
    or ``UNJUDGED``), at its 0-based rank ``position``; ``NONPOOL`` documents have no row, so
    positions have gaps (under ``-J`` they count the judged documents only and have none).
    ``full`` says whether the rows reach the end of every ranking (measures reading beyond a
    cutoff need that). ``placeholder`` marks the queries scored on the placeholder ranking
    (``-c``).
    """

    query_ids: list[str]
    query: np.ndarray
    position: np.ndarray
    labels: np.ndarray
    starts: np.ndarray
    num_ret: np.ndarray
    full: bool
    level: int
    judged_query: np.ndarray
    judged_grades: np.ndarray
    placeholder: np.ndarray
    ignored: tuple[str, ...] = ()
    _cache: dict[str, np.ndarray] = field(default_factory=dict, repr=False, compare=False)

    @property
    def n_queries(self) -> int:
        return len(self.query_ids)

    def relevant(self) -> np.ndarray:
        """Rows trec_eval counts as relevant: grade >= the level (never a negative label)."""
        return self._cached("relevant", lambda: (self.labels >= max(self.level, 0)))

    def per_query(self, rows: np.ndarray, weights: np.ndarray | None = None) -> np.ndarray:
        """Per-query sum of ``weights`` (or count) over the rows of mask ``rows``, added in row
        order (as trec_eval adds)."""
        w = None if weights is None else weights[rows]
        return np.bincount(self.query[rows], weights=w, minlength=self.n_queries).astype(
            np.float64)

    def running(self, values: np.ndarray) -> np.ndarray:
        """Per row, the integer ``values`` of its query's rows up to and including it (summed
        in int32 for a mask, whose counts cannot overflow it: half the memory traffic)."""
        dtype = np.int32 if values.dtype == np.bool_ and len(values) < 2**31 else np.int64
        total: np.ndarray = np.cumsum(values, dtype=dtype)
        before = np.concatenate((np.zeros(1, dtype), total))[self.starts[:-1]]
        np.subtract(total, before[self.query], out=total)  # rows grouped by query: its offset
        return total

    @property
    def rel_so_far(self) -> np.ndarray:
        """Per row, relevant rows of its query up to and including it."""
        return self._cached("rel_so_far", lambda: self.running(self.relevant()))

    def last_before(self, k: np.ndarray | int, queries: np.ndarray | None = None
                    ) -> np.ndarray:
        """Per query (of ``queries``, default all), the index of its last row ranked above
        ``k`` (position < k), -1 when it has none."""
        if queries is None and np.ndim(k) == 0:  # the same cutoffs serve many measures
            return self._cached(f"before{int(k)}", lambda: self.last_before(
                np.full(self.n_queries, int(k), dtype=np.int64), np.arange(self.n_queries)))
        q = np.arange(self.n_queries) if queries is None else np.asarray(queries)
        stride = int(self.position.max(initial=0)) + 2
        # rows sorted by (query, position): one number each, searched for (query, k)
        key = self._cached("row_key", lambda: self.query.astype(np.int64) * stride
                           + self.position)
        limit = np.minimum(np.asarray(k, dtype=np.int64), stride - 1)
        at = np.searchsorted(key, q.astype(np.int64) * stride + limit) - 1
        return np.where(at >= self.starts[q], at, -1)

    def at_depth(self, running: np.ndarray, k: np.ndarray | int, empty: float = 0.0
                 ) -> np.ndarray:
        """Per query, a running value (inclusive, per row) after its first ``k`` ranks, the
        value of its last row above rank ``k``; ``empty`` where there is no such row."""
        at = self.last_before(k)
        out = np.full(self.n_queries, empty, dtype=np.float64)
        some = at >= 0
        out[some] = running[at[some]]
        return out

    def _cached(self, key: str, make: object) -> np.ndarray:
        if key not in self._cache:
            self._cache[key] = make()  # type: ignore[operator]
        return self._cache[key]

    @property
    def num_rel(self) -> np.ndarray:
        """Judged documents with grade >= the level (and >= 0), retrieved or not."""
        floor = max(self.level, 0)
        return self._cached("num_rel", lambda: np.bincount(
            self.judged_query[self.judged_grades >= floor], minlength=self.n_queries
        ).astype(np.float64))

    @property
    def num_nonrel(self) -> np.ndarray:
        """Judged documents with 0 <= grade < the level (bpref's N)."""
        mask = (self.judged_grades >= 0) & (self.judged_grades < self.level)
        return self._cached("num_nonrel", lambda: np.bincount(
            self.judged_query[mask], minlength=self.n_queries).astype(np.float64))

    @property
    def num_rel_ret(self) -> np.ndarray:
        return self._cached("num_rel_ret", lambda: self.per_query(self.relevant()))

    def count_labels(self, label: int) -> np.ndarray:
        """Rows with ``label`` per query (``NONPOOL`` documents have no row: 0)."""
        return self._cached(f"label{label}", lambda: self.per_query(self.labels == label))

    @property
    def max_grade(self) -> np.ndarray:
        """Highest grade >= 0 judged for each query (-1 when none): trec_eval's levels - 1."""
        def make() -> np.ndarray:
            out = np.full(self.n_queries, -1, dtype=np.int64)
            judged = self.judged_grades >= 0
            np.maximum.at(out, self.judged_query[judged], self.judged_grades[judged])
            return out
        return self._cached("max_grade", make)

    def ideal(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Positive judged grades of each query, best first: (grades, start, count) where the
        query's grades are ``grades[start[q]:start[q] + count[q]]``."""
        if "ideal" not in self._cache:
            positive = self.judged_grades > 0
            query, grades = self.judged_query[positive], self.judged_grades[positive]
            count = np.bincount(query, minlength=self.n_queries)
            start = np.concatenate(([0], np.cumsum(count)[:-1])).astype(np.int64)
            self._cache["ideal"] = _by_query_best_first(query, grades)
            self._cache["ideal_start"] = start
            self._cache["ideal_count"] = count.astype(np.int64)
        return self._cache["ideal"], self._cache["ideal_start"], self._cache["ideal_count"]


def _by_query_best_first(query: np.ndarray, grades: np.ndarray) -> np.ndarray:
    """``grades`` (positive integers) sorted by query, then highest first: one value sort of
    (query, grade) packed into one number when they fit, else a lexsort."""
    top = int(grades.max(initial=0))
    if grades.dtype.kind == "i" and len(grades) and top < 2**31 and int(query.max()) < 2**31:
        packed = query.astype(np.int64) << 32
        packed |= (2**31 - 1) - grades.astype(np.int64)
        packed.sort()
        return ((2**31 - 1) - (packed & (2**32 - 1))).astype(grades.dtype)
    return grades[np.lexsort((-grades, query))]


def trec_ranking(
    run: Run,
    qrels: Qrels,
    *,
    level: int = 1,
    depth: np.ndarray | int | None = None,
    judged_only: bool = False,
    max_docs: int | None = None,
    complete: bool = False,
) -> TrecRanking:
    """The labelled rankings of every qrels query, ``depth`` rows deep (``None``: whole).

    ``depth`` may be one number or one per query in qrels byte order (the queries'
    ``num_rel`` for R-Prec). ``MissingQueries`` when a judged query has no run rows and
    ``complete`` (``-c``) is off; ``ValueError`` for a (query, document) pair listed twice.
    """
    check_duplicates(run, "run")
    check_duplicates(qrels, "qrels")
    run, join, placeholder = _joined(run, qrels, complete)
    n = join.n_queries
    judgements = Judgements(qrels, join)
    limit = FULL if max_docs is None else max(int(max_docs), 0)
    wanted = np.full(n, FULL, dtype=np.int64) if depth is None else \
        np.broadcast_to(np.asarray(depth, dtype=np.int64), (n,)).copy()
    keys = ordering_keys(run, "score")
    blocks = run_blocks(run, keys, run.rows_per_query())
    block_query = join.index_of_run_code[blocks.query_codes]
    evaluated = block_query >= 0
    first = np.zeros(len(block_query), dtype=np.int64)
    first[evaluated] = limit if judged_only else np.minimum(wanted, limit)[block_query[evaluated]]
    rows: np.ndarray | None
    if np.all(first >= blocks.lengths):  # whole rankings: no 0..n-1 positions to spell out
        starts, ranked_keys, rows = blocks.starts, blocks.keys, blocks.rows
    else:
        positions, starts = top_positions(blocks, first)
        ranked_keys, rows = blocks.keys[positions], blocks.run_rows(positions)
    lengths = np.diff(starts)
    labels = judgements.labels_of_rows(run, rows, of_block(block_query, starts),
                                       absent=NONPOOL, negative=UNJUDGED, compact=True)
    moves = tie_break_moves(ranked_keys, starts, labels, lambda tied: take(
        run.docs, run.doc_codes[tied if rows is None else rows[tied]]))
    if moves is not None:
        labels[moves[0]] = labels[moves[1]]
    num_ret = np.zeros(n, dtype=np.int64)
    num_ret[block_query[evaluated]] = np.minimum(blocks.lengths[evaluated], limit)
    # only the documents the qrels know get a row (their rank says where the others were)
    kept = np.flatnonzero(labels >= 0 if judged_only else labels != NONPOOL)
    block_of_row = np.searchsorted(starts, kept, side="right") - 1
    position = kept - starts[block_of_row]
    inside = position < first[block_of_row]  # ties straddling the cut are now ordered
    kept, block_of_row, position = kept[inside], block_of_row[inside], position[inside]
    query, labels = block_query[block_of_row], labels[kept].astype(judgements.grades.dtype)
    if judged_only:
        num_ret = np.bincount(query, minlength=n).astype(np.int64)
    # blocks come in run order: lay them out in query byte order (each stays in rank order)
    block_rows = np.bincount(block_of_row, minlength=len(lengths))
    block_start = np.concatenate(([0], np.cumsum(block_rows)[:-1])).astype(np.int64)
    chosen = np.flatnonzero(evaluated)
    chosen = chosen[np.argsort(block_query[chosen], kind="stable")]
    reorder = expand_ranges(block_start[chosen], block_rows[chosen])
    query, labels, position = query[reorder], labels[reorder], position[reorder]
    counts = np.bincount(query, minlength=n)
    row_starts = np.concatenate(([0], np.cumsum(counts))).astype(np.int64)
    if judged_only:  # ranks count the judged documents only
        position = np.arange(len(query), dtype=np.int64) - np.repeat(row_starts[:-1], counts)
        inside = position < wanted[query]
        query, labels, position = query[inside], labels[inside], position[inside]
        counts = np.bincount(query, minlength=n)
        row_starts = np.concatenate(([0], np.cumsum(counts))).astype(np.int64)
    full = bool(np.all(wanted >= num_ret))
    return TrecRanking(join.query_ids, query, position, labels, row_starts, num_ret, full, level,
                       judgements.query, judgements.grades, placeholder, tuple(join.ignored))


def with_placeholders(run: Run, query_ids: list[str]) -> Run:
    """``run`` plus trec_eval 10.0's one-document ranking for each of ``query_ids``."""
    known = codes_in(texts(query_ids, run.queries.type), run.queries)
    new = known < 0
    queries = run.queries
    if new.any():
        queries = pa.concat_arrays([run.queries, texts(
            [q for q, is_new in zip(query_ids, new.tolist(), strict=True) if is_new],
            run.queries.type)])
        known[new] = len(run.queries) + np.arange(int(new.sum()))
    docs = pa.concat_arrays([run.docs, texts([PLACEHOLDER_DOCNO], run.docs.type)])
    extra = len(query_ids)
    ranks = None if run.ranks is None else np.concatenate([run.ranks, np.ones(extra, np.int64)])
    return Run(np.concatenate([run.query_codes, known.astype(run.query_codes.dtype)]), queries,
               np.concatenate([run.doc_codes, np.full(extra, len(run.docs),
                                                      dtype=run.doc_codes.dtype)]), docs,
               scores=np.concatenate([run.scores, np.ones(extra)]), ranks=ranks, name=run.name)


def _joined(run: Run, qrels: Qrels, complete: bool) -> tuple[Run, QueryJoin, np.ndarray]:
    """The run (with trec_eval's placeholder ranking for each judged query it misses, under
    ``complete``), its join with the qrels in query-id byte order, and which of the join's
    queries are placeholders. ``MissingQueries`` for a missing query without ``complete``."""
    join = QueryJoin.of(run, qrels)
    placeholder_ids: list[str] = []
    if join.missing:
        if not complete:
            raise MissingQueries(sorted(join.missing))
        placeholder_ids = list(join.missing)
        run = with_placeholders(run, placeholder_ids)
        join = QueryJoin.of(run, qrels)
    join = _in_byte_order(join)
    placeholder = np.zeros(join.n_queries, dtype=bool)
    if placeholder_ids:
        placeholder[np.searchsorted(np.array(join.query_ids, dtype=object),
                                    np.array(sorted(placeholder_ids), dtype=object))] = True
    return run, join, placeholder


def _in_byte_order(join: QueryJoin) -> QueryJoin:
    """The same join with its dense index renumbered in query-id byte order (trec_eval's)."""
    order = np.array(sorted(range(join.n_queries), key=lambda i: join.query_ids[i].encode()),
                     dtype=np.int64)
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.arange(len(order))
    remap = np.append(rank, -1)  # index -1 stays -1

    return replace(join, query_ids=[join.query_ids[i] for i in order.tolist()],
                   index_of_run_code=remap[join.index_of_run_code],
                   index_of_qrels_code=remap[join.index_of_qrels_code])


def segment_cumsum(values: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """Running sum inside each block ``starts[b]:starts[b+1]``, added one row after the other
    from the block's start (bit for bit what a C loop adds), without a loop per block.

    Blocks of similar length are laid out as rows of a matrix and summed along them; lengths
    are grouped by powers of two so the padding stays below the data.
    """
    out = np.empty(len(values), dtype=np.float64)
    lengths = np.diff(starts)
    if not len(values):
        return out
    if len(lengths) and lengths.min() == lengths.max():  # equal blocks: one matrix, no copy
        return np.cumsum(values.reshape(len(lengths), -1), axis=1).reshape(-1)
    bucket = np.ceil(np.log2(np.maximum(lengths, 1))).astype(np.int64)
    for b in np.flatnonzero(np.bincount(bucket[lengths > 0])).tolist():  # not np.unique: numpy.ma
        blocks = np.flatnonzero((bucket == b) & (lengths > 0))
        width = int(lengths[blocks].max())
        matrix = np.zeros((len(blocks), width), dtype=np.float64)
        inside = np.arange(width) < lengths[blocks][:, None]
        rows = expand_ranges(starts[blocks], lengths[blocks])
        matrix[inside] = values[rows]
        np.cumsum(matrix, axis=1, out=matrix)
        out[rows] = matrix[inside]
    return out


__all__ = ["NONPOOL", "PLACEHOLDER_DOCNO", "UNJUDGED", "MissingQueries", "TrecRanking",
           "segment_cumsum", "trec_ranking", "with_placeholders"]

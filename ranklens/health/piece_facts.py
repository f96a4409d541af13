"""The health facts of a run read in pieces of whole queries, gathered one piece at a time.

Answers what ``ranklens.health.checks.run_facts`` answers of the whole run, keeping only what
those facts are made of: the document ids at the rows `documents.sample_rows` picks (every
row's while the run has at most `documents.CHECKED` rows), the rows of the first
`documents.FOLD_QUERIES` judged queries, and the self-retrieval counts of each piece. It needs
the run's row count before the first piece (to know which rows are sampled) and says so when
the pieces did not add up to it. It reads no file and does not cut one.
"""

from __future__ import annotations

import pyarrow as pa
import pyarrow.compute as pc

from ranklens.data import Qrels, Run
from ranklens.health import documents
from ranklens.health.checks import RunFacts
from ranklens.health.self_retrieval import EXAMPLES, SelfRetrieval, self_retrieval
from ranklens.metrics.arrow import take


class PieceFacts:
    """`RunFacts` of a run of ``rows`` rows given piece by piece (`add`), in file order, each
    piece holding whole queries that no other piece holds."""

    def __init__(self, rows: int, qrels: Qrels) -> None:
        self.rows = rows
        self.qrels = qrels
        self._sampled = None if rows <= documents.CHECKED else documents.sample_rows(rows)
        self._seen = 0
        self._docs: list[pa.Array] = []
        self._judged = set(qrels.queries.to_pylist())
        self._chosen: list[str] = []
        self._fold_docs: list[pa.Array] = []
        self._self: list[SelfRetrieval] = []

    def add(self, run: Run) -> None:
        """Keep what the facts need of the next piece ``run``."""
        start, self._seen = self._seen, self._seen + len(run)
        if self._sampled is None:
            if self._seen <= documents.CHECKED:
                self._docs.append(take(run.docs, run.doc_codes))
        else:
            wanted = self._sampled[(self._sampled >= start) & (self._sampled < self._seen)]
            self._docs.append(take(run.docs, run.doc_codes[wanted - start]))
        missing = documents.FOLD_QUERIES - len(self._chosen)
        if missing > 0:
            chosen, docs = documents.fold_queries(run, self._judged, missing)
            self._chosen += chosen
            self._fold_docs.append(docs)
        self._self.append(self_retrieval(run))

    def facts(self) -> RunFacts | None:
        """The facts of the whole run; ``None`` when the pieces held another number of rows
        than the ``rows`` announced (the sample would be of other rows)."""
        if self._seen != self.rows:
            return None
        docs = _joined(self._docs)
        exhaustive = self._sampled is None
        if exhaustive:
            docs = pc.unique(docs)
        fold_docs = _joined(self._fold_docs)
        found = documents.facts_of_ids(docs, exhaustive, self.qrels, lambda: documents.fold_ids(
            self._chosen, fold_docs, self.qrels))
        return RunFacts(found, _self_retrieval(self._self))


def _joined(arrays: list[pa.Array]) -> pa.Array:
    """The arrays end to end as one string array."""
    if not arrays:
        return pa.array([], type=pa.string())
    return pa.concat_arrays([a.cast(pa.string()) for a in arrays])


def _self_retrieval(parts: list[SelfRetrieval]) -> SelfRetrieval:
    """The self-retrieval of the pieces' queries together (no query is in two pieces)."""
    if not any(part.rows for part in parts):
        return SelfRetrieval(0, 0, 0)
    examples = tuple(q for part in parts for q in part.examples)[:EXAMPLES]
    return SelfRetrieval(sum(p.rows for p in parts), sum(p.queries for p in parts),
                         sum(p.at_top for p in parts), examples)


__all__ = ["PieceFacts"]

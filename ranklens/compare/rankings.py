"""Two runs' rankings of one query side by side: what each shows in its top k, and what moved.

``side_by_side`` answers "for this query, which documents does A show and which does B show,
how are they judged, and which moved up or down, entered or left the top k". Documents are in
trec_eval's order (score descending, ties by document id descending), the order the metrics
score. ``query_rbo`` says how alike the two orderings of one query are; ``most_reordered``
orders queries by it. It computes no statistic.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from ranklens.data import Qrels, Run
from ranklens.data.grades import format_grade
from ranklens.metrics import rbo

UNJUDGED = "unjudged"


@dataclass(frozen=True)
class QueryRankings:
    """Top ``k`` of A and B for one query, each a frame with one row per rank.

    Columns of ``a`` and ``b``: ``rank`` (1-based), ``doc_id``, ``score``, ``label`` (grade
    as text, or "unjudged") and ``change``: for B, how the document moved relative to A
    ("up 3", "down 1", "same", "entered (A rank 14)", "entered (not in A)"); for A, where it
    went in B ("up 2", "left (B rank 23)", "left (not in B)" ...).
    """

    query_id: str
    k: int
    a: pd.DataFrame
    b: pd.DataFrame

    @property
    def n_entered(self) -> int:
        """Documents in B's top k that are not in A's top k."""
        return int(self.b["change"].str.startswith("entered").sum())

    @property
    def n_overlap(self) -> int:
        """Documents in both top k lists."""
        return len(set(self.a["doc_id"]) & set(self.b["doc_id"]))


def ranking(run: Run, query_id: str, *, order: str = "score") -> list[tuple[str, float]]:
    """``(doc_id, score)`` of every document ``run`` retrieved for ``query_id``, best first.

    trec_eval's order: score descending (``order="rank"``: the rank column ascending), ties by
    document id descending. Empty when the run does not have the query.
    """
    found = pc.index(run.queries, pa.scalar(query_id, pa.string())).as_py()
    if found < 0:
        return []
    rows = np.flatnonzero(run.query_codes == found)
    docs = run.docs.take(pa.array(run.doc_codes[rows])).to_pylist()
    scores = run.scores[rows].tolist()
    if order == "rank":
        if run.ranks is None:
            raise ValueError(f"run {run.name!r} has no rank column; use order='score'")
        keys = (-run.ranks[rows]).astype(np.float64).tolist()
    else:
        keys = scores
    items = sorted(zip(docs, keys, scores, strict=True), key=lambda t: t[0], reverse=True)
    items.sort(key=lambda t: t[1], reverse=True)  # stable: ties keep doc id descending
    return [(doc, score) for doc, _, score in items]


def query_rbo(run_a: Run, run_b: Run, query_id: str, *, p: float = 0.9,
              order: str = "score") -> float | None:
    """Rank-biased overlap of A's and B's rankings of one query (`ranklens.metrics.rbo`).

    Computed on that query's rows only, so it costs milliseconds however big the runs are.
    None when one of the runs does not rank the query.
    """
    one_a, one_b = _only(run_a, query_id), _only(run_b, query_id)
    if one_a is None or one_b is None:
        return None
    return rbo(one_a, one_b, p=p, order=order).per_query.get(query_id)


def most_reordered(deltas: Mapping[str, float], overlap: Mapping[str, float]) -> list[str]:
    """The queries of ``deltas`` ordered by how differently the two runs rank them: lowest
    RBO (``overlap``, query -> RBO) first, then the larger loss of B - A; queries with no RBO
    last. It says where the rankings changed most, not where the metric did."""
    def key(query: str) -> tuple[int, float, float, str]:
        found = overlap.get(query)
        return (found is None, 0.0 if found is None else found, deltas[query], query)

    return sorted(deltas, key=key)


def _only(run: Run, query_id: str) -> Run | None:
    found = pc.index(run.queries, pa.scalar(query_id, pa.string())).as_py()
    if found < 0:
        return None
    rows = np.flatnonzero(run.query_codes == found)
    docs = run.docs.take(pa.array(run.doc_codes[rows]))
    ranks = None if run.ranks is None else run.ranks[rows]
    return Run.from_columns([query_id] * len(rows), docs, run.scores[rows], ranks,
                            name=run.name)


def judgements_of(qrels: Qrels, query_id: str) -> dict[str, float]:
    """``{doc_id: grade}`` of one query (empty when it has no judgements)."""
    found = pc.index(qrels.queries, pa.scalar(query_id, pa.string())).as_py()
    if found < 0:
        return {}
    rows = np.flatnonzero(qrels.query_codes == found)
    docs = qrels.docs.take(pa.array(qrels.doc_codes[rows])).to_pylist()
    return dict(zip(docs, qrels.relevance[rows].tolist(), strict=True))


def side_by_side(run_a: Run, run_b: Run, qrels: Qrels | None, query_id: str, k: int = 10,
                 *, order: str = "score") -> QueryRankings:
    """The top ``k`` of A and of B for ``query_id``, labelled, with each document's move."""
    full_a, full_b = ranking(run_a, query_id, order=order), ranking(run_b, query_id, order=order)
    rank_a = {doc: i + 1 for i, (doc, _) in enumerate(full_a)}
    rank_b = {doc: i + 1 for i, (doc, _) in enumerate(full_b)}
    grades = judgements_of(qrels, query_id) if qrels is not None else {}
    return QueryRankings(
        query_id, k,
        _frame(full_a[:k], grades, rank_b, k, "left", "B"),
        _frame(full_b[:k], grades, rank_a, k, "entered", "A"),
    )


def _frame(top: list[tuple[str, float]], grades: dict[str, float], other: dict[str, int], k: int,
           outside: str, other_name: str) -> pd.DataFrame:
    rows = []
    for i, (doc, score) in enumerate(top):
        rank = i + 1
        grade = grades.get(doc)
        rows.append({
            "rank": rank, "doc_id": doc, "score": score,
            "label": UNJUDGED if grade is None else format_grade(grade),
            "change": _change(rank, other.get(doc), k, outside, other_name),
        })
    return pd.DataFrame(rows, columns=["rank", "doc_id", "score", "label", "change"])


def _change(rank: int, other_rank: int | None, k: int, outside: str, other_name: str) -> str:
    """How a document at ``rank`` here sits in the other run, from B's point of view."""
    if other_rank is None:
        return f"{outside} (not in {other_name})"
    if other_rank > k:
        return f"{outside} ({other_name} rank {other_rank})"
    # From B's side: A rank 5 -> B rank 2 is "up 3". From A's side: B rank 2 vs A rank 5.
    moved = other_rank - rank if outside == "entered" else rank - other_rank
    if moved == 0:
        return "same"
    return f"up {moved}" if moved > 0 else f"down {-moved}"

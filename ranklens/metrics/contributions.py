"""What each document contributed: one query's ranking, rank by rank, for one metric.

``contributions(run, qrels, metric, query_id)`` answers "which documents made this query's
value, and by how much": per rank of the query's ranking (trec_eval's order, as ``evaluate``
sees it) the document, its grade, a gain, a discount and the contribution, with
``sum(contribution) == evaluate(...)[metric].per_query[query_id]`` (to rounding, 1e-12). What
gain and discount mean depends on the metric; contribution = gain x discount throughout:

- nDCG: gain of the grade (linear or 2^g - 1), discount 1/log2(rank + 1), divided by the
  ideal DCG; ``ideal`` holds the ideal ranking the same way (its contributions sum to 1);
- AP: gain 1/R for a relevant document (R = relevant judged), discount = precision at its rank;
- RR: gain 1 at the first relevant rank, discount 1/rank; P@k: gain 1 per relevant, discount
  1/k; R@k: gain 1/R per relevant; Success@k: 1 at the first relevant; R-Prec: 1/R per
  relevant in the top R;
- ERR: gain = the stopping probability R_i, discount = P(still reading) / rank;
- RBP: gain 1 per relevant, discount (1 - p) p^(rank - 1).

Ranks past the metric's cutoff contribute 0. For AP and ERR a document's share depends on the
documents above it: the split is an exact accounting of the value, not a counterfactual
("what if this document were removed"). bpref, Judged@k and Unjudged@k are not sums over
ranks and are refused. It does not compare runs (``moves`` does).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, TypedDict

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ranklens.data import Qrels, Run
from ranklens.metrics.arrow import arrow_indices, integers, take
from ranklens.metrics.err import check_scale, stop_probabilities
from ranklens.metrics.names import MetricSpec, parse_metric
from ranklens.metrics.ndcg import discounts, gains
from ranklens.metrics.ordering import ordering_keys
from ranklens.metrics.rbp import rank_weights
from ranklens.metrics.tie_contributions import averaged_rows

if TYPE_CHECKING:
    import pandas as pd

DECOMPOSABLE = ("ndcg", "AP", "RR", "P", "recall", "success", "Rprec", "ERR", "RBP")


@dataclass(frozen=True)
class Contributions:
    """One query's ranking for one metric, rank by rank (arrays aligned by rank).

    ``grade`` is -1 with ``judged`` False for a document without a judgement (it counts as
    non-relevant). ``ideal_*`` hold the ideal ranking for nDCG (empty for other metrics).
    ``value`` is the per-query value (the sum of ``contribution``).
    """

    metric: str
    query_id: str
    doc_ids: tuple[str, ...]
    scores: np.ndarray
    grade: np.ndarray
    judged: np.ndarray
    gain: np.ndarray
    discount: np.ndarray
    contribution: np.ndarray
    ideal_grade: np.ndarray
    ideal_gain: np.ndarray
    ideal_discount: np.ndarray
    ideal_contribution: np.ndarray

    @property
    def value(self) -> float:
        return float(self.contribution.sum())

    @property
    def cumulative(self) -> np.ndarray:
        return np.cumsum(self.contribution)

    def __len__(self) -> int:
        return len(self.doc_ids)

    def rank_of(self, doc_id: str) -> int | None:
        """1-based rank of ``doc_id`` in this ranking (None when not retrieved)."""
        try:
            return self.doc_ids.index(doc_id) + 1
        except ValueError:
            return None

    def to_frame(self) -> pd.DataFrame:
        """One row per rank: rank, doc_id, score, grade (<NA> unjudged), gain, discount,
        contribution, cumulative."""
        import pandas as pd

        return pd.DataFrame({
            "rank": np.arange(1, len(self) + 1), "doc_id": list(self.doc_ids),
            "score": self.scores,
            "grade": pd.Series(self.grade).astype(
                "Float64" if self.grade.dtype.kind == "f" else "Int64").where(self.judged),
            "gain": self.gain, "discount": self.discount, "contribution": self.contribution,
            "cumulative": self.cumulative})

    def ideal_frame(self) -> pd.DataFrame:
        """The ideal ranking (nDCG): rank, grade, gain, discount, contribution, cumulative."""
        import pandas as pd

        return pd.DataFrame({
            "rank": np.arange(1, len(self.ideal_grade) + 1), "grade": self.ideal_grade,
            "gain": self.ideal_gain, "discount": self.ideal_discount,
            "contribution": self.ideal_contribution,
            "cumulative": np.cumsum(self.ideal_contribution)})


class RankingOptions(TypedDict, total=False):
    """The keywords of `contributions` after the query (``order``, ``gain``,
    ``relevance_level``, ``ties``; their defaults are there), for the functions that pass
    them on to it (`ranklens.metrics.moves.explain_difference`)."""

    order: str
    gain: str
    relevance_level: int
    ties: str


def contributions(
    run: Run,
    qrels: Qrels,
    metric: str | MetricSpec,
    query_id: str,
    *,
    order: str = "score",
    gain: str = "linear",
    relevance_level: int = 1,
    ties: str = "trec_eval",
) -> Contributions:
    """Per rank of ``query_id``'s ranking in ``run``, what it contributes to ``metric``.

    Same semantics as ``evaluate`` (order, gain, relevance level, ties; a judged query missing
    from the run is an empty ranking). With ``ties="average"`` (or a name that says it) each
    rank gets its expected part over every order of its tie group (``tie_contributions``),
    shown in trec_eval's order. ``ValueError`` when the query has no judgements (evaluate
    ignores it) or the metric is not a sum over ranks.
    """
    spec = parse_metric(metric, gain=gain, relevance_level=relevance_level, ties=ties)
    if spec.family not in DECOMPOSABLE:
        raise ValueError(f"{spec.name} is not a sum over ranks; contributions are defined for "
                         "nDCG, AP, RR, P, R, Success, R-Prec, ERR and RBP")
    judged_docs, judged_grades = _judgements(qrels, query_id)
    if judged_docs is None:
        raise ValueError(f"query {query_id!r} has no judgements in {qrels.name!r}: it is not "
                         "evaluated")
    doc_ids, scores, keys = _ranked(run, query_id, order)
    grades = _grades_of(doc_ids, judged_docs, judged_grades)
    judged = grades != _UNJUDGED
    shown_grades = np.where(judged, grades, -1)
    if spec.ties == "average":
        rows = averaged_rows(spec, shown_grades, keys, judged_grades,
                             _ideal_dcg(spec, judged_grades))
    else:
        rows = _family_rows(spec, shown_grades, judged_grades)
    ideal = _ideal_rows(spec, judged_grades)
    return Contributions(spec.name, query_id, tuple(doc_ids.to_pylist()), scores,
                         shown_grades, judged, *rows, *ideal)


_UNJUDGED = np.iinfo(np.int64).min


def ranking(run: Run, query_id: str, order: str = "score") -> tuple[pa.Array, np.ndarray]:
    """The documents of ``query_id`` in trec_eval's order (key descending, ties by document
    id descending, bytes) and their scores; empty when the run does not hold the query."""
    docs, scores, _ = _ranked(run, query_id, order)
    return docs, scores


def _ranked(run: Run, query_id: str, order: str) -> tuple[pa.Array, np.ndarray, np.ndarray]:
    keys = ordering_keys(run, order)
    code = pc.index(run.queries, query_id).as_py()
    rows = np.flatnonzero(run.query_codes == code) if code is not None and code >= 0 else \
        np.empty(0, dtype=np.int64)
    docs = take(run.docs, run.doc_codes[rows])
    table = pa.table({"key": pa.array(keys[rows]), "doc": docs})
    order_rows = integers(pc.sort_indices(table, sort_keys=[("key", "descending"),
                                                             ("doc", "descending")]))
    return (docs.take(arrow_indices(order_rows)), np.asarray(run.scores)[rows][order_rows],
            keys[rows][order_rows])


def _judgements(qrels: Qrels, query_id: str) -> tuple[list[str] | None, np.ndarray]:
    code = pc.index(qrels.queries, query_id).as_py()
    rows = np.flatnonzero(qrels.query_codes == code) if code is not None and code >= 0 else \
        np.empty(0, dtype=np.int64)
    if not len(rows):
        return None, np.empty(0, dtype=np.int64)
    return take(qrels.docs, qrels.doc_codes[rows]).to_pylist(), qrels.relevance[rows]


def _grades_of(doc_ids: pa.Array, judged_docs: list[str], grades: np.ndarray) -> np.ndarray:
    found = pc.index_in(doc_ids, value_set=pa.array(judged_docs, pa.string()))
    out = np.full(len(doc_ids), _UNJUDGED, dtype=grades.dtype)  # float for fractional grades
    positions = found.to_pylist()
    for row, position in enumerate(positions):
        if position is not None:
            out[row] = grades[position]
    return out


def _family_rows(spec: MetricSpec, grades: np.ndarray, judged_grades: np.ndarray
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """gain, discount, contribution per rank (0-based positions)."""
    n = len(grades)
    position = np.arange(n)
    inside = position < spec.cutoff if spec.cutoff is not None else np.ones(n, dtype=bool)
    relevant = grades >= spec.relevance_level
    hits = relevant & inside
    num_relevant = float(np.count_nonzero(judged_grades >= spec.relevance_level))
    zeros = np.zeros(n)
    if spec.family == "ndcg":
        gain = gains(grades, spec.gain)
        discount = discounts(position)
        ideal = _ideal_dcg(spec, judged_grades)
        share = np.where(inside, gain * discount, 0.0)
        contribution = share / ideal if ideal > 0 else zeros
        return gain, discount, contribution
    if spec.family == "AP":
        gain = np.where(relevant, 1.0 / num_relevant if num_relevant else 0.0, 0.0)
        discount = np.cumsum(hits) / (position + 1.0)
        return gain, discount, np.where(hits, gain * discount, 0.0)
    if spec.family in ("RR", "success"):
        first = np.flatnonzero(hits)[:1]
        gain = zeros.copy()
        gain[first] = 1.0
        discount = 1.0 / (position + 1.0) if spec.family == "RR" else np.ones(n)
        return gain, discount, gain * discount
    if spec.family in ("P", "recall", "Rprec"):
        gain = relevant.astype(np.float64)
        if spec.family == "P":
            assert spec.cutoff is not None
            discount = np.full(n, 1.0 / spec.cutoff)
        else:
            discount = np.full(n, 1.0 / num_relevant if num_relevant else 0.0)
        counted = hits if spec.family != "Rprec" else relevant & (position < num_relevant)
        return gain, discount, np.where(counted, gain * discount, 0.0)
    if spec.family == "ERR":
        assert spec.max_grade is not None
        check_scale(spec, judged_grades, spec.max_grade)
        stop = np.where(inside, stop_probabilities(grades, spec.max_grade), 0.0)
        before = np.concatenate(([0.0], np.cumsum(np.log1p(-stop))[:-1])) if n else zeros
        discount = np.exp(before) / (position + 1.0)
        return stop, discount, stop * discount
    assert spec.family == "RBP" and spec.p is not None
    gain = relevant.astype(np.float64)
    discount = rank_weights(position, spec.p)
    return gain, discount, np.where(hits, gain * discount, 0.0)


def _ideal_dcg(spec: MetricSpec, judged_grades: np.ndarray) -> float:
    return float(_ideal_parts(spec, judged_grades)[3].sum())


def _ideal_parts(spec: MetricSpec, judged_grades: np.ndarray
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    grades = np.sort(judged_grades[judged_grades > 0])[::-1]
    if spec.cutoff is not None:
        grades = grades[:spec.cutoff]
    gain = gains(grades, spec.gain)
    discount = discounts(np.arange(len(grades)))
    return grades, gain, discount, gain * discount


def _ideal_rows(spec: MetricSpec, judged_grades: np.ndarray
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    if spec.family != "ndcg":
        empty = np.empty(0)
        return np.empty(0, dtype=np.int64), empty, empty, empty
    grades, gain, discount, share = _ideal_parts(spec, judged_grades)
    total = float(share.sum())
    return grades, gain, discount, share / total if total > 0 else share


__all__ = ["DECOMPOSABLE", "Contributions", "RankingOptions", "contributions", "ranking"]

"""Which moves explain B - A on one query: per document, its contribution in B minus in A.

Every metric ``contributions`` decomposes is a sum over ranks, so for one query

    value(B) - value(A) = sum over documents d of (contribution_B(d) - contribution_A(d))

exactly (a document outside a ranking, or past the cutoff, contributes 0 there). Ranking the
documents by the size of their part names the few moves that make most of the difference:
"doc X, grade 3, fell from 1 to 16: −0.31". For nDCG, P, R, RR and RBP a document's part is
its own doing; for AP and ERR it also reflects the documents that moved above it (the split
stays exact, but is an accounting, not a counterfactual). It does not say whether the
difference is noise (``ranklens.stats`` does, over all queries).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Unpack

from ranklens.data import Qrels, Run
from ranklens.data.grades import format_grade
from ranklens.formats import format_delta, format_value, literal
from ranklens.metrics.contributions import Contributions, RankingOptions, contributions
from ranklens.metrics.names import MetricSpec


@dataclass(frozen=True)
class Move:
    """One document's part of B - A: its ranks (None: not retrieved) and grade (None:
    unjudged)."""

    doc_id: str
    grade: float | None
    rank_a: int | None
    rank_b: int | None
    delta: float

    def describe(self) -> str:
        """``doc X, grade 3, fell from 1 to 16: −0.3100`` (ids written with ``literal``)."""
        grade = "unjudged" if self.grade is None else f"grade {format_grade(self.grade)}"
        return f"{literal(self.doc_id)}, {grade}, {self.movement()}: " \
               f"{format_delta(self.delta)}"

    def movement(self) -> str:
        a, b = self.rank_a, self.rank_b
        if a is None and b is not None:
            return f"entered at {b}"
        if b is None and a is not None:
            return f"dropped out (was {a})"
        if a is None or b is None:
            return "in neither ranking"
        if b > a:
            return f"fell from {a} to {b}"
        if b < a:
            return f"rose from {a} to {b}"
        return f"stayed at {a}"


@dataclass(frozen=True)
class QueryDifference:
    """B - A on one query for one metric, split into every document's part (largest first)."""

    metric: str
    query_id: str
    value_a: float
    value_b: float
    moves: tuple[Move, ...]
    a: Contributions
    b: Contributions

    @property
    def delta(self) -> float:
        return self.value_b - self.value_a

    def main_moves(self, most: int = 3, share: float = 0.8) -> tuple[Move, ...]:
        """The fewest largest moves (at most ``most``) whose parts add up to B - A within
        ``1 - share`` of its size (a move that overshoots is followed by those that take
        back); the ``most`` largest when no shorter prefix does."""
        chosen: list[Move] = []
        explained = 0.0
        for move in self.moves[:most]:
            chosen.append(move)
            explained += move.delta
            if abs(self.delta - explained) <= (1.0 - share) * abs(self.delta):
                break
        return tuple(chosen)

    def sentence(self, most: int = 3) -> str:
        """What the page and the report say under the two rankings (Markdown dialect)."""
        head = f"{self.metric} on {literal(self.query_id)}: A {format_value(self.value_a)}, " \
               f"B {format_value(self.value_b)} (B − A = {format_delta(self.delta)})"
        if not self.moves:
            return head + "; no document changed its part."
        chosen = self.main_moves(most)
        explained = sum(move.delta for move in chosen)
        listed = "; ".join(move.describe() for move in chosen)
        return f"{head}. {'Most of it' if len(chosen) < len(self.moves) else 'All of it'}: " \
               f"{listed} (together {format_delta(explained)})."


def explain_difference(
    run_a: Run,
    run_b: Run,
    qrels: Qrels,
    metric: str | MetricSpec,
    query_id: str,
    **options: Unpack[RankingOptions],
) -> QueryDifference:
    """Split B - A on ``query_id`` into the part of every document (``contributions`` of
    both runs; same semantics and errors). Documents whose part is 0 are left out. With
    ``ties="average"`` a tie group's expected parts go to its documents in trec_eval's order
    (the split stays exact; within a group it is by position, not by document). ``order``,
    ``gain``, ``relevance_level`` and ``ties`` are `contributions`' (`RankingOptions`)."""
    a = contributions(run_a, qrels, metric, query_id, **options)
    b = contributions(run_b, qrels, metric, query_id, **options)
    part_a = dict(zip(a.doc_ids, a.contribution.tolist(), strict=True))
    part_b = dict(zip(b.doc_ids, b.contribution.tolist(), strict=True))
    grade_of = {doc: ((int(g) if float(g).is_integer() else g) if j else None)
                for c in (a, b) for doc, g, j in zip(c.doc_ids, c.grade.tolist(),
                                                     c.judged.tolist(), strict=True)}
    moves = []
    for doc in dict.fromkeys((*a.doc_ids, *b.doc_ids)):
        delta = part_b.get(doc, 0.0) - part_a.get(doc, 0.0)
        if delta != 0.0:
            moves.append(Move(doc, grade_of[doc], a.rank_of(doc), b.rank_of(doc), delta))
    moves.sort(key=lambda move: (-abs(move.delta), move.doc_id))
    return QueryDifference(a.metric, query_id, a.value, b.value, tuple(moves), a, b)


__all__ = ["Move", "QueryDifference", "explain_difference"]

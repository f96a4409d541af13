"""What in a run or its judgements makes every metric say little: checked before anyone reads one.

``no_relevant_documents`` answers "do these judgements mark a single document relevant?" (if
not, every metric is 0 for every run and no comparison can find a difference);
``tied_queries`` answers "on how many queries does this run give every document the same
score?" (then the order within those queries is trec_eval's tie-break, descending doc id, not
the run's: a model that wrote a constant, or a run that keeps its order only in the rank
column). Each has a ``*_warning`` that says it in words, naming the file or run, or None.

They count; they neither score nor refuse anything.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ranklens.data import Qrels, Run
from ranklens.data.grades import format_grade
from ranklens.metrics.ordering import ordering_keys, run_blocks

TIED_SHARE = 0.5
"""A run is warned about when more than this share of its queries have one score throughout."""


def relevant_documents(qrels: Qrels, relevance_level: int = 1) -> int:
    """How many judged (query, document) pairs count as relevant (grade >= ``relevance_level``)."""
    return int(np.count_nonzero(np.asarray(qrels.relevance) >= relevance_level))


def no_relevant_documents(qrels: Qrels, relevance_level: int = 1) -> bool:
    """True when no judgement reaches ``relevance_level``: every metric is 0 for every run."""
    return relevant_documents(qrels, relevance_level) == 0


def no_relevant_warning(qrels: Qrels, file: str, relevance_level: int = 1) -> str | None:
    """The warning for judgements without one relevant document (``file`` names them), or None.

    Says what follows (every metric is 0 for both runs) and what to check.
    """
    if not no_relevant_documents(qrels, relevance_level):
        return None
    grades = np.unique(np.asarray(qrels.relevance))
    shown = ", ".join(format_grade(g) for g in grades[:5]) + (", ..." if len(grades) > 5 else "")
    return (f"{file} marks no document relevant: its {len(qrels):,} judgements have grades "
            f"{shown or 'none'}, none at or above {relevance_level}. Every metric is 0 for "
            "both runs, so there is no difference to find. Check that the grade column is the "
            "relevance (not an iteration or a rank) and that relevant documents are graded 1 "
            "or more.")


def tied_queries(run: Run) -> tuple[int, int]:
    """(queries whose documents all share one score, queries with two or more documents).

    One pass over the run sorted by query: a query is tied when its highest and lowest
    score are equal. Queries with a single document are not counted either way.
    """
    if not len(run):
        return 0, 0
    order = run_blocks(run, ordering_keys(run, "score"))
    starts, lengths = order.starts[:-1], order.lengths
    several = lengths >= 2
    highest = order.keys[starts[several]]
    lowest = order.keys[starts[several] + lengths[several] - 1]
    return int(np.count_nonzero(highest == lowest)), int(np.count_nonzero(several))


@dataclass(frozen=True)
class TiedScores:
    """How tied a run's scores are: ``tied`` of its ``counted`` queries (those with two or more
    documents) give every document one score; ``has_ranks``: it has a rank column to order by.

    The facts of `tied_scores_warning`, kept as data where the run's name is not known yet
    (runs scored while read, named at report time)."""

    tied: int
    counted: int
    has_ranks: bool

    @property
    def warns(self) -> bool:
        """True when most queries (more than `TIED_SHARE`) are tied."""
        return self.counted > 0 and self.tied > TIED_SHARE * self.counted

    def warning(self, label: str) -> str | None:
        """The warning in words (``label`` names the run), or None when it does not warn."""
        if not self.warns:
            return None
        remedy = ("If its order is in the rank column, order by rank instead (\"Order documents "
                  "by: rank\" on the page, --order rank in the CLI)." if self.has_ranks else
                  "Give each document its own score: the run has no rank column to order by.")
        return (f"{label} gives every document the same score on {self.tied:,} of its "
                f"{self.counted:,} queries: their documents are ordered by doc id (trec_eval's "
                f"tie-break), not by the run, and its metrics say little. {remedy}")


def tied_scores(run: Run, *, has_ranks: bool | None = None) -> TiedScores:
    """`tied_queries` of ``run`` with whether it can be ordered by rank (``has_ranks``,
    default: whether the run has a rank column)."""
    tied, counted = tied_queries(run)
    return TiedScores(tied, counted, run.ranks is not None if has_ranks is None else has_ranks)


def tied_scores_warning(run: Run, label: str, *, has_ranks: bool | None = None) -> str | None:
    """The warning for a run tied on most of its queries (``label`` names it), or None.

    Offers rank order when the run has a rank column (``has_ranks``, default: the run's).
    """
    return tied_scores(run, has_ranks=has_ranks).warning(label)

"""The judgements themselves: queries with nothing relevant, grades the metric does not expect,
and ids that look like another collection's.

Answers, counted with examples: how many judged queries have no document at the relevance
level (they score 0 in every run and count as ties); how many grades are negative (trec_eval
reads them as "in the pool, not judged") or larger than a graded scale holds; whether any run
shares a single document id with the judgements. Fractional grades (an LLM judge's 0.73) are
not a problem: the grades check says how many there are and the rule that reads them
(``ranklens.data.grades``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pyarrow as pa

from ranklens.data import Qrels
from ranklens.data.grades import format_grade, fractional_rule
from ranklens.health.result import HealthCheck

EXAMPLES = 3
LARGEST_GRADE = 10
"""Grades above this are not a relevance scale (scores, click counts?): with exp gain a grade
of 30 weighs 2^30 - 1."""


def relevant_check(qrels: Qrels, name: str, relevance_level: int) -> HealthCheck:
    """Queries of ``qrels`` without a document at ``relevance_level`` or above."""
    title = "Queries with a relevant document"
    relevant = np.zeros(len(qrels.queries), dtype=bool)
    relevant[qrels.query_codes[qrels.relevance >= relevance_level]] = True
    judged = np.zeros(len(qrels.queries), dtype=bool)
    judged[qrels.query_codes] = True
    empty = np.flatnonzero(judged & ~relevant)
    total = int(np.count_nonzero(judged))
    numbers = {"queries": total, "without_relevant": len(empty),
               "relevance_level": relevance_level}
    if not len(empty):
        return HealthCheck("relevant-documents", title, "passed",
                           f"Every one of the {total:,} judged queries of {name} has a document "
                           f"graded {relevance_level} or more.", numbers=numbers)
    examples = tuple(qrels.queries.take(pa.array(empty[:EXAMPLES])).to_pylist())
    shown = ", ".join(examples) + (", …" if len(empty) > EXAMPLES else "")
    if len(empty) == total:
        return HealthCheck(
            "relevant-documents", title, "failed",
            f"{name} marks no document relevant (grade {relevance_level} or more) on any of its "
            f"{total:,} queries: every metric is 0 for every run.",
            "Check that the grade column is the relevance (not an iteration or a rank) and that "
            "relevant documents are graded 1 or more (or lower --relevance-level).",
            numbers=numbers, examples=examples)
    return HealthCheck(
        "relevant-documents", title, "warning",
        f"{len(empty):,} of the {total:,} judged queries of {name} have no document graded "
        f"{relevance_level} or more ({shown}): they score 0 in every run and count as ties.",
        "Leave them out of the judgements if they were not meant to be judged, or check their "
        "grades.", numbers=numbers, examples=examples)


def grades_check(qrels: Qrels, name: str, gain: str, relevance_level: int = 1) -> HealthCheck:
    """Negative grades, and grades above `LARGEST_GRADE`, counted with the lines' ids; for
    fractional grades, how many and the rule that read them (at ``relevance_level``)."""
    title = "Grades the metrics expect"
    grades = np.asarray(qrels.relevance)
    negative = np.flatnonzero(grades < 0)
    large = np.flatnonzero(grades > LARGEST_GRADE)
    number = float if qrels.fractional else int
    numbers = {"judgements": len(grades), "negative": len(negative), "above_scale": len(large),
               "lowest": number(grades.min()) if len(grades) else 0,
               "highest": number(grades.max()) if len(grades) else 0,
               "fractional": int(np.count_nonzero(grades != np.round(grades)))}
    span = (f"{name}'s grades run from {format_grade(numbers['lowest'])} to "
            f"{format_grade(numbers['highest'])}")
    rule = fractional_rule(grades, relevance_level)
    if not len(negative) and not len(large):
        return HealthCheck("grades", title, "passed",
                           f"{span}; {rule}." if rule else f"{span}.", numbers=numbers)
    found, examples = [], []
    if len(negative):
        found.append(f"{len(negative):,} negative grades (trec_eval and ranklens read them as "
                     "not relevant and not judged)")
        examples += _rows(qrels, negative)
    if len(large):
        heavy = " and with exp gain each weighs 2^grade − 1" if gain == "exp" else ""
        found.append(f"{len(large):,} grades above {LARGEST_GRADE} (up to "
                     f"{format_grade(numbers['highest'])}): more like scores or counts than a "
                     f"relevance scale{heavy}")
        examples += _rows(qrels, large)
    if rule:
        found.append(rule)
    return HealthCheck("grades", title, "warning", f"{name} has " + "; ".join(found) + ".",
                       "Check that the grade column holds relevance grades (0, 1, 2, ...).",
                       numbers=numbers, examples=tuple(examples))


def collection_check(name: str, run_names: Sequence[str], in_qrels: Sequence[int],
                     qrels_examples: Sequence[str], run_examples: Sequence[str]) -> HealthCheck:
    """Failed when no run shares one document id with the judgements ``name``."""
    title = "Judgements of this collection"
    numbers = {"runs": len(run_names), "runs_sharing_documents": sum(1 for n in in_qrels if n)}
    if any(in_qrels):
        return HealthCheck("collection", title, "passed",
                           f"{name} shares document ids with "
                           f"{numbers['runs_sharing_documents']} of {len(run_names)} runs.",
                           numbers=numbers)
    return HealthCheck(
        "collection", title, "failed",
        f"{name}'s document ids look like another collection's: none occurs in any run "
        f"(judgements: {', '.join(qrels_examples)}; runs: {', '.join(run_examples)}).",
        "Give the judgements of the collection the runs retrieved from, or check the runs' "
        "document id column.", numbers=numbers,
        examples=(f"qrels: {', '.join(qrels_examples)}", f"runs: {', '.join(run_examples)}"))


def _rows(qrels: Qrels, rows: np.ndarray) -> list[str]:
    out = []
    for row in rows[:EXAMPLES].tolist():
        query = qrels.queries[int(qrels.query_codes[row])].as_py()
        doc = qrels.docs[int(qrels.doc_codes[row])].as_py()
        out.append(f"{query} {doc} {format_grade(qrels.relevance[row])}")
    return out

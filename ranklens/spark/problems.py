"""From a failed scoring job to an ``InputError`` that names the file and example rows.

The scorer (``batches``) stops at the first bad row with a tagged ``ValueError``; Spark hands
it to the driver wrapped in its own exception. ``input_errors`` reads the tag and runs one small
lookup job on the offending input (rows of that query or the bad values, with
``input_file_name()``), so the message says which file holds them, not only which query.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from pyspark.sql import Column, DataFrame
from pyspark.sql import functions as F

from ranklens.io.errors import InputError
from ranklens.spark.batches import QRELS_SIDE, problem_of
from ranklens.spark.read import format_of

EXAMPLES = 5
_LAYOUT = {"run": "qid Q0 docid rank score tag", "qrels": "qid iter docid rel"}


@contextmanager
def input_errors(frames: Sequence[DataFrame]) -> Iterator[None]:
    """Turn a scorer's tagged error into an ``InputError``; ``frames[side]`` is each input."""
    try:
        yield
    except InputError:
        raise
    except Exception as error:
        problem = problem_of(error)
        if problem is None:
            raise
        raise describe(problem, frames[int(problem["side"])]) from None


def describe(problem: dict[str, Any], frame: DataFrame) -> InputError:
    """The ``InputError`` for ``problem`` (as ``batches.raise_problem`` tagged it)."""
    side = int(problem["side"])
    kind = "qrels" if side == QRELS_SIDE else "run"
    value = "relevance" if kind == "qrels" else "score"
    query, doc = problem["query"], problem["doc"]
    source = problem["source"]
    if problem["kind"] == "duplicate":
        rows = _examples(frame, (F.col("query_id") == query) & (F.col("doc_id") == doc), 20)
        count = f"{len(rows)} times" if len(rows) < 20 else "20 times or more"
        return InputError(
            _file(rows, source),
            f"query {query!r} lists document {doc!r} {count} ({_listing(rows, value)})",
            hint=f"keep one row per (query, document) in the {kind}: ranklens will not guess "
                 "which one to keep")
    if problem["kind"] == "not_finite":
        bad = F.isnan(value) | (F.abs(F.col(value)) == float("inf"))
        rows = _examples(frame, bad, EXAMPLES)
        return InputError(
            _file(rows, source),
            f"score {problem['value']} is not a finite number ({_listing(rows, value)})",
            hint="write a real number for every score (NaN and infinity cannot be ranked)")
    if problem["kind"] == "fractional":
        rows = _examples(frame, (F.col("query_id") == query) & (F.col("doc_id") == doc), 1)
        return InputError(
            _file(rows, source),
            f"query {query!r}, document {doc!r}: relevance {problem['value']} is a fractional "
            "grade, and the Spark engine reads integer grades only",
            hint="score these judgements with the local engine (without --engine spark), which "
                 "reads fractional grades as gains (nDCG, ERR) and against the relevance level "
                 "(P, AP, RR, ...), or round them to integers first")
    what = problem["what"]
    column = "doc_id" if what == "document id" else value
    fractional = ("; a fractional grade (0.73, 2.5) is refused here: the Spark engine reads "
                  "integer grades only, and the local engine (without --engine spark) reads "
                  "fractional ones as gains" if kind == "qrels" else "")
    rows = _examples(frame, (F.col("query_id") == query) & F.col(column).isNull(), EXAMPLES)
    if format_of(frame) == "trec":
        message = (f"a line of query {query!r} has too few fields or a {value} that is not "
                   f"{'an integer' if kind == 'qrels' else 'a number'}")
        hint = f"a TREC {kind} line is '{_LAYOUT[kind]}'{fractional}"
    elif what == "document id":
        message = f"query {query!r} has a row without a document id ({_listing(rows, value)})"
        hint = "every row needs a document id"
    else:
        expected = "an integer grade" if kind == "qrels" else "a number"
        message = (f"query {query!r} has a {value} that is missing or not {expected} "
                   f"({_listing(rows, value)})")
        hint = f"write {expected} in the {value} column of every row{fractional}"
    return InputError(_file(rows, source), message, hint=hint)


def _examples(frame: DataFrame, where: Column, limit: int) -> list[dict[str, Any]]:
    found = frame.where(where).select(F.input_file_name().alias("_file"), "*").limit(limit)
    return [row.asDict() for row in found.collect()]


def _file(rows: list[dict[str, Any]], source: str) -> str:
    files = sorted({row["_file"] for row in rows if row.get("_file")})
    if not files:
        return source
    return files[0] if len(files) == 1 else f"{source} ({', '.join(files[:3])})"


def _listing(rows: list[dict[str, Any]], value: str) -> str:
    shown = [f"({row['query_id']!r}, {row['doc_id']!r}, {value}={row.get(value)!r})"
             for row in rows[:EXAMPLES]]
    more = ", ..." if len(rows) > EXAMPLES else ""
    return "rows " + ", ".join(shown) + more if shown else "rows not found again"

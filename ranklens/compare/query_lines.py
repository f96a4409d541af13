"""The queries B lost and won most, in words: id, text and the moves that explain B - A.

``explained_moves`` answers, for the queries a two-run report shows as lost and won most, which
documents' moves make B - A (``ranklens.metrics.explain_difference``, with document titles when
a collection is given) and keeps those sentences in the report (``Report.query_moves``), so the
CLI's text, the HTML export and the JSON say them without the runs
(``ranklens.compare.sections.queries`` draws them).
``scored_rankings`` gives the runs and judgements the report's per-query values were computed
on (after the unjudged treatment), which the page's contributions table uses too.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from ranklens.compare import report_tables
from ranklens.compare.query_texts import Texts, short
from ranklens.compare.report import Report
from ranklens.compare.sections.queries import SHOWN
from ranklens.data import Qrels, Run
from ranklens.formats import format_delta
from ranklens.metrics import condense_to_judged, explain_difference, parse_metric
from ranklens.metrics.contributions import DECOMPOSABLE
from ranklens.metrics.moves import Move

if TYPE_CHECKING:
    from ranklens.compare.loaded import LoadedInputs
    from ranklens.compare.settings import CompareSettings

TITLE_CHARS = 60


def scored_rankings(inputs: LoadedInputs, unjudged: str) -> tuple[Run, Run, Qrels] | None:
    """Runs A and B and the judgements as the per-query values scored them: unjudged documents
    non-relevant (as given), removed from the rankings (judged-only) or labelled by the proxy.
    None for per-query tables or runs not kept."""
    run_a, run_b, qrels = inputs.run_a, inputs.run_b, inputs.qrels
    if run_a is None or run_b is None or qrels is None:
        return None
    if unjudged == "proxy":
        qrels = inputs.filled_qrels().qrels
    elif unjudged == "judged-only":
        run_a, run_b = condense_to_judged(run_a, qrels), condense_to_judged(run_b, qrels)
    return run_a, run_b, qrels


def describe(move: Move, titles: Mapping[str, str]) -> str:
    """``doc X ("its title"), grade 3, fell from 1 to 16: −0.3100`` in plain text."""
    title = titles.get(move.doc_id, "")
    named = f'{move.doc_id} ("{short(title, TITLE_CHARS)}")' if title else move.doc_id
    grade = "unjudged" if move.grade is None else f"grade {move.grade}"
    return f"{named}, {grade}, {move.movement()}: {format_delta(move.delta)}"


def explained_moves(inputs: LoadedInputs, settings: CompareSettings, report: Report,
                    texts: Texts | None = None, n: int = SHOWN
                    ) -> dict[str, dict[str, str]]:
    """Per metric that is a sum over ranks, for the ``n`` queries B lost most and the ``n`` it
    won most, the sentence naming the moves that explain most of B - A. Empty for several
    candidates, per-query tables and runs not kept."""
    rankings = None if report.several else scored_rankings(inputs, settings.unjudged)
    if rankings is None:
        return {}
    run_a, run_b, qrels = rankings
    found: dict[str, dict[str, str]] = {}
    for metric in report.metrics:
        if parse_metric(metric).family not in DECOMPOSABLE:
            continue
        per_query = report_tables.per_query_table(report, metric)
        lost, won = report_tables.biggest_changes(per_query, n=n)
        sentences = {}
        for query in [*lost["query_id"], *won["query_id"]]:
            try:
                difference = explain_difference(
                    run_a, run_b, qrels, metric, str(query), order=settings.order,
                    gain=settings.gain, relevance_level=settings.relevance_level)
            except ValueError:  # a query without judgements is not evaluated
                continue
            chosen = difference.main_moves()
            docs = [move.doc_id for move in chosen]
            titles = {doc: d.title or " ".join(d.text.split()[:8])
                      for doc, d in (texts.lookup(docs) if texts else {}).items()}
            listed = "; ".join(describe(move, titles) for move in chosen)
            sentences[str(query)] = listed or "no document changed its part"
        found[metric] = sentences
    return found


__all__ = ["describe", "explained_moves", "scored_rankings"]

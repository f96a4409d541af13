"""The Compare page's "One query, both rankings", down to documents: their titles and texts,
the tie groups that cross the cutoff, what each rank contributed and which moves explain
B − A on the query.

Rows come from the library (``ranklens.metrics.contributions``, ``explain_difference``,
``tie_marks``, ``ranklens.compare.tie_reading.tie_shares``); this module only draws them.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import streamlit as st

from ranklens.app import lazy, markup
from ranklens.app import state as app_state
from ranklens.compare.analysis import LoadedInputs
from ranklens.compare.query_lines import describe, scored_rankings
from ranklens.compare.query_texts import Texts, short
from ranklens.compare.rankings import UNJUDGED, ranking
from ranklens.compare.report import Report
from ranklens.compare.term_matches import query_terms, term_spans
from ranklens.compare.tie_reading import tie_shares
from ranklens.data import Run
from ranklens.formats import format_delta
from ranklens.metrics import TREC_EVAL_TIE_RULE, explain_difference, parse_metric, tie_marks
from ranklens.metrics.contributions import DECOMPOSABLE
from ranklens.metrics.moves import QueryDifference

FIRST_WORDS = 10  # a document without a title is shown by its first words
TITLE_CHARS = 80


def label_of(title: str, text: str) -> str:
    """What a ranking row shows of a document: its title, else its first words."""
    shown = title or " ".join(text.split()[:FIRST_WORDS])
    return short(shown, TITLE_CHARS)


def cutoff_of(metric: str, k: int) -> int:
    """The rank a tie group must cross to change ``metric``: its cutoff, else the top k."""
    cutoff = parse_metric(metric).cutoff
    return int(cutoff) if cutoff is not None else int(k)


def with_documents(frame: pd.DataFrame, run: Run, query: str, texts: Texts | None,
                   cutoff: int, order: str) -> tuple[pd.DataFrame, bool]:
    """``frame`` (one run's top k, `side_by_side`) with ``title`` (when texts are given) and
    ``tie`` (the tie group of equal scores a rank is in, and whether it crosses ``cutoff``);
    answers also whether any shown group crosses it."""
    frame = frame.copy()
    if texts is not None and texts.documents is not None:
        found = texts.lookup(frame["doc_id"])
        frame["title"] = [label_of(found[d].title, found[d].text) if d in found else ""
                          for d in frame["doc_id"]]
    crossing = False
    if order == "score":
        scores = np.array([score for _, score in ranking(run, query, order=order)])
        marks, crosses = tie_marks(scores, cutoff)
        shown = len(frame)
        frame.insert(4, "tie", [
            "" if not marks[i] else (f"tie {marks[i]} \u2702" if crosses[i] else f"tie {marks[i]}")
            for i in range(shown)])
        crossing = bool(crosses[:shown].any())
    return frame, crossing


def show_tie_shares(inputs: LoadedInputs, report: Report, metric: str, order: str) -> None:
    """Per run, the share of queries whose cutoff falls inside a tie group (judged queries)."""
    if order != "score":
        return
    key = ("tie-shares", (app_state.input_key(inputs.files), metric, order))
    # a one-item tuple: the cache keeps no None
    (shares,) = app_state.once(key, lambda: (tie_shares(inputs, metric, order=order),))
    if not shares:
        return
    cutoff = shares[0].cutoff
    parts = [f"{markup.text(name)} {100 * s.share:.1f}% ({s.n_crossing:,} of {s.n_queries:,})"
             for name, s in zip(report.pair_names, shares, strict=False)]
    st.caption(f"Queries whose rank {cutoff} falls inside a group of equal scores: "
               + ", ".join(parts) + f". Within such a group {markup.text(TREC_EVAL_TIE_RULE)}"
               ", so document ids decide which of its documents count. The tie-averaged metric "
               "(**Order documents by**) scores the expected value over the group's orders "
               "instead.")


def show_explanation(report: Report, metric: str, inputs: LoadedInputs, query: str,
                     texts: Texts | None, k: int, scope: str) -> None:
    """The sentence naming the moves that explain most of B − A on ``query``, and each rank's
    contribution to ``metric`` in A and in B (and the ideal ranking, for nDCG)."""
    spec = parse_metric(metric)
    params = report.params
    rankings = scored_rankings(inputs, str(params.get("unjudged", "nonrelevant")))
    if rankings is None:
        return
    if spec.family not in DECOMPOSABLE:
        st.caption(f"{markup.text(metric)} is not a sum over ranks: no per-rank "
                   "contributions (they exist for nDCG, AP, RR, P, R, Success, R-Prec, ERR "
                   "and RBP).")
        return
    run_a, run_b, qrels = rankings
    try:
        difference = explain_difference(
            run_a, run_b, qrels, metric, query, order=str(params.get("order", "score")),
            gain=str(params.get("gain", "linear")),
            relevance_level=int(params.get("relevance_level", 1)))
    except ValueError as error:  # a query without judgements is not evaluated
        st.caption(markup.text(error))
        return
    st.markdown(_moves_sentence(difference, texts))
    # its grids drawn only when opened (issue 51)
    with lazy.opened(f"What each document contributed to {markup.text(metric)}",
                     f"parts:{metric}{scope}") as is_open:
        if is_open:
            _show_parts(report, metric, difference, k, scope)


def _show_parts(report: Report, metric: str, difference: QueryDifference, k: int,
                scope: str) -> None:
    """Each rank's contribution to ``metric`` in A and in B, and the ideal ranking's (nDCG)."""
    spec = parse_metric(metric)
    name_a, name_b = report.pair_names
    columns = st.columns(2)
    for column, part, name in ((columns[0], difference.a, f"A: {name_a}"),
                               (columns[1], difference.b, f"B: {name_b}")):
        frame = part.to_frame().drop(columns=["score"])  # the scores are in the rankings
        depth = max(k, spec.cutoff or 0)
        frame = frame[(frame["rank"] <= depth) | (frame["contribution"] != 0)]
        frame["grade"] = [UNJUDGED if pd.isna(g) else str(g) for g in frame["grade"]]
        column.markdown(f"**{markup.text(name)}** · sum {part.value:.4f}")
        column.dataframe(frame, hide_index=True, key=f"parts:{name}:{metric}{scope}",
                         column_config=_PART_COLUMNS)
    if spec.family == "ndcg" and len(difference.a.ideal_grade):
        ideal = difference.a.ideal_frame()
        ideal = ideal[(ideal["rank"] <= max(k, spec.cutoff or 0))
                      | (ideal["contribution"] != 0)]
        st.markdown("**Ideal ranking** (its DCG is what nDCG divides by; its parts sum "
                    "to 1)")
        st.dataframe(ideal, hide_index=True, key=f"ideal:{metric}{scope}",
                     column_config=_PART_COLUMNS)
    st.caption(f"Contribution = gain × discount (for nDCG divided by the ideal DCG); a "
               f"run's contributions sum to its {markup.text(metric)} on this query. For "
               "AP and ERR a document's part depends on those above it: an exact "
               "accounting, not what removing it would change.")


_PART_COLUMNS: dict[str, Any] = {
    "rank": st.column_config.NumberColumn("Rank", width="small"),
    "doc_id": "Document",
    "grade": st.column_config.TextColumn("Grade", width="small"),
    "gain": st.column_config.NumberColumn("Gain", format="%.4f"),
    "discount": st.column_config.NumberColumn("Discount", format="%.4f"),
    "contribution": st.column_config.NumberColumn("Contribution", format="%.4f"),
    "cumulative": st.column_config.NumberColumn("Cumulative", format="%.4f"),
}


def _moves_sentence(difference: QueryDifference, texts: Texts | None) -> str:
    if not difference.moves:
        return "No document changed its part: B \u2212 A is 0 on this query."
    chosen = difference.main_moves()
    found = texts.lookup(m.doc_id for m in chosen) if texts is not None else {}
    titles = {doc: label_of(d.title, d.text) for doc, d in found.items()}
    listed = "; ".join(markup.text(describe(move, titles)) for move in chosen)
    together = sum(move.delta for move in chosen)
    lead = "Most of" if len(chosen) < len(difference.moves) else "All of"
    return (f"**{lead} B \u2212 A = {format_delta(difference.delta)}:** {listed} "
            f"(together {format_delta(together)}).")


def marked(text: str, terms: tuple[str, ...]) -> str:
    """``text`` as Markdown showing exactly its characters, the query's ``terms`` marked."""
    return "".join(f":orange-background[{markup.text(span.text)}]" if span.match
                   else markup.text(span.text) for span in term_spans(text, terms))


def show_texts(frames: tuple[pd.DataFrame, pd.DataFrame], names: tuple[str, str],
               texts: Texts | None, query_text: str = "", key: str = "") -> None:
    """The full text of each shown document, on demand (one section per run, drawn only when
    opened; ``key``: the metric and scope of the sections), the query's terms marked in titles
    and texts (`ranklens.compare.term_matches`)."""
    if texts is None or texts.documents is None:
        return
    terms = query_terms(query_text)
    columns = st.columns(2)
    for column, frame, name, side in zip(columns, frames, names, "ab", strict=True):
        with lazy.opened(f"Full texts: {markup.text(name)}'s top {len(frame)}",
                         f"texts:{side}:{key}", place=column) as is_open:
            if is_open:
                _show_full_texts(frame, texts, terms)


def _show_full_texts(frame: pd.DataFrame, texts: Texts, terms: tuple[str, ...]) -> None:
    """Each document of ``frame`` (rank, id, title and text, ``terms`` marked)."""
    found = texts.lookup(frame["doc_id"])
    if not found:
        st.caption("None of these documents is in the documents file.")
    for rank, doc in zip(frame["rank"], frame["doc_id"], strict=True):
        document = found.get(doc)
        if document is None:
            st.markdown(f"**{rank}. {markup.text(doc)}** · not in the documents file")
            continue
        title = f" · {marked(document.title, terms)}" if document.title else ""
        st.markdown(f"**{rank}. {markup.text(doc)}**{title}  \n"
                    f"{marked(document.text, terms)}")


def tie_rule_note(crossing: bool, cutoff: int) -> None:
    """Under the rankings, when a tie group crosses the cutoff: which rule decided it."""
    if crossing:
        st.caption(f"\u2702 marks a group of equal scores that rank {cutoff} falls inside: "
                   f"{markup.text(TREC_EVAL_TIE_RULE)}, so their ids decide which of them "
                   "count in the metric.")


__all__ = ["cutoff_of", "label_of", "show_explanation", "show_texts", "show_tie_shares",
           "tie_rule_note", "with_documents"]

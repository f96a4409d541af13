"""The Compare page's per-query detail: the per-query table with its downloads, the document
orderings note and two rankings side by side for a picked query.

Each ``show_*`` draws one section with Streamlit from the Report and the loaded inputs (rows from
``ranklens.compare.report_tables`` and ``ranklens.compare.rankings``); it computes no statistic.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping

import pandas as pd
import streamlit as st

from ranklens.app import chart_cache, compare_drill, lazy, markup
from ranklens.app import state as app_state
from ranklens.app.compare_tables import text_width
from ranklens.compare import charts, report_tables
from ranklens.compare.analysis import LoadedInputs
from ranklens.compare.query_texts import Texts, short
from ranklens.compare.rankings import UNJUDGED, most_reordered, query_rbo, side_by_side
from ranklens.compare.report import Report
from ranklens.formats import format_delta

DELTA_ORDER, RBO_ORDER = "B \u2212 A", "Rankings (RBO)"
RANKINGS_TITLE = "One query, both rankings"
# B − A right after the query: at 1400 px half a page cut it to "B" when it came after the
# text and both runs' values; the text, which may be cut, comes last
PER_QUERY_COLUMNS = ("query_id", "delta", "a", "b", "judged_a", "judged_b", "residual_a",
                     "residual_b", "segment", "text")


def rankings_section(metric: str, scope: str = "") -> str:
    """The name (`lazy.opened`) of "One query, both rankings" of ``metric``."""
    return f"rankings:{metric}{scope}"


def show_per_query(report: Report, metric: str, inputs: LoadedInputs,
                   segments: Mapping[str, str] | None, scope: str = "",
                   texts: Texts | None = None) -> None:
    """The per-query counts, then two sections drawn only when opened (issue 51: they were
    most of what every click cost the browser): the histogram of B − A with the queries B
    lost and won most, and one query's two rankings."""
    result = report.comparison(metric).overall
    name_b = report.pair_names[1]
    per_query = report_tables.with_query_coverage(report, metric,
                                          report_tables.per_query_table(report, metric, segments))
    st.subheader("Per query", anchor=False)
    cells = st.columns(4)
    cells[0].metric(f"{markup.text(name_b)} wins", f"{result.outcomes.wins:,}")
    cells[1].metric("Ties", f"{result.outcomes.ties:,}")
    cells[2].metric(f"{markup.text(name_b)} loses", f"{result.outcomes.losses:,}")
    with cells[3]:
        show_orderings(inputs, str(report.params.get("order", "score")))
    if report.query_texts:  # issue 30: the text beside the id
        per_query.insert(1, "text", [report.query_texts.get(q, "") for q in per_query["query_id"]])
    pick_key = f"query:{metric}{scope}"
    with lazy.opened(f"B \u2212 A per query: its distribution, the queries {markup.text(name_b)} "
                     "lost and won most", f"per_query:{metric}{scope}",
                     icon=":material/bar_chart:") as is_open:
        if is_open:
            show_query_tables(report, metric, per_query, pick_key, scope)
    show_rankings(report, metric, inputs, per_query.sort_values(["delta", "query_id"]), pick_key,
                  scope, texts)


def show_query_tables(report: Report, metric: str, per_query: pd.DataFrame, pick_key: str,
                      scope: str) -> None:
    """The histogram of B − A and the queries B lost and won most (a click on a row picks the
    query in "One query, both rankings" and opens it)."""
    name_a, name_b = report.pair_names
    chart_cache.show_altair(
        lambda: charts.delta_histogram(per_query, metric=metric, run_names=report.pair_names),
        (per_query,), ("histogram", metric, report.pair_names), key=f"hist:{metric}{scope}")
    lost, won = report_tables.biggest_changes(per_query, n=10)
    coverage = None if report.coverage is None else report.coverage.metric(metric)
    judged_help = ("" if coverage is None else
                   f"{coverage.judged_metric}: share of the top {coverage.depth} documents "
                   "that have a judgement")
    residual_help = markup.text(f"The most unjudged documents could add to this query's "
                                f"{metric}")
    columns = st.columns(2)
    for column, frame, title, key in ((columns[0], lost, f"Queries {name_b} lost most", "lost"),
                                      (columns[1], won, f"Queries {name_b} won most", "won")):
        column.markdown(f"**{markup.text(title)}** · click a row to see its rankings")
        column.dataframe(
            frame.drop(columns=["outcome"]), hide_index=True, key=f"{key}:{metric}{scope}",
            on_select=row_picker(f"{key}:{metric}{scope}", frame, pick_key,
                                 rankings_section(metric, scope)),
            selection_mode="single-row",
            column_order=[c for c in PER_QUERY_COLUMNS if c in frame.columns],
            column_config={
                "query_id": st.column_config.TextColumn("Query", width=60),
                "text": st.column_config.TextColumn("Text", width="medium"),
                # headed by the runs' names: as wide as the name, or the header is cut
                "a": st.column_config.NumberColumn(name_a, format="%.4f",
                                                   width=text_width([name_a], 75),
                                                   help=markup.text(f"{metric} of {name_a} (A)")),
                "b": st.column_config.NumberColumn(name_b, format="%.4f",
                                                   width=text_width([name_b], 75),
                                                   help=markup.text(f"{metric} of {name_b} (B)")),
                "delta": st.column_config.NumberColumn("B \u2212 A", format="%+.4f", width=75),
                "segment": "Segment",
                "judged_a": st.column_config.NumberColumn("Judged A", format="percent",
                                                          help=judged_help, width=75),
                "judged_b": st.column_config.NumberColumn("Judged B", format="percent",
                                                          help=judged_help, width=75),
                "residual_a": st.column_config.NumberColumn(
                    "Residual A", format="+%.3f", help=residual_help),
                "residual_b": st.column_config.NumberColumn(
                    "Residual B", format="+%.3f", help=residual_help),
            },
        )


def show_orderings(inputs: LoadedInputs, order: str) -> None:
    """Mean RBO of the two runs: how different the orderings are (not which is better)."""
    if inputs.run_a is None or inputs.run_b is None:
        return
    small = len(inputs.run_a) + len(inputs.run_b) <= app_state.EAGER_RBO_ROWS
    orderings = app_state.cached_rbo(inputs, order=order, compute=small)
    if orderings is None:
        orderings = app_state.cached_rbo(
            inputs, order=order,
            compute=st.button("Compare orderings (RBO)", key="rbo",
                              help="Rank-biased overlap over every query both runs rank. On "
                                   "runs of millions of rows this takes a while."))
    if orderings is not None:
        st.metric(f"Mean RBO (p={app_state.RBO_P:g})", f"{orderings.mean:.3f}",
                  help=f"Rank-biased overlap of the two runs' orderings, averaged over the "
                       f"{len(orderings.per_query):,} queries both rank: 1 = same order, "
                       "0 = no document in common. It says how different the rankings are, "
                       "not which one is better.")


def row_picker(table_key: str, frame: pd.DataFrame, pick_key: str,
               open_key: str | None = None) -> Callable[[], None]:
    """Callback: a click on a row of ``frame`` picks that query in the rankings view (and
    opens the section keyed ``open_key``, where the rankings are drawn)."""
    def pick() -> None:
        rows = st.session_state[table_key].selection.rows
        if rows:
            st.session_state[pick_key] = frame["query_id"].iloc[rows[0]]
            if open_key is not None:
                lazy.open_section(open_key)
    return pick


# a query or k picked here reruns this view only, not the page (issue 51)
@st.fragment
def show_rankings(report: Report, metric: str, inputs: LoadedInputs, per_query: pd.DataFrame,
                  pick_key: str, scope: str = "", texts: Texts | None = None) -> None:
    """"One query, both rankings": drawn only while its section is open."""
    with lazy.opened(RANKINGS_TITLE, rankings_section(metric, scope),
                     icon=":material/compare_arrows:") as is_open:
        if is_open:
            show_query(report, metric, inputs, per_query, pick_key, scope, texts)


def show_query(report: Report, metric: str, inputs: LoadedInputs, per_query: pd.DataFrame,
               pick_key: str, scope: str = "", texts: Texts | None = None) -> None:
    """A picked query: both runs' top k, their documents, ties and what explains B − A."""
    if inputs.run_a is None or inputs.run_b is None:
        st.caption("The inputs are per-query metric tables: there are no rankings to show.")
        return
    name_a, name_b = report.pair_names
    deltas = dict(zip(per_query["query_id"], per_query["delta"], strict=True))
    if st.session_state.get(pick_key) not in deltas:
        st.session_state.pop(pick_key, None)
    left, middle, right, _ = st.columns([2, 1.3, 0.7, 2])
    orderings = app_state.cached_rbo(inputs, order=str(report.params.get("order", "score")),
                                     compute=False)
    by_rbo = orderings is not None and middle.radio(
        "Order queries by", (DELTA_ORDER, RBO_ORDER), key=f"query_order:{metric}{scope}",
        help="B \u2212 A: biggest losses first. Rankings: the queries the two runs rank most "
             f"differently first (lowest RBO, p={app_state.RBO_P:g}), whatever the metric "
             "says.") == RBO_ORDER
    rbo_of = dict(orderings.per_query) if by_rbo and orderings is not None else {}
    options = most_reordered(deltas, rbo_of) if by_rbo else list(deltas)
    query_texts = report.query_texts

    def shown_query(q: str) -> str:  # the same words in either order (the pick is kept)
        said = f"{q} · {short(query_texts[q], 60)}  " if q in query_texts else f"{q}  "
        return said + f"({format_delta(deltas[q], 3)})"

    query = left.selectbox(
        "Query", options, key=pick_key, format_func=shown_query,
        help=(f"Ordered by how differently the runs rank them (RBO), then B \u2212 A on "
              f"{metric}." if by_rbo else
              f"Ordered by B \u2212 A on {metric}, biggest losses first.")
             + (" Type to search by id or text." if query_texts else ""))
    k = right.number_input("Top k", min_value=1, max_value=100, value=10, step=1,
                           key=f"k:{metric}{scope}")
    row = per_query.loc[per_query["query_id"] == query].iloc[0]
    order = str(report.params.get("order", "score"))
    shown = side_by_side(inputs.run_a, inputs.run_b, inputs.qrels, str(query), int(k),
                         order=order)
    overlap = query_rbo(inputs.run_a, inputs.run_b, str(query), p=app_state.RBO_P, order=order)
    likeness = "" if overlap is None else f" · RBO (p={app_state.RBO_P:g}) {overlap:.3f}"
    text = query_texts.get(str(query), "")
    st.markdown(
        f"**{markup.text(query)}**" + (f" \u201c{markup.text(text)}\u201d" if text else "")
        + f" · {markup.text(metric)}: {markup.text(name_a)} "
        f"{row['a']:.4f}, {markup.text(name_b)} {row['b']:.4f} "
        f"(B \u2212 A {format_delta(float(row['delta']))}) · {shown.n_overlap} of the top "
        f"{int(k)} documents in both, {shown.n_entered} entered B's top {int(k)}{likeness}")
    compare_drill.show_tie_shares(inputs, report, metric, order)
    cutoff = compare_drill.cutoff_of(metric, int(k))
    frame_a, cross_a = compare_drill.with_documents(shown.a, inputs.run_a, str(query), texts,
                                                    cutoff, order)
    frame_b, cross_b = compare_drill.with_documents(shown.b, inputs.run_b, str(query), texts,
                                                    cutoff, order)
    _show_two_rankings(frame_a, frame_b, report.pair_names, f"{metric}{scope}", cutoff)
    compare_drill.tie_rule_note(cross_a or cross_b, cutoff)
    compare_drill.show_texts((frame_a, frame_b), report.pair_names, texts,
                             texts.query_text(str(query)) if texts is not None else text,
                             key=f"{metric}{scope}")
    compare_drill.show_explanation(report, metric, inputs, str(query), texts, int(k), scope)


def _show_two_rankings(frame_a: pd.DataFrame, frame_b: pd.DataFrame, names: tuple[str, str],
                       key: str, cutoff: int) -> None:
    """A's and B's top documents side by side (``key``: the metric and scope of the widgets;
    ``cutoff``: the rank whose tie group is marked); draws, answers nothing."""
    name_a, name_b = names
    columns = st.columns(2)
    for column, frame, title, moved in ((columns[0], frame_a, f"A: {name_a}", "Where in B"),
                                        (columns[1], frame_b, f"B: {name_b}", "Moved vs A")):
        column.markdown(f"**{markup.text(title)}**")
        column.dataframe(
            frame.style.map(_label_colour, subset=["label"]).map(_change_colour,
                                                                 subset=["change"]),
            hide_index=True, key=f"ranking:{title}:{key}",
            # every number and the move first, the title last: at 1400 px half a page holds
            # rank to score whole, and a long title is what gets cut (its full text is in
            # "Full texts" below); the tie column only when a shown rank is in a tie group
            column_order=[c for c in ("rank", "doc_id", "label", "change", "score", "tie",
                                      "title") if c in frame.columns
                          and (c != "tie" or frame["tie"].astype(bool).any())],
            column_config={
                # each as wide as its longest text at 1400 px (tests/browser/test_legible_at_1400)
                "rank": st.column_config.NumberColumn("Rank", width=48),
                "doc_id": st.column_config.TextColumn("Document",
                                                      width=text_width(frame["doc_id"], 78)),
                "score": st.column_config.NumberColumn("Score", format="%.4g", width=60),
                "label": st.column_config.TextColumn("Label", width=76),
                "change": st.column_config.TextColumn(moved,
                                                      width=text_width(frame["change"], 122)),
                "title": st.column_config.TextColumn("Title", width="medium"),
                "tie": st.column_config.TextColumn(
                    "Tie", width=48,
                    help="Documents with equal scores share a tie group; \u2702 marks the "
                         f"group that rank {cutoff} falls inside."),
            },
        )


def _label_colour(label: object) -> str:
    if label == UNJUDGED:
        return "color: #8c959f; font-style: italic"
    grade = float(str(label))  # a fractional grade (0.73) takes the next whole grade's shade
    if grade <= 0:
        return ""
    shade = {1: "#dafbe1", 2: "#aceebb", 3: "#6fdd8b"}.get(math.ceil(grade), "#4ac26b")
    return f"background-color: {shade}"


def _change_colour(change: object) -> str:
    change = str(change)
    if change.startswith("entered"):
        return "color: #0969da"
    if change.startswith("left"):
        return "color: #bc4c00"
    return "color: #57606a" if change == "same" else ""


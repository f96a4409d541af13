"""Compare page: is run B really better than run A, and where?

Inputs (the bundled demo, or uploaded runs + judgements + an optional segment map and proxy
judgements) and settings in the sidebar; in the main area per metric the judgement-coverage
banner when unjudged documents could change the verdict, the verdict, the forest plot of
segments with its table, the same comparison under three treatments of unjudged documents, and
per-query detail down to two rankings side by side. The page collects files and settings and
draws what the library returns: no statistics, no parsing here.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any

import pandas as pd
import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from ranklens.app import downloads, markup, share_widget, widgets
from ranklens.app import state as app_state
from ranklens.app.cards import show_card
from ranklens.app.entrypoint import run_through_app
from ranklens.compare import charts, coverage_words, views
from ranklens.compare.analysis import CompareSettings, LoadedInputs
from ranklens.compare.changes import report_changes
from ranklens.compare.coverage import TREATMENT_NAMES
from ranklens.compare.rankings import UNJUDGED, query_rbo, side_by_side
from ranklens.compare.report import Report
from ranklens.compare.segments import INTERVALS_NOTE, MetricComparison
from ranklens.compare.words import (
    caveat,
    conclusion,
    headline,
    interval_note,
    segments_summary,
)
from ranklens.formats import Card, format_delta, format_interval, format_p
from ranklens.io import InputError, InputFile
from ranklens.share import StoredResultError, compare_settings, stored_report

run_through_app(__file__)  # see ranklens.app.entrypoint: a page always runs inside app.py

NO_SEGMENTS = "(none)"
MISSING_POLICIES = {
    "drop": "Leave out (compare queries in both runs)",
    "zero": "Score 0 where missing (trec_eval -c)",
}
ORDERS = {"score": "Score (trec_eval)", "rank": "Rank column"}
DEMO_CANDIDATES = {
    "run_b": "Neural re-ranker (judged alike)",
    "run_dense": "Dense retriever (many unjudged documents)",
}
PER_QUERY_COLUMNS = ("query_id", "a", "b", "delta", "judged_a", "judged_b", "residual_a",
                     "residual_b", "segment")


# ---- inputs -------------------------------------------------------------------------------

def choose_files() -> tuple[dict[str, InputFile], str] | None:
    """Sidebar: the demo data or the user's files. None when uploads are not complete yet."""
    with st.sidebar:
        if widgets.uses_demo("data_source", "Bundled demo: a BM25 baseline against a neural "
                             "re-ranker or a dense retriever on 400 queries with graded "
                             "judgements, proxy labels of each run's top 20 and two segment "
                             "columns (intent, length)."):
            candidate = st.radio(
                "Candidate (B)", tuple(DEMO_CANDIDATES), format_func=DEMO_CANDIDATES.__getitem__,
                key="demo_candidate",
                help="The dense retriever also finds documents outside the judged pool: its "
                     "top 10 is far less judged than BM25's, and the coverage banner shows.")
            return app_state.demo_compare_files(candidate), "demo data"
        # A form: picking four files triggers no rerun until "Compare", so a 250 MB run is
        # not read again each time the next file arrives.
        with st.form("uploads", border=False):
            uploads = {
                "run_a": st.file_uploader("Run A (baseline)", key="upload_run_a",
                                          help="The run you compare against. "
                                               + widgets.FORMATS_HELP),
                "run_b": st.file_uploader("Run B (candidate)", key="upload_run_b",
                                          help="The run you want to know is better. "
                                               + widgets.FORMATS_HELP),
                "qrels": st.file_uploader(
                    "Judgements (qrels)", key="upload_qrels",
                    help="Relevance labels: query_id, doc_id, grade (TREC qrels or a table). "
                         "Leave empty when the two run files are per-query metric tables "
                         "(query_id and one column per metric, or trec_eval -q output)."),
                "segments": st.file_uploader(
                    "Segment map (optional)", key="upload_segments",
                    help="query_id and one or more segment columns (intent, market, "
                         "length...)."),
                "qrels_proxy": st.file_uploader(
                    "Proxy judgements (optional)", key="upload_proxy",
                    help="Cheap labels (an LLM judge) of documents nobody judged: the "
                         "robustness view then also fills the holes with them. Same formats as "
                         "the judgements."),
            }
            st.form_submit_button("Compare", type="primary", icon=":material/play_arrow:")
    if uploads["run_a"] is None or uploads["run_b"] is None:
        st.info("Choose run A, run B and the judgements in the sidebar, then **Compare**. "
                "Without judgements, the two files are read as per-query metric tables. "
                "Or switch **Data** back to the demo.")
        # A file over the limit never reaches the server (the browser refuses it and marks
        # it red, its reason in a tooltip): say here what the limit is and what to do.
        limit = f"{app_state.upload_limit_bytes() // 2**20:,} MB"  # as the uploaders say it
        st.caption(f"Each file can be up to {limit}, this server's upload limit (a gzip file "
                   "counts by its decompressed size). A larger file is marked red in its box "
                   "and is not sent: remove it (×) and choose a smaller one, or ask "
                   "whoever runs this app to raise `server.maxUploadSize`.")
        return None
    files = {role: app_state.input_file(role, upload)
             for role, upload in uploads.items() if upload is not None}
    return files, "your files"


def choose_settings(inputs: LoadedInputs) -> CompareSettings | None:
    """Sidebar: metrics, segment column, run names and statistics. None without a metric."""
    # Widget keys name what their choices depend on, so new files reset exactly those widgets.
    tables = inputs.available_metrics
    segment_file = next((f.sha256[:16] for f in inputs.files if f.role == "segments"), "none")
    with st.sidebar:
        if tables is None:
            metrics = widgets.metrics("metrics:runs", help="One panel per metric.")
        else:
            options = list(tables)
            default = [m for m in options if m.lower() == "ndcg@10"] or options[:1]
            metrics = st.multiselect("Metrics", options, default=default,
                                     key=f"metrics:{'|'.join(options)}",
                                     help="The metric columns both per-query tables have.")
        columns = (NO_SEGMENTS, *inputs.segment_columns)
        segment = st.selectbox("Segment by", columns, index=1 if len(columns) > 1 else 0,
                               key=f"segment:{segment_file}",
                               help="One row of the forest plot per value of this column.")
        default_a, default_b = inputs.default_run_names
        with st.expander("Run names"):
            name_a = st.text_input("Name of run A", default_a, key=f"name_a:{default_a}")
            name_b = st.text_input("Name of run B", default_b, key=f"name_b:{default_b}")
        with st.expander("Statistics", expanded=True):
            alpha = widgets.alpha("alpha")
            resamples = st.number_input(
                "Resamples", min_value=1_000, max_value=100_000, value=10_000, step=1_000,
                key="resamples",
                help="Bootstrap resamples for the interval and sign flips for the p-value.")
            seed = st.number_input("Seed", min_value=0, value=0, step=1, key="seed",
                                   help="Same inputs and seed, same numbers.")
            missing = st.radio("Queries missing from one run", tuple(MISSING_POLICIES),
                               format_func=MISSING_POLICIES.__getitem__, key="missing")
            order = st.radio(
                "Order documents by", tuple(ORDERS), format_func=ORDERS.__getitem__,
                key="order", disabled=tables is not None,
                help="Score, ties broken by doc id descending, as trec_eval does; or the "
                     "runs' rank column, for runs whose scores do not carry their order "
                     "(a constant score, ranks only).")
        treatments = inputs.treatments
        unjudged = "nonrelevant"
        if treatments:
            unjudged = st.radio(
                "Unjudged documents", treatments, format_func=TREATMENT_NAMES.__getitem__,
                key=f"unjudged:{len(treatments)}",
                help="How documents without a judgement are scored in the verdict, the "
                     "segments and the per-query view. The section "
                     f"\u201c{coverage_words.ROBUSTNESS_TITLE}\u201d shows all of them side by "
                     "side whatever you pick here.")
    if not metrics:
        st.info("Pick at least one metric in the sidebar.")
        return None
    return CompareSettings(
        metrics=tuple(metrics),
        segment_column=None if segment == NO_SEGMENTS else segment,
        alpha=float(alpha), n_resamples=int(resamples), n_permutations=int(resamples),
        seed=int(seed), missing=str(missing), order=str(order),
        run_names=(name_a.strip() or default_a, name_b.strip() or default_b),
        unjudged=str(unjudged),
    )


# ---- report sections ----------------------------------------------------------------------

def title_area() -> tuple[DeltaGenerator, DeltaGenerator]:
    """The page title; returns the places for the caption (left) and the downloads (right)."""
    left, right = st.columns([5, 1], vertical_alignment="bottom")
    left.title("Compare runs")
    return left, right


def show_title(place: tuple[DeltaGenerator, DeltaGenerator], report: Report,
               origin: str) -> None:
    left, right = place
    name_a, name_b = markup.names(report.run_names)
    queries = report.comparisons[0].overall.n_queries
    left.caption(f"**{name_b}** (B) against **{name_a}** (A) · {queries:,} paired queries · "
                 f"{origin}")
    right.download_button("Report (JSON)", report.to_json(), file_name="ranklens-report.json",
                          mime="application/json", on_click="ignore", icon=":material/download:",
                          help="Every input digest, parameter and number of this page.")
    downloads.html_download(report, container=right)


def show_warnings(report: Report) -> None:
    """Every warning of the report and every row a reader set aside, visible."""
    lines = list(report.warnings)
    for record in report.inputs:
        for item in record.summary.get("set_aside", ()):
            lines.append(f"{record.name}: {item['rows']:,} rows set aside: {item['reason']}")
    if lines:
        st.warning("\n".join(f"- {markup.text(line)}" for line in lines),
                   icon=":material/warning:")


def show_inputs(report: Report) -> None:
    set_aside = any(record.summary.get("set_aside") for record in report.inputs)
    label = f"Inputs: {len(report.inputs)} files read" + (", rows set aside" if set_aside else "")
    with st.expander(label, expanded=set_aside):
        for record in report.inputs:
            role = record.role.replace("_", " ")
            description = markup.text(record.summary.get("description", record.name))
            st.markdown(f"**{role}** · {description}  \n"
                        f"<small>sha256 {record.sha256[:16]}… · {record.size:,} bytes</small>",
                        unsafe_allow_html=True)


def as_shown(comparison: MetricComparison) -> MetricComparison:
    """The comparison with its metric and segment names escaped for Markdown (display only:
    the words of ``ranklens.compare.words`` then render them literally)."""
    return dataclasses.replace(
        comparison, metric=markup.text(comparison.metric),
        segments=tuple(dataclasses.replace(row, segment=markup.text(row.segment))
                       for row in comparison.segments))


def show_verdict(report: Report, metric: str) -> None:
    comparison = as_shown(report.comparison(metric))
    result = comparison.overall
    metric = comparison.metric
    name_a, name_b = shown = markup.names(report.run_names)
    first = conclusion(comparison, shown)
    with st.container(border=True):
        st.subheader(first, anchor=False)
        st.markdown(headline(comparison, shown).removeprefix(first).strip())
        level = round(100 * (1 - result.alpha))
        cells = st.columns([1, 1, 2, 1, 1])
        mean_help = f"Mean {metric} over the {result.n_queries:,} paired queries."
        cells[0].metric(f"{name_a} (A)", f"{result.mean_a:.4f}", help=mean_help)
        # the delta's text has a real minus: its arrow and colour come from the number
        show_card(cells[1], Card(f"{name_b} (B)", f"{result.mean_b:.4f}", result.mean_b,
                                 help=mean_help, delta=format_delta(result.delta),
                                 trend=result.delta))
        cells[2].metric(f"{level}% interval of B \u2212 A",
                        format_interval(result.interval.low, result.interval.high),
                        help=interval_note(comparison))
        cells[3].metric("p (permutation)", format_p(result.p_value),
                        help=f"Sign-flip permutation test, {result.n_permutations:,} flips.")
        cells[4].metric("p (t-test)", format_p(result.t_test.p_value), help="Paired t-test.")
        coverage = None if report.coverage is None else report.coverage.metric(metric)
        if coverage is not None:
            note = coverage_words.coverage_note(coverage, result, report.run_names)
            st.caption(markup.text(coverage_words.coverage_line(coverage, report.run_names)
                                   + (f" {note}" if note else "")))
        st.caption(caveat(metric))


def show_banner(report: Report, metric: str) -> None:
    """The judgement-coverage guardrail, before the result, linking to the robustness view."""
    coverage = None if report.coverage is None else report.coverage.metric(metric)
    if coverage is None:
        return
    text = coverage_words.banner(coverage, report.comparison(metric).overall, report.run_names)
    if text:
        anchor = coverage_words.robustness_anchor(metric)
        st.warning(f"**{coverage_words.BANNER_TITLE}** {markup.text(text)} "
                   f"[Go to the robustness view](#{anchor}).", icon=":material/rule:")


def show_robustness(report: Report, metric: str) -> None:
    """The same comparison under each treatment of unjudged documents, side by side, and the
    judged@k of both runs per segment."""
    if report.coverage is None:
        return
    st.subheader(coverage_words.ROBUSTNESS_TITLE, anchor=coverage_words.robustness_anchor(metric))
    rows = coverage_words.treatment_rows(report.coverage, metric, report.run_names)
    if rows:
        show_treatments(report, metric, rows)
    for note in report.coverage.notes:
        st.caption(markup.text(note))
    show_segment_coverage(report, metric)


def show_treatments(report: Report, metric: str, rows: list[dict[str, str]]) -> None:
    """The robustness view's table, its notes and whether the treatments agree."""
    assert report.coverage is not None
    name_a, name_b = report.run_names
    level = round(100 * (1 - report.comparison(metric).overall.alpha))
    st.dataframe(
        pd.DataFrame(rows), hide_index=True, key=f"robustness:{metric}",
        column_order=("treatment", "mean_a", "mean_b", "delta", "interval", "p", "reads"),
        column_config={
            "treatment": st.column_config.TextColumn("Unjudged documents", width=190),
            "mean_a": st.column_config.TextColumn("Mean A", width=70,
                                                  help=markup.text(name_a)),
            "mean_b": st.column_config.TextColumn("Mean B", width=70,
                                                  help=markup.text(name_b)),
            "delta": st.column_config.TextColumn("B \u2212 A", width=75),
            "interval": st.column_config.TextColumn(f"{level}% interval", width=140),
            "p": st.column_config.TextColumn("p", width=65),
            "reads": st.column_config.TextColumn("Reads", width=200),
        })
    notes = [f"{row['treatment']}: {row['note']}" for row in rows if row["note"]]
    if notes:
        st.caption(markup.text(" · ".join(notes)))
    summary = coverage_words.robustness_summary(report.coverage, metric, report.run_names)
    if summary:
        st.markdown(markup.text(summary))
    st.caption(coverage_words.TREATMENTS_CAPTION)


def show_segment_coverage(report: Report, metric: str) -> None:
    """Judged@k of both runs per row, the same-rate shift and the rows at risk (expander)."""
    coverage = None if report.coverage is None else report.coverage.metric(metric)
    table = views.coverage_table(report, metric)
    if coverage is None or table is None:
        return
    flagged = coverage_words.segments_flagged(coverage)
    with st.expander(f"{coverage.judged_metric} per segment" + (": verdicts at risk"
                                                                 if flagged else "")):
        if flagged:
            st.markdown(markup.text(flagged))
        st.dataframe(
            table.assign(judged_a=100 * table["judged_a"], judged_b=100 * table["judged_b"],
                         gap=100 * table["gap"]),
            hide_index=True, key=f"coverage:{metric}",
            column_config={
                "segment": st.column_config.TextColumn("Rows", pinned=True),
                "n_queries": _number_column("Queries", "localized", width=70),
                "judged_a": _number_column(f"{coverage.judged_metric} A", "%.1f%%",
                                           width=90),
                "judged_b": _number_column(f"{coverage.judged_metric} B", "%.1f%%",
                                           width=90),
                "gap": _number_column("A \u2212 B", "%+.1f", width=70,
                                      help="Judged@k of A minus B, in points: positive when B "
                                           "is less judged"),
                "shift": _number_column("Shift of B \u2212 A", "%+.4f", width=110,
                                        help="If the less-judged run's extra unjudged "
                                             "documents were relevant as often as its judged "
                                             "ones"),
                "could_change": st.column_config.CheckboxColumn("Verdict could change"),
            })


def show_segments(report: Report, metric: str) -> None:
    comparison = report.comparison(metric)
    run_names = report.run_names
    table = views.segment_table(comparison, run_names)
    if comparison.segment_column:
        st.subheader(f"Where: by {markup.text(comparison.segment_column)}", anchor=False)
        st.markdown(segments_summary(as_shown(comparison), markup.names(run_names)))
    else:
        st.subheader("Overall interval", anchor=False)
        st.caption("Pick a segment column in the sidebar (with a segment map) to see where "
                   "the difference comes from.")
    chart = charts.forest_plot(table, metric=metric, run_names=run_names,
                               alpha=comparison.overall.alpha)
    st.altair_chart(chart, width="stretch", key=f"forest:{metric}")
    st.caption(INTERVALS_NOTE)
    show_segment_table(table, metric, run_names, comparison.segment_column)


def show_segment_table(table: pd.DataFrame, metric: str, run_names: tuple[str, str],
                       segment_column: str | None) -> None:
    name_a, name_b = run_names
    number = _number_column
    st.dataframe(
        _for_display(table), hide_index=True, key=f"table:{metric}", placeholder="\u2014",
        column_order=("segment", "n_queries", "finding", "delta", "interval", "q_value",
                      "p_value", "t_p_value", "mean_a", "mean_b", "record",
                      *(["note"] if table["note"].astype(bool).any() else [])),
        column_config={
            "segment": st.column_config.TextColumn(segment_column or "Rows", pinned=True),
            "n_queries": number("Queries", "localized", width=70),
            "finding": st.column_config.TextColumn("Finding"),
            "delta": number("B \u2212 A", "%+.4f", width=75),
            "interval": st.column_config.TextColumn(
                "Interval", width=140,
                help="Confidence interval of B \u2212 A (the interval card above says "
                     "which kind)"),
            # three significant digits: a t-test p of 1e-20 reads 1e-20, not 0.0000
            "q_value": number("q", "%.3g", width=60,
                              help="Benjamini\u2013Hochberg q-value across the segments"),
            "p_value": number("p", "%.3g", width=60, help="Permutation p-value"),
            "t_p_value": number("t-test p", "%.3g", width=65, help="Paired t-test p-value"),
            "mean_a": number("Mean A", width=65, help=f"Mean {metric} of {name_a}"),
            "mean_b": number("Mean B", width=65, help=f"Mean {metric} of {name_b}"),
            "record": st.column_config.TextColumn(
                "W / T / L", width=95, help=f"Queries won, tied and lost by {name_b}: scored "
                f"above, the same as, below {name_a}"),
            "note": st.column_config.TextColumn("Note"),
        },
    )
    export = table.assign(metric=metric, segment_column=segment_column or "")
    left, right, _ = st.columns([1, 1, 4])
    left.download_button("Table (CSV)", export.to_csv(index=False),
                         file_name=f"ranklens-{_slug(metric)}-segments.csv", mime="text/csv",
                         on_click="ignore", icon=":material/download:", key=f"csv:{metric}")
    right.download_button("Table (JSON)", export.to_json(orient="records", indent=2),
                          file_name=f"ranklens-{_slug(metric)}-segments.json",
                          mime="application/json", on_click="ignore",
                          icon=":material/download:", key=f"json:{metric}")


def show_per_query(report: Report, metric: str, inputs: LoadedInputs,
                   segments: Mapping[str, str] | None) -> None:
    result = report.comparison(metric).overall
    name_a, name_b = report.run_names
    per_query = views.with_query_coverage(report, metric,
                                          views.per_query_table(report, metric, segments))
    st.subheader("Per query", anchor=False)
    left, right = st.columns([3, 1])
    left.altair_chart(charts.delta_histogram(per_query, metric=metric, run_names=report.run_names),
                      width="stretch", key=f"hist:{metric}")
    right.metric(f"{markup.text(name_b)} wins", f"{result.outcomes.wins:,}")
    right.metric("Ties", f"{result.outcomes.ties:,}")
    right.metric(f"{markup.text(name_b)} loses", f"{result.outcomes.losses:,}")
    with right:
        show_orderings(inputs, str(report.params.get("order", "score")))
    lost, won = views.biggest_changes(per_query, n=10)
    pick_key = f"query:{metric}"
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
            frame.drop(columns=["outcome"]), hide_index=True, key=f"{key}:{metric}",
            on_select=_picker(f"{key}:{metric}", frame, pick_key), selection_mode="single-row",
            column_order=[c for c in PER_QUERY_COLUMNS if c in frame.columns],
            column_config={
                "query_id": st.column_config.TextColumn("Query", width=60),
                "a": st.column_config.NumberColumn(name_a, format="%.4f", width=75,
                                                   help=markup.text(f"{metric} of {name_a} (A)")),
                "b": st.column_config.NumberColumn(name_b, format="%.4f", width=75,
                                                   help=markup.text(f"{metric} of {name_b} (B)")),
                "delta": st.column_config.NumberColumn("B \u2212 A", format="%+.4f", width=70),
                "segment": "Segment",
                "judged_a": st.column_config.NumberColumn("Judged A", format="percent",
                                                          help=judged_help, width=70),
                "judged_b": st.column_config.NumberColumn("Judged B", format="percent",
                                                          help=judged_help, width=70),
                "residual_a": st.column_config.NumberColumn(
                    "Residual A", format="+%.3f", help=residual_help),
                "residual_b": st.column_config.NumberColumn(
                    "Residual B", format="+%.3f", help=residual_help),
            },
        )
    show_rankings(report, metric, inputs, per_query.sort_values(["delta", "query_id"]), pick_key)


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


def _picker(table_key: str, frame: pd.DataFrame, pick_key: str) -> Callable[[], None]:
    """Callback: a click on a row of ``frame`` picks that query in the rankings view."""
    def pick() -> None:
        rows = st.session_state[table_key].selection.rows
        if rows:
            st.session_state[pick_key] = frame["query_id"].iloc[rows[0]]
    return pick


def show_rankings(report: Report, metric: str, inputs: LoadedInputs, per_query: pd.DataFrame,
                  pick_key: str) -> None:
    st.subheader("One query, both rankings", anchor=False)
    if inputs.run_a is None or inputs.run_b is None:
        st.caption("The inputs are per-query metric tables: there are no rankings to show.")
        return
    name_a, name_b = report.run_names
    deltas = dict(zip(per_query["query_id"], per_query["delta"], strict=True))
    options = list(deltas)
    if st.session_state.get(pick_key) not in deltas:
        st.session_state.pop(pick_key, None)
    left, right, _ = st.columns([2, 1, 3])
    query = left.selectbox(
        "Query", options, key=pick_key,
        format_func=lambda q: f"{q}  ({format_delta(deltas[q], 3)})",
        help=f"Ordered by B \u2212 A on {metric}, biggest losses first.")
    k = right.number_input("Top k", min_value=1, max_value=100, value=10, step=1,
                           key=f"k:{metric}")
    row = per_query.loc[per_query["query_id"] == query].iloc[0]
    order = str(report.params.get("order", "score"))
    shown = side_by_side(inputs.run_a, inputs.run_b, inputs.qrels, str(query), int(k),
                         order=order)
    overlap = query_rbo(inputs.run_a, inputs.run_b, str(query), p=app_state.RBO_P, order=order)
    likeness = "" if overlap is None else f" · RBO (p={app_state.RBO_P:g}) {overlap:.3f}"
    st.markdown(
        f"**{markup.text(query)}** · {markup.text(metric)}: {markup.text(name_a)} "
        f"{row['a']:.4f}, {markup.text(name_b)} {row['b']:.4f} "
        f"(B \u2212 A {format_delta(float(row['delta']))}) · {shown.n_overlap} of the top "
        f"{int(k)} documents in both, {shown.n_entered} entered B's top {int(k)}{likeness}")
    columns = st.columns(2)
    for column, frame, title, moved in ((columns[0], shown.a, f"A: {name_a}", "Where in B"),
                                        (columns[1], shown.b, f"B: {name_b}", "Moved vs A")):
        column.markdown(f"**{markup.text(title)}**")
        column.dataframe(
            frame.style.map(_label_colour, subset=["label"]).map(_change_colour,
                                                                 subset=["change"]),
            hide_index=True, key=f"ranking:{title}:{metric}",
            column_config={
                "rank": st.column_config.NumberColumn("Rank", width="small"),
                "doc_id": "Document",
                "score": st.column_config.NumberColumn("Score", format="%.4g"),
                "label": st.column_config.TextColumn("Label", width="small"),
                "change": moved,
            },
        )


def _for_display(table: pd.DataFrame) -> pd.DataFrame:
    """The segment table with its interval ends and win/tie/loss counts one cell each.

    Display only: the downloads keep the separate numeric columns.
    """
    def record(row: pd.Series) -> str:
        if pd.isna(row["wins"]):
            return ""
        return f"{int(row['wins']):,} / {int(row['ties']):,} / {int(row['losses']):,}"

    return table.assign(interval=table.apply(lambda row: views.describe_row(row)["interval"],
                                             axis=1),
                        record=table.apply(record, axis=1))


def _number_column(label: str, fmt: str = "%.4f", **options: Any) -> Any:
    """A narrow number column unless told otherwise."""
    options.setdefault("width", "small")
    return st.column_config.NumberColumn(label, format=fmt, **options)


def _label_colour(label: object) -> str:
    if label == UNJUDGED:
        return "color: #8c959f; font-style: italic"
    grade = int(str(label))
    if grade <= 0:
        return ""
    shade = {1: "#dafbe1", 2: "#aceebb", 3: "#6fdd8b"}.get(grade, "#4ac26b")
    return f"background-color: {shade}"


def _change_colour(change: object) -> str:
    change = str(change)
    if change.startswith("entered"):
        return "color: #0969da"
    if change.startswith("left"):
        return "color: #bc4c00"
    return "color: #57606a" if change == "same" else ""


def _slug(text: str) -> str:
    return "".join(ch if ch.isalnum() else "-" for ch in text).strip("-").lower()


# ---- page ---------------------------------------------------------------------------------

def show_metric(report: Report, metric: str, inputs: LoadedInputs,
                segments: Mapping[str, str] | None) -> None:
    show_banner(report, metric)
    show_verdict(report, metric)
    show_segments(report, metric)
    show_robustness(report, metric)
    show_per_query(report, metric, inputs, segments)


def main() -> None:
    place = title_area()
    shared = share_widget.shared_for("compare")  # a ?report= link: its inputs and settings
    chosen = (choose_files() if shared is None
              else ({f.role: f for f in shared.files}, "shared report"))
    if chosen is None:
        return
    files, origin = chosen
    try:
        inputs = app_state.loaded_inputs(files)
    except InputError as error:
        st.error(f"**This file cannot be read.** {markup.text(error)}", icon=":material/error:")
        st.caption("Replace the file in the sidebar and press **Compare** again, or switch "
                   "**Data** back to the demo.")
        return
    settings = choose_settings(inputs) if shared is None else compare_settings(shared)
    if settings is None:
        return
    stored = None  # a shared link's report as its author saw it: drawn as stored
    if shared is not None:
        try:
            stored = stored_report(shared)
        except StoredResultError as error:
            share_widget.show_unreadable_result(str(error))
    recompute = stored is None or (shared is not None and share_widget.recompute_wanted(shared))
    try:
        report = app_state.cached_report(inputs, settings) if recompute else stored
    except ValueError as error:  # InputError, unknown metric, no common queries ...
        st.error(f"**Cannot compare these inputs.** {markup.text(error)}",
                 icon=":material/error:")
        return
    assert report is not None
    show_title(place, report, origin)
    if shared is None:
        share_widget.share_action("compare", settings, inputs.files, report)
    elif stored is not None and recompute:
        share_widget.show_recomputed(shared, report_changes(stored, report))
    show_warnings(report)
    show_inputs(report)
    segments = (inputs.segment_maps.get(settings.segment_column)
                if settings.segment_column else None)
    if len(report.metrics) == 1:
        show_metric(report, report.metrics[0], inputs, segments)
        return
    # One tab per metric; only the open one is drawn (switching tabs reruns, from the caches).
    tabs = st.tabs([markup.text(m) for m in report.metrics], key="metric_tab",
                   on_change="rerun")
    for tab, metric in zip(tabs, report.metrics, strict=True):
        if tab.open is not False:
            with tab:
                show_metric(report, metric, inputs, segments)


main()

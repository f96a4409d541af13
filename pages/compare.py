"""Compare page: is run B really better than run A, and where?

Inputs (the bundled demo, or uploaded runs + judgements + an optional segment map and proxy
judgements) and settings in the sidebar; in the main area per metric the judgement-coverage
banner when unjudged documents could change the verdict, the verdict, the forest plot of
segments with its table, the same comparison under three treatments of unjudged documents, and
per-query detail down to two rankings side by side. With more than one candidate the main area
opens with a leaderboard (a forest plot of the candidates against the baseline, each in its own
colour, the table with the family's adjusted p and every run's judgement coverage); picking a
candidate shows its banner, verdict, segments, robustness view and per-query detail as for two
runs. The page collects files and settings and draws what the library returns: no statistics,
no parsing here.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any

import pandas as pd
import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from ranklens.app import downloads, health_view, markup, share_widget, widgets
from ranklens.app import state as app_state
from ranklens.app.cards import show_card
from ranklens.app.entrypoint import run_through_app
from ranklens.charts import run_colour
from ranklens.compare import charts, coverage_words, views
from ranklens.compare.analysis import CompareSettings, LoadedInputs
from ranklens.compare.changes import report_changes
from ranklens.compare.coverage import TREATMENT_NAMES
from ranklens.compare.family import run_key, run_role
from ranklens.compare.rankings import UNJUDGED, query_rbo, side_by_side
from ranklens.compare.report import Report
from ranklens.compare.segments import INTERVALS_NOTE, MetricComparison
from ranklens.compare.words import (
    caveat,
    conclusion,
    family_sentence,
    headline,
    interval_note,
    leaderboard_summary,
    pairing_sentence,
    segments_summary,
)
from ranklens.formats import Card, format_delta, format_interval, format_p
from ranklens.io import InputError, InputFile
from ranklens.share import StoredResultError, compare_settings, stored_report

run_through_app(__file__)  # see ranklens.app.entrypoint: a page always runs inside app.py

NO_SEGMENTS = "(none)"
MISSING_POLICIES = {
    "drop": "Leave out (compare queries in every run)",
    "zero": "Score 0 where missing (trec_eval -c)",
}
ORDERS = {"score": "Score (trec_eval)", "rank": "Rank column"}
PER_QUERY_COLUMNS = ("query_id", "a", "b", "delta", "judged_a", "judged_b", "residual_a",
                     "residual_b", "segment")
FAMILIES = {"baseline": "Each candidate against the baseline", "all-pairs": "Every pair of runs"}
FAMILY_METHODS = {"max-t": "max-t (uses how the tests correlate)",
                  "holm": "Holm (simpler, more conservative)"}
Q_FAMILIES = {"segments": "Per candidate, across its segments",
              "candidates-segments": "Across the segments of every candidate"}


# ---- inputs -------------------------------------------------------------------------------

def choose_files() -> tuple[dict[str, InputFile], str] | None:
    """Sidebar: the demo data or the user's files. None when uploads are not complete yet."""
    with st.sidebar:
        if widgets.uses_demo("data_source", "Bundled demo: a BM25 baseline against two "
                             "candidates, a neural re-ranker and a dense retriever that finds "
                             "many documents nobody judged, on 400 queries with graded "
                             "judgements, proxy labels of each run's top 20 and two segment "
                             "columns (intent, length)."):
            return app_state.demo_compare_files(), "demo data"
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
            more = st.file_uploader(
                "More candidates (optional)", key="upload_more", accept_multiple_files=True,
                help="Further candidates against the same baseline (runs C, D, ... in the "
                     "order given): a leaderboard with p-values adjusted for their number. "
                     + widgets.FORMATS_HELP)
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
    for index, upload in enumerate(more or [], start=2):
        files[run_role(index)] = app_state.input_file(run_role(index), upload)
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
        defaults = inputs.default_run_names
        with st.expander("Run names"):
            names = tuple(
                st.text_input(f"Name of run {run_key(i).upper()}"
                              + (" (baseline)" if i == 0 and len(defaults) > 2 else ""),
                              default, key=f"name_{run_key(i)}:{default}").strip() or default
                for i, default in enumerate(defaults))
        several: dict[str, Any] = {}
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
            if len(defaults) > 2:
                several = choose_family()
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
    if len(set(names)) != len(names):
        st.error("Two runs have the same name: give each its own in **Run names**.",
                 icon=":material/error:")
        return None
    return CompareSettings(
        metrics=tuple(metrics),
        segment_column=None if segment == NO_SEGMENTS else segment,
        alpha=float(alpha), n_resamples=int(resamples), n_permutations=int(resamples),
        seed=int(seed), missing=str(missing), order=str(order), run_names=names,
        unjudged=str(unjudged), **several,
    )


def choose_family() -> dict[str, Any]:
    """Sidebar, several candidates: which comparisons the p-values are adjusted for, how,
    and which segment rows share q-values."""
    family = st.radio("Adjust p for", tuple(FAMILIES), format_func=FAMILIES.__getitem__,
                      key="family", help="The family whose chance of any false finding is "
                      "held at alpha: the candidates against the baseline, or every pair.")
    method = st.radio("Adjusted by", tuple(FAMILY_METHODS),
                      format_func=FAMILY_METHODS.__getitem__, key="family_method",
                      help="max-t: step-down maximum of the pairs' t over random sign flips of "
                           "whole queries (knows the tests share the baseline and the "
                           "queries). Holm: on each candidate's own p, valid under any "
                           "dependence, blind to it.")
    q_family = st.radio("Segment q-values", tuple(Q_FAMILIES),
                        format_func=Q_FAMILIES.__getitem__, key="q_family",
                        help="Benjamini-Hochberg across each candidate's segments, or across "
                             "the segments of all candidates at once.")
    return {"family": str(family), "family_method": str(method), "q_family": str(q_family)}



# ---- report sections ----------------------------------------------------------------------

def title_area() -> tuple[DeltaGenerator, DeltaGenerator]:
    """The page title; returns the places for the caption (left) and the downloads (right)."""
    left, right = st.columns([5, 1], vertical_alignment="bottom")
    left.title("Compare runs")
    return left, right


def show_title(place: tuple[DeltaGenerator, DeltaGenerator], report: Report,
               origin: str) -> None:
    left, right = place
    queries = report.comparisons[0].overall.n_queries
    if report.several:
        left.caption(f"{len(report.candidates)} candidates against "
                     f"**{markup.text(report.run_names[0])}** (A, baseline) · {queries:,} "
                     f"paired queries · {origin}")
    else:
        name_a, name_b = markup.names(report.pair_names)
        left.caption(f"**{name_b}** (B) against **{name_a}** (A) · {queries:,} paired "
                     f"queries · {origin}")
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
    name_a, name_b = shown = markup.names(report.pair_names)
    first = conclusion(comparison, shown)
    first, rest = health_view.verdict_words(
        report, first, headline(comparison, shown).removeprefix(first).strip())
    with st.container(border=True):
        st.subheader(first, anchor=False)
        st.markdown(rest)
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
            note = ("" if health_view.withholds(report)  # no verdict to change
                    else coverage_words.coverage_note(coverage, result, report.pair_names))
            st.caption(markup.text(coverage_words.coverage_line(coverage, report.pair_names)
                                   + (f" {note}" if note else "")))
        st.caption(caveat(metric))


def show_banner(report: Report, metric: str, scope: str = "") -> None:
    """The judgement-coverage guardrail, before the result, linking to the robustness view."""
    coverage = None if report.coverage is None else report.coverage.metric(metric)
    if coverage is None:
        return
    text = coverage_words.banner(coverage, report.comparison(metric).overall,
                                 report.pair_names)
    if text:
        anchor = _robustness_anchor(metric, scope)
        st.warning(f"**{coverage_words.BANNER_TITLE}** {markup.text(text)} "
                   f"[Go to the robustness view](#{anchor}).", icon=":material/rule:")


def show_robustness(report: Report, metric: str, scope: str = "") -> None:
    """The same comparison under each treatment of unjudged documents, side by side, and the
    judged@k of both runs per segment."""
    if report.coverage is None:
        return
    st.subheader(coverage_words.ROBUSTNESS_TITLE, anchor=_robustness_anchor(metric, scope))
    rows = coverage_words.treatment_rows(report.coverage, metric, report.pair_names)
    if rows:
        show_treatments(report, metric, rows, scope)
    for note in report.coverage.notes:
        st.caption(markup.text(note))
    show_segment_coverage(report, metric, scope)


def _robustness_anchor(metric: str, scope: str) -> str:
    """The robustness view's anchor (one per candidate, ``scope``, with several)."""
    anchor = coverage_words.robustness_anchor(metric)
    return f"{anchor}{scope.replace(':', '-')}" if scope else anchor


def show_treatments(report: Report, metric: str, rows: list[dict[str, str]],
                    scope: str = "") -> None:
    """The robustness view's table, its notes and whether the treatments agree."""
    assert report.coverage is not None
    name_a, name_b = report.pair_names
    level = round(100 * (1 - report.comparison(metric).overall.alpha))
    st.dataframe(
        pd.DataFrame(rows), hide_index=True, key=f"robustness:{metric}{scope}",
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
    summary = coverage_words.robustness_summary(report.coverage, metric, report.pair_names)
    if summary:
        st.markdown(markup.text(summary))
    st.caption(coverage_words.TREATMENTS_CAPTION)


def show_segment_coverage(report: Report, metric: str, scope: str = "") -> None:
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
            hide_index=True, key=f"coverage:{metric}{scope}",
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


def show_leaderboard(report: Report, metric: str) -> None:
    """Several candidates: the leaderboard of ``metric`` (plot, table, the family in words)."""
    table = views.leaderboard_table(report, metric)
    family = report.family(metric)
    assert family is not None  # every metric of a report of several candidates has one
    names = report.run_names
    alpha = report.comparison(metric, report.candidates[0]).overall.alpha
    st.subheader(f"Leaderboard: {metric}", anchor=False)
    st.markdown(f"**{leaderboard_summary(_all_escaped(names), family, alpha)}**")
    st.altair_chart(charts.leaderboard_plot(table, metric=metric, baseline=names[0],
                                            alpha=alpha),
                    width="stretch", key=f"leaderboard:{metric}")
    shown = table.assign(
        name=[f"{run} (A, baseline)" if base else str(run)
              for run, base in zip(table["run"], table["baseline"], strict=True)],
        interval=[("" if base else format_interval(low, high)) for low, high, base in
                  zip(table["ci_low"], table["ci_high"], table["baseline"], strict=True)],
        p_text=[_p_or_blank(p) for p in table["p_value"]],
        adjusted_text=[_p_or_blank(p) for p in table["adjusted_p"]],
        t_p_text=[_p_or_blank(p) for p in table["t_p_value"]],
        record=[views.win_tie_loss(w, t, v) for w, t, v in
                zip(table["wins"], table["ties"], table["losses"], strict=True)],
        # the run is named in its own column: the finding in one word keeps 1,400 px
        finding_short=[_short_finding(f, who="") for f in table["finding"]])
    colours = [f"color: {run_colour(int(position))}; font-weight: 600"
               for position in table["position"]]
    styled = shown.style.apply(lambda _: colours, subset=["name"], axis=0)
    st.dataframe(
        styled, hide_index=True, key=f"leaderboard-table:{metric}", placeholder="",
        column_order=("name", "mean", "delta", "interval", "adjusted_text", "p_text",
                      "t_p_text", "record", "finding_short",
                      *(("health",) if "health" in shown else ())),
        column_config={
            "name": st.column_config.TextColumn("Run", pinned=True),
            "mean": _number_column(f"Mean {metric}", width=_text_width([f"Mean {metric}"],
                                                                        70)),
            "delta": _number_column("B \u2212 A", "%+.4f", width=75),
            "interval": st.column_config.TextColumn(
                "Interval", width=_text_width(shown["interval"], 140),
                help="Bootstrap confidence interval of the candidate minus the baseline"),
            "adjusted_text": st.column_config.TextColumn(
                "Adjusted p", width=85, help=family.describe(len(names))),
            "p_text": st.column_config.TextColumn("p", width=60,
                                                  help="The candidate's own permutation p"),
            "t_p_text": st.column_config.TextColumn("t-test p", width=65),
            "record": st.column_config.TextColumn(
                "W / T / L", width=_text_width(shown["record"], 95),
                help="Queries the candidate won, tied and lost against the baseline"),
            "finding_short": st.column_config.TextColumn(
                "Finding", width=105, help="Against the baseline, at the adjusted p: better, "
                "worse or no reliable difference"),
            "health": st.column_config.TextColumn(
                "Health", width=130, help="The run's health checks (see above the verdict)"),
        },
    )
    st.caption(f"{family_sentence(family, len(names))} "
               f"{pairing_sentence(family, _all_escaped(names))} "
               "Intervals and p are each candidate's own comparison with the baseline; the "
               "adjusted p decides.")
    coverage = coverage_words.leaderboard_coverage(report, metric)
    if coverage:
        st.caption(markup.text(coverage))
    if family.family == "all-pairs":
        pairs = views.pairs_table(report, metric)
        st.markdown("**Every pair**")
        st.dataframe(
            pairs.assign(interval=[format_interval(lo, hi) for lo, hi in
                                   zip(pairs["ci_low"], pairs["ci_high"], strict=True)],
                         p_text=[_p_or_blank(p) for p in pairs["p_value"]],
                         adjusted_text=[_p_or_blank(p) for p in pairs["adjusted_p"]]),
            hide_index=True, key=f"pairs:{metric}",
            column_order=("run_b", "run_a", "delta", "interval", "adjusted_text", "p_text"),
            column_config={
                "run_b": "B", "run_a": "A",
                "delta": _number_column("B \u2212 A", "%+.4f", width=75),
                "interval": st.column_config.TextColumn("Interval", width=160),
                "adjusted_text": st.column_config.TextColumn("Adjusted p", width=85),
                "p_text": st.column_config.TextColumn("p", width=60),
            },
        )


def choose_candidate(report: Report, metric: str) -> int:
    """The candidate whose segments and queries the page shows (the first by default)."""
    names = report.run_names
    picked = st.radio(
        "Look into", report.candidates, horizontal=True, key=f"candidate:{metric}",
        format_func=lambda j: markup.text(names[j]),
        help="Its verdict, segments and per-query detail against the baseline, below.")
    return int(picked if picked is not None else report.candidates[0])


def show_several(report: Report, metric: str, inputs: LoadedInputs,
                 segments: Mapping[str, str] | None) -> None:
    """Several candidates: the leaderboard, then the picked candidate as a two-run report."""
    show_leaderboard(report, metric)
    candidate = choose_candidate(report, metric)
    names = report.run_names
    st.markdown(
        f'<span style="color: {run_colour(candidate)}; font-size: 1.3rem">\u25cf</span> '
        f"**{markup.text(names[candidate])}** against **{markup.text(names[0])}**",
        unsafe_allow_html=True)
    show_metric(report.candidate_report(candidate), metric, inputs.pair(candidate), segments,
                scope=f":{run_key(candidate)}")


def _all_escaped(names: tuple[str, ...]) -> tuple[str, ...]:
    """Every run's name as Markdown text (``markup.text``)."""
    return tuple(markup.text(name) for name in names)


def _p_or_blank(value: float | None) -> str:
    return "" if value is None or pd.isna(value) else format_p(float(value))


def show_segments(report: Report, metric: str, scope: str = "") -> None:
    comparison = report.comparison(metric)
    run_names = report.pair_names
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
    st.altair_chart(chart, width="stretch", key=f"forest:{metric}{scope}")
    st.caption(INTERVALS_NOTE)
    show_segment_table(table, metric, run_names, comparison.segment_column, scope)


def show_segment_table(table: pd.DataFrame, metric: str, run_names: tuple[str, str],
                       segment_column: str | None, key: str = "") -> None:
    name_a, name_b = run_names
    number = _number_column
    shown = _for_display(table)
    st.dataframe(
        shown, hide_index=True, key=f"table:{metric}{key}", placeholder="\u2014",
        column_order=("segment", "n_queries", "finding_short", "delta", "interval", "q_text",
                      "p_text", "t_p_text", "mean_a", "mean_b", "record",
                      *(["note"] if table["note"].astype(bool).any() else [])),
        column_config={
            "segment": st.column_config.TextColumn(segment_column or "Rows", pinned=True),
            "n_queries": number("Queries", "localized", width=62),
            "finding_short": st.column_config.TextColumn(
                "Finding", width=105, help=f"B is {name_b}: better, worse or no reliable "
                "difference at the row's q (overall row: p)"),
            "delta": number("B \u2212 A", "%+.4f", width=70),
            "interval": st.column_config.TextColumn(
                "Interval", width=_text_width(shown["interval"], 135),
                help="Confidence interval of B \u2212 A (the interval card above says "
                     "which kind)"),
            # p and q as every page and export writes them (ranklens.formats.format_p): one
            # format per column, never 6.08e-116 beside 0.0000111
            "q_text": st.column_config.TextColumn(
                "q", width=58, help=_q_help(table)),
            "p_text": st.column_config.TextColumn("p", width=58, help="Permutation p-value"),
            "t_p_text": st.column_config.TextColumn("t-test p", width=62,
                                                    help="Paired t-test p-value"),
            "mean_a": number("Mean A", width=62, help=f"Mean {metric} of {name_a}"),
            "mean_b": number("Mean B", width=62, help=f"Mean {metric} of {name_b}"),
            "record": st.column_config.TextColumn(
                "W / T / L", width=_text_width(shown["record"], 95),
                help=f"Queries won, tied and lost by {name_b}: scored above, the same as, "
                     f"below {name_a}"),
            "note": st.column_config.TextColumn("Note"),
        },
    )
    export = table.assign(metric=metric, segment_column=segment_column or "")
    left, right, _ = st.columns([1, 1, 4])
    left.download_button("Table (CSV)", export.to_csv(index=False),
                         file_name=f"ranklens-{_slug(metric)}{_slug(key)}-segments.csv",
                         mime="text/csv", on_click="ignore", icon=":material/download:",
                         key=f"csv:{metric}{key}")
    right.download_button("Table (JSON)", export.to_json(orient="records", indent=2),
                          file_name=f"ranklens-{_slug(metric)}{_slug(key)}-segments.json",
                          mime="application/json", on_click="ignore",
                          icon=":material/download:", key=f"json:{metric}{key}")


def _q_help(table: pd.DataFrame) -> str:
    return ("Benjamini\u2013Hochberg q-value across the segments (the overall row, with "
            "several candidates: its p adjusted for them)")


def _text_width(texts: pd.Series | list[str], least: int) -> int:
    """Pixels a text column needs for its longest cell (about 7.5 px a character at the
    table's font), at least ``least``: '4,192 / 80 / 2,728' must not be cut."""
    longest = max((len(str(t)) for t in texts), default=0)
    return max(least, round(7.5 * longest) + 20)


def show_per_query(report: Report, metric: str, inputs: LoadedInputs,
                   segments: Mapping[str, str] | None, scope: str = "") -> None:
    result = report.comparison(metric).overall
    name_a, name_b = report.pair_names
    per_query = views.with_query_coverage(report, metric,
                                          views.per_query_table(report, metric, segments))
    st.subheader("Per query", anchor=False)
    left, right = st.columns([3, 1])
    left.altair_chart(charts.delta_histogram(per_query, metric=metric,
                                             run_names=report.pair_names),
                      width="stretch", key=f"hist:{metric}{scope}")
    right.metric(f"{markup.text(name_b)} wins", f"{result.outcomes.wins:,}")
    right.metric("Ties", f"{result.outcomes.ties:,}")
    right.metric(f"{markup.text(name_b)} loses", f"{result.outcomes.losses:,}")
    with right:
        show_orderings(inputs, str(report.params.get("order", "score")))
    lost, won = views.biggest_changes(per_query, n=10)
    pick_key = f"query:{metric}{scope}"
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
            on_select=_picker(f"{key}:{metric}{scope}", frame, pick_key),
            selection_mode="single-row",
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
    show_rankings(report, metric, inputs, per_query.sort_values(["delta", "query_id"]), pick_key,
                  scope)


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
                  pick_key: str, scope: str = "") -> None:
    st.subheader("One query, both rankings", anchor=False)
    if inputs.run_a is None or inputs.run_b is None:
        st.caption("The inputs are per-query metric tables: there are no rankings to show.")
        return
    name_a, name_b = report.pair_names
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
                           key=f"k:{metric}{scope}")
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
            hide_index=True, key=f"ranking:{title}:{metric}{scope}",
            column_config={
                "rank": st.column_config.NumberColumn("Rank", width="small"),
                "doc_id": "Document",
                "score": st.column_config.NumberColumn("Score", format="%.4g"),
                "label": st.column_config.TextColumn("Label", width="small"),
                "change": moved,
            },
        )


def _short_finding(finding: str, who: str) -> str:
    """A table cell for ``finding`` (`views.candidate_finding`'s words): "<who>better",
    "<who>worse", "no difference" or "too small"; any other finding ("baseline") as it is."""
    short = {views.NO_DIFFERENCE: "no difference", views.TOO_SMALL: "too small"}
    if finding in short:
        return short[finding]
    for word in ("better", "worse"):
        if finding.endswith(f" {word}"):
            return f"{who}{word}"
    return finding


def _for_display(table: pd.DataFrame) -> pd.DataFrame:
    """The segment table with its interval ends and win/tie/loss counts one cell each, and
    p and q written as everywhere else (``format_p``).

    Display only: the downloads keep the separate numeric columns.
    """
    p_text = _p_or_blank
    return table.assign(
        finding_short=[_short_finding(f, who="B ") for f in table["finding"]],
        interval=table.apply(lambda row: views.describe_row(row)["interval"], axis=1),
        record=[views.win_tie_loss(w, t, v) for w, t, v in
                zip(table["wins"], table["ties"], table["losses"], strict=True)],
        q_text=table["q_value"].map(p_text), p_text=table["p_value"].map(p_text),
        t_p_text=table["t_p_value"].map(p_text))


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
                segments: Mapping[str, str] | None, scope: str = "") -> None:
    """The banner, verdict, segments, robustness view and per-query detail of a two-run
    report; ``scope`` sets the widgets of one candidate apart from another's (each keeps its
    own picks)."""
    show_banner(report, metric, scope)
    show_verdict(report, metric)
    show_segments(report, metric, scope)
    show_robustness(report, metric, scope)
    show_per_query(report, metric, inputs, segments, scope)


def main() -> None:
    place = title_area()
    shared = share_widget.shared_for("compare")  # a ?report= link: its inputs and settings
    chosen = (choose_files() if shared is None
              else ({f.role: f for f in shared.files}, "shared report"))
    if chosen is None:
        return
    files, origin = chosen
    try:
        inputs = app_state.loaded_inputs(
            files, health_view.choose_id_columns() if shared is None else None)
    except InputError as error:
        st.error(f"**This file cannot be read.** {markup.text(error)}", icon=":material/error:")
        st.caption("Replace the file in the sidebar and press **Compare** again, or switch "
                   "**Data** back to the demo.")
        return
    settings = choose_settings(inputs) if shared is None else compare_settings(shared)
    if settings is None:
        return
    if shared is None:
        settings = dataclasses.replace(
            settings, drop_self_retrieval=health_view.choose_self_retrieval())
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
    health_view.show_health(report)
    show_warnings(report)
    show_inputs(report)
    segments = (inputs.segment_maps.get(settings.segment_column)
                if settings.segment_column else None)
    show = show_several if report.several else show_metric
    if len(report.metrics) == 1:
        show(report, report.metrics[0], inputs, segments)
        return
    # One tab per metric; only the open one is drawn (switching tabs reruns, from the caches).
    tabs = st.tabs([markup.text(m) for m in report.metrics], key="metric_tab",
                   on_change="rerun")
    for tab, metric in zip(tabs, report.metrics, strict=True):
        if tab.open is not False:
            with tab:
                show(report, metric, inputs, segments)


main()

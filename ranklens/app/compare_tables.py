"""The Compare page's tables: the leaderboard, the segment table and forest plot, the
judgement-coverage guardrail and robustness view.

Each ``show_*`` draws one section of the page with Streamlit from a Report (numbers and words come
from ``ranklens.compare``: `columns` for the cells, `views` for the rows, `coverage_words` for the
sentences); it computes no statistic. The page (``pages/compare.py``) lays them out.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pandas as pd
import streamlit as st

from ranklens.app import chart_cache, lazy, markup
from ranklens.app.blocks import show_block, show_html_table
from ranklens.app.segment_intervals import choose_intervals, show_interval_notes
from ranklens.compare import charts, columns, coverage_words, report_tables
from ranklens.compare.columns import ROBUSTNESS_COLUMNS
from ranklens.compare.fcr import IntervalChoice
from ranklens.compare.report import Report
from ranklens.compare.sections.coverage_banner import coverage_banner
from ranklens.compare.segments import MetricComparison
from ranklens.compare.verdict_words import (
    family_sentence,
    leaderboard_summary,
    pairing_sentence,
    segments_summary,
)
from ranklens.document.blocks import Table
from ranklens.document.chart_style import run_colour
from ranklens.formats import slug
from ranklens.health.check_words import withheld_runs, withholds


def as_shown(comparison: MetricComparison) -> MetricComparison:
    """The comparison with its metric and segment names escaped for Markdown (display only:
    the words of ``ranklens.compare.verdict_words`` then render them literally)."""
    return dataclasses.replace(
        comparison, metric=markup.text(comparison.metric),
        segments=tuple(dataclasses.replace(row, segment=markup.text(row.segment))
                       for row in comparison.segments))


def show_banner(report: Report, metric: str, scope: str = "") -> None:
    """The judgement-coverage guardrail, before the result, linking to the robustness view."""
    banner = coverage_banner(report, metric, scope)
    if banner is not None:
        show_block(banner)


def show_robustness(report: Report, metric: str, scope: str = "") -> None:
    """The same comparison under each treatment of unjudged documents, side by side, and the
    judged@k of both runs per segment."""
    if report.coverage is None:
        return
    st.subheader(coverage_words.ROBUSTNESS_TITLE,
                 anchor=coverage_words.robustness_anchor(metric, scope))
    rows = coverage_words.treatment_rows(report.coverage, metric, report.pair_names,
                                         withheld=withholds(report.health))
    if rows:
        show_treatments(report, metric, rows)
    for note in report.coverage.notes:
        st.caption(markup.text(note))
    show_segment_coverage(report, metric, scope)


def show_treatments(report: Report, metric: str, rows: list[dict[str, str]]) -> None:
    """The robustness view's table, its notes and whether the treatments agree."""
    assert report.coverage is not None
    # four rows of words: a plain table, not a data grid (issue 51); the notes follow it.
    # Its headers say A and B, as the verdict card above them does (the names are long)
    shown = tuple(c for c in ROBUSTNESS_COLUMNS if c.key != "note")
    show_html_table(Table("robustness", shown, tuple(rows), {"a": "A", "b": "B"}))
    notes = [f"{row['treatment']}: {row['note']}" for row in rows if row["note"]]
    if notes:
        st.caption(markup.text(" · ".join(notes)))
    summary = coverage_words.robustness_summary(report.coverage, metric, report.pair_names,
                                                withheld=withholds(report.health))
    if summary:
        st.markdown(markup.text(summary))
    st.caption(coverage_words.TREATMENTS_CAPTION)


def show_segment_coverage(report: Report, metric: str, scope: str = "") -> None:
    """Judged@k of both runs per row, the same-rate shift and the rows at risk (expander)."""
    coverage = None if report.coverage is None else report.coverage.metric(metric)
    table = report_tables.coverage_table(report, metric)
    if coverage is None or table is None:
        return
    flagged = coverage_words.segments_flagged(coverage, withheld=withholds(report.health))
    # its table drawn only when opened (issue 51)
    with lazy.opened(f"{coverage.judged_metric} per segment"
                     + (": verdicts at risk" if flagged else ""),
                     f"judged:{metric}{scope}") as is_open:
        if not is_open:
            return
        if flagged:
            st.markdown(markup.text(flagged))
        # words, not greyed-out checkboxes: a verdict at risk must read at a glance
        at_risk = table["could_change"].map({True: "\u26a0 could change", False: "no"})
        st.dataframe(
            table.assign(judged_a=100 * table["judged_a"], judged_b=100 * table["judged_b"],
                         gap=100 * table["gap"], could_change=at_risk.fillna("\u2014")),
            hide_index=True, key=f"coverage:{metric}{scope}",
            column_config={
                "segment": st.column_config.TextColumn("Rows", pinned=True),
                "n_queries": number_column("Queries", "localized", width=70),
                "judged_a": number_column(f"{coverage.judged_metric} A", "%.1f%%",
                                           width=90),
                "judged_b": number_column(f"{coverage.judged_metric} B", "%.1f%%",
                                           width=90),
                "gap": number_column("A \u2212 B", "%+.1f", width=70,
                                      help="Judged@k of A minus B, in points: positive when B "
                                           "is less judged"),
                "shift": number_column("Shift of B \u2212 A", "%+.4f", width=110,
                                        help="If the less-judged run's extra unjudged "
                                             "documents were relevant as often as its judged "
                                             "ones"),
                "could_change": st.column_config.TextColumn(
                    "Verdict", width=110,
                    help="Whether unjudged documents could change this row's verdict: the "
                         f"judged@k gap is at least {100 * coverage.min_gap:g} points and the "
                         "shift "
                         "moves its interval to read otherwise (the banner's rule)."),
            })


def show_leaderboard(report: Report, metric: str) -> None:
    """Several candidates: the leaderboard of ``metric`` (plot, table, the family in words)."""
    table = report_tables.leaderboard_table(report, metric)
    family = report.family(metric)
    assert family is not None  # every metric of a report of several candidates has one
    names = report.run_names
    alpha = report.comparison(metric, report.candidates[0]).overall.alpha
    st.subheader(f"Leaderboard: {metric}", anchor=False)
    withheld = withheld_runs(report.health, report.candidates)
    st.markdown(f"**{leaderboard_summary(all_escaped(names), family, alpha, withheld)}**")
    chart_cache.show_altair(
        lambda: charts.leaderboard_plot(table, metric=metric, baseline=names[0], alpha=alpha),
        (table,), ("leaderboard", metric, names[0], alpha), key=f"leaderboard:{metric}")
    shown = columns.display_frame(table, columns.LEADERBOARD_COLUMNS).assign(
        name=[f"{run} (A, baseline)" if base else str(run)
              for run, base in zip(table["run"], table["baseline"], strict=True)],
        # the run is named in its own column: the finding in one word keeps 1,400 px
        finding_short=[report_tables.short_finding(f, who="") for f in table["finding"]])
    colours = [f"color: {run_colour(int(position))}; font-weight: 600"
               for position in table["position"]]
    styled = shown.style.apply(lambda _: colours, subset=["name"], axis=0)
    st.dataframe(
        styled, hide_index=True, key=f"leaderboard-table:{metric}", placeholder="",
        # what decides (the adjusted p, the finding) and the lift fit 1,400 px; the own p,
        # W/T/L, the t-test's p and the health column follow, a scroll away
        column_order=("name", "mean", "delta", "ci_text", "adjusted_p_text", "finding_short",
                      "lift_text", "p_value_text", "wtl_text", "t_p_value_text",
                      *(("health",) if "health" in shown else ())),
        column_config={
            # the names are bold: the grid's own sizing measures them in its regular font
            "name": st.column_config.TextColumn("Run", pinned=True,
                                                width=text_width(shown["name"], 100)),
            "mean": number_column(f"Mean {metric}", width=text_width([f"Mean {metric}"],
                                                                        70)),
            "delta": number_column("B \u2212 A", "%+.4f", width=75),
            "ci_text": st.column_config.TextColumn(
                "Interval", width=text_width(shown["ci_text"], 140),
                help="Confidence interval of the candidate minus the baseline"),
            "lift_text": st.column_config.TextColumn(
                "Lift", width=lift_width(shown["lift_text"]),
                help="B \u2212 A as a share of the baseline's mean, with its interval"),
            "adjusted_p_text": st.column_config.TextColumn(
                "Adjusted p", width=85, help=family.describe(len(names))),
            "p_value_text": st.column_config.TextColumn(
                "p", width=60, help="The candidate's own p: its comparison's test (by "
                "default the sign-flip permutation p, or the skewness-corrected t-test's when "
                "larger)"),
            "t_p_value_text": st.column_config.TextColumn("t-test p", width=65),
            "wtl_text": st.column_config.TextColumn(
                "W / T / L", width=text_width(shown["wtl_text"], 95),
                help="Queries the candidate won, tied and lost against the baseline"),
            "finding_short": st.column_config.TextColumn(
                "Finding", width=105, help="Against the baseline, at the adjusted p: better, "
                "worse or no reliable difference"),
            "health": st.column_config.TextColumn(
                "Health", width=130, help="The run's health checks (see above the verdict)"),
        },
    )
    st.caption(f"{family_sentence(family, len(names))} "
               f"{pairing_sentence(family, all_escaped(names))} "
               "Intervals and p are each candidate's own comparison with the baseline; the "
               "adjusted p decides.")
    coverage = coverage_words.leaderboard_coverage(report, metric)
    if coverage:
        st.caption(markup.text(coverage))
    if family.family == "all-pairs":
        pairs = report_tables.pairs_table(report, metric)
        st.markdown("**Every pair**")
        st.dataframe(
            columns.display_frame(pairs, columns.PAIR_COLUMNS),
            hide_index=True, key=f"pairs:{metric}",
            column_order=("run_b", "run_a", "delta", "ci_text", "adjusted_p_text",
                          "p_value_text"),
            column_config={
                "run_b": "B", "run_a": "A",
                "delta": number_column("B \u2212 A", "%+.4f", width=75),
                "ci_text": st.column_config.TextColumn("Interval", width=160),
                "adjusted_p_text": st.column_config.TextColumn("Adjusted p", width=85),
                "p_value_text": st.column_config.TextColumn("p", width=60),
            },
        )


def all_escaped(names: tuple[str, ...]) -> tuple[str, ...]:
    """Every run's name as Markdown text (``markup.text``)."""
    return tuple(markup.text(name) for name in names)


# the FCR / marginal toggle reruns this view only, not the page (issue 51)
@st.fragment
def show_segments(report: Report, metric: str, scope: str = "") -> None:
    comparison = report.comparison(metric)
    run_names = report.pair_names
    withheld = withholds(report.health)
    table = report_tables.segment_table(comparison, run_names, withheld=withheld)
    if comparison.segment_column:
        st.subheader(f"Where: by {markup.text(comparison.segment_column)}", anchor=False)
        st.markdown(segments_summary(as_shown(comparison), markup.names(run_names),
                                     withheld=withheld))
    else:
        st.subheader("Overall interval", anchor=False)
        st.caption("Pick a segment column in the sidebar (with a segment map) to see where "
                   "the difference comes from.")
    intervals = choose_intervals(comparison, f"{metric}{scope}")
    alpha = comparison.overall.alpha
    chart_cache.show_altair(
        lambda: charts.forest_plot(table, metric=metric, run_names=run_names, alpha=alpha,
                                   intervals=intervals),
        (table,), ("forest", metric, run_names, alpha, intervals), key=f"forest:{metric}{scope}")
    show_interval_notes(comparison, intervals)
    show_segment_table(table, metric, run_names, comparison.segment_column, scope, intervals)


def show_segment_table(table: pd.DataFrame, metric: str, run_names: tuple[str, str],
                       segment_column: str | None, key: str = "",
                       intervals: IntervalChoice = "marginal") -> None:
    name_a, name_b = run_names
    number = number_column
    # the Interval column: what the plot draws
    drawn = report_tables.shown_intervals(table, intervals)
    shown = columns.display_frame(drawn.assign(ci_low=drawn["shown_low"],
                                               ci_high=drawn["shown_high"]),
                                  columns.SEGMENT_COLUMNS).assign(
        ci_low=table["ci_low"], ci_high=table["ci_high"],  # the numbers stay the marginal ones
        finding_short=[report_tables.short_finding(f, who="B ") for f in table["finding"]])
    st.dataframe(
        shown, hide_index=True, key=f"table:{metric}{key}", placeholder="\u2014",
        # what a reader needs first fits 1,400 px; the t-test's p and the means (also in the
        # forest plot's tooltip) follow, a scroll away
        column_order=("segment", "n_queries", "finding_short", "delta", "ci_text", "lift_text",
                      "q_value_text", "p_value_text", "wtl_text", "t_p_value_text", "mean_a",
                      "mean_b",
                      *(["note"] if table["note"].astype(bool).any() else [])),
        column_config={
            "segment": st.column_config.TextColumn(segment_column or "Rows", pinned=True),
            "n_queries": number("Queries", "localized", width=62),
            "finding_short": st.column_config.TextColumn(
                "Finding", width=105, help=f"B is {name_b}: better, worse or no reliable "
                "difference at the row's q (overall row: p)"),
            "delta": number("B \u2212 A", "%+.4f", width=70),
            "ci_text": st.column_config.TextColumn(
                "Interval", width=text_width(shown["ci_text"], 135),
                help=("FCR-adjusted interval of B \u2212 A for the segments (the caption "
                      "above says at which level), marginal for the overall row"
                      if intervals == "fcr" else "Confidence interval of B \u2212 A (the "
                      "interval card above says which kind)")),
            "lift_text": st.column_config.TextColumn(
                "Lift", width=lift_width(shown["lift_text"]),
                help=(f"B \u2212 A as a share of {name_a}'s mean, with its marginal interval "
                      "(none where that mean is near 0)")),
            # p and q as every page and export writes them (ranklens.formats.format_p): one
            # format per column, never 6.08e-116 beside 0.0000111
            "q_value_text": st.column_config.TextColumn(
                "q", width=58, help=_q_help(table)),
            "p_value_text": st.column_config.TextColumn(
                "p", width=58, help="Permutation p-value"),
            "t_p_value_text": st.column_config.TextColumn("t-test p", width=62,
                                                          help="Paired t-test p-value"),
            "mean_a": number("Mean A", width=62, help=f"Mean {metric} of {name_a}"),
            "mean_b": number("Mean B", width=62, help=f"Mean {metric} of {name_b}"),
            "wtl_text": st.column_config.TextColumn(
                "W / T / L", width=text_width(shown["wtl_text"], 95),
                help=f"Queries won, tied and lost by {name_b}: scored above, the same as, "
                     f"below {name_a}"),
            "note": st.column_config.TextColumn("Note"),
        },
    )
    export = table.assign(metric=metric, segment_column=segment_column or "")
    left, right, _ = st.columns([1, 1, 4])
    # the files are written when a button is clicked, not on every rerun (issue 51)
    left.download_button("Table (CSV)", lambda: export.to_csv(index=False),
                         file_name=f"ranklens-{slug(metric)}{slug(key)}-segments.csv",
                         mime="text/csv", on_click="ignore", icon=":material/download:",
                         key=f"csv:{metric}{key}")
    right.download_button("Table (JSON)", lambda: export.to_json(orient="records", indent=2),
                          file_name=f"ranklens-{slug(metric)}{slug(key)}-segments.json",
                          mime="application/json", on_click="ignore",
                          icon=":material/download:", key=f"json:{metric}{key}")


def _q_help(table: pd.DataFrame) -> str:
    return ("Benjamini\u2013Hochberg q-value across the segments (the overall row, with "
            "several candidates: its p adjusted for them)")


def text_width(texts: pd.Series | list[str], least: int) -> int:
    """Pixels a text column needs for its longest cell (about 7.5 px a character at the
    table's font), at least ``least``: '4,192 / 80 / 2,728' must not be cut."""
    longest = max((len(str(t)) for t in texts), default=0)
    return max(least, round(7.5 * longest) + 20)


def lift_width(texts: pd.Series) -> int:
    """Pixels the Lift column needs: its texts are signs, digits and '%' (about 6.4 px a
    character at the table's font, narrower than `text_width`'s 7.5 for words)."""
    longest = max((len(str(t)) for t in texts), default=0)
    return max(70, round(6.4 * longest) + 24)


def number_column(label: str, fmt: str = "%.4f", **options: Any) -> Any:
    """A narrow number column unless told otherwise."""
    options.setdefault("width", "small")
    return st.column_config.NumberColumn(label, format=fmt, **options)


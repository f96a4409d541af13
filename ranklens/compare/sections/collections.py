"""The several-collections section of a compare report: the macro average, BEIR-style.

Answers "over these test collections, is B better than A on average, each collection counting
alike": per metric the sentence (the macro average with its interval and p, the pooled mean
beside it), the per-collection forest plot, the table (one row per collection, the macro
average last: `macro_records`, records of ``ranklens.compare.columns.MACRO_COLUMNS``) and how
to read its intervals. It reads numbers from ``Report.macro`` (``ranklens.compare.macro``) and
computes none; it knows no face (text, Markdown, HTML and the page draw the same blocks; the
CSV and LaTeX tables read `macro_records`).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Any

from ranklens.compare import columns
from ranklens.compare.macro import MacroSection, candidate_sections
from ranklens.compare.report import Report
from ranklens.compare.report_tables import plot_order
from ranklens.document.blocks import Chart, Paragraph, Section, Table
from ranklens.formats import format_delta, format_interval, format_p, level_number

MACRO_ROW = "Macro average"
MACRO_TITLE = "Several collections: the macro average"
MACRO_NOTE = ("Each collection's interval and p are its own comparison; q-values are "
              "Benjamini\u2013Hochberg across the collections. The macro row's interval "
              "resamples queries within each collection (the collections are fixed).")


def collections_section(sections: Sequence[MacroSection],
                        run_names: tuple[str, str]) -> Section | None:
    """The section of one candidate's collections (`ranklens.compare.macro.candidate_sections`):
    a subsection per metric; None without collections."""
    if not sections:
        return None
    return Section("macro", MACRO_TITLE,
                   tuple(_metric(section, run_names) for section in sections))


def macro_parts(report: Report) -> list[tuple[tuple[str, str], tuple[MacroSection, ...]]]:
    """Each candidate's run names and macro sections (one pair for two runs; none without
    collections)."""
    if not report.macro:
        return []
    names = report.run_names
    return [((names[0], names[j]), candidate_sections(report.macro, j))
            for j in report.candidates]


def _metric(section: MacroSection, run_names: tuple[str, str]) -> Section:
    records = macro_records(section, plotted=True)
    level = level_number(1 - section.collections.overall.alpha)
    names = {"a": run_names[0], "b": run_names[1], "collection": section.column,
             "level": level}
    return Section(f"macro-{section.metric}", section.metric, (
        Paragraph(macro_sentence(section, run_names), "conclusion", literal=True),
        Chart("macro-forest", partial(_forest_plot, section, run_names),
              f"Forest plot of {section.metric} per collection"),
        Table("macro", columns.MACRO_COLUMNS, tuple(records), names,
              set_apart=tuple(i for i, r in enumerate(records) if r["macro"])),
        Paragraph(MACRO_NOTE, "interval-note", literal=True)))


def _forest_plot(section: MacroSection, run_names: tuple[str, str]) -> Any:
    """The per-collection forest plot, the pooled comparison on top (marginal intervals: each
    collection's is its own comparison)."""
    from ranklens.compare import charts, report_tables  # Altair loads only where drawn

    table = report_tables.segment_table(section.collections, run_names)
    return charts.forest_plot(table, metric=section.metric, run_names=run_names,
                              alpha=section.collections.overall.alpha, intervals="marginal")


def macro_records(section: MacroSection, *, plotted: bool = False) -> list[dict[str, Any]]:
    """One record per collection, then the macro average: the columns of
    `columns.MACRO_COLUMNS` plus ``macro`` (True on the last row). The collections in name
    order (the CSV and LaTeX tables, as the report holds them), or ``plotted``: in the forest
    plot's order, by difference (the table under the plot, `report_tables.plot_order`)."""
    rows = (plot_order(section.collections)[1:] if plotted
            else section.collections.segments)
    records = []
    for row in rows:
        result = row.result
        record: dict[str, Any] = {"collection": row.segment, "n_queries": row.n_queries,
                                  "macro": False}
        if result is not None:
            record.update(mean_a=result.mean_a, mean_b=result.mean_b, delta=result.delta,
                          ci_low=result.interval.low, ci_high=result.interval.high,
                          p_value=result.p_value, q_value=result.q_value,
                          significant=result.significant)
        records.append(record)
    macro = section.macro
    last: dict[str, Any] = {"collection": MACRO_ROW, "macro": True,
                            "n_queries": section.collections.overall.n_queries,
                            "mean_a": section.mean_a, "mean_b": section.mean_b}
    if macro is not None:
        last.update(delta=macro.estimate, ci_low=macro.interval.low,
                    ci_high=macro.interval.high, p_value=macro.p_value, q_value=None,
                    significant=macro.significant)
    records.append(last)
    return records


def macro_sentence(section: MacroSection, run_names: tuple[str, str]) -> str:
    """The headline: the macro average with its interval and p, the pooled mean beside it."""
    name_a, name_b = run_names
    macro = section.macro
    if macro is None:
        return section.note
    level = level_number(macro.interval.level)
    pooled = section.collections.overall
    return (f"Macro average over {section.n_collections} collections ({section.column}): "
            f"{name_b} \u2212 {name_a} = {format_delta(macro.estimate)} on {section.metric} "
            f"({level}% interval {format_interval(macro.interval.low, macro.interval.high)}, "
            f"stratified bootstrap within collections; stratified permutation p "
            f"{format_p(macro.p_value)}). Pooled over all {macro.n_queries:,} queries: "
            f"{format_delta(macro.pooled)} ({level}% interval "
            f"{format_interval(pooled.interval.low, pooled.interval.high)}); the macro "
            "average weighs every collection alike, the pooled mean every query.")

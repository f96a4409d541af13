"""The CSV face of a comparison report: one row per metric and segment, full-precision numbers.

Answers what a spreadsheet or a pipeline reads (`render_csv`); the words of a report are in
`ranklens.compare.text` (text and Markdown) and `ranklens.compare.html`.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from typing import Any

from ranklens.compare import seed_views
from ranklens.compare.macro import MacroSection
from ranklens.compare.report import Report, result_row
from ranklens.compare.report_tables import interval_levels, lift_cells
from ranklens.compare.sections.collections import macro_records
from ranklens.compare.segments import MetricComparison, SegmentRow
from ranklens.health import check_words as health_words

CSV_COLUMNS = (  # where the row has a segment, and then columns of `result_row`
    "metric", "segment_column", "segment", "n_queries", "mean_a", "mean_b", "delta",
    "ci_low", "ci_high", "p_value", "q_value", "significant", "t_p_value", "t_ci_low",
    "t_ci_high", "wins", "ties", "losses", "effect_size", "alpha", "interval", "note",
    "ci_level", "fcr_low", "fcr_high", "fcr_level", "lift", "lift_low", "lift_high",
)
"""``ci_low``/``ci_high`` are the marginal interval at ``ci_level``, ``fcr_low``/``fcr_high``
the segment's FCR-adjusted one at ``fcr_level`` (empty where there is none); ``lift``,
``lift_low``, ``lift_high`` B's relative lift over A with its interval at ``ci_level`` (empty
where A's mean is near 0: `ranklens.compare.segments.row_lift`)."""


COVERAGE_CSV_COLUMNS = ("judged_depth", "judged_a", "judged_b")
"""Judgement coverage of a row, before the health cell in every CSV: the cutoff k and the mean
judged@k of each run over the row's queries (`ranklens.compare.coverage.CoverageRow`); empty
where the report has no coverage for the metric (no judgements, a metric without a cutoff, a
pair of candidates)."""

HEALTH_CSV_COLUMN = "health"
"""The report's health checks that did not pass, last in every CSV row
(`ranklens.health.check_words.csv_cell`: ``failed: documents (neural); ...``, or ``passed``); empty
for a report without health checks. Their numbers and messages are in the JSON."""

CSV_HEADER = (*CSV_COLUMNS, *COVERAGE_CSV_COLUMNS, HEALTH_CSV_COLUMN)
"""CSV columns of a two-run report."""


def _csv_values(comparison: MetricComparison, row: SegmentRow) -> list[object]:
    """The `CSV_COLUMNS` of one row, from `result_row`; empty cells where there is none."""
    values: dict[str, object] = {} if row.result is None else result_row(row.result)
    values.update(metric=comparison.metric, segment_column=comparison.segment_column or "",
                  segment=row.segment, n_queries=row.n_queries, note=row.note,
                  **{k: "" if v is None else v
                     for k, v in {**interval_levels(row), **lift_cells(row.lift)}.items()})
    if values.get("q_value") is None:
        values["q_value"] = ""
    return [values.get(column, "") for column in CSV_COLUMNS]


_NO_COVERAGE: tuple[object, ...] = ("",) * len(COVERAGE_CSV_COLUMNS)


def _coverage_cells(report: Report,
                    comparison: MetricComparison) -> dict[str, tuple[object, ...]]:
    """Segment (the overall row's name included) -> its `COVERAGE_CSV_COLUMNS` cells; empty
    when the report has no coverage for this comparison's candidate and metric."""
    coverage = report.coverage_of(comparison.candidate)
    measured = None if coverage is None else coverage.metric(comparison.metric)
    if measured is None:
        return {}
    return {row.segment: (measured.depth, row.judged_a, row.judged_b) for row in measured.rows}


MULTI_CSV_COLUMNS = ("baseline", "candidate", *CSV_COLUMNS, "adjusted_p",
                     *COVERAGE_CSV_COLUMNS, HEALTH_CSV_COLUMN)
"""CSV columns of a report of several candidates: whose comparison a row is, the
family-adjusted p on each overall row, and the row's judgement coverage."""


def _with_macro_csv(report: Report, text: str) -> str:
    """The CSV, and after a blank line the collections' table (`macro_csv_rows`)."""
    rows = macro_csv_rows(report.macro)
    if not rows:
        return text
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerows(rows)
    return text + "\n" + buffer.getvalue()


def render_csv(report: Report) -> str:
    """One row per metric and segment (overall first), full-precision numbers, a header;
    the last columns are the row's judgement coverage (`COVERAGE_CSV_COLUMNS`).

    Several candidates: the same rows for each candidate, named in ``baseline`` and
    ``candidate``, with the family-adjusted p on the overall rows; with every pair in the
    family, the pairs of candidates follow as overall rows of their own.
    """
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    if report.seeds is not None:
        _seeds_csv(report, writer)
        return _with_macro_csv(report, buffer.getvalue())
    if not report.several:
        health = health_words.csv_cell(report.health)
        writer.writerow(CSV_HEADER)
        for comparison in report.comparisons:
            cells = _coverage_cells(report, comparison)
            for row in comparison.rows:
                writer.writerow([*_csv_values(comparison, row),
                                 *cells.get(row.segment, _NO_COVERAGE), health])
        return _with_macro_csv(report, buffer.getvalue())
    names = report.run_names
    writer.writerow(MULTI_CSV_COLUMNS)
    for comparison in report.comparisons:
        family = report.family(comparison.metric)
        adjusted = "" if family is None else family.pair(0, comparison.candidate).adjusted_p
        cells = _coverage_cells(report, comparison)
        health = health_words.csv_cell(report.candidate_report(comparison.candidate).health)
        for index, row in enumerate(comparison.rows):
            writer.writerow([names[0], names[comparison.candidate],
                             *_csv_values(comparison, row), adjusted if index == 0 else "",
                             *cells.get(row.segment, _NO_COVERAGE), health])
    for family in report.families:
        for pair in family.pairs:
            if pair.a == 0:
                continue
            alone = MetricComparison(family.metric, pair.result)
            writer.writerow([names[pair.a], names[pair.b],
                             *_csv_values(alone, alone.rows[0]), pair.adjusted_p,
                             *_NO_COVERAGE, ""])
    return _with_macro_csv(report, buffer.getvalue())


def _seeds_csv(report: Report, writer: Any) -> None:
    """The CSV of a report whose systems were given as several runs: the rows of
    `render_csv` (these trained runs) with `seed_views.CSV_COLUMNS` after them (the new-run
    answer and the variance components on each overall row), then one overall row per run of
    each candidate against the baseline's mean (``answer`` names the run)."""
    names = report.run_names
    extra = len(seed_views.CSV_COLUMNS)
    writer.writerow(("baseline", "candidate", *CSV_COLUMNS, *seed_views.CSV_COLUMNS))
    for comparison in report.comparisons:
        j = comparison.candidate
        for index, row in enumerate(comparison.rows):
            seeds = (seed_views.csv_cells(report, comparison.metric, j) if index == 0
                     else [""] * extra)
            writer.writerow([names[0], names[j], *_csv_values(comparison, row), *seeds])
        for run, result in seed_views.per_seed_results(report, comparison.metric, j):
            alone = MetricComparison(comparison.metric, result)  # type: ignore[arg-type]
            writer.writerow([names[0], names[j], *_csv_values(alone, alone.rows[0]),
                             f"seed run: {run}", *[""] * (extra - 1)])


MACRO_CSV_COLUMNS = ("metric", "collection_column", "collection", "n_queries", "mean_a",
                     "mean_b", "delta", "ci_low", "ci_high", "p_value", "q_value",
                     "significant", "macro")
"""The CSV of the collections: a second table after a blank line (`macro_csv_rows`)."""


def macro_csv_rows(sections: Sequence[MacroSection]) -> list[list[object]]:
    """The collections' rows for the CSV, header first (empty without sections)."""
    if not sections:
        return []
    rows: list[list[object]] = [list(MACRO_CSV_COLUMNS)]
    for section in sections:
        for record in macro_records(section):
            values = {**record, "metric": section.metric, "collection_column": section.column}
            rows.append(["" if values.get(c) is None else values.get(c, "")
                         for c in MACRO_CSV_COLUMNS])
    return rows

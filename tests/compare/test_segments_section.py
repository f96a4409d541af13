"""One metric's table of segments (``ranklens.compare.sections.segments``): one set of rows
in the forest plot's order for every face; text and Markdown draw the narrow columns, the HTML
export the wide ones (the t-test's p, W/T/L and the finding too)."""

from __future__ import annotations

import re

import pytest

from ranklens.compare import html, text
from ranklens.compare.analysis import CompareSettings, build_report, demo_files
from ranklens.compare.report import Report
from ranklens.compare.report_tables import plot_order
from ranklens.compare.sections.segments import segments_table

FILES = demo_files()


@pytest.fixture(scope="module")
def report() -> Report:
    return build_report(FILES["run_a"], FILES["run_b"], qrels=FILES["qrels"],
                        segments=FILES["segments"],
                        settings=CompareSettings(metrics=("nDCG@10",), segment_column="intent",
                                                 n_resamples=200, n_permutations=200, seed=3))


def test_the_rows_follow_the_forest_plot_in_text_markdown_and_html(report: Report) -> None:
    comparison = report.comparisons[0]
    table = segments_table(comparison, report.pair_names)
    order = [str(r["segment"]) for r in table.records]
    assert order == [row.segment for row in plot_order(comparison)]
    assert table.set_apart == (0,)
    deltas = [r["delta"] for r in table.records[1:]]
    assert deltas == sorted(deltas, reverse=True)  # no segment of the demo is too small
    _, _, cells = text.segment_cells(comparison, report.pair_names)
    assert [row[0] for row in cells] == order
    _, _, markdown_cells = text.segment_cells(comparison, report.pair_names, markdown=True)
    assert [row[0] for row in markdown_cells] == order
    segments = html.render(report).split('<table class="segments">')[1].split("</table>")[0]
    assert re.findall(r"<tr(?: class=\"overall\")?><td>([^<]*)</td>", segments) == order


def test_the_narrow_faces_leave_out_the_detail_columns(report: Report) -> None:
    comparison = report.comparisons[0]
    shown, header, _ = text.segment_cells(comparison, report.pair_names, markdown=True)
    assert "t_p_value" not in [c.key for c in shown] and "finding" not in header
    drawn = html.render(report)
    assert "<th>p (t-test)</th>" in drawn and "<th>Finding</th>" in drawn
    assert "<th>Won</th>" in drawn


def test_a_segment_too_tied_for_its_size_says_so_in_its_note_in_every_face() -> None:
    # issue 45: SegmentRow.shape_note was data only; the table's note cell shows it in brief
    import warnings

    import numpy as np

    from ranklens.compare.segments import compare_segments
    from ranklens.data import MetricResult

    ids = [f"q{i:03d}" for i in range(120)]
    rng = np.random.default_rng(45)
    a = rng.uniform(0.2, 0.8, 120)
    b = a + rng.normal(0.02, 0.1, 120)
    b[100:] = a[100:]  # the "tied" segment: 20 queries, 17 unchanged
    b[[100, 105, 110]] += [0.05, -0.02, 0.04]
    segments = {q: "tied" if i >= 100 else ("head", "tail")[i % 2] for i, q in enumerate(ids)}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        comparison = compare_segments(MetricResult.from_arrays("m", ids, a),
                                      MetricResult.from_arrays("m", ids, b), segments)
    notes = {row.segment: row.shape_note for row in comparison.segments}
    assert "mostly tied (17 of 20" in notes["tied"] and notes["head"] == ""
    table = segments_table(comparison, ("A", "B"))
    cells = {str(r["segment"]): r["note"] for r in table.records}
    brief = "approximate: skewed for its size and mostly tied"  # 3 changed of 20: skewed too
    assert cells["tied"] == brief and cells["head"] == ""
    for markdown in (False, True):
        _, _, rows = text.segment_cells(comparison, ("A", "B"), markdown=markdown)
        tied_row = next(row for row in rows if row[0] == "tied")
        assert brief in tied_row

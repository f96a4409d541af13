"""The HTML report: self-contained, the report's numbers and words, escaped, readable back."""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path

import pytest

from ranklens import __version__, demo
from ranklens.cli import main as cli_main
from ranklens.compare import columns as specs
from ranklens.compare import html as html_report
from ranklens.compare import report_tables
from ranklens.compare.analysis import build_report
from ranklens.compare.report import Report
from ranklens.compare.verdict_words import caveat, headline, segments_summary
from tests.support.html_outline import assert_self_contained, outline
from tests.support.share_helpers import SETTINGS, compare_files


@pytest.fixture(scope="module")
def report() -> Report:
    run_a, run_b, qrels, segments = compare_files()
    return build_report(run_a, run_b, qrels=qrels, segments=segments, settings=SETTINGS)


@pytest.fixture(scope="module")
def document(report: Report) -> str:
    return html_report.render(report)


def test_no_network_references(document: str) -> None:
    assert_self_contained(document)


def test_one_chart_per_metric_inline(document: str, report: Report) -> None:
    assert document.count("<figure") == len(report.metrics) == 2
    assert document.count("<svg") == len(report.metrics)


def test_embedded_json_is_the_report(document: str, report: Report) -> None:
    embedded = html_report.embedded_report(document)
    assert embedded.to_json() == report.to_json()


def _segment_tables(parsed):  # type: ignore[no-untyped-def]
    """The segment tables, each opening with its overall row (the "Every metric" table of a
    report of several metrics comes before them)."""
    column = "intent"  # the fixture's segment column heads each segment table
    return [t for t in parsed.tables if len(t) > 1 and t[0][0][1] == column
            and t[1][0][1] == "All queries"]


def test_table_numbers_equal_the_report(document: str, report: Report) -> None:
    parsed = outline(document)
    segment_tables = _segment_tables(parsed)
    assert len(segment_tables) == len(report.metrics)
    columns = specs.number_keys(specs.pick(specs.SEGMENT_COLUMNS, specs.SEGMENT_HTML))
    for metric, table in zip(report.metrics, segment_tables, strict=True):
        expected = report_tables.segment_table(report.comparison(metric), report.run_names)
        body = table[1:]  # the header row first
        assert [row[0][1] for row in body] == list(expected["segment"])
        for row, record in zip(body, expected.to_dict("records"), strict=True):
            for (exact, _shown), column in zip(row[1:1 + len(columns)], columns, strict=True):
                value = float(record[column])
                if math.isnan(value):
                    assert exact == ""
                else:
                    assert float(exact) == value, (metric, record["segment"], column)
    overall = report.comparison("nDCG@10").overall
    first_row = segment_tables[0][1]
    assert first_row[0][1] == "All queries"
    assert first_row[2][1] == f"{overall.mean_a:.4f}"


def test_q_values_are_shown(document: str, report: Report) -> None:
    parsed = outline(document)
    first = _segment_tables(parsed)[0]
    header = [text for _, text in first[0]]
    q_column = header.index("q")
    rows = first[1:]
    segment_rows = report.comparison("nDCG@10").segments
    assert all(row.result is not None and row.result.q_value is not None
               for row in segment_rows)
    assert all(row[q_column][0] not in (None, "") for row in rows[1:])


def test_words_inputs_parameters_and_version(document: str, report: Report) -> None:
    text = " ".join(" ".join(outline(document).text).split())
    for metric in report.metrics:
        comparison = report.comparison(metric)
        for sentence in (headline(comparison, report.run_names),
                         segments_summary(comparison, report.run_names), caveat(metric)):
            rest = sentence.split(". ", 1)[-1]
            assert " ".join(rest.split()) in text
    for record in report.inputs:
        assert record.sha256 in text and record.name in text and f"{record.size:,}" in text
    for key in ("n_resamples", "seed", "segment_column", "adjust_method", "alpha"):
        assert key in text
    assert f"ranklens {__version__}" in text


def test_warnings_are_shown_and_escaped(report: Report) -> None:
    warned = dataclasses.replace(report, warnings=("run B has <b>3</b> duplicate rows & more",))
    text = " ".join(outline(html_report.render(warned)).text)
    assert "run B has <b>3</b> duplicate rows & more" in text


def test_names_from_inputs_are_escaped(report: Report) -> None:
    evil = "<script>alert(1)</script>"
    hostile = dataclasses.replace(report, run_names=(evil, '"><img src=x onerror=alert(1)>'),
                                  warnings=(evil,))
    document = html_report.render(hostile)
    parsed = outline(document)
    assert [tag for tag, _ in parsed.tags if tag in ("script", "img")] == ["script"]
    assert evil in " ".join(parsed.text)
    assert html_report.embedded_report(document).run_names == hostile.run_names


def test_rendering_is_deterministic(document: str, report: Report) -> None:
    assert html_report.render(report) == document


def test_cli_writes_the_same_html(tmp_path: Path, document: str) -> None:
    paths = demo.paths()
    output = tmp_path / "report.html"
    code = cli_main(["compare", str(paths["run_a"]), str(paths["run_b"]),
                     "--qrels", str(paths["qrels"]), "--segments", f"{paths['segments']}:intent",
                     "--metric", "nDCG@10", "--metric", "AP", "--n-resamples", "2000",
                     "--n-permutations", "2000", "--seed", "7",
                     "--format", "html", "--output", str(output)])
    assert code == 0
    assert output.read_text(encoding="utf-8") == document

"""One metric's section (``ranklens.compare.sections.metric``): the verdict before the table
in text and Markdown, as in the HTML export; the settings line and the notes one paragraph
each; the robustness view a table in text and Markdown."""

from __future__ import annotations

import dataclasses

import pytest

from ranklens.compare import text
from ranklens.compare.analysis import CompareSettings, build_report, demo_files
from ranklens.compare.report import Report
from ranklens.compare.sections.metric import (
    robustness_section,
    settings_line,
    table_blocks,
    verdict_blocks,
)
from ranklens.compare.sections.queries import queries_sections
from ranklens.compare.verdict_words import headline
from ranklens.document.blocks import Chart, Paragraph, Section, Table

FILES = demo_files()


@pytest.fixture(scope="module")
def report() -> Report:
    return build_report(FILES["run_a"], FILES["run_b"], qrels=FILES["qrels"],
                        segments=FILES["segments"],
                        settings=CompareSettings(metrics=("nDCG@10",), segment_column="intent",
                                                 n_resamples=200, n_permutations=200, seed=3))


def test_the_verdict_comes_before_the_table_in_text_and_markdown(report: Report) -> None:
    comparison = report.comparisons[0]
    said = headline(comparison, report.pair_names)
    for face in ("text", "markdown"):
        out = text.render(report, face).replace("\n", " ")
        verdict = " ".join(said.split()[:6])
        assert out.index(verdict) < out.index("All queries")
        assert out.index("All queries") < out.index("sign-flip permutation p")


def test_the_blocks_say_the_verdict_then_the_table_then_its_settings(report: Report) -> None:
    comparison = report.comparisons[0]
    verdict = verdict_blocks(report, comparison)
    assert isinstance(verdict[0], Paragraph)
    assert verdict[0].text == headline(comparison, report.pair_names)
    assert verdict[0].role == "conclusion"
    forest, table, settings, *notes = table_blocks(report, comparison)
    assert isinstance(forest, Chart) and forest.key == "forest"  # the HTML export's picture
    assert isinstance(table, Table) and table.key == "segments"
    assert settings == Paragraph(settings_line(comparison), "interval-note", literal=True)
    assert all(isinstance(note, Paragraph) for note in notes)


def test_no_robustness_view_without_coverage(report: Report) -> None:
    assert robustness_section(dataclasses.replace(report, coverage=None), "nDCG@10") is None


def test_queries_lost_and_won_are_one_table_each_in_markdown_too(report: Report) -> None:
    assert queries_sections(report, "nDCG@10") == []  # no texts, no moves: nothing to say
    texts = {str(q): f"text of {q}" for q in report.per_query["nDCG@10"]["a"]}
    with_texts = dataclasses.replace(report, query_texts=texts)
    lost, won = queries_sections(with_texts, "nDCG@10", n=3)
    assert [lost.title, won.title] == ["Queries neural_reranker lost most",
                                       "Queries neural_reranker won most"]
    table = lost.blocks[0]
    assert isinstance(table, Table) and len(table.records) == 3
    assert [c.key for c in table.columns] == ["query", "text", "delta"]  # no moves: no column
    deltas = [r["delta"] for r in table.records]
    assert deltas == sorted(deltas) and deltas[0] < 0
    markdown = text.render(with_texts, "markdown")
    assert "### Queries neural_reranker won most" in markdown
    assert f"| {table.records[0]['query']} | {texts[table.records[0]['query']]} |" in markdown


def test_one_section_per_metric_is_what_text_and_markdown_print(report: Report) -> None:
    from ranklens.compare.sections.metric import metric_section
    from ranklens.document import markdown as markdown_writer
    from ranklens.document import text as text_writer

    section = metric_section(report, report.comparisons[0])
    assert section.title == "nDCG@10"
    assert isinstance(section.blocks[0], Paragraph)  # no guardrail here: the verdict leads
    drawn = "\n".join(text_writer.body_lines(section))
    assert drawn in text.render(report, "text")
    assert "\n".join(markdown_writer.section_lines(section)) in text.render(report, "markdown")


def _paragraphs(section: Section) -> list[Paragraph]:
    return [p for block in section.blocks
            for p in (_paragraphs(block) if isinstance(block, Section) else [block])
            if isinstance(p, Paragraph)]


def test_the_html_export_says_every_sentence_text_and_markdown_say(report: Report) -> None:
    """The HTML export draws the same section: every paragraph of it (the settings line, the
    interval and table notes, the caveat) is in the export, and only the detail paragraphs
    are missing from text."""
    import html as escaping

    from ranklens.compare import html as html_report
    from ranklens.compare.sections.metric import metric_section
    from ranklens.compare.sections.seeds import TITLE

    with_coverage = build_report(
        FILES["run_a"], FILES["run_dense"], qrels=FILES["qrels"],
        proxy_qrels=FILES["qrels_proxy_full"],
        settings=CompareSettings(metrics=("nDCG@10", "P@10"), n_resamples=200,
                                 n_permutations=200, seed=3))
    for shown in (report, with_coverage):
        document = html_report.render(shown)
        printed = text.render(shown, "text")
        for comparison in shown.comparisons:
            section = metric_section(shown, comparison)
            said = _paragraphs(section)
            assert said and any(p.text == settings_line(comparison) for p in said)
            for paragraph in said:
                assert escaping.escape(paragraph.text) in document
                words = " ".join(paragraph.text.split()[:8])
                assert (words in " ".join(printed.split())) != paragraph.detail
            assert f'id="metric-{comparison.metric.lower().replace("@", "-")}"' in document
    assert TITLE not in html_report.render(report)  # no seeds: no seeds section
    # the robustness view sits in each metric's section, its guardrail links there
    document = html_report.render(with_coverage)
    assert "Judgement coverage" not in document
    assert document.count('<table class="coverage">') == 2


def test_the_settings_line_names_the_tie_floor_where_a_row_is_mostly_tied(
        report: Report) -> None:
    import numpy as np

    from ranklens.compare.segments import MetricComparison, SegmentRow
    from ranklens.data import MetricResult
    from ranklens.stats import compare
    from ranklens.stats.shape import ShapeWarning

    comparison = report.comparisons[0]
    assert "(1 - 1/e)^k" not in settings_line(comparison)  # the demo: no row mostly tied
    ids = [f"q{i:02d}" for i in range(30)]
    a = np.full(30, 0.5)
    b = a.copy()
    b[:8] += np.array([0.05, 0.1, 0.07, 0.02, 0.09, 0.04, -0.01, 0.06])  # 8 of 30 changed
    with pytest.warns(ShapeWarning, match="mostly tied"):
        tied = compare(MetricResult.from_arrays("nDCG@10", ids, a),
                       MetricResult.from_arrays("nDCG@10", ids, b), n_permutations=200)
    line = settings_line(MetricComparison("nDCG@10", tied))
    assert ("skew-guarded p (sign-flip permutation p or skew-corrected t p, the larger, and at "
            "least (1 - 1/e)^k at k changed queries where most tie; 200 permutations)") in line
    # a mostly tied segment row is enough
    segmented = dataclasses.replace(comparison, segments=(
        *comparison.segments, SegmentRow("tied", 30, tied)))
    assert "(1 - 1/e)^k at k changed queries where most tie" in settings_line(segmented)

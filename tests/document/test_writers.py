"""The writers of ``ranklens.document``: one section, the same words in every face."""

from __future__ import annotations

from ranklens.document import html, markdown, text
from ranklens.document.blocks import Items, Paragraph, Section, section

WARNINGS = Section("warnings", "Warnings", (
    Items(("3 queries only in run A were dropped", "a <b> | c"), "warning"),))


def test_an_empty_section_is_none() -> None:
    assert section("warnings", "Warnings", [Items(())]) is None
    assert html.section_html(None) == ""


def test_text_lists_the_items_under_the_title() -> None:
    assert text.section_lines(WARNINGS) == [
        "Warnings:", "  - 3 queries only in run A were dropped", "  - a <b> | c"]
    assert text.section_lines(Section("s", "Note", (Paragraph("x " * 60),)), width=40)[1] \
        .startswith("  x x")


def test_markdown_lists_the_items_under_a_heading() -> None:
    assert markdown.section_lines(WARNINGS) == [
        "## Warnings", "", "- 3 queries only in run A were dropped", "- a <b> | c"]


def test_html_escapes_every_item_and_marks_a_warning_list() -> None:
    assert html.section_html(WARNINGS) == (
        '<section id="warnings"><h2>Warnings</h2><ul class="warnings">'
        "<li>3 queries only in run A were dropped</li><li>a &lt;b&gt; | c</li></ul></section>")


def test_compare_warnings_include_the_rows_a_reader_set_aside() -> None:
    from ranklens.compare.report import InputRecord, Report
    from ranklens.compare.sections.warnings import warnings_section

    record = InputRecord("run_a", "a.tsv", 10, "0" * 64,
                         {"set_aside": [{"rows": 2, "reason": "no score"}]})
    report = Report(run_names=("a", "b"), comparisons=(), params={}, inputs=(record,),
                    warnings=("w",))
    found = warnings_section(report)
    assert found is not None
    assert found.blocks == (Items(("w", "a.tsv: 2 rows set aside: no score"), "warning"),)


def test_a_health_section_reads_the_same_in_text_markdown_and_html() -> None:
    from ranklens.document.blocks import Callout, Folded

    failed = Callout("failed", "Documents (b)", "3% match", "check the ids", ("d1", "d2"))
    passed = Folded("passed", "1 passed", (Callout("passed", "Grades", "0 to 3"),), "Grades")
    health = Section("health", "Health checks", (failed, passed), lead="1 failed, 1 passed")
    assert text.section_lines(health) == [
        "Health checks: 1 failed, 1 passed", "  \u2717 FAILED Documents (b): 3% match",
        "    What to do: check the ids", "  \u2713 passed: Grades"]
    assert markdown.section_lines(health) == [
        "## Health checks", "", "1 failed, 1 passed.", "",
        "- **failed: Documents (b)**: 3% match _What to do:_ check the ids",
        "- passed: Grades"]
    written = html.section_html(health)
    assert written.startswith('<section id="health"><h2>Health checks</h2>'
                              "<p>1 failed, 1 passed.</p><div class=\"health-failed\"")
    assert '<p class="note">d1; d2</p>' in written
    assert ('<details class="health-passed"><summary>1 passed</summary>'
            "<ul><li>\u2713 Grades: 0 to 3</li></ul></details></section>") in written


def test_a_banner_links_where_a_face_can_and_points_where_it_cannot() -> None:
    from ranklens.document.blocks import Banner

    banner = Banner("guardrail", "B has 30% unjudged.", "Could change.", "robustness-ndcg",
                    "Go there", "See below.")
    assert text.block_lines(banner) == ["! Could change. B has 30% unjudged. See below."]
    assert markdown.block_lines(banner) == ["> **Could change.** B has 30% unjudged. See below."]
    assert html.block_html(banner) == (
        '<div class="warnings guardrail" role="alert"><p><strong>Could change.</strong> '
        'B has 30% unjudged. <a href="#robustness-ndcg">Go there</a>.</p></div>')

    ties = Banner("ties", "Under tie-averaging B is not better.")
    assert text.block_lines(ties) == ["! Under tie-averaging B is not better."]
    assert markdown.block_lines(ties) == ["> Under tie-averaging B is not better."]
    assert html.block_html(ties) == ('<div class="warnings ties" role="note"><p>Under '
                                     "tie-averaging B is not better.</p></div>")


def _table_section() -> Section:
    from ranklens.document.blocks import Chart, Table
    from ranklens.document.columns import Column

    shown = (Column("name", "{a}", "label"), Column("delta", "B \u2212 A", "delta"),
             Column("significant", "", "mark"), Column("finding", "finding", "text",
                                                       detail=True))
    table = Table("demo", shown, ({"name": "x|y", "delta": 0.5, "significant": True,
                                   "finding": "B better"},
                                  {"name": "all", "delta": -0.25, "significant": False,
                                   "finding": "no reliable difference"}),
                  {"a": "run"}, set_apart=(1,))
    drawn: list[int] = []

    def draw() -> object:
        drawn.append(1)
        raise AssertionError("a face without pictures drew the chart")

    metric = Section("m", "nDCG@10", (Paragraph("B is better.", "conclusion", literal=True),
                                      Chart("plot", draw, "the plot"), table))
    return Section("outer", "Collections", (metric,))


def test_a_table_and_a_subsection_in_text_and_markdown_without_the_chart() -> None:
    outer = _table_section()
    assert text.body_lines(outer) == [
        "Collections", "", "nDCG@10", "", "B is better.", "",
        "run    B \u2212 A", "---  -------  -", "x|y  +0.5000  *", "all  \u22120.2500", ""]
    assert markdown.section_lines(outer) == [
        "## Collections", "", "### nDCG@10", "", "B is better.", "",
        "| run | B \u2212 A | sig. |", "|---|---|---|", "| x\\|y | +0.5000 | * |",
        "| all | \u22120.2500 |  |"]


def test_a_table_in_html_sets_its_summary_rows_apart_and_escapes_its_cells() -> None:
    from ranklens.document.blocks import Table

    outer = _table_section()
    metric = outer.blocks[0]
    assert isinstance(metric, Section)
    table = metric.blocks[2]
    assert isinstance(table, Table)
    drawn = html.table_html(table)
    assert '<table class="demo">' in drawn and "<th>run</th>" in drawn
    assert '<tr class="overall"><td>all</td>' in drawn and "<td>x|y</td>" in drawn
    # a detail column: drawn by the wide faces, left out of text and Markdown (tested above)
    assert "<th>finding</th>" in drawn and "<td>no reliable difference</td>" in drawn
    assert html.block_html(metric.blocks[0]) == (
        '<div class="verdict"><p class="conclusion">B is better.</p></div>')
    assert html.block_html(Paragraph("<b>", literal=True)) == "<p>&lt;b&gt;</p>"


def test_a_wide_table_gives_each_number_its_cell_and_its_exact_value() -> None:
    from ranklens.document.blocks import Table
    from ranklens.document.columns import Column, wide

    shown = (Column("name", "{a}", "label", "Run {a}"), Column("ci", "CI", "interval",
                                                                "Interval"),
             Column("wtl", "W / T / L", "wtl", detail=True),
             Column("significant", "", "mark"), Column("p", "p", "p", "p (permutation)"))
    record = {"name": "x<y", "ci_low": -0.125, "ci_high": 0.5, "wins": 3, "ties": 1,
              "losses": 2, "significant": True, "p": 0.25}
    drawn = html.wide_table_html(Table("wide", shown, (record, {"name": "all"}), {"a": "A"},
                                       set_apart=(1,)))
    assert html.wide_headers(wide(shown), {"a": "A"}) == [
        "Run A", "Interval low", "Interval high", "Won", "Tied", "Lost", "p (permutation)"]
    assert ('<td>x&lt;y</td><td class="num" data-value="-0.125">' in drawn
            and 'data-value="0.5"' in drawn and 'data-value="3"' in drawn)
    assert drawn.count("<th>") == 7 and "*" not in drawn  # the mark has no cell
    assert '<tr class="overall"><td>all</td>' in drawn


def test_detail_blocks_are_drawn_by_the_html_export_only() -> None:
    from ranklens.document.blocks import Table
    from ranklens.document.columns import Column

    judged = Table("coverage", (Column("n", "n", "count", "Queries"),), ({"n": 1200},),
                   detail=True)
    section = Section("robustness", "Three ways", (
        Paragraph("They disagree."), Paragraph("What -J leaves out.", detail=True), judged),
        anchor="robustness-ndcg")
    assert text.body_lines(section) == ["Three ways", "", "They disagree.", ""]
    assert text.section_lines(section) == ["Three ways:", "  They disagree."]
    assert markdown.section_lines(section) == ["## Three ways", "", "They disagree."]
    drawn = html.report_section_html(Section("metric", "nDCG", (section,)), "metric-ndcg",
                                     "metric")
    assert drawn.startswith('<section class="metric" id="metric-ndcg"><h2>nDCG</h2>'
                            '<h3 id="robustness-ndcg">Three ways</h3><p>They disagree.</p>'
                            "<p>What -J leaves out.</p>")
    # drawn wide: the count in its cell with its exact value, under the column's title
    assert "<th>Queries</th>" in drawn and 'data-value="1200">1,200</td>' in drawn
    # a section of its own: the anchor on its heading, its table narrow (texts, short headers)
    alone = html.section_html(section)
    assert alone.startswith('<section id="robustness"><h2 id="robustness-ndcg">Three ways</h2>')
    assert "<th>n</th>" in alone and "<td>1,200</td>" in alone


def test_files_and_parameters_in_every_face() -> None:
    from ranklens.document.blocks import FileRow, Files, Parameters

    inputs = Section("inputs", "Inputs", (Files((
        FileRow("run_a", "a<1>.trec", 1234567, "ab" * 32, "a<1>.trec (trec-run): 10 rows"),
        FileRow("qrels", "q.trec", 99, "cd" * 32))),))
    # text and Markdown: a line per file, unwrapped (the description, else name and size)
    long_name = FileRow("run_b", "b" * 150, 5, "ef" * 32)
    assert text.section_lines(inputs) == [
        "Inputs:", "  a<1>.trec (trec-run): 10 rows", "  q.trec: 99 bytes"]
    assert text.section_lines(Section("inputs", "Inputs", (Files((long_name,)),)), width=40) \
        == ["Inputs:", f"  {'b' * 150}: 5 bytes"]
    assert markdown.section_lines(inputs) == [
        "## Inputs", "", "- a<1>.trec (trec-run): 10 rows", "- q.trec: 99 bytes"]
    drawn = html.section_html(inputs)
    assert drawn.startswith('<section id="inputs"><h2>Inputs</h2><table><thead><tr><th>Role'
                            "</th><th>File</th><th>Bytes</th><th>sha256</th><th>Read as</th>")
    assert ('<tr><td>run a</td><td>a&lt;1&gt;.trec</td><td class="num" data-value="1234567">'
            f"1,234,567</td><td><code>{'ab' * 32}</code></td>") in drawn
    assert "<td>q.trec</td>" in drawn and drawn.endswith("<td></td></tr></tbody></table></section>")
    # no description anywhere: no "Read as" column
    bare = html.section_html(Section("inputs", "Inputs", (Files((long_name,)),)))
    assert "Read as" not in bare and bare.count("<td") == 4
    # parameters: the wide faces only; text and Markdown leave the whole section out
    params = Section("parameters", "Parameters", (
        Parameters({"metrics": ["ndcg@10"], "alpha": 0.05, "ties": "trec"}, "0.4.0"),))
    assert text.section_lines(params) == [] and markdown.section_lines(params) == []
    assert html.section_html(params) == (
        '<section id="parameters"><h2>Parameters</h2><table>'
        "<tr><th>alpha</th><td><code>0.05</code></td></tr>"
        "<tr><th>metrics</th><td><code>[&quot;ndcg@10&quot;]</code></td></tr>"
        "<tr><th>ties</th><td><code>trec</code></td></tr></table><p>ranklens 0.4.0</p></section>")

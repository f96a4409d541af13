"""A Report as one self-contained HTML file: opens offline, in a browser or an e-mail client.

``render(report)`` answers "the whole report as a page someone can keep": the verdict sentences
and the forest plot of each metric, the table behind the plot (p and q values), the inputs with
their sha256, every parameter, every warning and the ranklens version. The report itself is
embedded as JSON (``<script type="application/json" id="ranklens-report">``), so the file is
also machine-readable and ``Report.from_json`` can read it back.

Charts are inline SVG drawn by vl-convert from the same Altair builders as the app
(``ranklens.compare.charts``): about 25 kB per chart, against about 900 kB for the Vega JavaScript
bundle that interactive inlined charts need, and SVG needs no script at all (so it survives
mail clients and strict viewers). What SVG loses is the hover tooltip; the table below each
chart has every number the tooltip had. Number cells carry the exact value in ``data-value``.

A report of several candidates opens with one leaderboard per metric (forest plot of the
candidates against the baseline in each run's own colour, the table, every pair when the
family is all pairs, and the family's sentences), then each candidate's sections as a two-run
report shows them.

It computes no statistics and reads no files; it formats what the Report holds. The page
shell, style and cells are ``ranklens.document.html_shell``'s, shared with the planning pages'
files.
"""

from __future__ import annotations

from typing import Any

from ranklens.compare import charts, coverage_words, report_tables, seed_html
from ranklens.compare.fcr_words import disagreement_sentence, fcr_caption
from ranklens.compare.outline import Part, outline
from ranklens.compare.report import Report
from ranklens.compare.sections.candidates import candidates_table, pairs_block
from ranklens.compare.sections.coverage_banner import coverage_banner
from ranklens.compare.sections.metric import robustness_section
from ranklens.compare.sections.queries import queries_sections
from ranklens.compare.sections.segments import segments_table
from ranklens.compare.sections.ties import tie_banner
from ranklens.compare.text import family_lines
from ranklens.compare.verdict_words import (
    caveat,
    conclusion,
    headline,
    interval_note,
    segments_summary,
)
from ranklens.document import html_shell as html_common
from ranklens.document.blocks import Paragraph, Section, Table
from ranklens.document.html import CHART_WIDTH, block_html, section_html, wide_table_html
from ranklens.health import check_words as health_words

JSON_ID = "ranklens-report"
"""The id of the ``<script type="application/json">`` block that holds the report."""

def render(report: Report) -> str:
    """The report as a complete HTML document (UTF-8 text), with no network references.

    Every text that came from inputs (run, file, segment names) is escaped. Deterministic:
    the same report gives the same bytes (no timestamp is added).
    """
    n_queries = report.comparisons[0].overall.n_queries if report.comparisons else 0
    metrics = len(report.metrics)
    counted = (f"{n_queries:,} paired queries · {metrics} metric{'s' if metrics != 1 else ''}"
               f" · ranklens {_text(report.version)}")
    if report.several:
        names = report.run_names
        title = f"ranklens: {len(report.candidates)} candidates against {names[0]}"
        heading = (f"{len(report.candidates)} candidates against {_text(names[0])} "
                   "(A, baseline)")
    else:
        name_a, name_b = report.pair_names
        title = f"ranklens: {name_b} against {name_a}"
        heading = f"{_text(name_b)} (B) against {_text(name_a)} (A)"
    return html_common.document(
        title=title,
        heading=heading,
        subtitle=counted,
        version=report.version,
        sections=(_part_html(report, part) for part in outline(report)),
        footer=f"Made with ranklens {_text(report.version)}. The complete report (every "
               "per-query value) is embedded in this file as JSON "
               "(<code>script#ranklens-report</code>).",
        json_id=JSON_ID, json_text=report.to_json(indent=None))


def _part_html(report: Report, part: Part) -> str:
    """One part of the outline (``ranklens.compare.outline``) as HTML: a section through the
    document's writer, a slot drawn here."""
    if isinstance(part, Section):
        return section_html(part)
    if part.key == "leaderboard":
        return (_leaderboard_section(report, part.metric)
                + seed_html.leaderboard(report, part.metric))
    if part.key == "inputs":
        return _inputs_section(report)
    if part.key == "parameters":
        return _parameters_section(report)
    if report.several:
        return "\n".join(_candidate_sections(report, j) for j in report.candidates)
    parts = [*(_metric_section(report, metric) for metric in report.metrics),
             _coverage_section(report)]
    return "\n".join(part for part in parts if part)


def notebook_html(report: Report) -> str:
    """The report in a notebook (``Report._repr_html_``): the HTML export's body with its
    charts inline, its style scoped to the fragment
    (``ranklens.document.html_shell.notebook_fragment``)."""
    return html_common.notebook_fragment(render(report))


def embedded_report(document: str) -> Report:
    """The Report embedded in a document made by `render` (``ValueError`` if there is none)."""
    return Report.from_json(html_common.embedded_json(document, JSON_ID))


# ---- sections -----------------------------------------------------------------------------

def _leaderboard_section(report: Report, metric: str) -> str:
    table = report_tables.leaderboard_table(report, metric)
    names = report.run_names
    alpha = report.comparison(metric, report.candidates[0]).overall.alpha
    chart = charts.leaderboard_plot(table, metric=metric, baseline=names[0], alpha=alpha)
    leaderboard = wide_table_html(candidates_table(report, metric))
    pairs_table = pairs_block(report, metric)
    pairs = "" if pairs_table is None else "<h3>Every pair</h3>" + wide_table_html(pairs_table)
    sentences = family_lines(report, metric)
    return "\n".join(part for part in (
        f'<section class="leaderboard" id="leaderboard-{_slug(metric)}">',
        f"<h2>Leaderboard: {_text(metric)}</h2>",
        f'<div class="verdict"><p class="conclusion">{_text(sentences[0])}</p></div>',
        html_common.figure(html_common.chart_svg(chart, CHART_WIDTH),
                           f"Each candidate's {metric} minus {names[0]}'s, with its interval; "
                           "filled where the family-adjusted p is at most alpha"),
        leaderboard,
        pairs,
        *(f'<p class="note">{_text(line)}</p>' for line in sentences[1:]),
        "</section>",
    ) if part)


def _candidate_sections(report: Report, candidate: int) -> str:
    names = report.run_names
    single = report.candidate_report(candidate)
    return "\n".join((
        f'<section class="candidate" id="candidate-{candidate}">',
        f"<h2>{_text(names[candidate])} against {_text(names[0])}</h2>",
        *(_metric_section(single, metric, level=3, candidate=candidate)
          for metric in single.metrics),
        _coverage_section(single, scope=f"candidate-{candidate}", level=3),
        "</section>",
    ))


def _tie_paragraph(report: Report, metric: str) -> str:
    """The tie sentence beside the verdict (``ranklens.compare.sections.ties``), or nothing."""
    ties = tie_banner(report, metric)
    return "" if ties is None else block_html(ties)


def _metric_section(report: Report, metric: str, level: int = 2, candidate: int = 1) -> str:
    comparison = report.comparison(metric)
    run_names = report.pair_names
    first = conclusion(comparison, run_names)
    rest = headline(comparison, run_names).removeprefix(first).strip()
    withheld = health_words.withholds(report.health)
    if withheld:  # no verdict: say why instead
        first, rest = report.health.withheld if report.health else "", ""
    table = report_tables.segment_table(comparison, run_names, withheld=withheld)
    summary = segments_summary(comparison, run_names, withheld=withheld)
    sub = level + 1
    where = (f"<h{sub}>Where: by {_text(comparison.segment_column)}</h{sub}>"
             if comparison.segment_column else f"<h{sub}>Overall interval</h{sub}>")
    anchor = _slug(metric) if level == 2 else f"{_slug(run_names[1])}-{_slug(metric)}"
    scope = "" if level == 2 else f"candidate-{candidate}"
    return "\n".join(part for part in (
        f'<section class="metric" id="metric-{anchor}">',
        f"<h{level}>{_text(metric)}</h{level}>",
        _banner(report, metric, scope),
        '<div class="verdict">',
        f'<p class="conclusion">{_text(first)}</p>',
        f"<p>{_text(rest)}</p>" if rest else "",
        "</div>",
        _coverage_paragraph(report, metric),
        _tie_paragraph(report, metric),
        seed_html.section(report, metric, level + 1),
        where,
        f"<p>{_text(summary)}</p>" if summary else "",
        html_common.figure(
            _forest_svg(table, metric, run_names, comparison.overall.alpha),
            f"Forest plot of {metric}: the difference {run_names[1]} \u2212 {run_names[0]} "
            "with its interval, per row of the table below"),
        wide_table_html(segments_table(comparison, run_names, frame=table)),
        *(f'<p class="interval-note">{_text(t)}</p>'
          for t in (fcr_caption(comparison), disagreement_sentence(comparison)) if t),
        f'<p class="interval-note">{_text(interval_note(comparison))}</p>',
        f'<p class="caveat">{_text(caveat(metric))}</p>',
        _queries(report, metric),
        "</section>",
    ) if part)


def _queries(report: Report, metric: str) -> str:
    """The queries B lost and won most (``ranklens.compare.sections.queries``), each side's
    table wide under its heading; nothing without them."""
    sections = queries_sections(report, metric)
    if not sections:
        return ""
    return "\n".join(['<section class="queries">',
                      *(f"<h3>{_text(s.title)}</h3>\n" + wide_table_html(table)
                        for s in sections for table in s.blocks if isinstance(table, Table)),
                      "</section>"])


def _banner(report: Report, metric: str, scope: str = "") -> str:
    """The coverage guardrail before the verdict, linking to the robustness view."""
    banner = coverage_banner(report, metric, scope)
    return "" if banner is None else block_html(banner)


def _coverage_paragraph(report: Report, metric: str) -> str:
    coverage = None if report.coverage is None else report.coverage.metric(metric)
    if coverage is None:
        return ""
    result = report.comparison(metric).overall
    withheld = health_words.withholds(report.health)
    sentences = [coverage_words.coverage_line(coverage, report.pair_names),
                 coverage_words.coverage_note(coverage, result, report.pair_names,
                                              withheld=withheld),
                 coverage_words.segments_flagged(coverage, withheld=withheld)]
    return f'<p class="coverage">{_text(" ".join(s for s in sentences if s))}</p>'


def _coverage_section(report: Report, scope: str = "", level: int = 2) -> str:
    """Per metric, the robustness view and judged@k per row (after every metric's verdict, so
    each metric section keeps one table; the banners link here). ``scope`` names a
    candidate's section when there are several (ids stay unique)."""
    if report.coverage is None:
        return ""
    parts = [_robustness(report, metric, scope, level + 1) for metric in report.metrics]
    section_id = f"{scope}-coverage" if scope else "coverage"
    return (f'<section id="{section_id}"><h{level}>Judgement coverage</h{level}>'
            + "\n".join(p for p in parts if p) + "</section>")


def _robustness(report: Report, metric: str, scope: str = "", level: int = 3) -> str:
    """The same comparison under each treatment of unjudged documents, and judged@k per row."""
    section = robustness_section(report, metric)
    if section is None or report.coverage is None:
        return ""
    said = [f"<p>{_text(block.text)}</p>" for block in section.blocks
            if isinstance(block, Paragraph)]
    tables = [wide_table_html(block) for block in section.blocks if isinstance(block, Table)]
    if not tables:  # no treatment was compared: the coverage notes say why
        return "".join(said)
    name_a, name_b = report.pair_names
    parts = [f'<h{level} id="{coverage_words.robustness_anchor(metric, scope)}">'
             f"{_text(metric)}: {_text(coverage_words.ROBUSTNESS_TITLE)}</h{level}>",
             *tables, *said]
    parts.append(f'<p class="caveat">{_text(coverage_words.TREATMENTS_CAPTION)}</p>')
    coverage = report.coverage.metric(metric)
    table = report_tables.coverage_table(report, metric)
    if coverage is not None and table is not None:
        judged = coverage.judged_metric
        parts.append(html_common.table(
            ["Rows", "Queries", f"{judged} {name_a}", f"{judged} {name_b}", "A \u2212 B",
             "Same-rate shift of B \u2212 A", "Verdict could change"],
            [[html_common.text_cell(str(r["segment"])),
              html_common.number_cell(r["n_queries"], "count"),
              html_common.number_cell(r["judged_a"], "value"),
              html_common.number_cell(r["judged_b"], "value"),
              html_common.number_cell(r["gap"], "delta"),
              html_common.number_cell(r["shift"], "delta"),
              html_common.text_cell({True: "yes", False: "no"}.get(r["could_change"],
                                                                   "\u2014"))]
             for r in table.to_dict("records")],
            css_class="coverage"))
    return "\n".join(parts)


def _forest_svg(table: Any, metric: str, run_names: tuple[str, str], alpha: float) -> str:
    chart = charts.forest_plot(table, metric=metric, run_names=run_names, alpha=alpha)
    return html_common.chart_svg(chart, CHART_WIDTH)


def _inputs_section(report: Report) -> str:
    return html_common.inputs_section(
        (record.role, record.name, record.size, record.sha256,
         str(record.summary.get("description", "")))
        for record in report.inputs)


def _parameters_section(report: Report) -> str:
    return html_common.parameters_section(report.params, report.version)


# ---- helpers ------------------------------------------------------------------------------

_text = html_common.text
_slug = html_common.slug

"""A Report as one self-contained HTML file: opens offline, in a browser or an e-mail client.

``render(report)`` answers "the whole report as a page someone can keep": the parts of
``ranklens.compare.outline`` in its order, each metric's section the blocks text and Markdown
draw (``ranklens.compare.sections.metric``: the same sentences and numbers) with its pictures
(the forest plots), its tables drawn wide and its detail blocks (judged@k per row), the inputs
with their sha256, every parameter, every warning and the ranklens version. The report itself is
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

from ranklens.compare import charts, report_tables
from ranklens.compare.outline import Part, outline
from ranklens.compare.report import Report
from ranklens.compare.sections.candidates import candidates_table, pairs_block
from ranklens.compare.sections.metric import metric_section
from ranklens.compare.sections.seeds import leaderboard_section
from ranklens.compare.segments import MetricComparison
from ranklens.compare.text import family_lines
from ranklens.document import html_shell as html_common
from ranklens.document.blocks import Section
from ranklens.document.html import (
    CHART_WIDTH,
    block_html,
    report_section_html,
    section_html,
    wide_table_html,
)

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
        seeds = leaderboard_section(report, part.metric)  # several candidates with seeds
        return (_leaderboard_section(report, part.metric)
                + ("" if seeds is None else block_html(seeds)))
    if report.several:
        return "\n".join(_candidate_sections(report, j) for j in report.candidates)
    return "\n".join(_metric_section(report, comparison) for comparison in report.comparisons)


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
        *(_metric_section(single, comparison, level=3, candidate=candidate,
                          n_candidates=len(report.candidates))
          for comparison in single.comparisons),
        "</section>",
    ))


def _metric_section(report: Report, comparison: MetricComparison, level: int = 2,
                    candidate: int = 0, n_candidates: int = 1) -> str:
    """One metric's section (``ranklens.compare.sections.metric.metric_section``, the blocks
    text and Markdown draw) with its charts and wide tables; ``candidate``: the candidate's
    section it sits in when there are several (its ids are scoped)."""
    scope = f"candidate-{candidate}" if candidate else ""
    section = metric_section(report, comparison, n_candidates, scope)
    metric, run_names = comparison.metric, report.pair_names
    anchor = _slug(metric) if not candidate else f"{_slug(run_names[1])}-{_slug(metric)}"
    return report_section_html(section, f"metric-{anchor}", "metric", level)


# ---- helpers ------------------------------------------------------------------------------

_text = html_common.text
_slug = html_common.slug

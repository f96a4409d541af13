"""An MDE plan as one self-contained HTML file: what the MDE page shows, kept offline.

``render(export)`` answers "this plan as a page someone can keep": the spread used and where it
came from, the headline (MDE with n queries, queries needed for the target, power now, sd),
what a non-significant result means, the queries-needed table, MDE against the number of
queries and power against the true difference (inline SVG from the page's own Altair builders
in ``ranklens.plan.charts``), the z-or-t note, the input files with their sha256 and every
setting. The plan is embedded as JSON (``<script type="application/json" id="ranklens-mde">``,
read back by ``embedded``): the settings, the plan with every row, the headline numbers and
the curves' points.

It computes no statistics: the plan, the other method's MDE and the curves are the page's
(``MdeExport`` carries them); the words are ``ranklens.plan.views``'s, as on the page.
Deterministic: the same export gives the same bytes.
"""

from __future__ import annotations

from typing import Any

from ranklens import formats
from ranklens.compare.sections.inputs import planning_sections, read_as, set_aside_lines
from ranklens.document import html_shell as html_common
from ranklens.document.html import section_html
from ranklens.document.html_shell import markdown, number_cell, text, text_cell
from ranklens.plan import charts as plan_charts
from ranklens.plan import views as plan_views
from ranklens.plan.analysis import (
    METHOD_NOTE,
    METHOD_SUMMARY,
    NO_SPREAD_SD,
    QueryPlan,
    no_spread_sentence,
)
from ranklens.plan.payload import (  # the JSON lives there; kept here for callers
    MdeExport as MdeExport,
)
from ranklens.plan.payload import (
    export_from_payload as export_from_payload,
)
from ranklens.plan.payload import (
    payload as payload,
)

JSON_ID = "ranklens-mde"
CHART_WIDTH = 500
"""Width of each of the two charts in pixels (side by side; they scale down)."""

SOURCES = {"demo": "the bundled demo pilot runs", "pilot": "your pilot runs and judgements",
           "tables": "your per-query table(s)", "typed": "typed in"}


def render(export: MdeExport) -> str:
    """The plan as a complete HTML document (UTF-8 text), with no network references.

    Names that came from inputs (files, metric, columns) are escaped.
    """
    plan = export.plan
    assert plan.n_queries is not None and plan.mde is not None
    metric = export.pilot.metric if export.pilot is not None else "typed-in spread"
    no_spread = plan.sd < NO_SPREAD_SD
    sections = ((_spread_section(export), _no_spread_section(export)) if no_spread
                else (_spread_section(export), _headline_section(export),
                      _table_section(plan), _method_section(), _charts_section(export)))
    return html_common.planning_document(
        title=("ranklens: no spread to plan from" if no_spread
               else f"ranklens: MDE with {plan.n_queries:,} queries"),
        heading="How many queries? Minimum detectable effect",
        subtitle=(f"{text(metric)} · {plan.n_queries:,} queries · alpha {plan.alpha:g} "
                  f"(two-sided) · power {formats.format_percent(plan.power)} · "
                  f"{text(plan.method)}-method · ranklens {text(export.version)}"),
        version=export.version,
        sections=(*sections, *map(section_html, planning_sections(
            export.inputs, {} if export.pilot is None else read_as(export.pilot.inputs),
            export.settings.to_dict(), export.version))),
        holds="The plan (settings, every row, the headline numbers and the curves' points) is",
        json_id=JSON_ID, payload=payload(export))


def embedded(document: str) -> dict[str, Any]:
    """The JSON embedded in a document made by `render` (``ValueError`` if there is none)."""
    return html_common.embedded_payload(document, JSON_ID)


# ---- sections -------------------------------------------------------------------------------

def _spread_section(export: MdeExport) -> str:
    pilot = export.pilot
    caption = plan_views.spread_caption(
        export.plan.sd, None if pilot is None else pilot.note,
        None if pilot is None else pilot.mean_delta)
    source = SOURCES[export.settings.spread.source]
    origin = f"<p>Spread from {text(source)}.</p>" if source and pilot is not None else ""
    messages = [] if pilot is None else [*pilot.warnings, *set_aside_lines(pilot.inputs)]
    warned = "" if not messages else (
        '<ul class="warnings">' + "".join(f"<li>{text(m)}</li>" for m in messages) + "</ul>")
    return (f'<section id="spread"><h2>Spread of per-query differences</h2>{origin}'
            f"<p>{markdown(caption)}</p>{warned}</section>")


def _no_spread_section(export: MdeExport) -> str:
    """Differences without spread: why nothing is planned (no cards, table or charts)."""
    sentence = no_spread_sentence(export.plan.sd, export.pilot)
    return (f'<section id="headline"><div class="verdict"><p>{markdown(sentence)}</p></div>'
            "</section>")


def _headline_section(export: MdeExport) -> str:
    plan = export.plan
    cards = plan_views.mde_cards(plan, export.target_row, export.other_mde)
    sentence = plan_views.mde_sentence(plan, export.other_mde)
    return (f'<section id="headline"><div class="verdict">{html_common.cards(cards)}'
            f"<p>{markdown(sentence)}</p></div></section>")


def _table_section(plan: QueryPlan) -> str:
    shown = plan_views.plan_table(plan)
    styles = ("delta", "count", "percent", "")
    rows = []
    for row, record in zip(plan.rows, shown.to_dict("records"), strict=True):
        values = (row.delta, row.queries_needed, row.power_at_n, None)
        rows.append([text_cell(str(cell)) if style == "" else number_cell(value, style)
                     for (cell, value, style) in zip(record.values(), values, styles,
                                                     strict=True)])
    return ('<section id="queries-needed"><h2>Queries needed per target difference</h2>'
            + html_common.table(list(shown.columns), rows, css_class="plan") + "</section>")


def _method_section() -> str:
    return (f'<section id="method"><h2>z or t?</h2><p>{markdown(METHOD_SUMMARY)}</p>'
            f"<h3>The two formulas</h3><p>{markdown(METHOD_NOTE)}</p></section>")


def _charts_section(export: MdeExport) -> str:
    plan = export.plan
    assert plan.n_queries is not None
    if export.mde_curve is None or export.power_curve is None:
        return ""
    mde = html_common.figure(
        html_common.chart_svg(plan_charts.mde_chart(export.mde_curve, plan), CHART_WIDTH),
        "MDE against the number of queries, log scales, the chosen number of queries marked",
        text(plan_views.MDE_CHART_CAPTION))
    power = html_common.figure(
        html_common.chart_svg(plan_charts.power_chart(export.power_curve, plan),
                              CHART_WIDTH),
        f"Power with {plan.n_queries:,} queries against the true difference",
        text(plan_views.power_chart_caption(plan.alpha)))
    return ('<section id="charts"><div class="charts">'
            f"<div><h2>MDE against the number of queries</h2>{mde}</div>"
            f"<div><h2>Power with {plan.n_queries:,} queries</h2>{power}</div>"
            "</div></section>")

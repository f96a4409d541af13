"""A PPI++ analysis as one self-contained HTML file: what the PPI page shows, kept offline.

``render(export)`` answers "this correction of cheap labels as a page someone can keep": the
verdict (PPI++ difference, interval, p, the weight lambda, gold and proxy-only counts and the
verdict sentences), the warnings, the random-sample assumption, the four estimates as a chart
and a table, the proxy's bias measured on the gold queries, the gold-budget planner at the
page's choice with its chart, the four input files with their sha256 and every setting. Charts
are inline SVG from the page's own Altair builders (``ranklens.ppi.charts``). The analysis
is embedded as JSON (``<script type="application/json" id="ranklens-ppi">``, read back by
``embedded``): every estimate, the bias, the variance model, the budget and its curve.

It computes no statistics: the analysis, the budget and its curve are the page's
(``PPIExport`` carries them); the words are ``ranklens.ppi.views``'s and
``ranklens.ppi.verdict_words``'s, as on the page and in the CLI. Deterministic: the same export
gives the same bytes.
"""

from __future__ import annotations

from typing import Any

from ranklens import formats
from ranklens.compare.sections.inputs import planning_sections, read_as
from ranklens.document import html_shell as html_common
from ranklens.document.html import section_html
from ranklens.document.html_shell import markdown, number_cell, text, text_cell
from ranklens.formats import level_number
from ranklens.ppi import charts as ppi_charts
from ranklens.ppi import judge_views, verdict_words
from ranklens.ppi import views as ppi_views
from ranklens.ppi.analysis import PPIAnalysis
from ranklens.ppi.outline import SECTIONS
from ranklens.ppi.payload import (  # the JSON lives there; kept here for callers
    PPIExport as PPIExport,
)
from ranklens.ppi.payload import (
    analysis_from_payload as analysis_from_payload,
)
from ranklens.ppi.payload import label_plan_data, plan_options, settings_data
from ranklens.ppi.payload import (
    payload as payload,
)
from ranklens.ppi.verdict_words import ppi_sentences
from ranklens.stats import MIN_GOLD

JSON_ID = "ranklens-ppi"
CHART_WIDTH = 860
"""Width of the intervals chart in pixels; the SVG scales down to narrower windows."""
BUDGET_CHART_WIDTH = 640


def render(export: PPIExport) -> str:
    """The analysis as a complete HTML document (UTF-8 text), with no network references.

    Run names, file names and the metric came from inputs and are escaped.
    """
    analysis = export.analysis
    name_a, name_b = analysis.run_names
    best = analysis.estimate("ppi++").result
    return html_common.planning_document(
        title=f"ranklens PPI++: {name_b} against {name_a} on {analysis.metric}",
        heading="Cheap labels, corrected on gold (PPI++)",
        subtitle=(f"<strong>{text(name_b)}</strong> (B) against <strong>{text(name_a)}"
                  f"</strong> (A) on {text(analysis.metric)} · {best.n_gold:,} gold queries · "
                  f"{best.n_proxy:,} proxy-only · ranklens {text(export.version)}"),
        version=export.version,
        sections=(*_sections(export), *map(section_html, planning_sections(
            export.inputs, read_as(analysis.inputs), settings_data(export), export.version))),
        holds="The analysis (every estimate, the bias, the variance model and the gold "
              "budget) is",
        json_id=JSON_ID, payload=payload(export))


def _sections(export: PPIExport) -> list[str]:
    """The sections of ``ranklens.ppi.outline`` in its order (the inputs and the settings
    close the document: ``compare.sections.inputs.planning_sections``)."""
    analysis = export.analysis
    drawn = {"verdict": _verdict_section(analysis), "warnings": _warnings_section(analysis),
             "notes": _notes_section(analysis), "estimates": _intervals_section(analysis),
             "bias": _bias_section(analysis), "judge": _judge_section(analysis),
             "budget": _budget_section(export), "label_plan": _label_plan_section(export)}
    return [drawn[key] for key in SECTIONS if key in drawn]


def embedded(document: str) -> dict[str, Any]:
    """The JSON embedded in a document made by `render` (``ValueError`` if there is none)."""
    return html_common.embedded_payload(document, JSON_ID)


# ---- sections -------------------------------------------------------------------------------

def _verdict_section(analysis: PPIAnalysis) -> str:
    sentences = ppi_sentences(analysis)
    rest = "".join(f"<p>{markdown(sentence)}</p>" for sentence in sentences[1:])
    return (f'<section id="verdict"><div class="verdict">'
            f'<p class="conclusion">{markdown(ppi_views.ppi_title(analysis))}</p>'
            f"{html_common.cards(ppi_views.ppi_cards(analysis))}{rest}</div></section>")


def _warnings_section(analysis: PPIAnalysis) -> str:
    """The analysis's warnings; no section when there are none."""
    return section_html(ppi_views.warnings_section(analysis))


def _notes_section(analysis: PPIAnalysis) -> str:
    """What holds whatever the numbers: the random-sample assumption, and a reassuring note
    when the gold sample is large enough (never under "Warnings")."""
    note = ppi_views.enough_gold_note(analysis)
    return ('<section id="notes"><h2>Notes</h2>'
            f'<p class="assumption">{markdown(ppi_views.RANDOM_SAMPLE_WARNING)}</p>'
            + (f'<p class="note">{text(note)}</p>' if note else "") + "</section>")


def _intervals_section(analysis: PPIAnalysis) -> str:
    data = ppi_charts.intervals_data(analysis)
    shown = ppi_views.intervals_table(analysis, data)
    rows = []
    for record, key, lam in zip(shown.to_dict("records"), data["key"], data["lam"],
                                strict=True):
        result = analysis.estimate(str(key)).result
        rows.append([
            text_cell(str(record["estimate"])),
            number_cell(result.delta, "delta"),
            f'<td class="num" data-low="{result.ci_low!r}" data-high="{result.ci_high!r}">'
            f"{text(str(record['interval']))}</td>",
            text_cell(str(record["interval from"])),
            number_cell(result.p_value, "p"),
            number_cell(lam, "weight"),
            text_cell(str(record["measured on"])),
        ])
    level = level_number(1 - analysis.estimate("ppi++").result.alpha)
    chart = html_common.figure(
        html_common.chart_svg(ppi_charts.intervals_chart(analysis), CHART_WIDTH),
        f"The four estimates of {analysis.metric} B \u2212 A with their {level}% intervals, "
        "as in the table below")
    notes = [note for note in (verdict_words.intervals_note(analysis),
                               ppi_views.lambda_note(analysis), ppi_views.INTERVALS_CAPTION)
             if note]
    return ('<section id="estimates"><h2>Four estimates of the same difference</h2>'
            + chart + html_common.table(list(shown.columns), rows, css_class="estimates",
                                        row_classes=["chosen", "", "", ""])
            + "".join(f'<p class="note">{markdown(note)}</p>' for note in notes) + "</section>")


def _bias_section(analysis: PPIAnalysis) -> str:
    bias, sentence = analysis.bias, ppi_views.bias_sentence(analysis)
    if bias is None or sentence is None:
        return ""
    return ('<section id="bias"><h2>The proxy\'s bias on this difference</h2>'
            + html_common.cards(ppi_views.bias_cards(bias))
            + f"<p>{markdown(sentence)}</p>"
            + f'<p class="note">{markdown(verdict_words.BIAS_MEANING)}</p></section>')


def _judge_section(analysis: PPIAnalysis) -> str:
    """The judge checked on the gold queries (``ranklens.ppi.judge_views``'s tables)."""
    check = analysis.judge
    if check is None:
        return ""

    def frame_table(frame: Any, css_class: str) -> str:
        rows = [[text_cell(str(value)) for value in record]
                for record in frame.astype(str).values.tolist()]
        return html_common.table([str(c) for c in frame.columns], rows, css_class=css_class)

    parts = [f'<section id="judge"><h2>{text(judge_views.JUDGE_TITLE)}</h2>',
             f"<p>{text(judge_views.agreement_sentence(check))}</p>"]
    if check.agreement is not None:
        parts += ["<h3>Documents by gold grade (rows) and proxy grade (columns)</h3>",
                  frame_table(judge_views.confusion_table(check), "judge-confusion"),
                  "<h3>Weighted kappa</h3>",
                  frame_table(judge_views.kappa_table(check)[["weights", "kappa",
                                                              "interval"]], "judge-kappa"),
                  f'<p class="note">{text(judge_views.KAPPA_MEANING)}</p>',
                  "<h3>Mean proxy − gold grade, per gold grade</h3>",
                  frame_table(judge_views.grade_bias_table(check), "judge-grades")]
    if check.segments:
        parts += [f"<h3>Per segment of {text(check.segment_column or '')}</h3>",
                  f"<p>{text(judge_views.segments_sentence(check))}</p>",
                  frame_table(judge_views.segment_table(check), "judge-segments"),
                  f'<p class="note">{text(judge_views.REFUSAL_REASON)}</p>']
    return "".join(parts) + "</section>"


def _budget_section(export: PPIExport) -> str:
    model, budget, curve = export.analysis.model, export.budget, export.budget_curve
    if model is None or budget is None or curve is None:
        return ""
    best = export.analysis.estimate("ppi++").result
    chart = ppi_charts.budget_chart(curve, best.n_gold, model.realised_width,
                                         min_gold=MIN_GOLD)
    return ('<section id="budget"><h2>Gold budget: how many gold queries are worth labelling?'
            "</h2>"
            f"<p>With <strong>{budget.planned:,}</strong> of the {budget.pool:,} queries "
            f"labelled gold (today: {model.n_gold:,}; the interval is "
            f"{formats.format_value(budget.realised)} wide now):</p>"
            + html_common.cards(ppi_views.budget_cards(budget))
            + f"<p>{markdown(ppi_views.correlation_note(model))}</p>"
            + html_common.figure(
                html_common.chart_svg(chart, BUDGET_CHART_WIDTH),
                "Expected interval width against the number of gold queries, PPI++ and gold "
                "only, today's sample marked",
                markdown(ppi_views.budget_caption(model)))
            + "</section>")


def _label_plan_section(export: PPIExport) -> str:
    """The labelling plan the page drew: its words, its budget and seed (the same budget and
    seed draw it again), and its drawn queries."""
    plan = export.label_plan
    if plan is None:
        return ""
    data = label_plan_data(plan)
    rows = [[text_cell(str(row["query_id"])), number_cell(row["probability"], "value"),
             number_cell(row["n_docs"], "count"), number_cell(row["proxy_delta"], "delta"),
             number_cell(row["uncertainty"], "value")] for row in data["drawn"]]
    return ('<section id="label_plan"><h2>Which queries to label next</h2>'
            f"<p>The plan of {text(plan.metric)} drawn with an expected "
            f"<strong>{plan.budget:g}</strong> queries and seed <strong>{plan.seed}</strong> "
            f"(<code>ranklens plan-labels ... {text(plan_options(data))}</code> draws it "
            "again):</p>"
            "<ul>" + "".join(f"<li>{text(line)}</li>" for line in data["lines"]) + "</ul>"
            + html_common.table(["Query", "Probability", "Documents", "Proxy B − A",
                                 "Uncertainty"], rows, css_class="label-plan")
            + "</section>")


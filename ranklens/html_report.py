"""A Report as one self-contained HTML file: opens offline, in a browser or an e-mail client.

``render(report)`` answers "the whole report as a page someone can keep": the verdict sentences
and the forest plot of each metric, the table behind the plot (p and q values), the inputs with
their sha256, every parameter, every warning and the ranklens version. The report itself is
embedded as JSON (``<script type="application/json" id="ranklens-report">``), so the file is
also machine-readable and ``Report.from_json`` can read it back.

Charts are inline SVG drawn by vl-convert from the same Altair builders as the app
(``ranklens.charts``): about 25 kB per chart, against about 900 kB for the Vega JavaScript
bundle that interactive inlined charts need, and SVG needs no script at all (so it survives
mail clients and strict viewers). What SVG loses is the hover tooltip; the table below each
chart has every number the tooltip had. Number cells carry the exact value in ``data-value``.

It computes no statistics and reads no files; it formats what the Report holds.
"""

from __future__ import annotations

import html
import json
import math
from collections.abc import Iterable, Mapping
from typing import Any

import vl_convert

from ranklens import charts, views
from ranklens.report import Report
from ranklens.verdict import caveat, conclusion, format_delta, format_p, headline, segments_summary

CHART_WIDTH = 860
"""Forest-plot width in pixels; the SVG scales down to narrower windows."""

_STYLE = """
body { font: 15px/1.5 -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif;
       color: #1f2328; max-width: 1100px; margin: 2rem auto; padding: 0 1.5rem; }
h1 { font-size: 1.6rem; margin-bottom: 0.2rem; }
h2 { font-size: 1.3rem; margin-top: 2.5rem; border-bottom: 1px solid #d0d7de; }
h3 { font-size: 1.05rem; margin-top: 1.5rem; }
.subtitle, .caveat, footer, .note { color: #57606a; }
.verdict { border: 1px solid #d0d7de; border-radius: 6px; padding: 0.8rem 1rem; }
.verdict .conclusion { font-size: 1.15rem; font-weight: 600; margin: 0 0 0.3rem; }
.warnings { background: #fff8c5; border: 1px solid #d4a72c; border-radius: 6px;
            padding: 0.6rem 1rem 0.6rem 2rem; }
figure { margin: 1rem 0; }
figure svg { max-width: 100%; height: auto; }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; font-size: 0.9rem; margin: 0.5rem 0; }
th, td { border-bottom: 1px solid #d0d7de; padding: 0.25rem 0.6rem; text-align: left;
         vertical-align: top; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
tr.overall td { font-weight: 600; }
code { font-size: 0.85em; word-break: break-all; }
@media print { h2 { break-before: page; } figure, table { break-inside: avoid; } }
"""

_TABLE_COLUMNS: tuple[tuple[str, str, str], ...] = (
    # (column of views.segment_table, header, how its number is written)
    ("n_queries", "Queries", "count"),
    ("mean_a", "Mean {a}", "value"),
    ("mean_b", "Mean {b}", "value"),
    ("delta", "{b} \u2212 {a}", "delta"),
    ("ci_low", "Interval low", "delta"),
    ("ci_high", "Interval high", "delta"),
    ("p_value", "p (permutation)", "p"),
    ("t_p_value", "p (t-test)", "p"),
    ("q_value", "q", "p"),
    ("wins", "Won", "count"),
    ("ties", "Tied", "count"),
    ("losses", "Lost", "count"),
)


def render(report: Report) -> str:
    """The report as a complete HTML document (UTF-8 text), with no network references.

    Every text that came from inputs (run, file, segment names) is escaped. Deterministic:
    the same report gives the same bytes (no timestamp is added).
    """
    name_a, name_b = report.run_names
    n_queries = report.comparisons[0].overall.n_queries if report.comparisons else 0
    title = f"ranklens: {name_b} against {name_a}"
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        '<meta name="generator" content="ranklens ' + _text(report.version) + '">',
        f"<title>{_text(title)}</title>",
        f"<style>{_STYLE}</style>",
        "</head>",
        "<body>",
        "<header>",
        f"<h1>{_text(name_b)} (B) against {_text(name_a)} (A)</h1>",
        f'<p class="subtitle">{n_queries:,} paired queries · '
        f"{len(report.metrics)} metric{'s' if len(report.metrics) != 1 else ''} · "
        f"ranklens {_text(report.version)}</p>",
        "</header>",
        _warnings_section(report),
        *(_metric_section(report, metric) for metric in report.metrics),
        _inputs_section(report),
        _parameters_section(report),
        "<footer>",
        f"<p>Made with ranklens {_text(report.version)}. The complete report (every "
        "per-query value) is embedded in this file as JSON "
        '(<code>script#ranklens-report</code>).</p>',
        "</footer>",
        '<script type="application/json" id="ranklens-report">'
        + _script_json(report.to_json(indent=None)) + "</script>",
        "</body>",
        "</html>",
    ]
    return "\n".join(part for part in parts if part) + "\n"


def embedded_report(document: str) -> Report:
    """The Report embedded in a document made by `render` (``ValueError`` if there is none)."""
    start_tag = '<script type="application/json" id="ranklens-report">'
    start = document.find(start_tag)
    end = document.find("</script>", start)
    if start < 0 or end < 0:
        raise ValueError("this HTML has no embedded ranklens report")
    return Report.from_json(document[start + len(start_tag):end])


# ---- sections -----------------------------------------------------------------------------

def _warnings_section(report: Report) -> str:
    lines = list(report.warnings)
    for record in report.inputs:
        for item in record.summary.get("set_aside", ()):
            lines.append(f"{record.name}: {item['rows']:,} rows set aside: {item['reason']}")
    if not lines:
        return ""
    items = "".join(f"<li>{_text(line)}</li>" for line in lines)
    return f'<section id="warnings"><h2>Warnings</h2><ul class="warnings">{items}</ul></section>'


def _metric_section(report: Report, metric: str) -> str:
    comparison = report.comparison(metric)
    run_names = report.run_names
    first = conclusion(comparison, run_names)
    rest = headline(comparison, run_names).removeprefix(first).strip()
    table = views.segment_table(comparison, run_names)
    summary = segments_summary(comparison, run_names)
    where = (f"<h3>Where: by {_text(comparison.segment_column)}</h3>"
             if comparison.segment_column else "<h3>Overall interval</h3>")
    return "\n".join(part for part in (
        f'<section class="metric" id="metric-{_slug(metric)}">',
        f"<h2>{_text(metric)}</h2>",
        '<div class="verdict">',
        f'<p class="conclusion">{_text(first)}</p>',
        f"<p>{_text(rest)}</p>" if rest else "",
        "</div>",
        where,
        f"<p>{_text(summary)}</p>" if summary else "",
        f'<figure role="img" aria-label="Forest plot of {_text(metric)}: the difference '
        f'{_text(run_names[1])} \u2212 {_text(run_names[0])} with its interval, per row of '
        'the table below">'
        f"{_forest_svg(table, metric, run_names, comparison.overall.alpha)}</figure>",
        _segment_table(table, run_names, comparison.segment_column),
        f'<p class="caveat">{_text(caveat(metric))}</p>',
        "</section>",
    ) if part)


def _forest_svg(table: Any, metric: str, run_names: tuple[str, str], alpha: float) -> str:
    chart = charts.forest_plot(table, metric=metric, run_names=run_names, alpha=alpha)
    svg: str = vl_convert.vegalite_to_svg(chart.properties(width=CHART_WIDTH).to_dict())
    return svg


def _segment_table(table: Any, run_names: tuple[str, str], segment_column: str | None) -> str:
    name_a, name_b = run_names
    headers = [segment_column or "Rows"]
    headers += [header.format(a=name_a, b=name_b) for _, header, _ in _TABLE_COLUMNS]
    headers += ["Finding", "Note"]
    head = "".join(f"<th>{_text(h)}</th>" for h in headers)
    rows = []
    for record in table.to_dict("records"):
        cells = [f"<td>{_text(str(record['segment']))}</td>"]
        cells += [_number_cell(record[column], style) for column, _, style in _TABLE_COLUMNS]
        cells += [f"<td>{_text(str(record['finding']))}</td>",
                  f"<td>{_text(str(record['note']))}</td>"]
        row_class = ' class="overall"' if record["overall"] else ""
        rows.append(f"<tr{row_class}>{''.join(cells)}</tr>")
    return (f'<div class="scroll"><table class="segments"><thead><tr>{head}</tr></thead>'
            f"<tbody>{''.join(rows)}</tbody></table></div>")


def _number_cell(value: Any, style: str) -> str:
    """A right-aligned cell: the number for people, its exact value in ``data-value``."""
    number = float(value)
    if math.isnan(number):
        return '<td class="num" data-value="">\u2014</td>'
    if style == "count":
        shown = f"{int(number):,}"
        exact = str(int(number))
    else:
        shown = {"value": f"{number:.4f}", "delta": format_delta(number),
                 "p": format_p(number)}[style]
        exact = repr(number)
    return f'<td class="num" data-value="{exact}">{_text(shown)}</td>'


def _inputs_section(report: Report) -> str:
    rows = []
    for record in report.inputs:
        description = record.summary.get("description", "")
        rows.append(
            "<tr>"
            f"<td>{_text(record.role.replace('_', ' '))}</td>"
            f"<td>{_text(record.name)}</td>"
            f'<td class="num" data-value="{record.size}">{record.size:,}</td>'
            f"<td><code>{_text(record.sha256)}</code></td>"
            f"<td>{_text(str(description))}</td>"
            "</tr>")
    return ('<section id="inputs"><h2>Inputs</h2><table><thead><tr><th>Role</th><th>File</th>'
            "<th>Bytes</th><th>sha256</th><th>Read as</th></tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table></section>")


def _parameters_section(report: Report) -> str:
    rows = "".join(f"<tr><th>{_text(str(key))}</th><td><code>{_text(_value_text(value))}"
                   "</code></td></tr>"
                   for key, value in _sorted_items(report.params))
    return (f'<section id="parameters"><h2>Parameters</h2><table>{rows}</table>'
            f"<p>ranklens {_text(report.version)}</p></section>")


# ---- helpers ------------------------------------------------------------------------------

def _text(text: str) -> str:
    return html.escape(text, quote=True)


def _value_text(value: Any) -> str:
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False)


def _sorted_items(params: Mapping[str, Any]) -> Iterable[tuple[str, Any]]:
    return sorted(params.items(), key=lambda item: str(item[0]))


def _script_json(text: str) -> str:
    """JSON safe inside ``<script>``: ``<``, ``>`` and ``&`` only occur in JSON strings, where
    their ``\\u`` escapes mean the same, so no ``</script>`` can end the block early."""
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _slug(text: str) -> str:
    return "".join(ch if ch.isalnum() else "-" for ch in text).strip("-").lower()

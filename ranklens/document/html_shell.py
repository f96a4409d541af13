"""What ranklens's self-contained HTML files share: the page shell, the style and the cells.

``document`` answers "these sections as one complete HTML file that opens offline": the head
with the style, the sections, a footer and, when given, a JSON block
(``<script type="application/json">``, never a script that runs). ``number_cell`` writes a
number for people and keeps its exact value in ``data-value``; ``chart_svg`` draws an Altair
chart as inline SVG with vl-convert (no script, no network). The embedded JSON is written by
``ranklens.codec`` (strict: a browser's JSON.parse reads it).

The Compare report (``ranklens.compare.html``), the MDE plan (``ranklens.plan.html``) and the
PPI analysis (``ranklens.ppi.html``) are written with these. Nothing here computes a statistic
or knows what a report says.
"""

from __future__ import annotations

import html
import json
import math
import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from ranklens import codec
from ranklens.formats import (
    Card,
    direction,
    format_delta,
    format_lift,
    format_p,
    format_percent,
    format_value,
    spans,
)
from ranklens.formats import slug as slug  # the exports' ids: ranklens.formats.slug
from ranklens.io import InputFile

STYLE = """
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
.assumption { background: #fff8c5; border: 1px solid #d4a72c; border-radius: 6px;
              padding: 0.6rem 1rem; }
.cards { display: flex; flex-wrap: wrap; gap: 0.5rem 2rem; margin: 0.4rem 0 0.8rem; }
.card { flex: 1 1 auto; min-width: 9rem; max-width: 100%; }
.card .label { font-size: 0.85rem; color: #57606a; }
.card .value { font-size: 1.6rem; font-variant-numeric: tabular-nums; white-space: nowrap; }
.card .help { font-size: 0.8rem; color: #57606a; max-width: 22rem; }
.card .delta { font-size: 0.9rem; font-variant-numeric: tabular-nums; }
.card .delta.green { color: #1a7f37; }
.card .delta.red { color: #cf222e; }
.notes { color: #57606a; }
.charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(420px, 1fr));
          gap: 0 2rem; }
figure { margin: 1rem 0; }
figure svg { max-width: 100%; height: auto; }
figcaption { color: #57606a; font-size: 0.9rem; }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; font-size: 0.9rem; margin: 0.5rem 0; }
th, td { border-bottom: 1px solid #d0d7de; padding: 0.25rem 0.6rem; text-align: left;
         vertical-align: top; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
tr.overall td, tr.chosen td { font-weight: 600; }
code { font-size: 0.85em; word-break: break-all; }
@media print { h2 { break-before: page; } figure, table, .card { break-inside: avoid; } }
"""

_FORMATS: dict[str, Callable[[float], str]] = {
    "value": format_value,
    "delta": format_delta,
    "p": format_p,
    "percent": format_percent,
    "lift": format_lift,
    "weight": lambda number: f"{number:.2f}",
}
"""How a number cell writes its number (besides "count", a whole number with separators)."""


def document(*, title: str, heading: str, subtitle: str, version: str,
             sections: Iterable[str], footer: str, json_id: str | None = None,
             json_text: str | None = None) -> str:
    """A complete HTML document (UTF-8 text) with no network references.

    ``heading``, ``subtitle`` and ``footer`` are HTML (escape what came from inputs first);
    ``title`` and ``version`` are plain text. ``json_text`` (already JSON) is embedded as
    ``<script type="application/json" id=json_id>``. Empty sections are left out.
    """
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        '<meta name="generator" content="ranklens ' + text(version) + '">',
        f"<title>{text(title)}</title>",
        f"<style>{STYLE}</style>",
        "</head>",
        "<body>",
        "<header>",
        f"<h1>{heading}</h1>",
        f'<p class="subtitle">{subtitle}</p>',
        "</header>",
        *sections,
        "<footer>",
        f"<p>{footer}</p>",
        "</footer>",
    ]
    if json_text is not None:
        parts.append(f'<script type="application/json" id="{text(json_id or "ranklens")}">'
                     + script_json(json_text) + "</script>")
    parts += ["</body>", "</html>"]
    return "\n".join(part for part in parts if part) + "\n"


def notebook_fragment(document_text: str, css_class: str = "ranklens-export") -> str:
    """The body of a document made by `document`, for a notebook cell (``_repr_html_``).

    Inside ``<div class=css_class>``, with the export's style scoped to that div so that no
    rule reaches the rest of the notebook; charts stay inline SVG (no script, no network).
    The embedded JSON is left out: in a notebook the object itself is at hand.
    """
    start = document_text.index("<body>") + len("<body>")
    body = document_text[start:document_text.rindex("</body>")]
    body = re.sub(r'<script type="application/json".*?</script>', "", body, flags=re.S)
    return f'<div class="{css_class}"><style>{scoped_style(css_class)}</style>{body}</div>'


def scoped_style(css_class: str) -> str:
    """``STYLE`` with every selector inside ``.css_class`` (``body`` is the div itself) and
    without the print rules."""
    rules = []
    for selectors, declarations in re.findall(r"([^{}]+)\{([^{}]*)\}",
                                              STYLE.split("@media", 1)[0]):
        scoped = ", ".join(f".{css_class}" if name.strip() == "body"
                           else f".{css_class} {name.strip()}" for name in selectors.split(","))
        rules.append(f"{scoped} {{{declarations}}}")
    return "\n".join(rules)


def planning_document(*, title: str, heading: str, subtitle: str, version: str,
                      sections: Iterable[str], holds: str, json_id: str,
                      payload: Any) -> str:
    """A planning page's file: its ``sections`` (the inputs and the settings last) and
    ``payload`` embedded as JSON; the footer says the JSON ``holds`` (plain text) and where it
    is."""
    return document(
        title=title, heading=heading, subtitle=subtitle, version=version, sections=sections,
        footer=(f"Made with ranklens {text(version)}. {text(holds)} embedded in this file as "
                f"JSON (<code>script#{text(json_id)}</code>)."),
        json_id=json_id, json_text=dumps(payload))


def embedded_json(document_text: str, json_id: str) -> str:
    """The JSON text of the ``<script type="application/json" id=json_id>`` block.

    ``ValueError`` if the document has none. The text is what `document` wrote: JSON, with
    ``<``, ``>`` and ``&`` as ``\\u`` escapes.
    """
    start_tag = f'<script type="application/json" id="{json_id}">'
    start = document_text.find(start_tag)
    end = document_text.find("</script>", start)
    if start < 0 or end < 0:
        raise ValueError(f"this HTML has no embedded {json_id} block")
    return document_text[start + len(start_tag):end]


def dumps(payload: Any) -> str:
    """``payload`` as strict JSON text for `document` (`ranklens.codec.dumps`: a non-finite
    number is null, named under ``"non_finite"``)."""
    return codec.dumps(payload)


def embedded_payload(document_text: str, json_id: str) -> dict[str, Any]:
    """The JSON object of the ``json_id`` block, parsed (``ValueError`` if there is none)."""
    payload: dict[str, Any] = json.loads(embedded_json(document_text, json_id))
    return payload


COMPOUND_CHARTS = frozenset({"HConcatChart", "VConcatChart", "ConcatChart"})
"""Altair charts of several panels: each panel has its own width, the whole none."""


def chart_svg(chart: Any, width: int | None) -> str:
    """An Altair chart as inline SVG, ``width`` pixels wide (it scales down in the page); a
    chart of several panels (or ``width=None``) keeps its own widths."""
    import vl_convert

    keep = width is None or type(chart).__name__ in COMPOUND_CHARTS
    sized = chart if keep else chart.properties(width=width)
    svg: str = vl_convert.vegalite_to_svg(sized.to_dict())
    return svg


def figure(svg: str, label: str, caption: str = "") -> str:
    """A figure holding ``svg``; ``label`` (plain text) says what it shows for screen readers,
    ``caption`` is HTML."""
    below = f"<figcaption>{caption}</figcaption>" if caption else ""
    return f'<figure role="img" aria-label="{text(label)}">{svg}{below}</figure>'


def number_cell(value: Any, style: str) -> str:
    """A right-aligned cell: the number for people, its exact value in ``data-value``.

    ``style``: "count" (whole number with separators), "value" (4 decimals), "delta" (signed),
    "p", "percent", "lift" (a signed percentage) or "weight" (2 decimals). NaN and None are an
    empty ``data-value`` and a dash.
    """
    number = math.nan if value is None else float(value)
    if math.isnan(number):
        return '<td class="num" data-value="">\u2014</td>'
    if style == "count":
        shown = f"{int(number):,}"
        exact = str(int(number))
    else:
        shown = _FORMATS[style](number)
        exact = repr(number)
    return f'<td class="num" data-value="{exact}">{text(shown)}</td>'


def table(headers: Sequence[str], rows: Iterable[Sequence[str]], *, css_class: str = "",
          row_classes: Sequence[str] | None = None) -> str:
    """A scrollable table: ``headers`` are plain text, each row a sequence of ``<td>`` HTML."""
    head = "".join(f"<th>{text(header)}</th>" for header in headers)
    body = []
    for index, cells in enumerate(rows):
        row_class = row_classes[index] if row_classes is not None else ""
        attribute = f' class="{row_class}"' if row_class else ""
        body.append(f"<tr{attribute}>{''.join(cells)}</tr>")
    class_attribute = f' class="{css_class}"' if css_class else ""
    return (f'<div class="scroll"><table{class_attribute}><thead><tr>{head}</tr></thead>'
            f"<tbody>{''.join(body)}</tbody></table></div>")


def text_cell(value: str) -> str:
    """A cell of plain text, escaped."""
    return f"<td>{text(value)}</td>"


_ARROWS = {"up": "\u2191 ", "down": "\u2193 ", "off": ""}


def cards(items: Iterable[Card]) -> str:
    """Metric cards as the pages show them: label, value as shown, delta and help below.

    The exact value (None when the card shows words) goes to the value's ``data-value``; a
    change carries its arrow and colour from the card's ``trend`` (``formats.direction``).
    Labels and help are the pages' Markdown dialect.
    """
    cells = []
    for card in items:
        data = "" if card.exact is None else f' data-value="{text(_exact(card.exact))}"'
        below = ""
        if card.delta:
            way = direction(card)
            below += (f'<div class="delta {way.colour}" data-direction="{way.arrow}">'
                      f"{_ARROWS[way.arrow]}{text(card.delta)}</div>")
        if card.help:
            below += f'<div class="help">{markdown(card.help)}</div>'
        cells.append(f'<div class="card"><div class="label">{markdown(card.label)}</div>'
                     f'<div class="value"{data}>{text(card.value)}</div>{below}</div>')
    return f'<div class="cards">{"".join(cells)}</div>'


def files_json(files: Sequence[InputFile]) -> list[dict[str, Any]]:
    """The files as JSON objects: role, name, bytes and sha256."""
    return [{"role": f.role, "name": f.name, "bytes": len(f.data), "sha256": f.sha256}
            for f in files]


def markdown(source: str) -> str:
    """The pages' Markdown dialect (``ranklens.formats``) as HTML: bold, escaped literals and
    links. A link into the app (``/methods``) is its label only: the file is read offline."""
    out = []
    for span in spans(source):
        shown = text(span.text)
        if span.link is not None and span.link.startswith(("https://", "http://")):
            shown = f'<a href="{text(span.link)}">{shown}</a>'
        out.append(f"<strong>{shown}</strong>" if span.bold else shown)
    return "".join(out)


def text(value: str) -> str:
    """``value`` escaped for HTML text and attribute values."""
    return html.escape(value, quote=True)


def value_text(value: Any) -> str:
    """A parameter's value as written in the table: strings as they are, the rest as JSON."""
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False)


def script_json(source: str) -> str:
    """JSON safe inside ``<script>``: ``<``, ``>`` and ``&`` only occur in JSON strings, where
    their ``\\u`` escapes mean the same, so no ``</script>`` can end the block early."""
    return source.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _exact(value: Any) -> str:
    if isinstance(value, int):
        return str(value)
    return repr(float(value))

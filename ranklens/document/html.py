"""The HTML writer: blocks as parts of the self-contained export (and the notebook).

Answers "this section as HTML": ``<section id=KEY><h2>TITLE</h2>...</section>``, every text
escaped (a list's items, a paragraph's Markdown-lite through
``ranklens.document.html_shell.markdown``); a
callout is a box coloured by its status, folded callouts a ``<details>``; their classes are the
section's key and the status (``health-failed``). A subsection is its heading one level down
and its blocks; a table's cells are its columns' texts (headers short, as in text), or, drawn
wide (`wide_table_html`, the tables of a report's body: `report_section_html`), its numbers
one per cell with their exact values; a section's ``anchor`` is its heading's id; a
conclusion is set in the verdict's box (``div.verdict``); a chart is
inline SVG ``CHART_WIDTH`` pixels wide in a ``<figure>``. The page shell, the style and the embedded
JSON are ``ranklens.document.html_shell``'s; nothing here knows a feature or formats a number.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ranklens.document import blocks, columns
from ranklens.document import html_shell as shell

CHART_WIDTH = 860
"""A chart's width in pixels in the export; the SVG scales down to narrower windows."""

LIST_CLASS = {"plain": "", "warning": "warnings"}
"""The style of a list by its tone (``.warnings`` in ``ranklens.document.html_shell.STYLE``)."""

COLOURS = {"failed": ("#ffebe9", "#cf222e"), "warning": ("#fff8c5", "#d4a72c"),
           "passed": ("#f6f8fa", "#d0d7de")}
"""A callout's background and border by its status."""


def section_html(section: blocks.Section | None) -> str:
    """``section`` as one ``<section>``; empty for None (nothing to say)."""
    if section is None:
        return ""
    return (f'<section id="{shell.text(section.key)}">{_heading_and_blocks(section, 2)}'
            "</section>")


def report_section_html(section: blocks.Section, anchor: str, css_class: str,
                        level: int = 2) -> str:
    """``section`` as a ``<section>`` of the body of a report (a metric's): its id
    ``anchor``, its class ``css_class``, its heading of ``level``, its tables drawn wide
    (`wide_table_html`)."""
    return (f'<section class="{shell.text(css_class)}" id="{shell.text(anchor)}">'
            f"{_heading_and_blocks(section, level, wide=True)}</section>")


def _heading_and_blocks(section: blocks.Section, level: int, wide: bool = False) -> str:
    lead = f"<p>{shell.text(section.lead)}.</p>" if section.lead else ""
    anchor = f' id="{shell.text(section.anchor)}"' if section.anchor else ""
    body = "".join(_heading_and_blocks(block, level + 1, wide)
                   if isinstance(block, blocks.Section)
                   else block_html(block, section.key, wide) for block in section.blocks)
    return f"<h{level}{anchor}>{shell.text(section.title)}</h{level}>{lead}{body}"


def block_html(block: blocks.Block, key: str = "", wide: bool = False) -> str:
    """One block as HTML (``key``: its section's, for the classes of callouts; ``wide``: a
    table as `wide_table_html`)."""
    if isinstance(block, blocks.Section):
        return _heading_and_blocks(block, 3, wide)
    if isinstance(block, blocks.Table):
        return wide_table_html(block) if wide else table_html(block)
    if isinstance(block, blocks.Chart):
        return shell.figure(shell.chart_svg(block.draw(), CHART_WIDTH), block.label)
    if isinstance(block, blocks.Items):
        css = LIST_CLASS[block.tone]
        attribute = f' class="{css}"' if css else ""
        items = "".join(f"<li>{shell.text(text)}</li>" for text in block.texts)
        return f"<ul{attribute}>{items}</ul>"
    if isinstance(block, blocks.Paragraph):
        said = shell.text(block.text) if block.literal else shell.markdown(block.text)
        role = f' class="{block.role}"' if block.role else ""
        if block.role == "conclusion":  # the finding, in the verdict's box
            return f'<div class="verdict"><p{role}>{said}</p></div>'
        return f"<p{role}>{said}</p>"
    if isinstance(block, blocks.Callout):
        return _callout(block, key)
    if isinstance(block, blocks.Folded):
        inner = "".join(f"<li>{blocks.SYMBOLS[c.status]} {shell.text(c.title)}: "
                        f"{shell.text(c.text)}</li>" for c in block.callouts)
        return (f'<details class="{key}-{block.status}"><summary>{shell.text(block.label)}'
                f"</summary><ul>{inner}</ul></details>")
    if isinstance(block, blocks.Banner):
        return _banner(block)
    if isinstance(block, blocks.Files):
        return files_table_html(block)
    if isinstance(block, blocks.Parameters):
        return parameters_html(block)
    raise TypeError(f"no HTML for {type(block).__name__}")


def files_table_html(files: blocks.Files) -> str:
    """The files as a table: role, name, bytes (the exact count in ``data-value``), sha256
    and, where any file has one, how it was read ("Read as")."""
    described = any(row.description for row in files.rows)
    body = "".join(
        "<tr>"
        f"<td>{shell.text(row.role.replace('_', ' '))}</td>"
        f"<td>{shell.text(row.name)}</td>"
        f'<td class="num" data-value="{row.size}">{row.size:,}</td>'
        f"<td><code>{shell.text(row.sha256)}</code></td>"
        + (f"<td>{shell.text(row.description)}</td>" if described else "")
        + "</tr>" for row in files.rows)
    read_as = "<th>Read as</th>" if described else ""
    return ("<table><thead><tr><th>Role</th><th>File</th><th>Bytes</th><th>sha256</th>"
            f"{read_as}</tr></thead><tbody>{body}</tbody></table>")


def parameters_html(parameters: blocks.Parameters) -> str:
    """Every setting as a name/value table sorted by name, then the ranklens version."""
    rows = "".join(f"<tr><th>{shell.text(str(key))}</th><td><code>"
                   f"{shell.text(shell.value_text(value))}</code></td></tr>"
                   for key, value in sorted(parameters.values.items(),
                                            key=lambda item: str(item[0])))
    return f"<table>{rows}</table><p>ranklens {shell.text(parameters.version)}</p>"


def table_html(table: blocks.Table) -> str:
    """``table`` as a scrollable HTML table of its columns' texts; the rows set apart carry
    the class ``overall``."""
    apart = set(table.set_apart)
    return shell.table(
        columns.headers(table.columns, table.names),
        [[shell.text_cell(cell) for cell in row]
         for row in columns.cells(table.columns, table.records)],
        css_class=table.key,
        row_classes=["overall" if i in apart else "" for i in range(len(table.records))])


WTL_HEADERS = ("Won", "Tied", "Lost")
"""The headers of a W/T/L column's three cells in a wide table."""


def wide_table_html(table: blocks.Table) -> str:
    """``table`` as a wide table (the HTML export's tables of differences): its
    `columns.wide` columns under their long headers (titles), each number in a cell of its
    own with its exact value in ``data-value`` (an interval two cells, W/T/L three); the rows
    set apart carry the class ``overall``."""
    shown = columns.wide(table.columns)
    apart = set(table.set_apart)
    return shell.table(
        wide_headers(shown, table.names), [_wide_cells(shown, r) for r in table.records],
        css_class=table.key,
        row_classes=["overall" if i in apart else "" for i in range(len(table.records))])


def wide_headers(shown: Sequence[columns.Column], names: Mapping[str, object]) -> list[str]:
    """The long headers of ``shown``, one per cell: an interval's ``low`` and ``high``, a
    lift's point, ``low`` and ``high``, the W/T/L counts' `WTL_HEADERS`."""
    out: list[str] = []
    for column, header in zip(shown, columns.headers(shown, names, long=True), strict=True):
        out += ((f"{header} low", f"{header} high") if column.kind == "interval"
                else (header, f"{header} low", f"{header} high") if column.kind == "lift"
                else WTL_HEADERS if column.kind == "wtl" else (header,))
    return out


def _wide_cells(shown: Sequence[columns.Column], record: Mapping[Any, Any]) -> list[str]:
    """One record as ``<td>`` cells of ``shown``: words escaped, numbers with their exact
    value (a mark has no cell: the wide tables say the finding in words)."""
    out: list[str] = []
    for column in shown:
        if column.kind in (*columns.PARTS, "lift"):
            style = {"interval": "delta", "lift": "lift"}.get(column.kind, "count")
            out += [shell.number_cell(record.get(key), style) for key in columns.parts(column)]
        elif column.kind in ("label", "text"):
            out.append(shell.text_cell(columns.cell(column, record)))
        elif column.kind != "mark":
            out.append(shell.number_cell(record.get(column.key), column.kind))
    return out


BANNER_ROLE = {"guardrail": "alert", "ties": "note"}
"""How loudly a banner speaks to assistive technology, by its kind."""


def _banner(banner: blocks.Banner) -> str:
    title = f"<strong>{shell.text(banner.title)}</strong> " if banner.title else ""
    link = (f' <a href="#{shell.text(banner.anchor)}">{shell.text(banner.link)}</a>.'
            if banner.link else "")
    return (f'<div class="warnings {banner.kind}" role="{BANNER_ROLE[banner.kind]}"><p>'
            f"{title}{shell.text(banner.text)}{link}</p></div>")


def _callout(callout: blocks.Callout, key: str) -> str:
    background, border = COLOURS[callout.status]
    action = (f"<p><strong>What to do:</strong> {shell.text(callout.action)}</p>"
              if callout.action else "")
    examples = (f"<p class=\"note\">{shell.text('; '.join(callout.examples))}</p>"
                if callout.examples else "")
    return (f'<div class="{key}-{callout.status}" style="background: {background}; border: 1px '
            f'solid {border}; border-radius: 6px; padding: 0.5rem 1rem; margin: 0.5rem 0">'
            f"<p><strong>{blocks.SYMBOLS[callout.status]} {callout.status}: "
            f"{shell.text(callout.title)}</strong>. {shell.text(callout.text)}</p>"
            f"{action}{examples}</div>")

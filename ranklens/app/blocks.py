"""The page's writer: ``ranklens.document`` blocks drawn with Streamlit.

Answers "these blocks on the page": a warning list as one ``st.warning`` box of bullets, a
plain list and a paragraph as Markdown, a callout as an ``st.error``/``st.warning`` box with
what to do, folded callouts as one collapsed expander, files a line each with their digest's start,
parameters as a caption of names and values, a table as a data frame of its
columns' texts (its mark column headed ``sig.``; a small table a reader reads rather than
sorts, as plain HTML: `show_html_table`), a chart as an interactive Altair chart, a
subsection as a subheader and its blocks; every user text through ``markup.text`` (shown as
typed, never as markup). Where a section sits (a container, a column) is the page's layout,
not this writer's; a table's or chart's widget key is the page's too (`show_table`,
`show_chart`).
"""

from __future__ import annotations

from dataclasses import replace
from functools import partial

import pandas as pd
import streamlit as st

from ranklens.app import chart_cache, markup
from ranklens.document import columns, html
from ranklens.document import html_shell as shell
from ranklens.document.blocks import (
    Banner,
    Block,
    Callout,
    Chart,
    Files,
    Folded,
    Items,
    Paragraph,
    Parameters,
    Section,
    Table,
)
from ranklens.document.html_shell import COMPOUND_CHARTS

WARNING_ICON = ":material/warning:"
ICONS = {"failed": ":material/error:", "warning": WARNING_ICON,
         "passed": ":material/check_circle:"}
"""A callout's icon by its status."""
BANNER_ICONS = {"guardrail": ":material/rule:", "ties": ":material/balance:"}
"""A banner's icon by its kind."""


def show_blocks(section: Section | None) -> None:
    """Every block of ``section`` in order (nothing for None); no heading."""
    if section is None:
        return
    for block in section.blocks:
        show_block(block)


def show_section(section: Section | None) -> None:
    """``section`` with its title: ``**Title**: lead`` above what is shown open, or, when all
    it holds is folded, one expander titled ``Title: all N passed`` (nothing to read open)."""
    if section is None:
        return
    folded_only = all(isinstance(block, Folded) for block in section.blocks)
    if not folded_only:
        st.markdown(f"**{section.title}**: {markup.text(section.lead)}" if section.lead
                    else f"**{section.title}**")
    for block in section.blocks:
        if folded_only and isinstance(block, Folded):
            show_folded(block, f"{section.title}: all {block.label}")
        else:
            show_block(block)


def show_block(block: Block) -> None:
    """One block on the page."""
    if isinstance(block, Items):
        bullets = "\n".join(f"- {markup.text(text)}" for text in block.texts)
        if block.tone == "warning":
            st.warning(bullets, icon=WARNING_ICON)
        else:
            st.markdown(bullets)
    elif isinstance(block, Paragraph):
        show_paragraph(block)
    elif isinstance(block, Table):
        show_table(block)
    elif isinstance(block, Chart):
        show_chart(block)
    elif isinstance(block, Section):
        st.subheader(markup.text(block.title), anchor=block.key)
        show_blocks(block)
    elif isinstance(block, Callout):
        shown = (f"**{markup.text(block.title)}**: {markup.text(block.text)}"
                 + (f"  \n**What to do:** {markup.text(block.action)}" if block.action else ""))
        alert = st.error if block.status == "failed" else st.warning
        alert(shown, icon=ICONS[block.status])
    elif isinstance(block, Folded):
        show_folded(block, block.label)
    elif isinstance(block, Banner):
        title = f"**{block.title}** " if block.title else ""
        link = f" [{block.link}](#{block.anchor})." if block.link else ""
        st.warning(f"{title}{markup.text(block.text)}{link}", icon=BANNER_ICONS[block.kind])
    elif isinstance(block, Files):
        show_files(block)
    elif isinstance(block, Parameters):
        st.caption("  \n".join(
            [*(f"{markup.text(str(name))}: {markup.text(shell.value_text(value))}"
               for name, value in sorted(block.values.items(), key=lambda kv: str(kv[0]))),
             f"ranklens {markup.text(block.version)}"]))
    else:
        raise TypeError(f"no page drawing for {type(block).__name__}")


def show_files(block: Files) -> None:
    """Each file: its role, what its reader made of it (else its name), the start of its
    sha256 and its size."""
    for row in block.rows:
        st.markdown(f"**{row.role.replace('_', ' ')}** · "
                    f"{markup.text(row.description or row.name)}  \n"
                    f"<small>sha256 {row.sha256[:16]}… · {row.size:,} bytes</small>",
                    unsafe_allow_html=True)


def show_folded(block: Folded, label: str) -> None:
    """Folded callouts in one collapsed expander titled ``label``, one line each."""
    with st.expander(label, expanded=False, icon=ICONS[block.status]):
        st.markdown("\n".join(f"- **{markup.text(c.title)}**: {markup.text(c.text)}"
                               for c in block.callouts))


def show_paragraph(block: Paragraph) -> None:
    """A paragraph: a conclusion in bold, an interval note as a caption, else Markdown."""
    said = markup.text(block.text) if block.literal else block.text
    if block.role == "conclusion":
        st.markdown(f"**{said}**")
    elif block.role == "interval-note":
        st.caption(said)
    else:
        st.markdown(said)


def show_table(table: Table, key: str | None = None) -> None:
    """``table`` as a data frame of its columns' texts (``key``: the widget's)."""
    headers = ["sig." if c.kind == "mark" else h
               for c, h in zip(table.columns, columns.headers(table.columns, table.names),
                               strict=True)]
    frame = pd.DataFrame(columns.cells(table.columns, table.records), columns=headers)
    st.dataframe(frame, hide_index=True, key=key)


PAGE_TABLE_STYLE = (
    ".rl-table table { border-collapse: collapse; font-size: 0.875rem; margin: 0 0 0.5rem; }"
    ".rl-table th { font-weight: 600; color: rgba(49, 51, 63, 0.75); }"
    ".rl-table th, .rl-table td { border-bottom: 1px solid rgba(49, 51, 63, 0.12);"
    " padding: 0.3rem 0.75rem 0.3rem 0; text-align: left; vertical-align: top;"
    " white-space: nowrap; }"
    ".rl-table .scroll { overflow-x: auto; }")
"""The look of `show_html_table`'s tables: Streamlit's font size and rules, each cell on one
line (a number never wraps or is cut; a table wider than the page scrolls sideways)."""


def show_html_table(table: Table) -> None:
    """``table`` as a plain HTML table (``ranklens.document.html.table_html``) under its
    columns' long headers (the titles the HTML export uses): a small table (a few rows)
    that a reader reads, not sorts; the browser draws it far faster than a data grid (issue
    51). Every cell is escaped text."""
    titled = tuple(replace(c, header=c.title or c.header) for c in table.columns)
    body = html.table_html(replace(table, columns=titled))
    st.html(f'<style>{PAGE_TABLE_STYLE}</style><div class="rl-table">{body}</div>')


def show_chart(chart: Chart, key: str | None = None) -> None:
    """``chart`` as the page's interactive chart, as wide as its container (a chart of
    several panels keeps its panels' widths)."""
    draw = chart.draw
    if not isinstance(draw, partial):  # no data to name it by: drawn as it is
        drawn = draw()
        compound = type(drawn).__name__ in COMPOUND_CHARTS
        st.altair_chart(drawn, width="content" if compound else "stretch", key=key)
        return
    # a partial names its chart: the function and the data it is given (issue 51)
    chart_cache.show_altair(draw, (draw.args, draw.keywords),
                            (draw.func.__module__, draw.func.__qualname__), key=key,
                            panels_keep_widths=True)

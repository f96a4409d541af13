"""The plain-text writer: blocks as the lines ``ranklens compare`` prints.

Answers "this section as text lines, wrapped at ``width``", in one of two layouts.
`section_lines`, a listing: the title with a colon (and its lead: ``Health checks: 1 failed,
8 passed``), then each block indented by two spaces (a list's items as ``- `` bullets, a
callout as ``✗ FAILED title: text`` with what to do under it, folded callouts as their one-line
summary, files a line each, unwrapped). `body_lines`, a body of the report: the title on its
own line, then each block unindented and followed by a blank line (a table aligned in columns,
a subsection the same way one level in). A chart and a detail block have no text. Spacing
between sections is the outline's. It formats no number (``ranklens.document.columns`` does)
and knows no feature.
"""

from __future__ import annotations

import textwrap

from ranklens.document import blocks, columns
from ranklens.formats import plain_table


def section_lines(section: blocks.Section, width: int = 100) -> list[str]:
    """``section`` as text lines: ``Title:`` (``Title: lead``), then its blocks; none for a
    section of wide-only blocks (`ranklens.document.blocks.narrow_faces_skip`)."""
    if blocks.narrow_faces_skip(section):
        return []
    lines = [f"{section.title}: {section.lead}" if section.lead else f"{section.title}:"]
    for block in section.blocks:
        lines += block_lines(block, width)
    return lines


def block_lines(block: blocks.Block, width: int = 100) -> list[str]:
    """One block as text lines, indented under its section's title (a detail block: none)."""
    if blocks.is_detail(block):
        return []
    if isinstance(block, blocks.Items):
        return [line for text in block.texts
                for line in textwrap.wrap(text, width, initial_indent="  - ",
                                          subsequent_indent="    ")]
    if isinstance(block, blocks.Paragraph):
        return textwrap.wrap(block.text, width, initial_indent="  ", subsequent_indent="  ")
    if isinstance(block, blocks.Callout):
        mark = blocks.SYMBOLS[block.status]
        lines = textwrap.wrap(f"{mark} {block.status.upper()} {block.title}: {block.text}",
                              width, initial_indent="  ", subsequent_indent="    ")
        if block.action:
            lines += textwrap.wrap(f"What to do: {block.action}", width,
                                   initial_indent="    ", subsequent_indent="    ")
        return lines
    if isinstance(block, blocks.Folded):
        mark = blocks.SYMBOLS[block.status]
        return textwrap.wrap(f"{mark} {block.status}: {block.summary}", width,
                             initial_indent="  ", subsequent_indent="    ")
    if isinstance(block, blocks.Banner):
        return banner_lines(block, width)
    if isinstance(block, blocks.Table):
        return [f"  {line}".rstrip() for line in table_lines(block)]
    if isinstance(block, blocks.Files):
        return [f"  {row.line}" for row in block.rows]  # names and counts: never wrapped
    if isinstance(block, blocks.Chart):
        return []
    if isinstance(block, blocks.Section):
        return ["  " + line if line else line for line in section_lines(block, width - 2)]
    raise TypeError(f"no text for {type(block).__name__}")


def body_lines(section: blocks.Section, width: int = 100) -> list[str]:
    """``section`` as a body of the report: its title, a blank line, then each block (a
    subsection the same way) followed by a blank line; paragraphs wrapped, unindented."""
    lines = [section.title, ""]
    for block in section.blocks:
        if blocks.is_detail(block):
            continue
        if isinstance(block, blocks.Section):
            lines += body_lines(block, width)
        elif isinstance(block, blocks.Paragraph):
            lines += [*(textwrap.wrap(block.text, width) or [""]), ""]
        elif isinstance(block, blocks.Table):
            lines += [*table_lines(block), ""]
        elif not isinstance(block, blocks.Chart):
            lines += [*block_lines(block, width), ""]
    return lines


def table_lines(table: blocks.Table) -> list[str]:
    """``table`` aligned in columns: the headers, a rule, a line per record (numbers right);
    its detail columns left out (`ranklens.document.columns.narrow`)."""
    shown = columns.narrow(table.columns)
    return plain_table(columns.headers(shown, table.names), columns.cells(shown, table.records),
                       columns.right(shown))


def banner_lines(banner: blocks.Banner, width: int = 100) -> list[str]:
    """A banner as text: ``! Title text pointer``, wrapped, its own paragraph."""
    said = " ".join(part for part in (banner.title, banner.text, banner.pointer) if part)
    return textwrap.wrap(f"! {said}", width, subsequent_indent="  ")

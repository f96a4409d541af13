"""The Markdown writer: GitHub-flavoured Markdown of blocks.

Answers "this section as Markdown lines" (`section_lines`: a subsection one heading level
down, a `Table` as a table whose mark column is headed ``sig.``, no chart and no detail
block) and "these rows as a
Markdown table" (`markdown_table`). It escapes only what Markdown tables need (``|``); it
formats no number (``ranklens.formats`` does) and knows no feature.
"""

from __future__ import annotations

from collections.abc import Sequence

from ranklens.document import blocks, columns


def escape(text: str) -> str:
    """``text`` safe in a Markdown table cell (a ``|`` would end the cell)."""
    return text.replace("|", "\\|")


def markdown_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    """A GitHub-flavoured Markdown table."""
    lines = ["| " + " | ".join(escape(h) for h in header) + " |",
             "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(escape(c) for c in row) + " |" for row in rows]
    return lines


def section_lines(section: blocks.Section, level: int = 2) -> list[str]:
    """``section`` as Markdown lines: a heading of ``level`` (``##``), a blank line, its lead
    as a sentence, then its blocks (a run of list-like blocks is one list); none for a section
    of wide-only blocks (`ranklens.document.blocks.narrow_faces_skip`)."""
    if blocks.narrow_faces_skip(section):
        return []
    lines = [f"{'#' * level} {section.title}", ""]
    if section.lead:
        lines += [f"{section.lead}.", ""]
    previous: blocks.Block | None = None
    for block in section.blocks:
        drawn = (section_lines(block, level + 1) if isinstance(block, blocks.Section)
                 else block_lines(block))
        if not drawn:  # a chart or a detail block: nothing to write
            continue
        if previous is not None and not (_listed(previous) and _listed(block)):
            lines.append("")
        lines += drawn
        previous = block
    return lines


def table_lines(table: blocks.Table) -> list[str]:
    """``table`` as a Markdown table without its detail columns
    (`ranklens.document.columns.narrow`); the mark column is headed ``sig.``."""
    shown = columns.narrow(table.columns)
    names = columns.headers(shown, table.names)
    header = ["sig." if c.kind == "mark" else h for c, h in zip(shown, names, strict=True)]
    return markdown_table(header, columns.cells(shown, table.records))


def _listed(block: blocks.Block) -> bool:
    return isinstance(block, (blocks.Items, blocks.Callout, blocks.Folded, blocks.Files))


def block_lines(block: blocks.Block) -> list[str]:
    """One block as Markdown lines (a list, and files, as ``- `` items, a callout as one
    bold-led item, folded callouts as one item of their summary, a paragraph as it is; a
    detail block: nothing)."""
    if blocks.is_detail(block):
        return []
    if isinstance(block, blocks.Items):
        return [f"- {text}" for text in block.texts]
    if isinstance(block, blocks.Paragraph):
        return [block.text]
    if isinstance(block, blocks.Callout):
        return [f"- **{block.status}: {block.title}**: {block.text}"
                + (f" _What to do:_ {block.action}" if block.action else "")]
    if isinstance(block, blocks.Folded):
        return [f"- {block.status}: {block.summary}"]
    if isinstance(block, blocks.Banner):
        title = f"**{block.title}**" if block.title else ""
        return ["> " + " ".join(part for part in (title, block.text, block.pointer) if part)]
    if isinstance(block, blocks.Table):
        return table_lines(block)
    if isinstance(block, blocks.Files):
        return [f"- {row.line}" for row in block.rows]
    if isinstance(block, blocks.Chart):
        return []
    if isinstance(block, blocks.Section):
        return section_lines(block, 3)
    raise TypeError(f"no Markdown for {type(block).__name__}")

"""The Markdown writer: GitHub-flavoured Markdown of blocks.

Answers "this section as Markdown lines" (`section_lines`) and "these rows as a Markdown
table" (`markdown_table`). It escapes only what Markdown tables need (``|``); it formats no number
(``ranklens.formats`` does) and knows no feature.
"""

from __future__ import annotations

from collections.abc import Sequence

from ranklens.document.blocks import Block, Items, Paragraph, Section


def escape(text: str) -> str:
    """``text`` safe in a Markdown table cell (a ``|`` would end the cell)."""
    return text.replace("|", "\\|")


def markdown_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    """A GitHub-flavoured Markdown table."""
    lines = ["| " + " | ".join(escape(h) for h in header) + " |",
             "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(escape(c) for c in row) + " |" for row in rows]
    return lines


def section_lines(section: Section, level: int = 2) -> list[str]:
    """``section`` as Markdown lines: a heading of ``level`` (``##``), a blank line, then its
    blocks."""
    lines = [f"{'#' * level} {section.title}", ""]
    for index, block in enumerate(section.blocks):
        if index:
            lines.append("")
        lines += block_lines(block)
    return lines


def block_lines(block: Block) -> list[str]:
    """One block as Markdown lines (a list as ``- `` items, a paragraph as it is)."""
    if isinstance(block, Items):
        return [f"- {text}" for text in block.texts]
    if isinstance(block, Paragraph):
        return [block.text]
    raise TypeError(f"no Markdown for {type(block).__name__}")

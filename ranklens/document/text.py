"""The plain-text writer: blocks as the lines ``ranklens compare`` prints.

Answers "this section as text lines, wrapped at ``width``": the title with a colon, then each
block indented by two spaces (a list's items as ``- `` bullets, continued under their text).
Spacing between sections is the outline's. It formats no number and knows no feature.
"""

from __future__ import annotations

import textwrap

from ranklens.document.blocks import Block, Items, Paragraph, Section


def section_lines(section: Section, width: int = 100) -> list[str]:
    """``section`` as text lines: ``Title:``, then its blocks."""
    lines = [f"{section.title}:"]
    for block in section.blocks:
        lines += block_lines(block, width)
    return lines


def block_lines(block: Block, width: int = 100) -> list[str]:
    """One block as text lines, indented under its section's title."""
    if isinstance(block, Items):
        return [line for text in block.texts
                for line in textwrap.wrap(text, width, initial_indent="  - ",
                                          subsequent_indent="    ")]
    if isinstance(block, Paragraph):
        return textwrap.wrap(block.text, width, initial_indent="  ", subsequent_indent="  ")
    raise TypeError(f"no text for {type(block).__name__}")

"""The plain-text writer: blocks as the lines ``ranklens compare`` prints.

Answers "this section as text lines, wrapped at ``width``": the title with a colon (and its
lead: ``Health checks: 1 failed, 8 passed``), then each block indented by two spaces (a list's
items as ``- `` bullets, a callout as ``✗ FAILED title: text`` with what to do under it, folded
callouts as their one-line summary). Spacing between sections is the outline's. It formats no
number and knows no feature.
"""

from __future__ import annotations

import textwrap

from ranklens.document.blocks import (
    SYMBOLS,
    Banner,
    Block,
    Callout,
    Folded,
    Items,
    Paragraph,
    Section,
)


def section_lines(section: Section, width: int = 100) -> list[str]:
    """``section`` as text lines: ``Title:`` (``Title: lead``), then its blocks."""
    lines = [f"{section.title}: {section.lead}" if section.lead else f"{section.title}:"]
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
    if isinstance(block, Callout):
        lines = textwrap.wrap(f"{SYMBOLS[block.status]} {block.status.upper()} {block.title}: "
                              f"{block.text}", width, initial_indent="  ",
                              subsequent_indent="    ")
        if block.action:
            lines += textwrap.wrap(f"What to do: {block.action}", width,
                                   initial_indent="    ", subsequent_indent="    ")
        return lines
    if isinstance(block, Folded):
        return textwrap.wrap(f"{SYMBOLS[block.status]} {block.status}: {block.summary}", width,
                             initial_indent="  ", subsequent_indent="    ")
    if isinstance(block, Banner):
        return banner_lines(block, width)
    raise TypeError(f"no text for {type(block).__name__}")


def banner_lines(banner: Banner, width: int = 100) -> list[str]:
    """A banner as text: ``! Title text pointer``, wrapped, its own paragraph."""
    said = " ".join(part for part in (banner.title, banner.text, banner.pointer) if part)
    return textwrap.wrap(f"! {said}", width, subsequent_indent="  ")

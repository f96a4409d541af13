"""The Markdown writer: GitHub-flavoured Markdown of blocks.

Answers "these blocks as Markdown lines" (`write`) and "these rows as a Markdown table"
(`markdown_table`). It escapes only what Markdown tables need (``|``); it formats no number
(``ranklens.formats`` does) and knows no feature.
"""

from __future__ import annotations

from collections.abc import Sequence


def escape(text: str) -> str:
    """``text`` safe in a Markdown table cell (a ``|`` would end the cell)."""
    return text.replace("|", "\\|")


def markdown_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    """A GitHub-flavoured Markdown table."""
    lines = ["| " + " | ".join(escape(h) for h in header) + " |",
             "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(escape(c) for c in row) + " |" for row in rows]
    return lines

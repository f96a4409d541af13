"""The HTML writer: blocks as parts of the self-contained export (and the notebook).

Answers "this section as HTML": ``<section id=KEY><h2>TITLE</h2>...</section>``, every text
escaped (a list's items, a paragraph's Markdown-lite through ``ranklens.html.markdown``). The
page shell, the style and the embedded JSON are ``ranklens.html``'s; nothing here knows a
feature or formats a number.
"""

from __future__ import annotations

from ranklens import html as shell
from ranklens.document.blocks import Block, Items, Paragraph, Section

LIST_CLASS = {"plain": "", "warning": "warnings"}
"""The style of a list by its tone (``.warnings`` in ``ranklens.html.STYLE``)."""


def section_html(section: Section | None) -> str:
    """``section`` as one ``<section>``; empty for None (nothing to say)."""
    if section is None:
        return ""
    body = "".join(block_html(block) for block in section.blocks)
    return (f'<section id="{shell.text(section.key)}"><h2>{shell.text(section.title)}</h2>'
            f"{body}</section>")


def block_html(block: Block) -> str:
    """One block as HTML."""
    if isinstance(block, Items):
        css = LIST_CLASS[block.tone]
        attribute = f' class="{css}"' if css else ""
        items = "".join(f"<li>{shell.text(text)}</li>" for text in block.texts)
        return f"<ul{attribute}>{items}</ul>"
    if isinstance(block, Paragraph):
        return f"<p>{shell.markdown(block.text)}</p>"
    raise TypeError(f"no HTML for {type(block).__name__}")

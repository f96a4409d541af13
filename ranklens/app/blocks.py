"""The page's writer: ``ranklens.document`` blocks drawn with Streamlit.

Answers "these blocks on the page": a warning list as one ``st.warning`` box of bullets, a
plain list and a paragraph as Markdown; every user text through ``markup.text`` (shown as
typed, never as markup). Where a section sits and whether it gets a heading, an expander or a
column is the page's layout, not this writer's.
"""

from __future__ import annotations

import streamlit as st

from ranklens.app import markup
from ranklens.document.blocks import Block, Items, Paragraph, Section

WARNING_ICON = ":material/warning:"


def show_blocks(section: Section | None) -> None:
    """Every block of ``section`` in order (nothing for None); no heading."""
    if section is None:
        return
    for block in section.blocks:
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
        st.markdown(block.text)
    else:
        raise TypeError(f"no page drawing for {type(block).__name__}")

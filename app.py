"""ranklens dashboard: the entry point that `streamlit run app.py` serves.

It only routes: page configuration, the navigation over the pages (Compare is the default), the
sidebar shared by every page, then the chosen page. Pages live in ``pages/`` and call the
library; nothing here computes or parses.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from ranklens import __version__
from ranklens.app import share_widget
from ranklens.share import PAGE_KINDS

HERE = Path(__file__).resolve().parent


def pages() -> list[st.Page]:
    """The app's pages in menu order; Compare is the one a first visit opens."""
    return [
        st.Page(HERE / "pages" / "compare.py", title="Compare runs",
                icon=":material/compare_arrows:", url_path="compare", default=True),
        st.Page(HERE / "pages" / "mde.py", title="How many queries (MDE)",
                icon=":material/straighten:", url_path="mde"),
        st.Page(HERE / "pages" / "ppi.py", title="Cheap labels (PPI++)",
                icon=":material/balance:", url_path="ppi"),
    ]


def resolve_page(menu: list[st.Page]) -> st.Page:
    """The page this run shows: the navigation's choice among ``menu``."""
    return st.navigation(menu, position="top")


def shared_sidebar() -> None:
    """What every page's sidebar starts with: what ranklens is, in one line."""
    with st.sidebar:
        st.markdown(f"**ranklens** {__version__}")
        st.caption("Is ranking run B really better than run A, and where? "
                   "Paired statistics over queries.")


def main() -> None:
    st.set_page_config(page_title="ranklens", page_icon=":material/query_stats:",
                       layout="wide")
    link = share_widget.resolve_shared()  # ?report=<token>, or the report this session opened
    menu = pages()
    page = resolve_page(menu)
    shared_sidebar()
    # PAGE_KINDS is in menu order: compare, mde, ppi.
    if share_widget.enter_shared(link, page, dict(zip(PAGE_KINDS, menu, strict=True))):
        page.run()


main()

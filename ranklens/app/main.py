"""ranklens dashboard: the main script `ranklens app` serves (and `app.py` calls).

It only routes: page configuration, the navigation over the pages, the sidebar shared by every
page, then the chosen page. Compare is the default page, served at the app's root ``/``;
``/compare`` (typed or bookmarked) forwards there, ``/mde`` and ``/ppi`` are the other pages.
The pages live in ``ranklens/app/pages/`` and call the library; nothing here computes or
parses. ``main(folder)`` navigates over the page files in ``folder``: this package's pages when
`ranklens app` serves this file, the thin entries in the checkout's ``pages/`` when
`streamlit run app.py` does (each runs the packaged page of its name).
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from ranklens import __version__, methods
from ranklens.app import auth, share_widget
from ranklens.app.entrypoint import PAGES, running_in_app
from ranklens.share.links import PAGE_KINDS


def pages(folder: Path = PAGES) -> list[st.Page]:
    """The app's pages (files of ``folder``) in menu order; Compare is the one a first visit
    opens, at ``/``."""
    return [
        # The default page is served at the root whatever its url_path; "" keeps "compare"
        # free for `compare_alias`, so that the typed URL /compare finds a page too.
        st.Page(folder / "compare.py", title="Compare runs",
                icon=":material/compare_arrows:", url_path="", default=True),
        st.Page(folder / "mde.py", title="How many queries (MDE)",
                icon=":material/straighten:", url_path="mde"),
        st.Page(folder / "ppi.py", title="Cheap labels (PPI++)",
                icon=":material/balance:", url_path="ppi"),
        st.Page(folder / "leaderboard.py", title="Leaderboard",
                icon=":material/leaderboard:", url_path="leaderboard"),
        st.Page(folder / "methods.py", title=methods.TITLE,
                icon=":material/function:", url_path=methods.URL_PATH),
    ]


def compare_alias() -> st.Page:
    """``/compare``: not in the menu; forwards to the Compare page at ``/`` (see `main`)."""
    return st.Page(lambda: None, title="Compare runs", url_path="compare", visibility="hidden")


def resolve_page(menu: list[st.Page], alias: st.Page) -> st.Page:
    """The page this run shows: the navigation's choice among ``menu``; the Compare page for
    its ``alias`` (one more run, with the URL's query kept: ``/compare?report=...`` works)."""
    page = st.navigation([*menu, alias], position="top")
    if page is alias:
        st.switch_page(menu[0], query_params=st.query_params.to_dict())
    return page


def shared_sidebar() -> None:
    """What every page's sidebar starts with: what ranklens is, in one line."""
    with st.sidebar:
        st.markdown(f"**ranklens** {__version__}")
        st.caption("Is ranking run B really better than run A, and where? "
                   "Paired statistics over queries.")


def main(folder: Path = PAGES) -> None:
    """One run of the app over the page files in ``folder`` (see the module docstring)."""
    st.set_page_config(page_title="ranklens", page_icon=":material/query_stats:",
                       layout="wide")
    link = share_widget.resolve_shared()  # ?report=<token>, or the report this session opened
    menu = pages(folder)
    page = resolve_page(menu, compare_alias())
    auth.gate()  # sign-in, when the secrets have [auth]: stops here for anyone not allowed
    shared_sidebar()
    # PAGE_KINDS is in menu order: compare, mde, ppi (the Methods page has no shared state).
    if share_widget.enter_shared(link, page, dict(zip(PAGE_KINDS, menu[:len(PAGE_KINDS)],
                                                      strict=True))):
        with running_in_app():
            page.run()


if __name__ == "__main__":  # `ranklens app` (streamlit run) serves this file
    main()

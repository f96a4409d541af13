"""Every page runs inside app.py, even when it is the first page a fresh server serves.

With a folder named ``pages/`` beside ``app.py``, Streamlit starts in its old multipage mode:
until some run calls ``st.navigation``, a bookmarked ``/mde`` runs ``pages/mde.py`` on its
own, with the folder's page list instead of the app's navigation, sidebar and share-link
handling (AppTest, which starts every run in that mode, does the same on reruns).
``run_through_app`` notices that and runs ``app.py`` in its place, in the same run, so the
click or upload that started the run is not lost; ``app.py``'s ``st.navigation`` then switches
the old mode off and runs the requested page (both modes key a page by its URL path).
"""

from __future__ import annotations

import runpy

import streamlit as st


def run_through_app() -> None:
    """Call first thing in a page: a page run on its own hands the run over to ``app.py``."""
    try:
        from streamlit.runtime.pages_manager import PagesManager
        from streamlit.runtime.scriptrunner import get_script_run_ctx
    except ImportError:  # a Streamlit without the old mode: nothing to hand over
        return
    if not getattr(PagesManager, "uses_pages_directory", False):
        return
    ctx = get_script_run_ctx()
    if ctx is None:
        return
    runpy.run_path(str(ctx.pages_manager.main_script_path), run_name="__main__")
    st.stop()  # app.py has drawn the page; the stand-alone copy of it must not run on

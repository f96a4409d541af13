"""Every page runs inside app.py, even when it is the first page a fresh server serves.

With a folder named ``pages/`` beside ``app.py``, Streamlit starts in its old multipage mode:
until some session has run ``app.py`` (whose ``st.navigation`` switches the mode off), a
bookmarked ``/mde`` runs ``pages/mde.py`` on its own, with the folder's page list instead of
the app's navigation, sidebar and share-link handling. ``run_through_app`` notices that and
reruns the script, which Streamlit then starts from ``app.py`` on the same page (both modes
key a page by its URL path). It does nothing in any other case, AppTest included.
"""

from __future__ import annotations

import streamlit as st


def run_through_app() -> None:
    """Call first thing in a page: hand a stand-alone first run over to ``app.py``."""
    try:
        from streamlit.runtime.pages_manager import PagesManager
    except ImportError:  # a Streamlit without the old mode: nothing to hand over
        return
    if getattr(PagesManager, "uses_pages_directory", False):
        PagesManager.uses_pages_directory = False
        st.rerun()

"""Every page runs inside app.py, even when Streamlit starts it on its own.

Why this exists: with a folder named ``pages/`` beside ``app.py`` (the project's agreed layout),
Streamlit starts in its legacy multipage mode. Its documentation says a call to
``st.navigation`` "in any session" makes it disregard ``pages/``, so until a first run has
made that call, a bookmarked ``/mde`` on a freshly started server runs ``pages/mde.py`` on its
own: the folder's list of pages instead of the app's navigation, no shared sidebar, no
share-link handling. Streamlit (1.67) has no public setting that turns the legacy mode off;
its own advice is to name the folder something else (``app_pages/``), and
``client.showSidebarNavigation = false`` only hides the legacy list while the page still runs
alone. ``tests/browser/test_browser_navigation.py`` guards this on a fresh server.

How, with public API only: ``app.py`` runs the chosen page inside ``running_in_app()``; a page
calls ``run_through_app(__file__)`` first thing. Run any other way (the legacy mode's first
run, or a page script started by itself), that call runs ``app.py`` in its place, in the same
run, so the click or upload that started the run is not lost; ``app.py``'s ``st.navigation``
then resolves the page the URL asked for (both modes key a page by its URL path) and runs it,
this time inside the app, and ``st.stop()`` ends the stand-alone copy.
"""

from __future__ import annotations

import runpy
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path

import streamlit as st

APP_SCRIPT = "app.py"
"""The entry point, in the folder above ``pages/``."""

_INSIDE_APP: ContextVar[bool] = ContextVar("ranklens_inside_app", default=False)


@contextmanager
def running_in_app() -> Iterator[None]:
    """Around ``page.run()`` in ``app.py``: the page runs inside the app."""
    token = _INSIDE_APP.set(True)
    try:
        yield
    finally:
        _INSIDE_APP.reset(token)


def run_through_app(page_file: str) -> None:
    """Call first thing in a page (``page_file`` is its ``__file__``): a page run on its own
    hands the run over to ``app.py``; inside the app it returns at once."""
    if _INSIDE_APP.get():
        return
    runpy.run_path(str(Path(page_file).resolve().parents[1] / APP_SCRIPT), run_name="__main__")
    st.stop()  # app.py has drawn the page; the stand-alone copy of it must not run on

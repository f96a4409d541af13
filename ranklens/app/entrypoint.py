"""Every page runs inside the app, even when Streamlit starts it on its own.

Why this exists: with a folder named ``pages/`` beside the main script (``app.py`` above the
checkout's ``pages/``, ``ranklens/app/main.py`` above the packaged ``ranklens/app/pages/``),
Streamlit starts in its legacy multipage mode. Its documentation says a call to
``st.navigation`` "in any session" makes it disregard ``pages/``, so until a first run has
made that call, a bookmarked ``/mde`` on a freshly started server runs ``pages/mde.py`` on its
own: the folder's list of pages instead of the app's navigation, no shared sidebar, no
share-link handling. Streamlit (1.67) has no public setting that turns the legacy mode off;
its own advice is to name the folder something else (``app_pages/``), and
``client.showSidebarNavigation = false`` only hides the legacy list while the page still runs
alone. ``tests/browser/test_browser_navigation.py`` guards this on a fresh server.

How, with public API only: the main script runs the chosen page inside ``running_in_app()``; a
page calls ``run_through_app(__file__)`` first thing. Run any other way (the legacy mode's first
run, or a page script started by itself), that call runs the main script in its place, in the
same run, so the click or upload that started the run is not lost; the main script's
``st.navigation`` then resolves the page the URL asked for (both modes key a page by its URL
path) and runs it, this time inside the app, and ``st.stop()`` ends the stand-alone copy.

One copy of each page: the pages live in the package (``PAGES``); each file of the checkout's
``pages/`` is a thin entry, ``run_packaged_page(__file__)``, so that ``streamlit run app.py``,
AppTest's ``switch_page("pages/mde.py")`` and the legacy mode find a file there.
"""

from __future__ import annotations

import runpy
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path

import streamlit as st

PAGES = Path(__file__).resolve().parent / "pages"
"""The packaged pages, one file per page (``compare.py``, ``mde.py``, ``ppi.py``,
``methods.py``)."""

APP_SCRIPTS = ("app.py", "main.py")
"""The main script, in the folder above a page's: the checkout's ``app.py``, or the package's
``ranklens/app/main.py`` (the one `ranklens app` serves)."""

_INSIDE_APP: ContextVar[bool] = ContextVar("ranklens_inside_app", default=False)


@contextmanager
def running_in_app() -> Iterator[None]:
    """Around ``page.run()`` in the main script: the page runs inside the app."""
    token = _INSIDE_APP.set(True)
    try:
        yield
    finally:
        _INSIDE_APP.reset(token)


def app_script(page_file: str) -> Path:
    """The main script that serves the page ``page_file`` (see ``APP_SCRIPTS``)."""
    folder = Path(page_file).resolve().parents[1]
    for name in APP_SCRIPTS:
        if (folder / name).is_file():
            return folder / name
    raise FileNotFoundError(f"no {' or '.join(APP_SCRIPTS)} in {folder}, above {page_file}")


def run_through_app(page_file: str) -> None:
    """Call first thing in a page (``page_file`` is its ``__file__``): a page run on its own
    hands the run over to the main script; inside the app it returns at once."""
    if _INSIDE_APP.get():
        return
    runpy.run_path(str(app_script(page_file)), run_name="__main__")
    st.stop()  # the app has drawn the page; the stand-alone copy of it must not run on


def run_packaged_page(entry_file: str) -> None:
    """The whole of a thin entry in the checkout's ``pages/`` (``entry_file`` is its
    ``__file__``): the packaged page of the same file name, run inside the app."""
    run_through_app(entry_file)
    runpy.run_path(str(PAGES / Path(entry_file).name), run_name="__main__")

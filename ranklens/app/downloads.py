"""The "Report (HTML)" download button: a page's results as one offline HTML file.

``html_button`` is the button of any page: it calls ``render`` only when the button is clicked
(charts as SVG take about half a second each), never on an ordinary rerun. ``html_download``
is the Compare page's, for a ``Report``. What each file holds is its renderer's
(``ranklens.compare.html``, ``ranklens.plan.html``, ``ranklens.ppi.html``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import streamlit as st

from ranklens.compare import html as html_report
from ranklens.compare.report import Report

LABEL = "Report (HTML)"


def html_button(render: Callable[[], str], *, file_name: str, help: str,
                container: Any = None, key: str) -> None:
    """A download button for ``render()`` as an HTML file, in ``container`` (or here)."""
    where = st if container is None else container
    where.download_button(
        LABEL, data=render, file_name=file_name, mime="text/html", on_click="ignore",
        icon=":material/download:", key=key, help=help)


def html_download(report: Report, *, container: Any = None, key: str = "html_report") -> None:
    """A download button for ``report`` as self-contained HTML, in ``container`` (or here)."""
    html_button(
        lambda: html_report.render(report), file_name="ranklens-report.html",
        container=container, key=key,
        help="Verdicts, forest plots, tables, inputs with digests and every parameter in one "
             "file that opens without a network.")

"""The "Report (HTML)" download button: the page's report as one offline HTML file.

The HTML is rendered only when the button is clicked (charts as SVG take about half a second
per metric), never on an ordinary rerun. What the file holds is ``ranklens.html_report``'s.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from ranklens import html_report
from ranklens.report import Report


def html_download(report: Report, *, container: Any = None, key: str = "html_report") -> None:
    """A download button for ``report`` as self-contained HTML, in ``container`` (or here)."""
    where = st if container is None else container
    where.download_button(
        "Report (HTML)", data=lambda: html_report.render(report),
        file_name="ranklens-report.html", mime="text/html", on_click="ignore",
        icon=":material/download:", key=key,
        help="Verdicts, forest plots, tables, inputs with digests and every parameter in one "
             "file that opens without a network.")

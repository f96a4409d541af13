"""The tables a page draws as plain HTML (``ranklens.app.blocks.show_html_table``), read back.

`html_tables(at)` answers "which HTML tables does this AppTest page show, and what do their
cells say": each as a data frame of its cells' texts under its headers, in page order.
`table_rows(html)` reads one element's HTML. Nothing here knows a feature.
"""

from __future__ import annotations

from html.parser import HTMLParser
from typing import Any

import pandas as pd


class _Cells(HTMLParser):
    """The rows of every ``<table>`` in a piece of HTML: ``tables[i]`` a list of rows, each a
    list of cell texts (headers included)."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[list[list[str]]] = []
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: Any) -> None:
        if tag == "table":
            self.tables.append([])
        elif tag == "tr" and self.tables:
            self.tables[-1].append([])
        elif tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None and self.tables:
            self.tables[-1][-1].append("".join(self._cell))
            self._cell = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def table_frames(html: str) -> list[pd.DataFrame]:
    """Every table of ``html`` as a frame of its cells' texts (the first row: the headers)."""
    parser = _Cells()
    parser.feed(html)
    return [pd.DataFrame(rows[1:], columns=rows[0]) for rows in parser.tables if rows]


def html_tables(at: Any) -> list[pd.DataFrame]:
    """The HTML tables of an AppTest page (``at.html`` elements holding a ``<table>``), in
    order."""
    return [frame for element in at.html if "<table" in element.value
            for frame in table_frames(element.value)]

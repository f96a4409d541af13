"""The Compare page's collections: the control that declares one, and the section that leads.

`choose_collection` draws the sidebar control (which segment column names each query's test
collection); `show_macro` draws the report's macro average first (``report.macro``,
``ranklens.compare.macro``): the sentence with the pooled mean beside it, the per-collection
forest plot and the BEIR-style table: the blocks of ``ranklens.compare.sections.collections``
drawn by the page's writer (``ranklens.app.blocks``), under a subheader per metric in a bordered
box. No statistics here.
"""

from __future__ import annotations

import streamlit as st

from ranklens.app import markup
from ranklens.app.blocks import show_block, show_chart, show_table
from ranklens.compare.report import Report
from ranklens.compare.sections.collections import collections_section, macro_parts
from ranklens.document.blocks import Chart, Paragraph, Section, Table

NO_COLLECTIONS = "(none)"


def choose_collection(segment_columns: tuple[str, ...], key: str) -> str | None:
    """Sidebar: the segment column that names each query's collection, or None."""
    options = (NO_COLLECTIONS, *segment_columns)
    picked = st.selectbox(
        "Collections", options, index=0, key=f"collection:{key}",
        help="A segment column that names each query's test collection (BEIR's datasets, "
             "TREC DL 2019 and 2020): the page then leads with the macro average of B \u2212 A "
             "over the collections, its interval resampling queries within each, the pooled "
             "mean beside it.")
    return None if picked == NO_COLLECTIONS else str(picked)


def show_macro(report: Report) -> None:
    """The macro average over collections, per candidate and metric (nothing without)."""
    for names, sections in macro_parts(report):
        collections = collections_section(sections, names)
        if collections is None:
            continue
        for metric in collections.blocks:
            assert isinstance(metric, Section)  # a subsection per metric
            st.subheader(f"{collections.title}: {markup.text(metric.title)}", anchor="macro")
            with st.container(border=True):
                _show_metric(metric, names)


def _show_metric(metric: Section, names: tuple[str, str]) -> None:
    """One metric's blocks; the caption under the table says what its last row and the plot's
    top row are."""
    shown = markup.names(names)
    collections = next(len(b.records) - 1 for b in metric.blocks if isinstance(b, Table))
    for block in metric.blocks:
        if isinstance(block, Chart):
            show_chart(block, key=f"macro-forest:{metric.title}:{names[1]}")
        elif isinstance(block, Table):
            show_table(block, key=f"macro-table:{metric.title}:{names[1]}")
        elif isinstance(block, Paragraph) and block.role == "interval-note":
            st.caption(f"{block.text} The last row is the macro average over "
                       f"{collections} collections; the plot's top row is the pooled "
                       f"comparison of {shown[1]} against {shown[0]} over all queries.")
        else:
            show_block(block)

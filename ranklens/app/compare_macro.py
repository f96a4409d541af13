"""The Compare page's collections: the control that declares one, and the section that leads.

`choose_collection` draws the sidebar control (which segment column names each query's test
collection); `show_macro` draws the report's macro average first (``report.macro``,
``ranklens.compare.macro``): the sentence with the pooled mean beside it, the per-collection
forest plot and the BEIR-style table (words and records from ``ranklens.compare.macro_views``).
No statistics here.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from ranklens.app import markup
from ranklens.compare import charts, report_tables
from ranklens.compare.macro_views import (
    MACRO_NOTE,
    MACRO_TITLE,
    macro_cells,
    macro_records,
    macro_sentence,
)
from ranklens.compare.report import Report
from ranklens.compare.text import macro_parts

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
        shown = markup.names(names)
        for section in sections:
            st.subheader(f"{MACRO_TITLE}: {markup.text(section.metric)}", anchor="macro")
            with st.container(border=True):
                st.markdown(f"**{markup.text(macro_sentence(section, names))}**")
                table = report_tables.segment_table(section.collections, names)
                chart = charts.forest_plot(table, metric=section.metric, run_names=names,
                                           alpha=section.collections.overall.alpha,
                                           intervals="marginal")
                st.altair_chart(chart, width="stretch",
                                key=f"macro-forest:{section.metric}:{names[1]}")
                header, rows, _ = macro_cells(section, names)
                records = macro_records(section)
                frame = pd.DataFrame(rows, columns=[h or "sig." for h in header])
                st.dataframe(frame, hide_index=True,
                             key=f"macro-table:{section.metric}:{names[1]}")
                st.caption(f"{MACRO_NOTE} The last row is the macro average over "
                           f"{len(records) - 1} collections; the plot's top row is the pooled "
                           f"comparison of {shown[1]} against {shown[0]} over all queries.")


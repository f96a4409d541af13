"""The files a page read, as the readers read them: one expander, and the rows set aside.

``show_inputs(records)`` answers "which files went into these numbers, and what did the
readers make of them" for the Compare, MDE and PPI pages alike: per file its role, what was
read (rows, queries, rows set aside and why: ``ranklens.io.ReadSummary``), its digest and size,
open when a reader set rows aside. ``warning_lines`` are a page's warnings with those rows
among them. It reads nothing and computes nothing (the records are
``ranklens.compare.report.InputRecord``, made where the files were read).
"""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from ranklens.app.blocks import show_blocks
from ranklens.compare.report import InputRecord
from ranklens.compare.sections.inputs import inputs_section, set_aside_lines


def warning_lines(warnings: Sequence[str], records: Sequence[InputRecord]) -> list[str]:
    """``warnings`` and a line per group of rows a reader set aside (file, rows, reason)."""
    return [*warnings, *set_aside_lines(records)]


def show_inputs(records: Sequence[InputRecord]) -> None:
    """The Inputs expander: every file read and its reader's summary (nothing without files)."""
    if not records:
        return
    set_aside = any(record.summary.get("set_aside") for record in records)
    label = f"Inputs: {len(records)} files read" + (", rows set aside" if set_aside else "")
    with st.expander(label, expanded=set_aside):
        show_blocks(inputs_section(records))  # the Inputs section every face draws

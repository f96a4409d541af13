"""The Compare page's choice of segment intervals: FCR-adjusted by default, marginal a click away.

`choose_intervals` draws the toggle (only where the comparison has FCR intervals) and returns
which intervals the forest plot and the table show; `show_interval_notes` writes the caption
that says which they are and, when a shown interval and its q-value read differently, the
sentence that says so (words from ``ranklens.compare.fcr``). No statistics here.
"""

from __future__ import annotations

import streamlit as st

from ranklens.app import markup
from ranklens.compare.fcr import IntervalChoice
from ranklens.compare.fcr_words import disagreement_sentence, fcr_caption, level_text
from ranklens.compare.segments import MetricComparison

TOGGLE_LABEL = "Show marginal intervals"


def choose_intervals(comparison: MetricComparison, key: str) -> IntervalChoice:
    """The toggle between FCR-adjusted (off, the default) and marginal (on) segment
    intervals; "marginal" without a toggle when the comparison has no FCR intervals."""
    fcr = comparison.fcr
    if fcr is None or not comparison.segments:
        return "marginal"
    marginal = st.toggle(
        TOGGLE_LABEL, key=f"marginal:{key}",
        help=f"Off (default): each segment's interval at {level_text(fcr.level)}, adjusted "
             f"for the {fcr.n_selected} of {fcr.n_comparisons} segments BH selected, so the "
             "picture agrees with the q-values. On: the marginal "
             f"{level_text(1 - fcr.alpha)} intervals, each valid alone.")
    return "marginal" if marginal else "fcr"


def show_interval_notes(comparison: MetricComparison, shown: IntervalChoice) -> None:
    """The caption of the forest plot (which intervals) and, when a segment's shown interval
    and its q-value read differently, a sentence that names it."""
    caption = fcr_caption(comparison, shown)
    if caption:
        st.caption(caption)
    sentence = disagreement_sentence(comparison, shown)
    if sentence:
        st.info(markup.text(sentence), icon=":material/info:")

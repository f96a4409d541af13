"""The sidebar inputs every page shares: the demo switch, the metric pickers, alpha, format help.

Each function draws one widget under the caller's ``key`` and answers its value, so the
Compare, MDE and PPI pages offer the same metrics (``ranklens.metrics.COMMON_METRICS``), the
same significance levels and the same words about file formats. What a page does with the
value is the page's business; nothing here reads a file or computes. ``follow_default`` keeps
an input on its default (the pilot's number of queries, say) until the user types a value:
Streamlit keeps a keyed widget's value when its default changes.
"""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from ranklens.formats import level_number
from ranklens.metrics import COMMON_METRICS

DEMO, UPLOAD = "Demo data", "My files"
ALPHAS = (0.01, 0.05, 0.10)
DEFAULT_ALPHA = 0.05
FORMATS_HELP = ("TREC format (whitespace separated), CSV, TSV, Parquet, JSON lines or a ranx/BEIR "
                "JSON object {query: {doc: score}}; "
                "gzip is fine. Columns are found by name (query_id, doc_id, score, ...).")
TYPE_ANOTHER = "Type another (e.g. nDCG@3, P(rel=2)@10, map_cut_100)."
_DEFAULTS = "_follow_default:"


def uses_demo(key: str, demo_caption: str) -> bool:
    """The "Data" switch: True for the bundled demo (then ``demo_caption`` says what it is),
    False for the user's files."""
    source = st.radio("Data", (DEMO, UPLOAD), horizontal=True, key=key)
    if source == DEMO:
        st.caption(demo_caption)
    return source == DEMO


def metric(key: str) -> str:
    """One metric: the common ones, or any name the user types."""
    return str(st.selectbox("Metric", COMMON_METRICS, key=key, accept_new_options=True,
                            help=TYPE_ANOTHER))


def metrics(key: str, *, default: Sequence[str] = ("nDCG@10",), help: str = "") -> list[str]:
    """Several metrics: the common ones, or any names the user types (``help`` first)."""
    return list(st.multiselect("Metrics", COMMON_METRICS, default=list(default), key=key,
                               accept_new_options=True,
                               help=f"{help} {TYPE_ANOTHER}".strip()))


def alpha(key: str, *, two_sided_test: bool = False) -> float:
    """The significance level, described by its interval level (or as a two-sided test)."""
    def describe(level: float) -> str:
        if two_sided_test:
            return f"{level:g} (two-sided)"
        return f"{level:g}  ({level_number(1 - level)}% intervals)"

    return float(st.selectbox("Significance level (alpha)", ALPHAS,
                              index=ALPHAS.index(DEFAULT_ALPHA), key=key,
                              format_func=describe))


def follow_default(key: str, default: object) -> None:
    """Put ``default`` into the widget state ``key`` unless the user changed that value.

    Call before creating the widget with ``key`` (and without a ``value``): the first run and
    every run after the default moved (another pilot, another spread source) show the new
    default, while a value the user typed stays until they change it again.
    """
    state = st.session_state
    remembered = _DEFAULTS + key
    previous = state.get(remembered, None)
    if key not in state or state[key] == previous:
        state[key] = default
    state[remembered] = default
